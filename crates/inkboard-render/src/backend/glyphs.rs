//! Letters drawn from glyph outlines, for the PNG backend.
//!
//! usvg lays out every `<text>` it parses anew: it builds a shaping face for each
//! piece of text (the whole of Inter's layout tables, each time) and parses the font
//! again for each glyph of each picture. That was a third of a 199-object flow's
//! render, and two thirds with CJK and emoji. A scene's text is already laid out
//! ([`PlacedLine`]), in faces loaded once (`text/faces.rs`), so the PNG backend shapes
//! each piece with those faces and the shared plans of `text/measure.rs`, takes each glyph's
//! outline from a cache kept for the life of the process, and draws the letters
//! itself (from cached coverage masks, `coverage.rs`; a turned item's as one
//! filled path), right after the item's other parts, which usvg still draws from
//! the SVG written without the letters (`svg::to_svg_pieces`). The shaper, the
//! faces and the places are the ones usvg would use for that SVG, so the letters
//! are the same, to a quarter pixel.
//!
//! An item whose letters are not its last parts, that is translucent as a whole
//! (an item's opacity applies to its parts composited together), or whose text
//! uses a face with colour or bitmap glyphs (a system colour emoji font, which has
//! no outlines to fill), keeps its text in the SVG, for usvg to draw.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use inkboard_core::rich::Marks;
use rustybuzz::ttf_parser;
use tiny_skia::{Path, PathBuilder, Transform};

use crate::backend::coverage::{self, Letter};
use crate::backend::svg::{link_color, SLANT};
use crate::scene::{Item, Part, Rgba, TextPart};
use crate::text;
use crate::text::faces::{self, FaceRef};
use crate::theme::Theme;

/// Letters of one colour, in drawing order.
pub(crate) struct Ink {
    pub color: Rgba,
    /// Where they lie on the board: what a band they miss skips.
    pub bounds: tiny_skia::Rect,
    pub letters: Letters,
}

/// How a run of letters is drawn.
pub(crate) enum Letters {
    /// Each from its cached coverage (`coverage.rs`).
    Cached(Vec<Letter>),
    /// As one path in board units: the letters of a turned item, whose masks
    /// would be turned too.
    Outlines(Path),
}

/// Whether the PNG backend draws `item`'s letters itself (see the module's notes):
/// not when a face of its text has colour or bitmap glyphs (a system colour emoji
/// font), which have no outline to fill and which usvg draws.
pub(crate) fn draws_text(item: &Item) -> bool {
    let first_text = item.parts.iter().position(|p| matches!(p, Part::Text(_)));
    let Some(i) = first_text else {
        return false;
    };
    item.opacity >= 1.0
        && item.parts[i..].iter().all(|p| match p {
            Part::Text(t) => faces_of(t).all(outlines_only),
            _ => false,
        })
}

/// The faces `t` is drawn in.
fn faces_of(t: &TextPart) -> impl Iterator<Item = FaceRef> + '_ {
    let plain = faces::primary(t.face);
    t.lines.iter().flat_map(move |line| {
        let whole = line.pieces.is_empty().then_some(plain);
        whole.into_iter().chain(line.pieces.iter().map(|p| p.face))
    })
}

/// Whether every glyph of `face` is an outline: no colour layers, bitmaps or SVG.
fn outlines_only(face: FaceRef) -> bool {
    let t = face.face().rb.tables();
    t.colr.is_none()
        && t.svg.is_none()
        && t.sbix.is_none()
        && t.cbdt.is_none()
        && t.ebdt.is_none()
        && t.bdat.is_none()
}

/// The letters of `item` when [`draws_text`], in drawing order and `theme`'s
/// colours (as the SVG paints them); none otherwise.
pub(crate) fn ink(item: &Item, theme: Theme) -> Vec<Ink> {
    if !draws_text(item) {
        return Vec::new();
    }
    let turn = item.turn.map(|t| {
        Transform::from_rotate_at(t.rotation.deg() as f32, t.about.x as f32, t.about.y as f32)
    });
    let mut runs = Vec::new();
    for part in &item.parts {
        if let Part::Text(t) = part {
            text_ink(t, theme, &mut runs);
        }
    }
    runs.into_iter()
        .filter_map(|(color, letters)| {
            let bounds = bounds(&letters, turn)?;
            let letters = match turn {
                None => Letters::Cached(letters),
                Some(turn) => Letters::Outlines(outlines(&letters, turn)?),
            };
            Some(Ink {
                color,
                bounds,
                letters,
            })
        })
        .collect()
}

/// Where `letters` lie on the board, turned by `turn`.
fn bounds(letters: &[Letter], turn: Option<Transform>) -> Option<tiny_skia::Rect> {
    let turn = turn.unwrap_or_default();
    coverage::join(
        letters
            .iter()
            .filter_map(|l| l.outline.bounds().transform(turn.pre_concat(on_board(l)))),
    )
}

/// The outlines of `letters`, turned by `turn`, as one path in board units.
fn outlines(letters: &[Letter], turn: Transform) -> Option<Path> {
    let mut builder = PathBuilder::new();
    for l in letters {
        if let Some(p) = l
            .outline
            .as_ref()
            .clone()
            .transform(turn.pre_concat(on_board(l)))
        {
            builder.push_path(&p);
        }
    }
    builder.finish()
}

/// From `l`'s font units (y up) to board units: placed at its pen, scaled, and
/// slanted about the baseline when italic (as the SVG's `<text transform>`).
fn on_board(l: &Letter) -> Transform {
    let skew = if l.italic { SLANT * l.scale } else { 0.0 };
    Transform::from_row(l.scale, 0.0, skew, -l.scale, l.x, l.baseline)
}

