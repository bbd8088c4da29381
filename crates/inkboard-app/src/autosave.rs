//! The autosaver and saving: every changed board is written to its file a moment
//! after its last change; a save that fails for a passing reason (the disk full,
//! the folder gone or read-only, the file replaced by a folder) keeps the changes,
//! tells the windows in words for a person, and is tried again with backoff and
//! whenever the file's folder changes; a file changed on disk goes to `outside.rs`
//! (loaded, or a conflict). At exit, whatever could not be saved is kept in a
//! recovery copy whose path is printed (`recovery.rs`).

use std::io::ErrorKind;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use inkboard_format::{file, FormatError};
use inkboard_tools::ToolError;

use crate::boards::{Boards, Entry, Event, OfferKind, SaveState};
use crate::recovery::{self, Why};

/// How long the autosaver waits after a change for more changes, so that a burst
/// of edits is written once.
const SAVE_DELAY: Duration = Duration::from_millis(150);

/// The first wait before a failed save is tried again; it doubles up to
/// [`RETRY_MAX`].
const RETRY_FIRST: Duration = Duration::from_millis(250);
const RETRY_MAX: Duration = Duration::from_secs(8);

impl Boards {
    /// The autosaver: runs until the process ends, writing every changed board a
    /// moment after its last change, and trying failed saves again.
    pub fn autosave_forever(self: &Arc<Self>) {
        let mut next: Option<Instant> = None;
        loop {
            {
                let mut woken = self.wake_lock.lock().unwrap_or_else(|e| e.into_inner());
                while !*woken {
                    match next {
                        None => woken = self.wake.wait(woken).unwrap_or_else(|e| e.into_inner()),
                        Some(at) => {
                            let now = Instant::now();
                            if at <= now {
                                break;
                            }
                            woken = self
                                .wake
                                .wait_timeout(woken, at - now)
                                .unwrap_or_else(|e| e.into_inner())
                                .0;
                        }
                    }
                }
                *woken = false;
            }
            std::thread::sleep(SAVE_DELAY);
            // A bug in a save must not end this thread: every later change would
            // then go unsaved without a word. The boards stay open with their
            // changes, their windows say so, and the save is tried again.
            next = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.tick()))
                .unwrap_or_else(|_| {
                    tracing::error!(
                        "autosave hit a bug; the boards stay open and keep their changes"
                    );
                    self.saves_hit_a_bug();
                    Some(Instant::now() + RETRY_MAX)
                });
        }
    }

    /// One round of the autosaver: look at files that changed on disk, keep
    /// conflict copies current, save what is due. Answers when to come back for
    /// a retry, if one is waiting.
    fn tick(&self) -> Option<Instant> {
        let _disk = self.disk();
        let now = Instant::now();
        let mut next: Option<Instant> = None;
        let mut retried = false;
        for entry in self.entries() {
            let Some(path) = entry.path() else { continue };
            let look = {
                let mut f = entry.file_state();
                let retry = f.retry_at.is_some_and(|at| at <= now);
                retried |= retry;
                std::mem::take(&mut f.look) || retry
            };
            if look {
                self.look_at_disk(&entry, &path);
            }
            // Due unless a failure (perhaps the look just now) set a later retry.
            let due = entry.file_state().retry_at.is_none_or(|at| at <= now);
            if entry.file_state().offer.as_ref().map(|o| o.kind) == Some(OfferKind::Changed) {
                self.update_conflict_copy(&entry);
            } else if due && entry.unsaved() {
                let _ = self.save_locked(&entry, &path, false);
            }
            if let Some(at) = entry.file_state().retry_at {
                next = Some(next.map_or(at, |n| n.min(at)));
            }
        }
        if retried {
            // A folder that was gone may be back: watch it again.
            self.follow_folders();
        }
        next
    }

    /// Saves one board now, as the person or an agent asked (Ctrl+S,
    /// `save_board`): a waiting retry is tried at once, and a file that is gone
    /// is written there again.
    pub fn save_explicit(&self, entry: &Entry) -> Result<usize, ToolError> {
        let _disk = self.disk();
        let Some(path) = entry.path() else {
            return Err(ToolError::Arguments(
                "this board has no file yet: save it with save_board and 'as'".into(),
            ));
        };
        if entry.file_state().offer.as_ref().map(|o| o.kind) == Some(OfferKind::Changed) {
            return Err(ToolError::Io(self.conflict_words(entry, &path)));
        }
        entry.file_state().retry_at = None;
        self.save_locked(entry, &path, true)
    }

    /// Writes the board to its file; the disk lock is held. `explicit`: the file
    /// may be created again where it is gone.
    pub(crate) fn save_locked(
        &self,
        entry: &Entry,
        path: &Path,
        explicit: bool,
    ) -> Result<usize, ToolError> {
        let board = entry.cell.lock().board.clone();
        let stamp = entry.file_state().stamp.clone();
        let recreate = explicit && matches!(file::stamp_of(path), Ok(None));
        let result = (|| {
            let _lock = file::FileLock::acquire(path)?;
            file::save(path, &board, if recreate { None } else { stamp.as_ref() })
        })();
        match result {
            Ok(saved) => {
                let now = entry.cell.lock().board.revision();
                let done = {
                    let mut f = entry.file_state();
                    f.mark_saved(saved.stamp, board.clone(), board.revision());
                    // Edits made while it was written wait for the next save.
                    if now != board.revision() {
                        f.state = SaveState::Saving;
                    }
                    std::mem::take(&mut f.discard_after_save)
                };
                for kept in &done {
                    recovery::discard(kept);
                }
                self.tell(Event::Meta {
                    board: entry.cell.key,
                });
                Ok(saved.bytes)
            }
            Err(FormatError::ChangedOnDisk { .. } | FormatError::AlreadyExists { .. }) => {
                // Someone else wrote (or removed) the file: never overwritten.
                self.look_at_disk(entry, path);
                let words = match entry.save_state() {
                    SaveState::Failed(words) => words,
                    SaveState::Conflict => self.conflict_words(entry, path),
                    _ => format!(
                        "{} was changed by another program; inkboard loaded it",
                        path.display()
                    ),
                };
                Err(ToolError::Io(words))
            }
            Err(e) => {
                let words = failure_words(path, &e);
                self.failed(entry, words);
                Err(e.into())
            }
        }
    }

    /// A save (or a look at the file) failed for a reason that may pass: say so
    /// and try again later.
    pub(crate) fn failed(&self, entry: &Entry, words: String) {
        {
            let mut f = entry.file_state();
            f.failures = f.failures.saturating_add(1);
            f.retry_at = Some(Instant::now() + retry_wait(f.failures));
            if f.state != SaveState::Failed(words.clone()) {
                tracing::warn!("{words}");
            }
            f.state = SaveState::Failed(words);
        }
        self.tell(Event::Meta {
            board: entry.cell.key,
        });
    }

    /// Marks every board with unsaved changes as failed after a bug in a save.
    fn saves_hit_a_bug(&self) {
        for entry in self.entries() {
            if entry.path().is_some() && entry.unsaved() {
                self.failed(
                    &entry,
                    "inkboard hit a bug while saving this board. Your changes are kept here and inkboard tries again; please report the bug".into(),
                );
            }
        }
    }

    /// Keeps every board that has no file and has changes (an untitled board,
    /// an imported one not yet kept) in a recovery copy, before risky work: a
    /// call, an import or a drawing may be the one that brings the process
    /// down (a bug, a file that exhausts memory), and such a board has nothing
    /// else to come back from. A copy is rewritten only when the board changed
    /// since; it goes once the board is saved to a file; at exit it is the copy
    /// kept. A copy that cannot be written is said in the log; the work goes on.
    pub fn secure_unfiled(&self) {
        let _one = self.securing.lock().unwrap_or_else(|e| e.into_inner());
        for entry in self.entries() {
            let board = {
                // A board a call is at work on was kept before that call began
                // (its changes are not committed yet): never wait for it here.
                let Some(live) = entry.cell.try_lock() else {
                    continue;
                };
                let f = entry.file_state();
                let revision = live.board.revision();
                let kept = f.secured.as_ref().map(|(_, r)| *r);
                if live.path.is_some() || revision == f.saved_revision || kept == Some(revision) {
                    continue;
                }
                live.board.clone()
            };
            let copy = entry.file_state().secured.as_ref().map(|(c, _)| c.clone());
            let kept = match copy {
                Some(copy) => recovery::update(&copy, &board).map(|()| copy),
                None => recovery::keep(&board, None, Why::Unsaved),
            };
            match kept {
                Ok(copy) => entry.file_state().secured = Some((copy, board.revision())),
                Err(e) => tracing::warn!(
                    "cannot keep the unsaved board \"{}\" before a risky step: {e}",
                    board.title()
                ),
            }
        }
    }

    /// What the application does when it stops: one last save of every board
    /// with unsaved changes, then a recovery copy of each that still has some
    /// (or whose conflict is still open). Answers the lines to print.
    pub fn finish(&self) -> Vec<String> {
        let _disk = self.disk();
        let mut lines = Vec::new();
        for entry in self.entries() {
            let path = entry.path();
            let offer = entry.offer();
            let conflict = offer.as_ref().filter(|o| o.kind == OfferKind::Changed);
            if let (Some(path), None) = (&path, conflict) {
                if entry.unsaved() {
                    let _ = self.save_locked(&entry, path, false);
                }
            }
            let board = entry.cell.lock().board.clone();
            let what = match &path {
                Some(path) => format!("the unsaved changes to {}", path.display()),
                None => format!("the unsaved board \"{}\"", board.title()),
            };
            let secured = entry.file_state().secured.take().map(|(copy, _)| copy);
            let kept = match (conflict, secured) {
                (Some(offer), _) => {
                    recovery::update(&offer.recovery, &board).map(|_| offer.recovery.clone())
                }
                // The copy kept before risky work becomes the one kept at exit.
                (None, Some(copy)) => recovery::update(&copy, &board).map(|()| copy),
                (None, None) if entry.unsaved() => {
                    recovery::keep(&board, path.as_deref(), Why::Unsaved)
                }
                (None, None) => continue,
            };
            lines.push(match (kept, &path) {
                (Ok(kept), Some(path)) => format!(
                    "inkboard: {what} were kept in {}; `inkboard open {}` offers them",
                    kept.copy.display(),
                    path.display()
                ),
                (Ok(kept), None) => format!(
                    "inkboard: {what} was kept in {}; open it with `inkboard open {}`",
                    kept.copy.display(),
                    kept.copy.display()
                ),
                (Err(e), _) => format!("inkboard: could not keep {what}: {e}"),
            });
        }
        lines
    }
}

