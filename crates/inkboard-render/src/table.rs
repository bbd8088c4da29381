//! Table shapes (`geom: "table"`): an ER entity or a UML class, drawn from its text.
//!
//! The text is the table: its first line is the title, set in a tinted band at the
//! top; every other line is a row whose cells are split by `|` and set in columns
//! as wide as their widest cell; a line of `---` starts a new compartment (a class's
//! methods under its attributes), drawn as a rule across. Blank lines are skipped.
//! A row of one cell spans the columns (a class's `+name: String`). A title
//! that starts with a UML stereotype (`<<interface>> Shape`) is set on two
//! lines, the stereotype in guillemets (`«interface»`) above the name. The same
//! measurement sizes an auto-sized table ([`natural_size`], used by
//! `inkboard-arrange`) and places its cells ([`draw`]), with the renderer's own
//! fonts, so a table sized to its rows holds them exactly and the checker does
//! not call them overflowing.
//!
//! A cell wider than [`MAX_COLUMN`] (a spanning row or the title, wider than
//! [`MAX_SPAN`]) wraps onto more lines, breaking a word too long for a line, and
//! its row grows: a table is as wide as a reader can take in, and one long word
//! cannot make it a 200,000 px strip whose every render measures it again.
//!
//! Limitations: cells are plain text (no Markdown); a table set smaller than its
//! rows draws them past its box and is reported as overflowing.

use inkboard_core::{Rect, Shape, Style, Table};

use crate::deadline::{Deadline, Stopped};
use crate::resolve::shape_text;
use crate::scene::{Part, PathPart, Seg, Stroke, TextPart};
use crate::shapes::{self, pt};
use crate::style;
use crate::text::{self, Typeface, Weight, LINE_HEIGHT};

/// The empty space left and right of the cells, and between columns, at the
/// default font size (all spacing scales with the font size).
const PAD_X: f32 = 10.0;
const COLUMN_GAP: f32 = 16.0;
/// The space above and below the title, and above and below a compartment's rows.
const TITLE_PAD_Y: f32 = 6.0;
const COMPARTMENT_PAD_Y: f32 = 4.0;
/// Extra height of a row over its line of text.
const ROW_PAD_Y: f32 = 4.0;
/// The narrowest a table is drawn, so a short name still reads as a table.
const MIN_WIDTH: f32 = 120.0;
/// The widest a column's cells are set before they wrap, at the default size.
const MAX_COLUMN: f32 = 320.0;
/// The widest a row of one cell, or the title, is set before it wraps.
const MAX_SPAN: f32 = 480.0;
/// Added to every width text is wrapped at, so a cell exactly as wide as its
/// column is not wrapped by a rounding error.
const WRAP_SLACK: f32 = 0.5;

/// Where everything in a table goes, relative to its top-left corner, in px.
#[derive(Clone, Debug, PartialEq)]
struct Grid {
    scale: f32,
    title_h: f32,
    /// The height of each row, compartment by compartment: a line of text and
    /// its padding, more where a cell wraps.
    rows: Vec<Vec<f32>>,
    /// The width of each column (cells of rows with more than one cell).
    columns: Vec<f32>,
    /// The width a row of one cell, and the title, are set in.
    span: f32,
    width: f32,
    height: f32,
}

impl Grid {
    /// The width the cell `i` of a row of `cells` cells is set in.
    fn cell_width(&self, i: usize, cells: usize) -> f32 {
        match cells {
            1 => self.span,
            _ => self.columns.get(i).copied().unwrap_or(0.0),
        }
    }
}

fn faces(style: &Style) -> (f32, Typeface, Typeface) {
    let size = style
        .font_size
        .map_or(text::DEFAULT_FONT_SIZE, |s| s as f32);
    let font = style.font.unwrap_or_default();
    (
        size,
        Typeface::new(font, Weight::SemiBold),
        Typeface::new(font, Weight::Regular),
    )
}

fn width_of(text: &str, size: f32, face: Typeface) -> f32 {
    if text.is_empty() {
        return 0.0;
    }
    text::layout_text(text, size, face, None, true, false).width
}

/// The height of `text` set in `width` px, breaking words that do not fit.
fn height_in(text: &str, size: f32, face: Typeface, width: f32) -> f32 {
    let line = size * LINE_HEIGHT;
    if text.is_empty() {
        return line;
    }
    let block = text::layout_text(text, size, face, Some(width + WRAP_SLACK), false, false);
    block.height.max(line)
}

