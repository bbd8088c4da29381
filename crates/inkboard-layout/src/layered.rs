//! The layered (Sugiyama) layout, phase by phase, on each connected component:
//!
//! 1. cycles broken by reversing a minimal set of edges ([`crate::acyclic`]);
//! 2. layers assigned by network simplex (the total edge length, hence the number
//!    of dummy nodes, is least), then nodes whose in- and out-weight are equal
//!    moved to the least crowded layer they may take, as `dot` does;
//! 3. edges longer than one layer split by dummy nodes;
//! 4. crossings reduced ([`crate::order`]); with clusters, in a component of
//!    at most `BOTH_WAYS` nodes, the search is run again with each pair of
//!    sibling clusters that share a layer started the other way round, and of
//!    the orders it finds the one with the fewest crossings, then the smallest
//!    drawing, is kept;
//! 5. positions within layers by network simplex on `dot`'s auxiliary graph: each
//!    edge pulls its ends into line, long edges (dummy to dummy) eight times as
//!    hard, so that they run straight, while neighbours keep their spacing;
//! 6. layers stacked, each as thick as its thickest node, nodes centred in them,
//!    the gap between two layers widened where the edges crossing it need more
//!    tracks side by side than the layer spacing holds.
//!
//! Components are then set side by side along the layers, in the order of their
//! first nodes.
//!
//! Clusters (boxes around groups of nodes, [`crate::Cluster`]) are threaded
//! through every phase as `dot` does with its clusters, never as one big node:
//! a cluster's nodes are ranked with the rest (each cluster also pulled short
//! across the layers, and no node balanced to a freer layer, as in `dot`), a
//! dummy belongs to the innermost cluster holding both
//! ends of its edge, and a layer the cluster spans without a node of its own
//! gets an empty filler, so that the ordering ([`crate::order`]) keeps the
//! cluster's nodes together in every layer it spans, and sibling clusters in one
//! order in all of them ([`Nest::agree`]). Each cluster then has two
//! more variables in the coordinate problem, its left and right walls, which
//! its nodes and the clusters inside it keep their padding from and its
//! neighbours their spacing; and the gaps between layers widen for the walls
//! and titles that begin or end there (`Component::stack_clustered`).
//!
//! Cost: every phase is near-linear in the places of the layers (nodes, and a
//! dummy in each layer an edge passes through), or stops at a budget counted in
//! work and keeps the valid answer it has (the two network simplex searches,
//! [`crate::simplex`], and the crossing sweeps, [`crate::order`]); a component
//! needing more than [`MAX_PLACES`] places is refused before the work, and the
//! caller's stop check ([`crate::layout_until`]) is asked between the phases
//! and inside the searches.
//!
//! Limitations: a long edge between two nodes outside a cluster may pass the
//! cluster on one side in one layer and on the other in the next, crossing its
//! box (`dot` charges such crossings in its ordering; this ordering does not);
//! the router draws the connector, so it still ends on its shapes.

use crate::cluster::{Nest, Tree};
use crate::frame::{thickest, Boxes, Placed};
use crate::normal::Normal;
use crate::order::Layers;
use crate::watch::Watch;
use crate::{acyclic, simplex, LayoutError};

