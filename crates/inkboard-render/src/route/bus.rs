//! Merged connectors: a deliberate bus, as an org chart draws a parent's lines to
//! its children.
//!
//! Connectors marked `merge` that leave the same side of the same object share
//! one port, at that side's middle, and one trunk: out along the side's normal to
//! a bus line halfway across the gap to the nearest target, along that line, and
//! into each target by its side facing the bus. A target entered by a side across
//! the flow (an org chart's stacked leaves, pinned to the side facing the parent's
//! trunk) is reached down a spine: the trunk carried on past the bus when it runs
//! beside the target, else a line just off that side, then across into it. The
//! shared parts of the routes lie exactly on top of each other, so they read as
//! one line, and every point where a branch leaves it is marked with a dot
//! ([`junctions`]).
//!
//! The connectors module routes these before the search (so searched routes pay
//! for crossing them), and leaves them out of port spreading and nudging: both
//! would pull the shared lines apart.
//!
//! Limitations: a target that does not lie past the source's side (beside it, or
//! behind) is not on the bus; its connector is routed as any other. The bus takes
//! no account of shapes in its way.

use std::collections::{BTreeMap, BTreeSet};

use inkboard_core::{Point, Rect};

use crate::route::Side;

/// How far from a target's side a spine runs when the trunk cannot serve as one.
const SPINE_GAP: f64 = 16.0;

/// The routes from side `side` of `source` to each of `targets` (its box and the
/// side it is pinned to be entered by, if any): each with the side it enters by
/// and its corners, from the port at `side`'s middle to the target's box; `None`
/// for a target that does not lie past `side`.
pub(crate) fn routes(
    source: Rect,
    side: Side,
    targets: &[(Rect, Option<Side>)],
) -> Vec<Option<(Side, Vec<Point>)>> {
    let frame = Frame::new(source, side);
    let near = |r: &Rect| frame.span(r).0;
    let gap = targets
        .iter()
        .map(|(r, _)| near(r))
        .filter(|&u| u > 1.0)
        .reduce(f64::min);
    let Some(gap) = gap else {
        return vec![None; targets.len()];
    };
    let bus = gap / 2.0;
    let trunk = 0.0;
    targets
        .iter()
        .map(|(r, pin)| {
            let ((u_lo, u_hi), (v_lo, v_hi)) = (frame.span(r), frame.across(r));
            if u_lo <= 1.0 {
                return None;
            }
            let entry = match pin {
                Some(s) if *s != side => *s,
                _ => side.opposite(),
            };
            let local = if entry == side.opposite() {
                let v = (v_lo + v_hi) / 2.0;
                vec![(0.0, trunk), (bus, trunk), (bus, v), (u_lo, v)]
            } else {
                // Entered across the flow: by its low side (towards lower v) or
                // its high side.
                let low = frame.low_side() == entry;
                let (edge, u) = (if low { v_lo } else { v_hi }, (u_lo + u_hi) / 2.0);
                let spine = if (low && trunk <= edge - SPINE_GAP / 2.0)
                    || (!low && trunk >= edge + SPINE_GAP / 2.0)
                {
                    trunk
                } else if low {
                    edge - SPINE_GAP
                } else {
                    edge + SPINE_GAP
                };
                vec![
                    (0.0, trunk),
                    (bus, trunk),
                    (bus, spine),
                    (u, spine),
                    (u, edge),
                ]
            };
            let mut points: Vec<Point> =
                local.into_iter().map(|(u, v)| frame.point(u, v)).collect();
            crate::route::orthogonal::simplify(&mut points);
            Some((entry, points))
        })
        .collect()
}

/// Coordinates measured from the middle of a side: `u` out along its normal, `v`
/// along it.
struct Frame {
    origin: Point,
    side: Side,
}

impl Frame {
    fn new(r: Rect, side: Side) -> Self {
        let c = r.center();
        let n = side.normal();
        let half = side.depth(r) / 2.0;
        Frame {
            origin: Point {
                x: c.x + n.x * half,
                y: c.y + n.y * half,
            },
            side,
        }
    }

    fn u(&self, p: Point) -> f64 {
        let n = self.side.normal();
        (p.x - self.origin.x) * n.x + (p.y - self.origin.y) * n.y
    }

    fn v(&self, p: Point) -> f64 {
        self.side.coord(p) - self.side.coord(self.origin)
    }

