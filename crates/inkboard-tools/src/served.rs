//! The catalogue of server mode (`inkboard serve`): the local tools with `board`
//! (a board's id) where they take `path`, less what has no meaning on a server
//! (`save_board`: every change is kept as it is made; `overwrite`: nothing is
//! replaced), and four tools of its own: `create_board` takes a `title` and
//! answers the new board's id, `list_boards` lists what the caller may see,
//! `export` answers the file's bytes (a server has no folder of the caller's to
//! write to) and `import` takes the file's content.
//!
//! The local tools are reused whole: the same argument types, the same effect;
//! only their schemas are rewritten here, once, and the engine renames `board`
//! to `path` before a reused tool reads its arguments (`stored.rs`).

use std::sync::OnceLock;

use base64::Engine as _;
use inkboard_core::{Board, PageId};
use inkboard_render::Theme;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::args::{IdArg, PageRef, Word};
use crate::catalog::{board as board_tool, catalog, Run, ToolDef};
use crate::control::DRAWING_DEADLINE;
use crate::live::Caller;
use crate::tool::{to_value, BoardTool, Hints, Tool};
use crate::tools::board::PageRow;
use crate::tools::import::{import_bytes, LostRow};
use crate::tools::pick::{self, Background};
use crate::tools::render::{Diagram, Picture};
use crate::{Engine, Reply, ToolError};

/// What the arguments every server tool shares mean: said once, in the server's
/// instructions (as [`crate::COMMON_ARGS`] in local mode).
pub const SERVER_COMMON_ARGS: &str = "Every board tool takes `board`: a board's id, from list_boards or create_board. Edit and read tools also take `page`: a page number (from 1) or name; default the first page. Coordinates are board units, x right, y down; x,y is a top-left corner. Colours: CSS hex (#1e88e5), a CSS colour name, or the palette's red, blue, green, yellow, orange, purple, pink, gray, black, white (its own tones; pastel as a note's fill).";

/// The local tools left out of server mode, and those replaced by one of
/// this file's.
const LEFT_OUT: [&str; 4] = ["save_board", "create_board", "export", "import"];

/// The arguments that name or replace files, which no server tool takes.
const FILE_ONLY: [&str; 3] = ["overwrite", "as", "output"];

/// The schema of `board`.
fn board_schema() -> Value {
    json!({"type": "string", "description": "The board's id (list_boards lists them)."})
}

/// Every tool of server mode, in the order `tools/list` shows them.
pub fn server_catalog() -> &'static [ToolDef] {
    static CATALOG: OnceLock<Vec<ToolDef>> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let mut all = vec![
            board_tool::<ListBoards>(),
            board_tool::<CreateStoredBoard>(),
        ];
        for def in catalog() {
            if !LEFT_OUT.contains(&def.name) {
                all.push(served(def));
            }
        }
        all.push(board_tool::<ExportBytes>());
        all.push(board_tool::<ImportContent>());
        all
    })
}

/// The server-mode tool named `name`.
pub(crate) fn find_served(name: &str) -> Option<&'static ToolDef> {
    server_catalog().iter().find(|t| t.name == name)
}

/// A local tool as server mode shows it: `path` becomes `board`, required but
/// for the tools that need none; file-only arguments go.
fn served(def: &ToolDef) -> ToolDef {
    let mut input = def.input_schema.clone();
    if let Some(Value::Object(props)) = input.get_mut("properties") {
        let had_path = props.remove("path").is_some();
        for key in FILE_ONLY {
            props.remove(key);
        }
        if had_path {
            // First, where `path` was: a reader sees which board before what.
            let mut with_board = Map::new();
            with_board.insert("board".into(), board_schema());
            with_board.append(props);
            *props = with_board;
        }
    }
    let mut required: Vec<Value> = match input.remove("required") {
        Some(Value::Array(r)) => r.into_iter().filter(|v| v != "path").collect(),
        _ => Vec::new(),
    };
    required.insert(0, json!("board"));
    input.insert("required".into(), Value::Array(required));
    let description = server_words(def.description);
    ToolDef {
        name: def.name,
        title: def.title,
        description,
        hints: def.hints,
        page_required: def.page_required,
        input_schema: input,
        output_schema: def.output_schema.clone(),
        run: match &def.run {
            Run::Edit(f) => Run::Edit(*f),
            Run::Board(f) => Run::Board(*f),
        },
    }
}

