//! `board_file`: any bytes, read as a board file by `inkboard_format::board_from_bytes`,
//! which `load` reads every file with (`.inkboard`, `.inkboard.json` and
//! `.tableau.json` hold the same JSON document; the extension only decides whether
//! a name is a board file). Reading may refuse the bytes, never panic; a board it
//! accepts must save to text that loads back stably (`assert_saves_stably`).

#![no_main]

use inkboard_format::board_from_bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(board) = board_from_bytes(data) {
        inkboard_fuzz::assert_saves_stably(&board);
    }
});
