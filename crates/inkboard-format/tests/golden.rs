//! Golden tests of the file format, the external contract of this crate: the example
//! file of each format version loads, matches the JSON Schema and saves back to the
//! same bytes; reads show it as `golden/*.read.json`; and every file in `bad/` is
//! refused with the message in its `.expected` file.
//!
//! Expected outputs live in files beside the inputs. After a deliberate change, run
//! `UPDATE_EXPECT=1 cargo test -p inkboard-format` and review the diff.

use std::fs;
use std::path::{Path, PathBuf};

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

/// The example file of each format version: it loads and the schema accepts it;
/// version 1 migrates to `v2.inkboard` (its text escaped where it would now read as
/// rich text: "2*3*4" keeps its asterisks), and version 2 saves byte-identical.
#[test]
fn golden_v1_loads_validates_and_saves_byte_identical() {
    let (schemas, index) = schema();
    let load = |name: &str| {
        let text = fs::read_to_string(here(&format!("tests/golden/{name}"))).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        if let Err(e) = schemas.validate(&doc, index) {
            panic!("{name} does not match the schema: {e:#}");
        }
        board_from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let board = load("v1.inkboard");
    let v2 = here("tests/golden/v2.inkboard");
    check_expected(&v2, &to_pretty_string(&board)).unwrap();
    let saved = to_pretty_string(&load("v2.inkboard"));
    check_expected(&v2, &saved).unwrap();
    assert!(
        saved.contains(r#""A caption, 2\\*3\\*4""#),
        "migrated text kept literal"
    );

    // What the example promises to cover.
    let objects: Vec<_> = board.pages().iter().flat_map(|p| &p.objects).collect();
    let types: std::collections::BTreeSet<_> = objects.iter().map(|o| o.kind.type_name()).collect();
    assert_eq!(types.len(), 5, "every object type: {types:?}");
    let geoms: std::collections::BTreeSet<_> = objects
        .iter()
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
