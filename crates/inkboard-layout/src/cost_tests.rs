//! The layout's cost, counted: the work of the layered layout (nodes and edges
//! visited by its searches, [`Watch`]) on graphs of n, 2n and 4n nodes with
//! cross edges grows near-linearly, the graph of issue 29's finding is laid out
//! within a fixed amount of work, and a stop check ends a layout early.
//! Counting work instead of timing keeps these tests exact on a loaded machine.

use crate::watch::Watch;
use crate::{layout_until, layout_watched, Graph, LayoutError, Options, Size};

#[path = "../tests/common/graphs.rs"]
mod graphs;

/// A graph of the sizes and edges `graphs` makes.
fn graph(n: usize, edges: Vec<(usize, usize)>) -> Graph {
    let nodes = graphs::sizes(n)
        .into_iter()
        .map(|(w, h)| Size::new(w, h))
        .collect();
    Graph { nodes, edges }
}

fn rows(n: usize, seed: u64, cycles: bool) -> Graph {
    graph(n, graphs::rows(n, seed, cycles))
}

fn chain(n: usize, m: usize, seed: u64) -> Graph {
    graph(n, graphs::chain(n, m, seed))
}

/// The work of a layered layout of `graph`, and how many searches their
/// budgets cut short.
fn work(graph: &Graph) -> (u64, u32) {
    let never = || false;
    let watch = Watch::new(&never);
    layout_watched(graph, &[], &[], &Options::default(), &watch).expect("layout");
    (watch.work(), watch.cut_short())
}

#[test]
fn work_grows_near_linearly_with_cross_edges_and_cycles() {
    for cycles in [false, true] {
        let n = 200;
        let w: Vec<u64> = [n, 2 * n, 4 * n]
            .iter()
            .map(|&size| {
                let (w, cut) = work(&rows(size, 5, cycles));
                assert_eq!(cut, 0, "{size} nodes: no budget ran out");
                w
            })
            .collect();
        // Twice the nodes may cost twice the work times the growth of a
        // logarithm, with half as much again for the randomness of the
        // graphs; quadratic work would be four times.
        let log = |m: usize| (m as f64).log2();
        for (k, pair) in w.windows(2).enumerate() {
            let size = n << k;
            let bound = 2.0 * log(2 * size) / log(size) * 1.5;
            let ratio = pair[1] as f64 / pair[0] as f64;
            assert!(
                ratio <= bound,
                "cycles {cycles}: {size} → {} nodes, work {} → {} (×{ratio:.2}, at most ×{bound:.2})",
                2 * size,
                pair[0],
                pair[1]
            );
        }
        let ratio = w[2] as f64 / w[0] as f64;
        let bound = 4.0 * log(4 * n) / log(n) * 1.5;
        assert!(
            ratio <= bound,
            "cycles {cycles}: {w:?} (×{ratio:.2}, at most ×{bound:.2})"
        );
    }
}

#[test]
fn the_findings_graph_takes_bounded_work() {
    // Issue 29: 200 nodes and 279 connectors took 33 s (the layers hold
    // about 11,000 places); recomputing every cut value for each pivot came
    // to over 300 M units of work. Now it is the budgets' few tens of
    // millions at most, and the drawing is still valid.
    let graph = chain(200, 279, 7);
    let (w, _) = work(&graph);
    assert!(w <= 30_000_000, "work {w}");
    let out = crate::layout(&graph, &Options::default()).expect("layout");
    assert!(crate::metrics::overlaps(&out.nodes, &graph.nodes).is_empty());
    for &(a, b) in &graph.edges {
        assert!(
            out.nodes[b].y >= out.nodes[a].y + graph.nodes[a].h,
            "{a} → {b} runs down"
        );
    }
}

#[test]
fn labels_keep_the_work_near_linear_and_bounded() {
    // A layer of labels between every two layers adds a place per edge and
    // layer crossed: the work grows with the places, near-linearly still, and
    // the findings' graph with a label on every edge stays within a bound.
    let labelled = |graph: &Graph| -> (u64, u32) {
        let labels = vec![Some(Size::new(80.0, 20.0)); graph.edges.len()];
        let never = || false;
        let watch = Watch::new(&never);
        layout_watched(graph, &labels, &[], &Options::default(), &watch).expect("layout");
        (watch.work(), watch.cut_short())
    };
    let (small, cut) = labelled(&rows(200, 5, true));
    assert_eq!(cut, 0, "no budget ran out");
    let (large, _) = labelled(&rows(800, 5, true));
    let log = |m: f64| m.log2();
    let bound = 4.0 * log(800.0) / log(200.0) * 1.5;
    let ratio = large as f64 / small as f64;
    assert!(
        ratio <= bound,
        "{small} → {large} (×{ratio:.2}, at most ×{bound:.2})"
    );
    let (w, _) = labelled(&chain(200, 279, 7));
    assert!(w <= 60_000_000, "work {w}");
}

#[test]
fn a_stop_ends_the_layout_early() {
    // Asked to stop at its third question, the layout answers Stopped having
    // done a small part of its work, and asks no more once told.
    let graph = chain(200, 279, 7);
    let (full, _) = work(&graph);
    let asked = std::cell::Cell::new(0);
    let stop = || {
        asked.set(asked.get() + 1);
        asked.get() >= 3
    };
    let watch = Watch::new(&stop);
    let out = layout_watched(&graph, &[], &[], &Options::default(), &watch);
    assert!(matches!(out, Err(LayoutError::Stopped)), "{out:?}");
    assert_eq!(asked.get(), 3);
    assert!(watch.work() * 10 < full, "{} of {full}", watch.work());
    // Through the public entry point, a stop at once.
    let out = layout_until(&graph, &[], &Options::default(), &|| true);
    assert_eq!(out, Err(LayoutError::Stopped));
}

#[test]
fn too_many_places_are_refused_before_the_work() {
    // A chain of 2,000 nodes with 600 edges from its first half to its
    // second: about 600,000 places, refused with their number.
    let n = 2000;
    let mut edges: Vec<(usize, usize)> = (1..n).map(|v| (v - 1, v)).collect();
    edges.extend((0..600).map(|i| (i, n - 1 - i)));
    let graph = graph(n, edges);
    let (never, watch_work) = (|| false, std::cell::Cell::new(0));
    let watch = Watch::new(&never);
    let out = layout_watched(&graph, &[], &[], &Options::default(), &watch);
    watch_work.set(watch.work());
    match out {
        Err(LayoutError::TooManyPlaces(places)) => assert!(places > crate::MAX_PLACES),
        other => panic!("{other:?}"),
    }
    assert!(
        watch_work.get() < 1_000_000,
        "refused before ordering: {}",
        watch_work.get()
    );
}
