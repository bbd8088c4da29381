//! The boards this process holds: one in-memory copy of each stored board it has
//! opened ([`StoredCell`], at the revision it knows), loaded from the store's
//! latest snapshot and the changes after it, caught up on every call, and a
//! broadcast per board that says it moved, whichever process moved it.
//!
//! The store's events ([`inkboard_store::Store::subscribe`]: PostgreSQL's
//! `NOTIFY` from every process, or this process's own commits on SQLite) feed
//! the broadcasts from one thread; the copies themselves are caught up when next
//! used (a call, an editor redrawing), since a board nobody looks at need not
//! follow every change. Copies nobody holds are let go once more than
//! [`KEEP_IDLE`] boards are held. Presence signals (`presence.rs`) come the same
//! way and go to a second broadcast per board, of their own, so a flood of
//! cursors never makes a window miss (and redraw for) a move.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use inkboard_core::{Actor, Transaction};
use inkboard_format::json::{board_from_json, board_to_json, commit_from_json};
use inkboard_store::{AuthorKind, BoardId, Event, Json, Store, StoreError, StoredChange};
use inkboard_tools::stored::{StoredBoard, StoredCell};
use inkboard_tools::ToolError;
use tokio::sync::broadcast;

use crate::error::tool_error;
use crate::presence::{Heard, Note, Publisher};

/// How many boards' copies are kept while no call or editor holds them.
pub const KEEP_IDLE: usize = 256;

/// How many changes one catch-up reads at a time.
const CATCH_UP_PAGE: usize = 500;

/// What a board's broadcast says: it reached this revision.
pub type Moved = u64;

/// One board's copy and its broadcast.
struct Entry {
    cell: Arc<StoredCell>,
    moved: broadcast::Sender<Moved>,
    /// Presence notes heard about the board.
    notes: broadcast::Sender<Arc<Heard>>,
}

/// The boards this process holds. Cheap to share ([`Arc`]).
pub struct Held {
    store: Store,
    boards: Mutex<HashMap<BoardId, Entry>>,
    presence: Publisher,
}

