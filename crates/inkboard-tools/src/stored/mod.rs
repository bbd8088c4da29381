//! Server mode: boards kept in a store (`inkboard serve`), edited by the same tools,
//! transactions and `batch` as files.
//!
//! A stored board is much like a file. The process keeps a copy in memory (a
//! [`StoredCell`]); a call brings it up to the store's revision (the changes after
//! it, replayed), runs its one transaction, and commits the result to the store
//! against the revision it was made on. When another process committed first
//! ([`Refused::Moved`]), the commit is reverted, the copy caught up, and the call
//! run again, up to [`ATTEMPTS`] times; the store's check inside its own database
//! transaction is what makes two processes never both write revision N+1.
//!
//! This crate knows no SQL and no person: the [`Keeper`] is the seam, built for
//! one caller by the server (`inkboard-server`), and it answers "not found" for a
//! board the caller has no role on, as for a missing one. In server mode the
//! tools' `path` names a board's id; the catalogue shown (`catalog.rs`'s
//! [`server_catalog`](crate::server_catalog)) says `board`, and the engine renames
//! it before a tool sees it.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

use inkboard_core::{Board, Commit, Transaction};

use serde_json::{Map, Value};

use crate::catalog::ToolDef;
use crate::engine::Target;
use crate::live::Caller;
use crate::tools::changes::BoardChangesOutput;
use crate::tracking::ChangeLog;
use crate::{Engine, ToolError};

mod own;

pub use own::{OwnHistory, Undone};

/// How many times a call runs again when another process committed first.
pub const ATTEMPTS: usize = 8;

/// This process's copy of a stored board: the board at the revision it knows,
/// the changes `board_changes` answers from, who made each of them, and each
/// person's own undo history.
pub struct StoredBoard {
    pub board: Board,
    pub log: ChangeLog,
    /// Each person's steps, theirs and their agent's, to undo as their own.
    pub own: OwnHistory,
    /// Who made each revision this copy has seen ("Ann", "Ann's agent").
    pub authors: BTreeMap<u64, String>,
    /// Per client, the last revision `board_changes` returned.
    pub(crate) last_returned: HashMap<String, u64>,
    /// A panic struck while the copy was held: it may be ahead of the store, and
    /// is loaded again whole before its next use.
    pub stale: bool,
}

impl StoredBoard {
    /// A copy of `board`, as loaded at its revision.
    pub fn new(board: Board) -> StoredBoard {
        StoredBoard {
            log: ChangeLog::new(board.revision()),
            own: OwnHistory::default(),
            authors: BTreeMap::new(),
            last_returned: HashMap::new(),
            stale: false,
            board,
        }
    }

    /// Records a change another process (or an earlier call) made, already
    /// applied to the board: logged with its author, and a step `whose` (the
    /// person, for their agent too) can undo as their own.
    pub fn record_theirs(&mut self, commit: &Commit, author: String, whose: &str) {
        self.log.record(commit);
        self.authors.insert(commit.revision, author);
        self.own.record(whose, commit);
    }
}

/// A stored board held by this process, shared by its calls and its editors.
pub struct StoredCell {
    /// The board's id in the store.
    pub id: String,
    state: Mutex<StoredBoard>,
}

impl StoredCell {
    pub fn new(id: String, board: StoredBoard) -> Arc<StoredCell> {
        Arc::new(StoredCell {
            id,
            state: Mutex::new(board),
        })
    }

    /// The copy, locked. A panic while it was held may have struck between a
    /// commit in memory and the store's, leaving the copy ahead of the store: the
    /// lock is taken over and the copy marked [`StoredBoard::stale`], for the
    /// keeper to load again.
    pub fn lock(&self) -> MutexGuard<'_, StoredBoard> {
        self.state.lock().unwrap_or_else(|e| {
            self.state.clear_poison();
            let mut copy = e.into_inner();
            copy.stale = true;
            copy
        })
    }
}

/// Why the store did not take a commit.
#[derive(Debug)]
pub enum Refused {
    /// Another process committed first: catch up and run the call again.
    Moved,
    /// Anything else (a viewer's write, a board deleted meanwhile, the database
    /// down): the call fails with it, nothing written.
    Failed(ToolError),
}

/// A board as `list_boards` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub id: String,
    pub title: String,
    /// "viewer", "editor" or "owner".
    pub role: String,
    pub revision: u64,
}

