//! The network simplex solver of Gansner, Koutsofios, North and Vo ("A technique
//! for drawing directed graphs", 1993), the optimiser `dot` uses. It finds integer
//! values `r` for the nodes of an acyclic constraint graph that minimise
//! `Σ weight·(r[head] − r[tail])` subject to `r[head] − r[tail] ≥ minlen` for every
//! edge. The layered layout uses it twice: for layers (short edges, few dummy
//! nodes) and for coordinates within layers (straight edges, compact drawing).
//!
//! Each pivot costs about the part of the tree it changes, not the whole graph,
//! as the paper's incremental update intends: after an exchange only the cut
//! values on the tree path between the entering edge's ends change (each by the
//! leaving edge's cut value), found by walking up from both ends to where they
//! meet. The tree is numbered in postorder (`low`, `lim`) once, for the first
//! cut values; after that it keeps each node's parent edge and subtree size
//! instead of numbers (numbering again after each exchange, as `dot` does, costs
//! the whole subtree above the exchange, which on a large drawing is most of
//! the tree): the entering edge is sought on the smaller side of the leaving
//! edge's cut, that side is the one moved, and the subtree that changes parent
//! is turned over along the path from its new root. The negative cut values are
//! kept in an ordered set, so the leaving edge is found without a scan of the
//! tree, and the first feasible tree grows by the least slack edge off it, taken
//! from a heap.
//!
//! The search has a budget, [`WORK_PER_ITEM`] units of work (a node or an edge
//! visited) for each node and edge of the problem and [`MAX_WORK`] in all
//! (the work before the first pivot is near-linear and not counted against
//! it): every pivot lowers the cost
//! or keeps it, and every tree it passes through is feasible, so when the budget
//! runs out (or the caller stops the layout) the values reached are kept, a
//! valid answer that may not be the optimum.
//!
//! Which pivot is taken (and so which of several optima is found) is decided
//! exactly as a plain implementation that recomputes everything would decide
//! it: the first [`SEARCH_SIZE`] negative tree edges from where the last search
//! ended, the most negative of them; the entering edge of least slack, the first
//! in input order among equals.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use crate::watch::Watch;

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
/// The work the search may do, per node and edge of the problem, before it
/// keeps the feasible values it has reached (a unit is a node or an edge
/// visited). The fixtures and the benchmark graphs use at most 99; a random
/// graph of 300 nodes and 420 edges with cycles 321.
pub(crate) const WORK_PER_ITEM: u64 = 400;
/// The most work one search may do, whatever the size of the problem (about
/// a second on the project's machine): past it a large drawing keeps more
/// bends than the optimum, but comes in time.
pub(crate) const MAX_WORK: u64 = 40_000_000;

/// What [`solve`] found.
pub(crate) struct Solution {
    /// The value of each node; every constraint holds.
    pub rank: Vec<i64>,
    /// Whether the search stopped before the optimum, its budget spent or the
    /// layout stopped: `rank` is feasible but may cost more than the least.
    /// (The tests read it; a layout learns of a spent budget from its watch.)
    #[cfg_attr(not(test), allow(dead_code))]
    pub cut_short: bool,
}

/// Solves the problem on `n` nodes. `start`, when given, must already satisfy
/// every constraint and is where the search begins; otherwise the longest-path
/// values are. If the constraints have a cycle (never, from this crate's callers),
/// the longest-path values of the acyclic part are returned unoptimised.
pub(crate) fn solve(n: usize, edges: &[Edge], start: Option<Vec<i64>>, watch: &Watch) -> Solution {
    let budget = WORK_PER_ITEM
        .saturating_mul((n + edges.len()) as u64)
        .min(MAX_WORK);
    solve_within(n, edges, start, watch, budget)
}

