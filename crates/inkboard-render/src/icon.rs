//! A shape's icon in the scene: its drawing from `inkboard-icons` (SVG path data in
//! a 24-unit square) made into one stroked [`PathPart`] of the shape's item, so
//! every back end (SVG, PNG and PDF) and the editor (which shows the server's SVG)
//! draw it alike: stroked in the line colour the shape's style sets (else its
//! text's), round caps and joins, never filled.
//!
//! Where: above the text, centred on it (at the text box's side when the text is
//! aligned left or right; at the start of a frame's title), in the room
//! `Geom::text_box_with_icon` leaves; centred in a shape without text; above a
//! text-less shape too small to hold it. A name the set lacks (a newer version's
//! icon in a file) draws nothing.

use inkboard_core::{Align, FillStyle, Geom, Point, Rect, Shape, ICON_GAP};
use inkboard_icons::{Icon, STROKE_WIDTH, VIEW};

use crate::scene::{Part, PathPart, Rgba, Seg, Stroke, TextPart};
use crate::style;

/// The largest icon a shape without text shows, in px.
const ALONE_MAX: f64 = 48.0;
/// Below this side an icon inside a text-less shape would be a smudge: it is
/// drawn above the shape instead, at [`ABOVE_SIDE`].
const ALONE_MIN: f64 = 16.0;
const ABOVE_SIDE: f64 = 24.0;

/// Adds the icon of `s` (if it has one the set knows) to `parts`, the shape's
/// parts as resolved, its text among them.
pub(crate) fn add(s: &Shape, parts: &mut Vec<Part>) {
    let Some(icon) = s.icon.as_ref().and_then(|n| Icon::parse(n.as_str()).ok()) else {
        return;
    };
    let text = parts.iter().find_map(|p| match p {
        Part::Text(t) => Some(t),
        _ => None,
    });
    let at = place(s, text);
    if at.w <= 0.0 {
        return;
    }
    let color = ink(s);
    parts.push(Part::Path(PathPart {
        segs: segs(icon, at),
        fill: None,
        stroke: Some(Stroke {
            color,
            width: (STROKE_WIDTH as f64 * at.w / VIEW as f64) as f32,
            dash: Vec::new(),
            round_cap: true,
        }),
    }));
}

/// The colour an icon is drawn in: the line colour the shape's style sets, else
/// its text's, which is the default line's ink on a light fill, white on a dark
/// one and a frame's title colour, so the icon reads where the text does.
fn ink(s: &Shape) -> Rgba {
    match (s.style.stroke, style::shape_stroke(s.geom, &s.style)) {
        (Some(_), Some(stroke)) => stroke.color,
        _ => {
            let fill = style::shape_fill(s.geom, &s.style);
            let hatched = s.style.fill_style.is_some_and(|f| f != FillStyle::Solid);
            style::shape_text_color(s.geom, &s.style, fill.filter(|_| !hatched))
        }
    }
}

/// The square the icon is drawn in.
fn place(s: &Shape, text: Option<&TextPart>) -> Rect {
    let b = s.bounds;
    let full = s.geom.text_box(b);
    let Some(text) = text.filter(|t| !t.lines.is_empty()) else {
        let side = full.w.min(full.h).min(ALONE_MAX);
        if side >= ALONE_MIN {
            let c = full.center();
            return Rect::new(c.x - side / 2.0, c.y - side / 2.0, side, side);
        }
        let x = b.x + b.w / 2.0 - ABOVE_SIDE / 2.0;
        return Rect::new(x, b.y - ICON_GAP - ABOVE_SIDE, ABOVE_SIDE, ABOVE_SIDE);
    };
    let side = s.geom.icon_side(full);
    if s.geom == Geom::Frame {
        return Rect::new(full.x, full.y + (full.h - side) / 2.0, side, side);
    }
    let x = match style::shape_align(s.geom, &s.style).0 {
        Align::Left => full.x,
        Align::Right => full.x + full.w - side,
        Align::Center => full.x + (full.w - side) / 2.0,
    };
    // Just above the first line (the top of its tallest letters, as a link's box
    // reaches), so that a centred text keeps its icon close.
    let first = text.lines[0].baseline as f64 - 0.95 * text.font_size as f64;
    let y = (first - ICON_GAP - side).max(full.y);
    Rect::new(x, y, side, side)
}

/// The icon's drawing scaled into `at`: its path as lines and cubic curves (the
/// path parser makes arcs and quadratics cubic, relative points absolute).
fn segs(icon: Icon, at: Rect) -> Vec<Seg> {
    let k = at.w / VIEW as f64;
    let p = |x: f64, y: f64| Point {
        x: at.x + x * k,
        y: at.y + y * k,
    };
    let mut out = Vec::new();
    let mut last = (0.0, 0.0);
    for seg in svgtypes::SimplifyingPathParser::from(icon.path()) {
        // The set's paths are checked by its tests; a bad one ends the drawing
        // where it goes wrong rather than losing the shape.
        let Ok(seg) = seg else { break };
        use svgtypes::SimplePathSegment as S;
        match seg {
            S::MoveTo { x, y } => {
                out.push(Seg::Move(p(x, y)));
                last = (x, y);
            }
            S::LineTo { x, y } => {
                out.push(Seg::Line(p(x, y)));
                last = (x, y);
            }
            S::CurveTo {
                x1,
                y1,
                x2,
                y2,
                x,
                y,
            } => {
                out.push(Seg::Cubic(p(x1, y1), p(x2, y2), p(x, y)));
                last = (x, y);
            }
            S::Quadratic { x1, y1, x, y } => {
                // The same curve as a cubic: control points two thirds of the
                // way from each end to the quadratic's one.
                let (x0, y0) = last;
                out.push(Seg::Cubic(
                    p(x0 + 2.0 / 3.0 * (x1 - x0), y0 + 2.0 / 3.0 * (y1 - y0)),
                    p(x + 2.0 / 3.0 * (x1 - x), y + 2.0 / 3.0 * (y1 - y)),
                    p(x, y),
                ));
                last = (x, y);
            }
            S::ClosePath => out.push(Seg::Close),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_icon_of_the_set_parses_whole() {
        for icon in inkboard_icons::all() {
            let mut parsed = svgtypes::SimplifyingPathParser::from(icon.path());
            assert!(parsed.all(|s| s.is_ok()), "{icon}: bad path");
            let segs = segs(icon, Rect::new(0.0, 0.0, 24.0, 24.0));
            assert!(matches!(segs.first(), Some(Seg::Move(_))), "{icon}");
            let inside = |q: &Point| (-1.0..=25.0).contains(&q.x) && (-1.0..=25.0).contains(&q.y);
            for s in &segs {
                let ends = match s {
                    Seg::Move(q) | Seg::Line(q) => vec![*q],
                    Seg::Cubic(_, _, q) => vec![*q],
                    Seg::Close => vec![],
                };
                assert!(ends.iter().all(inside), "{icon} leaves its square");
            }
        }
    }
}
