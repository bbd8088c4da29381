//! `board_changes`: what changed on a board since a revision, by whom. Changes
//! made through this process are the agent's; changes found on disk that this
//! process did not make (the person, another program) are the user's.

use inkboard_core::Change;
use inkboard_format::json::{object_to_json, Detail};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::engine::board_path;
use crate::tool::{to_value, BoardTool, Hints, Tool};
use crate::{Engine, Reply, ToolError};

pub struct BoardChanges;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardChangesArgs {
    path: Option<String>,
    since: Option<u64>,
}

#[derive(Serialize, JsonSchema)]
pub struct ChangeOut {
    revision: u64,
    /// "agent" or "user".
    by: &'static str,
    /// "added", "updated" or "removed".
    kind: &'static str,
    /// Page number (from 1); absent for a page that is gone.
    #[serde(skip_serializing_if = "Option::is_none")]
    page: Option<usize>,
    /// The object's id; absent when the page itself changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    /// The object after the change; absent when removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    object: Option<Map<String, Value>>,
    /// The page's name, when the page itself changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    page_name: Option<String>,
}

#[derive(Serialize, JsonSchema)]
pub struct BoardChangesOutput {
    revision: u64,
    changes: Vec<ChangeOut>,
}

impl Tool for BoardChanges {
    const NAME: &'static str = "board_changes";
    const DESCRIPTION: &'static str = "What changed on the board after a revision (default: since the last call), each change with its revision, who made it (agent or user), kind, page, id and the object now.";
    const HINTS: Hints = Hints::READ;
    type Args = BoardChangesArgs;
    type Output = BoardChangesOutput;
}

impl BoardTool for BoardChanges {
    fn run(engine: &Engine, a: BoardChangesArgs) -> Result<Reply, ToolError> {
        let path = board_path(a.path.as_deref())?;
        let out = engine.tracked(&path, |t| {
            let revision = t.board.revision();
            let since = a.since.or(t.last_returned).unwrap_or(t.first_revision);
            let changes = t.changes_since(since).ok_or_else(|| {
                ToolError::args(format!(
                    "revision {since} is older than what this server has seen of the file (revision {}): call read_board for the whole board, then board_changes without 'since'",
                    t.first_revision
                ))
            })?;
            t.last_returned = Some(revision);
            let board = &t.board;
            let changes = changes
                .iter()
                .map(|c: &Change| ChangeOut {
                    revision: c.revision,
                    by: c.by.name(),
                    kind: c.kind.name(),
                    page: board.page_position(c.page).map(|i| i + 1),
                    id: c.id.as_ref().map(|i| i.to_string()),
                    object: c.object.as_ref().map(|o| object_to_json(o, Detail::Read)),
                    page_name: c.page_name.clone(),
                })
                .collect();
            Ok(BoardChangesOutput { revision, changes })
        })?;
        Ok(Reply::Json(to_value(&out)))
    }
}
