//! Live mode: boards held open by the application, on screen, that tool calls edit
//! in place instead of going through the file.
//!
//! Two sides meet here. Inside `inkboard open`, the engine is given a [`Host`]: calls
//! without `path`, and calls whose `path` is a board the application has open, run on
//! that [`LiveBoard`] (one transaction each, recorded in its [`History`] so the person
//! can undo it), and the host is told of every commit so it can redraw the windows and
//! save the file. In every other process (`inkboard mcp`, the CLI) the engine may be
//! given a [`Forward`]: such calls are sent whole to the running application, which
//! runs them on its engine, so there is one place where a live board changes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use base64::Engine as _;
use inkboard_core::{Actor, Board, Commit, History};
use serde_json::{json, Value};

use crate::control::Control;
use crate::discovery::AppInfo;
use crate::tracking::ChangeLog;
use crate::{Reply, ToolError};

/// The title of a new board opened without a file.
pub const UNTITLED: &str = "Untitled";

/// Who makes a call, and on whose behalf it is answered.
#[derive(Clone, Debug)]
pub struct Caller {
    /// Recorded as the author of the changes (`by` in `board_changes`).
    pub actor: Actor,
    /// Names the client, so that `board_changes` without `since` answers each
    /// client from where it last asked (one MCP server, one browser window).
    pub client: String,
    /// The live board this client looks at (a browser window's board); `None`
    /// means the one on screen.
    pub board: Option<u32>,
    /// This call's control line: cancellation and progress.
    pub control: Control,
    /// The revision the call committed, if it committed one: the MCP server
    /// names it in the result of a tool linked to the MCP App view, which then
    /// draws the board at that revision (or says that it has changed since).
    pub committed: CommitSlot,
    /// The call comes from the MCP App view: its client declared the MCP Apps
    /// extension (`io.modelcontextprotocol/ui`), whose hosts keep the app-only
    /// tools from the model. Only then do those tools ([`crate::app_catalog`])
    /// answer at all, and only their edits count as the person's; to anyone
    /// else they do not exist. Set by the MCP server for such a session, and
    /// carried along when the call is forwarded.
    pub view: bool,
}

/// Where the engine notes the revision a call committed (see [`Caller::committed`]).
/// Clones share the slot.
#[derive(Clone, Debug, Default)]
pub struct CommitSlot(Arc<std::sync::atomic::AtomicU64>);

impl CommitSlot {
    /// Notes that the call committed `revision`.
    pub fn note(&self, revision: u64) {
        self.0.store(revision, std::sync::atomic::Ordering::Relaxed);
    }

    /// The last revision noted, if any (revisions start from 1).
    pub fn revision(&self) -> Option<u64> {
        match self.0.load(std::sync::atomic::Ordering::Relaxed) {
            0 => None,
            r => Some(r),
        }
    }
}

impl Caller {
    /// An agent (an MCP client, the CLI) known by `client`.
    pub fn agent(client: impl Into<String>) -> Self {
        Caller {
            actor: Actor::Agent,
            client: client.into(),
            board: None,
            control: Control::default(),
            committed: CommitSlot::default(),
            view: false,
        }
    }

    /// This caller as the MCP App view of a client that declared the extension
    /// (see [`Caller::view`]).
    pub fn in_view(self) -> Self {
        Caller { view: true, ..self }
    }

    /// The same caller acting for the person (an edit made in a view of the board).
    pub fn as_person(&self) -> Self {
        Caller {
            actor: Actor::User,
            ..self.clone()
        }
    }
}

impl Default for Caller {
    fn default() -> Self {
        Caller::agent("local")
    }
}

/// A board open in the application: the board, its undo history, the changes
/// `board_changes` answers from, and where it is saved.
pub struct LiveBoard {
    pub board: Board,
    pub history: History,
    pub log: ChangeLog,
    /// The file it is saved to; `None` for a new board not yet saved.
    pub path: Option<PathBuf>,
    /// Per client, the last revision `board_changes` returned.
    pub(crate) last_returned: HashMap<String, u64>,
}

impl LiveBoard {
    pub fn new(board: Board, path: Option<PathBuf>) -> Self {
        LiveBoard {
            log: ChangeLog::new(board.revision()),
            history: History::new(History::DEFAULT_LIMIT),
            last_returned: HashMap::new(),
            board,
            path,
        }
    }

    /// Records a commit made on this board: one undo step, and its changes logged.
    pub fn record(&mut self, commit: &Commit) {
        self.history.record(commit);
        self.log.record(commit);
    }
}

/// A live board as the application shares it between its windows and the engine.
pub struct LiveCell {
    /// The board's number in this application (stable while it is open).
    pub key: u32,
    state: Mutex<LiveBoard>,
}

impl LiveCell {
    pub fn new(key: u32, board: LiveBoard) -> Arc<Self> {
        Arc::new(LiveCell {
            key,
            state: Mutex::new(board),
        })
    }

