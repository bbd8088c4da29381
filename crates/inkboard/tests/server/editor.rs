//! The live editor on the server, at its WebSocket (`/b/BOARD/ws`, the protocol
//! of `docs/live-protocol.md`): a person's window hears of an agent's batch made
//! on another process (on PostgreSQL: through `NOTIFY`), their own call is a
//! commit in their name, a viewer's every edit is refused with the role it
//! needs, and a stranger's socket is the same 404 as a missing board's.

use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::{self, Message, WebSocket};

use crate::harness::{Mcp, Place, Serve};
use crate::web::sign_in;

/// A browser window's socket, spoken by hand.
pub struct Window {
    ws: WebSocket<TcpStream>,
    /// The socket's read timeout as last set (setting it is a system call).
    wait: Option<Duration>,
}

impl Window {
    /// Opens `/b/BOARD/ws` with the session `cookie`; `Err(status)` when refused.
    pub fn open(serve: &Serve, board: &str, cookie: &str) -> Result<Window, u16> {
        let authority = serve.url.trim_start_matches("http://");
        let mut request = format!("ws://{authority}/b/{board}/ws")
            .into_client_request()
            .expect("request");
        let h = request.headers_mut();
        h.insert("Cookie", HeaderValue::from_str(cookie).expect("cookie"));
        h.insert("Origin", HeaderValue::from_str(&serve.url).expect("origin"));
        h.insert(
            "Sec-WebSocket-Protocol",
            HeaderValue::from_static("inkboard"),
        );
        let stream = TcpStream::connect(authority).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        match tungstenite::client(request, stream) {
            Ok((ws, _)) => Ok(Window { ws, wait: None }),
            Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(r))) => {
                Err(r.status().as_u16())
            }
            Err(e) => panic!("handshake: {e}"),
        }
    }

    pub fn send(&mut self, message: Value) {
        self.ws
            .send(Message::text(message.to_string()))
            .expect("send");
    }

    /// Reads messages until one satisfies `wanted`; panics after 20 s.
    pub fn until(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        let end = Instant::now() + Duration::from_secs(20);
        let mut seen = Vec::new();
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.next(left) {
                Some(Some(v)) if wanted(&v) => return v,
                Some(Some(v)) => seen.push(v["t"].to_string()),
                Some(None) => {}
                None => panic!("waiting for {what}: the socket closed (seen {seen:?})"),
            }
        }
        panic!("no {what} in 20 s (seen {seen:?})");
    }

    /// Every message that comes within `time` (the socket closing ends it too).
    pub fn heard_for(&mut self, time: Duration) -> Vec<Value> {
        let end = Instant::now() + time;
        let mut heard = Vec::new();
        while Instant::now() < end {
            match self.next(Duration::from_millis(200)) {
                Some(Some(m)) => heard.push(m),
                Some(None) => {}
                None => break,
            }
        }
        heard
    }

    /// The next message, waiting up to `wait`: `Some(None)` when none came,
    /// `None` when the socket is closed.
    pub fn next(&mut self, wait: Duration) -> Option<Option<Value>> {
        let wait = wait.max(Duration::from_millis(1));
        if self.wait != Some(wait) {
            self.ws
                .get_ref()
                .set_read_timeout(Some(wait))
                .expect("timeout");
            self.wait = Some(wait);
        }
        match self.ws.read() {
            Ok(Message::Text(text)) => Some(Some(serde_json::from_str(&text).expect("JSON"))),
            Ok(_) => Some(None),
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                Some(None)
            }
            Err(_) => None,
        }
    }

    /// `hello`, then the `board` message and the full scene.
    pub fn hello(&mut self) -> (Value, Value) {
        self.send(json!({"t": "hello", "page": 1}));
        let board = self.until("the board message", |m| m["t"] == "board");
        let scene = self.until("the full scene", |m| m["t"] == "scene" && m["full"] == true);
        (board, scene)
    }

    /// A call as the window's person; answers its `reply`.
    pub fn call(&mut self, seq: u64, tool: &str, args: Value) -> Value {
        self.send(json!({"t": "call", "seq": seq, "tool": tool, "args": args}));
        self.until("the reply", |m| m["t"] == "reply" && m["seq"] == seq)
    }
}

