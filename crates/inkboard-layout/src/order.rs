//! Crossing reduction: the order of the nodes within each layer. As in `dot`, the
//! search starts from a depth-first order, then alternates weighted-median sweeps
//! down and up the layers with "transpose" passes that swap neighbours while that
//! removes crossings, keeping the best order seen. It runs from two starting
//! orders (following edges down from the sources, and up from the sinks) and keeps
//! the better result. Small layers are then ordered exactly against their
//! neighbours ([`Layers::exact`]).
//!
//! A caller may ask for another start ([`crate::Start`]): the search of the two
//! that the count does not keep, or one from a depth-first order with every
//! layer shuffled by a seed; the router judges them on the drawn lines.
//!
//! Every edge here joins consecutive layers: longer edges were already split by
//! dummy nodes.
//!
//! With clusters ([`Layers::with_nest`]) every step keeps each cluster's nodes
//! side by side in each layer: the start orders and the median sweeps sort a
//! cluster as one block at the mean of its nodes' keys ([`Nest::regroup`]),
//! swaps are only between nodes of the same cluster, and an exact order is taken
//! only once regrouped, and only while it still crosses less.

use crate::cluster::Nest;
use crate::watch::Watch;
use crate::Start;

/// The next number of the splitmix64 sequence kept in `state`.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Sweeps from one start; past this many the gains are negligible (dot's MaxIter).
const MAX_ITER: usize = 24;
/// Stop after this many sweeps without real progress (dot's MinQuit).
const MIN_QUIT: usize = 8;
/// The largest layer whose order is found exactly ([`Layers::exact`]): 2^n
/// subsets of n nodes each.
const EXACT_LAYER: usize = 8;
/// Rounds of exact ordering, down and up the layers.
const EXACT_ROUNDS: usize = 4;
/// The most pairs of sibling clusters tried the other way round
/// ([`Layers::turned_clusters`]); each costs a search.
const MAX_TURNS: usize = 12;
/// The most pairs of neighbours in a layer looked at for those sibling
/// clusters: a layer holds every pair of its nodes.
const MAX_TURN_SCAN: usize = 1_000_000;
/// The work the sweeps from one start may do, per node and edge of the layers
/// (a unit is a node visited in a sweep or a swap pass), before the best order
/// found so far is kept. The fixtures and benchmark graphs use at most 62.
pub(crate) const WORK_PER_ITEM: u64 = 500;
/// The most work the sweeps from one start may do, whatever the size of the
/// layers.
pub(crate) const MAX_WORK: u64 = 5_000_000;

/// Nodes in layers, each with its neighbours in the layers above and below.
pub(crate) struct Layers {
    pub layer_of: Vec<usize>,
    up: Vec<Vec<(usize, i64)>>,
    down: Vec<Vec<(usize, i64)>>,
    count: usize,
    /// How many segments join the layers.
    edges: usize,
    nest: Option<Nest>,
    /// Where the search for [`Layers::order_counted`] starts.
    start: Start,
}

impl Layers {
    /// `segments` are (upper node, lower node, weight), the lower one layer below.
    pub fn new(layer_of: Vec<usize>, segments: &[(usize, usize, i64)]) -> Layers {
        let n = layer_of.len();
        let mut up = vec![Vec::new(); n];
        let mut down = vec![Vec::new(); n];
        for &(u, v, w) in segments {
            down[u].push((v, w));
            up[v].push((u, w));
        }
        let count = layer_of.iter().max().map_or(0, |m| m + 1);
        Layers {
            layer_of,
            up,
            down,
            count,
            edges: segments.len(),
            nest: None,
            start: Start::Best,
        }
    }

    /// The same layers, with each cluster of `nest` kept together.
    pub fn with_nest(mut self, nest: Nest) -> Layers {
        self.nest = Some(nest);
        self
    }

    /// The same layers, their search for [`Layers::order_counted`] started
    /// from `start`.
    pub fn starting(mut self, start: Start) -> Layers {
        self.start = start;
        self
    }

