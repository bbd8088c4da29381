//! A board's file changed on disk (a text editor, `git pull`, another program):
//! what the application does about it, and the person's choice when it is a
//! conflict.
//!
//! When the board has no unsaved changes, the file's new content is loaded as one
//! new revision (a [`Transaction`] that turns the board into it, `turn_into`), so
//! the windows redraw, `board_changes` lists it and Ctrl+Z takes it back. When the
//! board has unsaved changes to other records than the file's change touched, the
//! two are merged the same way (`merge_from`, from the board the file last held)
//! and the result saved. When both changed the same record, that is a conflict:
//! the board's version is kept in a
//! recovery copy (`recovery.rs`), kept current while edits go on landing on the
//! board, the file is left alone, and the windows show a banner offering
//! [`Choice`]s: keep mine, take theirs, open both. The same choices settle the
//! unsaved changes of an earlier session found when a file is opened.
//!
//! A program that rewrites the file in place (truncates it, then writes) wakes
//! the watcher while the file is still empty or half written; [`file::load`]
//! then waits for it to be whole (`file/settle.rs` in `inkboard-format`), so the
//! new content is loaded rather than reported as a file that does not read.

use std::path::Path;

use inkboard_core::{Actor, Board, Transaction};
use inkboard_format::file;
use inkboard_tools::ToolError;

use crate::autosave::failure_words;
use crate::boards::{Boards, Entry, Event, Offer, OfferKind, SaveState};
use crate::recovery::{self, Why};

/// The person's choice between two versions of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The version with the person's unsaved changes goes to the file.
    Mine,
    /// The file's version stays (a conflict: it is loaded as a new revision, so
    /// Ctrl+Z still gives the person's version back).
    Theirs,
    /// The file's version stays in this board, and the person's version opens as
    /// a board of its own, saved beside the file.
    Both,
}

impl Choice {
    /// `mine`, `theirs` or `both`.
    pub fn parse(word: &str) -> Option<Choice> {
        match word {
            "mine" => Some(Choice::Mine),
            "theirs" => Some(Choice::Theirs),
            "both" => Some(Choice::Both),
            _ => None,
        }
    }
}

