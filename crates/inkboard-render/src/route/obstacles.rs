//! What a page's connectors route around ([`Obstacles`]): the boxes of its shapes and
//! images and the walls of its frames, which of them each connector may cross, and
//! the tests of whether a simple leg or a moved route keeps clear of them.
//!
//! A frame's walls are crossed by the lines with one end inside it; and a lane's
//! (a frame bordering another frame, as the lanes of a swimlane do) also by the
//! lines between other lanes that pass it, so that a line from the first lane
//! to the third runs straight across the second instead of round every lane
//! (issue 32). The checker excuses the same lines (`check.rs`,
//! `between_lanes`).

use inkboard_core::{Geom, Kind, Object, Point, Rect};

use crate::route::ends::{grow, EndInfo};
use crate::route::orthogonal::CLEARANCE;

/// How far the legs of a simple L route keep from shapes they pass, for it to count
/// as clear.
const L_CLEARANCE: f64 = 8.0;

/// The obstacles of a page: the boxes of its shapes (frames aside) and images, and
/// the four sides of each frame as walls of no thickness.
pub(super) struct Obstacles {
    pub(super) rects: Vec<Rect>,
    /// The page object each came from.
    owner: Vec<usize>,
    /// For a wall, its frame's bounds.
    frame: Vec<Option<Rect>>,
    /// For a wall of a lane, the lane's neighbours (an index into `lanes`).
    lane: Vec<Option<usize>>,
    lanes: Vec<Lane>,
}

/// What makes a frame a lane that lines may cross: the frames it borders, and
/// the frames holding it (its pool).
struct Lane {
    borders: Vec<Rect>,
    pools: Vec<Rect>,
}

/// How near two frames' sides must be for them to border each other: the
/// checker's measure.
const BORDER: f64 = 2.0;

impl Obstacles {
    pub(super) fn new(objects: &[Object]) -> Self {
        let mut o = Obstacles {
            rects: Vec::new(),
            owner: Vec::new(),
            frame: Vec::new(),
            lane: Vec::new(),
            lanes: Vec::new(),
        };
        let lanes = lanes(objects);
        for (i, obj) in objects.iter().enumerate() {
            match &obj.kind {
                Kind::Shape(s) if s.geom == Geom::Frame => {
                    // A turned frame's walls are those of its box around it, as
                    // every other turned object is in the way of its box.
                    let b = obj.own_extent().unwrap_or(s.bounds);
                    let lane = lanes.get(&i).map(|l| {
                        o.lanes.push(Lane {
                            borders: l.0.clone(),
                            pools: l.1.clone(),
                        });
                        o.lanes.len() - 1
                    });
                    for wall in [
                        Rect::new(b.x, b.y, 0.0, b.h),
                        Rect::new(b.right(), b.y, 0.0, b.h),
                        Rect::new(b.x, b.y, b.w, 0.0),
                        Rect::new(b.x, b.bottom(), b.w, 0.0),
                    ] {
                        o.rects.push(wall);
                        o.owner.push(i);
                        o.frame.push(Some(b));
                        o.lane.push(lane);
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
        self.lane.push(None);
    }

    /// The boxes of shapes and images, walls left out.
    pub(super) fn solids(&self) -> impl Iterator<Item = Rect> + '_ {
        self.rects
            .iter()
            .zip(&self.frame)
            .filter(|(_, f)| f.is_none())
            .map(|(r, _)| *r)
    }

    /// The obstacles a connector between `a` and `b` may cross (see the module
    /// documentation), ascending.
    pub(super) fn lifted(&self, a: &EndInfo, b: &EndInfo) -> Vec<usize> {
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
                        let holds = |f: &Rect, e: &EndInfo| {
                            let p = e.anchor();
                            f.x < p.x && p.x < f.right() && f.y < p.y && p.y < f.bottom()
                        };
                        let inside = |e: &EndInfo| holds(&f, e);
                        // A lane between the lanes of the ends: one it borders
                        // holds an end, or a pool holding it holds both.
                        let between = || {
                            self.lane[k].is_some_and(|l| {
                                let l = &self.lanes[l];
                                !inside(a)
                                    && !inside(b)
                                    && (l.borders.iter().any(|g| holds(g, a) || holds(g, b))
                                        || l.pools.iter().any(|p| holds(p, a) && holds(p, b)))
                            })
                        };
                        inside(a) != inside(b)
                            || (!a.shape.is_point() && r.overlaps(&a.shape.bounds))
                            || (!b.shape.is_point() && r.overlaps(&b.shape.bounds))
                            || between()
                    }
                    None => under(r, a) || under(r, b),
                }
            })
            .collect()
    }
}

/// The frames of `objects` that border another frame (by object index), each
/// with the frames it borders and those holding it. Found by a sweep along x,
/// so that frames far apart are never compared.
fn lanes(objects: &[Object]) -> std::collections::HashMap<usize, (Vec<Rect>, Vec<Rect>)> {
    let mut frames: Vec<(usize, Rect)> = objects
        .iter()
        .enumerate()
        .filter_map(|(i, o)| match &o.kind {
            Kind::Shape(s) if s.geom == Geom::Frame => {
                Some((i, o.own_extent().unwrap_or(s.bounds)))
            }
            _ => None,
        })
        .collect();
    frames.sort_by(|p, q| p.1.x.total_cmp(&q.1.x).then(p.0.cmp(&q.0)));
    let mut out: std::collections::HashMap<usize, (Vec<Rect>, Vec<Rect>)> =
        std::collections::HashMap::new();
    for (k, &(i, f)) in frames.iter().enumerate() {
        for &(j, g) in &frames[k + 1..] {
            if g.x > f.right() + BORDER {
                break;
            }
            if g.grown(BORDER).overlaps(&f) && !g.overlaps(&f) {
                out.entry(i).or_default().0.push(g);
                out.entry(j).or_default().0.push(f);
            }
        }
    }
    for (&i, (_, pools)) in out.iter_mut() {
        let Some(&(_, f)) = frames.iter().find(|p| p.0 == i) else {
            continue;
        };
        pools.extend(
            frames
                .iter()
                .filter(|&&(j, g)| j != i && g.contains(&f))
                .map(|p| p.1),
        );
    }
    out
}

/// Whether the axis-parallel segment p–q runs through one of the boxes `solids`, or
/// passes closer to one than [`L_CLEARANCE`] (a line grazing a shape reads as
/// touching it). Boxes under either end (the ends themselves, a shape they sit on)
/// do not count: every route would cross them.
pub(super) fn blocked(solids: &[Rect], a: Rect, b: Rect, p: Point, q: Point) -> bool {
    let Some(seg) = Rect::around([p, q]) else {
        return false;
    };
    let under = |o: &Rect, end: &Rect| o.overlaps(end) || o.contains(end);
    solids
        .iter()
        .any(|o| seg.overlaps(&o.grown(L_CLEARANCE)) && !under(o, &a) && !under(o, &b))
}

/// Whether a route keeps clear of the obstacles not lifted for it, its first leg of
/// its start's own shape and its last leg of its end's, and has no leg turned
/// back on itself.
pub(super) fn clear(
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
            let inside = r.grown(CLEARANCE - 1e-6).overlaps(&seg);
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
