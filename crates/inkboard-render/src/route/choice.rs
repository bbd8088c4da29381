//! How each connector is drafted in the first step of the page's layout: through
//! the waypoints a person placed, as a branch of a bus, searched on the page's grid
//! ([`Router`]) between the ports of its ends' sides (with the page's flow making
//! the sides across it cost more), or planned from its ends' positions when it is
//! not orthogonal, cannot be searched, or the page's routing budget is spent. The
//! helpers that fit a searched route to ports moved later (`with_stubs`, `shift`)
//! are here too.

use inkboard_core::{Point, Rect, Route};

use crate::route::connectors::{Draft, Page, ROUTING_BUDGET};
use crate::route::ends::{facing_part, grow, side_point, EndInfo};
use crate::route::merge::BusRoute;
use crate::route::obstacles::blocked;
use crate::route::orthogonal::{self, Port, Router, CLEARANCE};
use crate::route::{self, Side};

/// What leaving or entering by a side across the flow costs, in pixels of
/// length: a little more than a bend (see [`follow_the_flow`]).
const ACROSS_FLOW: f64 = 48.0;

const SIDES: [Side; 4] = [Side::Right, Side::Bottom, Side::Left, Side::Top];

/// The draft of connector `k` of `page` (step 1 of the page's layout): by hand when it
/// has waypoints, its branch `bus` when it is one, else searched when it is
/// orthogonal, searchable and the page's budget allows, else planned.
pub(super) fn draft(page: &Page, k: usize, bus: Option<BusRoute>, router: &mut Router) -> Draft {
    let (a, b) = &page.ends[k];
    if !page.connectors[k].1.waypoints().is_empty() {
        return Draft::ByHand;
    }
    if let Some((sides, points)) = bus {
        return Draft::Bus { sides, points };
    }
    // Past the budget, the page's remaining connectors take their simple
    // routes: a huge page still draws in about a second, the same way on
    // every machine (the budget counts grid nodes, not time).
    let in_budget = router.work() < ROUTING_BUDGET;
    // An orthogonal connector between two free points is drawn with its elbow
    // (an L, or a Z when an L's legs are blocked), as Excalidraw draws a free
    // elbow arrow: planned, not searched, having no side to leave by.
    let free = a.shape.is_point() && b.shape.is_point();
    let kind = page.kinds[k];
    let found = if kind == Route::Orthogonal && in_budget && !free && searchable(a, b) {
        search(router, a, b, &page.lifted[k], page.flow)
    } else {
        None
    };
    match found {
        Some(draft) => draft,
        None => Draft::Planned(
            route::plan(a.shape, b.shape, kind, |p, q| {
                blocked(&page.solids, a.shape.bounds, b.shape.bounds, p, q)
            })
            .pinned((a.pin, b.pin)),
        ),
    }
}
/// Whether a connector between `a` and `b` can be searched for: two different ends
/// whose grown boxes keep apart (closer ends leave no room for the search's legs;
/// their simple route is the right one anyway).
fn searchable(a: &EndInfo, b: &EndInfo) -> bool {
    if !a.shape.is_point() && a.shape == b.shape {
        return false;
    }
    let finite = |r: Rect| r.x.is_finite() && r.y.is_finite() && r.w.is_finite() && r.h.is_finite();
    finite(a.shape.bounds)
        && finite(b.shape.bounds)
        && !grow(a.shape.bounds).overlaps(&grow(b.shape.bounds))
}

/// The ports of an end: the point itself, or the four sides (or the one given) at
/// `offset` from their middles, at the clearance outside them. `arriving` turns
/// the headings round, for a target.
pub(super) fn side_ports(e: &EndInfo, only: Option<(Side, f64)>, arriving: bool) -> Vec<Port> {
    if e.shape.is_point() {
        return vec![Port {
            at: e.anchor(),
            dir: None,
            side: None,
            offset: 0.0,
            cost: 0.0,
        }];
    }
    let sides: Vec<(Side, f64)> = match only {
        Some(s) => vec![s],
        None => SIDES.iter().map(|&s| (s, 0.0)).collect(),
    };
    sides
        .into_iter()
        .map(|(side, offset)| {
            let out = orthogonal::out_of(side);
            Port {
                at: side_point(e.shape.bounds, side, offset, CLEARANCE),
                dir: Some(if arriving { (out + 2) % 4 } else { out }),
                side: Some(side),
                offset,
                // Of routes otherwise equal, the one leaving sideways wins: flows
                // read across first.
                cost: if side.is_vertical() { 0.0 } else { 1.0 },
            }
        })
        .collect()
}

/// The ports of a searched route from `a` to `b` (starts, then targets): the sides'
/// middles, and where two sides face each other across a gap and overlap, a pair
/// of ports facing each other in the middle of the overlap, so that shapes nearly
/// in line are joined by a straight line rather than one with a small jog.
fn ports(a: &EndInfo, b: &EndInfo, flow: Option<Side>) -> (Vec<Port>, Vec<Port>) {
    let (mut starts, mut targets) = free_ports(a, b, flow);
    // A pinned end leaves or enters by its side only.
    for (list, e) in [(&mut starts, a), (&mut targets, b)] {
        if let Some(pin) = e.pin {
            list.retain(|p| p.side == Some(pin));
        }
    }
    (starts, targets)
}

