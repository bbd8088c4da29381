//! Segments: their length, their orientation, whether two of them cross, and how
//! much of one lies inside a box.

use crate::{Point, Rect};

/// The distance from `a` to `b`.
pub fn distance(a: Point, b: Point) -> f64 {
    ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt()
}

/// Twice the signed area of the triangle a, b, c: positive when a, b, c turn
/// counter-clockwise in a y-up frame (clockwise on a board, where y points down),
/// negative the other way, zero when they lie on one line.
pub fn orient(a: Point, b: Point, c: Point) -> f64 {
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

/// Whether segments a–b and c–d cross at a point inside both (a proper crossing):
/// touching at an end, or running along each other, is no crossing. This is the
/// one rule the renderer's checker, its routing and the layout's quality measure
/// count crossings by.
pub fn crosses(a: Point, b: Point, c: Point, d: Point) -> bool {
    let eps = 1e-9;
    let (d1, d2) = (orient(c, d, a), orient(c, d, b));
    let (d3, d4) = (orient(a, b, c), orient(a, b, d));
    ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps))
        && ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps))
}

/// The part of segment a–b inside `r` (Liang–Barsky clipping), as the share of
/// the way from `a` to `b` where it enters and where it leaves; `None` when the
/// segment misses the box or only touches it.
pub fn clip_span(a: Point, b: Point, r: &Rect) -> Option<(f64, f64)> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.x - r.x),
        (dx, r.right() - a.x),
        (-dy, a.y - r.y),
        (dy, r.bottom() - a.y),
    ] {
        if p.abs() < 1e-12 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    (t1 > t0).then_some((t0, t1))
}

/// The part of segment a–b inside `r`, as its two ends.
pub fn clip(a: Point, b: Point, r: &Rect) -> Option<(Point, Point)> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let at = |t: f64| Point::new(a.x + dx * t, a.y + dy * t);
    clip_span(a, b, r).map(|(t0, t1)| (at(t0), at(t1)))
}

/// The length of segment a–b inside `r`.
pub fn clipped_length(a: Point, b: Point, r: &Rect) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    clip_span(a, b, r).map_or(0.0, |(t0, t1)| (t1 - t0) * (dx * dx + dy * dy).sqrt())
}

/// How far `p` is from the segment a–b.
pub fn distance_to_segment(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let dd = dx * dx + dy * dy;
    let t = if dd > 1e-12 {
        (((p.x - a.x) * dx + (p.y - a.y) * dy) / dd).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p.x - a.x - dx * t).hypot(p.y - a.y - dy * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn segments_cross_only_inside_both() {
        assert!(crosses(
            p(0.0, 0.0),
            p(10.0, 10.0),
            p(0.0, 10.0),
            p(10.0, 0.0)
        ));
        // Meeting at an end, touching at a corner, or lying along each other.
        assert!(!crosses(
            p(0.0, 0.0),
            p(10.0, 0.0),
            p(10.0, 0.0),
            p(10.0, 10.0)
        ));
        assert!(!crosses(
            p(0.0, 0.0),
            p(10.0, 0.0),
            p(5.0, 0.0),
            p(5.0, 10.0)
        ));
        assert!(!crosses(
            p(0.0, 0.0),
            p(10.0, 0.0),
            p(5.0, 0.0),
            p(15.0, 0.0)
        ));
        assert!(!crosses(
            p(0.0, 0.0),
            p(10.0, 0.0),
            p(0.0, 1.0),
            p(10.0, 1.0)
        ));
    }

    #[test]
    fn orientation_has_the_sign_of_the_turn() {
        assert!(orient(p(0.0, 0.0), p(10.0, 0.0), p(10.0, 10.0)) > 0.0);
        assert!(orient(p(0.0, 0.0), p(10.0, 0.0), p(10.0, -10.0)) < 0.0);
        assert_eq!(orient(p(0.0, 0.0), p(10.0, 0.0), p(20.0, 0.0)), 0.0);
        assert_eq!(distance(p(0.0, 0.0), p(3.0, 4.0)), 5.0);
    }

    #[test]
    fn clipping() {
        let r = Rect::new(0.0, 0.0, 10.0, 10.0);
        assert!((clipped_length(p(-5.0, 5.0), p(15.0, 5.0), &r) - 10.0).abs() < 1e-9);
        assert_eq!(clipped_length(p(-5.0, 15.0), p(15.0, 15.0), &r), 0.0);
    }
}
