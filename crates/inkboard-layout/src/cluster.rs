//! Clusters in the abstract frame: which cluster holds each node, how clusters
//! nest, and the room each keeps around what it holds, turned for the direction.
//! The layered layout threads a [`Tree`] through its phases the way `dot` threads
//! its `subgraph cluster_…`: nodes are ranked together with everything else, the
//! order within a layer keeps each cluster's nodes side by side ([`Nest`]), and
//! the coordinates leave room for each box and keep the rest out of it.

use crate::frame::Frame;
use crate::{Cluster, LayoutError, MAX_SIZE};

/// Clusters, validated, in the abstract frame.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tree {
    /// The innermost cluster holding each node.
    pub of: Vec<Option<usize>>,
    pub parent: Vec<Option<usize>>,
    /// Room inside the box: before and after along the layers, before and after
    /// across them.
    pub pad: Vec<Pad>,
    /// The least size of each box, along and across the layers.
    pub min: Vec<(f64, f64)>,
}

/// Room between a box and its contents in the abstract frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Pad {
    pub a0: f64,
    pub a1: f64,
    pub d0: f64,
    pub d1: f64,
}

impl Tree {
    /// Validates `clusters` over `n` nodes and turns them for `frame`.
    pub fn of(n: usize, clusters: &[Cluster], frame: Frame) -> Result<Tree, LayoutError> {
        let mut of = vec![None; n];
        let ok = |v: f64| v.is_finite() && (0.0..=MAX_SIZE).contains(&v);
        let mut holds = vec![false; clusters.len()];
        for (c, cl) in clusters.iter().enumerate() {
            for &v in &cl.nodes {
                if v >= n || of[v].is_some() {
                    return Err(LayoutError::ClusterNode {
                        cluster: c,
                        node: v,
                    });
                }
                of[v] = Some(c);
            }
            let p = &cl.padding;
            if ![p.top, p.right, p.bottom, p.left, cl.min.w, cl.min.h]
                .into_iter()
                .all(ok)
            {
                return Err(LayoutError::BadClusterSize(c));
            }
        }
        let parent: Vec<Option<usize>> = clusters.iter().map(|c| c.parent).collect();
        for c in 0..clusters.len() {
            // Walking up more steps than there are clusters means a circle.
            let mut p = Some(c);
            let mut steps = 0;
            let has_nodes = !clusters[c].nodes.is_empty();
            while let Some(q) = p {
                if q >= clusters.len() || steps > clusters.len() {
                    return Err(LayoutError::ClusterParent(c));
                }
                if has_nodes {
                    holds[q] = true;
                }
                p = parent[q];
                steps += 1;
            }
        }
        if let Some(c) = holds.iter().position(|h| !h) {
            return Err(LayoutError::EmptyCluster(c));
        }
        Ok(Tree {
            of,
            parent,
            pad: clusters.iter().map(|c| frame.pad(&c.padding)).collect(),
            min: clusters.iter().map(|c| frame.along_deep(c.min)).collect(),
        })
    }

    /// The outermost cluster holding `c` (`c` itself at the top).
    pub fn outermost(&self, mut c: usize) -> usize {
        while let Some(p) = self.parent[c] {
            c = p;
        }
        c
    }
}

/// The clusters from the outermost down to `from`, given each cluster's
/// `parent` (empty for `None`, the top level).
pub(crate) fn ancestors(parent: &[Option<usize>], from: Option<usize>) -> Vec<usize> {
    let mut out = Vec::new();
    let mut p = from;
    while let Some(c) = p {
        out.push(c);
        p = parent[c];
    }
    out.reverse();
    out
}

/// How many clusters hold cluster `c`, given each cluster's `parent`.
pub(crate) fn depth(parent: &[Option<usize>], mut c: usize) -> usize {
    let mut d = 0;
    while let Some(p) = parent[c] {
        d += 1;
        c = p;
    }
    d
}

/// The clusters of a layer graph (nodes, dummies and fillers), for ordering.
#[derive(Clone, Debug, Default)]
pub(crate) struct Nest {
    /// The innermost cluster of each layer-graph node.
    pub of: Vec<Option<usize>>,
    pub parent: Vec<Option<usize>>,
}

impl Nest {
    /// The clusters holding node `v`, outermost first.
    pub fn chain(&self, v: usize) -> Vec<usize> {
        ancestors(&self.parent, self.of[v])
    }

