//! The application against its promises, with the real binary: `inkboard open`
//! serving on loopback, `inkboard mcp` forwarding path-less calls to it, and
//! browser windows seen through their WebSocket. Strangers trying to get in are
//! `security.rs`'s.

mod common;

use std::os::unix::fs::PermissionsExt;

use common::app::{file_objects, wait_for_file, App};
use common::{Era, Session};
use serde_json::{json, Value};

// ---- the discovery file ----

#[test]
fn discovery_file_is_private_and_withdrawn_on_exit() {
    let app = App::start("plan.inkboard");
    let file = app.runtime.join("app.json");
    let mode =
        |p: &std::path::Path| std::fs::metadata(p).expect("exists").permissions().mode() & 0o777;
    assert_eq!(mode(&file), 0o600, "the discovery file is private");
    assert_eq!(mode(&app.runtime), 0o700, "its folder is private");
    let info = app.discovery();
    assert_eq!(info["pid"], app.pid());
    assert_eq!(info["port"], app.port);
    assert_eq!(
        info["token"].as_str().map(str::len),
        Some(32),
        "128 bits in hex"
    );
    assert_eq!(info["paths"], json!([app.board.display().to_string()]));
    let (_dir, runtime) = app.stop();
    assert!(!runtime.join("app.json").exists(), "removed on SIGTERM");
}

#[test]
fn a_stale_discovery_file_is_replaced() {
    let dir = tempfile::tempdir().expect("dir");
    let runtime = dir.path().join("runtime");
    common::private_dir(&runtime);
    // A dead process: pid 2^22 + 1 is above Linux's pid limit.
    let stale = json!({"pid": 4194305, "port": 1, "token": "0".repeat(32), "paths": []});
    std::fs::write(runtime.join("app.json"), stale.to_string()).expect("write");
    let board = dir.path().join("b.inkboard");
    let app = App::start_in(dir, runtime, board);
    let info = app.discovery();
    assert_eq!(info["pid"], app.pid());
    assert_ne!(info["token"], stale["token"]);
}

// ---- live editing ----

/// An MCP server whose path-less calls go to `app`.
async fn agent(app: &App) -> Session {
    let dir = tempfile::tempdir().expect("dir");
    Session::start_with(Era::Handshake, dir, &app.runtime).await
}

fn operations(n: usize) -> Value {
    let ops: Vec<Value> = (0..n)
        .map(|i| json!({"tool": "add_shape", "args": {"text": format!("step {i}")}}))
        .collect();
    Value::Array(ops)
}

#[tokio::test]
async fn an_agent_batch_appears_live_and_is_one_undo_step() {
    let app = App::start("plan.inkboard");
    let cookie = app.sign_in();
    let mut window = app.window(&cookie).await;
    let agent = agent(&app).await;

    let out = agent
        .ok("batch", json!({"operations": operations(5)}))
        .await;
    assert_eq!(out["applied"], 5);
    // On screen without reload, marked as the agent's.
    let scene = window
        .until(|m| m["t"] == "scene" && !m["items"].as_object().is_some_and(|i| i.is_empty()))
        .await;
    assert_eq!(scene["agent"].as_array().map(Vec::len), Some(5), "{scene}");
    window.until_count(5).await;
    // Saved to the file.
    app.file_until("autosave", |v| file_objects(v).len() == 5);

    // One Ctrl+Z takes back the whole batch; redo brings it back.
    window.undo(false).await;
    window.until_count(0).await;
    app.file_until("undo saved", |v| file_objects(v).is_empty());
    window.undo(true).await;
    window.until_count(5).await;

    // A failed atomic batch leaves no trace: nothing on screen, no undo step.
    let mut ops = operations(3);
    ops.as_array_mut()
        .expect("list")
        .push(json!({"tool": "delete", "args": {"ids": ["nope"]}}));
    let failed = agent.fails("batch", json!({"operations": ops})).await;
    assert_eq!(
        failed.structured.as_ref().map(|s| s["index"].clone()),
        Some(json!(3)),
        "{failed:?}"
    );
    let read = agent.ok("read_board", json!({})).await;
    assert_eq!(read["page"]["objects"].as_array().map(Vec::len), Some(5));
    window.undo(false).await;
    window.until_count(0).await;
    agent.close().await;
}

