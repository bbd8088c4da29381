//! The boxes an end label (a role name or a cardinality) may take: beside the
//! drawn line, close to the end it belongs to, on either side of it, never on
//! it. They start next to the end and step away from it along the line up to
//! [`REACH`] label heights, in two rows: one just off the line, and one a little
//! further out that clears an arrowhead's wings, so a label may sit right against
//! its shape beside an arrowhead rather than past it. Judging ([`super::ground`])
//! then rules out the boxes over the end's shape, the arrowhead, this line's
//! other legs and everything else on the page, as for any label.

use inkboard_core::{Point, Rect};
use inkboard_geom::{distance, length};

use super::candidates::{Candidate, GAP};
use super::Wanted;
use crate::scene::LabelEnd;

/// How far along the line an end label's near edge may be from its end, in
/// label heights: further, it would read as the middle's label.
const REACH: f64 = 1.5;
/// The nearest an end label's near edge comes to its end, along the line, in px
/// (the room kept from the end's shape is judged exactly).
const FIRST: f64 = 2.0;
/// Steps between candidates along the line, in px.
const STEP: f64 = 3.0;
/// How much further off the line the outer row sits than the inner one, in px:
/// enough to clear an arrowhead's wings.
const WINGS: f64 = 5.0;
/// What the outer row costs over the inner one, in px along the line: close to
/// the line reads as the line's, unless an arrowhead is in the way.
const OUTER: f64 = 4.0;
/// What the less usual side costs (below a horizontal line, left of a vertical
/// one), in px along the line.
const OTHER_SIDE: f64 = 3.0;

/// The candidates of end label `w` (whose track is its connector's drawn line,
/// from start to end) beside `end` of its line, cheapest first: a box nearer the
/// end costs less.
pub(super) fn candidates(w: &Wanted, end: LabelEnd) -> Vec<Candidate> {
    let mut line: Vec<Point> = w.track.to_vec();
    if end == LabelEnd::End {
        line.reverse();
    }
    line.dedup_by(|a, b| distance(*a, *b) < 1e-9);
    let (wd, ht) = w.size;
    if line.len() < 2 {
        // A line of no length: above and right of its point.
        let c = line.first().copied().unwrap_or_default();
        return vec![Candidate {
            rect: Rect::new(c.x + GAP, c.y - GAP - ht, wd, ht),
            cost: 0.0,
            host: None,
            bad: 0.0,
            covers: 0,
        }];
    }
    let mut out = Vec::new();
    let total = length(&line);
    let steps = (REACH * ht / STEP).ceil() as usize;
    for k in 0..=steps {
        // A line shorter than the reach takes boxes along all of it.
        let s = (FIRST + STEP * k as f64).min(total);
        let (a, b, p) = at(&line, s);
        // Along the piece, away from the end, and across it.
        let len = distance(a, b);
        let u = Point::new((b.x - a.x) / len, (b.y - a.y) / len);
        let n = Point::new(-u.y, u.x);
        let ext = (u.x.abs() * wd + u.y.abs() * ht) / 2.0;
        let across = (n.x.abs() * wd + n.y.abs() * ht) / 2.0;
        let on_line = Point::new(p.x + u.x * ext, p.y + u.y * ext);
        for (extra, off) in [(0.0, GAP), (OUTER, GAP + WINGS)] {
            for sign in [1.0, -1.0] {
                let side = Point::new(n.x * sign, n.y * sign);
                // Above a horizontal line and right of a vertical one read first.
                let usual = side.y < -0.5 || side.x > 0.5;
                let c = Point::new(
                    on_line.x + side.x * (off + across),
                    on_line.y + side.y * (off + across),
                );
                out.push(Candidate {
                    rect: Rect::new(c.x - wd / 2.0, c.y - ht / 2.0, wd, ht),
                    cost: s + extra + if usual { 0.0 } else { OTHER_SIDE },
                    host: Some((a, b)),
                    bad: 0.0,
                    covers: 0,
                });
            }
        }
        if s >= total {
            break;
        }
    }
    // Cheapest first; equal costs keep their order, so the page comes out the same.
    out.sort_by(|x, y| x.cost.total_cmp(&y.cost));
    out
}

/// The piece of `line` (of two points or more, none repeated) that the point
/// `s` px along it from its first point lies on, as its two ends in the line's
/// order, and that point; past the line's end, its last piece and last point.
fn at(line: &[Point], s: f64) -> (Point, Point, Point) {
    let mut walked = 0.0;
    for w in line.windows(2) {
        let len = distance(w[0], w[1]);
        if walked + len >= s {
            let t = (s - walked) / len;
            let p = Point::new(
                w[0].x + (w[1].x - w[0].x) * t,
                w[0].y + (w[1].y - w[0].y) * t,
            );
            return (w[0], w[1], p);
        }
        walked += len;
    }
    let n = line.len();
    (line[n - 2], line[n - 1], line[n - 1])
}