/// [`solve`] with `budget` units of work for the pivots.
pub(crate) fn solve_within(
    n: usize,
    edges: &[Edge],
    start: Option<Vec<i64>>,
    watch: &Watch,
    budget: u64,
) -> Solution {
    let mut s = Simplex::new(n, edges);
    let cut_short = s.run(start, watch, budget, false);
    watch.add_work(s.work);
    Solution {
        rank: s.rank,
        cut_short,
    }
}

struct Simplex<'a> {
    n: usize,
    edges: &'a [Edge],
    out: Vec<Vec<usize>>,
    inn: Vec<Vec<usize>>,
    rank: Vec<i64>,
    tree_edge: Vec<bool>,
    tree_adj: Vec<Vec<usize>>,
    /// The tree edges, in the order the leaving edge is sought in.
    tree_list: Vec<usize>,
    /// Each tree edge's place in `tree_list`.
    tree_pos: Vec<usize>,
    roots: Vec<usize>,
    /// The tree (by its root's place in `roots`) each node is in.
    tree_of: Vec<usize>,
    /// Added to the values of every node of a tree at the end: moving the rest
    /// of a tree instead of a large subtree moves the whole tree by this.
    offset: Vec<i64>,
    /// Each node's tree edge toward its tree's root (`NONE` at the root).
    par: Vec<usize>,
    /// How many nodes the subtree of each node holds.
    size: Vec<usize>,
    /// The first postorder numbering (`lim` a node's number, `low` the least in
    /// its subtree), for the first cut values only.
    low: Vec<usize>,
    lim: Vec<usize>,
    /// The node of each postorder number.
    postorder: Vec<usize>,
    cut: Vec<i64>,
    /// The places in `tree_list` whose edges have a negative cut value.
    negative: BTreeSet<usize>,
    search: usize,
    stack: Vec<(usize, usize)>,
    /// The nodes on the smaller side of the leaving edge's cut, each marked
    /// with `stamp` in `mark` (walks up the tree use `stamp` too).
    side: Vec<usize>,
    mark: Vec<u64>,
    stamp: u64,
    /// Units of work done (nodes and edges visited).
    work: u64,
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
            tree_pos: vec![NONE; edges.len()],
            roots: Vec::new(),
            tree_of: vec![0; n],
            offset: Vec::new(),
            par: vec![NONE; n],
            size: vec![1; n],
            low: vec![0; n],
            lim: vec![0; n],
            postorder: vec![0; n],
            cut: vec![0; edges.len()],
            negative: BTreeSet::new(),
            search: 0,
            stack: Vec::new(),
            side: Vec::new(),
            mark: vec![0; n],
            stamp: 0,
            work: 0,
        }
    }

    /// The whole search; true when it stopped short of the optimum. `verify`
    /// (tests) checks the cut values kept against fresh ones after each pivot.
    fn run(&mut self, start: Option<Vec<i64>>, watch: &Watch, budget: u64, verify: bool) -> bool {
        let n = self.n;
        match start {
            Some(r) if r.len() == n && self.feasible(&r) => self.rank = r,
            _ => {
                if !self.init_rank() {
                    return false;
                }
            }
        }
        self.feasible_tree();
        self.index_tree();
        self.cut_values();
        let (mut cut_short, base) = (false, self.work);
        while let Some(fi) = self.leave_edge() {
            if watch.stopped() {
                cut_short = true;
                break;
            }
            if self.work - base > budget {
                watch.note_cut_short();
                cut_short = true;
                break;
            }
            let Some((e, v, tail_side, side_below)) = self.enter_edge(self.tree_list[fi]) else {
                break;
            };
            self.exchange(fi, e, v, tail_side, side_below);
            if verify {
                self.verify();
            }
        }
        for v in 0..n {
            self.rank[v] += self.offset[self.tree_of[v]];
        }
        cut_short
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
        self.work += (self.n + self.edges.len()) as u64;
        done == self.n
    }

    /// Grows a spanning tree of tight edges (slack 0) in each component, shifting
    /// the tree found so far by the smallest slack whenever it can grow no further.
    ///
    /// The edge of smallest slack off the tree comes from one of two heaps: edges
    /// whose tail is in the tree (their slack falls as the tree moves up) and
    /// edges whose head is (theirs rises). A tree's values are kept less its
    /// total shift, and each heap entry as its slack when pushed plus (or less)
    /// that shift, so a shift moves nothing but one number. Among equal slacks
    /// the edge met first wins: of the node that joined the tree first, its
    /// edges out before its edges in.
    fn feasible_tree(&mut self) {
        type Heap = BinaryHeap<Reverse<(i64, usize, usize, usize)>>;
        let mut in_tree = vec![false; self.n];
        let (mut tails, mut heads): (Heap, Heap) = (BinaryHeap::new(), BinaryHeap::new());
        for start in 0..self.n {
            if in_tree[start] {
                continue;
            }
            self.roots.push(start);
            tails.clear();
            heads.clear();
            // The tree's shift since each member joined: a member's value is
            // `rank + shift`.
            let mut shift = 0i64;
            let mut comp: Vec<usize> = Vec::new();
            let mut stack = vec![start];
            let join = |s: &mut Simplex,
                        comp: &mut Vec<usize>,
                        tails: &mut Heap,
                        heads: &mut Heap,
                        in_tree: &mut [bool],
                        v: usize,
                        shift: i64| {
                in_tree[v] = true;
                s.rank[v] -= shift;
                let at = comp.len();
                comp.push(v);
                let (outs, ins) = (s.out[v].len(), s.inn[v].len());
                s.work += (outs + ins) as u64;
                for k in 0..outs + ins {
                    let e = if k < outs {
                        s.out[v][k]
                    } else {
                        s.inn[v][k - outs]
                    };
                    let Edge {
                        tail, head, minlen, ..
                    } = s.edges[e];
                    if k < outs && !in_tree[head] {
                        // Its value counts v's shift: v's is `rank + shift`.
                        let slack = s.rank[head] - (s.rank[v] + shift) - minlen;
                        tails.push(Reverse((slack + shift, at, k, e)));
                    } else if k >= outs && !in_tree[tail] {
                        let slack = (s.rank[v] + shift) - s.rank[tail] - minlen;
                        heads.push(Reverse((slack - shift, at, k, e)));
                    }
                }
            };
            join(
                self,
                &mut comp,
                &mut tails,
                &mut heads,
                &mut in_tree,
                start,
                shift,
            );
            loop {
                while let Some(v) = stack.pop() {
                    let (outs, ins) = (self.out[v].len(), self.inn[v].len());
                    self.work += (outs + ins) as u64;
                    for k in 0..outs + ins {
                        let e = if k < outs {
                            self.out[v][k]
                        } else {
                            self.inn[v][k - outs]
                        };
                        let w = self.other(e, v);
                        if in_tree[w] {
                            continue;
                        }
                        // v is in the tree (value `rank + shift`), w is not.
                        let Edge { minlen, .. } = self.edges[e];
                        let slack = if k < outs {
                            self.rank[w] - (self.rank[v] + shift) - minlen
                        } else {
                            (self.rank[v] + shift) - self.rank[w] - minlen
                        };
                        if slack == 0 {
                            self.add_tree_edge(e);
                            join(
                                self,
                                &mut comp,
                                &mut tails,
                                &mut heads,
                                &mut in_tree,
                                w,
                                shift,
                            );
                            stack.push(w);
                        }
                    }
                }
                // The least slack off the tree on each side, stale entries (both
                // ends in the tree now) dropped.
                let mut top = |heap: &mut Heap, tail_in: bool| loop {
                    let &Reverse((key, at, k, e)) = heap.peek()?;
                    let outside = if tail_in {
                        self.edges[e].head
                    } else {
                        self.edges[e].tail
                    };
                    if in_tree[outside] {
                        heap.pop();
                        self.work += 1;
                        continue;
                    }
                    let slack = if tail_in { key - shift } else { key + shift };
                    return Some((slack, at, k, e));
                };
                let best = match (top(&mut tails, true), top(&mut heads, false)) {
                    (Some(t), Some(h)) if h < t => Some((h, false)),
                    (Some(t), _) => Some((t, true)),
                    (None, Some(h)) => Some((h, false)),
                    (None, None) => None,
                };
                let Some(((s, _, _, e), tail_in)) = best else {
                    break;
                };
                let inside = if tail_in {
                    self.edges[e].tail
                } else {
                    self.edges[e].head
                };
                shift += if tail_in { s } else { -s };
                stack.push(inside);
            }
            for &v in &comp {
                self.rank[v] += shift;
            }
        }
    }

    fn add_tree_edge(&mut self, e: usize) {
        self.tree_edge[e] = true;
        self.tree_pos[e] = self.tree_list.len();
        self.tree_list.push(e);
        self.tree_adj[self.edges[e].tail].push(e);
        self.tree_adj[self.edges[e].head].push(e);
    }

    /// Numbers the tree in postorder: `lim` is a node's number, `low` the smallest
    /// number in its subtree, so `w` is below `v` exactly when
    /// `low[v] <= lim[w] <= lim[v]`. Also sets each node's parent edge and
    /// subtree size, and notes which tree each node is in.
    fn index_tree(&mut self) {
        let mut counter = 0;
        let mut stack = std::mem::take(&mut self.stack);
        for r in 0..self.roots.len() {
            let root = self.roots[r];
            self.par[root] = NONE;
            let from = counter;
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
                    self.size[v] = counter + 1 - self.low[v];
                    self.postorder[counter] = v;
                    counter += 1;
                    stack.pop();
                }
            }
            for i in from..counter {
                self.tree_of[self.postorder[i]] = r;
            }
        }
        self.work += self.n as u64;
        self.stack = stack;
        self.offset = vec![0; self.roots.len()];
    }

    fn below(&self, v: usize, w: usize) -> bool {
        self.low[v] <= self.lim[w] && self.lim[w] <= self.lim[v]
    }

    /// The cut value of every tree edge: the weight of the edges that cross the cut
    /// it makes in its own direction, less the weight crossing against it. Children
    /// come before parents in postorder, so each is computed from its subtree's.
    fn cut_values(&mut self) {
        for i in 0..self.n {
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
            self.work += (self.out[v].len() + self.inn[v].len()) as u64;
            self.set_cut(f, sum);
        }
    }

    /// Sets a tree edge's cut value, keeping the set of negative ones.
    fn set_cut(&mut self, f: usize, value: i64) {
        self.cut[f] = value;
        if value < 0 {
            self.negative.insert(self.tree_pos[f]);
        } else {
            self.negative.remove(&self.tree_pos[f]);
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

    /// A tree edge with a negative cut value, as its place in `tree_list`: of
    /// the first [`SEARCH_SIZE`] from where the last search ended (going round),
    /// the most negative.
    fn leave_edge(&mut self) -> Option<usize> {
        let mut best: Option<(usize, i64)> = None;
        let after = self.negative.range(self.search..);
        let before = self.negative.range(..self.search);
        for &i in after.chain(before).take(SEARCH_SIZE) {
            let c = self.cut[self.tree_list[i]];
            if best.is_none_or(|(_, b)| c < b) {
                best = Some((i, c));
            }
        }
        self.work += SEARCH_SIZE as u64;
        let (i, _) = best?;
        self.search = i;
        Some(i)
    }

    /// The node at the other end of `v`'s parent edge.
    fn parent(&self, v: usize) -> usize {
        self.other(self.par[v], v)
    }

    /// Lists the nodes on the smaller side of tree edge `f`'s cut in `side`,
    /// marking them; `v` is `f`'s lower end. True when that side is the
    /// subtree of `v`.
    fn smaller_side(&mut self, f: usize, v: usize) -> bool {
        let total = self.size[self.roots[self.tree_of[v]]];
        let below = self.size[v] <= total - self.size[v];
        let start = if below { v } else { self.other(f, v) };
        self.stamp += 1;
        self.side.clear();
        self.side.push(start);
        self.mark[start] = self.stamp;
        let mut i = 0;
        while let Some(&x) = self.side.get(i) {
            i += 1;
            for &t in &self.tree_adj[x] {
                let y = self.other(t, x);
                if t != f && self.mark[y] != self.stamp {
                    self.mark[y] = self.stamp;
                    self.side.push(y);
                }
            }
        }
        self.work += self.side.len() as u64;
        below
    }

    /// The non-tree edge of least slack that crosses `f`'s cut the other way
    /// (the first in input order among equals), sought from the smaller side
    /// (left listed in `side`). Also `f`'s lower end, whether that is `f`'s
    /// tail, and whether the side listed is the subtree below `f`.
    fn enter_edge(&mut self, f: usize) -> Option<(usize, usize, bool, bool)> {
        let Edge { tail, head, .. } = self.edges[f];
        let (v, tail_side) = if self.par[tail] == f {
            (tail, true)
        } else {
            (head, false)
        };
        let below = self.smaller_side(f, v);
        // Crossing the other way: from outside into the subtree when f's tail is
        // in it, from inside out otherwise; either way from the listed side to
        // a node not listed, in or out as that side is.
        let inward = tail_side == below;
        let mut best: Option<(i64, usize)> = None;
        let mut seen = 0;
        for &x in &self.side {
            let edges = if inward { &self.inn[x] } else { &self.out[x] };
            seen += edges.len();
            for &e in edges {
                if !self.tree_edge[e] && self.mark[self.other(e, x)] != self.stamp {
                    let key = (self.slack(e), e);
                    if best.is_none_or(|b| key < b) {
                        best = Some(key);
                    }
                }
            }
        }
        self.work += seen as u64;
        best.map(|(_, e)| (e, v, tail_side, below))
    }

    /// Swaps tree edge `tree_list[fi]` for `e` ([`Simplex::enter_edge`]'s
    /// answer: `v`, `tail_side` and `below` describe the cut and the side
    /// listed): the subtree cut off is moved so that `e` becomes tight (or the
    /// rest of its tree the other way, when that is smaller), the cut values on
    /// the tree path between `e`'s ends are updated, and the subtree is hung
    /// from `e`.
    fn exchange(&mut self, fi: usize, e: usize, v: usize, tail_side: bool, below: bool) {
        let f = self.tree_list[fi];
        let delta = self.slack(e);
        if delta > 0 {
            // The subtree holds e's head when f's tail is in it.
            let d = if tail_side { -delta } else { delta };
            let d = if below { d } else { -d };
            for &x in &self.side {
                self.rank[x] += d;
            }
            if !below {
                self.offset[self.tree_of[v]] -= d;
            }
            self.work += self.side.len() as u64;
        }
        let value = self.cut[f];
        let Edge {
            tail: et, head: eh, ..
        } = self.edges[e];
        let lca = self.meet(et, eh);
        self.tree_update(et, lca, value, true);
        self.tree_update(eh, lca, value, false);
        // The subtree's size leaves the nodes above it up to `lca`, and comes
        // to those above e's end outside it.
        let (inside, outside) = if tail_side { (eh, et) } else { (et, eh) };
        let moved = self.size[v];
        let mut u = self.other(f, v);
        while u != lca {
            self.size[u] -= moved;
            u = self.parent(u);
            self.work += 1;
        }
        let mut u = outside;
        while u != lca {
            self.size[u] += moved;
            u = self.parent(u);
            self.work += 1;
        }
        // Turned over: from e's end inside up to v, each node's parent edge
        // becomes the one it had below, and its size the subtree's less what
        // was below it.
        let (mut u, mut up, mut size) = (inside, e, moved);
        loop {
            let (old_par, old_size) = (self.par[u], self.size[u]);
            self.par[u] = up;
            self.size[u] = size;
            self.work += 1;
            if u == v {
                break;
            }
            size = moved - old_size;
            up = old_par;
            u = self.other(old_par, u);
        }
        // The entering edge takes the leaving edge's place in the list.
        self.negative.remove(&fi);
        self.cut[f] = 0;
        self.tree_edge[f] = false;
        self.tree_pos[f] = NONE;
        self.tree_edge[e] = true;
        self.tree_list[fi] = e;
        self.tree_pos[e] = fi;
        self.set_cut(e, -value);
        let Edge { tail, head, .. } = self.edges[f];
        self.tree_adj[tail].retain(|&x| x != f);
        self.tree_adj[head].retain(|&x| x != f);
        self.tree_adj[et].push(e);
        self.tree_adj[eh].push(e);
    }

    /// The lowest node above both `a` and `b` (in the same tree), found by
    /// walking up from both in turn until one walk meets the other's path: the
    /// steps are about twice the path between them, whatever the tree's depth.
    fn meet(&mut self, a: usize, b: usize) -> usize {
        self.stamp += 2;
        let (sa, sb) = (self.stamp - 1, self.stamp);
        let (mut u, mut w) = (a, b);
        self.mark[u] = sa;
        if self.mark[w] == sa {
            return w;
        }
        self.mark[w] = sb;
        loop {
            self.work += 1;
            if self.par[u] != NONE {
                u = self.parent(u);
                if self.mark[u] == sb {
                    return u;
                }
                self.mark[u] = sa;
            }
            if self.par[w] != NONE {
                w = self.parent(w);
                if self.mark[w] == sa {
                    return w;
                }
                self.mark[w] = sb;
            }
        }
    }

    /// Adds `value` to (with `dir`, or else takes it from) the cut value of each
    /// tree edge from `v` up to `top`, the edge's own direction deciding which
    /// (dot's `treeupdate`).
    fn tree_update(&mut self, mut v: usize, top: usize, value: i64, dir: bool) {
        while v != top {
            let e = self.par[v];
            let d = if v == self.edges[e].tail { dir } else { !dir };
            let c = if d {
                self.cut[e] + value
            } else {
                self.cut[e] - value
            };
            self.set_cut(e, c);
            self.work += 1;
            v = self.other(e, v);
        }
    }

    /// Checks the kept cut values, parents and sizes against fresh ones (tests).
    fn verify(&self) {
        let mut fresh = Simplex::new(self.n, self.edges);
        fresh.tree_edge.clone_from(&self.tree_edge);
        fresh.tree_adj.clone_from(&self.tree_adj);
        fresh.tree_list.clone_from(&self.tree_list);
        for (i, &e) in self.tree_list.iter().enumerate() {
            fresh.tree_pos[e] = i;
        }
        fresh.roots.clone_from(&self.roots);
        fresh.index_tree();
        fresh.cut_values();
        assert_eq!(fresh.par, self.par, "parent edges");
        assert_eq!(fresh.size, self.size, "subtree sizes");
        for &e in &self.tree_list {
            assert_eq!(fresh.cut[e], self.cut[e], "cut value of edge {e}");
        }
        assert_eq!(fresh.negative, self.negative, "negative cut values");
        for (e, edge) in self.edges.iter().enumerate() {
            let (t, h) = (self.tree_of[edge.tail], self.tree_of[edge.head]);
            assert_eq!(t, h, "edge {e} within one tree");
            assert!(self.slack(e) >= 0, "edge {e} feasible");
            assert!(
                !self.tree_edge[e] || self.slack(e) == 0,
                "tree edge {e} tight"
            );
        }
    }
}

#[cfg(test)]
mod tests;
