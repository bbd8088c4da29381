//! A page holding a sequence diagram as a Mermaid `sequenceDiagram`, for `export`
//! to `.mmd`: the other direction of [`parse`](super::parse), which reads it back
//! into the same participants, messages, activations, notes and blocks.
//!
//! The diagram is read from the page's objects by their geometry
//! ([`inkboard_core::diagram::sequence`]), as `import_mermaid` draws it or a
//! person does by hand, and written top to bottom:
//! - each lifeline's head is a participant, left to right (an actor when its
//!   text starts with the person marker, a database when it is a cylinder),
//!   aliased `p1 as ...` when its name is no Mermaid word;
//! - each message (`->>` filled, `-)` open, `-x` a diamond, `->` no head, `--`
//!   when dashed, `<<->>` with a head at each end), in the order of its height;
//! - each activation bar as `activate` after the message its top is on and
//!   `deactivate` after the one its bottom is on (the pieces of a bar cut by a
//!   frame, grouped, as one);
//! - each sticky note as a note left of, right of or over the lifelines it lies
//!   beside or over;
//! - each frame as a block section: its title's keyword and condition ("alt
//!   [is sick]" as `alt is sick`, a following "else [...]" as `else`), nested
//!   as the frames lie; an untitled frame a `rect`.
//!
//! Messages numbered 1, 2, 3... ("1. ") are written under `autonumber`.
//!
//! Limitations: what lies on the page besides the diagram is left out, as are
//! positions, styles and a `rect`'s colour (written grey).

use std::collections::HashMap;
use std::fmt::Write as _;

use inkboard_core::diagram::sequence::{bar_on, lifelines, message_ends, Lifeline};
use inkboard_core::{Arrow, Board, Dash, End, Geom, Kind, Object, ObjectId, PageId, Rect};

use super::PERSON;
use crate::mermaid::write::escaped;

/// How near a bar's end must be to a message's row to be read as that message's.
const SNAP: f64 = 16.0;

/// True when page `page` holds a lifeline: it is exported as a sequence diagram.
pub fn is_sequence_page(board: &Board, page: PageId) -> bool {
    !lifelines(board, page).is_empty()
}

/// One line of the diagram, where it goes: its height on the page, then a rank
/// for lines at one height (a block closes before the next opens, a message
/// comes before the bars it starts or ends).
struct Line {
    y: f64,
    rank: u8,
    text: String,
}

/// `page` of `board` as a Mermaid sequence diagram.
pub fn to_sequence(board: &Board, page: PageId) -> String {
    let mut out = String::from("sequenceDiagram\n");
    let Some(objects) = board.page(page).map(|p| p.objects.as_slice()) else {
        return out;
    };
    let mut lines = lifelines(board, page);
    lines.sort_by(|a, b| a.x.total_cmp(&b.x));
    let names = participants(board, &lines, &mut out);
    let mut body: Vec<Line> = Vec::new();
    let mut rows: Vec<f64> = Vec::new();
    let mut texts: Vec<(usize, String)> = Vec::new();
    for o in objects {
        let Kind::Connector(c) = &o.kind else {
            continue;
        };
        let Some((a, b)) = message_ends(&lines, &o.kind) else {
            continue;
        };
        let (End::Point(p), End::Point(q)) = (&c.from, &c.to) else {
            continue;
        };
        let head = |a: Arrow| match a {
            Arrow::None => ">",
            Arrow::Arrow => ")",
            Arrow::Diamond => "x",
            _ => ">>",
        };
        let body_dash = if c.style.dash.is_some_and(|d| d != Dash::Solid) {
            "--"
        } else {
            "-"
        };
        let arrow = match (c.start_arrow, c.end_arrow) {
            (Arrow::None, end) => format!("{body_dash}{}", head(end)),
            _ => format!("<<{body_dash}>>"),
        };
        let y = p.y.min(q.y);
        rows.push(y);
        texts.push((body.len(), c.text.clone()));
        body.push(Line {
            y,
            rank: 3,
            text: format!("{}{arrow}{}: ", names[a], names[b]),
        });
    }
    texts.sort_by(|a, b| body[a.0].y.total_cmp(&body[b.0].y));
    let numbered = numbered(&mut texts);
    for (i, text) in texts {
        body[i].text.push_str(&escaped(&text, true));
    }
    bars(board, objects, &lines, &names, &rows, &mut body);
    notes(objects, &lines, &names, &mut body);
    blocks(objects, &mut body);
    body.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.rank.cmp(&b.rank)));
    if numbered {
        out.push_str("  autonumber\n");
    }
    let mut depth = 1;
    for line in body {
        if line.text == "end" || line.rank == 1 {
            depth = (depth - 1).max(1);
        }
        let _ = writeln!(out, "{}{}", "  ".repeat(depth), line.text);
        if line.rank <= 2 && line.text != "end" {
            depth += 1;
        }
    }
    out
}

