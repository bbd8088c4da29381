//! Connector routing: where a connector leaves and enters its ends, the path between
//! them, its arrowheads and the point its label sits on.
//!
//! Orthogonal and curved routes pick their sides from the relative position of the
//! two ends: along the axis with the larger gap between them (right → left when the
//! target is beside, bottom → top when it is below). An orthogonal route then runs
//! with two bends through the middle of that gap, or one bend when the boxes overlap
//! on that axis; a curved route is a cubic whose ends leave perpendicular to their
//! sides. Straight routes aim from centre to centre. Ends bound to objects sit on the
//! outline: the middle of the chosen side for box-like shapes, the outline point on
//! that axis for ellipses, diamonds and the other polygons (see [`shapes`]).

use inkboard_core::{Arrow, Geom, Point, Rect, Route};

use crate::scene::Seg;
use crate::shapes::{self, pt};

/// What a connector end is attached to: an object's bounds and outline, or a free
/// point (a zero-size box).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndShape {
    pub bounds: Rect,
    pub geom: Option<Geom>,
}

impl EndShape {
    pub fn point(p: Point) -> Self {
        EndShape {
            bounds: Rect::new(p.x, p.y, 0.0, 0.0),
            geom: None,
        }
    }
    fn is_point(&self) -> bool {
        self.bounds.w <= 0.0 && self.bounds.h <= 0.0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Left,
    Right,
    Top,
    Bottom,
}

impl Side {
    fn normal(self) -> Point {
        match self {
            Side::Left => pt(-1.0, 0.0),
            Side::Right => pt(1.0, 0.0),
            Side::Top => pt(0.0, -1.0),
            Side::Bottom => pt(0.0, 1.0),
        }
    }
}

/// A routed connector.
#[derive(Clone, Debug, PartialEq)]
pub struct Routed {
    /// The line, already shortened where a filled arrowhead covers its end.
    pub line: Vec<Seg>,
    /// The arrowheads' paths, each with whether it is filled (else stroked only).
    pub heads: Vec<(Vec<Seg>, bool)>,
    /// The point halfway along the route, where the label goes.
    pub mid: Point,
}

/// Routes a connector between two ends and places its arrowheads for a line of
/// width `width`.
pub fn route(
    from: EndShape,
    to: EndShape,
    kind: Route,
    start: Arrow,
    end: Arrow,
    width: f64,
) -> Routed {
    let same = !from.is_point() && from == to;
    let (mut points, curve) = if same {
        (self_loop(from), None)
    } else {
        match kind {
            Route::Straight => {
                let (ca, cb) = (from.bounds.center(), to.bounds.center());
                let p1 = shapes::boundary_toward(from.geom, from.bounds, cb);
                let p2 = shapes::boundary_toward(to.geom, to.bounds, ca);
                (vec![p1, p2], None)
            }
            Route::Orthogonal => (orthogonal(from, to), None),
            Route::Curved => {
                let (p1, c1, c2, p2) = curved(from, to);
                (vec![p1, p2], Some((c1, c2)))
            }
        }
    };

    // Directions at each end, pointing out of the line (into the shapes).
    let n = points.len();
    let (start_dir, end_dir) = match curve {
        Some((c1, c2)) => (
            unit(points[0], c1, points[n - 1]),
            unit(points[n - 1], c2, points[0]),
        ),
        None => (
            unit(points[0], points[1], points[n - 1]),
            unit(points[n - 1], points[n - 2], points[0]),
        ),
    };
    let mut heads = Vec::new();
    let start_cut = head(start, points[0], neg(start_dir), width, &mut heads);
    let end_cut = head(end, points[n - 1], neg(end_dir), width, &mut heads);
    let mid = midpoint(&points, curve);

    // Pull the line's ends back under their heads, never past the other end.
    let length = distance(points[0], points[n - 1]).max(1e-6);
    let (start_cut, end_cut) = if start_cut + end_cut > length * 0.9 && curve.is_none() && n == 2 {
        (0.0, 0.0)
    } else {
        (start_cut, end_cut)
    };
    let first_leg = distance(points[0], points[1]);
    let last_leg = distance(points[n - 1], points[n - 2]);
    if curve.is_some() || first_leg > start_cut + 1.0 {
        points[0] = add(points[0], scale(neg(start_dir), -start_cut));
    }
    if curve.is_some() || last_leg > end_cut + 1.0 {
        points[n - 1] = add(points[n - 1], scale(neg(end_dir), -end_cut));
    }

    let mut line = vec![Seg::Move(points[0])];
    match curve {
        Some((c1, c2)) => line.push(Seg::Cubic(c1, c2, points[n - 1])),
        None => line.extend(points[1..].iter().map(|p| Seg::Line(*p))),
    }
    Routed { line, heads, mid }
}

/// The sides a route between `a` and `b` leaves and enters by, and whether the boxes
/// are apart along that axis (so a two-bend route fits between them).
fn sides(a: Rect, b: Rect) -> (Side, Side, bool) {
    let gap_x = (b.x - a.right()).max(a.x - b.right());
    let gap_y = (b.y - a.bottom()).max(a.y - b.bottom());
    let (ca, cb) = (a.center(), b.center());
    let (dx, dy) = (cb.x - ca.x, cb.y - ca.y);
    let horizontal = match (gap_x > 0.0, gap_y > 0.0) {
        (true, true) => gap_x >= gap_y,
        (true, false) => true,
        (false, true) => false,
        (false, false) => dx.abs() / (a.w + b.w).max(1.0) >= dy.abs() / (a.h + b.h).max(1.0),
    };
    if horizontal {
        let (sa, sb) = if dx >= 0.0 {
            (Side::Right, Side::Left)
        } else {
            (Side::Left, Side::Right)
        };
        (sa, sb, gap_x > 0.0)
    } else {
        let (sa, sb) = if dy >= 0.0 {
            (Side::Bottom, Side::Top)
        } else {
            (Side::Top, Side::Bottom)
        };
        (sa, sb, gap_y > 0.0)
    }
}

/// Where an end meets its side: the middle of that side for boxes, the outline point
/// on the axis through the centre for other outlines, the point itself for points.
fn port(end: EndShape, side: Side) -> Point {
    if end.is_point() {
        return pt(end.bounds.x, end.bounds.y);
    }
    let c = end.bounds.center();
    let n = side.normal();
    let far = add(c, scale(n, end.bounds.w + end.bounds.h + 1.0));
    shapes::boundary_toward(end.geom, end.bounds, far)
}

fn orthogonal(a: EndShape, b: EndShape) -> Vec<Point> {
    let (sa, sb, apart) = sides(a.bounds, b.bounds);
    let p1 = port(a, sa);
    let horizontal = matches!(sa, Side::Left | Side::Right);
    if apart {
        let p2 = port(b, sb);
        if horizontal {
            if (p1.y - p2.y).abs() < 0.5 {
                return vec![p1, pt(p2.x, p1.y)];
            }
            let mx = (p1.x + p2.x) / 2.0;
            vec![p1, pt(mx, p1.y), pt(mx, p2.y), p2]
        } else {
            if (p1.x - p2.x).abs() < 0.5 {
                return vec![p1, pt(p1.x, p2.y)];
            }
            let my = (p1.y + p2.y) / 2.0;
            vec![p1, pt(p1.x, my), pt(p2.x, my), p2]
        }
    } else {
        // No room between the boxes on this axis: leave along it, turn once and
        // enter the target from across.
        let (ca, cb) = (a.bounds.center(), b.bounds.center());
        let sb = if horizontal {
            if cb.y >= ca.y {
                Side::Top
            } else {
                Side::Bottom
            }
        } else if cb.x >= ca.x {
            Side::Left
        } else {
            Side::Right
        };
        let p2 = port(b, sb);
        let corner = if horizontal {
            pt(p2.x, p1.y)
        } else {
            pt(p1.x, p2.y)
        };
        vec![p1, corner, p2]
    }
}

fn curved(a: EndShape, b: EndShape) -> (Point, Point, Point, Point) {
    let (sa, sb, _) = sides(a.bounds, b.bounds);
    let (p1, p2) = (port(a, sa), port(b, sb));
    let arm = (distance(p1, p2) * 0.4).clamp(24.0, 160.0);
    let c1 = add(p1, scale(sa.normal(), arm));
    let c2 = add(p2, scale(sb.normal(), arm));
    (p1, c1, c2, p2)
}

/// A loop from the top of a shape back into its right side.
fn self_loop(e: EndShape) -> Vec<Point> {
    let p1 = port(e, Side::Top);
    let p2 = port(e, Side::Right);
    let off = 28.0;
    let top = e.bounds.y - off;
    let right = e.bounds.right() + off;
    vec![p1, pt(p1.x, top), pt(right, top), pt(right, p2.y), p2]
}

/// Adds the head of kind `arrow` with its tip at `tip`, pointing along `dir` (a unit
/// vector), and returns how far the line must pull back from the tip.
fn head(arrow: Arrow, tip: Point, dir: Point, width: f64, out: &mut Vec<(Vec<Seg>, bool)>) -> f64 {
    let len = 8.0 + 2.5 * width;
    let half = len * 0.5;
    let nrm = pt(-dir.y, dir.x);
    let at = |back: f64, side: f64| add(add(tip, scale(dir, -back)), scale(nrm, side));
    match arrow {
        Arrow::None => 0.0,
        Arrow::Arrow => {
            out.push((
                vec![
                    Seg::Move(at(len, half)),
                    Seg::Line(tip),
                    Seg::Line(at(len, -half)),
                ],
                false,
            ));
            width * 0.5
        }
        Arrow::Triangle => {
            out.push((
                vec![
                    Seg::Move(tip),
                    Seg::Line(at(len, half)),
                    Seg::Line(at(len, -half)),
                    Seg::Close,
                ],
                true,
            ));
            len * 0.8
        }
        Arrow::Diamond => {
            let long = len * 1.4;
            out.push((
                vec![
                    Seg::Move(tip),
                    Seg::Line(at(long / 2.0, half * 0.8)),
                    Seg::Line(at(long, 0.0)),
                    Seg::Line(at(long / 2.0, -half * 0.8)),
                    Seg::Close,
                ],
                true,
            ));
            long * 0.9
        }
        Arrow::Circle => {
            let r = len * 0.36;
            let c = at(r, 0.0);
            out.push((shapes::ellipse(c, r, r), true));
            r * 1.5
        }
    }
}

fn midpoint(points: &[Point], curve: Option<(Point, Point)>) -> Point {
    if let Some((c1, c2)) = curve {
        let (p0, p3) = (points[0], points[points.len() - 1]);
        return pt(
            0.125 * p0.x + 0.375 * c1.x + 0.375 * c2.x + 0.125 * p3.x,
            0.125 * p0.y + 0.375 * c1.y + 0.375 * c2.y + 0.125 * p3.y,
        );
    }
    let total: f64 = points.windows(2).map(|w| distance(w[0], w[1])).sum();
    let mut left = total / 2.0;
    for w in points.windows(2) {
        let d = distance(w[0], w[1]);
        if d >= left && d > 0.0 {
            let t = left / d;
            return pt(
                w[0].x + (w[1].x - w[0].x) * t,
                w[0].y + (w[1].y - w[0].y) * t,
            );
        }
        left -= d;
    }
    points[0]
}

fn add(a: Point, b: Point) -> Point {
    pt(a.x + b.x, a.y + b.y)
}
fn neg(a: Point) -> Point {
    pt(-a.x, -a.y)
}
fn scale(a: Point, s: f64) -> Point {
    pt(a.x * s, a.y * s)
}
fn distance(a: Point, b: Point) -> f64 {
    ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt()
}

/// The unit vector from `from` towards `to` (or towards `fallback` when they meet).
fn unit(from: Point, to: Point, fallback: Point) -> Point {
    let target = if distance(from, to) < 1e-9 {
        fallback
    } else {
        to
    };
    let d = distance(from, target);
    if d < 1e-9 {
        return pt(1.0, 0.0);
    }
    pt((target.x - from.x) / d, (target.y - from.y) / d)
}
