//! The seam between a window's WebSocket (the live protocol of
//! `docs/live-protocol.md`, [`crate::ws`]) and where its boards live. A [`Desk`]
//! is what a window works at: the boards it may show, their headers, a look at a
//! board and its change log to draw from, the tool calls and undo made as the
//! window's person, and the events that say a board moved.
//!
//! The application is one desk ([`AppState`]: the boards open on this machine,
//! saved to their files); the team server (`inkboard-server`) makes one per
//! window, for one signed-in person on one stored board, whose calls commit to
//! the store in that person's name. The protocol itself is written once, in
//! `ws.rs`, for both.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use inkboard_core::{Actor, Board};
use inkboard_tools::{Caller, ChangeLog, Reply, ToolError};
use serde_json::{json, Map, Value};
use tokio::sync::broadcast;

use crate::boards::{Event, SaveState};
use crate::here::Here;
use crate::outside::Choice;
use crate::{AppState, ViewCache};

/// What a window's header shows of a board (the `board` message, less the
/// window's own page).
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub title: String,
    /// The board's file, where it has one.
    pub path: Option<String>,
    /// The pages' names, in order.
    pub pages: Vec<String>,
    pub revision: u64,
    pub undo: bool,
    pub redo: bool,
    /// `saved`, `saving`, `unsaved`, `error` or `conflict`.
    pub save: &'static str,
    pub save_error: Option<String>,
    /// The version waiting for the person's choice, or null.
    pub offer: Value,
    /// Where an imported board came from, or null.
    pub imported: Value,
    /// Fields a desk adds of its own (the server: the person's `role`).
    pub extra: Map<String, Value>,
}

/// Where a window's boards live. Every method but [`Desk::events`] may block
/// (a lock, the store's database): the WebSocket calls them off the async
/// workers.
pub trait Desk: Send + Sync + 'static {
    /// The events of the boards this desk shows ([`Event::Changed`] when one
    /// moved, whoever moved it).
    fn events(&self) -> broadcast::Receiver<Event>;

    /// The board a new window shows before its `hello`.
    fn first(&self) -> u32;

    /// The board a `hello` asks for (its number, or the file the window showed
    /// before a restart), if this desk has it; `None` keeps the window's board.
    fn choose(&self, board: Option<u32>, path: Option<&Path>) -> Option<u32>;

    /// The header of `board`; `None` once it is gone.
    fn header(&self, board: u32) -> Option<Header>;

    /// Gives `f` the board as it is now and its change log; false when the
    /// board is gone. `f` should be quick: it may hold the board's lock.
    fn look(&self, board: u32, f: &mut dyn FnMut(&Board, &ChangeLog)) -> bool;

    /// Gives `f` the board to draft on (a preview: `f` must leave it as it
    /// found it, which a transaction dropped uncommitted does).
    fn look_mut(&self, board: u32, f: &mut dyn FnMut(&mut Board)) -> bool;

    /// Where drawings of pages are shared between windows, board numbers as
    /// this desk gives them.
    fn cache(&self) -> &ViewCache;

    /// Runs a tool on `board` as the window's person (the window's rules were
    /// checked: [`inkboard_tools::window_calls`]).
    fn call(&self, board: u32, window: u64, tool: &str, args: Value) -> Result<Reply, ToolError>;

    /// Undoes (or redoes) the last step on `board`, as the window's person.
    fn undo(&self, board: u32, window: u64, redo: bool) -> Result<bool, ToolError>;

    /// Who made `revisions` of `board`, by name and without repeats ("Ann's
    /// agent"), where the desk knows (a team server); the application's boards
    /// know only that an agent made them, and answer nothing.
    fn authors(&self, _board: u32, _revisions: &[u64]) -> Vec<String> {
        Vec::new()
    }

    /// Who made `revisions` of `board`, for changes the window's person did not
    /// make: `(revision, name, colour)`, so the window marks each change in its
    /// author's colour ("Bob", "Ann's agent"). The application's boards have one
    /// person, and answer nothing.
    fn marks(&self, _board: u32, _revisions: &[u64]) -> Vec<(u64, String, String)> {
        Vec::new()
    }

    /// Where the window's person is now (a `here` message, checked). Must not
    /// block: it is called on the async workers. The application's boards have
    /// one person, and ignore it.
    fn here(&self, _here: Here) {}

    /// Everyone else's presence on the window's board, as `presence` messages
    /// ready to send; `None` where a desk has none (the application).
    fn presence(&self) -> Option<broadcast::Receiver<Arc<str>>> {
        None
    }

    /// The window got focus.
    fn focus(&self, _board: u32, _window: u64) {}

    /// Saves now, where boards are saved to files.
    fn save(&self, _board: u32) {}

    /// Settles the version on offer ([`Header::offer`]).
    fn resolve(&self, _board: u32, _choice: Choice) -> Result<Option<u32>, ToolError> {
        Err(ToolError::Arguments(
            "there is no other version of this board to choose from".into(),
        ))
    }

    /// Saves an imported board as the board file offered ([`Header::imported`]).
    fn keep_import(&self, _board: u32) -> Result<PathBuf, ToolError> {
        Err(ToolError::Arguments(
            "this board was not imported from a file".into(),
        ))
    }
}

