//! `board_changes`: what changed on a board since a revision, by whom. Changes
//! made through this process are the agent's; changes found on disk that this
//! process did not make (the person, another program) are the user's.

use inkboard_core::{Board, Change};
use inkboard_format::json::{object_to_json, Detail};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::engine::Target;
use crate::live::Caller;
use crate::tool::{to_value, BoardTool, Hints, Tool};
use crate::tracking::ChangeLog;
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
    pub(crate) revision: u64,
    /// "agent" or "user"; on a server, who: "Ann" or "Ann's agent".
    pub(crate) by: String,
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
    pub(crate) changes: Vec<ChangeOut>,
}

impl Tool for BoardChanges {
    const NAME: &'static str = "board_changes";
    const TITLE: &'static str = "Board changes";
    const DESCRIPTION: &'static str =
        "What changed after a revision (default: since you last asked), by agent or user.";
    const HINTS: Hints = Hints::READ;
    type Args = BoardChangesArgs;
    type Output = BoardChangesOutput;
}

impl BoardTool for BoardChanges {
    fn run(engine: &Engine, caller: &Caller, a: BoardChangesArgs) -> Result<Reply, ToolError> {
        let out = match engine.target(a.path.as_deref(), caller)? {
            Target::File(path) => engine.tracked(&path, |t| {
                let since = a.since.or(t.last_returned);
                let out = answer(&t.board, &t.log, since)?;
                t.last_returned = Some(out.revision);
                Ok(out)
            })?,
            Target::Stored(cell) => crate::stored::changes(engine, &cell, caller, a.since, answer)?,
            Target::Live(cell) => {
                let mut live = cell.lock();
                let since = a
                    .since
                    .or_else(|| live.last_returned.get(&caller.client).copied());
                let out = answer(&live.board, &live.log, since)?;
                live.last_returned
                    .insert(caller.client.clone(), out.revision);
                out
            }
        };
        Ok(Reply::Json(to_value(&out)))
    }
}

/// The changes of `log` after `since` (default: all it holds), as tools show them.
pub(crate) fn answer(
    board: &Board,
    log: &ChangeLog,
    since: Option<u64>,
) -> Result<BoardChangesOutput, ToolError> {
    let revision = board.revision();
    let since = since.unwrap_or(log.first_revision());
    let changes = log.changes_since(since).ok_or_else(|| {
        ToolError::args(format!(
            "revision {since} is older than what this server has seen of the board (revision {}): call read_board for the whole board, then board_changes without 'since'",
            log.first_revision()
        ))
    })?;
    let changes = changes
        .iter()
        .map(|c: &Change| ChangeOut {
            revision: c.revision,
            by: c.by.name().to_string(),
            kind: c.kind.name(),
            page: board.page_position(c.page).map(|i| i + 1),
            id: c.id.as_ref().map(|i| i.to_string()),
            object: c.object.as_ref().map(|o| object_to_json(o, Detail::Read)),
            page_name: c.page_name.clone(),
        })
        .collect();
    Ok(BoardChangesOutput { revision, changes })
}
