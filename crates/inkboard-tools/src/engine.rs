//! The engine: runs a tool call on its board. Edit tools run inside one
//! transaction on the board file named by `path`: the file is locked, brought up to
//! date, changed in memory, and written once, atomically, only when something
//! changed. If another program rewrote the file between our read and our write, the
//! call is run again on the new content (the lock keeps other inkboard processes
//! out; this covers everyone else).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use inkboard_core::echo::{echo, echo_path};
use inkboard_core::{Board, Transaction};
use inkboard_format::{file, FormatError};
use serde_json::{Map, Value};

use crate::args::PageRef;
use crate::catalog::{find_tool, Run, ToolDef};
use crate::control::Control;
use crate::discovery::{find_app, other_app};
use crate::live::{is_live_call, Caller, Forward, Host, LiveCell, PATH_ARGS};
use crate::stored::{Keeper, StoredCell};
use crate::tool::Cx;
use crate::tracking::{Tracked, Tracker};
use crate::ToolError;

/// What a tool answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Structured JSON (sent as structured content and as text).
    Json(Value),
    /// A picture (PNG), a short text about it, and the same facts as JSON
    /// (sent as structured content, which the tool's output schema describes).
    Image {
        png: Vec<u8>,
        text: String,
        data: Value,
    },
}

/// Runs tool calls. One engine serves a whole process; it is `Sync`, and calls on
/// one board file are serialized.
///
/// An engine works in file mode (every call names its board file) unless it is
/// given a [`Host`] (it runs inside the application, and calls without a file edit
/// the boards on screen) or a [`Forward`] (calls for the running application are
/// sent there). See [`crate::live`].
#[derive(Default)]
pub struct Engine {
    tracker: Mutex<Tracker>,
    host: Option<Arc<dyn Host>>,
    forward: Option<Box<dyn Forward>>,
    /// Server mode: the store's boards, for one caller (see [`crate::stored`]).
    keeper: Option<Arc<dyn Keeper>>,
}

/// The board a call acts on.
pub(crate) enum Target {
    /// A board file, read and written by this process.
    File(PathBuf),
    /// A board open in the application this engine runs in.
    Live(Arc<LiveCell>),
    /// A board kept in the server's store (server mode).
    Stored(Arc<StoredCell>),
}

impl Target {
    /// The board's file: the one named, or the live board's (none for a new board
    /// not yet saved).
    pub(crate) fn file(&self) -> Option<PathBuf> {
        match self {
            Target::File(path) => Some(path.clone()),
            Target::Live(cell) => cell.lock().path.clone(),
            Target::Stored(_) => None,
        }
    }
}

/// How many times a call is run again when the file changed under it.
const ATTEMPTS: usize = 3;

impl Engine {
    /// An engine in file mode only.
    pub fn new() -> Self {
        Self::default()
    }

    /// An engine that sends calls meant for the running application there.
    pub fn forwarding(forward: Box<dyn Forward>) -> Self {
        Engine {
            forward: Some(forward),
            ..Self::default()
        }
    }

    /// The engine of the application itself, whose live boards `host` keeps.
    pub fn hosted(host: Arc<dyn Host>) -> Self {
        Engine {
            host: Some(host),
            ..Self::default()
        }
    }

    /// An engine in server mode: every board is the store's, as `keeper` lets
    /// its one caller see them, and the catalogue is [`crate::server_catalog`].
    pub fn stored(keeper: Arc<dyn Keeper>) -> Self {
        Engine {
            keeper: Some(keeper),
            ..Self::default()
        }
    }

    /// The store of server mode, if this engine works on one.
    pub(crate) fn keeper(&self) -> Option<&Arc<dyn Keeper>> {
        self.keeper.as_ref()
    }

    /// Runs the tool `name` with `args` (a JSON object, or null for none) as this
    /// process's agent.
    pub fn call(&self, name: &str, args: Value) -> Result<Reply, ToolError> {
        self.call_as(name, args, &Caller::default())
    }

    /// Runs the tool `name` with `args` on behalf of `caller`.
    ///
    /// A panic in the call (a bug) is answered as [`ToolError::Bug`] instead of
    /// unwinding into the caller, so one bad call never takes down the process
    /// that serves all of them.
    pub fn call_as(&self, name: &str, args: Value, caller: &Caller) -> Result<Reply, ToolError> {
        contained(name, || {
            if let Some(host) = &self.host {
                host.before_call(name, caller);
            }
            self.run_call(name, args, caller)
        })
    }