/// The application's boards, open on this machine.
impl Desk for AppState {
    fn events(&self) -> broadcast::Receiver<Event> {
        self.boards.subscribe()
    }

    fn first(&self) -> u32 {
        self.boards.displayed()
    }

    fn choose(&self, board: Option<u32>, path: Option<&Path>) -> Option<u32> {
        // A window whose file is not open here shows the board on screen.
        match path {
            Some(path) => self.boards.key_at(path),
            None => board.filter(|b| self.boards.entry(*b).is_some()),
        }
    }

    fn header(&self, board: u32) -> Option<Header> {
        let entry = self.boards.entry(board)?;
        let state = entry.save_state();
        let offer = match entry.offer() {
            Some(offer) => json!({
                "kind": offer.kind.name(),
                "copy": offer.recovery.copy.display().to_string(),
                "saved": offer.recovery.saved,
            }),
            None => Value::Null,
        };
        let live = entry.cell.lock();
        let imported = match entry.imported() {
            Some(origin) => json!({
                "source": origin.source.display().to_string(),
                "format": origin.format,
                "save_to": origin.save_to().display().to_string(),
                "lost": inkboard_tools::import_note(&live.board).map(|(_, lost)| lost).unwrap_or_default(),
            }),
            None => Value::Null,
        };
        Some(Header {
            title: live.board.title().to_string(),
            path: live.path.as_ref().map(|p| p.display().to_string()),
            pages: live.board.pages().iter().map(|p| p.name.clone()).collect(),
            revision: live.board.revision(),
            undo: live.history.can_undo(),
            redo: live.history.can_redo(),
            save: state.name(),
            save_error: match state {
                SaveState::Failed(message) => Some(message),
                _ => None,
            },
            offer,
            imported,
            extra: Map::new(),
        })
    }

    fn look(&self, board: u32, f: &mut dyn FnMut(&Board, &ChangeLog)) -> bool {
        let Some(entry) = self.boards.entry(board) else {
            return false;
        };
        let live = entry.cell.lock();
        f(&live.board, &live.log);
        true
    }

    fn look_mut(&self, board: u32, f: &mut dyn FnMut(&mut Board)) -> bool {
        let Some(entry) = self.boards.entry(board) else {
            return false;
        };
        f(&mut entry.cell.lock().board);
        true
    }

    fn cache(&self) -> &ViewCache {
        &self.cache
    }

    fn call(&self, board: u32, window: u64, tool: &str, args: Value) -> Result<Reply, ToolError> {
        let caller = Caller {
            actor: Actor::User,
            client: format!("window-{window}"),
            board: Some(board),
            control: Default::default(),
            committed: Default::default(),
            chat: false,
        };
        self.engine.call_as(tool, args, &caller)
    }

    fn undo(&self, board: u32, _window: u64, redo: bool) -> Result<bool, ToolError> {
        self.boards.undo(board, redo)
    }

    fn focus(&self, board: u32, window: u64) {
        self.boards.focus(board, window);
    }

    fn save(&self, board: u32) {
        if let Some(entry) = self.boards.entry(board) {
            let _ = self.boards.save_explicit(&entry);
        }
    }

    fn resolve(&self, board: u32, choice: Choice) -> Result<Option<u32>, ToolError> {
        self.boards.resolve(board, choice)
    }

    fn keep_import(&self, board: u32) -> Result<PathBuf, ToolError> {
        self.boards.keep_import(board)
    }
}
