//! The team server with the real parts: `inkboard serve` processes on one database,
//! driven over MCP's streamable HTTP with bearer tokens, administered with
//! `inkboard admin`, boards pushed and pulled with the binary. The same suite runs
//! on the embedded SQLite default (one process, restarted) and on PostgreSQL (two
//! processes on one database, in the store's throwaway cluster, `pg.rs`), checking
//! roles, not-found, 401s, writers on both processes at once, `kill -9` of a
//! process mid-write and a restart, the server's `tools/list` (its golden and
//! its budget), and presence between windows on both processes (`presence.rs`).

#[allow(dead_code)]
#[path = "../common/budget.rs"]
mod budget;
mod editor;
mod harness;
#[path = "../../../inkboard-store/tests/suite/pg.rs"]
mod pg;
mod presence;
mod web;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use harness::{Mcp, Place, Serve};
use serde_json::{json, Value};

/// The ids of the objects on a board's first page.
fn ids(mcp: &mut Mcp, board: &str) -> BTreeSet<String> {
    let read = mcp
        .call("read_board", json!({"board": board}))
        .expect("read_board");
    read["page"]["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .map(|o| o["id"].as_str().expect("id").to_string())
        .collect()
}

/// Roles, not found and the author of each change, through `processes` servers.
fn roles_and_not_found(place: &Place, servers: &[Serve]) {
    let ann = place.person("ann");
    let bob = place.person("bob");
    let (first, last) = (&servers[0], &servers[servers.len() - 1]);
    let mut ann1 = Mcp::connect(first, &ann);
    let made = ann1
        .call("create_board", json!({"title": "Plans"}))
        .expect("create_board");
    let board = made["board"].as_str().expect("board id").to_string();
    let done = ann1
        .call(
            "batch",
            json!({"board": board, "operations": [
                {"tool": "add_shape", "args": {"text": "A"}},
                {"tool": "add_shape", "args": {"text": "B"}},
                {"tool": "add_connector", "args": {"from": "$0.id", "to": "$1.id"}},
            ]}),
        )
        .expect("batch");
    assert_eq!(done["applied"], 3, "{done}");
    // One batch, one revision: the board was made at 0.
    let listed = ann1.call("list_boards", json!({})).expect("list_boards");
    assert_eq!(listed["boards"][0]["board"], json!(board), "{listed}");
    assert_eq!(listed["boards"][0]["role"], "owner");
    assert_eq!(listed["boards"][0]["revision"], 1, "{listed}");

    // A stranger, on another process: the board is not found, worded exactly
    // as a board that does not exist.
    let mut bob2 = Mcp::connect(last, &bob);
    let hidden = bob2
        .call("read_board", json!({"board": board}))
        .expect_err("a stranger reads nothing");
    let missing = bob2
        .call("read_board", json!({"board": "nosuchboard0000"}))
        .expect_err("no such board");
    assert!(hidden.contains("not found"), "{hidden}");
    assert_eq!(
        hidden.replace(&board, "ID"),
        missing.replace("nosuchboard0000", "ID")
    );
    assert_eq!(
        bob2.call("list_boards", json!({})).expect("list")["boards"],
        json!([])
    );

    // A viewer reads, and a write names the role it needs.
    place.admin(&["share", &board, "bob", "viewer"]);
    assert_eq!(ids(&mut bob2, &board).len(), 3);
    let refused = bob2
        .call("add_shape", json!({"board": board, "text": "mine"}))
        .expect_err("a viewer cannot write");
    assert!(
        refused.contains("needs the editor role on this board"),
        "{refused}"
    );
    let refused = bob2
        .call(
            "batch",
            json!({"board": board, "operations": [{"tool": "add_shape", "args": {}}]}),
        )
        .expect_err("nor in a batch");
    assert!(refused.contains("editor role"), "{refused}");
    assert_eq!(ids(&mut bob2, &board).len(), 3, "nothing was written");

    // As an editor bob writes, and the changes say who made them.
    place.admin(&["share", &board, "bob", "editor"]);
    bob2.call("add_shape", json!({"board": board, "text": "bob's"}))
        .expect("an editor writes");
    let changes = ann1
        .call("board_changes", json!({"board": board, "since": 0}))
        .expect("board_changes");
    let by: BTreeSet<&str> = changes["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .filter_map(|c| c["by"].as_str())
        .collect();
    assert_eq!(
        by,
        BTreeSet::from(["ann's agent", "bob's agent"]),
        "{changes}"
    );
    // Both shares are in the audit log, the administrator's, newest first.
    let audit = place.admin_all(&["audit", "--limit", "2"]);
    let rows: Vec<&str> = audit
        .lines()
        .map(|l| l.split_once('\t').map_or(l, |(_time, rest)| rest))
        .collect();
    assert_eq!(
        rows,
        [
            format!("admin\tshare\tboard {board}\tfor bob\tas editor"),
            format!("admin\tshare\tboard {board}\tfor bob\tas viewer"),
        ],
        "{audit}"
    );
}

/// Render and import on a server board, over MCP: a page drawn as a PNG with
/// its summary; a Mermaid flowchart added to a board, and a draw.io file made
/// a new board of the caller's.
fn render_and_import(place: &Place, serve: &Serve) {
    let token = place.person("ria");
    let mut ria = Mcp::connect(serve, &token);
    let board = ria
        .call("create_board", json!({"title": "Drawn"}))
        .expect("create")["board"]
        .as_str()
        .expect("id")
        .to_string();
    let added = ria
        .call(
            "import_mermaid",
            json!({"board": board, "text": "flowchart LR\n  a[Ask] --> b[Answer]"}),
        )
        .expect("import_mermaid");
    assert_eq!(ids(&mut ria, &board).len(), 3, "{added}");
    let rendered = ria.request(
        "tools/call",
        json!({"name": "render", "arguments": {"board": board}}),
    );
    let result = &rendered["result"];
    assert_ne!(result["isError"], json!(true), "{rendered}");
    let image = result["content"]
        .as_array()
        .expect("content")
        .iter()
        .find(|c| c["type"] == "image")
        .expect("an image");
    assert_eq!(image["mimeType"], "image/png");
    let png = base64::engine::general_purpose::STANDARD
        .decode(image["data"].as_str().expect("data"))
        .expect("base64");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    assert_eq!(result["structuredContent"]["objects"], 3, "{result}");

    // A draw.io file becomes a new board, Ria's own.
    let drawio = r#"<mxfile><diagram name="One"><mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>
        <mxCell id="2" value="Hello" style="rounded=1;" vertex="1" parent="1"><mxGeometry x="10" y="10" width="120" height="60" as="geometry"/></mxCell>
        </root></mxGraphModel></diagram></mxfile>"#;
    let imported = ria
        .call("import", json!({"content": drawio, "name": "plan.drawio"}))
        .expect("import");
    let new = imported["board"]
        .as_str()
        .expect("the new board's id")
        .to_string();
    assert_ne!(new, board);
    let listed = ria.call("list_boards", json!({})).expect("list");
    assert!(
        listed["boards"]
            .as_array()
            .expect("boards")
            .iter()
            .any(|b| b["board"] == json!(new) && b["role"] == "owner"),
        "{listed}"
    );
    assert_eq!(ids(&mut ria, &new).len(), 1, "{imported}");
}

/// The administrator's lists, revocations and removals, end to end: `users`,
/// `links` and `revoke-link` (a revoked link signs nobody in), `boards`,
/// `shares` and `unshare` (the role gone over MCP too), `remove-user` (their
/// token stops working, their name stays on their changes).
fn admin_lists_revokes_and_removes(place: &Place, serve: &Serve) {
    let token = place.person("ola");
    place.admin(&["add-user", "pat"]);
    let users = place.admin_all(&["users"]);
    let names: Vec<&str> = users.lines().filter_map(|l| l.split('\t').next()).collect();
    assert!(names.contains(&"ola") && names.contains(&"pat"), "{users}");

    let link = place.admin(&["link", "pat"]);
    let links = place.admin_all(&["links", "pat"]);
    let row = links.lines().last().expect("pat's link");
    assert!(row.contains("\tpat\texpires"), "{links}");
    let id = row.split('\t').next().expect("id");
    assert!(place.admin(&["revoke-link", id]).contains("revoked"));
    assert!(place.admin_all(&["links", "pat"]).contains("revoked"));
    let browser: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let used = browser
        .get(&format!("{}{link}", serve.url))
        .call()
        .expect("GET");
    assert_eq!(used.status().as_u16(), 403, "a revoked link");

    let mut ola = Mcp::connect(serve, &token);
    let board = ola
        .call("create_board", json!({"title": "Ola's"}))
        .expect("create")["board"]
        .as_str()
        .expect("id")
        .to_string();
    let boards = place.admin_all(&["boards"]);
    assert!(
        boards.contains(&format!("{board}\tOla's\trevision 0")),
        "{boards}"
    );
    place.admin(&["share", &board, "pat", "editor"]);
    assert_eq!(
        place.admin_all(&["shares", &board]),
        "ola\towner\npat\teditor\n"
    );
    assert_eq!(place.admin(&["unshare", &board, "pat"]), "role taken away");
    assert_eq!(place.admin(&["unshare", &board, "pat"]), "had no role");
    assert_eq!(place.admin_all(&["shares", &board]), "ola\towner\n");

    ola.call("add_shape", json!({"board": board, "text": "kept"}))
        .expect("a change in ola's name");
    place.admin(&["share", &board, "pat", "owner"]);
    assert_eq!(place.admin(&["remove-user", "ola"]), "removed ola");
    let names = place.admin_all(&["users"]);
    let ola_row = names.lines().find(|l| l.starts_with("ola\t"));
    assert!(ola_row.is_some_and(|l| l.contains("\tremoved ")), "{names}");
    let refused = harness_client(serve, &token).post(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}}));
    assert_eq!(refused.status, 401, "a removed person's token");
    assert_eq!(place.admin_all(&["shares", &board]), "pat\towner\n");
    let pat = place.admin(&["token", "pat"]);
    let changes = Mcp::connect(serve, &pat)
        .call("board_changes", json!({"board": board, "since": 0}))
        .expect("board_changes");
    assert_eq!(changes["changes"][0]["by"], "ola's agent", "{changes}");

    // Deleted for good: gone from the list, not found over MCP, audited.
    assert_eq!(
        place.admin(&["delete-board", &board]),
        format!("board {board} deleted")
    );
    assert!(!place.admin_all(&["boards"]).contains(&board));
    let gone = Mcp::connect(serve, &pat)
        .call("read_board", json!({"board": board}))
        .expect_err("a deleted board");
    assert!(gone.contains("not found"), "{gone}");
    let audit = place.admin(&["audit", "--limit", "1"]);
    assert!(
        audit.ends_with(&format!("admin\tboard.delete\tboard {board}")),
        "{audit}"
    );
}

