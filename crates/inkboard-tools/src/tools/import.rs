//! `import`: a draw.io or Excalidraw file made into a new board file. The reading
//! and mapping are `inkboard-interop`'s; this tool reads the source file within the
//! file-size limit, writes the board as `create_board` writes one, and answers
//! with what the board could not keep, kind by kind, so nothing is lost unsaid.
//! It never touches a live board: the new file is opened afterwards, if wanted.
//! An SVG or PNG that `export` wrote carries its board, which comes back whole.

use std::io::Read;

use inkboard_core::limits::{Limit, MAX_FILE_BYTES};
use inkboard_core::{Board, Kind};
use inkboard_format::FormatError;
use inkboard_interop::{ImportError, Lost, LostKind};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::live::Caller;
use crate::tool::{to_value, BoardTool, Hints, Tool};
use crate::tools::board::{new_board_path, write_new, PageRow};
use crate::{Engine, Reply, ToolError};

pub struct Import;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportArgs {
    /// A draw.io or Excalidraw file
    source: String,
    path: String,
    overwrite: Option<bool>,
}

#[derive(Serialize, JsonSchema)]
pub struct ImportOutput {
    path: String,
    /// What the source was: "draw.io", "draw.io SVG", "Excalidraw PNG", "inkboard SVG"...
    format: String,
    pages: Vec<PageRow>,
    objects: usize,
    connections: usize,
    /// What the board could not keep as the source had it, one entry per kind.
    lost: Vec<LostRow>,
}

/// One kind of loss: `{"kind": "stencil", "count": 13, "examples": [...],
/// "message": "13 stencil shapes drawn as rectangles: ..."}`.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct LostRow {
    kind: String,
    count: usize,
    examples: Vec<String>,
    message: String,
}

impl Tool for Import {
    const NAME: &'static str = "import";
    const TITLE: &'static str = "Import diagram";
    const DESCRIPTION: &'static str = "Make a new board file from a draw.io or Excalidraw file (.drawio, .xml, .excalidraw, or their .svg/.png exports) or inkboard's .svg/.png; lost lists what it could not keep.";
    // Writes a new file, and replaces one only with `overwrite`; the same call
    // again writes the same board.
    const HINTS: Hints = Hints::OVERWRITE;
    type Args = ImportArgs;
    type Output = ImportOutput;
}

/// A diagram read into a board, not yet saved anywhere.
pub struct ImportedDiagram {
    /// The board, with what it could not keep noted in it (see [`import_note`]).
    pub board: Board,
    /// What the source was: "draw.io", "Excalidraw PNG", "inkboard SVG"...
    pub format: String,
    pub lost: Vec<LostRow>,
}

/// The board's unknown field that holds what its import could not keep, so that
/// `render` and the editor can say so later: `{"format": "draw.io", "lost": [...]}`.
const IMPORT_NOTE: &str = "imported";

/// What the import of a diagram could not keep, as [`ImportedDiagram`] noted it
/// in the board: the source's format and one sentence per kind of loss. `None`
/// for a board that was not imported, or lost nothing.
///
/// The note is a field of the board file, which anyone can write (a board
/// inside a picture, a file from a stranger), and `render` and the editor's
/// banner show it: so only its format, kinds and counts are believed, each
/// sentence is made again in inkboard's words from its kind (the `message`
/// written beside it is never read), and its examples are quoted as the file's
/// text. A format or kind inkboard never writes is ignored.
pub fn import_note(board: &Board) -> Option<(String, Vec<String>)> {
    #[derive(Deserialize)]
    struct Note {
        format: String,
        lost: Vec<NoteRow>,
    }
    #[derive(Deserialize)]
    struct NoteRow {
        kind: String,
        count: usize,
        #[serde(default)]
        examples: Vec<String>,
    }
    // A note edited by hand into something else is ignored, not an error: it is
    // only ever a reminder.
    let note: Note = serde_json::from_str(board.extra().get(IMPORT_NOTE)?).ok()?;
    let format = inkboard_interop::Format::from_name(&note.format)?;
    let lost: Vec<String> = note
        .lost
        .iter()
        .filter_map(|r| {
            let kind = LostKind::from_name(&r.kind)?;
            Some(Lost::from_note(kind, r.count, &r.examples).to_string())
        })
        .collect();
    (!lost.is_empty()).then(|| (format.name().to_string(), lost))
}

/// Reads the draw.io, Excalidraw or inkboard picture file at `source` (within the
/// file-size limit) into a board. A picture inkboard exported carries the board
/// itself, which comes back whole; any other file is mapped by the interop crate,
/// and what it could not keep is listed and noted in the board.
pub fn import_diagram(source: &str) -> Result<ImportedDiagram, ToolError> {
    // The editor calls this directly, not through `Engine::call`: a panic in an
    // importer (a bug, on a stranger's file) must be an error there too.
    crate::engine::contained("import", || import_bytes(&read_source(source)?, source))
}

