//! A page of classes as a Mermaid `classDiagram`, for `export` to `.mmd`: the
//! other direction of [`parse`](super::parse), which reads it back into the
//! same classes, relations, namespaces and notes.
//!
//! Each table shape is a class named after its title's name (`List<T>` written
//! `List~T~`; a `["label"]` with a made-up name when the name is no Mermaid
//! name), its annotation and members in a `{ }` block: the first compartment's
//! rows as attributes, the rest as methods (a row's cells joined by spaces).
//! A frame holding classes is a `namespace`. Connectors between tables are
//! relations: their ends as Mermaid's heads, `..` when dashed or dotted, their
//! end labels as cardinalities, their text the label. A sticky note is a
//! `note`, `note for` the class it is joined to by a connector.
//!
//! Limitations: positions, sizes, styles and other shapes are left out; a
//! namespace inside another is written at the top level (Mermaid draws none
//! nested); an end Mermaid has no head for (a crow's foot) is an arrow.

use std::collections::HashMap;
use std::fmt::Write as _;

use inkboard_core::{Board, Dash, End, Geom, Kind, ObjectId, PageId, Rect, Table};

use super::{head_token, tildes};

/// True when page `page` holds a table that is a UML class
/// ([`Table::is_class`]): it is exported as a class diagram.
pub fn is_class_page(board: &Board, page: PageId) -> bool {
    board.page(page).is_some_and(|p| {
        p.objects.iter().any(
            |o| matches!(&o.kind, Kind::Shape(s) if s.geom == Geom::Table && Table::parse(&s.text).is_class()),
        )
    })
}

/// `page` of `board` as a Mermaid class diagram.
pub fn to_class(board: &Board, page: PageId) -> String {
    let mut out = String::from("classDiagram\n");
    let Some(page) = board.page(page) else {
        return out;
    };
    // Frames, smallest first, so a class goes in the innermost one.
    let mut frames: Vec<(&ObjectId, Rect, String)> = page
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) if s.geom == Geom::Frame => Some((&o.id, s.bounds, s.text.clone())),
            _ => None,
        })
        .collect();
    frames.sort_by(|a, b| (a.1.w * a.1.h).total_cmp(&(b.1.w * b.1.h)));
    let mut names: HashMap<&ObjectId, String> = HashMap::new();
    let mut taken: HashMap<String, usize> = HashMap::new();
    // Each class's block, by the frame it is in (None: the top level).
    let mut blocks: Vec<(Option<usize>, String)> = Vec::new();
    for o in &page.objects {
        let Kind::Shape(s) = &o.kind else { continue };
        if s.geom != Geom::Table {
            continue;
        }
        let table = Table::parse(&s.text);
        let (annotation, title) = table.stereotype();
        let written = tildes(title);
        let plain = is_name(&written);
        let (base, generic) = match written.split_once('~') {
            Some((b, g)) if plain => (b.to_string(), Some(format!("~{g}"))),
            _ => (written.clone(), None),
        };
        let mut name = if plain {
            base
        } else {
            format!("C{}", names.len() + 1)
        };
        let n = taken.entry(name.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            name = format!("{name}_{n}");
        }
        let mut block = format!("class {name}");
        if let Some(g) = &generic {
            block.push_str(g);
        }
        if !plain {
            let _ = write!(block, "[\"{}\"]", title.replace('"', "'"));
        }
        block.push_str(" {\n");
        if let Some(a) = annotation {
            let _ = writeln!(block, "  <<{a}>>");
        }
        // Mermaid tells methods from attributes by their `(`, as the reader
        // does: the compartments come back as they were when that holds.
        for row in table.compartments.iter().flatten() {
            let _ = writeln!(block, "  {}", tildes(&row.join(" ")));
        }
        block.push('}');
        let frame = frames.iter().position(|f| f.1.contains(&s.bounds));
        blocks.push((frame, block));
        names.insert(&o.id, name);
    }
    let indent =
        |text: &str, by: &str| -> String { text.lines().map(|l| format!("{by}{l}\n")).collect() };
    for (_, block) in blocks.iter().filter(|(f, _)| f.is_none()) {
        out.push_str(&indent(block, "  "));
    }
    for (i, (_, _, title)) in frames.iter().enumerate() {
        let inside: Vec<&String> = blocks
            .iter()
            .filter(|(f, _)| *f == Some(i))
            .map(|(_, b)| b)
            .collect();
        if inside.is_empty() {
            continue;
        }
        let _ = writeln!(out, "  namespace {} {{", namespace_name(title));
        for block in inside {
            out.push_str(&indent(block, "    "));
        }
        out.push_str("  }\n");
    }
    let mut noted: HashMap<&ObjectId, &ObjectId> = HashMap::new();
    for o in &page.objects {
        let Kind::Connector(c) = &o.kind else {
            continue;
        };
        let (End::Object(a), End::Object(b)) = (&c.from, &c.to) else {
            continue;
        };
        let is_note = |id: &ObjectId| matches!(board.object(id).map(|o| &o.kind), Some(Kind::Shape(s)) if s.geom == Geom::Note);
        if is_note(a) && names.contains_key(b) {
            noted.insert(a, b);
            continue;
        }
        if is_note(b) && names.contains_key(a) {
            noted.insert(b, a);
            continue;
        }
        let (Some(na), Some(nb)) = (names.get(a), names.get(b)) else {
            continue;
        };
        let line = match c.style.dash {
            Some(Dash::Dashed | Dash::Dotted) => "..",
            _ => "--",
        };
        let card = |t: &str| {
            let t = t.replace(['"', '\n'], " ");
            let t = t.trim();
            if t.is_empty() {
                String::new()
            } else {
                format!(" \"{t}\"")
            }
        };
        let label = c.text.replace('\n', " ");
        let label = label.trim();
        let _ = writeln!(
            out,
            "  {na}{} {}{line}{}{} {nb}{}",
            card(c.start_label()),
            head_token(c.start_arrow, true),
            head_token(c.end_arrow, false),
            card(c.end_label()),
            if label.is_empty() {
                String::new()
            } else {
                format!(" : {label}")
            }
        );
    }
    for o in &page.objects {
        let Kind::Shape(s) = &o.kind else { continue };
        if s.geom != Geom::Note {
            continue;
        }
        let text = inkboard_core::rich::plain(&s.text)
            .replace('"', "'")
            .replace('\n', "<br>");
        match noted.get(&o.id).and_then(|c| names.get(c)) {
            Some(class) => {
                let _ = writeln!(out, "  note for {class} \"{text}\"");
            }
            None => {
                let _ = writeln!(out, "  note \"{text}\"");
            }
        }
    }
    out
}

/// True for what Mermaid reads as a class name unquoted (a generic part
/// `~T~` after it allowed).
fn is_name(s: &str) -> bool {
    let base = s.split('~').next().unwrap_or("");
    !base.is_empty()
        && base.chars().next().is_some_and(char::is_alphabetic)
        && base
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '~')
}

/// A frame's title as a namespace name: Mermaid's name characters and `.`,
/// anything else made `_`.
fn namespace_name(title: &str) -> String {
    let w: String = title
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "_-.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if w.is_empty() {
        "namespace".into()
    } else {
        w
    }
}
