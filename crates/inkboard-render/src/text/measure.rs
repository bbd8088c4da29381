//! Text measurement and line layout with the bundled faces and their fallbacks.
//!
//! Everything that needs to know how big a piece of text is (the renderer,
//! shape auto-sizing, hit testing) goes through this module, so they all
//! agree to the pixel. Text is shaped with `rustybuzz` 0.20, the very crate
//! (one copy in the build) that `usvg` 0.47 shapes with, with the font's
//! default features (so kerning and ligatures are on), exactly as usvg does.
//!
//! **Faces.** A line is split into runs by the fallback chain of `faces.rs`: the
//! primary face of the [`Typeface`] (Inter for a bare [`Weight`]), then the bundled
//! symbol, math and emoji faces, then the system's fonts. Each run is a piece of the
//! line shaped alone in its face (right to left where the script says so), as the
//! SVG draws it: one `<text>` per piece, at its measured place. A character no face has is measured with the primary face's
//! `.notdef` advance, which is what is drawn for it.
//!
//! **Line layout** ([`layout`]): explicit line breaks (`\n`, `\r\n`, `\r`
//! and the other Unicode mandatory breaks U+000B, U+000C, U+0085, U+2028,
//! U+2029) always start a new line. With a `max_width`, each paragraph is
//! wrapped greedily at Unicode (UAX #14) line-break opportunities, so a word
//! keeps the punctuation that follows it ("Decide?"). [`layout`] breaks a word
//! that alone is wider than `max_width` between grapheme clusters, never before
//! a punctuation mark (no line starts with the "?" of "Decide?" unless the mark
//! alone is left); [`layout_words`] never breaks inside a word and lets such a
//! word stick out of the width instead. Either way a break inside a word is
//! taken only when no break between words would fit.
//! Wrapped lines lose their trailing whitespace. Every [`Line::width`] is
//! exactly [`line_width`] of its [`Line::text`], so drawing each line's text
//! on its own reproduces the measured width.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rustybuzz::{script, Direction, Script, ShapePlan, UnicodeBuffer};

use inkboard_core::rich::Marks;

use crate::deadline::{unstoppable, Deadline, Stopped};
use crate::text::faces;
pub use crate::text::faces::{FaceRef, Run, Typeface};

/// Font size, in px, of new text.
pub const DEFAULT_FONT_SIZE: f32 = 16.0;

/// Distance between consecutive baselines, as a multiple of the font size.
pub const LINE_HEIGHT: f32 = 1.25;

/// Family name of the bundled fonts (as found in their `name` tables, so it
/// can be used as `font-family` when handing them to usvg / fontdb).
pub const FONT_FAMILY: &str = "Inter";

/// Font weight of the bundled faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Weight {
    /// Inter Regular (CSS weight 400).
    Regular,
    /// Inter SemiBold (CSS weight 600).
    SemiBold,
}

impl Weight {
    /// The CSS / SVG `font-weight` number of this face.
    pub const fn css_weight(self) -> u16 {
        match self {
            Weight::Regular => 400,
            Weight::SemiBold => 600,
        }
    }
}

/// The bundled OpenType font file of Inter in `weight` (SIL OFL 1.1, see
/// `fonts/LICENSE.txt`).
pub fn font_data(weight: Weight) -> &'static [u8] {
    faces::primary_data(weight.into())
}

/// Advance width, in px, of `text` set on a single line at `font_size` px in `face`
/// (a [`Typeface`], or a bare [`Weight`] of Inter).
///
/// The text is split into runs by the fallback chain (`faces::runs`) and shaped as
/// usvg shapes it (kerning on, bidi runs in their direction); line breaks in `text`
/// are not interpreted. Characters no face has count with the primary face's
/// `.notdef` advance (see the module docs).
pub fn line_width(text: &str, font_size: f32, face: impl Into<Typeface>) -> f32 {
    measure(text, font_size, face.into()).0
}

/// A piece of a line set in one face, drawn as a `<text>` element of its own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Piece {
    /// Byte range of the line's text.
    pub start: usize,
    pub end: usize,
    pub face: FaceRef,
    /// Its left edge, in px from the line's left edge.
    pub dx: f32,
    /// Its advance width, in px.
    pub width: f32,
    /// Rich text's marks on it (bold is already in `face`).
    pub marks: Marks,
    /// Index of the link it is the text of, in [`TextBlock::links`].
    pub link: Option<usize>,
}

