//! Hostile text (issue 29): texts within the limits that once stalled a call.
//! One 300×60 shape holding 25,000 `*` did not render in 120 s (`[` 34 s, `a`
//! 13 s): each line of the long word measured the rest of it again. A batch of 20
//! shapes of 100,000 `[` took 57 s: each `[` looked for its `]` through the rest.
//! Each call runs on its own thread under a generous guard, so a stall fails the
//! test instead of hanging the run; the guard is no speed target (the scaling
//! tests of `inkboard-render` and `inkboard-core` hold the growth, and
//! RELIABILITY.md §10 the release figures).

use std::sync::mpsc;
use std::time::Duration;

use inkboard_tools::{Engine, Reply};
use serde_json::{json, Value};

/// Far above what these calls take (seconds, in a debug build), far below a stall.
const GUARD: Duration = Duration::from_secs(120);

/// Runs `f` on its own thread; panics if it takes longer than [`GUARD`].
fn guarded<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    receive
        .recv_timeout(GUARD)
        .unwrap_or_else(|_| panic!("{what} did not finish within {GUARD:?}"))
}

#[test]
fn one_shape_of_a_long_unbreakable_word_renders_and_exports() {
    let dir = tempfile::tempdir().expect("a folder");
    for (name, c) in [
        ("star", '*'),
        ("bracket", '['),
        ("letter", 'a'),
        ("lt", '<'),
    ] {
        let path = dir.path().join(format!("{name}.inkboard"));
        let p = path.display().to_string();
        let engine = std::sync::Arc::new(Engine::new());
        engine
            .call("create_board", json!({"path": p}))
            .expect("a board");
        let text: String = std::iter::repeat_n(c, 25_000).collect();
        let added = engine
            .call(
                "add_shape",
                json!({"path": p, "text": text, "x": 0, "y": 0, "w": 300, "h": 60}),
            )
            .unwrap_or_else(|e| panic!("{name}: add_shape: {e}"));
        let Reply::Json(added) = added else {
            panic!("{name}: add_shape answered a picture")
        };
        let id = added["id"].clone();

        let (e, q) = (engine.clone(), p.clone());
        let reply = guarded(&format!("{name}: render"), move || {
            e.call("render", json!({"path": q}))
        })
        .unwrap_or_else(|e| panic!("{name}: render: {e}"));
        let Reply::Image { data, .. } = reply else {
            panic!("{name}: render answered no picture")
        };
        // Drawn whole at the floor, past the shape's edges: reported, never cut.
        let overflow: Vec<&Value> = data["problems"]
            .as_array()
            .expect("problems")
            .iter()
            .filter(|p| p["kind"] == "text_overflow")
            .collect();
        assert_eq!(overflow.len(), 1, "{name}: {overflow:?}");
        assert_eq!(overflow[0]["ids"], json!([id]), "{name}");

        let (e, q) = (engine.clone(), p.clone());
        let out = dir.path().join(format!("{name}.pdf")).display().to_string();
        guarded(&format!("{name}: export to PDF"), move || {
            e.call("export", json!({"path": q, "output": out}))
        })
        .unwrap_or_else(|e| panic!("{name}: export: {e}"));
    }
}

#[test]
fn a_batch_of_twenty_texts_of_100_000_brackets_answers() {
    let dir = tempfile::tempdir().expect("a folder");
    let p = dir.path().join("b.inkboard").display().to_string();
    let engine = std::sync::Arc::new(Engine::new());
    engine
        .call("create_board", json!({"path": p}))
        .expect("a board");
    let text = "[".repeat(100_000);
    let operations: Vec<Value> = (0..20)
        .map(|_| json!({"tool": "add_shape", "args": {"text": text}}))
        .collect();
    let e = engine.clone();
    let reply = guarded("the batch", move || {
        e.call("batch", json!({"path": p, "operations": operations}))
    })
    .unwrap_or_else(|e| panic!("batch: {e}"));
    let Reply::Json(answer) = reply else {
        panic!("batch answered a picture")
    };
    assert_eq!(answer["results"].as_array().map(Vec::len), Some(20));
}

/// A table cell holding one long word wrapped nowhere: the table was 216,002 px
/// wide and every render measured that strip again (4.3 s in a debug build,
/// against 0.24 s for a shape of the same word). Its cells now wrap at a column's
/// width, and its row grows: the table stays readable and holds all its text.
#[test]
fn a_table_cell_of_a_long_word_wraps_inside_the_table() {
    let dir = tempfile::tempdir().expect("a folder");
    let p = dir.path().join("t.inkboard").display().to_string();
    let engine = std::sync::Arc::new(Engine::new());
    engine
        .call("create_board", json!({"path": p}))
        .expect("a board");
    let word = "x".repeat(25_000);
    let text = format!("Order\nid | int | PK\nnote | {word} |\n---\n{word}");
    let Ok(Reply::Json(added)) = engine.call(
        "add_shape",
        json!({"path": p, "geom": "table", "text": text, "x": 0, "y": 0}),
    ) else {
        panic!("add_shape refused the table")
    };
    let Ok(Reply::Json(found)) = engine.call("find", json!({"path": p, "type": "shape"})) else {
        panic!("find failed")
    };
    let table = &found["objects"][0];
    assert_eq!(table["id"], added["id"]);
    let w = table["w"]
        .as_f64()
        .unwrap_or_else(|| panic!("a width in {table}"));
    assert!((120.0..=600.0).contains(&w), "the table is {w} px wide");
    let e = engine.clone();
    let reply = guarded("render of the table", move || {
        e.call("render", json!({"path": p}))
    })
    .unwrap_or_else(|e| panic!("render: {e}"));
    let Reply::Image { data, .. } = reply else {
        panic!("render answered no picture")
    };
    assert_eq!(data["problems"], json!([]), "the table holds its text");
}