impl Boards {
    /// Looks at a board's file after a change was seen (or a save was refused
    /// because the file changed); the disk lock is held.
    pub(crate) fn look_at_disk(&self, entry: &Entry, path: &Path) {
        if entry.file_state().offer.as_ref().map(|o| o.kind) == Some(OfferKind::Changed) {
            // Settled by the person's choice, which reads the file as it is then.
            return;
        }
        let on_disk = match file::stamp_of(path) {
            Ok(Some(stamp)) => stamp,
            Ok(None) => {
                let words = format!(
                    "{} is gone (moved, renamed or deleted). Your changes are kept here: put the file back and they are saved on their own, or press Save (Ctrl+S) to write it there again.",
                    path.display()
                );
                self.failed(entry, words);
                return;
            }
            Err(e) => {
                self.failed(entry, failure_words(path, &e));
                return;
            }
        };
        if entry.file_state().stamp.as_ref() == Some(&on_disk) {
            // Our own write, or the file back as it was.
            let unsaved = entry.unsaved();
            let mut f = entry.file_state();
            if matches!(f.state, SaveState::Failed(_)) && !unsaved {
                f.state = SaveState::Saved;
                f.failures = 0;
                f.retry_at = None;
                drop(f);
                self.tell(Event::Meta {
                    board: entry.cell.key,
                });
            }
            return;
        }
        let loaded = (|| {
            let _lock = file::FileLock::acquire(path)?;
            file::load(path)
        })();
        let loaded = match loaded {
            Ok(loaded) => loaded,
            Err(e) => {
                let words = format!(
                    "{} was changed by another program and does not read as a board now ({e}). Your board is kept here; inkboard looks again when the file changes.",
                    path.display()
                );
                self.failed(entry, words);
                return;
            }
        };
        let mut live = entry.cell.lock();
        let mut f = entry.file_state();
        if live.board.revision() != f.saved_revision {
            // Unsaved changes here: merged if the two changed different records.
            let live = &mut *live;
            let merged = f.base.as_ref().and_then(|base| {
                let mut tx = Transaction::begin(&mut live.board);
                tx.merge_from(base, &loaded.board).ok()?;
                tx.commit(Actor::User).ok()
            });
            if let Some(commit) = merged {
                if let Some(commit) = &commit {
                    live.record(commit);
                }
                // The file holds theirs; the merged board is saved over it next.
                f.stamp = Some(loaded.stamp);
                f.base = Some(loaded.board);
                f.state = SaveState::Saving;
                f.failures = 0;
                f.retry_at = None;
                drop(f);
                self.tell(Event::Changed {
                    board: entry.cell.key,
                });
                self.tell(Event::Meta {
                    board: entry.cell.key,
                });
                self.wake_autosaver();
                return;
            }
            let board = live.board.clone();
            drop(f);
            self.conflict(entry, path, &board);
            return;
        }
        // Nothing unsaved here: the file's version becomes the next revision.
        let live = &mut *live;
        let mut tx = Transaction::begin(&mut live.board);
        let turned = tx
            .turn_into(&loaded.board)
            .and_then(|_| tx.commit(Actor::User));
        match turned {
            Ok(commit) => {
                if let Some(commit) = &commit {
                    live.record(commit);
                }
                f.mark_saved(loaded.stamp, loaded.board, live.board.revision());
            }
            Err(e) => {
                drop(f);
                let words = format!(
                    "{} was changed by another program, and its new content could not be loaded ({e}). Your board is kept here.",
                    path.display()
                );
                self.failed(entry, words);
                return;
            }
        }
        drop(f);
        self.tell(Event::Changed {
            board: entry.cell.key,
        });
        self.tell(Event::Meta {
            board: entry.cell.key,
        });
    }

    /// The file changed while the board had unsaved changes: keep the board's
    /// version in a recovery copy and ask the person.
    fn conflict(&self, entry: &Entry, path: &Path, board: &Board) {
        match recovery::keep(board, Some(path), Why::Conflict) {
            Ok(kept) => {
                eprintln!(
                    "inkboard: {} was changed by another program while it had unsaved changes here; they are kept in {} until you choose in the editor",
                    path.display(),
                    kept.copy.display()
                );
                let mut f = entry.file_state();
                f.copy_revision = board.revision();
                f.failures = 0;
                f.retry_at = None;
                f.state = SaveState::Conflict;
                if let Some(earlier) = f.offer.take() {
                    f.queued.insert(0, earlier.recovery);
                }
                f.offer = Some(Offer {
                    kind: OfferKind::Changed,
                    recovery: kept,
                });
                drop(f);
                self.tell(Event::Meta {
                    board: entry.cell.key,
                });
            }
            Err(e) => {
                let words = format!(
                    "{} was changed by another program while this board had unsaved changes, and inkboard could not keep a copy of them ({e}). They are still open here: keep inkboard running; it tries again.",
                    path.display()
                );
                self.failed(entry, words);
            }
        }
    }

    /// Rewrites the conflict copy if the board moved on since it was written.
    pub(crate) fn update_conflict_copy(&self, entry: &Entry) {
        let board = entry.cell.lock().board.clone();
        let offer = {
            let f = entry.file_state();
            if f.copy_revision == board.revision() {
                return;
            }
            f.offer.clone()
        };
        let Some(offer) = offer else { return };
        match recovery::update(&offer.recovery, &board) {
            Ok(()) => entry.file_state().copy_revision = board.revision(),
            Err(e) => tracing::warn!("cannot update the recovery copy: {e}"),
        }
    }

