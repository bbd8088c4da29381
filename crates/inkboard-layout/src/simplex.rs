//! The network simplex solver of Gansner, Koutsofios, North and Vo ("A technique
//! for drawing directed graphs", 1993), the optimiser `dot` uses. It finds integer
//! values `r` for the nodes of an acyclic constraint graph that minimise
//! `Σ weight·(r[head] − r[tail])` subject to `r[head] − r[tail] ≥ minlen` for every
//! edge. The layered layout uses it twice: for layers (short edges, few dummy
//! nodes) and for coordinates within layers (straight edges, compact drawing).
//!
//! Limitations: the tree is re-indexed and all cut values recomputed after every
//! pivot (O(V + E) each) instead of dot's incremental update; the iteration cap
//! keeps pathological inputs bounded, returning the feasible (if not optimal)
//! solution reached so far.

/// A constraint `r[head] − r[tail] ≥ minlen`, costing `weight` per unit of length.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge {
    pub tail: usize,
    pub head: usize,
    pub minlen: i64,
    pub weight: i64,
}

const NONE: usize = usize::MAX;
/// How many candidate leaving edges are compared before the most negative one is
/// taken (dot's `Search_size`).
const SEARCH_SIZE: usize = 30;

/// Solves the problem on `n` nodes. `start`, when given, must already satisfy
/// every constraint and is where the search begins; otherwise the longest-path
/// values are. If the constraints have a cycle (never, from this crate's callers),
/// the longest-path values of the acyclic part are returned unoptimised.
pub(crate) fn solve(
    n: usize,
    edges: &[Edge],
    start: Option<Vec<i64>>,
    max_iterations: usize,
) -> Vec<i64> {
    let mut s = Simplex::new(n, edges);
    match start {
        Some(r) if r.len() == n && s.feasible(&r) => s.rank = r,
        _ => {
            if !s.init_rank() {
                return s.rank;
            }
        }
    }
    s.feasible_tree();
    s.index_tree();
    s.cut_values();
    let mut iterations = 0;
    while iterations < max_iterations {
        let Some(fi) = s.leave_edge() else { break };
        let Some(e) = s.enter_edge(s.tree_list[fi]) else {
            break;
        };
        s.exchange(fi, e);
        iterations += 1;
    }
    s.rank
}

struct Simplex<'a> {
    n: usize,
    edges: &'a [Edge],
    out: Vec<Vec<usize>>,
    inn: Vec<Vec<usize>>,
    rank: Vec<i64>,
    tree_edge: Vec<bool>,
    tree_adj: Vec<Vec<usize>>,
    tree_list: Vec<usize>,
    roots: Vec<usize>,
    par: Vec<usize>,
    low: Vec<usize>,
    lim: Vec<usize>,
    postorder: Vec<usize>,
    cut: Vec<i64>,
    search: usize,
}

impl<'a> Simplex<'a> {
    fn new(n: usize, edges: &'a [Edge]) -> Self {
        let mut out = vec![Vec::new(); n];
        let mut inn = vec![Vec::new(); n];
        for (i, e) in edges.iter().enumerate() {
            out[e.tail].push(i);
            inn[e.head].push(i);
        }
        Simplex {
            n,
            edges,
            out,
            inn,
            rank: vec![0; n],
            tree_edge: vec![false; edges.len()],
            tree_adj: vec![Vec::new(); n],
            tree_list: Vec::new(),
            roots: Vec::new(),
            par: vec![NONE; n],
            low: vec![0; n],
            lim: vec![0; n],
            postorder: Vec::with_capacity(n),
            cut: vec![0; edges.len()],
            search: 0,
        }
    }

    fn slack(&self, e: usize) -> i64 {
        let e = &self.edges[e];
        self.rank[e.head] - self.rank[e.tail] - e.minlen
    }

    fn feasible(&self, r: &[i64]) -> bool {
        self.edges.iter().all(|e| r[e.head] - r[e.tail] >= e.minlen)
    }

    fn other(&self, e: usize, v: usize) -> usize {
        let e = &self.edges[e];
        if e.tail == v {
            e.head
        } else {
            e.tail
        }
    }

