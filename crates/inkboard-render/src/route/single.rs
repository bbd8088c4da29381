//! Connector routing, one connector at a time: where a connector leaves and enters
//! its ends, its simple routes, its arrowheads and the track its label may sit on.
//!
//! Orthogonal connectors are normally routed around obstacles by a search over the
//! whole page (the crate's `connectors` and `orthogonal` modules); here are the
//! pieces every route shares, and the simple routes of the other kinds. Routing is
//! two steps, so that a page can share out the sides of its shapes among the
//! connectors that meet them: [`plan`] picks the sides a route uses, then [`route`]
//! draws it through ports that may be shifted along those sides ([`draw`] draws a
//! route whose corners are known already).
//!
//! Sides come from the relative position of the two ends. When the boxes are apart
//! on both axes (diagonal), a simple orthogonal route is an L: it leaves the source
//! by the side facing the target on one axis and enters the target by the side
//! facing the source on the other, taking the shorter of the two Ls whose legs no
//! other shape blocks. Otherwise, and for curved routes, the sides face each other
//! along the axis with the larger gap (right → left when the target is beside,
//! bottom → top when it is below): an orthogonal route runs with two bends through
//! the middle of that gap (a Z), or with one bend when the boxes overlap on that
//! axis; a curved route is a cubic whose ends leave perpendicular to their sides
//! (between facing sides, with its arms halfway across the gap). An end pinned to
//! a side (`from_side`, `to_side`) uses that side, whatever the route's kind
//! ([`Plan::pinned`]); a straight route's pinned end starts at that side's port.
//! Straight routes aim from centre to centre. Ports sit on the outline: on a box side
//! at the given offset from its middle, and on ellipses, diamonds and the other
//! polygons where a line along the side's normal through that offset meets the
//! outline (see [`shapes`]).

use inkboard_core::{Arrow, Geom, Point, Rect, Route};
use inkboard_geom::{cubic_at, distance, length};

use crate::scene::Seg;
use crate::shapes::{self, pt};

/// What a connector end is attached to: an object's bounds and outline, or a free
/// point (a zero-size box).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndShape {
    pub bounds: Rect,
    pub geom: Option<Geom>,
    /// A rotated end's own box and turn (`bounds` is then the box around it), for
    /// putting ends on its outline: `outline.rs`.
    pub turned: Option<crate::route::outline::Turned>,
}

impl EndShape {
    pub fn point(p: Point) -> Self {
        EndShape {
            bounds: Rect::new(p.x, p.y, 0.0, 0.0),
            geom: None,
            turned: None,
        }
    }
    /// True for a free end, which has no sides to share.
    pub fn is_point(&self) -> bool {
        self.bounds.w <= 0.0 && self.bounds.h <= 0.0
    }
}

/// A side of an end's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Left,
    Right,
    Top,
    Bottom,
}

impl Side {
    /// The outward normal.
    pub fn normal(self) -> Point {
        match self {
            Side::Left => pt(-1.0, 0.0),
            Side::Right => pt(1.0, 0.0),
            Side::Top => pt(0.0, -1.0),
            Side::Bottom => pt(0.0, 1.0),
        }
    }
    /// The unit vector along the side, pointing to growing coordinates; port
    /// offsets are measured along it.
    pub fn along(self) -> Point {
        if self.is_vertical() {
            pt(0.0, 1.0)
        } else {
            pt(1.0, 0.0)
        }
    }
    /// The coordinate of `p` along the side (its y for the left and right sides,
    /// its x for the others): what port offsets are differences of.
    pub fn coord(self, p: Point) -> f64 {
        if self.is_vertical() {
            p.y
        } else {
            p.x
        }
    }
    /// True for the left and right sides (a route leaves them horizontally).
    pub fn is_vertical(self) -> bool {
        matches!(self, Side::Left | Side::Right)
    }
    /// The side's length on `b`.
    pub fn length(self, b: Rect) -> f64 {
        if self.is_vertical() {
            b.h
        } else {
            b.w
        }
    }
    /// How deep `b` is seen from this side: its width for the left and right
    /// sides, its height for the others.
    pub fn depth(self, b: Rect) -> f64 {
        if self.is_vertical() {
            b.w
        } else {
            b.h
        }
    }
    /// The side across the box.
    pub fn opposite(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
            Side::Top => Side::Bottom,
            Side::Bottom => Side::Top,
        }
    }
}