/// The width of `text` (as [`line_width`]) and, unless it is all in the primary
/// face, its pieces in visual order (left to right).
///
/// A line in the primary face is one `<text>`, shaped whole. A line in several faces is
/// split into pieces, one face each, each shaped on its own and drawn as a `<text>`
/// of its own at its measured place: usvg's merge of `<tspan>`s in different
/// fonts miscounts the glyphs of a long cluster (an emoji ZWJ sequence) and
/// panics. The line's bidi runs (left-to-right base, as usvg) order the pieces: the
/// pieces of a right-to-left run go right to left.
pub(crate) fn measure(text: &str, font_size: f32, tf: Typeface) -> (f32, Vec<Piece>) {
    let runs = faces::runs(text, tf);
    let width_of = |range: std::ops::Range<usize>, face: FaceRef| {
        advance(&text[range], face) as f32 * font_size / face.face().units_per_em
    };
    match runs.as_slice() {
        [] => (0.0, Vec::new()),
        [one] if one.face == faces::primary(tf) => (width_of(one.range(), one.face), Vec::new()),
        many => {
            let mut pieces = Vec::with_capacity(many.len());
            let mut dx = 0.0;
            let mut place = |start: usize, end: usize, face: FaceRef| {
                let width = width_of(start..end, face);
                pieces.push(Piece {
                    start,
                    end,
                    face,
                    dx,
                    width,
                    marks: Marks::NONE,
                    link: None,
                });
                dx += width;
            };
            if !needs_bidi(text) {
                for r in many {
                    place(r.start, r.end, r.face);
                }
            } else {
                let info = unicode_bidi::BidiInfo::new(text, Some(unicode_bidi::Level::ltr()));
                for paragraph in &info.paragraphs {
                    let (levels, level_runs) = info.visual_runs(paragraph, paragraph.range.clone());
                    for lr in level_runs {
                        let inside = many.iter().filter_map(|r| {
                            let (s, e) = (r.start.max(lr.start), r.end.min(lr.end));
                            (s < e).then_some((s, e, r.face))
                        });
                        if levels[lr.start].is_ltr() {
                            inside.for_each(|(s, e, f)| place(s, e, f));
                        } else {
                            let mut v: Vec<_> = inside.collect();
                            v.reverse();
                            v.into_iter().for_each(|(s, e, f)| place(s, e, f));
                        }
                    }
                }
            }
            (dx, pieces)
        }
    }
}

/// True when `text` has a character whose bidi class starts a right-to-left run
/// (or an explicit embedding), so the line must be split into bidi runs.
fn needs_bidi(text: &str) -> bool {
    use unicode_bidi::BidiClass::*;
    !text.is_ascii()
        && text.chars().any(|c| {
            matches!(
                unicode_bidi::bidi_class(c),
                R | AL | AN | RLE | RLO | RLI | FSI | LRE | LRO | LRI | PDF | PDI
            )
        })
}

/// A shaped glyph, in font units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Glyph {
    pub id: u16,
    pub advance: i32,
    /// Where it is drawn from the pen position (marks, kerning pairs).
    pub dx: i32,
    pub dy: i32,
}

/// The advance of `text` shaped in `face`, in font units. Remembered per thread:
/// wrapping measures the same words and runs again for every line it tries, and
/// sizing a shape to its text tries several widths (a `batch` of 100 labelled
/// shapes spent a third of its time shaping the same pieces again).
///
/// The memory is bounded in bytes, not entries: 4,096 remembered lines of
/// 100,000 characters were hundreds of megabytes, and a text that long is rarely
/// measured twice.
fn advance(text: &str, face: FaceRef) -> i64 {
    /// Past this many bytes of remembered text the memory starts afresh.
    const REMEMBERED_BYTES: usize = 1 << 20;
    /// A longer text is not remembered.
    const LONGEST: usize = 4096;
    type Memory = (usize, HashMap<u32, HashMap<Box<str>, i64>>);
    thread_local! {
        static ADVANCES: RefCell<Memory> = RefCell::new((0, HashMap::new()));
    }
    let remembered = text.len() <= LONGEST;
    if remembered {
        let known = ADVANCES.with(|m| m.borrow().1.get(&face.id())?.get(text).copied());
        if let Some(known) = known {
            return known;
        }
    }
    let units: i64 = glyphs(text, face)
        .iter()
        .map(|g| i64::from(g.advance))
        .sum();
    if remembered {
        ADVANCES.with(|m| {
            let (bytes, m) = &mut *m.borrow_mut();
            // An entry's own keeping costs some 48 bytes besides its text.
            let cost = text.len() + 48;
            if *bytes + cost > REMEMBERED_BYTES {
                m.clear();
                *bytes = 0;
            }
            *bytes += cost;
            m.entry(face.id()).or_default().insert(text.into(), units);
        });
    }
    units
}

