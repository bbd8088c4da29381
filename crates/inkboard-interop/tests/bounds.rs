//! Files whose import once cost gigabytes or minutes (issue 29), each answered
//! with a board or a clear error, the costly ones refused by a named bound before
//! the work rather than after it: entities in a compressed draw.io page, in a
//! PNG's zTXt or iTXt chunk and in a draw.io SVG (6.6 GB, then SIGABRT); an
//! element of a quarter of a million attributes (a minute); placeholders filled
//! to terabytes; pages that inflate together past the file limit.
//!
//! The small attack files are kept in `tests/hostile/`, made by
//! `tests/make/make_hostile.py`; what each gives is golden in
//! `tests/hostile.expect` (`UPDATE_EXPECT=1` refreshes it). The larger inputs
//! are made here. `scaling.rs` holds the parsers to linear time.

mod common;

use std::fmt::Write as _;
use std::path::Path;

use inkboard_core::limits::{Limit, MAX_TEXT_CHARS, MAX_XML_ATTRIBUTES};
use inkboard_core::xml::EntityProblem;
use inkboard_core::ModelError;
use inkboard_interop::{import, ImportError};

fn hostile_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile")
}

fn model(cells: &str) -> String {
    format!("<mxGraphModel><root><mxCell id=\"0\"/><mxCell id=\"1\" parent=\"0\"/>{cells}</root></mxGraphModel>")
}

#[test]
fn attack_files_import_or_are_refused_by_name() {
    let mut names: Vec<_> = std::fs::read_dir(hostile_dir())
        .expect("tests/hostile")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut out = String::new();
    for name in &names {
        let bytes = std::fs::read(hostile_dir().join(name)).expect("read");
        let result = import(&bytes, Some(name));
        if name.starts_with("entities") {
            assert!(
                matches!(
                    &result,
                    Err(ImportError::Limit(ModelError::XmlEntities {
                        problem: EntityProblem::Declared,
                        ..
                    }))
                ),
                "{name}: {:?}",
                result.as_ref().err()
            );
        }
        match result {
            Ok(imported) => writeln!(
                out,
                "{name}:\n  a board of {} objects",
                imported.board.object_count()
            ),
            Err(e) => writeln!(out, "{name}:\n  {e}"),
        }
        .unwrap();
    }
    common::expect(&hostile_dir().join("../hostile.expect"), &out);
}

#[test]
fn an_element_of_many_attributes_is_refused_before_it_is_parsed() {
    // About 2.5 MB, as in the issue: 250,000 attributes on one cell.
    let attributes: String = (0..250_000).map(|i| format!(" a{i}=\"\"")).collect();
    let bomb = model(&format!("<mxCell id=\"2\" parent=\"1\"{attributes}/>"));
    assert!(bomb.len() > 2_500_000);
    let Err(ImportError::Limit(ModelError::TooLarge { limit, got, .. })) =
        import(bomb.as_bytes(), Some("bomb.drawio"))
    else {
        panic!("the attribute bomb is refused by its limit");
    };
    assert_eq!(limit, Limit::XmlAttributes);
    // Counting stops one past the limit: the rest is never read.
    assert_eq!(got, MAX_XML_ATTRIBUTES as u64 + 1);
    // Many elements at the limit are read: the bound is per element.
    let cells: String = (0..400)
        .map(|c| {
            let attrs: String = (0..MAX_XML_ATTRIBUTES - 5)
                .map(|i| format!(" p{i}=\"v\""))
                .collect();
            format!("<UserObject id=\"u{c}\" label=\"x\"{attrs}><mxCell vertex=\"1\" parent=\"1\"><mxGeometry width=\"9\" height=\"9\" as=\"geometry\"/></mxCell></UserObject>")
        })
        .collect();
    let imported = import(model(&cells).as_bytes(), None).expect("imports");
    assert_eq!(imported.board.object_count(), 400);
}

#[test]
fn placeholders_are_filled_only_so_far() {
    // 100,000 placeholders naming one property of 100,000 characters would fill
    // the label to 10^10 characters.
    let label = "%a%".repeat(100_000);
    let value = "x".repeat(100_000);
    let xml = model(&format!("<UserObject id=\"u\" label=\"{label}\" placeholders=\"1\" a=\"{value}\"><mxCell vertex=\"1\" parent=\"1\"><mxGeometry width=\"9\" height=\"9\" as=\"geometry\"/></mxCell></UserObject>"));
    let Err(ImportError::Limit(ModelError::TooLarge { limit, got, .. })) =
        import(xml.as_bytes(), None)
    else {
        panic!("the label is over the text limit");
    };
    assert_eq!(limit, Limit::TextChars);
    // Filling stops once it has added 4 × the text limit (after the value that
    // passed it), the rest of the label kept as written: linear in the file.
    let bound = 2 * label.len() + 4 * MAX_TEXT_CHARS + value.len();
    assert!(got as usize <= bound, "{got} > {bound}");
    // A label whose filling is within the bound is filled whole.
    let small = model("<UserObject id=\"u\" label=\"%a% and %b%\" placeholders=\"1\" a=\"one\" b=\"two\"><mxCell vertex=\"1\" parent=\"1\"><mxGeometry width=\"9\" height=\"9\" as=\"geometry\"/></mxCell></UserObject>");
    let imported = import(small.as_bytes(), None).expect("imports");
    let inkboard_core::Kind::Shape(s) = &imported.board.pages()[0].objects[0].kind else {
        panic!("a shape");
    };
    assert_eq!(s.text, "one and two");
}