    /// What to tell an agent that asks to save during a conflict.
    pub(crate) fn conflict_words(&self, entry: &Entry, path: &Path) -> String {
        let copy = entry
            .offer()
            .map(|o| o.recovery.copy.display().to_string())
            .unwrap_or_default();
        format!(
            "{} was changed by another program while this board had unsaved changes; the board's version is kept in {copy} and on screen, and the person chooses in the editor which one the file keeps",
            path.display()
        )
    }

    /// Settles the version offered on board `key` as the person chose; answers
    /// the board opened for "open both".
    pub fn resolve(&self, key: u32, choice: Choice) -> Result<Option<u32>, ToolError> {
        let entry = self
            .entry(key)
            .ok_or_else(|| ToolError::Io("that board is no longer open".into()))?;
        let _disk = self.disk();
        let (Some(offer), Some(path)) = (entry.offer(), entry.path()) else {
            return Err(ToolError::Arguments(
                "there is nothing to choose on this board".into(),
            ));
        };
        let mut opened = None;
        match (offer.kind, choice) {
            (OfferKind::Changed, Choice::Mine) => {
                let board = entry.cell.lock().board.clone();
                let saved = (|| {
                    let _lock = file::FileLock::acquire(&path)?;
                    file::save_overwrite(&path, &board)
                })()?;
                // Keep mine: written, so an earlier failure's retry is over too.
                let revision = board.revision();
                entry.file_state().mark_saved(saved.stamp, board, revision);
            }
            (OfferKind::Changed, Choice::Theirs | Choice::Both) => {
                let mine = entry.cell.lock().board.clone();
                self.take_file(&entry, &path)?;
                if choice == Choice::Both {
                    opened = Some(self.open_beside(&path, &mine, "conflict")?);
                }
            }
            (OfferKind::Recovered, Choice::Mine) => {
                let kept = recovery::load(&offer.recovery)?;
                self.turn(&entry, &kept)?;
                entry
                    .file_state()
                    .discard_after_save
                    .push(offer.recovery.clone());
                self.after_commit(&entry);
            }
            (OfferKind::Recovered, Choice::Theirs) => {}
            (OfferKind::Recovered, Choice::Both) => {
                let kept = recovery::load(&offer.recovery)?;
                opened = Some(self.open_beside(&path, &kept, "recovered")?);
            }
        }
        {
            let mut f = entry.file_state();
            if !f.discard_after_save.contains(&offer.recovery) {
                recovery::discard(&offer.recovery);
            }
            f.offer = (!f.queued.is_empty()).then(|| Offer {
                kind: OfferKind::Recovered,
                recovery: f.queued.remove(0),
            });
            if f.state == SaveState::Conflict {
                f.state = SaveState::Saving;
            }
        }
        self.tell(Event::Meta { board: key });
        Ok(opened)
    }

    /// Loads the file into the board as a new revision, whatever the board holds.
    fn take_file(&self, entry: &Entry, path: &Path) -> Result<(), ToolError> {
        let loaded = (|| {
            let _lock = file::FileLock::acquire(path)?;
            file::load(path)
        })()
        .map_err(|e| match e {
            inkboard_format::FormatError::NotFound { .. } => ToolError::Io(format!(
                "{} is gone, so there is no other version to take: choose Keep mine to write yours there again",
                path.display()
            )),
            e => e.into(),
        })?;
        let revision = self.turn(entry, &loaded.board)?;
        entry
            .file_state()
            .mark_saved(loaded.stamp, loaded.board, revision);
        Ok(())
    }

    /// Turns the board into `target` as one commit of the person (one undo step);
    /// answers the revision reached. Windows are told; saving is the caller's.
    fn turn(&self, entry: &Entry, target: &Board) -> Result<u64, ToolError> {
        let mut live = entry.cell.lock();
        let live = &mut *live;
        let mut tx = Transaction::begin(&mut live.board);
        tx.turn_into(target)?;
        if let Some(commit) = tx.commit(Actor::User)? {
            live.record(&commit);
        }
        let revision = live.board.revision();
        self.tell(Event::Changed {
            board: entry.cell.key,
        });
        Ok(revision)
    }

