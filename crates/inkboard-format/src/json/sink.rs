//! Where the JSON of a board or an object goes. The writers in `board.rs` and
//! `object.rs` hold the field order and the omission rules, once, and speak to a
//! [`Sink`]; two sinks make that into output:
//!
//! - [`Tree`] builds a `serde_json` [`Value`], for tool reads ([`object_to_json`](super::object_to_json));
//! - [`Pretty`](super::pretty::Pretty) writes file text straight from the model, so a
//!   save of a large board never builds (and frees) a tree of the whole document.
//!
//! A sink is driven like a streaming serializer: open an object or a list, give its
//! items (a key before each value in an object), close it. The writers always
//! close what they open, so the sinks only check that in debug builds.

use serde_json::{Map, Number, Value};

pub(crate) trait Sink {
    /// Starts an object: `key` and a value for each field follow, then [`close`](Self::close).
    fn open_object(&mut self);

    /// Starts a list: its values follow, then [`close`](Self::close). `plain` says
    /// that every item is a plain value (a text or a number), never an object or a
    /// list; the file writes such a list on one line.
    fn open_list(&mut self, plain: bool);

    /// Closes the innermost open object or list.
    fn close(&mut self);

    /// Names the next value, in an object.
    fn key(&mut self, key: &str);

    fn text(&mut self, text: &str);

    /// A number, already in its written form (see [`num`](super::num)).
    fn number(&mut self, number: Number);

    /// Any JSON value, as it is: the unknown fields a record carries.
    fn value(&mut self, value: Value);

    fn text_field(&mut self, key: &str, text: &str) {
        self.key(key);
        self.text(text);
    }

    fn number_field(&mut self, key: &str, number: Number) {
        self.key(key);
        self.number(number);
    }
}

/// A sink that builds a [`Value`].
#[derive(Default)]
pub(crate) struct Tree {
    /// The objects and lists open, innermost last; an object with the key its next
    /// value goes under.
    open: Vec<Open>,
    done: Option<Value>,
}

enum Open {
    Object(Map<String, Value>, Option<String>),
    List(Vec<Value>),
}

impl Tree {
    /// The value built; `Null` if nothing was written.
    pub(crate) fn finish(self) -> Value {
        debug_assert!(self.open.is_empty(), "a sink was finished with open values");
        self.done.unwrap_or(Value::Null)
    }

    /// The object built, or an empty one if something else was.
    pub(crate) fn finish_object(self) -> Map<String, Value> {
        match self.finish() {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    fn put(&mut self, value: Value) {
        match self.open.last_mut() {
            Some(Open::Object(map, key)) => {
                debug_assert!(key.is_some(), "a value in an object without a key");
                map.insert(key.take().unwrap_or_default(), value);
            }
            Some(Open::List(items)) => items.push(value),
            None => self.done = Some(value),
        }
    }
}

impl Sink for Tree {
    fn open_object(&mut self) {
        self.open.push(Open::Object(Map::new(), None));
    }

    fn open_list(&mut self, _plain: bool) {
        self.open.push(Open::List(Vec::new()));
    }

    fn close(&mut self) {
        let value = match self.open.pop() {
            Some(Open::Object(map, _)) => Value::Object(map),
            Some(Open::List(items)) => Value::Array(items),
            None => {
                debug_assert!(false, "close without open");
                return;
            }
        };
        self.put(value);
    }

    fn key(&mut self, key: &str) {
        match self.open.last_mut() {
            Some(Open::Object(_, next)) => *next = Some(key.to_string()),
            _ => debug_assert!(false, "a key outside an object"),
        }
    }

    fn text(&mut self, text: &str) {
        self.put(Value::from(text));
    }

    fn number(&mut self, number: Number) {
        self.put(Value::Number(number));
    }

    fn value(&mut self, value: Value) {
        self.put(value);
    }
}
