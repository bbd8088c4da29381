//! Swimlanes drawn (issue 32, item 5): each fixture of `tests/lanes/`
//! (`NAME.json`: a `batch` of operations building a pool of lanes, and the
//! `layout` arguments) is built with the real tools, laid out with `layout`
//! `"algorithm": "lanes"` going right, and again going down (`NAME-down`), and
//! held to rules that fail on their own whatever the pictures say:
//!
//! - `problems`: the checker finds nothing on the page (no line through a
//!   shape or a lane it has no business in, no crossing, no label on a line);
//! - `lanes`: every shape is still held by the lane that held it, the lanes
//!   keep their order across the flow, touch, are all of one length, and the
//!   pool holds them;
//! - `forward`: every line but the ones the fixture says go back ends beyond
//!   its start along the flow.
//!
//! - `drawio`: the lanes go to draw.io as swimlanes in their pool
//!   (`horizontal=0` for rows), each shape a child of its lane, and come back
//!   as the same frames holding the same shapes.
//!
//! The board it comes to is kept as text (`NAME.board.txt`: each shape's text
//! and box) and drawn as reference renders, `NAME.svg` and `NAME.png`
//! (`UPDATE_EXPECT=1 cargo test -p inkboard-tools --test lanes_renders`
//! rewrites them: look at the PNGs before committing).

mod common;

use std::path::{Path, PathBuf};

use inkboard_core::{Board, Geom, Kind, ObjectId, Rect};
use inkboard_tools::Engine;
use serde_json::{json, Value};

use common::pictures::check_drawing;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lanes")
}

/// The shapes of the first page: id, text, box, and whether it is a frame.
fn shapes(board: &Board) -> Vec<(ObjectId, String, Rect, bool)> {
    board.pages()[0]
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) => Some((
                o.id.clone(),
                s.text.clone(),
                s.bounds,
                s.geom == Geom::Frame,
            )),
            _ => None,
        })
        .collect()
}

/// The innermost frame holding each shape that is not a frame (by text).
fn lane_of(board: &Board) -> Vec<(String, Option<String>)> {
    let all = shapes(board);
    all.iter()
        .filter(|s| !s.3)
        .map(|(_, text, b, _)| {
            let lane = all
                .iter()
                .filter(|f| f.3 && f.2.contains(b))
                .min_by(|p, q| (p.2.w * p.2.h).total_cmp(&(q.2.w * q.2.h)))
                .map(|f| f.1.clone());
            (text.clone(), lane)
        })
        .collect()
}

/// The lanes (frames holding no frame, inside one) in their order across the
/// flow.
fn lanes(board: &Board, rows: bool) -> Vec<(String, Rect)> {
    let all = shapes(board);
    let mut out: Vec<(String, Rect)> = all
        .iter()
        .filter(|f| f.3 && !all.iter().any(|g| g.3 && g.0 != f.0 && f.2.contains(&g.2)))
        .map(|f| (f.1.clone(), f.2))
        .collect();
    out.sort_by(|p, q| match rows {
        true => p.1.y.total_cmp(&q.1.y),
        false => p.1.x.total_cmp(&q.1.x),
    });
    out
}

/// A board built from `fixture`'s operations in `folder`, as read back, before
/// and after `layout` with `args`.
fn built(folder: &Path, fixture: &Value, args: &Value) -> (Board, Board) {
    let path = folder.join("lanes.inkboard");
    let engine = Engine::new();
    engine
        .call("create_board", json!({"path": path, "overwrite": true}))
        .expect("create_board");
    engine
        .call(
            "batch",
            json!({"path": path, "operations": fixture["operations"]}),
        )
        .expect("batch");
    let before = inkboard_format::load(&path).expect("load").board;
    let mut args = args.clone();
    args["path"] = json!(path);
    engine.call("layout", args).expect("layout");
    (before, inkboard_format::load(&path).expect("load").board)
}

