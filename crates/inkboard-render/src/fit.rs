//! Text in a box: the one layout call and the one overflow rule that the renderer and
//! [`check`](crate::check) share, so that what is drawn and what is reported agree to
//! the pixel.
//!
//! **The overflow rule: clip with an ellipsis.** Text is wrapped with
//! [`text::layout`] to the width of the shape's text box
//! ([`Geom::text_box`](inkboard_core::Geom::text_box)). If the lines are taller than
//! the box, only the lines that fit are kept (always at least one), and the last kept
//! line ends with "…", shortened grapheme by grapheme until line and ellipsis fit the
//! width. Text never shrinks: a font size set by a person stays what they set. The
//! text also overflows when a single grapheme is wider than the box (a box too narrow
//! for one letter); it is drawn anyway, and reported.

use std::cell::RefCell;
use std::collections::HashMap;

use unicode_segmentation::UnicodeSegmentation;

use crate::text::{self, Line, Weight, LINE_HEIGHT};

/// The ellipsis that ends clipped text.
pub const ELLIPSIS: &str = "…";

/// Text fitted into a box.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// The lines to draw, the last one ellipsised when `clipped`.
    pub lines: Vec<Line>,
    /// Line pitch, in px.
    pub line_height: f32,
    /// `lines.len() × line_height`.
    pub height: f32,
    /// True when lines were dropped to fit the height.
    pub clipped: bool,
    /// How many lines the wrapped text has before any are dropped.
    pub wrapped_lines: usize,
    /// True when some drawn line is wider than the box.
    pub too_wide: bool,
}

impl Fitted {
    /// True when the text does not fit its box (the `text_overflow` problem).
    pub fn overflows(&self) -> bool {
        self.clipped || self.too_wide
    }
}

/// Small slack so that text sized exactly to its box (by `size_for_text`, in f64)
/// is not called too big after rounding to f32.
const SLACK: f32 = 0.01;

/// Wraps `text` into a box of `width` × `height` px, applying the overflow rule.
///
/// Results are remembered per thread (a bounded table, cleared when full): a
/// `render` resolves and checks the same page, and agents re-render pages that
/// changed little, so most fits are asked for more than once and shaping dominates.
pub fn fit(text: &str, font_size: f32, weight: Weight, width: f32, height: f32) -> Fitted {
    type Key = (String, u32, Weight, u32, u32);
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
    );
    if let Some(hit) = MEMO.with(|m| m.borrow().get(&key).cloned()) {
        return hit;
    }
    let fitted = fit_uncached(text, font_size, weight, width, height);
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= CAPACITY {
            m.clear();
        }
        m.insert(key, fitted.clone());
    });
    fitted
}

fn fit_uncached(text: &str, font_size: f32, weight: Weight, width: f32, height: f32) -> Fitted {
    let block = text::layout(text, font_size, weight, Some(width.max(0.0)));
    let line_height = font_size * LINE_HEIGHT;
    let max_lines = (((height + SLACK) / line_height).floor() as usize).max(1);
    let mut lines = block.lines;
    let wrapped_lines = lines.len();
    let clipped = wrapped_lines > max_lines;
    if clipped {
        lines.truncate(max_lines);
        if let Some(last) = lines.last_mut() {
            *last = ellipsise(&last.text, font_size, weight, width);
        }
    }
    let too_wide = lines.iter().any(|l| l.width > width + SLACK);
    Fitted {
        height: lines.len() as f32 * line_height,
        lines,
        line_height,
        clipped,
        wrapped_lines,
        too_wide,
    }
}

/// `text` + "…", dropping graphemes from the end (and the spaces before the
/// ellipsis) until it fits `width`; just "…" when nothing else fits.
fn ellipsise(text: &str, font_size: f32, weight: Weight, width: f32) -> Line {
    let mut graphemes: Vec<&str> = text.graphemes(true).collect();
    loop {
        let kept = graphemes.concat();
        let candidate = format!("{}{ELLIPSIS}", kept.trim_end());
        let w = text::line_width(&candidate, font_size, weight);
        if w <= width + SLACK || graphemes.is_empty() {
            return Line {
                text: candidate,
                width: w,
            };
        }
        graphemes.pop();
    }
}
