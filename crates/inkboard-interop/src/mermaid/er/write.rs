//! A page of tables as a Mermaid `erDiagram`, for `export` to `.mmd`: the other
//! direction of [`parse`](super::parse), which reads it back into the same
//! entities, attributes and relationships.
//!
//! Each table shape is an entity named after its title (an alias `e1["Title"]`
//! when the title is no Mermaid name), each row an attribute read as
//! `type | name | keys | comment` (a row of one cell is a `string` of that
//! name); connectors between tables are relationships, their crow's-foot ends
//! as Mermaid's symbols (an end that is no cardinality as exactly one), `..`
//! when dashed or dotted, their text the label.
//!
//! Limitations: shapes other than tables, positions, styles and a table's
//! compartments past the first are left out; names and types lose what Mermaid
//! cannot hold in them (spaces become `_`).

use std::collections::HashMap;
use std::fmt::Write as _;

use inkboard_core::{Board, Dash, End, Geom, Kind, ObjectId, PageId, Table};

use super::symbol;

/// True when page `page` holds a table shape: it is exported as an ER diagram.
pub fn is_er_page(board: &Board, page: PageId) -> bool {
    board.page(page).is_some_and(|p| {
        p.objects
            .iter()
            .any(|o| matches!(&o.kind, Kind::Shape(s) if s.geom == Geom::Table))
    })
}

/// `page` of `board` as a Mermaid ER diagram.
pub fn to_er(board: &Board, page: PageId) -> String {
    let mut out = String::from("erDiagram\n");
    let Some(page) = board.page(page) else {
        return out;
    };
    let mut names: HashMap<&ObjectId, String> = HashMap::new();
    let mut taken: HashMap<String, usize> = HashMap::new();
    for o in &page.objects {
        let Kind::Shape(s) = &o.kind else { continue };
        if s.geom != Geom::Table {
            continue;
        }
        let table = Table::parse(&s.text);
        let title = table.title.trim();
        let plain = is_name(title);
        let mut name = if plain {
            title.to_string()
        } else {
            word(title, "entity")
        };
        // Two tables of one title are two entities.
        let n = taken.entry(name.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            name = format!("{name}_{n}");
        }
        let head = if plain && name == title {
            name.clone()
        } else {
            format!("{name}[\"{}\"]", title.replace('"', "'"))
        };
        let rows: Vec<&Vec<String>> = table.compartments.first().into_iter().flatten().collect();
        if rows.is_empty() {
            let _ = writeln!(out, "  {head}");
        } else {
            let _ = writeln!(out, "  {head} {{");
            for row in rows {
                let cell = |i: usize| row.get(i).map_or("", |c| c.trim());
                let (kind, attr) = match row.len() {
                    1 => ("string", cell(0)),
                    _ => (cell(0), cell(1)),
                };
                let mut line = format!("    {} {}", word(kind, "string"), word(attr, "attribute"));
                let keys: Vec<String> = cell(2)
                    .split([',', ' '])
                    .map(|k| k.trim().to_ascii_uppercase())
                    .filter(|k| matches!(k.as_str(), "PK" | "FK" | "UK"))
                    .collect();
                if !keys.is_empty() {
                    let _ = write!(line, " {}", keys.join(", "));
                }
                let comment = cell(3).replace('"', "'");
                if !comment.is_empty() {
                    let _ = write!(line, " \"{comment}\"");
                }
                let _ = writeln!(out, "{line}");
            }
            let _ = writeln!(out, "  }}");
        }
        names.insert(&o.id, name);
    }
    for o in &page.objects {
        let Kind::Connector(c) = &o.kind else {
            continue;
        };
        let (End::Object(a), End::Object(b)) = (&c.from, &c.to) else {
            continue;
        };
        let (Some(a), Some(b)) = (names.get(a), names.get(b)) else {
            continue;
        };
        let line = match c.style.dash {
            Some(Dash::Dashed | Dash::Dotted) => "..",
            _ => "--",
        };
        let label = c.text.replace(['"', '\n'], " ");
        let _ = writeln!(
            out,
            "  {a} {}{line}{} {b} : \"{}\"",
            symbol(c.start_arrow, true),
            symbol(c.end_arrow, false),
            label.trim()
        );
    }
    out
}

/// True for what Mermaid reads as an entity name unquoted.
fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars().next().is_some_and(char::is_alphabetic)
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// `s` as one Mermaid word: what is no letter, digit or one of `_-()[]*,` made
/// `_`; `fallback` when nothing is left.
fn word(s: &str, fallback: &str) -> String {
    let w: String = s
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "_-()[]*".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if w.is_empty() || !w.chars().next().is_some_and(char::is_alphabetic) {
        format!("{fallback}{}", if w.is_empty() { "" } else { "_" }) + &w
    } else {
        w
    }
}