/// A description in server mode's words: boards are named by `board`, not by
/// a path; said once per tool, at start.
fn server_words(text: &'static str) -> &'static str {
    if !text.contains("path") && !text.contains("file") {
        return text;
    }
    let words = text
        .replace(
            "never path, output or source: the batch-level path applies to all",
            "never board, output or source: the batch-level board applies to all",
        )
        .replace("the board file", "the board")
        .replace("board file", "board")
        .replace(
            "Save the board (also saved after every change); as: a copy in another file or format.",
            "",
        );
    // Once per tool, for the life of the process: the catalogue is built once.
    Box::leak(words.into_boxed_str())
}

/// `list_boards`.
pub struct ListBoards;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListBoardsArgs {}

#[derive(Serialize, JsonSchema)]
pub struct ListedOut {
    board: String,
    title: String,
    /// "viewer", "editor" or "owner".
    role: String,
    revision: u64,
}

#[derive(Serialize, JsonSchema)]
pub struct ListBoardsOutput {
    boards: Vec<ListedOut>,
}

impl Tool for ListBoards {
    const NAME: &'static str = "list_boards";
    const TITLE: &'static str = "List boards";
    const DESCRIPTION: &'static str =
        "The boards you may see on this server, with their id (board), title and your role.";
    const HINTS: Hints = Hints::READ;
    type Args = ListBoardsArgs;
    type Output = ListBoardsOutput;
}

impl BoardTool for ListBoards {
    fn run(engine: &Engine, _caller: &Caller, _a: ListBoardsArgs) -> Result<Reply, ToolError> {
        let keeper = engine.keeper().ok_or_else(not_served)?;
        let boards = keeper
            .list()?
            .into_iter()
            .map(|b| ListedOut {
                board: b.id,
                title: b.title,
                role: b.role,
                revision: b.revision,
            })
            .collect();
        Ok(Reply::Json(to_value(&ListBoardsOutput { boards })))
    }
}

fn not_served() -> ToolError {
    ToolError::args("this tool works on an inkboard server only (inkboard serve)")
}

/// `create_board` in server mode.
pub struct CreateStoredBoard;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateStoredBoardArgs {
    title: String,
    pages: Option<Vec<String>>,
}

#[derive(Serialize, JsonSchema)]
pub struct CreateStoredBoardOutput {
    /// The new board's id.
    board: String,
    pages: Vec<PageRow>,
}

impl Tool for CreateStoredBoard {
    const NAME: &'static str = "create_board";
    const TITLE: &'static str = "Create board";
    const DESCRIPTION: &'static str = "Create an empty board with a title and pages (default one, \"Page 1\"); answers its id (board). You own it.";
    const HINTS: Hints = Hints::ADD;
    type Args = CreateStoredBoardArgs;
    type Output = CreateStoredBoardOutput;
}

impl BoardTool for CreateStoredBoard {
    fn run(
        engine: &Engine,
        _caller: &Caller,
        a: CreateStoredBoardArgs,
    ) -> Result<Reply, ToolError> {
        let keeper = engine.keeper().ok_or_else(not_served)?;
        let title = crate::tools::page::one_line(
            "title",
            &a.title,
            "give the board a title",
            "a title is one line of text",
        )?;
        let board = crate::tools::board::new_board(title, a.pages.unwrap_or_default())?;
        let pages = PageRow::list(&board);
        let id = keeper.create(&board)?;
        Ok(Reply::Json(to_value(&CreateStoredBoardOutput {
            board: id,
            pages,
        })))
    }
}

/// `export` in server mode: the file's bytes in the answer.
pub struct ExportBytes;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportBytesArgs {
    board: String,
    /// svg, png, pdf, inkboard, drawio, excalidraw or mmd.
    format: String,
    page: Option<PageRef>,
    /// Every page (pdf, inkboard, drawio).
    all_pages: Option<bool>,
    /// SVG/PNG carry the board for import (default true).
    embed: Option<bool>,
    /// PNG pixels per board unit (default 1).
    scale: Option<f64>,
    theme: Option<Word<Theme>>,
    background: Option<Word<Background>>,
    /// Only these (and group members, frame contents).
    ids: Option<Vec<IdArg>>,
}

#[derive(Serialize, JsonSchema)]
pub struct ExportBytesOutput {
    format: String,
    mime_type: &'static str,
    bytes: usize,
    /// The file, in base64.
    data: String,
}

/// The most an export answer may carry, before base64.
pub const MAX_EXPORT_BYTES: usize = 24 * 1024 * 1024;

impl Tool for ExportBytes {
    const NAME: &'static str = "export";
    const TITLE: &'static str = "Export board";
    const DESCRIPTION: &'static str = "The board as a file, answered in base64 with its MIME type: svg, png, pdf, inkboard (the whole board), drawio, excalidraw or mmd (Mermaid). SVG/PNG/PDF draw a page (pdf with all_pages: every page).";
    const HINTS: Hints = Hints::READ;
    type Args = ExportBytesArgs;
    type Output = ExportBytesOutput;
}

impl BoardTool for ExportBytes {
    fn run(engine: &Engine, caller: &Caller, a: ExportBytesArgs) -> Result<Reply, ToolError> {
        let keeper = engine.keeper().ok_or_else(not_served)?;
        let target = crate::stored::target(keeper, Some(&a.board))?;
        let (board, page): (Board, PageId) = engine.read(&target, |b| {
            Ok((b.clone(), PageRef::resolve_or_first(a.page.as_ref(), b)?))
        })?;
        let format = a.format.trim().trim_start_matches('.').to_ascii_lowercase();
        let all = a.all_pages.unwrap_or(false);
        let scale = crate::args::positive("scale", a.scale)?.unwrap_or(1.0);
        let theme = a.theme.map_or(Theme::Light, |w| w.0);
        let picture = matches!(format.as_str(), "svg" | "png" | "pdf");
        if !picture && (a.background.is_some() || a.ids.is_some()) {
            return Err(ToolError::args(format!(
                "'background' and 'ids' are for pictures, not a .{format} file: leave them out, or export svg, png or pdf"
            )));
        }
        let (page, look) = pick::export_look(
            &board,
            page,
            a.page.is_some(),
            all,
            crate::Look::new(scale, theme),
            a.background.map(|w| w.0),
            a.ids.as_deref(),
        )?;
        let pages: Vec<PageId> = match all {
            true => board.pages().iter().map(|p| p.id).collect(),
            false => vec![page],
        };
        let control = &caller.control.within(DRAWING_DEADLINE);
        let (bytes, mime) = match format.as_str() {
            "inkboard" => (
                inkboard_format::json::to_pretty_string(&board).into_bytes(),
                "application/json",
            ),
            "svg" | "png" | "pdf" => {
                let p = match format.as_str() {
                    "svg" => Picture::Svg,
                    "png" => Picture::Png,
                    _ => Picture::Pdf,
                };
                if all && p != Picture::Pdf {
                    return Err(ToolError::args(
                        "'all_pages' makes one file only as pdf: export the pages of an svg or png one at a time with 'page'",
                    ));
                }
                let drawn = p.draw(&board, &pages, &look, control)?;
                let drawn = match a.embed.unwrap_or(true) {
                    true => p.carrying(&board, drawn),
                    false => drawn,
                };
                let mime = match p {
                    Picture::Svg => "image/svg+xml",
                    Picture::Png => "image/png",
                    Picture::Pdf => "application/pdf",
                };
                (drawn, mime)
            }
            other => {
                let d = Diagram::of(&format!("x.{other}")).ok_or_else(|| {
                    ToolError::args(format!(
                        "'format' {} is not one inkboard writes: use svg, png, pdf, inkboard, drawio, excalidraw or mmd",
                        inkboard_core::echo::echo(other)
                    ))
                })?;
                if all && d.one_page() {
                    return Err(ToolError::args(format!(
                        "'all_pages' cannot go into one .{} file, which holds one page: export the pages one at a time with 'page'",
                        d.extension()
                    )));
                }
                let mime = match d {
                    Diagram::Drawio => "application/vnd.jgraph.mxfile",
                    Diagram::Excalidraw => "application/json",
                    Diagram::Mermaid => "text/vnd.mermaid",
                };
                (d.write(&board, page).into_bytes(), mime)
            }
        };
        if bytes.len() > MAX_EXPORT_BYTES {
            return Err(ToolError::args(format!(
                "the {format} file is {} MB, more than an answer carries ({} MB): export a page at a time, or a smaller scale",
                bytes.len() / (1024 * 1024),
                MAX_EXPORT_BYTES / (1024 * 1024)
            )));
        }
        Ok(Reply::Json(to_value(&ExportBytesOutput {
            format,
            mime_type: mime,
            bytes: bytes.len(),
            data: base64::engine::general_purpose::STANDARD.encode(&bytes),
        })))
    }
}

/// `import` in server mode: the file's content in the call, a new board made.
pub struct ImportContent;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportContentArgs {
    /// The file's text (.drawio, .excalidraw, .svg), or its bytes in base64 (.png) with base64: true.
    content: String,
    /// The file's name, for its kind (e.g. plan.drawio).
    name: String,
    base64: Option<bool>,
    /// Default: the file's own title, or its name.
    title: Option<String>,
}

#[derive(Serialize, JsonSchema)]
pub struct ImportContentOutput {
    /// The new board's id.
    board: String,
    format: String,
    pages: Vec<PageRow>,
    lost: Vec<LostRow>,
}

impl Tool for ImportContent {
    const NAME: &'static str = "import";
    const TITLE: &'static str = "Import diagram";
    const DESCRIPTION: &'static str = "Make a new board from a draw.io or Excalidraw file (.drawio, .xml, .excalidraw, or their .svg/.png exports) or inkboard's .svg/.png/.inkboard, given as content; lost lists what it could not keep.";
    const HINTS: Hints = Hints::ADD;
    type Args = ImportContentArgs;
    type Output = ImportContentOutput;
}

impl BoardTool for ImportContent {
    fn run(engine: &Engine, _caller: &Caller, a: ImportContentArgs) -> Result<Reply, ToolError> {
        let keeper = engine.keeper().ok_or_else(not_served)?;
        let bytes = match a.base64.unwrap_or(false) {
            true => base64::engine::general_purpose::STANDARD
                .decode(a.content.trim())
                .map_err(|e| ToolError::args(format!("'content' is not base64: {e}")))?,
            false => a.content.into_bytes(),
        };
        let lower = a.name.to_ascii_lowercase();
        let (mut board, format, lost) =
            if lower.ends_with(".inkboard") || lower.ends_with(".inkboard.json") {
                let text = std::str::from_utf8(&bytes)
                    .map_err(|_| ToolError::args("'content': an .inkboard file is text"))?;
                let board = inkboard_format::json::board_from_json(text)
                    .map_err(|e| ToolError::args(format!("'content': {e}")))?;
                (board, "inkboard".to_string(), Vec::new())
            } else {
                let d = import_bytes(&bytes, &a.name)?;
                (d.board, d.format, d.lost)
            };
        if let Some(title) = &a.title {
            let title = crate::tools::page::one_line(
                "title",
                title,
                "give the board a title",
                "a title is one line of text",
            )?;
            let mut tx = inkboard_core::Transaction::begin(&mut board);
            tx.set_title(title)?;
            tx.commit(inkboard_core::Actor::User)?;
        }
        let pages = PageRow::list(&board);
        let id = keeper.create(&board)?;
        Ok(Reply::Json(to_value(&ImportContentOutput {
            board: id,
            format,
            pages,
            lost,
        })))
    }
}
