//! The MCP Apps extension as a client sees it, line by line over stdio: what a
//! host that declares `io.modelcontextprotocol/ui` gets (the linked tools'
//! `_meta.ui`, the app-only tools, the `ui://inkboard/board` resource and its
//! policy, a result that names its revision and carries the drawing), and that a
//! client that does not declare it gets exactly what it got before (the golden
//! `tools_list.json`, no resource, no `_meta`). What each kind of client gets is
//! in `golden/chat.json` (`UPDATE_EXPECT=1` refreshes it); the chat view's HTML
//! itself is checked by `inkboard-app`'s `chat.rs` tests and `tests/chat/`.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use common::app::App;
use common::budget;
use serde_json::{json, Value};

const UI: &str = "io.modelcontextprotocol/ui";
const MIME: &str = "text/html;profile=mcp-app";

/// `inkboard mcp` after the 2025-11-25 handshake with `capabilities`.
struct Line {
    child: Child,
    stdin: ChildStdin,
    out: BufReader<ChildStdout>,
    next: u64,
    dir: tempfile::TempDir,
}

impl Line {
    fn start(capabilities: Value) -> Line {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let runtime = dir.path().join("runtime");
        Line::start_in(dir, &runtime, capabilities)
    }

    /// `inkboard mcp` with `runtime` as its runtime folder (an application's, to
    /// reach it).
    fn start_in(dir: tempfile::TempDir, runtime: &Path, capabilities: Value) -> Line {
        let mut child = Command::new(common::BIN)
            .arg("mcp")
            .env("INKBOARD_RUNTIME_DIR", runtime)
            .env_remove("INKBOARD_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn inkboard mcp");
        let stdin = child.stdin.take().expect("stdin");
        let out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = Line {
            child,
            stdin,
            out,
            next: 0,
            dir,
        };
        line.ask(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": capabilities,
                   "clientInfo": {"name": "chat", "version": "0"}}),
        );
        writeln!(
            line.stdin,
            r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
        )
        .expect("write");
        line
    }

    /// The result of one request (its error, as `{"error": ...}`, if it failed).
    fn ask(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(self.stdin, "{request}").expect("write");
        self.stdin.flush().expect("flush");
        let mut text = String::new();
        loop {
            text.clear();
            assert!(
                self.out.read_line(&mut text).expect("read") > 0,
                "no answer"
            );
            let v: Value = serde_json::from_str(&text).expect("JSON");
            if v["id"] == id {
                return match v.get("error") {
                    Some(e) => json!({"error": e}),
                    None => v["result"].clone(),
                };
            }
        }
    }

    fn call(&mut self, name: &str, arguments: Value) -> Value {
        self.ask("tools/call", json!({"name": name, "arguments": arguments}))
    }

    fn board(&self) -> String {
        self.dir.path().join("b.inkboard").display().to_string()
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a client of this kind gets, in the golden file's words.
fn what_it_gets(line: &mut Line) -> Value {
    let tools = line.ask("tools/list", json!({}));
    let tools = tools["tools"].as_array().cloned().unwrap_or_default();
    let linked: serde_json::Map<String, Value> = tools
        .iter()
        .filter(|t| t.get("_meta").is_some() && !is_app_only(t))
        .map(|t| {
            (
                t["name"].as_str().unwrap_or("").to_string(),
                t["_meta"].clone(),
            )
        })
        .collect();
    let app_only: Vec<Value> = tools.iter().filter(|t| is_app_only(t)).cloned().collect();
    let resources = line.ask("resources/list", json!({}));
    let board = line.board();
    line.call("create_board", json!({"path": board}));
    let batch = line.call(
        "batch",
        json!({"path": board, "operations": [
            {"tool": "add_shape", "args": {"text": "A"}},
            {"tool": "add_shape", "args": {"text": "B", "x": 300}},
            {"tool": "add_connector", "args": {"from": "$0.id", "to": "$1.id"}},
        ]}),
    );
    let meta = &batch["_meta"];
    let drawing = &meta["inkboard/view"];
    json!({
        "linked": linked,
        "app_only": app_only,
        "resources": resources["resources"],
        "batch_meta": {
            "revision": meta["inkboard/revision"],
            "view_board": drawing["board"],
            "scene_order": drawing["scene"]["order"],
            "scene_full": drawing["scene"]["full"],
            "agent": drawing["scene"]["agent"],
            "items_with_svg_and_hash": drawing["scene"]["items"].as_object().map(|items| {
                items.values().filter(|i| i["svg"].is_string() && i["h"].is_string()).count()
            }),
        },
    })
}

fn is_app_only(tool: &Value) -> bool {
    tool["_meta"]["ui"]["visibility"] == json!(["app"])
}

#[test]
fn each_kind_of_client_gets_what_the_golden_file_says() {
    let mut apps = Line::start(json!({"extensions": {UI: {"mimeTypes": [MIME]}}}));
    let mut plain = Line::start(json!({}));
    let mut answer = json!({
        "host that shows MCP Apps": what_it_gets(&mut apps),
        "client without MCP Apps": what_it_gets(&mut plain),
    });
    // The board's path is the scratch folder's: the same in every run.
    for kind in ["host that shows MCP Apps", "client without MCP Apps"] {
        if let Some(board) = answer[kind]["batch_meta"]["view_board"].as_object_mut() {
            board.insert("path".into(), json!("<scratch>/b.inkboard"));
        }
    }
    let pretty = serde_json::to_string_pretty(&answer).expect("JSON") + "\n";
    common::check_golden("golden/chat.json", &pretty);
}

#[test]
fn a_client_without_mcp_apps_gets_the_tools_list_it_always_got() {
    let mut plain = Line::start(json!({}));
    let list = plain.ask("tools/list", json!({}));
    let pretty = serde_json::to_string_pretty(&list).expect("JSON") + "\n";
    // The very file mcp_e2e keeps for the tools/list every client gets.
    let expected = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/tools_list.json"),
    )
    .expect("the tools/list golden file");
    assert_eq!(
        serde_json::from_str::<Value>(&expected).expect("JSON"),
        serde_json::from_str::<Value>(&pretty).expect("JSON")["tools"]
    );
    // An extension named but without our media type is not MCP Apps for us.
    let mut other = Line::start(json!({"extensions": {UI: {"mimeTypes": ["text/uri-list"]}}}));
    assert_eq!(other.ask("tools/list", json!({})), list);
}

