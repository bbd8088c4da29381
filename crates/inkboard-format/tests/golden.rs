//! Golden tests of the file format, the external contract of this crate: the example
//! file of each format version loads, matches the JSON Schema and saves back to the
//! same bytes; reads show it as `golden/*.read.json`; and every file in `bad/` is
//! refused with the message in its `.expected` file.
//!
//! Expected outputs live in files beside the inputs. After a deliberate change, run
//! `UPDATE_EXPECT=1 cargo test -p inkboard-format` and review the diff.

use std::fs;
use std::path::{Path, PathBuf};

use inkboard_core::Board;
use inkboard_format::json::{board_from_json, object_to_json, to_pretty_string, Detail};
use serde_json::Value;

fn here(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn updating() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v != "0")
}

/// Compares `actual` with the file at `path`, or rewrites the file when updating.
/// Returns a description of the mismatch rather than panicking, so one run reports
/// every failing fixture.
fn check_expected(path: &Path, actual: &str) -> Result<(), String> {
    if updating() {
        fs::write(path, actual).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(());
    }
    let expected = fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return Ok(());
    }
    let first_diff = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    Err(format!(
        "{} differs from the output at line {}:\n  expected: {:?}\n  actual:   {:?}\n(run with UPDATE_EXPECT=1 to accept the new output)",
        path.display(),
        first_diff + 1,
        expected.lines().nth(first_diff).unwrap_or("<end>"),
        actual.lines().nth(first_diff).unwrap_or("<end>"),
    ))
}

fn schema() -> (boon::Schemas, boon::SchemaIndex) {
    let path = here("../../schema/inkboard.schema.json");
    let text = fs::read_to_string(&path).expect("the schema file exists");
    let json: Value = serde_json::from_str(&text).expect("the schema is JSON");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    let loc = "file:///inkboard.schema.json";
    compiler.add_resource(loc, json).expect("schema resource");
    let index = compiler
        .compile(loc, &mut schemas)
        .unwrap_or_else(|e| panic!("the schema does not compile: {e:#}"));
    (schemas, index)
}