/// Lays out every component and packs them side by side.
pub(crate) fn layout(
    boxes: &Boxes,
    edges: &[(usize, usize)],
    labels: &[(f64, f64)],
    tree: &Tree,
    spacing: (f64, f64),
    start: crate::Start,
    watch: &Watch,
) -> Result<Placed, LayoutError> {
    let n = boxes.len();
    let normal = Normal::new(n, edges);
    // The labels of the edges merged into one lie side by side on it.
    let mut merged_labels = vec![(0.0, 0.0); normal.edges.len()];
    for (m, &label) in normal.edge_of.iter().zip(labels) {
        if let Some(m) = *m {
            merged_labels[m] = beside(merged_labels[m], label);
        }
    }
    let mut at = vec![(0.0, 0.0); n];
    let mut merged_paths: Vec<Vec<(f64, f64)>> = vec![Vec::new(); normal.edges.len()];
    let mut boxes_out = vec![[0.0; 4]; tree.parent.len()];
    // Nodes of one outermost cluster lie in one component.
    let mut first_of = std::collections::HashMap::new();
    let glue: Vec<(usize, usize)> = (0..n)
        .filter_map(|v| {
            let top = tree.outermost(tree.of[v]?);
            Some((*first_of.entry(top).or_insert(v), v))
        })
        .collect();
    // Edges by component: the first node of each edge names its component.
    let comps = normal.components(n, &glue);
    let mut comp_of = vec![0; n];
    for (c, nodes) in comps.iter().enumerate() {
        for &v in nodes {
            comp_of[v] = c;
        }
    }
    let mut comp_edges: Vec<Vec<usize>> = vec![Vec::new(); comps.len()];
    for (e, &(s, _, _)) in normal.edges.iter().enumerate() {
        comp_edges[comp_of[s]].push(e);
    }
    let mut cursor = 0.0;
    for (nodes, edge_ids) in comps.iter().zip(&comp_edges) {
        if watch.stopped_now() {
            return Err(LayoutError::Stopped);
        }
        let mut comp = Component::new(nodes, edge_ids, &normal, boxes, tree, spacing, watch);
        comp.start = start;
        comp.labels = edge_ids.iter().map(|&e| merged_labels[e]).collect();
        let part = comp.layout()?;
        let shift = cursor - part.along.0;
        if let Some(nest) = &comp.nest {
            for (c, &g) in nest.global.iter().enumerate() {
                let b = part.boxes[c];
                boxes_out[g] = [b[0] + shift, b[1], b[2] + shift, b[3]];
            }
        }
        for (i, &v) in nodes.iter().enumerate() {
            at[v] = (part.at[i].0 + shift, part.at[i].1);
        }
        for (k, &e) in edge_ids.iter().enumerate() {
            merged_paths[e] = part.paths[k].iter().map(|&(a, d)| (a + shift, d)).collect();
        }
        cursor += part.along.1 - part.along.0 + spacing.0;
    }
    let mut placed = Placed::straight(at, boxes, edges);
    placed.boxes = boxes_out;
    for (i, m) in normal.edge_of.iter().enumerate() {
        if let Some(m) = m {
            placed.paths[i].clone_from(&merged_paths[*m]);
        }
    }
    Ok(placed)
}

/// The most places a component's layers may hold: its nodes, a dummy in each
/// layer an edge passes through, and (counted generously) each layer each
/// cluster spans. Every phase after the layers are known costs about this many
/// (a few hundred bytes each, and the budgets of [`crate::order`] and
/// [`crate::simplex`] grow with it up to their caps): a graph needing more is
/// refused before they run ([`LayoutError::TooManyPlaces`]).
pub const MAX_PLACES: usize = 500_000;

/// The largest component laid out both ways of breaking its cycles (twice the
/// work); larger ones take the depth-first way.
const BOTH_WAYS: usize = 150;

/// The room one line takes in the gap between layers: the distance the renderer
/// keeps between parallel lines, and between a line and the shapes it passes.
const TRACK: f64 = 12.0;

/// How wide a gap between layers must be for lines crossing it along `spans`
/// (from, to, how many lines) to run on tracks of their own, [`TRACK`] apart and
/// [`TRACK`] from the layers: one track for the most spans that overlap at one
/// place. Spans that touch share a turn, so they count as overlapping.
pub fn channel_width(spans: impl IntoIterator<Item = (f64, f64, i64)>) -> f64 {
    let mut ends: Vec<(f64, i64)> = spans
        .into_iter()
        .flat_map(|(a, b, w)| [(a.min(b), -w), (a.max(b), w)])
        .collect();
    // Opening before closing at one place.
    ends.sort_by(|p, q| p.0.total_cmp(&q.0).then(p.1.cmp(&q.1)));
    let (mut open, mut most) = (0i64, 0i64);
    for (_, d) in ends {
        open -= d;
        most = most.max(open);
    }
    TRACK * (most + 1) as f64
}

/// The room kept between a label and the lines and labels beside it along its
/// layer, on each side.
const LABEL_MARGIN: f64 = 8.0;

/// Two labels (along, deep) set side by side along the layer: the first, a
/// margin, the second; a label of no size is none.
fn beside(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    match (a.0 > 0.0, b.0 > 0.0) {
        (true, true) => (a.0 + LABEL_MARGIN + b.0, a.1.max(b.1)),
        (true, false) => a,
        _ => b,
    }
}

