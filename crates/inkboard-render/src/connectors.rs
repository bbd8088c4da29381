//! The connectors of a page, laid out together.
//!
//! Routing one connector well needs to know about the others, so [`layout`] routes a
//! whole page at once, when [`resolve`](crate::resolve) builds its scene:
//!
//! 1. each connector gets its [`Plan`]: sides and route shape, with the other shapes
//!    of the page as obstacles for its L routes;
//! 2. ends that meet the same side of the same object are spread along that side at
//!    evenly spaced ports instead of sharing its middle, ordered so that their lines
//!    do not cross;
//! 3. each connector is routed through its ports;
//! 4. each label is centred on the stretch of its route that [`Routed::label_track`]
//!    names, and nudged along it, in page order, until it no longer covers a label
//!    placed before it (when the track has room).
//!
//! Everything runs in page order with ties broken by it, so a page always comes out
//! the same. Straight routes aim centre to centre and take no part in step 2.
//!
//! Limitations: obstacles are tested one by one, in time proportional to connectors
//! times shapes; a label only avoids other labels, not lines or shapes; a side keeps
//! only one straight-across line straight, others get a small jog.

use std::collections::BTreeMap;

use inkboard_core::{Board, Connector, End, Geom, Kind, Object, ObjectId, Point, Rect};

use crate::route::{self, EndShape, Plan, Routed, Side};
use crate::style;
use crate::text::{self, Weight};

/// Widest a connector label gets before it wraps.
pub(crate) const LABEL_MAX_WIDTH: f32 = 220.0;
/// Room between a label's text and the edge of its background, across and down.
pub(crate) const LABEL_PAD: (f64, f64) = (6.0, 2.0);
/// The largest gap between two ports spread on one side: more looks like unrelated
/// lines rather than a bundle.
const MAX_PORT_STEP: f64 = 36.0;
/// How far a route's legs keep from shapes they pass, for an L to count as clear.
const CLEARANCE: f64 = 8.0;

/// One connector, laid out.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Laid {
    pub routed: Routed,
    /// The label's background box, when the connector has a label to show; the text
    /// is centred in it.
    pub label: Option<Rect>,
}

/// Lays out the connectors among `objects` (a page's objects, in order). The result
/// has one entry per object: `Some` for connectors.
pub(crate) fn layout(board: &Board, objects: &[Object]) -> Vec<Option<Laid>> {
    let obstacles: Vec<Rect> = objects.iter().filter_map(obstacle).collect();
    let connectors: Vec<(usize, &Connector)> = objects
        .iter()
        .enumerate()
        .filter_map(|(i, o)| match &o.kind {
            Kind::Connector(c) => Some((i, c)),
            _ => None,
        })
        .collect();

    // 1. Plans.
    let planned: Vec<(EndShape, EndShape, Plan)> = connectors
        .iter()
        .map(|(_, c)| {
            let (from, to) = (end_shape(board, &c.from), end_shape(board, &c.to));
            let plan = route::plan(from, to, c.route, |p, q| {
                blocked(&obstacles, from.bounds, to.bounds, p, q)
            });
            (from, to, plan)
        })
        .collect();

    // 2. Ports.
    let offsets = spread(&connectors, &planned);

    // 3 and 4. Routes, then labels in page order.
    let mut placed: Vec<Rect> = Vec::new();
    let mut out = vec![None; objects.len()];
    for (k, ((i, c), &(from, to, plan))) in connectors.iter().zip(&planned).enumerate() {
        let width = style::line_stroke(&c.style, style::STROKE_WIDTH)
            .map_or(style::STROKE_WIDTH, |s| s.width) as f64;
        let routed = route::route(
            from,
            to,
            plan,
            offsets[k],
            c.start_arrow,
            c.end_arrow,
            width,
        );
        let label = label_size(c).map(|size| {
            let r = place_label(&routed.label_track, size, &placed);
            placed.push(r);
            r
        });
        out[*i] = Some(Laid { routed, label });
    }
    out
}