    /// The extent of `r` along the normal.
    fn span(&self, r: &Rect) -> (f64, f64) {
        let us = r.corners().map(|p| self.u(p));
        (
            us.iter().copied().fold(f64::INFINITY, f64::min),
            us.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    }

    /// The extent of `r` along the side.
    fn across(&self, r: &Rect) -> (f64, f64) {
        let vs = r.corners().map(|p| self.v(p));
        (
            vs.iter().copied().fold(f64::INFINITY, f64::min),
            vs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    }

    /// The side of a box that faces lower `v`.
    fn low_side(&self) -> Side {
        if self.side.is_vertical() {
            Side::Top
        } else {
            Side::Left
        }
    }

    fn point(&self, u: f64, v: f64) -> Point {
        let (n, t) = (self.side.normal(), self.side.along());
        Point {
            x: self.origin.x + n.x * u + t.x * v,
            y: self.origin.y + n.y * u + t.y * v,
        }
    }
}

/// The points where the axis-parallel polylines `lines` branch: where three or
/// more of the pieces they are made of meet (a T where a branch leaves a shared
/// line, or a cross where two leave it at one place). A corner where one line
/// only turns is no junction, nor is a point where lines merely pass through one
/// another's ends' boxes.
pub(crate) fn junctions<'a>(lines: impl IntoIterator<Item = &'a [Point]> + Clone) -> Vec<Point> {
    // Points as hundredths of a pixel, so that equal coordinates computed along
    // different routes meet.
    let key = |p: Point| ((p.x * 100.0).round() as i64, (p.y * 100.0).round() as i64);
    let corners: BTreeSet<(i64, i64)> = lines
        .clone()
        .into_iter()
        .flat_map(|l| l.iter().map(|&p| key(p)))
        .collect();
    // Every segment split at the corners lying on it: the pieces the union is
    // made of, each once.
    let mut pieces: BTreeSet<((i64, i64), (i64, i64))> = BTreeSet::new();
    for line in lines {
        for w in line.windows(2) {
            let (a, b) = (key(w[0]), key(w[1]));
            if a == b {
                continue;
            }
            let on: Vec<(i64, i64)> = if a.1 == b.1 {
                let (lo, hi) = (a.0.min(b.0), a.0.max(b.0));
                corners
                    .range((lo, a.1)..=(hi, a.1))
                    .filter(|c| c.1 == a.1)
                    .copied()
                    .collect()
            } else if a.0 == b.0 {
                let (lo, hi) = (a.1.min(b.1), a.1.max(b.1));
                corners.range((a.0, lo)..=(a.0, hi)).copied().collect()
            } else {
                vec![a.min(b), a.max(b)]
            };
            for pair in on.windows(2) {
                pieces.insert((pair[0], pair[1]));
            }
        }
    }
    let mut degree: BTreeMap<(i64, i64), usize> = BTreeMap::new();
    for (a, b) in pieces {
        *degree.entry(a).or_default() += 1;
        *degree.entry(b).or_default() += 1;
    }
    degree
        .into_iter()
        .filter(|&(_, d)| d >= 3)
        .map(|((x, y), _)| Point {
            x: x as f64 / 100.0,
            y: y as f64 / 100.0,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    #[test]
    fn children_below_share_a_trunk_and_enter_their_tops() {
        let parent = Rect::new(100.0, 0.0, 100.0, 40.0);
        let kids = [
            (Rect::new(0.0, 100.0, 80.0, 40.0), None),
            (Rect::new(110.0, 100.0, 80.0, 40.0), None),
            (Rect::new(220.0, 120.0, 80.0, 40.0), None),
        ];
        let got = routes(parent, Side::Bottom, &kids);
        let lines: Vec<Vec<Point>> = got.iter().map(|r| r.clone().unwrap().1).collect();
        // The bus halfway to the nearest child; the middle child straight below.
        assert_eq!(
            lines,
            vec![
                vec![
                    p(150.0, 40.0),
                    p(150.0, 70.0),
                    p(40.0, 70.0),
                    p(40.0, 100.0)
                ],
                vec![p(150.0, 40.0), p(150.0, 100.0)],
                vec![
                    p(150.0, 40.0),
                    p(150.0, 70.0),
                    p(260.0, 70.0),
                    p(260.0, 120.0)
                ],
            ]
        );
        let dots = junctions(lines.iter().map(Vec::as_slice));
        assert_eq!(dots, vec![p(150.0, 70.0)]);
    }

    #[test]
    fn stacked_leaves_hang_off_a_spine_and_enter_the_side_facing_it() {
        let parent = Rect::new(100.0, 0.0, 100.0, 40.0);
        let kids = [
            (Rect::new(60.0, 100.0, 80.0, 30.0), Some(Side::Right)),
            (Rect::new(160.0, 100.0, 80.0, 30.0), Some(Side::Left)),
            (Rect::new(60.0, 150.0, 80.0, 30.0), Some(Side::Right)),
        ];
        let got = routes(parent, Side::Bottom, &kids);
        let lines: Vec<Vec<Point>> = got.iter().map(|r| r.clone().unwrap().1).collect();
        assert_eq!(
            lines[0],
            vec![p(150.0, 40.0), p(150.0, 115.0), p(140.0, 115.0)]
        );
        assert_eq!(
            lines[1],
            vec![p(150.0, 40.0), p(150.0, 115.0), p(160.0, 115.0)]
        );
        assert_eq!(
            lines[2],
            vec![p(150.0, 40.0), p(150.0, 165.0), p(140.0, 165.0)]
        );
        let dots = junctions(lines.iter().map(Vec::as_slice));
        assert_eq!(dots, vec![p(150.0, 115.0)], "the last leaf is a corner");
    }

    #[test]
    fn a_target_not_past_the_side_is_left_off_the_bus() {
        let parent = Rect::new(100.0, 0.0, 100.0, 40.0);
        let got = routes(
            parent,
            Side::Bottom,
            &[(Rect::new(300.0, 0.0, 50.0, 40.0), None)],
        );
        assert_eq!(got, vec![None]);
    }
}
