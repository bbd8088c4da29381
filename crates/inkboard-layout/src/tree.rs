//! The tidy tree (after Reingold and Tilford): every subtree is laid out on its
//! own, siblings are pushed together until their contours are `spacing` apart at
//! every level, and each parent is centred over its first and last child. Levels
//! are layers as in the layered layout, each as thick as its thickest node.
//!
//! A graph that is not a forest is laid out along a spanning forest: cycles are
//! broken as for the layered layout, a node's level is its longest path from a
//! source (so every edge of an acyclic graph still runs with the direction), and
//! its parent is its first predecessor on the level above. Other edges are drawn
//! but do not shape the tree.

use std::collections::VecDeque;

use crate::acyclic;
use crate::frame::{starts, thickest, Boxes, Placed};
use crate::normal::Normal;

/// A subtree's outline: for each level from its root down, the leftmost and
/// rightmost extent, all plus `shift`, relative to the root's centre.
struct Contour {
    levels: VecDeque<(f64, f64)>,
    shift: f64,
}

pub(crate) fn layout(boxes: &Boxes, edges: &[(usize, usize)], spacing: (f64, f64)) -> Placed {
    let n = boxes.len();
    let normal = Normal::new(n, edges);
    let flip = acyclic::reversed(n, &normal.edges);
    let dag: Vec<(usize, usize)> = normal
        .edges
        .iter()
        .zip(&flip)
        .map(|(&(s, t, _), &f)| if f { (t, s) } else { (s, t) })
        .collect();
    // Levels: the longest path from a source.
    let mut outs = vec![Vec::new(); n];
    let mut pending = vec![0usize; n];
    for &(s, t) in &dag {
        outs[s].push(t);
        pending[t] += 1;
    }
    let mut level = vec![0usize; n];
    let mut ready: Vec<usize> = (0..n).rev().filter(|&v| pending[v] == 0).collect();
    while let Some(v) = ready.pop() {
        for &t in &outs[v] {
            level[t] = level[t].max(level[v] + 1);
            pending[t] -= 1;
            if pending[t] == 0 {
                ready.push(t);
            }
        }
    }
    // The spanning forest.
    let mut parent = vec![usize::MAX; n];
    let mut children = vec![Vec::new(); n];
    for &(s, t) in &dag {
        if parent[t] == usize::MAX && level[s] + 1 == level[t] {
            parent[t] = s;
            children[s].push(t);
        }
    }
    let roots: Vec<usize> = (0..n).filter(|&v| parent[v] == usize::MAX).collect();
    // Children before parents.
    let mut preorder = Vec::with_capacity(n);
    let mut stack: Vec<usize> = roots.iter().rev().copied().collect();
    while let Some(v) = stack.pop() {
        preorder.push(v);
        stack.extend(children[v].iter().rev());
    }
    let gap = spacing.0;
    let mut contour: Vec<Option<Contour>> = (0..n).map(|_| None).collect();
    let mut rel = vec![0.0f64; n];
    for &v in preorder.iter().rev() {
        let subtrees: Vec<Contour> = children[v]
            .iter()
            .map(|&c| contour[c].take().unwrap_or_else(|| leaf(boxes.a[c])))
            .collect();
        let (mut acc, offsets) = pack(subtrees, gap);
        let mid = match (offsets.first(), offsets.last()) {
            (Some(a), Some(b)) => (a + b) / 2.0,
            _ => 0.0,
        };
        for (&c, o) in children[v].iter().zip(&offsets) {
            rel[c] = o - mid;
        }
        acc.shift -= mid;
        let half = boxes.a[v] / 2.0;
        acc.levels.push_front((-half - acc.shift, half - acc.shift));
        contour[v] = Some(acc);
    }
    let trees: Vec<Contour> = roots
        .iter()
        .map(|&r| contour[r].take().unwrap_or_else(|| leaf(boxes.a[r])))
        .collect();
    let (_, root_at) = pack(trees, gap);
    let mut centre = vec![0.0f64; n];
    for (&r, &o) in roots.iter().zip(&root_at) {
        centre[r] = o;
    }
    for &v in &preorder {
        if parent[v] != usize::MAX {
            centre[v] = centre[parent[v]] + rel[v];
        }
    }
    // Levels stacked.
    let thick = thickest(&level, &boxes.d);
    let start = starts(&thick, spacing.1);
    let at = (0..n)
        .map(|v| {
            (
                centre[v] - boxes.a[v] / 2.0,
                start[level[v]] + (thick[level[v]] - boxes.d[v]) / 2.0,
            )
        })
        .collect();
    Placed::straight(at, boxes, edges)
}

fn leaf(a: f64) -> Contour {
    Contour {
        levels: VecDeque::from([(-a / 2.0, a / 2.0)]),
        shift: 0.0,
    }
}

/// Sets subtrees side by side, left to right, each as close to the ones before
/// as their contours allow. Returns the joint contour (relative to the first
/// subtree's root) and each root's offset.
fn pack(subtrees: Vec<Contour>, gap: f64) -> (Contour, Vec<f64>) {
    let mut offsets = Vec::with_capacity(subtrees.len());
    let mut it = subtrees.into_iter();
    let Some(mut acc) = it.next() else {
        return (
            Contour {
                levels: VecDeque::new(),
                shift: 0.0,
            },
            offsets,
        );
    };
    offsets.push(0.0);
    for c in it {
        let common = acc.levels.len().min(c.levels.len());
        let mut o = f64::MIN;
        for j in 0..common {
            let right = acc.levels[j].1 + acc.shift;
            let left = c.levels[j].0 + c.shift;
            o = o.max(right - left + gap);
        }
        // The new subtree's right side is the joint right side where it reaches;
        // below the deepest level so far, it is the whole outline.
        let to_acc = c.shift + o - acc.shift;
        for (j, &(l, r)) in c.levels.iter().enumerate() {
            if j < acc.levels.len() {
                acc.levels[j].1 = r + to_acc;
            } else {
                acc.levels.push_back((l + to_acc, r + to_acc));
            }
        }
        offsets.push(o);
    }
    (acc, offsets)
}