#[test]
fn the_model_gets_no_more_from_a_host_that_shows_the_chat_view() {
    let mut apps = Line::start(json!({"extensions": {UI: {}}}));
    let tools = apps.ask("tools/list", json!({}));
    let tools = tools["tools"].as_array().cloned().unwrap_or_default();
    let (app_only, model): (Vec<Value>, Vec<Value>) = tools.into_iter().partition(is_app_only);
    assert_eq!(app_only.len(), 4);
    // What the host hands the model is what every client gets (the `_meta` stays
    // with the host), within the same ceiling.
    assert!(budget::model_bytes(&model) <= budget::MODEL_BUDGET);
    // The chat view's own tools are small, and kept from the model by the host.
    let app_bytes = budget::model_bytes(&app_only);
    assert!(
        app_bytes <= 2048,
        "the app-only tools cost {app_bytes} bytes"
    );
}

#[test]
fn the_chat_view_resource_is_one_document_with_a_closed_policy() {
    // Any client may read it; only MCP Apps hosts are told of it.
    for caps in [
        json!({"extensions": {UI: {"mimeTypes": [MIME]}}}),
        json!({}),
    ] {
        let mut line = Line::start(caps);
        let read = line.ask("resources/read", json!({"uri": "ui://inkboard/board"}));
        let content = &read["contents"][0];
        assert_eq!(content["uri"], "ui://inkboard/board");
        assert_eq!(content["mimeType"], MIME);
        assert_eq!(
            content["_meta"]["ui"]["csp"],
            json!({"connectDomains": [], "resourceDomains": [], "frameDomains": [], "baseUriDomains": []})
        );
        let html = content["text"].as_str().expect("the document as text");
        assert!(html.starts_with("<!doctype html>"));
        assert!(html.contains("default-src 'none'"));
        // The editor's own modules and its CSS, unminified, and since issue 31
        // the two Inter faces the view draws in, cut to Latin (about 80 KiB as
        // JSON): 388.8 KiB on 2026-12-06, with the tables and icons. A host reads
        // it once per conversation; the cap catches a picture or a whole font
        // bundled by mistake (one whole face is over 300 KiB).
        assert!(html.len() < 448 * 1024, "{} bytes", html.len());
        let missing = line.ask("resources/read", json!({"uri": "ui://inkboard/other"}));
        assert!(missing["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("ui://inkboard/board")));
    }
}

#[test]
fn an_edit_in_the_chat_view_is_the_persons_and_undo_takes_it_back() {
    let mut apps = Line::start(json!({"extensions": {UI: {}}}));
    let board = apps.board();
    apps.call("create_board", json!({"path": board}));
    let first = apps.call(
        "batch",
        json!({"path": board, "operations": [{"tool": "add_shape", "args": {"text": "A"}}]}),
    );
    let revision = first["_meta"]["inkboard/revision"]
        .as_u64()
        .expect("a revision");
    let moved = apps.call(
        "view_edit",
        json!({"path": board, "tool": "move", "args": {"ids": ["s1"], "dx": 10, "dy": 0}, "known": {}}),
    );
    assert_ne!(moved["isError"], true, "{moved}");
    // The chat view reads the structured content; the text is a line, not the drawing again.
    let text = moved["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.len() < 100, "{text}");
    let view = &moved["structuredContent"]["view"];
    assert_eq!(view["board"]["undo"], true);
    assert!(view["scene"]["items"]["s1"]["svg"].is_string(), "{view}");
    let changes = apps.call("board_changes", json!({"path": board, "since": revision}));
    assert_eq!(changes["structuredContent"]["changes"][0]["by"], "user");
    // No file, no other tool: the window rules.
    for (tool, args) in [
        (
            "move",
            json!({"ids": ["s1"], "dx": 1, "path": "/tmp/other.inkboard"}),
        ),
        ("export", json!({"output": "/tmp/x.png"})),
    ] {
        let refused = apps.call(
            "view_edit",
            json!({"path": board, "tool": tool, "args": args}),
        );
        assert_eq!(refused["isError"], true, "{tool}: {refused}");
    }
    let undone = apps.call("view_history", json!({"path": board}));
    assert_eq!(undone["structuredContent"]["done"], true, "{undone}");
    let read = apps.call("read_board", json!({"path": board}));
    let x = &read["structuredContent"]["page"]["objects"][0]["x"];
    let before = &first["_meta"]["inkboard/view"]["scene"]["items"]["s1"]["obj"]["x"];
    assert_eq!(x, before);
    // A view that is up to date is answered without a scene.
    let r = read["structuredContent"]["revision"]
        .as_u64()
        .expect("revision");
    let idle = apps.call(
        "view_board",
        json!({"path": board, "since": r, "known": {}}),
    );
    assert_eq!(idle["structuredContent"]["scene"], Value::Null, "{idle}");
}

#[test]
fn a_result_carries_the_drawing_of_a_small_page_only() {
    let mut apps = Line::start(json!({"extensions": {UI: {}}}));
    let board = apps.board();
    let objects: Vec<Value> = (1..=501)
        .map(|i| {
            json!({"id": format!("s{i}"), "type": "shape", "geom": "rect",
                        "x": (i % 30) * 150, "y": (i / 30) * 100, "w": 120, "h": 60})
        })
        .collect();
    let doc = json!({"format": "inkboard", "version": 1, "title": "Large", "revision": 1,
                     "next_id": 502, "pages": [{"id": "p1", "name": "Page 1", "objects": objects}]});
    std::fs::write(&board, doc.to_string()).expect("write the board");
    let read = apps.call("read_board", json!({"path": board}));
    assert_eq!(
        read["_meta"]["inkboard/view"],
        Value::Null,
        "501 objects ride along"
    );
    // The chat view asks for it itself, and gets it.
    let asked = apps.call("view_board", json!({"path": board}));
    let order = &asked["structuredContent"]["scene"]["order"];
    assert_eq!(order.as_array().map(Vec::len), Some(501));
    apps.call("delete", json!({"path": board, "ids": ["s501"]}));
    let small = apps.call("read_board", json!({"path": board}));
    assert!(
        small["_meta"]["inkboard/view"]["scene"].is_object(),
        "500 objects ride along"
    );
}

/// A tool the server does not have, as a client is told of it: the error with
/// the tool's name taken out.
fn unknown(line: &mut Line, name: &str, args: Value) -> Value {
    let answer = line.call(name, args);
    let text = answer.to_string().replace(name, "TOOL");
    serde_json::from_str(&text).expect("JSON")
}

/// The chat view's own tools answer only a client that declared MCP Apps, whose host
/// keeps them from the model. To any other client (a model calling them by name
/// through a client that never declared the extension) they are unknown tools,
/// in the very words of one that does not exist: nothing is edited, recorded as
/// the person's, or undone. Nor does `inkboard call` reach them.
#[test]
fn the_chat_views_tools_do_not_exist_for_a_client_without_mcp_apps() {
    let board_of = |line: &Line| line.board();
    for caps in [
        json!({}),
        json!({"extensions": {UI: {"mimeTypes": ["text/uri-list"]}}}),
    ] {
        let mut plain = Line::start(caps.clone());
        let board = board_of(&plain);
        plain.call("create_board", json!({"path": board}));
        plain.call(
            "batch",
            json!({"path": board, "operations": [{"tool": "add_shape", "args": {"text": "A"}}]}),
        );
        let before = std::fs::read(&board).expect("the board");
        let expected = unknown(&mut plain, "no_such_tool", json!({"path": board}));
        assert!(expected["error"].is_object(), "{expected}");
        let move_a = json!({"path": board, "tool": "move", "args": {"ids": ["s1"], "dx": 10}});
        for (tool, args) in [
            ("view_edit", move_a.clone()),
            ("view_preview", move_a),
            ("view_history", json!({"path": board})),
            ("view_board", json!({"path": board})),
            // Not even a wrong argument tells that the tool is there.
            ("view_board", json!({"path": board, "colour": "red"})),
        ] {
            let answer = unknown(&mut plain, tool, args);
            assert_eq!(answer, expected, "{caps}: {tool}");
        }
        assert_eq!(std::fs::read(&board).expect("the board"), before, "{caps}");
        let changes = plain.call("board_changes", json!({"path": board, "since": 0}));
        let changes = changes["structuredContent"]["changes"].as_array().cloned();
        assert!(
            changes.iter().flatten().all(|c| c["by"] == "agent"),
            "{changes:?}"
        );
    }
    let dir = tempfile::tempdir().expect("a scratch folder");
    let board = dir.path().join("b.inkboard");
    let cli = |args: &[&str]| {
        Command::new(common::BIN)
            .args(args)
            .env("INKBOARD_RUNTIME_DIR", dir.path().join("runtime"))
            .output()
            .expect("inkboard runs")
    };
    assert!(cli(&["new", board.to_str().expect("UTF-8")])
        .status
        .success());
    for args in [
        json!({"path": board, "tool": "add_shape", "args": {"text": "x"}}),
        json!({"path": board, "colour": "red"}),
    ] {
        let called = cli(&["call", "view_edit", &args.to_string()]);
        assert!(!called.status.success());
        let said = String::from_utf8_lossy(&called.stderr);
        assert!(
            said.contains("unknown tool \"view_edit\""),
            "{args}: {said}"
        );
    }
}

/// Undo in the chat view takes back the person's own steps (made in the chat view or the
/// editor), never an agent's: after the agent's batch, the person's move is
/// undone and the agent's shape stays; with no step of the person's left, there
/// is nothing to undo (`done: false`, `undo: false`), and the agent's work is
/// still all there.
#[test]
fn undo_in_the_chat_view_takes_back_the_persons_steps_never_an_agents() {
    let mut apps = Line::start(json!({"extensions": {UI: {}}}));
    let board = apps.board();
    apps.call("create_board", json!({"path": board}));
    let add = |text: &str, x: i32| json!({"path": board, "operations": [{"tool": "add_shape", "args": {"text": text, "x": x}}]});
    apps.call("batch", add("A", 0));
    let moved = apps.call(
        "view_edit",
        json!({"path": board, "tool": "move", "args": {"ids": ["s1"], "dx": 40, "dy": 0}}),
    );
    assert_ne!(moved["isError"], true, "{moved}");
    apps.call("batch", add("B", 400));
    let read = |apps: &mut Line| {
        let read = apps.call("read_board", json!({"path": board}));
        read["structuredContent"]["page"]["objects"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    };
    let x_of_a = |objects: &[Value]| {
        objects
            .iter()
            .find(|o| o["id"] == "s1")
            .map(|o| o["x"].clone())
    };
    let moved_x = x_of_a(&read(&mut apps));

    let undone = apps.call("view_history", json!({"path": board}));
    assert_eq!(undone["structuredContent"]["done"], true, "{undone}");
    assert_eq!(undone["structuredContent"]["view"]["board"]["undo"], false);
    let objects = read(&mut apps);
    assert_eq!(objects.len(), 2, "the agent's shape B stays: {objects:?}");
    assert_ne!(x_of_a(&objects), moved_x, "the person's move is undone");

    let again = apps.call("view_history", json!({"path": board}));
    assert_eq!(again["structuredContent"]["done"], false, "{again}");
    assert_eq!(
        read(&mut apps).len(),
        2,
        "the agent's steps are never undone"
    );
    // Redo brings back the person's move.
    let redone = apps.call("view_history", json!({"path": board, "redo": true}));
    assert_eq!(redone["structuredContent"]["done"], true, "{redone}");
    assert_eq!(x_of_a(&read(&mut apps)), moved_x);
}

/// With the application running, `inkboard mcp` forwards the chat view's calls there,
/// saying they are the chat view's: a client that declared MCP Apps edits the board
/// on screen as the person; one that did not gets an unknown tool, and so does
/// a forwarded call that does not say it is the chat view's.
#[tokio::test]
async fn the_chat_views_tools_reach_the_application_only_from_the_chat_view() {
    let app = App::start("plan.inkboard");
    let signed = app.sign_in();
    let mut window = app.window(&signed).await;
    let reply = window
        .call("add_shape", json!({"page": 1, "text": "A"}))
        .await;
    assert_eq!(reply["ok"], true, "{reply}");
    let edit = json!({"tool": "move", "args": {"ids": ["s1"], "dx": 10, "dy": 0}});

    let scratch = tempfile::tempdir().expect("a scratch folder");
    let mut plain = Line::start_in(scratch, &app.runtime, json!({}));
    let refused = plain.call("view_edit", edit.clone());
    assert!(
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("unknown tool")),
        "{refused}"
    );
    let head = format!(
        "POST /api/call HTTP/1.1\nHost: 127.0.0.1:{}\nAuthorization: Bearer {}\nContent-Type: application/json",
        app.port,
        app.token()
    );
    let body = json!({"tool": "view_edit", "args": edit, "client": "sneaky"}).to_string();
    let answer = app.raw(&head, body.as_bytes());
    assert!(answer.body.contains("unknown tool"), "{}", answer.body);

    let scratch = tempfile::tempdir().expect("a scratch folder");
    let mut apps = Line::start_in(scratch, &app.runtime, json!({"extensions": {UI: {}}}));
    let moved = apps.call("view_edit", edit);
    assert_ne!(moved["isError"], true, "{moved}");
    let changes = apps.call("board_changes", json!({"since": window.revision}));
    let changes = &changes["structuredContent"]["changes"];
    assert_eq!(changes[0]["by"], "user", "{changes}");
    assert_eq!(changes.as_array().map(Vec::len), Some(1), "{changes}");
    drop((plain, apps));
    app.stop();
}