thread_local! {
    static SHAPED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Bytes of text shaped on this thread so far. Shaping is what laying text out
/// costs, so this counts that cost without timing it: tests hold its growth to
/// the text's (`tests/scaling.rs`), whatever the machine.
pub fn shaped_bytes() -> u64 {
    SHAPED.with(|s| s.get())
}

/// The glyphs of `text` shaped in `face`, in visual order (left to right). Like
/// usvg: the line is one paragraph with a left-to-right base direction, split into
/// bidi runs, each shaped in its own direction.
pub(crate) fn glyphs(text: &str, face: FaceRef) -> Vec<Glyph> {
    SHAPED.with(|s| s.set(s.get() + text.len() as u64));
    let mut out = Vec::with_capacity(text.len());
    if !needs_bidi(text) {
        shape_run(text, Direction::LeftToRight, face, &mut out);
        return out;
    }
    let info = unicode_bidi::BidiInfo::new(text, Some(unicode_bidi::Level::ltr()));
    for paragraph in &info.paragraphs {
        let (levels, runs) = info.visual_runs(paragraph, paragraph.range.clone());
        for run in runs {
            if run.is_empty() {
                continue;
            }
            let direction = if levels[run.start].is_ltr() {
                Direction::LeftToRight
            } else {
                Direction::RightToLeft
            };
            shape_run(&text[run.clone()], direction, face, &mut out);
        }
    }
    out
}

fn shape_run(text: &str, direction: Direction, face: FaceRef, out: &mut Vec<Glyph>) {
    let mut buffer = UnicodeBuffer::new();
    buffer.push_str(text);
    buffer.set_direction(direction);
    buffer.guess_segment_properties();
    // The guess leaves the script unset for text of common characters only (digits,
    // punctuation), and `script()` reports that as UNKNOWN, which a guess never yields.
    let script = Some(buffer.script()).filter(|&s| s != script::UNKNOWN);
    let plan = plan(face, direction, script);
    let output = rustybuzz::shape_with_plan(&face.face().rb, &plan, buffer);
    out.extend(
        output
            .glyph_infos()
            .iter()
            .zip(output.glyph_positions())
            .map(|(i, p)| Glyph {
                // rustybuzz's glyph ids are a font's u16 ids, widened.
                id: i.glyph_id as u16,
                advance: p.x_advance,
                dx: p.x_offset,
                dy: p.y_offset,
            }),
    );
}

/// The shaping plan for text of `direction` and `script` in `face`, built once per
/// process. `rustybuzz::shape` builds a fresh plan on every call, about half the
/// cost of measuring a short label (12 → 6 µs); a cached plan gives the same
/// glyphs, since a plan depends only on the face, direction, script, language
/// (never set here) and features (none). Shared by every thread: the PNG backend
/// shapes on short-lived threads of its own, which a per-thread cache would leave
/// building plans on every render.
fn plan(face: FaceRef, direction: Direction, script: Option<Script>) -> Arc<ShapePlan> {
    type Key = (u32, Direction, Option<Script>);
    static PLANS: OnceLock<Mutex<HashMap<Key, Arc<ShapePlan>>>> = OnceLock::new();
    let mut plans = PLANS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    plans
        .entry((face.id(), direction, script))
        .or_insert_with(|| {
            Arc::new(ShapePlan::new(
                &face.face().rb,
                direction,
                script,
                None,
                &[],
            ))
        })
        .clone()
}

/// One laid-out line.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The line's text, without the line break that ended it.
    pub text: String,
    /// `line_width(&text, ..)`, in px.
    pub width: f32,
    /// The pieces of a line set in more than one face, left to right (see
    /// [`measure`]); empty for a line in one face.
    pub pieces: Vec<Piece>,
}

