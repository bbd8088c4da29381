//! Straightening (step 3b of a page's layout, after nudging): a route with corners
//! between two shapes that face each other across a gap (it leaves one by its
//! bottom and enters the other by its top, or right and left, and so on) whose
//! facing sides overlap along the gap is drawn as one straight line instead, its
//! two ports slid to meet, as ELK and `dot` place ports facing their other end.
//!
//! Port spreading ([`ports`](super::ports)) sets each side's ports evenly along it
//! without looking at where the other end's port is, so a line between two shapes
//! in line got a jog of two bends wherever the two fans did not match. The straight
//! line is taken only where it is as good a line as the route: it keeps clear of
//! the page's shapes as a searched route does ([`clear`]), runs no closer than
//! [`MIN_SPACING`] beside another line, keeps [`MIN_PORT_STEP`] from the other
//! ports of its two sides, and crosses no more lines than the route did. Where the
//! two ends overlap over a stretch, the line goes through the point of it that
//! moves the ports least (one of them not at all, when it can).
//!
//! Two more ways to fewer bends, on the same terms: a route of four bends or
//! more between facing sides takes a single jog from the same ports where one
//! is clear (a long edge the search took round its layers' shapes, set on
//! tracks of its own by the nudging, often has a Z free beside it); and a
//! route whose first or last leg ends in a jog loses it when the leg before
//! can run on into the end's side, its port slid there.
//!
//! A labelled line goes straight only when it crosses no line and is long
//! enough for its label, so that the label has a clear stretch of it; and no
//! line goes straight through the place another's label will likely take (as
//! the searches keep off it, see `connectors::likely_label`).
//!
//! Limitations: the routes are straightened one at a time in page order against
//! the lines as they are then.

use inkboard_core::{Point, Rect};

use crate::deadline::{Deadline, Stopped};
use crate::route::connectors::{Corners, Draft, Page};
use crate::route::ends::{facing_part, EndInfo};
use crate::route::labels::{self, label_size};
use crate::route::nudge::MIN_SPACING;
use crate::route::obstacles::clear;
use crate::route::ports::MIN_PORT_STEP;
use crate::route::Side;

/// The most segment tests the pass may make on one page: a few milliseconds.
/// A page of thousands of routes keeps the rest of its jogs rather than take
/// quadratic time.
const BUDGET: usize = 4_000_000;

/// The length a straight line with a label keeps beyond the label's own, for
/// its arrowhead and the room either side.
const LABEL_ROOM: f64 = 48.0;

/// The step between the places across the gap tried for a Z's crossing leg,
/// after the route's own tracks: the nudging's spacing.
const Z_STEP: f64 = 12.0;

/// The most places tried for one route's straight line or Z: a wide overlap or
/// a deep gap is not searched to its end, each try costing a walk of the
/// page's lines.
const MAX_TRIES: usize = 24;

/// The step between the places along the overlap that are tried, besides its ends'
/// current ports and its middle.
const STEP: f64 = 4.0;

/// Straightens the routes of `page` that can go straight (see the module
/// documentation), in page order.
pub(super) fn straighten(
    page: &Page,
    drafts: &[Draft],
    corners: &mut Corners,
    deadline: &Deadline,
) -> Result<(), Stopped> {
    let mut work = 0usize;
    let mut labels: Vec<Option<Rect>> = (0..corners.len())
        .map(|k| likely_label(page, corners, k))
        .collect();
    for k in 0..corners.len() {
        if work > BUDGET {
            break;
        }
        deadline.check()?;
        let better = match straight_for(page, drafts, corners, &labels, k, &mut work) {
            Some(line) => Some(line.to_vec()),
            None => z_for(page, drafts, corners, &labels, k, &mut work),
        };
        if let Some(better) = better {
            corners[k] = Some(better);
            labels[k] = likely_label(page, corners, k);
        }
        for at_end in [true, false] {
            if let Some(better) = slid_for(page, drafts, corners, &labels, k, at_end, &mut work) {
                corners[k] = Some(better);
                labels[k] = likely_label(page, corners, k);
            }
        }
    }
    Ok(())
}

