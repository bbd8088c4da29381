//! What a window on a board may ask the engine for: a browser window of the
//! editor (`inkboard-app`'s WebSocket), and the chat view inside a chat
//! (`view_edit`, [`crate::tools::chat`]), whose edits are the person's too. A
//! window edits the board it shows, nothing else: the tools that act on one
//! board's page (those a `batch` takes, and `batch` itself), never with `path`
//! (the window's own board is the one acted on), and never with an argument that
//! reads or writes a file (`source`, `output`, `as`). Saving, exporting and opening other boards are the
//! application's own routes, where the person chose them. A session cookie that
//! leaked to another local program thus gets no further than the boards on
//! screen.

use crate::find_tool;
use serde_json::Value;

/// Arguments that name a file, which no window call may carry.
const FILE_ARGS: [&str; 4] = ["path", "source", "output", "as"];

/// Whether a window may call `tool` at all: `batch` and what a batch takes.
pub fn allowed(tool: &str) -> bool {
    tool == "batch" || find_tool(tool).is_some_and(|t| t.in_batch())
}

/// Why a window may not make this call, or `Ok` when it may.
pub fn check(tool: &str, args: &Value) -> Result<(), String> {
    if !allowed(tool) {
        return Err(format!(
            "the editor does not run {}: a window edits its own board only",
            inkboard_core::echo::echo(tool)
        ));
    }
    let named = |args: &Value| {
        FILE_ARGS
            .into_iter()
            .find(|key| args.get(key).is_some_and(|v| !v.is_null()))
    };
    let mut found = named(args);
    if tool == "batch" {
        let operations = args.get("operations").and_then(Value::as_array);
        found = found.or_else(|| {
            operations
                .into_iter()
                .flatten()
                .find_map(|op| op.get("args").and_then(named))
        });
    }
    match found {
        Some(key) => Err(format!(
            "a window's calls take no '{key}': it acts on the board it shows, and reads or writes no other file (drop images in, or paste them)"
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_window_edits_its_board_and_touches_no_file() {
        assert!(check("add_shape", &json!({"text": "A"})).is_ok());
        assert!(check(
            "batch",
            &json!({"operations": [{"tool": "add_shape", "args": {}}]})
        )
        .is_ok());
        for (tool, args) in [
            ("export", json!({"output": "/tmp/x.png"})),
            ("save_board", json!({"as": "/tmp/x.inkboard"})),
            ("create_board", json!({})),
            (
                "import",
                json!({"source": "/tmp/x.drawio", "path": "/tmp/x.inkboard"}),
            ),
            ("import", json!({})),
            (
                "read_board",
                json!({"path": "/home/someone/other.inkboard"}),
            ),
            ("add_image", json!({"source": "/etc/hostname"})),
            (
                "batch",
                json!({"path": "/tmp/other.inkboard", "operations": []}),
            ),
            (
                "batch",
                json!({"operations": [{"tool": "add_image", "args": {"source": "/etc/passwd"}}]}),
            ),
        ] {
            assert!(check(tool, &args).is_err(), "{tool} {args} was let through");
        }
    }
}