    /// The order with the fewest crossings found (from the start asked for),
    /// and its crossings (weighted). Once `watch` says stop, the search keeps
    /// the best order it has.
    pub fn order_counted(&self, watch: &Watch) -> (i64, Vec<Vec<usize>>) {
        match self.start {
            Start::Best => self.search(None, watch),
            Start::Other => self.search_other(watch),
            Start::Shuffled(seed) => {
                let mut order = self.initial(seed % 2 == 0);
                let mut rng = seed;
                for layer in &mut order {
                    // Fisher–Yates with splitmix64: reproducible everywhere.
                    for i in (1..layer.len()).rev() {
                        let j = (splitmix(&mut rng) % (i as u64 + 1)) as usize;
                        layer.swap(i, j);
                    }
                }
                self.finish(order, watch)
            }
        }
    }

    /// The search from the start order that [`Layers::search`] does not keep
    /// (at equal crossings, the second); that one when only one was run.
    fn search_other(&self, watch: &Watch) -> (i64, Vec<Vec<usize>>) {
        let (c, order) = self.finish(self.initial(true), watch);
        if c == 0 || watch.stopped_now() {
            return (c, order);
        }
        let (c2, order2) = self.finish(self.initial(false), watch);
        if c2 < c {
            (c, order)
        } else {
            (c2, order2)
        }
    }

    /// `order` regrouped by cluster, searched from, and its clusters agreed.
    fn finish(&self, mut order: Vec<Vec<usize>>, watch: &Watch) -> (i64, Vec<Vec<usize>>) {
        if let Some(nest) = &self.nest {
            for layer in &mut order {
                let pos = self.positions(std::slice::from_ref(layer));
                nest.regroup(layer, |v| pos[v] as f64);
            }
        }
        let mut c = self.mincross(&mut order, watch);
        if let Some(nest) = &self.nest {
            nest.agree(&mut order);
            c = self.crossings(&order, &self.positions(&order));
        }
        (c, order)
    }

