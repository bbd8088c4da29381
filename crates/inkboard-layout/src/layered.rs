//! The layered (Sugiyama) layout, phase by phase, on each connected component:
//!
//! 1. cycles broken by reversing a minimal set of edges ([`crate::acyclic`]);
//! 2. layers assigned by network simplex (the total edge length, hence the number
//!    of dummy nodes, is least), then nodes whose in- and out-weight are equal
//!    moved to the least crowded layer they may take, as `dot` does;
//! 3. edges longer than one layer split by dummy nodes;
//! 4. crossings reduced ([`crate::order`]);
//! 5. positions within layers by network simplex on `dot`'s auxiliary graph: each
//!    edge pulls its ends into line, long edges (dummy to dummy) eight times as
//!    hard, so that they run straight, while neighbours keep their spacing;
//! 6. layers stacked, each as thick as its thickest node, nodes centred in them,
//!    the gap between two layers widened where the edges crossing it need more
//!    tracks side by side than the layer spacing holds.
//!
//! Components are then set side by side along the layers, in the order of their
//! first nodes.

use crate::frame::{thickest, Boxes, Placed};
use crate::normal::Normal;
use crate::order::Layers;
use crate::{acyclic, simplex};

/// Lays out every component and packs them side by side.
pub(crate) fn layout(boxes: &Boxes, edges: &[(usize, usize)], spacing: (f64, f64)) -> Placed {
    let n = boxes.len();
    let normal = Normal::new(n, edges);
    let mut at = vec![(0.0, 0.0); n];
    let mut merged_paths: Vec<Vec<(f64, f64)>> = vec![Vec::new(); normal.edges.len()];
    // Edges by component: the first node of each edge names its component.
    let comps = normal.components(n);
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
        let part = Component::new(nodes, edge_ids, &normal, boxes, spacing).layout();
        let shift = cursor - part.along.0;
        for (i, &v) in nodes.iter().enumerate() {
            at[v] = (part.at[i].0 + shift, part.at[i].1);
        }
        for (k, &e) in edge_ids.iter().enumerate() {
            merged_paths[e] = part.paths[k].iter().map(|&(a, d)| (a + shift, d)).collect();
        }
        cursor += part.along.1 - part.along.0 + spacing.0;
    }
    let mut placed = Placed::straight(at, boxes, edges);
    for (i, m) in normal.edge_of.iter().enumerate() {
        if let Some(m) = m {
            placed.paths[i].clone_from(&merged_paths[*m]);
        }
    }
    placed
}

/// The largest component laid out both ways of breaking its cycles (twice the
/// work); larger ones take the depth-first way.
const BOTH_WAYS: usize = 150;

/// The room one line takes in the gap between layers: the distance the renderer
/// keeps between parallel lines, and between a line and the shapes it passes.
const TRACK: f64 = 12.0;

/// One connected component, renumbered from 0.
struct Component {
    /// Sizes along and across the layers.
    a: Vec<f64>,
    d: Vec<f64>,
    /// (source, target, weight) in local numbers.
    edges: Vec<(usize, usize, i64)>,
    spacing: (f64, f64),
}

/// A component laid out: local corners, a path per edge, and its extent along
/// the layers (dummies included).
struct Part {
    at: Vec<(f64, f64)>,
    paths: Vec<Vec<(f64, f64)>>,
    along: (f64, f64),
}

