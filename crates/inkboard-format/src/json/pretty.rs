//! The text layout of files: JSON with a 2-space indent, like `serde_json`'s pretty
//! printer, except that a list of plain values (numbers, texts...) stays on one line.
//! An ink stroke then takes one line per point, `[x, y]`, instead of four, and a
//! group's `ids` one line in all, which keeps files short and their diffs readable.

use serde_json::Value;

/// `value` as file text, ending with a newline.
pub(crate) fn pretty(value: &Value) -> String {
    let mut out = String::new();
    write(&mut out, value, 0);
    out.push('\n');
    out
}

fn is_plain(v: &Value) -> bool {
    !matches!(v, Value::Array(_) | Value::Object(_))
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn write(out: &mut String, value: &Value, depth: usize) {
    match value {
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Object(map) => {
            out.push_str("{\n");
            for (i, (key, v)) in map.iter().enumerate() {
                indent(out, depth + 1);
                // A key is a JSON string; Value's Display escapes it.
                out.push_str(&Value::from(key.as_str()).to_string());
                out.push_str(": ");
                write(out, v, depth + 1);
                if i + 1 < map.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            indent(out, depth);
            out.push('}');
        }
        Value::Array(items) if items.iter().all(is_plain) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&v.to_string());
            }
            out.push(']');
        }
        Value::Array(items) => {
            out.push_str("[\n");
            for (i, v) in items.iter().enumerate() {
                indent(out, depth + 1);
                write(out, v, depth + 1);
                if i + 1 < items.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            indent(out, depth);
            out.push(']');
        }
        plain => out.push_str(&plain.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_of_plain_values_stay_on_one_line() {
        let v: Value = serde_json::from_str(
            r#"{"a": [[1, 2], [3.5, -4]], "b": {}, "c": [], "d": ["x\"y", null], "e": [{"f": 1}]}"#,
        )
        .unwrap();
        let text = pretty(&v);
        assert_eq!(
            text,
            "{\n  \"a\": [\n    [1, 2],\n    [3.5, -4]\n  ],\n  \"b\": {},\n  \"c\": [],\n  \"d\": [\"x\\\"y\", null],\n  \"e\": [\n    {\n      \"f\": 1\n    }\n  ]\n}\n"
        );
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
    }
}
