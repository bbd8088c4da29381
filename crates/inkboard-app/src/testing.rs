//! Helpers shared by the unit tests of the application's own logic (merges,
//! conflicts, autosave, recovery copies, sessions): boards kept in real files in
//! a fresh temporary folder per test, edits made the way a person's land, and
//! changes made to a file the way another program makes them.
//!
//! Recovery copies and the token file live in folders named by environment
//! variables; [`isolate`] points those at one private temporary folder for the
//! whole test process, before any test reads them, so that no test ever writes
//! into the person's own state or config folder. Tests tell their copies apart by
//! the board file they belong to, which is unique per test.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use inkboard_core::{
    Actor, Board, Geom, IdKind, Kind, Object, ObjectId, Rect, Rotation, Shape, Sizing, Style,
    Transaction,
};
use inkboard_format::file;
use tempfile::TempDir;

use crate::boards::{Boards, Entry};

/// Points the recovery folder and the config folder at one temporary folder for
/// the whole test process. Every helper that touches either calls it first; the
/// environment is set once, before any test thread reads it.
pub(crate) fn isolate() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("inkboard-app-tests-")
            .tempdir()
            .expect("a temporary folder")
            .keep();
        std::env::set_var("INKBOARD_STATE_DIR", dir.join("state"));
        std::env::set_var("XDG_CONFIG_HOME", dir.join("config"));
        // Made here, once: tests that open the token file at the same moment
        // then all read it, none races another to create it.
        crate::token::load_or_create(&dir.join("config/inkboard/token")).expect("a token file");
        dir
    })
}

/// Held by tests that keep copies of boards without a file. Copies are named
/// after their board's file, and every test names its own; but those of boards
/// without a file are all `untitled`, and `recovery::keep` picks a free name
/// and then writes it, so two threads keeping one in the same second could be
/// given the same name.
pub(crate) fn untitled() -> std::sync::MutexGuard<'static, ()> {
    isolate();
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// A fresh temporary folder for one test's board files.
pub(crate) fn folder() -> TempDir {
    isolate();
    tempfile::Builder::new()
        .prefix("boards-")
        .tempdir()
        .expect("a temporary folder")
}

/// A board titled "Test" with one rectangle per text, in order.
pub(crate) fn board_of(texts: &[&str]) -> Board {
    let mut board = Board::new("Test", &[]);
    let page = board.pages()[0].id;
    let mut tx = Transaction::begin(&mut board);
    for (i, text) in texts.iter().enumerate() {
        let id = tx.new_id(IdKind::Shape);
        let shape = Shape {
            geom: Geom::Rect,
            bounds: Rect::new(200.0 * i as f64, 0.0, 120.0, 60.0),
            text: (*text).to_string(),
            style: Style::default(),
            sizing: Sizing::Fixed,
            rotation: Rotation::NONE,
            icon: None,
        };
        tx.insert(page, None, Object::new(id, Kind::Shape(shape)))
            .expect("a new shape");
    }
    tx.commit(Actor::User).expect("a valid board");
    board
}

/// The texts of a board's shapes, in page order.
pub(crate) fn texts(board: &Board) -> Vec<String> {
    board.pages()[0]
        .objects
        .iter()
        .filter_map(|o| o.text().map(str::to_string))
        .collect()
}

/// The texts of the board in the file at `path`.
pub(crate) fn file_texts(path: &Path) -> Vec<String> {
    texts(&file::load(path).expect("the file reads as a board").board)
}

/// The texts of an open board.
pub(crate) fn live_texts(entry: &Entry) -> Vec<String> {
    texts(&entry.cell.lock().board)
}

/// The id of the `n`th object on the board's first page.
fn nth(board: &Board, n: usize) -> ObjectId {
    board.pages()[0].objects[n].id.clone()
}

/// Sets the text of shape `n`, as one transaction on `board`.
fn set_text(board: &mut Board, n: usize, text: &str) {
    let id = nth(board, n);
    let mut tx = Transaction::begin(board);
    tx.edit(&id, |o| {
        if let Kind::Shape(s) = &mut o.kind {
            s.text = text.to_string();
        }
    })
    .expect("the shape is there");
    tx.commit(Actor::User).expect("a valid edit");
}

/// Writes `board` to a new file `name` in `dir`.
pub(crate) fn write_new(dir: &Path, name: &str, board: &Board) -> PathBuf {
    let path = dir.join(name);
    file::save(&path, board, None).expect("a new board file");
    path
}

/// The board file `name` in `dir`, holding shapes with `texts`, opened.
pub(crate) fn open(dir: &Path, name: &str, texts: &[&str]) -> (Arc<Boards>, Arc<Entry>, PathBuf) {
    let path = write_new(dir, name, &board_of(texts));
    let boards = Boards::new();
    let key = boards.open_file(&path).expect("the file opens");
    let entry = boards.entry(key).expect("the board is open");
    (boards, entry, path)
}

/// The person sets the text of shape `n` on an open board: one commit, recorded
/// for undo, and the autosaver told, as an intent from a window lands.
pub(crate) fn edit(boards: &Boards, entry: &Entry, n: usize, text: &str) {
    {
        let mut live = entry.cell.lock();
        let live = &mut *live;
        let id = nth(&live.board, n);
        let mut tx = Transaction::begin(&mut live.board);
        tx.edit(&id, |o| {
            if let Kind::Shape(s) = &mut o.kind {
                s.text = text.to_string();
            }
        })
        .expect("the shape is there");
        if let Some(commit) = tx.commit(Actor::User).expect("a valid edit") {
            live.record(&commit);
        }
    }
    boards.after_commit(entry);
}

/// Another program sets the text of shape `n` in the file at `path`.
pub(crate) fn edit_file(path: &Path, n: usize, text: &str) {
    let mut board = file::load(path).expect("the file reads").board;
    set_text(&mut board, n, text);
    file::save_overwrite(path, &board).expect("the file is written");
}
