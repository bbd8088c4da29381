//! Tool calls on board files as other editors leave them: one saved with a UTF-8
//! byte order mark (Notepad, some Windows tools) opens and is saved without it;
//! one that another program is rewriting in place (truncate, then write) is read
//! once it is whole, instead of being reported as a file to "repair by hand".

mod common;

use std::fs::File;
use std::io::Write;
use std::sync::mpsc;
use std::time::Duration;

use common::Board;
use inkboard_tools::Engine;
use serde_json::{json, Value};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The texts of the objects of a `read_board` answer.
fn texts(read: &Value) -> Vec<String> {
    read["page"]["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .filter_map(|o| o["text"].as_str().map(String::from))
        .collect()
}

#[test]
fn a_board_with_a_byte_order_mark_opens_and_is_saved_without_it() {
    let engine = Engine::new();
    let board = Board::new(&engine, &["One"]);
    board
        .call(&engine, "add_shape", json!({"text": "marked"}))
        .expect("add_shape");
    let text = board.bytes();
    std::fs::write(&board.path, [BOM, &text].concat()).expect("write");
    // Another process (a fresh engine) reads it as it is on disk.
    let other = Engine::new();
    let read = board
        .call(&other, "read_board", json!({}))
        .expect("a board with a byte order mark opens");
    assert_eq!(texts(&read), ["marked"]);
    board
        .call(&other, "add_shape", json!({"text": "more"}))
        .expect("and takes a change");
    let saved = board.bytes();
    assert!(!saved.starts_with(BOM), "saved without the mark");
    assert_eq!(board.files(), common::only_the_board());
    let read = board.call(&other, "read_board", json!({})).expect("read");
    assert_eq!(texts(&read), ["marked", "more"]);
}

#[test]
fn a_board_rewritten_in_place_meanwhile_is_read_once_it_is_whole() {
    let engine = Engine::new();
    let board = Board::new(&engine, &["One"]);
    board
        .call(&engine, "add_shape", json!({"text": "before"}))
        .expect("add_shape");
    let new = String::from_utf8(board.bytes())
        .expect("UTF-8")
        .replace("\"before\"", "\"after\"");
    let (truncated, rx) = mpsc::channel();
    let path = board.path.clone();
    let writer = std::thread::spawn(move || {
        // As `>` in a shell: the file is emptied at once, written a moment later.
        let mut file = File::create(&path).expect("truncate");
        truncated.send(()).expect("tell");
        std::thread::sleep(Duration::from_millis(100));
        file.write_all(new.as_bytes()).expect("write");
    });
    rx.recv().expect("the file is truncated");
    let read = board
        .call(&engine, "read_board", json!({}))
        .expect("the board is read once it is written, not reported as damaged");
    assert_eq!(texts(&read), ["after"]);
    writer.join().expect("the writer");
}
