//! The connectors of a page, laid out together.
//!
//! Routing one connector well needs to know about the others, so [`layout`] routes a
//! whole page at once, when [`resolve`](crate::resolve) builds its scene:
//!
//! 1. orthogonal connectors are searched for, in page order, on one grid of the page
//!    ([`orthogonal`]): around every shape and image, leaving and entering by the
//!    sides the search finds cheapest, and paying for crossing routes found before.
//!    Straight and curved connectors and loops get their [`Plan`] from their ends'
//!    positions ([`route::plan`]), as does an orthogonal connector whose ends are
//!    too close together for the grid or that no route reaches (its simple L or Z
//!    then runs through whatever is in the way);
//! 2. ends that meet the same side of the same object are spread along that side at
//!    evenly spaced ports instead of sharing its middle, ordered so that their lines
//!    do not cross, within the part of the side whose ports land on that side of
//!    the outline (the middle 71% of an ellipse's, half a diamond's: [`fan`]), so
//!    that two sides' fans do not meet round a corner; a searched route's first or
//!    last leg moves with its port, and a route that would then run into
//!    something is searched again from its new ports;
//! 3. the orthogonal routes are nudged ([`nudge`]): segments sharing a channel are
//!    set side by side, lone ones moved to the middle of their gap;
//! 4. each route gets its ends on its shapes' outlines and its arrowheads;
//! 5. each label is placed along its route, in page order ([`Labels`]): where it
//!    covers no shape and no earlier label, hiding as little of other lines as it can;
//!    a label given its place (`label_at`) sits there, and later labels keep off it.
//!
//! A connector with waypoints skips steps 1 to 3: it runs through them ([`bends`]).
//! An end pinned to a side (`from_side`, `to_side`) leaves or enters by that side
//! whatever the route's kind: the search is given that side's ports only, a plan
//! has its side replaced ([`Plan::pinned`]), and [`spill`] never moves it; ends
//! pinned to one side are still spread along it. Connectors marked `merge` that
//! leave one side of one object are routed first, as a bus ([`bus`]): one port,
//! one trunk, a junction dot where each branch leaves it; they skip steps 2 and 3,
//! which would pull their shared lines apart.
//!
//! Frames are containers, not obstacles: each side of a frame is a wall that a
//! route crosses only when it has to, that is when one of its ends is inside the
//! frame and the other outside (or the end straddles the wall). A route with both
//! ends outside goes round the frame; one with both inside stays in it. Any obstacle
//! under an end (overlapping its shape, or holding a free end) is no obstacle for
//! that connector, since every route would cross it.
//!
//! Everything runs in page order with ties broken by it, so a page always comes out
//! the same.
//!
//! Limitations: routes are searched one after the other, so an early route may take
//! a channel a later one needed more; a side keeps only one straight-across line
//! straight, others get a small jog.

use std::collections::BTreeMap;

use inkboard_core::{Board, Connector, End, Geom, Kind, Object, ObjectId, Point, Rect, Route};

use crate::deadline::{Deadline, Stopped};
use crate::route::bends;
use crate::route::bus;
use crate::route::labels::Labels;
use crate::route::nudge::{self, Path};
use crate::route::orthogonal::{self, Port, Router, CLEARANCE};
use crate::route::outline::Turned;
use crate::route::{self, EndShape, Plan, Routed, Side};
use crate::style;
use crate::text;

/// Widest a connector label gets before it wraps.
pub(crate) const LABEL_MAX_WIDTH: f32 = 220.0;
/// Room between a label's text and the edge of its background, across and down.
pub(crate) const LABEL_PAD: (f64, f64) = (6.0, 2.0);
/// The largest gap between two ports spread on one side: more looks like unrelated
/// lines rather than a bundle.
const MAX_PORT_STEP: f64 = 36.0;
/// The smallest gap between two ports on one side that the search found apart for
/// them to stay where they are.
pub(crate) const MIN_PORT_STEP: f64 = 12.0;
/// The least distance between two ports on one side: closer, two arrowheads
/// would run into each other.
const MIN_PORT_GAP: f64 = 8.0;
/// The work (see `Router::work`: grid nodes built, edges visited, lines sorted,
/// states searched; about 20–30 ns each in a release build) a page's searches
/// may do before the rest of its connectors take simple routes: about 0.5–0.8 s.
/// The 300-connector maze of the render bench takes 2.7 M; 3,000 connectors
/// between shapes far apart among 2,000 would take billions (minutes), as each
/// search grows its window to the whole page and marks every earlier route in it.
pub(crate) const ROUTING_BUDGET: usize = 24_000_000;

/// How far the legs of a simple L route keep from shapes they pass, for it to count
/// as clear.
const L_CLEARANCE: f64 = 8.0;
/// What leaving or entering by a side across the flow costs, in pixels of
/// length: a little more than a bend (see [`follow_the_flow`]).
const ACROSS_FLOW: f64 = 48.0;
const SIDES: [Side; 4] = [Side::Right, Side::Bottom, Side::Left, Side::Top];

/// One connector, laid out.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Laid {
    pub routed: Routed,
    /// The label's background box, when the connector has a label to show; the text
    /// is centred in it.
    pub label: Option<Rect>,
}

/// One end of a connector: what it is attached to.
#[derive(Clone, Copy, Debug)]
struct EndInfo {
    shape: EndShape,
    /// The page object it is attached to, by its place on the page.
    object: Option<usize>,
    /// The side it is pinned to meet (never at a free end).
    pin: Option<Side>,
}

impl EndInfo {
    /// The point that decides whether the end is inside a frame.
    fn anchor(&self) -> Point {
        self.shape.bounds.center()
    }
}

/// The obstacles of a page: the boxes of its shapes (frames aside) and images, and
/// the four sides of each frame as walls of no thickness.
struct Obstacles {
    rects: Vec<Rect>,
    /// The page object each came from.
    owner: Vec<usize>,
    /// For a wall, its frame's bounds.
    frame: Vec<Option<Rect>>,
}