#[tokio::test]
async fn the_persons_edits_reach_board_changes_as_user() {
    let app = App::start("plan.inkboard");
    let cookie = app.sign_in();
    let mut window = app.window(&cookie).await;
    let agent = agent(&app).await;
    let before = agent.ok("board_changes", json!({})).await;
    let reply = window
        .call(
            "add_shape",
            json!({"page": 1, "text": "mine", "x": 10, "y": 10}),
        )
        .await;
    assert_eq!(reply["ok"], true, "{reply}");
    let id = reply["result"]["id"].clone();
    let changes = agent.ok("board_changes", json!({})).await;
    let list = changes["changes"].as_array().expect("changes");
    assert_eq!(list.len(), 1, "{changes} after {before}");
    assert_eq!(list[0]["by"], "user");
    assert_eq!(list[0]["kind"], "added");
    assert_eq!(list[0]["id"], id);
    assert_eq!(list[0]["object"]["text"], "mine");
    // Asked again: nothing new since this server last asked.
    let again = agent.ok("board_changes", json!({})).await;
    assert_eq!(again["changes"], json!([]));
    agent.close().await;
}

#[tokio::test]
async fn two_windows_stay_in_sync() {
    let app = App::start("plan.inkboard");
    let cookie = app.sign_in();
    let mut one = app.window(&cookie).await;
    let mut two = app.window(&cookie).await;
    let reply = one
        .call(
            "add_shape",
            json!({"page": 1, "text": "hello", "x": 0, "y": 0}),
        )
        .await;
    let id = reply["result"]["id"].as_str().expect("id").to_string();
    two.until_count(1).await;
    assert_eq!(two.objects[&id]["text"], "hello");
    two.call(
        "update",
        json!({"page": 1, "id": id, "text": "hello again"}),
    )
    .await;
    one.until(|m| m["t"] == "scene" && m["items"].get(&id).is_some())
        .await;
    assert_eq!(one.objects[&id]["text"], "hello again");
    // Undo in one window is seen in the other.
    one.undo(false).await;
    two.until(|m| m["t"] == "scene" && m["items"].get(&id).is_some())
        .await;
    assert_eq!(two.objects[&id]["text"], "hello");
}

#[tokio::test]
async fn a_change_of_z_order_alone_reaches_every_window() {
    let app = App::start("plan.inkboard");
    let cookie = app.sign_in();
    let mut one = app.window(&cookie).await;
    let mut two = app.window(&cookie).await;
    let ops = json!([
        {"tool": "add_shape", "args": {"page": 1, "text": "a", "x": 0, "y": 0}},
        {"tool": "add_shape", "args": {"page": 1, "text": "b", "x": 200, "y": 0}}
    ]);
    one.call("batch", json!({"operations": ops})).await;
    two.until_count(2).await;
    // Nothing is drawn differently: only the order says what changed.
    one.call("order", json!({"page": 1, "ids": ["s1"], "to": "front"}))
        .await;
    let scene = two
        .until(|m| m["t"] == "scene" && m["order"] == json!(["s2", "s1"]))
        .await;
    assert_eq!(scene["items"], json!({}), "{scene}");
}

