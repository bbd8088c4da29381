//! The mind map's rules on the tree fixtures and on random trees: the root lies
//! between its branches, the two sides are balanced (their heights differ by no
//! more than the largest branch and a gap), every node lies further out than its parent on
//! its branch's side, and no two edges cross.

mod common;

use inkboard_layout::{layout, metrics, Algorithm, Direction, Graph, Layout, Options, Size};

fn options(direction: Direction) -> Options {
    Options {
        algorithm: Algorithm::Mindmap,
        direction,
        ..Options::default()
    }
}

/// Checks the rules on a tree given as edges parent → child from node 0.
fn check_tree(name: &str, graph: &Graph) {
    let out = layout(graph, &options(Direction::Right)).expect("layout");
    assert!(
        metrics::overlaps(&out.nodes, &graph.nodes).is_empty(),
        "{name}: overlapping nodes"
    );
    let crossings = metrics::crossings(&out.edges, &graph.edges);
    assert_eq!(crossings, 0, "{name}: edges cross");
    let centre = |v: usize| out.nodes[v].x + graph.nodes[v].w / 2.0;
    let root = 0;
    let mut side = vec![0.0f64; graph.nodes.len()];
    for &(p, c) in &graph.edges {
        let s = if p == root {
            (centre(c) - centre(root)).signum()
        } else {
            side[p]
        };
        side[c] = s;
        assert!(
            (centre(c) - centre(p)) * s > 0.0,
            "{name}: node {c} is not further out than its parent {p}"
        );
    }
    let branches: Vec<usize> = graph
        .edges
        .iter()
        .filter(|e| e.0 == root)
        .map(|e| e.1)
        .collect();
    if branches.len() >= 2 {
        let height = |s: f64| side_height(&out, graph, &side, s);
        let (right, left) = (height(1.0), height(-1.0));
        assert!(right > 0.0 && left > 0.0, "{name}: one-sided");
        let largest = branches
            .iter()
            .map(|&b| subtree_height(&out, graph, b))
            .fold(0.0, f64::max);
        // The sides keep the branches' order, so the best split can leave them
        // uneven by up to one branch and the gap beside it.
        let gap = Options::default().node_spacing;
        assert!(
            (right - left).abs() <= largest + gap + 1e-6,
            "{name}: sides {right} and {left} differ by more than a branch ({largest})"
        );
    }
}

fn span(out: &Layout, graph: &Graph, nodes: impl Iterator<Item = usize>) -> f64 {
    let (mut lo, mut hi) = (f64::MAX, f64::MIN);
    for v in nodes {
        lo = lo.min(out.nodes[v].y);
        hi = hi.max(out.nodes[v].y + graph.nodes[v].h);
    }
    if hi < lo {
        0.0
    } else {
        hi - lo
    }
}

fn side_height(out: &Layout, graph: &Graph, side: &[f64], s: f64) -> f64 {
    span(out, graph, (1..graph.nodes.len()).filter(|&v| side[v] == s))
}

fn subtree_height(out: &Layout, graph: &Graph, b: usize) -> f64 {
    let mut inside = vec![b];
    let mut k = 0;
    while k < inside.len() {
        let v = inside[k];
        inside.extend(graph.edges.iter().filter(|e| e.0 == v).map(|e| e.1));
        k += 1;
    }
    span(out, graph, inside.into_iter())
}

#[test]
fn the_tree_fixture_makes_a_balanced_mind_map() {
    let fx = common::fixture("tree100");
    check_tree("tree100", &fx.graph);
}

#[test]
fn random_trees_make_balanced_mind_maps() {
    let mut seed = 7u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for round in 0..60 {
        let n = 2 + next(40) as usize;
        let nodes = (0..n)
            .map(|_| Size::new(60.0 + next(100) as f64, 30.0 + next(40) as f64))
            .collect();
        // Each node's parent is an earlier node, so the edges form a tree from 0.
        let edges = (1..n).map(|c| (next(c as u64) as usize, c)).collect();
        check_tree(&format!("random tree {round}"), &Graph { nodes, edges });
    }
}

#[test]
fn going_down_the_branches_grow_above_and_below() {
    let graph = Graph {
        nodes: vec![Size::new(80.0, 40.0); 5],
        edges: vec![(0, 1), (0, 2), (0, 3), (0, 4)],
    };
    let out = layout(&graph, &options(Direction::Down)).expect("layout");
    let above = (1..5).filter(|&v| out.nodes[v].y < out.nodes[0].y).count();
    assert_eq!(above, 2, "{out:?}");
}

#[test]
fn the_mindmap_fixture_is_balanced() {
    let fx = common::fixture("mindmap");
    check_tree("mindmap", &fx.graph);
}