    /// Other orders for a layout with clusters: for each pair of sibling
    /// clusters that share a layer (at most [`MAX_TURNS`] pairs), the order
    /// found when the search starts with the two the other way round from
    /// `order`, and its crossings. The search may still turn them back.
    pub fn turned_clusters(
        &self,
        order: &[Vec<usize>],
        watch: &Watch,
    ) -> Vec<(i64, Vec<Vec<usize>>)> {
        let Some(nest) = &self.nest else {
            return Vec::new();
        };
        // (left, right) pairs of siblings, as they stand in `order`: the first
        // [`MAX_TURNS`], among the first [`MAX_TURN_SCAN`] pairs of nodes.
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut scanned = 0;
        'layers: for layer in order {
            let chains: Vec<Vec<usize>> = layer.iter().map(|&v| nest.chain(v)).collect();
            for (i, a) in chains.iter().enumerate() {
                for b in &chains[i + 1..] {
                    scanned += 1;
                    if pairs.len() >= MAX_TURNS || scanned > MAX_TURN_SCAN {
                        break 'layers;
                    }
                    // The clusters where the two chains part, if both go on.
                    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
                    if let (Some(&ca), Some(&cb)) = (a.get(same), b.get(same)) {
                        if !pairs.contains(&(ca, cb)) {
                            pairs.push((ca, cb));
                        }
                    }
                }
            }
        }
        watch.add_work(scanned as u64);
        pairs
            .into_iter()
            .take_while(|_| !watch.stopped_now())
            .map(|(left, right)| self.search(Some((right, left)), watch))
            .collect()
    }

    /// The order with the fewest crossings found from the two start orders,
    /// with cluster `bias.0` put before cluster `bias.1` in every layer of the
    /// starts that holds both.
    fn search(&self, bias: Option<(usize, usize)>, watch: &Watch) -> (i64, Vec<Vec<usize>>) {
        let mut best: Option<(i64, Vec<Vec<usize>>)> = None;
        for from_top in [true, false] {
            let mut order = self.initial(from_top);
            if let Some(nest) = &self.nest {
                for layer in &mut order {
                    if let Some((first, then)) = bias {
                        nest.put_before(layer, first, then);
                    }
                    let pos = self.positions(std::slice::from_ref(layer));
                    nest.regroup(layer, |v| pos[v] as f64);
                }
            }
            let c = self.mincross(&mut order, watch);
            if best.as_ref().is_none_or(|(b, _)| c < *b) {
                best = Some((c, order));
            }
            if c == 0 || watch.stopped_now() {
                break;
            }
        }
        let (mut c, mut order) = best.unwrap_or_default();
        if let Some(nest) = &self.nest {
            nest.agree(&mut order);
            c = self.crossings(&order, &self.positions(&order));
        }
        (c, order)
    }

    /// A depth-first order: nodes are appended to their layers as a search
    /// following edges down from the sources (or up from the sinks) meets them,
    /// so that what is connected starts out close together.
    fn initial(&self, from_top: bool) -> Vec<Vec<usize>> {
        let n = self.layer_of.len();
        let mut layers = vec![Vec::new(); self.count];
        let mut seen = vec![false; n];
        let (back, forth) = if from_top {
            (&self.up, &self.down)
        } else {
            (&self.down, &self.up)
        };
        let starts = (0..n)
            .filter(|&v| back[v].is_empty())
            .chain(0..n)
            .collect::<Vec<_>>();
        let mut stack = Vec::new();
        for s in starts {
            if seen[s] {
                continue;
            }
            seen[s] = true;
            stack.push(s);
            while let Some(v) = stack.pop() {
                layers[self.layer_of[v]].push(v);
                // Pushed in reverse so that the first neighbour is visited first.
                for &(w, _) in forth[v].iter().rev() {
                    if !seen[w] {
                        seen[w] = true;
                        stack.push(w);
                    }
                }
            }
        }
        layers
    }

    fn positions(&self, order: &[Vec<usize>]) -> Vec<usize> {
        let mut pos = vec![0; self.layer_of.len()];
        for layer in order {
            for (i, &v) in layer.iter().enumerate() {
                pos[v] = i;
            }
        }
        pos
    }

    /// Improves `order` in place; returns its crossings.
    fn mincross(&self, order: &mut Vec<Vec<usize>>, watch: &Watch) -> i64 {
        let items = (self.layer_of.len() + self.edges) as u64;
        let until = watch.work() + WORK_PER_ITEM.saturating_mul(items).min(MAX_WORK);
        let spent = || watch.stopped() || watch.work() > until;
        let mut pos = self.positions(order);
        self.transpose(order, &mut pos, false, &spent, watch);
        let mut best_c = self.crossings(order, &pos);
        let mut best = order.clone();
        let mut trying = 0;
        for iter in 0..MAX_ITER {
            if trying >= MIN_QUIT || best_c == 0 || spent() {
                break;
            }
            trying += 1;
            let reverse = iter % 4 >= 2;
            self.median_sweep(order, &mut pos, iter % 2 == 0, reverse);
            watch.add_work(items);
            self.transpose(order, &mut pos, reverse, &spent, watch);
            let c = self.crossings(order, &pos);
            if c <= best_c {
                if (c as f64) < 0.995 * best_c as f64 {
                    trying = 0;
                }
                best_c = c;
                best.clone_from(order);
            }
        }
        if watch.work() > until {
            watch.note_cut_short();
        }
        *order = best;
        let mut pos = self.positions(order);
        self.transpose(order, &mut pos, false, &spent, watch);
        if !spent() {
            self.exact(order, &mut pos);
        }
        self.crossings(order, &pos)
    }

    /// Polishes `order`: each layer of at most [`EXACT_LAYER`] nodes is given the
    /// order with the fewest crossings against its two neighbour layers as they
    /// stand, found exactly (a dynamic program over subsets: the crossings of a
    /// layer's order are the sum, over its pairs, of what each pair costs in its
    /// order). Median sweeps and swaps of neighbours stop at local optima that a
    /// small flowchart often shows; this finds the best order of each small layer
    /// outright. Down and up the layers until nothing improves.
    fn exact(&self, order: &mut [Vec<usize>], pos: &mut [usize]) {
        let mut cost = Vec::new();
        let mut best = Vec::new();
        let mut from = Vec::new();
        for _ in 0..EXACT_ROUNDS {
            let mut improved = false;
            for r in (0..order.len()).chain((0..order.len()).rev()) {
                let n = order[r].len();
                if !(3..=EXACT_LAYER).contains(&n) {
                    continue;
                }
                let layer = order[r].clone();
                // cost[i * n + j]: crossings of i's and j's edges with i left of j.
                cost.clear();
                for &u in &layer {
                    for &v in &layer {
                        cost.push(if u == v { 0 } else { self.pair(u, v, pos) });
                    }
                }
                let now: i64 = (0..n)
                    .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                    .map(|(i, j)| cost[i * n + j])
                    .sum();
                if now == 0 {
                    continue;
                }
                // best[mask]: least cost of putting the set `mask` first.
                let full = (1usize << n) - 1;
                best.clear();
                best.resize(full + 1, i64::MAX);
                from.clear();
                from.resize(full + 1, 0usize);
                best[0] = 0;
                for mask in 0..full {
                    if best[mask] == i64::MAX {
                        continue;
                    }
                    for v in 0..n {
                        if mask & (1 << v) != 0 {
                            continue;
                        }
                        let add: i64 = (0..n)
                            .filter(|&u| mask & (1 << u) != 0)
                            .map(|u| cost[u * n + v])
                            .sum();
                        let next = mask | (1 << v);
                        // Strictly less: of equal orders the first found wins,
                        // which keeps the search deterministic.
                        if best[mask] + add < best[next] {
                            best[next] = best[mask] + add;
                            from[next] = v;
                        }
                    }
                }
                if best[full] >= now {
                    continue;
                }
                let mut mask = full;
                let mut placed = Vec::with_capacity(n);
                while mask != 0 {
                    let v = from[mask];
                    placed.push(layer[v]);
                    mask &= !(1 << v);
                }
                placed.reverse();
                if let Some(nest) = &self.nest {
                    let at: std::collections::HashMap<usize, usize> =
                        placed.iter().enumerate().map(|(i, &v)| (v, i)).collect();
                    nest.regroup(&mut placed, |v| at[&v] as f64);
                    let cost: i64 = (0..n)
                        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                        .map(|(i, j)| self.pair(placed[i], placed[j], pos))
                        .sum();
                    if cost >= now {
                        continue;
                    }
                }
                for (i, &v) in placed.iter().enumerate() {
                    pos[v] = i;
                }
                order[r] = placed;
                improved = true;
            }
            if !improved {
                break;
            }
        }
    }

    /// Sorts each layer by the weighted median of its neighbours' positions in the
    /// layer just swept. Nodes without such neighbours keep their places.
    fn median_sweep(&self, order: &mut [Vec<usize>], pos: &mut [usize], down: bool, reverse: bool) {
        let layers: Vec<usize> = if down {
            (1..order.len()).collect()
        } else {
            (0..order.len().saturating_sub(1)).rev().collect()
        };
        let mut ps = Vec::new();
        for r in layers {
            let adj = if down { &self.up } else { &self.down };
            if let Some(nest) = &self.nest {
                // Every node gets a key, so that clusters sort as blocks: the
                // median, or for a node without neighbours there its place.
                let keys: std::collections::HashMap<usize, f64> = order[r]
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| {
                        ps.clear();
                        ps.extend(adj[v].iter().map(|&(w, _)| pos[w] as f64));
                        ps.sort_by(f64::total_cmp);
                        (v, if ps.is_empty() { i as f64 } else { median(&ps) })
                    })
                    .collect();
                nest.regroup(&mut order[r], |v| keys[&v]);
                for (i, &v) in order[r].iter().enumerate() {
                    pos[v] = i;
                }
                continue;
            }
            let mut movable: Vec<(f64, usize, usize)> = Vec::new();
            let mut slots = Vec::new();
            for (i, &v) in order[r].iter().enumerate() {
                ps.clear();
                ps.extend(adj[v].iter().map(|&(w, _)| pos[w] as f64));
                if ps.is_empty() {
                    continue;
                }
                ps.sort_by(f64::total_cmp);
                movable.push((median(&ps), i, v));
                slots.push(i);
            }
            movable.sort_by(|a, b| {
                a.0.total_cmp(&b.0).then(if reverse {
                    b.1.cmp(&a.1)
                } else {
                    a.1.cmp(&b.1)
                })
            });
            for (slot, (_, _, v)) in slots.into_iter().zip(movable) {
                order[r][slot] = v;
                pos[v] = slot;
            }
        }
    }

    /// Swaps neighbours while that lowers the crossings (or, with `reverse`, keeps
    /// them equal but non-zero, which lets the next sweep escape a plateau).
    fn transpose(
        &self,
        order: &mut [Vec<usize>],
        pos: &mut [usize],
        reverse: bool,
        spent: &dyn Fn() -> bool,
        watch: &Watch,
    ) {
        let mut candidate = vec![true; order.len()];
        // Each round removes at least one crossing, so this always ends; the cap
        // only bounds the time spent on huge graphs.
        for _ in 0..order.len() * 4 + 16 {
            let mut delta = 0;
            for r in 0..order.len() {
                if !candidate[r] || spent() {
                    continue;
                }
                // A node and its edges each way, for the swaps it is tried in.
                let edges: usize = order[r]
                    .iter()
                    .map(|&v| self.up[v].len() + self.down[v].len())
                    .sum();
                watch.add_work((order[r].len() + edges) as u64);
                candidate[r] = false;
                for i in 0..order[r].len().saturating_sub(1) {
                    let (u, v) = (order[r][i], order[r][i + 1]);
                    if self.nest.as_ref().is_some_and(|n| !n.swappable(u, v)) {
                        continue;
                    }
                    let c0 = self.pair(u, v, pos);
                    let c1 = self.pair(v, u, pos);
                    if c1 < c0 || (reverse && c0 > 0 && c1 == c0) {
                        delta += c0 - c1;
                        order[r].swap(i, i + 1);
                        pos[u] = i + 1;
                        pos[v] = i;
                        candidate[r] = true;
                        if r > 0 {
                            candidate[r - 1] = true;
                        }
                        if r + 1 < order.len() {
                            candidate[r + 1] = true;
                        }
                    }
                }
            }
            if delta < 1 {
                break;
            }
        }
    }

    /// The crossings among the edges of `u` and `v` when `u` is left of `v`.
    fn pair(&self, u: usize, v: usize, pos: &[usize]) -> i64 {
        let mut c = 0;
        for adj in [&self.up, &self.down] {
            for &(a, wa) in &adj[u] {
                for &(b, wb) in &adj[v] {
                    if pos[a] > pos[b] {
                        c += wa * wb;
                    }
                }
            }
        }
        c
    }

    /// All crossings, weighted: for each pair of layers, the inversions among the
    /// lower ends of the edges sorted by their upper ends (a Fenwick tree count).
    pub fn crossings(&self, order: &[Vec<usize>], pos: &[usize]) -> i64 {
        let mut total = 0;
        let mut edges: Vec<(usize, usize, i64)> = Vec::new();
        for r in 0..order.len().saturating_sub(1) {
            edges.clear();
            for &u in &order[r] {
                for &(v, w) in &self.down[u] {
                    edges.push((pos[u], pos[v], w));
                }
            }
            edges.sort_unstable();
            let size = order[r + 1].len();
            let mut tree = vec![0i64; size + 1];
            let mut seen = 0i64;
            for &(_, p, w) in &edges {
                // Weight already counted at positions ≤ p.
                let mut at_most = 0;
                let mut i = p + 1;
                while i > 0 {
                    at_most += tree[i];
                    i &= i - 1;
                }
                total += w * (seen - at_most);
                seen += w;
                let mut i = p + 1;
                while i <= size {
                    tree[i] += w;
                    i += i & i.wrapping_neg();
                }
            }
        }
        total
    }
}

