//! The catalogue: every tool, in the order `tools/list` shows them, with its
//! schemas generated once from its types.

use std::sync::OnceLock;

use serde_json::{json, Map, Value};

use crate::args::{glossary, parse_args};
use crate::live::Caller;
use crate::schema::{output_schema_of, portable, rewritten, schema_of};
use crate::tool::{to_value, BoardTool, Cx, EditTool, Hints};
use crate::tools;
use crate::{Engine, Reply, ToolError};

/// How a tool runs.
pub(crate) enum Run {
    /// Inside a transaction on one page; allowed in a batch.
    Edit(fn(&mut Cx<'_, '_>, Value) -> Result<Value, ToolError>),
    /// On whole boards or files; not allowed in a batch.
    Board(fn(&Engine, &Caller, Value) -> Result<Reply, ToolError>),
}

/// One tool as transports see it.
pub struct ToolDef {
    pub name: &'static str,
    /// A human-readable name (MCP's `title`).
    pub title: &'static str,
    pub description: &'static str,
    pub hints: Hints,
    /// The page argument names the page to act on and must be given.
    pub page_required: bool,
    pub input_schema: Map<String, Value>,
    pub output_schema: Map<String, Value>,
    pub(crate) run: Run,
}

impl ToolDef {
    /// True for tools that may run inside a batch.
    pub fn in_batch(&self) -> bool {
        matches!(self.run, Run::Edit(_))
    }

    /// Refuses arguments the tool does not take, naming them and listing the ones it
    /// does, so a misspelt argument is never silently ignored.
    pub(crate) fn check_keys(&self, args: &Map<String, Value>) -> Result<(), ToolError> {
        let Some(Value::Object(props)) = self.input_schema.get("properties") else {
            return Ok(());
        };
        for key in args.keys() {
            if !props.contains_key(key) {
                let known = props
                    .keys()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", ");
                // An argument's name is short: 40 characters of an unknown one
                // say which it was; fewer when the list of known ones (`update`
                // takes 42) leaves less room within a message's 400.
                let fixed = self.name.len() + "takes no argument '': use ".len() + 1;
                let room = 399usize.saturating_sub(fixed + known.len()).clamp(16, 40);
                return Err(ToolError::args(format!(
                    "{} takes no argument '{}': use {known}",
                    self.name,
                    inkboard_core::echo::echo_within(key, room),
                )));
            }
        }
        Ok(())
    }
}

fn edit<T: EditTool>() -> ToolDef {
    fn run<T: EditTool>(cx: &mut Cx<'_, '_>, args: Value) -> Result<Value, ToolError> {
        let args: T::Args = parse_args(T::NAME, args)?;
        T::run(cx, args).map(|out| to_value(&out))
    }
    let mut input = schema_of::<T::Args>();
    let props = input.entry("properties").or_insert_with(|| json!({}));
    if let Value::Object(props) = props {
        // What `path` and `page` mean is said once, in the server's instructions
        // (see COMMON_ARGS), not on every tool: tools/list must stay small.
        props.insert("path".into(), json!({"type": "string"}));
        props.insert(
            "page".into(),
            json!({"anyOf": [{"type": "integer"}, {"type": "string"}]}),
        );
    }
    if T::PAGE_REQUIRED {
        let required = input.entry("required").or_insert_with(|| json!([]));
        if let Value::Array(r) = required {
            r.push(json!("page"));
        }
    }
    ToolDef {
        name: T::NAME,
        title: T::TITLE,
        description: T::DESCRIPTION,
        hints: T::HINTS,
        page_required: T::PAGE_REQUIRED,
        input_schema: finished(input),
        output_schema: portable_output(output_schema_of::<T::Output>()),
        run: Run::Edit(run::<T>),
    }
}

pub(crate) fn board<T: BoardTool>() -> ToolDef {
    fn run<T: BoardTool>(
        engine: &Engine,
        caller: &Caller,
        args: Value,
    ) -> Result<Reply, ToolError> {
        let args: T::Args = parse_args(T::NAME, args)?;
        T::run(engine, caller, args)
    }
    ToolDef {
        name: T::NAME,
        title: T::TITLE,
        description: T::DESCRIPTION,
        hints: T::HINTS,
        page_required: false,
        input_schema: finished(schema_of::<T::Args>()),
        output_schema: portable_output(output_schema_of::<T::Output>()),
        run: Run::Board(run::<T>),
    }
}

/// A schema as clients get it: every property described (the glossary), within
/// the subset every model API takes.
fn finished(schema: Map<String, Value>) -> Map<String, Value> {
    rewritten(schema, |v| {
        glossary::describe(v);
        portable(v);
    })
}

/// Strips a schema down to the kind of value: descriptions and word lists go.
fn bare_kind(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            map.remove("description");
            map.remove("enum");
            map.remove("required");
            map.values_mut().for_each(bare_kind);
        }
        Value::Array(items) => items.iter_mut().for_each(bare_kind),
        _ => {}
    }
}