/// Where connector `k`'s label will likely sit on its route as it is, when it
/// has a label not placed by hand and its route too little room to move it
/// aside ([`labels::likely`]): other lines keep off that box, as the searches do.
pub(super) fn likely_label(page: &Page, corners: &Corners, k: usize) -> Option<Rect> {
    let c = page.connectors[k].1;
    if c.label_at().is_some() {
        return None;
    }
    labels::likely(corners[k].as_ref()?, label_size(c)?)
}

/// Connector `k`'s ends and the sides its route leaves and enters by, when
/// those face each other (opposite sides of two different shapes).
fn facing<'a>(
    page: &'a Page,
    drafts: &[Draft],
    k: usize,
) -> Option<(&'a EndInfo, &'a EndInfo, Side, Side)> {
    let (a, b) = &page.ends[k];
    let (Some(sa), Some(sb)) = drafts[k].sides() else {
        return None;
    };
    let faces = sb == sa.opposite() && !a.shape.is_point() && !b.shape.is_point();
    (faces && a.object != b.object).then_some((a, b, sa, sb))
}

/// The straight line connector `k` can take instead of its route, if it has one.
fn straight_for(
    page: &Page,
    drafts: &[Draft],
    corners: &Corners,
    labels: &[Option<Rect>],
    k: usize,
    work: &mut usize,
) -> Option<[Point; 2]> {
    let points = corners[k].as_ref()?;
    if points.len() < 3 {
        return None;
    }
    let (a, b, sa, sb) = facing(page, drafts, k)?;
    // The gap between the two sides, measured along `sa`'s outward normal.
    let n = sa.normal();
    let depth = |p: Point| p.x * n.x + p.y * n.y;
    let from = crate::route::ends::side_point(a.shape.bounds, sa, 0.0, 0.0);
    let to = crate::route::ends::side_point(b.shape.bounds, sb, 0.0, 0.0);
    if depth(to) - depth(from) < 1.0 {
        return None;
    }
    let (lo_a, hi_a) = facing_part(a.shape, sa);
    let (lo_b, hi_b) = facing_part(b.shape, sb);
    let (lo, hi) = (lo_a.max(lo_b), hi_a.min(hi_b));
    if lo > hi {
        return None;
    }
    let at = |t: f64, p: Point| {
        if sa.is_vertical() {
            Point { x: p.x, y: t }
        } else {
            Point { x: t, y: p.y }
        }
    };
    let line = |t: f64| [at(t, from), at(t, to)];
    let start = sa.coord(points[0]);
    let end = sa.coord(points[points.len() - 1]);
    // A label in the middle of the line needs a stretch of it free of other
    // lines, clear of the arrowheads: a straight line with a label crosses
    // nothing, and is long enough for it.
    let c = page.connectors[k].1;
    let label = label_size(c).filter(|_| c.label_at().is_none());
    if let Some((w, h)) = label {
        let along = if sa.is_vertical() { w } else { h };
        if depth(to) - depth(from) < along + LABEL_ROOM {
            return None;
        }
    }
    let most = if label.is_some() {
        0
    } else {
        crossings_of(points, corners, k, work)
    };
    for t in candidates(start, end, lo, hi).into_iter().take(MAX_TRIES) {
        let cand = line(t);
        if as_good(page, drafts, corners, labels, k, &cand, true, work)
            && crossings_of(&cand, corners, k, work) <= most
        {
            return Some(cand);
        }
    }
    None
}

/// The shortest leg a route with one jog keeps at either end, room for its
/// arrowhead.
pub(super) const MIN_END_LEG: f64 = 16.0;