/// How long to wait before trying again after `failures` failures in a row:
/// [`RETRY_FIRST`] after the first, doubling up to [`RETRY_MAX`].
fn retry_wait(failures: u32) -> Duration {
    RETRY_FIRST
        .saturating_mul(1 << failures.min(8).saturating_sub(1))
        .min(RETRY_MAX)
}

/// Why a save failed, and what to do, in words for a person (not a tool name).
pub(crate) fn failure_words(path: &Path, error: &FormatError) -> String {
    let file = path.display();
    let folder = path.parent().unwrap_or(Path::new(".")).display();
    let kept = "Your changes are kept here";
    match error {
        FormatError::Io { source, .. } => match source.kind() {
            ErrorKind::StorageFull | ErrorKind::QuotaExceeded => format!(
                "The disk is full, so {file} cannot be saved. {kept}: free some space and they are saved on their own."
            ),
            ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem => format!(
                "inkboard is not allowed to write in {folder}. {kept}: make the folder writable again and they are saved on their own."
            ),
            ErrorKind::NotFound => format!(
                "The folder {folder} is gone (moved or deleted). {kept}: put it back and they are saved on their own."
            ),
            ErrorKind::IsADirectory => format!(
                "{file} is now a folder, not a board file. {kept}: move that folder away and they are saved on their own."
            ),
            _ => format!("{file} cannot be saved ({source}). {kept}, and inkboard keeps trying."),
        },
        FormatError::LockTimeout { .. } => format!(
            "Another inkboard program has held {file} for a long time. {kept}, and inkboard keeps trying."
        ),
        other => format!("{file} cannot be saved: {other}. {kept}, and inkboard keeps trying."),
    }
}

