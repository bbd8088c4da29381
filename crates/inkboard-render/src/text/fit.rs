//! Text in a box: the one layout call and the one fit rule that the renderer and
//! [`check`](crate::check) share, so that what is drawn and what is reported agree to
//! the pixel.
//!
//! **The fit rule: shrink, then overflow; never cut.** Text is wrapped with
//! [`text::layout_words`](crate::text::layout_words) to the width of the shape's text box
//! ([`Geom::text_box`](inkboard_core::Geom::text_box)) at the font size that was set.
//! If it does not fit (a line wider than the box, or more lines than the box is
//! tall), the font shrinks in steps of 5% of the set size, down to a floor of
//! [`SHRINK_FLOOR`] (60%), to the largest step at which it fits with every word
//! whole. If none does, the same search is made again allowing words to break
//! between graphemes ([`text::layout`](crate::text::layout); never before punctuation), which keeps a
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

use crate::deadline::{unstoppable, Deadline, Stopped};
use crate::text::{Lay, Line, Source, TextBlock, Typeface, LINE_HEIGHT};

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
/// Results are remembered per thread (a table bounded in bytes, cleared when
/// full): a `render` resolves and checks the same page, and agents re-render pages
/// that changed little, so most fits are asked for more than once and shaping
/// dominates.
pub fn fit(
    text: &str,
    font_size: f32,
    face: impl Into<Typeface>,
    width: f32,
    height: f32,
    rich: bool,
) -> Fitted {
    let d = Deadline::none();
    unstoppable(fit_within(text, font_size, face, width, height, rich, &d))
}

/// [`fit`], stopping with [`Stopped`] once `deadline` has come (checked at each
/// layout tried and each line wrapped). A fit that stopped is not remembered.
pub fn fit_within(
    text: &str,
    font_size: f32,
    face: impl Into<Typeface>,
    width: f32,
    height: f32,
    rich: bool,
    deadline: &Deadline,
) -> Result<Fitted, Stopped> {
    let weight: Typeface = face.into();
    type Key = (String, u32, Typeface, u32, u32, bool);
    /// Bytes of text (asked about and laid out) remembered before the table starts
    /// afresh: thousands of labels, or a few pages of long texts. Counting entries
    /// let 8,192 texts of 100,000 characters take gigabytes.
    const CAPACITY: usize = 16 << 20;
    thread_local! {
        static MEMO: RefCell<(usize, HashMap<Key, Fitted>)> = RefCell::new((0, HashMap::new()));
    }
    let key = (
        text.to_owned(),
        font_size.to_bits(),
        weight,
        width.to_bits(),
        height.to_bits(),
        rich,
    );
    if let Some(hit) = MEMO.with(|m| m.borrow().1.get(&key).cloned()) {
        return Ok(hit);
    }
    let fitted = fit_uncached(text, font_size, weight, width, height, rich, deadline)?;
    MEMO.with(|m| {
        let (bytes, m) = &mut *m.borrow_mut();
        // The text twice (the key, the lines) and each line's keeping.
        let cost = 2 * text.len() + 64 * fitted.lines.len() + 128;
        if *bytes + cost > CAPACITY {
            m.clear();
            *bytes = 0;
        }
        *bytes += cost;
        m.insert(key, fitted.clone());
    });
    Ok(fitted)
}

fn fit_uncached(
    text: &str,
    font_size: f32,
    weight: Typeface,
    width: f32,
    height: f32,
    rich: bool,
    deadline: &Deadline,
) -> Result<Fitted, Stopped> {
    let width = width.max(0.0);
    let max_lines = |font_size: f32| {
        let line_height = font_size * LINE_HEIGHT;
        (((height + SLACK) / line_height).floor() as usize).max(1)
    };
    let fits = |block: &TextBlock| {
        block.lines.len() <= max_lines(block.font_size)
            && block.lines.iter().all(|l| l.width <= width + SLACK)
    };
    // Read once, laid out at each size tried.
    let source = Source::read(text, rich);
    let lay = |share: f32, words_whole: bool| {
        let size = font_size * share;
        let mut lay = Lay::new(size, weight, Some(width), !words_whole);
        // A line more than fits tells that the text does not: a try stops there.
        lay.max_lines = max_lines(size).saturating_add(1);
        source.lay_out(lay, deadline)
    };
    // Most text fits at its own size: one layout, as before any shrinking.
    let whole = |share: f32| lay(share, true);
    if let Ok(block) = shrink(whole, fits)? {
        return Ok(fitted(block, false));
    }
    // No size keeps every word whole and fits: words may break inside.
    let broken = |share: f32| lay(share, false);
    if let Ok(block) = shrink(broken, fits)? {
        return Ok(fitted(block, false));
    }
    // Nothing fits: drawn at the floor with every word whole (a word cut in pieces
    // reads worse than one that sticks out), past the edges, every line of it.
    let floor = Lay::new(font_size * SHRINK_FLOOR, weight, Some(width), false);
    Ok(fitted(source.lay_out(floor, deadline)?, true))
}

/// The layout by `lay` (given a share of the set size) at the largest step of
/// [`STEPS`] that `fits`, or, when none does, `Err` with the layout at the floor
/// (as `lay` gives it: cut short past the lines that fit).
fn shrink(
    lay: impl Fn(f32) -> Result<TextBlock, Stopped>,
    fits: impl Fn(&TextBlock) -> bool,
) -> Result<Result<TextBlock, TextBlock>, Stopped> {
    let set = lay(1.0)?;
    if fits(&set) {
        return Ok(Ok(set));
    }
    let floor = lay(SHRINK_FLOOR)?;
    if !fits(&floor) {
        return Ok(Err(floor));
    }
    // Binary search for the largest step that fits: `lo` does not, `hi` does.
    // (Smaller text needs no more lines, so fitting only gets easier going down.)
    let (mut lo, mut hi, mut best) = (0, STEPS.len() - 1, floor);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        let block = lay(STEPS[mid])?;
        if fits(&block) {
            (hi, best) = (mid, block);
        } else {
            lo = mid;
        }
    }
    Ok(Ok(best))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{shaped_bytes, Weight};

    #[test]
    fn a_deadline_stops_a_fit_inside_and_nothing_stopped_is_remembered() {
        // Thousands of lines at the floor, drawn past the box's edges, no two
        // alike (a line measured before is remembered, and costs nothing).
        let mut x = 1u32;
        let text: String = (0..50_000)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                b"abcdefgh "[(x >> 16) as usize % 9] as char
            })
            .collect();
        let (w, h) = (300.0, 60.0);
        let before = shaped_bytes();
        let deadline = Deadline::after_checks(20);
        let stopped = fit_within(&text, 16.0, Weight::Regular, w, h, true, &deadline);
        let partial = shaped_bytes() - before;
        assert_eq!(stopped, Err(Stopped::TimedOut));
        // Stopped twenty lines in: a small share of the work of the whole fit.
        let before = shaped_bytes();
        let whole = fit(&text, 16.0, Weight::Regular, w, h, true);
        let all = shaped_bytes() - before;
        assert!(
            partial * 20 < all,
            "{partial} of {all} bytes shaped before it stopped"
        );
        assert!(
            whole.overflows && whole.lines.len() > 500,
            "{}",
            whole.lines.len()
        );
        // A remembered fit costs nothing: it is answered even past a deadline.
        let past = Deadline::after_checks(0);
        assert_eq!(
            fit_within(&text, 16.0, Weight::Regular, w, h, true, &past),
            Ok(whole)
        );
    }
}
