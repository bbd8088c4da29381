//! Mermaid ER diagrams read and written (issue 32, item 2): each
//! `tests/er/NAME.mmd` (sources and licences in `SOURCES.md`) is parsed and what
//! the reader made of it (entities with their attributes, relationships with
//! their ends, what was left out), or its error with line and column, is
//! compared with `NAME.expect` beside it. Fixtures named `bad-*` must fail, the
//! others must not. Then each diagram is made into a board of table shapes and
//! crow's-foot connectors and taken round: to Mermaid and back (the same
//! entities, attributes and relationships) and to draw.io and back (the same
//! tables, ends, dashes and labels). Refresh with
//! `UPDATE_EXPECT=1 cargo test -p inkboard-interop --test er`.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use inkboard_core::{
    Actor, Board, Connector, End, Geom, Kind, Rect, Rotation, Shape, Sizing, Style, Transaction,
    Vocabulary,
};
use inkboard_interop::mermaid::er::{self, Er};
use inkboard_interop::mermaid::{read, to_mermaid, Diagram};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/er")
}

fn fixtures() -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("tests/er")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mmd"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 8, "fixtures missing");
    inputs
}

fn name(p: &Path) -> String {
    p.file_stem()
        .and_then(|n| n.to_str())
        .expect("a name")
        .to_string()
}

/// What the reader made of a diagram: a line per entity and attribute, then per
/// relationship.
fn summary(er: &Er) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "direction {:?}", er.direction);
    for e in &er.entities {
        let _ = writeln!(out, "entity {:?} {:?} (line {})", e.id, e.label, e.line);
        for a in &e.attributes {
            let _ = writeln!(out, "  {} {} {:?} {:?}", a.kind, a.name, a.keys, a.comment);
        }
    }
    for r in &er.relationships {
        let _ = writeln!(
            out,
            "relationship {} {}{}{} {} {:?} (line {})",
            er.entities[r.from].id,
            r.from_end.name(),
            if r.identifying { "--" } else { ".." },
            r.to_end.name(),
            er.entities[r.to].id,
            r.label,
            r.line
        );
    }
    for n in er.report() {
        let _ = writeln!(
            out,
            "left out [{}] {} x{} lines {:?}",
            n.kind.name(),
            n.message,
            n.count,
            n.lines
        );
    }
    out
}

#[test]
fn fixtures_read_as_expected() {
    for input in fixtures() {
        let name = name(&input);
        let text = std::fs::read_to_string(&input).expect("read a fixture");
        let actual = match read(&text) {
            Ok(Diagram::Er(er)) => {
                assert!(!name.starts_with("bad-"), "{name} should fail");
                summary(&er)
            }
            Ok(_) => panic!("{name} read as another kind"),
            Err(e) => {
                assert!(name.starts_with("bad-"), "{name}: {e}");
                format!("error: {e}\n")
            }
        };
        common::expect(&input.with_extension("expect"), &actual);
    }
}

/// A board of the diagram: a table per entity in a row, a connector per
/// relationship (no layout: the round trips are about what the objects say).
fn board_of(er: &Er) -> Board {
    let mut board = Board::new("er", &["ER".to_string()]);
    let page = board.pages()[0].id;
    let mut tx = Transaction::begin(&mut board);
    let mut ids = Vec::new();
    for (i, e) in er.entities.iter().enumerate() {
        let shape = Shape {
            geom: Geom::Table,
            bounds: Rect::new(
                i as f64 * 300.0,
                0.0,
                240.0,
                40.0 + 24.0 * e.attributes.len() as f64,
            ),
            text: e.table_text(),
            style: Style::default(),
            sizing: Sizing::Auto,
            rotation: Rotation::NONE,
            icon: None,
        };
        ids.push(tx.add(page, None, Kind::Shape(shape)).expect("add a table"));
    }
    for r in &er.relationships {
        let c: Connector = r.connector(
            End::Object(ids[r.from].clone()),
            End::Object(ids[r.to].clone()),
        );
        tx.add(page, None, Kind::Connector(c))
            .expect("add a connector");
    }
    tx.commit(Actor::Agent).expect("commit");
    board
}

