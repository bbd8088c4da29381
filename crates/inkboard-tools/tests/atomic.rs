//! All or nothing (batch.md points 6, 7 and 9): a failure injected at every index
//! of a 20-operation batch, atomic and not.
//!
//! - Atomic: the answer is a tool error with `{index, error, results}`, the results
//!   being those of the operations before it; the file is byte-identical, no file
//!   but the board is left in the folder, the board read back is as before, and
//!   no id was used up.
//! - Non-atomic: the answer says what was applied and what failed, and the file
//!   holds exactly what the operations before the failure made: the same bytes as
//!   a batch of just those operations gives.
//! - Either way, a batch that changed something is one revision.

mod common;

use std::path::Path;

use common::{call, path_str, Board};
use inkboard_tools::Engine;
use serde_json::{json, Value};

const SVG: &str = "data:image/svg+xml,%3Csvg width=%2240%22 height=%2220%22%3E%3C/svg%3E";

/// Twenty operations that all succeed on the starting board, touching every kind
/// of change: objects, styles, pages, groups, z-order, references.
fn twenty() -> Vec<Value> {
    let ops = json!([
        {"tool": "add_shape", "args": {"text": "A"}},
        {"tool": "add_shape", "args": {"text": "B", "right_of": "$0.id"}},
        {"tool": "add_connector", "args": {"from": "$0.id", "to": "$1.id", "text": "a to b"}},
        {"tool": "update", "args": {"id": "$0.id", "fill": "red"}},
        {"tool": "add_page", "args": {"name": "Extra"}},
        {"tool": "add_shape", "args": {"text": "on extra", "page": "Extra"}},
        {"tool": "rename_page", "args": {"page": "Extra", "name": "Extra 2"}},
        {"tool": "group", "args": {"ids": ["$0.id", "$1.id"]}},
        {"tool": "move", "args": {"ids": ["$7.id"], "dx": 10, "dy": 5}},
        {"tool": "duplicate", "args": {"ids": ["$0.id", "$1.id", "$2.id"], "dy": 200}},
        {"tool": "order", "args": {"ids": ["$0.id"], "to": "back"}},
        {"tool": "align", "args": {"ids": ["$9.ids.0", "$9.ids.1"], "edge": "top"}},
        {"tool": "add_ink", "args": {"points": [[0, 500], [40, 520]], "color": "blue"}},
        {"tool": "add_image", "args": {"data": SVG}},
        {"tool": "delete", "args": {"ids": ["s1"]}},
        {"tool": "ungroup", "args": {"id": "$7.id"}},
        {"tool": "distribute", "args": {"ids": ["$0.id", "$1.id", "$9.ids.0"], "axis": "horizontal"}},
        {"tool": "delete_page", "args": {"page": "Extra 2"}},
        {"tool": "find", "args": {"text": "a"}},
        {"tool": "update", "args": {"id": "s2", "text": "changed"}}
    ]);
    ops.as_array().unwrap().clone()
}

/// A failing operation for index `i`, of a different kind from one index to the
/// next: a missing object, an unknown tool, a refused tool, a bad argument, a
/// reference to itself, a refused argument, a missing key.
fn failing(i: usize) -> Value {
    let earlier = if i > 0 {
        "$0.id".to_string()
    } else {
        "s2".to_string()
    };
    match i % 7 {
        0 => json!({"tool": "add_connector", "args": {"from": earlier, "to": "s99"}}),
        1 => json!({"tool": "no_such_tool", "args": {}}),
        2 => json!({"tool": "save_board", "args": {}}),
        3 => json!({"tool": "add_shape", "args": {"w": -1}}),
        4 => json!({"tool": "update", "args": {"id": format!("${i}.id"), "text": "x"}}),
        5 => json!({"tool": "add_shape", "args": {"text": "x", "path": "elsewhere.inkboard"}}),
        _ => json!({"tool": "update", "args": {"id": "$0.nothing", "text": "x"}}),
    }
}

/// The starting board: two pages, two shapes and a connector between them.
fn template(engine: &Engine) -> Board {
    let board = Board::new(engine, &["Main", "Side"]);
    board
        .batch(
            engine,
            json!([
                {"tool": "add_shape", "args": {"text": "old 1", "x": 0, "y": 0}},
                {"tool": "add_shape", "args": {"text": "old 2", "x": 0, "y": 120}},
                {"tool": "add_connector", "args": {"from": "s1", "to": "s2"}},
                {"tool": "add_shape", "args": {"text": "side", "page": 2}}
            ]),
            true,
        )
        .unwrap();
    board
}

/// A fresh folder holding a copy of the starting board.
fn copy_of(template: &Path) -> Board {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.inkboard");
    std::fs::copy(template, &path).unwrap();
    Board { dir, path }
}

/// Every page of the board, as read_board gives it.
fn read_all(engine: &Engine, board: &Board) -> Vec<Value> {
    let first = board.call(engine, "read_board", json!({})).unwrap();
    let pages = first["pages"].as_array().unwrap().len();
    (1..=pages)
        .map(|p| {
            board
                .call(engine, "read_board", json!({"page": p}))
                .unwrap()
        })
        .collect()
}

