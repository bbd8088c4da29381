//! The inkboard tool catalogue and the engine that runs it.
//!
//! A tool is one unit ([`tool::EditTool`] or [`tool::BoardTool`]): its name,
//! description, typed arguments (whose JSON Schema is generated from the type), its
//! effect and its tests live together in one file under `tools/`. The [`catalog`]
//! lists them all; the [`Engine`] runs a call on a board file (or, later, the board
//! open in the application) as one transaction, and `batch` composes edit tools
//! into one transaction. Transports (the MCP server, the CLI, the web application)
//! only translate their wire format to [`Engine::call`] and back.

mod args;
mod batch;
mod catalog;
pub mod control;
mod discovery;
pub mod drawing;
mod engine;
mod error;
pub mod live;
mod refs;
mod schema;
mod served;
pub mod stored;
mod tool;
mod tools;
mod tracking;
pub mod window_calls;

pub use catalog::{catalog, chat_catalog, find_tool, ToolDef, COMMON_ARGS};
pub use control::{Canceller, Control, Progress, DRAWING_DEADLINE};
pub use discovery::{
    check_private_folder, find_app, other_app, private_runtime_dir, publish, read_private_file,
    remove_old, runtime_dir, withdraw, write_private, AppInfo,
};
pub use engine::{Engine, Reply};
pub use error::ToolError;
pub use live::{Caller, CommitSlot, Forward, Host, LiveBoard, LiveCell};
pub use served::{server_catalog, MAX_EXPORT_BYTES, SERVER_COMMON_ARGS};
pub use tool::Hints;
pub use tools::import::{import_bytes, import_diagram, import_note, ImportedDiagram};
pub use tools::pick::{selection, Background, Look};
pub use tools::render::Picture;
pub use tracking::ChangeLog;
