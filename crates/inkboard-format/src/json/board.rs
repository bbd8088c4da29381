//! The file document: a whole board as JSON, and back.
//!
//! ```json
//! {"format": "inkboard", "version": 1, "title": "...", "revision": 3, "next_id": 12,
//!  "next_page": 4, "pages": [{"id": "p1", "name": "Page 1", "objects": [...]}]}
//! ```
//!
//! `next_page` is written only when it says more than the page ids do (a page
//! with the largest id was deleted): a board that never lost its last page is
//! saved as earlier versions of inkboard wrote it, and those keep the field, as an
//! unknown one, when they save. No format version is needed for it: a reader that
//! does not know it loses only the guarantee it adds.
//!
//! followed by the board's unknown fields, sorted; pages and objects likewise end
//! with theirs.

use std::collections::{HashMap, HashSet};

use inkboard_core::limits::{self, Limit, MAX_JSON_DEPTH};
use inkboard_core::{Board, End, Kind, ObjectId, Page, PageId};
use serde_json::{Number, Value};

use super::depth::text_depth;
use super::migrate::migrate;
use super::object::{object_from_json_at, write_extra, write_object};
use super::pretty::Pretty;
use super::read::{describe, index, Fields};
use super::sink::{Sink, Tree};
use super::{Detail, FORMAT_VERSION};
use crate::FormatError;

/// The word in the `format` field that marks an inkboard document.
const MAGIC: &str = "inkboard";

const BOARD_KEYS: &[&str] = &[
    "format",
    "version",
    "title",
    "revision",
    "next_id",
    "next_page",
    "pages",
];
const PAGE_KEYS: &[&str] = &["id", "name", "objects"];

/// The whole board as the file document (images with their data).
pub fn board_to_json(board: &Board) -> Value {
    let mut tree = Tree::default();
    write_board(board, &mut tree);
    tree.finish()
}

/// The file text of a board: the document pretty-printed with a 2-space indent (lists
/// of plain values on one line), keys in their fixed order, and a final newline.
/// The same text as pretty-printing [`board_to_json`], written without that tree.
pub fn to_pretty_string(board: &Board) -> String {
    // Files run to about 170 bytes an object; room for a little more saves the
    // text from being copied as it grows.
    let objects: usize = board.pages().iter().map(|p| p.objects.len()).sum();
    let mut text = Pretty::with_capacity(256 + 200 * objects);
    write_board(board, &mut text);
    text.finish()
}

/// Writes the file document: the one place that knows the board's and the pages'
/// fields and their order.
fn write_board(board: &Board, out: &mut impl Sink) {
    out.open_object();
    out.text_field("format", MAGIC);
    out.number_field("version", Number::from(FORMAT_VERSION));
    out.text_field("title", board.title());
    out.number_field("revision", Number::from(board.revision()));
    out.number_field("next_id", Number::from(board.next_object()));
    if board.next_page() != board.page_counter_of_pages() {
        out.number_field("next_page", Number::from(board.next_page()));
    }
    out.key("pages");
    out.open_list(false);
    for page in board.pages() {
        write_page(page, out);
    }
    out.close();
    write_extra(board.extra(), BOARD_KEYS, false, out);
    out.close();
}

pub(crate) fn write_page(page: &Page, out: &mut impl Sink) {
    out.open_object();
    out.text_field("id", &page.id.to_string());
    out.text_field("name", &page.name);
    out.key("objects");
    out.open_list(false);
    for object in &page.objects {
        write_object(object, Detail::File, out);
    }
    out.close();
    write_extra(&page.extra, PAGE_KEYS, false, out);
    out.close();
}

