//! Boards opened from another program's file: `inkboard open diagram.drawio` (or
//! `.excalidraw`, or an SVG or PNG that carries a board). The diagram is read into
//! a new board that has no file of its own, so nothing is written until the
//! person says where: the editor's bar offers the `.inkboard` file beside the
//! source, and an agent may save it anywhere with `save_board` and `as` (a
//! `.drawio` or `.excalidraw` there writes that format back). Until then the
//! board lives as an unsaved one does, kept in a recovery copy at exit and
//! before anything risky runs (`Boards::secure_unfiled`).
//!
//! The file offered is a name the application chose, in a folder others may
//! write: it is made by the rule of exports (`newfile.rs`), never through a link
//! planted there. A diagram that cannot be read, or whose import hits a bug,
//! is an error for the one who asked; the application and its other boards go on.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use inkboard_format::FileKind;
use inkboard_interop::diagram_stem;
use inkboard_tools::ToolError;

use crate::boards::{Boards, Entry};
use crate::newfile;

/// Where an imported board came from, and where it is offered to be saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportOrigin {
    /// The file it was read from.
    pub source: PathBuf,
    /// What the source was: "draw.io", "Excalidraw PNG"...
    pub format: String,
}

impl ImportOrigin {
    /// The board file offered now: beside the source, named after it, not taken.
    pub fn save_to(&self) -> PathBuf {
        beside(&self.source)
    }
}

/// Whether `path` names a file `open` reads by importing it rather than as a board.
pub fn is_diagram(path: &Path) -> bool {
    FileKind::from_path(path).is_err() && diagram_stem(&file_name(path)).is_some()
}

/// The board file offered for a diagram at `source`: `plan.drawio` →
/// `plan.inkboard`, or `plan (2).inkboard` and on when that is taken, so that an
/// earlier import saved there is never overwritten. A name is taken by anything
/// there, a link included, even a dangling one (`newfile.rs`).
pub fn beside(source: &Path) -> PathBuf {
    let name = file_name(source);
    let stem = match diagram_stem(&name) {
        Some("") => "board",
        Some(stem) => stem,
        None => &name,
    };
    (1..)
        .map(|n| match n {
            1 => source.with_file_name(format!("{stem}.inkboard")),
            n => source.with_file_name(format!("{stem} ({n}).inkboard")),
        })
        .find(|p| !newfile::taken(p))
        .expect("an unbounded range finds a free name")
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

impl Boards {
    /// Opens the diagram at `source` as a new board without a file (or shows the
    /// one already opened from it), remembering where it came from.
    pub fn open_diagram(&self, source: &Path) -> Result<u32, ToolError> {
        if let Some(entry) = self.imported_from(source) {
            return Ok(entry.cell.key);
        }
        // Reading another program's file is risky work: the boards that have
        // no file (an earlier import not yet kept) are kept first.
        self.secure_unfiled();
        // Another program's file, maybe a stranger's: a bug its import hits is an
        // error for this request, not the end of the application.
        let name = source.to_string_lossy();
        let shown = inkboard_core::echo::echo_path(source);
        let imported = match std::panic::catch_unwind(|| inkboard_tools::import_diagram(&name)) {
            Ok(imported) => imported.map_err(|e| {
                // Said of the file the person opened, not of a tool's argument.
                let words = e.to_string();
                let words = words.strip_prefix("'source': ").unwrap_or(&words);
                ToolError::Io(format!("cannot open {shown}: {words}"))
            })?,
            Err(_) => {
                return Err(ToolError::Io(format!(
                    "inkboard hit a bug while importing {shown}; the application and its other boards go on. Please report the bug with the file"
                )))
            }
        };
        let entry = self.open_new(imported.board);
        entry.file_state().imported = Some(ImportOrigin {
            source: source.to_path_buf(),
            format: imported.format,
        });
        Ok(entry.cell.key)
    }

    /// The person's yes to the editor's offer: the imported board `key` is saved
    /// as the board file offered (made new, by the rule of `newfile.rs`), and
    /// kept there from now on. Answers that path.
    pub fn keep_import(&self, key: u32) -> Result<PathBuf, ToolError> {
        let entry = self
            .entry(key)
            .ok_or_else(|| ToolError::Io("that board is no longer open".into()))?;
        let Some(origin) = entry.file_state().imported.clone() else {
            return Err(ToolError::Arguments(
                "this board was not imported, or is saved already".into(),
            ));
        };
        let _disk = self.disk();
        let board = entry.cell.lock().board.clone();
        let (file, saved) = newfile::create(&origin.save_to(), &board)?;
        self.adopt_file(&entry, file.clone(), saved, board);
        Ok(file)
    }

    /// The open, still unsaved board imported from `source`.
    fn imported_from(&self, source: &Path) -> Option<Arc<Entry>> {
        self.entries().into_iter().find(|e| {
            e.path().is_none()
                && e.file_state()
                    .imported
                    .as_ref()
                    .is_some_and(|o| o.source == source)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_offered_is_named_after_the_diagram_and_never_taken() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("Plan.drawio.svg");
        assert_eq!(beside(&source), dir.path().join("Plan.inkboard"));
        std::fs::write(dir.path().join("Plan.inkboard"), "{}").unwrap();
        std::fs::write(dir.path().join("Plan (2).inkboard"), "{}").unwrap();
        assert_eq!(beside(&source), dir.path().join("Plan (3).inkboard"));
        assert_eq!(
            beside(&dir.path().join(".excalidraw")),
            dir.path().join("board.inkboard")
        );
    }

    #[test]
    fn diagrams_and_pictures_are_imported_and_boards_are_opened() {
        for name in ["a.drawio", "a.XML", "a.excalidraw", "a.drawio.png", "a.svg"] {
            assert!(is_diagram(Path::new(name)), "{name}");
        }
        for name in ["a.inkboard", "a.inkboard.json", "a.tableau.json", "a.txt"] {
            assert!(!is_diagram(Path::new(name)), "{name}");
        }
    }
}