/// Loads an example file, after checking that the schema accepts it.
fn load_golden(schemas: &boon::Schemas, index: boon::SchemaIndex, name: &str) -> Board {
    let text = fs::read_to_string(here(&format!("tests/golden/{name}"))).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    if let Err(e) = schemas.validate(&doc, index) {
        panic!("{name} does not match the schema: {e:#}");
    }
    board_from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The example file of each format version: it loads and the schema accepts it.
/// `v1.inkboard` and `v2.inkboard` are what those versions wrote, never rewritten;
/// both migrate to the same board, saved as `v2.migrated.inkboard` (version 1's
/// text escaped where it would now read as rich text: "2*3*4" keeps its
/// asterisks; nothing rotated). `v3.inkboard` saves byte-identical.
#[test]
fn golden_v1_loads_validates_and_saves_byte_identical() {
    let (schemas, index) = schema();
    let load = |name: &str| load_golden(&schemas, index, name);
    let board = load("v1.inkboard");
    let v2 = load("v2.inkboard");
    assert_eq!(board, v2, "version 1 migrates to what version 2 wrote");
    let saved = to_pretty_string(&v2);
    check_expected(&here("tests/golden/v2.migrated.inkboard"), &saved).unwrap();
    assert!(saved.contains("\"version\": 3,"), "saved at version 3");
    assert!(!saved.contains("\"rotation\""), "nothing rotated");
    assert!(
        saved.contains(r#""A caption, 2\\*3\\*4""#),
        "migrated text kept literal"
    );
    // A `locked` that version 2 did not know is kept aside, not read as a lock.
    assert!(saved.contains(r#""locked_before_v3": true"#));
    assert!(!v2.pages().iter().flat_map(|p| &p.objects).any(|o| o.locked));
    let v3 = here("tests/golden/v3.inkboard");
    let v3_board = load("v3.inkboard");
    let saved = to_pretty_string(&v3_board);
    check_expected(&v3, &saved).unwrap();
    let locked: std::collections::BTreeSet<_> = v3_board
        .pages()
        .iter()
        .flat_map(|p| &p.objects)
        .filter(|o| o.locked)
        .map(|o| o.kind.type_name())
        .collect();
    assert_eq!(locked.len(), 4, "locked objects of four types: {locked:?}");

    // What the examples promise to cover: version 1's every object type and
    // every geom of its time, version 3's the ones that came after (tables).
    let objects: Vec<_> = board.pages().iter().flat_map(|p| &p.objects).collect();
    let newer: Vec<_> = v3_board.pages().iter().flat_map(|p| &p.objects).collect();
    let types: std::collections::BTreeSet<_> = objects.iter().map(|o| o.kind.type_name()).collect();
    assert_eq!(types.len(), 5, "every object type: {types:?}");
    let geoms: std::collections::BTreeSet<_> = objects
        .iter()
        .chain(&newer)
        .filter_map(|o| match &o.kind {
            inkboard_core::Kind::Shape(s) => Some(s.geom),
            _ => None,
        })
        .map(|g| inkboard_core::Vocabulary::name(g))
        .collect();
    assert_eq!(
        geoms.len(),
        <inkboard_core::Geom as inkboard_core::Vocabulary>::ALL.len(),
        "every geom: {geoms:?}"
    );
    assert_eq!(board.pages().len(), 2);
    assert!(!board.extra().is_empty(), "unknown board field kept");
    assert!(
        board.pages().iter().any(|p| !p.extra.is_empty()),
        "unknown page field kept"
    );
    assert!(
        objects.iter().any(|o| !o.extra.is_empty()),
        "unknown object field kept"
    );
}

/// Tool reads show objects in the same form, images by size: `v1.read.json` is every
/// object of the example, page by page, as a read returns it.
#[test]
fn golden_v1_read_form() {
    let text = fs::read_to_string(here("tests/golden/v1.inkboard")).unwrap();
    let board = board_from_json(&text).unwrap();
    let pages: Vec<Value> = board
        .pages()
        .iter()
        .map(|p| {
            Value::Array(
                p.objects
                    .iter()
                    .map(|o| Value::Object(object_to_json(o, Detail::Read)))
                    .collect(),
            )
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&Value::Array(pages)).unwrap();
    out.push('\n');
    check_expected(&here("tests/golden/v1.read.json"), &out).unwrap();
}

/// Every `bad/*.json` is refused, with the message in `bad/*.expected`.
#[test]
fn bad_files_are_refused_with_their_expected_message() {
    let mut names: Vec<PathBuf> = fs::read_dir(here("tests/bad"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "the bad files are there");
    let mut failures = Vec::new();
    for path in &names {
        let text = fs::read_to_string(path).unwrap();
        let message = match board_from_json(&text) {
            Ok(_) => {
                failures.push(format!("{} loaded, but should be refused", path.display()));
                continue;
            }
            Err(e) => format!("{e}\n"),
        };
        if let Err(e) = check_expected(&path.with_extension("expected"), &message) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The largest id a board may hold loads, and the board saves a file that loads
/// back (found by the `board_file` fuzz target: a larger id made the board count
/// past its limit, and its saved file was refused; see `bad/id_past_counter.json`).
#[test]
fn the_largest_id_loads_and_saves_back() {
    let text = r#"{"format": "inkboard", "version": 1, "title": "t", "pages": [{"id": "p1", "name": "P",
        "objects": [{"id": "s9007199254740990", "type": "shape", "x": 0, "y": 0, "w": 10, "h": 10}]}]}"#;
    let board = board_from_json(text).unwrap();
    assert_eq!(board.next_object(), (1 << 53) - 1);
    assert_eq!(board_from_json(&to_pretty_string(&board)).unwrap(), board);
}

/// Colours round-trip as their writer meant: palette names stay names (themes
/// restyle them; "grey" is written "gray"), CSS colour names and hex are written
/// as lower-case hex, and what is saved matches the schema and saves back the same.
#[test]
fn colours_keep_palette_names_and_write_css_names_as_hex() {
    let fills = [
        "pink",
        "Grey",
        "YELLOW",
        "LightBlue",
        "rebeccapurple",
        "transparent",
        "#ABC",
    ];
    let objects: Vec<String> = fills
        .iter()
        .enumerate()
        .map(|(i, fill)| {
            format!(
                r#"{{"id": "s{}", "type": "shape", "geom": "note", "x": {}, "y": 0, "w": 10, "h": 10, "fill": "{fill}", "stroke": "{fill}"}}"#,
                i + 1,
                i * 20
            )
        })
        .collect();
    let text = format!(
        r#"{{"format": "inkboard", "version": 1, "title": "t", "pages": [{{"id": "p1", "name": "P", "objects": [{}]}}]}}"#,
        objects.join(", ")
    );
    let board = board_from_json(&text).unwrap();
    let saved = to_pretty_string(&board);
    let doc: Value = serde_json::from_str(&saved).unwrap();
    let written: Vec<(&str, &str)> = doc["pages"][0]["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["fill"].as_str().unwrap(), o["stroke"].as_str().unwrap()))
        .collect();
    let want = [
        "pink",
        "gray",
        "yellow",
        "#add8e6",
        "#663399",
        "#ffffff00",
        "#aabbcc",
    ];
    assert_eq!(written, want.map(|w| (w, w)).to_vec());
    let (schemas, index) = schema();
    if let Err(e) = schemas.validate(&doc, index) {
        panic!("the saved colours do not match the schema: {e:#}");
    }
    assert_eq!(to_pretty_string(&board_from_json(&saved).unwrap()), saved);
}

/// No input makes reading panic: every prefix of the example (a file cut short) and
/// the example with each of many single bytes changed either loads or is refused.
#[test]
fn no_input_makes_reading_panic() {
    let text = fs::read_to_string(here("tests/golden/v1.inkboard")).unwrap();
    let bytes = text.as_bytes();
    // The last two bytes are the closing brace and newline: shorter is cut short.
    for end in (0..bytes.len() - 2).step_by(3) {
        if let Ok(prefix) = std::str::from_utf8(&bytes[..end]) {
            assert!(
                board_from_json(prefix).is_err(),
                "a prefix of {end} bytes loaded"
            );
        }
    }
    let replacements = [b'0', b'-', b'"', b'{', b']', b'x', b' ', b'9'];
    for (n, at) in (0..bytes.len()).step_by(5).enumerate() {
        let mut changed = bytes.to_vec();
        changed[at] = replacements[n % replacements.len()];
        if let Ok(changed) = String::from_utf8(changed) {
            let _ = board_from_json(&changed);
        }
    }
}

/// Version 3's rotation: each rotated shape and image of `v3.inkboard` reads its
/// turn; a turn is written normalised into [0, 360) and left out at 0; a
/// `rotation` on a connector is not its field and is kept as an unknown one; and
/// a version-2 file's own `rotation` (unknown to version 2) is kept aside as
/// `rotation_before_v3` rather than turning the object or refusing the file.
#[test]
fn version_3_rotation_reads_normalised_and_version_2_rotation_is_kept_aside() {
    use inkboard_core::Kind;
    let text = fs::read_to_string(here("tests/golden/v3.inkboard")).unwrap();
    let board = board_from_json(&text).unwrap();
    let turns: Vec<(String, f64)> = board
        .pages()
        .iter()
        .flat_map(|p| &p.objects)
        .filter(|o| !o.rotation().is_none())
        .map(|o| (o.id.to_string(), o.rotation().deg()))
        .collect();
    assert_eq!(turns.len(), 5, "{turns:?}");
    let connector = board
        .pages()
        .iter()
        .flat_map(|p| &p.objects)
        .find(|o| matches!(o.kind, Kind::Connector(_)) && o.extra.contains_key("rotation"));
    assert!(
        connector.is_some(),
        "a connector's rotation kept as unknown"
    );

    let doc = |version: u64, rotation: &str| {
        format!(
            r#"{{"format": "inkboard", "version": {version}, "title": "t", "pages": [{{"id": "p1", "name": "P",
            "objects": [{{"id": "s1", "type": "shape", "x": 0, "y": 0, "w": 10, "h": 10, "rotation": {rotation}}}]}}]}}"#
        )
    };
    for (given, want) in [
        ("-90", 270.0),
        ("370", 10.0),
        ("360", 0.0),
        ("0", 0.0),
        ("45.5", 45.5),
    ] {
        let board = board_from_json(&doc(3, given)).unwrap();
        let o = &board.pages()[0].objects[0];
        assert_eq!(o.rotation().deg(), want, "{given}");
        let saved = to_pretty_string(&board);
        assert_eq!(saved.contains("\"rotation\""), want != 0.0, "{saved}");
        assert_eq!(
            board_from_json(&saved).unwrap(),
            board,
            "round trip of {given}"
        );
    }
    let refused = board_from_json(&doc(3, "\"fast\""))
        .unwrap_err()
        .to_string();
    assert!(refused.contains("rotation"), "{refused}");

    // Version 2: the same field was another program's, kept verbatim.
    for v2 in ["\"fast\"", "45"] {
        let board = board_from_json(&doc(2, v2)).unwrap();
        let o = &board.pages()[0].objects[0];
        assert!(o.rotation().is_none());
        assert_eq!(
            o.extra.get("rotation_before_v3").map(String::as_str),
            Some(v2)
        );
        let saved = to_pretty_string(&board);
        assert!(
            saved.contains(&format!("\"rotation_before_v3\": {v2}")),
            "{saved}"
        );
        assert_eq!(board_from_json(&saved).unwrap(), board);
    }
}

/// The schema knows a connector's `waypoints`, `label_at`, pinned sides and
/// `merge`, as the reader does:
/// it takes what the reader takes and refuses a label place past the line's end.
#[test]
fn the_schema_takes_connector_bends() {
    let (schemas, index) = schema();
    let doc = |label_at: f64| -> Value {
        serde_json::json!({"format": "inkboard", "version": 3, "title": "t", "next_id": 4,
            "pages": [{"id": "p1", "name": "Page 1", "objects": [
                {"id": "s1", "type": "shape", "x": 0, "y": 0, "w": 10, "h": 10},
                {"id": "s2", "type": "shape", "x": 100, "y": 0, "w": 10, "h": 10},
                {"id": "c3", "type": "connector", "from": "s1", "to": "s2",
                 "waypoints": [[50, 5], [50, 40.5]], "label_at": label_at,
                 "from_side": "bottom", "to_side": "left", "merge": true}]}]})
    };
    let good = doc(0.25);
    assert!(schemas.validate(&good, index).is_ok());
    assert!(board_from_json(&good.to_string()).is_ok());
    let bad = doc(2.0);
    assert!(schemas.validate(&bad, index).is_err());
    assert!(board_from_json(&bad.to_string()).is_err());
}

/// The schema knows a connector's end labels as the reader does: texts, within
/// the text limit; anything else is refused by both.
#[test]
fn the_schema_takes_connector_end_labels() {
    let (schemas, index) = schema();
    let doc = |start: Value| -> Value {
        serde_json::json!({"format": "inkboard", "version": 3, "title": "t", "next_id": 4,
            "pages": [{"id": "p1", "name": "Page 1", "objects": [
                {"id": "s1", "type": "shape", "x": 0, "y": 0, "w": 10, "h": 10},
                {"id": "s2", "type": "shape", "x": 100, "y": 0, "w": 10, "h": 10},
                {"id": "c3", "type": "connector", "from": "s1", "to": "s2",
                 "start_label": start, "end_label": "0..*"}]}]})
    };
    let good = doc(Value::from("1"));
    assert!(schemas.validate(&good, index).is_ok());
    let board = board_from_json(&good.to_string()).unwrap();
    let Some(inkboard_core::Kind::Connector(c)) = board.pages()[0].objects.get(2).map(|o| &o.kind)
    else {
        panic!("a connector");
    };
    assert_eq!((c.start_label(), c.end_label()), ("1", "0..*"));
    for bad in [
        doc(Value::from(1)),
        doc(Value::from(
            "x".repeat(inkboard_core::limits::MAX_TEXT_CHARS + 1),
        )),
    ] {
        assert!(schemas.validate(&bad, index).is_err());
        assert!(board_from_json(&bad.to_string()).is_err());
    }
}