/// 401 with `WWW-Authenticate: Bearer` for a missing and for a wrong token.
fn tokens_are_checked(place: &Place, serve: &Serve) {
    for token in [
        "",
        "ink_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "nonsense",
    ] {
        let mut raw = harness_client(serve, token);
        let answer = raw.post(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}}));
        assert_eq!(answer.status, 401, "token {token:?}: {}", answer.body);
        let challenge = answer.www_authenticate.unwrap_or_default();
        assert!(challenge.starts_with("Bearer"), "{challenge:?}");
    }
    // A revoked token stops working.
    place.admin(&["add-user", "carl"]);
    let token = place.admin(&["token", "carl"]);
    Mcp::connect(serve, &token);
    let listed = place.admin(&["tokens", "carl"]);
    let id = listed.split('\t').next().expect("token id").to_string();
    place.admin(&["revoke-token", &id]);
    let mut raw = harness_client(serve, &token);
    let answer = raw.post(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    assert_eq!(answer.status, 401);
}

fn harness_client(serve: &Serve, token: &str) -> Mcp {
    // Without the handshake: the guard answers before MCP does.
    Mcp::raw(serve, token)
}

/// Writers on every process at once, on one board: every call is kept, in one
/// line of revisions, and each process reads the same board.
fn concurrent_writers(place: &Place, servers: &[Serve]) {
    let token = place.person("dana");
    let mut dana = Mcp::connect(&servers[0], &token);
    let board = dana
        .call("create_board", json!({"title": "Busy"}))
        .expect("create")["board"]
        .as_str()
        .expect("id")
        .to_string();
    const WRITERS: usize = 4;
    const CALLS: usize = 6;
    let made: Arc<Mutex<BTreeSet<String>>> = Arc::default();
    std::thread::scope(|s| {
        for w in 0..WRITERS {
            let (serve, token, board, made) = (&servers[w % servers.len()], &token, &board, &made);
            s.spawn(move || {
                let mut mcp = Mcp::connect(serve, token);
                for i in 0..CALLS {
                    let out = mcp
                        .call(
                            "add_shape",
                            json!({"board": board, "text": format!("{w}.{i}")}),
                        )
                        .expect("every write goes through, retried on a conflict");
                    made.lock()
                        .unwrap()
                        .insert(out["id"].as_str().expect("id").to_string());
                }
            });
        }
    });
    let made = made.lock().unwrap().clone();
    assert_eq!(
        made.len(),
        WRITERS * CALLS,
        "ids are never handed out twice"
    );
    for serve in servers {
        let mut mcp = Mcp::connect(serve, &token);
        assert_eq!(ids(&mut mcp, &board), made);
        let read = mcp
            .call("read_board", json!({"board": board}))
            .expect("read");
        assert_eq!(read["revision"], json!(WRITERS * CALLS));
    }
}

