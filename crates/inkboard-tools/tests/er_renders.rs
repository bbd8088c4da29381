//! ER diagrams drawn (issue 32, item 2): each fixture of
//! `inkboard-interop/tests/er/` (Mermaid's documentation examples and ours,
//! sources in its `SOURCES.md`) is imported with `import_mermaid` into a new
//! board and held to rules that fail on their own whatever the pictures say:
//!
//! - `problems`: the checker (`inkboard_render::check`) finds nothing on the
//!   page: no label over a line, an arrowhead, a shape or another label, no
//!   rows overflowing their table, no shapes overlapping;
//! - `tables`: one auto-sized table per entity, holding its name and a row per
//!   attribute;
//! - `ends`: every relationship a connector between two tables with
//!   crow's-foot ends at both, dashed exactly when non-identifying.
//!
//! Its drawing is kept as reference renders, `tests/er/NAME.svg` and
//! `NAME.png` (`UPDATE_EXPECT=1 cargo test -p inkboard-tools --test
//! er_renders` rewrites them: look at the PNGs before committing).

mod common;

use std::path::{Path, PathBuf};

use inkboard_core::{Board, Dash, End, Geom, Kind, Sizing, Table};
use inkboard_interop::mermaid::er;
use inkboard_tools::Engine;
use serde_json::json;

use common::pictures::{check_drawing, mermaid_fixtures};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../inkboard-interop/tests/er")
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/er")
}

/// Imports `text` into a new board in `folder` and reads it back.
fn imported(folder: &Path, text: &str) -> Board {
    let path = folder.join("er.inkboard");
    let engine = Engine::new();
    engine
        .call("create_board", json!({"path": path, "overwrite": true}))
        .expect("create_board");
    engine
        .call("import_mermaid", json!({"path": path, "text": text}))
        .expect("import_mermaid");
    inkboard_format::load(&path).expect("load").board
}

/// The rules' failures for one board drawn from `diagram`.
fn rules(name: &str, board: &Board, diagram: &er::Er) -> Vec<String> {
    let mut failures = Vec::new();
    let page = &board.pages()[0];
    for p in inkboard_render::check(board, page.id) {
        failures.push(format!("{name}: problems: {:?} {}", p.kind, p.message));
    }
    let tables: Vec<&inkboard_core::Shape> = page
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) if s.geom == Geom::Table => Some(s),
            _ => None,
        })
        .collect();
    if tables.len() != diagram.entities.len() {
        failures.push(format!(
            "{name}: tables: {} for {} entities",
            tables.len(),
            diagram.entities.len()
        ));
    }
    for (t, e) in tables.iter().zip(&diagram.entities) {
        let table = Table::parse(&t.text);
        let rows = table.compartments.iter().flatten().count();
        if table.title != e.label || rows != e.attributes.len() || t.sizing != Sizing::Auto {
            failures.push(format!("{name}: tables: {:?} is not {}", t.text, e.label));
        }
    }
    let connectors: Vec<&inkboard_core::Connector> = page
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Connector(c) => Some(c),
            _ => None,
        })
        .collect();
    if connectors.len() != diagram.relationships.len() {
        failures.push(format!("{name}: ends: {} connectors", connectors.len()));
    }
    for (c, r) in connectors.iter().zip(&diagram.relationships) {
        let bound = matches!((&c.from, &c.to), (End::Object(_), End::Object(_)));
        let dashed = c.style.dash == Some(Dash::Dashed);
        if !bound
            || !c.start_arrow.is_crows_foot()
            || !c.end_arrow.is_crows_foot()
            || dashed == r.identifying
        {
            failures.push(format!("{name}: ends: {:?} for line {}", c.text, r.line));
        }
    }
    failures
}

#[test]
fn er_diagrams_draw_clean() {
    let runtime = tempfile::tempdir().expect("runtime dir");
    // SAFETY: set before any engine runs in this process; no other thread reads it yet.
    unsafe { std::env::set_var("INKBOARD_RUNTIME_DIR", runtime.path()) };
    let mut failures = Vec::new();
    for input in &mermaid_fixtures(&fixtures(), 7) {
        let name = input.file_stem().and_then(|n| n.to_str()).expect("a name");
        let text = std::fs::read_to_string(input).expect("read");
        let diagram = er::parse(&text).expect("parse");
        let folder = tempfile::tempdir().expect("a folder");
        let board = imported(folder.path(), &text);
        failures.extend(rules(name, &board, &diagram));
        check_drawing(&board, name, &dir(), &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
