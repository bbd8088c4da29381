//! Every limit through the real engine on real board files, with inputs too big
//! for a case file: each is hit by a tool call on its own and inside an atomic
//! batch (after an operation that succeeded), and must leave the file as it was;
//! a board exactly at the limit is accepted. What each call answered is compared
//! with `tests/limits.expected` (`UPDATE_EXPECT=1` rewrites it). The small limits
//! (coordinates, nesting) are the case `cases/limits_ranges_and_nesting.json`.

mod common;

use std::fmt::Write as _;
use std::path::Path;

use base64::Engine as _;
use common::{call, path_str, Board};
use inkboard_core::limits::{
    MAX_IMAGE_BYTES, MAX_INK_POINTS, MAX_OBJECTS_PER_PAGE, MAX_PAGES, MAX_TEXT_CHARS,
};
use inkboard_core::{Actor, Kind, Transaction};
use inkboard_tools::Engine;
use serde_json::{json, Value};

/// A text of `n` characters, two bytes each: the limits count characters.
fn long(n: usize) -> String {
    "é".repeat(n)
}

fn points(n: usize) -> Value {
    (0..n).map(|i| json!([i % 1000, i / 1000])).collect()
}

/// A PNG data URL: the signature and a header saying `w` × `h`, padded with zeros
/// to `len` bytes.
fn png(w: u32, h: u32, len: usize) -> String {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.extend_from_slice(&w.to_be_bytes());
    bytes.extend_from_slice(&h.to_be_bytes());
    bytes.resize(len.max(bytes.len()), 0);
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    format!("data:image/png;base64,{data}")
}

/// What a call answered, in a line: the error, or "ok".
fn answer(result: Result<Value, inkboard_tools::ToolError>) -> String {
    match result {
        Ok(_) => "ok".to_string(),
        Err(e) => e.to_string(),
    }
}

/// Runs `tool` with `args` on a new board holding one shape `s1`, on its own and
/// then as the second operation of an atomic batch; a refusal must leave the file
/// as it was. The answers go to `out` under `name`.
fn probe(out: &mut String, name: &str, tool: &str, args: Value) {
    let engine = Engine::new();
    let board = Board::new(&engine, &[]);
    board
        .call(&engine, "add_shape", json!({"text": "s1", "x": 0, "y": 0}))
        .expect("the first shape");
    let before = board.bytes();
    let alone = board.call(&engine, tool, args.clone());
    let refused = alone.is_err();
    if refused {
        assert_eq!(
            board.bytes(),
            before,
            "{name}: a refused call changed the file"
        );
    }
    let ops = json!([
        {"tool": "add_shape", "args": {"text": "kept until the failure", "x": 0, "y": 100}},
        {"tool": tool, "args": args},
    ]);
    let before = board.bytes();
    let in_batch = board.batch(&engine, ops, true);
    if refused {
        let err = in_batch.as_ref().expect_err("refused in a batch too");
        assert_eq!(err.data().expect("a batch failure")["index"], 1, "{name}");
        assert_eq!(
            board.bytes(),
            before,
            "{name}: a refused batch changed the file"
        );
    }
    assert_eq!(board.files(), common::only_the_board(), "{name}");
    let _ = writeln!(out, "{name}\n  alone: {}", answer(alone));
    let _ = writeln!(out, "  in a batch: {}", answer(in_batch));
}

#[test]
fn each_limit_refuses_one_more_and_accepts_its_value() {
    let mut out = String::new();
    let o = &mut out;
    let text = long;
    probe(
        o,
        "add_shape: text over",
        "add_shape",
        json!({"text": text(MAX_TEXT_CHARS + 1)}),
    );
    probe(
        o,
        "add_shape: text at the limit (sized by hand: not measured)",
        "add_shape",
        json!({"text": text(MAX_TEXT_CHARS), "x": 0, "y": 300, "w": 100, "h": 100}),
    );
    probe(
        o,
        "update: text over",
        "update",
        json!({"id": "s1", "text": text(MAX_TEXT_CHARS + 1)}),
    );
    probe(
        o,
        "add_connector: text over",
        "add_connector",
        json!({"from": {"x": 0, "y": 0}, "to": {"x": 10, "y": 0}, "text": text(MAX_TEXT_CHARS + 1)}),
    );
    probe(
        o,
        "add_page: name over",
        "add_page",
        json!({"name": text(MAX_TEXT_CHARS + 1)}),
    );
    probe(
        o,
        "rename_page: name at the limit",
        "rename_page",
        json!({"page": 1, "name": text(MAX_TEXT_CHARS)}),
    );
    probe(
        o,
        "rename_page: name over",
        "rename_page",
        json!({"page": 1, "name": text(MAX_TEXT_CHARS + 1)}),
    );
    probe(
        o,
        "find: text at the limit",
        "find",
        json!({"text": text(MAX_TEXT_CHARS)}),
    );
    probe(
        o,
        "find: text over (a megabyte)",
        "find",
        json!({"text": "x".repeat(1 << 20)}),
    );
    probe(
        o,
        "add_ink: points at the limit",
        "add_ink",
        json!({"points": points(MAX_INK_POINTS)}),
    );
    probe(
        o,
        "add_ink: points over",
        "add_ink",
        json!({"points": points(MAX_INK_POINTS + 1)}),
    );
    probe(
        o,
        "add_image: bytes at the limit",
        "add_image",
        json!({"data": png(2, 2, MAX_IMAGE_BYTES)}),
    );
    probe(
        o,
        "add_image: bytes over",
        "add_image",
        json!({"data": png(2, 2, MAX_IMAGE_BYTES + 1)}),
    );
    probe(
        o,
        "add_image: 16384 x 2441 pixels (at the limits)",
        "add_image",
        json!({"data": png(16_384, 2_441, 0)}),
    );
    probe(
        o,
        "add_image: a side over",
        "add_image",
        json!({"data": png(1, 16_385, 0)}),
    );
    probe(
        o,
        "add_image: pixels over",
        "add_image",
        json!({"data": png(8_000, 5_001, 0)}),
    );
    let expected = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/limits.expected");
    if let Some(diff) = common::expect_file(&expected, &out, "limits") {
        panic!("{diff}");
    }
}

