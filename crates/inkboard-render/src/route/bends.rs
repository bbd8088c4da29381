//! A connector whose bends a person placed: its line through its waypoints.
//!
//! A connector with waypoints is not searched for nor spread along its shapes'
//! sides (the `connectors` module leaves it out of both): it runs through its
//! waypoints in order, as draw.io draws an edge with `mxGeometry` points.
//!
//! - **Orthogonal**: right angles only. Two waypoints not in line are joined by one
//!   bend, turning the other way from the leg before, so a route given its corners
//!   is drawn through exactly those. An end leaves its shape straight towards the
//!   first waypoint when the waypoint is across from a side (its x within the
//!   shape's width, or its y within its height; inside the box, by the nearest
//!   side), from that side's middle otherwise, with one bend to reach it.
//! - **Straight**: a polyline through the waypoints, each end where the line to its
//!   nearest waypoint crosses its outline.
//! - **Curved**: a smooth curve (Catmull-Rom, as ink) through the same points.
//!
//! Limitations: the line goes through whatever lies between its waypoints; nothing
//! is routed around. Waypoints stay where they are when a shape moves (draw.io
//! does the same), so a moved shape may leave a detour that "Reset route" clears.

use inkboard_core::{Arrow, Point, Route};
use inkboard_geom::{distance, length, point_along};

use crate::route::outline;
use crate::route::{self, EndShape, Routed, Side};
use crate::scene::Seg;
use crate::shapes::pt;

/// Closer than this, two coordinates are in line.
const IN_LINE: f64 = 0.5;

/// The connector from `a` to `b` through `waypoints` (not empty), drawn as `kind`
/// with its arrowheads for a line of width `width`.
pub(crate) fn through(
    a: EndShape,
    b: EndShape,
    waypoints: &[Point],
    kind: Route,
    (start, end): (Arrow, Arrow),
    width: f64,
) -> Routed {
    let (Some(&first), Some(&last)) = (waypoints.first(), waypoints.last()) else {
        return route::draw(
            vec![a.bounds.center(), b.bounds.center()],
            None,
            start,
            end,
            width,
        );
    };
    match kind {
        Route::Orthogonal => {
            let points = orthogonal(a, b, waypoints);
            route::draw(points, None, start, end, width)
        }
        Route::Straight | Route::Curved => {
            let mut points = Vec::with_capacity(waypoints.len() + 2);
            points.push(outline::boundary_toward(a, first));
            points.extend_from_slice(waypoints);
            points.push(outline::boundary_toward(b, last));
            let mut routed = route::draw(points, None, start, end, width);
            if kind == Route::Curved {
                // The spline leaves each end along its first leg, as the polyline
                // does, so the heads `draw` placed still fit; only the line is bent.
                routed.line = crate::resolve::smooth(&route::polyline(&routed.line));
                // A label placed automatically sits on the curve, not its chords.
                routed.label_track = route::polyline(&routed.line);
            }
            routed
        }
    }
}

/// The corners of an orthogonal route from `a` to `b` through `waypoints`.
fn orthogonal(a: EndShape, b: EndShape, waypoints: &[Point]) -> Vec<Point> {
    let first = waypoints[0];
    let last = waypoints[waypoints.len() - 1];
    let (p0, leave) = attach(a, first);
    let (pn, enter) = attach(b, last);
    let mut out = vec![p0];
    // Whether the leg that reached the last point of `out` was horizontal: as if
    // across the way out of `a`, so that the first bend leaves it as `attach` said.
    let mut horizontal = !leave;
    for &w in waypoints {
        horizontal = join(&mut out, w, horizontal);
    }
    // The last leg enters `b` as `attach` said: its bend, if any, comes first.
    let from = *out.last().unwrap_or(&p0);
    if !in_line(from, pn) {
        out.push(if enter {
            pt(from.x, pn.y)
        } else {
            pt(pn.x, from.y)
        });
    }
    out.push(pn);
    simplify(out)
}

/// Appends `to` to `out`, with a bend first when it is not in line with the last
/// point: turning across the leg before (horizontal when it was). Returns whether
/// the leg into `to` is horizontal.
fn join(out: &mut Vec<Point>, to: Point, horizontal: bool) -> bool {
    let from = *out.last().expect("a route starts with its first end");
    if (from.y - to.y).abs() < IN_LINE {
        out.push(to);
        return true;
    }
    if (from.x - to.x).abs() < IN_LINE {
        out.push(to);
        return false;
    }
    if horizontal {
        // Vertical first, then horizontal into `to`.
        out.push(pt(from.x, to.y));
        out.push(to);
        true
    } else {
        out.push(pt(to.x, from.y));
        out.push(to);
        false
    }
}

