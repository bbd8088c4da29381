//! The abstract frame the algorithms work in: "along" a layer (the cross axis) and
//! "deep" across layers (the axis edges run on). [`Frame`] maps node sizes into it
//! and the result back onto the page for a [`Direction`], so that each algorithm is
//! written once, for one direction.

use crate::cluster::Pad;
use crate::{Direction, Graph, Layout, Padding, Point, Rect, Size};

/// Node sizes in the abstract frame: `a` along the layer, `d` across layers.
pub(crate) struct Boxes {
    pub a: Vec<f64>,
    pub d: Vec<f64>,
}

impl Boxes {
    pub fn of(graph: &Graph, frame: Frame) -> Boxes {
        let (a, d) = graph
            .nodes
            .iter()
            .map(|s| {
                if frame.transposed() {
                    (s.h, s.w)
                } else {
                    (s.w, s.h)
                }
            })
            .unzip();
        Boxes { a, d }
    }

    pub fn len(&self) -> usize {
        self.a.len()
    }
}

/// What an algorithm produces, in the abstract frame: each node's corner nearest
/// the origin as (along, deep), each input edge's path as (along, deep) points,
/// and each cluster's box as (along, deep) from and to.
pub(crate) struct Placed {
    pub at: Vec<(f64, f64)>,
    pub paths: Vec<Vec<(f64, f64)>>,
    pub boxes: Vec<[f64; 4]>,
}

impl Placed {
    /// Nodes at `at`, every edge a straight path from centre to centre.
    pub fn straight(at: Vec<(f64, f64)>, boxes: &Boxes, edges: &[(usize, usize)]) -> Placed {
        let centre = |n: usize| {
            let (x, y) = at[n];
            (x + boxes.a[n] / 2.0, y + boxes.d[n] / 2.0)
        };
        let paths = edges
            .iter()
            .map(|&(s, t)| vec![centre(s), centre(t)])
            .collect();
        Placed {
            at,
            paths,
            boxes: Vec::new(),
        }
    }
}

/// How thick each band (a layer, row or column) is: as thick as the thickest of
/// the `sizes` whose band `band_of` names.
pub(crate) fn thickest(band_of: &[usize], sizes: &[f64]) -> Vec<f64> {
    let bands = band_of.iter().max().map_or(0, |m| m + 1);
    let mut thick = vec![0.0f64; bands];
    for (&b, &s) in band_of.iter().zip(sizes) {
        thick[b] = thick[b].max(s);
    }
    thick
}

/// Where each band starts when bands `thick` thick follow one another `gap`
/// apart from 0.
pub(crate) fn starts(thick: &[f64], gap: f64) -> Vec<f64> {
    starts_with_gaps(thick, &vec![gap; thick.len()])
}

/// Where each band starts when bands `thick` thick follow one another from 0,
/// each `gaps` (one per band) from the next.
pub(crate) fn starts_with_gaps(thick: &[f64], gaps: &[f64]) -> Vec<f64> {
    let mut at = 0.0;
    thick
        .iter()
        .zip(gaps)
        .map(|(t, g)| {
            let here = at;
            at += t + g;
            here
        })
        .collect()
}

/// The mapping between the abstract frame and the page for one direction.
#[derive(Clone, Copy)]
pub(crate) struct Frame(Direction);

impl Frame {
    pub fn new(direction: Direction) -> Self {
        Frame(direction)
    }

    /// A size as (along, deep).
    pub fn along_deep(self, s: Size) -> (f64, f64) {
        if self.transposed() {
            (s.h, s.w)
        } else {
            (s.w, s.h)
        }
    }

    /// Page padding in the abstract frame: going up (left), the far side across
    /// the layers is the page's top (left).
    pub fn pad(self, p: &Padding) -> Pad {
        let (a0, a1, d0, d1) = match self.0 {
            Direction::Down => (p.left, p.right, p.top, p.bottom),
            Direction::Up => (p.left, p.right, p.bottom, p.top),
            Direction::Right => (p.top, p.bottom, p.left, p.right),
            Direction::Left => (p.top, p.bottom, p.right, p.left),
        };
        Pad { a0, a1, d0, d1 }
    }

    /// True when layers run along the page's y axis (edges go right or left).
    fn transposed(self) -> bool {
        matches!(self.0, Direction::Right | Direction::Left)
    }

    /// The page layout: normalised so that the drawing starts at (0, 0), then
    /// turned and mirrored for the direction.
    pub fn to_page(self, graph: &Graph, placed: Placed) -> Layout {
        let boxes = Boxes::of(graph, self);
        let (mut a0, mut a1, mut d0, mut d1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for (n, &(a, d)) in placed.at.iter().enumerate() {
            a0 = a0.min(a);
            d0 = d0.min(d);
            a1 = a1.max(a + boxes.a[n]);
            d1 = d1.max(d + boxes.d[n]);
        }
        for b in &placed.boxes {
            a0 = a0.min(b[0]);
            d0 = d0.min(b[1]);
            a1 = a1.max(b[2]);
            d1 = d1.max(b[3]);
        }
        for &(a, d) in placed.paths.iter().flatten() {
            a0 = a0.min(a);
            d0 = d0.min(d);
            a1 = a1.max(a);
            d1 = d1.max(d);
        }
        if placed.at.is_empty() {
            return Layout::default();
        }
        let (along, deep) = (a1 - a0, d1 - d0);
        // A point of the abstract frame on the page; `size` is the extent of the
        // thing whose near corner it is (zero for path points), which mirroring
        // must take into account.
        let map = |(a, d): (f64, f64), size: (f64, f64)| {
            let (a, d) = (a - a0, d - d0);
            match self.0 {
                Direction::Down => Point { x: a, y: d },
                Direction::Up => Point {
                    x: a,
                    y: deep - d - size.1,
                },
                Direction::Right => Point { x: d, y: a },
                Direction::Left => Point {
                    x: deep - d - size.1,
                    y: a,
                },
            }
        };
        let nodes = placed
            .at
            .iter()
            .enumerate()
            .map(|(n, &p)| map(p, (boxes.a[n], boxes.d[n])))
            .collect();
        let edges = placed
            .paths
            .iter()
            .map(|path| path.iter().map(|&p| map(p, (0.0, 0.0))).collect())
            .collect();
        let transposed = self.transposed();
        let clusters = placed
            .boxes
            .iter()
            .map(|b| {
                let size = (b[2] - b[0], b[3] - b[1]);
                let p = map((b[0], b[1]), size);
                let (w, h) = if transposed { (size.1, size.0) } else { size };
                Rect {
                    x: p.x,
                    y: p.y,
                    w,
                    h,
                }
            })
            .collect();
        let (width, height) = if transposed {
            (deep, along)
        } else {
            (along, deep)
        };
        Layout {
            nodes,
            edges,
            width,
            height,
            clusters,
        }
    }
}
