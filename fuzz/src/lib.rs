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

/// What every successful import must keep, whatever the bytes: the board holds
/// the objects it says it holds, it saves to text that loads back stably (so it
/// is a board the rest of inkboard can open), each kind of loss is reported once
/// with a count and at most three examples, and importing the same bytes again
/// gives the same board and the same report.
pub fn assert_import_holds(data: &[u8], name: &str) {
    let Ok(imported) = inkboard_interop::import(data, Some(name)) else {
        return;
    };
    assert_saves_stably(&imported.board);
    let mut kinds = std::collections::HashSet::new();
    for lost in &imported.lost {
        assert!(kinds.insert(lost.kind), "{:?} reported twice", lost.kind);
        assert!(lost.count >= 1 && lost.examples.len() <= 3.min(lost.count));
    }
    let again = inkboard_interop::import(data, Some(name)).expect("imports again");
    assert_eq!(again.board, imported.board, "a second import differs");
    assert_eq!(again.lost, imported.lost, "a second report differs");
}

/// `data` as a draw.io page compressed the way draw.io saves it (base64 of raw
/// deflate), inside an `<mxfile>`, so the fuzzer reaches the mapping of cells
/// from inside the container as well as from outside.
pub fn drawio_compressed_page(data: &[u8]) -> Vec<u8> {
    use base64::Engine as _;
    use std::io::Write as _;
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).expect("writes to memory");
    let packed = base64::engine::general_purpose::STANDARD.encode(e.finish().expect("finishes"));
    format!("<mxfile><diagram name=\"p\">{packed}</diagram></mxfile>").into_bytes()
}

/// `data` as the diagram of a `.drawio.png`: the text of a `zTXt` chunk
/// (`mxfile`, zlib), or of an `iTXt` chunk, compressed or not, so the fuzzer
/// reaches the PNG's chunks and what inflates from them.
pub fn drawio_png(data: &[u8], chunk: PngChunk) -> Vec<u8> {
    use std::io::Write as _;
    let zlib = |d: &[u8]| {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(d).expect("writes to memory");
        e.finish().expect("finishes")
    };
    let (kind, body): (&[u8; 4], Vec<u8>) = match chunk {
        PngChunk::Ztxt => (b"zTXt", [b"mxfile\0\0".as_slice(), &zlib(data)].concat()),
        PngChunk::Itxt => (
            b"iTXt",
            [b"mxfile\0\x01\0\0\0".as_slice(), &zlib(data)].concat(),
        ),
        PngChunk::PlainItxt => (b"iTXt", [b"mxfile\0\0\0\0\0".as_slice(), data].concat()),
    };
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, body) in [(kind, body.as_slice()), (b"IEND", &[][..])] {
        out.extend_from_slice(&(body.len() as u32).to_be_bytes());
        out.extend_from_slice(kind);
        out.extend_from_slice(body);
        // The reader checks no CRC.
        out.extend_from_slice(&[0; 4]);
    }
    out
}

/// Which text chunk [`drawio_png`] carries the diagram in.
#[derive(Clone, Copy)]
pub enum PngChunk {
    Ztxt,
    Itxt,
    PlainItxt,
}