fn grid(table: &Table, style: &Style) -> Grid {
    let (size, bold, regular) = faces(style);
    let scale = size / text::DEFAULT_FONT_SIZE;
    let mut columns: Vec<f32> = Vec::new();
    let mut spanning: f32 = 0.0;
    for row in table.compartments.iter().flatten() {
        if row.len() == 1 {
            spanning = spanning.max(width_of(&row[0], size, regular));
            continue;
        }
        for (i, cell) in row.iter().enumerate() {
            let w = width_of(cell, size, regular).min(MAX_COLUMN * scale);
            match columns.get_mut(i) {
                Some(c) => *c = c.max(w),
                None => columns.push(w),
            }
        }
    }
    let gaps = COLUMN_GAP * scale * columns.len().saturating_sub(1) as f32;
    let (stereotype, name) = title_lines(table);
    let title = width_of(name, size, bold).max(
        stereotype
            .as_deref()
            .map_or(0.0, |s| width_of(s, size, regular)),
    );
    let cells = (columns.iter().sum::<f32>() + gaps)
        .max(spanning.min(MAX_SPAN * scale))
        .max(title.min(MAX_SPAN * scale));
    // Whole pixels, and one spare, so the cells are never a hair too wide.
    let width = (cells + 2.0 * PAD_X * scale + 1.0)
        .max(MIN_WIDTH * scale)
        .ceil();
    let span = width - 2.0 * PAD_X * scale - 1.0;
    let above = stereotype
        .as_deref()
        .map_or(0.0, |s| height_in(s, size, regular, span));
    let title_h = (above + height_in(name, size, bold, span) + 2.0 * TITLE_PAD_Y * scale).ceil();
    let mut g = Grid {
        scale,
        title_h,
        rows: Vec::new(),
        columns,
        span,
        width,
        height: 0.0,
    };
    g.rows = table
        .compartments
        .iter()
        .map(|rows| {
            rows.iter()
                .map(|row| {
                    let text = row.iter().enumerate().map(|(i, cell)| {
                        height_in(cell, size, regular, g.cell_width(i, row.len()))
                    });
                    text.fold(0.0, f32::max) + ROW_PAD_Y * scale
                })
                .collect()
        })
        .collect();
    let body: f32 = g
        .rows
        .iter()
        .map(|rows| rows.iter().sum::<f32>() + 2.0 * COMPARTMENT_PAD_Y * scale)
        .sum();
    g.height = (title_h + body).ceil();
    g
}

/// The title as drawn: the stereotype in guillemets, if there is one, and the
/// name.
fn title_lines(table: &Table) -> (Option<String>, &str) {
    let (stereotype, name) = table.stereotype();
    (stereotype.map(|s| format!("\u{ab}{s}\u{bb}")), name)
}

/// The size a table with this text and style takes: what an auto-sized table is
/// given.
pub fn natural_size(text: &str, style: &Style) -> (f64, f64) {
    let g = grid(&Table::parse(text), style);
    (f64::from(g.width), f64::from(g.height))
}

