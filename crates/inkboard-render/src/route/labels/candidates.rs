//! The boxes a label may take along its route, each with what it costs before the
//! rest of the page is looked at: beside each straight piece (both sides, a small
//! gap off the line) and centred on it, at steps along its length, kept off the
//! route's ends and bends.
//!
//! A piece of a polyline is one of its legs. A curve's track (its middle half,
//! flattened) is one leg for boxes on the line, whose box spans several of its
//! flattened pieces, and each flattened piece takes boxes beside it at its middle.

use inkboard_core::{Point, Rect};
use inkboard_geom::{distance, length, point_along};

use super::Wanted;

/// Room between a label's box and the line it sits beside, in px.
pub(super) const GAP: f64 = 3.0;
/// Least room between a label's box and the route's end along the line, beyond
/// which the arrowheads and shapes (judged exactly) decide.
const END_ROOM: f64 = 8.0;
/// Least room between a box on the line and a bend, so the bend shows.
const BEND_ROOM: f64 = 6.0;
/// What sitting beside the line costs over sitting on it, in px of distance from
/// the preferred spot: on the line reads as the line's own label.
const BESIDE: f64 = 24.0;
/// What the less usual side costs (below a horizontal line, left of a vertical
/// one), in px.
const OTHER_SIDE: f64 = 6.0;
/// What each px of a box beside a leg reaching past the leg's bend costs.
const OVERHANG: f64 = 2.0;
/// Most candidates a label gets, and fewest on a page crowded with labels.
const MOST: usize = 64;
const FEWEST: usize = 12;
/// Candidates the page may judge in all before each label gets fewer.
const PAGE_CANDIDATES: usize = 48_000;

/// How many candidates each of `labels` labels gets.
pub(super) fn per_label(labels: usize) -> usize {
    (PAGE_CANDIDATES / labels.max(1)).clamp(FEWEST, MOST)
}

/// A box a label may take.
#[derive(Clone, Debug)]
pub(crate) struct Candidate {
    pub rect: Rect,
    /// Its cost when nothing on the page is in its way (lower is better).
    pub cost: f64,
    /// The stretch of line it labels (the piece it sits on or beside): lines
    /// along it are hidden by, or run beside, the label by design. `None` on a
    /// curve, which the box on it covers wherever it bends under it.
    pub host: Option<(Point, Point)>,
    /// How much of the page it covers that it must not (set by `Ground::judge`):
    /// zero when nothing is in its way.
    pub bad: f64,
    /// How many things it covers: shapes, arrowheads, labels placed by hand and
    /// connectors' lines (each line once), as the checker would count them.
    pub covers: u32,
}

