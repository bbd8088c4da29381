//! Whole-board tools: `create_board`, `save_board` and `rename_board`, and the
//! writing of a whole new board file that `import` shares with `create_board`.

use std::path::{Path, PathBuf};

use inkboard_core::Board;
use inkboard_format::{file, FormatError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::engine::{absolute, file_path, folder_must_exist, Target};
use crate::live::Caller;
use crate::tool::{to_value, BoardTool, Cx, EditTool, Hints, Tool};
use crate::tools::render::Diagram;
use crate::{Engine, Reply, ToolError};

#[derive(Serialize, JsonSchema)]
pub struct PageRow {
    pub(crate) number: usize,
    pub(crate) name: String,
}

impl PageRow {
    /// The pages of `board`, numbered from 1.
    pub(crate) fn list(board: &Board) -> Vec<PageRow> {
        board
            .pages()
            .iter()
            .enumerate()
            .map(|(i, p)| PageRow {
                number: i + 1,
                name: p.name.clone(),
            })
            .collect()
    }
}

pub struct CreateBoard;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateBoardArgs {
    path: Option<String>,
    title: Option<String>,
    pages: Option<Vec<String>>,
    overwrite: Option<bool>,
}

#[derive(Serialize, JsonSchema)]
pub struct CreateBoardOutput {
    /// The file; absent for a board opened in the application without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<String>,
    pages: Vec<PageRow>,
}

impl Tool for CreateBoard {
    const NAME: &'static str = "create_board";
    const TITLE: &'static str = "Create board";
    const DESCRIPTION: &'static str = "Create an empty board file with a title and pages (default one, \"Page 1\"). An existing file is an error unless overwrite.";
    const HINTS: Hints = Hints::REWRITE;
    type Args = CreateBoardArgs;
    type Output = CreateBoardOutput;
}

impl BoardTool for CreateBoard {
    fn run(engine: &Engine, caller: &Caller, a: CreateBoardArgs) -> Result<Reply, ToolError> {
        let path = match (&a.path, engine.host()) {
            (Some(path), _) => Some(new_board_path(engine, caller, path)?),
            (None, Some(_)) => None,
            (None, None) => return Err(ToolError::NoApplication),
        };
        let title = a.title.unwrap_or_else(|| match &path {
            Some(path) => default_title(path),
            None => crate::live::UNTITLED.to_string(),
        });
        let board = new_board(&title, a.pages.unwrap_or_default())?;
        let pages = PageRow::list(&board);
        let Some(path) = path else {
            // No file: a new board opens in the application, unsaved until save_board
            // gives it one with `as`.
            if let Some(host) = engine.host() {
                host.create(board);
            }
            return Ok(Reply::Json(to_value(&CreateBoardOutput {
                path: None,
                pages,
            })));
        };
        write_new(engine, &path, board, a.overwrite.unwrap_or(false))?;
        Ok(Reply::Json(to_value(&CreateBoardOutput {
            path: Some(path.display().to_string()),
            pages,
        })))
    }
}

/// A new board of `title` with the pages named (one, "Page 1", when none is),
/// checked: names neither empty nor twice, within the limits.
pub(crate) fn new_board(title: &str, pages: Vec<String>) -> Result<Board, ToolError> {
    // Before the names are compared with each other, which takes long for many.
    inkboard_core::limits::check_page_count(pages.len())?;
    let mut names: Vec<String> = Vec::new();
    for name in pages {
        let name = name.trim().to_string();
        if name.is_empty() {
            return Err(ToolError::args(
                "'pages' holds an empty name: give every page a name",
            ));
        }
        if names.contains(&name) {
            return Err(ToolError::args(format!(
                "'pages' names \"{name}\" twice: page names must differ"
            )));
        }
        names.push(name);
    }
    let board = Board::new(title, &names);
    // A new board is made whole, not through a transaction: its title and page
    // names are checked here.
    inkboard_core::limits::check_board(&board)?;
    Ok(board)
}

pub struct RenameBoard;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenameBoardArgs {
    title: String,
}

#[derive(Serialize, JsonSchema)]
pub struct RenameBoardOutput {
    title: String,
}

impl Tool for RenameBoard {
    const NAME: &'static str = "rename_board";
    const TITLE: &'static str = "Rename board";
    const DESCRIPTION: &'static str = "Change the board's title (its file keeps its name).";
    const HINTS: Hints = Hints::EDIT;
    type Args = RenameBoardArgs;
    type Output = RenameBoardOutput;
}

impl EditTool for RenameBoard {
    fn run(cx: &mut Cx<'_, '_>, a: RenameBoardArgs) -> Result<RenameBoardOutput, ToolError> {
        let title = super::page::one_line(
            "title",
            &a.title,
            "give the board a title",
            "a title is one line of text",
        )?;
        cx.tx.set_title(title)?;
        Ok(RenameBoardOutput {
            title: title.to_string(),
        })
    }
}

/// The path of a board file a tool is to make whole (`create_board`, `import`),
/// from its `path` argument: checked as every board path is, refused while the
/// application has that file open (the board on screen is edited there, never
/// replaced behind it), and in a folder that exists.
pub(crate) fn new_board_path(
    engine: &Engine,
    caller: &Caller,
    path: &str,
) -> Result<PathBuf, ToolError> {
    let path = file_path(path, "path")?;
    if engine
        .host()
        .is_some_and(|h| h.board(Some(&path), caller).is_some())
    {
        return Err(ToolError::args(format!(
            "{} is open in the application: edit it there, or choose another path",
            path.display()
        )));
    }
    folder_must_exist(&path, "path")?;
    Ok(path)
}

/// Writes a whole new board to `path` (from [`new_board_path`]) under the file's
/// lock, atomically, and starts tracking it; an existing file is an error unless
/// `overwrite`. The one way a tool writes a board it made whole.
pub(crate) fn write_new(
    engine: &Engine,
    path: &Path,
    board: Board,
    overwrite: bool,
) -> Result<(), ToolError> {
    let _lock = file::FileLock::acquire(path)?;
    let saved = if overwrite {
        file::save_overwrite(path, &board)?
    } else {
        file::save(path, &board, None)?
    };
    engine.adopt(path, board, saved);
    Ok(())
}

/// `save_board` with `as` naming another program's file: a copy of the board in
/// that format, as `export` writes it. The board stays where it is kept: such a
/// file cannot hold all of a board (see `inkboard-interop`), so it is never the
/// board's own file. A one-page format takes a board of one page only, rather
/// than dropping the others unsaid.
fn save_diagram(
    engine: &Engine,
    source: &Target,
    copy: &str,
    d: Diagram,
    overwrite: bool,
) -> Result<Reply, ToolError> {
    let target = crate::engine::path_arg(copy, "as")?;
    folder_must_exist(&target, "as")?;
    let board = engine.read(source, |b| Ok(b.clone()))?;
    let first = match board.pages() {
        [first, ..] if board.pages().len() == 1 || !d.one_page() => first.id,
        pages => {
            return Err(ToolError::args(format!(
                "'as': a .{} file holds one page and this board has {}: export each page with export (output, page)",
                d.extension(),
                pages.len()
            )))
        }
    };
    let existing = match overwrite {
        true => file::Existing::Replace,
        false => file::Existing::Refuse,
    };
    let text = d.write(&board, first);
    let bytes = file::write_export(&target, text.as_bytes(), existing)?;
    Ok(Reply::Json(to_value(&SaveBoardOutput {
        path: absolute(&target)?.display().to_string(),
        bytes,
    })))
}

/// A title from the file name: `plans/Q3 roadmap.inkboard` → "Q3 roadmap".
fn default_title(path: &Path) -> String {
    file::FileKind::stem(path)
}

pub struct SaveBoard;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SaveBoardArgs {
    path: Option<String>,
    /// Path of a copy to write.
    #[serde(rename = "as")]
    copy_to: Option<String>,
    overwrite: Option<bool>,
}

#[derive(Serialize, JsonSchema)]
pub struct SaveBoardOutput {
    path: String,
    bytes: usize,
}

impl Tool for SaveBoard {
    const NAME: &'static str = "save_board";
    const TITLE: &'static str = "Save board";
    const DESCRIPTION: &'static str =
        "Save the board (also saved after every change); as: a copy in another file or format.";
    const HINTS: Hints = Hints::EDIT;
    type Args = SaveBoardArgs;
    type Output = SaveBoardOutput;
}

impl BoardTool for SaveBoard {
    fn run(engine: &Engine, caller: &Caller, a: SaveBoardArgs) -> Result<Reply, ToolError> {
        let source = engine.target(a.path.as_deref(), caller)?;
        if let Some(d) = a.copy_to.as_deref().and_then(Diagram::of) {
            let copy = a.copy_to.as_deref().unwrap_or_default();
            return save_diagram(engine, &source, copy, d, a.overwrite.unwrap_or(false));
        }
        let own_path = source.file();
        let (target, bytes) = match (&a.copy_to, &source) {
            (None, Target::File(path)) => {
                let bytes = engine.tracked(path, |t| Ok(t.save(path)?.bytes))?;
                (path.clone(), bytes)
            }
            (None, Target::Stored(_)) => return Err(crate::stored::no_files()),
            (None, Target::Live(cell)) => {
                let Some(path) = own_path else {
                    return Err(ToolError::args(
                        "this board has no file yet: pass 'as' with a path (.inkboard) to save it",
                    ));
                };
                let host = engine.host().ok_or(ToolError::NoApplication)?;
                (path, host.save(cell)?)
            }
            (Some(copy), _) => {
                let target = file_path(copy, "as")?;
                folder_must_exist(&target, "as")?;
                if Some(&target) == own_path.as_ref() {
                    return Err(ToolError::args(
                        "'as' is the board's own path: omit 'as' to save in place",
                    ));
                }
                if let (Target::Live(cell), None, Some(host)) = (&source, &own_path, engine.host())
                {
                    // A new board saved for the first time is kept in that file from
                    // now on, as "Save as" does.
                    let bytes = host.save_as(cell, &target, a.overwrite.unwrap_or(false))?;
                    return Ok(Reply::Json(to_value(&SaveBoardOutput {
                        path: target.display().to_string(),
                        bytes,
                    })));
                }
                let board = engine.read(&source, |b| Ok(b.clone()))?;
                let _lock = file::FileLock::acquire(&target)?;
                let saved = if a.overwrite.unwrap_or(false) {
                    file::save_overwrite(&target, &board)?
                } else {
                    file::save(&target, &board, None).map_err(|e| match e {
                        FormatError::AlreadyExists { path } => ToolError::args(format!(
                            "'as': {} already exists: choose another path, or pass overwrite: true to replace it",
                            inkboard_core::echo::echo_path(&path)
                        )),
                        other => other.into(),
                    })?
                };
                let bytes = saved.bytes;
                engine.adopt(&target, board, saved);
                (absolute(&target)?, bytes)
            }
        };
        Ok(Reply::Json(to_value(&SaveBoardOutput {
            path: target.display().to_string(),
            bytes,
        })))
    }
}