impl From<inkboard_core::Side> for Side {
    fn from(s: inkboard_core::Side) -> Side {
        match s {
            inkboard_core::Side::Top => Side::Top,
            inkboard_core::Side::Right => Side::Right,
            inkboard_core::Side::Bottom => Side::Bottom,
            inkboard_core::Side::Left => Side::Left,
        }
    }
}

/// The shape of a route and the sides it leaves and enters by, decided before any
/// port is shifted along its side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Centre to centre, each end where that line crosses its outline; an end
    /// pinned to a side (`Some`) starts or ends at that side's port instead, and
    /// the other end aims at it.
    Straight(Option<Side>, Option<Side>),
    /// Right angles only: parallel sides give a straight or two-bend (Z) route,
    /// perpendicular sides a one-bend (L) route.
    Orthogonal(Side, Side),
    /// A cubic leaving and entering perpendicular to its sides.
    Curved(Side, Side),
    /// A connector from a shape to itself: out of the first side, round the corner
    /// between the two, back into the second (see [`LOOP_CORNERS`]).
    Loop(Side, Side),
}

/// The corners a self-loop may go round, as (the side it leaves by, the side it
/// comes back into): the first is where one goes when nothing is in its way.
pub const LOOP_CORNERS: [(Side, Side); 4] = [
    (Side::Top, Side::Right),
    (Side::Right, Side::Bottom),
    (Side::Bottom, Side::Left),
    (Side::Left, Side::Top),
];

impl Plan {
    /// The sides the route uses at its start and end (`None` where a straight
    /// route is not pinned).
    pub fn sides(self) -> (Option<Side>, Option<Side>) {
        match self {
            Plan::Straight(a, b) => (a, b),
            Plan::Orthogonal(a, b) | Plan::Curved(a, b) | Plan::Loop(a, b) => (Some(a), Some(b)),
        }
    }