/// [`import_diagram`] of a file's bytes already read (a server is sent them);
/// `source` is its name, whose extension tells its kind.
pub fn import_bytes(bytes: &[u8], source: &str) -> Result<ImportedDiagram, ToolError> {
    let refused = |e| match e {
        ImportError::Limit(e) => ToolError::Model(e),
        e => ToolError::args(format!("'source': {e}")),
    };
    if let Some(text) = inkboard_interop::board_in_picture(bytes).map_err(refused)? {
        let board = inkboard_format::board_from_json(&text)
            .map_err(|e| {
                ToolError::args(format!(
                    "'source': the board inside the picture is not valid: {e}"
                ))
            })?
            // A note of what an import lost is inkboard's to make, and this
            // board was not imported now: one it carries is not believed.
            .without_extra(IMPORT_NOTE);
        let what = if bytes.starts_with(b"\x89PNG") {
            "inkboard PNG"
        } else {
            "inkboard SVG"
        };
        return Ok(ImportedDiagram {
            board,
            format: what.to_string(),
            lost: Vec::new(),
        });
    }
    let imported = inkboard_interop::import(bytes, Some(source)).map_err(refused)?;
    let format = imported.format.name().to_string();
    let lost: Vec<LostRow> = imported
        .lost
        .iter()
        .map(|l| LostRow {
            kind: l.kind.name().to_string(),
            count: l.count,
            examples: l.examples.clone(),
            message: l.to_string(),
        })
        .collect();
    let mut board = imported.board;
    if !lost.is_empty() {
        let note = serde_json::json!({"format": format, "lost": lost});
        board = board.with_extra(IMPORT_NOTE, note.to_string());
    }
    Ok(ImportedDiagram {
        board,
        format,
        lost,
    })
}

impl BoardTool for Import {
    fn run(engine: &Engine, caller: &Caller, a: ImportArgs) -> Result<Reply, ToolError> {
        let control = &caller.control;
        let path = new_board_path(engine, caller, &a.path)?;
        control.stage(0, 2, || "import: reading the diagram".into())?;
        let ImportedDiagram {
            board,
            format,
            lost,
        } = import_diagram(&a.source)?;
        let pages = PageRow::list(&board);
        let connections = board
            .pages()
            .iter()
            .flat_map(|p| &p.objects)
            .filter(|o| matches!(o.kind, Kind::Connector(_)))
            .count();
        let objects = board.object_count();
        control.stage(1, 2, || "import: saving".into())?;
        write_new(engine, &path, board, a.overwrite.unwrap_or(false)).map_err(|e| match e {
            // The format's message speaks of create_board; this says what to pass here.
            ToolError::File(FormatError::AlreadyExists { path }) => {
                ToolError::File(FormatError::OutputExists { path })
            }
            other => other,
        })?;
        control.stage(2, 2, || "import: done".into())?;
        Ok(Reply::Json(to_value(&ImportOutput {
            path: path.display().to_string(),
            format,
            pages,
            objects,
            connections,
            lost,
        })))
    }
}

/// Reads the diagram file, refusing one over the file-size limit from its size
/// before reading it, and reading no more than one byte past the limit whatever
/// its size claims (a growing file); a pipe or a device, which could keep the
/// call waiting for ever, is refused.
fn read_source(source: &str) -> Result<Vec<u8>, ToolError> {
    let file_path = crate::engine::path_arg(source, "source")?;
    // Quoted as given (a relative path stays relative), shortened if long.
    let shown = inkboard_core::echo::echo_path(std::path::Path::new(source));
    let cannot = |e: std::io::Error| {
        ToolError::Io(format!(
            "cannot read 'source' {shown} ({e}): give the path of a draw.io or Excalidraw file that exists"
        ))
    };
    match std::fs::metadata(&file_path) {
        Ok(meta) if meta.is_dir() => {
            return Err(cannot(std::io::Error::other("a folder, not a file")))
        }
        Ok(meta) if !meta.is_file() => {
            return Err(cannot(std::io::Error::other("not a regular file")))
        }
        _ => {}
    }
    let file = std::fs::File::open(&file_path).map_err(cannot)?;
    let what = || format!("the 'source' {shown}");
    let len = file.metadata().map_err(cannot)?.len();
    Limit::FileBytes.check(what, len)?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    Limit::FileBytes.check(what, bytes.len() as u64)?;
    Ok(bytes)
}
