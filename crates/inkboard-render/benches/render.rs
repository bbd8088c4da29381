//! Render benchmarks (plain `std::time`, medians of repeated runs):
//!
//! - a 199-object flow (100 labelled shapes + 99 connectors): resolve + check + PNG
//!   at max_size 1600, what the `render` tool does;
//! - a 500-object page to a 1600×1200 PNG;
//! - a 10-page PDF of such flows.
//!
//! Run with `cargo bench -p inkboard-render --bench render`. Set `BENCH_OUT=DIR` to
//! also write the pictures there for a look.

use std::time::{Duration, Instant};

use inkboard_core::{
    Actor, Board, Connector, End, Geom, IdKind, Kind, Object, PageId, Rect, Route, Shape, Style,
    Transaction,
};
use inkboard_render::{check, resolve, to_pdf, to_png, to_png_scaled};

const GEOMS: [Geom; 6] = [
    Geom::Rounded,
    Geom::Rect,
    Geom::Ellipse,
    Geom::Diamond,
    Geom::Note,
    Geom::Hexagon,
];

/// `shapes` labelled shapes in rows of `cols`, each connected to the next.
fn flow(shapes: usize, cols: usize, connect: bool) -> Board {
    let mut board = Board::new("bench", &[]);
    let mut tx = Transaction::begin(&mut board);
    let mut ids = Vec::new();
    for i in 0..shapes {
        let id = tx.new_id(IdKind::Shape);
        let (col, row) = ((i % cols) as f64, (i / cols) as f64);
        let geom = GEOMS[i % GEOMS.len()];
        let bounds = Rect::new(col * 200.0, row * 150.0, 140.0, 80.0);
        let shape = Shape {
            geom,
            bounds,
            text: format!("Step {i}: check the input"),
            style: Style::default(),
        };
        tx.insert(PageId(1), None, Object::new(id.clone(), Kind::Shape(shape)))
            .unwrap();
        ids.push(id);
    }
    if connect {
        for pair in ids.windows(2) {
            let id = tx.new_id(IdKind::Connector);
            let mut c = Connector::new(End::Object(pair[0].clone()), End::Object(pair[1].clone()));
            c.route = Route::Orthogonal;
            tx.insert(PageId(1), None, Object::new(id, Kind::Connector(c)))
                .unwrap();
        }
    }
    tx.commit(Actor::Agent).unwrap();
    board
}

fn median(mut f: impl FnMut(), runs: usize) -> Duration {
    f(); // warm up: fonts, caches
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
    let out = std::env::var_os("BENCH_OUT").map(std::path::PathBuf::from);
    let page = PageId(1);

    let board = flow(100, 10, true);
    assert_eq!(board.object_count(), 199);
    let mut size = (0, 0, 0);
    let t = median(
        || {
            let scene = resolve(&board, page);
            let problems = check(&board, page);
            let png = to_png(&scene, None, 1600).unwrap();
            std::hint::black_box(problems);
            size = (png.width, png.height, png.data.len());
        },
        21,
    );
    println!(
        "199-object flow, resolve + check + PNG (max 1600): {:.1} ms median ({}×{}, {} KB)",
        t.as_secs_f64() * 1e3,
        size.0,
        size.1,
        size.2 / 1024
    );
    let scene = resolve(&board, page);
    let parts = [
        ("resolve", median(|| drop(resolve(&board, page)), 21)),
        ("check", median(|| drop(check(&board, page)), 21)),
        (
            "png",
            median(|| drop(to_png(&scene, None, 1600).unwrap()), 21),
        ),
    ];
    for (name, t) in parts {
        println!("  {name}: {:.1} ms", t.as_secs_f64() * 1e3);
    }
    if let Some(dir) = &out {
        std::fs::write(
            dir.join("flow.png"),
            to_png(&scene, None, 1600).unwrap().data,
        )
        .unwrap();
    }

    // 500 shapes in a 25 × 20 grid (a 4:3 page), drawn to exactly 1600 × 1200.
    let board = flow(300, 15, true);
    assert_eq!(board.object_count(), 599);
    let big = flow(500, 25, false);
    let t = median(
        || {
            let scene = resolve(&big, page);
            let b = scene.bounds;
            let w = b.w.max(b.h * 4.0 / 3.0);
            let view = Rect::new(b.x, b.y, w, w * 0.75);
            let png = to_png_scaled(&scene, Some(view), (1600.0 / view.w) as f32).unwrap();
            assert_eq!((png.width, png.height), (1600, 1200));
        },
        11,
    );
    println!(
        "500-object page, resolve + PNG 1600×1200: {:.1} ms median",
        t.as_secs_f64() * 1e3
    );
    let t = median(
        || {
            let scene = resolve(&board, page);
            std::hint::black_box(to_png(&scene, None, 1600).unwrap());
        },
        11,
    );
    println!(
        "599-object flow (300 shapes + 299 connectors), PNG max 1600: {:.1} ms median",
        t.as_secs_f64() * 1e3
    );

    // Ten pages, each a 99-object flow (50 shapes + 49 connectors).
    let pages: Vec<Board> = (0..10).map(|_| flow(50, 10, true)).collect();
    let mut bytes = 0;
    let t = median(
        || {
            let scenes: Vec<_> = pages.iter().map(|b| resolve(b, page)).collect();
            let pdf = to_pdf(&scenes).unwrap();
            bytes = pdf.len();
        },
        11,
    );
    println!(
        "10-page PDF (99 objects a page): {:.1} ms median ({} KB)",
        t.as_secs_f64() * 1e3,
        bytes / 1024
    );
    if let Some(dir) = &out {
        let scene = resolve(&big, page);
        std::fs::write(
            dir.join("big.png"),
            to_png(&scene, None, 1600).unwrap().data,
        )
        .unwrap();
        let scenes: Vec<_> = pages.iter().map(|b| resolve(b, page)).collect();
        std::fs::write(dir.join("ten.pdf"), to_pdf(&scenes).unwrap()).unwrap();
    }
}
