//! Auto-placement (tools.md, add_shape): without x/y a shape goes in free space,
//! overlapping nothing on the page, including what was added earlier in the same
//! batch; with one of x/y it keeps that one and still overlaps nothing. Relative
//! placement (`right_of`, `left_of`, `below`, `above`, `inside` in `add_shape`,
//! `move` and `duplicate`) overlaps nothing either, but the frames it lies in.

mod common;

use common::Board;
use inkboard_tools::Engine;
use serde_json::{json, Value};

/// A small deterministic generator, so the test is the same on every run.
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

#[derive(Debug)]
struct Rect {
    id: String,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    frame: bool,
}

fn rects(objects: &Value) -> Vec<Rect> {
    objects
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["type"] == "shape" || o["type"] == "image")
        .map(|o| Rect {
            id: o["id"].as_str().unwrap().to_string(),
            x: o["x"].as_f64().unwrap(),
            y: o["y"].as_f64().unwrap(),
            w: o["w"].as_f64().unwrap(),
            h: o["h"].as_f64().unwrap(),
            frame: o["geom"] == "frame",
        })
        .collect()
}

fn overlap(a: &Rect, b: &Rect) -> bool {
    a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
}

/// True when `inner` lies wholly in `outer`.
fn contains(outer: &Rect, inner: &Rect) -> bool {
    inner.x >= outer.x
        && inner.y >= outer.y
        && inner.x + inner.w <= outer.x + outer.w
        && inner.y + inner.h <= outer.y + outer.h
}

/// True when `a` and `b` may overlap: one is a frame holding the other.
fn nested(a: &Rect, b: &Rect) -> bool {
    (a.frame && contains(a, b)) || (b.frame && contains(b, a))
}

/// The shapes on the board's first page.
fn page_rects(board: &Board, engine: &Engine) -> Vec<Rect> {
    let page = board.call(engine, "read_board", json!({})).unwrap();
    rects(&page["page"]["objects"])
}

/// Frames (one nested in another) holding shapes, and loose shapes, none
/// overlapping but for what frames hold.
fn framed_board(engine: &Engine) -> Board {
    let board = Board::new(engine, &[]);
    board
        .batch(
            engine,
            json!([
                {"tool": "add_shape", "args": {"geom": "frame", "text": "lane", "x": 0, "y": 0, "w": 600, "h": 400}},
                {"tool": "add_shape", "args": {"text": "a", "x": 40, "y": 60, "w": 120, "h": 60}},
                {"tool": "add_shape", "args": {"text": "b", "x": 240, "y": 60, "w": 120, "h": 60}},
                {"tool": "add_shape", "args": {"geom": "frame", "text": "outer", "x": 800, "y": 0, "w": 700, "h": 500}},
                {"tool": "add_shape", "args": {"geom": "frame", "text": "inner", "x": 840, "y": 60, "w": 300, "h": 200}},
                {"tool": "add_shape", "args": {"text": "c", "x": 860, "y": 110, "w": 120, "h": 60}},
                {"tool": "add_shape", "args": {"text": "d", "x": 0, "y": 600, "w": 120, "h": 60}},
                {"tool": "add_shape", "args": {"text": "e", "x": 300, "y": 600, "w": 200, "h": 80}}
            ]),
            true,
        )
        .unwrap();
    board
}

const SIDES: [&str; 4] = ["right_of", "left_of", "below", "above"];

/// Random relative arguments: a side of `reference`, sometimes with a gap.
fn side_args(rng: &mut Lcg, reference: &str) -> Value {
    let mut args = json!({SIDES[rng.next(4) as usize]: reference});
    if rng.next(2) == 0 {
        args["gap"] = json!([0, 10, 40, 80][rng.next(4) as usize]);
    }
    args
}

/// Runs a call that may be refused for naming a moved object as the reference.
fn call_or_refused(board: &Board, engine: &Engine, tool: &str, args: Value) -> Option<Value> {
    match board.call(engine, tool, args.clone()) {
        Ok(v) => Some(v),
        Err(e) if e.to_string().contains("is being moved too") => None,
        Err(e) => panic!("{tool} {args}: {e}"),
    }
}

#[test]
fn relative_placement_overlaps_nothing_but_its_frames() {
    let engine = Engine::new();
    let board = framed_board(&engine);
    let mut rng = Lcg(11);
    for i in 0..120 {
        let all = page_rects(&board, &engine);
        let pick = |rng: &mut Lcg| all[rng.next(all.len() as u64) as usize].id.clone();
        let reference = pick(&mut rng);
        let mut args = side_args(&mut rng, &reference);
        let tool = match rng.next(4) {
            0 => {
                args["ids"] = json!([pick(&mut rng)]);
                "move"
            }
            1 => {
                args["ids"] = json!([pick(&mut rng), pick(&mut rng)]);
                "duplicate"
            }
            _ => {
                args["text"] = json!(vec!["word"; 1 + rng.next(8) as usize].join(" "));
                if rng.next(3) == 0 {
                    args["w"] = json!(40 + rng.next(300));
                    args["h"] = json!(20 + rng.next(200));
                }
                "add_shape"
            }
        };
        call_or_refused(&board, &engine, tool, args.clone());
        let all = page_rects(&board, &engine);
        for (j, a) in all.iter().enumerate() {
            for b in &all[j + 1..] {
                assert!(
                    !overlap(a, b) || nested(a, b),
                    "after call {i} ({tool} {args}): {} overlaps {}: {a:?} {b:?}",
                    a.id,
                    b.id
                );
            }
        }
    }
}