    /// The innermost cluster holding both `a` and `b` (clusters, or None for
    /// the top level).
    pub fn common(&self, a: Option<usize>, b: Option<usize>) -> Option<usize> {
        let (ca, cb) = (ancestors(&self.parent, a), ancestors(&self.parent, b));
        ca.iter()
            .zip(&cb)
            .take_while(|(x, y)| x == y)
            .last()
            .map(|(x, _)| *x)
    }

    /// True when neighbours `u` and `v` may trade places without splitting a
    /// cluster: both are directly in the same one (or in none).
    pub fn swappable(&self, u: usize, v: usize) -> bool {
        self.of[u] == self.of[v]
    }

    /// Moves the nodes of cluster `first` in `layer` (its own and those of the
    /// clusters inside it) to just before the first node of cluster `then`,
    /// when the layer holds both; the rest keep their order.
    pub fn put_before(&self, layer: &mut Vec<usize>, first: usize, then: usize) {
        let inside = |v: usize, c: usize| self.chain(v).contains(&c);
        let Some(at) = layer.iter().position(|&v| inside(v, then)) else {
            return;
        };
        if !layer.iter().any(|&v| inside(v, first)) {
            return;
        }
        let (moved, rest): (Vec<usize>, Vec<usize>) =
            layer.iter().partition(|&&v| inside(v, first));
        let at = rest
            .iter()
            .position(|&v| v == layer[at])
            .unwrap_or(rest.len());
        let mut out = rest[..at].to_vec();
        out.extend(moved);
        out.extend(&rest[at..]);
        *layer = out;
    }

    /// Sorts `layer` by `key` with each cluster's nodes kept together: a cluster
    /// sorts as one block, at the mean key of its nodes in the layer, and its
    /// nodes (and the clusters inside it) sort among themselves the same way.
    /// Ties keep the present order.
    pub fn regroup(&self, layer: &mut [usize], key: impl Fn(usize) -> f64) {
        if layer.iter().all(|&v| self.of[v].is_none()) {
            let mut keyed: Vec<(f64, usize, usize)> = layer
                .iter()
                .enumerate()
                .map(|(i, &v)| (key(v), i, v))
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            for (slot, (_, _, v)) in layer.iter_mut().zip(keyed) {
                *slot = v;
            }
            return;
        }
        let chains: Vec<Vec<usize>> = layer.iter().map(|&v| self.chain(v)).collect();
        // (sum of keys, count, first place) per cluster.
        let mut sum: std::collections::HashMap<usize, (f64, f64, usize)> = Default::default();
        for (i, (&v, chain)) in layer.iter().zip(&chains).enumerate() {
            let k = key(v);
            for &c in chain {
                let e = sum.entry(c).or_insert((0.0, 0.0, i));
                e.0 += k;
                e.1 += 1.0;
            }
        }
        // Each node's sort key: (key, tie) per cluster level, outermost first,
        // then its own. Ties go by present place (a cluster's: its first node's).
        let mut keyed: Vec<(Vec<(f64, usize)>, usize)> = layer
            .iter()
            .zip(&chains)
            .enumerate()
            .map(|(i, (&v, chain))| {
                let mut path: Vec<(f64, usize)> = chain
                    .iter()
                    .map(|c| {
                        let (s, n, first) = sum[c];
                        (s / n, first)
                    })
                    .collect();
                path.push((key(v), i));
                (path, v)
            })
            .collect();
        keyed.sort_by(|a, b| {
            for (x, y) in a.0.iter().zip(&b.0) {
                let o = x.0.total_cmp(&y.0).then(x.1.cmp(&y.1));
                if o.is_ne() {
                    return o;
                }
            }
            a.0.len().cmp(&b.0.len())
        });
        for (slot, (_, v)) in layer.iter_mut().zip(keyed) {
            *slot = v;
        }
    }
}

/// A node of a layer with the clusters holding it, outermost first.
type Member<'a> = (usize, &'a [usize]);

/// Neighbours in a layer: the nodes of one cluster, or (None) one node that no
/// cluster one level further in holds.
type Run<'a> = (Option<usize>, Vec<Member<'a>>);

