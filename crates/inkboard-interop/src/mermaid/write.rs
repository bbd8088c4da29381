//! A page as a Mermaid flowchart, for `export` to `.mmd` (a page of tables as
//! an ER diagram, [`super::er::to_er`], one with lifelines as a sequence diagram,
//! [`super::sequence::to_sequence`], one with a state diagram's start or end as a
//! state diagram, [`super::state::to_state`]): the other direction
//! of [`parse`](super::parse), which reads it back into the same graph (the
//! same nodes, labels and links).
//!
//! Shapes are nodes named by their ids, each written once with its label and
//! the Mermaid shape of its geom (the classic brackets, or the v11 `@{ shape }`
//! form for the triangle, note, cloud and text); frames are subgraphs, nested
//! as the frames lie inside one another, holding the shapes wholly inside them;
//! connectors between shapes or frames are links, with their label, dotted when
//! dashed or dotted, and their heads (`-->`, `---`, `<-->`, `--o`, `o--o`).
//! Labels are quoted, with `"`, `#`, `&`, `<`, `>` and backticks written as
//! Mermaid's entities and line breaks as `<br>`.
//!
//! Limitations: Mermaid has no place for positions, sizes, styles, images or
//! ink, nor for a connector with a free end, which are left out; a star is a
//! rectangle; a link with a head at its start only is written the other way
//! round (Mermaid has no such link); a triangle, diamond or arrow head is
//! Mermaid's arrow.

use std::collections::HashMap;
use std::fmt::Write as _;

use inkboard_core::{Arrow, Board, Dash, End, Geom, Kind, Object, ObjectId, PageId, Rect};

/// A shape as the writer sees it: the object, its bounds, outline and text.
type Node<'a> = (&'a Object, Rect, Geom, std::borrow::Cow<'a, str>);

/// `page` of `board` as a Mermaid flowchart.
pub fn to_mermaid(board: &Board, page: PageId) -> String {
    // A page with lifelines is a sequence diagram, a page of classes a class
    // diagram, one of other tables an ER diagram.
    if super::sequence::is_sequence_page(board, page) {
        return super::sequence::to_sequence(board, page);
    }
    if super::class::is_class_page(board, page) {
        return super::class::to_class(board, page);
    }
    if super::er::is_er_page(board, page) {
        return super::er::to_er(board, page);
    }
    // A page with a state diagram's start or end is a state diagram.
    if super::state::is_state_page(board, page) {
        return super::state::to_state(board, page);
    }
    let mut out = String::from("flowchart TD\n");
    let Some(page) = board.page(page) else {
        return out;
    };
    let shapes: Vec<Node> = page
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) => Some((o, s.bounds, s.geom, o.shown_text().unwrap_or_default())),
            _ => None,
        })
        .collect();
    // The innermost frame around each shape (frames included): the smallest
    // frame that holds it whole.
    let mut inside: HashMap<&ObjectId, &ObjectId> = HashMap::new();
    for (i, (o, r, _, _)) in shapes.iter().enumerate() {
        let around = shapes
            .iter()
            .enumerate()
            // Of two frames with the same box, the first holds the second.
            .filter(|(j, (f, fr, g, _))| {
                *g == Geom::Frame && f.id != o.id && fr.contains(r) && (fr != r || *j < i)
            })
            .map(|(_, s)| s)
            .min_by(|a, b| (a.1.w * a.1.h).total_cmp(&(b.1.w * b.1.h)));
        if let Some((f, _, _, _)) = around {
            inside.insert(&o.id, &f.id);
        }
    }
    let node = |id: &ObjectId| shapes.iter().find(|(o, ..)| &o.id == id);
    write_level(&shapes, &inside, None, 1, &mut out);
    for o in &page.objects {
        let Kind::Connector(c) = &o.kind else {
            continue;
        };
        let (End::Object(a), End::Object(b)) = (&c.from, &c.to) else {
            continue;
        };
        if node(a).is_none() || node(b).is_none() {
            continue;
        }
        let head = |a: Arrow, left: bool| match a {
            Arrow::None => "",
            Arrow::Circle | Arrow::Dot => "o",
            _ if left => "<",
            _ => ">",
        };
        // Mermaid has no link with a head at its start alone: turn it round.
        let (a, b, start, end) = if c.start_arrow != Arrow::None && c.end_arrow == Arrow::None {
            (b, a, c.end_arrow, c.start_arrow)
        } else {
            (a, b, c.start_arrow, c.end_arrow)
        };
        let dotted = matches!(c.style.dash, Some(Dash::Dashed | Dash::Dotted));
        let (s, e) = (head(start, true), head(end, false));
        let line = match (dotted, e.is_empty()) {
            (false, false) => format!("{s}--{e}"),
            (false, true) => format!("{s}---"),
            (true, false) => format!("{s}-.-{e}"),
            (true, true) => format!("{s}-.-"),
        };
        let label = if c.text.is_empty() {
            String::new()
        } else {
            format!("|{}|", quoted(&c.text))
        };
        let _ = writeln!(out, "  {a} {line}{label} {b}");
    }
    out
}