/// A route of one jog (two bends) connector `k` can take instead of its route
/// of four bends or more, from the same ports, if it has one: between two
/// shapes facing each other across a gap, a long edge the search drew round
/// its layers' shapes and the nudging set on tracks of their own often has
/// a Z free beside it. The Z's crossing leg is tried on the route's own tracks
/// first, then across the gap; it must be as clear as the route (see
/// [`straight_for`]). Not for a labelled line, whose label was found room on
/// the route it has.
fn z_for(
    page: &Page,
    drafts: &[Draft],
    corners: &Corners,
    labels: &[Option<Rect>],
    k: usize,
    work: &mut usize,
) -> Option<Vec<Point>> {
    let points = corners[k].as_ref()?;
    if points.len() < 6 {
        return None;
    }
    let (_, _, sa, _) = facing(page, drafts, k)?;
    let c = page.connectors[k].1;
    if label_size(c).is_some() && c.label_at().is_none() {
        return None;
    }
    let n = sa.normal();
    let depth = |p: Point| p.x * n.x + p.y * n.y;
    let (p0, pn) = (points[0], points[points.len() - 1]);
    if (sa.coord(p0) - sa.coord(pn)).abs() < 1.0 {
        return None;
    }
    let (d0, d1) = (depth(p0), depth(pn));
    if d1 - d0 < 2.0 * MIN_END_LEG {
        return None;
    }
    // The point of `p` at depth `d` (along `sa`'s normal).
    let to_depth = |p: Point, d: f64| {
        let by = d - depth(p);
        Point {
            x: p.x + n.x * by,
            y: p.y + n.y * by,
        }
    };
    let mut tracks: Vec<f64> = points[1..points.len() - 1]
        .iter()
        .map(|&p| depth(p))
        .collect();
    let steps = ((d1 - d0) / Z_STEP).floor() as usize;
    tracks.extend((1..steps).map(|i| d0 + i as f64 * Z_STEP));
    tracks.truncate(MAX_TRIES);
    let old = crossings_of(points, corners, k, work);
    for d in tracks {
        if d < d0 + MIN_END_LEG || d > d1 - MIN_END_LEG {
            continue;
        }
        let cand = vec![p0, to_depth(p0, d), to_depth(pn, d), pn];
        if as_good(page, drafts, corners, labels, k, &cand, false, work)
            && crossings_of(&cand, corners, k, work) <= old
        {
            return Some(cand);
        }
    }
    None
}

/// Connector `k`'s route with its last jog (`at_end`) or its first gone, if it
/// can lose it: the leg before the jog runs on into the end's side, its port
/// slid there, when that side's part for ports reaches so far and the route so
/// changed is as clear as the route (see [`straight_for`]). Not for a
/// labelled line, whose label was found room on the route it has.
fn slid_for(
    page: &Page,
    drafts: &[Draft],
    corners: &Corners,
    labels: &[Option<Rect>],
    k: usize,
    at_end: bool,
    work: &mut usize,
) -> Option<Vec<Point>> {
    let points = corners[k].as_ref()?;
    let n = points.len();
    if n < 4 {
        return None;
    }
    let (a, b) = &page.ends[k];
    let (Some(sa), Some(sb)) = drafts[k].sides() else {
        return None;
    };
    let c = page.connectors[k].1;
    if a.object == b.object || (label_size(c).is_some() && c.label_at().is_none()) {
        return None;
    }
    // The end, its side, its port, the corner after it and the one after that.
    let (e, side, port, p1, p2) = if at_end {
        (b, sb, points[n - 1], points[n - 2], points[n - 3])
    } else {
        (a, sa, points[0], points[1], points[2])
    };
    if e.shape.is_point() {
        return None;
    }
    // The leg from the port runs along the side's normal, the jog along the side.
    let along = |p: Point, q: Point| (side.coord(p) - side.coord(q)).abs() < 1e-6;
    if !along(port, p1) || along(p1, p2) {
        return None;
    }
    let t = side.coord(p2);
    let (lo, hi) = facing_part(e.shape, side);
    if !(lo..=hi).contains(&t) {
        return None;
    }
    let slid = if side.is_vertical() {
        Point { x: port.x, y: t }
    } else {
        Point { x: t, y: port.y }
    };
    let mut cand: Vec<Point> = if at_end {
        points[..n - 2].iter().copied().chain([slid]).collect()
    } else {
        [slid]
            .into_iter()
            .chain(points[3..].iter().copied())
            .collect()
    };
    crate::route::orthogonal::simplify(&mut cand);
    let ok = cand.len() >= 2
        && as_good(page, drafts, corners, labels, k, &cand, true, work)
        && crossings_of(&cand, corners, k, work) <= crossings_of(points, corners, k, work);
    ok.then_some(cand)
}

