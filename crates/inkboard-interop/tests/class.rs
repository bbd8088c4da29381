//! Mermaid class diagrams read and written (issue 32, item 3): each
//! `tests/class/NAME.mmd` (sources and licences in `SOURCES.md`) is parsed and
//! what the reader made of it (classes with their annotation, attributes and
//! methods, relations with their ends and cardinalities, namespaces, notes, what
//! was left out), or its error with line and column, is compared with
//! `NAME.expect` beside it. Fixtures named `bad-*` must fail, the others must
//! not. Then each diagram is made into a board of class tables, UML connectors
//! and sticky notes, and taken round: to Mermaid and back (the same classes,
//! members and relations) and to draw.io and back (the same tables, ends,
//! dashes, cardinalities and labels). Refresh with
//! `UPDATE_EXPECT=1 cargo test -p inkboard-interop --test class`.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use inkboard_core::{
    Actor, Arrow, Board, Connector, Dash, End, Geom, Kind, Rect, Rotation, Shape, Sizing, Style,
    Transaction, Vocabulary,
};
use inkboard_interop::mermaid::class::{self, ClassDiagram};
use inkboard_interop::mermaid::{read, to_mermaid, Diagram};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/class")
}

fn fixtures() -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("tests/class")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mmd"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 20, "fixtures missing");
    inputs
}

fn name(p: &Path) -> String {
    p.file_stem()
        .and_then(|n| n.to_str())
        .expect("a name")
        .to_string()
}