/// How much a cluster's pull on each of its nodes weighs, when layers are
/// assigned, against an edge's 1: more, so that a cluster spans as few layers
/// as it can, as `dot` ranks each cluster on its own first and then places it
/// whole (a node may then wait a layer for its cluster rather than stand in
/// the layers of another).
const CLUSTER_PULL: i64 = 4;

/// What a unit of a cluster's width costs when coordinates are assigned (an
/// edge between two nodes pulling them into line costs 1 per unit).
const CLUSTER_WIDTH_WEIGHT: i64 = 1;

/// One connected component, renumbered from 0.
struct Component<'w> {
    /// Sizes along and across the layers.
    a: Vec<f64>,
    d: Vec<f64>,
    /// (source, target, weight) in local numbers.
    edges: Vec<(usize, usize, i64)>,
    /// The label of each edge, (along, deep); (0, 0) for none.
    labels: Vec<(f64, f64)>,
    spacing: (f64, f64),
    /// Its clusters, if any, in local numbers.
    nest: Option<Local>,
    /// Where its crossing reduction starts.
    start: crate::Start,
    watch: &'w Watch<'w>,
}

/// The clusters of a component, renumbered from 0.
struct Local {
    tree: Tree,
    /// The global number of each local cluster.
    global: Vec<usize>,
}

/// A component laid out: local corners, a path per edge, its extent along
/// the layers (dummies and boxes included), and its clusters' boxes.
struct Part {
    at: Vec<(f64, f64)>,
    paths: Vec<Vec<(f64, f64)>>,
    along: (f64, f64),
    boxes: Vec<[f64; 4]>,
}

impl<'w> Component<'w> {
    fn new(
        nodes: &[usize],
        edge_ids: &[usize],
        normal: &Normal,
        boxes: &Boxes,
        tree: &Tree,
        spacing: (f64, f64),
        watch: &'w Watch<'w>,
    ) -> Self {
        let mut local = std::collections::HashMap::new();
        for (i, &v) in nodes.iter().enumerate() {
            local.insert(v, i);
        }
        let edges = edge_ids
            .iter()
            .map(|&e| {
                let (s, t, w) = normal.edges[e];
                (local[&s], local[&t], w)
            })
            .collect();
        Component {
            a: nodes.iter().map(|&v| boxes.a[v]).collect(),
            d: nodes.iter().map(|&v| boxes.d[v]).collect(),
            edges,
            labels: Vec::new(),
            spacing,
            nest: Local::of(nodes, tree),
            start: crate::Start::Best,
            watch,
        }
    }

    fn layout(&self) -> Result<Part, LayoutError> {
        let k = self.a.len();
        if self.edges.is_empty() && self.nest.is_none() {
            return Ok(self.arrange(&[])?.1);
        }
        // 1. Cycles: of the two ways to break them (see `acyclic`), the one
        // whose drawing crosses less; on a tie, the depth-first one, which keeps
        // the path given first running forward.
        if k > BOTH_WAYS {
            return Ok(self.arrange(&acyclic::depth_first(k, &self.edges))?.1);
        }
        let (dfs, greedy) = acyclic::both(k, &self.edges);
        let first = self.arrange(&dfs)?;
        if greedy == dfs || self.watch.stopped_now() {
            return Ok(first.1);
        }
        // The other way may need too many places where the first did not.
        Ok(match self.arrange(&greedy) {
            Ok(second) if second.0 < first.0 => second.1,
            _ => first.1,
        })
    }

