//! The connectors of a page, laid out together.
//!
//! Routing one connector well needs to know about the others, so [`layout`] routes a
//! whole page at once, when [`resolve`](crate::resolve) builds its scene:
//!
//! 1. orthogonal connectors are searched for, in page order, on one grid of the page
//!    ([`orthogonal`](super::orthogonal)): around every shape and image, leaving and entering by the
//!    sides the search finds cheapest, and paying for crossing routes found before.
//!    Straight and curved connectors and loops get their [`Plan`] from their ends'
//!    positions ([`route::plan`]), as does an orthogonal connector whose ends are
//!    too close together for the grid or that no route reaches (its simple L or Z
//!    then runs through whatever is in the way). Once a connector is drafted, the
//!    box its label will likely take (the middle of its longest leg), when that
//!    leg is too short for the label to move aside, is given to the search as a
//!    soft obstacle: the lines searched after it keep off that label, paying
//!    dearly to run through it ([`likely_label`]);
//! 2. ends that meet the same side of the same object are spread along that side at
//!    evenly spaced ports instead of sharing its middle, ordered so that their lines
//!    do not cross, within the part of the side whose ports land on that side of
//!    the outline (the middle 71% of an ellipse's, half a diamond's: [`fan`](ports::fan)), so
//!    that two sides' fans do not meet round a corner; a searched route's first or
//!    last leg moves with its port, and a route that would then run into
//!    something is searched again from its new ports;
//! 3. the orthogonal routes are nudged ([`nudge`]): segments sharing a channel are
//!    set side by side, lone ones moved to the middle of their gap (the labels'
//!    boxes do not bound the gaps: a layered layout's label layer would pull its
//!    lines about);
//!    A route between two shapes facing each other across a gap, whose sides
//!    overlap along it, is then drawn straight, its ports slid to meet, where the
//!    straight line is as clear as the route ([`straight`]);
//! 4. each route gets its ends on its shapes' outlines and its arrowheads;
//! 5. the labels are placed together ([`labels`](super::labels)): beside or on a straight
//!    piece of their route, where they cover no shape, line, arrowhead or other
//!    label; a label given its place (`label_at`) sits there, and the others keep
//!    off it. End labels (`start_label`, `end_label`) are placed with them, beside
//!    the line near their end.
//!
//! A connector with waypoints skips steps 1 to 3: it runs through them ([`bends`]).
//! An end pinned to a side (`from_side`, `to_side`) leaves or enters by that side
//! whatever the route's kind: the search is given that side's ports only, a plan
//! has its side replaced ([`Plan::pinned`]), and [`spill`](ports::spill) never moves it; ends
//! pinned to one side are still spread along it. Connectors marked `merge` that
//! leave one side of one object are routed first, as a bus ([`merge`](super::merge), [`bus`](super::bus)): one port,
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
//! [`layout`] runs these steps in turn, one function each; their parts live beside
//! this module: what an end is ([`ends`](super::ends)), what routes go round ([`obstacles`](super::obstacles)),
//! how each connector is drafted in step 1 ([`choice`](super::choice)), the corners of self-loops
//! ([`loops`](super::loops)), merged connectors ([`merge`](super::merge)) and the spreading of ports in step 2
//! ([`ports`]).
//!
//! Limitations: routes are searched one after the other, so an early route may take
//! a channel a later one needed more.

use inkboard_core::{Board, Connector, Kind, Object, Point, Rect, Route};

use crate::deadline::{Deadline, Stopped};
use crate::route::bends;
use crate::route::choice::{self, side_ports, with_stubs};
use crate::route::ends::{end_info, grow, onto_outlines, slide, EndInfo};
use crate::route::labels::{end_label_size, label_size, place_all, Ground, Wanted};
use crate::route::loops;
use crate::route::merge;
use crate::route::nudge::{self, Path};
use crate::route::obstacles::{clear, Obstacles};
use crate::route::orthogonal::Router;
use crate::route::ports;
use crate::route::straight;
use crate::route::untangle;
use crate::route::{self, Plan, Routed, Side};
use crate::scene::{LabelEnd, Seg};
use crate::style;

/// The work (see `Router::work`: grid nodes built, edges visited, lines sorted,
/// states searched; about 20–30 ns each in a release build) a page's searches
/// may do before the rest of its connectors take simple routes: about 0.5–0.8 s.
/// The 300-connector maze of the render bench takes 2.7 M; 3,000 connectors
/// between shapes far apart among 2,000 would take billions (minutes), as each
/// search grows its window to the whole page and marks every earlier route in it.
pub(crate) const ROUTING_BUDGET: usize = 24_000_000;

