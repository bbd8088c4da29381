//! State diagrams drawn (issue 32, item 4): each fixture of
//! `inkboard-interop/tests/state/` (Mermaid's documentation examples and ours,
//! sources in its `SOURCES.md`) is imported with `import_mermaid` into a new
//! board and held to rules that fail on their own whatever the pictures say:
//!
//! - `problems`: the checker (`inkboard_render::check`) finds nothing on the
//!   page: no label over a line, an arrowhead, a shape or another label, no
//!   shapes overlapping;
//! - `shapes`: one shape per state, of its kind (a filled circle, an end ring,
//!   a diamond, a bar across the flow, a rounded box with its label), one frame
//!   per composite state or region holding its states, one sticky note per
//!   note, beside its state and overlapping nothing;
//! - `transitions`: one connector per transition, its label its text;
//! - round trips: the board exported to Mermaid reads back to the same states,
//!   composite states, transitions and notes (a diagram without a start or an
//!   end is a flowchart of rounded boxes to the exporter); through draw.io it
//!   comes back with the same shapes and connectors.
//!
//! Its drawing is kept as reference renders, `tests/state/NAME.svg` and
//! `NAME.png` (`UPDATE_EXPECT=1 cargo test -p inkboard-tools --test
//! state_renders` rewrites them: look at the PNGs before committing).

mod common;

use std::path::{Path, PathBuf};

use inkboard_core::{Board, End, Geom, Kind, Object, Vocabulary};
use inkboard_interop::mermaid::state::{self, Endpoint, StateDiagram, StateKind};
use inkboard_tools::Engine;
use serde_json::json;

use common::pictures::{check_drawing, mermaid_fixtures};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../inkboard-interop/tests/state")
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/state")
}

/// Imports `text` into a new board in `folder` and reads it back.
fn imported(folder: &Path, text: &str) -> Board {
    let path = folder.join("state.inkboard");
    let engine = Engine::new();
    engine
        .call("create_board", json!({"path": path, "overwrite": true}))
        .expect("create_board");
    engine
        .call("import_mermaid", json!({"path": path, "text": text}))
        .expect("import_mermaid");
    inkboard_format::load(&path).expect("load").board
}

fn shapes(board: &Board) -> Vec<(&Object, &inkboard_core::Shape)> {
    board.pages()[0]
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) => Some((o, s)),
            _ => None,
        })
        .collect()
}