/// The nodes and subgraphs directly in `frame` (the top level for `None`).
fn write_level(
    shapes: &[Node],
    inside: &HashMap<&ObjectId, &ObjectId>,
    frame: Option<&ObjectId>,
    depth: usize,
    out: &mut String,
) {
    let pad = "  ".repeat(depth);
    for (o, _, geom, text) in shapes {
        if inside.get(&o.id).copied() != frame {
            continue;
        }
        if *geom == Geom::Frame {
            let _ = writeln!(out, "{pad}subgraph {}[{}]", o.id, quoted(text));
            write_level(shapes, inside, Some(&o.id), depth + 1, out);
            let _ = writeln!(out, "{pad}end");
        } else {
            let _ = writeln!(out, "{pad}{}", node(&o.id, *geom, &label(o, text)));
        }
    }
}

/// A node's label, quoted: a markdown string (`"`...`"`) for one line of rich text
/// whose only marks are bold and italic (what Mermaid's markdown strings draw),
/// else the text as shown.
fn label(o: &Object, shown: &str) -> String {
    use inkboard_core::rich::{parse, Marks};
    let Kind::Shape(s) = &o.kind else {
        return quoted(shown);
    };
    let simple = parse(&s.text).is_some_and(|r| {
        let spans = || r.paragraphs.iter().flat_map(|p| &p.spans);
        r.links.is_empty()
            && r.paragraphs.len() == 1
            && r.paragraphs[0].list.is_none()
            && spans().all(|sp| !sp.marks.has(Marks::CODE) && !sp.marks.has(Marks::STRIKE))
            && spans().any(|sp| !sp.marks.is_empty())
    });
    if !simple {
        return quoted(shown);
    }
    let inner = quoted(&s.text);
    format!("\"`{}`\"", &inner[1..inner.len() - 1])
}

/// A node with its shape and its quoted label.
fn node(id: &ObjectId, geom: Geom, label: &str) -> String {
    let label = label.to_owned();
    let (open, close) = match geom {
        Geom::Rounded => ("(", ")"),
        Geom::Ellipse => ("((", "))"),
        // Mermaid's double circle is the nearest to a ring around a disc.
        Geom::EndState => ("(((", ")))"),
        Geom::Diamond => ("{", "}"),
        Geom::Hexagon => ("{{", "}}"),
        Geom::Parallelogram => ("[/", "/]"),
        Geom::Cylinder => ("[(", ")]"),
        Geom::Triangle => return format!("{id}@{{ shape: tri, label: {label} }}"),
        Geom::Note => return format!("{id}@{{ shape: note, label: {label} }}"),
        Geom::Cloud => return format!("{id}@{{ shape: cloud, label: {label} }}"),
        Geom::Text => return format!("{id}@{{ shape: text, label: {label} }}"),
        Geom::Rect | Geom::Star | Geom::Frame | Geom::Table => ("[", "]"),
    };
    format!("{id}{open}{label}{close}")
}

/// A label in double quotes, with what Mermaid would read as markup written as
/// its entities, and line breaks as `<br>`.
fn quoted(text: &str) -> String {
    format!("\"{}\"", escaped(text, false))
}

