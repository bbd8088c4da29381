//! Text in a box: the one layout call and the one fit rule that the renderer and
//! [`check`](crate::check) share, so that what is drawn and what is reported agree to
//! the pixel.
//!
//! **The fit rule: shrink, then overflow; never cut.** Text is wrapped with
//! [`text::layout_words`] to the width of the shape's text box
//! ([`Geom::text_box`](inkboard_core::Geom::text_box)) at the font size that was set.
//! If it does not fit (a line wider than the box, or more lines than the box is
//! tall), the font shrinks in steps of 5% of the set size, down to a floor of
//! [`SHRINK_FLOOR`] (60%), to the largest step at which it fits with every word
//! whole. If none does, the same search is made again allowing words to break
//! between graphemes ([`text::layout`]; never before punctuation), which keeps a
//! long word or URL inside a narrow box. Past the floor, the text is drawn at the
//! floor with every word whole, and runs past the edges of its box: it
//! **overflows**, visibly, and [`check`](crate::check) reports `text_overflow`.
//! Every character of the text is always drawn: lines are never dropped and no
//! "…" is ever added, so search and copy find the whole text in SVG and PDF.
//!
//! A box is always tall enough for one line: the glyphs of a line are shorter than
//! its pitch, so a single line in a box a little shorter than the pitch is fine.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::text::{self, Line, TextBlock, Typeface, LINE_HEIGHT};

/// The smallest share of its set size that text is shrunk to before it overflows.
pub const SHRINK_FLOOR: f32 = 0.6;

/// The shares of the set font size that are tried, largest first: steps of 5%.
const STEPS: [f32; 9] = [1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, SHRINK_FLOOR];

/// Text fitted into a box.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// Every line of the text, top to bottom: nothing is dropped or cut.
    pub lines: Vec<Line>,
    /// The font size the lines are set at, in px: the set size, or smaller (not
    /// below [`SHRINK_FLOOR`] of it) when the text had to shrink to fit.
    pub font_size: f32,
    /// Line pitch, in px (`font_size × LINE_HEIGHT`).
    pub line_height: f32,
    /// `lines.len() × line_height`.
    pub height: f32,
    /// True when even at the floor the text does not fit its box, and runs past its
    /// edges (the `text_overflow` problem).
    pub overflows: bool,
    /// The targets of rich text's links (`text::Piece::link`).
    pub links: Vec<String>,
}

impl Fitted {
    /// True when the text does not fit its box (the `text_overflow` problem).
    pub fn overflows(&self) -> bool {
        self.overflows
    }
}

/// Small slack so that text sized exactly to its box (by `size_for_text`, in f64)
/// is not called too big after rounding to f32.
const SLACK: f32 = 0.01;

/// Fits `text`, set at `font_size`, into a box of `width` × `height` px by the fit
/// rule (see the module docs), reading it as rich text when `rich` is set (the text
/// of shapes, notes and text objects; not frame titles or connector labels).
///
/// Results are remembered per thread (a bounded table, cleared when full): a
/// `render` resolves and checks the same page, and agents re-render pages that
/// changed little, so most fits are asked for more than once and shaping dominates.
pub fn fit(
    text: &str,
    font_size: f32,
    face: impl Into<Typeface>,
    width: f32,
    height: f32,
    rich: bool,
) -> Fitted {
    let weight: Typeface = face.into();
    type Key = (String, u32, Typeface, u32, u32, bool);
    const CAPACITY: usize = 8192;
    thread_local! {
        static MEMO: RefCell<HashMap<Key, Fitted>> = RefCell::new(HashMap::new());
    }
    let key = (
        text.to_owned(),
        font_size.to_bits(),
        weight,
        width.to_bits(),
        height.to_bits(),
        rich,
    );
    if let Some(hit) = MEMO.with(|m| m.borrow().get(&key).cloned()) {
        return hit;
    }
    let fitted = fit_uncached(text, font_size, weight, width, height, rich);
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= CAPACITY {
            m.clear();
        }
        m.insert(key, fitted.clone());
    });
    fitted
}

fn fit_uncached(
    text: &str,
    font_size: f32,
    weight: Typeface,
    width: f32,
    height: f32,
    rich: bool,
) -> Fitted {
    let width = width.max(0.0);
    let fits = |block: &TextBlock| {
        let line_height = block.font_size * LINE_HEIGHT;
        let max_lines = (((height + SLACK) / line_height).floor() as usize).max(1);
        block.lines.len() <= max_lines && block.lines.iter().all(|l| l.width <= width + SLACK)
    };
    // Most text fits at its own size: one layout, as before any shrinking.
    let lay = |share: f32, words_whole: bool| {
        text::layout_text(
            text,
            font_size * share,
            weight,
            Some(width),
            words_whole,
            rich,
        )
    };
    let whole = |share: f32| lay(share, true);
    let whole = match shrink(whole, fits) {
        Ok(block) => return fitted(block, false),
        Err(floor) => floor,
    };
    // No size keeps every word whole and fits: words may break inside.
    let broken = |share: f32| lay(share, false);
    match shrink(broken, fits) {
        Ok(block) => fitted(block, false),
        // Nothing fits: drawn at the floor with every word whole (a word cut in
        // pieces reads worse than one that sticks out), past the edges.
        Err(_) => fitted(whole, true),
    }
}

/// The layout by `lay` (given a share of the set size) at the largest step of
/// [`STEPS`] that `fits`, or, when none does, `Err` with the layout at the floor.
fn shrink(
    lay: impl Fn(f32) -> TextBlock,
    fits: impl Fn(&TextBlock) -> bool,
) -> Result<TextBlock, TextBlock> {
    let set = lay(1.0);
    if fits(&set) {
        return Ok(set);
    }
    let floor = lay(SHRINK_FLOOR);
    if !fits(&floor) {
        return Err(floor);
    }
    // Binary search for the largest step that fits: `lo` does not, `hi` does.
    // (Smaller text needs no more lines, so fitting only gets easier going down.)
    let (mut lo, mut hi, mut best) = (0, STEPS.len() - 1, floor);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        let block = lay(STEPS[mid]);
        if fits(&block) {
            (hi, best) = (mid, block);
        } else {
            lo = mid;
        }
    }
    Ok(best)
}

fn fitted(block: TextBlock, overflows: bool) -> Fitted {
    let line_height = block.font_size * LINE_HEIGHT;
    Fitted {
        height: block.lines.len() as f32 * line_height,
        font_size: block.font_size,
        line_height,
        lines: block.lines,
        overflows,
        links: block.links,
    }
}