/// An output schema as clients get it: within the portable subset, without the
/// glossary (results are read by the client, not the model, and cost bytes).
fn portable_output(schema: Map<String, Value>) -> Map<String, Value> {
    rewritten(schema, portable)
}

/// Completes `batch`'s schema from the catalogue: an operation's `tool` is one
/// of the tools allowed in a batch, and its `args` may hold any of their
/// arguments but `path` (model APIs want an object's properties named).
fn complete_batch(tools: &mut [ToolDef]) {
    let allowed: Vec<&ToolDef> = tools.iter().filter(|t| t.in_batch()).collect();
    let names: Vec<Value> = allowed.iter().map(|t| Value::from(t.name)).collect();
    let mut args = Map::new();
    for tool in &allowed {
        if let Some(Value::Object(props)) = tool.input_schema.get("properties") {
            for (name, prop) in props {
                if name != "path" && !args.contains_key(name) {
                    let mut prop = prop.clone();
                    // The meaning and the words allowed are the tool's own, in its
                    // schema; the batch says only the kind of value.
                    bare_kind(&mut prop);
                    args.insert(name.clone(), prop);
                }
            }
        }
    }
    let Some(batch) = tools.iter_mut().find(|t| t.name == "batch") else {
        return;
    };
    let op = batch
        .input_schema
        .get_mut("properties")
        .and_then(|p| p.get_mut("operations"))
        .and_then(|o| o.get_mut("items"))
        .and_then(|i| i.get_mut("properties"));
    if let Some(Value::Object(op)) = op {
        if let Some(Value::Object(tool)) = op.get_mut("tool") {
            tool.insert("enum".into(), Value::Array(names));
        }
        if let Some(Value::Object(a)) = op.get_mut("args") {
            a.insert("properties".into(), Value::Object(args));
        }
    }
}

/// What the arguments every tool shares mean: said once, to the client, in the
/// server's instructions.
pub const COMMON_ARGS: &str = "Every tool takes `path`: the board file (.inkboard, .inkboard.json or .tableau.json); omit it to act live on the board open in the inkboard app. Edit and read tools also take `page`: a page number (from 1) or name; default the first page. Coordinates are board units, x right, y down; x,y is a top-left corner. Colours: CSS hex (#1e88e5), a CSS colour name, or the palette's red, blue, green, yellow, orange, purple, pink, gray, black, white (its own tones; pastel as a note's fill).";

/// Every tool, in the order `tools/list` shows them.
pub fn catalog() -> &'static [ToolDef] {
    static CATALOG: OnceLock<Vec<ToolDef>> = OnceLock::new();
    CATALOG.get_or_init(|| {
        use tools::*;
        let mut all = vec![
            board::<board::CreateBoard>(),
            board::<board::SaveBoard>(),
            board::<changes::BoardChanges>(),
            board::<crate::batch::Batch>(),
            board::<render::Render>(),
            board::<render::Export>(),
            board::<import::Import>(),
            edit::<read::ReadBoard>(),
            edit::<read::Find>(),
            edit::<shape::AddShape>(),
            edit::<connector::AddConnector>(),
            edit::<image::AddImage>(),
            edit::<ink::AddInk>(),
            edit::<update::Update>(),
            edit::<arrange::Move>(),
            edit::<delete::Delete>(),
            edit::<duplicate::Duplicate>(),
            edit::<group::Group>(),
            edit::<group::Ungroup>(),
            edit::<arrange::Order>(),
            edit::<arrange::Align>(),
            edit::<arrange::Distribute>(),
            edit::<layout::Layout>(),
            edit::<mermaid::ImportMermaid>(),
            edit::<page::AddPage>(),
            edit::<page::RenamePage>(),
            edit::<page::DeletePage>(),
            edit::<board::RenameBoard>(),
        ];
        complete_batch(&mut all);
        all
    })
}

/// The tools of the chat view (`tools/chat.rs`): listed, hidden from the
/// model, only to hosts that show MCP Apps; callable by name like any other.
/// They are not in [`catalog`], so what a model is given stays as it was.
pub fn chat_catalog() -> &'static [ToolDef] {
    static CATALOG: OnceLock<Vec<ToolDef>> = OnceLock::new();
    CATALOG.get_or_init(|| {
        use tools::chat::*;
        vec![
            board::<ViewBoard>(),
            board::<ViewEdit>(),
            board::<ViewPreview>(),
            board::<ViewHistory>(),
        ]
    })
}

/// The tool with this name (the model's or the chat view's).
pub fn find_tool(name: &str) -> Option<&'static ToolDef> {
    catalog()
        .iter()
        .chain(chat_catalog())
        .find(|t| t.name == name)
}
