//! `batch`: any JSON, as the arguments of a `batch` call (a list stands for its
//! `operations`), run by the real engine on a copy of the golden board (every kind
//! of object, two pages), so edits of existing objects, `$N.key` references, atomic
//! and non-atomic failure and the model's checks at commit are all reached. A call
//! that fails must leave the board as it was; a board it changed must save and load
//! back stably.

#![no_main]

use std::sync::OnceLock;

use inkboard_core::Board;
use inkboard_fuzz::{assert_saves_stably, Scratch};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

/// The board every input starts from, read once.
fn start() -> &'static Board {
    static BOARD: OnceLock<Board> = OnceLock::new();
    BOARD.get_or_init(|| {
        let golden = include_bytes!("../../crates/inkboard-format/tests/golden/v1.inkboard");
        inkboard_format::board_from_bytes(golden).expect("the golden board loads")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let args = match value {
        Value::Array(operations) => json!({ "operations": operations }),
        args @ Value::Object(_) => args,
        _ => return,
    };
    let (engine, cell) = Scratch::engine(start().clone());
    let result = engine.call("batch", args);
    let live = cell.lock();
    match result {
        Ok(_) => assert_saves_stably(&live.board),
        Err(e) => assert!(
            live.board == *start(),
            "a batch that failed changed the board: {e}"
        ),
    }
});