/// `text` with what Mermaid would read as markup written as its entities, and
/// line breaks as `<br>`; with `semicolon`, `;` too (a sequence diagram's
/// statements end at one).
pub(super) fn escaped(text: &str, semicolon: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            ';' if semicolon => out.push_str("#59;"),
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '&' => out.push_str("#amp;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '`' => out.push_str("#96;"),
            '|' => out.push_str("#124;"),
            '\n' => out.push_str("<br>"),
            '\r' => {}
            c if c.is_control() && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    //! Each page of the test boards as Mermaid, compared with the expected file
    //! in `tests/mermaid_out/` (`UPDATE_EXPECT=1` rewrites it), and read back by
    //! the parser into the same graph: the same nodes and labels (as shown), and
    //! links; a label of bold and italics only comes back as the same rich text.

    use std::path::{Path, PathBuf};

    use inkboard_core::{Board, End, Kind};

    use super::*;
    use crate::mermaid::{parse, Endpoint};

    fn boards() -> Vec<(String, Board)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        [
            "../inkboard-format/tests/golden/v1.inkboard",
            "tests/export/tricky.inkboard",
            "tests/export/rich.inkboard",
        ]
        .iter()
        .map(|p| {
            let path = dir.join(p);
            let text = std::fs::read_to_string(&path).expect("board");
            let board = inkboard_format::board_from_json(&text).expect("valid");
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            (stem, board)
        })
        .collect()
    }

    fn expect(path: &PathBuf, actual: &str) {
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(path, actual).expect("write");
            return;
        }
        let expected = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            expected == actual,
            "{} differs (UPDATE_EXPECT=1 to accept):\n{actual}",
            path.display()
        );
    }

    #[test]
    fn pages_as_mermaid_read_back_as_the_same_graph() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mermaid_out");
        for (name, board) in boards() {
            for (i, page) in board.pages().iter().enumerate() {
                let text = to_mermaid(&board, page.id);
                expect(&dir.join(format!("{name}-{}.mmd", i + 1)), &text);
                let chart = parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
                // Nodes: every shape but frames, with its text as shown (rich text
                // without its marks); subgraphs: frames.
                let mut want: Vec<(String, String)> = Vec::new();
                let mut frames: Vec<(String, String)> = Vec::new();
                for o in &page.objects {
                    if let Kind::Shape(s) = &o.kind {
                        let shown = o.shown_text().unwrap_or_default();
                        let row = (o.id.to_string(), shown.trim().to_string());
                        if s.geom == Geom::Frame {
                            frames.push(row);
                        } else {
                            want.push(row);
                        }
                    }
                }
                let mut got: Vec<(String, String)> = chart
                    .nodes
                    .iter()
                    .map(|n| (n.id.clone(), inkboard_core::rich::plain(&n.label)))
                    .collect();
                got.sort();
                want.sort();
                assert_eq!(got, want, "{name}: nodes");
                let subgraphs: Vec<(String, String)> = chart
                    .subgraphs
                    .iter()
                    .map(|s| (s.id.clone(), s.title.clone()))
                    .collect();
                assert_eq!(subgraphs, frames, "{name}: subgraphs");
                // Links: every connector between shapes, its ends and label.
                let end_name = |e: &Endpoint| match e {
                    Endpoint::Node(n) => chart.nodes[*n].id.clone(),
                    Endpoint::Subgraph(s) => chart.subgraphs[*s].id.clone(),
                };
                let mut got: Vec<(String, String, String)> = chart
                    .edges
                    .iter()
                    .map(|e| (end_name(&e.from), end_name(&e.to), e.label.clone()))
                    .collect();
                let mut want: Vec<(String, String, String)> = page
                    .objects
                    .iter()
                    .filter_map(|o| match &o.kind {
                        Kind::Connector(c) => match (&c.from, &c.to) {
                            (End::Object(a), End::Object(b)) => {
                                let (a, b) =
                                    if c.start_arrow != Arrow::None && c.end_arrow == Arrow::None {
                                        (b, a)
                                    } else {
                                        (a, b)
                                    };
                                Some((a.to_string(), b.to_string(), c.text.clone()))
                            }
                            _ => None,
                        },
                        _ => None,
                    })
                    .collect();
                got.sort();
                want.sort();
                assert_eq!(got, want, "{name}: links");
            }
        }
    }

    #[test]
    fn bold_and_italic_labels_come_back_marked() {
        let text = r#"{"format": "inkboard", "version": 2, "title": "t", "next_id": 3, "pages": [{"id": "p1", "name": "P", "objects": [
            {"id": "s1", "type": "shape", "x": 0, "y": 0, "w": 100, "h": 50, "text": "**Bold** and *it*, 2\\*3"},
            {"id": "s2", "type": "shape", "x": 0, "y": 90, "w": 100, "h": 50, "text": "`code` stays shown"}]}]}"#;
        let board = inkboard_format::board_from_json(text).unwrap();
        let out = to_mermaid(&board, board.pages()[0].id);
        let chart = parse(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
        let labels: Vec<&str> = chart.nodes.iter().map(|n| n.label.as_str()).collect();
        assert_eq!(
            labels,
            ["**Bold** and *it*, 2\\*3", "code stays shown"],
            "{out}"
        );
    }
}