/// The rules' failures for one laid-out board.
fn rules(name: &str, before: &Board, board: &Board, rows: bool, back: usize) -> Vec<String> {
    let mut failures = Vec::new();
    let page = &board.pages()[0];
    for p in inkboard_render::check(board, page.id) {
        failures.push(format!("{name}: problems: {:?} {}", p.kind, p.message));
    }
    if lane_of(before) != lane_of(board) {
        failures.push(format!(
            "{name}: lanes: shapes changed lanes: {:?} became {:?}",
            lane_of(before),
            lane_of(board)
        ));
    }
    let (was, now) = (lanes(before, true), lanes(board, rows));
    let names = |l: &[(String, Rect)]| l.iter().map(|p| p.0.clone()).collect::<Vec<_>>();
    if names(&was) != names(&now) {
        failures.push(format!("{name}: lanes: order {:?}", names(&now)));
    }
    for w in now.windows(2) {
        let (a, b) = (w[0].1, w[1].1);
        let (touch, same) = match rows {
            true => (a.bottom() == b.y, a.x == b.x && a.w == b.w),
            false => (a.right() == b.x, a.y == b.y && a.h == b.h),
        };
        if !touch || !same {
            failures.push(format!("{name}: lanes: {a:?} and {b:?} do not line up"));
        }
    }
    let pool = shapes(board)
        .into_iter()
        .find(|s| s.1 == "Order process")
        .expect("the pool");
    if now.iter().any(|l| !pool.2.contains(&l.1)) {
        failures.push(format!("{name}: lanes: the pool does not hold them all"));
    }
    let against = page
        .objects
        .iter()
        .filter(|o| match &o.kind {
            Kind::Connector(c) => {
                let (Some(s), Some(t)) = (
                    c.from.object().and_then(|id| board.bounds(id)),
                    c.to.object().and_then(|id| board.bounds(id)),
                ) else {
                    return true;
                };
                match rows {
                    true => t.x < s.right(),
                    false => t.y < s.bottom(),
                }
            }
            _ => false,
        })
        .count();
    if against != back {
        failures.push(format!(
            "{name}: forward: {against} lines go back, not {back}"
        ));
    }
    failures
}

/// The failures of the draw.io round trip: the lanes go out as swimlanes in
/// their pool (`horizontal=0` for rows), each shape in its lane, and come back
/// as frames holding the same shapes at the same places.
fn drawio(name: &str, board: &Board, rows: bool) -> Vec<String> {
    let mut failures = Vec::new();
    let xml = inkboard_interop::to_drawio(board);
    let all = shapes(board);
    let id_of = |text: &str| all.iter().find(|s| s.1 == text).map(|s| s.0.to_string());
    let pool = id_of("Order process").expect("the pool");
    let horizontal = xml.matches("horizontal=0;").count();
    let want = if rows { 4 } else { 0 };
    if horizontal != want {
        failures.push(format!(
            "{name}: drawio: {horizontal} horizontal swimlanes, not {want}"
        ));
    }
    for (lane, _) in lanes(board, rows) {
        let id = id_of(&lane).expect("a lane");
        if !xml.contains(&format!("id=\"{id}\" value=\"{lane}\" style=\"swimlane;"))
            || !xml.contains(&format!("parent=\"{pool}\">"))
        {
            failures.push(format!(
                "{name}: drawio: lane {lane} is not a swimlane in the pool"
            ));
        }
    }
    for (text, lane) in lane_of(board) {
        let (Some(id), Some(lane)) = (id_of(&text), lane.and_then(|l| id_of(&l))) else {
            continue;
        };
        let cell = xml
            .split("<mxCell ")
            .find(|c| c.starts_with(&format!("id=\"{id}\"")));
        if !cell.is_some_and(|c| c.contains(&format!("parent=\"{lane}\""))) {
            failures.push(format!("{name}: drawio: {text} is not a child of its lane"));
        }
    }
    let back = inkboard_interop::import(xml.as_bytes(), Some("lanes.drawio")).expect("import");
    // draw.io draws a container's children right after it, so the page order
    // comes back lane by lane: each shape is still over its lane.
    let sorted = |b: &Board| {
        let mut lines: Vec<String> = summary(b).lines().map(str::to_string).collect();
        lines.sort();
        lines
    };
    let mut lanes_back = lane_of(&back.board);
    let mut lanes_now = lane_of(board);
    lanes_back.sort();
    lanes_now.sort();
    if sorted(&back.board) != sorted(board) || lanes_back != lanes_now {
        failures.push(format!(
            "{name}: drawio: came back as\n{}",
            summary(&back.board)
        ));
    }
    failures
}

/// Each shape's text and box, one a line, in page order.
fn summary(board: &Board) -> String {
    shapes(board)
        .iter()
        .map(|(_, text, r, _)| format!("{text}: {} {} {} {}\n", r.x, r.y, r.w, r.h))
        .collect()
}