/// The result of [`layout`].
#[derive(Clone, Debug, PartialEq)]
pub struct TextBlock {
    /// The lines, top to bottom.
    pub lines: Vec<Line>,
    /// Width of the widest line, in px.
    pub width: f32,
    /// `lines.len() * font_size * LINE_HEIGHT`, in px.
    pub height: f32,
    /// The font size the block was laid out with, in px.
    pub font_size: f32,
    /// The targets of rich text's links, which [`Piece::link`] points into.
    pub links: Vec<String>,
}

/// Lays `text` out in lines at `font_size` px.
///
/// Explicit line breaks always start a new line (a trailing `\n` therefore
/// adds an empty last line). With `Some(max_width)` paragraphs are wrapped so
/// that no line is wider than `max_width`, unless it holds a single grapheme
/// cluster that alone is wider. Wrapped lines have their trailing whitespace
/// removed; lines ended by an explicit break or the end of the text keep it.
/// Empty text gives no lines and a height of 0.
pub fn layout(
    text: &str,
    font_size: f32,
    face: impl Into<Typeface>,
    max_width: Option<f32>,
) -> TextBlock {
    let lay = Lay::new(font_size, face.into(), max_width, true);
    unstoppable(Source::Plain(text).lay_out(lay, &Deadline::none()))
}

/// Like [`layout`], but a word is never broken inside: a word wider than
/// `max_width` gets a line of its own and is wider than `max_width`.
pub fn layout_words(
    text: &str,
    font_size: f32,
    face: impl Into<Typeface>,
    max_width: Option<f32>,
) -> TextBlock {
    let lay = Lay::new(font_size, face.into(), max_width, false);
    unstoppable(Source::Plain(text).lay_out(lay, &Deadline::none()))
}

/// Lays `text` out as [`layout`] does (or [`layout_words`] with `words_whole`), reading
/// it as rich text (`inkboard_core::rich`) when `rich` is set: the text of shapes,
/// notes and text objects. Text without markup is laid out exactly as plain text.
pub fn layout_text(
    text: &str,
    font_size: f32,
    face: impl Into<Typeface>,
    max_width: Option<f32>,
    words_whole: bool,
    rich: bool,
) -> TextBlock {
    let lay = Lay::new(font_size, face.into(), max_width, !words_whole);
    unstoppable(Source::read(text, rich).lay_out(lay, &Deadline::none()))
}

/// [`layout_text`], stopping with [`Stopped`] once `deadline` has come (it is
/// checked at every line).
pub fn layout_text_within(
    text: &str,
    font_size: f32,
    face: impl Into<Typeface>,
    max_width: Option<f32>,
    words_whole: bool,
    rich: bool,
    deadline: &Deadline,
) -> Result<TextBlock, Stopped> {
    let lay = Lay::new(font_size, face.into(), max_width, !words_whole);
    Source::read(text, rich).lay_out(lay, deadline)
}

/// How text is laid out: its size and face, the width it wraps to, whether a word
/// too wide for a line is broken inside, and how many lines are wanted at most.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lay {
    pub font_size: f32,
    pub face: Typeface,
    pub max_width: Option<f32>,
    pub break_words: bool,
    /// Past this many lines the layout stops, the block cut short: the fit rule's
    /// tries only need to know that the text does not fit, and a long text in a
    /// small box is thousands of lines where two fit.
    pub max_lines: usize,
}

impl Lay {
    pub(crate) fn new(
        font_size: f32,
        face: Typeface,
        max_width: Option<f32>,
        break_words: bool,
    ) -> Self {
        Lay {
            font_size,
            face,
            max_width,
            break_words,
            max_lines: usize::MAX,
        }
    }
}

/// Text read once, to be laid out at several sizes (the fit rule tries up to a
/// dozen): plain, or rich text's paragraphs.
pub(crate) enum Source<'a> {
    Plain(&'a str),
    Rich(inkboard_core::rich::Rich),
}

