//! Migrations: how a document written by an older version of the format becomes a
//! document of the current one, before it is read. Each step is a function on the
//! raw JSON document, from version `n` to `n + 1`; a document is brought up to date
//! by running the steps from its version on. Version 1 is the first, so the table
//! is empty today: format version 2 adds one function to [`MIGRATIONS`] and bumps
//! [`FORMAT_VERSION`].

use serde_json::{Map, Value};

use super::FORMAT_VERSION;
use crate::FormatError;

/// Rewrites a document of version `n` into version `n + 1`, in place.
pub(crate) type Migration = fn(&mut Map<String, Value>) -> Result<(), FormatError>;

/// `MIGRATIONS[i]` turns version `i + 1` into version `i + 2`.
pub(crate) const MIGRATIONS: &[Migration] = &[];

// One step per version after the first: adding a version without its migration (or
// the other way round) does not compile.
const _: () = assert!(MIGRATIONS.len() as u64 + 1 == FORMAT_VERSION);

/// Brings `doc`, written at version `from` (1 ..= FORMAT_VERSION, checked by the
/// caller), up to the current version.
pub(crate) fn migrate(doc: &mut Map<String, Value>, from: u64) -> Result<(), FormatError> {
    run(doc, from, MIGRATIONS)
}

/// Runs the steps of `table` from version `from` on and stamps the resulting version.
/// Separate from [`migrate`] so that tests can run a chain longer than today's.
fn run(doc: &mut Map<String, Value>, from: u64, table: &[Migration]) -> Result<(), FormatError> {
    let start = usize::try_from(from.saturating_sub(1)).unwrap_or(usize::MAX);
    for step in table.iter().skip(start) {
        step(doc)?;
    }
    doc.insert("version".into(), Value::from(table.len() as u64 + 1));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rename_name_to_title(doc: &mut Map<String, Value>) -> Result<(), FormatError> {
        if let Some(v) = doc.remove("name") {
            doc.insert("title".into(), v);
        }
        Ok(())
    }

    fn add_pages(doc: &mut Map<String, Value>) -> Result<(), FormatError> {
        doc.entry("pages").or_insert(Value::Array(Vec::new()));
        Ok(())
    }

    #[test]
    fn a_chain_runs_from_the_document_version_on() {
        let table: &[Migration] = &[rename_name_to_title, add_pages];
        let mut old: Map<String, Value> =
            serde_json::from_str(r#"{"version": 1, "name": "old"}"#).unwrap();
        run(&mut old, 1, table).unwrap();
        let want: Value =
            serde_json::from_str(r#"{"version":3,"title":"old","pages":[]}"#).unwrap();
        assert_eq!(Value::Object(old), want);
        // A version-2 document skips the first step: its "name" is left alone.
        let mut newer: Map<String, Value> =
            serde_json::from_str(r#"{"version": 2, "name": "kept"}"#).unwrap();
        run(&mut newer, 2, table).unwrap();
        let want: Value =
            serde_json::from_str(r#"{"version":3,"name":"kept","pages":[]}"#).unwrap();
        assert_eq!(Value::Object(newer), want);
    }

    #[test]
    fn the_current_version_needs_no_step() {
        let mut doc: Map<String, Value> = serde_json::from_str(r#"{"version": 1}"#).unwrap();
        migrate(&mut doc, FORMAT_VERSION).unwrap();
        assert_eq!(doc["version"], Value::from(FORMAT_VERSION));
    }
}
