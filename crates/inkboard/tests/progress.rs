//! Long calls over stdio: a call sent with a `progressToken` hears
//! `notifications/progress` (increasing, with a total), and
//! `notifications/cancelled` stops a batch between two operations, leaving the
//! board file as it was. The time from the cancel to the answer is printed
//! (`--nocapture`); the benchmark keeps the figure.

mod common;

use std::time::Instant;

use common::raw::Raw;
use serde_json::{json, Value};

/// The progress notifications for `token` among `notes`, as (progress, total).
fn progress_of(notes: &[Value], token: &str) -> Vec<(f64, f64)> {
    notes
        .iter()
        .filter(|n| n["method"] == "notifications/progress")
        .filter(|n| n["params"]["progressToken"] == token)
        .map(|n| {
            (
                n["params"]["progress"].as_f64().expect("progress"),
                n["params"]["total"].as_f64().expect("total"),
            )
        })
        .collect()
}

fn assert_increasing(steps: &[(f64, f64)]) {
    assert!(
        steps.len() >= 2,
        "too few progress notifications: {steps:?}"
    );
    for pair in steps.windows(2) {
        assert!(pair[1].0 > pair[0].0, "progress went back: {steps:?}");
    }
    for (done, total) in steps {
        assert!(done <= total, "past its total: {steps:?}");
    }
}

#[tokio::test]
async fn batch_render_layout_and_export_report_progress() {
    let mut s = Raw::start().await;
    let path = s.path("p.inkboard");
    s.ok("create_board", json!({"path": path})).await;
    let operations: Vec<Value> = (0..50)
        .map(|i| json!({"tool": "add_shape", "args": {"text": format!("S{i}")}}))
        .collect();
    let id = s
        .call(
            "batch",
            json!({"path": path, "operations": operations}),
            Some("b1"),
        )
        .await;
    let (answer, notes) = s.answer(id).await;
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    let steps = progress_of(&notes, "b1");
    assert_increasing(&steps);
    assert_eq!(steps.last(), Some(&(50.0, 50.0)), "{steps:?}");

    let id = s.call("render", json!({"path": path}), Some("r1")).await;
    let (answer, notes) = s.answer(id).await;
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_increasing(&progress_of(&notes, "r1"));

    let id = s.call("layout", json!({"path": path}), Some("l1")).await;
    let (answer, notes) = s.answer(id).await;
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_increasing(&progress_of(&notes, "l1"));

    let out = s.path("p.pdf");
    let id = s
        .call("export", json!({"path": path, "output": out}), Some("e1"))
        .await;
    let (answer, notes) = s.answer(id).await;
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_increasing(&progress_of(&notes, "e1"));

    // Without a token, no progress is sent.
    let id = s.call("render", json!({"path": path}), None).await;
    let (_, notes) = s.answer(id).await;
    assert!(notes.is_empty(), "{notes:?}");
}

#[tokio::test]
async fn a_cancelled_batch_changes_nothing() {
    let mut s = Raw::start().await;
    let path = s.path("c.inkboard");
    s.ok("create_board", json!({"path": path})).await;
    // A page worth laying out, then a batch of layouts long enough to cancel.
    let mut build: Vec<Value> = (0..100)
        .map(|i| json!({"tool": "add_shape", "args": {"text": format!("N{i}")}}))
        .collect();
    for i in 1..100 {
        build.push(json!({"tool": "add_connector", "args": {"from": format!("${}.id", i / 2), "to": format!("${i}.id")}}));
    }
    s.ok("batch", json!({"path": path, "operations": build}))
        .await;
    let before = std::fs::read(&path).expect("the board");
    let layouts: Vec<Value> = (0..200)
        .map(|i| {
            let direction = if i % 2 == 0 { "down" } else { "right" };
            json!({"tool": "layout", "args": {"direction": direction}})
        })
        .collect();
    let id = s
        .call(
            "batch",
            json!({"path": path, "operations": layouts, "atomic": false}),
            Some("c1"),
        )
        .await;
    // Cancel once the batch is under way (past its first operation).
    loop {
        let note = s.read().await;
        assert_ne!(
            note["id"], id,
            "the batch ended before it could be cancelled"
        );
        if note["params"]["progressToken"] == "c1"
            && note["params"]["progress"].as_f64() >= Some(1.0)
        {
            break;
        }
    }
    let cancelled = Instant::now();
    s.send_line(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "reason": "test"}})
            .to_string(),
    )
    .await;
    // MCP: a cancelled request gets no answer. read_board waits for the file's
    // lock, which the batch holds while it runs, so its answer says the batch
    // has stopped.
    let read = s.call("read_board", json!({"path": path}), None).await;
    let (answer, before_it) = s.answer(read).await;
    println!(
        "cancel to the batch stopped (read_board answered): {:?}",
        cancelled.elapsed()
    );
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert!(
        before_it.iter().all(|n| n["id"] != id),
        "the cancelled batch was answered: {before_it:?}"
    );
    assert_eq!(
        std::fs::read(&path).expect("the board"),
        before,
        "the cancelled batch (atomic: false) changed the file"
    );
    s.ping().await;
}