/// What the engine needs of the store, for one caller.
pub trait Keeper: Send + Sync {
    /// Names the person the caller is or acts for: their steps and their agent's
    /// are one undo history ([`OwnHistory`]).
    fn whose(&self) -> String;

    /// The board `id`, if the caller holds a role on it; else an error that says
    /// "not found", exactly as for a board that does not exist.
    fn board(&self, id: &str) -> Result<Arc<StoredCell>, ToolError>;

    /// Brings the copy up to the store's latest revision (the changes after its
    /// own replayed, each recorded with [`StoredBoard::record_theirs`]).
    fn catch_up(&self, cell: &StoredCell, copy: &mut StoredBoard) -> Result<(), ToolError>;

    /// Commits `commit`, just made on the copy (now at `commit.revision`), as
    /// the caller; records its author on the copy when it is taken.
    fn commit(
        &self,
        cell: &StoredCell,
        copy: &mut StoredBoard,
        commit: &Commit,
    ) -> Result<(), Refused>;

    /// Keeps a new board, owned by the caller; answers its id.
    fn create(&self, board: &Board) -> Result<String, ToolError>;

    /// The boards the caller holds a role on.
    fn list(&self) -> Result<Vec<Listed>, ToolError>;
}

/// The board a call with `board` (carried as `path`) acts on.
pub(crate) fn target(keeper: &Arc<dyn Keeper>, board: Option<&str>) -> Result<Target, ToolError> {
    match board.map(str::trim) {
        Some(id) if !id.is_empty() => keeper.board(id).map(Target::Stored),
        _ => Err(ToolError::args(
            "'board' is required: give a board's id (list_boards lists yours, create_board makes one)",
        )),
    }
}