impl Obstacles {
    fn new(objects: &[Object]) -> Self {
        let mut o = Obstacles {
            rects: Vec::new(),
            owner: Vec::new(),
            frame: Vec::new(),
        };
        for (i, obj) in objects.iter().enumerate() {
            match &obj.kind {
                Kind::Shape(s) if s.geom == Geom::Frame => {
                    // A turned frame's walls are those of its box around it, as
                    // every other turned object is in the way of its box.
                    let b = obj.own_extent().unwrap_or(s.bounds);
                    for wall in [
                        Rect::new(b.x, b.y, 0.0, b.h),
                        Rect::new(b.right(), b.y, 0.0, b.h),
                        Rect::new(b.x, b.y, b.w, 0.0),
                        Rect::new(b.x, b.bottom(), b.w, 0.0),
                    ] {
                        o.rects.push(wall);
                        o.owner.push(i);
                        o.frame.push(Some(b));
                    }
                }
                // A rotated shape or image is in the way of its box around it.
                Kind::Shape(_) | Kind::Image(_) => {
                    if let Some(extent) = obj.own_extent() {
                        o.push(i, extent);
                    }
                }
                _ => {}
            }
        }
        o
    }

    fn push(&mut self, owner: usize, r: Rect) {
        self.rects.push(r);
        self.owner.push(owner);
        self.frame.push(None);
    }

    /// The boxes of shapes and images, walls left out.
    fn solids(&self) -> impl Iterator<Item = Rect> + '_ {
        self.rects
            .iter()
            .zip(&self.frame)
            .filter(|(_, f)| f.is_none())
            .map(|(r, _)| *r)
    }

    /// The obstacles a connector between `a` and `b` may cross (see the module
    /// documentation), ascending.
    fn lifted(&self, a: &EndInfo, b: &EndInfo) -> Vec<usize> {
        let own = |k: usize| Some(self.owner[k]) == a.object || Some(self.owner[k]) == b.object;
        // A free end is a box of no size: under what it lies within the clearance of.
        let under = |r: &Rect, e: &EndInfo| {
            if e.shape.is_point() {
                grow(*r).overlaps(&e.shape.bounds)
            } else {
                r.overlaps(&e.shape.bounds) && !e.shape.bounds.contains(r)
            }
        };
        (0..self.rects.len())
            .filter(|&k| {
                if own(k) {
                    return false;
                }
                let r = &self.rects[k];
                match self.frame[k] {
                    Some(f) => {
                        let inside = |e: &EndInfo| {
                            let p = e.anchor();
                            f.x < p.x && p.x < f.right() && f.y < p.y && p.y < f.bottom()
                        };
                        inside(a) != inside(b)
                            || (!a.shape.is_point() && r.overlaps(&a.shape.bounds))
                            || (!b.shape.is_point() && r.overlaps(&b.shape.bounds))
                    }
                    None => under(r, a) || under(r, b),
                }
            })
            .collect()
    }
}

/// How a connector runs, before its ends go onto their outlines.
#[derive(Clone, Debug)]
enum Draft {
    /// Planned from its ends' positions (straight, curved, loops, and orthogonal
    /// routes the search could not give).
    Planned(Plan),
    /// Found by the search: its corners, from the port on the side of its start
    /// shape's box it leaves by (or its free end) to that of its end, and those
    /// ports' offsets from their sides' middles.
    Searched {
        sides: (Option<Side>, Option<Side>),
        offsets: (f64, f64),
        points: Vec<Point>,
    },
    /// Runs through the waypoints a person placed (`bends.rs`), drawn in step 4:
    /// it takes no port from the connectors that are routed.
    ByHand,
    /// One branch of a bus of merged connectors ([`bus`]): its corners from the
    /// shared port at its start side's middle to its target's box.
    Bus {
        sides: (Side, Side),
        points: Vec<Point>,
    },
}

impl Draft {
    /// The sides the route leaves and enters by (`None` at a free end, or for a
    /// straight route).
    fn sides(&self) -> (Option<Side>, Option<Side>) {
        match self {
            Draft::Searched { sides, .. } => *sides,
            Draft::Planned(plan) => plan.sides(),
            Draft::ByHand => (None, None),
            Draft::Bus { sides, .. } => (Some(sides.0), Some(sides.1)),
        }
    }
}

