//! Migrations: how a document written by an older version of the format becomes a
//! document of the current one, before it is read. Each step is a function on the
//! raw JSON document, from version `n` to `n + 1`; a document is brought up to date
//! by running the steps from its version on.
//!
//! - **1 → 2**: the text of shapes, notes and text objects is rich text (a Markdown
//!   subset, `inkboard_core::rich`). Text written before that is escaped where it
//!   would now read as markup, so "a*b*c" still shows its asterisks.
//! - **2 → 3**: shapes and images have an optional `rotation` (degrees, clockwise,
//!   about their centre; absent is 0). Nothing written by inkboard changes. A
//!   `rotation` another program left on a version-2 object was an unknown field,
//!   kept verbatim; it would now turn the object (or, not being a number, refuse
//!   the file), so it is kept under [`OLD_ROTATION`] instead, still unknown.
//!   Version 3 also knows `locked` (on every object; absent is false), added before
//!   any build wrote version 3 for others to read: a `locked` another program left
//!   on an older object is kept under [`OLD_LOCKED`] the same way, so it neither
//!   locks the object nor, not being a boolean, refuses the file. Files with no
//!   lock are written as before, and a build that knows version 3 without
//!   `locked` keeps it as an unknown field and writes it back, so no version of
//!   its own is needed: such a build loses only the lock's protection. A
//!   connector's `waypoints` and `label_at` (its bends and label place, placed by
//!   hand) came the same way, and are kept aside on older objects under
//!   [`OLD_WAYPOINTS`] and [`OLD_LABEL_AT`]; so are its pinned sides and merge
//!   (`from_side`, `to_side`, `merge`) and its end labels (`start_label`,
//!   `end_label`), under `…_before_v3` likewise.

use serde_json::{Map, Value};

use super::FORMAT_VERSION;
use crate::FormatError;

/// Rewrites a document of version `n` into version `n + 1`, in place.
pub(crate) type Migration = fn(&mut Map<String, Value>) -> Result<(), FormatError>;

/// `MIGRATIONS[i]` makes version `i + 1` into version `i + 2`.
pub(crate) const MIGRATIONS: &[Migration] = &[text_is_rich, v3_fields_are_known];

/// Where 2 → 3 keeps a `rotation` field that version 2 did not know.
pub(crate) const OLD_ROTATION: &str = "rotation_before_v3";

/// Where 2 → 3 keeps a `locked` field that version 2 did not know.
pub(crate) const OLD_LOCKED: &str = "locked_before_v3";

/// Where 2 → 3 keeps a `waypoints` field that version 2 did not know.
pub(crate) const OLD_WAYPOINTS: &str = "waypoints_before_v3";

/// Where 2 → 3 keeps a `label_at` field that version 2 did not know.
pub(crate) const OLD_LABEL_AT: &str = "label_at_before_v3";

/// Where 2 → 3 keeps the `from_side`, `to_side` and `merge` fields that version 2
/// did not know.
pub(crate) const OLD_FROM_SIDE: &str = "from_side_before_v3";
pub(crate) const OLD_TO_SIDE: &str = "to_side_before_v3";
pub(crate) const OLD_MERGE: &str = "merge_before_v3";

/// Where 2 → 3 keeps the `start_label` and `end_label` fields that version 2 did
/// not know.
pub(crate) const OLD_START_LABEL: &str = "start_label_before_v3";
pub(crate) const OLD_END_LABEL: &str = "end_label_before_v3";

// One step per version after the first: adding a version without its migration (or
// the other way round) does not compile.
const _: () = assert!(MIGRATIONS.len() as u64 + 1 == FORMAT_VERSION);

/// Brings `doc`, written at version `from` (1 ..= FORMAT_VERSION, checked by the
/// caller), up to the current version.
pub(crate) fn migrate(doc: &mut Map<String, Value>, from: u64) -> Result<(), FormatError> {
    run(doc, from, MIGRATIONS)
}

