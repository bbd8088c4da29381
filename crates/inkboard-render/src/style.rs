//! The default look: the theme colours and widths that a board with no styling at
//! all is drawn with, and the resolution of a model [`Style`] (every field optional)
//! into concrete values for one kind of object.
//!
//! The look is deliberately quiet: white shapes with a 2 px dark slate outline and
//! round joins, pale yellow sticky notes with a soft shadow, light gray frames with a
//! SemiBold title, dark slate connectors. Palette names resolve through
//! [`Palette::rgb`], so "blue" means the same colour in every backend, and a
//! sticky note's named fill through [`Palette::pastel`] ([`Color::fill_rgba`]).

use inkboard_core::{Align, Color, Dash, Geom, Palette, Style, VAlign};

use crate::scene::{Rgba, Stroke};
use crate::text::{Typeface, Weight, DEFAULT_FONT_SIZE};

/// Outlines, connectors, ink and text.
pub const INK: Rgba = Rgba::rgb(0x1f, 0x29, 0x33);
/// Text on dark fills.
pub const INK_ON_DARK: Rgba = Rgba::rgb(0xff, 0xff, 0xff);
/// Shape fill.
pub const PAPER: Rgba = Rgba::rgb(0xff, 0xff, 0xff);
/// Sticky note fill: the palette's pastel yellow, so a note whose fill is
/// "yellow" looks like one with no fill.
pub const NOTE_FILL: Rgba = {
    let [r, g, b] = Palette::Yellow.pastel();
    Rgba::rgb(r, g, b)
};
/// Frame fill, outline and title colour.
pub const FRAME_FILL: Rgba = Rgba::rgb(0xf3, 0xf4, 0xf6);
pub const FRAME_STROKE: Rgba = Rgba::rgb(0xd2, 0xd6, 0xdc);
pub const FRAME_TITLE: Rgba = Rgba::rgb(0x3e, 0x4c, 0x59);
/// The page background of PNGs (SVGs are transparent; viewers supply their own).
pub const BACKGROUND: Rgba = Rgba::rgb(0xff, 0xff, 0xff);

/// Stroke width of shapes and connectors, in px.
pub const STROKE_WIDTH: f32 = 2.0;
/// Stroke width of ink.
pub const INK_WIDTH: f32 = 3.0;
/// Font size of connector labels.
pub const LABEL_FONT_SIZE: f32 = 14.0;
/// Empty space around the content in a scene's bounds.
pub const PADDING: f64 = 24.0;

/// The font a shape's text is set in: the style's font (Inter when it says nothing),
/// frames' titles in SemiBold, everything else Regular, both at [`DEFAULT_FONT_SIZE`] unless the style
/// sets `font_size`. Auto-sizing (`add_shape`) must measure with the same font.
pub fn shape_font(geom: Geom, style: &Style) -> (f32, Typeface) {
    let size = style.font_size.map_or(DEFAULT_FONT_SIZE, |s| s as f32);
    let weight = if geom == Geom::Frame {
        Weight::SemiBold
    } else {
        Weight::Regular
    };
    (size, Typeface::new(style.font.unwrap_or_default(), weight))
}

/// Where a frame's title is drawn: its text's width (at most the title band's)
/// by the band's height, from the band's start; `None` for a frame without a title
/// or a turned one. Labels keep off it, and the checker says when one does not.
pub fn frame_title_box(object: &inkboard_core::Object) -> Option<inkboard_core::Rect> {
    let inkboard_core::Kind::Shape(s) = &object.kind else {
        return None;
    };
    if s.geom != Geom::Frame || s.text.is_empty() || object.rotation().deg() != 0.0 {
        return None;
    }
    let band = s.geom.text_box_with_icon(s.bounds, s.icon.is_some());
    let (size, face) = shape_font(s.geom, &s.style);
    let width = crate::text::layout_text(&s.text, size, face, None, true, false).width;
    Some(inkboard_core::Rect::new(
        band.x,
        band.y,
        f64::from(width).min(band.w),
        band.h,
    ))
}