    fn run_call(&self, name: &str, args: Value, caller: &Caller) -> Result<Reply, ToolError> {
        // The chat view's tools exist only for the chat view (`Caller::chat`): to
        // anyone else they are unknown, in the same words as any unknown tool,
        // before their arguments are read (whose errors would tell otherwise).
        let app_only = crate::catalog::chat_catalog()
            .iter()
            .any(|t| t.name == name);
        if app_only && !caller.chat {
            return Err(ToolError::UnknownTool(name.to_string()));
        }
        let (def, mut args) = match &self.keeper {
            Some(_) => crate::stored::parse_call(name, args)?,
            None => parse_call(name, args)?,
        };
        if let Some(reply) = self.forwarded(name, &mut args, caller)? {
            return Ok(reply);
        }
        match def.run {
            Run::Board(run) => run(self, caller, Value::Object(args)),
            Run::Edit(run) => {
                let (path, page, args) = split_edit_args(def, args)?;
                let target = self.target(path.as_deref(), caller)?;
                let control = &caller.control;
                control.stage(0, 2, || format!("{name}: working"))?;
                let out = self.edit(&target, caller, |tx| {
                    let page = PageRef::resolve_or_first(page.as_ref(), tx.board())?;
                    let out = run(&mut Cx { tx, page, control }, args.clone())?;
                    control.stage(1, 2, || format!("{name}: saving"))?;
                    Ok(out)
                })?;
                control.stage(2, 2, || format!("{name}: done"))?;
                Ok(Reply::Json(out))
            }
        }
    }

    /// Runs the edit tool `name` on a draft of `board` and gives the changed board
    /// to `f`; the draft is then thrown away. The application uses it to show where
    /// connectors go while a shape is dragged, before anything is committed.
    pub fn dry_run<T>(
        &self,
        board: &mut Board,
        name: &str,
        args: Value,
        f: impl FnOnce(&Board) -> T,
    ) -> Result<T, ToolError> {
        contained(name, || {
            let (def, args) = parse_call(name, args)?;
            let Run::Edit(run) = def.run else {
                return Err(ToolError::NotInBatch(def.name));
            };
            // The board is given: a path in the arguments has no say.
            let (_, page, args) = split_edit_args(def, args)?;
            let mut tx = Transaction::begin(board);
            let page = PageRef::resolve_or_first(page.as_ref(), tx.board())?;
            let control = &Control::default();
            run(
                &mut Cx {
                    tx: &mut tx,
                    page,
                    control,
                },
                args,
            )?;
            Ok(f(tx.board()))
        })
    }

    /// Sends the call to the running application when it is meant for it (see
    /// [`crate::live`]); `None` when it runs here.
    fn forwarded(
        &self,
        name: &str,
        args: &mut Map<String, Value>,
        caller: &Caller,
    ) -> Result<Option<Reply>, ToolError> {
        let Some(forward) = &self.forward else {
            return Ok(None);
        };
        let path = match args.get("path") {
            Some(Value::String(p)) if !p.trim().is_empty() => {
                Some(file::follow_links(&absolute(Path::new(p))?))
            }
            _ => None,
        };
        let Some(app) = other_app() else {
            return Ok(None);
        };
        if !is_live_call(&app, path.as_deref()) {
            return Ok(None);
        }
        for key in PATH_ARGS {
            if let Some(Value::String(p)) = args.get(key) {
                if !p.trim().is_empty() {
                    let abs = absolute(Path::new(p))?;
                    args.insert(key.into(), Value::String(abs.display().to_string()));
                }
            }
        }
        let args = Value::Object(std::mem::take(args));
        forward.call(&app, name, args, caller).map(Some)
    }

    /// The board a call with `path` acts on (see [`Target`]).
    pub(crate) fn target(&self, path: Option<&str>, caller: &Caller) -> Result<Target, ToolError> {
        if let Some(keeper) = &self.keeper {
            return crate::stored::target(keeper, path);
        }
        let path = path.map(|p| file_path(p, "path")).transpose()?;
        if let Some(host) = &self.host {
            if let Some(cell) = host.board(path.as_deref(), caller) {
                return Ok(Target::Live(cell));
            }
        }
        match path {
            Some(path) => Ok(Target::File(path)),
            None => Err(match find_app() {
                Some(app) if self.host.is_none() => ToolError::LiveUnavailable(app.pid),
                _ => ToolError::NoApplication,
            }),
        }
    }

