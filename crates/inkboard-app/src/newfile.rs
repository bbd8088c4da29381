//! Files the application names itself: the board file an imported diagram is
//! kept in (`plan.inkboard` beside `plan.drawio`, the editor's "keep this
//! import") and the copy "open both" puts beside a board. Nobody typed these
//! paths, and they lie in folders other people may write (a shared folder, a
//! downloaded archive, a cloned repository), where a symbolic link can wait at
//! the very name the application is about to choose (`plan.inkboard →
//! ~/.bash_profile`).
//!
//! So they follow the rule of exports (`inkboard_format::file::export_target`
//! and [`Existing::Refuse`], `file/export.rs`) rather than that of a board the
//! person opened: a name is free only when nothing at all is there, not even a
//! dangling link; the file is created, never replaced (it is linked into place,
//! which fails if anything appeared meanwhile); a link that leaves its folder is
//! refused. The board is then kept in the file made, by its resolved name, so
//! later autosaves never go through a link either.

use std::fs;
use std::path::{Path, PathBuf};

use inkboard_core::Board;
use inkboard_format::file::{self, Existing};
use inkboard_format::{FormatError, Saved};

/// Whether anything at all is at `path`: a file, a folder, or a symbolic link,
/// dangling or not (which `Path::exists` would call free).
pub(crate) fn taken(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

/// Writes `board` to a new file at `path` by the rule of the module
/// documentation; answers the file made (its name resolved as an export's is)
/// and what was saved. An existing file, link or folder there is an error.
pub(crate) fn create(path: &Path, board: &Board) -> Result<(PathBuf, Saved), FormatError> {
    let target = file::export_target(path)?;
    // A new file's lock is its folder's: other inkboard processes creating
    // the same name wait, and then find it taken.
    let _lock = file::FileLock::acquire(&target)?;
    let saved = file::save_export(&target, board, Existing::Refuse)?;
    Ok((target, saved))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_new_file_is_never_written_through_a_link_nor_over_a_file() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let root = fs::canonicalize(dir.path()).expect("canonical");
        let outside = tempfile::tempdir().expect("another folder");
        let victim = outside.path().join("bash_profile");
        let board = Board::new("kept", &[]);

        symlink(&victim, root.join("out.inkboard")).expect("link");
        assert!(
            taken(&root.join("out.inkboard")),
            "a dangling link is taken"
        );
        let refused = create(&root.join("out.inkboard"), &board).expect_err("refused");
        assert!(refused.to_string().contains("outside"), "{refused}");
        assert!(!victim.exists(), "nothing was written through the link");

        fs::write(root.join("there.inkboard"), "not mine").expect("write");
        let refused = create(&root.join("there.inkboard"), &board).expect_err("refused");
        assert!(refused.to_string().contains("exists"), "{refused}");
        assert_eq!(
            fs::read_to_string(root.join("there.inkboard")).expect("read"),
            "not mine"
        );

        let (made, saved) = create(&root.join("new.inkboard"), &board).expect("made");
        assert_eq!(made, root.join("new.inkboard"));
        assert!(saved.bytes > 0);
        assert!(!taken(&root.join("free.inkboard")));
    }
}