    /// Saves `board` as a new file beside `path` and opens it: "open both".
    fn open_beside(&self, path: &Path, board: &Board, what: &str) -> Result<u32, ToolError> {
        // A name the application chose, beside the person's file: made by the
        // rule of exports, never through a link planted there (`newfile.rs`).
        let (made, _) = crate::newfile::create(&recovery::beside(path, what), board)?;
        self.open_file(&made)
    }
}

#[cfg(test)]
mod tests {
    //! A board on a real file, changed on disk by "another program" (a plain
    //! rewrite of the file) while the board is clean, has unsaved changes
    //! elsewhere, or has unsaved changes to the same record; then each choice.

    use std::fs;
    use std::path::PathBuf;
    use std::sync::Arc;

    use super::*;
    use crate::recovery::Recovery;
    use crate::testing::{
        board_of, edit, edit_file, file_texts, folder, live_texts, open, texts, write_new,
    };

    /// What the watcher and the autosaver do when a change is seen.
    fn look(boards: &Boards, entry: &Entry, path: &Path) {
        let _disk = boards.disk();
        boards.look_at_disk(entry, path);
    }

    /// The autosaver's save of one board.
    fn autosave(boards: &Boards, entry: &Entry, path: &Path) -> Result<usize, ToolError> {
        let _disk = boards.disk();
        boards.save_locked(entry, path, false)
    }

    fn events(rx: &mut tokio::sync::broadcast::Receiver<Event>) -> Vec<Event> {
        std::iter::from_fn(|| rx.try_recv().ok()).collect()
    }

    /// A board with "mine" on its first shape, unsaved, whose file got "theirs"
    /// on the same shape: an open conflict.
    /// Each test names its own file: copies of all tests share one folder.
    fn conflicted(dir: &Path, name: &str) -> (Arc<Boards>, Arc<Entry>, PathBuf) {
        let (boards, entry, path) = open(dir, name, &["a", "b"]);
        edit(&boards, &entry, 0, "mine");
        edit_file(&path, 0, "theirs");
        look(&boards, &entry, &path);
        assert_eq!(entry.save_state(), SaveState::Conflict);
        (boards, entry, path)
    }

    fn copy_of(entry: &Entry) -> Recovery {
        entry.offer().expect("a version is offered").recovery
    }

    #[test]
    fn choices_parse_from_their_wire_words_only() {
        assert_eq!(Choice::parse("mine"), Some(Choice::Mine));
        assert_eq!(Choice::parse("theirs"), Some(Choice::Theirs));
        assert_eq!(Choice::parse("both"), Some(Choice::Both));
        assert_eq!(Choice::parse("Mine"), None);
        assert_eq!(Choice::parse(""), None);
    }

    #[test]
    fn an_outside_change_to_a_clean_board_is_loaded_as_one_undoable_revision() {
        let dir = folder();
        let (boards, entry, path) = open(dir.path(), "b.inkboard", &["a", "b"]);
        let before = entry.cell.lock().board.revision();
        let mut rx = boards.subscribe();
        edit_file(&path, 0, "theirs");
        look(&boards, &entry, &path);
        assert_eq!(live_texts(&entry), ["theirs", "b"]);
        assert!(entry.cell.lock().board.revision() > before);
        assert_eq!(entry.save_state(), SaveState::Saved);
        assert!(!entry.unsaved(), "the board is what the file holds");
        let key = entry.cell.key;
        assert_eq!(
            events(&mut rx),
            [Event::Changed { board: key }, Event::Meta { board: key }]
        );
        // The stamp follows the file: the next save is not refused as a change.
        edit(&boards, &entry, 1, "next");
        autosave(&boards, &entry, &path).expect("saved over the loaded file");
        assert_eq!(file_texts(&path), ["theirs", "next"]);
        // Ctrl+Z takes the loaded change back like any other.
        assert!(boards.undo(key, false).unwrap());
        assert!(boards.undo(key, false).unwrap());
        assert_eq!(live_texts(&entry), ["a", "b"]);
    }

