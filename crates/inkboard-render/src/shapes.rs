//! Outlines: the path of every geom in its bounds, and the points where connectors
//! meet an outline.
//!
//! Curves are cubic Béziers throughout (ellipses as four quarter arcs), so every
//! backend draws exactly the same curve. Where a connector meets a shape is found on
//! the same outline: a ray from the centre is intersected with the shape's polygon
//! (polygonal geoms), its ellipse (ellipse, cloud) or its box (everything else).

use std::f64::consts::PI;

use inkboard_core::{Geom, Point, Rect};
use inkboard_geom::distance;

use crate::scene::Seg;

/// The circle-by-cubics constant: control arm length of a quarter arc of radius 1.
const KAPPA: f64 = 0.552_284_749_8;

pub(crate) fn pt(x: f64, y: f64) -> Point {
    Point { x, y }
}

/// Corner radius of `rounded` shapes.
pub fn rounded_radius(b: Rect) -> f64 {
    12f64.min(b.w / 4.0).min(b.h / 4.0).max(0.0)
}

/// The outline of a shape with this geom and bounds. `text` without a style has no
/// outline (the caller decides); when it has one it is its box.
pub fn outline(geom: Geom, b: Rect) -> Vec<Seg> {
    match geom {
        Geom::Rect | Geom::Text | Geom::Table => rect(b, 0.0),
        Geom::Rounded => rect(b, rounded_radius(b)),
        Geom::Note => rect(b, 3f64.min(b.w / 4.0).min(b.h / 4.0)),
        Geom::Frame => rect(b, 8f64.min(b.w / 4.0).min(b.h / 4.0)),
        Geom::Ellipse | Geom::EndState => ellipse(b.center(), b.w / 2.0, b.h / 2.0),
        Geom::Cylinder => cylinder(b).0,
        Geom::Cloud => cloud(b),
        Geom::Diamond | Geom::Triangle | Geom::Hexagon | Geom::Parallelogram | Geom::Star => {
            polygon_path(&polygon(geom, b).unwrap_or_default())
        }
    }
}

/// Extra strokes drawn over the outline, without fill: the visible front rim of a
/// cylinder's top.
pub fn details(geom: Geom, b: Rect) -> Option<Vec<Seg>> {
    (geom == Geom::Cylinder).then(|| cylinder(b).1)
}

/// A solid mark drawn inside the outline in the outline's colour: the disc in
/// an end state's ring, a little over half its size, as UML draws the final
/// state (the gap between ring and disc is what tells it from a start).
pub fn disc(geom: Geom, b: Rect) -> Option<Vec<Seg>> {
    (geom == Geom::EndState).then(|| ellipse(b.center(), b.w * 0.3, b.h * 0.3))
}

/// A rectangle with corner radius `r` (0: square corners).
pub fn rect(b: Rect, r: f64) -> Vec<Seg> {
    let r = r.min(b.w / 2.0).min(b.h / 2.0).max(0.0);
    let (x0, y0, x1, y1) = (b.x, b.y, b.right(), b.bottom());
    if r <= 0.0 {
        return vec![
            Seg::Move(pt(x0, y0)),
            Seg::Line(pt(x1, y0)),
            Seg::Line(pt(x1, y1)),
            Seg::Line(pt(x0, y1)),
            Seg::Close,
        ];
    }
    let k = r * (1.0 - KAPPA);
    vec![
        Seg::Move(pt(x0 + r, y0)),
        Seg::Line(pt(x1 - r, y0)),
        Seg::Cubic(pt(x1 - k, y0), pt(x1, y0 + k), pt(x1, y0 + r)),
        Seg::Line(pt(x1, y1 - r)),
        Seg::Cubic(pt(x1, y1 - k), pt(x1 - k, y1), pt(x1 - r, y1)),
        Seg::Line(pt(x0 + r, y1)),
        Seg::Cubic(pt(x0 + k, y1), pt(x0, y1 - k), pt(x0, y1 - r)),
        Seg::Line(pt(x0, y0 + r)),
        Seg::Cubic(pt(x0, y0 + k), pt(x0 + k, y0), pt(x0 + r, y0)),
        Seg::Close,
    ]
}

/// An ellipse as four cubic quarter arcs, starting at its rightmost point.
pub fn ellipse(c: Point, rx: f64, ry: f64) -> Vec<Seg> {
    let (kx, ky) = (rx * KAPPA, ry * KAPPA);
    vec![
        Seg::Move(pt(c.x + rx, c.y)),
        Seg::Cubic(
            pt(c.x + rx, c.y + ky),
            pt(c.x + kx, c.y + ry),
            pt(c.x, c.y + ry),
        ),
        Seg::Cubic(
            pt(c.x - kx, c.y + ry),
            pt(c.x - rx, c.y + ky),
            pt(c.x - rx, c.y),
        ),
        Seg::Cubic(
            pt(c.x - rx, c.y - ky),
            pt(c.x - kx, c.y - ry),
            pt(c.x, c.y - ry),
        ),
        Seg::Cubic(
            pt(c.x + kx, c.y - ry),
            pt(c.x + rx, c.y - ky),
            pt(c.x + rx, c.y),
        ),
        Seg::Close,
    ]
}