#[test]
fn placed_inside_a_frame_lies_in_it_and_overlaps_nothing_else() {
    let engine = Engine::new();
    let board = framed_board(&engine);
    let mut rng = Lcg(5);
    for i in 0..80 {
        let all = page_rects(&board, &engine);
        let frames: Vec<&Rect> = all.iter().filter(|r| r.frame).collect();
        let shapes: Vec<&Rect> = all.iter().filter(|r| !r.frame).collect();
        let frame = frames[rng.next(frames.len() as u64) as usize].id.clone();
        let reference = all[rng.next(all.len() as u64) as usize].id.clone();
        let mut args = match rng.next(2) {
            0 => json!({}),
            _ => side_args(&mut rng, &reference),
        };
        args["inside"] = json!(frame);
        let shape = shapes[rng.next(shapes.len() as u64) as usize].id.clone();
        let tool = match rng.next(4) {
            0 => {
                args["ids"] = json!([shape]);
                "move"
            }
            1 => {
                args["ids"] = json!([shape]);
                "duplicate"
            }
            _ => {
                args["text"] = json!(vec!["word"; 1 + rng.next(8) as usize].join(" "));
                "add_shape"
            }
        };
        let Some(answer) = call_or_refused(&board, &engine, tool, args.clone()) else {
            continue;
        };
        let placed = match answer.get("id") {
            Some(id) => id.as_str().unwrap().to_string(),
            None => answer["ids"][0].as_str().unwrap().to_string(),
        };
        let all = page_rects(&board, &engine);
        let find = |id: &str| all.iter().find(|r| r.id == id).unwrap();
        let (p, f) = (find(&placed), find(&frame));
        assert!(
            contains(f, p),
            "after call {i} ({tool} {args}): {p:?} is not in {f:?}"
        );
        for other in all.iter().filter(|r| r.id != placed) {
            assert!(
                !overlap(p, other) || (other.frame && contains(other, p)),
                "after call {i} ({tool} {args}): {} overlaps {}: {p:?} {other:?}",
                p.id,
                other.id
            );
        }
    }
}

#[test]
fn auto_placed_shapes_overlap_nothing() {
    const GEOMS: [&str; 12] = [
        "rect",
        "rounded",
        "ellipse",
        "diamond",
        "triangle",
        "hexagon",
        "parallelogram",
        "cylinder",
        "cloud",
        "star",
        "note",
        "text",
    ];
    let engine = Engine::new();
    let board = Board::new(&engine, &[]);
    let mut rng = Lcg(7);
    // Some shapes placed by hand first, in the way of the reading order.
    board
        .batch(
            &engine,
            json!([
                {"tool": "add_shape", "args": {"text": "fixed", "x": 150, "y": 0, "w": 300, "h": 90}},
                {"tool": "add_shape", "args": {"geom": "frame", "text": "area", "x": 700, "y": 150, "w": 500, "h": 400}},
                {"tool": "add_shape", "args": {"text": "far", "x": 0, "y": 260, "w": 80, "h": 400}}
            ]),
            true,
        )
        .unwrap();
    let mut ops = Vec::new();
    for i in 0..150 {
        let words = 1 + rng.next(12) as usize;
        let text = vec!["word"; words].join(" ");
        let geom = GEOMS[rng.next(GEOMS.len() as u64) as usize];
        let op = match i % 10 {
            3 => {
                json!({"tool": "add_shape", "args": {"geom": geom, "text": text, "x": rng.next(1000) as f64}})
            }
            7 => {
                json!({"tool": "add_shape", "args": {"geom": geom, "text": text, "y": rng.next(1000) as f64}})
            }
            9 => {
                json!({"tool": "add_shape", "args": {"geom": geom, "text": text, "w": 40.0 + rng.next(300) as f64, "h": 20.0 + rng.next(200) as f64}})
            }
            _ => json!({"tool": "add_shape", "args": {"geom": geom, "text": text}}),
        };
        ops.push(op);
    }
    // Two batches (the second sees the first on disk) and some single calls.
    board
        .batch(&engine, Value::Array(ops[..100].to_vec()), true)
        .unwrap();
    board
        .batch(&engine, Value::Array(ops[100..].to_vec()), true)
        .unwrap();
    for i in 0..10 {
        board
            .call(&engine, "add_shape", json!({"text": format!("single {i}")}))
            .unwrap();
        board
            .call(&engine, "add_image", json!({"data": "data:image/svg+xml,%3Csvg width=%2290%22 height=%2270%22%3E%3C/svg%3E"}))
            .unwrap();
    }
    let page = board.call(&engine, "read_board", json!({})).unwrap();
    let all = rects(&page["page"]["objects"]);
    assert_eq!(all.len(), 3 + 150 + 20);
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert!(!overlap(a, b), "{} overlaps {}: {a:?} {b:?}", a.id, b.id);
        }
    }
}

#[test]
fn shapes_placed_beside_others_overlap_nothing() {
    let engine = Engine::new();
    let board = Board::new(&engine, &[]);
    let mut ops = vec![json!({"tool": "add_shape", "args": {"text": "hub", "x": 1000, "y": 1000}})];
    for i in 0..40 {
        let side = ["right_of", "left_of", "below", "above"][i % 4];
        ops.push(
            json!({"tool": "add_shape", "args": {"text": format!("{side} {i}"), side: "$0.id"}}),
        );
    }
    board.batch(&engine, Value::Array(ops), true).unwrap();
    let page = board.call(&engine, "read_board", json!({})).unwrap();
    let all = rects(&page["page"]["objects"]);
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert!(!overlap(a, b), "{} overlaps {}: {a:?} {b:?}", a.id, b.id);
        }
    }
}
