//! Rich text in lines: each paragraph of `inkboard_core::rich` wrapped as plain text
//! is ([`text::wrap_ranges`]), measured span by span in each span's face, with list
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

use inkboard_core::rich::{Marks, Paragraph, Rich, Span};
use inkboard_core::Font;

use crate::faces;
use crate::text::{self, Line, Piece, TextBlock, Typeface, Weight, LINE_HEIGHT};

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
pub(crate) fn layout(
    rich: &Rich,
    font_size: f32,
    tf: Typeface,
    max_width: Option<f32>,
    break_words: bool,
) -> TextBlock {
    let mut lines = Vec::new();
    let columns = marker_columns(&rich.paragraphs, font_size, tf);
    for (p, column) in rich.paragraphs.iter().zip(columns) {
        paragraph(p, column, font_size, tf, max_width, break_words, &mut lines);
    }
    TextBlock {
        width: lines.iter().map(|l| l.width).fold(0.0, f32::max),
        height: lines.len() as f32 * font_size * LINE_HEIGHT,
        lines,
        font_size,
        links: rich.links.clone(),
    }
}

/// The parts of `range` in each span, with the span.
fn segments(p: &Paragraph, range: Range<usize>) -> impl Iterator<Item = (Range<usize>, &Span)> {
    p.spans.iter().filter_map(move |s| {
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
    let mut out = own.clone();
    for (i, p) in paragraphs.iter().enumerate() {
        if p.list.is_none() {
            continue;
        }
        // The list this item is in: neighbouring items of its kind (bullets or
        // numbers) at its depth, and any deeper items between them.
        let kind = |q: &Paragraph| q.list.as_ref().map(std::mem::discriminant);
        let same = |q: &Paragraph| {
            q.list.is_some() && (q.depth > p.depth || (q.depth == p.depth && kind(q) == kind(p)))
        };
        let before = paragraphs[..i].iter().rev().take_while(|q| same(q)).count();
        let after = paragraphs[i..].iter().take_while(|q| same(q)).count();
        out[i] = (i - before..i + after)
            .filter(|&j| paragraphs[j].depth == p.depth)
            .map(|j| own[j])
            .fold(0.0, f32::max);
    }
    out
}

fn paragraph(
    p: &Paragraph,
    column: f32,
    font_size: f32,
    tf: Typeface,
    max_width: Option<f32>,
    break_words: bool,
    out: &mut Vec<Line>,
) {
    let left = f32::from(p.depth) * LEVEL * font_size;
    let marker = p.marker();
    let content = left + column;
    let ranges = if p.text.is_empty() {
        std::iter::once(0..0).collect()
    } else {
        match max_width {
            None => std::iter::once(0..p.text.len()).collect(),
            Some(max) => {
                let room = max - content;
                text::wrap_ranges(&p.text, |r| width(p, r, font_size, tf) <= room, break_words)
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
