//! Shared helpers of the end-to-end tests: spawning the built `inkboard mcp` and
//! talking to it with rmcp's own client in either protocol era, checking every
//! answer against the schemas the server itself published, golden files, and the
//! 199-operation flow diagram both test files use.
//!
//! Each test binary uses a different part of this module, hence the `dead_code`
//! allowance.
#![allow(dead_code)]

pub mod accounts;
pub mod app;
pub mod budget;
pub mod raw;

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
    ProtocolVersion, Tool,
};
use rmcp::service::{RunningService, ServiceError};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};
use serde_json::{json, Value};
use tempfile::TempDir;
use tokio::io::AsyncReadExt;

/// The binary under test, built by Cargo for the integration tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_inkboard");

/// The two ways an MCP client can talk to a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Era {
    /// 2025-11-25: `initialize`, then `notifications/initialized`, then requests.
    Handshake,
    /// 2026-07-28: stateless; `server/discover`, then requests that each carry
    /// the protocol version and client capabilities in `_meta`.
    Stateless,
}

impl Era {
    pub fn version(self) -> ProtocolVersion {
        match self {
            Era::Handshake => ProtocolVersion::V_2025_11_25,
            Era::Stateless => ProtocolVersion::V_2026_07_28,
        }
    }
}

/// Declares `mod NAME { v2025_11_25, v2026_07_28 }`: one test per era running
/// `async fn NAME(era: Era)`, so a failure says which era broke.
#[macro_export]
macro_rules! both_eras {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn v2025_11_25() {
                super::$name($crate::common::Era::Handshake).await
            }
            #[tokio::test]
            async fn v2026_07_28() {
                super::$name($crate::common::Era::Stateless).await
            }
        }
    )*};
}

/// A running `inkboard mcp` with a connected client, a scratch folder for boards,
/// and an empty runtime folder (so no running application is ever found).
pub struct Session {
    pub client: RunningService<RoleClient, ClientConfig>,
    pub era: Era,
    pub dir: TempDir,
    tools: HashMap<String, Tool>,
    stderr: tokio::task::JoinHandle<String>,
}

/// What a failed tool call (`isError: true`) said.
#[derive(Debug)]
pub struct ToolFailure {
    /// The text content.
    pub text: String,
    /// The structured content, where the error has a JSON payload.
    pub structured: Option<Value>,
}

impl Session {
    /// Spawns the server and connects to it in `era`.
    pub async fn start(era: Era) -> Session {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let runtime = dir.path().join("runtime");
        private_dir(&runtime);
        Session::start_with(era, dir, &runtime).await
    }

    /// Spawns the server in `dir` with `runtime` as its runtime folder (where it
    /// looks for a running application).
    pub async fn start_with(era: Era, dir: TempDir, runtime: &Path) -> Session {
        let mut cmd = tokio::process::Command::new(BIN);
        cmd.arg("mcp")
            .current_dir(dir.path())
            .env("INKBOARD_RUNTIME_DIR", runtime)
            .env_remove("INKBOARD_LOG");
        let (transport, stderr) = TokioChildProcess::builder(cmd)
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn inkboard mcp");
        let mut stderr = stderr.expect("stderr is piped");
        // Drained all along, so a chatty server could never block on a full pipe.
        let stderr = tokio::spawn(async move {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text).await;
            text
        });
        let config = ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("inkboard-e2e", "0.0.1"),
        )
        .with_protocol_version(era.version());
        let client = match era {
            // A plain `serve` is the handshake; the config's version must be pinned,
            // since its default is the newest (stateless) one.
            Era::Handshake => config.serve(transport).await,
            Era::Stateless => {
                config
                    .serve_with_lifecycle(
                        transport,
                        ClientLifecycleMode::Discover {
                            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                        },
                    )
                    .await
            }
        }
        .unwrap_or_else(|e| panic!("{era:?}: connecting to inkboard mcp failed: {e}"));
        let tools = client
            .list_all_tools()
            .await
            .unwrap_or_else(|e| panic!("{era:?}: tools/list failed: {e}"))
            .into_iter()
            .map(|t| (t.name.to_string(), t))
            .collect();
        Session {
            client,
            era,
            dir,
            tools,
            stderr,
        }
    }

    /// A path in the scratch folder, as a string for tool arguments.
    pub fn path(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }

    /// Calls a tool; a protocol error is returned as such.
    pub async fn try_call(&self, tool: &str, args: Value) -> Result<CallToolResult, ServiceError> {
        let Value::Object(args) = args else {
            panic!("tool arguments must be an object, got {args}");
        };
        self.client
            .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
            .await
    }

    /// Calls a tool that the test expects to exist, checking the arguments against
    /// its published input schema and any structured answer against its output
    /// schema (strict clients check both).
    pub async fn call(&self, tool: &str, args: Value) -> CallToolResult {
        let def = self
            .tools
            .get(tool)
            .unwrap_or_else(|| panic!("tools/list has no tool {tool}"));
        check_schema(&Value::Object((*def.input_schema).clone()), &args)
            .unwrap_or_else(|e| panic!("{tool}: the arguments {args} break its inputSchema: {e}"));
        let result = self
            .try_call(tool, args)
            .await
            .unwrap_or_else(|e| panic!("{:?}: tools/call {tool} failed: {e}", self.era));
        if let (Some(schema), Some(sc)) = (&def.output_schema, &result.structured_content) {
            check_schema(&Value::Object((**schema).clone()), sc).unwrap_or_else(|e| {
                panic!("{tool}: the structured answer {sc} breaks its outputSchema: {e}")
            });
        }
        result
    }

    /// Calls a tool that must succeed; returns its structured answer after checking
    /// that the text content carries the very same JSON.
    pub async fn ok(&self, tool: &str, args: Value) -> Value {
        let r = self.call(tool, args).await;
        let text = only_text(&r);
        assert_eq!(
            r.is_error,
            Some(false),
            "{:?}: {tool} failed: {text}",
            self.era
        );
        let structured = r
            .structured_content
            .unwrap_or_else(|| panic!("{tool} answered without structuredContent: {text}"));
        let from_text: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{tool}: the text content is not JSON ({e}): {text}"));
        assert_eq!(
            from_text, structured,
            "{tool}: text and structured content differ"
        );
        structured
    }

    /// Calls a tool that must fail as a tool (`isError: true`, not a protocol
    /// error), and returns what it said.
    pub async fn fails(&self, tool: &str, args: Value) -> ToolFailure {
        let r = self.call(tool, args).await;
        let text = only_text(&r);
        assert_eq!(
            r.is_error,
            Some(true),
            "{:?}: {tool} should have failed but answered {text}",
            self.era
        );
        assert!(
            !text.trim().is_empty(),
            "{tool}: an error without a message"
        );
        ToolFailure {
            text,
            structured: r.structured_content,
        }
    }

    /// Disconnects (closing the server's stdin, which ends it) and returns
    /// everything the server wrote to stderr.
    pub async fn close(self) -> String {
        let Session { client, stderr, .. } = self;
        client.cancel().await.expect("the client shuts down");
        tokio::time::timeout(std::time::Duration::from_secs(10), stderr)
            .await
            .expect("the server exits once stdin closes")
            .expect("the stderr reader")
    }
}

