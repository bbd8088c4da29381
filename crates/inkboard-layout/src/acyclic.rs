//! Breaking cycles: which edges to turn around so that the graph becomes acyclic
//! and every other edge can run with the layout's direction. Finding the fewest is
//! NP-hard, and the fewest is not what a reader wants anyway: in a flowchart with a
//! loop back ("retry", "fix and check again") the main path should run down the
//! page and the loop back up, whatever the counts. So, as `dot` does, a depth-first
//! search from the sources, in the order the nodes and edges were given, reverses
//! the edges that lead back to a node on its path (the back edges): the path the
//! author wrote first runs forward. Nodes on cycles no source reaches start the
//! search in input order. Where that reverses more (by weight) than the greedy
//! order of Eades, Lin and Smyth (sources first, sinks last, otherwise the node
//! with the most weight going out rather than in), as in a tangle of nested
//! cycles, the greedy set is taken instead. Either way a second pass turns back
//! every reversed edge that closes no cycle on its own, so that the set is
//! minimal: no edge in it could be spared.

/// For each edge `(source, target, weight)` of a graph on `n` nodes (no self
/// loops), whether to reverse it. A plain cycle given as a → b → c → a has its
/// closing edge c → a reversed.
pub(crate) fn reversed(n: usize, edges: &[(usize, usize, i64)]) -> Vec<bool> {
    let (dfs, greedy) = both(n, edges);
    let weight = |flip: &[bool]| -> i64 {
        edges
            .iter()
            .zip(flip)
            .filter(|(_, &f)| f)
            .map(|(e, _)| e.2)
            .sum()
    };
    if weight(&greedy) < weight(&dfs) {
        greedy
    } else {
        dfs
    }
}

/// The reversed edges of both rules: depth-first, then greedy.
pub(crate) fn both(n: usize, edges: &[(usize, usize, i64)]) -> (Vec<bool>, Vec<bool>) {
    (depth_first(n, edges), greedy(n, edges))
}

/// The back edges of a depth-first search from the sources in input order, made
/// minimal.
pub(crate) fn depth_first(n: usize, edges: &[(usize, usize, i64)]) -> Vec<bool> {
    let mut outs: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut has_in = vec![false; n];
    for (e, &(s, t, _)) in edges.iter().enumerate() {
        outs[s].push(e);
        has_in[t] = true;
    }
    // 0: not met, 1: on the search's path, 2: done.
    let mut state = vec![0u8; n];
    let mut flip = vec![false; edges.len()];
    // The path as (node, next out-edge to follow): iterative, so a long chain
    // cannot overflow the stack.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let roots = (0..n).filter(|&v| !has_in[v]).chain(0..n);
    for root in roots {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        stack.push((root, 0));
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&e) = outs[v].get(*next) {
                *next += 1;
                let t = edges[e].1;
                match state[t] {
                    0 => {
                        state[t] = 1;
                        stack.push((t, 0));
                    }
                    1 => flip[e] = true,
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    minimise(n, edges, &mut flip);
    flip
}

/// The reversed edges of Eades, Lin and Smyth's greedy order (sources first,
/// sinks last, otherwise the node with the most weight going out rather than in),
/// made minimal. Ties go to the earlier node.
///
/// Sinks and sources are taken in sweeps over the nodes in index order, each
/// sweep taking the ones it meets (a node that becomes one behind the sweep
/// waits for the next); when a sweep finds none, the node of most weight out
/// rather than in is taken and the sweeps start again from the first node.
/// The waiting sinks and sources and the nodes by weight are kept in ordered
/// sets, so each step costs a logarithm, not a pass over the nodes.
fn greedy(n: usize, edges: &[(usize, usize, i64)]) -> Vec<bool> {
    let mut rest = Rest::new(n, edges);
    let mut head: Vec<usize> = Vec::with_capacity(n);
    let mut tail: Vec<usize> = Vec::new();
    // Where the current sweep is: the next sink or source taken is the first
    // at or after it, else (a new sweep) the first of all.
    let mut at = 0;
    while rest.left > 0 {
        let next = rest
            .ends
            .range(at..)
            .next()
            .or_else(|| rest.ends.iter().next());
        let v = match next {
            Some(&v) => {
                at = v + 1;
                if rest.out_deg[v] == 0 {
                    tail.push(v);
                } else {
                    head.push(v);
                }
                v
            }
            None => {
                let Some(&(_, std::cmp::Reverse(v))) = rest.by_weight.iter().next_back() else {
                    break;
                };
                head.push(v);
                at = 0;
                v
            }
        };
        rest.remove(v);
    }
    head.extend(tail.into_iter().rev());
    let mut pos = vec![0usize; n];
    for (i, &v) in head.iter().enumerate() {
        pos[v] = i;
    }
    let mut flip: Vec<bool> = edges.iter().map(|&(s, t, _)| pos[s] > pos[t]).collect();
    minimise(n, edges, &mut flip);
    flip
}

/// The nodes not yet ordered, with their degrees and weights counting only the
/// edges among them.
struct Rest<'a> {
    edges: &'a [(usize, usize, i64)],
    outs: Vec<Vec<usize>>,
    ins: Vec<Vec<usize>>,
    gone: Vec<bool>,
    left: usize,
    out_deg: Vec<usize>,
    in_deg: Vec<usize>,
    out_w: Vec<i64>,
    in_w: Vec<i64>,
    /// The sinks and sources among them.
    ends: std::collections::BTreeSet<usize>,
    /// The others, by weight out less weight in, the earlier node first
    /// among equals (last in the set's order).
    by_weight: std::collections::BTreeSet<(i64, std::cmp::Reverse<usize>)>,
}

impl<'a> Rest<'a> {
    fn new(n: usize, edges: &'a [(usize, usize, i64)]) -> Self {
        let mut out_w = vec![0i64; n];
        let mut in_w = vec![0i64; n];
        let mut outs: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut ins: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, &(s, t, w)) in edges.iter().enumerate() {
            out_w[s] += w;
            in_w[t] += w;
            outs[s].push(i);
            ins[t].push(i);
        }
        let mut rest = Rest {
            edges,
            out_deg: outs.iter().map(Vec::len).collect(),
            in_deg: ins.iter().map(Vec::len).collect(),
            outs,
            ins,
            gone: vec![false; n],
            left: n,
            out_w,
            in_w,
            ends: Default::default(),
            by_weight: Default::default(),
        };
        for v in 0..n {
            rest.file(v);
        }
        rest
    }

    /// Whether `v` is a sink or a source now.
    fn is_end(&self, v: usize) -> bool {
        self.out_deg[v] == 0 || self.in_deg[v] == 0
    }

    /// Files `v` where it belongs now: with the sinks and sources, or by weight.
    fn file(&mut self, v: usize) {
        if self.is_end(v) {
            self.ends.insert(v);
        } else {
            self.by_weight
                .insert((self.out_w[v] - self.in_w[v], std::cmp::Reverse(v)));
        }
    }

    /// Takes `v` out of where it is filed.
    fn unfile(&mut self, v: usize) {
        if self.is_end(v) {
            self.ends.remove(&v);
        } else {
            self.by_weight
                .remove(&(self.out_w[v] - self.in_w[v], std::cmp::Reverse(v)));
        }
    }

    /// Takes `v` out, with its edges.
    fn remove(&mut self, v: usize) {
        self.unfile(v);
        self.gone[v] = true;
        self.left -= 1;
        for k in 0..self.outs[v].len() {
            let (_, t, w) = self.edges[self.outs[v][k]];
            if self.gone[t] {
                continue;
            }
            self.unfile(t);
            self.in_deg[t] -= 1;
            self.in_w[t] -= w;
            self.file(t);
        }
        for k in 0..self.ins[v].len() {
            let (s, _, w) = self.edges[self.ins[v][k]];
            if self.gone[s] {
                continue;
            }
            self.unfile(s);
            self.out_deg[s] -= 1;
            self.out_w[s] -= w;
            self.file(s);
        }
    }
}

