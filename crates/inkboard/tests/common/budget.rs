//! What a `tools/list` answer costs a model, measured one way for the schema lint
//! (`tests/schema_lint.rs`) and the benchmark (`benches/mcp.rs`): the bytes a
//! model receives are each tool's name, title, description and input schema
//! (clients hand those to the model's function declarations); output schemas
//! and annotations stay with the client, but count in the whole answer.

use serde_json::Value;

/// At most this many bytes reach the model (names, titles, descriptions, input schemas).
pub const MODEL_BUDGET: usize = 16 * 1024;
/// At most this many bytes in the whole `tools/list` result, as sent (compact JSON).
pub const ANSWER_BUDGET: usize = 24 * 1024;

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