/// What the reader made of a diagram: a line per class and member, then per
/// relation, namespace and note.
fn summary(d: &ClassDiagram) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "direction {:?}", d.direction);
    for c in &d.classes {
        let _ = writeln!(
            out,
            "class {:?} {:?} <<{}>> in {:?} (line {})",
            c.id,
            c.label,
            c.annotation.as_deref().unwrap_or(""),
            c.namespace.map(|n| d.namespaces[n].name.as_str()),
            c.line
        );
        for a in &c.attributes {
            let _ = writeln!(out, "  attribute {a}");
        }
        for m in &c.methods {
            let _ = writeln!(out, "  method {m}");
        }
    }
    for r in &d.relations {
        let _ = writeln!(out, "relation {} (line {})", relation(d, r), r.line);
    }
    for n in &d.namespaces {
        let _ = writeln!(
            out,
            "namespace {:?} parent {:?} (line {})",
            n.name, n.parent, n.line
        );
    }
    for s in &d.stickies {
        let _ = writeln!(
            out,
            "note {:?} for {:?} (line {})",
            s.text,
            s.class.map(|c| d.classes[c].id.as_str()),
            s.line
        );
    }
    for n in d.report() {
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

/// A relation by class labels, its ends, line, cardinalities and label.
fn relation(d: &ClassDiagram, r: &class::Relation) -> String {
    format!(
        "{} {:?} {}{}{} {:?} {} {:?}",
        d.classes[r.from].label,
        r.from_cardinality,
        r.from_end.name(),
        if r.dashed { ".." } else { "--" },
        r.to_end.name(),
        r.to_cardinality,
        d.classes[r.to].label,
        r.label
    )
}

#[test]
fn fixtures_read_as_expected() {
    for input in fixtures() {
        let name = name(&input);
        let text = std::fs::read_to_string(&input).expect("read a fixture");
        let actual = match read(&text) {
            Ok(Diagram::Class(d)) => {
                assert!(!name.starts_with("bad-"), "{name} should fail");
                summary(&d)
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

/// A board of the diagram: a table per class in a row, a frame around each
/// namespace's, a connector per relation, a sticky note per note (joined to
/// its class by a dashed line). No layout: the round trips are about what the
/// objects say.
fn board_of(d: &ClassDiagram) -> Board {
    let mut board = Board::new("class", &["Classes".to_string()]);
    let page = board.pages()[0].id;
    let mut tx = Transaction::begin(&mut board);
    let shape = |geom, bounds, text| Shape {
        geom,
        bounds,
        text,
        style: Style::default(),
        sizing: Sizing::Fixed,
        rotation: Rotation::NONE,
        icon: None,
    };
    for (n, ns) in d.namespaces.iter().enumerate() {
        let xs: Vec<f64> = d
            .classes
            .iter()
            .enumerate()
            .filter(|(_, c)| c.namespace == Some(n))
            .map(|(i, _)| i as f64 * 300.0)
            .collect();
        let (lo, hi) = (
            xs.iter().copied().fold(f64::MAX, f64::min),
            xs.iter().copied().fold(f64::MIN, f64::max),
        );
        if xs.is_empty() {
            continue;
        }
        let bounds = Rect::new(lo - 20.0, -60.0, hi - lo + 300.0, 500.0);
        tx.add(
            page,
            None,
            Kind::Shape(shape(Geom::Frame, bounds, ns.name.clone())),
        )
        .expect("add a frame");
    }
    let mut ids = Vec::new();
    for (i, c) in d.classes.iter().enumerate() {
        let rows = c.attributes.len() + c.methods.len();
        let bounds = Rect::new(i as f64 * 300.0, 0.0, 260.0, 60.0 + 24.0 * rows as f64);
        let s = shape(Geom::Table, bounds, c.table_text());
        ids.push(tx.add(page, None, Kind::Shape(s)).expect("add a table"));
    }
    for r in &d.relations {
        let c: Connector = r.connector(
            End::Object(ids[r.from].clone()),
            End::Object(ids[r.to].clone()),
        );
        tx.add(page, None, Kind::Connector(c))
            .expect("add a connector");
    }
    for (i, s) in d.stickies.iter().enumerate() {
        let bounds = Rect::new(i as f64 * 200.0, 800.0, 160.0, 100.0);
        let note = tx
            .add(
                page,
                None,
                Kind::Shape(shape(Geom::Note, bounds, s.text.clone())),
            )
            .expect("add a note");
        if let Some(c) = s.class {
            let mut line = Connector::new(End::Object(note), End::Object(ids[c].clone()));
            line.end_arrow = Arrow::None;
            line.style.dash = Some(Dash::Dashed);
            tx.add(page, None, Kind::Connector(line))
                .expect("add a line");
        }
    }
    tx.commit(Actor::Agent).expect("commit");
    board
}

fn classes(d: &ClassDiagram) -> Vec<String> {
    d.classes
        .iter()
        .map(|c| {
            format!(
                "{} <<{}>> {:?} {:?} in {:?}",
                c.label,
                c.annotation.as_deref().unwrap_or(""),
                c.attributes,
                c.methods,
                c.namespace.map(|n| d.namespaces[n].name.as_str())
            )
        })
        .collect()
}

fn relations(d: &ClassDiagram) -> Vec<String> {
    d.relations.iter().map(|r| relation(d, r)).collect()
}

fn stickies(d: &ClassDiagram) -> Vec<String> {
    d.stickies
        .iter()
        .map(|s| {
            format!(
                "{:?} for {:?}",
                s.text,
                s.class.map(|c| &d.classes[c].label)
            )
        })
        .collect()
}

#[test]
fn diagrams_go_to_mermaid_and_back() {
    for input in fixtures().iter().filter(|p| !name(p).starts_with("bad-")) {
        let name = name(input);
        let d = class::parse(&std::fs::read_to_string(input).expect("read")).expect("parse");
        let board = board_of(&d);
        let text = to_mermaid(&board, board.pages()[0].id);
        assert!(text.starts_with("classDiagram\n"), "{name}: {text}");
        let back = class::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(classes(&back), classes(&d), "{name}: classes\n{text}");
        assert_eq!(relations(&back), relations(&d), "{name}: relations\n{text}");
        assert_eq!(stickies(&back), stickies(&d), "{name}: notes\n{text}");
    }
}

/// A board's tables, notes and connectors as text: what the draw.io round trip
/// keeps.
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
                    "{} {:?} {}-{:?}-{} {:?} {} {:?}",
                    title(a),
                    c.start_label(),
                    c.start_arrow.name(),
                    c.style.dash,
                    c.end_arrow.name(),
                    c.end_label(),
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
        let d = class::parse(&std::fs::read_to_string(input).expect("read")).expect("parse");
        let board = board_of(&d);
        let xml = inkboard_interop::to_drawio(&board);
        assert!(xml.contains("shape=table;"), "{name}: no draw.io table");
        let back = inkboard_interop::import(xml.as_bytes(), Some("class.drawio"))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(drawn(&back.board), drawn(&board), "{name}\n{xml}");
        assert!(back.lost.is_empty(), "{name}: lost {:?}", back.lost);
    }
}

#[test]
fn uml_ends_have_their_drawio_styles() {
    let d =
        class::parse("classDiagram\nA <|-- B\nC *-- D\nE o-- F\nG ..> H\nI ..|> J").expect("parse");
    let xml = inkboard_interop::to_drawio(&board_of(&d));
    for style in [
        "startArrow=block;endArrow=none;startFill=0;",
        "startArrow=diamondThin;endArrow=none;",
        "startArrow=diamondThin;endArrow=none;startFill=0;",
        "startArrow=none;endArrow=open;",
        "startArrow=none;endArrow=block;endFill=0;",
        "dashed=1;",
    ] {
        assert!(xml.contains(style), "{style} missing:\n{xml}");
    }
}

#[test]
fn uml_ends_go_to_excalidraw_and_back() {
    let d = class::parse("classDiagram\nA <|-- B\nC o--* D\nE ..|> F").expect("parse");
    let board = board_of(&d);
    let json = inkboard_interop::to_excalidraw(&board, board.pages()[0].id);
    assert!(json.contains("triangle_outline"), "{json}");
    let back = inkboard_interop::import(json.as_bytes(), Some("class.excalidraw")).expect("import");
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

/// draw.io's own UML class (its palette's swimlane stacking text rows and
/// `line` separators) comes in as a class table: its name, its rows as
/// members, a separator as the methods' compartment.
#[test]
fn drawios_own_uml_classes_come_in_as_class_tables() {
    let xml = std::fs::read(dir().join("drawio-template-uml_1.xml")).expect("the template");
    let back = inkboard_interop::import(&xml, Some("uml_1.xml")).expect("import");
    let classes: Vec<inkboard_core::Table> = back.board.pages()[0]
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) if s.geom == Geom::Table => Some(inkboard_core::Table::parse(&s.text)),
            _ => None,
        })
        .collect();
    assert!(classes.len() >= 2, "{classes:?}");
    for c in &classes {
        assert_eq!(c.title, "Classname");
        assert!(c.is_class(), "{c:?}");
        assert!(
            c.compartments[0].iter().all(|r| r == &["+ field: type"]),
            "{c:?}"
        );
    }
    let hand = r#"<mxfile><diagram name="P"><mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>
<mxCell id="c" value="&lt;i&gt;«interface»&lt;/i&gt;&lt;br&gt;&lt;b&gt;Shape&lt;/b&gt;" style="swimlane;html=1;fontStyle=1;childLayout=stackLayout;startSize=40;" vertex="1" parent="1"><mxGeometry x="0" y="0" width="160" height="120" as="geometry"/></mxCell>
<mxCell id="f" value="- sides: int" style="text;strokeColor=none;fillColor=none;align=left;" vertex="1" parent="c"><mxGeometry y="40" width="160" height="26" as="geometry"/></mxCell>
<mxCell id="l" value="" style="line;strokeWidth=1;fillColor=none;" vertex="1" parent="c"><mxGeometry y="66" width="160" height="8" as="geometry"/></mxCell>
<mxCell id="m" value="+ area(): double&lt;br&gt;+ draw()" style="text;html=1;strokeColor=none;fillColor=none;align=left;" vertex="1" parent="c"><mxGeometry y="74" width="160" height="40" as="geometry"/></mxCell>
</root></mxGraphModel></diagram></mxfile>"#;
    let back = inkboard_interop::import(hand.as_bytes(), Some("shape.drawio")).expect("import");
    let texts: Vec<&str> = back.board.pages()[0]
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) => Some(s.text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        texts,
        ["<<interface>> Shape\n- sides: int\n---\n+ area(): double\n+ draw()"]
    );
}
