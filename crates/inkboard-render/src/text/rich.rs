//! Rich text in lines: each paragraph of `inkboard_core::rich` wrapped as plain text
//! is (`wrap::wrap_ranges`), measured span by span in each span's face, with list
//! items hanging from their marker.
//!
//! A bold span is set in the weight's bold face, inline code in the mono face with a
//! little room on each side for its background, and italic is drawn slanted (the
//! bundled faces have no italics), which keeps its advance: so the pieces of a line
//! are measured exactly as drawn. Each span (or each face of a span set in fallback
//! faces) is a [`Piece`] carrying its marks and link; the backends draw them one
//! `<text>` each, like the pieces of a line in several faces.
//!
//! A list item is indented by its depth; its marker ("•", or its number as written)
//! sits in a column before its text, and its wrapped lines line up under the text.

use std::ops::Range;

use inkboard_core::rich::{ListItem, Marks, Paragraph, Rich, Span};
use inkboard_core::Font;

use crate::deadline::{Deadline, Stopped};
use crate::text::faces;
use crate::text::{self, Lay, Line, Piece, TextBlock, Typeface, Weight, LINE_HEIGHT};

/// Indentation of each list level, in ems.
const LEVEL: f32 = 1.25;

/// The narrowest column a list marker stands in, in ems, and the gap after a marker
/// wider than that (a long number).
const MARKER_COLUMN: f32 = 1.25;
const MARKER_GAP: f32 = 0.35;

/// Room on each side of inline code, in ems, where its background shows.
pub const CODE_PAD: f32 = 0.2;

/// The face a span is set in.
fn face_of(tf: Typeface, marks: Marks) -> Typeface {
    Typeface::new(
        if marks.has(Marks::CODE) {
            Font::Mono
        } else {
            tf.font
        },
        if marks.has(Marks::BOLD) {
            Weight::SemiBold
        } else {
            tf.weight
        },
    )
}

/// Lays rich text out in lines, as `text::layout` (or `layout_words`) lays out plain
/// text.
pub(crate) fn layout(rich: &Rich, lay: Lay, deadline: &Deadline) -> Result<TextBlock, Stopped> {
    let mut lines = Vec::new();
    let font_size = lay.font_size;
    let columns = marker_columns(&rich.paragraphs, font_size, lay.face);
    for (p, column) in rich.paragraphs.iter().zip(columns) {
        deadline.check()?;
        if lines.len() >= lay.max_lines {
            break;
        }
        paragraph(p, column, lay, deadline, &mut lines)?;
    }
    Ok(TextBlock {
        width: lines.iter().map(|l| l.width).fold(0.0, f32::max),
        height: lines.len() as f32 * font_size * LINE_HEIGHT,
        lines,
        font_size,
        links: rich.links.clone(),
    })
}

/// The parts of `range` in each span, with the span. The spans are in order, so
/// the first is found by halving: a paragraph of thousands of spans is asked
/// about many ranges while it is wrapped.
fn segments(p: &Paragraph, range: Range<usize>) -> impl Iterator<Item = (Range<usize>, &Span)> {
    let first = p.spans.partition_point(|s| s.range.end <= range.start);
    p.spans[first..]
        .iter()
        .take_while(move |s| s.range.start < range.end)
        .filter_map(move |s| {
            let (a, b) = (s.range.start.max(range.start), s.range.end.min(range.end));
            (a < b).then_some((a..b, s))
        })
}

/// The width of `p.text[range]` as drawn.
fn width(p: &Paragraph, range: Range<usize>, font_size: f32, tf: Typeface) -> f32 {
    segments(p, range)
        .map(|(r, s)| {
            let pad = if s.marks.has(Marks::CODE) {
                2.0 * CODE_PAD * font_size
            } else {
                0.0
            };
            text::measure(&p.text[r], font_size, face_of(tf, s.marks)).0 + pad
        })
        .sum()
}