/// Writes the `participant` lines and answers each lifeline's name.
fn participants(board: &Board, lines: &[Lifeline], out: &mut String) -> Vec<String> {
    let mut names = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(o) = board.object(&l.head) else {
            names.push(format!("p{}", i + 1));
            continue;
        };
        let shown = o.shown_text().unwrap_or_default().into_owned();
        let (actor, label) = match shown.strip_prefix(PERSON) {
            Some(rest) => (true, rest.trim_start_matches(['\n', ' ']).to_string()),
            None => (false, shown),
        };
        let database = matches!(&o.kind, Kind::Shape(s) if s.geom == Geom::Cylinder);
        let plain = is_word(&label) && !names.contains(&label);
        let name = if plain {
            label.clone()
        } else {
            format!("p{}", i + 1)
        };
        let keyword = if actor { "actor" } else { "participant" };
        let alias = match plain {
            true => String::new(),
            false => format!(" as {}", escaped(&label, true)),
        };
        let kind = match database {
            true => "@{ \"type\": \"database\" }",
            false => "",
        };
        let _ = writeln!(out, "  {keyword} {name}{kind}{alias}");
        names.push(name);
    }
    names
}

/// True for a name Mermaid reads as a participant's as written.
fn is_word(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_alphabetic)
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Whether the messages' texts, top to bottom, are numbered 1, 2, 3...; if so,
/// the numbers are taken off (they are written as `autonumber`).
fn numbered(texts: &mut [(usize, String)]) -> bool {
    let all = !texts.is_empty()
        && texts
            .iter()
            .enumerate()
            .all(|(n, (_, t))| t.starts_with(&format!("{}. ", n + 1)));
    if all {
        for (n, (_, t)) in texts.iter_mut().enumerate() {
            *t = t[format!("{}. ", n + 1).len()..].to_string();
        }
    }
    all
}

/// The activation bars, a bar's pieces (grouped) read as one, as `activate` and
/// `deactivate` lines at the message rows their ends are on.
fn bars(
    board: &Board,
    objects: &[Object],
    lines: &[Lifeline],
    names: &[String],
    rows: &[f64],
    body: &mut Vec<Line>,
) {
    let mut group_of: HashMap<&ObjectId, &ObjectId> = HashMap::new();
    for g in objects {
        if let Kind::Group(members) = &g.kind {
            for m in &members.members {
                group_of.insert(m, &g.id);
            }
        }
    }
    let mut spans: Vec<(usize, f64, f64, Option<&ObjectId>)> = Vec::new();
    let mut by_group: HashMap<&ObjectId, usize> = HashMap::new();
    for o in objects {
        let (Some(i), Some(b)) = (bar_on(lines, o), board.bounds(&o.id)) else {
            continue;
        };
        let group = group_of.get(&o.id).copied();
        match group
            .and_then(|g| by_group.get(g))
            .and_then(|&k| spans.get_mut(k))
        {
            Some(s) => {
                s.1 = s.1.min(b.y);
                s.2 = s.2.max(b.bottom());
            }
            None => {
                if let Some(g) = group {
                    by_group.insert(g, spans.len());
                }
                spans.push((i, b.y, b.bottom(), group));
            }
        }
    }
    let row = |y: f64| {
        rows.iter()
            .copied()
            .filter(|r| (r - y).abs() <= SNAP)
            .min_by(|a, b| (a - y).abs().total_cmp(&(b - y).abs()))
            .unwrap_or(y)
    };
    for (i, top, bottom, _) in spans {
        body.push(Line {
            y: row(top),
            rank: 4,
            text: format!("activate {}", names[i]),
        });
        body.push(Line {
            y: row(bottom),
            rank: 5,
            text: format!("deactivate {}", names[i]),
        });
    }
}