impl Held {
    /// Holds boards of `store`, and starts the thread that passes the store's
    /// events on to the boards' broadcasts.
    pub fn new(store: Store) -> Result<Arc<Held>, StoreError> {
        let events = store.subscribe()?;
        let held = Arc::new(Held {
            presence: Publisher::start(store.clone())?,
            store,
            boards: Mutex::new(HashMap::new()),
        });
        let weak = Arc::downgrade(&held);
        std::thread::Builder::new()
            .name("inkboard-board-events".into())
            .spawn(move || {
                for event in events {
                    let Some(held) = weak.upgrade() else { return };
                    held.heard(event);
                }
            })
            .map_err(|e| StoreError::Io {
                path: "the board events thread".into(),
                source: e,
            })?;
        Ok(held)
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Where this process's presence notes go out.
    pub fn presence(&self) -> &Publisher {
        &self.presence
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<BoardId, Entry>> {
        self.boards.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A store event: tells the board's watchers. After a lost connection every
    /// held board is said to have moved, since events may have been missed.
    fn heard(&self, event: Event) {
        let boards = self.lock();
        match event {
            Event::Moved(m) => {
                if let Some(entry) = boards.get(&m.board) {
                    let _ = entry.moved.send(m.revision);
                }
            }
            Event::Signal(signal) => {
                // Read (as hostile) only when a window here listens.
                let Some(entry) = boards.get(&signal.board) else {
                    return;
                };
                if entry.notes.receiver_count() == 0 {
                    return;
                }
                if let Some(note) = Note::read(&signal.body) {
                    let _ = entry.notes.send(Arc::new(Heard {
                        text: note.text().into(),
                        id: note.id,
                    }));
                }
            }
            Event::Reconnected => {
                for entry in boards.values() {
                    let _ = entry.moved.send(0);
                }
            }
        }
    }

    /// The copy of `board`, loaded if this process does not hold it yet. The
    /// caller has checked the role.
    pub fn cell(&self, board: &BoardId) -> Result<Arc<StoredCell>, ToolError> {
        if let Some(entry) = self.lock().get(board) {
            return Ok(entry.cell.clone());
        }
        // Loaded without the map's lock: a large board takes a while, and other
        // boards' calls must not wait for it. Two loads of one board race
        // harmlessly: the first kept wins.
        let copy = self.load(board)?;
        let mut boards = self.lock();
        if boards.len() >= KEEP_IDLE {
            boards.retain(|_, e| {
                Arc::strong_count(&e.cell) > 1
                    || e.moved.receiver_count() > 0
                    || e.notes.receiver_count() > 0
            });
        }
        let entry = boards.entry(board.clone()).or_insert_with(|| Entry {
            cell: StoredCell::new(board.to_string(), copy),
            moved: broadcast::channel(64).0,
            notes: broadcast::channel(256).0,
        });
        Ok(entry.cell.clone())
    }

    /// Hears of every revision `board` reaches (0: perhaps moved, look). For an
    /// editor's connection: the board's copy is loaded if need be.
    pub fn watch(&self, board: &BoardId) -> Result<broadcast::Receiver<Moved>, ToolError> {
        self.cell(board)?;
        let boards = self.lock();
        let entry = boards
            .get(board)
            .ok_or_else(|| ToolError::Io("the board was let go while opened".into()))?;
        Ok(entry.moved.subscribe())
    }

    /// Hears the presence notes about `board`, from every process (this one's
    /// own windows' too: each skips its own).
    pub fn notes(&self, board: &BoardId) -> Result<broadcast::Receiver<Arc<Heard>>, ToolError> {
        self.cell(board)?;
        let boards = self.lock();
        let entry = boards
            .get(board)
            .ok_or_else(|| ToolError::Io("the board was let go while opened".into()))?;
        Ok(entry.notes.subscribe())
    }

    /// Tells this process's watchers of `board` that it reached `revision`
    /// (with PostgreSQL the store's event says it again; watchers look at the
    /// revision, so twice is harmless).
    pub fn moved(&self, board: &BoardId, revision: u64) {
        if let Some(entry) = self.lock().get(board) {
            let _ = entry.moved.send(revision);
        }
    }

    /// How many boards this process holds a copy of.
    pub fn held_count(&self) -> usize {
        self.lock().len()
    }

    /// The board whole from the store: its latest snapshot, the changes after it
    /// replayed (and so in the copy's change log, with their authors).
    fn load(&self, board: &BoardId) -> Result<StoredBoard, ToolError> {
        let loaded = self.store.load(board).map_err(tool_error)?;
        let mut doc = board_from_json(loaded.snapshot.as_str())
            .map_err(|e| ToolError::Io(format!("board {board}'s snapshot is damaged: {e}")))?;
        doc.advance_revision(loaded.snapshot_revision);
        let mut copy = StoredBoard::new(doc);
        for change in &loaded.changes {
            apply(&mut copy, change)?;
        }
        Ok(copy)
    }

    /// Brings `copy` up to the store's latest revision. A copy a panic left
    /// behind (perhaps ahead of the store) is loaded again whole.
    pub fn catch_up(&self, cell: &StoredCell, copy: &mut StoredBoard) -> Result<(), ToolError> {
        let board = BoardId::parse(&cell.id).map_err(tool_error)?;
        if copy.stale {
            *copy = self.load(&board)?;
            return Ok(());
        }
        loop {
            let changes = self
                .store
                .changes_after(&board, copy.board.revision(), CATCH_UP_PAGE)
                .map_err(tool_error)?;
            for change in &changes {
                if change.revision != copy.board.revision() + 1 {
                    // Not the next one: this copy is not on the store's line.
                    *copy = self.load(&board)?;
                    return Ok(());
                }
                apply(copy, change)?;
            }
            if changes.len() < CATCH_UP_PAGE {
                return Ok(());
            }
        }
    }

    /// Keeps `copy`'s board as the board's snapshot, on a thread of its own:
    /// loads get faster, and the call that asked need not wait.
    pub fn snapshot_later(&self, board: &BoardId, copy: &StoredBoard) {
        let doc = Json::from_value(&board_to_json(&copy.board));
        let (store, board, revision) = (self.store.clone(), board.clone(), copy.board.revision());
        let _ = std::thread::Builder::new()
            .name("inkboard-snapshot".into())
            .spawn(move || {
                if let Err(e) = store.save_snapshot(&board, revision, &doc) {
                    tracing::warn!(%board, revision, "snapshot not saved: {e}");
                }
            });
    }
}

/// The name a change is shown with: the person, or "NAME's agent".
pub fn display_name(name: &str, kind: AuthorKind) -> String {
    match kind {
        AuthorKind::Person => name.to_string(),
        AuthorKind::Agent => format!("{name}'s agent"),
    }
}

/// Replays a stored change on the copy, which must be at the revision before it.
fn apply(copy: &mut StoredBoard, change: &StoredChange) -> Result<(), ToolError> {
    let damaged = |e: &dyn std::fmt::Display| {
        ToolError::Io(format!(
            "the stored change of revision {} is damaged: {e}",
            change.revision
        ))
    };
    let value = change.change.to_value().map_err(|e| damaged(&e))?;
    let stored = commit_from_json(&value).map_err(|e| damaged(&e))?;
    let by = match change.author.kind {
        AuthorKind::Agent => Actor::Agent,
        AuthorKind::Person => Actor::User,
    };
    let mut tx = Transaction::begin(&mut copy.board);
    tx.apply_steps(&stored.steps).map_err(|e| damaged(&e))?;
    match tx.commit(by).map_err(|e| damaged(&e))? {
        Some(commit) => {
            let who = display_name(change.author_name.as_str(), change.author.kind);
            copy.record_theirs(&commit, who);
        }
        None => copy.board.advance_revision(change.revision),
    }
    copy.board
        .advance_counters(stored.next_id, stored.next_page);
    Ok(())
}