/// Calls `f` on every object of every page of `doc` (what is not an object is
/// left for the reader to refuse with its place).
fn each_object(doc: &mut Map<String, Value>, mut f: impl FnMut(&mut Map<String, Value>)) {
    let pages = doc.get_mut("pages").and_then(Value::as_array_mut);
    for page in pages.into_iter().flatten() {
        let objects = page.get_mut("objects").and_then(Value::as_array_mut);
        for o in objects
            .into_iter()
            .flatten()
            .filter_map(Value::as_object_mut)
        {
            f(o);
        }
    }
}

/// 1 → 2: shape text escaped where it would read as markup (frames' titles are
/// not rich and stay as they are).
fn text_is_rich(doc: &mut Map<String, Value>) -> Result<(), FormatError> {
    each_object(doc, |o| {
        let shape = o.get("type").and_then(Value::as_str) == Some("shape");
        let frame = o.get("geom").and_then(Value::as_str) == Some("frame");
        if let (true, false, Some(Value::String(text))) = (shape, frame, o.get_mut("text")) {
            *text = inkboard_core::rich::escape(text);
        }
    });
    Ok(())
}

/// 2 → 3: an unknown `rotation`, `locked`, `waypoints`, `label_at`, `from_side`,
/// `to_side`, `merge`, `start_label` or `end_label` on an object
/// kept aside, under `OLD_…` (unless that name is taken too: then the field stays
/// where it is and, being the writer's, is read as version 3 reads it or refused
/// with its place).
fn v3_fields_are_known(doc: &mut Map<String, Value>) -> Result<(), FormatError> {
    each_object(doc, |o| {
        for (key, aside) in [
            ("rotation", OLD_ROTATION),
            ("locked", OLD_LOCKED),
            ("waypoints", OLD_WAYPOINTS),
            ("label_at", OLD_LABEL_AT),
            ("from_side", OLD_FROM_SIDE),
            ("to_side", OLD_TO_SIDE),
            ("merge", OLD_MERGE),
            ("start_label", OLD_START_LABEL),
            ("end_label", OLD_END_LABEL),
        ] {
            if o.contains_key(aside) {
                continue;
            }
            if let Some(v) = o.remove(key) {
                o.insert(aside.into(), v);
            }
        }
    });
    Ok(())
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
    fn version_1_text_keeps_its_characters() {
        let mut doc: Map<String, Value> = serde_json::from_str(
            r#"{"version": 1, "pages": [{"objects": [
                {"type": "shape", "geom": "rect", "text": "a*b*c"},
                {"type": "shape", "geom": "note", "text": "- not a list"},
                {"type": "shape", "geom": "frame", "text": "a*b*c"},
                {"type": "shape", "text": "snake_case"},
                {"type": "connector", "text": "*x*"}]}]}"#,
        )
        .unwrap();
        migrate(&mut doc, 1).unwrap();
        let texts: Vec<&str> = doc["pages"][0]["objects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["text"].as_str().unwrap())
            .collect();
        assert_eq!(
            texts,
            ["a\\*b\\*c", "\\- not a list", "a*b*c", "snake_case", "*x*"]
        );
        assert_eq!(doc["version"], Value::from(3));
    }

    #[test]
    fn version_2_rotation_fields_are_kept_aside() {
        let mut doc: Map<String, Value> = serde_json::from_str(
            r#"{"version": 2, "pages": [{"objects": [
                {"type": "shape", "rotation": "fast"},
                {"type": "image", "rotation": 45},
                {"type": "shape", "text": "plain"}]}]}"#,
        )
        .unwrap();
        migrate(&mut doc, 2).unwrap();
        let objects = doc["pages"][0]["objects"].as_array().unwrap();
        assert_eq!(objects[0][OLD_ROTATION], Value::from("fast"));
        assert_eq!(objects[1][OLD_ROTATION], Value::from(45));
        assert!(objects.iter().all(|o| o.get("rotation").is_none()));
        assert_eq!(objects[2].as_object().unwrap().len(), 2);
        assert_eq!(doc["version"], Value::from(3));
    }

    #[test]
    fn version_2_locked_fields_are_kept_aside() {
        let mut doc: Map<String, Value> = serde_json::from_str(
            r#"{"version": 2, "pages": [{"objects": [
                {"type": "shape", "locked": "yes"},
                {"type": "group", "locked": true},
                {"type": "shape", "locked": false, "locked_before_v3": 1}]}]}"#,
        )
        .unwrap();
        migrate(&mut doc, 2).unwrap();
        let objects = doc["pages"][0]["objects"].as_array().unwrap();
        assert_eq!(objects[0][OLD_LOCKED], Value::from("yes"));
        assert_eq!(objects[1][OLD_LOCKED], Value::from(true));
        assert!(objects[..2].iter().all(|o| o.get("locked").is_none()));
        // The name aside is taken: the field stays, to be read as version 3's.
        assert_eq!(objects[2]["locked"], Value::from(false));
        assert_eq!(objects[2][OLD_LOCKED], Value::from(1));
    }

    #[test]
    fn version_2_bends_are_kept_aside() {
        let mut doc: Map<String, Value> = serde_json::from_str(
            r#"{"version": 2, "pages": [{"objects": [
                {"type": "connector", "waypoints": "via the hall", "label_at": "top"},
                {"type": "connector", "waypoints": [[1, 2]], "label_at": 0.5}]}]}"#,
        )
        .unwrap();
        migrate(&mut doc, 2).unwrap();
        let objects = doc["pages"][0]["objects"].as_array().unwrap();
        assert_eq!(objects[0][OLD_WAYPOINTS], Value::from("via the hall"));
        assert_eq!(objects[0][OLD_LABEL_AT], Value::from("top"));
        assert_eq!(objects[1][OLD_LABEL_AT], Value::from(0.5));
        assert!(objects
            .iter()
            .all(|o| o.get("waypoints").is_none() && o.get("label_at").is_none()));
    }

    #[test]
    fn version_2_pins_and_merges_are_kept_aside() {
        let mut doc: Map<String, Value> = serde_json::from_str(
            r#"{"version": 2, "pages": [{"objects": [
                {"type": "connector", "from_side": "north", "to_side": 3, "merge": "yes"}]}]}"#,
        )
        .unwrap();
        migrate(&mut doc, 2).unwrap();
        let o = &doc["pages"][0]["objects"][0];
        assert_eq!(o[OLD_FROM_SIDE], Value::from("north"));
        assert_eq!(o[OLD_TO_SIDE], Value::from(3));
        assert_eq!(o[OLD_MERGE], Value::from("yes"));
        assert!(["from_side", "to_side", "merge"]
            .iter()
            .all(|k| o.get(k).is_none()));
    }

    #[test]
    fn version_2_end_labels_are_kept_aside() {
        let mut doc: Map<String, Value> = serde_json::from_str(
            r#"{"version": 2, "pages": [{"objects": [
                {"type": "connector", "start_label": 1, "end_label": ["many"]}]}]}"#,
        )
        .unwrap();
        migrate(&mut doc, 2).unwrap();
        let o = &doc["pages"][0]["objects"][0];
        assert_eq!(o[OLD_START_LABEL], Value::from(1));
        assert_eq!(o[OLD_END_LABEL], serde_json::json!(["many"]));
        assert!(o.get("start_label").is_none() && o.get("end_label").is_none());
    }

    #[test]
    fn the_current_version_needs_no_step() {
        let mut doc: Map<String, Value> = serde_json::from_str(r#"{"version": 1}"#).unwrap();
        migrate(&mut doc, FORMAT_VERSION).unwrap();
        assert_eq!(doc["version"], Value::from(FORMAT_VERSION));
    }
}