/// Where an orthogonal route meets end `e` on its way to or from `toward`, and
/// whether its leg there is horizontal.
fn attach(e: EndShape, toward: Point) -> (Point, bool) {
    if e.is_point() {
        let p = pt(e.bounds.x, e.bounds.y);
        // A free end leaves along the longer way to its waypoint.
        return (p, (toward.x - p.x).abs() >= (toward.y - p.y).abs());
    }
    let r = e.bounds;
    let c = r.center();
    let across_x = toward.x > r.x && toward.x < r.right();
    let across_y = toward.y > r.y && toward.y < r.bottom();
    let side = match (across_x, across_y) {
        (true, false) => Some(if toward.y < r.y {
            Side::Top
        } else {
            Side::Bottom
        }),
        (false, true) => Some(if toward.x < r.x {
            Side::Left
        } else {
            Side::Right
        }),
        _ => None,
    };
    // Inside the box (a waypoint on the end's own outline, where a dragged end leg
    // put it): by the nearest side, straight out to it.
    let side = side.or_else(|| {
        (across_x && across_y).then(|| {
            let gaps = [
                (toward.x - r.x, Side::Left),
                (r.right() - toward.x, Side::Right),
                (toward.y - r.y, Side::Top),
                (r.bottom() - toward.y, Side::Bottom),
            ];
            gaps.into_iter()
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map_or(Side::Right, |(_, s)| s)
        })
    });
    if let Some(side) = side {
        let offset = side.coord(toward) - side.coord(c);
        return (route::port(e, side, offset), side.is_vertical());
    }
    // Diagonal from the box: from the middle of the side facing the
    // waypoint along the axis with the larger gap.
    let (dx, dy) = (toward.x - c.x, toward.y - c.y);
    let side = if dx.abs() / r.w.max(1.0) >= dy.abs() / r.h.max(1.0) {
        if dx < 0.0 {
            Side::Left
        } else {
            Side::Right
        }
    } else if dy < 0.0 {
        Side::Top
    } else {
        Side::Bottom
    };
    (route::port(e, side, 0.0), side.is_vertical())
}

fn in_line(a: Point, b: Point) -> bool {
    (a.x - b.x).abs() < IN_LINE || (a.y - b.y).abs() < IN_LINE
}

/// Drops repeated points and the middle one of three in a row on one line running
/// on (not doubling back), so the drawn path has a corner only where it turns.
fn simplify(points: Vec<Point>) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::with_capacity(points.len());
    for p in points {
        if out.last().is_some_and(|q| distance(*q, p) < 1e-9) {
            continue;
        }
        if let [.., a, b] = out.as_slice() {
            let (a, b) = (*a, *b);
            let straight_on = ((a.x - b.x).abs() < 1e-9 && (b.x - p.x).abs() < 1e-9
                || (a.y - b.y).abs() < 1e-9 && (b.y - p.y).abs() < 1e-9)
                && (b.x - a.x) * (p.x - b.x) + (b.y - a.y) * (p.y - b.y) >= 0.0;
            if straight_on {
                out.pop();
            }
        }
        out.push(p);
    }
    if out.len() == 1 {
        out.push(out[0]);
    }
    out
}

/// The label's place `at` (a fraction of its length) along a drawn line.
pub(crate) fn along(line: &[Seg], at: f64) -> Point {
    let points = route::polyline(line);
    let total = length(&points);
    point_along(&points, total * at.clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkboard_core::Rect;

    fn boxed(x: f64, y: f64) -> EndShape {
        EndShape {
            bounds: Rect::new(x, y, 100.0, 60.0),
            geom: None,
            turned: None,
        }
    }

    fn axis_aligned(points: &[Point]) -> bool {
        points
            .windows(2)
            .all(|w| (w[0].x - w[1].x).abs() < 1e-6 || (w[0].y - w[1].y).abs() < 1e-6)
    }

    #[test]
    fn corners_given_as_waypoints_are_the_route() {
        // a at (0..100, 0..60), b at (300..400, 200..260): a Z dragged to x = 180.
        let wps = [pt(180.0, 30.0), pt(180.0, 230.0)];
        let got = orthogonal(boxed(0.0, 0.0), boxed(300.0, 200.0), &wps);
        assert_eq!(
            got,
            vec![
                pt(100.0, 30.0),
                pt(180.0, 30.0),
                pt(180.0, 230.0),
                pt(300.0, 230.0)
            ]
        );
    }

    #[test]
    fn waypoints_out_of_line_get_bends_and_every_leg_is_axis_aligned() {
        let wps = [pt(150.0, 120.0), pt(220.0, 330.0), pt(500.0, 10.0)];
        let got = orthogonal(boxed(0.0, 0.0), boxed(300.0, 200.0), &wps);
        assert!(axis_aligned(&got), "{got:?}");
        for w in wps {
            assert!(got.contains(&w), "{w:?} not on {got:?}");
        }
    }

    #[test]
    fn straight_runs_have_no_middle_corners() {
        let got = simplify(vec![
            pt(0.0, 0.0),
            pt(5.0, 0.0),
            pt(10.0, 0.0),
            pt(10.0, 5.0),
        ]);
        assert_eq!(got, vec![pt(0.0, 0.0), pt(10.0, 0.0), pt(10.0, 5.0)]);
    }
}
