//! Mermaid state diagrams read (issue 32, item 4): each `tests/state/NAME.mmd`
//! (sources and licences in `SOURCES.md`) is parsed and what the reader made of
//! it (states with their kinds and composite states, transitions, notes beside
//! states, what was left out), or its error with line and column, is compared
//! with `NAME.expect` beside it. Fixtures named `bad-*` must fail, the others
//! must not. The state shapes go to draw.io as its own shapes and come back;
//! draw.io's `startState` and `endState` are read. (The round trips of whole
//! imported diagrams, which need the layout, are `inkboard-tools`'
//! `state_renders`.) Refresh with
//! `UPDATE_EXPECT=1 cargo test -p inkboard-interop --test state`.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use inkboard_core::{
    Actor, Arrow, Board, Color, Connector, End, Geom, Kind, Palette, Rect, Rotation, Shape, Sizing,
    Style, Transaction, Vocabulary,
};
use inkboard_interop::mermaid::state::{Endpoint, StateDiagram};
use inkboard_interop::mermaid::{read, Diagram};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/state")
}

fn fixtures() -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("tests/state")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mmd"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 20, "fixtures missing");
    inputs
}

/// What the reader made of a diagram: a line per composite, state, transition
/// and note.
fn summary(d: &StateDiagram) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "direction {:?}", d.direction);
    let within = |p: Option<usize>| p.map_or("top".to_string(), |c| d.composites[c].id.clone());
    for c in &d.composites {
        let _ = writeln!(
            out,
            "{} {:?} {:?} in {} direction {:?} (line {})",
            if c.region { "region" } else { "composite" },
            c.id,
            c.title,
            within(c.parent),
            c.direction,
            c.line
        );
    }
    for s in &d.states {
        let _ = writeln!(
            out,
            "state {:?} {:?} {:?} in {} (line {})",
            s.kind,
            s.id,
            s.label,
            within(s.parent),
            s.line
        );
    }
    let name = |e: Endpoint| match e {
        Endpoint::State(s) => format!("{}#{s}", d.states[s].id),
        Endpoint::Composite(c) => format!("{{{}}}", d.composites[c].id),
    };
    for t in &d.transitions {
        let _ = writeln!(
            out,
            "transition {} --> {} {:?} (line {})",
            name(t.from),
            name(t.to),
            t.label,
            t.line
        );
    }
    for n in &d.notes_beside {
        let side = if n.left { "left" } else { "right" };
        let _ = writeln!(
            out,
            "note {side} of {} {:?} (line {})",
            name(n.of),
            n.text,
            n.line
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

#[test]
fn fixtures_read_as_expected() {
    for input in fixtures() {
        let name = input.file_stem().and_then(|n| n.to_str()).expect("a name");
        let text = std::fs::read_to_string(&input).expect("read a fixture");
        let actual = match read(&text) {
            Ok(Diagram::State(d)) => {
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

/// A board of every state mark joined in a line: a start, a fork bar, a state,
/// a choice and an end, the end drawn in red.
fn marks() -> Board {
    let mut board = Board::new("state", &["States".to_string()]);
    let page = board.pages()[0].id;
    let mut tx = Transaction::begin(&mut board);
    let black = Style {
        fill: Some(Color::Named(Palette::Black)),
        stroke: Some(Color::Named(Palette::Black)),
        ..Style::default()
    };
    let shapes = [
        (Geom::Ellipse, 24.0, 24.0, "", black.clone()),
        (Geom::Rect, 80.0, 8.0, "", black),
        (Geom::Rounded, 120.0, 44.0, "Working", Style::default()),
        (Geom::Diamond, 32.0, 32.0, "", Style::default()),
        (
            Geom::EndState,
            28.0,
            28.0,
            "",
            Style {
                stroke: Some(Color::Named(Palette::Red)),
                ..Style::default()
            },
        ),
    ];
    let mut ids = Vec::new();
    for (i, (geom, w, h, text, style)) in shapes.into_iter().enumerate() {
        let shape = Shape {
            geom,
            bounds: Rect::new(0.0, i as f64 * 100.0, w, h),
            text: text.into(),
            style,
            sizing: Sizing::Fixed,
            rotation: Rotation::NONE,
            icon: None,
        };
        ids.push(tx.add(page, None, Kind::Shape(shape)).expect("add"));
    }
    for pair in ids.windows(2) {
        let mut c = Connector::new(End::Object(pair[0].clone()), End::Object(pair[1].clone()));
        c.end_arrow = Arrow::Arrow;
        tx.add(page, None, Kind::Connector(c)).expect("connect");
    }
    tx.commit(Actor::Agent).expect("commit");
    board
}

/// Each shape's geom, fill, outline and text: what a round trip keeps.
fn shapes(board: &Board) -> Vec<String> {
    board.pages()[0]
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) => Some(format!(
                "{} fill {:?} stroke {:?} {:?}",
                s.geom.name(),
                s.style.fill.map(Color::rgba),
                s.style.stroke.map(Color::rgba),
                s.text
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn state_marks_go_to_drawio_as_its_own_shapes_and_back() {
    let board = marks();
    let xml = inkboard_interop::to_drawio(&board);
    for style in ["shape=endState;", "ellipse;", "rhombus;", "rounded=0;"] {
        assert!(xml.contains(style), "{style} missing:\n{xml}");
    }
    // draw.io fills the end's disc with its fill colour: the outline's red.
    assert!(xml.contains("fillColor=#e53935;"), "{xml}");
    let back = inkboard_interop::import(xml.as_bytes(), Some("state.drawio")).expect("import");
    assert_eq!(shapes(&back.board), shapes(&board), "{xml}");
    assert!(back.lost.is_empty(), "lost {:?}", back.lost);
    assert_eq!(
        back.board.pages()[0]
            .objects
            .iter()
            .filter(|o| matches!(o.kind, Kind::Connector(_)))
            .count(),
        4
    );
}

#[test]
fn drawio_start_and_end_states_are_read() {
    // As draw.io's UML library writes them.
    let xml = r##"<mxfile><diagram name="S"><mxGraphModel><root>
<mxCell id="0"/><mxCell id="1" parent="0"/>
<mxCell id="a" value="" style="ellipse;html=1;shape=startState;fillColor=#000000;strokeColor=#ff0000;" vertex="1" parent="1"><mxGeometry x="10" y="10" width="30" height="30" as="geometry"/></mxCell>
<mxCell id="b" value="" style="ellipse;html=1;shape=endState;fillColor=#000000;strokeColor=#ff0000;" vertex="1" parent="1"><mxGeometry x="10" y="90" width="30" height="30" as="geometry"/></mxCell>
<mxCell id="c" value="" style="ellipse;html=1;shape=startState;" vertex="1" parent="1"><mxGeometry x="90" y="10" width="30" height="30" as="geometry"/></mxCell>
</root></mxGraphModel></diagram></mxfile>"##;
    let back = inkboard_interop::import(xml.as_bytes(), Some("uml.drawio")).expect("import");
    assert_eq!(
        shapes(&back.board),
        [
            "ellipse fill Some([0, 0, 0, 255]) stroke Some([255, 0, 0, 255]) \"\"",
            "end_state fill None stroke Some([255, 0, 0, 255]) \"\"",
            "ellipse fill Some([33, 33, 33, 255]) stroke None \"\"",
        ]
    );
}

#[test]
fn the_end_state_goes_to_excalidraw_as_a_circle_and_back() {
    let board = marks();
    let json = inkboard_interop::to_excalidraw(&board, board.pages()[0].id);
    assert!(json.contains("\"end_state\""), "{json}");
    let back = inkboard_interop::import(json.as_bytes(), Some("state.excalidraw")).expect("import");
    let geoms = |b: &Board| -> Vec<String> {
        b.pages()[0]
            .objects
            .iter()
            .filter_map(|o| match &o.kind {
                Kind::Shape(s) => Some(s.geom.name().to_string()),
                _ => None,
            })
            .collect()
    };
    assert_eq!(geoms(&back.board), geoms(&board));
}
