//! A running `inkboard open` for tests: spawned on a free port with a private
//! runtime folder, plus plain HTTP requests written by hand (so a test controls
//! every header, Host and Origin included) and a WebSocket client that signs in
//! like a browser.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tempfile::TempDir;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use super::BIN;

/// A running application.
pub struct App {
    child: Child,
    pub port: u16,
    /// The address it printed, with its one-time code.
    pub url: String,
    pub dir: TempDir,
    pub runtime: PathBuf,
    /// The board file it opened.
    pub board: PathBuf,
    /// Where its stderr goes.
    pub stderr: PathBuf,
    /// Its state folder (`INKBOARD_STATE_DIR`: recovery copies in `recovery/`).
    pub state: PathBuf,
}

/// An HTTP answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Answer {
    /// An HTTP answer as far as it has arrived (status 0 before its head is whole).
    pub fn parse(received: &[u8]) -> Answer {
        let text = String::from_utf8_lossy(received).to_string();
        let Some((head, body)) = text.split_once("\r\n\r\n") else {
            return Answer {
                status: 0,
                head: text,
                body: String::new(),
            };
        };
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        Answer {
            status,
            head: head.to_string(),
            body: body.to_string(),
        }
    }
}

/// What a browser holds once signed in.
pub struct SignedIn {
    /// The session cookie, `name=value`.
    pub cookie: String,
    /// The page key the redirect's fragment gave the page.
    pub key: String,
}

impl App {
    /// Creates `name` in a scratch folder and opens it.
    pub fn start(name: &str) -> App {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let runtime = dir.path().join("runtime");
        let board = dir.path().join(name);
        let made = Command::new(BIN)
            .args(["new"])
            .arg(&board)
            .env("INKBOARD_RUNTIME_DIR", &runtime)
            .output()
            .expect("inkboard new runs");
        assert!(made.status.success(), "inkboard new: {made:?}");
        App::start_in(dir, runtime, board)
    }

    /// Opens `board` with `runtime` as the runtime folder, `runtime/state` as its
    /// state folder (recovery copies), and its stderr in `runtime/stderr-N.txt`
    /// (nothing beside the board but what the application puts there).
    pub fn start_in(dir: TempDir, runtime: PathBuf, board: PathBuf) -> App {
        App::start_with(dir, runtime, board, &[])
    }

    /// Like [`App::start_in`], with more environment variables.
    pub fn start_with(
        dir: TempDir,
        runtime: PathBuf,
        board: PathBuf,
        env: &[(&str, &Path)],
    ) -> App {
        super::private_dir(&runtime);
        let stderr = (1..)
            .map(|n| runtime.join(format!("stderr-{n}.txt")))
            .find(|p| !p.exists())
            .expect("a free name");
        let mut child = Command::new(BIN)
            .args(["open", "--no-browser", "--port", "0"])
            .arg(&board)
            .current_dir(dir.path())
            .env("INKBOARD_RUNTIME_DIR", &runtime)
            .env("INKBOARD_STATE_DIR", runtime.join("state"))
            .envs(env.iter().map(|(k, v)| (k, v.as_os_str())))
            .env_remove("INKBOARD_LOG")
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).expect("a stderr file"))
            .spawn()
            .expect("spawn inkboard open");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("inkboard open prints its address");
        let url = line.trim().to_string();
        let port = url
            .strip_prefix("http://127.0.0.1:")
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("not an address: {url:?}"));
        App {
            state: runtime.join("state"),
            child,
            port,
            url,
            dir,
            runtime,
            board,
            stderr,
        }
    }

    /// What the application has written to stderr so far.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The discovery file's content.
    pub fn discovery(&self) -> Value {
        let text =
            std::fs::read_to_string(self.runtime.join("app.json")).expect("the discovery file");
        serde_json::from_str(&text).expect("the discovery file is JSON")
    }

    pub fn token(&self) -> String {
        self.discovery()["token"]
            .as_str()
            .expect("a token")
            .to_string()
    }

    /// The one-time code of the printed address.
    pub fn code(&self) -> String {
        self.url.split("code=").nth(1).expect("a code").to_string()
    }

    /// Sends `head` (request line and headers, without the blank line) and `body`.
    pub fn raw(&self, head: &str, body: &[u8]) -> Answer {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(30))).ok();
        let mut request = head.replace('\n', "\r\n");
        request.push_str(&format!(
            "\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        ));
        stream.write_all(request.as_bytes()).expect("send");
        // The server may answer and close before reading a body it refuses.
        let _ = stream.write_all(body);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        Answer::parse(&answer)
    }

    /// `GET path` with the app's own Host and the given extra headers.
    pub fn get(&self, path: &str, headers: &str) -> Answer {
        let mut head = format!("GET {path} HTTP/1.1\nHost: 127.0.0.1:{}", self.port);
        if !headers.is_empty() {
            head.push('\n');
            head.push_str(headers);
        }
        self.raw(&head, b"")
    }

    /// Trades the one-time code for the session cookie and the page key, as a
    /// browser following the printed link does.
    pub fn sign_in(&self) -> SignedIn {
        let answer = self.get(&format!("/?code={}", self.code()), "");
        assert_eq!(answer.status, 303, "{answer:?}");
        let cookie = answer
            .head
            .lines()
            .find_map(|l| l.strip_prefix("set-cookie: "))
            .expect("a cookie");
        let key = answer
            .head
            .lines()
            .find_map(|l| l.strip_prefix("location: /#key="))
            .expect("the page key in the redirect's fragment");
        SignedIn {
            cookie: cookie.split(';').next().expect("name=value").to_string(),
            key: key.trim().to_string(),
        }
    }

    /// A browser-like WebSocket (own Origin, the cookie, the page key offered as
    /// a subprotocol), after `hello`.
    pub async fn window(&self, signed: &SignedIn) -> Window {
        let mut request = format!("ws://127.0.0.1:{}/ws", self.port)
            .into_client_request()
            .expect("a request");
        let headers = request.headers_mut();
        headers.insert("Cookie", signed.cookie.parse().expect("header"));
        headers.insert(
            "Sec-WebSocket-Protocol",
            format!("inkboard, inkboard.key.{}", signed.key)
                .parse()
                .expect("header"),
        );
        headers.insert(
            "Origin",
            format!("http://127.0.0.1:{}", self.port)
                .parse()
                .expect("header"),
        );
        let (socket, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("the WebSocket opens");
        let mut window = Window {
            socket,
            objects: Default::default(),
            revision: 0,
            seq: 0,
        };
        window.send(json!({"t": "hello"})).await;
        window.until(|m| m["t"] == "scene").await;
        window
    }

    /// Stops the application with SIGTERM and waits for it; gives back its
    /// folders and what it wrote to stderr.
    pub fn stop_told(mut self) -> (TempDir, PathBuf, String) {
        // SAFETY: kill has no memory-safety preconditions.
        unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
        let _ = self.child.wait();
        let told = self.stderr();
        (
            std::mem::replace(&mut self.dir, tempfile::tempdir().expect("dir")),
            self.runtime.clone(),
            told,
        )
    }

    /// Stops the application with SIGTERM and waits for it.
    pub fn stop(mut self) -> (TempDir, PathBuf) {
        // SAFETY: kill has no memory-safety preconditions.
        unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
        let _ = self.child.wait();
        (
            std::mem::replace(&mut self.dir, tempfile::tempdir().expect("dir")),
            self.runtime.clone(),
        )
    }

    /// Kills the application with SIGKILL, as a crash would (nothing saved, the
    /// discovery file left behind), and reaps it, so that its pid names no process
    /// (a zombie would still pass for alive); gives back its folders like `stop`.
    pub fn crash(mut self) -> (TempDir, PathBuf) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        (
            std::mem::replace(&mut self.dir, tempfile::tempdir().expect("dir")),
            self.runtime.clone(),
        )
    }

    /// Waits until `check` holds for the board file's JSON (autosave is not instant).
    pub fn file_until(&self, what: &str, check: impl Fn(&Value) -> bool) -> Value {
        wait_for_file(&self.board, what, check)
    }
}

