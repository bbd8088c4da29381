//! The MCP server on stdio, with the official SDK (rmcp). It lists the engine's
//! catalogue and hands each call to the engine on a blocking thread, so tool
//! work never stalls the async executor. Both protocol eras are served: the
//! 2025-11-25 initialize handshake and the stateless 2026-07-28 requests
//! (`server/discover`); rmcp tells them apart from the first message.
//! Logs go to stderr: stdout carries only JSON-RPC.

use std::borrow::Cow;
use std::sync::Arc;

use base64::Engine as _;
use inkboard_tools::{
    catalog, find_tool, Caller, Control, Engine, Progress, Reply, ToolError, COMMON_ARGS,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Value};

use crate::chat;
use crate::forward::HttpForward;

/// The MCP face of the engine.
#[derive(Clone)]
struct Server {
    engine: Arc<Engine>,
    tools: Arc<Vec<Tool>>,
    /// The chat view's own tools, listed only to clients that show it.
    chat_tools: Arc<Vec<Tool>>,
    /// Who calls: `board_changes` answers each client from where it last asked.
    caller: Caller,
}

/// The MCP tool list, built once from the catalogue.
fn tools() -> Vec<Tool> {
    catalog().iter().map(tool).collect()
}

/// One tool of the catalogue as MCP says it.
pub(crate) fn tool(t: &inkboard_tools::ToolDef) -> Tool {
    let mut tool = Tool::new(t.name, t.description, Arc::new(t.input_schema.clone()))
        .with_raw_output_schema(Arc::new(t.output_schema.clone()))
        .with_annotations(hints(t.hints));
    tool.title = Some(t.title.into());
    tool
}

/// The annotations of a tool: `openWorldHint: false` on all; read-only tools say
/// so; the others always state `destructiveHint`, `true` on delete-like tools too,
/// although MCP assumes it, so that a client reading only what is written still
/// sees which tools can remove work. `idempotentHint` only where it holds, since
/// MCP assumes false. Nothing else is said, to keep tools/list small.
fn hints(h: inkboard_tools::Hints) -> ToolAnnotations {
    let mut a = ToolAnnotations::new().open_world(false);
    if h.read_only {
        a = a.read_only(true);
    } else {
        a = a.destructive(h.destructive);
    }
    if h.idempotent && !h.read_only {
        a = a.idempotent(true);
    }
    a
}

