//! Font choices in other programs' files: draw.io's `fontFamily` names and
//! Excalidraw's `fontFamily` numbers, read into inkboard's four faces (sans, serif,
//! mono, hand) and written from them.

use inkboard_core::Font;

/// The face a draw.io `fontFamily` (a CSS family list) is closest to; `None` for a
/// sans-serif face (inkboard's default).
pub(crate) fn from_css(family: &str) -> Option<Font> {
    let f = family.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| f.contains(w));
    if has(&["mono", "courier", "consol", "menlo", "code"]) {
        Some(Font::Mono)
    } else if has(&[
        "architects",
        "comic",
        "hand",
        "caveat",
        "virgil",
        "excalifont",
        "marker",
        "script",
    ]) {
        Some(Font::Hand)
    } else if has(&[
        "serif", "georgia", "times", "garamond", "palatino", "cambria",
    ]) && !f.contains("sans-serif")
        && !f.contains("sans serif")
    {
        Some(Font::Serif)
    } else {
        None
    }
}

/// The draw.io style entries that choose `font` (empty for sans, draw.io's default
/// Helvetica). The hand face is a Google font, which draw.io loads by its source.
pub(crate) fn drawio_style(font: Font) -> &'static str {
    match font {
        Font::Sans => "",
        Font::Serif => "fontFamily=Georgia;",
        Font::Mono => "fontFamily=Courier New;",
        Font::Hand => "fontFamily=Architects Daughter;fontSource=https%3A%2F%2Ffonts.googleapis.com%2Fcss%3Ffamily%3DArchitects%2BDaughter;",
    }
}

/// The face an Excalidraw `fontFamily` number is: 1 Virgil and 5 Excalifont are
/// hand-drawn, 3 Cascadia and 8 Comic Shanns monospaced, the rest sans-serif.
pub(crate) fn from_excalidraw(n: f64) -> Option<Font> {
    match n as i64 {
        1 | 5 => Some(Font::Hand),
        3 | 8 => Some(Font::Mono),
        _ => None,
    }
}

/// Excalidraw's `fontFamily` for `font`: Helvetica (2) for sans, and for serif, which
/// Excalidraw has none of.
pub(crate) fn excalidraw_number(font: Option<Font>) -> u8 {
    match font {
        Some(Font::Hand) => 5,
        Some(Font::Mono) => 3,
        _ => 2,
    }
}