/// The sticky notes, beside or over the lifelines they lie by.
fn notes(objects: &[Object], lines: &[Lifeline], names: &[String], body: &mut Vec<Line>) {
    for o in objects {
        let Kind::Shape(s) = &o.kind else { continue };
        if s.geom != Geom::Note || lines.is_empty() {
            continue;
        }
        let b = s.bounds;
        let over: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].x >= b.x && lines[i].x <= b.right())
            .collect();
        let centre = b.center().x;
        let nearest = (0..lines.len())
            .min_by(|&i, &j| {
                (lines[i].x - centre)
                    .abs()
                    .total_cmp(&(lines[j].x - centre).abs())
            })
            .unwrap_or(0);
        let place = match over.as_slice() {
            [] if centre > lines[nearest].x => format!("right of {}", names[nearest]),
            [] => format!("left of {}", names[nearest]),
            [one] => format!("over {}", names[*one]),
            [first, .., last] => format!("over {},{}", names[*first], names[*last]),
        };
        let text = o.shown_text().unwrap_or_default();
        body.push(Line {
            y: b.y,
            rank: 3,
            text: format!("Note {place}: {}", escaped(&text, true)),
        });
    }
}

/// The frames as blocks: each opens at its top with its title's keyword and
/// condition, a section that follows it (same sides, its top at the first's
/// bottom) continues it, and the last section's bottom closes it.
fn blocks(objects: &[Object], body: &mut Vec<Line>) {
    let frames: Vec<(Rect, &str)> = objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) if s.geom == Geom::Frame => Some((s.bounds, s.text.as_str())),
            _ => None,
        })
        .collect();
    const SECTIONS: [&str; 3] = ["else", "and", "option"];
    for (i, (r, title)) in frames.iter().enumerate() {
        let (keyword, label) = split_title(title);
        let section = SECTIONS.contains(&keyword);
        // A section's block goes on from the frame just above it.
        let above = frames.iter().enumerate().any(|(j, (q, _))| {
            j != i
                && (q.x - r.x).abs() < 0.5
                && (q.w - r.w).abs() < 0.5
                && (q.bottom() - r.y).abs() < 0.5
        });
        let below = frames.iter().enumerate().any(|(j, (q, t))| {
            j != i
                && SECTIONS.contains(&split_title(t).0)
                && (q.x - r.x).abs() < 0.5
                && (q.w - r.w).abs() < 0.5
                && (q.y - r.bottom()).abs() < 0.5
        });
        let text = match (section && above, title.is_empty()) {
            (_, true) => "rect rgb(240, 240, 240)".to_string(),
            (true, _) => with_label(keyword, label),
            (false, _) if section => with_label("opt", &format!("{keyword} {label}")),
            (false, _) => with_label(keyword, label),
        };
        let rank = if section && above { 1 } else { 2 };
        body.push(Line { y: r.y, rank, text });
        if !below {
            body.push(Line {
                y: r.bottom(),
                rank: 0,
                text: "end".into(),
            });
        }
    }
}

fn with_label(keyword: &str, label: &str) -> String {
    match label.trim() {
        "" => keyword.to_string(),
        l => format!("{keyword} {}", escaped(l, true)),
    }
}

/// A frame's title "alt [is sick]" as ("alt", "is sick"); a title of no block
/// keyword as an `opt` over the whole title.
fn split_title(title: &str) -> (&str, &str) {
    const KEYWORDS: [&str; 10] = [
        "loop", "alt", "opt", "par", "critical", "break", "rect", "else", "and", "option",
    ];
    let (keyword, rest) = title.split_once(' ').unwrap_or((title, ""));
    if !KEYWORDS.contains(&keyword) {
        return ("opt", title);
    }
    let rest = rest.trim();
    let label = rest
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .unwrap_or(rest);
    (keyword, label)
}