#[test]
fn swimlanes_draw_clean() {
    let runtime = tempfile::tempdir().expect("runtime dir");
    // SAFETY: set before any engine runs in this process; no other thread reads it yet.
    unsafe { std::env::set_var("INKBOARD_RUNTIME_DIR", runtime.path()) };
    let mut failures = Vec::new();
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("the fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no fixtures in {}", dir().display());
    for input in &inputs {
        let stem = input.file_stem().and_then(|n| n.to_str()).expect("a name");
        let fixture: Value =
            serde_json::from_str(&std::fs::read_to_string(input).expect("read")).expect("JSON");
        let back = fixture["back"].as_u64().unwrap_or(0) as usize;
        for (name, rows, direction) in [
            (stem.to_string(), true, None),
            (format!("{stem}-down"), false, Some("down")),
        ] {
            let mut args = fixture["layout"].clone();
            if let Some(d) = direction {
                args["direction"] = json!(d);
            }
            let folder = tempfile::tempdir().expect("a folder");
            let (before, board) = built(folder.path(), &fixture, &args);
            failures.extend(rules(&name, &before, &board, rows, back));
            failures.extend(drawio(&name, &board, rows));
            let txt = dir().join(format!("{name}.board.txt"));
            failures.extend(common::expect_file(&txt, &summary(&board), &name));
            check_drawing(&board, &name, &dir(), &mut failures);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// How long `layout` with lanes takes on a large page: 5 lanes of 100 shapes
/// each in a pool, each shape linked to the next in its lane and every tenth
/// to a shape of the next lane. A figure for `docs/performance.md` (Diagrams):
/// `cargo test -p inkboard-tools --test lanes_renders -- --ignored --nocapture`.
#[test]
#[ignore]
fn a_large_pool_in_time() {
    let (lanes, per) = (5usize, 100usize);
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("large.inkboard");
    let engine = Engine::new();
    engine
        .call("create_board", json!({"path": path, "overwrite": true}))
        .expect("create_board");
    // In batches of at most 200 operations, ids read from each answer.
    let batch = |ops: Vec<Value>| -> Vec<String> {
        let out = engine
            .call("batch", json!({"path": path, "operations": ops}))
            .expect("batch");
        let inkboard_tools::Reply::Json(out) = out else {
            panic!("batch answers JSON");
        };
        out["results"]
            .as_array()
            .map(|r| {
                r.iter()
                    .filter_map(|v| v["id"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut frames = vec![
        json!({"tool": "add_shape", "args": {"geom": "frame", "text": "Pool",
        "x": 0, "y": 0, "w": 20000, "h": 400 * lanes + 100}}),
    ];
    for l in 0..lanes {
        frames.push(
            json!({"tool": "add_shape", "args": {"geom": "frame", "text": format!("Lane {l}"),
            "x": 20, "y": 50 + 400 * l, "w": 19960, "h": 390}}),
        );
    }
    batch(frames);
    let mut ids: Vec<Vec<String>> = Vec::new();
    for l in 0..lanes {
        ids.push(batch(
            (0..per)
                .map(|k| {
                    json!({"tool": "add_shape", "args": {"text": format!("s{l}.{k}"),
                        "x": 40 + 190 * k, "y": 120 + 400 * l}})
                })
                .collect(),
        ));
    }
    let mut links = Vec::new();
    for l in 0..lanes {
        for k in 1..per {
            links.push((ids[l][k - 1].clone(), ids[l][k].clone()));
            if k % 10 == 0 && l + 1 < lanes {
                links.push((ids[l][k].clone(), ids[l + 1][k].clone()));
            }
        }
    }
    assert_eq!(
        ids.iter().map(Vec::len).sum::<usize>(),
        lanes * per,
        "the shapes' ids"
    );
    for chunk in links.chunks(200) {
        batch(
            chunk
                .iter()
                .map(|(a, b)| json!({"tool": "add_connector", "args": {"from": a, "to": b}}))
                .collect(),
        );
    }
    let started = std::time::Instant::now();
    engine
        .call("layout", json!({"path": path, "algorithm": "lanes"}))
        .expect("layout");
    let laid = started.elapsed();
    let board = inkboard_format::load(&path).expect("load").board;
    let started = std::time::Instant::now();
    let problems = inkboard_render::check(&board, board.pages()[0].id);
    let pool = shapes(&board)
        .into_iter()
        .find(|s| s.1 == "Pool")
        .expect("the pool");
    let lines = board.pages()[0]
        .objects
        .iter()
        .filter(|o| matches!(o.kind, Kind::Connector(_)))
        .count();
    println!(
        "lanes: {} shapes and {lines} lines in {lanes} lanes (pool {:.0} × {:.0}) laid out in {:.2} s; checked in {:.2} s, {} problems",
        lanes * per,
        pool.2.w,
        pool.2.h,
        laid.as_secs_f64(),
        started.elapsed().as_secs_f64(),
        problems.len()
    );
}

/// A pool as draw.io's own template draws it (`tests/lanes/drawio-pool.drawio`:
/// a horizontal pool of three horizontal lanes, each shape a child of its lane
/// at coordinates relative to it) comes in with `import` as a frame holding
/// three frames, each holding its shape; `layout` with lanes then keeps each
/// shape in its lane, and the checker finds nothing, the line from the first
/// lane to the third crossing the second.
#[test]
fn a_drawio_pool_comes_in_as_lanes() {
    let runtime = tempfile::tempdir().expect("runtime dir");
    // SAFETY: set before any engine runs in this process; no other thread reads it yet.
    unsafe { std::env::set_var("INKBOARD_RUNTIME_DIR", runtime.path()) };
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("pool.inkboard");
    let engine = Engine::new();
    engine
        .call(
            "import",
            json!({"path": path, "source": dir().join("drawio-pool.drawio")}),
        )
        .expect("import");
    let before = inkboard_format::load(&path).expect("load").board;
    let want = vec![
        ("Order".to_string(), Some("Customer".to_string())),
        ("Confirm".to_string(), Some("Shop".to_string())),
        ("Deliver".to_string(), Some("Courier".to_string())),
    ];
    assert_eq!(lane_of(&before), want, "each shape in its lane");
    let names: Vec<String> = lanes(&before, true).into_iter().map(|l| l.0).collect();
    assert_eq!(names, ["Customer", "Shop", "Courier"]);
    engine
        .call("layout", json!({"path": path, "algorithm": "lanes"}))
        .expect("layout");
    let board = inkboard_format::load(&path).expect("load").board;
    assert_eq!(lane_of(&board), want, "each shape still in its lane");
    let problems: Vec<String> = inkboard_render::check(&board, board.pages()[0].id)
        .into_iter()
        .map(|p| p.message)
        .collect();
    assert!(problems.is_empty(), "{problems:#?}");
    // The line from the first lane to the third runs straight across the
    // second: no longer than the way between its ends' centres, with a turn's
    // slack, and through the second lane.
    let page = &board.pages()[0];
    let all = shapes(&board);
    let at = |text: &str| all.iter().find(|s| s.1 == text).expect("a shape").clone();
    let (order, deliver, shop) = (at("Order"), at("Deliver"), at("Shop"));
    let scene = inkboard_render::resolve(&board, page.id);
    let line = page
        .objects
        .iter()
        .find(|o| match &o.kind {
            Kind::Connector(c) => {
                c.from.object() == Some(&order.0) && c.to.object() == Some(&deliver.0)
            }
            _ => false,
        })
        .expect("the line from Order to Deliver");
    let item = scene.items.iter().find(|i| i.id == line.id).expect("drawn");
    let segs = item
        .parts
        .iter()
        .find_map(|p| match p {
            inkboard_render::scene::Part::Path(p) => Some(&p.segs),
            _ => None,
        })
        .expect("a path");
    let points = inkboard_render::route::polyline(segs);
    let length: f64 = points
        .windows(2)
        .map(|w| (w[1].x - w[0].x).abs() + (w[1].y - w[0].y).abs())
        .sum();
    let (a, b) = (order.2.center(), deliver.2.center());
    let direct = (b.x - a.x).abs() + (b.y - a.y).abs();
    assert!(
        length <= direct + 40.0,
        "{length} px for {direct} px: {points:?}"
    );
    let inner = shop.2.grown(-1.0);
    assert!(
        points
            .iter()
            .any(|p| inner.x < p.x && p.x < inner.right() && inner.y < p.y && p.y < inner.bottom())
            || points.windows(2).any(|w| {
                let r = inkboard_core::Rect::around([w[0], w[1]]).expect("a segment");
                r.overlaps(&inner)
            }),
        "the line does not cross the Shop lane: {points:?}"
    );
}
