//! How many operations a batch takes (batch.md: 1 to 200), checked before anything
//! runs: 0 and 201 are refused with the file untouched; 1 and 200 run, 200 of
//! them with references, as one revision.

mod common;

use common::Board;
use inkboard_tools::Engine;
use serde_json::{json, Value};

/// `n` operations: shapes, each (after the first) connected to the one before by
/// reference, like a flow chart built in one call.
fn flow(n: usize) -> Value {
    let mut ops = Vec::with_capacity(n);
    let mut shapes: Vec<usize> = Vec::new();
    for i in 0..n {
        if i > 0 && i % 2 == 0 {
            let (from, to) = (shapes[shapes.len() - 2], shapes[shapes.len() - 1]);
            ops.push(json!({"tool": "add_connector", "args": {"from": format!("${from}.id"), "to": format!("${to}.id")}}));
        } else {
            ops.push(json!({"tool": "add_shape", "args": {"text": format!("step {i}")}}));
            shapes.push(i);
        }
    }
    Value::Array(ops)
}

#[test]
fn zero_operations_are_refused_and_change_nothing() {
    let engine = Engine::new();
    let board = Board::new(&engine, &[]);
    let before = board.bytes();
    let err = board.batch(&engine, json!([]), true).unwrap_err();
    assert_eq!(
        err.to_string(),
        "batch: 'operations' must hold 1 to 200 operations, got 0: split the work into several batches"
    );
    assert!(
        err.data().is_none(),
        "a refused request is not an operation's failure"
    );
    assert_eq!(board.bytes(), before);
    assert_eq!(board.files(), common::only_the_board());
}

#[test]
fn one_operation_runs() {
    let engine = Engine::new();
    let board = Board::new(&engine, &[]);
    let out = board
        .batch(
            &engine,
            json!([{"tool": "add_shape", "args": {"text": "only"}}]),
            true,
        )
        .unwrap();
    assert_eq!(out["applied"], 1);
    assert_eq!(out["results"].as_array().unwrap().len(), 1);
    assert_eq!(board.revision(&engine), 1);
}

#[test]
fn two_hundred_operations_with_references_run_as_one_revision() {
    let engine = Engine::new();
    let board = Board::new(&engine, &[]);
    let ops = flow(200);
    let out = board.batch(&engine, ops.clone(), true).unwrap();
    assert_eq!(out["applied"], 200);
    let results = out["results"].as_array().unwrap();
    assert_eq!(results.len(), 200);
    assert_eq!(board.revision(&engine), 1, "one batch, one revision");
    // Every connector joins the two shapes its references named.
    let read = board
        .call(&engine, "find", json!({"type": "connector"}))
        .unwrap();
    let connectors = read["objects"].as_array().unwrap();
    assert_eq!(connectors.len(), 99);
    for (op, result) in ops.as_array().unwrap().iter().zip(results) {
        if op["tool"] == "add_connector" {
            let id = result["id"].as_str().unwrap();
            let c = connectors.iter().find(|c| c["id"] == id).unwrap();
            let end = |key: &str| {
                let r = op["args"][key].as_str().unwrap();
                let n: usize = r[1..r.find('.').unwrap()].parse().unwrap();
                results[n]["id"].clone()
            };
            assert_eq!(c["from"], end("from"));
            assert_eq!(c["to"], end("to"));
        }
    }
    let changes = board
        .call(&engine, "board_changes", json!({"since": 0}))
        .unwrap();
    let changes = changes["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 200);
    assert!(changes
        .iter()
        .all(|c| c["revision"] == 1 && c["by"] == "agent" && c["kind"] == "added"));
}

#[test]
fn two_hundred_and_one_operations_are_refused_and_change_nothing() {
    let engine = Engine::new();
    let board = Board::new(&engine, &[]);
    let before = board.bytes();
    for atomic in [true, false] {
        let err = board.batch(&engine, flow(201), atomic).unwrap_err();
        assert_eq!(
            err.to_string(),
            "batch: 'operations' must hold 1 to 200 operations, got 201: split the work into several batches"
        );
        assert!(err.data().is_none());
    }
    assert_eq!(board.bytes(), before);
    assert_eq!(board.revision(&engine), 0);
    assert_eq!(board.files(), common::only_the_board());
}

#[test]
fn the_flow_helper_makes_what_it_says() {
    let ops = flow(6);
    let tools: Vec<&str> = ops
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["tool"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        [
            "add_shape",
            "add_shape",
            "add_connector",
            "add_shape",
            "add_connector",
            "add_shape"
        ]
    );
    assert_eq!(ops[2]["args"], json!({"from": "$0.id", "to": "$1.id"}));
    assert_eq!(ops[4]["args"], json!({"from": "$1.id", "to": "$3.id"}));
}