/// `kill -9` of a process while writers write through it: every acknowledged
/// write is there afterwards, read through another process (or the same
/// database restarted).
fn killed_mid_write(place: &Place, servers: &mut [Serve]) {
    let token = place.person("erin");
    let mut erin = Mcp::connect(&servers[0], &token);
    let board = erin
        .call("create_board", json!({"title": "Crash"}))
        .expect("create")["board"]
        .as_str()
        .expect("id")
        .to_string();
    let acknowledged: Arc<Mutex<BTreeSet<String>>> = Arc::default();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let victim = servers.len() - 1;
    let url = servers[victim].url.clone();
    std::thread::scope(|s| {
        for _ in 0..3 {
            let (url, token, board, acknowledged, stop) =
                (&url, &token, &board, &acknowledged, &stop);
            s.spawn(move || {
                let mut mcp = Mcp::connect_at(url, token);
                while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                    // A call cut off by the kill answers nothing (or an error): only
                    // those that answered a result count as acknowledged.
                    let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        mcp.call("add_shape", json!({"board": board, "text": "w"}))
                    }));
                    match answered {
                        Ok(Ok(out)) => {
                            acknowledged
                                .lock()
                                .unwrap()
                                .insert(out["id"].as_str().unwrap_or_default().to_string());
                        }
                        _ => return,
                    }
                }
            });
        }
        std::thread::sleep(Duration::from_millis(700));
        servers[victim].kill();
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
    });
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(
        !acknowledged.is_empty(),
        "some writes were acknowledged before the kill"
    );
    // Restarted (the only process on SQLite; PostgreSQL's other one reads too).
    servers[victim] = Serve::start(place);
    for serve in servers.iter() {
        let mut mcp = Mcp::connect(serve, &token);
        let on_board = ids(&mut mcp, &board);
        let lost: Vec<_> = acknowledged.difference(&on_board).collect();
        assert!(lost.is_empty(), "acknowledged writes lost: {lost:?}");
        // And the board still takes writes at its next revision.
        mcp.call("add_shape", json!({"board": board, "text": "after"}))
            .expect("write after the kill");
    }
}