    /// What the engine knows of the board files, locked. A panic while it was held
    /// (a bug in a call, contained by [`Engine::call_as`]) may have struck between a
    /// commit and its file write, leaving a board in memory that its file does not
    /// hold; so after one, every board is forgotten and read again from its file,
    /// which is what counts. Their change logs start afresh.
    fn tracker(&self) -> MutexGuard<'_, Tracker> {
        self.tracker.lock().unwrap_or_else(|poisoned| {
            self.tracker.clear_poison();
            let mut tracker = poisoned.into_inner();
            *tracker = Tracker::default();
            tracker
        })
    }

    /// The application this engine runs in, if it does.
    pub(crate) fn host(&self) -> Option<&Arc<dyn Host>> {
        self.host.as_ref()
    }

    /// Runs `f` in one transaction on `target`, as `caller`. On a file, the file is
    /// written once if anything changed, and `f` may run more than once (see the
    /// module docs), always on a fresh transaction. On a live board, the commit
    /// becomes one undo step and the application is told of it.
    pub(crate) fn edit<T>(
        &self,
        target: &Target,
        caller: &Caller,
        mut f: impl FnMut(&mut Transaction<'_>) -> Result<T, ToolError>,
    ) -> Result<T, ToolError> {
        let path = match target {
            Target::File(path) => path,
            Target::Live(cell) => {
                let mut live = cell.lock();
                let mut tx = Transaction::begin(&mut live.board);
                let out = f(&mut tx)?;
                // The last moment a cancel can take the call back whole.
                caller.control.check()?;
                if let Some(commit) = tx.commit(caller.actor)? {
                    caller.committed.note(commit.revision);
                    live.record(&commit);
                    drop(live);
                    if let Some(host) = &self.host {
                        host.committed(cell, &commit);
                    }
                }
                return Ok(out);
            }
            Target::Stored(cell) => {
                let keeper = self.keeper.as_deref().ok_or_else(crate::stored::no_store)?;
                return crate::stored::edit(keeper, cell, caller, f);
            }
        };
        must_exist(path)?;
        let lock = file::FileLock::acquire(path)?;
        for attempt in 1..=ATTEMPTS {
            if attempt > 1 {
                // The file changed on disk: another program's file may be in
                // place now, which the lock must cover before the call runs again.
                // Waited for without the tracker, as the lock is taken: other
                // calls of this process must not wait on another process.
                lock.follow()?;
            }
            let mut tracker = self.tracker();
            let tracked = tracker.sync(path)?;
            let mut tx = Transaction::begin(&mut tracked.board);
            let out = f(&mut tx)?;
            caller.control.check()?;
            let Some(commit) = tx.commit(caller.actor)? else {
                return Ok(out);
            };
            match tracked.save(path) {
                Ok(_) => {
                    tracked.log.record(&commit);
                    tracked.history.record(&commit);
                    caller.committed.note(commit.revision);
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

    /// Undoes (or, with `redo`, does again) the last step that `caller`'s actor
    /// made on `target` (`History::undo_own`): the person's undo in the chat
    /// view takes back the person's own steps, never an agent's, which stay as
    /// they are (refused, changing nothing, if a later step changed the same
    /// records). On a live board that is the application's history; on a file,
    /// the calls this process committed on it since it last changed on disk.
    /// The step is written as any edit is. Answers whether there was a step to
    /// take.
    pub(crate) fn undo(
        &self,
        target: &Target,
        caller: &Caller,
        redo: bool,
    ) -> Result<bool, ToolError> {
        let step = |history: &mut inkboard_core::History, board: &mut Board| {
            if redo {
                history.redo_own(board, caller.actor)
            } else {
                history.undo_own(board, caller.actor)
            }
        };
        let path = match target {
            Target::File(path) => path,
            Target::Live(cell) => {
                let mut live = cell.lock();
                let live_ref = &mut *live;
                let Some(commit) = step(&mut live_ref.history, &mut live_ref.board)? else {
                    return Ok(false);
                };
                caller.committed.note(commit.revision);
                live.log.record(&commit);
                drop(live);
                if let Some(host) = &self.host {
                    host.committed(cell, &commit);
                }
                return Ok(true);
            }
            Target::Stored(cell) => {
                let keeper = self.keeper.as_deref().ok_or_else(crate::stored::no_store)?;
                return crate::stored::undo(keeper, cell, caller, redo)
                    .map(|done| done != crate::stored::Undone::Nothing);
            }
        };
        must_exist(path)?;
        let _lock = file::FileLock::acquire(path)?;
        let mut tracker = self.tracker();
        let tracked = tracker.sync(path)?;
        // Kept to put back if the write fails: the step then did not happen.
        let before = tracked.history.clone();
        let Some(commit) = step(&mut tracked.history, &mut tracked.board)? else {
            return Ok(false);
        };
        match tracked.save(path) {
            Ok(_) => {
                tracked.log.record(&commit);
                caller.committed.note(commit.revision);
                Ok(true)
            }
            Err(e) => {
                tracked.board.revert(&commit)?;
                tracked.history = before;
                Err(e.into())
            }
        }
    }

    /// Gives `f` the board of `target` as it is now.
    pub(crate) fn read<T>(
        &self,
        target: &Target,
        f: impl FnOnce(&Board) -> Result<T, ToolError>,
    ) -> Result<T, ToolError> {
        match target {
            Target::File(path) => self.tracked(path, |t| f(&t.board)),
            Target::Live(cell) => f(&cell.lock().board),
            Target::Stored(cell) => {
                let keeper = self.keeper.as_deref().ok_or_else(crate::stored::no_store)?;
                crate::stored::read(keeper, cell, f)
            }
        }
    }

    /// Gives `f` the tracked state of the board file at `path`, brought up to date.
    pub(crate) fn tracked<T>(
        &self,
        path: &Path,
        f: impl FnOnce(&mut Tracked) -> Result<T, ToolError>,
    ) -> Result<T, ToolError> {
        must_exist(path)?;
        let _lock = file::FileLock::acquire(path)?;
        let mut tracker = self.tracker();
        f(tracker.sync(path)?)
    }

    /// Starts tracking a file this process has just written whole.
    pub(crate) fn adopt(
        &self,
        path: &Path,
        board: inkboard_core::Board,
        saved: inkboard_format::Saved,
    ) {
        let mut tracker = self.tracker();
        tracker.adopt(path, board, saved);
    }
}

/// Runs `f`, answering a panic in it as [`ToolError::Bug`] (see
/// [`Engine::call_as`]). What the panic interrupted is left consistent by the
/// unwinding itself: transactions roll back when dropped, file locks are released,
/// and the other locks are taken over by their next user (see [`Engine::tracker`]
/// and [`crate::LiveCell::lock`]).
pub(crate) fn contained<T>(
    tool: &str,
    f: impl FnOnce() -> Result<T, ToolError>,
) -> Result<T, ToolError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let detail = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        let detail = detail.lines().next().unwrap_or_default();
        Err(ToolError::Bug {
            tool: echo(tool).into_owned(),
            detail: echo(detail).into_owned(),
        })
    })
}

/// The tool named `name` and its arguments as an object, checked for arguments it
/// does not take.
pub(crate) fn parse_call(
    name: &str,
    args: Value,
) -> Result<(&'static ToolDef, Map<String, Value>), ToolError> {
    let def = find_tool(name).ok_or_else(|| ToolError::UnknownTool(name.to_string()))?;
    let args = match args {
        Value::Object(map) => map,
        Value::Null => Map::new(),
        other => {
            return Err(ToolError::args(format!(
                "{name}: arguments must be a JSON object, got {}",
                kind_of(&other)
            )))
        }
    };
    crate::args::check_nesting(name, &args)?;
    def.check_keys(&args)?;
    Ok((def, args))
}

/// What kind of JSON value `v` is, in words.
fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// An edit tool's `path` and `page`, taken out of its arguments (the tool itself
/// never sees them), and the rest.
fn split_edit_args(
    def: &ToolDef,
    mut args: Map<String, Value>,
) -> Result<(Option<String>, Option<PageRef>, Value), ToolError> {
    let path: Option<String> = take(&mut args, "path", def.name)?;
    let page: Option<PageRef> = take(&mut args, "page", def.name)?;
    if def.page_required && page.is_none() {
        return Err(ToolError::args(format!(
            "{}: 'page' is required: give a page number (from 1) or name",
            def.name
        )));
    }
    Ok((path, page, Value::Object(args)))
}

/// Removes and parses one argument.
fn take<T: serde::de::DeserializeOwned>(
    args: &mut Map<String, Value>,
    key: &str,
    tool: &str,
) -> Result<Option<T>, ToolError> {
    match args.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => serde_json::from_value(v).map(Some).map_err(|e| {
            let e = crate::args::plain_words(&e.to_string());
            ToolError::args(format!("'{key}' of {tool}: {e}"))
        }),
    }
}

