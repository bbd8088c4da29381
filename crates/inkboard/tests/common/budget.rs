//! What a `tools/list` answer costs a model, measured one way for the schema lint
//! (`tests/schema_lint.rs`) and the benchmark (`benches/mcp.rs`): the bytes a
//! model receives are each tool's name, title, description and input schema
//! (clients hand those to the model's function declarations); output schemas
//! and annotations stay with the client, but count in the whole answer.

use serde_json::Value;

/// What may reach the model (names, titles, descriptions, input schemas): the
/// budget reweighed after measuring (it was 16 KB, under the floor of about
/// 19 KB that a description on every one of the ~190 arguments and `batch`'s
/// `args`, which must name its properties for Gemini, cost by themselves; see
/// "The tools/list budget" in `docs/performance.md`). A new tool or argument
/// pays for itself within it.
pub const MODEL_BUDGET: usize = 28 * 1024;
/// The whole `tools/list` result, as sent (compact JSON): output schemas and
/// annotations count here, not in what the model receives (it was 24 KB).
pub const ANSWER_BUDGET: usize = 36 * 1024;

/// The bytes of `tools` (the `tools` array of a `tools/list` result) that reach
/// the model, in compact JSON.
pub fn model_bytes(tools: &[Value]) -> usize {
    tools
        .iter()
        .map(|t| {
            let text = |key: &str| t.get(key).and_then(Value::as_str).map_or(0, str::len);
            text("name")
                + text("title")
                + text("description")
                + t.get("inputSchema").map_or(0, |s| s.to_string().len())
        })
        .sum()
}
