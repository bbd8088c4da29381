//! Hostile input through the real `inkboard mcp` over stdio, in both protocol eras:
//! a handful of the cases `inkboard-tools/tests/hostile.rs` sweeps through the
//! engine (huge numbers, a megabyte of text, odd Unicode, folders, a NUL in a path,
//! a damaged board, malformed batches), sent as a client would send them. Each is
//! answered with a tool error of one line that names what was wrong, the board file
//! is untouched, nothing is written to stderr, and the server still answers
//! `tools/list` and works afterwards.

mod common;

use std::fs;

use common::{Era, Session};
use serde_json::{json, Value};

both_eras!(hostile_calls_are_tool_errors_and_the_server_goes_on);

async fn hostile_calls_are_tool_errors_and_the_server_goes_on(era: Era) {
    let s = Session::start(era).await;
    let path = s.path("board.inkboard");
    s.ok("create_board", json!({"path": path})).await;
    s.ok("add_shape", json!({"path": path, "text": "A"})).await;
    let damaged = s.path("damaged.inkboard");
    let good = fs::read(&path).expect("the board");
    fs::write(&damaged, &good[..good.len() / 2]).expect("a board cut in half");
    fs::create_dir(s.dir.path().join("folder.inkboard")).expect("a folder");
    let megabyte = "word ".repeat(200 * 1024);
    // (tool, arguments, a word the error must hold)
    let cases: Vec<(&str, Value, &str)> = vec![
        ("add_shape", json!({"path": path, "x": 1e308}), "'x'"),
        (
            "add_shape",
            json!({"path": path, "fill": megabyte}),
            "'fill'",
        ),
        (
            "add_shape",
            json!({"path": path, "geom": "\u{202e}\u{0}"}),
            "'geom'",
        ),
        ("add_shape", json!({"path": path, "w": "NaN"}), "'w'"),
        (
            "add_shape",
            json!({"path": path, "page": {"n": 1}}),
            "'page'",
        ),
        (
            "add_shape",
            json!({"path": path, "\u{202e}colour": "red"}),
            "takes no argument",
        ),
        (
            "update",
            json!({"path": path, "ids": [], "text": "x"}),
            "'ids'",
        ),
        (
            "add_ink",
            json!({"path": path, "points": [[1e308, 0], [0, 0]]}),
            "points",
        ),
        (
            "read_board",
            json!({"path": s.path("folder.inkboard")}),
            "folder",
        ),
        (
            "read_board",
            json!({"path": s.path("a\u{0}b.inkboard")}),
            "NUL",
        ),
        (
            "read_board",
            json!({"path": s.path("missing/x.inkboard")}),
            "does not exist",
        ),
        ("read_board", json!({"path": damaged}), "damaged.inkboard"),
        (
            "add_shape",
            json!({"path": damaged, "text": "x"}),
            "damaged.inkboard",
        ),
        (
            "render",
            json!({"path": path, "max_size": u64::MAX}),
            "'max_size'",
        ),
        (
            "export",
            json!({"path": path, "output": s.path("afile/../x.svg")}),
            "x.svg",
        ),
        (
            "batch",
            json!({"path": path, "operations": [{"tool": "find"}, 1]}),
            "operation 1",
        ),
        (
            "batch",
            json!({"path": path, "operations": [{"tool": "batch", "args": {"operations": []}}]}),
            "not allowed inside a batch",
        ),
        (
            "batch",
            json!({"path": path, "operations": [{"tool": "find"}, {"tool": "update", "args": {"id": "$0.ids.99", "text": "x"}}]}),
            "past its end",
        ),
        (
            "batch",
            json!({"path": path, "operations": [{"tool": "add_shape", "args": {"text": "$0.id"}}]}),
            "this operation itself",
        ),
    ];
    let before = fs::read(&path).expect("the board");
    for (tool, args, word) in cases {
        let shown: String = args.to_string().chars().take(120).collect();
        let r = s
            .try_call(tool, args)
            .await
            .unwrap_or_else(|e| panic!("{tool} {shown}: a protocol error, not a tool error: {e}"));
        assert_eq!(r.is_error, Some(true), "{tool} {shown} succeeded");
        let text = match r.structured_content {
            // An atomic batch's failure carries its payload.
            Some(data) => data["error"].as_str().unwrap_or_default().to_string(),
            None => common::only_text(&r),
        };
        assert!(text.contains(word), "{tool} {shown}: {text}");
        assert!(
            !text.contains('\n') && text.chars().count() < 400,
            "{tool}: {text}"
        );
        assert!(!text.contains("hit a bug"), "{tool} {shown}: {text}");
        assert_eq!(
            fs::read(&path).expect("the board"),
            before,
            "{tool} {shown} changed the board"
        );
    }
    assert_eq!(
        fs::read(&damaged).expect("the damaged board"),
        &good[..good.len() / 2]
    );
    let tools = s
        .client
        .list_all_tools()
        .await
        .expect("tools/list still answers");
    assert_eq!(tools.len(), inkboard_tools::catalog().len());
    let placed = s
        .ok("add_shape", json!({"path": path, "text": "after"}))
        .await;
    assert!(placed["id"].is_string());
    common::assert_quiet(&s.close().await);
}
