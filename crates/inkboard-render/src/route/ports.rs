//! Port spreading: ends that meet the same side of the same object are spread along
//! it at evenly spaced ports, ordered by where their lines go ([`PortKey`]) so that
//! they do not cross, within the part of the side whose ports land on it ([`fan`]);
//! a side too short for its ends first gives some to its neighbours ([`spill`]).

use std::collections::BTreeMap;

use inkboard_core::{Connector, End, ObjectId, Point, Rect};
use inkboard_geom::distance;

use crate::route::connectors::Draft;
use crate::route::ends::{side_point, EndInfo};
use crate::route::{self, EndShape, Side};

/// The largest gap between two ports spread on one side: more looks like unrelated
/// lines rather than a bundle.
const MAX_PORT_STEP: f64 = 36.0;
/// The smallest gap between two ports on one side that the search found apart for
/// them to stay where they are.
pub(crate) const MIN_PORT_STEP: f64 = 12.0;
/// The least distance between two ports on one side: closer, two arrowheads
/// would run into each other.
const MIN_PORT_GAP: f64 = 8.0;

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
pub(super) fn spread(
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
pub(super) fn spill(
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
        let leg = distance(p0, p1);
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