/// The rules' failures for one board drawn from `d`.
fn rules(name: &str, board: &Board, d: &StateDiagram) -> Vec<String> {
    let mut failures = Vec::new();
    let page = &board.pages()[0];
    for p in inkboard_render::check(board, page.id) {
        failures.push(format!("{name}: problems: {:?} {}", p.kind, p.message));
    }
    let all = shapes(board);
    let frames: Vec<_> = all.iter().filter(|(_, s)| s.geom == Geom::Frame).collect();
    let notes: Vec<_> = all.iter().filter(|(_, s)| s.geom == Geom::Note).collect();
    let states: Vec<_> = all
        .iter()
        .filter(|(_, s)| !matches!(s.geom, Geom::Frame | Geom::Note))
        .collect();
    if states.len() != d.states.len()
        || frames.len() != d.composites.len()
        || notes.len() != d.notes_beside.len()
    {
        failures.push(format!(
            "{name}: shapes: {} states, {} frames, {} notes",
            states.len(),
            frames.len(),
            notes.len()
        ));
        return failures;
    }
    // Shapes come in the order of the diagram's states, frames at the back,
    // outer ones first, else in the order of the composites.
    let mut by_depth: Vec<usize> = (0..d.composites.len()).collect();
    by_depth.sort_by_key(|&c| d.enclosing(d.composites[c].parent).count());
    let frame_of = |c: usize| {
        let at = by_depth.iter().position(|&k| k == c).expect("a frame");
        &frames[at].1.bounds
    };
    for ((_, s), st) in states.iter().zip(&d.states) {
        let ok = match st.kind {
            StateKind::Plain => s.geom == Geom::Rounded && s.text == st.label,
            StateKind::Start => s.geom == Geom::Ellipse && s.style.fill.is_some(),
            StateKind::End => s.geom == Geom::EndState,
            StateKind::Choice => s.geom == Geom::Diamond,
            StateKind::Fork | StateKind::Join => {
                let across = matches!(
                    d.direction_in(st.parent),
                    inkboard_interop::mermaid::Direction::Down
                        | inkboard_interop::mermaid::Direction::Up
                );
                s.geom == Geom::Rect && (s.bounds.w > s.bounds.h) == across
            }
        };
        let held = d
            .enclosing(st.parent)
            .all(|c| frame_of(c).contains(&s.bounds));
        if !ok || !held {
            failures.push(format!(
                "{name}: shapes: {:?} {:?} drawn as {} at {:?} (held: {held})",
                st.kind,
                st.id,
                s.geom.name(),
                s.bounds
            ));
        }
    }
    for note in &d.notes_beside {
        // Notes on states come before notes on composite states: found by text.
        let Some((id, n)) = notes
            .iter()
            .find(|(_, s)| inkboard_core::rich::plain(&s.text) == note.text)
        else {
            failures.push(format!("{name}: notes: {:?} missing", note.text));
            continue;
        };
        let of = match note.of {
            Endpoint::State(s) => states[s].1.bounds,
            Endpoint::Composite(c) => *frame_of(c),
        };
        let side_ok = if note.left {
            n.bounds.right() <= of.x
        } else {
            n.bounds.x >= of.right()
        };
        let level = n.bounds.y < of.bottom() && n.bounds.bottom() > of.y;
        let clear = all
            .iter()
            .filter(|(o, s)| o.id != id.id && s.geom != Geom::Frame)
            .all(|(_, s)| !s.bounds.overlaps(&n.bounds));
        if !side_ok || !level || !clear {
            failures.push(format!(
                "{name}: notes: {:?} at {:?}, its state at {of:?}",
                n.text, n.bounds
            ));
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
    if connectors.len() != d.transitions.len() {
        failures.push(format!(
            "{name}: transitions: {} connectors",
            connectors.len()
        ));
    }
    for (c, t) in connectors.iter().zip(&d.transitions) {
        let bound = matches!((&c.from, &c.to), (End::Object(_), End::Object(_)));
        if !bound || c.text != t.label {
            failures.push(format!(
                "{name}: transitions: {:?} for line {}",
                c.text, t.line
            ));
        }
    }
    failures
}

/// What a diagram says, by labels: its direction, states by kind and label in
/// their composite's title, transitions by their ends' labels. Round trips
/// keep it.
fn said(d: &StateDiagram) -> Vec<String> {
    let within = |p: Option<usize>| -> String {
        let titles: Vec<&str> = d
            .enclosing(p)
            .map(|c| d.composites[c].title.as_str())
            .collect();
        titles.join("<")
    };
    let end = |e: Endpoint| match e {
        Endpoint::State(s) => format!(
            "{:?} {:?} in {}",
            d.states[s].kind,
            d.states[s].label,
            within(d.states[s].parent)
        ),
        Endpoint::Composite(c) => format!("{{{}}}", d.composites[c].title),
    };
    let mut out: Vec<String> = d
        .states
        .iter()
        .map(|s| format!("state {:?} {:?} in {}", s.kind, s.label, within(s.parent)))
        .collect();
    out.extend(
        d.composites
            .iter()
            .map(|c| format!("composite {:?} in {}", c.title, within(c.parent))),
    );
    out.extend(
        d.transitions
            .iter()
            .map(|t| format!("{} --> {} {:?}", end(t.from), end(t.to), t.label)),
    );
    out.extend(
        d.notes_beside
            .iter()
            .map(|n| format!("note {} {} {:?}", n.left, end(n.of), n.text)),
    );
    out.sort();
    out.insert(0, format!("direction {:?}", d.direction));
    out
}

/// What a board shows: each shape's geom, fill and text, each connector's
/// ends' texts and its own.
fn drawn(board: &Board) -> Vec<String> {
    let page = &board.pages()[0];
    let text = |id: &inkboard_core::ObjectId| match board.object(id).map(|o| &o.kind) {
        Some(Kind::Shape(s)) => format!("{}:{}", s.geom.name(), s.text),
        _ => "?".into(),
    };
    let mut out: Vec<String> = page
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) => Some(format!(
                "{} {:?} fill {:?} dash {:?}",
                s.geom.name(),
                s.text,
                s.style.fill.map(inkboard_core::Color::rgba),
                s.style.dash
            )),
            Kind::Connector(c) => {
                let (End::Object(a), End::Object(b)) = (&c.from, &c.to) else {
                    return Some("a free end".into());
                };
                Some(format!("{} -> {} {:?}", text(a), text(b), c.text))
            }
            _ => None,
        })
        .collect();
    out.sort();
    out
}

#[test]
fn state_diagrams_draw_clean_and_go_round() {
    let runtime = tempfile::tempdir().expect("runtime dir");
    // SAFETY: set before any engine runs in this process; no other thread reads it yet.
    unsafe { std::env::set_var("INKBOARD_RUNTIME_DIR", runtime.path()) };
    let mut failures = Vec::new();
    for input in &mermaid_fixtures(&fixtures(), 20) {
        let name = input.file_stem().and_then(|n| n.to_str()).expect("a name");
        let text = std::fs::read_to_string(input).expect("read");
        let diagram = state::parse(&text).expect("parse");
        let folder = tempfile::tempdir().expect("a folder");
        let board = imported(folder.path(), &text);
        failures.extend(rules(name, &board, &diagram));
        check_drawing(&board, name, &dir(), &mut failures);

        let mmd = inkboard_interop::mermaid::to_mermaid(&board, board.pages()[0].id);
        let marked = diagram
            .states
            .iter()
            .any(|s| matches!(s.kind, StateKind::Start | StateKind::End));
        if !marked {
            // Without a start or an end nothing tells the page from a
            // flowchart of rounded boxes: it is exported as one.
            if !mmd.starts_with("flowchart") {
                failures.push(format!("{name}: Mermaid: {mmd}"));
            }
        } else {
            match state::parse(&mmd) {
                Ok(back) if said(&back) == said(&diagram) => {}
                Ok(back) => failures.push(format!(
                    "{name}: Mermaid round trip:\n{mmd}\n{:#?}\nvs\n{:#?}",
                    said(&back),
                    said(&diagram)
                )),
                Err(e) => failures.push(format!("{name}: Mermaid round trip: {e}\n{mmd}")),
            }
        }
        let xml = inkboard_interop::to_drawio(&board);
        match inkboard_interop::import(xml.as_bytes(), Some("state.drawio")) {
            Ok(back) if drawn(&back.board) == drawn(&board) && back.lost.is_empty() => {}
            Ok(back) => failures.push(format!(
                "{name}: draw.io round trip: {:#?}\nvs\n{:#?}\nlost {:?}",
                drawn(&back.board),
                drawn(&board),
                back.lost
            )),
            Err(e) => failures.push(format!("{name}: draw.io round trip: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