/// What a relationship says, by entity labels: the round trips keep this.
fn relationships(er: &Er) -> Vec<String> {
    er.relationships
        .iter()
        .map(|r| {
            format!(
                "{} {}{}{} {} {:?}",
                er.entities[r.from].label,
                r.from_end.name(),
                if r.identifying { "--" } else { ".." },
                r.to_end.name(),
                er.entities[r.to].label,
                r.label
            )
        })
        .collect()
}

fn entities(er: &Er) -> Vec<(String, Vec<er::Attribute>)> {
    er.entities
        .iter()
        .map(|e| (e.label.clone(), e.attributes.clone()))
        .collect()
}

#[test]
fn diagrams_go_to_mermaid_and_back() {
    for input in fixtures().iter().filter(|p| !name(p).starts_with("bad-")) {
        let name = name(input);
        let er = er::parse(&std::fs::read_to_string(input).expect("read")).expect("parse");
        let board = board_of(&er);
        let text = to_mermaid(&board, board.pages()[0].id);
        assert!(text.starts_with("erDiagram\n"), "{name}: {text}");
        let back = er::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(entities(&back), entities(&er), "{name}: entities\n{text}");
        assert_eq!(
            relationships(&back),
            relationships(&er),
            "{name}: relationships\n{text}"
        );
    }
}

/// A board's tables and connectors as text: what the draw.io round trip keeps.
fn drawn(board: &Board) -> Vec<String> {
    let page = &board.pages()[0];
    let title = |id: &inkboard_core::ObjectId| match board.object(id).map(|o| &o.kind) {
        Some(Kind::Shape(s)) => s.text.lines().next().unwrap_or("").to_string(),
        _ => "?".into(),
    };
    page.objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) => Some(format!("{} {:?}", s.geom.name(), s.text)),
            Kind::Connector(c) => {
                let (End::Object(a), End::Object(b)) = (&c.from, &c.to) else {
                    return Some("a connector with a free end".into());
                };
                Some(format!(
                    "{} {}-{:?}-{} {} {:?}",
                    title(a),
                    c.start_arrow.name(),
                    c.style.dash,
                    c.end_arrow.name(),
                    title(b),
                    c.text
                ))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn diagrams_go_to_drawio_and_back() {
    for input in fixtures().iter().filter(|p| !name(p).starts_with("bad-")) {
        let name = name(input);
        let er = er::parse(&std::fs::read_to_string(input).expect("read")).expect("parse");
        let board = board_of(&er);
        let xml = inkboard_interop::to_drawio(&board);
        assert!(xml.contains("shape=table;"), "{name}: no draw.io table");
        let back = inkboard_interop::import(xml.as_bytes(), Some("er.drawio"))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(drawn(&back.board), drawn(&board), "{name}\n{xml}");
        assert!(back.lost.is_empty(), "{name}: lost {:?}", back.lost);
    }
}

#[test]
fn every_end_kind_has_its_drawio_name() {
    let er = er::parse("erDiagram\nA |o--o{ B : x\nB }|..|| C : y\nC ||--|{ A : z").expect("parse");
    let xml = inkboard_interop::to_drawio(&board_of(&er));
    for name in ["ERzeroToOne", "ERzeroToMany", "ERoneToMany", "ERmandOne"] {
        assert!(xml.contains(name), "{name} missing:\n{xml}");
    }
}

#[test]
fn crows_feet_go_to_excalidraw_and_back() {
    let er = er::parse("erDiagram\nA |o--o{ B : x\nB }|..|| C : y").expect("parse");
    let board = board_of(&er);
    let json = inkboard_interop::to_excalidraw(&board, board.pages()[0].id);
    assert!(json.contains("crowfoot_many"), "{json}");
    let back = inkboard_interop::import(json.as_bytes(), Some("er.excalidraw")).expect("import");
    let ends = |b: &Board| -> Vec<String> {
        b.pages()[0]
            .objects
            .iter()
            .filter_map(|o| match &o.kind {
                Kind::Connector(c) => {
                    Some(format!("{} {}", c.start_arrow.name(), c.end_arrow.name()))
                }
                _ => None,
            })
            .collect()
    };
    assert_eq!(ends(&back.board), ends(&board));
}
