//! The chat view's own tools: `view_board` (a page as the editor draws it, by
//! the one renderer, object by object), `view_edit` (an edit the person made in
//! the chat view, run as the user's), `view_preview` (what an edit would redraw, on a
//! draft: a drag's connectors) and `view_history` (undo and redo). They are
//! "app-only": the MCP server lists them, with `_meta.ui.visibility: ["app"]`,
//! only to hosts that show MCP Apps, which keep them from the model; the chat view
//! inside the chat calls them through its host.
//!
//! The chat view keeps no connection to the server, so every answer is a whole
//! [`ViewOutput`]: the board's facts, and a `scene` in the editor's own form
//! (`docs/live-protocol.md`) holding only the objects whose drawing differs
//! from what the chat view said it holds (`known`: id → the hash each item came
//! with), so a drag answers with the moved shape and its connectors, not the
//! page.
//!
//! An edit is a tool call like any other (the window rules of
//! [`crate::window_calls`]: this board's page, no file), so the file, an
//! `inkboard open` editor on the same board and `board_changes` (`by: "user"`)
//! all see it, and nothing here edits a board by itself.
//!
//! These tools answer only the chat view ([`Caller::chat`]: a client that declared
//! MCP Apps, whose host keeps them from the model); to any other caller they
//! are unknown tools. That is what lets an edit here be recorded as the
//! person's, and `view_history` takes back only the person's own steps (the
//! view's, the editor's), never an agent's.

use std::collections::HashMap;

use inkboard_core::{Actor, Board};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::args::PageRef;
use crate::drawing::{self, Shown};
use crate::engine::Target;
use crate::live::Caller;
use crate::tool::{to_value, BoardTool, Hints, Tool};
use crate::tracking::ChangeLog;
use crate::{Engine, Reply, ToolError};

/// A tool result carries the drawing of a page of up to this many objects
/// (`small`); a larger page's the chat view asks for itself.
const SMALL_PAGE: usize = 500;

/// Pages up to this many objects come whole, fragments included, in one answer;
/// a larger page's fragments are asked for as they come into view (`ids`), as
/// the editor does.
const WHOLE_PAGE: usize = 2000;

pub struct ViewBoard;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewBoardArgs {
    path: Option<String>,
    page: Option<PageRef>,
    /// A tool result's revision
    revision: Option<u64>,
    /// The revision shown
    since: Option<u64>,
    /// Held: id → hash
    known: Option<HashMap<String, String>>,
    /// Fragments only
    ids: Option<Vec<String>>,
    /// Only a small page
    small: Option<bool>,
}

/// One page's name and number.
#[derive(Serialize, JsonSchema)]
pub struct PageName {
    number: usize,
    name: String,
}

/// The board the chat view shows, as the editor's `board` message says it.
#[derive(Serialize, JsonSchema)]
pub struct BoardFacts {
    title: String,
    /// The board's file; absent for a board with none yet (live).
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<String>,
    pages: Vec<PageName>,
    /// The page drawn (from 1).
    page: usize,
    revision: u64,
    undo: bool,
    redo: bool,
}

/// What every view tool answers.
#[derive(Serialize, JsonSchema)]
pub struct ViewOutput {
    board: BoardFacts,
    /// The editor's `scene` message: the page's order, the objects that differ
    /// from `known` (each with `svg`, `obj`, `box` and its hash `h`), `removed`,
    /// and `agent`, the ids to mark.
    #[serde(skip_serializing_if = "Option::is_none")]
    scene: Option<Value>,
    /// The fragments asked for with `ids`: id → SVG.
    #[serde(skip_serializing_if = "Option::is_none")]
    fragments: Option<Value>,
    /// The revision asked for, when the board has changed since.
    #[serde(skip_serializing_if = "Option::is_none")]
    changed_since: Option<u64>,
}

impl Tool for ViewBoard {
    const NAME: &'static str = "view_board";
    const TITLE: &'static str = "View board (app)";
    const DESCRIPTION: &'static str =
        "For the inkboard view: a page drawn object by object, and what changed.";
    const HINTS: Hints = Hints::READ;
    type Args = ViewBoardArgs;
    type Output = ViewOutput;
}

