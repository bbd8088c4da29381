//! `inkboard mcp` spoken to line by line, for the tests that send what no SDK
//! client would (broken JSON, oversized lines, cancellation at a chosen moment)
//! and read every line the server writes, notifications included.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use serde_json::{json, Value};
use tempfile::TempDir;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};

use super::BIN;

/// A running `inkboard mcp` after the 2025-11-25 handshake.
pub struct Raw {
    pub child: Child,
    stdin: Option<ChildStdin>,
    out: Lines<BufReader<ChildStdout>>,
    pub dir: TempDir,
    next_id: u64,
}

impl Raw {
    pub async fn start() -> Raw {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let runtime = dir.path().join("runtime");
        std::fs::create_dir(&runtime).expect("a runtime folder");
        let mut child = tokio::process::Command::new(BIN)
            .arg("mcp")
            .env("INKBOARD_RUNTIME_DIR", &runtime)
            .env_remove("INKBOARD_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn inkboard mcp");
        let stdin = child.stdin.take();
        let out = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut raw = Raw {
            child,
            stdin,
            out,
            dir,
            next_id: 100,
        };
        raw.send_line(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#).await;
        let answer = raw.read().await;
        assert_eq!(answer["id"], 0, "{answer}");
        raw.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        raw
    }

    /// A path in the scratch folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub async fn send_line(&mut self, line: &str) {
        self.send_bytes(line.as_bytes()).await;
    }

    pub async fn send_bytes(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(line).await.expect("write");
        stdin.write_all(b"\n").await.expect("write");
        stdin.flush().await.expect("flush");
    }

    /// The next line the server writes, as JSON (within 60 s).
    pub async fn read(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(60), self.out.next_line())
            .await
            .expect("a line within 60 s")
            .expect("read")
            .expect("the server is running");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Sends a `tools/call`; returns its id.
    pub async fn call(&mut self, tool: &str, args: Value, progress: Option<&str>) -> u64 {
        self.next_id += 1;
        let mut params = json!({"name": tool, "arguments": args});
        if let Some(token) = progress {
            params["_meta"] = json!({"progressToken": token});
        }
        let line =
            json!({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call", "params": params});
        self.send_line(&line.to_string()).await;
        self.next_id
    }

    /// Reads until the answer to `id`, keeping the notifications seen on the way.
    pub async fn answer(&mut self, id: u64) -> (Value, Vec<Value>) {
        let mut notes = Vec::new();
        loop {
            let v = self.read().await;
            if v["id"] == id {
                return (v, notes);
            }
            notes.push(v);
        }
    }

    /// Calls a tool and waits for its result.
    pub async fn ok(&mut self, tool: &str, args: Value) -> Value {
        let id = self.call(tool, args, None).await;
        let (answer, _) = self.answer(id).await;
        assert_eq!(answer["result"]["isError"], false, "{tool}: {answer}");
        answer["result"]["structuredContent"].clone()
    }

    /// Checks that the server still answers.
    pub async fn ping(&mut self) {
        self.next_id += 1;
        let id = self.next_id;
        self.send_line(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}).to_string())
            .await;
        let (answer, _) = self.answer(id).await;
        assert!(answer.get("result").is_some(), "ping: {answer}");
    }

    /// Closes stdin and waits for the server to end.
    pub async fn close(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        tokio::time::timeout(Duration::from_secs(10), self.child.wait())
            .await
            .expect("the server ends once stdin closes")
            .expect("wait")
    }
}
