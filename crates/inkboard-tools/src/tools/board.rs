//! Whole-board tools: `create_board` and `save_board`.

use std::path::Path;

use inkboard_core::Board;
use inkboard_format::{file, FormatError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::engine::{absolute, board_path, folder_must_exist};
use crate::tool::{to_value, BoardTool, Hints, Tool};
use crate::{Engine, Reply, ToolError};

#[derive(Serialize, JsonSchema)]
pub struct PageRow {
    number: usize,
    name: String,
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
    path: String,
    pages: Vec<PageRow>,
}

impl Tool for CreateBoard {
    const NAME: &'static str = "create_board";
    const DESCRIPTION: &'static str = "Create a new, empty board file with a title and pages (names; default one \"Page 1\"). An existing file is an error unless overwrite is true.";
    const HINTS: Hints = Hints::REWRITE;
    type Args = CreateBoardArgs;
    type Output = CreateBoardOutput;
}

impl BoardTool for CreateBoard {
    fn run(engine: &Engine, a: CreateBoardArgs) -> Result<Reply, ToolError> {
        let path = board_path(a.path.as_deref())?;
        folder_must_exist(&path, "path")?;
        let mut names: Vec<String> = Vec::new();
        for name in a.pages.unwrap_or_default() {
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
        let title = a.title.unwrap_or_else(|| default_title(&path));
        let board = Board::new(title, &names);
        let _lock = file::FileLock::acquire(&path)?;
        let saved = if a.overwrite.unwrap_or(false) {
            file::save_overwrite(&path, &board)?
        } else {
            file::save(&path, &board, None)?
        };
        let pages = board
            .pages()
            .iter()
            .enumerate()
            .map(|(i, p)| PageRow {
                number: i + 1,
                name: p.name.clone(),
            })
            .collect();
        engine.adopt(&path, board, saved);
        Ok(Reply::Json(to_value(&CreateBoardOutput {
            path: path.display().to_string(),
            pages,
        })))
    }
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
    const DESCRIPTION: &'static str = "Save the board (files are already written after every change). as: write a copy to another path or format (.inkboard, .inkboard.json, .tableau.json); overwrite replaces an existing copy.";
    const HINTS: Hints = Hints::EDIT;
    type Args = SaveBoardArgs;
    type Output = SaveBoardOutput;
}

impl BoardTool for SaveBoard {
    fn run(engine: &Engine, a: SaveBoardArgs) -> Result<Reply, ToolError> {
        let path = board_path(a.path.as_deref())?;
        let (target, bytes) = match &a.copy_to {
            None => {
                let bytes = engine.tracked(&path, |t| Ok(t.save(&path)?.bytes))?;
                (path, bytes)
            }
            Some(copy) => {
                let target = board_path(Some(copy)).map_err(|e| match e {
                    ToolError::File(e) => ToolError::args(format!("'as': {e}")),
                    other => other,
                })?;
                folder_must_exist(&target, "as")?;
                if target == path {
                    return Err(ToolError::args(
                        "'as' is the board's own path: omit 'as' to save in place",
                    ));
                }
                let board = engine.tracked(&path, |t| Ok(t.board.clone()))?;
                let _lock = file::FileLock::acquire(&target)?;
                let saved = if a.overwrite.unwrap_or(false) {
                    file::save_overwrite(&target, &board)?
                } else {
                    file::save(&target, &board, None).map_err(|e| match e {
                        FormatError::AlreadyExists { path } => ToolError::args(format!(
                            "'as': {} already exists: choose another path, or pass overwrite: true to replace it",
                            path.display()
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
