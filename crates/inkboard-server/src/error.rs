//! The store's errors as a tool call's answer: the words a person or an agent
//! reads, never more than the store may tell them (a board the caller has no
//! role on is "not found", exactly as a missing one, which the store already
//! makes one error).

use inkboard_store::StoreError;
use inkboard_tools::ToolError;

/// A store error as a tool error. A role too small names the role needed; a
/// board not found says so whether it is missing or hidden; the database's own
/// failures are logged whole and answered in general words.
pub fn tool_error(e: StoreError) -> ToolError {
    match e {
        StoreError::Forbidden { needed, have, .. } => ToolError::Arguments(format!(
            "this needs the {needed} role on this board, and you are a {have}: ask an owner of the board to make you an {needed}"
        )),
        StoreError::BoardNotFound(board) => not_found(board.as_str()),
        e @ (StoreError::Invalid { .. }
        | StoreError::LastOwner { .. }
        | StoreError::UserNotFound(_)
        | StoreError::UserExists(_)) => ToolError::Arguments(e.to_string()),
        e => {
            tracing::error!("store: {e}");
            ToolError::Io(format!("the server's database failed ({e}): try again; if it goes on, tell the server's administrator"))
        }
    }
}

/// The one answer for a board that is missing, hidden from the caller, or not
/// even an id.
pub fn not_found(board: &str) -> ToolError {
    ToolError::Arguments(format!(
        "board {} not found: check the id (list_boards lists yours), or ask its owner to share it with you",
        inkboard_core::echo::echo(board)
    ))
}