    /// The plan with its ends on the sides `pins` names, where it names one: a
    /// pinned side is the side used, whatever the route's kind. A loop keeps its
    /// corner (the caller picks one that agrees with the pins).
    pub fn pinned(self, pins: (Option<Side>, Option<Side>)) -> Plan {
        let (p, q) = pins;
        match self {
            Plan::Straight(a, b) => Plan::Straight(p.or(a), q.or(b)),
            Plan::Orthogonal(a, b) => Plan::Orthogonal(p.unwrap_or(a), q.unwrap_or(b)),
            Plan::Curved(a, b) => Plan::Curved(p.unwrap_or(a), q.unwrap_or(b)),
            Plan::Loop(..) => self,
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
    /// Where the label may sit, as a polyline: all the corners of a polyline route
    /// (before the ends are pulled back under their heads), the middle half of a
    /// curve.
    pub label_track: Vec<Point>,
}

/// Chooses the sides and shape of a route from `from` to `to`. `blocked(p, q)` tells
/// whether the axis-parallel segment p–q runs through some other object; it is only
/// asked about the legs of candidate L routes.
pub fn plan(
    from: EndShape,
    to: EndShape,
    kind: Route,
    blocked: impl Fn(Point, Point) -> bool,
) -> Plan {
    if !from.is_point() && from == to {
        let (a, b) = LOOP_CORNERS[0];
        return Plan::Loop(a, b);
    }
    match kind {
        Route::Straight => Plan::Straight(None, None),
        Route::Curved => {
            let (sa, sb) = facing(from.bounds, to.bounds);
            Plan::Curved(sa, sb)
        }
        Route::Orthogonal => {
            let (sa, sb) = orthogonal_sides(from, to, blocked);
            Plan::Orthogonal(sa, sb)
        }
    }
}

/// The gaps between two boxes along x and y (negative when they overlap).
fn gaps(a: Rect, b: Rect) -> (f64, f64) {
    (
        (b.x - a.right()).max(a.x - b.right()),
        (b.y - a.bottom()).max(a.y - b.bottom()),
    )
}

/// The sides of `a` and `b` that face each other horizontally and vertically.
fn facing_pairs(a: Rect, b: Rect) -> ((Side, Side), (Side, Side)) {
    let (ca, cb) = (a.center(), b.center());
    let x = if cb.x >= ca.x {
        (Side::Right, Side::Left)
    } else {
        (Side::Left, Side::Right)
    };
    let y = if cb.y >= ca.y {
        (Side::Bottom, Side::Top)
    } else {
        (Side::Top, Side::Bottom)
    };
    (x, y)
}

/// True when the main axis between `a` and `b` is horizontal: the one with the larger
/// gap, or, when the boxes overlap, the one their centres are further apart on
/// relative to their sizes.
fn horizontal_axis(a: Rect, b: Rect) -> bool {
    let (gap_x, gap_y) = gaps(a, b);
    let (ca, cb) = (a.center(), b.center());
    match (gap_x > 0.0, gap_y > 0.0) {
        (true, true) => gap_x >= gap_y,
        (true, false) => true,
        (false, true) => false,
        (false, false) => {
            (cb.x - ca.x).abs() / (a.w + b.w).max(1.0) >= (cb.y - ca.y).abs() / (a.h + b.h).max(1.0)
        }
    }
}

/// The sides facing each other along the main axis.
pub(crate) fn facing(a: Rect, b: Rect) -> (Side, Side) {
    let (x, y) = facing_pairs(a, b);
    if horizontal_axis(a, b) {
        x
    } else {
        y
    }
}

/// The sides a route between `a` and `b` leaves and enters by when it follows the
/// flow, if it does. `flow` is the side the page's flow leaves a shape by (see
/// [`page_flow`]; `Bottom` for a `down` layout): a pair apart that way joins by
/// the facing sides along it (bottom to top), even when it lies further apart
/// across, as in a wide tree; a pair against the flow (a loop back) does not
/// follow it, nor does any pair on a page without a flow.
pub fn flow_sides(a: Rect, b: Rect, flow: Option<Side>) -> Option<(Side, Side)> {
    let (gap_x, gap_y) = gaps(a, b);
    let (x, y) = facing_pairs(a, b);
    match flow {
        Some(side) => {
            let (gap, pair) = if side.is_vertical() {
                (gap_x, x)
            } else {
                (gap_y, y)
            };
            (gap > 0.0 && pair.0 == side).then_some(pair)
        }
        None => None,
    }
}

/// The flow of a page, from its connected pairs of boxes (source, target): the
/// side most pairs that lie apart leave their source by (`Bottom` when most
/// targets lie below their sources), if more pairs go that way than any other.
pub fn page_flow(pairs: impl Iterator<Item = (Rect, Rect)>) -> Option<Side> {
    let mut count = [0usize; 4];
    for (a, b) in pairs {
        let (gap_x, gap_y) = gaps(a, b);
        let (x, y) = facing_pairs(a, b);
        for (gap, side) in [(gap_x, x.0), (gap_y, y.0)] {
            if gap > 0.0 {
                count[side as usize] += 1;
            }
        }
    }
    let most = *count.iter().max()?;
    let mut best = [Side::Left, Side::Right, Side::Top, Side::Bottom]
        .into_iter()
        .filter(|&s| count[s as usize] == most);
    match (best.next(), best.next()) {
        (Some(s), None) if most > 0 => Some(s),
        _ => None,
    }
}

fn orthogonal_sides(
    a: EndShape,
    b: EndShape,
    blocked: impl Fn(Point, Point) -> bool,
) -> (Side, Side) {
    let (gap_x, gap_y) = gaps(a.bounds, b.bounds);
    let (x, y) = facing_pairs(a.bounds, b.bounds);
    if gap_x > 0.0 && gap_y > 0.0 {
        // Diagonal: one bend reads better than two. Of the two Ls, take the shorter
        // one whose legs are clear; when both are blocked a Z through the larger gap
        // at least keeps its legs short.
        let clear_length = |(sa, sb): (Side, Side)| {
            let points = orthogonal_points(a, b, sa, sb, (0.0, 0.0));
            let clear = !points.windows(2).any(|w| blocked(w[0], w[1]));
            clear.then(|| length(&points))
        };
        let best = [(x.0, y.1), (y.0, x.1)]
            .into_iter()
            .filter_map(|s| clear_length(s).map(|len| (s, len)))
            // `min_by` keeps the first of equals: horizontal first wins ties.
            .min_by(|p, q| p.1.total_cmp(&q.1));
        if let Some((sides, _)) = best {
            return sides;
        }
    }
    match (
        horizontal_axis(a.bounds, b.bounds),
        gap_x > 0.0,
        gap_y > 0.0,
    ) {
        (true, true, _) => x,
        (false, _, true) => y,
        // No room between the boxes on the main axis: leave along it, turn once and
        // enter the target from across.
        (true, false, _) => (x.0, y.1),
        (false, _, false) => (y.0, x.1),
    }
}

/// Where an end meets its side, `offset` along the side from its middle: on the
/// outline where a line along the side's normal through that point leaves it. A free
/// point is its own port.
pub fn port(end: EndShape, side: Side, offset: f64) -> Point {
    if end.is_point() {
        return pt(end.bounds.x, end.bounds.y);
    }
    let origin = add(end.bounds.center(), scale(side.along(), offset));
    crate::route::outline::boundary_from(end, origin, side.normal())
}

/// The range of port offsets along side `side` of `end` whose ports land on
/// that side of its outline (see [`on_side`]): the whole side for a box, the
/// middle 71% for an ellipse, the middle half for a diamond. Past it, a port
/// meets the outline round the corner, where the neighbouring side's ports are.
pub(crate) fn side_span(end: EndShape, side: Side) -> (f64, f64) {
    let half = side.length(end.bounds) / 2.0;
    if end.is_point() || half <= 0.0 {
        return (0.0, 0.0);
    }
    let on = |offset: f64| on_side(end, side, port(end, side, offset));
    // Outlines are convex or nearly so: a side's ports are one run about its
    // middle, so its two ends can be bisected for. (Not tested at the corner
    // itself: a ray from a diamond's corner misses it and meets the box.)
    let reach = |sign: f64| {
        let (mut lo, mut hi) = (0.0, half);
        for _ in 0..24 {
            let mid = (lo + hi) / 2.0;
            if on(sign * mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    };
    (-reach(-1.0), reach(1.0))
}

/// How long side `side` of a shape of `geom` in a box like `bounds` must be
/// for `n` ends spread on it a comfortable step apart (the smallest step
/// between ports that the router leaves as found), all within the part of the
/// side whose ports land on it ([`side_span`]): what a layout gives a hub so
/// that its ends neither crowd nor spill round its corners. Never less than
/// the side's length now.
pub fn side_for_ports(geom: Option<Geom>, bounds: Rect, side: Side, n: usize) -> f64 {
    let length = side.length(bounds);
    let end = EndShape {
        bounds,
        geom,
        turned: None,
    };
    let (lo, hi) = side_span(end, side);
    if n == 0 || length <= 0.0 || hi <= lo {
        return length;
    }
    // A pointed side (a triangle's apex) would ask for a huge box: no side
    // counts as holding less than a diamond's does.
    let share = ((hi - lo) / length).max(0.5);
    let need = crate::route::ports::MIN_PORT_STEP * (n as f64 + 1.0) / share;
    // The span is bisected for: a side that holds them within a hair keeps
    // its length, and a grown one is a whole number of pixels.
    if need <= length + 0.5 {
        length
    } else {
        (need - 0.01).ceil()
    }
}

/// Whether point `p` of `end`'s outline is on side `side`: it lies further out
/// that way than along the side, both measured against the half-size of the
/// box (a diamond's or ellipse's extreme point belongs to its side, and the
/// points halfway to the next extreme are the border).
fn on_side(end: EndShape, side: Side, p: Point) -> bool {
    let c = end.bounds.center();
    let (n, t) = (side.normal(), side.along());
    let (d, half_out, half_along) = (
        pt(p.x - c.x, p.y - c.y),
        side.depth(end.bounds) / 2.0,
        side.length(end.bounds) / 2.0,
    );
    let out = (d.x * n.x + d.y * n.y) / half_out.max(1e-9);
    let along = (d.x * t.x + d.y * t.y) / half_along.max(1e-9);
    out >= along.abs() - 1e-6
}

/// The corner points of a route, ports shifted by `offsets` (start, end) along their
/// sides. A curved route gives its two ends only (its control points follow from the
/// sides); a straight one its two outline points.
pub fn points(from: EndShape, to: EndShape, plan: Plan, offsets: (f64, f64)) -> Vec<Point> {
    match plan {
        Plan::Straight(sa, sb) => {
            let (ca, cb) = (from.bounds.center(), to.bounds.center());
            let q1 = sa.map(|s| port(from, s, offsets.0));
            let q2 = sb.map(|s| port(to, s, offsets.1));
            let p1 = q1
                .unwrap_or_else(|| crate::route::outline::boundary_toward(from, q2.unwrap_or(cb)));
            let p2 =
                q2.unwrap_or_else(|| crate::route::outline::boundary_toward(to, q1.unwrap_or(ca)));
            vec![p1, p2]
        }
        Plan::Orthogonal(sa, sb) => orthogonal_points(from, to, sa, sb, offsets),
        Plan::Curved(sa, sb) => vec![port(from, sa, offsets.0), port(to, sb, offsets.1)],
        Plan::Loop(a, b) => self_loop(from, (a, b), offsets),
    }
}

fn orthogonal_points(
    a: EndShape,
    b: EndShape,
    sa: Side,
    sb: Side,
    offsets: (f64, f64),
) -> Vec<Point> {
    let p1 = port(a, sa, offsets.0);
    let p2 = port(b, sb, offsets.1);
    match (sa.is_vertical(), sb.is_vertical()) {
        (true, true) => {
            if (p1.y - p2.y).abs() < 0.5 {
                return vec![p1, pt(p2.x, p1.y)];
            }
            let mx = (p1.x + p2.x) / 2.0;
            vec![p1, pt(mx, p1.y), pt(mx, p2.y), p2]
        }
        (false, false) => {
            if (p1.x - p2.x).abs() < 0.5 {
                return vec![p1, pt(p1.x, p2.y)];
            }
            let my = (p1.y + p2.y) / 2.0;
            vec![p1, pt(p1.x, my), pt(p2.x, my), p2]
        }
        (true, false) => vec![p1, pt(p2.x, p1.y), p2],
        (false, true) => vec![p1, pt(p1.x, p2.y), p2],
    }
}

/// Routes a connector along `plan`, its ports shifted by `offsets` (start, end), and
/// places its arrowheads for a line of width `width`.
pub fn route(
    from: EndShape,
    to: EndShape,
    plan: Plan,
    offsets: (f64, f64),
    start: Arrow,
    end: Arrow,
    width: f64,
) -> Routed {
    let points = points(from, to, plan, offsets);
    let curve = match plan {
        Plan::Curved(sa, sb) => Some((sa, sb)),
        _ => None,
    };
    draw(points, curve, start, end, width)
}

/// Draws a route through `points` (a polyline's corners, or a curve's two ends
/// leaving by `curve`'s sides) with its arrowheads for a line of width `width`.
pub fn draw(
    mut points: Vec<Point>,
    curve: Option<(Side, Side)>,
    start: Arrow,
    end: Arrow,
    width: f64,
) -> Routed {
    if points.is_empty() {
        points.push(Point::default());
    }
    if points.len() == 1 {
        points.push(points[0]);
    }
    let curve = curve.map(|(sa, sb)| {
        let (p1, p2) = (points[0], points[points.len() - 1]);
        let n = sa.normal();
        let ahead = (p2.x - p1.x) * n.x + (p2.y - p1.y) * n.y;
        // Between facing sides, both arms reach halfway across the gap (d3's
        // linkHorizontal, as mind maps draw their branches): the curve then runs
        // on one way without overshooting, so curves from ports in order to ends
        // in order do not cross. Otherwise each arm is a share of the distance.
        let arm = if sb == sa.opposite() && ahead > 1.0 {
            ahead / 2.0
        } else {
            (distance(p1, p2) * 0.4).clamp(24.0, 160.0)
        };
        (
            add(p1, scale(sa.normal(), arm)),
            add(p2, scale(sb.normal(), arm)),
        )
    });
    let label_track = match curve {
        Some((c1, c2)) => (0..=8)
            .map(|i| {
                cubic_at(
                    points[0],
                    c1,
                    c2,
                    points[points.len() - 1],
                    0.25 + i as f64 / 16.0,
                )
            })
            .collect(),
        None => points.clone(),
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
    Routed {
        line,
        heads,
        label_track,
    }
}

/// A loop out of side `a` of a shape, round the corner between the sides, back into side `b`.
fn self_loop(e: EndShape, (a, b): (Side, Side), offsets: (f64, f64)) -> Vec<Point> {
    let p1 = port(e, a, offsets.0);
    let p2 = port(e, b, offsets.1);
    let off = 28.0;
    // Each leg runs out 28 px past the shape's box along its side's normal.
    let out = |p: Point, side: Side| {
        let n = side.normal();
        let r = e.bounds;
        let edge = match side {
            Side::Left => r.x,
            Side::Right => r.right(),
            Side::Top => r.y,
            Side::Bottom => r.bottom(),
        };
        if side.is_vertical() {
            pt(edge + n.x * off, p.y)
        } else {
            pt(p.x, edge + n.y * off)
        }
    };
    let (q1, q2) = (out(p1, a), out(p2, b));
    let corner = if a.is_vertical() {
        pt(q1.x, q2.y)
    } else {
        pt(q2.x, q1.y)
    };
    vec![p1, q1, corner, q2, p2]
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
        // UML's hollow ends: the outline alone, bigger than the filled heads so
        // the hollow reads at a glance; the line stops at the outline, as
        // nothing covers it inside.
        Arrow::HollowTriangle => {
            let (len, half) = (len * 1.25, half * 1.25);
            let corners = [tip, at(len, half), at(len, -half)];
            out.push((shapes::polygon_path(&corners), false));
            len
        }
        Arrow::HollowDiamond => {
            let (long, side) = (len * 1.6, half * 0.8);
            let corners = [
                tip,
                at(long / 2.0, side),
                at(long, 0.0),
                at(long / 2.0, -side),
            ];
            out.push((shapes::polygon_path(&corners), false));
            long
        }
        Arrow::Circle => {
            let r = len * 0.36;
            let c = at(r, 0.0);
            out.push((shapes::ellipse(c, r, r), true));
            r * 1.5
        }
        // A stroke across the line just before the end (at the end itself it
        // would lie on the outline it meets); the line runs on to the tip.
        Arrow::Bar => {
            let back = len * 0.5;
            out.push((
                vec![Seg::Move(at(back, half)), Seg::Line(at(back, -half))],
                false,
            ));
            0.0
        }
        // A dot centred on the end, smaller than a circle head: the line stops
        // inside it.
        Arrow::Dot => {
            let r = 2.0 + 1.25 * width;
            out.push((shapes::ellipse(tip, r, r), true));
            r * 0.5
        }
        Arrow::One | Arrow::ZeroOrOne | Arrow::OneOrMany | Arrow::ZeroOrMany | Arrow::Many => {
            crows_foot(arrow, tip, dir, width, out)
        }
    }
}

/// A crow's-foot end (ER notation, as draw.io's `ERmandOne`, `ERzeroToMany` and
/// the rest draw it): at the end a crow's foot (many) or a bar (one), behind it
/// a bar (at least one) or a hollow circle (zero). The line runs on to the tip
/// between the marks, so it is the foot's middle toe; a circle stands in the
/// line's way, so the line stops behind it and the head carries the stretch from
/// the circle to the tip. Returns how far the line must pull back.
fn crows_foot(
    arrow: Arrow,
    tip: Point,
    dir: Point,
    width: f64,
    out: &mut Vec<(Vec<Seg>, bool)>,
) -> f64 {
    // At the default width the whole mark stays within the 24 px the router
    // keeps straight at a port (`nudge::MIN_STUB`), so it never sits on a bend.
    let unit = 10.0 + width;
    let half = unit * 0.55;
    let nrm = pt(-dir.y, dir.x);
    let at = |back: f64, side: f64| add(add(tip, scale(dir, -back)), scale(nrm, side));
    let bar = |back: f64, segs: &mut Vec<Seg>| {
        segs.push(Seg::Move(at(back, half)));
        segs.push(Seg::Line(at(back, -half)));
    };
    let many = matches!(arrow, Arrow::OneOrMany | Arrow::ZeroOrMany | Arrow::Many);
    let mut segs = Vec::new();
    // The mark at the end: a crow's foot spreading to the outline, or a bar.
    let near = if many {
        segs.extend([
            Seg::Move(at(0.0, half)),
            Seg::Line(at(unit, 0.0)),
            Seg::Line(at(0.0, -half)),
        ]);
        unit
    } else {
        bar(unit * 0.5, &mut segs);
        unit * 0.5
    };
    // The mark behind it: at least one (a bar), or zero (a circle).
    let cut = match arrow {
        Arrow::One | Arrow::OneOrMany => {
            bar(near + unit * 0.4, &mut segs);
            0.0
        }
        Arrow::ZeroOrOne | Arrow::ZeroOrMany => {
            let r = unit * 0.33;
            let centre = near + unit * 0.25 + r;
            segs.push(Seg::Move(tip));
            segs.push(Seg::Line(at(centre - r, 0.0)));
            out.push((shapes::ellipse(at(centre, 0.0), r, r), false));
            centre + r
        }
        _ => 0.0,
    };
    out.push((segs, false));
    cut
}

/// The points of a path's outline, its curves flattened into 12 chords each: what
/// geometry checks use of a drawn line.
pub fn polyline(segs: &[Seg]) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::new();
    let mut start = None;
    for s in segs {
        match *s {
            Seg::Move(p) => {
                out.push(p);
                start = Some(p);
            }
            Seg::Line(p) => out.push(p),
            Seg::Cubic(c1, c2, p) => {
                let p0 = out.last().copied().unwrap_or(p);
                out.extend((1..=12).map(|i| cubic_at(p0, c1, c2, p, i as f64 / 12.0)));
            }
            Seg::Close => out.extend(start),
        }
    }
    out
}

pub(crate) fn add(a: Point, b: Point) -> Point {
    pt(a.x + b.x, a.y + b.y)
}
fn neg(a: Point) -> Point {
    pt(-a.x, -a.y)
}
pub(crate) fn scale(a: Point, s: f64) -> Point {
    pt(a.x * s, a.y * s)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn end(geom: Geom) -> EndShape {
        EndShape {
            bounds: Rect::new(0.0, 0.0, 120.0, 100.0),
            geom: Some(geom),
            turned: None,
        }
    }

    #[test]
    fn a_side_for_many_ports_grows_by_the_part_they_land_on() {
        let b = Rect::new(0.0, 0.0, 120.0, 60.0);
        // Room enough: the side keeps its length.
        assert_eq!(side_for_ports(Some(Geom::Rect), b, Side::Top, 3), 120.0);
        assert_eq!(side_for_ports(Some(Geom::Rect), b, Side::Top, 0), 120.0);
        // Twenty lines on a box's top: a step of 12 px each, 21 steps.
        assert_eq!(side_for_ports(Some(Geom::Rect), b, Side::Top, 20), 252.0);
        // An ellipse's ends land on its top only in the middle 71%, a
        // diamond's in the middle half: they grow more.
        let ellipse = side_for_ports(Some(Geom::Ellipse), b, Side::Top, 20);
        let diamond = side_for_ports(Some(Geom::Diamond), b, Side::Top, 20);
        assert!((350.0..360.0).contains(&ellipse), "{ellipse}");
        assert_eq!(diamond, 504.0);
        // Across a left-to-right flow, the height grows.
        assert_eq!(side_for_ports(Some(Geom::Rect), b, Side::Left, 9), 120.0);
    }

    #[test]
    fn a_side_spans_where_its_ports_land_on_it() {
        let near =
            |(lo, hi): (f64, f64), want: f64| (lo + want).abs() < 0.01 && (hi - want).abs() < 0.01;
        // A box: the whole side.
        assert!(near(side_span(end(Geom::Rect), Side::Top), 60.0));
        // An ellipse: up to its points at 45° on the unit circle, x = a/√2.
        let ellipse = end(Geom::Ellipse);
        let (top, left) = (
            side_span(ellipse, Side::Top),
            side_span(ellipse, Side::Left),
        );
        assert!(near(top, 60.0 / 2f64.sqrt()), "{top:?}");
        assert!(near(left, 50.0 / 2f64.sqrt()), "{left:?}");
        // A diamond: the middle half, up to the midpoints of its edges.
        let diamond = side_span(end(Geom::Diamond), Side::Bottom);
        assert!(near(diamond, 30.0), "{diamond:?}");
        // Past the span, a top port lands on the left or right of the ellipse.
        let past = port(ellipse, Side::Top, top.1 + 4.0);
        assert!(!on_side(ellipse, Side::Top, past));
        assert!(on_side(ellipse, Side::Right, past));
    }
}