    /// The component laid out with the edges `flip` marks reversed, and the
    /// crossings of its layer order.
    fn arrange(&self, flip: &[bool]) -> Result<(i64, Part), LayoutError> {
        let k = self.a.len();
        if self.edges.is_empty() && self.nest.is_none() {
            let part = Part {
                at: vec![(0.0, 0.0); k],
                paths: Vec::new(),
                along: (0.0, self.a.first().copied().unwrap_or(0.0)),
                boxes: Vec::new(),
            };
            return Ok((0, part));
        }
        // Orient every edge forward, merging edges that now coincide.
        let mut dag: Vec<(usize, usize, i64)> = Vec::new();
        let mut dag_label: Vec<(f64, f64)> = Vec::new();
        let mut dag_index = std::collections::HashMap::new();
        let mut edge_dag = Vec::with_capacity(self.edges.len());
        for (e, &(s, t, w)) in self.edges.iter().enumerate() {
            let (s, t) = if flip[e] { (t, s) } else { (s, t) };
            let i = *dag_index.entry((s, t)).or_insert_with(|| {
                dag.push((s, t, 0));
                dag_label.push((0.0, 0.0));
                dag.len() - 1
            });
            dag[i].2 += w;
            let label = self.labels.get(e).copied().unwrap_or_default();
            dag_label[i] = beside(dag_label[i], label);
            edge_dag.push(i);
        }
        // 2. Layers. With labels, doubled: a layer of labels between every two
        // layers of nodes (see `layout_labelled`). Not with clusters: the
        // orders of sibling frames are chosen by their area at equal crossings
        // (below), and the layers of labels between them led that choice to
        // frames stepping sideways down the page (1.7 times `dot`'s area on
        // the sign-up flow of the clusters test) where they fold back without.
        let rank = self.rank(k, &dag);
        let step: i64 = if self.nest.is_none() && dag_label.iter().any(|l| l.0 > 0.0) {
            2
        } else {
            1
        };
        let rank: Vec<i64> = rank.iter().map(|&r| r * step).collect();
        let dummies: i64 = dag.iter().map(|&(s, t, _)| rank[t] - rank[s] - 1).sum();
        let places = k.saturating_add(dummies.max(0) as usize);
        if places > MAX_PLACES {
            return Err(LayoutError::TooManyPlaces(places));
        }
        if self.watch.stopped_now() {
            return Err(LayoutError::Stopped);
        }
        // 3. Dummies: chains of layer-graph nodes, one per DAG edge.
        let mut layer_of: Vec<usize> = rank.iter().map(|&r| r as usize).collect();
        let mut size: Vec<f64> = self.a.clone();
        let mut nest = self.nest.as_ref().map(|l| Nest {
            of: l.tree.of.clone(),
            parent: l.tree.parent.clone(),
        });
        let mut segments: Vec<(usize, usize, i64)> = Vec::new();
        let mut chains: Vec<Vec<usize>> = Vec::with_capacity(dag.len());
        // The deepest label in each layer of labels.
        let mut label_deep: Vec<(usize, f64)> = Vec::new();
        for (&(s, t, w), &label) in dag.iter().zip(&dag_label) {
            let mut chain = vec![s];
            // A dummy lies in the innermost cluster holding both ends.
            let owner = nest.as_ref().and_then(|n| n.common(n.of[s], n.of[t]));
            // The label's node: the dummy in the layer of labels nearest the
            // middle of the edge, as wide as the label and its margins.
            let middle = (rank[s] + rank[t]) / 2;
            let label_layer = (step == 2 && label.0 > 0.0).then_some(middle - (1 - middle % 2));
            for r in rank[s] + 1..rank[t] {
                layer_of.push(r as usize);
                if Some(r) == label_layer {
                    size.push(label.0 + 2.0 * LABEL_MARGIN);
                    label_deep.push((r as usize, label.1));
                } else {
                    size.push(0.0);
                }
                if let Some(n) = &mut nest {
                    n.of.push(owner);
                }
                chain.push(layer_of.len() - 1);
            }
            chain.push(t);
            for pair in chain.windows(2) {
                segments.push((pair[0], pair[1], w));
            }
            chains.push(chain);
        }
        let spans = match &mut nest {
            Some(n) => fill(n, &mut layer_of, &mut size)?,
            None => Vec::new(),
        };
        // 4. Order within layers.
        let mut layers = Layers::new(layer_of.clone(), &segments).starting(self.start);
        if let Some(n) = &nest {
            layers = layers.with_nest(n.clone());
        }
        let (mut crossings, order) = layers.order_counted(self.watch);
        if self.watch.stopped_now() {
            return Err(LayoutError::Stopped);
        }
        // 5. and 6., for one order: positions along the layers, layers stacked.
        let place = |order: &[Vec<usize>]| -> (f64, Part) {
            let (x, walls) = self.along(k, order, &size, &segments, nest.as_ref(), step);
            let mut thick = thickest(&layer_of[..k], &self.d);
            for &(r, deep) in &label_deep {
                thick[r] = thick[r].max(deep);
            }
            let gaps = self.gaps(&x, &layer_of, &segments, thick.len(), step);
            let (start, deep) = match &self.nest {
                Some(l) => self.stack_clustered(&thick, gaps, &l.tree, &spans),
                None => (crate::frame::starts_with_gaps(&thick, &gaps), Vec::new()),
            };
            let centre = |v: usize| (x[v], start[layer_of[v]] + thick[layer_of[v]] / 2.0);
            let at = (0..k)
                .map(|v| (x[v] - self.a[v] / 2.0, centre(v).1 - self.d[v] / 2.0))
                .collect();
            let paths = edge_dag
                .iter()
                .enumerate()
                .map(|(e, &i)| {
                    let mut p: Vec<(f64, f64)> = chains[i].iter().map(|&v| centre(v)).collect();
                    if flip[e] {
                        p.reverse();
                    }
                    p
                })
                .collect();
            let lo = (0..size.len())
                .map(|v| x[v] - size[v] / 2.0)
                .chain(walls.iter().map(|w| w.0))
                .fold(f64::MAX, f64::min);
            let hi = (0..size.len())
                .map(|v| x[v] + size[v] / 2.0)
                .chain(walls.iter().map(|w| w.1))
                .fold(f64::MIN, f64::max);
            let boxes: Vec<[f64; 4]> = walls
                .iter()
                .zip(&deep)
                .map(|(w, d)| [w.0, d.0, w.1, d.1])
                .collect();
            let top = start.first().copied().unwrap_or(0.0);
            let bottom = start
                .iter()
                .zip(&thick)
                .map(|(s, t)| s + t)
                .chain(boxes.iter().map(|b| b[3]))
                .fold(top, f64::max);
            let top = boxes.iter().map(|b| b[1]).fold(top, f64::min);
            let part = Part {
                at,
                paths,
                along: (lo, hi),
                boxes,
            };
            ((hi - lo) * (bottom - top), part)
        };
        let (mut area, mut part) = place(&order);
        // Sibling clusters that share layers often stand either way round at
        // the same crossings, and which way decides how wide the drawing is
        // (a chain of frames down a flowchart stairs sideways one way and folds
        // back under the first the other, as `dot` draws it): of the orders
        // found with each such pair turned, the one with the fewest crossings,
        // then the smallest area (by more than a rounding).
        if k <= BOTH_WAYS {
            for (c, other) in layers.turned_clusters(&order, self.watch) {
                if c > crossings {
                    continue;
                }
                let (a, p) = place(&other);
                if c < crossings || a < area * 0.99 {
                    (crossings, area, part) = (c, a, p);
                }
            }
        }
        Ok((crossings, part))
    }