/// Reads a file document: parses the JSON, checks it is an inkboard document of a
/// version this build knows, migrates it to the current version, reads every field
/// and checks the references, then builds the board with
/// [`Board::from_parts`]. Errors name the place, e.g. `pages[0].objects[3].geom`.
///
/// A byte order mark (U+FEFF) at the start is skipped: some editors put one in
/// every file they save, and JSON readers may ignore it (RFC 8259, section 8.1).
/// It is not kept: the file is saved without it, as JSON text must be written
/// (the same section), so that the tools that refuse one (`jq`, Python's `json`,
/// JavaScript's `JSON.parse`) read every board inkboard writes, and a board's text
/// stays the one canonical text of its content. Lines and columns in errors are
/// counted as an editor shows them, without it.
pub fn board_from_json(text: &str) -> Result<Board, FormatError> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    FormatError::over(Limit::FileBytes, "the file", text.len() as u64)?;
    let nesting = text_depth(text, MAX_JSON_DEPTH);
    if let Some((line, column)) = nesting.first_past {
        FormatError::over(
            Limit::JsonDepth,
            format!("the document, at line {line}, column {column},"),
            nesting.deepest as u64,
        )?;
    }
    // Refused before parsing: the parsed tree is what costs memory.
    FormatError::over(Limit::JsonContainers, "the file", nesting.containers as u64)?;
    let value: Value = serde_json::from_str(text).map_err(not_json)?;
    let Value::Object(mut doc) = value else {
        return Err(FormatError::NotInkboard {
            found: format!("it holds {}, not a JSON object", describe(&value)),
        });
    };
    match doc.get("format") {
        Some(Value::String(s)) if s == MAGIC => {}
        Some(other) => {
            return Err(FormatError::NotInkboard {
                found: format!("its \"format\" is {}, not \"{MAGIC}\"", describe(other)),
            })
        }
        None => {
            return Err(FormatError::NotInkboard {
                found: format!("it has no \"format\": \"{MAGIC}\" field"),
            })
        }
    }
    let version = match doc.get("version") {
        None => {
            return Err(FormatError::invalid(
                "",
                "missing \"version\": add the format version (1 for this format)",
            ))
        }
        Some(v) => match v.as_u64() {
            Some(n) if n >= 1 => n,
            _ => {
                return Err(FormatError::invalid(
                    "version",
                    format!(
                        "expected a format version (a whole number from 1), got {}",
                        describe(v)
                    ),
                ))
            }
        },
    };
    if version > FORMAT_VERSION {
        return Err(FormatError::TooNew { version });
    }
    migrate(&mut doc, version)?;
    let doc = Value::Object(doc);
    read_board(&doc)
}

/// Refuses a list at `at` holding more than `limit` allows, before it is read.
pub(crate) fn over(limit: Limit, at: &str, what: &str, len: usize) -> Result<(), FormatError> {
    limit
        .check(|| what.to_string(), len as u64)
        .map_err(|e| FormatError::invalid(at, e.to_string()))
}

/// A `serde_json` error as [`FormatError::NotJson`], without serde's own
/// " at line L column C" suffix since the message places it itself.
fn not_json(e: serde_json::Error) -> FormatError {
    let (line, column) = (e.line(), e.column());
    let full = e.to_string();
    let suffix = format!(" at line {line} column {column}");
    let mut reason = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
    if e.is_eof() {
        reason = format!("{reason} (is the file cut short?)");
    }
    FormatError::NotJson {
        line,
        column,
        reason,
    }
}

/// Reads a current-version document into a board.
/// The most a board's counters (`revision`, `next_id`) may hold in a file: each
/// change counts them up, and they reach browsers as JSON numbers, which are exact
/// only up to 2^53. No history comes near it, so more is damage; refusing it also
/// keeps counting up from ever overflowing.
const MAX_COUNTER: u64 = (1 << 53) - 1;

fn read_board(doc: &Value) -> Result<Board, FormatError> {
    let mut f = Fields::new(doc, "", "a board")?;
    // Checked before.
    f.get("format");
    f.get("version");
    let title = f.string("title")?.to_string();
    limits::check_text("the title", &title).map_err(|e| f.error("title", e.to_string()))?;
    // The counters are bookkeeping: a hand-made file may leave them out.
    let revision = f.opt_count("revision")?.unwrap_or(0);
    let next_id = f.opt_count("next_id")?.unwrap_or(1);
    // Absent in files that never lost their last page: the page ids say it all.
    let next_page = f.opt_count("next_page")?.unwrap_or(1);
    let next_page = u32::try_from(next_page).map_err(|_| {
        f.error(
            "next_page",
            format!("{next_page} is more than a board counts pages to ({}): the file is damaged; remove \"next_page\" from it", u32::MAX),
        )
    })?;
    for (key, n) in [("revision", revision), ("next_id", next_id)] {
        if n > MAX_COUNTER {
            return Err(f.error(
                key,
                format!("{n} is more than a board counts to ({MAX_COUNTER}): the file is damaged; remove \"{key}\" from it"),
            ));
        }
    }
    let list = f.list("pages")?;
    over(Limit::Pages, "pages", "the board", list.len())?;
    let pages = list
        .iter()
        .enumerate()
        .map(|(i, p)| read_page(p, &index("pages", i)))
        .collect::<Result<Vec<_>, _>>()?;
    check_references(&pages)?;
    let extra = f.extra();
    // The checks above name places; the model's own check stays as the last word.
    Board::from_parts(title, pages, next_id, revision, extra)
        .map(|b| b.with_next_page(next_page))
        .map_err(|e| FormatError::invalid("pages", e.to_string()))
}

