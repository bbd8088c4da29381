//! What the application does per change, on the server side (plain `std::time`,
//! medians): drawing a whole page into per-object fragments (`view::draw`), and
//! the first full scene a window is sent (`Shown::diff`, serialized), for pages of
//! 200, 2,000 and 10,000 objects (shapes in a grid, each connected to the next).
//!
//! Run with `cargo bench -p inkboard-app --bench view`.

use std::time::{Duration, Instant};

use inkboard_app::view::{draw, Shown};
use inkboard_core::{
    Actor, Board, Connector, End, Geom, IdKind, Kind, Object, PageId, Rect, Route, Shape, Style,
    Transaction,
};

/// `n` objects: about half labelled shapes, half connectors between neighbours.
fn page(n: usize) -> Board {
    let mut board = Board::new("bench", &[]);
    let mut tx = Transaction::begin(&mut board);
    let shapes = n.div_ceil(2);
    let cols = (shapes as f64).sqrt().ceil() as usize;
    let mut ids = Vec::new();
    for i in 0..shapes {
        let id = tx.new_id(IdKind::Shape);
        let (col, row) = ((i % cols) as f64, (i / cols) as f64);
        let shape = Shape {
            geom: [Geom::Rounded, Geom::Rect, Geom::Ellipse, Geom::Note][i % 4],
            bounds: Rect::new(col * 200.0, row * 150.0, 140.0, 80.0),
            text: format!("Step {i}: check"),
            style: Style::default(),
            sizing: inkboard_core::Sizing::Fixed,
            rotation: inkboard_core::Rotation::NONE,
            icon: None,
        };
        tx.insert(PageId(1), None, Object::new(id.clone(), Kind::Shape(shape)))
            .expect("insert");
        ids.push(id);
    }
    for pair in ids.windows(2).take(n - shapes) {
        let id = tx.new_id(IdKind::Connector);
        let mut c = Connector::new(End::Object(pair[0].clone()), End::Object(pair[1].clone()));
        c.route = Route::Orthogonal;
        tx.insert(PageId(1), None, Object::new(id, Kind::Connector(c)))
            .expect("insert");
    }
    tx.commit(Actor::Agent).expect("commit");
    board
}

fn median(mut f: impl FnMut(), runs: usize) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn main() {
    println!("| objects | draw page | first scene message | message size |");
    println!("|---|---|---|---|");
    for (n, runs) in [(200, 21), (2000, 7), (10_000, 3)] {
        let board = page(n);
        let id = board.pages()[0].id;
        let drawn = median(|| drop(draw(&board, id)), runs);

        let view = draw(&board, id);
        let mut size = 0;
        let first = median(
            || {
                let mut shown = Shown::default();
                let message = shown.diff(1, &view, true, Vec::new());
                size = message.map(|m| m.to_string().len()).unwrap_or(0);
            },
            runs,
        );
        println!(
            "| {n} | {:.1} ms | {:.1} ms | {:.1} MiB |",
            drawn.as_secs_f64() * 1e3,
            first.as_secs_f64() * 1e3,
            size as f64 / 1048576.0
        );
    }
}
