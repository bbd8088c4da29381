//! The boards the application has open, and what happens after each change: the
//! windows are told (an [`Event`] on a broadcast channel), and the board is saved
//! to its file by the autosaver (`autosave.rs`). [`Boards`] is the engine's
//! [`Host`], so tool calls from agents and intents from browsers change these
//! boards through the same engine, one transaction and one undo step each.
//!
//! What each board's file is known to hold ([`FileState`]) lives here too; the
//! file changing on disk is `outside.rs`'s (seen by `watch.rs`), and copies of
//! changes that cannot reach their file are `recovery.rs`'s.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use inkboard_core::{Actor, Board, Commit};
use inkboard_format::{file, Saved, Stamp};
use inkboard_tools::live::UNTITLED;
use inkboard_tools::{Caller, Host, LiveBoard, LiveCell, ToolError};
use tokio::sync::broadcast;

use crate::imported::ImportOrigin;
use crate::recovery::{self, Recovery};
use crate::watch::Watch;

/// What the windows hear about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A board's objects or pages changed (redraw).
    Changed { board: u32 },
    /// A board's title, path, save state or undo state changed (header).
    Meta { board: u32 },
    /// A new board was opened: the window that had focus last (`window`), or if
    /// none ever had, the windows showing the board that was on screen (`from`),
    /// show it instead.
    Opened {
        board: u32,
        window: Option<u64>,
        from: u32,
    },
    /// The application is stopping: windows close their connections.
    Closing,
}

/// Where a board's file stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveState {
    Saved,
    Saving,
    /// Never saved: a new board without a file.
    Unsaved,
    /// The last save failed; the message says, in words for a person, why and
    /// what to do. The changes are kept, and the save is tried again (with
    /// backoff, and whenever the file or its folder changes).
    Failed(String),
    /// The file changed on disk while the board had unsaved changes: the board's
    /// version is kept in a recovery copy until the person chooses
    /// ([`Offer`], [`Choice`](crate::outside::Choice)).
    Conflict,
}

impl SaveState {
    pub fn name(&self) -> &'static str {
        match self {
            SaveState::Saved => "saved",
            SaveState::Saving => "saving",
            SaveState::Unsaved => "unsaved",
            SaveState::Failed(_) => "error",
            SaveState::Conflict => "conflict",
        }
    }
}

/// Another version of a board waiting for the person's choice (the banner).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    pub kind: OfferKind,
    /// Where the other version is kept (for a conflict: the board's own version).
    pub recovery: Recovery,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    /// The file changed on disk while the board had unsaved changes; "mine" is
    /// the board on screen (also kept in the copy), "theirs" the file.
    Changed,
    /// Unsaved changes of an earlier session, found when the file was opened;
    /// "mine" is the copy, "theirs" the file (on screen).
    Recovered,
}

impl OfferKind {
    pub fn name(self) -> &'static str {
        match self {
            OfferKind::Changed => "changed",
            OfferKind::Recovered => "recovered",
        }
    }
}

/// One open board and its file state.
pub struct Entry {
    pub cell: Arc<LiveCell>,
    file: Mutex<FileState>,
}

/// What is known of a board's file. Lock order: the board (`cell`) first, then
/// this, never the other way round.
pub(crate) struct FileState {
    /// What the file held when last read or written: a save checks it is unchanged.
    pub(crate) stamp: Option<Stamp>,
    /// The board the file holds (as last read or written): the base from which
    /// an outside change and the board's unsaved changes are merged.
    pub(crate) base: Option<Board>,
    pub(crate) state: SaveState,
    /// The revision of the board that the file holds (as read or last written):
    /// the board has unsaved changes while its revision differs.
    pub(crate) saved_revision: u64,
    /// A change to the file or its folder was seen: look at it.
    pub(crate) look: bool,
    /// Saves failed in a row, and when to try again.
    pub(crate) failures: u32,
    pub(crate) retry_at: Option<Instant>,
    /// The other version waiting for the person's choice.
    pub(crate) offer: Option<Offer>,
    /// Further copies kept for this file, offered once the first is settled.
    pub(crate) queued: Vec<Recovery>,
    /// The board revision a conflict copy was last written at.
    pub(crate) copy_revision: u64,
    /// Copies the person took into the board: removed once it is saved.
    pub(crate) discard_after_save: Vec<Recovery>,
    /// Where a board opened from another program's file came from, until it is
    /// saved as a board file.
    pub(crate) imported: Option<ImportOrigin>,
    /// For a board without a file: the recovery copy kept before risky work
    /// (`Boards::secure_unfiled`) and the revision it holds.
    pub(crate) secured: Option<(Recovery, u64)>,
}

