//! What a tool is. An [`EditTool`] runs inside a transaction on one page of one
//! board, so it works on its own and inside `batch` alike; a [`BoardTool`] works
//! on whole boards or files (create, save, changes, batch itself) and is never
//! allowed inside a batch.

use inkboard_core::limits::{Limit, MAX_COORD};
use inkboard_core::{Board, ObjectId, PageId, Transaction};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::control::Control;
use crate::live::Caller;
use crate::{Engine, Reply, ToolError};

/// The MCP annotations of a tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hints {
    /// Changes nothing.
    pub read_only: bool,
    /// May remove what is there (delete-like).
    pub destructive: bool,
    /// Calling it again with the same arguments changes nothing more.
    pub idempotent: bool,
}

impl Hints {
    pub const READ: Hints = Hints {
        read_only: true,
        destructive: false,
        idempotent: true,
    };
    pub const ADD: Hints = Hints {
        read_only: false,
        destructive: false,
        idempotent: false,
    };
    pub const EDIT: Hints = Hints {
        read_only: false,
        destructive: false,
        idempotent: true,
    };
    /// Replaces or rewrites much at once (create_board with overwrite, batch).
    pub const REWRITE: Hints = Hints {
        read_only: false,
        destructive: true,
        idempotent: false,
    };
    /// Writes a file that may replace one already there (export with
    /// overwrite): destructive for that file; the same call again writes the same.
    pub const OVERWRITE: Hints = Hints {
        read_only: false,
        destructive: true,
        idempotent: true,
    };
    pub const DELETE: Hints = Hints {
        read_only: false,
        destructive: true,
        idempotent: true,
    };
}

/// What every tool declares about itself.
pub trait Tool {
    const NAME: &'static str;
    /// A human-readable name for clients' menus (MCP's `title`).
    const TITLE: &'static str;
    /// A short description: what it does, what it returns, in a few sentences.
    const DESCRIPTION: &'static str;
    const HINTS: Hints;
    type Args: DeserializeOwned + JsonSchema;
    type Output: Serialize + JsonSchema;
}

/// A tool that reads or edits one board inside a transaction.
pub trait EditTool: Tool {
    /// True when `page` names the page to act on and must be given
    /// (`rename_page`, `delete_page`).
    const PAGE_REQUIRED: bool = false;
    fn run(cx: &mut Cx<'_, '_>, args: Self::Args) -> Result<Self::Output, ToolError>;
}

/// A tool over whole boards or files.
pub trait BoardTool: Tool {
    fn run(engine: &Engine, caller: &Caller, args: Self::Args) -> Result<Reply, ToolError>;
}

/// What an edit tool works with: the transaction and the page it acts on.
pub struct Cx<'a, 'b> {
    pub tx: &'a mut Transaction<'b>,
    /// The page: the call's `page`, or the batch's, or the first.
    pub page: PageId,
    /// The call's control line: long work inside a tool (a layout) checks it,
    /// so that a cancelled call stops there and not only between operations.
    pub control: &'a Control,
}

impl Cx<'_, '_> {
    pub fn board(&self) -> &Board {
        self.tx.board()
    }

    /// The page number (from 1) of the page this call acts on.
    pub fn page_number(&self) -> usize {
        self.board().page_position(self.page).map_or(0, |i| i + 1)
    }

    /// Checks that an object is on this call's page, for tools that relate objects
    /// (connectors, groups, alignment) which must share a page.
    pub fn on_page(&self, id: &ObjectId, arg: &str) -> Result<(), ToolError> {
        match self.board().locate(id) {
            Some((page, _)) if page == self.page => Ok(()),
            Some((page, _)) => {
                let n = self.board().page_position(page).map_or(0, |i| i + 1);
                Err(ToolError::args(format!(
                    "'{arg}': \"{id}\" is on page {n}, not page {}: pass page {n} or use objects of one page",
                    self.page_number()
                )))
            }
            None => Err(ToolError::args(format!(
                "'{arg}' refers to no object: \"{id}\""
            ))),
        }
    }
}

/// Serializes a tool's output; outputs are plain data and always serialize.
pub(crate) fn to_value<T: Serialize>(output: &T) -> Value {
    serde_json::to_value(output).unwrap_or(Value::Null)
}

/// A number in a result: written compactly (`120`, not `120.0`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num(pub f64);

impl Serialize for Num {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        inkboard_format::json::num(self.0).serialize(s)
    }
}

impl JsonSchema for Num {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Num".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "number"})
    }
}

/// The `{"ids": [...]}` result of tools that act on several objects.
#[derive(Serialize, JsonSchema)]
pub struct Ids {
    pub ids: Vec<String>,
}

impl Ids {
    pub fn of(ids: &[ObjectId]) -> Self {
        Ids {
            ids: ids.iter().map(|i| i.to_string()).collect(),
        }
    }
}

/// The `{"id": ...}` result of tools that make one object.
#[derive(Serialize, JsonSchema)]
pub struct Id {
    pub id: String,
}

/// The `{"id", "x", "y", "w", "h"}` result of tools that place one object.
#[derive(Serialize, JsonSchema)]
pub struct Placed {
    pub id: String,
    pub x: Num,
    pub y: Num,
    pub w: Num,
    pub h: Num,
}