/// One connector, laid out.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Laid {
    pub routed: Routed,
    /// The label's background box, when the connector has a label to show; the text
    /// is centred in it.
    pub label: Option<Rect>,
    /// The end labels' background boxes, start then end, for those it has.
    pub end_labels: [Option<Rect>; 2],
}

/// How a connector runs, before its ends go onto their outlines.
#[derive(Clone, Debug)]
pub(super) enum Draft {
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
    /// One branch of a bus of merged connectors ([`bus`](super::bus)): its corners from the
    /// shared port at its start side's middle to its target's box.
    Bus {
        sides: (Side, Side),
        points: Vec<Point>,
    },
}

impl Draft {
    /// The sides the route leaves and enters by (`None` at a free end, or for a
    /// straight route).
    pub(super) fn sides(&self) -> (Option<Side>, Option<Side>) {
        match self {
            Draft::Searched { sides, .. } => *sides,
            Draft::Planned(plan) => plan.sides(),
            Draft::ByHand => (None, None),
            Draft::Bus { sides, .. } => (Some(sides.0), Some(sides.1)),
        }
    }
}
/// A page's connectors as the steps of [`layout`] see them, each list in page order.
pub(super) struct Page<'a> {
    /// Each connector, with its place among the page's objects.
    pub connectors: Vec<(usize, &'a Connector)>,
    /// Each connector's ends.
    pub ends: Vec<(EndInfo, EndInfo)>,
    /// Each connector's kind of route.
    pub kinds: Vec<Route>,
    pub obstacles: Obstacles,
    /// The boxes of the page's shapes and images, walls left out.
    pub solids: Vec<Rect>,
    /// For each connector, the obstacles it may cross (ascending; none for a route
    /// that is not orthogonal).
    pub lifted: Vec<Vec<usize>>,
    /// The way the page's diagram reads, if it reads one way ([`route::page_flow`]).
    pub flow: Option<Side>,
}

impl<'a> Page<'a> {
    fn new(board: &Board, objects: &'a [Object]) -> Self {
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
        let flow = route::page_flow(
            ends.iter()
                .filter(|(a, b)| !a.shape.is_point() && !b.shape.is_point())
                .map(|(a, b)| (a.shape.bounds, b.shape.bounds)),
        );
        Page {
            connectors,
            ends,
            kinds,
            obstacles,
            solids,
            lifted,
            flow,
        }
    }

    /// The area every port of the page lies in: the search's grid covers it.
    fn port_area(&self) -> Rect {
        self.ends
            .iter()
            .flat_map(|(a, b)| [grow(a.shape.bounds), grow(b.shape.bounds)])
            .reduce(|a, b| a.union(&b))
            .unwrap_or_default()
    }
}

/// Each connector's corners, where it has them after step 2: searched and
/// orthogonal routes, and loops.
pub(super) type Corners = Vec<Option<Vec<Point>>>;

/// Lays out the connectors among `objects` (a page's objects, in order). The result
/// has one entry per object: `Some` for connectors. `deadline` is checked for each
/// connector in each step.
pub(crate) fn layout(
    board: &Board,
    objects: &[Object],
    deadline: &Deadline,
) -> Result<Vec<Option<Laid>>, Stopped> {
    let (page, routed) = route_page(board, objects, deadline)?;
    let titles: Vec<Rect> = objects
        .iter()
        .filter_map(crate::style::frame_title_box)
        .collect();
    place_labels(page, routed, &titles, objects.len(), deadline)
}

/// The connectors' routes among `objects`, as [`layout`] makes them, without
/// placing their labels (steps 1 to 4): one entry per object, `Some` for
/// connectors.
pub(crate) fn routes(
    board: &Board,
    objects: &[Object],
    deadline: &Deadline,
) -> Result<Vec<Option<Routed>>, Stopped> {
    let (page, routed) = route_page(board, objects, deadline)?;
    let mut out: Vec<Option<Routed>> = (0..objects.len()).map(|_| None).collect();
    for ((i, _), routed) in page.connectors.iter().zip(routed) {
        out[*i] = Some(routed);
    }
    Ok(out)
}