/// The width of each list item's marker column: one width for the items of a list at
/// the same depth (consecutive items, deeper ones between them), so their texts line
/// up whatever their numbers ("9." and "10."); 0 for a paragraph that is no item.
///
/// One pass per depth and kind of item (at most ten: depths 0 to 4, bullets or
/// numbers): a text of 25,000 items asked each item's list anew, item by item.
fn marker_columns(paragraphs: &[Paragraph], font_size: f32, tf: Typeface) -> Vec<f32> {
    let own: Vec<f32> = paragraphs
        .iter()
        .map(|p| {
            p.marker().map_or(0.0, |m| {
                let w = text::measure(m, font_size, tf).0;
                (MARKER_COLUMN * font_size).max(w + MARKER_GAP * font_size)
            })
        })
        .collect();
    // Bullets or numbers.
    let kind = |q: &Paragraph| matches!(q.list, Some(ListItem::Numbered(_)));
    let mut out = own.clone();
    let mut keys: Vec<(u8, bool)> = paragraphs
        .iter()
        .filter(|p| p.list.is_some())
        .map(|p| (p.depth, kind(p)))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    for (depth, k) in keys {
        // The lists of items at `depth` of kind `k`: runs of list items at that depth
        // and kind, and deeper items between them.
        let inside = |q: &Paragraph| {
            q.list.is_some() && (q.depth > depth || (q.depth == depth && kind(q) == k))
        };
        let member = |q: &Paragraph| q.depth == depth && kind(q) == k;
        let mut i = 0;
        while i < paragraphs.len() {
            if !inside(&paragraphs[i]) {
                i += 1;
                continue;
            }
            let end = i + paragraphs[i..].iter().take_while(|q| inside(q)).count();
            let widest = (i..end)
                .filter(|&j| member(&paragraphs[j]))
                .map(|j| own[j])
                .fold(0.0, f32::max);
            for j in (i..end).filter(|&j| member(&paragraphs[j])) {
                out[j] = widest;
            }
            i = end;
        }
    }
    out
}

fn paragraph(
    p: &Paragraph,
    column: f32,
    lay: Lay,
    deadline: &Deadline,
    out: &mut Vec<Line>,
) -> Result<(), Stopped> {
    let (font_size, tf) = (lay.font_size, lay.face);
    let left = f32::from(p.depth) * LEVEL * font_size;
    let marker = p.marker();
    let content = left + column;
    let ranges = if p.text.is_empty() {
        std::iter::once(0..0).collect()
    } else {
        match lay.max_width {
            None => std::iter::once(0..p.text.len()).collect(),
            Some(max) => {
                let room = max - content;
                let fits = |r| width(p, r, font_size, tf) <= room;
                let lines_left = lay.max_lines - out.len();
                crate::text::wrap::wrap_ranges(
                    &p.text,
                    fits,
                    lay.break_words,
                    lines_left,
                    deadline,
                )?
            }
        }
    };
    for (i, range) in ranges.into_iter().enumerate() {
        let mut line = Line {
            text: String::new(),
            width: content,
            pieces: Vec::new(),
        };
        if let (0, Some(m)) = (i, marker) {
            place(&mut line, m, left, font_size, tf, Marks::NONE, None);
            line.text.push(' ');
            line.width = content;
        }
        let mut x = content;
        for (r, s) in segments(p, range) {
            let pad = if s.marks.has(Marks::CODE) {
                CODE_PAD * font_size
            } else {
                0.0
            };
            x = place(
                &mut line,
                &p.text[r],
                x + pad,
                font_size,
                face_of(tf, s.marks),
                s.marks,
                s.link,
            ) + pad;
        }
        line.width = x;
        out.push(line);
    }
    Ok(())
}

/// Adds `piece` to `line` at `x`, in `tf` (and its fallbacks), with `marks` and
/// `link`; returns where it ends.
fn place(
    line: &mut Line,
    piece: &str,
    x: f32,
    font_size: f32,
    tf: Typeface,
    marks: Marks,
    link: Option<usize>,
) -> f32 {
    let offset = line.text.len();
    line.text.push_str(piece);
    let (w, parts) = text::measure(piece, font_size, tf);
    if parts.is_empty() {
        line.pieces.push(Piece {
            start: offset,
            end: line.text.len(),
            face: faces::primary(tf),
            dx: x,
            width: w,
            marks,
            link,
        });
    } else {
        line.pieces.extend(parts.into_iter().map(|p| Piece {
            start: offset + p.start,
            end: offset + p.end,
            dx: x + p.dx,
            marks,
            link,
            ..p
        }));
    }
    x + w
}
