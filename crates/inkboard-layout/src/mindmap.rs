//! The mind map: each tree's root in the middle, its branches split between the
//! two sides so that both are about as tall, and every node's children stacked
//! beside it, further out, centred on it. The graph is read as a spanning forest
//! as for the tidy tree ([`crate::tree::forest`]).
//!
//! In the abstract frame branches grow "deep" both ways from the root and
//! children are stacked "along"; going right (or left) that is the usual mind map
//! with branches to the left and right, going down (or up) branches grow above
//! and below the root.
//!
//! Every subtree gets a band of its own along the stacking axis, as wide as its
//! stacked leaves, and its root is centred in that band. Bands of siblings do not
//! overlap, and an edge from a parent to a child runs within the parent's band,
//! so no two nodes overlap and no two tree edges cross (a curve with its tangents
//! along the branch stays between its ends as well). The price is some height: a
//! subtree does not tuck under the overhang of its neighbour, as the tidy tree's
//! contours let it, which keeps the columns of a mind map easy to read.
//!
//! Limitations: the split between the sides keeps the children's order (a prefix
//! on the positive side, the rest on the other), so a very large first branch can
//! leave the sides uneven; several trees are set one after another along the
//! branch axis.

use crate::frame::{Boxes, Placed};
use crate::tree::{forest, Forest};

pub(crate) fn layout(boxes: &Boxes, edges: &[(usize, usize)], spacing: (f64, f64)) -> Placed {
    let n = boxes.len();
    let Forest {
        children,
        roots,
        preorder,
        ..
    } = forest(n, edges);
    let (gap, layer_gap) = spacing;
    // Each subtree's extent along the stacking axis: its children's bands stacked,
    // or the node itself when it is wider.
    let mut ext = vec![0.0f64; n];
    for &v in preorder.iter().rev() {
        let kids = &children[v];
        ext[v] = boxes.a[v].max(stacked(kids, &ext, gap));
    }
    let mut at = vec![(0.0f64, 0.0f64); n];
    // The deep end of the trees set so far: the next tree starts past it.
    let mut next_deep = 0.0f64;
    for &root in &roots {
        let kids = &children[root];
        let split = balanced_split(kids, &ext, gap);
        let (pos, neg) = kids.split_at(split);
        // Subtrees are placed by a stack of (node, band start, near deep edge, side).
        let mut stack: Vec<(usize, f64, f64, f64)> = Vec::new();
        let half = boxes.d[root] / 2.0;
        for (side, group) in [(1.0, pos), (-1.0, neg)] {
            let mut start = -stacked(group, &ext, gap) / 2.0;
            for &c in group {
                stack.push((c, start, side * (half + layer_gap), side));
                start += ext[c] + gap;
            }
        }
        let mut placed = vec![root];
        at[root] = (-boxes.a[root] / 2.0, -half);
        while let Some((v, band, near, side)) = stack.pop() {
            placed.push(v);
            let centre = band + ext[v] / 2.0;
            let deep = if side > 0.0 { near } else { near - boxes.d[v] };
            at[v] = (centre - boxes.a[v] / 2.0, deep);
            let far = if side > 0.0 { deep + boxes.d[v] } else { deep };
            let mut start = centre - stacked(&children[v], &ext, gap) / 2.0;
            for &c in &children[v] {
                stack.push((c, start, far + side * layer_gap, side));
                start += ext[c] + gap;
            }
        }
        // Set this tree after the ones before it along the branch axis.
        let low = placed.iter().map(|&v| at[v].1).fold(f64::MAX, f64::min);
        let high = placed
            .iter()
            .map(|&v| at[v].1 + boxes.d[v])
            .fold(f64::MIN, f64::max);
        let shift = next_deep - low;
        for &v in &placed {
            at[v].1 += shift;
        }
        next_deep += high - low + layer_gap;
    }
    Placed::straight(at, boxes, edges)
}

/// How much room `kids`' bands take stacked `gap` apart.
fn stacked(kids: &[usize], ext: &[f64], gap: f64) -> f64 {
    if kids.is_empty() {
        return 0.0;
    }
    kids.iter().map(|&c| ext[c]).sum::<f64>() + gap * (kids.len() - 1) as f64
}

/// How many of a root's `kids` (a prefix, so their order is kept) go on the
/// positive side so that the two sides are as nearly the same height as they
/// can be; on a tie, the positive side takes more.
fn balanced_split(kids: &[usize], ext: &[f64], gap: f64) -> usize {
    if kids.len() < 2 {
        return kids.len();
    }
    // Running sums from both ends, so that a star of n branches costs n, not
    // n² (each side summed afresh for each split).
    let mut before = vec![0.0f64; kids.len() + 1];
    for (k, &c) in kids.iter().enumerate() {
        before[k + 1] = before[k] + ext[c];
    }
    let mut after = vec![0.0f64; kids.len() + 1];
    for (k, &c) in kids.iter().enumerate().rev() {
        after[k] = after[k + 1] + ext[c];
    }
    let side = |sum: f64, count: usize| sum + gap * (count - 1) as f64;
    (1..kids.len())
        .map(|k| {
            let (p, q) = (side(before[k], k), side(after[k], kids.len() - k));
            ((p - q).abs(), k)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))
        .map_or(kids.len(), |(_, k)| k)
}

#[cfg(test)]
mod tests {
    use crate::{layout, Algorithm, Direction, Graph, Options, Size};

    fn opts() -> Options {
        Options {
            algorithm: Algorithm::Mindmap,
            direction: Direction::Right,
            ..Options::default()
        }
    }

    #[test]
    fn the_root_sits_between_two_balanced_sides() {
        // A root with four branches of one, two, one and two leaves.
        let mut edges = vec![(0, 1), (0, 2), (0, 3), (0, 4)];
        edges.extend([(1, 5), (2, 6), (2, 7), (3, 8), (4, 9), (4, 10)]);
        let graph = Graph {
            nodes: vec![Size::new(100.0, 40.0); 11],
            edges,
        };
        let out = layout(&graph, &opts()).unwrap();
        let root = out.nodes[0];
        let (right, left): (Vec<usize>, Vec<usize>) =
            (1..5).partition(|&b| out.nodes[b].x > root.x);
        assert_eq!((right.len(), left.len()), (2, 2), "{out:?}");
        // Leaves lie further out than their branch, on the same side.
        for (b, leaf) in [(1, 5), (2, 6), (3, 8), (4, 9)] {
            let side = (out.nodes[b].x - root.x).signum();
            assert!((out.nodes[leaf].x - out.nodes[b].x).signum() == side);
        }
    }
}