/// Makes the engine's answer into an MCP result.
pub(crate) fn to_result(reply: Result<Reply, ToolError>) -> CallToolResult {
    match reply {
        Ok(Reply::Json(value)) => CallToolResult::structured(value),
        // The picture and its summary as content, and the summary as structured
        // content too: the tool declares an output schema, and the official SDK
        // clients refuse a result without it.
        Ok(Reply::Image { png, text, data }) => {
            let mut r = CallToolResult::success(vec![
                ContentBlock::image(
                    base64::engine::general_purpose::STANDARD.encode(&png),
                    "image/png",
                ),
                ContentBlock::text(text),
            ]);
            r.structured_content = Some(data);
            r
        }
        // A failed atomic batch carries its payload as structured content.
        Err(e) => match e.data() {
            Some(data) => CallToolResult::structured_error(data),
            None => CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
        },
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        // Resources: the chat view (`chat.rs`), listed to the clients that
        // show it.
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
            .with_server_info(Implementation::new("inkboard", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!(
                "inkboard edits whiteboards: shapes, sticky notes, frames, connectors, images and ink on pages. \
                 Build or rework a board with one `batch` call, or draw a Mermaid flowchart with import_mermaid; `layout` tidies shapes so none overlap; read_board reads it, render shows it. {COMMON_ARGS}"
            ))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2026_07_28))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        if chat::supported(context.client_capabilities().as_ref()) {
            return Ok(ListToolsResult::with_all_items(chat::with_chat_tools(
                &self.tools,
                &self.chat_tools,
            )));
        }
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools
            .iter()
            .chain(self.chat_tools.iter())
            .find(|t| t.name == name)
            .cloned()
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let mut list = Vec::new();
        if chat::supported(context.client_capabilities().as_ref()) {
            list.push(chat::resource());
        }
        Ok(ListResourcesResult::with_all_items(list))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        // The chat view is bundled from the editor's files on first read: on a
        // blocking thread, where a bug is this request's error.
        let uri = request.uri.clone();
        let read = tokio::task::spawn_blocking(move || chat::read(&uri))
            .await
            .map_err(|e| {
                ErrorData::internal_error(format!("the chat view could not be read: {e}"), None)
            })?;
        match read {
            Some(Ok(result)) => Ok(result.into()),
            Some(Err(message)) => Err(ErrorData::internal_error(message, None)),
            None => Err(ErrorData::resource_not_found(
                format!(
                    "no resource {}: inkboard serves {}",
                    inkboard_core::echo::echo(&request.uri),
                    chat::CHAT_URI
                ),
                None,
            )),
        }
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        let shows_chat = chat::supported(context.client_capabilities().as_ref());
        let is_chat_tool = inkboard_tools::chat_catalog()
            .iter()
            .any(|t| t.name == name);
        // Unknown tools are a protocol error (malformed request), not a tool error.
        // The chat view's own tools exist only for a client that declared MCP Apps,
        // whose host keeps them from the model: to any other client (a model
        // calling them by name included) they are unknown, in the same words.
        if find_tool(&name).is_none() || (is_chat_tool && !shows_chat) {
            return Err(ErrorData::invalid_params(
                format!("unknown tool \"{name}\": call tools/list to see the tools"),
                None,
            ));
        }
        let args = request.arguments.map(Value::Object).unwrap_or(json!({}));
        let view_board_args = args.clone();
        let engine = self.engine.clone();
        let mut caller = self.caller.clone();
        caller.chat = shows_chat;
        // Each call notes its own commit.
        caller.committed = Default::default();
        let committed = caller.committed.clone();
        let shown = chat::linked(&name) && shows_chat;
        let started = std::time::Instant::now();
        let mut result = run_call(&context, caller, move |caller| {
            let mut result = to_result(engine.call_as(&name, args, &caller));
            if is_chat_tool && result.is_error != Some(true) {
                // The chat view reads the structured content; the drawing is not sent
                // a second time as text.
                result.content = vec![ContentBlock::text(chat::chat_result_text(
                    result.structured_content.as_ref(),
                ))];
            }
            result
        })
        .await?;
        tracing::debug!(tool = %request.name, ms = started.elapsed().as_secs_f64() * 1e3, ok = result.is_error != Some(true), "tools/call");
        if shown {
            result.meta = self
                .chat_meta(
                    result.is_error != Some(true),
                    &view_board_args,
                    committed.revision(),
                )
                .await;
        }
        Ok(result.into())
    }
}

impl Server {
    /// The `_meta` of a linked tool's result for a client that shows the chat
    /// view: the revision committed, and (after a call that worked) the drawing
    /// of the board and page it worked on, made by the chat view's own `view_board`.
    async fn chat_meta(
        &self,
        worked: bool,
        args: &Value,
        revision: Option<u64>,
    ) -> Option<rmcp::model::MetaObject> {
        let engine = self.engine.clone();
        // Only for a client that shows the chat view (`call_tool` checked it).
        let caller = self.caller.clone().in_chat();
        let args = chat::view_board_args(args, revision);
        // Drawn and measured on a blocking thread; a bug there costs the result
        // its drawing only.
        tokio::task::spawn_blocking(move || {
            let mut drawing = None;
            if worked {
                if let Ok(inkboard_tools::Reply::Json(value)) =
                    engine.call_as("view_board", args, &caller)
                {
                    drawing = Some(value);
                }
            }
            chat::result_meta(revision, drawing)
        })
        .await
        .ok()
        .flatten()
    }
}

/// Runs one tool call for `caller` with the request's control line: progress
/// notes to the client, `notifications/cancelled` reaching the call at its next
/// stage (rmcp then sends no answer, as MCP says). The call, and its answer
/// made MCP's (a picture of megabytes in base64), run on a blocking thread:
/// never on the async workers, and a bug anywhere in it is this request's
/// error, not the server's end (the engine answers a panic in a tool itself,
/// `Engine::call_as`).
pub(crate) async fn run_call<F>(
    context: &RequestContext<RoleServer>,
    mut caller: Caller,
    call: F,
) -> Result<CallToolResult, ErrorData>
where
    F: FnOnce(Caller) -> CallToolResult + Send + 'static,
{
    let (control, progress) = control_line(context);
    caller.control = control;
    let cancel = {
        let (ct, canceller) = (context.ct.clone(), caller.control.canceller());
        tokio::spawn(async move {
            ct.cancelled().await;
            canceller.cancel();
        })
    };
    let result = tokio::task::spawn_blocking(move || call(caller))
        .await
        .map_err(|e| {
            ErrorData::internal_error(format!("the tool stopped unexpectedly: {e}"), None)
        });
    cancel.abort();
    // Every progress note goes out before the answer: none may follow it.
    if let Some(progress) = progress {
        let _ = progress.await;
    }
    result
}

