//! A panic in one call (a bug) never takes down the process that serves the next:
//! the engine answers it as a tool error ("inkboard hit a bug in TOOL ..."), and
//! what it interrupted is left consistent and usable. The panics are raised
//! through the engine's own seams, a [`Host`] and a [`Forward`] that panic, and by
//! a thread that panics while it holds a live board's lock mid-transaction, as a
//! tool with a bug would.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use inkboard_core::{Board, Commit};
use inkboard_tools::{
    AppInfo, Caller, Engine, Forward, Host, LiveBoard, LiveCell, Reply, ToolError,
};
use serde_json::{json, Value};

/// One live board, as the application would hold it; `board()` panics while
/// `panic_on_board` is set.
struct TestHost {
    cell: Arc<LiveCell>,
    panic_on_board: AtomicBool,
    commits: AtomicUsize,
}

impl TestHost {
    fn new() -> Arc<TestHost> {
        Arc::new(TestHost {
            cell: LiveCell::new(
                1,
                LiveBoard::new(
                    Board::new("Live", &["One".to_string(), "Two".to_string()]),
                    None,
                ),
            ),
            panic_on_board: AtomicBool::new(false),
            commits: AtomicUsize::new(0),
        })
    }

    fn board(&self) -> Board {
        self.cell.lock().board.clone()
    }
}

impl Host for TestHost {
    fn board(&self, _path: Option<&Path>, _caller: &Caller) -> Option<Arc<LiveCell>> {
        if self.panic_on_board.load(Ordering::SeqCst) {
            panic!("the host fell over");
        }
        Some(self.cell.clone())
    }

    fn committed(&self, _cell: &Arc<LiveCell>, _commit: &Commit) {
        self.commits.fetch_add(1, Ordering::SeqCst);
    }

    fn save(&self, _cell: &Arc<LiveCell>) -> Result<usize, ToolError> {
        Err(ToolError::NoApplication)
    }

    fn save_as(&self, _: &Arc<LiveCell>, _: &Path, _: bool) -> Result<usize, ToolError> {
        Err(ToolError::NoApplication)
    }

    fn create(&self, board: Board) -> Arc<LiveCell> {
        LiveCell::new(2, LiveBoard::new(board, None))
    }
}

fn json_of(reply: Result<Reply, ToolError>) -> Value {
    match reply.expect("the call succeeds") {
        Reply::Json(v) => v,
        Reply::Image { .. } => panic!("an image"),
    }
}

/// Checks that `error` is the contained-panic error, one line naming the tool.
fn assert_bug(error: &ToolError, tool: &str, detail: &str) {
    assert!(matches!(error, ToolError::Bug { .. }), "{error:?}");
    let message = error.to_string();
    assert!(
        message.starts_with(&format!("inkboard hit a bug in {tool} ({detail})")),
        "{message}"
    );
    assert!(!message.contains('\n'), "{message}");
}

#[test]
fn a_panic_in_a_call_is_a_tool_error_and_the_next_call_works() {
    let host = TestHost::new();
    let engine = Engine::hosted(host.clone());
    let before = host.board();
    host.panic_on_board.store(true, Ordering::SeqCst);
    for tool in ["add_shape", "read_board", "batch"] {
        let args = match tool {
            "batch" => json!({"operations": [{"tool": "add_shape"}]}),
            _ => json!({"text": "lost"}),
        };
        let args = if tool == "read_board" {
            json!({})
        } else {
            args
        };
        let error = engine.call(tool, args).unwrap_err();
        assert_bug(&error, tool, "the host fell over");
    }
    assert_eq!(host.board(), before, "a call that panicked changed nothing");
    assert_eq!(host.board().revision(), before.revision());
    host.panic_on_board.store(false, Ordering::SeqCst);
    let placed = json_of(engine.call("add_shape", json!({"text": "after"})));
    assert!(placed["id"].is_string(), "{placed}");
    assert_eq!(host.commits.load(Ordering::SeqCst), 1);
    let read = json_of(engine.call("read_board", json!({})));
    assert_eq!(read["page"]["objects"].as_array().map(Vec::len), Some(1));
}

#[test]
fn a_panic_while_a_live_board_is_locked_leaves_it_as_it_was_and_usable() {
    let host = TestHost::new();
    let engine = Engine::hosted(host.clone());
    json_of(engine.call("add_shape", json!({"text": "kept"})));
    let before = host.board();
    let cell = host.cell.clone();
    // A tool with a bug: it changes the board inside a transaction, under the
    // board's lock, then panics. The lock is poisoned; the transaction unwinds.
    let crashed = std::thread::spawn(move || {
        let mut live = cell.lock();
        let mut tx = inkboard_core::Transaction::begin(&mut live.board);
        let page = tx.board().pages()[0].id;
        tx.rename_page(page, "half done").expect("rename");
        let second = tx.board().pages()[1].id;
        tx.remove_page(second).expect("remove a page");
        panic!("a bug mid-transaction");
    })
    .join();
    assert!(crashed.is_err(), "the thread panicked");
    assert_eq!(
        host.board(),
        before,
        "the transaction rolled back as it unwound"
    );
    // Every later call still gets the board: no "poisoned" error, no lost state.
    let read = json_of(engine.call("read_board", json!({})));
    assert_eq!(read["pages"][0]["name"], "One");
    assert_eq!(read["pages"].as_array().map(Vec::len), Some(2));
    json_of(engine.call("add_shape", json!({"text": "after"})));
    let live = host.cell.lock();
    assert_eq!(live.board.revision(), before.revision() + 1);
    assert!(live.history.can_undo());
}

/// A [`Forward`] that panics, as a transport with a bug would.
struct PanickingForward;

impl Forward for PanickingForward {
    fn call(&self, _: &AppInfo, _: &str, _: Value, _: &Caller) -> Result<Reply, ToolError> {
        panic!("the forward fell over");
    }
}

#[test]
fn a_panic_while_forwarding_is_a_tool_error() {
    // An application "runs": the discovery file names a live process that is not
    // this one and listens on the port it names (a discovery file is believed
    // only then), so path-less calls are forwarded.
    let runtime = tempfile::tempdir().expect("runtime dir");
    // A runtime folder must be private; inkboard never makes it so itself.
    std::fs::set_permissions(
        runtime.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .expect("chmod");
    // SAFETY: only this test of this binary reads the variable (the others run
    // hosted engines, which never look for an application).
    unsafe { std::env::set_var("INKBOARD_RUNTIME_DIR", runtime.path()) };
    // Node, which the browser tests need anyway, as a process that listens.
    let mut listener = std::process::Command::new("node")
        .args([
            "-e",
            "const s = require('net').createServer(); \
             s.listen(0, '127.0.0.1', () => console.log(s.address().port)); \
             setTimeout(() => process.exit(0), 120000);",
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("node listens");
    let mut port = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(listener.stdout.take().expect("stdout")),
        &mut port,
    )
    .expect("the port");
    inkboard_tools::publish(&AppInfo {
        pid: listener.id(),
        port: port.trim().parse().expect("a port"),
        token: "t".into(),
        paths: Vec::new(),
    })
    .expect("discovery file");
    let engine = Engine::forwarding(Box::new(PanickingForward));
    let error = engine.call("read_board", json!({})).unwrap_err();
    assert_bug(&error, "read_board", "the forward fell over");
    // The engine goes on: a call it runs itself works.
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("b.inkboard").display().to_string();
    json_of(engine.call("create_board", json!({"path": path})));
    json_of(engine.call("add_shape", json!({"path": path, "text": "x"})));
    let _ = listener.kill();
    let _ = listener.wait();
}
