//! The graph the algorithms actually work on: self loops dropped (they do not
//! affect placement), repeated edges merged into one weighted edge, and the
//! weakly connected components, which are laid out one by one and then packed
//! side by side.

/// A graph with at most one edge per ordered pair and no self loops.
pub(crate) struct Normal {
    /// (source, target, how many input edges it stands for).
    pub edges: Vec<(usize, usize, i64)>,
    /// For each input edge, the merged edge it became (`None` for a self loop).
    pub edge_of: Vec<Option<usize>>,
}

impl Normal {
    pub fn new(n: usize, input: &[(usize, usize)]) -> Normal {
        let mut index = std::collections::HashMap::new();
        let mut edges: Vec<(usize, usize, i64)> = Vec::new();
        let edge_of = input
            .iter()
            .map(|&(s, t)| {
                if s == t || s >= n || t >= n {
                    return None;
                }
                let i = *index.entry((s, t)).or_insert_with(|| {
                    edges.push((s, t, 0));
                    edges.len() - 1
                });
                edges[i].2 += 1;
                Some(i)
            })
            .collect();
        Normal { edges, edge_of }
    }

    /// The weakly connected components, with the pairs of `glue` counting as
    /// edges too: each a sorted list of nodes, listed in the order of their
    /// first node.
    pub fn components(&self, n: usize, glue: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(p: &mut [usize], mut x: usize) -> usize {
            while p[x] != x {
                p[x] = p[p[x]];
                x = p[x];
            }
            x
        }
        let pairs = self.edges.iter().map(|&(a, b, _)| (a, b));
        for (a, b) in pairs.chain(glue.iter().copied()) {
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            if ra != rb {
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
        let mut slot = vec![usize::MAX; n];
        let mut out: Vec<Vec<usize>> = Vec::new();
        for v in 0..n {
            let r = find(&mut parent, v);
            if slot[r] == usize::MAX {
                slot[r] = out.len();
                out.push(Vec::new());
            }
            out[slot[r]].push(v);
        }
        out
    }
}
