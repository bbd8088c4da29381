//! What a window shows of a page: the per-object drawing that `inkboard-tools`
//! makes with the one renderer ([`inkboard_tools::drawing`]), shared with the chat
//! view (`view_board`), so that the editor and the board inside a chat draw
//! alike. Re-exported here, where the editor's WebSocket uses it.

pub use inkboard_tools::drawing::*;