impl Nest {
    /// Puts sibling clusters in one order in every layer (each layer's
    /// clusters already side by side): the order of their mean places over
    /// all layers ([`Nest::ranks`]). A box spans layers, so two that swapped
    /// places from one layer to the next would have to cross, and their walls
    /// would ask the coordinate problem for the impossible; only the clusters
    /// move, within the slots clusters held, and what stands between them
    /// stays.
    pub fn agree(&self, order: &mut [Vec<usize>]) {
        let c_n = self.parent.len();
        let mut sum = vec![(0.0f64, 0.0f64); c_n];
        for layer in order.iter() {
            let len = layer.len() as f64;
            for (i, &v) in layer.iter().enumerate() {
                for c in self.chain(v) {
                    sum[c].0 += i as f64 / len;
                    sum[c].1 += 1.0;
                }
            }
        }
        let mean: Vec<f64> = sum.iter().map(|&(s, n)| s / n.max(1.0)).collect();
        let key = self.ranks(order, &mean);
        for layer in order.iter_mut() {
            let chains: Vec<Vec<usize>> = layer.iter().map(|&v| self.chain(v)).collect();
            let items: Vec<(usize, &[usize])> = layer
                .iter()
                .copied()
                .zip(chains.iter().map(Vec::as_slice))
                .collect();
            *layer = self.agree_level(&items, 0, &key);
        }
    }