/// The places along the overlap `lo..=hi` to try, best first: where one port is
/// now (the other moves), then the middle of the two, then the rest by distance
/// from it.
fn candidates(start: f64, end: f64, lo: f64, hi: f64) -> Vec<f64> {
    let mid = ((start + end) / 2.0).clamp(lo, hi);
    let mut out: Vec<f64> = [start, end]
        .into_iter()
        .filter(|t| (lo..=hi).contains(t))
        .collect();
    out.push(mid);
    let steps = ((hi - lo) / STEP).floor() as usize;
    let mut rest: Vec<f64> = (0..=steps).map(|i| lo + i as f64 * STEP).collect();
    rest.push(hi);
    rest.sort_by(|x, y| (x - mid).abs().total_cmp(&(y - mid).abs()));
    out.extend(rest);
    out.dedup_by(|x, y| (*x - *y).abs() < 0.5);
    out
}

/// Whether `cand` is as good a line for connector `k` as a searched route:
/// clear of the page's shapes ([`clear`]), off the likely place of another
/// line's label ([`on_label`]), and keeping its spacing, and its ports' when
/// they `moved` ([`fits`]). Each change of a route after nudging (here and in
/// [`untangle`](super::untangle)) is taken only on these terms.
#[allow(clippy::too_many_arguments)]
pub(super) fn as_good(
    page: &Page,
    drafts: &[Draft],
    corners: &Corners,
    labels: &[Option<Rect>],
    k: usize,
    cand: &[Point],
    moved: bool,
    work: &mut usize,
) -> bool {
    let (a, b) = &page.ends[k];
    let (Some(sa), Some(sb)) = drafts[k].sides() else {
        return false;
    };
    clear(cand, a, b, &page.lifted[k], &page.obstacles)
        && !on_label(cand, labels, k)
        && fits(page, drafts, corners, k, cand, (sa, sb), moved, work)
}

/// Whether the route `cand` for connector `k`, leaving by side `sa`, keeps
/// [`MIN_SPACING`] from the lines beside it and, when its ports `moved`,
/// [`MIN_PORT_STEP`] from the other ports of its two sides (`sa` at its
/// start, `sb` at its end).
#[allow(clippy::too_many_arguments)]
pub(super) fn fits(
    page: &Page,
    drafts: &[Draft],
    corners: &Corners,
    k: usize,
    cand: &[Point],
    (sa, sb): (Side, Side),
    moved: bool,
    work: &mut usize,
) -> bool {
    let (a, b) = &page.ends[k];
    let mine = [
        (a.object, sa, cand[0]),
        (b.object, sb, cand[cand.len() - 1]),
    ];
    for (j, other) in corners.iter().enumerate() {
        if j == k {
            continue;
        }
        let Some(other) = other else { continue };
        // Ports of the same sides.
        let (oa, ob) = &page.ends[j];
        let (s0, s1) = drafts[j].sides();
        let ports = [
            (oa.object, s0, other.first()),
            (ob.object, s1, other.last()),
        ];
        for (object, side, p) in ports {
            let (Some(side), Some(p)) = (side, p) else {
                continue;
            };
            let near = mine.iter().any(|&(o, s, q)| {
                o == object && s == side && (s.coord(*p) - s.coord(q)).abs() < MIN_PORT_STEP
            });
            if moved && object.is_some() && near {
                return false;
            }
        }
        *work += other.len() * cand.len();
        for s in cand.windows(2) {
            for w in other.windows(2) {
                if side_by_side((s[0], s[1]), (w[0], w[1])) {
                    return false;
                }
            }
        }
    }
    true
}