/// The corners of polygonal geoms, clockwise from the top; `None` for the others.
pub fn polygon(geom: Geom, b: Rect) -> Option<Vec<Point>> {
    let (x0, y0, x1, y1) = (b.x, b.y, b.right(), b.bottom());
    let c = b.center();
    Some(match geom {
        Geom::Diamond => vec![pt(c.x, y0), pt(x1, c.y), pt(c.x, y1), pt(x0, c.y)],
        Geom::Triangle => vec![pt(c.x, y0), pt(x1, y1), pt(x0, y1)],
        Geom::Hexagon => {
            // Slanted sides about 60° like a regular hexagon, but never eating more
            // than a fifth of the width, where the text box ends.
            let inset = (b.w * 0.2).min(b.h * 0.29);
            vec![
                pt(x0 + inset, y0),
                pt(x1 - inset, y0),
                pt(x1, c.y),
                pt(x1 - inset, y1),
                pt(x0 + inset, y1),
                pt(x0, c.y),
            ]
        }
        Geom::Parallelogram => {
            let skew = (b.w * 0.14).min(b.h * 0.6);
            vec![pt(x0 + skew, y0), pt(x1, y0), pt(x1 - skew, y1), pt(x0, y1)]
        }
        Geom::Star => {
            // Five points; the inner radius of a regular star (0.382) looks spiky at
            // small sizes, 0.45 reads better and leaves room for a word.
            let (rx, ry) = (b.w / 2.0, b.h / 2.0);
            // Stretch the star so that its own extent (points at ±0.951 across, from
            // -1 to 0.809 down) fills the bounds.
            let (rx, ry) = (rx / 0.951, ry * 2.0 / 1.809);
            let cy = y0 + ry;
            (0..10)
                .map(|i| {
                    let a = -PI / 2.0 + i as f64 * PI / 5.0;
                    let f = if i % 2 == 0 { 1.0 } else { 0.45 };
                    pt(c.x + rx * f * a.cos(), cy + ry * f * a.sin())
                })
                .collect()
        }
        _ => return None,
    })
}

/// A closed path through `points`.
pub(crate) fn polygon_path(points: &[Point]) -> Vec<Seg> {
    let mut segs = Vec::with_capacity(points.len() + 1);
    for (i, p) in points.iter().enumerate() {
        segs.push(if i == 0 { Seg::Move(*p) } else { Seg::Line(*p) });
    }
    segs.push(Seg::Close);
    segs
}

/// A cylinder: the body (top cap's back arc, sides, bottom's front arc) and the top
/// cap's front rim.
fn cylinder(b: Rect) -> (Vec<Seg>, Vec<Seg>) {
    let ry = (b.h * 0.1).min(b.w * 0.25);
    let rx = b.w / 2.0;
    let (kx, ky) = (rx * KAPPA, ry * KAPPA);
    let (x0, x1, cx) = (b.x, b.right(), b.center().x);
    let top = b.y + ry;
    let bottom = b.bottom() - ry;
    let body = vec![
        Seg::Move(pt(x0, top)),
        Seg::Cubic(pt(x0, top - ky), pt(cx - kx, b.y), pt(cx, b.y)),
        Seg::Cubic(pt(cx + kx, b.y), pt(x1, top - ky), pt(x1, top)),
        Seg::Line(pt(x1, bottom)),
        Seg::Cubic(
            pt(x1, bottom + ky),
            pt(cx + kx, b.bottom()),
            pt(cx, b.bottom()),
        ),
        Seg::Cubic(pt(cx - kx, b.bottom()), pt(x0, bottom + ky), pt(x0, bottom)),
        Seg::Close,
    ];
    let rim = vec![
        Seg::Move(pt(x0, top)),
        Seg::Cubic(pt(x0, top + ky), pt(cx - kx, top + ry), pt(cx, top + ry)),
        Seg::Cubic(pt(cx + kx, top + ry), pt(x1, top + ky), pt(x1, top)),
    ];
    (body, rim)
}