    /// Where each layer starts when clusters need room: the gap after a layer
    /// widened for the walls (and titles) of the clusters that end there and
    /// begin in the next, nested ones adding up, and a cluster not yet as deep
    /// as its least size made deeper there. Also where each box begins and ends
    /// across the layers.
    fn stack_clustered(
        &self,
        thick: &[f64],
        mut gaps: Vec<f64>,
        tree: &Tree,
        spans: &[(usize, usize)],
    ) -> (Vec<f64>, Vec<(f64, f64)>) {
        let c_n = tree.parent.len();
        // The room from a cluster's wall to its first (last) layer: its own
        // padding and that of the clusters inside that begin (end) there too.
        let mut inner: Vec<usize> = (0..c_n).collect();
        inner.sort_by_key(|&c| std::cmp::Reverse(crate::cluster::depth(&tree.parent, c)));
        let mut lo: Vec<f64> = tree.pad.iter().map(|p| p.d0).collect();
        let mut hi: Vec<f64> = tree.pad.iter().map(|p| p.d1).collect();
        let (mut lo_in, mut hi_in) = (vec![0.0f64; c_n], vec![0.0f64; c_n]);
        for &c in &inner {
            lo[c] += lo_in[c];
            hi[c] += hi_in[c];
            if let Some(p) = tree.parent[c] {
                if spans[c].0 == spans[p].0 {
                    lo_in[p] = lo_in[p].max(lo[c]);
                }
                if spans[c].1 == spans[p].1 {
                    hi_in[p] = hi_in[p].max(hi[c]);
                }
            }
        }
        let layers = thick.len();
        let mut need_lo = vec![0.0f64; layers + 1];
        for c in 0..c_n {
            need_lo[spans[c].0] = need_lo[spans[c].0].max(lo[c]);
        }
        let mut start = vec![0.0; layers];
        let mut extra = vec![0.0f64; c_n];
        for r in 0..layers {
            if r > 0 {
                start[r] = start[r - 1] + thick[r - 1] + gaps[r - 1];
            }
            let mut need_hi = 0.0f64;
            // Inner clusters first: one made deeper makes the one around it
            // deeper too, if that ends here as well.
            for &c in inner.iter().filter(|&&c| spans[c].1 == r) {
                let top = start[spans[c].0] - lo[c];
                let natural = start[r] + thick[r] + hi[c] - top;
                extra[c] = (tree.min[c].1 - natural).max(0.0);
                need_hi = need_hi.max(hi[c] + extra[c]);
                if let Some(p) = tree.parent[c].filter(|&p| spans[p].1 == r) {
                    hi[p] = hi[p].max(tree.pad[p].d1 + hi[c] + extra[c]);
                }
            }
            let need = need_hi + need_lo[r + 1];
            if need > 0.0 {
                // Walls on both sides of the gap still leave a quarter of the
                // layer spacing between them for the edges that cross it (`dot`
                // too fits a cluster's margin and label into the rank spacing).
                gaps[r] = gaps[r].max(need + self.spacing.1 / 4.0);
            }
        }
        let deep = (0..c_n)
            .map(|c| {
                let (r0, r1) = spans[c];
                (start[r0] - lo[c], start[r1] + thick[r1] + hi[c] + extra[c])
            })
            .collect();
        (start, deep)
    }

