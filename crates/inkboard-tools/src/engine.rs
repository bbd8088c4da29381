//! The engine: runs a tool call on its board. Edit tools run inside one
//! transaction on the board file named by `path`: the file is locked, brought up to
//! date, changed in memory, and written once, atomically, only when something
//! changed. If another program rewrote the file between our read and our write, the
//! call is run again on the new content (the lock keeps other inkboard processes
//! out; this covers everyone else).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use inkboard_core::{Actor, Transaction};
use inkboard_format::{file, FormatError};
use serde_json::{Map, Value};

use crate::args::PageRef;
use crate::catalog::{find_tool, Run};
use crate::discovery::find_app;
use crate::tool::Cx;
use crate::tracking::{Tracked, Tracker};
use crate::ToolError;

/// What a tool answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Structured JSON (sent as structured content and as text).
    Json(Value),
    /// A picture (PNG) and a short text about it.
    Image { png: Vec<u8>, text: String },
}

/// Runs tool calls. One engine serves a whole process; it is `Sync`, and calls on
/// it are serialized.
#[derive(Default)]
pub struct Engine {
    tracker: Mutex<Tracker>,
}

/// How many times a call is run again when the file changed under it.
const ATTEMPTS: usize = 3;

impl Engine {
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs the tool `name` with `args` (a JSON object, or null for none).
    pub fn call(&self, name: &str, args: Value) -> Result<Reply, ToolError> {
        let def = find_tool(name).ok_or_else(|| ToolError::UnknownTool(name.to_string()))?;
        let mut args = match args {
            Value::Object(map) => map,
            Value::Null => Map::new(),
            other => {
                return Err(ToolError::args(format!(
                    "{name}: arguments must be a JSON object, got {other}"
                )))
            }
        };
        def.check_keys(&args)?;
        match def.run {
            Run::Board(run) => run(self, Value::Object(args)),
            Run::Edit(run) => {
                let path: Option<String> = take(&mut args, "path", name)?;
                let page: Option<PageRef> = take(&mut args, "page", name)?;
                if def.page_required && page.is_none() {
                    return Err(ToolError::args(format!(
                        "{name}: 'page' is required: give a page number (from 1) or name"
                    )));
                }
                let args = Value::Object(args);
                self.edit(path.as_deref(), |tx| {
                    let page = PageRef::resolve_or_first(page.as_ref(), tx.board())?;
                    run(&mut Cx { tx, page }, args.clone())
                })
                .map(Reply::Json)
            }
        }
    }

    /// Runs `f` in one transaction on the board named by `path` and writes the file
    /// once if anything changed. `f` may run more than once (see the module docs),
    /// always on a fresh transaction.
    pub(crate) fn edit<T>(
        &self,
        path: Option<&str>,
        mut f: impl FnMut(&mut Transaction<'_>) -> Result<T, ToolError>,
    ) -> Result<T, ToolError> {
        let path = board_path(path)?;
        must_exist(&path)?;
        let _lock = file::FileLock::acquire(&path)?;
        let mut tracker = self.tracker.lock().unwrap_or_else(|e| e.into_inner());
        for attempt in 1..=ATTEMPTS {
            let tracked = tracker.sync(&path)?;
            let mut tx = Transaction::begin(&mut tracked.board);
            let out = f(&mut tx)?;
            let Some(commit) = tx.commit(Actor::Agent)? else {
                return Ok(out);
            };
            match tracked.save(&path) {
                Ok(_) => {
                    tracked.record(&commit);
                    return Ok(out);
                }
                Err(e) => {
                    tracked.board.revert(&commit)?;
                    if !matches!(e, FormatError::ChangedOnDisk { .. }) || attempt == ATTEMPTS {
                        return Err(e.into());
                    }
                }
            }
        }
        unreachable!("the last attempt always returns")
    }

    /// Gives `f` the tracked state of the board file at `path`, brought up to date.
    pub(crate) fn tracked<T>(
        &self,
        path: &Path,
        f: impl FnOnce(&mut Tracked) -> Result<T, ToolError>,
    ) -> Result<T, ToolError> {
        must_exist(path)?;
        let _lock = file::FileLock::acquire(path)?;
        let mut tracker = self.tracker.lock().unwrap_or_else(|e| e.into_inner());
        f(tracker.sync(path)?)
    }

    /// Starts tracking a file this process has just written whole.
    pub(crate) fn adopt(
        &self,
        path: &Path,
        board: inkboard_core::Board,
        saved: inkboard_format::Saved,
    ) {
        let mut tracker = self.tracker.lock().unwrap_or_else(|e| e.into_inner());
        tracker.adopt(path, board, saved);
    }
}

/// Removes and parses one argument.
fn take<T: serde::de::DeserializeOwned>(
    args: &mut Map<String, Value>,
    key: &str,
    tool: &str,
) -> Result<Option<T>, ToolError> {
    match args.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => serde_json::from_value(v)
            .map(Some)
            .map_err(|e| ToolError::args(format!("'{key}' of {tool}: {e}"))),
    }
}

/// The board file a call acts on: `path` made absolute, or, without it, the board
/// open in the application.
pub(crate) fn board_path(path: Option<&str>) -> Result<PathBuf, ToolError> {
    let Some(path) = path else {
        return Err(match find_app() {
            Some(app) => ToolError::LiveUnavailable(app.pid),
            None => ToolError::NoApplication,
        });
    };
    if path.trim().is_empty() {
        return Err(ToolError::args(
            "'path' is empty: give the board file's path",
        ));
    }
    file::FileKind::from_path(Path::new(path))?;
    absolute(Path::new(path))
}

/// Refuses a board file that is not there before its lock is taken, so that a
/// mistyped path leaves no lock file behind.
fn must_exist(path: &Path) -> Result<(), ToolError> {
    if path.exists() {
        return Ok(());
    }
    Err(FormatError::NotFound {
        path: path.to_path_buf(),
    }
    .into())
}

/// Refuses a new file's path whose folder does not exist; `arg` names the argument.
pub(crate) fn folder_must_exist(path: &Path, arg: &str) -> Result<(), ToolError> {
    match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() && !folder.is_dir() => {
            Err(ToolError::args(format!(
                "'{arg}': the folder {} does not exist: create it first, or choose another path",
                folder.display()
            )))
        }
        _ => Ok(()),
    }
}

/// `path` made absolute without requiring it to exist (so new files work).
pub(crate) fn absolute(path: &Path) -> Result<PathBuf, ToolError> {
    std::path::absolute(path)
        .map_err(|e| ToolError::Io(format!("cannot use path {}: {e}", path.display())))
}