#[tokio::test]
async fn calls_naming_an_open_board_go_to_the_application() {
    let app = App::start("plan.inkboard");
    let cookie = app.sign_in();
    let mut window = app.window(&cookie).await;
    let agent = agent(&app).await;
    let path = app.board.display().to_string();
    agent
        .ok("add_shape", json!({"path": path, "text": "via path"}))
        .await;
    window.until_count(1).await;
    // So the person can undo it too.
    window.undo(false).await;
    window.until_count(0).await;
    // A file the application does not have open is edited directly.
    let other = app.dir.path().join("other.inkboard").display().to_string();
    agent.ok("create_board", json!({"path": other})).await;
    agent
        .ok("add_shape", json!({"path": other, "text": "direct"}))
        .await;
    let file = wait_for_file(std::path::Path::new(&other), "direct write", |v| {
        file_objects(v).len() == 1
    });
    assert_eq!(file_objects(&file)[0]["text"], "direct");
    assert_eq!(window.objects.len(), 0);
    agent.close().await;
}

#[tokio::test]
async fn render_without_path_draws_the_board_on_screen() {
    let app = App::start("plan.inkboard");
    let agent = agent(&app).await;
    agent.ok("add_shape", json!({"text": "seen"})).await;
    let picture = agent.call("render", json!({})).await;
    let text: Vec<String> = picture
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect();
    assert!(
        picture.content.iter().any(|c| c.as_image().is_some()),
        "a picture"
    );
    assert!(text.concat().contains("1 objects"), "{text:?}");
    agent.close().await;
}

#[tokio::test]
async fn create_board_without_path_opens_a_new_board_in_the_application() {
    let app = App::start("plan.inkboard");
    let cookie = app.sign_in();
    let mut other = app.window(&cookie).await;
    let mut window = app.window(&cookie).await;
    // The window focused last is the one that shows the new board.
    window.send(json!({"t": "focus"})).await;
    let agent = agent(&app).await;
    let made = agent
        .ok(
            "create_board",
            json!({"title": "Fresh", "pages": ["One", "Two"]}),
        )
        .await;
    assert_eq!(made.get("path"), None, "no file yet: {made}");
    let switch = window.until(|m| m["t"] == "switch").await;
    let stayed = tokio::time::timeout(
        std::time::Duration::from_millis(300),
        other.until(|m| m["t"] == "switch"),
    )
    .await;
    assert!(stayed.is_err(), "a window without focus keeps its board");
    let board = switch["board"].clone();
    window.send(json!({"t": "hello", "board": board})).await;
    let meta = window.until(|m| m["t"] == "board").await;
    assert_eq!(meta["title"], "Fresh");
    assert_eq!(meta["save"], "unsaved");
    // Path-less calls now edit it; save_board gives it a file.
    agent
        .ok("add_shape", json!({"text": "on the new board"}))
        .await;
    let target = app.dir.path().join("fresh.inkboard");
    let saved = agent
        .ok("save_board", json!({"as": target.display().to_string()}))
        .await;
    assert!(saved["bytes"].as_u64().unwrap_or(0) > 0);
    let file = wait_for_file(&target, "save as", |v| file_objects(v).len() == 1);
    assert_eq!(file["title"], "Fresh");
    let discovery = app.discovery();
    assert!(discovery["paths"]
        .as_array()
        .expect("paths")
        .contains(&json!(target.display().to_string())));
    agent.close().await;
}

#[tokio::test]
async fn a_file_changed_on_disk_is_never_overwritten() {
    let app = App::start("plan.inkboard");
    let cookie = app.sign_in();
    let mut window = app.window(&cookie).await;
    // Another program rewrites the file behind the application's back: with
    // nothing unsaved here, its version is loaded (`recovery.rs` has the rest).
    let mut theirs: Value =
        serde_json::from_str(&std::fs::read_to_string(&app.board).expect("read")).expect("json");
    theirs["title"] = json!("Edited elsewhere");
    std::fs::write(
        &app.board,
        serde_json::to_string_pretty(&theirs).expect("json"),
    )
    .expect("write");
    window
        .until(|m| m["t"] == "board" && m["title"] == "Edited elsewhere")
        .await;
    window
        .call("add_shape", json!({"page": 1, "text": "mine"}))
        .await;
    let on_disk = app.file_until("mine saved", |v| file_objects(v).len() == 1);
    assert_eq!(on_disk["title"], "Edited elsewhere", "their change is kept");
}