    /// The board, locked. A panic while it was held leaves the board as the last
    /// transaction left it (transactions roll back on drop), so the lock is taken
    /// over rather than poisoned for good.
    pub fn lock(&self) -> MutexGuard<'_, LiveBoard> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The board, locked, unless someone holds it now (a call at work on it).
    pub fn try_lock(&self) -> Option<MutexGuard<'_, LiveBoard>> {
        match self.state.try_lock() {
            Ok(live) => Some(live),
            Err(std::sync::TryLockError::Poisoned(e)) => Some(e.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => None,
        }
    }
}

/// What the engine needs of the application it runs in.
pub trait Host: Send + Sync {
    /// The live board a call acts on: for `path` `None`, the board of `caller`'s
    /// window or else the one on screen; for a path, the board open from that file
    /// (already absolute), if any.
    fn board(&self, path: Option<&Path>, caller: &Caller) -> Option<Arc<LiveCell>>;

    /// A tool call committed `commit` on `cell` (already recorded on the board):
    /// redraw the windows, save the file.
    fn committed(&self, cell: &Arc<LiveCell>, commit: &Commit);

    /// Saves a live board to its file now (`save_board` without `as`); the size
    /// written.
    fn save(&self, cell: &Arc<LiveCell>) -> Result<usize, ToolError>;

    /// Saves a board that has no file yet to `path` (absolute, checked), which it
    /// is kept in from then on; the size written. An existing file is an error
    /// unless `overwrite`.
    fn save_as(
        &self,
        cell: &Arc<LiveCell>,
        path: &Path,
        overwrite: bool,
    ) -> Result<usize, ToolError>;

    /// Opens a new, unsaved board (`create_board` without `path`).
    fn create(&self, board: Board) -> Arc<LiveCell>;

    /// A call of `tool` is about to run. Any call may be the one that brings the
    /// process down (a bug, a file that exhausts memory), so the application
    /// keeps first what it could not get back: the boards that have no file yet.
    fn before_call(&self, _tool: &str, _caller: &Caller) {}
}

/// Sends a whole tool call to the running application (in processes that are not
/// the application).
pub trait Forward: Send + Sync {
    /// Runs `tool` with `args` (paths in them already absolute) in the application
    /// described by `app`, for `caller` (its client's name, and whether it is
    /// the MCP App view: [`Caller::view`]).
    fn call(
        &self,
        app: &AppInfo,
        tool: &str,
        args: Value,
        caller: &Caller,
    ) -> Result<Reply, ToolError>;
}

/// The arguments that name files: made absolute before a call is forwarded, since
/// the application's working folder is not the caller's.
pub const PATH_ARGS: [&str; 4] = ["path", "output", "as", "source"];

/// Whether a call belongs to the running application `app`: it names no board, or
/// it names a board the application has open.
pub(crate) fn is_live_call(app: &AppInfo, path: Option<&Path>) -> bool {
    match path {
        None => true,
        Some(path) => app.paths.iter().any(|p| p == path),
    }
}

/// A forwarded call's answer as it travels from the application back to the caller
/// (`POST /api/call`): `{"ok": true, "json": ...}`, `{"ok": true, "png": base64,
/// "text": ...}`, or `{"ok": false, "error": ..., "data": ...}`. [`reply_from_wire`]
/// reads it back; the two are the only places that know this shape.
pub fn reply_to_wire(reply: &Result<Reply, ToolError>) -> Value {
    match reply {
        Ok(Reply::Json(value)) => json!({"ok": true, "json": value}),
        Ok(Reply::Image { png, text, data }) => json!({
            "ok": true,
            "png": base64::engine::general_purpose::STANDARD.encode(png),
            "text": text,
            "json": data,
        }),
        Err(e) => json!({"ok": false, "error": e.to_string(), "data": e.data()}),
    }
}

/// The answer [`reply_to_wire`] wrote. A failure keeps its message and structured
/// data (a failed batch's `{index, error, results}`).
pub fn reply_from_wire(answer: Value) -> Result<Reply, ToolError> {
    if answer["ok"] != Value::Bool(true) {
        let message = answer["error"]
            .as_str()
            .unwrap_or("the application could not run the call")
            .to_string();
        let data = answer.get("data").filter(|d| !d.is_null()).cloned();
        return Err(ToolError::Remote { message, data });
    }
    if let Some(png) = answer["png"].as_str() {
        let png = base64::engine::general_purpose::STANDARD
            .decode(png)
            .map_err(|e| ToolError::Io(format!("the application's picture is damaged: {e}")))?;
        let text = answer["text"].as_str().unwrap_or_default().to_string();
        return Ok(Reply::Image {
            png,
            text,
            data: answer["json"].clone(),
        });
    }
    Ok(Reply::Json(answer["json"].clone()))
}
