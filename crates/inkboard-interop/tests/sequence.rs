//! Mermaid sequence diagrams read (issue 32, item 1): each `tests/sequence/NAME.mmd`
//! (sources and licences in `SOURCES.md`) is parsed and what the reader made of
//! it (participants, events in order, the frames' titles and the notes of what
//! was left out), or its error with line and column, is compared with
//! `NAME.expect` beside it. Fixtures named `bad-*` must fail, the others must
//! not. Refresh with `UPDATE_EXPECT=1 cargo test -p inkboard-interop --test sequence`.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use inkboard_interop::mermaid::sequence::{self, Event, Head, NotePlace, Sequence};
use inkboard_interop::mermaid::{read, Diagram};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sequence")
}

fn head(h: Head) -> &'static str {
    match h {
        Head::None => "none",
        Head::Filled => "filled",
        Head::Open => "open",
        Head::Cross => "cross",
    }
}

/// What the reader made of a diagram, a line per participant and event.
fn summary(s: &Sequence) -> String {
    let mut out = String::new();
    let name = |i: usize| s.participants[i].id.as_str();
    for p in &s.participants {
        let _ = writeln!(
            out,
            "participant {:?} {:?} {:?} (line {})",
            p.id, p.label, p.kind, p.line
        );
    }
    for e in &s.events {
        let _ = match e {
            Event::Message(m) => writeln!(
                out,
                "message {} -> {} {} {}..{}{}{} {:?} (line {})",
                name(m.from),
                name(m.to),
                if m.dashed { "dashed" } else { "solid" },
                head(m.start),
                head(m.end),
                if m.activate { " +" } else { "" },
                if m.deactivate { " -" } else { "" },
                m.text,
                m.line
            ),
            Event::Note(n) => {
                let place = match n.place {
                    NotePlace::LeftOf(a) => format!("left of {}", name(a)),
                    NotePlace::RightOf(a) => format!("right of {}", name(a)),
                    NotePlace::Over(a, b) if a == b => format!("over {}", name(a)),
                    NotePlace::Over(a, b) => format!("over {},{}", name(a), name(b)),
                };
                writeln!(out, "note {place} {:?} (line {})", n.text, n.line)
            }
            Event::Activate(p) => writeln!(out, "activate {}", name(*p)),
            Event::Deactivate(p) => writeln!(out, "deactivate {}", name(*p)),
            Event::Open { kind, label } => writeln!(out, "open {} {label:?}", kind.keyword()),
            Event::Section { label } => writeln!(out, "section {label:?}"),
            Event::Close => writeln!(out, "close"),
        };
    }
    let _ = writeln!(out, "frames {:?}", s.frame_titles());
    for n in s.report() {
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
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("tests/sequence")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mmd"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 20, "fixtures missing");
    for input in &inputs {
        let name = input.file_stem().and_then(|n| n.to_str()).expect("a name");
        let text = std::fs::read_to_string(input).expect("read a fixture");
        let actual = match read(&text) {
            Ok(Diagram::Sequence(s)) => {
                assert!(!name.starts_with("bad-"), "{name} should fail");
                summary(&s)
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

#[test]
fn the_header_picks_the_reader() {
    let sequence = "%% a comment\n%%{init: {\n  \"theme\": \"dark\"}}%%\n---\ntitle: x\n---\n  SequenceDiagram\nA->>B: hi";
    assert!(matches!(read(sequence), Ok(Diagram::Sequence(_))));
    assert!(matches!(read("graph TD\nA-->B"), Ok(Diagram::Flowchart(_))));
    assert_eq!(
        read("gantt\n  title A plan").unwrap_err().to_string(),
        "line 1, column 1: only Mermaid flowcharts, sequence, ER, state and class diagrams can be imported (a first line like 'flowchart TD', 'sequenceDiagram', 'erDiagram', 'stateDiagram-v2' or 'classDiagram'), found 'gantt'"
    );
}

#[test]
fn limits_are_errors_with_a_place() {
    let mut many = String::from("sequenceDiagram\n");
    for i in 0..=sequence::MAX_PARTICIPANTS {
        many.push_str(&format!("participant P{i}\n"));
    }
    let e = sequence::parse(&many).unwrap_err().to_string();
    assert_eq!(
        e,
        format!(
            "line {}, column 13: more than {} participants: split the diagram into several imports",
            sequence::MAX_PARTICIPANTS + 2,
            sequence::MAX_PARTICIPANTS
        )
    );
    let deep = format!(
        "sequenceDiagram\n{}A->>B: hi\n",
        "loop x\n".repeat(sequence::MAX_DEPTH + 1)
    );
    assert!(sequence::parse(&deep)
        .unwrap_err()
        .to_string()
        .contains("blocks inside one another"));
    // Boxes are held to the same depth (they were not: 100,000 `box` lines
    // grew the list of open blocks unbounded).
    let boxes = format!(
        "sequenceDiagram\n{}A->>B: hi\n",
        "box x\n".repeat(sequence::MAX_DEPTH + 1)
    );
    assert!(sequence::parse(&boxes)
        .unwrap_err()
        .to_string()
        .contains("blocks inside one another"));
    let long = format!(
        "sequenceDiagram\n{}",
        "A->>B: hi\n".repeat(sequence::MAX_EVENTS + 1)
    );
    assert!(sequence::parse(&long)
        .unwrap_err()
        .to_string()
        .contains("more than 2000 messages"));
}

#[test]
fn no_text_makes_it_panic() {
    // Every prefix of a text using every construct, and every single-character
    // change of it, parses or fails cleanly.
    let text = std::fs::read_to_string(dir().join("nested.mmd")).expect("fixture")
        + "autonumber 5 2\nA<<-->>+B: x\nB--x-A: y\nNote left of A: n\ncritical c\nA-)A: z\noption o\nend\naccDescr {\nd\n}\n";
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for &(i, _) in &chars {
        let _ = sequence::parse(&text[..i]);
        for c in [
            '-', '>', '<', '+', ':', ';', ',', '\n', '@', '{', '}', 'x', ')', 'é',
        ] {
            let mut changed = text.clone();
            changed.insert(i, c);
            let _ = sequence::parse(&changed);
            let mut removed = text.clone();
            removed.remove(i);
            let _ = sequence::parse(&removed);
        }
    }
}