/// Runs `f` in one transaction on the stored board and commits it (see the
/// module docs); `f` may run more than once, always on a fresh transaction.
pub(crate) fn edit<T>(
    keeper: &dyn Keeper,
    cell: &StoredCell,
    caller: &Caller,
    mut f: impl FnMut(&mut Transaction<'_>) -> Result<T, ToolError>,
) -> Result<T, ToolError> {
    for attempt in 0..ATTEMPTS {
        let mut copy = cell.lock();
        keeper.catch_up(cell, &mut copy)?;
        let mut tx = Transaction::begin(&mut copy.board);
        let out = f(&mut tx)?;
        // The last moment a cancel can take the call back whole.
        caller.control.check()?;
        let Some(commit) = tx.commit(caller.actor)? else {
            return Ok(out);
        };
        match keeper.commit(cell, &mut copy, &commit) {
            Ok(()) => {
                copy.own.record(&keeper.whose(), &commit);
                copy.log.record(&commit);
                caller.committed.note(commit.revision);
                return Ok(out);
            }
            Err(refused) => {
                copy.board.revert(&commit)?;
                if let Refused::Failed(e) = refused {
                    return Err(e);
                }
                drop(copy);
                back_off(attempt);
            }
        }
    }
    Err(kept_moving())
}

/// Undoes (or redoes) the caller's own last step on the board ([`own`]): taken
/// back where no one changed it since, committed to the store as an edit, run
/// again on a conflict.
pub(crate) fn undo(
    keeper: &dyn Keeper,
    cell: &StoredCell,
    caller: &Caller,
    redo: bool,
) -> Result<Undone, ToolError> {
    let whose = keeper.whose();
    for attempt in 0..ATTEMPTS {
        let mut copy = cell.lock();
        keeper.catch_up(cell, &mut copy)?;
        let c = &mut *copy;
        let Some(step) = c.own.take(&whose, redo) else {
            return Ok(Undone::Nothing);
        };
        let mut tx = Transaction::begin(&mut c.board);
        let kept = own::take_back(&mut tx, &step);
        let made = match tx.commit(caller.actor) {
            Ok(Some(made)) => made,
            // Everything it did was changed since: the step is spent.
            Ok(None) => return Ok(Undone::Done { kept }),
            Err(e) => {
                c.own.put_back(&whose, redo, step);
                return Err(e.into());
            }
        };
        match keeper.commit(cell, &mut copy, &made) {
            Ok(()) => {
                copy.log.record(&made);
                copy.own.keep_made(&whose, redo, made.clone());
                caller.committed.note(made.revision);
                return Ok(Undone::Done { kept });
            }
            Err(refused) => {
                copy.board.revert(&made)?;
                copy.own.put_back(&whose, redo, step);
                if let Refused::Failed(e) = refused {
                    return Err(e);
                }
                drop(copy);
                back_off(attempt);
            }
        }
    }
    Err(kept_moving())
}

impl Engine {
    /// Undoes (or redoes) the caller's own last step on the stored board `board`
    /// (an editor window's Ctrl+Z): committed to the store in their name, refused
    /// as any write is without the role.
    pub fn undo_stored(
        &self,
        board: &str,
        caller: &Caller,
        redo: bool,
    ) -> Result<Undone, ToolError> {
        let keeper = self.keeper().ok_or_else(no_store)?;
        let cell = keeper.board(board)?;
        undo(keeper.as_ref(), &cell, caller, redo)
    }
}

/// Gives `f` the stored board as the store has it now.
pub(crate) fn read<T>(
    keeper: &dyn Keeper,
    cell: &StoredCell,
    f: impl FnOnce(&Board) -> Result<T, ToolError>,
) -> Result<T, ToolError> {
    let mut copy = cell.lock();
    keeper.catch_up(cell, &mut copy)?;
    f(&copy.board)
}

/// Waits, with this process's copy of the board unlocked, before trying again
/// after another writer committed first: up to 2, 4, 8 … 128 ms, at random, so
/// writers on two processes that keep meeting on one board stop meeting in step
/// (without it, a loaded machine saw one call beaten five times running).
fn back_off(attempt: usize) {
    use std::hash::{BuildHasher, RandomState};
    let ceiling_us = 2_000u64 << attempt.min(6);
    let at_random = RandomState::new().hash_one(attempt) % ceiling_us;
    std::thread::sleep(std::time::Duration::from_micros(at_random));
}

fn kept_moving() -> ToolError {
    ToolError::Io(format!(
        "the board kept changing while this call ran ({ATTEMPTS} tries, each beaten by another writer): nothing was changed; try again"
    ))
}

/// The server tools that take `board` themselves; every other one is a local
/// tool reading `path`.
const OWN_BOARD_ARG: [&str; 1] = ["export"];

/// A call in server mode: the tool from the server's catalogue, its arguments
/// checked against the schema shown, and `board` handed on as `path` to the
/// local tools that read it.
pub(crate) fn parse_call(
    name: &str,
    args: Value,
) -> Result<(&'static ToolDef, Map<String, Value>), ToolError> {
    let def =
        crate::served::find_served(name).ok_or_else(|| ToolError::UnknownTool(name.to_string()))?;
    let mut args = match args {
        Value::Object(map) => map,
        Value::Null => Map::new(),
        _ => {
            return Err(ToolError::args(format!(
                "{name}: arguments must be a JSON object"
            )))
        }
    };
    crate::args::check_nesting(name, &args)?;
    def.check_keys(&args)?;
    if !OWN_BOARD_ARG.contains(&name) {
        if let Some(board) = args.remove("board") {
            args.insert("path".into(), board);
        }
    }
    Ok((def, args))
}

/// `board_changes` on a stored board: the changes this process's copy has seen
/// (since it was loaded from its latest snapshot), each by its author's name.
pub(crate) fn changes(
    engine: &Engine,
    cell: &StoredCell,
    caller: &Caller,
    since: Option<u64>,
    answer: fn(&Board, &ChangeLog, Option<u64>) -> Result<BoardChangesOutput, ToolError>,
) -> Result<BoardChangesOutput, ToolError> {
    let keeper = engine.keeper().ok_or_else(no_store)?;
    let mut copy = cell.lock();
    keeper.catch_up(cell, &mut copy)?;
    let since = since.or_else(|| copy.last_returned.get(&caller.client).copied());
    let mut out = answer(&copy.board, &copy.log, since)?;
    for change in &mut out.changes {
        if let Some(who) = copy.authors.get(&change.revision) {
            change.by = who.clone();
        }
    }
    let revision = copy.board.revision();
    copy.last_returned.insert(caller.client.clone(), revision);
    Ok(out)
}

/// A stored board reached without a store: a bug of the caller's making.
pub(crate) fn no_store() -> ToolError {
    ToolError::Io("a stored board without its store".into())
}

/// What a file-only tool answers in server mode.
pub(crate) fn no_files() -> ToolError {
    ToolError::args("boards on a server are saved as they change: there is no file to save; export answers the board as a file")
}
