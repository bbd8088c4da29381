//! `fit`: any text, in any box, at any size and in any face, through the fit rule
//! (`inkboard_render::fit`) that the renderer, `render`'s checks and the editor's
//! live fit share. The first six bytes choose the box (width and height, 0 to
//! 8,192 px), the font size (0.01 to 256 px), the font, the weight and whether the
//! text is read as rich text; the rest is the text. Every character shown must be
//! drawn (lines are never dropped, no "…"), at no less than 60% of the size set;
//! and run with `-timeout`, a text that fits slowly (a long word measured again
//! for each of its lines took minutes) is a failure.

#![no_main]

use inkboard_core::{rich, Font, Vocabulary};
use inkboard_render::fit::{fit, SHRINK_FLOOR};
use inkboard_render::text::{Typeface, Weight};
use libfuzzer_sys::fuzz_target;

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((head, text)) = data.split_first_chunk::<6>() else {
        return;
    };
    let width = f32::from(u16::from_le_bytes([head[0], head[1]])) / 8.0;
    let height = f32::from(u16::from_le_bytes([head[2], head[3]])) / 8.0;
    let size = (f32::from(head[4]) + 0.01).min(256.0);
    let font = Font::ALL[usize::from(head[5] & 3)];
    let weight = if head[5] & 4 == 0 {
        Weight::Regular
    } else {
        Weight::SemiBold
    };
    let read_rich = head[5] & 8 != 0;
    let text = String::from_utf8_lossy(text);
    let fitted = fit(
        &text,
        size,
        Typeface::new(font, weight),
        width,
        height,
        read_rich,
    );
    assert!(
        fitted.font_size <= size && fitted.font_size >= size * SHRINK_FLOOR * 0.999,
        "set at {size}, drawn at {}",
        fitted.font_size
    );
    // What is shown: rich text without its marks, with its list markers.
    let shown = if read_rich {
        rich::plain(&text)
    } else {
        text.into_owned()
    };
    let drawn: String = fitted.lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        squeeze(&drawn),
        squeeze(&shown),
        "a character was not drawn"
    );
});