    /// The nodes `items` (each with its chain of clusters), all inside the
    /// same `depth` clusters, with the clusters one level further in put in
    /// the order of their ranks, `key`.
    fn agree_level(&self, items: &[Member<'_>], depth: usize, key: &[usize]) -> Vec<usize> {
        // Runs: a node directly at this level, or the nodes of one cluster.
        let mut runs: Vec<Run> = Vec::new();
        for &(v, chain) in items {
            let c = chain.get(depth).copied();
            match (c, runs.last_mut()) {
                (Some(c), Some((Some(last), run))) if *last == c => run.push((v, chain)),
                _ => runs.push((c, vec![(v, chain)])),
            }
        }
        let slots: Vec<usize> = (0..runs.len()).filter(|&i| runs[i].0.is_some()).collect();
        let mut blocks: Vec<usize> = slots.clone();
        blocks.sort_by(|&a, &b| {
            let (ca, cb) = (runs[a].0.unwrap_or(0), runs[b].0.unwrap_or(0));
            key[ca].cmp(&key[cb]).then(a.cmp(&b))
        });
        let mut placed: Vec<usize> = (0..runs.len()).collect();
        for (&slot, &block) in slots.iter().zip(&blocks) {
            placed[slot] = block;
        }
        let mut out = Vec::with_capacity(items.len());
        for i in placed {
            match runs[i].0 {
                Some(_) => out.extend(self.agree_level(&runs[i].1, depth + 1, key)),
                None => out.extend(runs[i].1.iter().map(|&(v, _)| v)),
            }
        }
        out
    }

    /// One rank per cluster, the same in every layer, for [`Nest::agree`]: by
    /// `mean` place, and among clusters of the same mean (common: two boxes
    /// side by side in the same layers, or sums in another order that come
    /// out equal) in the order the layers put them in, where the layers agree
    /// on it, so that an order already the same everywhere is kept as it is.
    /// Where they disagree (one left of the other in one layer and right of
    /// it in another), the cluster met first, layer by layer from the left,
    /// goes first. A tie broken by each layer's own order instead left two
    /// boxes swapped between layers (the fuzz target's overlap).
    fn ranks(&self, order: &[Vec<usize>], mean: &[f64]) -> Vec<usize> {
        let c_n = mean.len();
        let mut met = vec![usize::MAX; c_n];
        let mut seen = 0;
        for &v in order.iter().flatten() {
            for c in self.chain(v) {
                if met[c] == usize::MAX {
                    met[c] = seen;
                    seen += 1;
                }
            }
        }
        let mut by_mean: Vec<usize> = (0..c_n).collect();
        by_mean.sort_by(|&a, &b| mean[a].total_cmp(&mean[b]).then(met[a].cmp(&met[b])));
        // Clusters of one mean share a group: the place of the first of them.
        let mut group = vec![0; c_n];
        for (i, &c) in by_mean.iter().enumerate() {
            group[c] = match i.checked_sub(1).map(|j| by_mean[j]) {
                Some(b) if mean[b].total_cmp(&mean[c]).is_eq() => group[b],
                _ => i,
            };
        }
        // Which sibling of the same mean stands just before which, in each
        // layer (the next one of the same parent and group to its right).
        let mut after: Vec<Vec<usize>> = vec![Vec::new(); c_n];
        let mut before = vec![0usize; c_n];
        for layer in order {
            let mut last: std::collections::HashMap<(Option<usize>, usize), usize> =
                Default::default();
            for &v in layer {
                for c in self.chain(v) {
                    match last.insert((self.parent[c], group[c]), c) {
                        Some(p) if p != c => {
                            after[p].push(c);
                            before[c] += 1;
                        }
                        _ => {}
                    }
                }
            }
        }
        // Each group in an order that keeps every "just before" it can: the
        // first met of those with nothing left before them, or, in a circle,
        // the first met of those left.
        let mut rank = vec![0; c_n];
        let mut done = vec![false; c_n];
        let mut next = 0;
        for members in by_mean.chunk_by(|&a, &b| group[a] == group[b]) {
            let mut ready: std::collections::BTreeSet<(usize, usize)> = members
                .iter()
                .filter(|&&c| before[c] == 0)
                .map(|&c| (met[c], c))
                .collect();
            let mut cursor = 0;
            for _ in members {
                let c = match ready.pop_first() {
                    Some((_, c)) => c,
                    None => {
                        while done[members[cursor]] {
                            cursor += 1;
                        }
                        members[cursor]
                    }
                };
                done[c] = true;
                rank[c] = next;
                next += 1;
                for &d in &after[c] {
                    before[d] = before[d].saturating_sub(1);
                    if before[d] == 0 && !done[d] {
                        ready.insert((met[d], d));
                    }
                }
            }
        }
        rank
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regroup_keeps_clusters_together() {
        // Nodes 0 and 2 in cluster 0, 1 outside; keys would put 1 between them.
        let nest = Nest {
            of: vec![Some(0), None, Some(0), None],
            parent: vec![None],
        };
        let mut layer = vec![0, 1, 2, 3];
        nest.regroup(&mut layer, |v| [0.0, 1.0, 2.0, 3.0][v]);
        assert_eq!(layer, vec![0, 2, 1, 3]);
    }

    #[test]
    fn sibling_clusters_agree_across_layers() {
        // Clusters 0 and 1; layer 0 has 0 left of 1, layer 1 the other way.
        let nest = Nest {
            of: vec![Some(0), Some(1), Some(1), Some(0), None],
            parent: vec![None, None],
        };
        let mut order = vec![vec![0, 1], vec![2, 4, 3], vec![0]];
        order[2].clear();
        nest.agree(&mut order);
        // Cluster 1 stands further left on average: first in both layers.
        assert_eq!(order[0], vec![1, 0]);
        assert_eq!(order[1], vec![2, 4, 3]);
    }

    #[test]
    fn tied_siblings_agree_across_layers() {
        // Clusters 0 and 1 at the same mean place (a quarter), each first in
        // one layer: one order in both, the cluster met first (1) first.
        let nest = Nest {
            of: vec![Some(1), Some(0), Some(0), Some(1)],
            parent: vec![None, None],
        };
        let mut order = vec![vec![0, 1], vec![2, 3]];
        nest.agree(&mut order);
        assert_eq!(order, vec![vec![0, 1], vec![3, 2]]);
    }

    #[test]
    fn tied_siblings_keep_an_order_the_layers_agree_on() {
        // Clusters 0 and 1 at the same mean place, 1 met first, 0 left of 1
        // in the one layer they share: that order stays.
        let nest = Nest {
            of: vec![Some(1), Some(0), Some(1), Some(0), None],
            parent: vec![None, None],
        };
        let mut order = vec![vec![0], vec![1, 2], vec![4, 3]];
        nest.agree(&mut order);
        assert_eq!(order, vec![vec![0], vec![1, 2], vec![4, 3]]);
    }

    #[test]
    fn put_before_moves_a_whole_cluster() {
        // Node 3 is in cluster 1 inside cluster 0; 0 and 1 in cluster 2.
        let nest = Nest {
            of: vec![Some(2), Some(2), Some(0), Some(1), None],
            parent: vec![None, Some(0), None],
        };
        let mut layer = vec![4, 0, 1, 2, 3];
        nest.put_before(&mut layer, 0, 2);
        assert_eq!(layer, vec![4, 2, 3, 0, 1]);
        // Nothing moves when the layer lacks either cluster.
        let mut layer = vec![4, 0, 1];
        nest.put_before(&mut layer, 0, 2);
        assert_eq!(layer, vec![4, 0, 1]);
    }

    #[test]
    fn common_cluster() {
        let nest = Nest {
            of: vec![],
            parent: vec![None, Some(0), Some(0)],
        };
        assert_eq!(nest.common(Some(1), Some(2)), Some(0));
        assert_eq!(nest.common(Some(1), None), None);
        assert_eq!(nest.common(Some(1), Some(1)), Some(1));
    }
}
