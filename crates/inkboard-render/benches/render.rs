//! Render benchmarks (plain `std::time`, medians of repeated runs):
//!
//! - a 199-object flow (100 labelled shapes + 99 connectors): resolve, check of the
//!   resolved scene and PNG at max_size 1600, what the `render` tool does;
//! - the same flow with labels in four faces, and in rich text;
//! - the rich-text flow with every connector labelled, its labels placed;
//! - the sizes of the SVG and PDF of a 12-shape board and of the flows;
//! - a 500-object page to a 1600×1200 PNG;
//! - a 10-page PDF of such flows;
//! - routing 300 orthogonal connectors around 200 shapes: resolve with and without
//!   the connectors, the difference being the routing (search, nudging, labels).
//!
//! Run with `cargo bench -p inkboard-render --bench render`; add `-- flows` to run
//! only the four 199-object flows, `-- labelled` for the labelled one alone (for
//! profiling: `BENCH_RUNS=1` runs each figure once). Set `BENCH_OUT=DIR` to also write
//! the pictures there for a look.

use std::time::{Duration, Instant};

use inkboard_core::{
    Actor, Board, Connector, End, Geom, IdKind, Kind, Object, ObjectId, PageId, Rect, Route, Shape,
    Style, Transaction,
};
use inkboard_render::{check_scene, resolve, to_pdf, to_png, to_png_scaled, to_svg};

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
    flow_of(shapes, cols, connect, |i| {
        format!("Step {i}: check the input")
    })
}

/// The same flow, every label in four faces of the fallback chain: Inter, the
/// bundled symbols and emoji, and a system CJK font.
fn flow_scripts(shapes: usize, cols: usize) -> Board {
    flow_of(shapes, cols, true, |i| format!("Step {i} → 確認 😀"))
}

/// The same flow in rich text: a bold step, italic, inline code and a link in each
/// label, every tenth a two-item list.
fn flow_rich(shapes: usize, cols: usize) -> Board {
    flow_of(shapes, cols, true, rich_label)
}

/// The flow in rich text with every connector labelled, as `render` draws an
/// agent's flowchart: the labels placed on the page (issue 31), a short and a
/// longer one in turn.
fn flow_labelled(shapes: usize, cols: usize) -> Board {
    flow_with(shapes, cols, true, rich_label, |i| {
        if i.is_multiple_of(2) {
            "yes"
        } else {
            "when stocked"
        }
        .to_string()
    })
}

/// A label of [`flow_rich`].
fn rich_label(i: usize) -> String {
    if i.is_multiple_of(10) {
        format!("**Step {i}**\n- check\n- `ship`")
    } else {
        format!("**Step {i}**: *check* the `input` [docs](https://x.io)")
    }
}

fn flow_of(shapes: usize, cols: usize, connect: bool, label: impl Fn(usize) -> String) -> Board {
    flow_with(shapes, cols, connect, label, |_| String::new())
}

/// `shapes` shapes labelled `label(i)` in rows of `cols`, with `connect` each
/// joined to the next by a connector labelled `line(i)`.
fn flow_with(
    shapes: usize,
    cols: usize,
    connect: bool,
    label: impl Fn(usize) -> String,
    line: impl Fn(usize) -> String,
) -> Board {
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
            text: label(i),
            style: Style::default(),
            sizing: inkboard_core::Sizing::Fixed,
            rotation: inkboard_core::Rotation::NONE,
            icon: None,
        };
        tx.insert(PageId(1), None, Object::new(id.clone(), Kind::Shape(shape)))
            .unwrap();
        ids.push(id);
    }
    if connect {
        for (i, pair) in ids.windows(2).enumerate() {
            let id = tx.new_id(IdKind::Connector);
            let mut c = Connector::new(End::Object(pair[0].clone()), End::Object(pair[1].clone()));
            c.route = Route::Orthogonal;
            c.text = line(i);
            tx.insert(PageId(1), None, Object::new(id, Kind::Connector(c)))
                .unwrap();
        }
    }
    tx.commit(Actor::Agent).unwrap();
    board
}

