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
fn greedy(n: usize, edges: &[(usize, usize, i64)]) -> Vec<bool> {
    let mut rest = Rest::new(n, edges);
    let mut head: Vec<usize> = Vec::with_capacity(n);
    let mut tail: Vec<usize> = Vec::new();
    while rest.left > 0 {
        // Sinks go to the end, sources to the front, as long as there are any;
        // then the node with the most weight going out rather than in.
        let mut moved = true;
        while moved {
            moved = false;
            for v in 0..n {
                if rest.gone[v] {
                    continue;
                }
                if rest.out_deg[v] == 0 {
                    tail.push(v);
                } else if rest.in_deg[v] == 0 {
                    head.push(v);
                } else {
                    continue;
                }
                rest.remove(v);
                moved = true;
            }
        }
        let pick = (0..n)
            .filter(|&v| !rest.gone[v])
            .max_by_key(|&v| (rest.out_w[v] - rest.in_w[v], std::cmp::Reverse(v)));
        if let Some(v) = pick {
            head.push(v);
            rest.remove(v);
        }
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
        Rest {
            edges,
            out_deg: outs.iter().map(Vec::len).collect(),
            in_deg: ins.iter().map(Vec::len).collect(),
            outs,
            ins,
            gone: vec![false; n],
            left: n,
            out_w,
            in_w,
        }
    }

    /// Takes `v` out, with its edges.
    fn remove(&mut self, v: usize) {
        self.gone[v] = true;
        self.left -= 1;
        for &e in &self.outs[v] {
            let (_, t, w) = self.edges[e];
            self.in_deg[t] -= 1;
            self.in_w[t] -= w;
        }
        for &e in &self.ins[v] {
            let (s, _, w) = self.edges[e];
            self.out_deg[s] -= 1;
            self.out_w[s] -= w;
        }
    }
}

/// Turns back each reversed edge whose own direction closes no cycle with the
/// edges as they now stand.
fn minimise(n: usize, edges: &[(usize, usize, i64)], flip: &mut [bool]) {
    let flipped: Vec<usize> = (0..edges.len()).filter(|&e| flip[e]).collect();
    // Each test is a search of the whole graph; past this many the greedy order
    // is left as it is rather than spending quadratic time on a huge tangle.
    if flipped.len() > 2000 {
        return;
    }
    let mut outs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (e, &(s, t, _)) in edges.iter().enumerate() {
        let (a, _) = if flip[e] { (t, s) } else { (s, t) };
        outs[a].push(e);
    }
    let mut seen = vec![0usize; n];
    let mut stamp = 0;
    let mut stack = Vec::new();
    for e in flipped {
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
