//! The errors a tool call can end with. Each message is one sentence that names
//! the argument, object or file at fault and says how to fix it, because the reader
//! is usually a model that will act on it.

use inkboard_arrange::ArrangeError;
use inkboard_core::ModelError;
use inkboard_format::FormatError;
use serde_json::Value;

/// Why a tool call failed. Every variant is a tool error (`isError: true` in MCP);
/// only an unknown tool name is a protocol error, and that is the transport's call.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// No tool by that name.
    #[error("unknown tool \"{0}\": call tools/list to see the tools")]
    UnknownTool(String),
    /// An argument is missing, unknown, of the wrong type or out of range.
    #[error("{0}")]
    Arguments(String),
    /// The model refused the change (missing object, dangling connector...).
    #[error(transparent)]
    Model(#[from] ModelError),
    /// The board file could not be read or written.
    #[error(transparent)]
    File(#[from] FormatError),
    /// No `path` was given and no application is running to act on.
    #[error("no board given and no inkboard application is running: pass `path` (a .inkboard file) or run `inkboard open FILE`")]
    NoApplication,
    /// An application is running, but this engine was made without a way to send
    /// calls to it (`Engine::new`; the CLI and `inkboard mcp` forward).
    #[error("an inkboard application is running (pid {0}), but this program does not send calls to it: pass `path` to edit the file directly")]
    LiveUnavailable(u32),
    /// A tool that cannot run inside a batch was put in one.
    #[error("{0} is not allowed inside a batch: call it on its own")]
    NotInBatch(&'static str),
    /// An atomic batch failed at `index`; nothing was changed. `error` already
    /// names the operation.
    #[error("{error} (the batch was rolled back: nothing was changed)")]
    Batch {
        index: usize,
        error: String,
        results: Vec<Value>,
    },
    /// The client cancelled the call; nothing it did was kept.
    #[error("the call was cancelled: nothing was changed")]
    Cancelled,
    /// The call ran past its deadline (a drawing's, see
    /// [`crate::control::DRAWING_DEADLINE`]) and was stopped; nothing was written.
    #[error("the drawing took longer than {0} s and was stopped (nothing was written): draw a region or a smaller size, or split the page")]
    TooLong(u64),
    /// A failure outside the model and the file format (e.g. reading an image).
    #[error("{0}")]
    Io(String),
    /// A layout ran past its deadline (`tools/layout.rs`) and was stopped;
    /// nothing was changed.
    #[error("the layout took longer than {0} s and was stopped (nothing was changed): lay out fewer shapes at a time (pass ids), or use the tree or grid layout")]
    LayoutTooLong(u64),
    /// The call panicked: a bug in inkboard, contained by [`crate::Engine`] so that
    /// the process goes on serving. Nothing the call did stays: a transaction rolls
    /// back as the panic unwinds, and a file is replaced whole or not at all; the
    /// engine then forgets what it held in memory of every board file and reads
    /// them again. (Only a panic after a file was written, in the bookkeeping that
    /// follows, would leave that one change in place.)
    #[error("inkboard hit a bug in {tool} ({detail}): the call was stopped and the board left as it was; please report the bug")]
    Bug { tool: String, detail: String },
    /// An error the running application answered to a forwarded call, with the
    /// structured data it carried (a failed batch's).
    #[error("{message}")]
    Remote {
        message: String,
        data: Option<Value>,
    },
}

/// What arranging refused, as the call's error: the model's refusals as they
/// are, the rest (locked objects, nothing to lay out, a graph the layout crate
/// refuses) as bad arguments in the arrange crate's words. A stop is mapped by
/// the layout adapter, which knows why (`tools/layout.rs`); no other
/// arrangement stops.
impl From<ArrangeError> for ToolError {
    fn from(e: ArrangeError) -> Self {
        match e {
            ArrangeError::Model(e) => ToolError::Model(e),
            ArrangeError::Stopped => ToolError::Cancelled,
            e => ToolError::Arguments(e.to_string()),
        }
    }
}

impl ToolError {
    pub(crate) fn args(message: impl Into<String>) -> Self {
        ToolError::Arguments(message.into())
    }

    /// The structured payload that goes with the error, where there is one: the
    /// batch failure's `{index, error, results}`.
    pub fn data(&self) -> Option<Value> {
        match self {
            ToolError::Batch {
                index,
                error,
                results,
            } => Some(serde_json::json!({
                "index": index, "error": error, "results": results,
            })),
            ToolError::Remote { data, .. } => data.clone(),
            _ => None,
        }
    }
}