/// Steps 1 to 4: the page's connectors searched, spread at their ports, nudged
/// apart, and given their ends and heads.
fn route_page<'a>(
    board: &'a Board,
    objects: &'a [Object],
    deadline: &Deadline,
) -> Result<(Page<'a>, Vec<Routed>), Stopped> {
    let page = Page::new(board, objects);
    let mut router = Router::new(&page.obstacles.rects, page.port_area());
    let mut drafts = draft(&page, &mut router, deadline)?;
    loops::loop_corners(&page.connectors, &page.ends, &mut drafts, &page.solids);
    let (offsets, mut corners) = spread_ports(&page, router, &mut drafts, deadline)?;
    nudge_routes(&page, &drafts, &mut corners, deadline)?;
    straight::straighten(&page, &drafts, &mut corners, deadline)?;
    untangle::untangle(&page, &drafts, &mut corners, deadline)?;
    let mut routed = ends_and_heads(&page, &drafts, corners, &offsets, deadline)?;
    merge::junction_dots(&page.connectors, &drafts, &mut routed);
    Ok((page, routed))
}

/// Step 1, searches and plans: the buses first, whose lines the searches then keep
/// off, then each connector in page order ([`choice::draft`]).
fn draft(page: &Page, router: &mut Router, deadline: &Deadline) -> Result<Vec<Draft>, Stopped> {
    let mut buses = merge::buses(&page.connectors, &page.ends, &page.kinds, page.flow);
    for points in buses.iter().flatten() {
        router.add(&points.1);
    }
    let mut drafts: Vec<Draft> = Vec::with_capacity(page.connectors.len());
    for (k, bus) in buses.iter_mut().enumerate() {
        deadline.check()?;
        let draft = choice::draft(page, k, bus.take(), router);
        if let Some(label) = likely_label(page, k, &draft) {
            router.add_label(k, label);
        }
        drafts.push(draft);
    }
    Ok(drafts)
}

/// Where connector `k`'s label will likely sit, drafted as `draft`, if it has
/// no room to move aside there: its cheapest place on an empty page
/// ([`labels::likely`](super::labels::likely)), the middle of its longest leg.
/// The searches after it keep off that box, so a later line does not take the
/// stretch the label needs. Only for right-angled routes, whose corners step 1
/// knows, and labels not placed by hand.
fn likely_label(page: &Page, k: usize, draft: &Draft) -> Option<Rect> {
    let c = page.connectors[k].1;
    if c.label_at().is_some() {
        return None;
    }
    let size = label_size(c)?;
    let (a, b) = &page.ends[k];
    let track = match draft {
        Draft::Searched { points, .. } | Draft::Bus { points, .. } => points.clone(),
        Draft::Planned(plan @ Plan::Orthogonal(..)) => {
            route::points(a.shape, b.shape, *plan, (0.0, 0.0))
        }
        Draft::Planned(_) | Draft::ByHand => return None,
    };
    crate::route::labels::likely(&track, size)
}

/// Step 2, ports: sides too short for their ends give some to their neighbours
/// (those routes are searched again), then each side's ends are spread
/// ([`ports`]); a searched route's first and last legs move with its ports, and one
/// that then runs into something is searched again from its new ports. Returns each
/// connector's port offsets and corners.
fn spread_ports(
    page: &Page,
    mut router: Router,
    drafts: &mut [Draft],
    deadline: &Deadline,
) -> Result<(Vec<(f64, f64)>, Corners), Stopped> {
    let ends = &page.ends;
    let spilled = if router.work() < ROUTING_BUDGET {
        ports::spill(&page.connectors, ends, drafts)
    } else {
        Vec::new()
    };
    let offsets = ports::spread(&page.connectors, ends, drafts, &spilled);
    let mut polylines: Corners = vec![None; page.connectors.len()];
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
                choice::shift(&mut points, a, b, *sides, moved);
                if spilled.contains(&k) || !clear(&points, a, b, &page.lifted[k], &page.obstacles) {
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
            if let Some(found) = router.route(&starts, &targets, &page.lifted[k], Some(k)) {
                polylines[k] = Some(with_stubs(found.points, a, b, *sides, offsets[k]));
            }
        }
    }
    Ok((offsets, polylines))
}

/// Step 3, nudging ([`nudge`]): segments of the routes with corners that share a
/// channel are set side by side, lone ones moved to the middle of their gap.
fn nudge_routes(
    page: &Page,
    drafts: &[Draft],
    polylines: &mut Corners,
    deadline: &Deadline,
) -> Result<(), Stopped> {
    let mut paths: Vec<Path> = polylines
        .iter_mut()
        .zip(&page.lifted)
        .zip(drafts.iter().zip(&page.ends))
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
    nudge::nudge(&mut paths, &page.obstacles.rects);
    Ok(())
}

