//! `mermaid`: any text, imported by `import_mermaid` through the real engine on a
//! new board: the Mermaid parser (`inkboard-interop/src/mermaid/`), then the
//! building of shapes, connectors and frames and their layered layout
//! (`inkboard-arrange`), committed with the model's checks. A refused text must leave the board empty; an imported
//! chart must save and load back stably, and its page must resolve into a scene
//! (connectors routed) and pass `check_scene`, as `render` does it.

#![no_main]

use inkboard_core::Board;
use inkboard_fuzz::{assert_saves_stably, Scratch};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    // Tool arguments are JSON strings, so the parser only ever sees valid UTF-8.
    let text = String::from_utf8_lossy(data);
    let (engine, cell) = Scratch::engine(Board::new("Fuzz", &[]));
    let result = engine.call("import_mermaid", json!({ "text": text }));
    let live = cell.lock();
    let page = &live.board.pages()[0];
    match result {
        Err(e) => assert!(page.objects.is_empty(), "a refused import drew: {e}"),
        Ok(_) => {
            assert_saves_stably(&live.board);
            let scene = inkboard_render::resolve(&live.board, page.id);
            inkboard_render::check_scene(&live.board, &scene);
        }
    }
});
