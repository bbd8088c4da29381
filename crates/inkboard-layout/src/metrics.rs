//! Measures of a drawing's quality, used by the tests and the benchmark to compare
//! layouts (ours, other crates', Graphviz `dot`'s) on the same footing: edges as
//! polylines, crossings counted where two of them properly intersect, bends where
//! a path still turns after simplification, and the area of the nodes' bounding
//! box.

use inkboard_geom::{crossings as polyline_crossings, distance, orient};

use crate::{Point, Size};

/// How many times edges cross: proper intersections between the paths of two
/// edges that share no end node (edges meeting at a node are not crossings).
/// `ends` are the edges' (source, target) nodes, beside their `paths`.
pub fn crossings(paths: &[Vec<Point>], ends: &[(usize, usize)]) -> usize {
    let boxes: Vec<Option<(Point, Point)>> = paths.iter().map(|p| bbox(p)).collect();
    let mut count = 0;
    for i in 0..paths.len() {
        for j in i + 1..paths.len() {
            let (a, b) = (ends[i], ends[j]);
            if a.0 == b.0 || a.0 == b.1 || a.1 == b.0 || a.1 == b.1 {
                continue;
            }
            let (Some(bi), Some(bj)) = (boxes[i], boxes[j]) else {
                continue;
            };
            if bi.1.x < bj.0.x || bj.1.x < bi.0.x || bi.1.y < bj.0.y || bj.1.y < bi.0.y {
                continue;
            }
            count += polyline_crossings(&paths[i], &paths[j]);
        }
    }
    count
}

/// The bends of all paths: the corners left after Douglas–Peucker simplification
/// with `tolerance` (so a gently curved spline counts as straight, and a path
/// through dummy points on one line has no bend).
pub fn bends(paths: &[Vec<Point>], tolerance: f64) -> usize {
    paths
        .iter()
        .map(|p| simplify(p, tolerance).len().saturating_sub(2))
        .sum()
}

/// The area of the bounding box of the nodes.
pub fn area(nodes: &[Point], sizes: &[Size]) -> f64 {
    let (w, h) = extent(nodes, sizes);
    w * h
}

/// The width and height of the bounding box of the nodes.
pub fn extent(nodes: &[Point], sizes: &[Size]) -> (f64, f64) {
    let mut b = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (p, s) in nodes.iter().zip(sizes) {
        b = (
            b.0.min(p.x),
            b.1.min(p.y),
            b.2.max(p.x + s.w),
            b.3.max(p.y + s.h),
        );
    }
    if nodes.is_empty() {
        return (0.0, 0.0);
    }
    (b.2 - b.0, b.3 - b.1)
}

/// The pairs of nodes whose boxes overlap (touching is fine).
pub fn overlaps(nodes: &[Point], sizes: &[Size]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    order.sort_by(|&a, &b| nodes[a].x.total_cmp(&nodes[b].x));
    let mut out = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            if nodes[j].x >= nodes[i].x + sizes[i].w {
                break;
            }
            let ys = nodes[i].y < nodes[j].y + sizes[j].h && nodes[j].y < nodes[i].y + sizes[i].h;
            if ys && sizes[i].w > 0.0 && sizes[j].w > 0.0 {
                out.push((i.min(j), i.max(j)));
            }
        }
    }
    out.sort_unstable();
    out
}

fn bbox(p: &[Point]) -> Option<(Point, Point)> {
    let first = p.first()?;
    let mut lo = *first;
    let mut hi = *first;
    for q in p {
        lo = Point {
            x: lo.x.min(q.x),
            y: lo.y.min(q.y),
        };
        hi = Point {
            x: hi.x.max(q.x),
            y: hi.y.max(q.y),
        };
    }
    Some((lo, hi))
}

fn simplify(p: &[Point], tolerance: f64) -> Vec<Point> {
    if p.len() < 3 {
        return p.to_vec();
    }
    let (a, b) = (p[0], p[p.len() - 1]);
    let len = distance(b, a);
    let dist = |q: Point| {
        if len < 1e-12 {
            distance(q, a)
        } else {
            orient(a, b, q).abs() / len
        }
    };
    let (mut far, mut at) = (0.0, 0);
    for (i, &q) in p.iter().enumerate().take(p.len() - 1).skip(1) {
        let d = dist(q);
        if d > far {
            far = d;
            at = i;
        }
    }
    if far <= tolerance {
        return vec![a, b];
    }
    let mut left = simplify(&p[..=at], tolerance);
    left.pop();
    left.extend(simplify(&p[at..], tolerance));
    left
}