/// Step 4, ends and heads: each route gets its ends on its shapes' outlines and its
/// arrowheads; a route with waypoints is drawn through them ([`bends`]).
fn ends_and_heads(
    page: &Page,
    drafts: &[Draft],
    mut polylines: Corners,
    offsets: &[(f64, f64)],
    deadline: &Deadline,
) -> Result<Vec<Routed>, Stopped> {
    let mut routed: Vec<Routed> = Vec::with_capacity(page.connectors.len());
    for (k, (_, c)) in page.connectors.iter().enumerate() {
        deadline.check()?;
        let width = style::line_stroke(&c.style, style::STROKE_WIDTH)
            .map_or(style::STROKE_WIDTH, |s| s.width) as f64;
        let (a, b) = &page.ends[k];
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
    Ok(routed)
}

/// Step 5, labels, for the whole page at once ([`labels`](super::labels)): those
/// placed by hand where they were put, the others where they cover no shape, line,
/// arrowhead, other label or frame's title (`titles`). The result has one entry
/// for each of the page's `count` objects.
fn place_labels(
    page: Page,
    routed: Vec<Routed>,
    titles: &[Rect],
    count: usize,
    deadline: &Deadline,
) -> Result<Vec<Option<Laid>>, Stopped> {
    let Page {
        connectors,
        solids,
        ends,
        ..
    } = page;
    let lines: Vec<Vec<Point>> = routed.iter().map(|r| route::polyline(&r.line)).collect();
    let heads: Vec<Vec<Rect>> = routed
        .iter()
        .map(|r| {
            r.heads
                .iter()
                .filter_map(|(segs, _)| Rect::around(route::polyline(segs)))
                .collect()
        })
        .collect();
    let by_hand: Vec<Option<Rect>> = connectors
        .iter()
        .zip(&routed)
        .map(|((_, c), routed)| {
            let (w, h) = label_size(c)?;
            let p = bends::along(&routed.line, c.label_at()?);
            Some(Rect::new(p.x - w / 2.0, p.y - h / 2.0, w, h))
        })
        .collect();
    // A frame's title reads as badly under a label as a label placed by hand.
    let fixed: Vec<Rect> = by_hand.iter().flatten().chain(titles).copied().collect();
    let end_boxes = ends
        .iter()
        .map(|(a, b)| [Some(a.shape.bounds), Some(b.shape.bounds)])
        .collect();
    let mut ground = Ground::new(solids, &lines, &heads, end_boxes, &fixed);
    let mut wanted: Vec<Wanted> = connectors
        .iter()
        .zip(&routed)
        .zip(&by_hand)
        .enumerate()
        .filter(|(_, (_, hand))| hand.is_none())
        .filter_map(|(k, (((_, c), routed), _))| {
            let (a, b) = &ends[k];
            let looped = (a.object.is_some() && a.object == b.object).then_some(a.shape.bounds);
            Some(Wanted {
                conn: k,
                size: label_size(c)?,
                track: &routed.label_track,
                ends: !routed.line.iter().any(|s| matches!(s, Seg::Cubic(..))),
                looped,
                end: None,
            })
        })
        .collect();
    // End labels after every label, so a page without them is placed as before.
    for (k, (_, c)) in connectors.iter().enumerate() {
        for end in LabelEnd::BOTH {
            if let Some(size) = end_label_size(c, end) {
                wanted.push(Wanted {
                    conn: k,
                    size,
                    track: &lines[k],
                    ends: true,
                    looped: None,
                    end: Some(end),
                });
            }
        }
    }
    let placed = place_all(&mut ground, &wanted, deadline)?;
    let mut auto: Vec<Option<Rect>> = vec![None; connectors.len()];
    let mut at_ends: Vec<[Option<Rect>; 2]> = vec![[None; 2]; connectors.len()];
    for (w, r) in wanted.iter().zip(placed) {
        match w.end {
            None => auto[w.conn] = r,
            Some(end) => at_ends[w.conn][end.index()] = r,
        }
    }
    let mut out = vec![None; count];
    for ((((i, _), routed), (hand, auto)), end_labels) in connectors
        .iter()
        .zip(routed)
        .zip(by_hand.into_iter().zip(auto))
        .zip(at_ends)
    {
        out[*i] = Some(Laid {
            routed,
            label: hand.or(auto),
            end_labels,
        });
    }
    Ok(out)
}
