//! Connector labels: how big each label is, and where on its route it sits.
//!
//! A label is a box centred on its route. [`Labels::place`] tries positions along
//! the whole route (every leg of a polyline, the middle half of a curve), keeping
//! clear of the route's ends and arrowheads, and takes the best one whose box
//! overlaps no shape and no label placed before it: the one hiding the least length
//! of other connectors, then the one nearest the preferred spot (the middle of the
//! longest leg, or of the curve). When every position is taken, the label goes to
//! the preferred spot, moved along its leg off earlier labels where it can.
//!
//! Shapes, other routes and placed labels are looked up through [`Buckets`], so a
//! page with many labels stays fast.

use inkboard_core::{Connector, Point, Rect};
use inkboard_geom::{clipped_length, distance, length, point_along};

use crate::route::buckets::Buckets;
use crate::style;
use crate::text;

/// Widest a connector label gets before it wraps.
pub(crate) const LABEL_MAX_WIDTH: f32 = 220.0;
/// Room between a label's text and the edge of its background, across and down.
pub(crate) const LABEL_PAD: (f64, f64) = (6.0, 2.0);

/// The font size of a connector's label.
pub(crate) fn label_font_size(c: &Connector) -> f32 {
    c.style
        .font_size
        .map_or(style::LABEL_FONT_SIZE, |s| s as f32)
}

