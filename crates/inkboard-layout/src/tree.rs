//! The tidy tree (after Reingold and Tilford): every subtree is laid out on its
//! own, siblings are pushed together until their contours are `spacing` apart at
//! every level, and each parent is centred over its first and last child. Levels
//! are layers as in the layered layout, each as thick as its thickest node.
//!
//! In the org-chart style a parent with many children that are all leaves has
//! them stacked in two columns either side of its trunk, so a wide level of
//! leaves becomes a compact block below its parent.
//!
//! A graph that is not a forest is laid out along a spanning forest: cycles are
//! broken as for the layered layout, a node's level is its longest path from a
//! source (so every edge of an acyclic graph still runs with the direction), and
//! its parent is its first predecessor on the level above. Other edges are drawn
//! but do not shape the tree.

use std::collections::VecDeque;

use crate::acyclic;
use crate::frame::{starts_with_gaps, thickest, Boxes, Placed};
use crate::normal::Normal;

/// A subtree's outline: for each level from its root down, the leftmost and
/// rightmost extent, all plus `shift`, relative to the root's centre.
struct Contour {
    levels: VecDeque<(f64, f64)>,
    shift: f64,
}

/// A parent with at least this many children, all leaves, has them stacked in
/// the org-chart style: set side by side they would make the level too wide.
const STACK_FROM: usize = 4;

/// The room kept between a label and the siblings beside it, on each side.
const LABEL_MARGIN: f64 = 8.0;

/// Lays out the tidy tree; `org`: in the org-chart style, where a parent whose
/// children are all leaves, and many, has them stacked in two columns either
/// side of its trunk ([`STACK_FROM`]) rather than set side by side.
///
/// `labels` (each edge's, along and deep; zero for none) make room as
/// [`crate::layout_labelled`] says: the gap below a level is the layer spacing
/// plus the deepest label of the edges crossing it, and a child is set apart
/// from its siblings as if it were as wide as the label of the line into it
/// (where that is wider), so that labels side by side do not meet.
pub(crate) fn layout(
    boxes: &Boxes,
    edges: &[(usize, usize)],
    labels: &[(f64, f64)],
    spacing: (f64, f64),
    org: bool,
) -> Placed {
    let n = boxes.len();
    let Forest {
        level,
        parent,
        children,
        roots,
        preorder,
    } = forest(n, edges);
    let gap = spacing.0;
    // Each node's width for its siblings (its label's, where wider), and the
    // deepest label crossing below each level.
    let mut wide: Vec<f64> = boxes.a.clone();
    let mut label_deep: Vec<f64> = Vec::new();
    for (&(s, t), &(la, ld)) in edges.iter().zip(labels) {
        if la <= 0.0 || s >= n || t >= n {
            continue;
        }
        let child = match (parent[t] == s, parent[s] == t) {
            (true, _) => Some(t),
            (_, true) => Some(s),
            _ => None,
        };
        if let Some(c) = child {
            wide[c] = wide[c].max(la + 2.0 * LABEL_MARGIN);
        }
        if level[s].abs_diff(level[t]) == 1 {
            let above = level[s].min(level[t]);
            if label_deep.len() <= above {
                label_deep.resize(above + 1, 0.0);
            }
            label_deep[above] = label_deep[above].max(ld);
        }
    }
    let mut contour: Vec<Option<Contour>> = (0..n).map(|_| None).collect();
    let mut rel = vec![0.0f64; n];
    // How far into its level a stacked leaf starts (the others are centred in it).
    let mut row_at: Vec<Option<f64>> = vec![None; n];
    for &v in preorder.iter().rev() {
        let kids = &children[v];
        if org && kids.len() >= STACK_FROM && kids.iter().all(|&c| children[c].is_empty()) {
            let (acc, rows) = stack(kids, boxes, gap, &mut rel);
            for (&c, r) in kids.iter().zip(rows) {
                row_at[c] = Some(r);
                contour[c] = None;
            }
            let mut acc = acc;
            let half = wide[v] / 2.0;
            acc.levels.push_front((-half, half));
            contour[v] = Some(acc);
            continue;
        }
        let subtrees: Vec<Contour> = children[v]
            .iter()
            .map(|&c| contour[c].take().unwrap_or_else(|| leaf(wide[c])))
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
        let half = wide[v] / 2.0;
        acc.levels.push_front((-half - acc.shift, half - acc.shift));
        contour[v] = Some(acc);
    }
    let trees: Vec<Contour> = roots
        .iter()
        .map(|&r| contour[r].take().unwrap_or_else(|| leaf(wide[r])))
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
    // Levels stacked, each as thick as its thickest node or stack of leaves.
    let reach: Vec<f64> = (0..n)
        .map(|v| row_at[v].unwrap_or(0.0) + boxes.d[v])
        .collect();
    let thick = thickest(&level, &reach);
    let gaps: Vec<f64> = (0..thick.len())
        .map(|l| spacing.1 + label_deep.get(l).copied().unwrap_or(0.0))
        .collect();
    let start = starts_with_gaps(&thick, &gaps);
    let at = (0..n)
        .map(|v| {
            let deep = match row_at[v] {
                Some(row) => start[level[v]] + row,
                None => start[level[v]] + (thick[level[v]] - boxes.d[v]) / 2.0,
            };
            (centre[v] - boxes.a[v] / 2.0, deep)
        })
        .collect();
    Placed::straight(at, boxes, edges)
}

