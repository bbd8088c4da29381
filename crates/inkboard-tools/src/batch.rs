//! `batch`: up to 200 edit-tool operations in one transaction, so one undo step and
//! at most one file write, with `$N.key` references to earlier results. The
//! contract is `docs/spec/batch.md`, the user's own text; the numbered points
//! there are cited below where the code settles them.

use inkboard_core::{PageId, Transaction};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::args::PageRef;
use crate::catalog::{catalog, find_tool, Run};
use crate::control::Control;
use crate::live::Caller;
use crate::tool::{BoardTool, Cx, Hints, Tool};
use crate::{refs, Engine, Reply, ToolError};

/// The most operations one batch may hold, named with the board's other limits.
pub const MAX_OPERATIONS: usize = inkboard_core::limits::MAX_BATCH_OPERATIONS;

/// The tools batch.md names as not allowed inside a batch, and `import`, which
/// reads and writes files of its own.
const NOT_IN_BATCH: [&str; 7] = [
    "batch",
    "create_board",
    "save_board",
    "board_changes",
    "export",
    "render",
    "import",
];

/// `batch` itself.
pub struct Batch;

#[derive(Deserialize, JsonSchema)]
pub struct BatchArgs {
    /// Page: number (from 1) or name. Defaults to the first.
    page: Option<PageRef>,
    /// Path of the board file (.inkboard; .inkboard.json and .tableau.json also accepted). Optional when the application is open: the tool then acts live on the displayed board (undoable with Ctrl+Z).
    path: Option<String>,
    /// All or nothing (default true). false: keep the operations done before the first error.
    atomic: Option<bool>,
    /// Operations to run in order, e.g. [{"tool": "add_shape", "args": {"geom": "rect", "text": "A"}}, {"tool": "add_shape", "args": {"geom": "rect", "text": "B"}}, {"tool": "add_connector", "args": {"from": "$0.id", "to": "$1.id"}}].
    #[schemars(schema_with = "operations_schema")]
    operations: Value,
    // After the user's four (batch.md's table), an extension of the contract.
    /// true: also answer the problems on the pages changed, as render finds them.
    check: Option<bool>,
}

fn operations_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "array", "minItems": 1, "maxItems": MAX_OPERATIONS,
        // `tool`'s enum and `args`' properties come from the catalogue.
        "items": {"type": "object", "properties": {"tool": {"type": "string"}, "args": {"type": "object"}}, "required": ["tool"]},
    })
}

/// The answer of a batch that did not fail atomically.
#[derive(Serialize, JsonSchema)]
pub struct BatchOutput {
    /// One result per operation that ran.
    results: Vec<Value>,
    /// How many operations were applied.
    applied: usize,
    /// With atomic: false, the operation that failed and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    failed: Option<Failed>,
    /// With check: true, how many problems the changed pages have.
    #[serde(skip_serializing_if = "Option::is_none")]
    problem_count: Option<usize>,
    /// With check: true, the first of them (at most [`MAX_PROBLEMS_LISTED`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    problems: Option<Vec<BatchProblem>>,
}

/// A problem on a page the batch changed, as `render` reports it.
#[derive(Serialize, JsonSchema)]
pub struct BatchProblem {
    /// What is wrong, e.g. label_over_line, shape_overlap, text_overflow.
    kind: &'static str,
    /// The objects involved.
    ids: Vec<String>,
    /// What is wrong and how to fix it, in one sentence.
    message: String,
    /// The page's number, from 1.
    page: usize,
}

/// At most this many problems are listed, as `render` lists them; the count says
/// how many there are.
const MAX_PROBLEMS_LISTED: usize = 50;

/// The problems on the pages `tx` changed, as `render` finds them, and how many
/// there are. A page too large to check before the drawing deadline says so
/// instead of stopping the batch, whose changes are worth keeping.
fn check_pages(tx: &Transaction<'_>, control: &Control) -> (usize, Vec<BatchProblem>) {
    let board = tx.board();
    let control = control.within(crate::control::DRAWING_DEADLINE);
    let deadline = control.deadline();
    let (mut count, mut listed) = (0, Vec::new());
    for page in tx.pages_touched() {
        let number = board.page_position(page).map_or(0, |i| i + 1);
        let found = match inkboard_render::resolve_within(board, page, &deadline) {
            Ok(scene) => inkboard_render::check_scene(board, &scene)
                .into_iter()
                .map(|p| BatchProblem {
                    kind: p.kind.name(),
                    ids: p.ids.iter().map(ToString::to_string).collect(),
                    message: p.message,
                    page: number,
                })
                .collect(),
            Err(_) => vec![BatchProblem {
                kind: "not_checked",
                ids: Vec::new(),
                message: format!(
                    "Page {number} is too large to check in time; render it to see its problems."
                ),
                page: number,
            }],
        };
        count += found.len();
        let room = MAX_PROBLEMS_LISTED.saturating_sub(listed.len());
        listed.extend(found.into_iter().take(room));
    }
    (count, listed)
}