#[test]
fn the_twenty_operations_succeed_as_one_revision() {
    let engine = Engine::new();
    let t = template(&engine);
    let board = copy_of(&t.path);
    let before = board.revision(&engine);
    let out = board.batch(&engine, Value::Array(twenty()), true).unwrap();
    assert_eq!(out["applied"], 20, "{out}");
    assert!(out.get("failed").is_none());
    assert_eq!(board.revision(&engine), before + 1);
    let changes = board
        .call(&engine, "board_changes", json!({"since": before}))
        .unwrap();
    let changes = changes["changes"].as_array().unwrap();
    assert!(!changes.is_empty());
    assert!(changes
        .iter()
        .all(|c| c["revision"] == before + 1 && c["by"] == "agent"));
    assert_eq!(board.files(), common::only_the_board());
}

#[test]
fn an_atomic_failure_at_any_index_changes_nothing() {
    let engine = Engine::new();
    let t = template(&engine);
    let full = {
        let board = copy_of(&t.path);
        board.batch(&engine, Value::Array(twenty()), true).unwrap()
    };
    for i in 0..20 {
        let board = copy_of(&t.path);
        let bytes = board.bytes();
        let pages = read_all(&engine, &board);
        let revision = board.revision(&engine);
        let mut ops = twenty();
        ops[i] = failing(i);
        let err = board.batch(&engine, Value::Array(ops), true).unwrap_err();
        let data = err
            .data()
            .unwrap_or_else(|| panic!("index {i}: no payload: {err}"));
        assert_eq!(data["index"], i, "{data}");
        let message = data["error"].as_str().unwrap();
        assert!(message.starts_with(&format!("operation {i}")), "{message}");
        assert!(!message.contains('\n'), "one sentence: {message}");
        assert_eq!(
            data["results"].as_array().unwrap()[..],
            full["results"].as_array().unwrap()[..i],
            "index {i}: the results obtained before the rollback"
        );
        assert_eq!(
            board.bytes(),
            bytes,
            "index {i}: the file is byte-identical"
        );
        assert_eq!(board.files(), common::only_the_board(), "index {i}");
        assert_eq!(
            read_all(&engine, &board),
            pages,
            "index {i}: the board is as it was"
        );
        assert_eq!(
            board.revision(&engine),
            revision,
            "index {i}: no revision used"
        );
        // No id was used up: the same batch, without the failure, gives what it
        // gives on an untouched copy.
        let again = board.batch(&engine, Value::Array(twenty()), true).unwrap();
        assert_eq!(again, full, "index {i}: ids after the rollback");
    }
}

#[test]
fn a_non_atomic_failure_keeps_exactly_what_succeeded() {
    let engine = Engine::new();
    let t = template(&engine);
    for i in 0..20 {
        let board = copy_of(&t.path);
        let bytes = board.bytes();
        let revision = board.revision(&engine);
        let mut ops = twenty();
        ops[i] = failing(i);
        let out = board.batch(&engine, Value::Array(ops), false).unwrap();
        assert_eq!(out["applied"], i, "{out}");
        assert_eq!(out["failed"]["index"], i, "{out}");
        let message = out["failed"]["error"].as_str().unwrap();
        assert!(message.starts_with(&format!("operation {i}")), "{message}");
        assert_eq!(out["results"].as_array().unwrap().len(), i);
        assert_eq!(board.files(), common::only_the_board(), "index {i}");
        if i == 0 {
            assert_eq!(board.bytes(), bytes, "nothing applied, nothing written");
            assert_eq!(board.revision(&engine), revision);
            continue;
        }
        assert_eq!(
            board.revision(&engine),
            revision + 1,
            "index {i}: one revision"
        );
        // The same bytes as a batch of only the operations that succeeded.
        let expected = copy_of(&t.path);
        let prefix = expected
            .batch(&engine, Value::Array(twenty()[..i].to_vec()), true)
            .unwrap();
        assert_eq!(out["results"], prefix["results"], "index {i}");
        assert_eq!(
            String::from_utf8(board.bytes()).unwrap(),
            String::from_utf8(expected.bytes()).unwrap(),
            "index {i}: the file holds what succeeded"
        );
    }
}

#[test]
fn a_failed_atomic_batch_leaves_the_change_log_alone() {
    let engine = Engine::new();
    let t = template(&engine);
    let board = copy_of(&t.path);
    let first = board.call(&engine, "board_changes", json!({})).unwrap();
    let mut ops = twenty();
    ops[19] = failing(19);
    board.batch(&engine, Value::Array(ops), true).unwrap_err();
    let after = board.call(&engine, "board_changes", json!({})).unwrap();
    assert_eq!(after["revision"], first["revision"]);
    assert_eq!(after["changes"], json!([]));
}

#[test]
fn another_engine_sees_the_same_file() {
    // File mode is the whole truth: a second process (engine) reads what the
    // first wrote, and a failed batch in one is invisible to the other.
    let one = Engine::new();
    let two = Engine::new();
    let t = template(&one);
    let board = copy_of(&t.path);
    board.batch(&one, Value::Array(twenty()), true).unwrap();
    let seen_by_one = read_all(&one, &board);
    let mut ops = twenty();
    ops[10] = failing(10);
    board.batch(&two, Value::Array(ops), true).unwrap_err();
    assert_eq!(read_all(&two, &board), seen_by_one);
    assert_eq!(read_all(&one, &board), seen_by_one);
    let _ = call(&one, "read_board", json!({"path": path_str(&board.path)})).unwrap();
}