pub fn live(place: &Place, servers: &[Serve]) {
    let (a, b) = (&servers[0], &servers[servers.len() - 1]);
    let token = place.person("eve");
    place.admin(&["add-user", "vin"]);
    place.admin(&["add-user", "zed"]);
    let mut agent = Mcp::connect(b, &token);
    let board = agent
        .call("create_board", json!({"title": "Live"}))
        .expect("create")["board"]
        .as_str()
        .expect("id")
        .to_string();

    // The person's window, on the other process than the agent's.
    let eve = sign_in(place, a, "eve");
    let mut window = Window::open(a, &board, &eve).expect("eve's window");
    let (header, scene) = window.hello();
    assert_eq!(header["title"], "Live", "{header}");
    assert_eq!(header["role"], "owner", "{header}");
    assert_eq!(header["save"], "saved");
    assert_eq!(scene["order"], json!([]));

    // An agent's batch elsewhere reaches the open window, marked as the agent's.
    let done = agent
        .call(
            "batch",
            json!({"board": board, "operations": [
                {"tool": "add_shape", "args": {"text": "A"}},
                {"tool": "add_shape", "args": {"text": "B", "x": 300}},
            ]}),
        )
        .expect("batch");
    let ids: Vec<String> = done["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["id"].as_str().expect("id").to_string())
        .collect();
    let moved = window.until("the agent's scene", |m| {
        m["t"] == "scene" && ids.iter().all(|id| m["items"].get(id).is_some())
    });
    assert_eq!(moved["full"], false);
    assert_eq!(moved["agent"], json!(ids), "{moved}");

    // The person's own call: a commit in their name, seen by the agent.
    let reply = window.call(
        1,
        "add_shape",
        json!({"x": 0, "y": 200, "text": "Mine", "page": 1}),
    );
    assert_eq!(reply["ok"], true, "{reply}");
    let mine = reply["result"]["id"].as_str().expect("id").to_string();
    let changes = agent
        .call("board_changes", json!({"board": board, "since": 0}))
        .expect("changes");
    let last = changes["changes"]
        .as_array()
        .expect("changes")
        .last()
        .cloned();
    assert_eq!(
        last.as_ref().map(|c| c["by"].clone()),
        Some(json!("eve")),
        "{changes}"
    );
    // A window's call names no other board: its `path` is refused.
    let refused = window.call(2, "add_shape", json!({"path": "/etc/x", "page": 1}));
    assert_eq!(refused["ok"], false);

    // A viewer reads and follows, and every edit is refused with the role.
    place.admin(&["share", &board, "vin", "viewer"]);
    let vin = sign_in(place, b, "vin");
    let mut viewer = Window::open(b, &board, &vin).expect("the viewer's window");
    let (header, scene) = viewer.hello();
    assert_eq!(header["role"], "viewer");
    assert_eq!(header["undo"], false);
    assert!(scene["items"].get(&mine).is_some(), "{scene}");
    let denied = viewer.call(1, "add_shape", json!({"text": "No", "page": 1}));
    assert_eq!(denied["ok"], false);
    let error = denied["error"].as_str().unwrap_or_default();
    assert!(error.contains("needs the editor role"), "{error}");
    let denied = viewer.call(2, "delete", json!({"ids": [mine], "page": 1}));
    assert_eq!(denied["ok"], false, "{denied}");
    // Ctrl+Z takes back one's own steps only, and a viewer made none: it
    // changes nothing (the others' steps above are not theirs to take back).
    viewer.send(json!({"t": "undo"}));
    let after = viewer.until("the board after the undo", |m| m["t"] == "board");
    assert_eq!(after["revision"], header["revision"], "{after}");
    assert_eq!(after["undo"], false, "{after}");
    // Nor does a viewer try edits out: a preview is refused too.
    viewer.send(json!({"t": "preview", "seq": 9, "tool": "update",
        "args": {"ids": [mine], "x": 500, "page": 1}}));
    let preview = viewer.until("the preview", |m| m["t"] == "preview" && m["seq"] == 9);
    assert_eq!(preview["items"], json!({}), "{preview}");
    assert!(preview["error"].is_string(), "{preview}");
    let read = agent
        .call("read_board", json!({"board": board}))
        .expect("read");
    assert_eq!(
        read["page"]["objects"].as_array().map(Vec::len),
        Some(3),
        "{read}"
    );

    // The viewer's role is taken away: their open window is drawn nothing more
    // (the agent's next shape does not reach it), where before it followed.
    place.admin(&["unshare", &board, "vin"]);
    agent
        .call(
            "add_shape",
            json!({"board": board, "page": 1, "text": "After", "x": 600, "y": 0}),
        )
        .expect("the agent's shape");
    let heard = viewer.heard_for(Duration::from_secs(3));
    assert!(
        !heard.iter().any(|m| m.to_string().contains("After")),
        "an unshared window still sees the board: {heard:?}"
    );

    // A stranger's socket: the same 404 as a board that does not exist.
    let zed = sign_in(place, a, "zed");
    assert_eq!(Window::open(a, &board, &zed).err(), Some(404));
    assert_eq!(Window::open(a, "nosuchboard0000", &zed).err(), Some(404));
    // Without a session: not signed in.
    assert_eq!(
        Window::open(a, &board, "inkboard_session=nope").err(),
        Some(401)
    );
}