/// The work [`minimise`] may do for each node and edge of the graph, a unit
/// being a node reached or an edge followed. Each test searches the graph, so
/// a tangle of many reversed edges would cost their number times the graph:
/// past this budget the edges not yet tested stay reversed (the graph is then
/// still acyclic, though a reversal might have been spared).
pub(crate) const MINIMISE_WORK_PER_ITEM: usize = 256;

/// Turns back each reversed edge whose own direction closes no cycle with the
/// edges as they now stand.
fn minimise(n: usize, edges: &[(usize, usize, i64)], flip: &mut [bool]) {
    let flipped: Vec<usize> = (0..edges.len()).filter(|&e| flip[e]).collect();
    let mut budget = MINIMISE_WORK_PER_ITEM.saturating_mul(n + edges.len());
    let mut outs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (e, &(s, t, _)) in edges.iter().enumerate() {
        let (a, _) = if flip[e] { (t, s) } else { (s, t) };
        outs[a].push(e);
    }
    let mut seen = vec![0usize; n];
    let mut stamp = 0;
    let mut stack = Vec::new();
    for e in flipped {
        if budget == 0 {
            break;
        }
        let (s, t, _) = edges[e];
        // Restoring s → t closes a cycle when t already reaches s.
        stamp += 1;
        stack.clear();
        stack.push(t);
        seen[t] = stamp;
        let mut reaches = false;
        while let Some(v) = stack.pop() {
            if v == s {
                reaches = true;
                break;
            }
            budget = budget.saturating_sub(1 + outs[v].len());
            for &f in &outs[v] {
                if f == e {
                    continue;
                }
                let (fs, ft, _) = edges[f];
                let w = if flip[f] { fs } else { ft };
                if seen[w] != stamp {
                    seen[w] = stamp;
                    stack.push(w);
                }
            }
        }
        if !reaches {
            flip[e] = false;
            outs[t].retain(|&f| f != e);
            outs[s].push(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_cycle_loses_its_closing_edge() {
        let edges = [(0, 1, 1), (1, 2, 1), (2, 0, 1)];
        assert_eq!(reversed(3, &edges), vec![false, false, true]);
    }

    #[test]
    fn the_loop_back_is_reversed_not_the_main_path() {
        // start → a → b → c, c back to a, and c on to d and e.
        let edges = [
            (0, 1, 1),
            (1, 2, 1),
            (2, 3, 1),
            (3, 1, 1),
            (3, 4, 1),
            (3, 5, 1),
        ];
        assert_eq!(
            reversed(6, &edges),
            vec![false, false, false, true, false, false]
        );
    }

    #[test]
    fn a_dag_keeps_every_edge() {
        let edges = [(0, 1, 1), (0, 2, 1), (2, 1, 1), (1, 3, 1)];
        assert_eq!(reversed(4, &edges), vec![false; 4]);
    }

    #[test]
    fn two_way_edges_lose_one() {
        let edges = [(0, 1, 1), (1, 0, 1)];
        let r = reversed(2, &edges);
        assert_eq!(r.iter().filter(|&&f| f).count(), 1);
    }
}