impl BoardTool for ViewBoard {
    fn run(engine: &Engine, caller: &Caller, a: ViewBoardArgs) -> Result<Reply, ToolError> {
        let target = engine.target(a.path.as_deref(), caller)?;
        let out = view(
            engine,
            &target,
            &Asked {
                page: a.page.as_ref(),
                revision: a.revision,
                since: a.since,
                known: a.known.as_ref(),
                ids: a.ids.as_deref(),
                small: a.small.unwrap_or(false),
            },
        )?;
        Ok(Reply::Json(to_value(&out)))
    }
}

pub struct ViewEdit;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewEditArgs {
    path: Option<String>,
    page: Option<PageRef>,
    /// Edit tool
    tool: String,
    /// Its arguments
    args: Option<Map<String, Value>>,
    since: Option<u64>,
    known: Option<HashMap<String, String>>,
}

#[derive(Serialize, JsonSchema)]
pub struct ViewEditOutput {
    /// The tool's own result.
    result: Value,
    view: ViewOutput,
}

impl Tool for ViewEdit {
    const NAME: &'static str = "view_edit";
    const TITLE: &'static str = "Edit in view (app)";
    const DESCRIPTION: &'static str =
        "For the inkboard view: runs an edit the person made, as theirs.";
    const HINTS: Hints = Hints::REWRITE;
    type Args = ViewEditArgs;
    type Output = ViewEditOutput;
}

impl BoardTool for ViewEdit {
    fn run(engine: &Engine, caller: &Caller, a: ViewEditArgs) -> Result<Reply, ToolError> {
        // The board and page first, so that a fault in `path` or `page` is said as such.
        let target = engine.target(a.path.as_deref(), caller)?;
        if let Some(page) = &a.page {
            engine.read(&target, |board| page.resolve(board).map(drop))?;
        }
        let mut args = a.args.unwrap_or_default();
        window_check(&a.tool, &args)?;
        if let Some(path) = &a.path {
            args.insert("path".into(), Value::String(path.clone()));
        }
        if let (Some(page), false) = (&a.page, args.contains_key("page")) {
            args.insert("page".into(), page_value(page));
        }
        let person = caller.as_person();
        let reply = engine
            .call_as(&a.tool, Value::Object(args), &person)
            .map_err(in_args)?;
        let result = match reply {
            Reply::Json(value) => value,
            Reply::Image { data, .. } => data,
        };
        let view = view(
            engine,
            &target,
            &Asked {
                page: a.page.as_ref(),
                revision: None,
                since: a.since,
                known: a.known.as_ref(),
                ids: None,
                small: false,
            },
        )?;
        Ok(Reply::Json(to_value(&ViewEditOutput { result, view })))
    }
}

pub struct ViewPreview;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewPreviewArgs {
    path: Option<String>,
    page: Option<PageRef>,
    /// Edit tool
    tool: String,
    /// Its arguments
    args: Option<Map<String, Value>>,
    known: Option<HashMap<String, String>>,
}

#[derive(Serialize, JsonSchema)]
pub struct ViewPreviewOutput {
    /// id → `{svg, obj, box}` of what the edit would redraw, differing from `known`.
    items: Value,
}

impl Tool for ViewPreview {
    const NAME: &'static str = "view_preview";
    const TITLE: &'static str = "Preview in view (app)";
    const DESCRIPTION: &'static str =
        "For the inkboard view: what an edit would redraw; nothing is kept.";
    const HINTS: Hints = Hints::READ;
    type Args = ViewPreviewArgs;
    type Output = ViewPreviewOutput;
}

