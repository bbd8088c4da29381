//! A cursor over one JSON object being read. It knows its place in the document (for
//! error messages) and which keys it has taken, so that whatever is left becomes the
//! record's [`Extra`]: unknown fields are kept, not refused and not dropped.

use inkboard_core::{limits, Color, Extra, ObjectId, Vocabulary};
use serde_json::{Map, Value};

use crate::FormatError;

/// `at.key`, or `key` at the top.
pub(crate) fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_string()
    } else {
        format!("{at}.{key}")
    }
}

/// `at[i]`.
pub(crate) fn index(at: &str, i: usize) -> String {
    format!("{at}[{i}]")
}

/// What a JSON value is, with a short excerpt, for "expected X, got Y" messages.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.chars().count() > 40 => {
            let head: String = s.chars().take(40).collect();
            format!("the text {head:?}...")
        }
        Value::String(s) => format!("the text {s:?}"),
        Value::Array(items) if items.len() == 1 => "a list of 1 value".to_string(),
        Value::Array(items) => format!("a list of {} values", items.len()),
        Value::Object(_) => "an object".to_string(),
    }
}

pub(crate) struct Fields<'a> {
    at: String,
    map: &'a Map<String, Value>,
    taken: Vec<&'static str>,
}

impl<'a> Fields<'a> {
    /// Starts reading `value`, which must be a JSON object; `what` names it in the
    /// error when it is not ("an object", "a page").
    pub(crate) fn new(value: &'a Value, at: &str, what: &str) -> Result<Self, FormatError> {
        match value {
            Value::Object(map) => Ok(Fields {
                at: at.to_string(),
                map,
                taken: Vec::new(),
            }),
            other => Err(FormatError::invalid(
                at,
                format!(
                    "expected {what} (a JSON object {{...}}), got {}",
                    describe(other)
                ),
            )),
        }
    }

    /// The place of this object in the document.
    pub(crate) fn at(&self) -> &str {
        &self.at
    }

    /// The place of one of its fields.
    pub(crate) fn path(&self, key: &str) -> String {
        join(&self.at, key)
    }

    /// An error about field `key`.
    pub(crate) fn error(&self, key: &str, message: impl Into<String>) -> FormatError {
        FormatError::invalid(self.path(key), message)
    }

    /// The value of `key`, if present; marks it as known.
    pub(crate) fn get(&mut self, key: &'static str) -> Option<&'a Value> {
        self.taken.push(key);
        self.map.get(key)
    }

    /// The value of `key`; an error naming `expected` when it is missing.
    pub(crate) fn require(
        &mut self,
        key: &'static str,
        expected: &str,
    ) -> Result<&'a Value, FormatError> {
        self.get(key).ok_or_else(|| {
            FormatError::invalid(
                self.at.clone(),
                format!("missing \"{key}\": add it ({expected})"),
            )
        })
    }

    fn wrong(&self, key: &str, expected: &str, got: &Value) -> FormatError {
        self.error(key, format!("expected {expected}, got {}", describe(got)))
    }

    pub(crate) fn string(&mut self, key: &'static str) -> Result<&'a str, FormatError> {
        let v = self.require(key, "a text")?;
        v.as_str().ok_or_else(|| self.wrong(key, "a text", v))
    }

    pub(crate) fn opt_string(&mut self, key: &'static str) -> Result<Option<&'a str>, FormatError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_str()
                .map(Some)
                .ok_or_else(|| self.wrong(key, "a text", v)),
        }
    }

    /// A finite number (JSON cannot hold others, but a number may overflow `f64`).
    fn number(&mut self, key: &'static str) -> Result<f64, FormatError> {
        let v = self.require(key, "a number")?;
        number_value(v).ok_or_else(|| self.wrong(key, "a number", v))
    }

    /// A coordinate: a number within the model's range.
    pub(crate) fn coord(&mut self, key: &'static str) -> Result<f64, FormatError> {
        let n = self.number(key)?;
        limits::check_coord(key, n).map_err(|e| self.error(key, e.to_string()))?;
        Ok(n)
    }

    /// A width or height: a number from 0 within the model's range.
    pub(crate) fn size(&mut self, key: &'static str) -> Result<f64, FormatError> {
        let n = self.number(key)?;
        limits::check_size(key, n).map_err(|e| self.error(key, e.to_string()))?;
        Ok(n)
    }

    pub(crate) fn opt_number(&mut self, key: &'static str) -> Result<Option<f64>, FormatError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => number_value(v)
                .map(Some)
                .ok_or_else(|| self.wrong(key, "a number", v)),
        }
    }

    pub(crate) fn opt_bool(&mut self, key: &'static str) -> Result<Option<bool>, FormatError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_bool()
                .map(Some)
                .ok_or_else(|| self.wrong(key, "true or false", v)),
        }
    }

    pub(crate) fn opt_count(&mut self, key: &'static str) -> Result<Option<u64>, FormatError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| self.wrong(key, "a whole number of 0 or more", v)),
        }
    }

    /// A list.
    pub(crate) fn list(&mut self, key: &'static str) -> Result<&'a Vec<Value>, FormatError> {
        let v = self.require(key, "a list [...]")?;
        v.as_array()
            .ok_or_else(|| self.wrong(key, "a list [...]", v))
    }

    /// An object id.
    pub(crate) fn id(&mut self, key: &'static str) -> Result<ObjectId, FormatError> {
        let text = self.string(key)?;
        ObjectId::parse(text).map_err(|e| self.error(key, e.to_string()))
    }

    /// A word of a closed vocabulary (geom, route, dash...).
    pub(crate) fn word<V: Vocabulary>(
        &mut self,
        key: &'static str,
    ) -> Result<Option<V>, FormatError> {
        match self.opt_string(key)? {
            None => Ok(None),
            Some(word) => V::parse(word)
                .map(Some)
                .map_err(|e| self.error(key, e.to_string())),
        }
    }

    pub(crate) fn color(&mut self, key: &'static str) -> Result<Option<Color>, FormatError> {
        match self.opt_string(key)? {
            None => Ok(None),
            Some(text) => Color::parse(text)
                .map(Some)
                .map_err(|e| self.error(key, e.to_string())),
        }
    }

    /// Refuses `key` when present, with `message` saying what to use instead.
    pub(crate) fn refuse(&mut self, key: &'static str, message: &str) -> Result<(), FormatError> {
        match self.get(key) {
            Some(_) => Err(self.error(key, message)),
            None => Ok(()),
        }
    }

    /// The keys not taken, each with its value as compact JSON text.
    pub(crate) fn extra(self) -> Extra {
        self.map
            .iter()
            .filter(|(k, _)| !self.taken.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect()
    }
}

/// A JSON number as a finite `f64`.
pub(crate) fn number_value(v: &Value) -> Option<f64> {
    v.as_f64().filter(|n| n.is_finite())
}
