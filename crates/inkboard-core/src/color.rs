//! Colours: the palette, with the two tones of each name, and the one parser of
//! colour text that files, tool arguments and imports all go through.
//!
//! A colour is written as CSS hex, a palette name or a CSS colour name. Palette
//! names are kept as names (so a theme can restyle them) and mean inkboard's
//! tones, not CSS's: "red" is the palette's red wherever it is written. Every
//! other CSS name (`lightblue`, `rebeccapurple`, `transparent`) is a way to write
//! a colour, not a colour of its own: it is stored as hex, so files stay readable
//! by any program (a palette name new to this version, `pink`, is not readable by
//! earlier ones).
//!
//! Each palette name has two tones: a saturated one for lines, text and shapes,
//! and a pastel one that a sticky note's fill draws, as notes look in Miro and
//! tldraw ([`Color::note_fill_rgba`]).
//!
//! Limitations: CSS's functional forms (`rgb()`, `hsl()`) are refused, with the
//! hex to write instead, so that a colour has one written form; and the pastel
//! rule is the renderer's and editor's only (the draw.io and Excalidraw writers
//! write a palette name's saturated tone).

use std::fmt;

use crate::vocabulary;
use crate::{Geom, ModelError, Vocabulary};

vocabulary! {
    /// The named colours of the default palette, in the order the editor shows them.
    pub enum Palette as "colour" {
        Red = "red", Blue = "blue", Green = "green", Yellow = "yellow", Orange = "orange",
        Purple = "purple", Pink = "pink", Gray = "gray", Black = "black", White = "white",
    }
}

impl Palette {
    /// The saturated tone: lines, text, and fills of everything but sticky notes.
    pub const fn rgb(self) -> [u8; 3] {
        match self {
            Palette::Red => [0xe5, 0x39, 0x35],
            Palette::Blue => [0x1e, 0x88, 0xe5],
            Palette::Green => [0x43, 0xa0, 0x47],
            Palette::Yellow => [0xfd, 0xd8, 0x35],
            Palette::Orange => [0xfb, 0x8c, 0x00],
            Palette::Purple => [0x8e, 0x24, 0xaa],
            Palette::Pink => [0xd8, 0x1b, 0x60],
            Palette::Gray => [0x75, 0x75, 0x75],
            Palette::Black => [0x21, 0x21, 0x21],
            Palette::White => [0xff, 0xff, 0xff],
        }
    }

    /// The pastel tone a sticky note's fill draws: light enough for dark text.
    /// Yellow is the note's default fill; black and white have no pastel of
    /// their own (a black note is black, with white text).
    pub const fn pastel(self) -> [u8; 3] {
        match self {
            Palette::Red => [0xff, 0xc4, 0xbe],
            Palette::Blue => [0xbb, 0xde, 0xfb],
            Palette::Green => [0xc8, 0xee, 0xc4],
            Palette::Yellow => [0xff, 0xf1, 0x9c],
            Palette::Orange => [0xff, 0xd8, 0xa8],
            Palette::Purple => [0xe1, 0xce, 0xf5],
            Palette::Pink => [0xf8, 0xc6, 0xe9],
            Palette::Gray => [0xe4, 0xe6, 0xea],
            Palette::Black | Palette::White => self.rgb(),
        }
    }
}

/// A colour: a palette name (kept as a name, so themes can restyle it) or RGBA.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Named(Palette),
    /// Red, green, blue, alpha.
    Rgba([u8; 4]),
}

/// How "no colour" is said: the same fully transparent value the editor's "none"
/// and the importers write, so that one value means "none" throughout.
const TRANSPARENT: [u8; 4] = [0xff, 0xff, 0xff, 0];

impl Color {
    /// Parses, case-insensitively: `#rgb`, `#rrggbb`, `#rrggbbaa`; a palette name
    /// (`grey` for `gray`); or one of the 148 CSS colour names or `transparent`,
    /// which become RGBA. A palette name wins over CSS's colour of the same name.
    /// The error suggests the nearest name or the hex form when it can tell.
    pub fn parse(text: &str) -> Result<Self, ModelError> {
        let lower = text.trim().to_ascii_lowercase();
        if let Some(hex) = lower.strip_prefix('#') {
            return parse_hex(hex).ok_or_else(|| bad(text, None));
        }
        let word = if lower == "grey" { "gray" } else { &lower };
        if let Ok(p) = Palette::parse(word) {
            return Ok(Color::Named(p));
        }
        if word == "transparent" {
            return Ok(Color::Rgba(TRANSPARENT));
        }
        match css_color(word) {
            Some([r, g, b]) => Ok(Color::Rgba([r, g, b, 255])),
            None => Err(bad(text, suggest(&lower))),
        }
    }