impl FileState {
    /// The file now holds `board` (at `revision`), with `stamp`: saved, and any
    /// retry of an earlier failure forgotten. Every path that reads or writes
    /// the file whole ends here.
    pub(crate) fn mark_saved(&mut self, stamp: Stamp, board: Board, revision: u64) {
        self.stamp = Some(stamp);
        self.base = Some(board);
        self.saved_revision = revision;
        self.state = SaveState::Saved;
        self.failures = 0;
        self.retry_at = None;
    }
}

impl Entry {
    pub fn save_state(&self) -> SaveState {
        self.file_state().state.clone()
    }

    /// The version waiting for the person's choice, if any.
    pub fn offer(&self) -> Option<Offer> {
        self.file_state().offer.clone()
    }

    /// Where the board was imported from, while it has no file of its own.
    pub fn imported(&self) -> Option<ImportOrigin> {
        self.file_state().imported.clone()
    }

    pub(crate) fn file_state(&self) -> MutexGuard<'_, FileState> {
        self.file.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The board's file, if it has one.
    pub(crate) fn path(&self) -> Option<PathBuf> {
        self.cell.lock().path.clone()
    }

    /// Whether the board has changes its file does not hold (for a board without
    /// a file: changes since it was opened).
    pub fn unsaved(&self) -> bool {
        let revision = self.cell.lock().board.revision();
        revision != self.file_state().saved_revision
    }
}

struct Inner {
    entries: BTreeMap<u32, Arc<Entry>>,
    /// The board of the most recently focused window: what path-less calls edit.
    displayed: u32,
    /// That window, once one has had focus.
    focused: Option<u64>,
    next_key: u32,
}

/// What to do when the set of open files changes.
type FilesChanged = Box<dyn Fn(Vec<PathBuf>) + Send + Sync>;

/// The open boards.
pub struct Boards {
    inner: Mutex<Inner>,
    events: broadcast::Sender<Event>,
    /// Wakes the autosaver.
    pub(crate) wake: Condvar,
    pub(crate) wake_lock: Mutex<bool>,
    /// Held by whoever reads or writes the boards' files (the autosaver, an
    /// explicit save, the person's choice in a conflict), so that these never
    /// cross.
    disk: Mutex<()>,
    /// Held while the boards without a file are kept before risky work, so
    /// that two calls starting together make one copy of each.
    pub(crate) securing: Mutex<()>,
    /// Watches the folders of the open files.
    pub(crate) watch: Mutex<Option<Watch>>,
    /// Called when the set of open files changes (to rewrite the discovery file).
    on_files_changed: Mutex<Option<FilesChanged>>,
}

impl Boards {
    pub fn new() -> Arc<Self> {
        let (events, _) = broadcast::channel(256);
        Arc::new(Boards {
            inner: Mutex::new(Inner {
                entries: BTreeMap::new(),
                displayed: 0,
                focused: None,
                next_key: 1,
            }),
            events,
            wake: Condvar::new(),
            wake_lock: Mutex::new(false),
            disk: Mutex::new(()),
            securing: Mutex::new(()),
            watch: Mutex::new(None),
            on_files_changed: Mutex::new(None),
        })
    }

    fn inner(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The right to read and write the boards' files (see the field).
    pub(crate) fn disk(&self) -> MutexGuard<'_, ()> {
        self.disk.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn entries(&self) -> Vec<Arc<Entry>> {
        self.inner().entries.values().cloned().collect()
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    pub(crate) fn tell(&self, event: Event) {
        // Nobody listening (no window yet) is fine.
        let _ = self.events.send(event);
    }

    /// Sets what to call when the set of open files changes.
    pub fn on_files_changed(&self, f: impl Fn(Vec<PathBuf>) + Send + Sync + 'static) {
        *self
            .on_files_changed
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(Box::new(f));
    }

    fn files_changed(&self) {
        let paths = self.paths();
        self.follow_folders();
        if let Some(f) = self
            .on_files_changed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            f(paths);
        }
    }

    /// The files of the open boards.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.inner()
            .entries
            .values()
            .filter_map(|e| e.cell.lock().path.clone())
            .collect()
    }