    #[test]
    fn a_look_at_an_unchanged_file_changes_nothing() {
        let dir = folder();
        let (boards, entry, path) = open(dir.path(), "b.inkboard", &["a"]);
        let before = entry.cell.lock().board.revision();
        let mut rx = boards.subscribe();
        look(&boards, &entry, &path);
        assert_eq!(entry.cell.lock().board.revision(), before);
        assert_eq!(entry.save_state(), SaveState::Saved);
        assert_eq!(events(&mut rx), []);
    }

    #[test]
    fn unsaved_changes_to_other_records_are_merged_and_saved_over_the_file() {
        let dir = folder();
        let (boards, entry, path) = open(dir.path(), "m.inkboard", &["a", "b"]);
        edit(&boards, &entry, 0, "mine");
        edit_file(&path, 1, "theirs");
        look(&boards, &entry, &path);
        assert_eq!(live_texts(&entry), ["mine", "theirs"]);
        assert_eq!(entry.save_state(), SaveState::Saving);
        assert!(entry.offer().is_none(), "a merge asks nothing");
        assert_eq!(file_texts(&path), ["a", "theirs"], "not written yet");
        autosave(&boards, &entry, &path).expect("the merged board is saved");
        assert_eq!(file_texts(&path), ["mine", "theirs"]);
        assert_eq!(entry.save_state(), SaveState::Saved);
        assert!(!entry.unsaved());
    }

    #[test]
    fn both_changing_one_record_is_a_conflict_that_overwrites_nothing() {
        let dir = folder();
        let (boards, entry, path) = open(dir.path(), "conflict.inkboard", &["a", "b"]);
        edit(&boards, &entry, 0, "mine");
        edit_file(&path, 0, "theirs");
        let theirs = fs::read(&path).unwrap();
        look(&boards, &entry, &path);
        assert_eq!(entry.save_state(), SaveState::Conflict);
        let offer = entry.offer().expect("the banner offers a choice");
        assert_eq!(offer.kind, OfferKind::Changed);
        assert_eq!(offer.recovery.file.as_deref(), Some(path.as_path()));
        assert_eq!(
            texts(&recovery::load(&offer.recovery).unwrap()),
            ["mine", "b"]
        );
        assert_eq!(live_texts(&entry), ["mine", "b"], "the screen keeps mine");
        // Neither the autosaver nor an explicit save writes over theirs.
        let refused = boards.save_explicit(&entry).unwrap_err();
        assert!(
            refused
                .to_string()
                .contains(&offer.recovery.copy.display().to_string()),
            "{refused}"
        );
        assert!(autosave(&boards, &entry, &path).is_err());
        assert_eq!(fs::read(&path).unwrap(), theirs);
        recovery::discard(&offer.recovery);
    }

    #[test]
    fn edits_during_a_conflict_keep_its_copy_current_and_later_file_changes_wait() {
        let dir = folder();
        let (boards, entry, path) = conflicted(dir.path(), "edits.inkboard");
        edit(&boards, &entry, 1, "more");
        boards.update_conflict_copy(&entry);
        assert_eq!(
            texts(&recovery::load(&copy_of(&entry)).unwrap()),
            ["mine", "more"]
        );
        // Another change to the file is not loaded over the open question...
        edit_file(&path, 0, "theirs again");
        look(&boards, &entry, &path);
        assert_eq!(live_texts(&entry), ["mine", "more"]);
        assert_eq!(entry.save_state(), SaveState::Conflict);
        // ...and "take theirs" takes the file as it is when chosen.
        boards.resolve(entry.cell.key, Choice::Theirs).unwrap();
        assert_eq!(live_texts(&entry), ["theirs again", "b"]);
    }

