//! Reading: `read_board` (one page's objects and the list of pages) and `find`
//! (objects by text, type or outline). Reads are compact: defaults are left out
//! and image bytes are replaced by their count.

use inkboard_core::{Geom, Kind, Object};
use inkboard_format::json::{object_to_json, Detail};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::args::Word;
use crate::tool::{Cx, EditTool, Hints, Tool};
use crate::ToolError;

pub struct ReadBoard;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadBoardArgs {}

#[derive(Serialize, JsonSchema)]
pub struct PageSummary {
    number: usize,
    name: String,
    /// How many objects it holds.
    objects: usize,
}

#[derive(Serialize, JsonSchema)]
pub struct PageContent {
    number: usize,
    name: String,
    objects: Vec<Map<String, Value>>,
}

#[derive(Serialize, JsonSchema)]
pub struct ReadBoardOutput {
    title: String,
    revision: u64,
    pages: Vec<PageSummary>,
    page: PageContent,
}

impl Tool for ReadBoard {
    const NAME: &'static str = "read_board";
    const TITLE: &'static str = "Read board";
    const DESCRIPTION: &'static str =
        "Read a board: title, revision, pages, and one page's objects (defaults left out).";
    const HINTS: Hints = Hints::READ;
    type Args = ReadBoardArgs;
    type Output = ReadBoardOutput;
}

impl EditTool for ReadBoard {
    fn run(cx: &mut Cx<'_, '_>, _: ReadBoardArgs) -> Result<ReadBoardOutput, ToolError> {
        let board = cx.board();
        let pages = board
            .pages()
            .iter()
            .enumerate()
            .map(|(i, p)| PageSummary {
                number: i + 1,
                name: p.name.clone(),
                objects: p.objects.len(),
            })
            .collect();
        let page = board
            .page(cx.page)
            .ok_or(inkboard_core::ModelError::NoSuchPage(cx.page))?;
        Ok(ReadBoardOutput {
            title: board.title().to_string(),
            revision: board.revision(),
            pages,
            page: PageContent {
                number: cx.page_number(),
                name: page.name.clone(),
                objects: page
                    .objects
                    .iter()
                    .map(|o| object_to_json(o, Detail::Read))
                    .collect(),
            },
        })
    }
}

pub struct Find;

inkboard_core::vocabulary! {
    /// Object types `find` can filter on.
    pub enum TypeName as "type" { Shape = "shape", Connector = "connector", Image = "image", Ink = "ink", Group = "group" }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindArgs {
    /// Part of the text, any case
    text: Option<String>,
    #[serde(rename = "type")]
    kind: Option<Word<TypeName>>,
    geom: Option<Word<Geom>>,
}

#[derive(Serialize, JsonSchema)]
pub struct FindOutput {
    ids: Vec<String>,
    objects: Vec<Map<String, Value>>,
}

impl Tool for Find {
    const NAME: &'static str = "find";
    const TITLE: &'static str = "Find objects";
    const DESCRIPTION: &'static str =
        "Find objects on a page by text (case-insensitive substring), type and/or geom.";
    const HINTS: Hints = Hints::READ;
    type Args = FindArgs;
    type Output = FindOutput;
}

fn matches(o: &Object, a: &FindArgs, needle: &Option<String>) -> bool {
    let type_ok = a
        .kind
        .is_none_or(|k| inkboard_core::Vocabulary::name(k.0) == o.kind.type_name());
    let geom_ok = a
        .geom
        .is_none_or(|g| matches!(&o.kind, Kind::Shape(s) if s.geom == g.0));
    // Rich text is found by what it shows ("bold idea" in "**bold** idea") and by
    // its source.
    let text_ok = needle.as_ref().is_none_or(|n| {
        let has = |t: &str| t.to_lowercase().contains(n.as_str());
        o.text().is_some_and(has) || o.shown_text().is_some_and(|t| has(&t))
    });
    type_ok && geom_ok && text_ok
}

impl EditTool for Find {
    fn run(cx: &mut Cx<'_, '_>, a: FindArgs) -> Result<FindOutput, ToolError> {
        // No text on a board is longer: a longer one could match nothing.
        if let Some(text) = &a.text {
            inkboard_core::limits::check_text("'text'", text)?;
        }
        let needle = a.text.as_ref().map(|t| t.to_lowercase());
        let page = cx
            .board()
            .page(cx.page)
            .ok_or(inkboard_core::ModelError::NoSuchPage(cx.page))?;
        let found: Vec<&Object> = page
            .objects
            .iter()
            .filter(|o| matches(o, &a, &needle))
            .collect();
        Ok(FindOutput {
            ids: found.iter().map(|o| o.id.to_string()).collect(),
            objects: found
                .iter()
                .map(|o| object_to_json(o, Detail::Read))
                .collect(),
        })
    }
}