/// A board pushed from a file comes back whole when pulled.
fn push_and_pull(place: &Place, serve: &Serve) {
    let token = place.person("fay");
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("mine.inkboard");
    let run = |args: &[&str]| {
        std::process::Command::new(harness::BIN)
            .args(args)
            .env("INKBOARD_TOKEN", &token)
            .env_remove("INKBOARD_RUNTIME_DIR")
            .output()
            .expect("run inkboard")
    };
    let f = file.display().to_string();
    assert!(
        run(&["new", &f, "--title", "Mine", "--page", "One", "--page", "Two"])
            .status
            .success()
    );
    assert!(run(&[
        "call",
        "add_shape",
        &json!({"path": f, "text": "kept"}).to_string()
    ])
    .status
    .success());
    let pushed = run(&["push", &f, "--server", &serve.url]);
    assert!(
        pushed.status.success(),
        "{}",
        String::from_utf8_lossy(&pushed.stderr)
    );
    let board = String::from_utf8_lossy(&pushed.stdout).trim().to_string();
    let back = dir.path().join("back.inkboard");
    let b = back.display().to_string();
    let pulled = run(&["pull", &board, "--server", &serve.url, "-o", &b]);
    assert!(
        pulled.status.success(),
        "{}",
        String::from_utf8_lossy(&pulled.stderr)
    );
    let read = |p: &str| {
        let out = run(&["call", "read_board", &json!({"path": p}).to_string()]);
        let mut v: Value = serde_json::from_slice(&out.stdout).expect("read_board JSON");
        v.as_object_mut().map(|o| o.remove("revision"));
        v
    };
    assert_eq!(read(&f), read(&b));
    // Another person cannot pull it: not found.
    let other = place.person("gus");
    let denied = std::process::Command::new(harness::BIN)
        .args([
            "pull",
            &board,
            "--server",
            &serve.url,
            "-o",
            &format!("{b}.2"),
        ])
        .env("INKBOARD_TOKEN", &other)
        .output()
        .expect("pull");
    assert!(!denied.status.success());
    assert!(
        String::from_utf8_lossy(&denied.stderr).contains("404"),
        "{}",
        String::from_utf8_lossy(&denied.stderr)
    );
}

