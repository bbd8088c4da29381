//! Styles: colours, dashes, text alignment. Every field of [`Style`] is optional;
//! `None` means "the default for this kind of object", which the renderer resolves,
//! so a board with no styling at all still looks right and files stay small.

use std::fmt;

use crate::vocabulary;
use crate::{ModelError, Vocabulary};

vocabulary! {
    /// The named colours of the default palette.
    pub enum Palette as "colour" {
        Red = "red", Blue = "blue", Green = "green", Yellow = "yellow", Orange = "orange",
        Purple = "purple", Gray = "gray", Black = "black", White = "white",
    }
}

impl Palette {
    /// The palette's RGB value for this name.
    pub fn rgb(self) -> [u8; 3] {
        match self {
            Palette::Red => [0xe5, 0x39, 0x35],
            Palette::Blue => [0x1e, 0x88, 0xe5],
            Palette::Green => [0x43, 0xa0, 0x47],
            Palette::Yellow => [0xfd, 0xd8, 0x35],
            Palette::Orange => [0xfb, 0x8c, 0x00],
            Palette::Purple => [0x8e, 0x24, 0xaa],
            Palette::Gray => [0x75, 0x75, 0x75],
            Palette::Black => [0x21, 0x21, 0x21],
            Palette::White => [0xff, 0xff, 0xff],
        }
    }
}

/// A colour: a palette name (kept as a name, so themes can restyle it) or CSS hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Named(Palette),
    /// Red, green, blue, alpha.
    Rgba([u8; 4]),
}

impl Color {
    /// Parses `#rgb`, `#rrggbb`, `#rrggbbaa` or a palette name (case-insensitive).
    pub fn parse(text: &str) -> Result<Self, ModelError> {
        let bad = || ModelError::BadColor(crate::echo::echo(text).into_owned());
        let lower = text.trim().to_ascii_lowercase();
        if let Some(hex) = lower.strip_prefix('#') {
            if !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                return Err(bad());
            }
            let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
            let nib = |i: usize| {
                u8::from_str_radix(&hex[i..i + 1], 16)
                    .map(|v| v * 17)
                    .map_err(|_| bad())
            };
            return match hex.len() {
                3 => Ok(Color::Rgba([nib(0)?, nib(1)?, nib(2)?, 255])),
                6 => Ok(Color::Rgba([byte(0)?, byte(2)?, byte(4)?, 255])),
                8 => Ok(Color::Rgba([byte(0)?, byte(2)?, byte(4)?, byte(6)?])),
                _ => Err(bad()),
            };
        }
        let word = if lower == "grey" {
            "gray"
        } else {
            lower.as_str()
        };
        Palette::parse(word).map(Color::Named).map_err(|_| bad())
    }

    /// Red, green, blue, alpha.
    pub fn rgba(self) -> [u8; 4] {
        match self {
            Color::Named(p) => {
                let [r, g, b] = p.rgb();
                [r, g, b, 255]
            }
            Color::Rgba(v) => v,
        }
    }
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

vocabulary! {
    /// How a stroke is drawn.
    pub enum Dash as "dash" { Solid = "solid", Dashed = "dashed", Dotted = "dotted" }
}

vocabulary! {
    /// Horizontal text alignment.
    pub enum Align as "align" { Left = "left", Center = "center", Right = "right" }
}

vocabulary! {
    /// Vertical text alignment.
    pub enum VAlign as "valign" { Top = "top", Middle = "middle", Bottom = "bottom" }
}

vocabulary! {
    /// The typeface text is set in: Inter (`sans`, the default), a serif, a
    /// monospace, or a hand-drawn face; each is bundled with the renderer.
    #[derive(Default)]
    pub enum Font as "font" {
        #[default]
        Sans = "sans", Serif = "serif", Mono = "mono", Hand = "hand",
    }
}

/// The style of an object. `None` fields take the default for the object's kind.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Style {
    pub fill: Option<Color>,
    pub stroke: Option<Color>,
    pub stroke_width: Option<f64>,
    pub dash: Option<Dash>,
    pub font_size: Option<f64>,
    pub text_color: Option<Color>,
    pub align: Option<Align>,
    pub valign: Option<VAlign>,
    pub font: Option<Font>,
    /// From 0 (invisible) to 1 (opaque).
    pub opacity: Option<f64>,
}

impl Style {
    /// The names of the fields, in the order they are documented and written.
    pub const FIELDS: [&'static str; 10] = [
        "fill",
        "stroke",
        "stroke_width",
        "dash",
        "font_size",
        "text_color",
        "align",
        "valign",
        "font",
        "opacity",
    ];

    /// Applies every field that `patch` sets, leaving the others as they are.
    pub fn merge(&mut self, patch: &Style) {
        macro_rules! take {
            ($($f:ident),*) => { $( if patch.$f.is_some() { self.$f = patch.$f; } )* };
        }
        take!(
            fill,
            stroke,
            stroke_width,
            dash,
            font_size,
            text_color,
            align,
            valign,
            font,
            opacity
        );
    }

    /// Checks the numeric fields: widths and sizes non-negative, opacity within 0..=1.
    pub fn validate(&self) -> Result<(), ModelError> {
        let check = |what, v: Option<f64>, max: f64, extra| match v {
            Some(v) if !(v.is_finite() && (0.0..=max).contains(&v)) => Err(ModelError::BadNumber {
                what,
                value: v,
                extra,
            }),
            _ => Ok(()),
        };
        check("stroke_width", self.stroke_width, 1000.0, " from 0 to 1000")?;
        check("font_size", self.font_size, 1000.0, " from 0 to 1000")?;
        check("opacity", self.opacity, 1.0, " from 0 to 1")
    }

    /// True when no field is set.
    pub fn is_empty(&self) -> bool {
        *self == Style::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse_and_print_back() {
        for (input, shown) in [
            ("#1E88E5", "#1e88e5"),
            ("#abc", "#aabbcc"),
            ("red", "red"),
            ("Grey", "gray"),
            ("#11223344", "#11223344"),
        ] {
            assert_eq!(Color::parse(input).unwrap().to_string(), shown);
        }
        for bad in ["#12", "#ggg", "teal", "", "#1234567"] {
            assert!(Color::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn merge_keeps_unset_fields() {
        let mut s = Style {
            fill: Some(Color::Named(Palette::Red)),
            opacity: Some(0.5),
            ..Style::default()
        };
        s.merge(&Style {
            opacity: Some(1.0),
            ..Style::default()
        });
        assert_eq!(s.fill, Some(Color::Named(Palette::Red)));
        assert_eq!(s.opacity, Some(1.0));
        assert!(Style {
            opacity: Some(2.0),
            ..Style::default()
        }
        .validate()
        .is_err());
    }
}
