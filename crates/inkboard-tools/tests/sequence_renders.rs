//! Sequence diagrams drawn (issue 32, item 1): each fixture of
//! `inkboard-interop/tests/sequence/` (Mermaid's documentation examples and
//! ours, sources in its `SOURCES.md`) is imported with `import_mermaid` into a
//! new board and held to rules that fail on their own whatever the pictures say:
//!
//! - `problems`: the checker (`inkboard_render::check`) finds nothing on the
//!   page: no label over a line, a shape or another label, nothing sticking out
//!   of a frame, no shapes overlapping;
//! - `lifelines`: every head has a dashed lifeline from its bottom straight down
//!   to a point;
//! - `order`: messages run top to bottom in the order written, each horizontal
//!   between two points (a self-message a loop out to the right and back);
//! - `titles`: no lifeline runs through a frame's title.
//!
//! Its drawing is kept as reference renders, `tests/sequence/NAME.svg` and
//! `NAME.png` (`UPDATE_EXPECT=1 cargo test -p inkboard-tools --test
//! sequence_renders` rewrites them: look at the PNGs before committing).

mod common;

use std::path::{Path, PathBuf};

use inkboard_core::{Board, Dash, End, Kind};
use inkboard_tools::Engine;
use serde_json::json;

use common::pictures::{check_drawing, mermaid_fixtures};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../inkboard-interop/tests/sequence")
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sequence")
}

/// Imports `text` into a new board in `folder` and reads it back.
fn imported(folder: &Path, text: &str) -> Board {
    let path = folder.join("seq.inkboard");
    let engine = Engine::new();
    engine
        .call("create_board", json!({"path": path, "overwrite": true}))
        .expect("create_board");
    engine
        .call("import_mermaid", json!({"path": path, "text": text}))
        .expect("import_mermaid");
    inkboard_format::load(&path).expect("load").board
}

/// The rules' failures for one board.
fn rules(name: &str, board: &Board) -> Vec<String> {
    let mut failures = Vec::new();
    let page = &board.pages()[0];
    for p in inkboard_render::check(board, page.id) {
        failures.push(format!("{name}: problems: {:?} {}", p.kind, p.message));
    }
    let heads: Vec<_> = page
        .objects
        .iter()
        .filter(|o| {
            matches!(&o.kind, Kind::Shape(s) if !o.is_frame() && !s.text.is_empty() && s.geom != inkboard_core::Geom::Note)
        })
        .collect();
    let mut last_y = f64::NEG_INFINITY;
    for o in &page.objects {
        let Kind::Connector(c) = &o.kind else {
            continue;
        };
        match (&c.from, &c.to) {
            (End::Object(head), End::Point(foot)) => {
                let Some(b) = board.bounds(head) else {
                    failures.push(format!("{name}: lifelines: {} has no head", o.id));
                    continue;
                };
                let straight = (foot.x - b.center().x).abs() < 0.01 && foot.y > b.bottom();
                if !straight || c.style.dash != Some(Dash::Dashed) {
                    failures.push(format!(
                        "{name}: lifelines: {} is not dashed straight down",
                        o.id
                    ));
                }
            }
            (End::Point(a), End::Point(b)) => {
                let loops = c.waypoints().len() == 2;
                if !loops && (a.y - b.y).abs() > 0.01 {
                    failures.push(format!("{name}: order: {} is not horizontal", o.id));
                }
                if loops && (b.x - a.x).abs() > 11.0 {
                    failures.push(format!(
                        "{name}: order: self-message {} does not come back",
                        o.id
                    ));
                }
                if a.y <= last_y {
                    failures.push(format!(
                        "{name}: order: {} is above the message before it",
                        o.id
                    ));
                }
                last_y = a.y.max(b.y);
            }
            _ => failures.push(format!(
                "{name}: {} is neither a lifeline nor a message",
                o.id
            )),
        }
    }
    let feet: Vec<f64> = page
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Connector(c) => match (&c.from, &c.to) {
                (End::Object(_), End::Point(p)) => Some(p.x),
                _ => None,
            },
            _ => None,
        })
        .collect();
    for o in &page.objects {
        let Kind::Shape(s) = &o.kind else { continue };
        if !o.is_frame() || s.text.is_empty() {
            continue;
        }
        // The title's text, as the frame's band draws it from its left.
        let w = inkboard_arrange::place::text_size(s.geom, &s.text, &s.style).0 - 20.0;
        let (l, r) = (s.bounds.x + 10.0, s.bounds.x + 10.0 + w);
        if feet.iter().any(|&x| x > l && x < r) {
            failures.push(format!(
                "{name}: titles: a lifeline runs through {:?}",
                s.text
            ));
        }
    }
    let lifelines = page
        .objects
        .iter()
        .filter(|o| matches!(&o.kind, Kind::Connector(c) if matches!(c.from, End::Object(_))))
        .count();
    if lifelines != heads.len() {
        failures.push(format!(
            "{name}: lifelines: {lifelines} for {} heads",
            heads.len()
        ));
    }
    failures
}