/// Runs of letters of one colour, being built, in drawing order.
type Runs = Vec<(Rgba, Vec<Letter>)>;

fn text_ink(t: &TextPart, theme: Theme, out: &mut Runs) {
    let plain = faces::primary(t.face);
    for line in &t.lines {
        if line.text.is_empty() {
            continue;
        }
        let left = line.left(t.anchor);
        if line.pieces.is_empty() {
            let at = (left, line.baseline);
            let run = run(out, theme.paint(t.color));
            letters(&line.text, plain, t.font_size, at, false, run);
            continue;
        }
        for p in &line.pieces {
            let piece = &line.text[p.start..p.end];
            if piece.trim().is_empty() {
                continue;
            }
            let color = theme.paint(if t.href(p).is_some() {
                link_color(t.color)
            } else {
                t.color
            });
            let italic = p.marks.has(Marks::ITALIC);
            let at = (left + p.dx, line.baseline);
            letters(piece, p.face, t.font_size, at, italic, run(out, color));
        }
    }
}

/// The run of `out` letters of `color` go on: the last when it is of that
/// colour (one run for a label instead of one per piece), else a new one.
fn run(out: &mut Runs, color: Rgba) -> &mut Vec<Letter> {
    if out.last().is_none_or(|(c, _)| *c != color) {
        out.push((color, Vec::new()));
    }
    &mut out.last_mut().expect("a run was just pushed").1
}

/// The letters of `text` shaped in `face` at `font_size`, the pen starting at
/// `(x, baseline)`, slanted about the baseline when `italic` (as the SVG's
/// `<text transform>`), added to `out`.
fn letters(
    text: &str,
    face: FaceRef,
    font_size: f32,
    (x, baseline): (f32, f32),
    italic: bool,
    out: &mut Vec<Letter>,
) {
    let scale = font_size / face.face().units_per_em;
    let mut pen = 0i64;
    for g in shaped(text, face).iter() {
        if let Some(outline) = outline(face, g.id) {
            let gy = baseline - g.dy as f32 * scale;
            // The slant turns about the line's baseline, not the letter's.
            let lean = if italic { SLANT * (gy - baseline) } else { 0.0 };
            out.push(Letter {
                face: face.id(),
                glyph: g.id,
                outline,
                x: x + (pen + i64::from(g.dx)) as f32 * scale - lean,
                baseline: gy,
                scale,
                em: font_size,
                italic,
            });
        }
        pen += i64::from(g.advance);
    }
}

/// The glyphs of `text` shaped in `face`, remembered for the process: a board's
/// labels come back in every picture, and shaping them again was a tenth of a
/// 199-object flow's PNG (callgrind). The pictures' threads live for one picture,
/// so the memory is shared, read under a shared lock. Bounded in bytes of text
/// (as `measure.rs`'s advances): past `REMEMBERED_BYTES` it starts afresh, and
/// a text longer than `LONGEST` is shaped each time.
fn shaped(text: &str, face: FaceRef) -> Arc<[text::Glyph]> {
    const REMEMBERED_BYTES: usize = 1 << 20;
    const LONGEST: usize = 4096;
    type Memory = (usize, HashMap<u32, HashMap<Box<str>, Arc<[text::Glyph]>>>);
    static SHAPED: OnceLock<RwLock<Memory>> = OnceLock::new();
    let memory = SHAPED.get_or_init(Default::default);
    if text.len() > LONGEST {
        return text::glyphs(text, face).into();
    }
    let known = memory
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .1
        .get(&face.id())
        .and_then(|m| m.get(text).cloned());
    if let Some(known) = known {
        return known;
    }
    let glyphs: Arc<[text::Glyph]> = text::glyphs(text, face).into();
    let mut memory = memory
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let (bytes, m) = &mut *memory;
    // An entry's own keeping: its text, its glyphs and some 64 bytes.
    let cost = text.len() + glyphs.len() * std::mem::size_of::<text::Glyph>() + 64;
    if *bytes + cost > REMEMBERED_BYTES {
        m.clear();
        *bytes = 0;
    }
    *bytes += cost;
    m.entry(face.id())
        .or_default()
        .insert(text.into(), glyphs.clone());
    glyphs
}

/// The outline of glyph `id` of `face`, in font units (y up); `None` for a glyph
/// with none (a space). Parsed once per process: a label's letters come back in
/// every picture.
///
/// Kept for the life of the process, as the faces are: at most every glyph of
/// the faces a picture used, a few MB for a CJK face's 65,000. Read under a shared
/// lock, as every parse thread of every render asks it.
fn outline(face: FaceRef, id: u16) -> Option<Arc<Path>> {
    type Cache = HashMap<(u32, u16), Option<Arc<Path>>>;
    static OUTLINES: OnceLock<RwLock<Cache>> = OnceLock::new();
    let cache = OUTLINES.get_or_init(Default::default);
    let key = (face.id(), id);
    let known = cache
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(&key)
        .cloned();
    if let Some(found) = known {
        return found;
    }
    let mut builder = Outline(PathBuilder::new());
    let made = face
        .face()
        .rb
        .outline_glyph(ttf_parser::GlyphId(id), &mut builder)
        .and_then(|_| builder.0.finish())
        .map(Arc::new);
    cache
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .insert(key, made.clone());
    made
}

/// A glyph outline collected into a tiny-skia path.
struct Outline(PathBuilder);

impl ttf_parser::OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.move_to(x, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.line_to(x, y);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.0.quad_to(x1, y1, x, y);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.0.cubic_to(x1, y1, x2, y2, x, y);
    }
    fn close(&mut self) {
        self.0.close();
    }
}