/// The candidates of label `w`, about `most` of them (more when its route has
/// many legs, never over [`MOST_TIMES`] × `most`), cheapest first.
pub(super) fn candidates(w: &Wanted, most: usize) -> Vec<Candidate> {
    let track = w.track;
    let (wd, ht) = w.size;
    if track.len() < 2 || length(track) < 1e-9 {
        let c = track.first().copied().unwrap_or_default();
        return vec![Candidate {
            rect: Rect::new(c.x - wd / 2.0, c.y - ht / 2.0, wd, ht),
            cost: 0.0,
            host: None,
            bad: 0.0,
            covers: 0,
        }];
    }
    let orthogonal = is_orthogonal(track);
    let (i, j) = preferred_leg(track);
    let preferred = length(&track[..=i]) + length(&track[i..=j]) / 2.0;
    let pieces = track.len() - 1;
    // Half the budget for each kind, spread over the pieces.
    let per_piece = (most / 2 / pieces).max(2);
    let mut out = Vec::new();
    let mut s0 = 0.0;
    for k in 0..pieces {
        let (a, b) = (track[k], track[k + 1]);
        let len = distance(a, b);
        if len < 1e-9 {
            continue;
        }
        let room = |at_start: bool| {
            let end = if at_start { k == 0 } else { k + 1 == pieces };
            match (end, w.ends) {
                (true, true) => END_ROOM,
                (true, false) => 0.0,
                (false, _) if orthogonal => BEND_ROOM,
                _ => 0.0,
            }
        };
        let (r0, r1) = (room(true), room(false));
        let u = Point::new((b.x - a.x) / len, (b.y - a.y) / len);
        let ext = (u.x.abs() * wd + u.y.abs() * ht) / 2.0;
        let steps = |lo: f64, hi: f64, n: usize| -> Vec<f64> {
            if hi - lo < 1.0 || n < 2 {
                return vec![((lo + hi) / 2.0).clamp(lo.min(hi), hi.max(lo))];
            }
            let step = (ext / 2.0).max(6.0);
            let n = (((hi - lo) / step).floor() as usize + 1).clamp(2, n);
            let mut at: Vec<f64> = (0..n)
                .map(|m| lo + (hi - lo) * m as f64 / (n - 1) as f64)
                .collect();
            // The middle too, where a label reads best.
            at.push((len / 2.0).clamp(lo, hi));
            at
        };
        // On the line: never over a bend or an end; a self-loop's never.
        if w.looped.is_none() && orthogonal {
            let (lo, hi) = (r0 + ext, len - r1 - ext);
            if lo <= hi {
                for s in steps(lo, hi, per_piece / 2 + 1) {
                    let c = point_along(&[a, b], s);
                    out.push(Candidate {
                        rect: Rect::new(c.x - wd / 2.0, c.y - ht / 2.0, wd, ht),
                        cost: (s0 + s - preferred).abs(),
                        host: Some((a, b)),
                        bad: 0.0,
                        covers: 0,
                    });
                }
            }
        }
        // Beside it, on both sides: a box may reach past a bend (around its outer
        // side, if nothing is there), never past an end.
        let n = Point::new(-u.y, u.x);
        let off = GAP + (n.x.abs() * wd + n.y.abs() * ht) / 2.0;
        let reach = |end_room: f64| if end_room == END_ROOM { 0.0 } else { ext };
        let (lo, hi) = (r0 + ext - reach(r0), len - r1 - ext + reach(r1));
        let along = if orthogonal || pieces == 1 {
            steps(lo.min(len / 2.0), hi.max(len / 2.0), per_piece / 2 + 1)
        } else {
            vec![len / 2.0]
        };
        for sign in [1.0, -1.0] {
            let side = Point::new(n.x * sign, n.y * sign);
            if let Some(shape) = w.looped {
                // Outside the loop: away from its shape.
                let mid = point_along(&[a, b], len / 2.0);
                let c = shape.center();
                if (mid.x - c.x) * side.x + (mid.y - c.y) * side.y <= 0.0 {
                    continue;
                }
            }
            // Above a horizontal line and right of a vertical one read first.
            let usual = side.y < -0.5 || side.x > 0.5;
            for &s in &along {
                let p = point_along(&[a, b], s);
                let c = Point::new(p.x + side.x * off, p.y + side.y * off);
                let overhang = (ext - s).max(0.0) + (s + ext - len).max(0.0);
                out.push(Candidate {
                    rect: Rect::new(c.x - wd / 2.0, c.y - ht / 2.0, wd, ht),
                    cost: (s0 + s - preferred).abs()
                        + BESIDE
                        + if usual { 0.0 } else { OTHER_SIDE }
                        + OVERHANG * overhang,
                    host: Some((a, b)),
                    bad: 0.0,
                    covers: 0,
                });
            }
        }
        s0 += len;
    }
    // A curve or a slanted line: boxes on it along its whole track, as one leg.
    if !orthogonal && w.looped.is_none() {
        let total = length(track);
        let ext = wd.max(ht) / 2.0 + if w.ends { END_ROOM } else { 0.0 };
        if ext > total / 2.0 {
            // Too short to label on the line without covering an end.
            out.sort_by(|x, y| x.cost.total_cmp(&y.cost));
            return out;
        }
        let (lo, hi) = (ext, total - ext);
        let n = (most / 2).max(2);
        for m in 0..n {
            let s = lo + (hi - lo) * m as f64 / (n - 1) as f64;
            let c = point_along(track, s);
            out.push(Candidate {
                rect: Rect::new(c.x - wd / 2.0, c.y - ht / 2.0, wd, ht),
                cost: (s - preferred).abs(),
                host: None,
                bad: 0.0,
                covers: 0,
            });
        }
    }
    // Cheapest first; equal costs keep their order, so the page comes out the same.
    out.sort_by(|x, y| x.cost.total_cmp(&y.cost));
    // A route of many legs still takes at least two boxes on each: past a few
    // times the budget (a line through a thousand waypoints), only the cheapest
    // go on to be judged against the page.
    out.truncate(MOST_TIMES * most);
    out
}

/// How many times its budget of candidates a label may take at most.
const MOST_TIMES: usize = 4;

/// True when every segment of `track` is horizontal or vertical.
pub(super) fn is_orthogonal(track: &[Point]) -> bool {
    track
        .windows(2)
        .all(|w| (w[0].x - w[1].x).abs() < 1e-9 || (w[0].y - w[1].y).abs() < 1e-9)
}

/// The stretch a label prefers, as the indices of its first and last points: the
/// longest leg of a polyline (of legs equally long, within a pixel, the one nearest
/// the middle of the route), or the whole of any other track.
pub(super) fn preferred_leg(track: &[Point]) -> (usize, usize) {
    let segs = track.len().saturating_sub(1);
    if segs == 0 || !is_orthogonal(track) {
        return (0, segs);
    }
    let longest = track
        .windows(2)
        .map(|w| distance(w[0], w[1]))
        .fold(0.0, f64::max);
    let middle = (segs - 1) as f64 / 2.0;
    let best = (0..segs)
        .filter(|&i| distance(track[i], track[i + 1]) >= longest - 1.0)
        .min_by(|&i, &j| {
            (i as f64 - middle)
                .abs()
                .total_cmp(&(j as f64 - middle).abs())
        })
        .unwrap_or(0);
    (best, best + 1)
}