#[derive(Serialize, JsonSchema)]
struct Failed {
    index: usize,
    error: String,
}

/// Every answer of a batch, for its output schema: the success and non-atomic
/// failure of [`BatchOutput`], and the payload of an atomic failure (`index`,
/// `error`, `results`), which clients check against the same schema.
#[derive(Serialize, JsonSchema)]
pub struct BatchAnswer {
    /// One result per operation that ran; every tool's result is an object.
    results: Vec<serde_json::Map<String, Value>>,
    applied: Option<usize>,
    failed: Option<Failed>,
    /// With check: true, how many problems the changed pages have.
    problem_count: Option<usize>,
    /// With check: true, the problems on the pages the batch changed (the first 50).
    problems: Option<Vec<BatchProblem>>,
    /// An atomic failure: the operation that failed.
    index: Option<usize>,
    /// An atomic failure: why.
    error: Option<String>,
}

impl Tool for Batch {
    const NAME: &'static str = "batch";
    const TITLE: &'static str = "Batch of operations";
    const DESCRIPTION: &'static str = "Run up to 200 ordered board operations in one request as a single undo step, with results reusable by later calls and optional all-or-nothing rollback.\n\nRuns several tool calls in ONE request (1 to 200 operations, in order), on one board, as a single undo step in the application. Use it to build or rework a board quickly instead of one call per object. Each operation is {\"tool\": \"add_shape\", \"args\": {...}} with the arguments the tool normally takes (but never path, output or source: the batch-level path applies to all). An operation can reuse what an earlier one returned: a string that is EXACTLY \"$N.key\" (N = index from 0 of an earlier operation, then keys or list indexes separated by dots, e.g. \"$0.id\" or \"$3.ids.1\") is replaced by that value of the result of operation N before the operation runs; text that only contains \"$0.id\" inside a longer string stays literal, and a text that is exactly like \"$3.99\" would be taken for a reference. An operation without page acts on the batch-level page (default: the first page), whatever the previous operations did. atomic (default true): at the first error everything already done is undone, the board is unchanged, and the error gives the operation index, its error and the results obtained before the rollback. With atomic: false the batch stops at the first error and keeps what succeeded, answering {applied, failed: {index, error}, results} (not an error). Success answers {results: [one result per operation], applied}. Not allowed inside a batch: batch, create_board, save_board, board_changes, export, render.\n\ncheck: true adds problem_count and problems: [{kind, ids, message, page}] on the pages changed, as render finds them, to fix in the next batch; none after an atomic failure.";
    const HINTS: Hints = Hints::REWRITE;
    type Args = BatchArgs;
    type Output = BatchAnswer;
}

impl BoardTool for Batch {
    fn run(engine: &Engine, caller: &Caller, args: BatchArgs) -> Result<Reply, ToolError> {
        // Point 1: the request itself is checked before anything runs.
        let operations = match &args.operations {
            Value::Array(ops) if (1..=MAX_OPERATIONS).contains(&ops.len()) => ops,
            Value::Array(ops) => {
                return Err(ToolError::args(format!(
                    "batch: 'operations' must hold 1 to {MAX_OPERATIONS} operations, got {}: split the work into several batches",
                    ops.len()
                )))
            }
            _ => return Err(ToolError::args("batch: 'operations' must be a list of {\"tool\", \"args\"} objects")),
        };
        if let Some(i) = operations.iter().position(|op| !op.is_object()) {
            return Err(ToolError::args(format!(
                "batch: operation {i} must be an object {{\"tool\": ..., \"args\": {{...}}}}"
            )));
        }
        let atomic = args.atomic.unwrap_or(true);
        let target = engine.target(args.path.as_deref(), caller)?;
        let out = engine.edit(&target, caller, |tx| {
            let page = PageRef::resolve_or_first(args.page.as_ref(), tx.board())?;
            let outcome = run_operations(tx, page, operations, &caller.control)?;
            match outcome.failed {
                // Point 6: atomic failure is a tool error, and the transaction is
                // dropped with it, so the board is as it was.
                Some((index, error)) if atomic => Err(ToolError::Batch {
                    index,
                    error,
                    results: outcome.results,
                }),
                failed => {
                    // Checked on the board as it will be committed.
                    let (problem_count, problems) = match args.check {
                        Some(true) => {
                            let (count, listed) = check_pages(tx, &caller.control);
                            (Some(count), Some(listed))
                        }
                        _ => (None, None),
                    };
                    Ok(BatchOutput {
                        applied: outcome.results.len(),
                        results: outcome.results,
                        failed: failed.map(|(index, error)| Failed { index, error }),
                        problem_count,
                        problems,
                    })
                }
            }
        })?;
        Ok(Reply::Json(crate::tool::to_value(&out)))
    }
}