impl BoardTool for ViewPreview {
    fn run(engine: &Engine, caller: &Caller, a: ViewPreviewArgs) -> Result<Reply, ToolError> {
        let target = engine.target(a.path.as_deref(), caller)?;
        let mut args = a.args.unwrap_or_default();
        window_check(&a.tool, &args)?;
        // A draft of a copy: the board itself is never touched.
        let (mut board, page) = engine.read(&target, |board| {
            let page = PageRef::resolve_or_first(a.page.as_ref(), board)?;
            Ok((board.clone(), page))
        })?;
        if !args.contains_key("page") {
            let number = board.page_position(page).map_or(1, |i| i + 1);
            args.insert("page".into(), Value::from(number));
        }
        let known = a
            .known
            .iter()
            .flatten()
            .map(|(id, h)| (id.as_str(), h.as_str()));
        let shown = Shown::from_known(known, true);
        let items = engine
            .dry_run(&mut board, &a.tool, Value::Object(args), |draft| {
                shown.preview(&drawing::draw(draft, page))
            })
            .map_err(in_args)?;
        let items: Value = serde_json::from_str(&items)
            .map_err(|e| ToolError::Io(format!("the drawing could not be sent: {e}")))?;
        Ok(Reply::Json(to_value(&ViewPreviewOutput { items })))
    }
}

pub struct ViewHistory;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewHistoryArgs {
    path: Option<String>,
    page: Option<PageRef>,
    /// Redo
    redo: Option<bool>,
    since: Option<u64>,
    known: Option<HashMap<String, String>>,
}

#[derive(Serialize, JsonSchema)]
pub struct ViewHistoryOutput {
    /// Whether there was a step of the person's to undo (or redo).
    done: bool,
    view: ViewOutput,
}

impl Tool for ViewHistory {
    const NAME: &'static str = "view_history";
    const TITLE: &'static str = "Undo in view (app)";
    const DESCRIPTION: &'static str =
        "For the inkboard view: undoes or redoes the person's last step.";
    const HINTS: Hints = Hints::REWRITE;
    type Args = ViewHistoryArgs;
    type Output = ViewHistoryOutput;
}

impl BoardTool for ViewHistory {
    fn run(engine: &Engine, caller: &Caller, a: ViewHistoryArgs) -> Result<Reply, ToolError> {
        let target = engine.target(a.path.as_deref(), caller)?;
        let person = caller.as_person();
        let done = engine.undo(&target, &person, a.redo.unwrap_or(false))?;
        let view = view(
            engine,
            &target,
            &Asked {
                page: a.page.as_ref(),
                revision: None,
                since: a.since,
                known: a.known.as_ref(),
                ids: None,
                small: false,
            },
        )?;
        Ok(Reply::Json(to_value(&ViewHistoryOutput { done, view })))
    }
}

/// What a view asks to be drawn.
struct Asked<'a> {
    page: Option<&'a PageRef>,
    revision: Option<u64>,
    since: Option<u64>,
    known: Option<&'a HashMap<String, String>>,
    ids: Option<&'a [String]>,
    small: bool,
}

