//! Sends tool calls to the running application (`POST /api/call` with the token
//! from the discovery file), for the MCP server and the CLI: calls without `path`,
//! and calls on a board the application has open, are run there, so the person sees
//! them and can undo them. Also asks a running application to open a board.

use std::path::Path;
use std::time::Duration;

use inkboard_tools::live::reply_from_wire;
use inkboard_tools::{AppInfo, Caller, Forward, Reply, ToolError};
use serde_json::{json, Value};

/// The HTTP client side of live mode.
pub struct HttpForward {
    agent: ureq::Agent,
}

impl HttpForward {
    pub fn new() -> Self {
        let agent = ureq::Agent::config_builder()
            // A big batch on a big board, or a render, can take a while; a dead
            // application is found out at connect time.
            .timeout_global(Some(Duration::from_secs(120)))
            .http_status_as_error(false)
            .build()
            .into();
        HttpForward { agent }
    }

    fn post(&self, app: &AppInfo, route: &str, body: &Value) -> Result<Value, String> {
        let url = format!("http://127.0.0.1:{}{route}", app.port);
        let mut response = self
            .agent
            .post(&url)
            .header("Authorization", &format!("Bearer {}", app.token))
            .header("Content-Type", "application/json")
            .send(body.to_string().as_bytes())
            .map_err(|e| {
                format!(
                    "the inkboard application (pid {}) did not answer: {e}; pass `path` to edit the file directly",
                    app.pid
                )
            })?;
        let status = response.status();
        let text = response
            .body_mut()
            .with_config()
            .limit(256 * 1024 * 1024)
            .read_to_string()
            .map_err(|e| format!("the application's answer could not be read: {e}"))?;
        if !status.is_success() {
            return Err(format!("the inkboard application refused the call: {text}"));
        }
        serde_json::from_str(&text)
            .map_err(|e| format!("the application's answer is not JSON: {e}"))
    }

    /// Asks the running application to open `path` (or a new board); the URL to
    /// show it, with a fresh one-time code.
    pub fn open(&self, app: &AppInfo, path: Option<&Path>) -> Result<String, String> {
        let answer = self.post(app, "/api/open", &json!({"path": path}))?;
        let code = answer["code"]
            .as_str()
            .ok_or("the application sent no code")?;
        Ok(format!("http://127.0.0.1:{}/?code={code}", app.port))
    }
}

impl Forward for HttpForward {
    fn call(
        &self,
        app: &AppInfo,
        tool: &str,
        args: Value,
        caller: &Caller,
    ) -> Result<Reply, ToolError> {
        let mut request = json!({"tool": tool, "args": args, "client": caller.client});
        // The MCP App view's calls say so: only they reach its tools there.
        if caller.view {
            request["view"] = json!(true);
        }
        let answer = self
            .post(app, "/api/call", &request)
            .map_err(ToolError::Io)?;
        reply_from_wire(answer)
    }
}