/// What running the operations gave: the results of those that succeeded, in
/// order, and the first failure.
pub(crate) struct Outcome {
    pub results: Vec<Value>,
    pub failed: Option<(usize, String)>,
}

/// Runs operations in order on a transaction, stopping at the first error. The
/// failed operation leaves no trace; what came before it stays in the transaction,
/// for the caller to keep (non-atomic) or drop (atomic).
pub(crate) fn run_operations(
    tx: &mut Transaction<'_>,
    default_page: PageId,
    operations: &[Value],
    control: &Control,
) -> Result<Outcome, ToolError> {
    let mut results = Vec::with_capacity(operations.len());
    for (index, op) in operations.iter().enumerate() {
        // A cancel stops the batch whole, atomic or not: the transaction is
        // dropped with the error, so nothing of it stays.
        control.stage(index, operations.len(), || {
            format!("operation {index} of {}", operations.len())
        })?;
        let savepoint = tx.savepoint();
        match run_one(tx, default_page, op, index, &results, control) {
            Ok(result) => results.push(result),
            Err(error) => {
                tx.rollback_to(savepoint);
                return Ok(Outcome {
                    results,
                    failed: Some((index, error)),
                });
            }
        }
    }
    control.stage(operations.len(), operations.len(), || {
        "all operations done".into()
    })?;
    Ok(Outcome {
        results,
        failed: None,
    })
}

/// Runs one operation (point 2: checked when its turn comes). The error is the
/// one-sentence message with the operation's index and tool.
fn run_one(
    tx: &mut Transaction<'_>,
    default_page: PageId,
    op: &Value,
    index: usize,
    results: &[Value],
    control: &Control,
) -> Result<Value, String> {
    let fail = |tool: &str, e: &dyn std::fmt::Display| format!("operation {index} ({tool}): {e}");
    let op = op
        .as_object()
        .ok_or_else(|| format!("operation {index}: must be an object {{\"tool\", \"args\"}}"))?;
    if let Some(key) = op.keys().find(|k| *k != "tool" && *k != "args") {
        return Err(format!(
            "operation {index}: unknown key '{}': an operation is {{\"tool\": ..., \"args\": {{...}}}}",
            inkboard_core::echo::echo(key)
        ));
    }
    let name = match op.get("tool") {
        Some(Value::String(s)) => s.as_str(),
        _ => {
            return Err(format!(
                "operation {index}: 'tool' must be the name of a tool, e.g. \"add_shape\""
            ))
        }
    };
    // Tools of the renderer (`export`, `render`) are refused by name whether or not
    // this build has them, so the answer never depends on the build.
    if let Some(refused) = NOT_IN_BATCH.iter().find(|n| **n == name) {
        return Err(fail(name, &ToolError::NotInBatch(refused)));
    }
    let def = find_tool(name).ok_or_else(|| {
        let allowed: Vec<&str> = catalog()
            .iter()
            .filter(|t| t.in_batch())
            .map(|t| t.name)
            .collect();
        format!(
            "operation {index}: unknown tool \"{}\": use one of {}",
            inkboard_core::echo::echo(name),
            allowed.join(", ")
        )
    })?;
    let Run::Edit(run) = def.run else {
        return Err(fail(name, &ToolError::NotInBatch(def.name)));
    };
    let mut args = match op.get("args") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(map)) => map.clone(),
        Some(_) => return Err(fail(name, &"'args' must be an object")),
    };
    for key in ["path", "output", "source"] {
        if args.contains_key(key) {
            let hint = match key {
                "source" => "pass the image as 'data' (a data URL)",
                "output" => "export on its own, after the batch",
                _ => "the batch-level path applies to every operation",
            };
            return Err(fail(
                name,
                &format!("'{key}' is not allowed inside a batch: {hint}"),
            ));
        }
    }
    // Point 3: references are resolved before the operation runs.
    let mut value = Value::Object(args);
    refs::resolve(&mut value, results, index).map_err(|e| fail(name, &e))?;
    args = match value {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    def.check_keys(&args).map_err(|e| fail(name, &e))?;
    // Point 4: without `page`, the batch-level page, whatever came before. A null
    // page is no page, as in a call on its own.
    let page = match args.remove("page") {
        None | Some(Value::Null) if def.page_required => {
            return Err(fail(
                name,
                &"'page' is required: give a page number (from 1) or name",
            ))
        }
        None | Some(Value::Null) => {
            if tx.board().page(default_page).is_none() {
                return Err(fail(
                    name,
                    &"the batch's page was deleted by an earlier operation: give this operation a 'page'",
                ));
            }
            default_page
        }
        Some(v) => {
            let page: PageRef =
                serde_json::from_value(v).map_err(|e| fail(name, &format!("'page': {e}")))?;
            page.resolve(tx.board()).map_err(|e| fail(name, &e))?
        }
    };
    run(&mut Cx { tx, page, control }, Value::Object(args)).map_err(|e| fail(name, &e))
}