/// The twelve-shape flow of `tests/outputs.rs` (labelled steps, two decisions,
/// two labelled connectors), whose SVG issue 31 measured at 680 KB when it
/// embedded whole faces.
fn twelve_shapes() -> Board {
    const LABELS: [&str; 12] = [
        "Order received",
        "Check stock",
        "In stock?",
        "Reserve items",
        "Back-order",
        "Take payment",
        "Payment ok?",
        "Pack & label",
        "Notify customer",
        "Ship (2–3 days)",
        "Refund",
        "Done",
    ];
    let mut board = Board::new("bench", &[]);
    let mut tx = Transaction::begin(&mut board);
    let mut ids = Vec::new();
    for (i, text) in LABELS.iter().enumerate() {
        let id = tx.new_id(IdKind::Shape);
        let (col, row) = ((i % 4) as f64, (i / 4) as f64);
        let shape = Shape {
            geom: if text.ends_with('?') {
                Geom::Diamond
            } else {
                Geom::Rounded
            },
            bounds: Rect::new(col * 220.0, row * 160.0, 150.0, 80.0),
            text: text.to_string(),
            style: Style::default(),
            sizing: inkboard_core::Sizing::Fixed,
            rotation: inkboard_core::Rotation::NONE,
            icon: None,
        };
        tx.insert(PageId(1), None, Object::new(id.clone(), Kind::Shape(shape)))
            .unwrap();
        ids.push(id);
    }
    for (i, pair) in ids.windows(2).enumerate() {
        let id = tx.new_id(IdKind::Connector);
        let mut c = Connector::new(End::Object(pair[0].clone()), End::Object(pair[1].clone()));
        c.text = match i {
            2 => "yes",
            6 => "approved",
            _ => "",
        }
        .into();
        tx.insert(PageId(1), None, Object::new(id, Kind::Connector(c)))
            .unwrap();
    }
    tx.commit(Actor::Agent).unwrap();
    board
}

/// Prints the sizes of the SVG and PDF exports of `board`'s first page, and
/// the SVG's time.
fn export_sizes(name: &str, board: &Board) {
    let page = PageId(1);
    let scene = resolve(board, page);
    let mut svg = 0;
    let t = median(|| svg = to_svg(&scene, None).len(), 11);
    let pdf = to_pdf(std::slice::from_ref(&scene), "bench").unwrap().len();
    println!(
        "{name}: SVG {svg} bytes ({:.1} KB, {:.1} ms), PDF {pdf} bytes ({:.1} KB)",
        svg as f64 / 1024.0,
        t.as_secs_f64() * 1e3,
        pdf as f64 / 1024.0
    );
}

/// A small deterministic random number generator (a linear congruential one), so
/// the benchmark board is the same on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// 200 shapes of varied sizes on a jittered 20 × 10 grid, and (with `connect`) 300
/// orthogonal connectors between them: to neighbours, and to shapes two or three
/// places away, whose straight paths other shapes block; one in five labelled.
fn maze(connect: bool) -> Board {
    let mut board = Board::new("bench", &[]);
    let mut tx = Transaction::begin(&mut board);
    let mut rng = Lcg(7);
    let mut ids = Vec::new();
    for i in 0..200 {
        let id = tx.new_id(IdKind::Shape);
        let (col, row) = ((i % 20) as f64, (i / 20) as f64);
        let (w, h) = (100.0 + rng.next(60) as f64, 50.0 + rng.next(40) as f64);
        let x = col * 230.0 + rng.next(40) as f64;
        let y = row * 170.0 + rng.next(40) as f64;
        let shape = Shape {
            geom: GEOMS[i % GEOMS.len()],
            bounds: Rect::new(x, y, w, h),
            text: format!("Shape {i}"),
            style: Style::default(),
            sizing: inkboard_core::Sizing::Fixed,
            rotation: inkboard_core::Rotation::NONE,
            icon: None,
        };
        tx.insert(PageId(1), None, Object::new(id.clone(), Kind::Shape(shape)))
            .unwrap();
        ids.push(id);
    }
    if connect {
        let steps = [1, 2, 3, 20, 40, 21, 19, 22];
        let mut made = 0;
        while made < 300 {
            let a = rng.next(200) as usize;
            let b = a + steps[rng.next(steps.len() as u64) as usize];
            if b >= 200 {
                continue;
            }
            let id = tx.new_id(IdKind::Connector);
            let mut c = Connector::new(End::Object(ids[a].clone()), End::Object(ids[b].clone()));
            c.route = Route::Orthogonal;
            if made % 5 == 0 {
                c.text = format!("step {made}");
            }
            tx.insert(PageId(1), None, Object::new(id, Kind::Connector(c)))
                .unwrap();
            made += 1;
        }
    }
    tx.commit(Actor::Agent).unwrap();
    board
}

