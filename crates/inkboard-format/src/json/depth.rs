//! How deep JSON nests lists and objects, measured without recursion, so that a
//! document or a call's arguments nested past
//! [`MAX_JSON_DEPTH`](inkboard_core::limits::MAX_JSON_DEPTH) are refused before
//! the parser, or anything else that recurses, walks them. Unknown fields count
//! like any other: a file is measured as text, before it is parsed at all.

use serde_json::Value;

/// The deepest nesting of lists and objects in `value`: 0 for a plain value, 1 for
/// `[]` or `{}`, 2 for `[[]]`...
pub fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut todo = vec![(value, 1)];
    while let Some((value, level)) = todo.pop() {
        match value {
            Value::Array(items) => {
                deepest = deepest.max(level);
                todo.extend(items.iter().map(|v| (v, level + 1)));
            }
            Value::Object(map) => {
                deepest = deepest.max(level);
                todo.extend(map.values().map(|v| (v, level + 1)));
            }
            _ => {}
        }
    }
    deepest
}

/// How a JSON text nests: its deepest level, and where it first went past `max`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TextDepth {
    pub deepest: usize,
    /// How many lists and objects the text opens.
    pub containers: usize,
    /// Line and column (from 1, in characters) of the bracket that first opened a
    /// level past `max`.
    pub first_past: Option<(usize, usize)>,
}

/// Measures the nesting of a JSON text by its brackets, skipping strings. The text
/// need not be valid JSON: the parser, which runs after, says what else is wrong.
pub(crate) fn text_depth(text: &str, max: usize) -> TextDepth {
    let (mut level, mut deepest, mut past, mut containers) = (0usize, 0usize, None, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for (at, byte) in text.bytes().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                level += 1;
                containers += 1;
                deepest = deepest.max(level);
                if level > max && past.is_none() {
                    past = Some(at);
                }
            }
            b']' | b'}' => level = level.saturating_sub(1),
            _ => {}
        }
    }
    TextDepth {
        deepest,
        containers,
        first_past: past.map(|at| line_column(text, at)),
    }
}

/// The line and column, from 1, of byte `at` (the start of a character).
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_counts_lists_and_objects_but_not_strings() {
        for (text, want) in [
            ("1", 0),
            ("[]", 1),
            (r#"{"a": [1, {"b": []}]}"#, 4),
            (r#"["[[[[", {"k\"{": "]]"}]"#, 2),
        ] {
            let value: Value = serde_json::from_str(text).unwrap();
            assert_eq!(depth(&value), want, "{text}");
            assert_eq!(text_depth(text, 64).deepest, want, "{text}");
        }
        let deep = format!("{}{}", "[".repeat(5), "]".repeat(5));
        assert_eq!(
            text_depth(&format!("{{\n  \"é\": {deep}}}"), 3),
            TextDepth {
                deepest: 6,
                containers: 6,
                first_past: Some((2, 10)),
            }
        );
    }
}