    /// Longest-path values from the sources; false if the constraints have a cycle.
    fn init_rank(&mut self) -> bool {
        let mut pending: Vec<usize> = self.inn.iter().map(Vec::len).collect();
        let mut ready: Vec<usize> = (0..self.n).filter(|&v| pending[v] == 0).collect();
        let mut done = 0;
        while let Some(v) = ready.pop() {
            done += 1;
            for &e in &self.out[v] {
                let Edge { head, minlen, .. } = self.edges[e];
                self.rank[head] = self.rank[head].max(self.rank[v] + minlen);
                pending[head] -= 1;
                if pending[head] == 0 {
                    ready.push(head);
                }
            }
        }
        done == self.n
    }

    /// Grows a spanning tree of tight edges (slack 0) in each component, shifting
    /// the tree found so far by the smallest slack whenever it can grow no further.
    fn feasible_tree(&mut self) {
        let mut in_tree = vec![false; self.n];
        for start in 0..self.n {
            if in_tree[start] {
                continue;
            }
            self.roots.push(start);
            in_tree[start] = true;
            let mut comp = vec![start];
            let mut stack = vec![start];
            loop {
                while let Some(v) = stack.pop() {
                    for k in 0..self.out[v].len() + self.inn[v].len() {
                        let e = if k < self.out[v].len() {
                            self.out[v][k]
                        } else {
                            self.inn[v][k - self.out[v].len()]
                        };
                        let w = self.other(e, v);
                        if !in_tree[w] && self.slack(e) == 0 {
                            in_tree[w] = true;
                            self.add_tree_edge(e);
                            comp.push(w);
                            stack.push(w);
                        }
                    }
                }
                let mut best: Option<(i64, usize)> = None;
                for &v in &comp {
                    for &e in self.out[v].iter().chain(&self.inn[v]) {
                        if !in_tree[self.other(e, v)] {
                            let s = self.slack(e);
                            if best.is_none_or(|(b, _)| s < b) {
                                best = Some((s, e));
                            }
                        }
                    }
                }
                let Some((s, e)) = best else { break };
                let inside = if in_tree[self.edges[e].tail] {
                    self.edges[e].tail
                } else {
                    self.edges[e].head
                };
                let delta = if inside == self.edges[e].tail { s } else { -s };
                for &v in &comp {
                    self.rank[v] += delta;
                }
                stack.push(inside);
            }
        }
    }

    fn add_tree_edge(&mut self, e: usize) {
        self.tree_edge[e] = true;
        self.tree_list.push(e);
        self.tree_adj[self.edges[e].tail].push(e);
        self.tree_adj[self.edges[e].head].push(e);
    }

    /// Numbers the tree in postorder: `lim` is a node's number, `low` the smallest
    /// number in its subtree, so `w` is below `v` exactly when
    /// `low[v] <= lim[w] <= lim[v]`.
    fn index_tree(&mut self) {
        self.postorder.clear();
        let mut counter = 0;
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for r in 0..self.roots.len() {
            let root = self.roots[r];
            self.par[root] = NONE;
            self.low[root] = counter;
            stack.push((root, 0));
            while let Some(&mut (v, ref mut next)) = stack.last_mut() {
                if let Some(&e) = self.tree_adj[v].get(*next) {
                    *next += 1;
                    if e == self.par[v] {
                        continue;
                    }
                    let w = self.other(e, v);
                    self.par[w] = e;
                    self.low[w] = counter;
                    stack.push((w, 0));
                } else {
                    self.lim[v] = counter;
                    counter += 1;
                    self.postorder.push(v);
                    stack.pop();
                }
            }
        }
    }

    fn below(&self, v: usize, w: usize) -> bool {
        self.low[v] <= self.lim[w] && self.lim[w] <= self.lim[v]
    }

    /// The cut value of every tree edge: the weight of the edges that cross the cut
    /// it makes in its own direction, less the weight crossing against it. Children
    /// come before parents in postorder, so each is computed from its subtree's.
    fn cut_values(&mut self) {
        for i in 0..self.postorder.len() {
            let v = self.postorder[i];
            let f = self.par[v];
            if f == NONE {
                continue;
            }
            let tail_below = self.edges[f].tail == v;
            let mut sum = 0;
            for &e in self.out[v].iter().chain(&self.inn[v]) {
                sum += self.x_val(e, v, tail_below);
            }
            self.cut[f] = sum;
        }
    }

    /// One edge's share of the cut value of `v`'s parent edge (dot's `x_val`).
    fn x_val(&self, e: usize, v: usize, tail_below: bool) -> i64 {
        let other = self.other(e, v);
        let edge = &self.edges[e];
        let outside = !self.below(v, other);
        let mut rv = if outside {
            edge.weight
        } else {
            let c = if self.tree_edge[e] { self.cut[e] } else { 0 };
            c - edge.weight
        };
        let mut d = if tail_below {
            edge.head == v
        } else {
            edge.tail == v
        };
        if outside {
            d = !d;
        }
        if !d {
            rv = -rv;
        }
        rv
    }