    /// The gap after each layer: the layer spacing, or more where the edges
    /// between two layers need more tracks than it holds. An edge whose ends are
    /// not in line runs across the gap on a track of its own (the renderer keeps
    /// lines that share no node apart); the tracks needed are the most edge
    /// spans that overlap at one place along the layers.
    fn gaps(
        &self,
        x: &[f64],
        layer_of: &[usize],
        segs: &[(usize, usize, i64)],
        layers: usize,
        step: i64,
    ) -> Vec<f64> {
        let mut spans: Vec<Vec<(f64, f64, i64)>> = vec![Vec::new(); layers];
        for &(u, v, w) in segs {
            let (a, b) = (x[u].min(x[v]), x[u].max(x[v]));
            if b - a > 1.0 {
                spans[layer_of[u]].push((a, b, w));
            }
        }
        // With a layer of labels between two of nodes, each gap is half the
        // layer spacing, so that the two layers of nodes are as far apart as
        // without labels, plus the labels' depth.
        let spacing = self.spacing.1 / step as f64;
        spans
            .into_iter()
            .map(|ends| spacing.max(channel_width(ends)))
            .collect()
    }

    /// Layers by network simplex, from 0, then balanced.
    fn rank(&self, k: usize, dag: &[(usize, usize, i64)]) -> Vec<i64> {
        let mut cons: Vec<simplex::Edge> = dag
            .iter()
            .map(|&(s, t, w)| simplex::Edge {
                tail: s,
                head: t,
                minlen: 1,
                weight: w,
            })
            .collect();
        let mut total = k;
        if let Some(l) = &self.nest {
            // Each cluster has a top and a bottom node, every node in it lying
            // between them: the distance between the two, which the solver
            // keeps small, is how many layers the cluster spans.
            let c_n = l.tree.parent.len();
            let (top, bottom) = (|c: usize| k + 2 * c, |c: usize| k + 2 * c + 1);
            let mut pull = |tail: usize, head: usize| {
                cons.push(simplex::Edge {
                    tail,
                    head,
                    minlen: 0,
                    weight: CLUSTER_PULL,
                })
            };
            for v in 0..k {
                if let Some(c) = l.tree.of[v] {
                    pull(top(c), v);
                    pull(v, bottom(c));
                }
            }
            for c in 0..c_n {
                if let Some(p) = l.tree.parent[c] {
                    pull(top(p), top(c));
                    pull(bottom(c), bottom(p));
                }
            }
            total += 2 * c_n;
        }
        let mut rank = simplex::solve(total, &cons, None, self.watch).rank;
        rank.truncate(k);
        let min = rank.iter().copied().min().unwrap_or(0);
        rank.iter_mut().for_each(|r| *r -= min);
        // Balance: a node pulled equally both ways may sit on any layer between
        // its neighbours at no cost; the least crowded one keeps the drawing
        // narrow.
        let mut in_w = vec![0i64; k];
        let mut out_w = vec![0i64; k];
        let (mut ins, mut outs) = (vec![Vec::new(); k], vec![Vec::new(); k]);
        for &(s, t, w) in dag {
            out_w[s] += w;
            in_w[t] += w;
            outs[s].push(t);
            ins[t].push(s);
        }
        let layers = rank.iter().copied().max().unwrap_or(0) as usize + 1;
        let mut count = vec![0usize; layers];
        for &r in &rank {
            count[r as usize] += 1;
        }
        // Not with clusters (nor does `dot` balance then): a node moved to a
        // freer layer may stretch a box or bend the edges around one.
        for v in (0..k).filter(|_| self.nest.is_none()) {
            if in_w[v] != out_w[v] || in_w[v] == 0 {
                continue;
            }
            let lo = ins[v].iter().map(|&s| rank[s] + 1).fold(0, i64::max);
            let hi = outs[v]
                .iter()
                .map(|&t| rank[t] - 1)
                .fold(i64::MAX, i64::min);
            let mut best = rank[v];
            for r in lo..=hi.min(layers as i64 - 1) {
                if count[r as usize] < count[best as usize] {
                    best = r;
                }
            }
            if best != rank[v] {
                count[rank[v] as usize] -= 1;
                count[best as usize] += 1;
                rank[v] = best;
            }
        }
        rank
    }