    #[test]
    fn keep_mine_writes_the_board_over_the_file_and_saving_goes_on() {
        let dir = folder();
        let (boards, entry, path) = conflicted(dir.path(), "mine.inkboard");
        let copy = copy_of(&entry);
        assert_eq!(boards.resolve(entry.cell.key, Choice::Mine).unwrap(), None);
        assert_eq!(file_texts(&path), ["mine", "b"]);
        assert_eq!(entry.save_state(), SaveState::Saved);
        assert!(entry.offer().is_none());
        assert!(!copy.copy.exists(), "the copy is settled");
        // Not stuck: the next edit is saved as usual.
        edit(&boards, &entry, 1, "after");
        autosave(&boards, &entry, &path).expect("saving goes on");
        assert_eq!(file_texts(&path), ["mine", "after"]);
    }

    #[test]
    fn take_theirs_loads_the_file_and_undo_gives_mine_back() {
        let dir = folder();
        let (boards, entry, path) = conflicted(dir.path(), "theirs.inkboard");
        let copy = copy_of(&entry);
        assert_eq!(
            boards.resolve(entry.cell.key, Choice::Theirs).unwrap(),
            None
        );
        assert_eq!(live_texts(&entry), ["theirs", "b"]);
        assert_eq!(entry.save_state(), SaveState::Saved);
        assert!(!entry.unsaved());
        assert!(!copy.copy.exists());
        assert!(boards.undo(entry.cell.key, false).unwrap());
        assert_eq!(live_texts(&entry), ["mine", "b"]);
        assert!(entry.unsaved(), "mine, back, is a change to save");
        autosave(&boards, &entry, &path).expect("saved");
        assert_eq!(file_texts(&path), ["mine", "b"]);
    }

