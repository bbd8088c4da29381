//! The text layout of files: JSON with a 2-space indent, like `serde_json`'s pretty
//! printer, except that a list of plain values (numbers, texts...) stays on one line.
//! An ink stroke then takes one line per point, `[x, y]`, instead of four, and a
//! group's `ids` one line in all, which keeps files short and their diffs readable.
//!
//! [`Pretty`] is the [`Sink`] that writes this layout straight from the model; the
//! unknown fields it is given as [`Value`]s are laid out by [`write`], by the same
//! rules, so a document comes out the same whichever way it is fed.

use serde_json::{Number, Value};

use super::sink::Sink;

/// A sink that writes file text.
///
/// The text is built as bytes, with keys and plain values written straight into it
/// by `serde_json` rather than formatted into a `String` each. Writing from the model
/// rather than from a `Value` tree of the whole board took a save of 10,000 objects
/// from building, printing and freeing that tree (about 13 ms) to printing alone.
pub(crate) struct Pretty {
    out: Vec<u8>,
    /// The objects and lists open, innermost last.
    open: Vec<Frame>,
}

struct Frame {
    list: bool,
    plain: bool,
    /// Items written so far.
    items: usize,
}

impl Pretty {
    /// A writer whose text is expected to take about `capacity` bytes.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Pretty {
            out: Vec::with_capacity(capacity),
            open: Vec::new(),
        }
    }

    /// The text written, ending with a newline.
    pub(crate) fn finish(mut self) -> String {
        debug_assert!(self.open.is_empty(), "a sink was finished with open values");
        self.out.push(b'\n');
        // Only serde_json's output and ASCII punctuation went in, so this is UTF-8.
        String::from_utf8(self.out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// Starts a value: in a list, the separator and, unless the list is plain, a new
    /// line. (In an object, [`Sink::key`] did that.)
    fn item(&mut self) {
        let depth = self.open.len();
        let Some(top) = self.open.last_mut() else {
            return;
        };
        if !top.list {
            return;
        }
        top.items += 1;
        let first = top.items == 1;
        if top.plain {
            if !first {
                self.out.extend_from_slice(b", ");
            }
        } else {
            if !first {
                self.out.push(b',');
            }
            self.out.push(b'\n');
            indent(&mut self.out, depth);
        }
    }

    fn open(&mut self, list: bool, plain: bool) {
        debug_assert!(
            !self.open.last().is_some_and(|f| f.plain),
            "an object or list inside a plain list"
        );
        self.item();
        self.out.push(if list { b'[' } else { b'{' });
        self.open.push(Frame {
            list,
            plain,
            items: 0,
        });
    }
}

impl Sink for Pretty {
    fn open_object(&mut self) {
        self.open(false, false);
    }

    fn open_list(&mut self, plain: bool) {
        self.open(true, plain);
    }

    fn close(&mut self) {
        let Some(frame) = self.open.pop() else {
            debug_assert!(false, "close without open");
            return;
        };
        if frame.items > 0 && !frame.plain {
            self.out.push(b'\n');
            indent(&mut self.out, self.open.len());
        }
        self.out.push(if frame.list { b']' } else { b'}' });
    }

    fn key(&mut self, key: &str) {
        let depth = self.open.len();
        let Some(top) = self.open.last_mut() else {
            debug_assert!(false, "a key outside an object");
            return;
        };
        debug_assert!(!top.list, "a key in a list");
        top.items += 1;
        if top.items > 1 {
            self.out.push(b',');
        }
        self.out.push(b'\n');
        indent(&mut self.out, depth);
        push_str(&mut self.out, key);
        self.out.extend_from_slice(b": ");
    }

    fn text(&mut self, text: &str) {
        self.item();
        push_str(&mut self.out, text);
    }

    fn number(&mut self, number: Number) {
        self.item();
        let _ = serde_json::to_writer(&mut self.out, &number);
    }

    fn value(&mut self, value: Value) {
        self.item();
        write(&mut self.out, &value, self.open.len());
    }
}

/// Writes a key or a plain value as compact JSON, exactly as `Value`'s `Display`
/// would. Writing to memory cannot fail, and strings and plain values always
/// serialize, so there is no error to report.
fn push_json(out: &mut Vec<u8>, value: &Value) {
    let _ = serde_json::to_writer(&mut *out, value);
}

fn push_str(out: &mut Vec<u8>, key: &str) {
    let _ = serde_json::to_writer(&mut *out, key);
}

fn is_plain(v: &Value) -> bool {
    !matches!(v, Value::Array(_) | Value::Object(_))
}

fn indent(out: &mut Vec<u8>, depth: usize) {
    for _ in 0..depth {
        out.extend_from_slice(b"  ");
    }
}

/// Writes `value` at `depth` (the number of objects and lists it is in).
fn write(out: &mut Vec<u8>, value: &Value, depth: usize) {
    match value {
        Value::Object(map) if map.is_empty() => out.extend_from_slice(b"{}"),
        Value::Object(map) => {
            out.extend_from_slice(b"{\n");
            for (i, (key, v)) in map.iter().enumerate() {
                indent(out, depth + 1);
                push_str(out, key);
                out.extend_from_slice(b": ");
                write(out, v, depth + 1);
                if i + 1 < map.len() {
                    out.push(b',');
                }
                out.push(b'\n');
            }
            indent(out, depth);
            out.push(b'}');
        }
        Value::Array(items) if items.iter().all(is_plain) => {
            out.push(b'[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                push_json(out, v);
            }
            out.push(b']');
        }
        Value::Array(items) => {
            out.extend_from_slice(b"[\n");
            for (i, v) in items.iter().enumerate() {
                indent(out, depth + 1);
                write(out, v, depth + 1);
                if i + 1 < items.len() {
                    out.push(b',');
                }
                out.push(b'\n');
            }
            indent(out, depth);
            out.push(b']');
        }
        plain => push_json(out, plain),
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
        let mut sink = Pretty::with_capacity(0);
        sink.value(v.clone());
        let text = sink.finish();
        assert_eq!(
            text,
            "{\n  \"a\": [\n    [1, 2],\n    [3.5, -4]\n  ],\n  \"b\": {},\n  \"c\": [],\n  \"d\": [\"x\\\"y\", null],\n  \"e\": [\n    {\n      \"f\": 1\n    }\n  ]\n}\n"
        );
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
    }
}