/// One connector end that meets a side of an object.
struct SideEnd {
    key: PortKey,
    /// The connector, by its place among the page's connectors.
    conn: usize,
    at_start: bool,
    bounds: Rect,
}

/// The port offsets (start, end) of each connector: ends that share a side of an
/// object are grouped, ordered by [`PortKey`] and spread evenly along the side.
fn spread(
    connectors: &[(usize, &Connector)],
    planned: &[(EndShape, EndShape, Plan)],
) -> Vec<(f64, f64)> {
    let mut groups: BTreeMap<(ObjectId, Side), Vec<SideEnd>> = BTreeMap::new();
    for (conn, ((_, c), &(from, to, plan))) in connectors.iter().zip(planned).enumerate() {
        let Some((sa, sb)) = plan.sides() else {
            continue;
        };
        let points = route::points(from, to, plan, (0.0, 0.0));
        for (end, shape, side, at_start) in [(&c.from, from, sa, true), (&c.to, to, sb, false)] {
            if let (End::Object(id), false) = (end, shape.is_point()) {
                let key = if at_start {
                    PortKey::new(side, points.iter().copied())
                } else {
                    PortKey::new(side, points.iter().rev().copied())
                };
                groups.entry((id.clone(), side)).or_default().push(SideEnd {
                    key,
                    conn,
                    at_start,
                    bounds: shape.bounds,
                });
            }
        }
    }
    let mut offsets = vec![(0.0, 0.0); connectors.len()];
    for ((_, side), mut ends) in groups {
        if ends.len() < 2 {
            continue;
        }
        ends.sort_by(|a, b| {
            a.key
                .cmp(&b.key)
                .then((a.conn, !a.at_start).cmp(&(b.conn, !b.at_start)))
        });
        let len = side.length(ends[0].bounds);
        let n = ends.len() as f64;
        let step = (len / (n + 1.0)).min(MAX_PORT_STEP);
        let slot = |i: usize| (i as f64 - (n - 1.0) / 2.0) * step;
        // A line straight across to a shape in line with this one would get a jog if
        // its port moved, so the fan shifts to keep the first such line in the
        // middle, as far as the side has room.
        let limit = len / 2.0 - step / 2.0;
        let reach = (limit - slot(ends.len() - 1)).max(0.0);
        let shift = ends
            .iter()
            .position(|e| e.key.straight)
            .map_or(0.0, |i| (-slot(i)).clamp(-reach, reach));
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

/// An object that lines should not run through: shapes (frames aside, which hold
/// other objects by design) and images.
fn obstacle(o: &Object) -> Option<Rect> {
    match &o.kind {
        Kind::Shape(s) if s.geom != Geom::Frame => Some(s.bounds),
        Kind::Image(i) => Some(i.bounds),
        _ => None,
    }
}

/// Whether the axis-parallel segment p–q runs through an obstacle, or passes closer
/// to one than [`CLEARANCE`] (a line grazing a shape reads as touching it). Obstacles
/// under either end (the ends themselves, a shape they sit on) do not count: every
/// route would cross them.
fn blocked(obstacles: &[Rect], a: Rect, b: Rect, p: Point, q: Point) -> bool {
    let Some(seg) = Rect::around([p, q]) else {
        return false;
    };
    let under = |o: &Rect, end: &Rect| o.overlaps(end) || o.contains(end);
    obstacles.iter().any(|o| {
        let near = Rect::new(
            o.x - CLEARANCE,
            o.y - CLEARANCE,
            o.w + 2.0 * CLEARANCE,
            o.h + 2.0 * CLEARANCE,
        );
        seg.overlaps(&near) && !under(o, &a) && !under(o, &b)
    })
}

/// What a connector end is attached to.
fn end_shape(board: &Board, end: &End) -> EndShape {
    match end {
        End::Point(p) => EndShape::point(*p),
        End::Object(id) => match board.object(id).map(|o| &o.kind) {
            Some(Kind::Shape(s)) => EndShape {
                bounds: s.bounds,
                geom: Some(s.geom),
            },
            Some(Kind::Image(_) | Kind::Ink(_) | Kind::Group(_)) => match board.bounds(id) {
                Some(bounds) => EndShape { bounds, geom: None },
                None => EndShape::point(Point::default()),
            },
            // A connector onto a connector meets it at the middle of its ends.
            _ => EndShape::point(board.bounds(id).map(|b| b.center()).unwrap_or_default()),
        },
    }
}

/// Where an end's line goes after leaving its side, which decides its place among
/// the ends sharing that side. A line that turns towards lower coordinates goes to
/// the low end of the side, nearest turn outermost; one that runs straight out sits
/// in the middle, ordered by where its other end is; one that turns towards higher
/// coordinates goes to the high end, nearest turn outermost. Ordered so, the lines
/// fan out without crossing.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PortKey {
    group: u8,
    first: f64,
    second: f64,
    /// The line runs straight out, along the side's normal, to its other end.
    straight: bool,
}

impl PortKey {
    /// The key of the end at the start of `points` (a route's corners, from this end).
    fn new(side: Side, mut points: impl Iterator<Item = Point>) -> Self {
        let along = side.along();
        let coord = |p: Point| p.x * along.x + p.y * along.y;
        let (Some(p0), Some(p1)) = (points.next(), points.next()) else {
            return PortKey {
                group: 1,
                first: 0.0,
                second: 0.0,
                straight: false,
            };
        };
        let p2 = points.next();
        let far = points.last().or(p2).unwrap_or(p1);
        let leg = route::distance(p0, p1);
        let turn = p2.map_or(0.0, |p2| coord(p2) - coord(p1));
        let other = coord(far);
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
            straight: p2.is_none() && (coord(p1) - coord(p0)).abs() < 0.5,
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
    let block = text::layout(&c.text, font_size, Weight::Regular, Some(LABEL_MAX_WIDTH));
    Some((
        block.width as f64 + 2.0 * LABEL_PAD.0,
        block.height as f64 + 2.0 * LABEL_PAD.1,
    ))
}

/// The box of a label of `size` on `track`: at the track's middle, or, when that
/// covers a label in `placed`, the nearest position along the track that does not
/// (keeping the label's centre a half-label from the track's ends, arrowheads
/// included), or the middle again when there is none.
fn place_label(track: &[Point], (w, h): (f64, f64), placed: &[Rect]) -> Rect {
    let boxed = |c: Point| Rect::new(c.x - w / 2.0, c.y - h / 2.0, w, h);
    let total = route::length(track);
    let middle = point_along(track, total / 2.0);
    let free = |r: &Rect| !placed.iter().any(|p| p.overlaps(r));
    let first = boxed(middle);
    if free(&first) || track.len() < 2 {
        return first;
    }
    // The label's extent along the track, judged by the track's overall direction.
    let (a, b) = (track[0], track[track.len() - 1]);
    let half_along = if (b.x - a.x).abs() >= (b.y - a.y).abs() {
        w / 2.0
    } else {
        h / 2.0
    };
    let margin = half_along + 4.0;
    let step = (half_along / 2.0).max(4.0);
    let mut shift = step;
    while total / 2.0 + shift <= total - margin || total / 2.0 - shift >= margin {
        for s in [total / 2.0 + shift, total / 2.0 - shift] {
            if (margin..=total - margin).contains(&s) {
                let r = boxed(point_along(track, s));
                if free(&r) {
                    return r;
                }
            }
        }
        shift += step;
    }
    first
}

/// The point `s` along a polyline from its start.
fn point_along(track: &[Point], s: f64) -> Point {
    let mut left = s;
    for w in track.windows(2) {
        let d = route::distance(w[0], w[1]);
        if d >= left && d > 0.0 {
            let t = left / d;
            return Point {
                x: w[0].x + (w[1].x - w[0].x) * t,
                y: w[0].y + (w[1].y - w[0].y) * t,
            };
        }
        left -= d;
    }
    track.last().copied().unwrap_or_default()
}