    /// The centre of every layer-graph node along its layer, and each cluster's
    /// walls (its box's two sides along the layers).
    fn along(
        &self,
        k: usize,
        order: &[Vec<usize>],
        size: &[f64],
        segs: &[(usize, usize, i64)],
        nest: Option<&Nest>,
        step: i64,
    ) -> (Vec<f64>, Vec<(f64, f64)>) {
        let m = size.len();
        let c_n = nest.map_or(0, |n| n.parent.len());
        let walls = m + segs.len();
        let (left, right) = (|c: usize| walls + 2 * c, |c: usize| walls + 2 * c + 1);
        let mut cons: Vec<simplex::Edge> = Vec::new();
        let mut start = vec![0i64; walls];
        let mut sep = |tail: usize, head: usize, len: f64, weight: i64| {
            cons.push(simplex::Edge {
                tail,
                head,
                minlen: len.ceil() as i64,
                weight,
            });
            len.ceil() as i64
        };
        for layer in order {
            let mut x = 0i64;
            for pair in layer.windows(2) {
                let (l, r) = (pair[0], pair[1]);
                let Some(nest) = nest else {
                    let gap = if l < k && r < k {
                        self.spacing.0
                    } else {
                        self.spacing.0 / 2.0
                    };
                    x += sep(l, r, (size[l] + size[r]) / 2.0 + gap, 0);
                    start[r] = x;
                    continue;
                };
                // Between two neighbours stand the walls of the clusters one is
                // in and the other not: the outermost of each side's keeps the
                // spacing (the inner ones are held inside it).
                let (cl, cr) = (nest.chain(l), nest.chain(r));
                let shared = cl.iter().zip(&cr).take_while(|(a, b)| a == b).count();
                let (tail, half_l, solid_l) = match cl.get(shared) {
                    Some(&c) => (right(c), 0.0, true),
                    None => (l, size[l] / 2.0, l < k),
                };
                let (head, half_r, solid_r) = match cr.get(shared) {
                    Some(&c) => (left(c), 0.0, true),
                    None => (r, size[r] / 2.0, r < k),
                };
                let gap = if solid_l && solid_r {
                    self.spacing.0
                } else {
                    self.spacing.0 / 2.0
                };
                sep(tail, head, half_l + half_r + gap, 0);
            }
            if let (Some(nest), Some(local)) = (nest, &self.nest) {
                // Each cluster's first and last node directly in it, in this
                // layer, keep its padding from its walls (in cluster order, so
                // that the solver meets them the same way every run).
                let mut ends: std::collections::BTreeMap<usize, (usize, usize)> =
                    Default::default();
                for &v in layer {
                    if let Some(c) = nest.of[v] {
                        ends.entry(c).or_insert((v, v)).1 = v;
                    }
                }
                let tree = &local.tree;
                for (&c, &(first, last)) in &ends {
                    sep(left(c), first, tree.pad[c].a0 + size[first] / 2.0, 0);
                    sep(last, right(c), size[last] / 2.0 + tree.pad[c].a1, 0);
                }
            }
        }
        if let (Some(nest), Some(local)) = (nest, &self.nest) {
            let tree = &local.tree;
            for c in 0..c_n {
                // A box as narrow as it may be: its width costs as an edge does
                // (an edge through a layer of labels is two segments, pulling
                // twice as hard: so does the box then).
                let least = tree.min[c].0.max(tree.pad[c].a0 + tree.pad[c].a1);
                sep(left(c), right(c), least, CLUSTER_WIDTH_WEIGHT * step);
                if let Some(p) = nest.parent[c] {
                    sep(left(p), left(c), tree.pad[p].a0, 0);
                    sep(right(c), right(p), tree.pad[p].a1, 0);
                }
            }
        }
        for (i, &(u, v, w)) in segs.iter().enumerate() {
            let omega = match (u < k, v < k) {
                (true, true) => 1,
                (false, false) => 8,
                _ => 2,
            };
            let aux = m + i;
            start[aux] = start[u].min(start[v]);
            for end in [u, v] {
                cons.push(simplex::Edge {
                    tail: aux,
                    head: end,
                    minlen: 0,
                    weight: w * omega,
                });
            }
        }
        let total = walls + 2 * c_n;
        // With clusters the start would need the walls placed too: the solver
        // finds its own.
        let start = (c_n == 0).then_some(start);
        let x = simplex::solve(total, &cons, start, self.watch).rank;
        let walls = (0..c_n)
            .map(|c| (x[left(c)] as f64, x[right(c)] as f64))
            .collect();
        (x[..m].iter().map(|&v| v as f64).collect(), walls)
    }
}

