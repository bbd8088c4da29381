//! Table shapes as draw.io's own tables (its Entity Relation palette's
//! `shape=table`): a table cell titled with the table's name, a `tableRow` child
//! per row, and a `partialRectangle` cell per cell in the row, so draw.io shows
//! and edits them as its own. A rule between compartments is the `bottom=1`
//! border of the row above it. `map.rs` reads such a table back into one table
//! shape ([`read`]), its rows and cells becoming the shape's text, and edges to
//! a row attached to the table.
//!
//! draw.io's own UML class (a swimlane stacking text rows and `line`
//! separators) is read as a class table too ([`read_class`]); it is written
//! back as a table.
//!
//! Limitations: draw.io lays rows out at even heights and columns at widths
//! shared by their longest cell, which approximates inkboard's measured layout;
//! an empty compartment of an ER table has no row to carry its rule and is left
//! out (a class's gets an empty row).

use std::collections::HashMap;

use inkboard_core::{Rect, Table};

use super::cells::Cell;
use super::label::html_to_text;
use super::style::CellStyle;
use super::write::escape;
use crate::out::num;

/// The height of the title band draw.io gives a table (`startSize`).
pub(crate) const TITLE: f64 = 30.0;

/// The style of a table cell before its colours and font.
pub(crate) const STYLE: &str = "shape=table;startSize=30;container=1;collapsible=0;childLayout=tableLayout;fixedRows=1;rowLines=0;resizeLast=1;";