/// The face of a connector's label: the style's font, Regular.
pub fn label_face(style: &Style) -> Typeface {
    Typeface::new(style.font.unwrap_or_default(), Weight::Regular)
}

/// The text alignment of a shape: the style's, else centred (frames: left, middle).
pub fn shape_align(geom: Geom, style: &Style) -> (Align, VAlign) {
    let align = style.align.unwrap_or(if geom == Geom::Frame {
        Align::Left
    } else {
        Align::Center
    });
    (align, style.valign.unwrap_or(VAlign::Middle))
}

/// A model colour as drawn.
pub fn color(c: Color) -> Rgba {
    Rgba(c.rgba())
}

/// The resolved fill of a shape, if it has one.
pub fn shape_fill(geom: Geom, style: &Style) -> Option<Rgba> {
    if let Some(c) = style.fill {
        return Some(Rgba(c.fill_rgba(geom)));
    }
    match geom {
        Geom::Text => None,
        Geom::Note => Some(NOTE_FILL),
        Geom::Frame => Some(FRAME_FILL),
        _ => Some(PAPER),
    }
}

/// The resolved outline of a shape, if it has one.
pub fn shape_stroke(geom: Geom, style: &Style) -> Option<Stroke> {
    let default = match geom {
        // Text has no border and notes are edged by their shadow, unless asked.
        Geom::Text | Geom::Note => None,
        Geom::Frame => Some((FRAME_STROKE, 1.0)),
        _ => Some((INK, STROKE_WIDTH)),
    };
    let (c, w) = match (style.stroke, style.stroke_width, default) {
        (None, None, None) => return None,
        (Some(c), w, d) => (
            color(c),
            w.map_or(d.map_or(STROKE_WIDTH, |d| d.1), |w| w as f32),
        ),
        (None, Some(w), d) => (d.map_or(INK, |d| d.0), w as f32),
        (None, None, Some(d)) => d,
    };
    line(c, w, style.dash, false)
}

/// The text colour of a shape: the style's, else dark slate, or white on a dark fill.
pub fn shape_text_color(geom: Geom, style: &Style, fill: Option<Rgba>) -> Rgba {
    if let Some(c) = style.text_color {
        return color(c);
    }
    if geom == Geom::Frame {
        return FRAME_TITLE;
    }
    match fill {
        Some(f) if f.0[3] > 127 && f.luminance() < 0.3 => INK_ON_DARK,
        _ => INK,
    }
}

/// The line of a connector or an ink stroke (round caps, so ends look finished).
pub fn line_stroke(style: &Style, default_width: f32) -> Option<Stroke> {
    let c = style.stroke.map_or(INK, color);
    let w = style.stroke_width.map_or(default_width, |w| w as f32);
    line(c, w, style.dash, true)
}

/// A stroke of width `w`, or none when it would be invisible.
fn line(color: Rgba, width: f32, dash: Option<Dash>, round_cap: bool) -> Option<Stroke> {
    if width <= 0.0 || color.0[3] == 0 {
        return None;
    }
    let (dash, round_cap) = match dash.unwrap_or(Dash::Solid) {
        Dash::Solid => (Vec::new(), round_cap),
        Dash::Dashed => (vec![4.0 * width.max(1.5), 3.0 * width.max(1.5)], round_cap),
        // A near-zero dash with round caps draws a row of round dots.
        Dash::Dotted => (vec![0.01, 2.5 * width.max(1.0)], true),
    };
    Some(Stroke {
        color,
        width,
        dash,
        round_cap,
    })
}

/// An object's opacity, clamped to 0..=1.
pub fn opacity(style: &Style) -> f32 {
    style.opacity.map_or(1.0, |o| o.clamp(0.0, 1.0) as f32)
}