    /// Red, green, blue, alpha; palette names in their saturated tone.
    pub fn rgba(self) -> [u8; 4] {
        match self {
            Color::Named(p) => opaque(p.rgb()),
            Color::Rgba(v) => v,
        }
    }

    /// This colour as a sticky note's fill: palette names in their pastel tone,
    /// anything else as it is.
    pub fn note_fill_rgba(self) -> [u8; 4] {
        match self {
            Color::Named(p) => opaque(p.pastel()),
            Color::Rgba(v) => v,
        }
    }

    /// This colour as the fill of a shape of `geom`: the one rule for which tone
    /// a palette name draws, for every backend and the editor.
    pub fn fill_rgba(self, geom: Geom) -> [u8; 4] {
        if geom == Geom::Note {
            self.note_fill_rgba()
        } else {
            self.rgba()
        }
    }
}

fn opaque([r, g, b]: [u8; 3]) -> [u8; 4] {
    [r, g, b, 255]
}

/// `rgb`, `rrggbb` or `rrggbbaa` in hex digits.
fn parse_hex(hex: &str) -> Option<Color> {
    if !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let digit = |i: usize| u8::from_str_radix(&hex[i..i + 1], 16).ok();
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some(Color::Rgba(match hex.len() {
        3 => [digit(0)? * 17, digit(1)? * 17, digit(2)? * 17, 255],
        6 => [byte(0)?, byte(2)?, byte(4)?, 255],
        8 => [byte(0)?, byte(2)?, byte(4)?, byte(6)?],
        _ => return None,
    }))
}

/// The CSS colour named `word` (lower case), from CSS Color 4's table.
pub fn css_color(word: &str) -> Option<[u8; 3]> {
    css_names()
        .find(|(name, _)| *name == word)
        .map(|(_, rgb)| rgb)
}

/// CSS Color 4's 148 named colours (`transparent` is a keyword, not among them).
fn css_names() -> impl Iterator<Item = (&'static str, [u8; 3])> {
    csscolorparser::NAMED_COLORS
        .entries()
        .map(|(name, rgb)| (name.as_str(), *rgb))
}

/// The palette's names, as error messages list them.
pub(crate) fn palette_names() -> String {
    Palette::ALL
        .iter()
        .map(|p| p.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn bad(text: &str, nearest: Option<String>) -> ModelError {
    ModelError::BadColor {
        given: crate::echo::echo(text).into_owned(),
        nearest,
    }
}

/// What the writer of `lower` most likely meant: hex missing its `#`; the same
/// colour in hex for CSS's other forms (`rgb(…)`, `hsl(…)`), which are not
/// accepted, so that files keep one form; or a name a letter or two away,
/// also past spaces, hyphens and underscores ("light blue").
fn suggest(lower: &str) -> Option<String> {
    // Three letters a-f alone are likelier a word than a colour ("bad", "add").
    let hexlike = match lower.len() {
        3 => lower.bytes().any(|b| b.is_ascii_digit()),
        6 | 8 => true,
        _ => false,
    };
    if hexlike && parse_hex(lower).is_some() {
        return Some(format!("#{lower}"));
    }
    if lower.contains('(') {
        let c = csscolorparser::parse(lower).ok()?;
        return Some(Color::Rgba(c.to_rgba8()).to_string());
    }
    let squeezed: String = lower
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .collect();
    // Names are ASCII letters; a guess must keep most of what was written (so
    // three letters are never guessed: "NaN" is not "tan").
    if squeezed.is_empty()
        || squeezed.len() > 40
        || !squeezed.bytes().all(|b| b.is_ascii_alphabetic())
    {
        return None;
    }
    let most = (1 + squeezed.len() / 5)
        .min(3)
        .min(squeezed.len().saturating_sub(2) / 2);
    let names = Palette::ALL
        .iter()
        .map(|p| p.name())
        .chain(["grey", "transparent"])
        .chain(css_names().map(|(name, _)| name));
    names
        .map(|name| (strsim::osa_distance(&squeezed, name), name))
        .filter(|(d, _)| *d <= most)
        .min_by_key(|(d, _)| *d)
        .map(|(_, name)| name.to_string())
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Color::Named(p) => f.write_str(p.name()),
            Color::Rgba([r, g, b, 255]) => write!(f, "#{r:02x}{g:02x}{b:02x}"),
            Color::Rgba([r, g, b, a]) => write!(f, "#{r:02x}{g:02x}{b:02x}{a:02x}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_css_table_is_css_color_4s() {
        assert_eq!(css_names().count(), 148);
        assert_eq!(css_color("rebeccapurple"), Some([0x66, 0x33, 0x99]));
        // Every name is lower case, so the lookup of a lowered word finds it.
        assert!(css_names().all(|(n, _)| n == n.to_ascii_lowercase()));
    }
}