/// A board file's path from the argument `arg` (`path`, `as`): checked as
/// [`path_arg`] does, followed if it is a symbolic link, checked for a board
/// extension, and refused if it is a folder.
///
/// A link is followed here, once, so that everything after works on the file it
/// points to: its lock, the engine's memory of it, the application's open boards,
/// and the save, which replaces that file and leaves the link as it was (a dangling
/// link's file is created). See [`file::follow_links`].
pub(crate) fn file_path(path: &str, arg: &str) -> Result<PathBuf, ToolError> {
    if path.trim().is_empty() {
        return Err(ToolError::args(format!(
            "'{arg}' is empty: give the board file's path"
        )));
    }
    let kind = |path: &Path| {
        file::FileKind::from_path(path).map_err(|e| ToolError::args(format!("'{arg}': {e}")))
    };
    // The name as given first, so the message quotes it as given.
    kind(Path::new(path))?;
    let path = file::follow_links(&path_arg(path, arg)?);
    kind(&path)?;
    if path.is_dir() {
        return Err(ToolError::args(format!(
            "'{arg}': {} is a folder, not a board file: give the path of a file in it",
            echo_path(&path)
        )));
    }
    Ok(path)
}

/// A file path from the argument `arg`, made absolute; refused when empty or when
/// it holds a NUL character, which no file name can (the system would refuse it
/// later, in words about whatever it was doing then).
pub(crate) fn path_arg(path: &str, arg: &str) -> Result<PathBuf, ToolError> {
    if path.trim().is_empty() {
        return Err(ToolError::args(format!(
            "'{arg}' is empty: give a file's path"
        )));
    }
    if path.contains('\0') {
        return Err(ToolError::args(format!(
            "'{arg}' holds a NUL character, which no file name can: give the file's path"
        )));
    }
    absolute(Path::new(path))
}