/// The weighted median of sorted positions (Gansner et al.): the middle one, or
/// between the two middle ones, leaning toward the side whose positions are
/// packed closer.
fn median(p: &[f64]) -> f64 {
    let m = p.len() / 2;
    if p.len() % 2 == 1 {
        p[m]
    } else if p.len() == 2 {
        (p[0] + p[1]) / 2.0
    } else {
        let left = p[m - 1] - p[0];
        let right = p[p.len() - 1] - p[m];
        if left + right == 0.0 {
            (p[m - 1] + p[m]) / 2.0
        } else {
            (p[m - 1] * right + p[m] * left) / (left + right)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untangles_a_crossed_pair() {
        // 0 → 3 and 1 → 2 cross when layer 1 is [2, 3] in the start order.
        let layers = Layers::new(vec![0, 0, 1, 1], &[(0, 3, 1), (1, 2, 1)]);
        let (_, order) = layers.order_counted(&Watch::new(&|| false));
        let pos = layers.positions(&order);
        assert_eq!(layers.crossings(&order, &pos), 0);
    }

    #[test]
    fn counts_crossings() {
        let layers = Layers::new(vec![0, 0, 1, 1], &[(0, 3, 1), (1, 2, 2)]);
        let order = vec![vec![0, 1], vec![2, 3]];
        let pos = layers.positions(&order);
        assert_eq!(layers.crossings(&order, &pos), 2);
    }
}
