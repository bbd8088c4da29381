//! `image`: any bytes, as a picture given to `add_image` (base64 in a data URL;
//! an input that starts with `data:` is the data URL itself, so the URL decoding
//! is fuzzed too), through the real engine: the format sniffed from the bytes and
//! the natural size read from their header. An accepted image must save and load
//! back stably, and `render` must draw it: resvg decodes the PNG, JPEG or SVG there
//! (with the bundled fonts), as for any render or PNG export.

#![no_main]

use base64::Engine as _;
use inkboard_core::Board;
use inkboard_fuzz::{assert_saves_stably, Scratch};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let url = if data.starts_with(b"data:") {
        String::from_utf8_lossy(data).into_owned()
    } else {
        let base64 = base64::engine::general_purpose::STANDARD.encode(data);
        format!("data:application/octet-stream;base64,{base64}")
    };
    let (engine, cell) = Scratch::engine(Board::new("Fuzz", &[]));
    if engine.call("add_image", json!({ "data": url })).is_err() {
        return;
    }
    assert_saves_stably(&cell.lock().board);
    // A small picture: the image is decoded whole whatever the size drawn.
    if let Err(e) = engine.call("render", json!({ "max_size": 64 })) {
        panic!("an image add_image accepted does not render: {e}");
    }
});