    /// Opens the board file at `path` (absolute), or finds it if already open.
    /// Copies of unsaved changes kept for it by an earlier session are offered to
    /// the person (the banner), the newest first.
    /// A draw.io or Excalidraw file, or a picture carrying a board, is imported
    /// instead (`imported.rs`).
    pub fn open_file(&self, path: &Path) -> Result<u32, ToolError> {
        if let Some(entry) = self.entry_at(path) {
            return Ok(entry.cell.key);
        }
        if crate::imported::is_diagram(path) {
            return self.open_diagram(path);
        }
        let loaded = file::load(path)?;
        let mut kept = recovery::pending(path, Some(&loaded.board));
        let entry = self.add(
            LiveBoard::new(loaded.board.clone(), Some(path.to_path_buf())),
            Some(loaded.stamp),
            SaveState::Saved,
        );
        entry.file_state().base = Some(loaded.board);
        if !kept.is_empty() {
            let mut f = entry.file_state();
            f.offer = Some(Offer {
                kind: OfferKind::Recovered,
                recovery: kept.remove(0),
            });
            f.queued = kept;
        }
        self.files_changed();
        Ok(entry.cell.key)
    }

    /// Opens a new, empty board with no file.
    pub fn open_untitled(&self) -> Arc<Entry> {
        self.open_new(Board::new(UNTITLED, &[]))
    }

    /// Opens a new board with no file.
    pub fn open_new(&self, board: Board) -> Arc<Entry> {
        self.add(LiveBoard::new(board, None), None, SaveState::Unsaved)
    }

    fn add(&self, board: LiveBoard, stamp: Option<Stamp>, state: SaveState) -> Arc<Entry> {
        let mut inner = self.inner();
        let key = inner.next_key;
        inner.next_key += 1;
        let saved_revision = board.board.revision();
        let entry = Entry {
            cell: LiveCell::new(key, board),
            file: Mutex::new(FileState {
                stamp,
                base: None,
                state,
                saved_revision,
                look: false,
                failures: 0,
                retry_at: None,
                offer: None,
                queued: Vec::new(),
                copy_revision: 0,
                discard_after_save: Vec::new(),
                imported: None,
                secured: None,
            }),
        };
        let entry = Arc::new(entry);
        inner.entries.insert(key, entry.clone());
        if inner.displayed == 0 {
            inner.displayed = key;
        }
        entry
    }

    /// The open board kept in the file at `path`.
    fn entry_at(&self, path: &Path) -> Option<Arc<Entry>> {
        self.inner()
            .entries
            .values()
            .find(|e| e.cell.lock().path.as_deref() == Some(path))
            .cloned()
    }

    /// The key of the open board kept in the file at `path`.
    pub fn key_at(&self, path: &Path) -> Option<u32> {
        self.entry_at(path).map(|e| e.cell.key)
    }

    pub fn entry(&self, key: u32) -> Option<Arc<Entry>> {
        self.inner().entries.get(&key).cloned()
    }

    /// The board on screen (the most recently focused window's).
    pub fn displayed(&self) -> u32 {
        self.inner().displayed
    }

    /// Window `window` showing `key` got focus.
    pub fn focus(&self, key: u32, window: u64) {
        let mut inner = self.inner();
        if inner.entries.contains_key(&key) {
            inner.displayed = key;
            inner.focused = Some(window);
        }
    }

    /// The application is stopping.
    pub fn closing(&self) {
        self.tell(Event::Closing);
    }

    /// A board was just opened for the person: it goes on screen, in the most
    /// recently focused window.
    pub fn opened(&self, key: u32) {
        let (window, from) = {
            let mut inner = self.inner();
            let from = std::mem::replace(&mut inner.displayed, key);
            (inner.focused, from)
        };
        self.tell(Event::Opened {
            board: key,
            window,
            from,
        });
    }

