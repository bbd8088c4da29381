//! Raw JSON arguments into a tool's argument type, with serde's wording made
//! plain: the argument at fault named by its path (or, through a flatten, found
//! by itself), no Rust type names, and what a client sent quoted back shortened.

use serde_json::Value;

use super::StyleArgs;
use crate::ToolError;

/// Parses a tool's arguments, naming the argument at fault on error.
pub(crate) fn parse_args<T: serde::de::DeserializeOwned>(
    tool: &str,
    args: Value,
) -> Result<T, ToolError> {
    serde_path_to_error::deserialize(&args).map_err(|e| {
        let path = e.path().to_string();
        let inner = plain_words(&e.into_inner().to_string());
        if path != "." && !path.is_empty() {
            return ToolError::args(format!("'{path}': {inner}"));
        }
        // Style arguments are flattened into each tool's arguments, and serde loses
        // the path through a flatten: find the style argument at fault by itself.
        if let Some(err) = args.as_object().and_then(StyleArgs::culprit) {
            return err;
        }
        ToolError::args(format!("{tool}: {inner}"))
    })
}

/// Serde's wording made plain for readers who do not know Rust: no Rust type
/// names, and a value quoted back shortened (see [`inkboard_core::echo`]).
pub(crate) fn plain_words(message: &str) -> String {
    if let Some(rest) = message.strip_prefix("missing field `") {
        return format!("'{}' is required", rest.trim_end_matches('`'));
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        // "unknown field `k`, expected one of `a`, `b`" or "..., there are no fields".
        let (key, known) = rest.split_once('`').unwrap_or((rest, ""));
        let known = known
            .split_once("expected one of ")
            .or_else(|| known.split_once("expected "))
            .map_or(String::new(), |(_, k)| k.replace('`', ""));
        let key = inkboard_core::echo::echo(key);
        return if known.is_empty() {
            format!("unknown key '{key}': it takes none")
        } else {
            format!("unknown key '{key}': use {known}")
        };
    }
    let mut message = quote_shortened(message);
    // "expected struct RegionArg" or "expected struct RegionArg with 4 elements".
    if let Some(at) = message.find("expected struct ") {
        message.truncate(at);
        message.push_str("expected an object");
    }
    for (rust, plain) in [
        ("expected f64", "expected a number"),
        ("expected f32", "expected a number"),
        ("expected u64", "expected a whole number from 0"),
        ("expected u32", "expected a whole number from 0"),
        ("expected usize", "expected a whole number from 0"),
        ("expected i64", "expected a whole number"),
        ("invalid type: map", "invalid type: object"),
        ("invalid type: sequence", "invalid type: list"),
        ("expected a sequence", "expected a list"),
        ("expected an array of length 2", "expected a pair [x, y]"),
    ] {
        message = message.replace(rust, plain);
    }
    message
}

/// Serde quotes a string it refused whole (`invalid type: string "...",
/// expected ...`): shortened here, so a megabyte sent is not a megabyte answered.
fn quote_shortened(message: &str) -> String {
    let open = "string \"";
    let (Some(start), Some(end)) = (message.find(open), message.rfind("\", expected")) else {
        return message.to_string();
    };
    let start = start + open.len();
    if end < start {
        return message.to_string();
    }
    let quoted = &message[start..end];
    format!(
        "{}{}{}",
        &message[..start],
        inkboard_core::echo::echo(quoted),
        &message[end..]
    )
}