impl Local {
    /// The clusters holding `nodes` (a component), renumbered; None when there
    /// are none.
    fn of(nodes: &[usize], tree: &Tree) -> Option<Local> {
        let mut global: Vec<usize> = Vec::new();
        let mut local = std::collections::HashMap::new();
        for &v in nodes {
            let mut p = tree.of[v];
            while let Some(c) = p {
                if local.contains_key(&c) {
                    break;
                }
                local.insert(c, global.len());
                global.push(c);
                p = tree.parent[c];
            }
        }
        if global.is_empty() {
            return None;
        }
        let pick = |f: &dyn Fn(usize) -> Option<usize>| -> Vec<Option<usize>> {
            global.iter().map(|&c| f(c).map(|p| local[&p])).collect()
        };
        let parent = pick(&|c| tree.parent[c]);
        Some(Local {
            tree: Tree {
                of: nodes
                    .iter()
                    .map(|&v| tree.of[v].map(|c| local[&c]))
                    .collect(),
                parent,
                pad: global.iter().map(|&c| tree.pad[c]).collect(),
                min: global.iter().map(|&c| tree.min[c]).collect(),
            },
            global,
        })
    }
}

/// Adds an empty filler node to every layer a cluster spans without a node of
/// its own (nor one of the clusters inside it), so that its box is one block in
/// every layer it crosses and nothing else is ordered into it. Returns the
/// layers each cluster spans.
fn fill(
    nest: &mut Nest,
    layer_of: &mut Vec<usize>,
    size: &mut Vec<f64>,
) -> Result<Vec<(usize, usize)>, LayoutError> {
    let c_n = nest.parent.len();
    let mut span = vec![(usize::MAX, 0usize); c_n];
    let mut taken = std::collections::HashSet::new();
    for (v, &r) in layer_of.iter().enumerate() {
        for c in nest.chain(v) {
            span[c] = (span[c].0.min(r), span[c].1.max(r));
            taken.insert((c, r));
        }
    }
    // At most a filler in each layer of each cluster: refused before they are
    // made if that could pass the limit.
    let most = span
        .iter()
        .map(|&(a, b)| b.saturating_sub(a) + 1)
        .fold(layer_of.len(), usize::saturating_add);
    if most > MAX_PLACES {
        return Err(LayoutError::TooManyPlaces(most));
    }
    // Inner clusters first: their fillers also fill the clusters around them.
    let mut inner: Vec<usize> = (0..c_n).collect();
    inner.sort_by_key(|&c| std::cmp::Reverse(crate::cluster::depth(&nest.parent, c)));
    for c in inner {
        for r in span[c].0..=span[c].1 {
            if taken.contains(&(c, r)) {
                continue;
            }
            layer_of.push(r);
            size.push(0.0);
            nest.of.push(Some(c));
            let mut p = Some(c);
            while let Some(q) = p {
                taken.insert((q, r));
                p = nest.parent[q];
            }
        }
    }
    Ok(span)
}