/// The whole suite on `place` with `processes` servers.
fn suite(place: Place, processes: usize) {
    let mut servers: Vec<Serve> = (0..processes).map(|_| Serve::start(&place)).collect();
    tokens_are_checked(&place, &servers[0]);
    roles_and_not_found(&place, &servers);
    concurrent_writers(&place, &servers);
    killed_mid_write(&place, &mut servers);
    push_and_pull(&place, &servers[0]);
    render_and_import(&place, &servers[0]);
    admin_lists_revokes_and_removes(&place, &servers[servers.len() - 1]);
    web::people(&place, &servers);
    editor::live(&place, &servers);
    presence::present(&place, &servers);
    // A restart keeps everything.
    let token = place.person("hal");
    let mut hal = Mcp::connect(&servers[0], &token);
    let board = hal
        .call("create_board", json!({"title": "Kept"}))
        .expect("create")["board"]
        .clone();
    drop(hal);
    servers.clear();
    let serve = Serve::start(&place);
    let mut hal = Mcp::connect(&serve, &token);
    let listed = hal.call("list_boards", json!({})).expect("list");
    assert_eq!(listed["boards"][0]["board"], board);
}

#[test]
fn made_up_session_cookies_are_rate_limited() {
    web::made_up_cookies_are_limited();
}