/// Lays out the connectors among `objects` (a page's objects, in order). The result
/// has one entry per object: `Some` for connectors. `deadline` is checked for each
/// connector in each step.
pub(crate) fn layout(
    board: &Board,
    objects: &[Object],
    deadline: &Deadline,
) -> Result<Vec<Option<Laid>>, Stopped> {
    let obstacles = Obstacles::new(objects);
    let solids: Vec<Rect> = obstacles.solids().collect();
    let connectors: Vec<(usize, &Connector)> = objects
        .iter()
        .enumerate()
        .filter_map(|(i, o)| match &o.kind {
            Kind::Connector(c) => Some((i, c)),
            _ => None,
        })
        .collect();
    let ends: Vec<(EndInfo, EndInfo)> = connectors
        .iter()
        .map(|(_, c)| {
            let (pa, pb) = c.sides();
            (
                end_info(board, objects, &c.from).pinned(pa),
                end_info(board, objects, &c.to).pinned(pb),
            )
        })
        .collect();
    let kinds: Vec<Route> = connectors.iter().map(|(_, c)| c.route).collect();
    let lifted: Vec<Vec<usize>> = kinds
        .iter()
        .zip(&ends)
        .map(|(kind, (a, b))| match kind {
            Route::Orthogonal => obstacles.lifted(a, b),
            _ => Vec::new(),
        })
        .collect();

    // 1. Searches and plans.
    let port_area = ends
        .iter()
        .flat_map(|(a, b)| [grow(a.shape.bounds), grow(b.shape.bounds)])
        .reduce(|a, b| a.union(&b))
        .unwrap_or_default();
    let mut router = Router::new(&obstacles.rects, port_area);
    let mut drafts: Vec<Draft> = Vec::with_capacity(connectors.len());
    let flow = route::page_flow(
        ends.iter()
            .filter(|(a, b)| !a.shape.is_point() && !b.shape.is_point())
            .map(|(a, b)| (a.shape.bounds, b.shape.bounds)),
    );
    let mut buses = buses(&connectors, &ends, &kinds, flow);
    for points in buses.iter().flatten() {
        router.add(&points.1);
    }
    for (k, (a, b)) in ends.iter().enumerate() {
        deadline.check()?;
        if !connectors[k].1.waypoints().is_empty() {
            drafts.push(Draft::ByHand);
            continue;
        }
        if let Some((sides, points)) = buses[k].take() {
            drafts.push(Draft::Bus { sides, points });
            continue;
        }
        // Past the budget, the page's remaining connectors take their simple
        // routes: a huge page still draws in about a second, the same way on
        // every machine (the budget counts grid nodes, not time).
        let in_budget = router.work() < ROUTING_BUDGET;
        // An orthogonal connector between two free points is drawn with its elbow
        // (an L, or a Z when an L's legs are blocked), as Excalidraw draws a free
        // elbow arrow: planned, not searched, having no side to leave by.
        let free = a.shape.is_point() && b.shape.is_point();
        let found = if kinds[k] == Route::Orthogonal && in_budget && !free && searchable(a, b) {
            search(&mut router, a, b, &lifted[k], flow)
        } else {
            None
        };
        drafts.push(match found {
            Some(draft) => draft,
            None => Draft::Planned(
                route::plan(a.shape, b.shape, kinds[k], |p, q| {
                    blocked(&solids, a.shape.bounds, b.shape.bounds, p, q)
                })
                .pinned((a.pin, b.pin)),
            ),
        });
    }

    loop_corners(&connectors, &ends, &mut drafts, &solids);

    // 2. Ports: sides too short for their ends give some to their neighbours
    // (those routes are searched again), then each side's ends are spread.
    let spilled = if router.work() < ROUTING_BUDGET {
        spill(&connectors, &ends, &mut drafts)
    } else {
        Vec::new()
    };
    let offsets = spread(&connectors, &ends, &drafts, &spilled);
    let mut polylines: Vec<Option<Vec<Point>>> = vec![None; connectors.len()];
    let mut again = Vec::new();
    for (k, draft) in drafts.iter().enumerate() {
        let (a, b) = &ends[k];
        match draft {
            Draft::Searched {
                sides,
                offsets: found,
                points,
            } => {
                let mut points = points.clone();
                let moved = (offsets[k].0 - found.0, offsets[k].1 - found.1);
                shift(&mut points, a, b, *sides, moved);
                if spilled.contains(&k) || !clear(&points, a, b, &lifted[k], &obstacles) {
                    again.push(k);
                }
                polylines[k] = Some(points);
            }
            // Loops are nudged too, so that they keep off other lines.
            Draft::Planned(plan @ (Plan::Orthogonal(..) | Plan::Loop(..))) => {
                polylines[k] = Some(route::points(a.shape, b.shape, *plan, offsets[k]));
            }
            Draft::Planned(_) | Draft::ByHand | Draft::Bus { .. } => {}
        }
    }
    for k in again {
        // Past the budget, a route keeps its shifted corners.
        if router.work() >= ROUTING_BUDGET {
            break;
        }
        deadline.check()?;
        if let Draft::Searched { sides, .. } = &drafts[k] {
            let (a, b) = &ends[k];
            let starts = side_ports(a, sides.0.map(|s| (s, offsets[k].0)), false);
            let targets = side_ports(b, sides.1.map(|s| (s, offsets[k].1)), true);
            // Routes the search cannot give keep their shifted corners.
            if let Some(found) = router.route(&starts, &targets, &lifted[k]) {
                polylines[k] = Some(with_stubs(found.points, a, b, *sides, offsets[k]));
            }
        }
    }
    drop(router);

    // 3. Nudging.
    {
        let mut paths: Vec<Path> = polylines
            .iter_mut()
            .zip(&lifted)
            .zip(drafts.iter().zip(&ends))
            .filter_map(|((p, lifted), (draft, (a, b)))| {
                let sides = draft.sides();
                p.as_mut().map(|points| Path {
                    points,
                    ports: [slide(a, sides.0), slide(b, sides.1)],
                    lifted: lifted.as_slice(),
                })
            })
            .collect();
        deadline.check()?;
        nudge::nudge(&mut paths, &obstacles.rects);
    }

    // 4. Ends and heads.
    let mut routed: Vec<Routed> = Vec::with_capacity(connectors.len());
    for (k, (_, c)) in connectors.iter().enumerate() {
        deadline.check()?;
        let width = style::line_stroke(&c.style, style::STROKE_WIDTH)
            .map_or(style::STROKE_WIDTH, |s| s.width) as f64;
        let (a, b) = &ends[k];
        // Orthogonal routes have their corners (step 2); the others are drawn from
        // their plans.
        routed.push(match (polylines[k].take(), &drafts[k]) {
            (_, Draft::ByHand) => bends::through(
                a.shape,
                b.shape,
                c.waypoints(),
                c.route,
                (c.start_arrow, c.end_arrow),
                width,
            ),
            (Some(mut points), draft) => {
                onto_outlines(&mut points, a, b, draft.sides());
                route::draw(points, None, c.start_arrow, c.end_arrow, width)
            }
            (None, Draft::Planned(plan)) => route::route(
                a.shape,
                b.shape,
                *plan,
                offsets[k],
                c.start_arrow,
                c.end_arrow,
                width,
            ),
            (None, Draft::Bus { sides, points }) => {
                let mut points = points.clone();
                onto_outlines(&mut points, a, b, (Some(sides.0), Some(sides.1)));
                route::draw(points, None, c.start_arrow, c.end_arrow, width)
            }
            (None, Draft::Searched { .. }) => {
                unreachable!("step 2 gives every searched route its corners")
            }
        });
    }
    junction_dots(&connectors, &drafts, &mut routed);

    // 5. Labels, in page order.
    let lines: Vec<Vec<Point>> = routed.iter().map(|r| route::polyline(&r.line)).collect();
    let mut labels = Labels::new(solids, &lines);
    // Labels placed by hand first, so that every automatic one keeps off them.
    let by_hand: Vec<Option<Rect>> = connectors
        .iter()
        .zip(&routed)
        .map(|((_, c), routed)| {
            let (w, h) = label_size(c)?;
            let p = bends::along(&routed.line, c.label_at()?);
            let r = Rect::new(p.x - w / 2.0, p.y - h / 2.0, w, h);
            labels.keep(r);
            Some(r)
        })
        .collect();
    let mut out = vec![None; objects.len()];
    for (k, (((i, c), routed), hand)) in connectors.iter().zip(routed).zip(by_hand).enumerate() {
        deadline.check()?;
        let label =
            hand.or_else(|| label_size(c).map(|size| labels.place(k, &routed.label_track, size)));
        out[*i] = Some(Laid { routed, label });
    }
    Ok(out)
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

/// The middle of side `side` of `r`, moved `offset` along it and `out` away from it.
fn side_point(r: Rect, side: Side, offset: f64, out: f64) -> Point {
    let c = r.center();
    let (n, t) = (side.normal(), side.along());
    let half = side.depth(r) / 2.0;
    Point {
        x: c.x + n.x * (half + out) + t.x * offset,
        y: c.y + n.y * (half + out) + t.y * offset,
    }
}

/// The ports of an end: the point itself, or the four sides (or the one given) at
/// `offset` from their middles, at the clearance outside them. `arriving` turns
/// the headings round, for a target.
fn side_ports(e: &EndInfo, only: Option<(Side, f64)>, arriving: bool) -> Vec<Port> {
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
    let found = router.route(&starts, &targets, lifted)?;
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
fn with_stubs(
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
fn shift(
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

/// Whether a route keeps clear of the obstacles not lifted for it, its first leg of
/// its start's own shape and its last leg of its end's, and has no leg turned
/// back on itself.
fn clear(
    points: &[Point],
    a: &EndInfo,
    b: &EndInfo,
    lifted: &[usize],
    obstacles: &Obstacles,
) -> bool {
    let n = points.len();
    for (i, w) in points.windows(2).enumerate() {
        let (p, q) = (w[0], w[1]);
        if (p.x - q.x).abs() > 1e-9 && (p.y - q.y).abs() > 1e-9 {
            return false;
        }
        let Some(seg) = Rect::around([p, q]) else {
            continue;
        };
        for (k, r) in obstacles.rects.iter().enumerate() {
            let owner = Some(obstacles.owner[k]);
            if (i == 0 && owner == a.object) || (i + 2 == n && owner == b.object) {
                continue;
            }
            let inside = orthogonal::grow(*r, CLEARANCE - 1e-6).overlaps(&seg);
            if inside && lifted.binary_search(&k).is_err() {
                return false;
            }
        }
    }
    // A leg that turned back runs over its neighbour.
    !points.windows(3).any(|w| {
        let (d1x, d1y) = (w[1].x - w[0].x, w[1].y - w[0].y);
        let (d2x, d2y) = (w[2].x - w[1].x, w[2].y - w[1].y);
        d1x * d2x + d1y * d2y < -1e-9
    })
}

/// Moves a searched route's ends from its shapes' boxes onto their outlines, along
/// the legs' directions.
fn onto_outlines(
    points: &mut [Point],
    a: &EndInfo,
    b: &EndInfo,
    sides: (Option<Side>, Option<Side>),
) {
    let n = points.len();
    if n < 2 {
        return;
    }
    let onto = |p: Point, e: &EndInfo, side: Side| {
        let offset = side.coord(p) - side.coord(e.shape.bounds.center());
        route::port(e.shape, side, offset)
    };
    if let Some(s) = sides.0 {
        points[0] = onto(points[0], a, s);
    }
    if let Some(s) = sides.1 {
        points[n - 1] = onto(points[n - 1], b, s);
    }
}

/// Where along side `side` of an end's box a port may slide in nudging (see
/// [`usable`]); `None` for a free end, which stays put.
fn slide(e: &EndInfo, side: Option<Side>) -> Option<(f64, f64)> {
    let side = side?;
    (!e.shape.is_point()).then(|| usable(e.shape.bounds, side))
}

/// [`usable`], within the part of the side whose ports land on it
/// ([`route::side_span`]).
fn facing_part(shape: EndShape, side: Side) -> (f64, f64) {
    let (lo, hi) = usable(shape.bounds, side);
    let c = side.coord(shape.bounds.center());
    let (a, b) = route::side_span(shape, side);
    (lo.max(c + a), hi.min(c + b))
}

/// The middle 70% of side `side` of `r`, as a range of [`Side::coord`]: near the
/// corners a line meets a rounded or slanted outline awkwardly.
fn usable(r: Rect, side: Side) -> (f64, f64) {
    let (c, half) = (side.coord(r.center()), 0.35 * side.length(r));
    (c - half, c + half)
}

/// `r` grown by the clearance.
fn grow(r: Rect) -> Rect {
    orthogonal::grow(r, CLEARANCE)
}

/// The ends of `c` that meet a side of an object, on a route of `points` that
/// leaves and arrives by `sides`: each with its object, the side, its
/// [`PortKey`] (where its line goes from that end), whether it is the start, and
/// the object's shape.
fn on_sides<'a>(
    c: &'a Connector,
    (from, to): (&EndInfo, &EndInfo),
    sides: (Option<Side>, Option<Side>),
    points: &'a [Point],
) -> impl Iterator<Item = (&'a ObjectId, Side, PortKey, bool, EndShape)> + 'a {
    [
        (&c.from, from.shape, sides.0, true),
        (&c.to, to.shape, sides.1, false),
    ]
    .into_iter()
    .filter_map(move |(end, shape, side, at_start)| {
        let (End::Object(id), Some(side), false) = (end, side, shape.is_point()) else {
            return None;
        };
        let key = if at_start {
            PortKey::new(side, points.iter().copied())
        } else {
            PortKey::new(side, points.iter().rev().copied())
        };
        Some((id, side, key, at_start, shape))
    })
}

/// One connector end that meets a side of an object.
struct SideEnd {
    key: PortKey,
    /// The connector, by its place among the page's connectors.
    conn: usize,
    at_start: bool,
    shape: EndShape,
    /// Its port's offset as the search found it (0 for planned routes).
    found: f64,
}

/// The port offsets (start, end) of each connector: ends that share a side of an
/// object are grouped, ordered by [`PortKey`] and spread evenly along the side;
/// an end alone on its side keeps the offset its route was found with. The ends
/// [`spill`] moved to another side (of the connectors `spilled`) have no route
/// from there yet: their keys come from where their other end is
/// ([`PortKey::toward`]).
fn spread(
    connectors: &[(usize, &Connector)],
    ends: &[(EndInfo, EndInfo)],
    drafts: &[Draft],
    spilled: &[usize],
) -> Vec<(f64, f64)> {
    let mut groups: BTreeMap<(ObjectId, Side), Vec<SideEnd>> = BTreeMap::new();
    let mut offsets = vec![(0.0, 0.0); connectors.len()];
    for (conn, (((_, c), (from, to)), draft)) in connectors.iter().zip(ends).zip(drafts).enumerate()
    {
        let (points, sides) = match draft {
            Draft::Planned(plan) => match plan.sides() {
                (None, None) => continue,
                sides => (
                    route::points(from.shape, to.shape, *plan, (0.0, 0.0)),
                    sides,
                ),
            },
            Draft::ByHand | Draft::Bus { .. } => continue,
            Draft::Searched {
                sides,
                offsets: found,
                points,
            } => {
                offsets[conn] = *found;
                (points.clone(), *sides)
            }
        };
        for (id, side, mut key, at_start, shape) in on_sides(c, (from, to), sides, &points) {
            if spilled.contains(&conn) {
                let far = if at_start {
                    points.last()
                } else {
                    points.first()
                };
                if let Some(&far) = far {
                    key = PortKey::toward(side, shape.bounds, far);
                }
            }
            groups.entry((id.clone(), side)).or_default().push(SideEnd {
                key,
                conn,
                at_start,
                shape,
                found: if at_start {
                    offsets[conn].0
                } else {
                    offsets[conn].1
                },
            });
        }
    }
    for ((_, side), mut ends) in groups {
        if ends.len() < 2 {
            continue;
        }
        let reach = ends
            .iter()
            .filter(|e| e.key.group == 1)
            .map(|e| e.key.leg)
            .reduce(f64::max);
        for e in &mut ends {
            e.key = e.key.past(reach);
        }
        ends.sort_by(|a, b| {
            a.key
                .cmp(&b.key)
                .then((a.conn, !a.at_start).cmp(&(b.conn, !b.at_start)))
        });
        // Ports the searches found apart already (lines straight across to shapes
        // in line) stay where they are.
        if ends
            .windows(2)
            .all(|w| w[1].found - w[0].found >= MIN_PORT_STEP)
        {
            for e in &ends {
                if e.at_start {
                    offsets[e.conn].0 = e.found;
                } else {
                    offsets[e.conn].1 = e.found;
                }
            }
            continue;
        }
        let (mid, room) = fan(ends[0].shape, side, ends.len());
        let n = ends.len() as f64;
        let step = (room / (n + 1.0)).min(MAX_PORT_STEP);
        let slot = |i: usize| mid + (i as f64 - (n - 1.0) / 2.0) * step;
        // A line straight across to a shape in line with this one would get a jog if
        // its port moved, so the fan shifts to keep the first such line where it
        // is, as far as its room allows.
        let reach = (room / 2.0 - step / 2.0 - (n - 1.0) / 2.0 * step).max(0.0);
        let shift = ends
            .iter()
            .position(|e| e.key.straight)
            .map_or(0.0, |i| (ends[i].found - slot(i)).clamp(-reach, reach));
        for (i, e) in ends.iter().enumerate() {
            let offset = slot(i) + shift;
            if e.at_start {
                offsets[e.conn].0 = offset;
            } else {
                offsets[e.conn].1 = offset;
            }
        }
    }
    offsets
}

/// Where along side `side` of `shape` a fan of `n` ports is spread, evenly and a
/// step from either end (see [`spread`]): its middle and length, as offsets
/// from the side's middle. The fan keeps to the part of the side whose ports
/// land on that side of the outline ([`route::side_span`]), so that on an
/// ellipse or a diamond it stays clear of the next side's fan; where that part
/// cannot hold the ports [`MIN_PORT_GAP`] apart, the fan widens as far as
/// that takes, up to the whole side.
fn fan(shape: EndShape, side: Side, n: usize) -> (f64, f64) {
    let half = side.length(shape.bounds) / 2.0;
    let (lo, hi) = route::side_span(shape, side);
    let slots = n as f64 + 1.0;
    let room = (hi - lo).max((MIN_PORT_GAP * slots).min(2.0 * half));
    let mid = ((lo + hi) / 2.0).clamp(room / 2.0 - half, half - room / 2.0);
    (mid, room)
}

/// How many ports side `side` of `r` holds [`MIN_PORT_GAP`] apart (spread as
/// [`spread`] spreads them: evenly, a step from either corner). The whole side
/// counts, not only the part whose ports land on it: spilling ends round the
/// corners of an ellipse early costs more crossings than its fans, widened
/// past that part (see [`fan`]), cost in ports close to the next side's.
fn capacity(r: Rect, side: Side) -> usize {
    ((side.length(r) / MIN_PORT_GAP).floor() as usize).saturating_sub(1)
}

/// A searched end on a side, as [`spill`] weighs it: where its line goes, its
/// connector, and whether it is the connector's start.
type SpillEnd = (PortKey, usize, bool);

/// Moves searched ends off sides that cannot hold them [`MIN_PORT_GAP`] apart
/// (a hub with dozens of edges) onto the neighbouring sides, as far as those
/// have room: the ends at either extreme of the side's order (the lines turning
/// furthest that way) go round its corners. Returns the connectors whose sides
/// changed, to be searched again.
fn spill(
    connectors: &[(usize, &Connector)],
    ends: &[(EndInfo, EndInfo)],
    drafts: &mut [Draft],
) -> Vec<usize> {
    let mut groups: BTreeMap<(ObjectId, Side), Vec<SpillEnd>> = BTreeMap::new();
    let mut bounds: BTreeMap<ObjectId, Rect> = BTreeMap::new();
    for (conn, (((_, c), (from, to)), draft)) in
        connectors.iter().zip(ends).zip(&*drafts).enumerate()
    {
        let Draft::Searched { sides, points, .. } = draft else {
            continue;
        };
        for (id, side, key, at_start, shape) in on_sides(c, (from, to), *sides, points) {
            groups
                .entry((id.clone(), side))
                .or_default()
                .push((key, conn, at_start));
            bounds.insert(id.clone(), shape.bounds);
        }
    }
    let mut count: BTreeMap<(ObjectId, Side), usize> =
        groups.iter().map(|(k, v)| (k.clone(), v.len())).collect();
    let mut changed = Vec::new();
    for ((id, side), mut list) in groups {
        let r = bounds[&id];
        let cap = capacity(r, side);
        if list.len() <= cap {
            continue;
        }
        list.sort_by(|a, b| a.0.cmp(&b.0).then((a.1, !a.2).cmp(&(b.1, !b.2))));
        let (low, high) = if side.is_vertical() {
            (Side::Top, Side::Bottom)
        } else {
            (Side::Left, Side::Right)
        };
        let (mut i, mut j) = (0, list.len());
        let mut toggle = false;
        while j - i > cap {
            // Alternate ends, low first; a full neighbour passes its turn.
            let to = if toggle { high } else { low };
            toggle = !toggle;
            let key = (id.clone(), to);
            let there = count.get(&key).copied().unwrap_or(0);
            if there >= capacity(r, to) {
                let other = (id.clone(), if to == low { high } else { low });
                if count.get(&other).copied().unwrap_or(0) >= capacity(r, other.1) {
                    break;
                }
                continue;
            }
            let (_, conn, at_start) = if to == low {
                i += 1;
                list[i - 1]
            } else {
                j -= 1;
                list[j]
            };
            // A pinned end stays on its side, however crowded.
            let (from, to_end) = &ends[conn];
            if (if at_start { from } else { to_end }).pin.is_some() {
                continue;
            }
            *count.entry(key).or_default() += 1;
            if let Draft::Searched { sides, .. } = &mut drafts[conn] {
                if at_start {
                    sides.0 = Some(to);
                } else {
                    sides.1 = Some(to);
                }
            }
            changed.push(conn);
        }
    }
    changed.sort_unstable();
    changed.dedup();
    changed
}

/// Whether the axis-parallel segment p–q runs through one of the boxes `solids`, or
/// passes closer to one than [`L_CLEARANCE`] (a line grazing a shape reads as
/// touching it). Boxes under either end (the ends themselves, a shape they sit on)
/// do not count: every route would cross them.
fn blocked(solids: &[Rect], a: Rect, b: Rect, p: Point, q: Point) -> bool {
    let Some(seg) = Rect::around([p, q]) else {
        return false;
    };
    let under = |o: &Rect, end: &Rect| o.overlaps(end) || o.contains(end);
    solids
        .iter()
        .any(|o| seg.overlaps(&orthogonal::grow(*o, L_CLEARANCE)) && !under(o, &a) && !under(o, &b))
}

/// Sends each self-loop round the corner of its shape where it runs through the
/// fewest other shapes, then crosses the fewest other lines (as drafted; earlier
/// loops as placed), keeping the first of [`route::LOOP_CORNERS`] on a tie: a
/// state machine's loops otherwise all go round the top right, across the lines
/// that pass there.
fn loop_corners(
    connectors: &[(usize, &Connector)],
    ends: &[(EndInfo, EndInfo)],
    drafts: &mut [Draft],
    solids: &[Rect],
) {
    if !drafts
        .iter()
        .any(|d| matches!(d, Draft::Planned(Plan::Loop(..))))
    {
        return;
    }
    let drafted = |k: usize, d: &Draft| {
        let (a, b) = &ends[k];
        match d {
            Draft::Searched { points, .. } => points.clone(),
            Draft::Planned(plan) => route::points(a.shape, b.shape, *plan, (0.0, 0.0)),
            Draft::ByHand => std::iter::once(a.shape.bounds.center())
                .chain(connectors[k].1.waypoints().iter().copied())
                .chain(std::iter::once(b.shape.bounds.center()))
                .collect(),
            Draft::Bus { points, .. } => points.clone(),
        }
    };
    let mut lines: Vec<Vec<Point>> = drafts
        .iter()
        .enumerate()
        .map(|(k, d)| drafted(k, d))
        .collect();
    for k in 0..drafts.len() {
        if !matches!(drafts[k], Draft::Planned(Plan::Loop(..))) {
            continue;
        }
        let shape = ends[k].0.shape;
        let cost = |&(sa, sb): &(Side, Side)| {
            let pts = route::points(shape, shape, Plan::Loop(sa, sb), (0.0, 0.0));
            let through = pts
                .windows(2)
                .filter(|w| blocked(solids, shape.bounds, shape.bounds, w[0], w[1]))
                .count();
            let crossings: usize = lines
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, line)| crossings_between(&pts, line))
                .sum();
            (through, crossings)
        };
        // Corners that agree with the loop's pinned sides, if any do.
        let (pa, pb) = (ends[k].0.pin, ends[k].1.pin);
        let agrees =
            |&&(sa, sb): &&(Side, Side)| pa.is_none_or(|p| p == sa) && pb.is_none_or(|p| p == sb);
        let any_agrees = route::LOOP_CORNERS.iter().any(|c| agrees(&c));
        let best = route::LOOP_CORNERS
            .iter()
            .filter(|c| !any_agrees || agrees(c))
            .min_by_key(|corner| cost(corner))
            .copied()
            .unwrap_or(route::LOOP_CORNERS[0]);
        drafts[k] = Draft::Planned(Plan::Loop(best.0, best.1));
        lines[k] = drafted(k, &drafts[k]);
    }
}

/// How many times the polylines `a` and `b` cross (at a point inside a segment of
/// each, as `render`'s check counts them).
fn crossings_between(a: &[Point], b: &[Point]) -> usize {
    a.windows(2)
        .map(|s| {
            b.windows(2)
                .filter(|t| crate::check::proper(s[0], s[1], t[0], t[1]))
                .count()
        })
        .sum()
}

/// What a connector end is attached to.
fn end_info(board: &Board, objects: &[Object], end: &End) -> EndInfo {
    let object = end.object().and_then(|id| {
        let (_, i) = board.locate(id)?;
        (objects.get(i)?.id == *id).then_some(i)
    });
    let shape = match end {
        End::Point(p) => EndShape::point(*p),
        End::Object(id) => match board.object(id).map(|o| &o.kind) {
            Some(Kind::Shape(s)) => EndShape {
                bounds: s.bounds.rotated_extent(s.rotation),
                geom: Some(s.geom),
                turned: Turned::of(s.bounds, s.rotation),
            },
            Some(Kind::Image(i)) => EndShape {
                bounds: i.bounds.rotated_extent(i.rotation),
                geom: None,
                turned: Turned::of(i.bounds, i.rotation),
            },
            Some(Kind::Ink(_) | Kind::Group(_)) => match board.bounds(id) {
                Some(bounds) => EndShape {
                    bounds,
                    geom: None,
                    turned: None,
                },
                None => EndShape::point(Point::default()),
            },
            // A connector onto a connector meets it at the middle of its ends.
            _ => EndShape::point(board.bounds(id).map(|b| b.center()).unwrap_or_default()),
        },
    };
    EndInfo {
        shape,
        object,
        pin: None,
    }
}

impl EndInfo {
    /// The end pinned to `side` (a free end has no sides: it stays unpinned).
    fn pinned(self, side: Option<inkboard_core::Side>) -> Self {
        EndInfo {
            pin: side.filter(|_| !self.shape.is_point()).map(Side::from),
            ..self
        }
    }
}

/// A branch of a bus: the sides it leaves and enters by, and its corners.
type BusRoute = ((Side, Side), Vec<Point>);

/// The routes of the merged connectors ([`bus`]), by connector: those whose
/// start is on an object and whose route is orthogonal, drawn without
/// waypoints, grouped by the object and side they leave (their pinned side, else
/// the side the page's flow leaves by towards their end, else the side facing
/// it). `None` for every other connector, and for a merged one whose end does
/// not lie past that side.
fn buses(
    connectors: &[(usize, &Connector)],
    ends: &[(EndInfo, EndInfo)],
    kinds: &[Route],
    flow: Option<Side>,
) -> Vec<Option<BusRoute>> {
    let mut out = vec![None; connectors.len()];
    let mut groups: BTreeMap<(usize, Side), Vec<usize>> = BTreeMap::new();
    for (k, ((_, c), (a, b))) in connectors.iter().zip(ends).enumerate() {
        let (Some(object), false) = (a.object, b.shape.is_point()) else {
            continue;
        };
        if !c.merge() || kinds[k] != Route::Orthogonal || !c.waypoints().is_empty() {
            continue;
        }
        if a.object == b.object || a.shape.is_point() {
            continue;
        }
        let (ra, rb) = (a.shape.bounds, b.shape.bounds);
        let side = a.pin.unwrap_or_else(|| {
            route::flow_sides(ra, rb, flow).map_or_else(|| route::facing(ra, rb).0, |s| s.0)
        });
        groups.entry((object, side)).or_default().push(k);
    }
    for ((_, side), members) in groups {
        let source = ends[members[0]].0.shape.bounds;
        let targets: Vec<(Rect, Option<Side>)> = members
            .iter()
            .map(|&k| (ends[k].1.shape.bounds, ends[k].1.pin))
            .collect();
        for (&k, found) in members.iter().zip(bus::routes(source, side, &targets)) {
            out[k] = found.map(|(entry, points)| ((side, entry), points));
        }
    }
    out
}

/// Marks with a dot each point where a bus branches ([`bus::junctions`]), on the
/// first connector of the bus that passes through it: drawn as one more filled
/// head, so every backend and the editor show it.
fn junction_dots(connectors: &[(usize, &Connector)], drafts: &[Draft], routed: &mut [Routed]) {
    let mut groups: BTreeMap<(ObjectId, Side), Vec<usize>> = BTreeMap::new();
    for (k, draft) in drafts.iter().enumerate() {
        if let (Draft::Bus { sides, .. }, End::Object(id)) = (draft, &connectors[k].1.from) {
            groups.entry((id.clone(), sides.0)).or_default().push(k);
        }
    }
    for members in groups.into_values() {
        if members.len() < 2 {
            continue;
        }
        let lines: Vec<&[Point]> = members
            .iter()
            .filter_map(|&k| match &drafts[k] {
                Draft::Bus { points, .. } => Some(points.as_slice()),
                _ => None,
            })
            .collect();
        for dot in bus::junctions(lines.iter().copied()) {
            let on = members
                .iter()
                .zip(&lines)
                .find(|(_, line)| passes(line, dot));
            if let Some((&k, _)) = on {
                let c = connectors[k].1;
                let width = style::line_stroke(&c.style, style::STROKE_WIDTH)
                    .map_or(style::STROKE_WIDTH, |s| s.width) as f64;
                let r = 2.0 + width;
                routed[k]
                    .heads
                    .push((crate::shapes::ellipse(dot, r, r), true));
            }
        }
    }
}

/// Whether the polyline `line` passes through `p` (to a hundredth of a pixel).
fn passes(line: &[Point], p: Point) -> bool {
    line.windows(2).any(|w| {
        let (a, b) = (w[0], w[1]);
        let within = |lo: f64, hi: f64, v: f64| lo.min(hi) - 0.01 <= v && v <= lo.max(hi) + 0.01;
        within(a.x, b.x, p.x)
            && within(a.y, b.y, p.y)
            && ((a.x - b.x).abs() < 0.01 || (a.y - b.y).abs() < 0.01)
    })
}

/// Where an end's line goes after leaving its side, which decides its place among
/// the ends sharing that side. A line that turns towards lower coordinates goes to
/// the low end of the side, nearest turn outermost; one that runs straight out sits
/// in the middle, ordered by where its other end is; one that turns towards higher
/// coordinates goes to the high end, nearest turn outermost. Ordered so, the lines
/// fan out without crossing. A line that turns only after every straight line of
/// its side has ended is placed among them as straight ([`PortKey::past`]).
#[derive(Clone, Copy, Debug, PartialEq)]
struct PortKey {
    group: u8,
    first: f64,
    second: f64,
    /// The line runs straight out, along the side's normal, to its other end.
    straight: bool,
    /// How far it runs out from the side before its first turn (or its end).
    leg: f64,
    /// Where along the side its route was found to leave.
    at: f64,
}

impl PortKey {
    /// The key of the end at the start of `points` (a route's corners, from this end).
    fn new(side: Side, mut points: impl Iterator<Item = Point>) -> Self {
        let (Some(p0), Some(p1)) = (points.next(), points.next()) else {
            return PortKey {
                group: 1,
                first: 0.0,
                second: 0.0,
                straight: false,
                leg: 0.0,
                at: 0.0,
            };
        };
        let p2 = points.next();
        let far = points.last().or(p2).unwrap_or(p1);
        let leg = route::distance(p0, p1);
        let turn = p2.map_or(0.0, |p2| side.coord(p2) - side.coord(p1));
        let other = side.coord(far);
        let (group, first, second) = if turn < -0.5 {
            (0, leg, other)
        } else if turn > 0.5 {
            (2, -leg, other)
        } else {
            (1, other, 0.0)
        };
        PortKey {
            group,
            first,
            second,
            straight: p2.is_none() && (side.coord(p1) - side.coord(p0)).abs() < 0.5,
            leg,
            at: side.coord(p0),
        }
    }

    /// The key of an end on `side` of `r` whose route is not known yet, going to
    /// `far`: as a line that runs out from the side's middle as far as `far` lies
    /// beyond it, then turns towards `far`.
    fn toward(side: Side, r: Rect, far: Point) -> Self {
        let p = side_point(r, side, 0.0, 0.0);
        let n = side.normal();
        let out = ((far.x - p.x) * n.x + (far.y - p.y) * n.y).max(0.0);
        let q = Point {
            x: p.x + n.x * out,
            y: p.y + n.y * out,
        };
        PortKey::new(side, [p, q, far].into_iter())
    }

    /// The key of a turning line beside straight ones that reach out `reach` from
    /// the side: one that runs on past them turns where they are gone, so by the
    /// side it is a straight line at the place its route was found, and takes
    /// that place among them. (A line turning left only far above a line that
    /// goes straight up to a shape on the right must stay left of it; one turning
    /// left far above a line going straight up to a shape on its left must
    /// stay right of it, or it crosses that line to get past its shape.)
    fn past(self, reach: Option<f64>) -> Self {
        match reach {
            Some(reach) if self.group != 1 && self.leg > reach + 0.5 => PortKey {
                group: 1,
                first: self.at,
                second: 0.0,
                ..self
            },
            _ => self,
        }
    }

    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.group
            .cmp(&other.group)
            .then(self.first.total_cmp(&other.first))
            .then(self.second.total_cmp(&other.second))
    }
}

/// The font size of a connector's label.
pub(crate) fn label_font_size(c: &Connector) -> f32 {
    c.style
        .font_size
        .map_or(style::LABEL_FONT_SIZE, |s| s as f32)
}

/// The size of a connector's label background, if it shows a label.
fn label_size(c: &Connector) -> Option<(f64, f64)> {
    let font_size = label_font_size(c);
    if c.text.is_empty() || font_size <= 0.0 {
        return None;
    }
    let block = text::layout(
        &c.text,
        font_size,
        crate::style::label_face(&c.style),
        Some(LABEL_MAX_WIDTH),
    );
    Some((
        block.width as f64 + 2.0 * LABEL_PAD.0,
        block.height as f64 + 2.0 * LABEL_PAD.1,
    ))
}