/// 2,000 equal shapes on a regular 50-column grid and 3,000 orthogonal
/// connectors between shapes picked at random: with every search spanning the
/// page, marking the earlier routes in each window is most of the work, which a
/// budget of grid nodes alone did not see (20-28 s, `RELIABILITY.md` §10).
fn grid_maze() -> Board {
    let mut board = Board::new("bench", &[]);
    let mut tx = Transaction::begin(&mut board);
    let mut rng = Lcg(7);
    let mut ids = Vec::new();
    for i in 0..2000 {
        let id = tx.new_id(IdKind::Shape);
        let shape = Shape {
            geom: Geom::Rect,
            bounds: Rect::new(
                (i % 50) as f64 * 200.0,
                (i / 50) as f64 * 150.0,
                120.0,
                60.0,
            ),
            text: format!("N{i}"),
            style: Style::default(),
            sizing: inkboard_core::Sizing::Fixed,
            rotation: inkboard_core::Rotation::NONE,
            icon: None,
        };
        tx.insert(PageId(1), None, Object::new(id.clone(), Kind::Shape(shape)))
            .unwrap();
        ids.push(id);
    }
    random_connectors(&mut tx, &ids, &mut rng, 3000);
    tx.commit(Actor::Agent).unwrap();
    board
}

/// `n` orthogonal connectors between shapes of `ids` picked at random.
fn random_connectors(tx: &mut Transaction<'_>, ids: &[ObjectId], rng: &mut Lcg, n: usize) {
    let mut made = 0;
    while made < n {
        let count = ids.len() as u64;
        let (a, b) = (rng.next(count) as usize, rng.next(count) as usize);
        if a == b {
            continue;
        }
        let id = tx.new_id(IdKind::Connector);
        let mut c = Connector::new(End::Object(ids[a].clone()), End::Object(ids[b].clone()));
        c.route = Route::Orthogonal;
        tx.insert(PageId(1), None, Object::new(id, Kind::Connector(c)))
            .unwrap();
        made += 1;
    }
}

/// The median wall time of `runs` runs of `f` (`BENCH_RUNS` overrides the count,
/// for profiling), after one to warm up. With `BENCH_CPU` set, also prints the
/// process's CPU time a run (user and system, all threads): on a machine others
/// share, wall time mostly measures the load.
fn median(mut f: impl FnMut(), runs: usize) -> Duration {
    let runs = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(runs)
        .max(1);
    f(); // warm up: fonts, caches
    let cpu = cpu_time();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    if std::env::var_os("BENCH_CPU").is_some() {
        let per_run = (cpu_time() - cpu) / runs as f64;
        println!("    (CPU {:.1} ms a run)", per_run * 1e3);
    }
    times.sort();
    times[runs / 2]
}

/// This process's CPU time so far, in seconds (Linux: `/proc/self/stat`, in
/// clock ticks of 10 ms; 0 elsewhere).
fn cpu_time() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // The fields after the command name (which may hold spaces) in brackets.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after it.
    (ticks(11) + ticks(12)) / 100.0
}