impl Placed {
    pub fn new(id: &ObjectId, r: inkboard_core::Rect) -> Self {
        Placed {
            id: id.to_string(),
            x: Num(r.x),
            y: Num(r.y),
            w: Num(r.w),
            h: Num(r.h),
        }
    }
}

/// Checks a coordinate or size argument against the model's range, so that the
/// message names the argument (the model would refuse the object anyway).
pub(crate) fn finite(name: &str, v: Option<f64>) -> Result<Option<f64>, ToolError> {
    match v {
        Some(v) if !v.is_finite() || v.abs() > MAX_COORD => Err(ToolError::args(format!(
            "'{name}' must be a number between -{MAX_COORD} and {MAX_COORD}, got {}",
            shown_number(v)
        ))),
        other => Ok(other),
    }
}

/// A connector's `waypoints` checked: finite, within the board, at most
/// [`MAX_WAYPOINTS`](inkboard_core::limits::MAX_WAYPOINTS). `[]` gives the route
/// back to the router.
pub(crate) fn waypoints(list: &[[f64; 2]]) -> Result<Vec<inkboard_core::Point>, ToolError> {
    inkboard_core::limits::Limit::Waypoints
        .check(|| "'waypoints'".to_string(), list.len() as u64)?;
    list.iter()
        .map(|&[x, y]| {
            finite("waypoints", Some(x))?;
            finite("waypoints", Some(y))?;
            Ok(inkboard_core::Point { x, y })
        })
        .collect()
}

/// A label place checked: a fraction from 0 to 1, or `None` (null) for automatic.
pub(crate) fn label_at(at: Option<f64>) -> Result<Option<f64>, ToolError> {
    if let Some(v) = at {
        finite("label_at", Some(v))?;
        if !(0.0..=1.0).contains(&v) {
            return Err(ToolError::args(format!(
                "'label_at' must be from 0 (the start) to 1 (the end), got {}",
                shown_number(v)
            )));
        }
    }
    Ok(at)
}

/// Checks that a pinned side (`name`: `from_side` or `to_side`) meets an
/// object: a free end has no sides.
pub(crate) fn side_on(
    end: &inkboard_core::End,
    side: Option<inkboard_core::Side>,
    name: &str,
) -> Result<(), ToolError> {
    match (end, side) {
        (inkboard_core::End::Point(_), Some(side)) => Err(ToolError::args(format!(
            "'{name}': the {} is a free point, which has no {side} side: attach it to an object, or leave '{name}' out",
            if name == "from_side" { "start" } else { "end" },
        ))),
        _ => Ok(()),
    }
}

/// Checks a rotation argument: degrees, any finite number, normalised into
/// [0, 360) (-90 is 270).
pub(crate) fn rotation(
    name: &str,
    v: Option<f64>,
) -> Result<Option<inkboard_core::Rotation>, ToolError> {
    v.map(|deg| {
        inkboard_core::Rotation::degrees(deg).ok_or_else(|| {
            ToolError::args(format!(
                "'{name}' must be a number of degrees, got {}",
                shown_number(deg)
            ))
        })
    })
    .transpose()
}

/// Checks a size argument: finite, and at least
/// [`MIN_SIZE`](inkboard_core::limits::MIN_SIZE) (the size of nothing is no
/// size, and a size next to 0 would be saved as 0).
pub(crate) fn positive(name: &str, v: Option<f64>) -> Result<Option<f64>, ToolError> {
    use inkboard_core::limits::MIN_SIZE;
    match finite(name, v)? {
        Some(v) if v < MIN_SIZE => Err(ToolError::args(format!(
            "'{name}' must be {MIN_SIZE} or more, got {}",
            shown_number(v)
        ))),
        other => Ok(other),
    }
}

/// Checks a gap or spacing argument: from 0 to
/// [`MAX_GAP`](inkboard_core::limits::MAX_GAP).
pub(crate) fn gap(name: &str, v: Option<f64>) -> Result<Option<f64>, ToolError> {
    use inkboard_core::limits::MAX_GAP;
    match v {
        Some(v) if !(v.is_finite() && (0.0..=MAX_GAP).contains(&v)) => {
            Err(ToolError::args(format!(
                "'{name}' must be from 0 to {MAX_GAP}, got {}",
                shown_number(v)
            )))
        }
        other => Ok(other),
    }
}

/// Refuses a call whose arguments nest lists and objects deeper than
/// [`MAX_JSON_DEPTH`](inkboard_core::limits::MAX_JSON_DEPTH), before anything walks them.
pub(crate) fn check_nesting(
    tool: &str,
    args: &serde_json::Map<String, Value>,
) -> Result<(), ToolError> {
    // The arguments object itself is the first level.
    let depth = 1 + args
        .values()
        .map(inkboard_format::json::depth)
        .max()
        .unwrap_or(0);
    Limit::JsonDepth.check(|| format!("the call to {tool}"), depth as u64)?;
    Ok(())
}

/// A number a message quotes back: as written in JSON, in exponent form when
/// huge or tiny (Rust writes 1e308 with 309 digits, and 5e-324 with 324 zeros).
pub(crate) fn shown_number(v: f64) -> String {
    if v != 0.0 && !(1e-4..1e15).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}
