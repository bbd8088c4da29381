//! The page as labels see it ([`Ground`]): its shapes, its connectors' lines and
//! arrowheads, and the labels placed by hand, each looked up through [`Buckets`]
//! so that judging a candidate stays cheap on a large page.
//!
//! A candidate is out ([`Candidate::bad`] above zero) when its box covers a shape
//! (one holding an end of its connector aside: a lane or a background is where
//! the label belongs), an arrowhead, a label placed by hand, another connector's
//! line, or its own line off the piece it labels. The rules are a little stricter
//! than the checker's (which lets a line graze a label's rounded corner), so a
//! label the placement finds clear is one the checker finds clear.

use inkboard_core::{Point, Rect};
use inkboard_geom::{clip, clipped_length, distance, distance_to_segment};

use super::candidates::Candidate;
use crate::route::buckets::Buckets;

/// Room kept between a label and a shape, in px.
const SHAPE_ROOM: f64 = 2.0;
/// Room kept between a label and an arrowhead or a label placed by hand, in px.
const LABEL_ROOM: f64 = 1.0;
/// How much of a line may lie in a box before it counts, in px (touching at an
/// edge does not).
const GRAZE: f64 = 0.5;
/// How close to a box another line runs before it counts against the box, in px:
/// a label right against a line it does not belong to reads as that line's.
const NEAR: f64 = 5.0;
/// What each px of line running that close costs, in px of distance from the
/// preferred spot.
const NEAR_WEIGHT: f64 = 2.0;
/// How far a piece of line may be from the stretch a label labels and still lie
/// along it (a trunk shared with other connectors), in px.
const ALONG: f64 = 1.5;

/// The page as labels see it.
pub(crate) struct Ground {
    shapes: Vec<Rect>,
    shape_cells: Buckets,
    /// Each connector's end shapes' boxes: a shape holding one is no obstacle to
    /// that connector's label.
    ends: Vec<[Option<Rect>; 2]>,
    /// Every connector's line, as segments tagged with their connector.
    segs: Vec<(usize, Point, Point)>,
    seg_cells: Buckets,
    /// Arrowheads and labels placed by hand: boxes no label may cover.
    solid: Vec<Rect>,
    solid_cells: Buckets,
    found: Vec<u32>,
}

impl Ground {
    /// The page of `shapes` (its shapes' and images' boxes) and of the connectors
    /// with `lines`, arrowhead boxes `heads` and end boxes `ends` (each by
    /// connector, in the same order), with the labels placed by hand `fixed`.
    pub fn new(
        shapes: Vec<Rect>,
        lines: &[Vec<Point>],
        heads: &[Vec<Rect>],
        ends: Vec<[Option<Rect>; 2]>,
        fixed: &[Rect],
    ) -> Self {
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
        let solid: Vec<Rect> = heads.iter().flatten().chain(fixed).copied().collect();
        let mut solid_cells = Buckets::new(area, solid.len());
        for (i, r) in solid.iter().enumerate() {
            solid_cells.insert(*r, i as u32);
        }
        Ground {
            shapes,
            shape_cells,
            ends,
            segs,
            seg_cells,
            solid,
            solid_cells,
            found: Vec::new(),
        }
    }

    /// Sets how much of the page candidate `c` of connector `conn`'s label
    /// covers that it must not ([`Candidate::bad`]), and adds to its cost for the
    /// lines running close by.
    pub fn judge(&mut self, conn: usize, c: &mut Candidate) {
        let r = c.rect;
        let (mut bad, mut covers) = (0.0, 0);
        let mut struck: Vec<usize> = Vec::new();
        let near_shapes = r.grown(SHAPE_ROOM);
        self.shape_cells.query(&near_shapes, &mut self.found);
        let ends = self.ends.get(conn).copied().unwrap_or_default();
        for &k in &self.found {
            let s = &self.shapes[k as usize];
            let holds = ends.iter().flatten().any(|e| s.contains(e) && e != s);
            let area = covered(&near_shapes, s);
            if !holds && area > 0.0 {
                bad += area;
                covers += 1;
            }
        }
        let near_solid = r.grown(LABEL_ROOM);
        self.solid_cells.query(&near_solid, &mut self.found);
        for &k in &self.found {
            let area = covered(&near_solid, &self.solid[k as usize]);
            if area > 0.0 {
                bad += area;
                covers += 1;
            }
        }
        let inner = r.grown(-GAZE_INSET);
        let near = r.grown(NEAR);
        self.seg_cells.query(&near, &mut self.found);
        let mut close = 0.0;
        for &k in &self.found {
            let (j, a, b) = self.segs[k as usize];
            if j == conn && c.host.is_none() {
                continue;
            }
            let along = |(p, q): (Point, Point)| {
                c.host.is_some_and(|(h0, h1)| {
                    distance_to_segment(p, h0, h1) <= ALONG
                        && distance_to_segment(q, h0, h1) <= ALONG
                })
            };
            match clip(a, b, &inner) {
                Some(piece) if distance(piece.0, piece.1) > GRAZE && !along(piece) => {
                    bad += distance(piece.0, piece.1);
                    if !struck.contains(&j) {
                        struck.push(j);
                    }
                }
                _ if j != conn => {
                    if let Some(piece) = clip(a, b, &near) {
                        if !along(piece) {
                            close += clipped_length(a, b, &near) - clipped_length(a, b, &r);
                        }
                    }
                }
                _ => {}
            }
        }
        c.bad = bad;
        c.covers = covers + struck.len() as u32;
        c.cost += NEAR_WEIGHT * close.max(0.0);
    }
}

/// How far inside a box a line is looked for: a line along the box's very edge
/// (a label set beside its line by exactly its gap) is not in it.
const GAZE_INSET: f64 = 0.25;

/// The area of `r` that `s` covers, at least 1 when they overlap at all.
fn covered(r: &Rect, s: &Rect) -> f64 {
    if !r.overlaps(s) {
        return 0.0;
    }
    let w = r.right().min(s.right()) - r.x.max(s.x);
    let h = r.bottom().min(s.bottom()) - r.y.max(s.y);
    (w * h).max(1.0)
}
