//! The boards the application has open, and what happens after each change: the
//! windows are told (an [`Event`] on a broadcast channel), and the board is saved
//! to its file by the autosaver. [`Boards`] is the engine's [`Host`], so tool calls
//! from agents and intents from browsers change these boards through the same
//! engine, one transaction and one undo step each.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use inkboard_core::{Actor, Board, Commit};
use inkboard_format::{file, FormatError, Stamp};
use inkboard_tools::live::UNTITLED;
use inkboard_tools::{Caller, Host, LiveBoard, LiveCell, ToolError};
use tokio::sync::broadcast;

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
    /// The last save failed; the message says why and what to do.
    Failed(String),
}

impl SaveState {
    pub fn name(&self) -> &'static str {
        match self {
            SaveState::Saved => "saved",
            SaveState::Saving => "saving",
            SaveState::Unsaved => "unsaved",
            SaveState::Failed(_) => "error",
        }
    }
}

/// One open board and its file state.
pub struct Entry {
    pub cell: Arc<LiveCell>,
    file: Mutex<FileState>,
}

struct FileState {
    /// What the file held when last read or written: a save checks it is unchanged.
    stamp: Option<Stamp>,
    state: SaveState,
    /// Changed since the last save.
    dirty: bool,
}

impl Entry {
    pub fn save_state(&self) -> SaveState {
        self.file_state().state.clone()
    }

    fn file_state(&self) -> MutexGuard<'_, FileState> {
        self.file.lock().unwrap_or_else(|e| e.into_inner())
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
    wake: Condvar,
    wake_lock: Mutex<bool>,
    /// Called when the set of open files changes (to rewrite the discovery file).
    on_files_changed: Mutex<Option<FilesChanged>>,
}