pub(crate) fn read_page(value: &Value, at: &str) -> Result<Page, FormatError> {
    let mut f = Fields::new(value, at, "a page")?;
    let id_text = f.string("id")?;
    let id = PageId::parse(id_text).filter(|id| id.0 >= 1).ok_or_else(|| {
        f.error(
            "id",
            format!("invalid page id {id_text:?}: page ids are \"p\" and a number from 1, like \"p1\""),
        )
    })?;
    let name = f.string("name")?.to_string();
    limits::check_text("the name", &name).map_err(|e| f.error("name", e.to_string()))?;
    let list = f.list("objects")?;
    let at_objects = f.path("objects");
    over(Limit::ObjectsPerPage, &at_objects, "the page", list.len())?;
    let objects = list
        .iter()
        .enumerate()
        .map(|(i, o)| object_from_json_at(o, &index(&at_objects, i)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page {
        id,
        name,
        objects,
        extra: f.extra(),
    })
}

/// Unique page and object ids, and connector ends and group members on their own
/// page: the invariants of [`Board::from_parts`], checked here first so that the
/// error can say where the offending field is.
fn check_references(pages: &[Page]) -> Result<(), FormatError> {
    let mut page_ids: HashMap<PageId, usize> = HashMap::new();
    let mut object_ids: HashMap<&ObjectId, String> = HashMap::new();
    for (pi, page) in pages.iter().enumerate() {
        let at_page = index("pages", pi);
        if let Some(first) = page_ids.insert(page.id, pi) {
            return Err(FormatError::invalid(
                format!("{at_page}.id"),
                format!(
                    "page id {} is also the id of pages[{first}]: give each page its own id",
                    page.id
                ),
            ));
        }
        for (oi, object) in page.objects.iter().enumerate() {
            let at = format!("{at_page}.objects[{oi}]");
            // The board counts on from its largest id (`Board::from_parts`): past
            // the counters' limit, it would save a file it cannot read back.
            if object.id.counter().is_some_and(|n| n >= MAX_COUNTER) {
                return Err(FormatError::invalid(
                    format!("{at}.id"),
                    format!("the id's number is more than a board counts to ({MAX_COUNTER}): give the object a smaller number, like \"s1\""),
                ));
            }
            if let Some(first) = object_ids.get(&object.id) {
                return Err(FormatError::invalid(
                    format!("{at}.id"),
                    format!(
                        "the id \"{}\" is used twice (also at {first}): give each object its own id",
                        object.id
                    ),
                ));
            }
            object_ids.insert(&object.id, at);
        }
    }
    for (pi, page) in pages.iter().enumerate() {
        let here: HashSet<&ObjectId> = page.objects.iter().map(|o| &o.id).collect();
        for (oi, object) in page.objects.iter().enumerate() {
            let at = format!("pages[{pi}].objects[{oi}]");
            let missing = |id: &ObjectId, field: String, what: &str, fix: &str| {
                let elsewhere = if object_ids.contains_key(id) {
                    " (it is on another page)"
                } else {
                    ""
                };
                FormatError::invalid(
                    field,
                    format!(
                        "{what} \"{}\" refers to no object \"{id}\" on page {}{elsewhere}: {fix}",
                        object.id, page.id
                    ),
                )
            };
            match &object.kind {
                Kind::Connector(c) => {
                    for (key, end) in [("from", &c.from), ("to", &c.to)] {
                        if let End::Object(id) = end {
                            if !here.contains(id) {
                                return Err(missing(
                                    id,
                                    format!("{at}.{key}"),
                                    "connector",
                                    "use the id of an object on the same page, or a point {\"x\", \"y\"}",
                                ));
                            }
                        }
                    }
                }
                Kind::Group(g) => {
                    for (i, id) in g.members.iter().enumerate() {
                        if !here.contains(id) {
                            return Err(missing(
                                id,
                                format!("{at}.ids[{i}]"),
                                "group",
                                "remove it from \"ids\" or use an object on the same page",
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file text written straight from the model is the document tree laid out:
    /// the two sinks agree, on the golden file and on the empty cases (a page
    /// without objects, a stroke without points, unknown fields that are empty or
    /// nest lists of objects).
    #[test]
    fn the_file_text_is_the_document_tree_laid_out() {
        let edges = r#"{"format": "inkboard", "version": 1, "title": "t\u00e9\"", "pages": [
            {"id": "p1", "name": "empty", "objects": [], "z": {}},
            {"id": "p2", "name": "edges", "objects": [
                {"id": "k1", "type": "ink", "points": []},
                {"id": "k2", "type": "ink", "points": [[1, 2.5]], "a": [], "b": [{"c": [1, {"d": null}]}, 2]},
                {"id": "c3", "type": "connector", "from": {"x": -0.001, "y": 9999999.999}, "to": "k1", "route": "straight"}
            ]}
        ], "zz": [[], [[1]], "x"]}"#;
        for text in [include_str!("../../tests/golden/v1.inkboard"), edges] {
            let board = board_from_json(text).unwrap();
            let mut laid = Pretty::with_capacity(0);
            laid.value(board_to_json(&board));
            assert_eq!(to_pretty_string(&board), laid.finish());
        }
    }
}