    /// Undoes (or redoes) the last step on a board, as the person.
    pub fn undo(&self, key: u32, redo: bool) -> Result<bool, ToolError> {
        let Some(entry) = self.entry(key) else {
            return Ok(false);
        };
        let commit = {
            let mut live = entry.cell.lock();
            let live = &mut *live;
            let commit = if redo {
                live.history.redo(&mut live.board, Actor::User)?
            } else {
                live.history.undo(&mut live.board, Actor::User)?
            };
            if let Some(c) = &commit {
                live.log.record(c);
            }
            commit
        };
        match commit {
            Some(_) => {
                self.after_commit(&entry);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The board of `entry` was just written whole to `path` (`board`, as
    /// `saved`): it is kept there from now on, as a board opened from it is.
    pub(crate) fn adopt_file(&self, entry: &Entry, path: PathBuf, saved: Saved, board: Board) {
        entry.cell.lock().path = Some(path);
        let secured = {
            let revision = board.revision();
            let mut f = entry.file_state();
            f.mark_saved(saved.stamp, board, revision);
            f.imported = None;
            f.secured.take()
        };
        // The file holds the board now: the copy kept in case of a crash goes.
        if let Some((copy, _)) = secured {
            recovery::discard(&copy);
        }
        self.files_changed();
        self.tell(Event::Meta {
            board: entry.cell.key,
        });
    }

    /// A commit landed on `entry`: windows redraw, the autosaver writes it.
    pub(crate) fn after_commit(&self, entry: &Entry) {
        let has_file = entry.cell.lock().path.is_some();
        {
            let mut f = entry.file_state();
            if has_file && f.state == SaveState::Saved {
                f.state = SaveState::Saving;
            }
        }
        self.tell(Event::Changed {
            board: entry.cell.key,
        });
        self.wake_autosaver();
    }

    pub(crate) fn wake_autosaver(&self) {
        *self.wake_lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.wake.notify_one();
    }
}

impl Host for Boards {
    fn board(&self, path: Option<&Path>, caller: &Caller) -> Option<Arc<LiveCell>> {
        let entry = match path {
            Some(path) => self.entry_at(path),
            None => {
                let inner = self.inner();
                let key = caller.board.unwrap_or(inner.displayed);
                inner.entries.get(&key).cloned()
            }
        };
        entry.map(|e| e.cell.clone())
    }

    fn committed(&self, cell: &Arc<LiveCell>, _commit: &Commit) {
        if let Some(entry) = self.entry(cell.key) {
            self.after_commit(&entry);
        }
    }

    fn save(&self, cell: &Arc<LiveCell>) -> Result<usize, ToolError> {
        let entry = self
            .entry(cell.key)
            .ok_or_else(|| ToolError::Io("that board is no longer open".into()))?;
        self.save_explicit(&entry)
    }

    fn save_as(
        &self,
        cell: &Arc<LiveCell>,
        path: &Path,
        overwrite: bool,
    ) -> Result<usize, ToolError> {
        let entry = self
            .entry(cell.key)
            .ok_or_else(|| ToolError::Io("that board is no longer open".into()))?;
        let _disk = self.disk();
        let board = cell.lock().board.clone();
        let saved = {
            let _lock = file::FileLock::acquire(path)?;
            if overwrite {
                file::save_overwrite(path, &board)?
            } else {
                file::save(path, &board, None)?
            }
        };
        let bytes = saved.bytes;
        self.adopt_file(&entry, path.to_path_buf(), saved, board);
        Ok(bytes)
    }

    fn create(&self, board: Board) -> Arc<LiveCell> {
        let entry = self.open_new(board);
        self.opened(entry.cell.key);
        entry.cell.clone()
    }

    fn before_call(&self, tool: &str, caller: &Caller) {
        // An agent's call, or work that reads a stranger's file, lays out or
        // draws, may bring the process down; a window's own small edit does
        // not need a copy written first.
        if caller.actor == Actor::Agent || RISKY.contains(&tool) {
            self.secure_unfiled();
        }
    }
}

/// The tools whose work may be heavy whoever calls them: before them, the
/// boards without a file are kept (`Boards::secure_unfiled`).
const RISKY: [&str; 6] = [
    "batch",
    "layout",
    "import_mermaid",
    "import",
    "render",
    "export",
];

#[cfg(test)]
mod tests {
    //! The registry of open boards: opening, finding, focus, what a commit
    //! sets in motion, saving under a new name, and undo as the person.

    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::recovery::Why;
    use crate::testing::{board_of, edit, file_texts, folder, live_texts, open, texts, write_new};

    fn events(rx: &mut broadcast::Receiver<Event>) -> Vec<Event> {
        std::iter::from_fn(|| rx.try_recv().ok()).collect()
    }

    fn caller(board: Option<u32>) -> Caller {
        let mut caller = Caller::agent("test");
        caller.board = board;
        caller
    }

    #[test]
    fn states_and_offers_have_the_words_the_windows_expect() {
        let states = [
            (SaveState::Saved, "saved"),
            (SaveState::Saving, "saving"),
            (SaveState::Unsaved, "unsaved"),
            (SaveState::Failed("why".into()), "error"),
            (SaveState::Conflict, "conflict"),
        ];
        for (state, word) in states {
            assert_eq!(state.name(), word);
        }
        assert_eq!(OfferKind::Changed.name(), "changed");
        assert_eq!(OfferKind::Recovered.name(), "recovered");
    }

    #[test]
    fn a_file_opened_twice_is_one_board() {
        let dir = folder();
        let (boards, entry, path) = open(dir.path(), "a.inkboard", &["a"]);
        assert_eq!(boards.open_file(&path).unwrap(), entry.cell.key);
        assert_eq!(boards.key_at(&path), Some(entry.cell.key));
        assert_eq!(boards.paths(), [path]);
        assert_eq!(entry.save_state(), SaveState::Saved);
        assert!(!entry.unsaved());
        assert!(boards
            .open_file(&dir.path().join("missing.inkboard"))
            .is_err());
        assert_eq!(boards.entries().len(), 1);
    }

    #[test]
    fn the_first_board_is_on_screen_and_focus_moves_it() {
        let boards = Boards::new();
        let first = boards.open_untitled().cell.key;
        let second = boards.open_untitled().cell.key;
        assert_ne!(first, second);
        assert_eq!(boards.displayed(), first);
        boards.focus(second, 7);
        assert_eq!(boards.displayed(), second);
        boards.focus(999, 8);
        assert_eq!(boards.displayed(), second, "no such board: focus stays");
        // The next board opened for the person goes to window 7, not 8.
        let mut rx = boards.subscribe();
        let third = boards.open_untitled().cell.key;
        boards.opened(third);
        assert_eq!(boards.displayed(), third);
        assert_eq!(
            events(&mut rx),
            [Event::Opened {
                board: third,
                window: Some(7),
                from: second
            }]
        );
    }

    #[test]
    fn a_commit_tells_the_windows_and_wakes_the_autosaver() {
        let dir = folder();
        let (boards, entry, _) = open(dir.path(), "c.inkboard", &["a"]);
        let untitled = boards.open_new(board_of(&["u"]));
        let mut rx = boards.subscribe();
        *boards.wake_lock.lock().unwrap() = false;
        edit(&boards, &entry, 0, "edited");
        assert_eq!(entry.save_state(), SaveState::Saving);
        assert!(entry.unsaved());
        assert!(*boards.wake_lock.lock().unwrap(), "the autosaver is woken");
        edit(&boards, &untitled, 0, "edited");
        assert_eq!(
            untitled.save_state(),
            SaveState::Unsaved,
            "no file to save to"
        );
        assert!(untitled.unsaved());
        assert_eq!(
            events(&mut rx),
            [
                Event::Changed {
                    board: entry.cell.key
                },
                Event::Changed {
                    board: untitled.cell.key
                }
            ]
        );
    }

    #[test]
    fn a_failed_state_is_not_hidden_by_the_next_commit() {
        let dir = folder();
        let (boards, entry, _) = open(dir.path(), "f.inkboard", &["a"]);
        entry.file_state().state = SaveState::Failed("the disk is full".into());
        edit(&boards, &entry, 0, "edited");
        assert_eq!(
            entry.save_state(),
            SaveState::Failed("the disk is full".into())
        );
    }

    #[test]
    fn calls_find_their_board_by_path_by_window_or_on_screen() {
        let dir = folder();
        let (boards, entry, path) = open(dir.path(), "h.inkboard", &["a"]);
        let other = boards.open_untitled();
        let key = |cell: Option<Arc<LiveCell>>| cell.map(|c| c.key);
        assert_eq!(
            key(boards.board(Some(&path), &caller(None))),
            Some(entry.cell.key)
        );
        assert_eq!(
            key(boards.board(None, &caller(Some(other.cell.key)))),
            Some(other.cell.key)
        );
        assert_eq!(key(boards.board(None, &caller(None))), Some(entry.cell.key));
        assert_eq!(
            key(boards.board(Some(&dir.path().join("no.inkboard")), &caller(None))),
            None
        );
        assert_eq!(key(boards.board(None, &caller(Some(999)))), None);
    }

    #[test]
    fn save_as_writes_a_new_file_and_the_board_follows_it() {
        let dir = folder();
        let boards = Boards::new();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let calls = Arc::new(AtomicUsize::new(0));
        {
            let (seen, calls) = (seen.clone(), calls.clone());
            boards.on_files_changed(move |paths| {
                calls.fetch_add(1, Ordering::SeqCst);
                *seen.lock().unwrap() = paths;
            });
        }
        let entry = boards.open_new(board_of(&["new"]));
        let path = dir.path().join("new.inkboard");
        let taken = write_new(dir.path(), "taken.inkboard", &board_of(&["theirs"]));
        assert!(boards.save_as(&entry.cell, &taken, false).is_err());
        assert_eq!(file_texts(&taken), ["theirs"], "not overwritten unasked");
        assert_eq!(entry.path(), None);

        boards.save_as(&entry.cell, &path, false).unwrap();
        assert_eq!(file_texts(&path), ["new"]);
        assert_eq!(entry.path(), Some(path.clone()));
        assert_eq!(entry.save_state(), SaveState::Saved);
        assert!(!entry.unsaved());
        assert_eq!(*seen.lock().unwrap(), std::slice::from_ref(&path));
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        // Its stamp is the new file's: the autosaver's next save goes through.
        edit(&boards, &entry, 0, "later");
        boards.save_explicit(&entry).unwrap();
        assert_eq!(file_texts(&path), ["later"]);

        boards.save_as(&entry.cell, &taken, true).unwrap();
        assert_eq!(file_texts(&taken), ["later"], "overwritten when asked");
    }

    #[test]
    fn undo_and_redo_as_the_person() {
        let dir = folder();
        let (boards, entry, _) = open(dir.path(), "u.inkboard", &["a"]);
        let key = entry.cell.key;
        assert!(!boards.undo(999, false).unwrap());
        assert!(!boards.undo(key, false).unwrap(), "nothing to undo");
        edit(&boards, &entry, 0, "b");
        let mut rx = boards.subscribe();
        assert!(boards.undo(key, false).unwrap());
        assert_eq!(live_texts(&entry), ["a"]);
        assert_eq!(events(&mut rx), [Event::Changed { board: key }]);
        assert!(boards.undo(key, true).unwrap());
        assert_eq!(live_texts(&entry), ["b"]);
        assert!(!boards.undo(key, true).unwrap(), "nothing to redo");
    }

    #[test]
    fn opening_offers_copies_kept_for_the_file_and_drops_those_it_holds() {
        let dir = folder();
        let path = write_new(dir.path(), "offered.inkboard", &board_of(&["a"]));
        let same = recovery::keep(&board_of(&["a"]), Some(&path), Why::Unsaved).unwrap();
        let older = recovery::keep(&board_of(&["older"]), Some(&path), Why::Unsaved).unwrap();
        let boards = Boards::new();
        let entry = boards.entry(boards.open_file(&path).unwrap()).unwrap();
        let offer = entry.offer().expect("a copy is offered");
        assert_eq!(offer.kind, OfferKind::Recovered);
        assert_eq!(offer.recovery, older);
        assert!(entry.file_state().queued.is_empty());
        assert!(
            !same.copy.exists(),
            "a copy the file already holds is removed"
        );
        assert_eq!(live_texts(&entry), ["a"], "the file is on screen");
        recovery::discard(&older);
    }

    #[test]
    fn an_agent_creating_a_board_puts_it_on_screen() {
        let boards = Boards::new();
        let first = boards.open_untitled().cell.key;
        let mut rx = boards.subscribe();
        let cell = boards.create(board_of(&["made"]));
        assert_ne!(cell.key, first);
        assert_eq!(boards.displayed(), cell.key);
        assert_eq!(texts(&cell.lock().board), ["made"]);
        assert!(matches!(
            events(&mut rx).as_slice(),
            [Event::Opened { board, from, .. }] if *board == cell.key && *from == first
        ));
    }
}
