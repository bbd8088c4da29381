//! Class diagrams drawn (issue 32, item 3): each fixture of
//! `inkboard-interop/tests/class/` (Mermaid's documentation examples and ours,
//! sources in its `SOURCES.md`) is imported with `import_mermaid` into a new
//! board and held to rules that fail on their own whatever the pictures say:
//!
//! - `problems`: the checker (`inkboard_render::check`) finds nothing on the
//!   page: no label over a line, an arrowhead, a shape or another label, no
//!   members overflowing their class, no shapes overlapping;
//! - `classes`: one auto-sized table per class, its title the annotation and
//!   name, its attributes and its methods in two compartments;
//! - `ends`: every relation a connector between two tables with the ends the
//!   text names, dashed exactly for `..`, its cardinalities as end labels;
//! - `frames` and `notes`: a frame per namespace, a sticky note per note.
//!
//! Its drawing is kept as reference renders, `tests/class/NAME.svg` and
//! `NAME.png` (`UPDATE_EXPECT=1 cargo test -p inkboard-tools --test
//! class_renders` rewrites them: look at the PNGs before committing).

mod common;

use std::path::{Path, PathBuf};

use inkboard_core::{Board, Dash, End, Geom, Kind, Sizing, Table};
use inkboard_interop::mermaid::class::{self, ClassDiagram};
use inkboard_tools::Engine;
use serde_json::json;

use common::pictures::{check_drawing, mermaid_fixtures};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../inkboard-interop/tests/class")
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/class")
}

/// Imports `text` into a new board in `folder` and reads it back.
fn imported(folder: &Path, text: &str) -> Board {
    let path = folder.join("class.inkboard");
    let engine = Engine::new();
    engine
        .call("create_board", json!({"path": path, "overwrite": true}))
        .expect("create_board");
    engine
        .call("import_mermaid", json!({"path": path, "text": text}))
        .expect("import_mermaid");
    inkboard_format::load(&path).expect("load").board
}

/// The rules' failures for one board drawn from `d`.
fn rules(name: &str, board: &Board, d: &ClassDiagram) -> Vec<String> {
    let mut failures = Vec::new();
    let page = &board.pages()[0];
    for p in inkboard_render::check(board, page.id) {
        failures.push(format!("{name}: problems: {:?} {}", p.kind, p.message));
    }
    let shapes = |geom: Geom| -> Vec<&inkboard_core::Shape> {
        page.objects
            .iter()
            .filter_map(|o| match &o.kind {
                Kind::Shape(s) if s.geom == geom => Some(s),
                _ => None,
            })
            .collect()
    };
    let tables = shapes(Geom::Table);
    if tables.len() != d.classes.len() {
        failures.push(format!(
            "{name}: classes: {} tables for {} classes",
            tables.len(),
            d.classes.len()
        ));
    }
    for (t, c) in tables.iter().zip(&d.classes) {
        let table = Table::parse(&t.text);
        let rows: Vec<usize> = table.compartments.iter().map(Vec::len).collect();
        if table.stereotype() != (c.annotation.as_deref(), c.label.as_str())
            || rows != [c.attributes.len(), c.methods.len()]
            || t.sizing != Sizing::Auto
        {
            failures.push(format!("{name}: classes: {:?} is not {}", t.text, c.label));
        }
    }
    if shapes(Geom::Frame).len() != d.namespaces.len() {
        failures.push(format!("{name}: frames: not one per namespace"));
    }
    if shapes(Geom::Note).len() != d.stickies.len() {
        failures.push(format!("{name}: notes: not one per note"));
    }
    let connectors: Vec<&inkboard_core::Connector> = page
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Connector(c) => Some(c),
            _ => None,
        })
        .collect();
    let joined = d.stickies.iter().filter(|s| s.class.is_some()).count();
    if connectors.len() != d.relations.len() + joined {
        failures.push(format!("{name}: ends: {} connectors", connectors.len()));
    }
    for (c, r) in connectors.iter().zip(&d.relations) {
        let bound = matches!((&c.from, &c.to), (End::Object(_), End::Object(_)));
        let dashed = c.style.dash == Some(Dash::Dashed);
        if !bound
            || c.start_arrow != r.from_end
            || c.end_arrow != r.to_end
            || dashed != r.dashed
            || c.start_label() != r.from_cardinality
            || c.end_label() != r.to_cardinality
        {
            failures.push(format!("{name}: ends: {:?} for line {}", c.text, r.line));
        }
    }
    failures
}

#[test]
fn class_diagrams_draw_clean() {
    let runtime = tempfile::tempdir().expect("runtime dir");
    // SAFETY: set before any engine runs in this process; no other thread reads it yet.
    unsafe { std::env::set_var("INKBOARD_RUNTIME_DIR", runtime.path()) };
    let mut failures = Vec::new();
    for input in &mermaid_fixtures(&fixtures(), 20) {
        let name = input.file_stem().and_then(|n| n.to_str()).expect("a name");
        let text = std::fs::read_to_string(input).expect("read");
        let diagram = class::parse(&text).expect("parse");
        let folder = tempfile::tempdir().expect("a folder");
        let board = imported(folder.path(), &text);
        failures.extend(rules(name, &board, &diagram));
        check_drawing(&board, name, &dir(), &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
