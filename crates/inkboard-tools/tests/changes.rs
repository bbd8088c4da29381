//! `board_changes` in file mode: what this process changed is the agent's; what
//! it finds changed on disk (another inkboard process, a person, a script writing
//! the JSON) is the user's, with the right kinds. And a file that does not read
//! is a clear error that leaves it untouched.

mod common;

use common::{call, Board};
use inkboard_tools::Engine;
use serde_json::{json, Value};

/// The changes as (by, kind, id or page name) triples, in order.
fn summary(changes: &Value) -> Vec<(String, String, String)> {
    changes["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let what = c
                .get("id")
                .or_else(|| c.get("page_name"))
                .and_then(Value::as_str)
                .unwrap_or("?");
            (
                c["by"].as_str().unwrap().to_string(),
                c["kind"].as_str().unwrap().to_string(),
                what.to_string(),
            )
        })
        .collect()
}

fn triple(by: &str, kind: &str, what: &str) -> (String, String, String) {
    (by.to_string(), kind.to_string(), what.to_string())
}

#[test]
fn agent_changes_are_reported_once_then_not_again() {
    let engine = Engine::new();
    let board = Board::new(&engine, &[]);
    board
        .batch(
            &engine,
            json!([
                {"tool": "add_shape", "args": {"text": "A"}},
                {"tool": "add_shape", "args": {"text": "B"}},
                {"tool": "add_connector", "args": {"from": "$0.id", "to": "$1.id"}}
            ]),
            true,
        )
        .unwrap();
    let first = board.call(&engine, "board_changes", json!({})).unwrap();
    assert_eq!(first["revision"], 1);
    assert_eq!(
        summary(&first),
        [
            triple("agent", "added", "s1"),
            triple("agent", "added", "s2"),
            triple("agent", "added", "c3")
        ]
    );
    // Without `since`: since the last revision returned, so nothing new.
    let again = board.call(&engine, "board_changes", json!({})).unwrap();
    assert_eq!(summary(&again), []);
    board
        .call(&engine, "update", json!({"id": "s1", "text": "A2"}))
        .unwrap();
    board
        .call(&engine, "delete", json!({"ids": ["s2"]}))
        .unwrap();
    let next = board.call(&engine, "board_changes", json!({})).unwrap();
    assert_eq!(next["revision"], 3);
    assert_eq!(
        summary(&next),
        [
            triple("agent", "updated", "s1"),
            triple("agent", "removed", "s2"),
            triple("agent", "removed", "c3")
        ]
    );
    // An explicit `since` reaches back; each change carries its revision.
    let all = board
        .call(&engine, "board_changes", json!({"since": 0}))
        .unwrap();
    let revisions: Vec<u64> = all["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["revision"].as_u64().unwrap())
        .collect();
    assert_eq!(revisions, [1, 1, 1, 2, 3, 3]);
}

#[test]
fn changes_by_another_engine_are_the_users() {
    let ours = Engine::new();
    let theirs = Engine::new();
    let board = Board::new(&ours, &[]);
    board
        .batch(
            &ours,
            json!([
                {"tool": "add_shape", "args": {"text": "keep"}},
                {"tool": "add_shape", "args": {"text": "change me"}},
                {"tool": "add_shape", "args": {"text": "remove me"}}
            ]),
            true,
        )
        .unwrap();
    board.call(&ours, "board_changes", json!({})).unwrap();
    // Another process edits the same file, in one batch.
    board
        .batch(
            &theirs,
            json!([
                {"tool": "update", "args": {"id": "s2", "text": "changed"}},
                {"tool": "delete", "args": {"ids": ["s3"]}},
                {"tool": "add_shape", "args": {"text": "new"}},
                {"tool": "add_page", "args": {"name": "Theirs"}}
            ]),
            true,
        )
        .unwrap();
    let seen = board.call(&ours, "board_changes", json!({})).unwrap();
    let mut got = summary(&seen);
    got.sort();
    let mut want = vec![
        triple("user", "added", "Theirs"),
        triple("user", "updated", "s2"),
        triple("user", "added", "s4"),
        triple("user", "removed", "s3"),
    ];
    want.sort();
    assert_eq!(got, want);
    assert_eq!(seen["revision"], 2);
    let updated = seen["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "s2")
        .unwrap();
    assert_eq!(updated["object"]["text"], "changed");
    assert_eq!(updated["page"], 1);
    // The other engine reports the same edit as its own (the agent's).
    let theirs_seen = board
        .call(&theirs, "board_changes", json!({"since": 1}))
        .unwrap();
    assert!(summary(&theirs_seen).iter().all(|(by, _, _)| by == "agent"));
}

#[test]
fn a_hand_edited_file_is_the_users_change() {
    let engine = Engine::new();
    let board = Board::new(&engine, &["Main", "Old name"]);
    board
        .batch(
            &engine,
            json!([
                {"tool": "add_shape", "args": {"text": "keep", "x": 0, "y": 0}},
                {"tool": "add_shape", "args": {"text": "edit", "x": 200, "y": 0}},
                {"tool": "add_shape", "args": {"text": "drop", "x": 400, "y": 0}}
            ]),
            true,
        )
        .unwrap();
    board.call(&engine, "board_changes", json!({})).unwrap();
    // A script rewrites the JSON: edits one object, drops one, adds one, renames
    // a page and adds a page, without touching the revision.
    let mut doc: Value = serde_json::from_slice(&board.bytes()).unwrap();
    let objects = doc["pages"][0]["objects"].as_array_mut().unwrap();
    objects[1]["text"] = json!("edited by hand");
    objects.remove(2);
    objects.push(
        json!({"id": "s40", "type": "shape", "x": 0, "y": 300, "w": 100, "h": 50, "text": "hand"}),
    );
    doc["pages"][1]["name"] = json!("New name");
    doc["pages"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "p9", "name": "Hand page", "objects": []}));
    std::fs::write(&board.path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();

    let seen = board.call(&engine, "board_changes", json!({})).unwrap();
    let mut got = summary(&seen);
    got.sort();
    let mut want = vec![
        triple("user", "updated", "s2"),
        triple("user", "removed", "s3"),
        triple("user", "added", "s40"),
        triple("user", "updated", "New name"),
        triple("user", "added", "Hand page"),
    ];
    want.sort();
    assert_eq!(got, want);
    // The hand edit counts as one new revision, after ours.
    assert_eq!(seen["revision"], 2);
    assert!(seen["changes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["revision"] == 2));
    // And edits go on from the new content, with fresh ids.
    let out = board
        .call(&engine, "add_shape", json!({"text": "after"}))
        .unwrap();
    assert_eq!(out["id"], "s41");
    let next = board.call(&engine, "board_changes", json!({})).unwrap();
    assert_eq!(summary(&next), [triple("agent", "added", "s41")]);
    assert_eq!(next["revision"], 3);
}

#[test]
fn a_file_rewritten_with_the_same_content_is_no_change() {
    let engine = Engine::new();
    let board = Board::new(&engine, &[]);
    board
        .call(&engine, "add_shape", json!({"text": "A"}))
        .unwrap();
    board.call(&engine, "board_changes", json!({})).unwrap();
    // Same document, other formatting: not a change of the board.
    let doc: Value = serde_json::from_slice(&board.bytes()).unwrap();
    std::fs::write(&board.path, serde_json::to_string(&doc).unwrap()).unwrap();
    let seen = board.call(&engine, "board_changes", json!({})).unwrap();
    assert_eq!(summary(&seen), []);
}

#[test]
fn a_corrupt_file_is_a_clear_error_and_stays_untouched() {
    let engine = Engine::new();
    let board = Board::new(&engine, &[]);
    board
        .call(&engine, "add_shape", json!({"text": "A"}))
        .unwrap();
    let corrupt = b"{\n  \"format\": \"inkboard\",\n  \"version\": 1,\n  \"pages\": [\n".to_vec();
    std::fs::write(&board.path, &corrupt).unwrap();
    for (tool, args) in [
        ("read_board", json!({})),
        ("add_shape", json!({"text": "B"})),
        ("batch", json!({"operations": [{"tool": "add_shape"}]})),
        (
            "batch",
            json!({"operations": [{"tool": "add_shape"}], "atomic": false}),
        ),
        ("board_changes", json!({})),
        ("save_board", json!({})),
    ] {
        let err = board.call(&engine, tool, args).unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("board.inkboard"),
            "{tool}: names the file: {message}"
        );
        assert!(
            message.contains("not valid JSON"),
            "{tool}: says what is wrong: {message}"
        );
        assert!(
            message.contains("repair") || message.contains("restore"),
            "{tool}: says how to fix it: {message}"
        );
        assert!(
            err.data().is_none(),
            "{tool}: a file error, not an operation's"
        );
        assert_eq!(board.bytes(), corrupt, "{tool}: the file is untouched");
        assert_eq!(board.files(), common::only_the_board(), "{tool}");
    }
    // save_board 'as' refuses to copy what it cannot read, and writes no copy.
    let copy = board.dir.path().join("copy.inkboard");
    board
        .call(
            &engine,
            "save_board",
            json!({"as": common::path_str(&copy)}),
        )
        .unwrap_err();
    assert!(!copy.exists());
    // Once repaired (here, rewritten by create_board), the file works again.
    call(
        &engine,
        "create_board",
        json!({"path": board.arg(), "overwrite": true}),
    )
    .unwrap();
    board.call(&engine, "read_board", json!({})).unwrap();
}

#[test]
fn a_file_that_is_not_a_board_is_a_clear_error() {
    let engine = Engine::new();
    let board = Board::new(&engine, &[]);
    let other = br#"{"format": "drawio", "version": 1}"#.to_vec();
    std::fs::write(&board.path, &other).unwrap();
    let err = board.call(&engine, "read_board", json!({})).unwrap_err();
    assert!(err.to_string().contains("not an inkboard file"), "{err}");
    assert_eq!(board.bytes(), other);
}