fn main() {
    let out = std::env::var_os("BENCH_OUT").map(std::path::PathBuf::from);
    let page = PageId(1);

    if std::env::args().any(|a| a == "labelled") {
        labelled_flow(&out);
        return;
    }
    let board = flow(100, 10, true);
    assert_eq!(board.object_count(), 199);
    let mut size = (0, 0, 0);
    let t = median(
        || {
            let scene = resolve(&board, page);
            let problems = check_scene(&board, &scene);
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
        ("check", median(|| drop(check_scene(&board, &scene)), 21)),
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

    let scripts = flow_scripts(100, 10);
    let t = median(
        || {
            let scene = resolve(&scripts, page);
            std::hint::black_box(check_scene(&scripts, &scene));
            std::hint::black_box(to_png(&scene, None, 1600).unwrap());
        },
        21,
    );
    println!(
        "199-object flow, labels in four faces (→ 確認 😀), resolve + check + PNG: {:.1} ms median",
        t.as_secs_f64() * 1e3
    );

    let rich = flow_rich(100, 10);
    let t = median(
        || {
            let scene = resolve(&rich, page);
            std::hint::black_box(check_scene(&rich, &scene));
            std::hint::black_box(to_png(&scene, None, 1600).unwrap());
        },
        21,
    );
    println!(
        "199-object flow, rich text labels (bold, italic, code, links, lists), resolve + check + PNG: {:.1} ms median",
        t.as_secs_f64() * 1e3
    );

    let labelled = labelled_flow(&out);

    if std::env::args().any(|a| a == "flows") {
        return;
    }

    export_sizes("12-shape board", &twelve_shapes());
    export_sizes("199-object flow", &flow(100, 10, true));
    export_sizes("199-object flow, rich text, labelled", &labelled);

    // 500 shapes in a 25 × 20 grid (a 4:3 page), drawn to exactly 1600 × 1200.
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
    let board = flow(300, 15, true);
    assert_eq!(board.object_count(), 599);
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
            let pdf = to_pdf(&scenes, "Ten pages").unwrap();
            bytes = pdf.len();
        },
        11,
    );
    println!(
        "10-page PDF (99 objects a page): {:.1} ms median ({} KB)",
        t.as_secs_f64() * 1e3,
        bytes / 1024
    );
    // 300 orthogonal connectors around 200 shapes.
    let shapes_only = maze(false);
    let routed = maze(true);
    assert_eq!(routed.object_count(), 500);
    let with = median(|| drop(resolve(&routed, page)), 11);
    let without = median(|| drop(resolve(&shapes_only, page)), 11);
    println!(
        "300 orthogonal connectors around 200 shapes: routing {:.1} ms (resolve {:.1} ms, {:.1} ms without the connectors)",
        (with.as_secs_f64() - without.as_secs_f64()) * 1e3,
        with.as_secs_f64() * 1e3,
        without.as_secs_f64() * 1e3
    );
    let scene = resolve(&routed, page);
    let t = median(|| drop(check_scene(&routed, &scene)), 11);
    println!("  check: {:.1} ms", t.as_secs_f64() * 1e3);
    if let Some(dir) = &out {
        std::fs::write(
            dir.join("maze.png"),
            to_png(&scene, None, 2400).unwrap().data,
        )
        .unwrap();
        // A corner at full size, where the routes can be followed.
        let corner = Rect::new(-20.0, -20.0, 1400.0, 900.0);
        std::fs::write(
            dir.join("maze_corner.png"),
            to_png(&scene, Some(corner), 1400).unwrap().data,
        )
        .unwrap();
    }

    piled_check(page);
    let far = far_maze();
    let t = median(|| drop(resolve(&far, page)), 3);
    println!(
        "2,000 shapes and 3,000 orthogonal connectors between shapes far apart, resolve (routing past its budget): {:.0} ms median (target <= 1 s)",
        t.as_secs_f64() * 1e3
    );
    let grid = grid_maze();
    let t = median(|| drop(resolve(&grid, page)), 3);
    println!(
        "  the same on a regular 50-column grid (20-28 s when the budget counted grid nodes only): {:.0} ms median (target <= 1 s)",
        t.as_secs_f64() * 1e3
    );

    if let Some(dir) = &out {
        let scene = resolve(&big, page);
        std::fs::write(
            dir.join("big.png"),
            to_png(&scene, None, 1600).unwrap().data,
        )
        .unwrap();
        let scenes: Vec<_> = pages.iter().map(|b| resolve(b, page)).collect();
        std::fs::write(dir.join("ten.pdf"), to_pdf(&scenes, "Ten pages").unwrap()).unwrap();
    }
}

