//! What the fuzz targets share: an engine whose tool calls edit a board held in
//! memory, and the file format's promise that every board they end with must keep.
//!
//! The engine is the one the application runs ([`Engine::hosted`]) with a [`Host`]
//! that holds one board and no file. A call therefore takes the live-mode path of
//! `inkboard open`: parsed arguments, one transaction, the model's checks at
//! commit. Nothing is written to disk, so an iteration costs no file I/O and no
//! input can reach the machine's files, whatever `path` it names.
//!
//! The engine answers a panic in a tool as `ToolError::Bug`, but it never gets
//! the chance here: libFuzzer's panic hook aborts the process first, so a panic
//! anywhere is a crash, with the input saved.

use std::path::Path;
use std::sync::Arc;

use inkboard_core::{Board, Commit};
use inkboard_format::{board_from_bytes, to_pretty_string};
use inkboard_tools::{Caller, Engine, Host, LiveBoard, LiveCell, ToolError};

/// A [`Host`] whose only board is the one every call acts on.
pub struct Scratch {
    cell: Arc<LiveCell>,
}

impl Scratch {
    /// An engine whose calls all edit `board`, and the cell that holds it (lock it
    /// to see the board after a call).
    pub fn engine(board: Board) -> (Engine, Arc<LiveCell>) {
        let cell = LiveCell::new(1, LiveBoard::new(board, None));
        let host = Scratch { cell: cell.clone() };
        (Engine::hosted(Arc::new(host)), cell)
    }
}

impl Host for Scratch {
    fn board(&self, _path: Option<&Path>, _caller: &Caller) -> Option<Arc<LiveCell>> {
        Some(self.cell.clone())
    }

    fn committed(&self, _cell: &Arc<LiveCell>, _commit: &Commit) {}

    fn save(&self, _cell: &Arc<LiveCell>) -> Result<usize, ToolError> {
        Err(never_saved())
    }

    fn save_as(&self, _: &Arc<LiveCell>, _: &Path, _: bool) -> Result<usize, ToolError> {
        Err(never_saved())
    }

    fn create(&self, board: Board) -> Arc<LiveCell> {
        LiveCell::new(2, LiveBoard::new(board, None))
    }
}

fn never_saved() -> ToolError {
    ToolError::Io("a fuzzed board is never saved: fuzz targets do not write files".into())
}

/// Panics unless `board` keeps the format's promise: its file text loads back,
/// the board loaded saves to the very same text, and nothing of it was lost on
/// the way (numbers aside, which files round to 0.01).
pub fn assert_saves_stably(board: &Board) {
    let text = to_pretty_string(board);
    let loaded = match board_from_bytes(text.as_bytes()) {
        Ok(loaded) => loaded,
        Err(e) => panic!("a board's own file text does not load: {e}\n{text}"),
    };
    assert_eq!(
        to_pretty_string(&loaded),
        text,
        "a board loaded from its file text saves to other text"
    );
    assert_eq!(loaded.title(), board.title());
    assert_eq!(loaded.revision(), board.revision());
    assert_eq!(loaded.next_object(), board.next_object());
    assert_eq!(loaded.extra(), board.extra());
    assert_eq!(
        outline(&loaded),
        outline(board),
        "pages or objects were lost"
    );
}

/// Every page's id, name and unknown fields, and its objects in order: id, type
/// and unknown fields.
fn outline(board: &Board) -> Vec<String> {
    board
        .pages()
        .iter()
        .map(|page| {
            let objects: Vec<String> = page
                .objects
                .iter()
                .map(|o| format!("{} {} {:?}", o.id, o.kind.type_name(), o.extra))
                .collect();
            format!("{} {:?} {:?} {objects:?}", page.id, page.name, page.extra)
        })
        .collect()
}
