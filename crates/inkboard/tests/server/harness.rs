//! What the server tests stand on: `inkboard serve` processes on one database (an
//! SQLite data folder, or a database in the store's throwaway PostgreSQL cluster),
//! `inkboard admin` run as the administrator, and a small MCP client over
//! streamable HTTP with a bearer token (JSON-RPC POSTs, answers read from the
//! JSON or the event stream rmcp sends), as any MCP client speaks it.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

pub const BIN: &str = env!("CARGO_BIN_EXE_inkboard");

/// Where the boards are kept.
pub enum Place {
    Sqlite(tempfile::TempDir),
    Postgres(String),
}

impl Place {
    pub fn sqlite() -> Place {
        Place::Sqlite(tempfile::tempdir().expect("temp dir"))
    }

    /// A fresh database in the throwaway cluster, or `None` without PostgreSQL
    /// (skipped, except on CI: see `pg.rs`).
    pub fn postgres() -> Option<Place> {
        let cluster = crate::pg::cluster()?;
        let conninfo = cluster.new_database();
        // The harness speaks `key=value`; `--database` takes a URL, with the
        // socket's folder percent-encoded as its host.
        let field = |k: &str| {
            conninfo
                .split_whitespace()
                .find_map(|kv| kv.strip_prefix(&format!("{k}=")))
                .expect("conninfo field")
                .to_string()
        };
        let host: String = field("host")
            .bytes()
            .map(|b| match b {
                b'/' => "%2F".to_string(),
                b => (b as char).to_string(),
            })
            .collect();
        Some(Place::Postgres(format!(
            "postgresql://{}@{host}:{}/{}",
            field("user"),
            field("port"),
            field("dbname")
        )))
    }

    pub fn args(&self) -> Vec<String> {
        match self {
            Place::Sqlite(dir) => vec!["--data".into(), dir.path().display().to_string()],
            Place::Postgres(url) => vec!["--database".into(), url.clone()],
        }
    }

    /// `inkboard admin … ARGS`; answers stdout's last line.
    pub fn admin(&self, args: &[&str]) -> String {
        self.admin_all(args)
            .lines()
            .last()
            .unwrap_or_default()
            .to_string()
    }

    /// `inkboard admin … ARGS`, which must succeed; answers its whole stdout.
    pub fn admin_all(&self, args: &[&str]) -> String {
        let out = Command::new(BIN)
            .arg("admin")
            .args(self.args())
            .args(args)
            .output()
            .expect("run admin");
        assert!(
            out.status.success(),
            "admin {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A person and a token for their agent.
    pub fn person(&self, name: &str) -> String {
        self.admin(&["add-user", name]);
        self.admin(&["token", name])
    }
}

/// A running `inkboard serve`, killed when dropped.
pub struct Serve {
    pub child: Child,
    pub url: String,
}

impl Serve {
    pub fn start(place: &Place) -> Serve {
        let mut child = Command::new(BIN)
            .arg("serve")
            .args(place.args())
            .args(["--listen", "127.0.0.1:0"])
            .env("INKBOARD_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("read the address");
        let url = line.trim().to_string();
        assert!(
            url.starts_with("http://127.0.0.1:"),
            "serve printed {url:?}"
        );
        Serve { child, url }
    }

    /// SIGKILL: the process ends wherever it is.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        self.kill();
    }
}

pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// An MCP session over streamable HTTP as one token's holder.
pub struct Mcp {
    url: String,
    token: String,
    session: Option<String>,
    next: u64,
}

/// An HTTP answer: status, headers we look at, body.
pub struct Answer {
    pub status: u16,
    pub www_authenticate: Option<String>,
    pub body: String,
}

impl Mcp {
    /// A client that has not said anything yet (for the guard's answers).
    pub fn raw(serve: &Serve, token: &str) -> Mcp {
        Mcp::raw_at(&serve.url, token)
    }

    /// [`Mcp::raw`] by the server's address.
    pub fn raw_at(base: &str, token: &str) -> Mcp {
        Mcp {
            url: format!("{base}/mcp"),
            token: token.to_string(),
            session: None,
            next: 1,
        }
    }

    /// Connects and completes the handshake.
    pub fn connect(serve: &Serve, token: &str) -> Mcp {
        Mcp::connect_at(&serve.url, token)
    }

    /// [`Mcp::connect`] by the server's address (a writer that outlives the
    /// borrow of its server, which is killed under it).
    pub fn connect_at(base: &str, token: &str) -> Mcp {
        let mut mcp = Mcp::raw_at(base, token);
        let init = mcp.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "server-test", "version": "1"}}),
        );
        assert!(init.get("result").is_some(), "initialize: {init}");
        mcp.post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        mcp
    }

    /// POSTs one JSON-RPC message.
    pub fn post(&mut self, message: Value) -> Answer {
        let mut request = agent()
            .post(&self.url)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("MCP-Protocol-Version", "2025-11-25");
        if !self.token.is_empty() {
            request = request.header("Authorization", format!("Bearer {}", self.token));
        }
        if let Some(s) = &self.session {
            request = request.header("Mcp-Session-Id", s);
        }
        let mut response = request.send(message.to_string()).expect("POST /mcp");
        if let Some(s) = response.headers().get("mcp-session-id") {
            self.session = Some(s.to_str().unwrap_or_default().to_string());
        }
        Answer {
            status: response.status().as_u16(),
            www_authenticate: response
                .headers()
                .get("www-authenticate")
                .map(|v| v.to_str().unwrap_or_default().to_string()),
            body: response.body_mut().read_to_string().unwrap_or_default(),
        }
    }

    /// A request's answer (the JSON-RPC response object).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        let answer =
            self.post(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        assert_eq!(answer.status, 200, "{method}: {}", answer.body);
        read_answer(&answer.body, id)
            .unwrap_or_else(|| panic!("{method}: no answer in {}", answer.body))
    }

    /// A tool call's result: `Ok(structured content)` or `Err(the error text)`.
    pub fn call(&mut self, tool: &str, args: Value) -> Result<Value, String> {
        let answer = self.request("tools/call", json!({"name": tool, "arguments": args}));
        let result = answer
            .get("result")
            .unwrap_or_else(|| panic!("{tool}: {answer}"))
            .clone();
        if result["isError"] == json!(true) {
            let text = result["content"][0]["text"]
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| result["structuredContent"].to_string());
            return Err(text);
        }
        Ok(result["structuredContent"].clone())
    }

    /// `tools/list`'s result.
    pub fn tools(&mut self) -> Value {
        self.request("tools/list", json!({}))["result"].clone()
    }
}

/// The response with `id` in a body that is JSON or an event stream.
fn read_answer(body: &str, id: u64) -> Option<Value> {
    let matches = |v: &Value| v.get("id") == Some(&json!(id));
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        return matches(&v).then_some(v);
    }
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .find(matches)
}