impl Drop for App {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits up to ten seconds for `path` to hold JSON that passes `check`.
pub fn wait_for_file(path: &Path, what: &str, check: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let value = std::fs::read_to_string(path)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok());
        if let Some(v) = value.filter(|v| check(v)) {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{what}: never happened"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The objects of a board file's first page.
pub fn file_objects(v: &Value) -> Vec<Value> {
    v["pages"][0]["objects"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// A signed-in browser window, seen through its WebSocket.
pub struct Window {
    pub socket: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream2>>,
    /// What the window shows: object id → its `obj`.
    pub objects: std::collections::BTreeMap<String, Value>,
    pub revision: u64,
    seq: u64,
}

type TcpStream2 = tokio::net::TcpStream;

impl Window {
    pub async fn send(&mut self, message: Value) {
        self.socket
            .send(Message::Text(message.to_string().into()))
            .await
            .expect("send");
    }

    /// Reads messages (applying scenes) until one passes `check`; gives it.
    pub async fn until(&mut self, check: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let next = tokio::time::timeout_at(deadline, self.socket.next())
                .await
                .expect("a message in time")
                .expect("the socket is open")
                .expect("a good frame");
            let Message::Text(text) = next else { continue };
            let message: Value = serde_json::from_str(&text).expect("JSON");
            if message["t"] == "scene" {
                self.apply(&message);
            }
            if check(&message) {
                return message;
            }
        }
    }

    fn apply(&mut self, scene: &Value) {
        if scene["full"] == true {
            self.objects.clear();
        }
        for id in scene["removed"].as_array().into_iter().flatten() {
            self.objects.remove(id.as_str().unwrap_or_default());
        }
        for (id, item) in scene["items"].as_object().into_iter().flatten() {
            self.objects.insert(id.clone(), item["obj"].clone());
        }
        self.revision = scene["revision"].as_u64().unwrap_or(self.revision);
    }

    /// Runs a tool as the person; the reply.
    pub async fn call(&mut self, tool: &str, args: Value) -> Value {
        self.seq += 1;
        let seq = self.seq;
        self.send(json!({"t": "call", "seq": seq, "tool": tool, "args": args}))
            .await;
        self.until(|m| m["t"] == "reply" && m["seq"] == seq).await
    }

    /// Undo (or redo) and wait for the board message that follows.
    pub async fn undo(&mut self, redo: bool) {
        self.send(json!({"t": if redo { "redo" } else { "undo" }}))
            .await;
        self.until(|m| m["t"] == "board").await;
    }

    /// Waits until the window shows exactly `n` objects.
    pub async fn until_count(&mut self, n: usize) {
        if self.objects.len() == n {
            return;
        }
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while self.objects.len() != n {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the window shows {} objects, not {n}",
                self.objects.len()
            );
            let _ = tokio::time::timeout(
                Duration::from_millis(200),
                self.until(|m| m["t"] == "scene"),
            )
            .await;
        }
    }
}