/// An image file too big is refused from its size, before it is read: a sparse
/// file costs nothing to make and would take long to read.
#[test]
fn an_image_source_over_the_limit_is_refused_by_its_size() {
    let engine = Engine::new();
    let board = Board::new(&engine, &[]);
    let source = board.dir.path().join("huge.png");
    let file = std::fs::File::create(&source).unwrap();
    file.set_len(MAX_IMAGE_BYTES as u64 + 1).unwrap();
    drop(file);
    let before = board.bytes();
    let err = board
        .call(&engine, "add_image", json!({"source": path_str(&source)}))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "the image 'source' {} has 16777217 bytes, more than the limit of 16777216 (16 MiB): use a smaller image: scale it down or compress it",
            source.display()
        )
    );
    assert_eq!(board.bytes(), before);
}

#[test]
fn create_board_holds_its_pages_and_title_to_the_limits() {
    let engine = Engine::new();
    let dir = tempfile::tempdir().unwrap();
    let path = path_str(&dir.path().join("b.inkboard"));
    let names = |n: usize| (1..=n).map(|i| format!("P{i}")).collect::<Vec<_>>();
    let err = call(
        &engine,
        "create_board",
        json!({"path": path, "pages": names(MAX_PAGES + 1)}),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the board has 1001 pages, more than the limit of 1000: split the board into several boards"
    );
    let err = call(
        &engine,
        "create_board",
        json!({"path": path, "title": long(MAX_TEXT_CHARS + 1)}),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the title has 100001 characters, more than the limit of 100000: shorten it, or split it over several objects"
    );
    let err = call(
        &engine,
        "create_board",
        json!({"path": path, "pages": [long(MAX_TEXT_CHARS + 1)]}),
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("the name of page 1 has 100001 characters"),
        "{err}"
    );
    assert!(common::files(dir.path()).is_empty(), "nothing was written");

    // At the limit: a thousand pages, and then no more.
    let out = call(
        &engine,
        "create_board",
        json!({"path": path, "title": long(MAX_TEXT_CHARS), "pages": names(MAX_PAGES)}),
    )
    .unwrap();
    assert_eq!(out["pages"].as_array().unwrap().len(), 1000);
    let before = std::fs::read(dir.path().join("b.inkboard")).unwrap();
    let err = call(&engine, "add_page", json!({"path": path})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the board has 1001 pages, more than the limit of 1000: split the board into several boards"
    );
    let ops = json!([{"tool": "add_page", "args": {}}]);
    let err = call(&engine, "batch", json!({"path": path, "operations": ops})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "operation 0 (add_page): the board has 1001 pages, more than the limit of 1000: split the board into several boards (the batch was rolled back: nothing was changed)"
    );
    assert_eq!(
        std::fs::read(dir.path().join("b.inkboard")).unwrap(),
        before
    );
}

/// A page at the limit loads and takes edits; one object more is refused, by a
/// call and by a batch, and by a duplicate that would go over.
#[test]
fn a_full_page_loads_and_takes_no_more_objects() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("full.inkboard");
    let mut board = inkboard_core::Board::new("full", &[]);
    let page = board.pages()[0].id;
    let mut tx = Transaction::begin(&mut board);
    for _ in 0..MAX_OBJECTS_PER_PAGE {
        let ink = inkboard_core::Ink {
            points: Vec::new(),
            style: Default::default(),
        };
        tx.add(page, None, Kind::Ink(ink)).unwrap();
    }
    tx.commit(Actor::Agent).unwrap();
    inkboard_format::save(&path, &board, None).unwrap();

    let engine = Engine::new();
    let path = path_str(&path);
    let before = std::fs::read(&path).unwrap();
    let full = "page 1 has 100001 objects, more than the limit of 100000: put some of them on another page";
    let err = call(&engine, "add_shape", json!({"path": path, "x": 0, "y": 0})).unwrap_err();
    assert_eq!(err.to_string(), full);
    let ops = json!([
        {"tool": "delete", "args": {"ids": ["k1"]}},
        {"tool": "add_shape", "args": {"x": 0, "y": 0}},
        {"tool": "add_shape", "args": {"x": 0, "y": 0}},
    ]);
    let err = call(&engine, "batch", json!({"path": path, "operations": ops})).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("operation 2 (add_shape): {full} (the batch was rolled back: nothing was changed)")
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // Room made, room used: exactly at the limit again.
    let ops = json!([
        {"tool": "delete", "args": {"ids": ["k1"]}},
        {"tool": "add_shape", "args": {"x": 0, "y": 0}},
    ]);
    call(&engine, "batch", json!({"path": path, "operations": ops})).unwrap();
    let read = call(&engine, "read_board", json!({"path": path})).unwrap();
    assert_eq!(read["pages"][0]["objects"], 100_000);
}
