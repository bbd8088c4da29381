//! What a board's folder holds once inkboard has worked in it: exactly the files
//! the user asked for (the boards, their copies and exports), and nothing beside
//! them: no lock files, no temporary files, whether the work came from a tool
//! call over MCP (each of the catalogue's tools, failed calls too), a CLI command,
//! or an editor session started and stopped. In a git repository anything else
//! would show in `git status`, for every board.
//!
//! Each test keeps its boards in a folder of their own, `boards/`, so the runtime
//! folder and the files a test writes for itself (an operations list) are not in
//! the listing.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Command;

use common::app::App;
use common::{Era, Session, BIN};
use serde_json::{json, Value};

/// Every name in `dir`, hidden ones included.
fn listing(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir)
        .expect("list the folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

/// Checks that `dir` holds exactly `want`, after `what`.
fn holds(dir: &Path, want: &BTreeSet<String>, what: &str) {
    assert_eq!(&listing(dir), want, "after {what}, the board folder holds");
}

#[tokio::test]
async fn every_tool_call_leaves_only_what_was_asked_for() {
    let s = Session::start(Era::Handshake).await;
    let boards = s.dir.path().join("boards");
    fs::create_dir(&boards).expect("a folder for boards");
    let at = |name: &str| boards.join(name).display().to_string();
    let path = at("a.inkboard");
    let mut want = BTreeSet::new();

    s.ok("create_board", json!({"path": path, "pages": ["One"]}))
        .await;
    want.insert("a.inkboard".to_string());
    holds(&boards, &want, "create_board");

    let mut ids = Vec::new();
    for text in ["first", "second", "third"] {
        let shape = s.ok("add_shape", json!({"path": path, "text": text})).await;
        ids.push(shape["id"].as_str().expect("an id").to_string());
        holds(&boards, &want, "add_shape");
    }
    let image = "data:image/svg+xml,%3Csvg width=%2290%22 height=%2270%22%3E%3C/svg%3E";
    let group = s
        .ok("group", json!({"path": path, "ids": [ids[1], ids[2]]}))
        .await;
    let group = group["id"].as_str().expect("an id").to_string();
    let calls: Vec<(&str, Value)> = vec![
        (
            "add_connector",
            json!({"path": path, "from": ids[0], "to": ids[1]}),
        ),
        ("add_image", json!({"path": path, "data": image})),
        (
            "add_ink",
            json!({"path": path, "points": [[0, 0], [10, 10]]}),
        ),
        (
            "update",
            json!({"path": path, "id": ids[0], "text": "changed"}),
        ),
        ("move", json!({"path": path, "ids": [ids[0]], "dx": 5})),
        ("duplicate", json!({"path": path, "ids": [ids[0]]})),
        (
            "order",
            json!({"path": path, "ids": [ids[0]], "to": "front"}),
        ),
        (
            "align",
            json!({"path": path, "ids": [ids[0], group], "edge": "left"}),
        ),
        (
            "distribute",
            json!({"path": path, "ids": [ids[0], group], "axis": "vertical", "gap": 10}),
        ),
        ("ungroup", json!({"path": path, "id": group})),
        ("layout", json!({"path": path})),
        (
            "import_mermaid",
            json!({"path": path, "text": "graph TD\nA-->B"}),
        ),
        ("find", json!({"path": path, "text": "changed"})),
        ("read_board", json!({"path": path})),
        ("board_changes", json!({"path": path})),
        ("render", json!({"path": path})),
        ("add_page", json!({"path": path, "name": "Two"})),
        (
            "rename_page",
            json!({"path": path, "page": 2, "name": "Second"}),
        ),
        ("delete_page", json!({"path": path, "page": 2})),
        ("delete", json!({"path": path, "ids": [ids[0]]})),
        ("save_board", json!({"path": path})),
        (
            "batch",
            json!({"path": path, "operations": [{"tool": "add_shape", "args": {"text": "in a batch"}}]}),
        ),
    ];
    for (tool, args) in calls {
        // `render` answers with a picture, which `ok` would not take.
        let r = s.call(tool, args).await;
        assert_eq!(r.is_error, Some(false), "{tool} failed: {:?}", r.content);
        holds(&boards, &want, tool);
    }

    // The files asked for, and only those.
    s.ok(
        "save_board",
        json!({"path": path, "as": at("copy.inkboard")}),
    )
    .await;
    want.insert("copy.inkboard".to_string());
    holds(&boards, &want, "save_board as");
    for output in ["a.svg", "a.png", "a.pdf", "export.inkboard"] {
        s.ok("export", json!({"path": path, "output": at(output)}))
            .await;
        want.insert(output.to_string());
        holds(&boards, &want, &format!("export to {output}"));
    }

    // Failed calls leave nothing either.
    let failures: Vec<(&str, Value)> = vec![
        ("create_board", json!({"path": path})),
        (
            "update",
            json!({"path": path, "id": "nothing", "text": "x"}),
        ),
        ("read_board", json!({"path": at("missing.inkboard")})),
        (
            "add_shape",
            json!({"path": at("missing.inkboard"), "text": "x"}),
        ),
        ("export", json!({"path": path, "output": at("a.svg")})),
        (
            "batch",
            json!({"path": path, "operations": [
                {"tool": "add_shape", "args": {"text": "undone"}},
                {"tool": "update", "args": {"id": "nothing", "text": "x"}}
            ]}),
        ),
    ];
    for (tool, args) in failures {
        s.fails(tool, args).await;
        holds(&boards, &want, &format!("a failed {tool}"));
    }
    common::assert_quiet(&s.close().await);
}

#[test]
fn every_command_leaves_only_what_was_asked_for() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let runtime = dir.path().join("runtime");
    common::private_dir(&runtime);
    let boards = dir.path().join("boards");
    fs::create_dir(&boards).expect("a folder for boards");
    let ops = dir.path().join("ops.json");
    fs::write(
        &ops,
        json!([{"tool": "add_shape", "args": {"text": "from the CLI"}}]).to_string(),
    )
    .expect("write the operations");
    let run = |args: &[&str]| {
        let out = Command::new(BIN)
            .args(args)
            .current_dir(&boards)
            .env("INKBOARD_RUNTIME_DIR", &runtime)
            .env_remove("INKBOARD_LOG")
            .output()
            .expect("run inkboard");
        assert!(out.status.success(), "inkboard {args:?}: {out:?}");
    };
    let ops = ops.display().to_string();
    let mut want = BTreeSet::new();
    for (args, made) in [
        (vec!["new", "b.inkboard"], Some("b.inkboard")),
        (vec!["batch", "b.inkboard", &ops], None),
        (vec!["render", "b.inkboard"], Some("b.png")),
        (vec!["export", "b.inkboard", "-o", "b.svg"], Some("b.svg")),
        (
            vec!["export", "b.inkboard", "-o", "c.inkboard"],
            Some("c.inkboard"),
        ),
        (
            vec![
                "call",
                "add_shape",
                r#"{"path": "b.inkboard", "text": "called"}"#,
            ],
            None,
        ),
        (
            vec!["call", "read_board", r#"{"path": "b.inkboard"}"#],
            None,
        ),
    ] {
        run(&args);
        want.extend(made.map(String::from));
        holds(&boards, &want, &format!("inkboard {}", args.join(" ")));
    }
}

#[test]
fn an_editor_session_leaves_only_the_board() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let runtime = dir.path().join("runtime");
    let boards = dir.path().join("boards");
    fs::create_dir(&boards).expect("a folder for boards");
    let board = boards.join("open.inkboard");
    // The application creates the file it is asked to open.
    let app = App::start_in(dir, runtime.clone(), board.clone());
    // An agent's call without a path goes to the board on screen, and is saved.
    let added = Command::new(BIN)
        .args(["call", "add_shape", r#"{"text": "live work"}"#])
        .env("INKBOARD_RUNTIME_DIR", &runtime)
        .env_remove("INKBOARD_LOG")
        .output()
        .expect("inkboard call runs");
    assert!(added.status.success(), "{added:?}");
    app.file_until("the shape is saved", |v| {
        common::app::file_objects(v)
            .iter()
            .any(|o| o["text"] == "live work")
    });
    let (_dir, _runtime) = app.stop();
    let want = BTreeSet::from(["open.inkboard".to_string()]);
    holds(&boards, &want, "an editor session");
}