/// The board of `target` as the chat view is to show it (see the module docs).
fn view(engine: &Engine, target: &Target, asked: &Asked<'_>) -> Result<ViewOutput, ToolError> {
    // The board is copied out, and drawn without holding its lock: drawing a
    // large page routes every connector.
    let marked = |log: &ChangeLog| marked(log, asked.revision, asked.since);
    let (board, agent, undo, redo) = match target {
        Target::File(path) => engine.tracked(path, |t| {
            Ok((
                t.board.clone(),
                marked(&t.log),
                t.history.can_undo_own(Actor::User),
                t.history.can_redo_own(Actor::User),
            ))
        })?,
        Target::Stored(cell) => {
            // A person's own steps and their agent's are what their undo takes.
            let whose = engine.keeper().map(|k| k.whose()).unwrap_or_default();
            let copy = cell.lock();
            (
                copy.board.clone(),
                marked(&copy.log),
                copy.own.can_undo(&whose),
                copy.own.can_redo(&whose),
            )
        }
        Target::Live(cell) => {
            let live = cell.lock();
            (
                live.board.clone(),
                marked(&live.log),
                live.history.can_undo_own(Actor::User),
                live.history.can_redo_own(Actor::User),
            )
        }
    };
    let page = PageRef::resolve_or_first(asked.page, &board)?;
    let number = board.page_position(page).map_or(1, |i| i + 1);
    let facts = facts(&board, target, number, undo, redo);
    let changed_since = asked.revision.filter(|r| *r != board.revision());
    // A view that holds this revision already (it looks for changes every few
    // seconds) is answered without drawing the page, and so is a page too large
    // to ride along with a tool's result.
    let large = asked.small && board.page(page).map_or(0, |p| p.objects.len()) > SMALL_PAGE;
    let current =
        asked.ids.is_none() && asked.known.is_some() && asked.since == Some(board.revision());
    if large || current {
        return Ok(ViewOutput {
            board: facts,
            scene: None,
            fragments: None,
            changed_since,
        });
    }
    let drawn = drawing::draw(&board, page);
    if let Some(ids) = asked.ids {
        let text = drawing::fragments(0, &drawn, ids);
        let message: Value = serde_json::from_str(&text)
            .map_err(|e| ToolError::Io(format!("the drawing could not be sent: {e}")))?;
        return Ok(ViewOutput {
            board: facts,
            scene: None,
            fragments: message.get("items").cloned(),
            changed_since,
        });
    }
    let known = asked
        .known
        .into_iter()
        .flatten()
        .map(|(id, h)| (id.as_str(), h.as_str()));
    let mut shown = Shown::from_known(known, drawn.order.len() <= WHOLE_PAGE);
    let agent = agent
        .into_iter()
        .filter(|id| drawn.items.contains_key(id.as_str()))
        .collect();
    let scene = shown
        .diff(number, &drawn, asked.known.is_none(), agent)
        .map(|text| serde_json::from_str::<Value>(&text))
        .transpose()
        .map_err(|e| ToolError::Io(format!("the drawing could not be sent: {e}")))?;
    Ok(ViewOutput {
        board: facts,
        scene,
        fragments: None,
        changed_since,
    })
}

/// The ids an agent changed at `revision`, or after `since`: the chat view marks them.
fn marked(log: &ChangeLog, revision: Option<u64>, since: Option<u64>) -> Vec<String> {
    let mut ids: Vec<String> = log
        .iter()
        .filter(|c| c.by == Actor::Agent)
        .filter(|c| Some(c.revision) == revision || since.is_some_and(|s| c.revision > s))
        .filter(|c| c.object.is_some())
        .filter_map(|c| c.id.as_ref().map(|id| id.to_string()))
        .collect();
    ids.dedup();
    ids
}

fn facts(board: &Board, target: &Target, page: usize, undo: bool, redo: bool) -> BoardFacts {
    BoardFacts {
        title: board.title().to_string(),
        path: target.file().map(|p| p.display().to_string()),
        pages: board
            .pages()
            .iter()
            .enumerate()
            .map(|(i, p)| PageName {
                number: i + 1,
                name: p.name.clone(),
            })
            .collect(),
        page,
        revision: board.revision(),
        undo,
        redo,
    }
}

/// A page reference as a tool argument again.
fn page_value(page: &PageRef) -> Value {
    match page {
        PageRef::Number(n) => Value::from(*n),
        PageRef::Name(name) => Value::String(name.clone()),
    }
}

/// Whether a window may make this call; a refusal names the argument at fault:
/// the tool, or one of its arguments.
fn window_check(tool: &str, args: &Map<String, Value>) -> Result<(), ToolError> {
    crate::window_calls::check(tool, &Value::Object(args.clone())).map_err(|refusal| {
        let at = if crate::window_calls::allowed(tool) {
            "args"
        } else {
            "tool"
        };
        ToolError::args(format!("'{at}': {refusal}"))
    })
}

/// An argument error of the forwarded call, named as one of `args`.
fn in_args(e: ToolError) -> ToolError {
    match e {
        ToolError::Arguments(m) => ToolError::Arguments(format!("'args': {m}")),
        other => other,
    }
}
