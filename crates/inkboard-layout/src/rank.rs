//! Layers alone ([`ranks`]): the first two phases of the layered layout
//! (cycles broken depth-first, layers by network simplex) for a caller that
//! places the nodes itself, such as the swimlane layout of `inkboard-arrange`,
//! which keeps each node in its lane and lines the lanes' layers up across
//! them, as a BPMN diagram reads.

use crate::normal::Normal;
use crate::watch::Watch;
use crate::{acyclic, check, simplex, Graph, LayoutError, Options};

/// The layer of each node of `graph`, from 0 in each connected component: every
/// edge runs from a lower layer to a higher one, except the fewest needed to
/// break its cycles (the back edges of a depth-first search in the order the
/// edges were given, so the path written first runs forward), and the total
/// length of the edges is least. Node sizes are not read. `stop` is asked as
/// [`crate::layout_until`] asks it.
///
/// Errors: an edge naming a node that does not exist, or a stop.
pub fn ranks(graph: &Graph, stop: &dyn Fn() -> bool) -> Result<Vec<usize>, LayoutError> {
    let watch = Watch::new(stop);
    if watch.stopped_now() {
        return Err(LayoutError::Stopped);
    }
    check(graph, &Options::default())?;
    let n = graph.nodes.len();
    let normal = Normal::new(n, &graph.edges);
    let flip = acyclic::depth_first(n, &normal.edges);
    let cons: Vec<simplex::Edge> = normal
        .edges
        .iter()
        .zip(&flip)
        .map(|(&(s, t, w), &f)| {
            let (tail, head) = if f { (t, s) } else { (s, t) };
            simplex::Edge {
                tail,
                head,
                minlen: 1,
                weight: w,
            }
        })
        .collect();
    let rank = simplex::solve(n, &cons, None, &watch).rank;
    if watch.has_stopped() || watch.stopped_now() {
        return Err(LayoutError::Stopped);
    }
    // Each component from its own layer 0.
    let mut out = vec![0; n];
    for comp in normal.components(n, &[]) {
        let min = comp.iter().map(|&v| rank[v]).min().unwrap_or(0);
        for v in comp {
            out[v] = (rank[v] - min) as usize;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Size;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Graph {
        Graph {
            nodes: vec![Size::new(10.0, 10.0); n],
            edges: edges.to_vec(),
        }
    }

    #[test]
    fn a_loop_back_keeps_the_main_path_forward() {
        // 0 → 1 → 2 → 3, and 2 back to 1: the back edge is the one turned.
        let r = ranks(&graph(4, &[(0, 1), (1, 2), (2, 3), (2, 1)]), &|| false).unwrap();
        assert_eq!(r, vec![0, 1, 2, 3]);
    }

    #[test]
    fn components_each_start_at_zero_and_edges_stay_short() {
        // 0 → 2 and 1 → 2 put 0 and 1 side by side; 3 → 4 starts over.
        let r = ranks(&graph(5, &[(0, 2), (1, 2), (3, 4)]), &|| false).unwrap();
        assert_eq!(r, vec![0, 0, 1, 0, 1]);
    }

    #[test]
    fn a_bad_edge_and_a_stop_are_refused() {
        assert!(matches!(
            ranks(&graph(1, &[(0, 3)]), &|| false),
            Err(LayoutError::NoSuchNode { .. })
        ));
        assert_eq!(
            ranks(&graph(2, &[(0, 1)]), &|| true),
            Err(LayoutError::Stopped)
        );
    }
}