/// [`ports`] before the pins are applied: every side's.
fn free_ports(a: &EndInfo, b: &EndInfo, flow: Option<Side>) -> (Vec<Port>, Vec<Port>) {
    let mut starts = side_ports(a, None, false);
    let mut targets = side_ports(b, None, true);
    if a.shape.is_point() || b.shape.is_point() {
        return (starts, targets);
    }
    let (ra, rb) = (a.shape.bounds, b.shape.bounds);
    follow_the_flow(&mut starts, &mut targets, ra, rb, flow);
    for (sa, sb) in [
        (Side::Right, Side::Left),
        (Side::Left, Side::Right),
        (Side::Bottom, Side::Top),
        (Side::Top, Side::Bottom),
    ] {
        let (pa, pb) = (side_point(ra, sa, 0.0, 0.0), side_point(rb, sb, 0.0, 0.0));
        let n = sa.normal();
        // The gap along the normal, and the overlap across it.
        if (pb.x - pa.x) * n.x + (pb.y - pa.y) * n.y < 2.0 * CLEARANCE {
            continue;
        }
        // Where the usable parts of the two sides overlap: on an ellipse or a
        // diamond, only where a port lands on that side (a line straight down
        // from or onto a diamond's slanted edge, off its corner, reads as
        // leaving or entering by the side, against the flow).
        let (ua, ub) = (facing_part(a.shape, sa), facing_part(b.shape, sb));
        let (lo, hi) = (ua.0.max(ub.0), ua.1.min(ub.1));
        let (ca, cb) = (sa.coord(ra.center()), sb.coord(rb.center()));
        if lo > hi || (ca - cb).abs() < 0.5 {
            continue;
        }
        let c = (lo + hi) / 2.0;
        for (list, e, side, off, arriving) in [
            (&mut starts, a, sa, c - ca, false),
            (&mut targets, b, sb, c - cb, true),
        ] {
            list.extend(side_ports(e, Some((side, off)), arriving));
        }
    }
    (starts, targets)
}

/// Makes the sides across the flow cost more than a bend: when `rb` lies below
/// `ra` (or beside it, along the main axis), a route leaves by the bottom and
/// enters by the top, unless a side saves more than a bend's worth (a crossing,
/// a detour). Without it, a route to a shape below and aside would take an L out
/// of the side, the cheapest in bends, and the drawing would not read down.
fn follow_the_flow(
    starts: &mut [Port],
    targets: &mut [Port],
    ra: Rect,
    rb: Rect,
    flow: Option<Side>,
) {
    let Some((sa, sb)) = route::flow_sides(ra, rb, flow) else {
        return;
    };
    for (list, side, r) in [(starts, sa, ra), (targets, sb, rb)] {
        // Leaving by a side also saves half the box's width (for a flow down):
        // that counts too, or the side would still win on length.
        let half = side.length(r) / 2.0;
        for p in list.iter_mut() {
            p.cost = if p.side == Some(side) {
                0.0
            } else {
                ACROSS_FLOW + half
            };
        }
    }
}

/// Searches a route between `a` and `b`, then remembers it for later crossings.
fn search(
    router: &mut Router,
    a: &EndInfo,
    b: &EndInfo,
    lifted: &[usize],
    flow: Option<Side>,
) -> Option<Draft> {
    let (starts, targets) = ports(a, b, flow);
    let found = router.route(&starts, &targets, lifted, None)?;
    let (s, t) = (&starts[found.start], &targets[found.target]);
    let (sides, offsets) = ((s.side, t.side), (s.offset, t.offset));
    let points = with_stubs(found.points, a, b, sides, offsets);
    router.add(&points);
    Some(Draft::Searched {
        sides,
        offsets,
        points,
    })
}

/// A searched route's corners with its legs to the sides' middles (shifted by
/// `offsets`) added at both ends.
pub(super) fn with_stubs(
    mut points: Vec<Point>,
    a: &EndInfo,
    b: &EndInfo,
    sides: (Option<Side>, Option<Side>),
    offsets: (f64, f64),
) -> Vec<Point> {
    if let Some(s) = sides.0 {
        points.insert(0, side_point(a.shape.bounds, s, offsets.0, 0.0));
    }
    if let Some(s) = sides.1 {
        points.push(side_point(b.shape.bounds, s, offsets.1, 0.0));
    }
    orthogonal::simplify(&mut points);
    points
}

/// Moves a searched route's ends `offsets` along their sides, taking the first and
/// last legs along; a straight route whose ends move apart gets a jog halfway.
pub(super) fn shift(
    points: &mut Vec<Point>,
    a: &EndInfo,
    b: &EndInfo,
    sides: (Option<Side>, Option<Side>),
    offsets: (f64, f64),
) {
    let moved = |side: Option<Side>, d: f64, e: &EndInfo| match side {
        Some(s) if d != 0.0 && !e.shape.is_point() => Some(route::scale(s.along(), d)),
        _ => None,
    };
    let (m0, m1) = (moved(sides.0, offsets.0, a), moved(sides.1, offsets.1, b));
    let n = points.len();
    if n < 2 || (m0.is_none() && m1.is_none()) {
        return;
    }
    if n == 2 {
        let (p, q) = (
            route::add(points[0], m0.unwrap_or_default()),
            route::add(points[1], m1.unwrap_or_default()),
        );
        let horizontal = (points[0].y - points[1].y).abs() < 1e-9;
        *points = if horizontal && (p.y - q.y).abs() > 1e-9 {
            let mx = (p.x + q.x) / 2.0;
            vec![p, Point { x: mx, y: p.y }, Point { x: mx, y: q.y }, q]
        } else if !horizontal && (p.x - q.x).abs() > 1e-9 {
            let my = (p.y + q.y) / 2.0;
            vec![p, Point { x: p.x, y: my }, Point { x: q.x, y: my }, q]
        } else {
            vec![p, q]
        };
        return;
    }
    if let Some(m) = m0 {
        points[0] = route::add(points[0], m);
        points[1] = route::add(points[1], m);
    }
    if let Some(m) = m1 {
        points[n - 1] = route::add(points[n - 1], m);
        points[n - 2] = route::add(points[n - 2], m);
    }
}