/// Makes a private folder (0700), as a runtime folder must be: inkboard refuses
/// one that others can enter and never changes its mode itself.
pub fn private_dir(path: &Path) {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(path)
        .expect("a private folder");
}

/// `inkboard` run in `dir` with its own runtime folder, no logging, and no
/// stdin/stdout/stderr: a process the crash and race tests start by the hundred.
pub fn quiet_inkboard(dir: &Path, runtime: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(BIN);
    cmd.current_dir(dir)
        .env("INKBOARD_RUNTIME_DIR", runtime)
        .env_remove("INKBOARD_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

/// Checks that the server wrote nothing to stderr: by default it logs only
/// warnings of its own, and the JSON-RPC errors it answers are not warnings.
pub fn assert_quiet(stderr: &str) {
    assert!(
        stderr.trim().is_empty(),
        "the server wrote to stderr:\n{stderr}"
    );
}

/// The one text content of a tool answer.
pub fn only_text(r: &CallToolResult) -> String {
    assert_eq!(
        r.content.len(),
        1,
        "expected one content block: {:?}",
        r.content
    );
    r.content[0]
        .as_text()
        .expect("a text content block")
        .text
        .clone()
}

/// Compiles a JSON Schema (draft 2020-12, as the server writes them).
pub fn compile_schema(schema: &Value) -> Result<(boon::Schemas, boon::SchemaIndex), String> {
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    let loc = "file:///schema.json";
    compiler
        .add_resource(loc, schema.clone())
        .map_err(|e| format!("{e:#}"))?;
    let index = compiler
        .compile(loc, &mut schemas)
        .map_err(|e| format!("the schema does not compile: {e:#}"))?;
    Ok((schemas, index))
}

/// Validates `value` against a JSON Schema.
pub fn check_schema(schema: &Value, value: &Value) -> Result<(), String> {
    let (schemas, index) = compile_schema(schema)?;
    schemas.validate(value, index).map_err(|e| format!("{e:#}"))
}

/// A file beside the tests.
pub fn here(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(rel)
}

/// Compares `actual` with the golden file `rel` (under `tests/`), or rewrites the
/// file when `UPDATE_EXPECT=1`.
pub fn check_golden(rel: &str, actual: &str) {
    let path = here(rel);
    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v != "0") {
        fs::create_dir_all(path.parent().expect("a folder")).expect("create the golden folder");
        fs::write(&path, actual).expect("write the golden file");
        return;
    }
    let expected = fs::read_to_string(&path).unwrap_or_default();
    if expected == actual {
        return;
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    panic!(
        "{} differs from the server's answer at line {}:\n  expected: {:?}\n  actual:   {:?}\n\
         (after a deliberate change, run with UPDATE_EXPECT=1 and review the diff)",
        path.display(),
        line + 1,
        expected.lines().nth(line).unwrap_or("<end>"),
        actual.lines().nth(line).unwrap_or("<end>"),
    );
}

/// The flow200 diagram: `shapes` labelled shapes placed by the engine, then one
/// connector between each shape and the next, given by reference (`"$i.id"`).
pub fn flow_operations(shapes: usize) -> Value {
    let mut ops: Vec<Value> = (0..shapes)
        .map(|i| json!({"tool": "add_shape", "args": {"text": format!("Step {i}")}}))
        .collect();
    ops.extend((0..shapes.saturating_sub(1)).map(|i| {
        json!({"tool": "add_connector", "args": {"from": format!("${i}.id"), "to": format!("${}.id", i + 1)}})
    }));
    Value::Array(ops)
}

/// Skips a test that needs what this machine lacks (root, a mount), with a
/// note; on CI (`CI=true`), where the machine has it, a skip is a failure, so
/// the test cannot pass without running.
pub fn skip(reason: &str) {
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "this test must run on CI, but: {reason}"
    );
    eprintln!("note: test skipped: {reason}");
}
