//! [`Json`]: JSON text the store keeps as it was given. A board's snapshot is the
//! format crate's document and a change is whatever JSON value its committer made;
//! the store checks only that each is JSON, stores the text unchanged (not
//! PostgreSQL's `jsonb`, which would reorder keys and drop duplicates) and hands
//! the same text back, so the reader parses it once, with its own parser.

use std::fmt;

use serde_json::Value;

use crate::StoreError;

/// Well-formed JSON text.
#[derive(Clone, PartialEq, Eq)]
pub struct Json(String);

impl Json {
    /// The compact text of a value (which is always well formed).
    pub fn from_value(value: &Value) -> Json {
        Json(value.to_string())
    }

    /// Text checked to be one JSON value (parsed without building it).
    pub fn parse(text: String) -> Result<Json, StoreError> {
        match serde_json::from_str::<serde::de::IgnoredAny>(&text) {
            Ok(_) => Ok(Json(text)),
            Err(e) => Err(StoreError::invalid("JSON", e.to_string())),
        }
    }

    /// Text read back from the database, which only this store writes.
    pub(crate) fn stored(text: String) -> Json {
        Json(text)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }

    /// The text parsed into a value.
    pub fn to_value(&self) -> Result<Value, StoreError> {
        serde_json::from_str(&self.0).map_err(|e| StoreError::corrupt(format!("stored JSON: {e}")))
    }
}

impl fmt::Debug for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A snapshot can be megabytes: its start is enough to recognise it.
        let head: String = self.0.chars().take(80).collect();
        if head.len() < self.0.len() {
            write!(f, "Json({head}… {} bytes)", self.0.len())
        } else {
            write!(f, "Json({head})")
        }
    }
}

impl From<&Value> for Json {
    fn from(value: &Value) -> Json {
        Json::from_value(value)
    }
}