/// The cells of table `id` (its style `st`, its bounds `r` relative to its
/// parent `up`), the table cell first.
pub(crate) fn write(id: &str, up: &str, text: &str, st: &str, r: Rect, x: &mut String) {
    let table = Table::parse(text);
    let cell = |x: &mut String, cid: &str, value: &str, style: &str, parent: &str, g: Rect| {
        x.push_str(&format!(
            "        <mxCell id=\"{}\" value=\"{}\" style=\"{}\" vertex=\"1\" parent=\"{}\">\n          <mxGeometry x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" as=\"geometry\" />\n        </mxCell>\n",
            escape(cid),
            escape(value),
            escape(style),
            escape(parent),
            num(g.x),
            num(g.y),
            num(g.w),
            num(g.h)
        ));
    };
    cell(x, id, &table.title, st, up, r);
    // A class's empty compartment (a class with no attributes, or no methods)
    // gets an empty row to carry its rule, so it comes back.
    let blank = vec![String::new()];
    let class = table.is_class();
    let rows: Vec<(usize, &Vec<String>)> = table
        .compartments
        .iter()
        .enumerate()
        .flat_map(|(k, rows)| {
            let placeholder = (class && rows.is_empty()).then_some((k, &blank));
            rows.iter().map(move |row| (k, row)).chain(placeholder)
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    // Columns share the width by their longest cell; a row of one cell spans.
    let mut longest: Vec<f64> = Vec::new();
    for (_, row) in rows.iter().filter(|(_, r)| r.len() > 1) {
        for (i, c) in row.iter().enumerate() {
            let n = c.chars().count() as f64 + 2.0;
            match longest.get_mut(i) {
                Some(l) => *l = l.max(n),
                None => longest.push(n),
            }
        }
    }
    let total: f64 = longest.iter().sum::<f64>().max(1.0);
    let row_h = ((r.h - TITLE) / rows.len() as f64).max(1.0);
    for (i, (k, row)) in rows.iter().enumerate() {
        let rid = format!("{id}-row{}", i + 1);
        // The last row of a compartment with another after it draws the rule.
        let ruled = rows.get(i + 1).is_some_and(|(next, _)| next != k);
        let style = format!(
            "shape=tableRow;horizontal=0;startSize=0;swimlaneHead=0;swimlaneBody=0;fillColor=none;collapsible=0;dropTarget=0;points=[[0,0.5],[1,0.5]];portConstraint=eastwest;top=0;left=0;right=0;bottom={};",
            u8::from(ruled)
        );
        let y = TITLE + i as f64 * row_h;
        cell(x, &rid, "", &style, id, Rect::new(0.0, y, r.w, row_h));
        let mut cx = 0.0;
        for (j, value) in row.iter().enumerate() {
            let w = if row.len() == 1 {
                r.w
            } else if j + 1 == row.len() {
                (r.w - cx).max(1.0)
            } else {
                r.w * longest.get(j).copied().unwrap_or(1.0) / total
            };
            let style = "shape=partialRectangle;connectable=0;fillColor=none;top=0;left=0;bottom=0;right=0;align=left;spacingLeft=6;overflow=hidden;";
            let cid = format!("{rid}-cell{}", j + 1);
            cell(x, &cid, value, style, &rid, Rect::new(cx, 0.0, w, row_h));
            cx += w;
        }
    }
}

/// True for a draw.io table cell.
pub(crate) fn is_table(st: &CellStyle) -> bool {
    st.get("shape") == Some("table")
}

/// True for draw.io's own UML class (its UML palette's "Class"): a swimlane
/// laid out as a stack (`childLayout=stackLayout`) whose children are text rows
/// and `line` separators, none with children of its own.
pub(crate) fn is_uml_class(cells: &[Cell], children: &[Vec<usize>], class: usize) -> bool {
    let st = CellStyle::parse(&cells[class].style);
    let rows = &children[class];
    st.has_name("swimlane")
        && st.get("childLayout") == Some("stackLayout")
        && !rows.is_empty()
        && rows.iter().all(|&r| {
            let rs = CellStyle::parse(&cells[r].style);
            cells[r].vertex
                && !cells[r].edge
                && children[r].is_empty()
                && (rs.has_name("text") || rs.has_name("line"))
        })
}

/// The text of draw.io's UML class at `class` as a class table: its title (a
/// first line `«interface»` or `<<interface>>` made the annotation), each line
/// of each text row a row, a `line` separator a new compartment; at least the
/// two a class has. Every row read is added to `parts`, mapped to the class.
pub(crate) fn read_class(
    cells: &[Cell],
    children: &[Vec<usize>],
    class: usize,
    parts: &mut HashMap<usize, usize>,
) -> String {
    let lines = |c: &Cell| -> Vec<String> {
        let st = CellStyle::parse(&c.style);
        let shown = c.shown_label(&st);
        let plain = if st.flag("html") {
            html_to_text(&shown).0
        } else {
            shown
        };
        plain
            .lines()
            .map(|l| l.replace('|', "/").trim().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    };
    let head = lines(&cells[class]);
    let title = match head.as_slice() {
        [first, name, ..] if first.starts_with(['«', '<']) => {
            let a = first.trim_matches(['«', '»', '<', '>']).trim();
            format!("<<{a}>> {name}")
        }
        _ => head.join(" "),
    };
    let mut rows: Vec<usize> = children[class].clone();
    rows.sort_by(|&a, &b| cells[a].geometry.y.total_cmp(&cells[b].geometry.y));
    let mut t = Table {
        title,
        compartments: vec![Vec::new()],
    };
    for r in rows {
        parts.insert(r, class);
        if CellStyle::parse(&cells[r].style).has_name("line") {
            t.compartments.push(Vec::new());
        } else if let Some(last) = t.compartments.last_mut() {
            last.extend(lines(&cells[r]).into_iter().map(|l| vec![l]));
        }
    }
    if t.compartments.len() < 2 {
        t.compartments.push(Vec::new());
    }
    t.to_text()
}

/// The text of the table at `table` (an index into `cells`): its title, then
/// its `tableRow` children top to bottom, each row's cells left to right split
/// by `|`, a `---` after a row with a bottom border. Every row and cell read is
/// added to `parts`, mapped to the table, so that edges to them attach to it.
pub(crate) fn read(
    cells: &[Cell],
    children: &[Vec<usize>],
    table: usize,
    parts: &mut HashMap<usize, usize>,
) -> String {
    let text = |c: &Cell| {
        let st = CellStyle::parse(&c.style);
        let shown = c.shown_label(&st);
        let plain = if st.flag("html") {
            html_to_text(&shown).0
        } else {
            shown
        };
        plain.replace(['\n', '|'], " ").trim().to_string()
    };
    let by = |list: &[usize], key: fn(&Cell) -> f64| {
        let mut v: Vec<usize> = list.iter().copied().filter(|&i| cells[i].vertex).collect();
        v.sort_by(|&a, &b| key(&cells[a]).total_cmp(&key(&cells[b])));
        v
    };
    let mut t = Table {
        title: text(&cells[table]),
        compartments: Vec::new(),
    };
    let rows = by(&children[table], |c| c.geometry.y);
    let mut current: Vec<Vec<String>> = Vec::new();
    // Whether a row has been read since the last rule.
    let mut open = false;
    for (i, &row) in rows.iter().enumerate() {
        parts.insert(row, table);
        let mut values: Vec<String> = by(&children[row], |c| c.geometry.x)
            .into_iter()
            .map(|c| {
                parts.insert(c, table);
                text(&cells[c])
            })
            .collect();
        // Cells inside cells (none in draw.io's tables) are taken as part of it.
        for &c in &children[row] {
            for &inner in &children[c] {
                parts.insert(inner, table);
            }
        }
        while values.last().is_some_and(String::is_empty) {
            values.pop();
        }
        // An empty row holds nothing (a table's text skips blank lines), but
        // its rule still closes its compartment: a class's empty one.
        if !values.is_empty() {
            current.push(values);
        }
        open = true;
        let ruled = CellStyle::parse(&cells[row].style).flag("bottom");
        if ruled && i + 1 < rows.len() {
            t.compartments.push(std::mem::take(&mut current));
            open = false;
        }
    }
    if open {
        t.compartments.push(current);
    }
    t.to_text()
}