impl Component {
    fn new(
        nodes: &[usize],
        edge_ids: &[usize],
        normal: &Normal,
        boxes: &Boxes,
        spacing: (f64, f64),
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
            spacing,
        }
    }

    fn layout(&self) -> Part {
        let k = self.a.len();
        if self.edges.is_empty() {
            return self.arrange(&[]).1;
        }
        // 1. Cycles: of the two ways to break them (see `acyclic`), the one
        // whose drawing crosses less; on a tie, the depth-first one, which keeps
        // the path given first running forward.
        if k > BOTH_WAYS {
            return self.arrange(&acyclic::depth_first(k, &self.edges)).1;
        }
        let (dfs, greedy) = acyclic::both(k, &self.edges);
        let first = self.arrange(&dfs);
        if greedy == dfs {
            return first.1;
        }
        let second = self.arrange(&greedy);
        if second.0 < first.0 {
            second.1
        } else {
            first.1
        }
    }

    /// The component laid out with the edges `flip` marks reversed, and the
    /// crossings of its layer order.
    fn arrange(&self, flip: &[bool]) -> (i64, Part) {
        let k = self.a.len();
        if self.edges.is_empty() {
            let part = Part {
                at: vec![(0.0, 0.0); k],
                paths: Vec::new(),
                along: (0.0, self.a.first().copied().unwrap_or(0.0)),
            };
            return (0, part);
        }
        // Orient every edge forward, merging edges that now coincide.
        let mut dag: Vec<(usize, usize, i64)> = Vec::new();
        let mut dag_index = std::collections::HashMap::new();
        let mut edge_dag = Vec::with_capacity(self.edges.len());
        for (e, &(s, t, w)) in self.edges.iter().enumerate() {
            let (s, t) = if flip[e] { (t, s) } else { (s, t) };
            let i = *dag_index.entry((s, t)).or_insert_with(|| {
                dag.push((s, t, 0));
                dag.len() - 1
            });
            dag[i].2 += w;
            edge_dag.push(i);
        }
        // 2. Layers.
        let rank = self.rank(k, &dag);
        // 3. Dummies: chains of layer-graph nodes, one per DAG edge.
        let mut layer_of: Vec<usize> = rank.iter().map(|&r| r as usize).collect();
        let mut size: Vec<f64> = self.a.clone();
        let mut segments: Vec<(usize, usize, i64)> = Vec::new();
        let mut chains: Vec<Vec<usize>> = Vec::with_capacity(dag.len());
        for &(s, t, w) in &dag {
            let mut chain = vec![s];
            for r in rank[s] + 1..rank[t] {
                layer_of.push(r as usize);
                size.push(0.0);
                chain.push(layer_of.len() - 1);
            }
            chain.push(t);
            for pair in chain.windows(2) {
                segments.push((pair[0], pair[1], w));
            }
            chains.push(chain);
        }
        // 4. Order within layers.
        let layers = Layers::new(layer_of.clone(), &segments);
        let (crossings, order) = layers.order_counted();
        // 5. Positions along the layers.
        let x = self.along(k, &order, &size, &segments);
        // 6. Layers stacked.
        let thick = thickest(&layer_of[..k], &self.d);
        let start = crate::frame::starts_with_gaps(
            &thick,
            &self.gaps(&x, &layer_of, &segments, thick.len()),
        );
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
            .fold(f64::MAX, f64::min);
        let hi = (0..size.len())
            .map(|v| x[v] + size[v] / 2.0)
            .fold(f64::MIN, f64::max);
        (
            crossings,
            Part {
                at,
                paths,
                along: (lo, hi),
            },
        )
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
    ) -> Vec<f64> {
        let mut spans: Vec<Vec<(f64, i64)>> = vec![Vec::new(); layers];
        for &(u, v, w) in segs {
            let (a, b) = (x[u].min(x[v]), x[u].max(x[v]));
            if b - a > 1.0 {
                // Opening before closing at one place: spans that touch share a
                // turn, so they count as overlapping.
                spans[layer_of[u]].extend([(a, -w), (b, w)]);
            }
        }
        spans
            .into_iter()
            .map(|mut ends| {
                ends.sort_by(|p, q| p.0.total_cmp(&q.0).then(p.1.cmp(&q.1)));
                let (mut open, mut most) = (0i64, 0i64);
                for (_, d) in ends {
                    open -= d;
                    most = most.max(open);
                }
                self.spacing.1.max(TRACK * (most + 1) as f64)
            })
            .collect()
    }

    /// Layers by network simplex, from 0, then balanced.
    fn rank(&self, k: usize, dag: &[(usize, usize, i64)]) -> Vec<i64> {
        let cons: Vec<simplex::Edge> = dag
            .iter()
            .map(|&(s, t, w)| simplex::Edge {
                tail: s,
                head: t,
                minlen: 1,
                weight: w,
            })
            .collect();
        let mut rank = simplex::solve(k, &cons, None, 20 * (k + dag.len()) + 100);
        let min = rank.iter().copied().min().unwrap_or(0);
        rank.iter_mut().for_each(|r| *r -= min);
        // Balance: a node pulled equally both ways may sit on any layer between
        // its neighbours at no cost; the least crowded one keeps the drawing
        // narrow.
        let mut in_w = vec![0i64; k];
        let mut out_w = vec![0i64; k];
        for &(s, t, w) in dag {
            out_w[s] += w;
            in_w[t] += w;
        }
        let layers = rank.iter().copied().max().unwrap_or(0) as usize + 1;
        let mut count = vec![0usize; layers];
        for &r in &rank {
            count[r as usize] += 1;
        }
        for v in 0..k {
            if in_w[v] != out_w[v] || in_w[v] == 0 {
                continue;
            }
            let (mut lo, mut hi) = (0, i64::MAX);
            for &(s, t, _) in dag {
                if t == v {
                    lo = lo.max(rank[s] + 1);
                }
                if s == v {
                    hi = hi.min(rank[t] - 1);
                }
            }
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

    /// The centre of every layer-graph node along its layer.
    fn along(
        &self,
        k: usize,
        order: &[Vec<usize>],
        size: &[f64],
        segs: &[(usize, usize, i64)],
    ) -> Vec<f64> {
        let m = size.len();
        let mut cons: Vec<simplex::Edge> = Vec::new();
        let mut start = vec![0i64; m + segs.len()];
        for layer in order {
            let mut x = 0i64;
            for pair in layer.windows(2) {
                let (l, r) = (pair[0], pair[1]);
                let gap = if l < k && r < k {
                    self.spacing.0
                } else {
                    self.spacing.0 / 2.0
                };
                let minlen = ((size[l] + size[r]) / 2.0 + gap).ceil() as i64;
                cons.push(simplex::Edge {
                    tail: l,
                    head: r,
                    minlen,
                    weight: 0,
                });
                x += minlen;
                start[r] = x;
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
        let cap = 10 * (m + segs.len()) + 1000;
        let x = simplex::solve(m + segs.len(), &cons, Some(start), cap);
        x[..m].iter().map(|&v| v as f64).collect()
    }
}
