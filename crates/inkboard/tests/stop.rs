//! Stopping a busy process: SIGTERM ends `inkboard open` and a closed stdin ends
//! `inkboard mcp` within a second, whatever they are drawing, and the board is
//! left whole (RELIABILITY.md, "No hang").
//!
//! Busy means drawing a page of 2,000 shapes and 3,000 orthogonal connectors
//! between shapes far apart, which takes seconds in a debug build: long enough
//! that the stop lands in the middle of it.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::app::App;
use common::BIN;
use serde_json::{json, Value};

/// How long a stop may take.
const WITHIN: Duration = Duration::from_secs(1);

/// Writes the busy board (format v1) to `path`.
fn write_busy_board(path: &Path) {
    let mut objects = Vec::new();
    let mut seed = 7u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for i in 0..2000u64 {
        objects.push(
            json!({"id": format!("s{}", i + 1), "type": "shape", "geom": "rect",
            "x": (i % 50) * 200, "y": (i / 50) * 150, "w": 120, "h": 60, "text": format!("N{i}")}),
        );
    }
    for j in 0..3000u64 {
        let a = next(2000);
        let b = (a + 1 + next(1999)) % 2000;
        objects.push(json!({"id": format!("s{}", 2001 + j), "type": "connector",
            "from": format!("s{}", a + 1), "to": format!("s{}", b + 1), "route": "orthogonal"}));
    }
    let doc = json!({"format": "inkboard", "version": 1, "title": "busy", "revision": 1,
        "next_id": 5001, "pages": [{"id": "p1", "name": "Page 1", "objects": objects}]});
    std::fs::write(path, doc.to_string()).expect("write the board");
}

#[test]
fn sigterm_ends_a_busy_application_within_a_second() {
    let dir = tempfile::tempdir().expect("dir");
    let runtime = dir.path().join("runtime");
    let board = dir.path().join("busy.inkboard");
    write_busy_board(&board);
    let before = std::fs::read(&board).expect("read");
    let app = App::start_in(dir, runtime, board.clone());
    let signed = app.sign_in();
    // A download of the page, drawn while the stop comes.
    let (port, cookie, key) = (app.port, signed.cookie.clone(), signed.key.clone());
    let download = std::thread::spawn(move || {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        let head = format!(
            "GET /export?format=png HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\nX-Inkboard-Key: {key}\r\nConnection: close\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).expect("send");
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
    });
    std::thread::sleep(Duration::from_millis(1500));
    assert!(!download.is_finished(), "the download is still being drawn");
    let started = Instant::now();
    let (dir, _runtime) = app.stop();
    let took = started.elapsed();
    assert!(
        took < WITHIN,
        "SIGTERM took {took:?} to end a busy application"
    );
    assert_eq!(
        std::fs::read(dir.path().join("busy.inkboard")).expect("read"),
        before,
        "the board is left as it was"
    );
    let _ = download.join();
}

#[test]
fn a_closed_stdin_ends_a_busy_mcp_server_within_a_second() {
    let dir = tempfile::tempdir().expect("dir");
    let board = dir.path().join("busy.inkboard");
    write_busy_board(&board);
    let mut child = Command::new(BIN)
        .arg("mcp")
        .env("INKBOARD_RUNTIME_DIR", dir.path().join("runtime"))
        .env_remove("INKBOARD_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("inkboard mcp starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut send = |message: Value| {
        writeln!(stdin, "{message}").expect("send");
        stdin.flush().expect("flush");
    };
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "stop", "version": "1"}}}),
    );
    let mut line = String::new();
    stdout.read_line(&mut line).expect("the initialize answer");
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "render", "arguments": {"path": board}}}));
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        child.try_wait().expect("wait").is_none(),
        "the server is still drawing"
    );
    let started = Instant::now();
    // `send` only borrows stdin, and that borrow has ended: closing stdin is enough.
    drop(stdin);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("the server did not end within 30 s of its stdin closing");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = started.elapsed();
    assert!(
        took < WITHIN,
        "a closed stdin took {took:?} to end a busy server ({status})"
    );
}