    /// A tree edge with a negative cut value, as its place in `tree_list`.
    fn leave_edge(&mut self) -> Option<usize> {
        let len = self.tree_list.len();
        let mut best: Option<(usize, i64)> = None;
        let mut found = 0;
        for k in 0..len {
            let i = (self.search + k) % len;
            let c = self.cut[self.tree_list[i]];
            if c < 0 {
                if best.is_none_or(|(_, b)| c < b) {
                    best = Some((i, c));
                }
                found += 1;
                if found >= SEARCH_SIZE {
                    break;
                }
            }
        }
        let (i, _) = best?;
        self.search = i;
        Some(i)
    }

    /// The non-tree edge of least slack that crosses `f`'s cut the other way.
    fn enter_edge(&self, f: usize) -> Option<usize> {
        let Edge { tail, head, .. } = self.edges[f];
        let (v, tail_side) = if self.lim[tail] < self.lim[head] {
            (tail, true)
        } else {
            (head, false)
        };
        let mut best: Option<(i64, usize)> = None;
        for (e, edge) in self.edges.iter().enumerate() {
            if self.tree_edge[e] {
                continue;
            }
            let (t_in, h_in) = (self.below(v, edge.tail), self.below(v, edge.head));
            let crosses = if tail_side {
                !t_in && h_in
            } else {
                t_in && !h_in
            };
            if crosses {
                let s = self.slack(e);
                if best.is_none_or(|(b, _)| s < b) {
                    best = Some((s, e));
                }
            }
        }
        best.map(|(_, e)| e)
    }

    /// Swaps tree edge `tree_list[fi]` for `e`, shifting the subtree cut off so that
    /// `e` becomes tight, then re-indexes the tree.
    fn exchange(&mut self, fi: usize, e: usize) {
        let f = self.tree_list[fi];
        let Edge { tail, head, .. } = self.edges[f];
        let v = if self.lim[tail] < self.lim[head] {
            tail
        } else {
            head
        };
        let delta = self.slack(e);
        if delta > 0 {
            let d = if self.below(v, self.edges[e].head) {
                -delta
            } else {
                delta
            };
            for x in 0..self.n {
                if self.below(v, x) {
                    self.rank[x] += d;
                }
            }
        }
        self.tree_edge[f] = false;
        self.tree_edge[e] = true;
        self.tree_list[fi] = e;
        self.tree_adj[tail].retain(|&x| x != f);
        self.tree_adj[head].retain(|&x| x != f);
        self.tree_adj[self.edges[e].tail].push(e);
        self.tree_adj[self.edges[e].head].push(e);
        self.index_tree();
        self.cut_values();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cost(edges: &[Edge], r: &[i64]) -> i64 {
        edges
            .iter()
            .map(|e| e.weight * (r[e.head] - r[e.tail]))
            .sum()
    }

    /// The least cost by trying every assignment in a small range.
    fn brute(n: usize, edges: &[Edge], range: i64) -> i64 {
        let mut best = i64::MAX;
        let mut r = vec![0i64; n];
        loop {
            if edges.iter().all(|e| r[e.head] - r[e.tail] >= e.minlen) {
                best = best.min(cost(edges, &r));
            }
            let mut i = 0;
            loop {
                if i == n {
                    return best;
                }
                r[i] += 1;
                if r[i] <= range {
                    break;
                }
                r[i] = 0;
                i += 1;
            }
        }
    }

    #[test]
    fn optimal_on_small_dags() {
        // A simple deterministic generator, so the test needs no crate.
        let mut seed = 12345u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for _ in 0..40 {
            let n = 2 + next(4) as usize;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if next(3) == 0 {
                        edges.push(Edge {
                            tail: a,
                            head: b,
                            minlen: next(3) as i64,
                            weight: next(4) as i64,
                        });
                    }
                }
            }
            let r = solve(n, &edges, None, 1000);
            assert!(edges.iter().all(|e| r[e.head] - r[e.tail] >= e.minlen));
            let want = brute(n, &edges, 2 * n as i64);
            assert_eq!(cost(&edges, &r), want, "{edges:?} → {r:?}");
        }
    }
}