/// A spanning forest of a graph: each node's level (its longest path from a
/// source once cycles are broken), its parent (its first predecessor on the level
/// above) and children, the roots, and every node in preorder (parents before
/// children, roots and siblings in the order given). Shared by the tidy tree and
/// the mind map.
pub(crate) struct Forest {
    pub level: Vec<usize>,
    pub parent: Vec<usize>,
    pub children: Vec<Vec<usize>>,
    pub roots: Vec<usize>,
    pub preorder: Vec<usize>,
}

pub(crate) fn forest(n: usize, edges: &[(usize, usize)]) -> Forest {
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
    Forest {
        level,
        parent,
        children,
        roots,
        preorder,
    }
}

/// Stacks the leaves `kids` of one parent in two columns, `gap` apart with the
/// parent's trunk running between them: the first, third, … on the near side,
/// right-aligned to the trunk, the others on the far side, left-aligned to it,
/// row after row `gap / 2` apart. Sets each leaf's centre relative to the
/// parent's in `rel`, and returns the stack's outline (one level: the level
/// below the parent is made as thick as the stack) and each leaf's row offset.
fn stack(kids: &[usize], boxes: &Boxes, gap: f64, rel: &mut [f64]) -> (Contour, Vec<f64>) {
    let (mut near, mut far) = (0.0f64, 0.0f64);
    let mut rows = Vec::with_capacity(kids.len());
    let mut row = 0.0;
    for pair in kids.chunks(2) {
        let mut tall = 0.0f64;
        for (k, &c) in pair.iter().enumerate() {
            let a = boxes.a[c];
            rel[c] = if k == 0 {
                near = near.max(a);
                -gap / 2.0 - a / 2.0
            } else {
                far = far.max(a);
                gap / 2.0 + a / 2.0
            };
            tall = tall.max(boxes.d[c]);
            rows.push(row);
        }
        row += tall + gap / 2.0;
    }
    let outline = Contour {
        levels: VecDeque::from([(-gap / 2.0 - near, gap / 2.0 + far)]),
        shift: 0.0,
    };
    (outline, rows)
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
    for mut c in it {
        let common = acc.levels.len().min(c.levels.len());
        let mut o = f64::MIN;
        for j in 0..common {
            let right = acc.levels[j].1 + acc.shift;
            let left = c.levels[j].0 + c.shift;
            o = o.max(right - left + gap);
        }
        // The new subtree's right side is the joint right side where it reaches;
        // below the deepest level so far, it is the whole outline. The
        // shallower outline is written into the deeper one, so each merge
        // costs the shallower depth and the whole tree linear time (copying
        // the deeper one each time made a comb of n nodes cost n²).
        if c.levels.len() > acc.levels.len() {
            c.shift += o;
            let to_c = acc.shift - c.shift;
            for (j, &(l, _)) in acc.levels.iter().enumerate() {
                c.levels[j].0 = l + to_c;
            }
            acc = c;
        } else {
            let to_acc = c.shift + o - acc.shift;
            for (j, &(_, r)) in c.levels.iter().enumerate() {
                acc.levels[j].1 = r + to_acc;
            }
        }
        offsets.push(o);
    }
    (acc, offsets)
}