#[test]
fn on_sqlite_one_process() {
    suite(Place::sqlite(), 1);
}

#[test]
fn on_postgresql_two_processes() {
    let Some(place) = Place::postgres() else {
        return;
    };
    suite(place, 2);
}

#[test]
fn a_second_server_on_one_sqlite_folder_is_refused() {
    let place = Place::sqlite();
    let _first = Serve::start(&place);
    let second = std::process::Command::new(harness::BIN)
        .arg("serve")
        .args(place.args())
        .args(["--listen", "127.0.0.1:0"])
        .output()
        .expect("serve");
    assert!(!second.status.success());
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(said.contains("already serving"), "{said}");
}

/// `serve` says where its boards are as `admin --data` takes it: the folder
/// that the default (XDG_DATA_HOME) resolves to, which `admin` then reaches.
#[test]
fn serve_prints_the_data_folder_admin_takes() {
    use std::io::BufRead;
    let home = tempfile::tempdir().expect("temp dir");
    let mut serve = std::process::Command::new(harness::BIN)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .env("XDG_DATA_HOME", home.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("serve");
    let stderr = serve.stderr.take().expect("stderr");
    let said = std::io::BufReader::new(stderr)
        .lines()
        .map_while(Result::ok)
        .find(|l| l.contains("boards in"))
        .unwrap_or_default();
    let _ = serve.kill();
    let _ = serve.wait();
    let dir = home.path().join("inkboard");
    let flag = format!("inkboard admin --data {} COMMAND", dir.display());
    assert!(said.contains(&flag), "{said}");
    // The folder it names is the one the boards are in.
    let out = std::process::Command::new(harness::BIN)
        .args(["admin", "--data"])
        .arg(&dir)
        .arg("users")
        .output()
        .expect("admin");
    assert!(out.status.success());
    assert!(dir.join("inkboard.db").is_file(), "{}", dir.display());
}

#[test]
fn a_public_address_without_https_is_refused() {
    let place = Place::sqlite();
    let out = std::process::Command::new(harness::BIN)
        .arg("serve")
        .args(place.args())
        .args(["--listen", "0.0.0.0:0"])
        .output()
        .expect("serve");
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("--public-url https://"), "{said}");
}

/// The server's `tools/list`: its golden (`UPDATE_EXPECT=1` rewrites it), no
/// `path` anywhere, and within the budget: what reaches the model at most 28
/// KiB, the whole answer at most 36 KiB.
#[test]
fn server_tools_list_is_its_golden_and_within_budget() {
    let place = Place::sqlite();
    let serve = Serve::start(&place);
    let token = place.person("ivy");
    let mut mcp = Mcp::connect(&serve, &token);
    let listed = mcp.tools();
    let tools = listed["tools"].as_array().expect("tools");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    for name in [
        "list_boards",
        "create_board",
        "batch",
        "export",
        "import",
        "read_board",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    assert!(!names.contains(&"save_board"));
    for t in tools {
        let props = &t["inputSchema"]["properties"];
        for file_only in ["path", "overwrite", "output", "as"] {
            assert!(
                props.get(file_only).is_none(),
                "{} takes {file_only}",
                t["name"]
            );
        }
    }
    let model = budget::model_bytes(tools);
    let whole = listed.to_string().len();
    eprintln!("server tools/list: {model} bytes to the model, {whole} bytes whole");
    assert!(model <= budget::MODEL_BUDGET, "{model}");
    assert!(whole <= budget::ANSWER_BUDGET, "{whole}");
    let text = serde_json::to_string_pretty(&listed).expect("json") + "\n";
    let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/server_tools_list.json");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&golden, &text).expect("write golden");
    }
    let expected =
        std::fs::read_to_string(&golden).expect("the golden (UPDATE_EXPECT=1 writes it)");
    assert!(
        text == expected,
        "the server's tools/list changed: UPDATE_EXPECT=1 to accept"
    );
}