impl<'a> Source<'a> {
    /// `text`, read as rich text when `rich` is set and it has markup.
    pub(crate) fn read(text: &'a str, rich: bool) -> Self {
        match rich.then(|| inkboard_core::rich::parse(text)).flatten() {
            Some(r) => Source::Rich(r),
            None => Source::Plain(text),
        }
    }

    /// The text in lines as `lay` says.
    pub(crate) fn lay_out(&self, lay: Lay, deadline: &Deadline) -> Result<TextBlock, Stopped> {
        let text = match self {
            Source::Rich(r) => return crate::text::rich::layout(r, lay, deadline),
            Source::Plain(text) => text,
        };
        let Lay {
            font_size, face, ..
        } = lay;
        let mut lines = Vec::new();
        if !text.is_empty() {
            for paragraph in inkboard_core::rich::lines(text) {
                deadline.check()?;
                if lines.len() >= lay.max_lines {
                    break;
                }
                let Some(max) = lay.max_width.filter(|_| !paragraph.is_empty()) else {
                    lines.push(make_line(paragraph, font_size, face));
                    continue;
                };
                let fits = |r| line_width(&paragraph[r], font_size, face) <= max;
                let room = lay.max_lines - lines.len();
                let wrap = crate::text::wrap::wrap_ranges(
                    paragraph,
                    fits,
                    lay.break_words,
                    room,
                    deadline,
                )?;
                for r in wrap {
                    lines.push(make_line(&paragraph[r], font_size, face));
                }
            }
        }
        let width = lines.iter().map(|l| l.width).fold(0.0, f32::max);
        let height = lines.len() as f32 * font_size * LINE_HEIGHT;
        Ok(TextBlock {
            lines,
            width,
            height,
            font_size,
            links: Vec::new(),
        })
    }
}

