//! Styles: colours (see [`crate::Color`]), dashes, text alignment. Every field of [`Style`] is optional;
//! `None` means "the default for this kind of object", which the renderer resolves,
//! so a board with no styling at all still looks right and files stay small.

use crate::vocabulary;
use crate::{Color, ModelError};

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

vocabulary! {
    /// How a fill is laid: flat (`solid`, the default), or drawn with parallel
    /// lines in the fill's colour as by hand (`hachure`, and `cross-hatch` with
    /// a second set across them).
    pub enum FillStyle as "fill_style" { Solid = "solid", Hachure = "hachure", CrossHatch = "cross-hatch" }
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
    /// How hand-drawn the lines look: 0 (clean, the default) to 2.
    pub roughness: Option<f64>,
    pub fill_style: Option<FillStyle>,
}

impl Style {
    /// The names of the fields, in the order they are documented and written.
    pub const FIELDS: [&'static str; 12] = [
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
        "roughness",
        "fill_style",
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
            opacity,
            roughness,
            fill_style
        );
    }

    /// Checks the numeric fields: widths and sizes non-negative, opacity within
    /// 0..=1, roughness within 0..=2.
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
        check("opacity", self.opacity, 1.0, " from 0 to 1")?;
        check("roughness", self.roughness, 2.0, " from 0 to 2")
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
    fn merge_keeps_unset_fields() {
        let mut s = Style {
            fill: Some(Color::Named(crate::Palette::Red)),
            opacity: Some(0.5),
            ..Style::default()
        };
        s.merge(&Style {
            opacity: Some(1.0),
            ..Style::default()
        });
        assert_eq!(s.fill, Some(Color::Named(crate::Palette::Red)));
        assert_eq!(s.opacity, Some(1.0));
        assert!(Style {
            opacity: Some(2.0),
            ..Style::default()
        }
        .validate()
        .is_err());
    }
}
