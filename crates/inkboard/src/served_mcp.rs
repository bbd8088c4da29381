//! MCP over streamable HTTP in server mode (`inkboard serve`): rmcp's service at
//! `/mcp`, behind the server's token check (`inkboard_server::guard`), which puts
//! the caller (a person's agent) in each request. Every call gets an engine of
//! its own over the store as that caller sees it ([`inkboard_server::Access`]),
//! so one session never acts with another's rights, and runs on a blocking
//! thread like every local call. The catalogue is the server's
//! (`inkboard_tools::server_catalog`): `board` where local tools take `path`.

use std::borrow::Cow;
use std::sync::Arc;

use inkboard_server::{Access, Held, Member};
use inkboard_tools::{server_catalog, Caller, Engine, SERVER_COMMON_ARGS};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ContentBlock, Implementation, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ResourceContents, ServerCapabilities, ServerConfig,
    Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{json, Value};

use crate::mcp::{run_call, to_result, tool};

/// The MCP face of the server.
#[derive(Clone)]
struct Served {
    held: Arc<Held>,
    tools: Arc<Vec<Tool>>,
}

/// The server's tool list, built once.
pub fn tools() -> Vec<Tool> {
    server_catalog().iter().map(tool).collect()
}

/// The caller the guard found, and the MCP session, which `board_changes`
/// answers from where it last asked.
fn caller_of(context: &RequestContext<RoleServer>) -> Option<(Member, String)> {
    let parts = context.extensions.get::<axum::http::request::Parts>()?;
    let member = parts.extensions.get::<Member>()?.clone();
    let session = parts
        .headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("http");
    let client = format!("{}:{session}", member.id.0);
    Some((member, client))
}

impl ServerHandler for Served {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("inkboard", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!(
                "inkboard is a team's whiteboard server: shapes, sticky notes, frames, connectors, images and ink on boards that people also edit. \
                 list_boards lists the boards you may see; build or rework a board with one `batch` call; read_board reads it, render shows it. \
                 Your changes are recorded as your person's agent. {SERVER_COMMON_ARGS}"
            ))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2026_07_28))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        if !self.tools.iter().any(|t| t.name == name) {
            return Err(ErrorData::invalid_params(
                format!("unknown tool \"{name}\": call tools/list to see the tools"),
                None,
            ));
        }
        // The guard lets no request through without a caller: this is a bug.
        let (who, client) = caller_of(&context)
            .ok_or_else(|| ErrorData::internal_error("no caller on the request", None))?;
        let args = request.arguments.map(Value::Object).unwrap_or(json!({}));
        let held = self.held.clone();
        let tool_name = name.clone();
        let mut result = run_call(&context, Caller::agent(client), move |caller| {
            let engine = Engine::stored(Arc::new(Access { held, who }));
            to_result(engine.call_as(&tool_name, args, &caller))
        })
        .await?;
        if name == "export" && result.is_error != Some(true) {
            // The file itself as an embedded resource, as MCP carries files; the
            // structured content says the same in JSON for clients that read it.
            if let Some(out) = result.structured_content.as_ref() {
                let (Some(data), Some(mime), Some(format)) = (
                    out["data"].as_str(),
                    out["mime_type"].as_str(),
                    out["format"].as_str(),
                ) else {
                    return Ok(result.into());
                };
                let uri = format!("inkboard://export/board.{format}");
                result.content = vec![
                    ContentBlock::text(format!("{format}, {} bytes", out["bytes"])),
                    ContentBlock::resource(ResourceContents::blob(data, uri).with_mime_type(mime)),
                ];
            }
        }
        Ok(result.into())
    }
}

/// `/mcp` on the server's boards. The guard in front of it (mounted by
/// `inkboard_server::router`) checks the token before a request gets here.
pub fn http_routes(held: Arc<Held>) -> axum::Router {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    let tools = Arc::new(tools());
    let service = StreamableHttpService::new(
        move || {
            Ok(Served {
                held: held.clone(),
                tools: tools.clone(),
            })
        },
        Arc::new(LocalSessionManager::default()),
        // Host and Origin are checked by the server's guard, against its
        // public URL; rmcp's own check knows only loopback names.
        StreamableHttpServerConfig::default()
            .with_max_request_body_bytes(inkboard_server::MAX_BODY)
            .disable_allowed_hosts(),
    );
    axum::Router::new()
        .route_service("/mcp", service)
        .layer(axum::middleware::from_fn(crate::mcp::session_end_answer))
}