fn make_line(text: &str, font_size: f32, weight: Typeface) -> Line {
    let (width, pieces) = measure(text, font_size, weight);
    Line {
        text: text.to_owned(),
        width,
        pieces,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_segmentation::UnicodeSegmentation;

    const FS: f32 = DEFAULT_FONT_SIZE;
    const LOREM: &str = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do \
        eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim \
        veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea \
        commodo consequat. https://example.com/a/very/long/path/without/any/spaces";

    fn texts(block: &TextBlock) -> Vec<&str> {
        block.lines.iter().map(|l| l.text.as_str()).collect()
    }

    /// Checks the invariants every wrapped block must satisfy.
    fn check_wrapped(block: &TextBlock, max: f32, weight: Weight) {
        for line in &block.lines {
            assert_eq!(line.width, line_width(&line.text, block.font_size, weight));
            assert!(
                line.width <= max || line.text.graphemes(true).count() == 1,
                "line {:?} is {} px wide, max {max}",
                line.text,
                line.width
            );
            assert_eq!(line.text.trim_end(), line.text, "trailing whitespace kept");
        }
        let widest = block.lines.iter().map(|l| l.width).fold(0.0, f32::max);
        assert_eq!(block.width, widest);
        assert_eq!(
            block.height,
            block.lines.len() as f32 * block.font_size * LINE_HEIGHT
        );
    }

    #[test]
    fn bundled_fonts_are_opentype_cff() {
        for w in [Weight::Regular, Weight::SemiBold] {
            assert_eq!(&font_data(w)[..4], b"OTTO");
        }
        assert_ne!(font_data(Weight::Regular), font_data(Weight::SemiBold));
    }

    #[test]
    fn widths_are_positive_and_monotonic() {
        let text = "Hello, whiteboard!";
        let mut prev = 0.0;
        for (i, c) in text.char_indices() {
            let w = line_width(&text[..i + c.len_utf8()], FS, Weight::Regular);
            assert!(w > prev, "{:?}: {w} <= {prev}", &text[..i + 1]);
            prev = w;
        }
        // Plausible magnitude: 16 px Inter averages roughly 0.5 em per char.
        assert!(prev > 0.35 * FS * text.len() as f32 && prev < 0.7 * FS * text.len() as f32);
        assert_eq!(line_width("", FS, Weight::Regular), 0.0);
    }

    #[test]
    fn width_scales_with_font_size_and_weight() {
        let w16 = line_width("Hello world", 16.0, Weight::Regular);
        let w32 = line_width("Hello world", 32.0, Weight::Regular);
        assert!((w32 - 2.0 * w16).abs() < 1e-3, "{w32} vs 2 × {w16}");
        let bold = line_width("Hello world", 16.0, Weight::SemiBold);
        assert!(
            bold > w16,
            "SemiBold {bold} should be wider than Regular {w16}"
        );
    }

    #[test]
    fn kerning_is_applied() {
        for w in [Weight::Regular, Weight::SemiBold] {
            let av = line_width("AV", FS, w);
            let separate = line_width("A", FS, w) + line_width("V", FS, w);
            assert!(av < separate - 0.1, "{w:?}: AV {av} vs A+V {separate}");
        }
    }

    #[test]
    fn cached_plans_shape_like_a_fresh_plan() {
        // Digits and punctuation alone leave the script unguessed; the others pick
        // Latin, Cyrillic and Greek plans, all in Inter.
        let texts = ["123 -> 4/5", "office AV To", "Привет", "Γειά"];
        for weight in [Weight::Regular, Weight::SemiBold] {
            for text in texts {
                let mut buffer = UnicodeBuffer::new();
                buffer.push_str(text);
                let face = faces::primary(weight.into()).face();
                let fresh = rustybuzz::shape(&face.rb, &[], buffer);
                let units: i64 = fresh
                    .glyph_positions()
                    .iter()
                    .map(|p| i64::from(p.x_advance))
                    .sum();
                let expected = units as f32 * FS / face.units_per_em;
                // Twice, so the second call takes the cached plan.
                assert_eq!(line_width(text, FS, weight), expected, "{text:?}");
                assert_eq!(line_width(text, FS, weight), expected, "{text:?}");
            }
        }
    }

    #[test]
    fn missing_glyphs_use_notdef_advance() {
        // A character of the last private-use plane is in no font: it counts as Inter's .notdef.
        let one = line_width("\u{10FFFD}", FS, Weight::Regular);
        assert!(one > 0.0);
        let mixed = line_width("a\u{10FFFD}b", FS, Weight::Regular);
        let parts =
            line_width("a", FS, Weight::Regular) + one + line_width("b", FS, Weight::Regular);
        assert!((mixed - parts).abs() < 1e-3, "{mixed} vs {parts}");
    }

    #[test]
    fn fallback_faces_are_measured() {
        // An arrow Inter lacks is set in the bundled symbols face, an emoji in the
        // emoji face: each is one run, measured with its own advance.
        let block = layout("a ⇶ b 😀", FS, Weight::Regular, None);
        let families: Vec<&str> = block.lines[0]
            .pieces
            .iter()
            .map(|r| r.face.family())
            .collect();
        assert_eq!(
            families,
            ["Inter", "Inkboard Symbols", "Inter", "Inkboard Emoji"]
        );
        assert!(block.width > line_width("a  b ", FS, Weight::Regular));
    }

    #[test]
    fn empty_text_has_no_lines() {
        let block = layout("", 20.0, Weight::Regular, Some(100.0));
        assert!(block.lines.is_empty());
        assert_eq!(block.width, 0.0);
        assert_eq!(block.height, 0.0);
        assert_eq!(block.font_size, 20.0);
        assert_eq!(layout("", FS, Weight::Regular, None).height, 0.0);
    }

    #[test]
    fn explicit_newlines() {
        for max in [None, Some(1000.0)] {
            let block = layout("one\ntwo\n\nthree\r\nfour\n", FS, Weight::Regular, max);
            assert_eq!(texts(&block), ["one", "two", "", "three", "four", ""]);
            assert_eq!(block.height, 6.0 * FS * LINE_HEIGHT);
            assert_eq!(block.lines[2].width, 0.0);
            assert_eq!(block.width, line_width("three", FS, Weight::Regular));
        }
        let block = layout("a\u{2028}b\rc", FS, Weight::Regular, None);
        assert_eq!(texts(&block), ["a", "b", "c"]);
        assert_eq!(texts(&layout("\n", FS, Weight::Regular, None)), ["", ""]);
    }

    #[test]
    fn no_max_width_means_no_wrapping() {
        let block = layout(LOREM, FS, Weight::Regular, None);
        assert_eq!(texts(&block), [LOREM]);
        assert_eq!(block.width, line_width(LOREM, FS, Weight::Regular));
        assert_eq!(block.height, FS * LINE_HEIGHT);
    }

    #[test]
    fn wrapping_respects_max_width() {
        for weight in [Weight::Regular, Weight::SemiBold] {
            for max in [40.0, 75.0, 120.0, 200.0, 333.3, 1000.0] {
                let block = layout(LOREM, FS, weight, Some(max));
                check_wrapped(&block, max, weight);
                // Nothing but whitespace at the breaks is lost.
                let rejoined: String = texts(&block).concat();
                let original: String = LOREM.split_whitespace().collect();
                assert_eq!(rejoined.replace(' ', ""), original, "max {max}");
                if max >= 200.0 {
                    // Greedy: the next word would not have fitted on the line.
                    for pair in block.lines.windows(2) {
                        let next_word = pair[1].text.split(' ').next().unwrap();
                        let joined = format!("{} {next_word}", pair[0].text);
                        assert!(line_width(&joined, FS, weight) > max, "{joined:?}");
                    }
                }
            }
        }
        let block = layout("Hello world", FS, Weight::Regular, Some(60.0));
        assert_eq!(texts(&block), ["Hello", "world"]);
    }

    #[test]
    fn wide_enough_box_keeps_one_line() {
        let w = line_width("Hello world", FS, Weight::Regular);
        assert_eq!(
            texts(&layout("Hello world", FS, Weight::Regular, Some(w))),
            ["Hello world"]
        );
        assert_eq!(
            texts(&layout("Hello world", FS, Weight::Regular, Some(w - 0.01))),
            ["Hello", "world"]
        );
    }

    #[test]
    fn long_words_are_broken_between_graphemes() {
        let word = "Supercalifragilisticexpialidocious";
        let max = 50.0;
        let block = layout(word, FS, Weight::Regular, Some(max));
        assert!(block.lines.len() >= 4, "{:?}", texts(&block));
        check_wrapped(&block, max, Weight::Regular);
        assert_eq!(texts(&block).concat(), word);
        // Each line is as full as possible.
        for pair in block.lines.windows(2) {
            let next = pair[1].text.chars().next().unwrap();
            let longer = format!("{}{next}", pair[0].text);
            assert!(line_width(&longer, FS, Weight::Regular) > max);
        }

        // The tail of a broken word shares its line with following words.
        let block = layout("aaaaaaaaaaaaa b", FS, Weight::Regular, Some(60.0));
        check_wrapped(&block, 60.0, Weight::Regular);
        assert_eq!(texts(&block), ["aaaaaa", "aaaaaa", "a b"]);

        // Combining marks stay with their base character.
        let block = layout("e\u{301}e\u{301}e\u{301}", FS, Weight::Regular, Some(1.0));
        assert_eq!(texts(&block), ["e\u{301}"; 3]);
    }

    #[test]
    fn tiny_max_width_puts_each_grapheme_on_its_own_line() {
        let block = layout("ab cd", FS, Weight::Regular, Some(1.0));
        assert_eq!(texts(&block), ["a", "b", "c", "d"]);
        check_wrapped(&block, 1.0, Weight::Regular);
        let block = layout("日本", FS, Weight::Regular, Some(0.0));
        assert_eq!(texts(&block), ["日", "本"]);
    }

    #[test]
    fn trailing_spaces_trimmed_only_when_wrapped() {
        let block = layout("Hello     world  ", FS, Weight::Regular, Some(60.0));
        assert_eq!(texts(&block), ["Hello", "world"]);
        let block = layout("Hello  ", FS, Weight::Regular, None);
        assert_eq!(texts(&block), ["Hello  "]);
        assert!(block.width > line_width("Hello", FS, Weight::Regular));
    }

    #[test]
    fn measuring_is_fast() {
        // Warm the face cache, then time a typical label.
        line_width("x", FS, Weight::Regular);
        let start = std::time::Instant::now();
        let n = 200;
        for _ in 0..n {
            std::hint::black_box(line_width("Sticky note label", FS, Weight::Regular));
        }
        let per_call = start.elapsed() / n;
        // Generous bound (debug builds, shared CI machines).
        assert!(per_call.as_millis() < 5, "{per_call:?} per line_width call");
    }
}