/// A cloud: round bumps strung around an ellipse, each bump a cubic whose control
/// points stand out along the ellipse's normals.
fn cloud(b: Rect) -> Vec<Seg> {
    const BUMPS: usize = 9;
    let c = b.center();
    let bump = (b.w.min(b.h) * 0.16).max(1.0);
    let (rx, ry) = (
        (b.w / 2.0 - bump * 0.55).max(1.0),
        (b.h / 2.0 - bump * 0.55).max(1.0),
    );
    let at = |i: usize| {
        // A small phase keeps a bump from sitting exactly on the top.
        let a = -PI / 2.0 + 0.3 + i as f64 * 2.0 * PI / BUMPS as f64;
        let p = pt(c.x + rx * a.cos(), c.y + ry * a.sin());
        // The outward normal of the ellipse at angle a.
        let (nx, ny) = (a.cos() / rx, a.sin() / ry);
        let len = (nx * nx + ny * ny).sqrt();
        (p, pt(nx / len, ny / len))
    };
    let mut segs = vec![Seg::Move(at(0).0)];
    for i in 0..BUMPS {
        let (p0, n0) = at(i);
        let (p1, n1) = at((i + 1) % BUMPS);
        let chord = distance(p1, p0);
        let arm = chord * 0.62;
        segs.push(Seg::Cubic(
            pt(p0.x + n0.x * arm, p0.y + n0.y * arm),
            pt(p1.x + n1.x * arm, p1.y + n1.y * arm),
            p1,
        ));
    }
    segs.push(Seg::Close);
    segs
}

/// The point where the ray from the centre of the shape towards `toward` leaves the
/// outline. For rect-like shapes this is a point on the box.
pub fn boundary_toward(geom: Option<Geom>, b: Rect, toward: Point) -> Point {
    let c = b.center();
    boundary_from(geom, b, c, pt(toward.x - c.x, toward.y - c.y))
}

/// The point where the ray from `origin`, a point inside the bounds, in direction
/// `dir` leaves the outline. Connectors spread along a side use it with an origin
/// shifted off the centre, so the outline point keeps the side's normal direction.
pub fn boundary_from(geom: Option<Geom>, b: Rect, origin: Point, dir: Point) -> Point {
    let (dx, dy) = (dir.x, dir.y);
    if dx.abs() < 1e-9 && dy.abs() < 1e-9 || b.w <= 0.0 && b.h <= 0.0 {
        return origin;
    }
    match geom {
        Some(Geom::Ellipse | Geom::Cloud | Geom::EndState) => {
            let c = b.center();
            let (rx, ry) = ((b.w / 2.0).max(1e-9), (b.h / 2.0).max(1e-9));
            // The larger root of |((origin + t·dir) - c) / r|² = 1.
            let (ox, oy) = ((origin.x - c.x) / rx, (origin.y - c.y) / ry);
            let (ux, uy) = (dx / rx, dy / ry);
            let a = ux * ux + uy * uy;
            let half_b = ox * ux + oy * uy;
            let cc = ox * ox + oy * oy - 1.0;
            let disc = half_b * half_b - a * cc;
            if disc < 0.0 {
                return ray_box(b, origin, dx, dy);
            }
            let t = (-half_b + disc.sqrt()) / a;
            pt(origin.x + dx * t, origin.y + dy * t)
        }
        Some(g) => match polygon(g, b) {
            Some(poly) => {
                ray_polygon(origin, dir, &poly).unwrap_or_else(|| ray_box(b, origin, dx, dy))
            }
            None => ray_box(b, origin, dx, dy),
        },
        None => ray_box(b, origin, dx, dy),
    }
}

/// Where the ray from `origin` (inside the box) in direction (dx, dy) leaves the box.
fn ray_box(b: Rect, origin: Point, dx: f64, dy: f64) -> Point {
    let reach = |d: f64, lo: f64, hi: f64, o: f64| {
        if d > 1e-9 {
            (hi - o) / d
        } else if d < -1e-9 {
            (lo - o) / d
        } else {
            f64::INFINITY
        }
    };
    let t = reach(dx, b.x, b.right(), origin.x)
        .min(reach(dy, b.y, b.bottom(), origin.y))
        .max(0.0);
    pt(origin.x + dx * t, origin.y + dy * t)
}

/// The furthest intersection of the ray `origin + t·dir` (t > 0) with the polygon.
fn ray_polygon(origin: Point, dir: Point, poly: &[Point]) -> Option<Point> {
    let mut best: Option<f64> = None;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        let e = pt(b.x - a.x, b.y - a.y);
        let denom = dir.x * e.y - dir.y * e.x;
        if denom.abs() < 1e-12 {
            continue;
        }
        let w = pt(a.x - origin.x, a.y - origin.y);
        let t = (w.x * e.y - w.y * e.x) / denom;
        let u = (w.x * dir.y - w.y * dir.x) / denom;
        if t > 0.0 && (-1e-9..=1.0 + 1e-9).contains(&u) {
            best = Some(best.map_or(t, |bt: f64| bt.max(t)));
        }
    }
    best.map(|t| pt(origin.x + dir.x * t, origin.y + dir.y * t))
}