/// Refuses a board file that is not there before its lock is taken, so that a
/// mistyped path leaves no lock file behind.
/// Any other reason the system gives (a loop of links, a folder it may not
/// enter) is that reason, not "does not exist".
fn must_exist(path: &Path) -> Result<(), ToolError> {
    match std::fs::metadata(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(FormatError::NotFound {
            path: path.to_path_buf(),
        }
        .into()),
        Err(e) => Err(FormatError::Io {
            action: "read",
            path: path.to_path_buf(),
            source: e,
        }
        .into()),
    }
}

/// Refuses a new file's path whose folder does not exist; `arg` names the argument.
pub(crate) fn folder_must_exist(path: &Path, arg: &str) -> Result<(), ToolError> {
    match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() && !folder.is_dir() => {
            Err(ToolError::args(format!(
                "'{arg}': the folder {} does not exist: create it first, or choose another path",
                echo_path(folder)
            )))
        }
        _ => Ok(()),
    }
}

/// `path` made absolute without requiring it to exist (so new files work).
pub(crate) fn absolute(path: &Path) -> Result<PathBuf, ToolError> {
    std::path::absolute(path)
        .map_err(|e| ToolError::Io(format!("cannot use path {}: {e}", echo_path(path))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A panic while the tracker is held, between a commit and its file write (as
    /// a bug there would strike), leaves a board in memory that the file does not
    /// hold. The next call must answer from the file, not from that board: the
    /// poisoned tracker is emptied and the file read again.
    #[test]
    fn after_a_panic_in_the_tracker_boards_are_read_again_from_their_files() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("b.inkboard");
        let arg = path.display().to_string();
        let engine = Engine::new();
        engine
            .call("create_board", json!({"path": arg}))
            .expect("create");
        engine
            .call("add_shape", json!({"path": arg, "text": "saved"}))
            .expect("add");
        let on_disk = std::fs::read(&path).expect("file");
        let crashed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut tracker = engine.tracker.lock().expect("not poisoned yet");
            let tracked = tracker.sync(&path).expect("tracked");
            let mut tx = Transaction::begin(&mut tracked.board);
            let page = tx.board().pages()[0].id;
            tx.rename_page(page, "never saved").expect("rename");
            tx.commit(inkboard_core::Actor::Agent).expect("commit");
            panic!("a bug before the write");
        }));
        assert!(crashed.is_err());
        assert_eq!(std::fs::read(&path).expect("file"), on_disk);
        let Ok(Reply::Json(read)) = engine.call("read_board", json!({"path": arg})) else {
            panic!("read_board answers");
        };
        assert_eq!(read["pages"][0]["name"], "Page 1", "{read}");
        // And the next edit writes the file's board plus its own change only.
        engine
            .call("add_shape", json!({"path": arg, "text": "next"}))
            .expect("add after");
        let text = std::fs::read_to_string(&path).expect("file");
        assert!(!text.contains("never saved"), "{text}");
        assert!(text.contains("saved") && text.contains("next"), "{text}");
    }
}