#[test]
fn sequence_diagrams_draw_clean() {
    let runtime = tempfile::tempdir().expect("runtime dir");
    // SAFETY: set before any engine runs in this process; no other thread reads it yet.
    unsafe { std::env::set_var("INKBOARD_RUNTIME_DIR", runtime.path()) };
    let mut failures = Vec::new();
    for input in &mermaid_fixtures(&fixtures(), 15) {
        let name = input.file_stem().and_then(|n| n.to_str()).expect("a name");
        let folder = tempfile::tempdir().expect("a folder");
        let board = imported(
            folder.path(),
            &std::fs::read_to_string(input).expect("read"),
        );
        failures.extend(rules(name, &board));
        check_drawing(&board, name, &dir(), &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The messages of page 0 as (text, y of the start, x of the start and end), top
/// to bottom.
fn messages(board: &Board) -> Vec<(String, f64, f64, f64)> {
    let mut out: Vec<_> = board.pages()[0]
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Connector(c) => match (&c.from, &c.to) {
                (End::Point(a), End::Point(b)) => Some((c.text.clone(), a.y.min(b.y), a.x, b.x)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    out.sort_by(|a, b| a.1.total_cmp(&b.1));
    out
}

/// Editing a drawn sequence diagram as a person does (issue 32, item 1): `move`
/// is what the editor's drag calls. A head moved across takes its lifeline, its
/// activation bar and its ends of messages; a message moved down takes its place
/// in the order, the others closing up, none moving across.
#[test]
fn a_participant_takes_its_column_and_a_message_takes_its_place() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("seq.inkboard");
    let text = "sequenceDiagram\n  Alice->>+John: one\n  John-->>-Alice: two\n  Alice->>Bob: three\n  Bob->>Bob: four\n  Bob->>John: five\n";
    let engine = Engine::new();
    engine
        .call("create_board", json!({"path": path}))
        .expect("create_board");
    engine
        .call("import_mermaid", json!({"path": path, "text": text}))
        .expect("import_mermaid");
    let before = inkboard_format::load(&path).expect("load").board;
    let page = &before.pages()[0];
    let head = |name: &str| {
        page.objects
            .iter()
            .find(|o| matches!(&o.kind, Kind::Shape(s) if s.text == name))
            .map(|o| o.id.clone())
            .expect("a head")
    };
    let john = head("John");
    let john_x = before.bounds(&john).expect("bounds").center().x;
    let bar = |board: &Board| {
        board.pages()[0]
            .objects
            .iter()
            .find_map(|o| match &o.kind {
                Kind::Shape(s) if s.text.is_empty() && s.bounds.w < 20.0 => {
                    Some(s.bounds.center().x)
                }
                _ => None,
            })
            .expect("an activation bar")
    };
    assert!(
        (bar(&before) - john_x).abs() < 10.0,
        "the bar stands on John's lifeline"
    );

    engine
        .call(
            "move",
            json!({"path": path, "ids": [john.to_string()], "dx": 300}),
        )
        .expect("move John");
    let moved = inkboard_format::load(&path).expect("load").board;
    let mut failures = rules("moved", &moved);
    failures.retain(|f| !f.contains("titles"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        (bar(&moved) - bar(&before) - 300.0).abs() < 0.01,
        "the bar went along"
    );
    for ((text, y0, a0, b0), (_, y1, a1, b1)) in messages(&before).iter().zip(messages(&moved)) {
        let near = |x: f64| (x - john_x).abs() < 25.0;
        let shift = |x: f64| if near(x) { 300.0 } else { 0.0 };
        assert_eq!(*y0, y1, "{text} stays on its row");
        assert!(
            (a1 - a0 - shift(*a0)).abs() < 0.01,
            "{text}'s start: {a0} -> {a1}"
        );
        assert!(
            (b1 - b0 - shift(*b0)).abs() < 0.01,
            "{text}'s end: {b0} -> {b1}"
        );
    }

    // "one" dragged down past "three": it goes after it, and the rows keep their
    // places and heights.
    let rows: Vec<f64> = messages(&moved).iter().map(|m| m.1).collect();
    let one = moved.pages()[0]
        .objects
        .iter()
        .find(|o| matches!(&o.kind, Kind::Connector(c) if c.text == "one"))
        .map(|o| o.id.clone())
        .expect("message one");
    let dy = rows[2] - rows[0] + 5.0;
    engine
        .call(
            "move",
            json!({"path": path, "ids": [one.to_string()], "dy": dy, "dx": 40}),
        )
        .expect("move a message");
    let after = inkboard_format::load(&path).expect("load").board;
    let order: Vec<String> = messages(&after).into_iter().map(|m| m.0).collect();
    assert_eq!(order, ["two", "three", "one", "four", "five"]);
    let tops: Vec<f64> = messages(&after).iter().map(|m| m.1).collect();
    assert_eq!(tops[0], rows[0], "the first row stays where it was");
    assert_eq!(tops[3], rows[3], "rows after the move's span stay");
    for ((text, _, a0, b0), (_, _, a1, b1)) in messages(&moved)
        .iter()
        .filter(|m| m.0 != "one")
        .zip(messages(&after).iter().filter(|m| m.0 != "one"))
    {
        assert_eq!((a0, b0), (a1, b1), "{text} moved across");
    }
    assert!(inkboard_render::check(&after, after.pages()[0].id).is_empty());
}

/// What a parsed diagram says, by participants' labels: what the round trips
/// keep. A bar starts and ends at the last message (wherever its `activate` or
/// `deactivate` is written after it, as the drawing shows it), so a message's
/// `+` and `-` and every `activate` and `deactivate` are listed right after
/// their message; a note over two lifelines names them left to right.
fn story(seq: &inkboard_interop::mermaid::Sequence) -> Vec<String> {
    use inkboard_interop::mermaid::sequence::{Event, NotePlace};
    let name = |i: usize| seq.participants[i].label.clone();
    let mut out: Vec<String> = seq
        .participants
        .iter()
        .map(|p| format!("{:?} {}", p.kind, p.label))
        .collect();
    // Where the next activation goes: after the last message and its activations.
    let mut after_message = out.len();
    for e in &seq.events {
        match e {
            Event::Message(m) => {
                after_message = out.len() + 1;
                out.push(format!(
                    "{} -> {}: {:?} dashed {} heads {:?} {:?}",
                    name(m.from),
                    name(m.to),
                    m.text,
                    m.dashed,
                    m.start,
                    m.end
                ));
                if m.activate {
                    out.push(format!("activate {}", name(m.to)));
                    after_message += 1;
                }
                if m.deactivate {
                    out.push(format!("deactivate {}", name(m.from)));
                    after_message += 1;
                }
            }
            Event::Note(n) => out.push(match n.place {
                NotePlace::LeftOf(i) => format!("note left of {}: {:?}", name(i), n.text),
                NotePlace::RightOf(i) => format!("note right of {}: {:?}", name(i), n.text),
                NotePlace::Over(i, j) => {
                    let (i, j) = (i.min(j), i.max(j));
                    format!("note over {},{}: {:?}", name(i), name(j), n.text)
                }
            }),
            Event::Activate(i) | Event::Deactivate(i) => {
                let verb = match e {
                    Event::Activate(_) => "activate",
                    _ => "deactivate",
                };
                out.insert(after_message, format!("{verb} {}", name(*i)));
                after_message += 1;
            }
            Event::Open { kind, label } => out.push(format!("{} {label:?}", kind.keyword())),
            Event::Section { label } => out.push(format!("section {label:?}")),
            Event::Close => out.push("end".into()),
        }
    }
    out
}

/// Each fixture imported, exported to `.mmd` with `export` and read again says
/// what its text said: the same participants, messages, activations, notes and
/// blocks, in the same order.
#[test]
fn sequence_diagrams_go_to_mermaid_and_back() {
    let mut failures = Vec::new();
    for input in &mermaid_fixtures(&fixtures(), 15) {
        let name = input.file_stem().and_then(|n| n.to_str()).expect("a name");
        let text = std::fs::read_to_string(input).expect("read");
        let folder = tempfile::tempdir().expect("a folder");
        let path = folder.path().join("seq.inkboard");
        let out = folder.path().join("seq.mmd");
        let engine = Engine::new();
        engine
            .call("create_board", json!({"path": path}))
            .expect("create_board");
        engine
            .call("import_mermaid", json!({"path": path, "text": text}))
            .expect("import_mermaid");
        engine
            .call("export", json!({"path": path, "output": out}))
            .expect("export");
        let written = std::fs::read_to_string(&out).expect("the export");
        let parse = inkboard_interop::mermaid::sequence::parse;
        let (want, got) = (parse(&text).expect("the fixture"), parse(&written));
        let Ok(got) = got else {
            failures.push(format!(
                "{name}: the export does not read: {got:?}\n{written}"
            ));
            continue;
        };
        let (want, got) = (story(&want), story(&got));
        if want != got {
            failures.push(format!(
                "{name}: read back otherwise:\n  want {want:#?}\n  got {got:#?}\n{written}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each fixture imported, exported to `.drawio` (every head with a box as
/// draw.io's own `umlLifeline`) and imported from it again is the same diagram:
/// its Mermaid text, which says everything the diagram holds, is the same.
#[test]
fn sequence_diagrams_go_to_drawio_and_back() {
    let mut failures = Vec::new();
    for input in &mermaid_fixtures(&fixtures(), 15) {
        let name = input.file_stem().and_then(|n| n.to_str()).expect("a name");
        let text = std::fs::read_to_string(input).expect("read");
        let folder = tempfile::tempdir().expect("a folder");
        let path = folder.path().join("seq.inkboard");
        let drawio = folder.path().join("seq.drawio");
        let back = folder.path().join("back.inkboard");
        let engine = Engine::new();
        engine
            .call("create_board", json!({"path": path}))
            .expect("create_board");
        engine
            .call("import_mermaid", json!({"path": path, "text": text}))
            .expect("import_mermaid");
        engine
            .call("export", json!({"path": path, "output": drawio}))
            .expect("export");
        let xml = std::fs::read_to_string(&drawio).expect("the export");
        let boxes = text.lines().filter(|l| l.contains("@{")).count();
        if !xml.contains("shape=umlLifeline") && boxes == 0 {
            failures.push(format!("{name}: no draw.io lifeline in the export"));
        }
        engine
            .call("import", json!({"source": drawio, "path": back}))
            .expect("import");
        let mermaid =
            |board: &Board| inkboard_interop::mermaid::to_mermaid(board, board.pages()[0].id);
        let before = mermaid(&inkboard_format::load(&path).expect("load").board);
        let after = mermaid(&inkboard_format::load(&back).expect("load").board);
        if before != after {
            failures.push(format!(
                "{name}: read back otherwise:\n{before}\n---\n{after}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A page of 3,000 participants joined in a chain of messages: moving a message
/// finds its diagram through the chain once (it walked all the messages again for
/// each lifeline it added, each time looking through those found: about 10^10
/// steps with the messages last first, as here), and the checker finds each
/// message's lifelines by a search, not a walk through all of them.
#[test]
fn a_long_chain_of_lifelines_is_reordered_and_checked_in_bounded_work() {
    const N: usize = 3_000;
    let (mut objects, mut messages) = (Vec::new(), Vec::new());
    for i in 0..N {
        let x = i as f64 * 150.0;
        objects.push(json!({"id": format!("s{}", 3 * i + 1), "type": "shape", "x": x, "y": 0, "w": 110, "h": 44, "text": format!("P{i}")}));
        objects.push(json!({"id": format!("c{}", 3 * i + 2), "type": "connector", "from": format!("s{}", 3 * i + 1), "to": {"x": x + 55.0, "y": 400}, "route": "straight", "end_arrow": "none"}));
        if i + 1 < N {
            let y = 60.0 + (i % 300) as f64;
            messages.push(json!({"id": format!("c{}", 3 * i + 3), "type": "connector", "from": {"x": x + 55.0, "y": y}, "to": {"x": x + 205.0, "y": y}, "route": "straight"}));
        }
    }
    // Last first: a walk of the messages in page order reaches one more lifeline a pass.
    objects.extend(messages.into_iter().rev());
    let board = json!({"format": "inkboard", "version": 3, "title": "chain", "next_id": 3 * N + 1,
        "pages": [{"id": "p1", "name": "Page 1", "objects": objects}]});
    let folder = tempfile::tempdir().expect("a folder");
    let path = folder.path().join("chain.inkboard");
    std::fs::write(&path, board.to_string()).expect("write");
    let engine = Engine::new();
    let started = std::time::Instant::now();
    engine
        .call("move", json!({"path": path, "ids": ["c3"], "dy": 1000}))
        .expect("move the first message");
    let after = inkboard_format::load(&path).expect("load").board;
    let page = &after.pages()[0];
    let first = page
        .objects
        .iter()
        .find(|o| o.id.as_str() == "c3")
        .expect("c3");
    let Kind::Connector(c) = &first.kind else {
        panic!("c3 is a connector")
    };
    let End::Point(p) = c.from else {
        panic!("a free end")
    };
    assert!(p.y > 300.0, "moved to the end of the order: {p:?}");
    let problems = inkboard_render::check(&after, page.id);
    assert!(problems
        .iter()
        .all(|p| p.kind != inkboard_render::ProblemKind::ShapeOverlap));
    // A guard against a stall, not a speed target (seconds in a debug build).
    assert!(
        started.elapsed() < std::time::Duration::from_secs(120),
        "{:?}",
        started.elapsed()
    );
}