#[cfg(test)]
mod tests {
    //! The autosaver's rounds ([`Boards::tick`]) on boards in real files: what
    //! is saved, what fails and is tried again, what is kept at exit.

    use std::fs;
    use std::io;
    use std::path::PathBuf;

    use super::*;
    use crate::testing::{board_of, edit, edit_file, file_texts, folder, live_texts, open, texts};

    fn failed_words(entry: &Entry) -> String {
        match entry.save_state() {
            SaveState::Failed(words) => words,
            other => panic!("expected a failure, found {other:?}"),
        }
    }

    /// Time passes until a waiting retry is due.
    fn retry_is_due(entry: &Entry) {
        let mut f = entry.file_state();
        assert!(f.retry_at.is_some(), "a retry waits");
        f.retry_at = Some(Instant::now());
    }

    #[test]
    fn retries_wait_a_quarter_second_then_double_up_to_eight_seconds() {
        let ms = |n| retry_wait(n).as_millis();
        let waits: Vec<u128> = (1..=8).map(ms).collect();
        assert_eq!(waits, [250, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
        assert_eq!(ms(0), 250);
        assert_eq!(ms(u32::MAX), 8000, "no overflow however long it fails");
    }

    #[test]
    fn a_round_saves_changed_boards_and_leaves_clean_ones_alone() {
        let dir = folder();
        let (boards, changed, path) = open(dir.path(), "one.inkboard", &["a"]);
        let clean_path = crate::testing::write_new(dir.path(), "two.inkboard", &board_of(&["b"]));
        let clean = boards
            .entry(boards.open_file(&clean_path).unwrap())
            .unwrap();
        let clean_bytes = fs::read(&clean_path).unwrap();
        edit(&boards, &changed, 0, "edited");
        assert_eq!(changed.save_state(), SaveState::Saving);
        assert_eq!(boards.tick(), None, "no retry waits");
        assert_eq!(file_texts(&path), ["edited"]);
        assert_eq!(changed.save_state(), SaveState::Saved);
        assert!(!changed.unsaved());
        assert_eq!(fs::read(&clean_path).unwrap(), clean_bytes);
        assert_eq!(clean.save_state(), SaveState::Saved);
    }

    #[test]
    fn a_round_looks_at_a_file_the_watcher_flagged() {
        let dir = folder();
        let (boards, entry, path) = open(dir.path(), "w.inkboard", &["a"]);
        edit_file(&path, 0, "theirs");
        boards.tick();
        assert_eq!(live_texts(&entry), ["a"], "nothing seen, nothing loaded");
        entry.file_state().look = true;
        boards.tick();
        assert_eq!(live_texts(&entry), ["theirs"]);
        assert!(!entry.file_state().look, "the flag is taken");
    }

    #[test]
    fn a_failed_save_keeps_the_changes_and_is_tried_again_when_due() {
        let dir = folder();
        let (boards, entry, path) = open(dir.path(), "f.inkboard", &["a"]);
        let bytes = fs::read(&path).unwrap();
        edit(&boards, &entry, 0, "mine");
        // The file becomes a folder: the save cannot go there for now.
        fs::remove_file(&path).unwrap();
        fs::create_dir(&path).unwrap();
        let next = boards.tick().expect("a retry is waiting");
        assert!(failed_words(&entry).contains("is now a folder"));
        assert_eq!(entry.file_state().retry_at, Some(next));
        assert_eq!(entry.file_state().failures, 1);
        // Before the retry is due, a round does not try again.
        boards.tick();
        assert_eq!(entry.file_state().failures, 1);
        assert_eq!(live_texts(&entry), ["mine"], "the changes are kept");
        // The folder goes, the file is back as it was: the retry saves.
        fs::remove_dir(&path).unwrap();
        fs::write(&path, bytes).unwrap();
        retry_is_due(&entry);
        assert_eq!(boards.tick(), None);
        assert_eq!(entry.save_state(), SaveState::Saved);
        assert_eq!(entry.file_state().failures, 0);
        assert!(entry.file_state().retry_at.is_none());
        assert_eq!(file_texts(&path), ["mine"]);
    }

    #[test]
    fn failures_in_a_row_wait_longer_each_time() {
        let dir = folder();
        let (boards, entry, _path) = open(dir.path(), "r.inkboard", &["a"]);
        let mut rx = boards.subscribe();
        for n in 1..=4 {
            let before = Instant::now();
            boards.failed(&entry, "the disk is full".into());
            let f = entry.file_state();
            assert_eq!(f.failures, n);
            let at = f.retry_at.expect("a retry waits");
            assert!(at >= before + retry_wait(n), "failure {n}");
            assert!(at <= Instant::now() + retry_wait(n), "failure {n}");
        }
        assert_eq!(failed_words(&entry), "the disk is full");
        let key = entry.cell.key;
        assert_eq!(rx.try_recv().ok(), Some(Event::Meta { board: key }));
    }

    #[test]
    fn an_explicit_save_writes_a_gone_file_again_and_the_autosaver_does_not() {
        let dir = folder();
        let (boards, entry, path) = open(dir.path(), "g.inkboard", &["a"]);
        edit(&boards, &entry, 0, "mine");
        fs::remove_file(&path).unwrap();
        boards.tick();
        assert!(failed_words(&entry).contains("is gone"));
        assert!(!path.exists(), "the autosaver does not bring a file back");
        boards
            .save_explicit(&entry)
            .expect("Ctrl+S writes it there again");
        assert_eq!(file_texts(&path), ["mine"]);
        assert_eq!(entry.save_state(), SaveState::Saved);
        assert!(entry.file_state().retry_at.is_none());
    }

    #[test]
    fn an_explicit_save_of_a_board_without_a_file_is_refused() {
        let boards = Boards::new();
        let entry = boards.open_untitled();
        assert!(matches!(
            boards.save_explicit(&entry),
            Err(ToolError::Arguments(_))
        ));
        assert_eq!(entry.save_state(), SaveState::Unsaved);
    }

    #[test]
    fn a_bug_in_a_save_marks_only_boards_with_unsaved_changes_failed() {
        let dir = folder();
        let (boards, changed, _) = open(dir.path(), "c.inkboard", &["a"]);
        let clean_path = crate::testing::write_new(dir.path(), "k.inkboard", &board_of(&["b"]));
        let clean = boards
            .entry(boards.open_file(&clean_path).unwrap())
            .unwrap();
        let untitled = boards.open_new(board_of(&["u"]));
        edit(&boards, &changed, 0, "mine");
        edit(&boards, &untitled, 0, "new");
        boards.saves_hit_a_bug();
        assert!(failed_words(&changed).contains("bug"));
        assert_eq!(clean.save_state(), SaveState::Saved);
        assert_eq!(untitled.save_state(), SaveState::Unsaved);
    }

    #[test]
    fn at_exit_what_can_be_saved_is_and_the_rest_is_kept_in_copies() {
        let _untitled = crate::testing::untitled();
        let dir = folder();
        let (boards, saved, saved_path) = open(dir.path(), "exit-saved.inkboard", &["a"]);
        let stuck_path =
            crate::testing::write_new(dir.path(), "exit-stuck.inkboard", &board_of(&["b"]));
        let stuck = boards
            .entry(boards.open_file(&stuck_path).unwrap())
            .unwrap();
        let clean_path =
            crate::testing::write_new(dir.path(), "exit-clean.inkboard", &board_of(&["c"]));
        boards.open_file(&clean_path).unwrap();
        let untitled = boards.open_new(board_of(&["u"]));
        edit(&boards, &saved, 0, "saved at exit");
        edit(&boards, &stuck, 0, "kept at exit");
        edit(&boards, &untitled, 0, "never had a file");
        fs::remove_file(&stuck_path).unwrap();
        fs::create_dir(&stuck_path).unwrap();

        let lines = boards.finish();
        assert_eq!(lines.len(), 2, "{lines:#?}");
        assert_eq!(file_texts(&saved_path), ["saved at exit"]);
        let kept = recovery::pending(&stuck_path, None);
        assert_eq!(kept.len(), 1);
        assert_eq!(texts(&recovery::load(&kept[0]).unwrap()), ["kept at exit"]);
        let offered = format!("`inkboard open {}` offers them", stuck_path.display());
        assert!(lines.iter().any(|l| l.ends_with(&offered)), "{lines:#?}");
        let untitled_line = lines
            .iter()
            .find(|l| l.contains("the unsaved board \"Test\""))
            .expect("the untitled board is kept");
        let copy = untitled_line
            .split("was kept in ")
            .nth(1)
            .and_then(|rest| rest.split(';').next())
            .map(PathBuf::from)
            .expect("the line names the copy");
        let untitled_copy = recovery::all()
            .into_iter()
            .find(|r| r.copy == copy)
            .expect("the copy has its sidecar");
        assert_eq!(untitled_copy.file, None);
        assert_eq!(
            texts(&recovery::load(&untitled_copy).unwrap()),
            ["never had a file"]
        );
        recovery::discard(&kept[0]);
        recovery::discard(&untitled_copy);
    }

    #[test]
    fn at_exit_an_open_conflict_is_kept_in_its_copy_and_the_file_left_alone() {
        let dir = folder();
        let (boards, entry, path) = open(dir.path(), "exit-conflict.inkboard", &["a", "b"]);
        edit(&boards, &entry, 0, "mine");
        edit_file(&path, 0, "theirs");
        entry.file_state().look = true;
        boards.tick();
        assert_eq!(entry.save_state(), SaveState::Conflict);
        edit(&boards, &entry, 1, "later");
        let theirs = fs::read(&path).unwrap();
        let lines = boards.finish();
        let copy = entry.offer().unwrap().recovery;
        assert_eq!(lines.len(), 1);
        assert!(
            lines[0].contains(&copy.copy.display().to_string()),
            "{}",
            lines[0]
        );
        assert_eq!(texts(&recovery::load(&copy).unwrap()), ["mine", "later"]);
        assert_eq!(fs::read(&path).unwrap(), theirs);
        recovery::discard(&copy);
    }

    #[test]
    fn failures_are_told_in_words_for_a_person() {
        let path = Path::new("/boards/plan.inkboard");
        let io = |kind| FormatError::Io {
            action: "write",
            path: path.to_path_buf(),
            source: io::Error::from(kind),
        };
        let cases = [
            (
                io(ErrorKind::StorageFull),
                "The disk is full, so /boards/plan.inkboard",
            ),
            (io(ErrorKind::QuotaExceeded), "The disk is full"),
            (
                io(ErrorKind::PermissionDenied),
                "not allowed to write in /boards.",
            ),
            (
                io(ErrorKind::ReadOnlyFilesystem),
                "not allowed to write in /boards.",
            ),
            (io(ErrorKind::NotFound), "The folder /boards is gone"),
            (
                io(ErrorKind::IsADirectory),
                "/boards/plan.inkboard is now a folder",
            ),
            (
                io(ErrorKind::Interrupted),
                "cannot be saved (operation interrupted)",
            ),
            (
                FormatError::LockTimeout {
                    path: path.to_path_buf(),
                    seconds: 10,
                },
                "Another inkboard program has held /boards/plan.inkboard",
            ),
        ];
        for (error, want) in cases {
            let words = failure_words(path, &error);
            assert!(words.contains(want), "{error:?}: {words}");
            assert!(words.contains("Your changes are kept here"), "{words}");
        }
    }
}