#[tokio::test]
async fn a_preview_shows_the_change_and_commits_nothing() {
    let app = App::start("plan.inkboard");
    let cookie = app.sign_in();
    let mut window = app.window(&cookie).await;
    let a = window
        .call("add_shape", json!({"page": 1, "text": "a", "x": 0, "y": 0}))
        .await["result"]["id"]
        .clone();
    let b = window
        .call(
            "add_shape",
            json!({"page": 1, "text": "b", "x": 300, "y": 0}),
        )
        .await["result"]["id"]
        .clone();
    let c = window
        .call("add_connector", json!({"page": 1, "from": a, "to": b}))
        .await["result"]["id"]
        .clone();
    window.until_count(3).await;
    let revision = window.revision;
    window
        .send(json!({"t": "preview", "seq": 99, "tool": "move", "args": {"page": 1, "ids": [b], "dx": 0, "dy": 200}}))
        .await;
    let preview = window.until(|m| m["t"] == "preview").await;
    let items = preview["items"].as_object().expect("items");
    assert!(
        items.contains_key(b.as_str().expect("id")),
        "the moved shape: {preview}"
    );
    assert!(
        items.contains_key(c.as_str().expect("id")),
        "its connector, re-routed: {preview}"
    );
    assert!(
        !items.contains_key(a.as_str().expect("id")),
        "the shape that did not change"
    );
    // Nothing was committed: the same revision, and nothing to undo but the three adds.
    let agent = agent(&app).await;
    let read = agent.ok("read_board", json!({})).await;
    assert_eq!(read["revision"].as_u64(), Some(revision));
    assert_eq!(read["page"]["objects"][1]["y"], 0);
    agent.close().await;
}

#[test]
fn the_export_menu_downloads_what_the_renderer_draws() {
    let app = App::start("plan.inkboard");
    let signed = app.sign_in();
    let cookie = format!("Cookie: {}\nX-Inkboard-Key: {}", signed.cookie, signed.key);
    for (format, media_type, magic) in [
        ("png", "image/png", "PNG"),
        ("svg", "image/svg+xml", "<svg"),
        ("pdf", "application/pdf", "%PDF"),
    ] {
        let answer = app.get(&format!("/export?page=1&format={format}"), &cookie);
        assert_eq!(answer.status, 200, "{format}: {}", answer.head);
        assert!(
            answer.head.contains(&format!("content-type: {media_type}")),
            "{}",
            answer.head
        );
        assert!(
            answer
                .head
                .contains(&format!("filename=\"plan-page1.{format}\"")),
            "{}",
            answer.head
        );
        let start: String = answer.body.chars().take(8).collect();
        assert!(start.contains(magic), "{format}: {start:?}");
    }
    assert_eq!(app.get("/export?format=gif", &cookie).status, 400);
}

/// Issue 18 (tabs that come back): after the application restarts on the same
/// board, a window that kept what its sign-in gave it (the cookie, the page key
/// in its storage) opens its WebSocket again without a new link, on the same
/// address, and edits the same board.
#[tokio::test]
async fn a_window_signs_in_again_after_the_application_restarts() {
    let app = App::start("plan.inkboard");
    let signed = app.sign_in();
    let port = app.port;
    let (dir, runtime) = app.stop();
    let board = dir.path().join("plan.inkboard");
    let app = App::start_in(dir, runtime, board);
    assert_eq!(app.port, port, "the address a tab knows is taken again");
    let mut window = app.window(&signed).await;
    window
        .call("add_shape", json!({"text": "after the restart"}))
        .await;
    app.file_until("the edit saved", |v| file_objects(v).len() == 1);
}