    #[test]
    fn open_both_keeps_theirs_here_and_opens_mine_beside_the_file() {
        let dir = folder();
        let (boards, entry, path) = conflicted(dir.path(), "both.inkboard");
        let other = boards
            .resolve(entry.cell.key, Choice::Both)
            .unwrap()
            .expect("a second board opens");
        assert_eq!(live_texts(&entry), ["theirs", "b"]);
        assert_eq!(file_texts(&path), ["theirs", "b"]);
        let beside = boards.entry(other).unwrap().path().unwrap();
        assert_eq!(beside.parent(), path.parent());
        let name = beside.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("both.conflict-"), "{name}");
        assert_eq!(file_texts(&beside), ["mine", "b"]);
        assert!(entry.offer().is_none());
    }

    #[test]
    fn choosing_with_nothing_offered_or_no_board_is_refused() {
        let dir = folder();
        let (boards, entry, _path) = open(dir.path(), "n.inkboard", &["a"]);
        assert!(matches!(
            boards.resolve(entry.cell.key, Choice::Mine),
            Err(ToolError::Arguments(_))
        ));
        assert!(matches!(
            boards.resolve(999, Choice::Theirs),
            Err(ToolError::Io(_))
        ));
    }

    /// A board file with a copy of "old" kept for it by an earlier session.
    fn with_earlier_copy(dir: &Path, name: &str) -> (Arc<Boards>, Arc<Entry>, PathBuf) {
        let path = write_new(dir, name, &board_of(&["a", "b"]));
        recovery::keep(&board_of(&["old", "b"]), Some(&path), Why::Unsaved).unwrap();
        let boards = Boards::new();
        let key = boards.open_file(&path).unwrap();
        let entry = boards.entry(key).unwrap();
        assert_eq!(entry.offer().map(|o| o.kind), Some(OfferKind::Recovered));
        (boards, entry, path)
    }

    #[test]
    fn a_kept_copy_taken_as_mine_becomes_the_board_and_goes_once_saved() {
        let dir = folder();
        let (boards, entry, path) = with_earlier_copy(dir.path(), "kmine.inkboard");
        let copy = copy_of(&entry);
        boards.resolve(entry.cell.key, Choice::Mine).unwrap();
        assert_eq!(live_texts(&entry), ["old", "b"]);
        assert!(entry.offer().is_none());
        assert!(copy.copy.exists(), "kept until the file holds it");
        autosave(&boards, &entry, &path).unwrap();
        assert_eq!(file_texts(&path), ["old", "b"]);
        assert!(!copy.copy.exists(), "removed once saved");
    }

    #[test]
    fn a_kept_copy_refused_is_removed_and_the_board_is_unchanged() {
        let dir = folder();
        let (boards, entry, path) = with_earlier_copy(dir.path(), "krefused.inkboard");
        let copy = copy_of(&entry);
        boards.resolve(entry.cell.key, Choice::Theirs).unwrap();
        assert_eq!(live_texts(&entry), ["a", "b"]);
        assert!(!entry.unsaved());
        assert!(!copy.copy.exists());
        assert!(recovery::pending(&path, None).is_empty());
    }

    #[test]
    fn a_kept_copy_opened_as_both_becomes_a_board_beside_the_file() {
        let dir = folder();
        let (boards, entry, path) = with_earlier_copy(dir.path(), "kboth.inkboard");
        let other = boards
            .resolve(entry.cell.key, Choice::Both)
            .unwrap()
            .unwrap();
        let beside = boards.entry(other).unwrap().path().unwrap();
        let name = beside.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("kboth.recovered-"), "{name}");
        assert_eq!(file_texts(&beside), ["old", "b"]);
        assert_eq!(file_texts(&path), ["a", "b"]);
    }

    #[test]
    fn a_conflict_over_a_waiting_copy_offers_that_copy_once_settled() {
        let dir = folder();
        let (boards, entry, path) = with_earlier_copy(dir.path(), "kwait.inkboard");
        let earlier = copy_of(&entry);
        edit(&boards, &entry, 0, "mine");
        edit_file(&path, 0, "theirs");
        look(&boards, &entry, &path);
        assert_eq!(entry.offer().map(|o| o.kind), Some(OfferKind::Changed));
        boards.resolve(entry.cell.key, Choice::Mine).unwrap();
        let next = entry.offer().expect("the earlier copy is offered again");
        assert_eq!(next.kind, OfferKind::Recovered);
        assert_eq!(next.recovery, earlier);
        assert_eq!(entry.save_state(), SaveState::Saved);
        recovery::discard(&earlier);
    }

    #[test]
    fn a_file_gone_is_a_failure_until_it_is_back() {
        let dir = folder();
        let (boards, entry, path) = open(dir.path(), "g.inkboard", &["a"]);
        let bytes = fs::read(&path).unwrap();
        fs::remove_file(&path).unwrap();
        look(&boards, &entry, &path);
        match entry.save_state() {
            SaveState::Failed(words) => assert!(words.contains("is gone"), "{words}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(entry.file_state().failures, 1);
        assert!(entry.file_state().retry_at.is_some());
        fs::write(&path, bytes).unwrap();
        look(&boards, &entry, &path);
        assert_eq!(entry.save_state(), SaveState::Saved);
        assert_eq!(entry.file_state().failures, 0);
        assert!(entry.file_state().retry_at.is_none());
    }

    #[test]
    fn a_file_that_no_longer_reads_is_a_failure_and_the_board_is_kept() {
        let dir = folder();
        let (boards, entry, path) = open(dir.path(), "x.inkboard", &["a"]);
        fs::write(&path, "{ this is not a board }").unwrap();
        look(&boards, &entry, &path);
        match entry.save_state() {
            SaveState::Failed(words) => {
                assert!(words.contains("does not read as a board"), "{words}")
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(live_texts(&entry), ["a"]);
    }
}