/// Whether two axis-parallel segments run side by side closer than
/// [`MIN_SPACING`] over more than half a pixel.
fn side_by_side(s: (Point, Point), o: (Point, Point)) -> bool {
    let vertical = |s: (Point, Point)| (s.0.x - s.1.x).abs() < 1e-6;
    let horizontal = |s: (Point, Point)| (s.0.y - s.1.y).abs() < 1e-6;
    let (gap, (a0, a1), (b0, b1)) = if vertical(s) && vertical(o) && !horizontal(s) {
        (
            (s.0.x - o.0.x).abs(),
            min_max(s.0.y, s.1.y),
            min_max(o.0.y, o.1.y),
        )
    } else if horizontal(s) && horizontal(o) && !vertical(s) {
        (
            (s.0.y - o.0.y).abs(),
            min_max(s.0.x, s.1.x),
            min_max(o.0.x, o.1.x),
        )
    } else {
        return false;
    };
    gap < MIN_SPACING && a1.min(b1) - a0.max(b0) > 0.5
}

/// How many segments of the other routes the polyline `points` of connector `k`
/// crosses.
pub(super) fn crossings_of(
    points: &[Point],
    corners: &Corners,
    k: usize,
    work: &mut usize,
) -> usize {
    let mut count = 0;
    for (j, other) in corners.iter().enumerate() {
        let Some(other) = other.as_ref().filter(|_| j != k) else {
            continue;
        };
        *work += other.len() * points.len();
        count += crossings_between(points, other);
    }
    count
}

/// How many times the polylines `a` and `b` cross.
pub(super) fn crossings_between(a: &[Point], b: &[Point]) -> usize {
    let mut count = 0;
    for s in a.windows(2) {
        for o in b.windows(2) {
            if crosses((s[0], s[1]), (o[0], o[1])) {
                count += 1;
            }
        }
    }
    count
}

/// Whether the polyline `cand` of connector `k` runs through the likely place of
/// another connector's label (`labels`, by connector).
pub(super) fn on_label(cand: &[Point], labels: &[Option<Rect>], k: usize) -> bool {
    cand.windows(2).any(|w| {
        let seg = Rect::around([w[0], w[1]]).unwrap_or_default();
        labels
            .iter()
            .enumerate()
            .any(|(j, r)| j != k && r.is_some_and(|r| r.overlaps(&seg)))
    })
}

/// Whether two axis-parallel segments cross, each passing strictly through the
/// other (touching at an end, or running along each other, is no crossing).
fn crosses(s: (Point, Point), o: (Point, Point)) -> bool {
    const EPS: f64 = 0.5;
    let vertical = |s: (Point, Point)| (s.0.x - s.1.x).abs() < 1e-6;
    let (v, h) = match (vertical(s), vertical(o)) {
        (true, false) => (s, o),
        (false, true) => (o, s),
        _ => return false,
    };
    let (y0, y1) = min_max(v.0.y, v.1.y);
    let (x0, x1) = min_max(h.0.x, h.1.x);
    let (x, y) = (v.0.x, h.0.y);
    x > x0 + EPS && x < x1 - EPS && y > y0 + EPS && y < y1 - EPS
}

fn min_max(a: f64, b: f64) -> (f64, f64) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    #[test]
    fn a_turn_and_a_line_through_it_cross_once() {
        assert!(crosses(
            (p(5.0, 0.0), p(5.0, 10.0)),
            (p(0.0, 5.0), p(10.0, 5.0))
        ));
        // Touching at an end is not a crossing.
        assert!(!crosses(
            (p(5.0, 0.0), p(5.0, 5.0)),
            (p(0.0, 5.0), p(10.0, 5.0))
        ));
        // Nor is running along.
        assert!(!crosses(
            (p(0.0, 5.0), p(5.0, 5.0)),
            (p(2.0, 5.0), p(10.0, 5.0))
        ));
    }

    #[test]
    fn the_ports_where_they_are_come_first() {
        let c = candidates(10.0, 30.0, 0.0, 40.0);
        assert_eq!(&c[..3], &[10.0, 30.0, 20.0]);
        // A port outside the overlap is not tried where it is.
        let c = candidates(-10.0, 30.0, 0.0, 40.0);
        assert_eq!(&c[..2], &[30.0, 10.0]);
    }
}