/// The control line of one call: progress goes to the client as
/// `notifications/progress` when the request carried a `progressToken`, each
/// step further than the last (MCP wants progress to increase).
/// The task that sends the notes ends once the call (and its control line) is
/// done, so waiting for it flushes them.
pub(crate) fn control_line(
    context: &RequestContext<RoleServer>,
) -> (Control, Option<tokio::task::JoinHandle<()>>) {
    let Some(token) = context.meta.get_progress_token() else {
        return (Control::default(), None);
    };
    let (send, mut heard) = tokio::sync::mpsc::unbounded_channel::<Progress>();
    let peer = context.peer.clone();
    let task = tokio::spawn(async move {
        let mut last = f64::NEG_INFINITY;
        while let Some(p) = heard.recv().await {
            if p.done <= last {
                continue;
            }
            last = p.done;
            let mut note = ProgressNotificationParam::new(token.clone(), p.done);
            note.total = p.total;
            note.message = Some(p.message);
            if peer.notify_progress(note).await.is_err() {
                return;
            }
        }
    });
    let control = Control::with_progress(move |p| {
        let _ = send.send(p);
    });
    (control, Some(task))
}

/// Logs to stderr (stdout may carry JSON-RPC), filtered by `INKBOARD_LOG`.
pub fn init_logging() {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("INKBOARD_LOG")
                .unwrap_or_else(|_| "warn,rmcp::service=error".into()),
        )
        .init();
}

/// MCP over streamable HTTP at `/mcp`, on the application's engine (the
/// application's guard checks the token before a request gets here).
pub fn http_routes(engine: Arc<Engine>) -> axum::Router {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    use std::sync::atomic::{AtomicU64, Ordering};
    static SESSIONS: AtomicU64 = AtomicU64::new(1);
    let tools = Arc::new(tools());
    let chat_tools = chat::chat_tools(tool);
    let service = StreamableHttpService::new(
        move || {
            Ok(Server {
                engine: engine.clone(),
                tools: tools.clone(),
                chat_tools: chat_tools.clone(),
                caller: Caller::agent(format!("http-{}", SESSIONS.fetch_add(1, Ordering::Relaxed))),
            })
        },
        Arc::new(LocalSessionManager::default()),
        // One cap for every way in: rmcp's own default (4 MiB) refused over HTTP
        // an image that stdio and `/api/call` take.
        StreamableHttpServerConfig::default().with_max_request_body_bytes(inkboard_app::MAX_BODY),
    );
    axum::Router::new()
        .route_service("/mcp", service)
        .layer(axum::middleware::from_fn(session_end_answer))
}

/// Answers a session-ending `DELETE` with 204 No Content. rmcp answers 202,
/// which the official Python SDK takes for a failure ("Session termination
/// failed: 202"); the MCP specification asks for no particular code, and 200
/// and 204 are what every SDK accepts.
pub(crate) async fn session_end_answer(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let delete = request.method() == axum::http::Method::DELETE;
    let mut response = next.run(request).await;
    if delete && response.status() == axum::http::StatusCode::ACCEPTED {
        *response.status_mut() = axum::http::StatusCode::NO_CONTENT;
    }
    response
}

/// Serves MCP on stdin/stdout until the client closes stdin.
pub fn serve() -> anyhow::Result<()> {
    init_logging();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let server = Server {
            engine: Arc::new(Engine::forwarding(Box::new(HttpForward::new()))),
            tools: Arc::new(tools()),
            chat_tools: chat::chat_tools(tool),
            caller: Caller::agent(format!("mcp-{}", std::process::id())),
        };
        let (reads, writes, reading) = crate::stdio::guard(tokio::io::stdin(), tokio::io::stdout());
        // The guard has bounded each line already; rmcp's own cap (16 MiB) would
        // drop a message the guard let through.
        let transport = rmcp::transport::async_rw::AsyncRwTransport::new(reads, writes)
            .with_max_line_length(crate::stdio::MAX_MESSAGE_BYTES + 2);
        let service = server.serve(transport).await?;
        // The client closing stdin ends the server within a second, even while
        // a call is running: rmcp would wait for the call's answer, which nobody
        // reads any more. (The guard's reader ends once the answers owed went out
        // or its drain time is over.)
        tokio::select! {
            waited = service.waiting() => {
                waited?;
            }
            _ = reading => {}
        }
        anyhow::Ok(())
    })?;
    // A call still running on a blocking thread must not keep the process alive
    // once the client has gone: the runtime would wait for it.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    Ok(())
}