/// How long the autosaver waits after a change for more changes, so that a burst
/// of edits is written once.
const SAVE_DELAY: Duration = Duration::from_millis(150);

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
            on_files_changed: Mutex::new(None),
        })
    }

    fn inner(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    fn tell(&self, event: Event) {
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
    pub fn open_file(&self, path: &Path) -> Result<u32, FormatError> {
        if let Some(entry) = self.entry_at(path) {
            return Ok(entry.cell.key);
        }
        let loaded = file::load(path)?;
        let entry = self.add(
            LiveBoard::new(loaded.board, Some(path.to_path_buf())),
            Some(loaded.stamp),
            SaveState::Saved,
        );
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
        let entry = Entry {
            cell: LiveCell::new(key, board),
            file: Mutex::new(FileState {
                stamp,
                state,
                dirty: false,
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
            Some(commit) => {
                self.after_commit(&entry, &commit);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn after_commit(&self, entry: &Entry, _commit: &Commit) {
        let has_file = entry.cell.lock().path.is_some();
        {
            let mut f = entry.file_state();
            f.dirty = true;
            if has_file && !matches!(f.state, SaveState::Failed(_)) {
                f.state = SaveState::Saving;
            }
        }
        self.tell(Event::Changed {
            board: entry.cell.key,
        });
        if has_file {
            *self.wake_lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
            self.wake.notify_one();
        }
    }

    /// Saves one board to its file now, if it has one; the size written.
    pub fn save_now(&self, entry: &Entry) -> Result<usize, ToolError> {
        let (board, path) = {
            let live = entry.cell.lock();
            (live.board.clone(), live.path.clone())
        };
        let Some(path) = path else {
            return Err(ToolError::Arguments(
                "this board has no file yet: save it with save_board and 'as'".into(),
            ));
        };
        let mut f = entry.file_state();
        let result = (|| {
            let _lock = file::FileLock::acquire(&path)?;
            file::save(&path, &board, f.stamp.as_ref())
        })();
        let out = match result {
            Ok(saved) => {
                f.stamp = Some(saved.stamp);
                // Dirty again only if the board moved on while it was written.
                f.dirty = entry.cell.lock().board.revision() != board.revision();
                f.state = if f.dirty {
                    SaveState::Saving
                } else {
                    SaveState::Saved
                };
                Ok(saved.bytes)
            }
            Err(e) => {
                let message = match &e {
                    FormatError::ChangedOnDisk { .. } => format!(
                        "{} was changed by another program since it was opened; inkboard will not overwrite it. Save a copy with save_board 'as', or reopen the file",
                        path.display()
                    ),
                    other => other.to_string(),
                };
                f.state = SaveState::Failed(message);
                f.dirty = false;
                Err(e.into())
            }
        };
        drop(f);
        self.tell(Event::Meta {
            board: entry.cell.key,
        });
        out
    }

    /// The autosaver: runs until the process ends, writing every changed board a
    /// moment after its last change.
    pub fn autosave_forever(self: &Arc<Self>) {
        loop {
            {
                let mut woken = self.wake_lock.lock().unwrap_or_else(|e| e.into_inner());
                while !*woken {
                    woken = self.wake.wait(woken).unwrap_or_else(|e| e.into_inner());
                }
                *woken = false;
            }
            std::thread::sleep(SAVE_DELAY);
            // A bug in a save must not end this thread: every later change would
            // then go unsaved without a word. The boards stay open with their
            // changes, and their windows say the save failed.
            let saved =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.save_dirty()));
            if saved.is_err() {
                tracing::error!("autosave hit a bug; the boards stay open and keep their changes");
                self.saves_failed(
                    "inkboard hit a bug while saving: the board's changes are still open here; save a copy with save_board 'as', and please report the bug",
                );
            }
        }
    }

    /// Marks every board whose save was under way as failed, with `message`.
    fn saves_failed(&self, message: &str) {
        let entries: Vec<Arc<Entry>> = self.inner().entries.values().cloned().collect();
        for entry in entries {
            let mut f = entry.file_state();
            if f.state == SaveState::Saving {
                f.state = SaveState::Failed(message.to_string());
                drop(f);
                self.tell(Event::Meta {
                    board: entry.cell.key,
                });
            }
        }
    }

    /// Saves every board changed since its last save (also run at exit).
    pub fn save_dirty(&self) {
        let entries: Vec<Arc<Entry>> = self.inner().entries.values().cloned().collect();
        for entry in entries {
            let dirty = {
                let f = entry.file_state();
                f.dirty && !matches!(f.state, SaveState::Failed(_))
            };
            if dirty {
                if let Err(e) = self.save_now(&entry) {
                    tracing::warn!("autosave failed: {e}");
                }
            }
        }
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

    fn committed(&self, cell: &Arc<LiveCell>, commit: &Commit) {
        if let Some(entry) = self.entry(cell.key) {
            self.after_commit(&entry, commit);
        }
    }

    fn save(&self, cell: &Arc<LiveCell>) -> Result<usize, ToolError> {
        let entry = self
            .entry(cell.key)
            .ok_or_else(|| ToolError::Io("that board is no longer open".into()))?;
        // An explicit save retries after a failure (the person may have fixed it).
        {
            let mut f = entry.file_state();
            if matches!(f.state, SaveState::Failed(_)) {
                f.state = SaveState::Saving;
            }
        }
        self.save_now(&entry)
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
        let board = cell.lock().board.clone();
        let saved = {
            let _lock = file::FileLock::acquire(path)?;
            if overwrite {
                file::save_overwrite(path, &board)?
            } else {
                file::save(path, &board, None)?
            }
        };
        cell.lock().path = Some(path.to_path_buf());
        {
            let mut f = entry.file_state();
            f.stamp = Some(saved.stamp);
            f.dirty = false;
            f.state = SaveState::Saved;
        }
        self.files_changed();
        self.tell(Event::Meta { board: cell.key });
        Ok(saved.bytes)
    }

    fn create(&self, board: Board) -> Arc<LiveCell> {
        let entry = self.open_new(board);
        self.opened(entry.cell.key);
        entry.cell.clone()
    }
}
