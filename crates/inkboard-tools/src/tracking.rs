//! What this process knows of each board file it has touched: the board as last
//! read or written (kept in memory, so an unchanged file is not parsed again), the
//! stamp of the bytes on disk, and the change log that `board_changes` answers
//! from. A file that changed on disk since is diffed against the board in memory,
//! and the difference is logged as the user's (another program's) change.
//!
//! Each call starts by asking whether the file changed. A file whose [`Stat`] is
//! exactly what it was right after our last read or write (same inode, size, and
//! modification and change times to the nanosecond) is taken as unchanged without
//! being read; otherwise its content is read and compared by [`Stamp`]. This is
//! safe because no write depends on it: [`Tracked::save`] goes through
//! [`file::save`], which reads and compares the content right before writing, so a
//! change the stat missed (see [`Stat`] for the one kind it can miss: a same-size
//! rewrite in place within one clock tick) makes the save fail rather than
//! overwrite it; the stat is then forgotten, and the engine's retry reads the file
//! and runs the call again on what it holds. What it can cost is a stale read: a
//! call that only reads answers from the board as it was before such a rewrite,
//! until the file's stat moves again or a save notices.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};

use inkboard_core::{diff_boards, Actor, Board, Change, Commit, History};
use inkboard_format::{file, FormatError, Saved, Stamp, Stat};

use crate::ToolError;

/// How many change-log entries are kept per file.
const LOG_LIMIT: usize = 10_000;
/// How many files are kept in memory; the least recently used goes first.
const FILE_LIMIT: usize = 16;

/// One tracked file.
pub(crate) struct Tracked {
    pub board: Board,
    /// What the file held when last read or written.
    stamp: Stamp,
    /// The file's stat then; `None` to make the next sync read the file.
    stat: Option<Stat>,
    /// Changes seen since this process first read the file, oldest first.
    pub log: ChangeLog,
    /// The last revision `board_changes` returned for this file.
    pub last_returned: Option<u64>,
    /// The calls this process committed on the file, to undo and redo from the
    /// chat view (which has no application behind it). Forgotten when the
    /// file changes on disk: another program's change may have taken away what
    /// a step would undo.
    pub history: History,
    used: u64,
}

impl Tracked {
    /// Writes the board to its file, only over what was last read or written there
    /// (see [`file::save`]), and notes what the file holds now. When the save fails
    /// (above all because the file changed on disk), the stat is forgotten, so that
    /// the next sync reads the file instead of trusting it.
    pub fn save(&mut self, path: &Path) -> Result<Saved, FormatError> {
        match file::save(path, &self.board, Some(&self.stamp)) {
            Ok(saved) => {
                self.stamp = saved.stamp.clone();
                self.stat = saved.stat;
                Ok(saved)
            }
            Err(e) => {
                self.stat = None;
                Err(e)
            }
        }
    }

    /// Whether the file at `path` still holds what this board was read from or
    /// written as: yes at once if its stat has not moved, else by its content (see
    /// the module docs).
    fn unchanged_on_disk(&mut self, path: &Path) -> Result<bool, FormatError> {
        let stat = file::stat_of(path)?;
        if stat.is_some() && stat == self.stat {
            return Ok(true);
        }
        // The stat was taken before the content is read, so a change made after it
        // shows as a different stat next time.
        if file::stamp_of(path)?.as_ref() == Some(&self.stamp) {
            // Touched but not changed (or never stat'ed): trust the new stat.
            self.stat = stat;
            return Ok(true);
        }
        Ok(false)
    }
}

/// The changes `board_changes` answers from: every change of the recent past, in
/// order, and the revision before the oldest one kept (asking for changes since an
/// older revision cannot be answered).
pub struct ChangeLog {
    changes: VecDeque<Change>,
    first_revision: u64,
}

impl ChangeLog {
    /// An empty log of a board now at `revision`.
    pub fn new(revision: u64) -> Self {
        ChangeLog {
            changes: VecDeque::new(),
            first_revision: revision,
        }
    }

    /// The revision before the oldest change kept.
    pub fn first_revision(&self) -> u64 {
        self.first_revision
    }

    /// Logs a committed transaction.
    pub fn record(&mut self, commit: &Commit) {
        self.push(commit.changes());
    }

    pub(crate) fn push(&mut self, changes: Vec<Change>) {
        self.changes.extend(changes);
        while self.changes.len() > LOG_LIMIT {
            if let Some(old) = self.changes.pop_front() {
                self.first_revision = self.first_revision.max(old.revision);
            }
        }
    }

    /// Every change kept, oldest first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter()
    }

    /// The changes after `since`, or `None` when they are no longer all known.
    pub fn changes_since(&self, since: u64) -> Option<Vec<Change>> {
        if since < self.first_revision {
            return None;
        }
        Some(
            self.changes
                .iter()
                .filter(|c| c.revision > since)
                .cloned()
                .collect(),
        )
    }
}

#[derive(Default)]
pub(crate) struct Tracker {
    files: HashMap<PathBuf, Tracked>,
    clock: u64,
}

impl Tracker {
    /// Brings the tracked board of `path` up to date with the disk and returns it.
    pub fn sync(&mut self, path: &Path) -> Result<&mut Tracked, ToolError> {
        self.clock += 1;
        let clock = self.clock;
        let fresh = match self.files.get_mut(path) {
            Some(t) => !t.unchanged_on_disk(path)?,
            None => true,
        };
        if fresh {
            let loaded = file::load(path)?;
            match self.files.get_mut(path) {
                Some(t) => {
                    let mut board = loaded.board;
                    let revision = board.revision().max(t.board.revision().saturating_add(1));
                    board.advance_revision(revision);
                    let changes = diff_boards(&t.board, &board, revision, Actor::User);
                    t.log.push(changes);
                    t.history = History::new(History::DEFAULT_LIMIT);
                    t.board = board;
                    t.stamp = loaded.stamp;
                    t.stat = loaded.stat;
                }
                None => {
                    self.evict();
                    self.files.insert(
                        path.to_path_buf(),
                        Tracked {
                            log: ChangeLog::new(loaded.board.revision()),
                            board: loaded.board,
                            stamp: loaded.stamp,
                            stat: loaded.stat,
                            last_returned: None,
                            history: History::new(History::DEFAULT_LIMIT),
                            used: clock,
                        },
                    );
                }
            }
        }
        let t = self
            .files
            .get_mut(path)
            .ok_or_else(|| ToolError::Io(format!("{} could not be tracked", path.display())))?;
        t.used = clock;
        Ok(t)
    }

    /// Starts tracking a board this process has just written (create, save as).
    pub fn adopt(&mut self, path: &Path, board: Board, saved: Saved) {
        self.evict();
        self.clock += 1;
        self.files.insert(
            path.to_path_buf(),
            Tracked {
                log: ChangeLog::new(board.revision()),
                board,
                stamp: saved.stamp,
                stat: saved.stat,
                last_returned: None,
                history: History::new(History::DEFAULT_LIMIT),
                used: self.clock,
            },
        );
    }

    fn evict(&mut self) {
        while self.files.len() >= FILE_LIMIT {
            let Some(oldest) = self
                .files
                .iter()
                .min_by_key(|(_, t)| t.used)
                .map(|(p, _)| p.clone())
            else {
                break;
            };
            self.files.remove(&oldest);
        }
    }
}