/// The size of a connector's label background, if it shows a label.
pub(crate) fn label_size(c: &Connector) -> Option<(f64, f64)> {
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

/// Room kept free at a route's ends for arrowheads.
const END_ROOM: f64 = 20.0;
/// How much a pixel of hidden connector counts against a position, compared with a
/// pixel of distance from the preferred spot.
const HIDDEN_WEIGHT: f64 = 40.0;
/// What a position where the label runs past its leg's ends costs, in pixels of
/// distance from the preferred spot.
const CRAMPED: f64 = 600.0;
/// Most positions tried per label.
const MAX_TRIES: usize = 48;

/// The page as labels see it.
pub(crate) struct Labels {
    shapes: Vec<Rect>,
    shape_cells: Buckets,
    /// Every connector's line, as segments tagged with their connector.
    segs: Vec<(usize, Point, Point)>,
    seg_cells: Buckets,
    placed: Vec<Rect>,
    placed_cells: Buckets,
    found: Vec<u32>,
}

impl Labels {
    /// The shapes labels keep off, and the lines of the connectors (by connector).
    pub fn new(shapes: Vec<Rect>, lines: &[Vec<Point>]) -> Self {
        let points = lines.iter().flatten().copied();
        let area = shapes
            .iter()
            .copied()
            .chain(Rect::around(points))
            .reduce(|a, b| a.union(&b))
            .unwrap_or(Rect::new(0.0, 0.0, 1.0, 1.0));
        let mut shape_cells = Buckets::new(area, shapes.len());
        for (i, r) in shapes.iter().enumerate() {
            shape_cells.insert(*r, i as u32);
        }
        let segs: Vec<(usize, Point, Point)> = lines
            .iter()
            .enumerate()
            .flat_map(|(c, l)| l.windows(2).map(move |w| (c, w[0], w[1])))
            .collect();
        let mut seg_cells = Buckets::new(area, segs.len());
        for (i, (_, a, b)) in segs.iter().enumerate() {
            if let Some(r) = Rect::around([*a, *b]) {
                seg_cells.insert(r, i as u32);
            }
        }
        Labels {
            shapes,
            shape_cells,
            segs,
            seg_cells,
            placed: Vec::new(),
            placed_cells: Buckets::new(area, lines.len()),
            found: Vec::new(),
        }
    }

    /// Places the label of size `(w, h)` of connector `conn` on `track` (its route's
    /// corners, or the middle of its curve) and remembers it for later labels.
    pub fn place(&mut self, conn: usize, track: &[Point], (w, h): (f64, f64)) -> Rect {
        let boxed = |s: f64| {
            let c = point_along(track, s);
            Rect::new(c.x - w / 2.0, c.y - h / 2.0, w, h)
        };
        let (preferred, candidates) = candidates(track, (w, h));
        // The cost of the label at `s`, unless it covers a shape or a label.
        let cost = |labels: &mut Self, s: f64, cramped: bool| -> Option<f64> {
            let r = boxed(s);
            if labels.hits_shape(&r) || labels.hits_label(&r) {
                return None;
            }
            Some(
                HIDDEN_WEIGHT * labels.hidden(conn, &r)
                    + (s - preferred).abs()
                    + if cramped { CRAMPED } else { 0.0 },
            )
        };
        // The best position on either side of the preferred spot...
        let mut best: [Option<(f64, &Candidate)>; 2] = [None, None];
        for c in &candidates {
            if let Some(v) = cost(self, c.s, c.cramped) {
                let side = &mut best[usize::from(c.s > preferred)];
                if side.is_none_or(|(b, _)| v < b - 1e-9) {
                    *side = Some((v, c));
                }
            }
        }
        // ...moved closer to it along its leg, as far as it stays clear (halving
        // the way there a few times), and the better of the two.
        let refined = best.into_iter().flatten().map(|(mut v, c)| {
            let (mut good, mut bad) = (c.s, preferred.clamp(c.lo, c.hi));
            for _ in 0..6 {
                if (bad - good).abs() < 1.0 {
                    break;
                }
                let mid = (good + bad) / 2.0;
                match cost(self, mid, c.cramped) {
                    Some(m) if m <= v => (good, v) = (mid, m),
                    _ => bad = mid,
                }
            }
            (v, good)
        });
        let r = match refined.fold(None, |b: Option<(f64, f64)>, x| match b {
            Some(b) if b.0 <= x.0 + 1e-9 => Some(b),
            _ => Some(x),
        }) {
            Some((_, s)) => boxed(s),
            None => self.fallback(track, (w, h)),
        };
        self.keep(r);
        r
    }

    /// Remembers a label placed by hand (`label_at`), so that later labels keep
    /// off it too.
    pub fn keep(&mut self, r: Rect) {
        self.placed_cells.insert(r, self.placed.len() as u32);
        self.placed.push(r);
    }

    fn hits_shape(&mut self, r: &Rect) -> bool {
        self.shape_cells.query(r, &mut self.found);
        self.found
            .iter()
            .any(|&i| self.shapes[i as usize].overlaps(r))
    }

    fn hits_label(&mut self, r: &Rect) -> bool {
        self.placed_cells.query(r, &mut self.found);
        self.found
            .iter()
            .any(|&i| self.placed[i as usize].overlaps(r))
    }

    /// The length of other connectors' lines inside `r`.
    fn hidden(&mut self, conn: usize, r: &Rect) -> f64 {
        self.seg_cells.query(r, &mut self.found);
        self.found
            .iter()
            .map(|&i| &self.segs[i as usize])
            .filter(|(c, _, _)| *c != conn)
            .map(|&(_, a, b)| clipped_length(a, b, r))
            .sum()
    }

    /// The preferred spot, or the nearest position along its leg that covers no
    /// label placed before, or the preferred spot again.
    fn fallback(&self, track: &[Point], (w, h): (f64, f64)) -> Rect {
        let (i, j) = preferred_leg(track);
        let leg = &track[i..=j];
        let boxed = |c: Point| Rect::new(c.x - w / 2.0, c.y - h / 2.0, w, h);
        let total = length(leg);
        let first = boxed(point_along(leg, total / 2.0));
        let free = |r: &Rect| !self.placed.iter().any(|p| p.overlaps(r));
        if free(&first) || leg.len() < 2 {
            return first;
        }
        let half_along = along_extent(leg[0], leg[leg.len() - 1], (w, h));
        let margin = half_along + 4.0;
        let step = (half_along / 2.0).max(4.0);
        let mut shift = step;
        while total / 2.0 + shift <= total - margin || total / 2.0 - shift >= margin {
            for s in [total / 2.0 + shift, total / 2.0 - shift] {
                if (margin..=total - margin).contains(&s) {
                    let r = boxed(point_along(leg, s));
                    if free(&r) {
                        return r;
                    }
                }
            }
            shift += step;
        }
        first
    }
}

/// True when every segment of `track` is horizontal or vertical.
fn is_orthogonal(track: &[Point]) -> bool {
    track
        .windows(2)
        .all(|w| (w[0].x - w[1].x).abs() < 1e-9 || (w[0].y - w[1].y).abs() < 1e-9)
}

/// The stretch a label prefers, as the indices of its first and last points: the
/// longest leg of a polyline (of legs equally long, within a pixel, the one nearest
/// the middle of the route), or the whole of any other track.
fn preferred_leg(track: &[Point]) -> (usize, usize) {
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

/// Half the extent along the direction a→b of a box of size `(w, h)`.
fn along_extent(a: Point, b: Point, (w, h): (f64, f64)) -> f64 {
    let d = distance(a, b);
    if d < 1e-9 {
        return w / 2.0;
    }
    ((b.x - a.x).abs() * w / 2.0 + (b.y - a.y).abs() * h / 2.0) / d
}

/// A position to try for a label.
struct Candidate {
    /// The distance along the track of the label's centre.
    s: f64,
    /// The stretch of the track (from, to) its leg leaves for the label's centre.
    lo: f64,
    hi: f64,
    /// The label runs past its leg's ends (the leg is too short for it).
    cramped: bool,
}

/// The positions to try on `track`, and the distance along the track of the
/// preferred spot.
fn candidates(track: &[Point], size: (f64, f64)) -> (f64, Vec<Candidate>) {
    let mut out = Vec::new();
    if track.len() < 2 {
        let one = Candidate {
            s: 0.0,
            lo: 0.0,
            hi: 0.0,
            cramped: false,
        };
        return (0.0, vec![one]);
    }
    // The preferred spot: the middle of the preferred leg.
    let (i, j) = preferred_leg(track);
    let preferred = length(&track[..=i]) + length(&track[i..=j]) / 2.0;
    // Legs: each segment of a polyline, or the whole of a curve's track.
    let legs: Vec<(usize, usize)> = if is_orthogonal(track) {
        (0..track.len() - 1).map(|i| (i, i + 1)).collect()
    } else {
        vec![(0, track.len() - 1)]
    };
    let per_leg = (MAX_TRIES / legs.len()).max(3);
    let mut s0 = 0.0;
    for &(i, j) in &legs {
        let part = &track[i..=j];
        let len = length(part);
        if len < 1e-9 {
            continue;
        }
        let ext = along_extent(part[0], part[part.len() - 1], size);
        let lo = ext + if i == 0 { END_ROOM } else { 0.0 };
        let hi = len - ext - if j == track.len() - 1 { END_ROOM } else { 0.0 };
        if lo > hi {
            // Too short for the label: its middle only, running past its ends.
            let mid = s0 + len / 2.0;
            out.push(Candidate {
                s: mid,
                lo: mid,
                hi: mid,
                cramped: true,
            });
        } else {
            let at = |s: f64| Candidate {
                s: s0 + s,
                lo: s0 + lo,
                hi: s0 + hi,
                cramped: false,
            };
            let step = (ext / 2.0).max(4.0);
            let n = (((hi - lo) / step).floor() as usize).min(per_leg - 1);
            for k in 0..=n {
                out.push(at(if n == 0 {
                    (lo + hi) / 2.0
                } else {
                    lo + (hi - lo) * k as f64 / n as f64
                }));
            }
            // The leg's middle too (as far as its ends leave room), where a label
            // reads best.
            out.push(at((len / 2.0).clamp(lo, hi)));
        }
        s0 += len;
    }
    (preferred, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    #[test]
    fn a_label_leaves_a_shape_in_the_middle_of_its_leg() {
        // A long horizontal route with a shape sitting on its middle (as when the
        // route's only straight leg passes under a wide shape).
        let shape = Rect::new(180.0, -15.0, 40.0, 30.0);
        let mut labels = Labels::new(vec![shape], &[vec![p(0.0, 0.0), p(400.0, 0.0)]]);
        let r = labels.place(0, &[p(0.0, 0.0), p(400.0, 0.0)], (60.0, 20.0));
        assert!(!r.overlaps(&shape), "{r:?}");
        // Nearest the middle that is clear.
        assert!((r.center().x - 200.0).abs() < 80.0, "{r:?}");
    }
}
