//! The MCP Apps extension (`io.modelcontextprotocol/ui`, specification
//! 2026-01-26): the board inside the chat. For a client that declares the
//! extension, the tools that make or show a board (`batch`, `render`,
//! `import_mermaid`, `layout`, `create_board`, `read_board`) name the chat view
//! `ui://inkboard/board` in `_meta.ui.resourceUri` (and the flat
//! `ui/resourceUri` the specification still lists, deprecated, for older
//! hosts); their results name the revision they committed
//! (`_meta["inkboard/revision"]`) and carry the drawing of the page they worked
//! on (`_meta["inkboard/view"]`, what `view_board` answers), so the chat view draws
//! without a round trip; the chat view's own tools (`view_board`,
//! `view_edit`, `view_preview`, `view_history`, [`inkboard_tools::chat_catalog`]) are listed with
//! `visibility: ["app"]`, which hosts keep from the model; and the chat view is a
//! resource. A client that does not declare the extension gets the tools and
//! results exactly as before, and no resource in the list.
//!
//! The chat view document itself is built by `inkboard-app` from the editor's files
//! ([`inkboard_app::chat`]); this module only says it in MCP's words.

use std::sync::Arc;

use rmcp::model::{
    ClientCapabilities, JsonObject, MetaObject, ReadResourceResult, Resource, ResourceContents,
    Tool,
};
use serde_json::{json, Value};

pub use inkboard_app::chat::CHAT_URI;

/// The extension's identifier in client capabilities.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The chat view's media type.
pub const MIME: &str = "text/html;profile=mcp-app";
/// The model's tools whose results the chat view shows.
pub const LINKED: [&str; 6] = [
    "batch",
    "render",
    "import_mermaid",
    "layout",
    "create_board",
    "read_board",
];

/// Whether the client shows MCP Apps: it declares the extension, with our
/// media type among those it takes (or no list at all).
pub fn supported(caps: Option<&ClientCapabilities>) -> bool {
    let Some(ext) = caps
        .and_then(|c| c.extensions.as_ref())
        .and_then(|e| e.get(EXTENSION))
    else {
        return false;
    };
    match ext.get("mimeTypes").and_then(Value::as_array) {
        Some(types) => types.iter().any(|t| t.as_str() == Some(MIME)),
        None => true,
    }
}

/// The `_meta` that links a tool to the chat view, for the given visibility.
fn tool_meta(visibility: &[&str]) -> MetaObject {
    let mut ui = json!({"resourceUri": CHAT_URI});
    if !visibility.is_empty() {
        ui["visibility"] = json!(visibility);
    }
    let meta = json!({"ui": ui, "ui/resourceUri": CHAT_URI});
    MetaObject(as_object(meta))
}

fn as_object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

/// The tool list for a client that shows MCP Apps: `tools` (the model's, as
/// every client gets them) with the linked ones naming the chat view, then the
/// view's own tools, app-only.
pub fn with_chat_tools(tools: &[Tool], chat_tools: &[Tool]) -> Vec<Tool> {
    tools
        .iter()
        .map(|t| {
            let mut t = t.clone();
            if LINKED.contains(&t.name.as_ref()) {
                t.meta = Some(tool_meta(&[]));
            }
            t
        })
        .chain(chat_tools.iter().map(|t| {
            let mut t = t.clone();
            t.meta = Some(tool_meta(&["app"]));
            t
        }))
        .collect()
}

/// Whether a tool's result is one the chat view shows.
pub fn linked(name: &str) -> bool {
    LINKED.contains(&name)
}

/// The most a result's `_meta` carries of the drawing; a larger page is drawn by
/// the chat view's own `view_board` call instead.
pub const EMBED_LIMIT: usize = 512 * 1024;

/// The arguments of the `view_board` call that draws what a linked tool called
/// with `args` worked on: its board and page, at `revision`.
pub fn view_board_args(args: &Value, revision: Option<u64>) -> Value {
    let mut out = json!({"small": true});
    for key in ["path", "page"] {
        if let Some(v) = args.get(key).filter(|v| v.is_string() || v.is_u64()) {
            out[key] = v.clone();
        }
    }
    if let Some(r) = revision {
        out["revision"] = json!(r);
    }
    out
}

/// The result's `_meta` for the chat view: the revision the call committed, and the
/// drawing of the board it worked on (`view_board`'s answer), when one was made
/// and is not too large. Hosts keep `_meta` from the model; the chat view draws from
/// it without asking again.
pub fn result_meta(revision: Option<u64>, drawing: Option<Value>) -> Option<MetaObject> {
    let mut meta = JsonObject::new();
    if let Some(r) = revision {
        meta.insert("inkboard/revision".into(), json!(r));
    }
    let carried = |d: &Value| d.get("scene").is_some() && d.to_string().len() <= EMBED_LIMIT;
    if let Some(d) = drawing.filter(carried) {
        meta.insert("inkboard/view".into(), d);
    }
    (!meta.is_empty()).then_some(MetaObject(meta))
}

/// The text content of an app-only tool's result: one line (the chat view reads the
/// structured content, which holds the drawing).
pub fn chat_result_text(structured: Option<&Value>) -> String {
    let board = structured
        .map(|s| s.get("view").unwrap_or(s))
        .and_then(|v| v.get("board"));
    match board
        .and_then(|b| b.get("revision"))
        .and_then(Value::as_u64)
    {
        Some(r) => format!("inkboard view: the board at revision {r}"),
        None => "inkboard view".to_string(),
    }
}

/// What the chat view's resource says of itself to the host: no network and no file
/// of its own (every list empty: the host's most restrictive policy), and a
/// border around it.
fn ui_meta() -> MetaObject {
    MetaObject(as_object(json!({
        "ui": {
            "csp": {
                "connectDomains": [],
                "resourceDomains": [],
                "frameDomains": [],
                "baseUriDomains": [],
            },
            "prefersBorder": true,
        }
    })))
}

/// The chat view in `resources/list`.
pub fn resource() -> Resource {
    Resource::new(CHAT_URI, "inkboard board view")
        .with_title("inkboard board")
        .with_description(
            "The board a tool worked on, drawn by inkboard's renderer: pan, zoom, select, move, edit text, delete, undo and redo.",
        )
        .with_mime_type(MIME)
        .with_meta(ui_meta())
}

/// `resources/read` of `uri`: the chat view document, or `None` for another URI.
/// An editor whose files cannot be bundled (a bug, which the tests catch) is an
/// error in words.
pub fn read(uri: &str) -> Option<Result<ReadResourceResult, String>> {
    if uri != CHAT_URI {
        return None;
    }
    Some(
        inkboard_app::chat::chat_document()
            .map(|doc| {
                ReadResourceResult::new(vec![ResourceContents::text(doc, CHAT_URI)
                    .with_mime_type(MIME)
                    .with_meta(ui_meta())])
            })
            .map_err(|e| format!("the chat view could not be built: {e}")),
    )
}

/// The chat view's own tools as MCP tools (without their `_meta`, which
/// [`with_chat_tools`] adds).
pub fn chat_tools(make: impl Fn(&inkboard_tools::ToolDef) -> Tool) -> Arc<Vec<Tool>> {
    Arc::new(inkboard_tools::chat_catalog().iter().map(make).collect())
}