/// Measures the rich-text flow with every connector labelled, and returns it.
fn labelled_flow(out: &Option<std::path::PathBuf>) -> Board {
    let labelled = flow_labelled(100, 10);
    let page = PageId(1);
    let t = median(
        || {
            let scene = resolve(&labelled, page);
            std::hint::black_box(check_scene(&labelled, &scene));
            std::hint::black_box(to_png(&scene, None, 1600).unwrap());
        },
        21,
    );
    println!(
        "199-object flow, rich text and every connector labelled (labels placed), resolve + check + PNG: {:.1} ms median (target <= 25 ms)",
        t.as_secs_f64() * 1e3
    );
    let scene = resolve(&labelled, page);
    let parts = [
        ("resolve", median(|| drop(resolve(&labelled, page)), 21)),
        ("check", median(|| drop(check_scene(&labelled, &scene)), 21)),
        (
            "png",
            median(|| drop(to_png(&scene, None, 1600).unwrap()), 21),
        ),
    ];
    for (name, t) in parts {
        println!("  {name}: {:.1} ms", t.as_secs_f64() * 1e3);
    }
    if let Some(dir) = out {
        std::fs::write(
            dir.join("flow_labelled.png"),
            to_png(&scene, None, 1600).unwrap().data,
        )
        .unwrap();
        std::fs::write(dir.join("flow_labelled.svg"), to_svg(&scene, None)).unwrap();
    }
    labelled
}

/// 100,000 shapes piled on a 2,000-unit square, so that almost every one overlaps
/// others: `check` lists the first problems of each kind and stops (see
/// `check.rs`'s `MAX_PER_KIND`), so its time and memory stay bounded. Memory is
/// the peak resident size while it runs, the peak reset first (Linux).
fn piled_check(page: PageId) {
    let mut board = Board::new("bench", &[]);
    let mut tx = Transaction::begin(&mut board);
    let mut rng = Lcg(11);
    for _ in 0..100_000 {
        let id = tx.new_id(IdKind::Shape);
        let shape = Shape {
            geom: Geom::Rect,
            bounds: Rect::new(rng.next(2000) as f64, rng.next(2000) as f64, 80.0, 40.0),
            text: String::new(),
            style: Style::default(),
            sizing: inkboard_core::Sizing::Fixed,
            rotation: inkboard_core::Rotation::NONE,
            icon: None,
        };
        tx.insert(PageId(1), None, Object::new(id, Kind::Shape(shape)))
            .unwrap();
    }
    tx.commit(Actor::Agent).unwrap();
    let scene = resolve(&board, page);
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let t = Instant::now();
    let problems = check_scene(&board, &scene);
    let elapsed = t.elapsed();
    let peak = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .unwrap_or(0);
    println!(
        "check of 100,000 piled shapes: {:.0} ms, {} problems listed, peak resident {} MiB (targets: <= 2 s, <= 1 GB)",
        elapsed.as_secs_f64() * 1e3,
        problems.len(),
        peak / 1024
    );
}

/// 2,000 shapes on a jittered 45-column grid and 3,000 orthogonal connectors
/// between shapes picked at random across the page: every search would grow its
/// window to the whole page, so routing runs into its budget (`route/connectors.rs`'s
/// `ROUTING_BUDGET`) and the rest take simple routes.
fn far_maze() -> Board {
    let mut board = Board::new("bench", &[]);
    let mut tx = Transaction::begin(&mut board);
    let mut rng = Lcg(13);
    let mut ids = Vec::new();
    for i in 0..2000 {
        let id = tx.new_id(IdKind::Shape);
        let (col, row) = ((i % 45) as f64, (i / 45) as f64);
        let shape = Shape {
            geom: GEOMS[i % GEOMS.len()],
            bounds: Rect::new(
                col * 230.0 + rng.next(40) as f64,
                row * 170.0 + rng.next(40) as f64,
                100.0 + rng.next(60) as f64,
                50.0 + rng.next(40) as f64,
            ),
            text: format!("Shape {i}"),
            style: Style::default(),
            sizing: inkboard_core::Sizing::Fixed,
            rotation: inkboard_core::Rotation::NONE,
            icon: None,
        };
        tx.insert(PageId(1), None, Object::new(id.clone(), Kind::Shape(shape)))
            .unwrap();
        ids.push(id);
    }
    random_connectors(&mut tx, &ids, &mut rng, 3000);
    tx.commit(Actor::Agent).unwrap();
    board
}
