//! What a tool is. An [`EditTool`] runs inside a transaction on one page of one
//! board, so it works on its own and inside `batch` alike; a [`BoardTool`] works
//! on whole boards or files (create, save, changes, batch itself) and is never
//! allowed inside a batch. Their arguments (types, checks and wording) are in
//! [`crate::args`].

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