/// Draws table `s`: its box, the title band, the rules under the title and between
/// compartments, and its cells.
pub(crate) fn draw(s: &Shape, parts: &mut Vec<Part>, deadline: &Deadline) -> Result<(), Stopped> {
    let b = s.bounds;
    let table = Table::parse(&s.text);
    let g = grid(&table, &s.style);
    let fill = style::shape_fill(s.geom, &s.style);
    let stroke = style::shape_stroke(s.geom, &s.style);
    let outline = shapes::rect(b, 0.0);
    if fill.is_some() {
        parts.push(Part::Path(PathPart {
            segs: outline.clone(),
            fill,
            stroke: None,
        }));
    }
    let title_h = f64::from(g.title_h).min(b.h);
    let ink = stroke.as_ref().map_or(style::INK, |s| s.color);
    // The band: the outline's colour, faint, over the fill.
    parts.push(Part::Path(PathPart {
        segs: shapes::rect(Rect::new(b.x, b.y, b.w, title_h), 0.0),
        fill: Some(ink.with_alpha(28)),
        stroke: None,
    }));
    // Rules: under the title, and atop every compartment after the first.
    let mut rules = Vec::new();
    let mut top = b.y + title_h;
    for rows in &g.rows {
        if top < b.bottom() - 0.5 {
            rules.push(Seg::Move(pt(b.x, top)));
            rules.push(Seg::Line(pt(b.right(), top)));
        }
        top += f64::from(rows.iter().sum::<f32>() + 2.0 * COMPARTMENT_PAD_Y * g.scale);
    }
    if let (false, Some(stroke)) = (rules.is_empty(), &stroke) {
        parts.push(Part::Path(PathPart {
            segs: rules,
            fill: None,
            stroke: Some(Stroke {
                width: (stroke.width * 0.5).max(1.0),
                dash: Vec::new(),
                ..stroke.clone()
            }),
        }));
    }
    if stroke.is_some() {
        parts.push(Part::Path(PathPart {
            segs: outline,
            fill: None,
            stroke,
        }));
    }
    let overflows = f64::from(g.width) > b.w + 0.5 || f64::from(g.height) > b.h + 0.5;
    let color = style::shape_text_color(s.geom, &s.style, fill);
    let (size, bold, regular) = faces(&s.style);
    let pad = f64::from(PAD_X * g.scale);
    // A cell's box is its column by its row, with room to spare below, so a cell
    // wraps as the grid measured it and is never shrunk: a table too small for its
    // rows is reported, not squeezed.
    let cell_box = |x: f64, y: f64, w: f32, h: f32| {
        Rect::new(x, y, f64::from(w + WRAP_SLACK), f64::from(h) * 2.0)
    };
    let top_align = (inkboard_core::Align::Left, inkboard_core::VAlign::Top);
    let (stereotype, name) = title_lines(&table);
    let mut title_y = b.y + f64::from(TITLE_PAD_Y * g.scale);
    let centre = (inkboard_core::Align::Center, inkboard_core::VAlign::Top);
    // Centred in the box as drawn, which may be wider than the grid.
    let title_box = |y: f64| {
        Rect::new(
            b.x + pad,
            y,
            (b.w - 2.0 * pad).max(1.0),
            f64::from(g.title_h) * 2.0,
        )
    };
    if let Some(stereotype) = stereotype {
        let tb = title_box(title_y);
        if let Some(mut t) = shape_text(
            &stereotype,
            tb,
            size,
            regular,
            centre,
            color,
            false,
            deadline,
        )? {
            t.overflows = overflows;
            parts.push(Part::Text(t));
        }
        title_y += f64::from(height_in(&stereotype, size, regular, g.span));
    }
    if !name.is_empty() {
        let tb = title_box(title_y);
        if let Some(mut t) = shape_text(name, tb, size, bold, centre, color, false, deadline)? {
            t.overflows = overflows;
            parts.push(Part::Text(t));
        }
    }
    let mut cells: Option<TextPart> = None;
    let mut y = b.y + title_h;
    for (rows, heights) in table.compartments.iter().zip(&g.rows) {
        y += f64::from(COMPARTMENT_PAD_Y * g.scale);
        for (row, &row_h) in rows.iter().zip(heights) {
            let text_y = y + f64::from(ROW_PAD_Y * g.scale / 2.0);
            let mut x = b.x + pad;
            for (i, cell) in row.iter().enumerate() {
                if !cell.is_empty() {
                    if let Some(t) = shape_text(
                        cell,
                        cell_box(x, text_y, g.cell_width(i, row.len()), row_h),
                        size,
                        regular,
                        top_align,
                        color,
                        false,
                        deadline,
                    )? {
                        match &mut cells {
                            Some(all) => all.lines.extend(t.lines),
                            None => cells = Some(t),
                        }
                    }
                }
                x += f64::from(g.columns.get(i).copied().unwrap_or(0.0) + COLUMN_GAP * g.scale);
            }
            y += f64::from(row_h);
        }
        y += f64::from(COMPARTMENT_PAD_Y * g.scale);
    }
    if let Some(mut t) = cells {
        t.overflows = overflows;
        parts.push(Part::Text(t));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_with_its_rows_and_cells() {
        let style = Style::default();
        let (w1, h1) = natural_size("Order\nid | int | PK", &style);
        let (w2, h2) = natural_size("Order\nid | int | PK\ncustomer_id | int | FK", &style);
        assert!(h2 > h1, "{h1} -> {h2}");
        assert!(w2 > w1, "{w1} -> {w2}");
        let (_, h0) = natural_size("Order", &style);
        assert!(h0 < h1);
    }

    #[test]
    fn a_stereotype_takes_a_line_of_its_own_above_the_name() {
        let style = Style::default();
        let (_, plain) = natural_size("Shape\n---\n+area() double", &style);
        let (_, typed) = natural_size("<<interface>> Shape\n---\n+area() double", &style);
        let line = f64::from(text::DEFAULT_FONT_SIZE * LINE_HEIGHT);
        assert!((typed - plain - line).abs() < 1.5, "{plain} -> {typed}");
    }

    #[test]
    fn a_long_cell_wraps_and_its_row_grows() {
        let style = Style::default();
        let (w1, h1) = natural_size("Order\nid | int | PK", &style);
        let word = "x".repeat(25_000);
        let (w2, h2) = natural_size(&format!("Order\nid | {word} | PK"), &style);
        assert!(w2 <= w1 + f64::from(MAX_COLUMN) + 1.0, "{w1} -> {w2}");
        assert!(h2 > h1 * 10.0, "{h1} -> {h2}");
        let (w3, _) = natural_size(&format!("{word}\n{word}"), &style);
        assert!(w3 <= f64::from(MAX_SPAN + 2.0 * PAD_X + 1.0), "{w3}");
    }
}
