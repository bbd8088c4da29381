//! Auto-placement (tools.md, add_shape): without x/y a shape goes in free space,
//! overlapping nothing on the page, including what was added earlier in the same
//! batch; with one of x/y it keeps that one and still overlaps nothing.

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
        })
        .collect()
}

fn overlap(a: &Rect, b: &Rect) -> bool {
    a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
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
