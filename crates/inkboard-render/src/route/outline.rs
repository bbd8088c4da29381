//! Where a connector meets the outline of the object at its end, as drawn: a
//! rotated shape or image included. Routing works on boxes (a rotated object's
//! box is the one around it, [`inkboard_core::Rect::rotated_extent`]); only the
//! last step, putting an end onto the outline, needs the object's own box and
//! turn. That step is here alone, so the router (`single.rs`, `orthogonal.rs`,
//! `nudge.rs`) knows nothing of rotation.

use inkboard_core::{Point, Rect, Rotation};

use crate::route::EndShape;
use crate::shapes;

/// A rotated end's own, unrotated box and its turn about that box's centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Turned {
    pub bounds: Rect,
    pub rotation: Rotation,
}

impl Turned {
    /// The turn of `bounds` when it is a turn at all.
    pub fn of(bounds: Rect, rotation: Rotation) -> Option<Turned> {
        (!rotation.is_none()).then_some(Turned { bounds, rotation })
    }
}

/// The point where the ray from `origin` (a point inside the end's box) in
/// direction `dir` leaves the end's drawn outline: [`shapes::boundary_from`] for
/// an unrotated end; for a rotated one, the same on its own box with the ray
/// turned back into the box's frame, and the point found turned forward again.
pub fn boundary_from(end: EndShape, origin: Point, dir: Point) -> Point {
    let Some(t) = end.turned else {
        return shapes::boundary_from(end.geom, end.bounds, origin, dir);
    };
    let c = t.bounds.center();
    let back = Rotation::degrees(-t.rotation.deg()).unwrap_or_default();
    let mut o = origin.rotated(back, c);
    // A port spread along a side of the box around the shape may fall outside
    // the shape itself near a corner: the ray then starts at the centre.
    if !contains(t.bounds, o) {
        o = c;
    }
    let d = Point::new(dir.x, dir.y).rotated(back, Point::default());
    shapes::boundary_from(end.geom, t.bounds, o, d).rotated(t.rotation, c)
}

/// The point where the ray from the end's centre towards `toward` leaves its
/// drawn outline.
pub fn boundary_toward(end: EndShape, toward: Point) -> Point {
    let c = end.bounds.center();
    boundary_from(end, c, Point::new(toward.x - c.x, toward.y - c.y))
}

fn contains(r: Rect, p: Point) -> bool {
    p.x >= r.x && p.x <= r.right() && p.y >= r.y && p.y <= r.bottom()
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkboard_core::Geom;

    fn turned(geom: Geom, b: Rect, deg: f64) -> EndShape {
        let rotation = Rotation::degrees(deg).unwrap();
        EndShape {
            bounds: b.rotated_extent(rotation),
            geom: Some(geom),
            turned: Turned::of(b, rotation),
        }
    }

    #[test]
    fn an_end_meets_the_turned_outline_not_its_box() {
        // A 100 × 20 bar turned a quarter: it stands 100 tall and 20 wide about
        // (50, 10). From the centre to the right, it is left at x = 60.
        let end = turned(Geom::Rect, Rect::new(0.0, 0.0, 100.0, 20.0), 90.0);
        let p = boundary_toward(end, Point::new(500.0, 10.0));
        assert!(
            (p.x - 60.0).abs() < 1e-9 && (p.y - 10.0).abs() < 1e-9,
            "{p:?}"
        );
        // Upwards, at y = 10 - 50.
        let p = boundary_toward(end, Point::new(50.0, -500.0));
        assert!((p.y + 40.0).abs() < 1e-9, "{p:?}");
    }

    #[test]
    fn a_diamond_turned_45_degrees_is_met_at_its_flat_side() {
        // A 100 × 100 square turned 45° is a diamond whose right corner is at
        // 50 + 50·√2; a rect's corner is on the ray to the right.
        let end = turned(Geom::Rect, Rect::new(0.0, 0.0, 100.0, 100.0), 45.0);
        let p = boundary_toward(end, Point::new(1000.0, 50.0));
        assert!((p.x - (50.0 + 50.0 * 2f64.sqrt())).abs() < 1e-6, "{p:?}");
        // The unrotated answer would be 100: the box, not the outline.
        let flat = EndShape {
            bounds: Rect::new(0.0, 0.0, 100.0, 100.0),
            geom: Some(Geom::Rect),
            turned: None,
        };
        assert_eq!(boundary_toward(flat, Point::new(1000.0, 50.0)).x, 100.0);
    }
}
