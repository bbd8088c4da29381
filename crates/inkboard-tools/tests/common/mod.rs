//! Helpers shared by the engine's Rust tests: a board file in a temp folder, calls
//! that answer JSON, and what the folder holds.

#![allow(dead_code)]

pub mod pictures;

use std::path::{Path, PathBuf};

use inkboard_tools::{Engine, Reply, ToolError};
use serde_json::{json, Value};

/// A temp folder with a new, empty board file in it.
pub struct Board {
    pub dir: tempfile::TempDir,
    pub path: PathBuf,
}

impl Board {
    /// A new board made by `engine` (one page per name).
    pub fn new(engine: &Engine, pages: &[&str]) -> Board {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("board.inkboard");
        call(
            engine,
            "create_board",
            json!({"path": path_str(&path), "pages": pages}),
        )
        .expect("create_board");
        Board { dir, path }
    }

    /// The path as a tool argument.
    pub fn arg(&self) -> String {
        path_str(&self.path)
    }

    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(&self.path).expect("read board file")
    }

    /// The names of the files in the folder, sorted.
    pub fn files(&self) -> Vec<String> {
        files(self.dir.path())
    }

    /// Runs a batch on this board.
    pub fn batch(
        &self,
        engine: &Engine,
        operations: Value,
        atomic: bool,
    ) -> Result<Value, ToolError> {
        call(
            engine,
            "batch",
            json!({"path": self.arg(), "operations": operations, "atomic": atomic}),
        )
    }

    /// Calls a tool on this board.
    pub fn call(&self, engine: &Engine, tool: &str, mut args: Value) -> Result<Value, ToolError> {
        args["path"] = json!(self.arg());
        call(engine, tool, args)
    }

    /// The board's revision, as read_board says.
    pub fn revision(&self, engine: &Engine) -> u64 {
        self.call(engine, "read_board", json!({}))
            .expect("read_board")["revision"]
            .as_u64()
            .expect("revision")
    }
}

pub fn path_str(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Calls a tool that answers JSON.
pub fn call(engine: &Engine, tool: &str, args: Value) -> Result<Value, ToolError> {
    match engine.call(tool, args)? {
        Reply::Json(v) => Ok(v),
        Reply::Image { .. } => panic!("{tool} answered an image"),
    }
}

/// The names of the files in a folder, sorted.
pub fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The files a board folder should hold: the board, and nothing beside it (no
/// lock file, no temporary file).
pub fn only_the_board() -> Vec<String> {
    vec!["board.inkboard".to_string()]
}

/// Compares `got` with the expected file at `path`, or, under `UPDATE_EXPECT=1`,
/// writes it there. The difference, as a failure to report, if there is one;
/// `name` says which case it is.
pub fn expect_file(path: &Path, got: &str, name: &str) -> Option<String> {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).expect("the expected files' folder");
        }
        std::fs::write(path, got).expect("write the expected file");
        return None;
    }
    match std::fs::read_to_string(path) {
        Ok(want) if want == got => None,
        Ok(want) => Some(format!("{name}:\n--- expected\n{want}\n--- got\n{got}")),
        Err(_) => Some(format!(
            "{name}: no {}; run with UPDATE_EXPECT=1",
            path.display()
        )),
    }
}
