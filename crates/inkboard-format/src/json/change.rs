//! A committed change as JSON: what the server's store keeps for each revision of
//! a board, and what another process replays to bring its copy of the board up to
//! that revision.
//!
//! ```json
//! {"steps": [{"op": "replace", "page": "p1", "index": 0, "before": {…}, "after": {…}}],
//!  "next_id": 12, "next_page": 2}
//! ```
//!
//! Each step holds the before and after of the record it touched, objects and
//! pages in the file's own JSON (images with their data), so a change is applied,
//! or inverted for an undo, without the board it was made on. `next_id` and
//! `next_page` are the board's id counters after the change: a replay raises the
//! copy's counters to them, so ids a change handed out (even ones it did not keep)
//! are never handed out again. The author and the revision are not in the value:
//! the store keeps them beside it.
//!
//! Ops: `insert`, `remove` (`page`, `index`, `object`), `replace` (`page`,
//! `index`, `before`, `after`), `insert_page`, `remove_page` (`index`, `page`: the
//! whole page, as in the file), `rename_page` (`page`, `before`, `after`: names)
//! and `set_title` (`before`, `after`).

use inkboard_core::{Board, Commit, PageId, Step};
use serde_json::{json, Map, Value};

use super::board::{read_page, write_page};
use super::object::{object_from_json_at, write_object};
use super::read::{describe, index};
use super::sink::Tree;
use super::Detail;
use crate::FormatError;

/// A change read back: its steps, in order, and the board's id counters after it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredSteps {
    pub steps: Vec<Step>,
    pub next_id: u64,
    pub next_page: u32,
}

/// The JSON of `commit`, made on a board that is now `board` (whose id counters
/// are written beside the steps).
pub fn commit_to_json(commit: &Commit, board: &Board) -> Value {
    let steps: Vec<Value> = commit.steps.iter().map(step_to_json).collect();
    json!({
        "steps": steps,
        "next_id": board.next_object(),
        "next_page": board.next_page(),
    })
}

fn object_value(object: &inkboard_core::Object) -> Value {
    let mut tree = Tree::default();
    write_object(object, Detail::File, &mut tree);
    tree.finish()
}

fn page_value(page: &inkboard_core::Page) -> Value {
    let mut tree = Tree::default();
    write_page(page, &mut tree);
    tree.finish()
}

fn step_to_json(step: &Step) -> Value {
    match step {
        Step::Insert {
            page,
            index,
            object,
        } => {
            json!({"op": "insert", "page": page.to_string(), "index": index, "object": object_value(object)})
        }
        Step::Remove {
            page,
            index,
            object,
        } => {
            json!({"op": "remove", "page": page.to_string(), "index": index, "object": object_value(object)})
        }
        Step::Replace {
            page,
            index,
            before,
            after,
        } => json!({
            "op": "replace", "page": page.to_string(), "index": index,
            "before": object_value(before), "after": object_value(after),
        }),
        Step::InsertPage { index, page } => {
            json!({"op": "insert_page", "index": index, "page": page_value(page)})
        }
        Step::RemovePage { index, page } => {
            json!({"op": "remove_page", "index": index, "page": page_value(page)})
        }
        Step::RenamePage {
            page,
            before,
            after,
        } => {
            json!({"op": "rename_page", "page": page.to_string(), "before": before, "after": after})
        }
        Step::SetTitle { before, after } => {
            json!({"op": "set_title", "before": before, "after": after})
        }
    }
}

/// Reads a change [`commit_to_json`] wrote. Errors name the place (`steps[2].after.geom`).
pub fn commit_from_json(value: &Value) -> Result<StoredSteps, FormatError> {
    let doc = value.as_object().ok_or_else(|| {
        FormatError::invalid(
            "",
            format!("a change is an object, not {}", describe(value)),
        )
    })?;
    let list = match doc.get("steps") {
        Some(Value::Array(list)) => list,
        _ => return Err(FormatError::invalid("steps", "expected a list of steps")),
    };
    let steps = list
        .iter()
        .enumerate()
        .map(|(i, s)| step_from_json(s, &index("steps", i)))
        .collect::<Result<Vec<_>, _>>()?;
    let next_id = doc
        .get("next_id")
        .and_then(Value::as_u64)
        .ok_or_else(|| FormatError::invalid("next_id", "expected a whole number"))?;
    let next_page = doc
        .get("next_page")
        .and_then(Value::as_u64)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| FormatError::invalid("next_page", "expected a whole number"))?;
    Ok(StoredSteps {
        steps,
        next_id,
        next_page,
    })
}

fn step_from_json(value: &Value, at: &str) -> Result<Step, FormatError> {
    let step: &Map<String, Value> = value.as_object().ok_or_else(|| {
        FormatError::invalid(at, format!("a step is an object, not {}", describe(value)))
    })?;
    let field = |key: &str| -> Result<&Value, FormatError> {
        step.get(key)
            .ok_or_else(|| FormatError::invalid(format!("{at}.{key}"), "missing"))
    };
    let text = |key: &str| -> Result<String, FormatError> {
        field(key)?
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| FormatError::invalid(format!("{at}.{key}"), "expected text"))
    };
    let page_id = || -> Result<PageId, FormatError> {
        let t = text("page")?;
        PageId::parse(&t).ok_or_else(|| {
            FormatError::invalid(format!("{at}.page"), format!("invalid page id {t:?}"))
        })
    };
    let position = || -> Result<usize, FormatError> {
        field("index")?
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| FormatError::invalid(format!("{at}.index"), "expected a whole number"))
    };
    let object = |key: &str| object_from_json_at(field(key)?, &format!("{at}.{key}"));
    let page = || read_page(field("page")?, &format!("{at}.page"));
    Ok(match text("op")?.as_str() {
        "insert" => Step::Insert {
            page: page_id()?,
            index: position()?,
            object: object("object")?,
        },
        "remove" => Step::Remove {
            page: page_id()?,
            index: position()?,
            object: object("object")?,
        },
        "replace" => Step::Replace {
            page: page_id()?,
            index: position()?,
            before: object("before")?,
            after: object("after")?,
        },
        "insert_page" => Step::InsertPage {
            index: position()?,
            page: page()?,
        },
        "remove_page" => Step::RemovePage {
            index: position()?,
            page: page()?,
        },
        "rename_page" => Step::RenamePage {
            page: page_id()?,
            before: text("before")?,
            after: text("after")?,
        },
        "set_title" => Step::SetTitle {
            before: text("before")?,
            after: text("after")?,
        },
        other => {
            return Err(FormatError::invalid(
                format!("{at}.op"),
                format!("unknown step {other:?}"),
            ))
        }
    })
}
