//! Layout benchmarks (plain `std::time`, medians of repeated runs):
//!
//! - the layered, tree and grid layouts of `bench200` (200 nodes, 300 edges); the
//!   layered one must stay within 50 ms, also with half its nodes in ten
//!   clusters (`layout_clustered`);
//! - the layered layout of random graphs with cross edges (`tests/common/graphs.rs`):
//!   random links, with and without cycles, and chains with cross edges (the
//!   kind of issue 29's finding, whose layers hold thirty to three hundred
//!   times more places than nodes), at 200/279, 300/420 and 1,000/1,500 nodes
//!   and edges; the 300/420 ones must stay within 1 s (the `layout` tool's
//!   3 s, routing included);
//! - quality side by side with Graphviz `dot` on every fixture, when `dot` is on
//!   PATH: crossings, bends, area and time (dot's includes starting the process).
//!
//! Run with `cargo bench -p inkboard-layout --bench layout`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::graphs;
use inkboard_layout::{
    layout, layout_clustered, Algorithm, Cluster, Direction, Graph, Options, Padding, Size,
};

fn median(mut f: impl FnMut(), runs: usize) -> Duration {
    f();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let big = common::fixture("bench200");
    assert_eq!((big.graph.nodes.len(), big.graph.edges.len()), (200, 300));
    for algorithm in [
        Algorithm::Layered,
        Algorithm::Tree,
        Algorithm::OrgChart,
        Algorithm::Mindmap,
        Algorithm::Grid,
    ] {
        let options = Options {
            algorithm,
            ..Options::default()
        };
        let t = median(
            || {
                std::hint::black_box(layout(&big.graph, &options).expect("layout"));
            },
            21,
        );
        let budget = if algorithm == Algorithm::Layered {
            if ms(t) <= 50.0 {
                " (budget 50 ms: ok)"
            } else {
                " (budget 50 ms: OVER)"
            }
        } else {
            ""
        };
        println!(
            "{algorithm:?} 200 nodes / 300 edges: {:.2} ms{budget}",
            ms(t)
        );
    }

    // Nodes 0..100 in ten clusters of ten, as frames with a title.
    let clusters: Vec<Cluster> = (0..10)
        .map(|c| Cluster {
            nodes: (c * 10..c * 10 + 10).collect(),
            padding: Padding {
                top: 42.0,
                right: 20.0,
                bottom: 20.0,
                left: 20.0,
            },
            ..Cluster::default()
        })
        .collect();
    let t = median(
        || {
            std::hint::black_box(
                layout_clustered(&big.graph, &clusters, &Options::default()).expect("layout"),
            );
        },
        21,
    );
    let verdict = if ms(t) <= 50.0 { "ok" } else { "OVER" };
    println!(
        "Layered, 10 clusters, 200 nodes / 300 edges: {:.2} ms (budget 50 ms: {verdict})",
        ms(t)
    );

    cross_edges();

    let dot = common::have_dot();
    if !dot {
        println!("\n`dot` is not on PATH: the comparison with Graphviz is skipped.");
    }
    println!(
        "\n{:<13} {:>5} | {:>9} {:>6} {:>10} {:>8} | {:>9} {:>6} {:>10} {:>8} | {:>6} {:>6}",
        "fixture",
        "dir",
        "crossings",
        "bends",
        "area",
        "ms",
        "dot cross",
        "bends",
        "area",
        "ms",
        "cross%",
        "area%"
    );
    for name in common::FIXTURES {
        let fx = common::fixture(name);
        for direction in [Direction::Down, Direction::Right] {
            let options = Options {
                direction,
                ..Options::default()
            };
            let mut out = None;
            let t = median(
                || out = Some(layout(&fx.graph, &options).expect("layout")),
                5,
            );
            let ours = common::quality_of(out.as_ref().expect("ran"), &fx.graph);
            let mut line = format!(
                "{:<13} {:>5} | {:>9} {:>6} {:>10.0} {:>8.2} |",
                name,
                format!("{direction:?}").to_lowercase(),
                ours.crossings,
                ours.bends,
                ours.area,
                ms(t)
            );
            if let Some(d) = dot.then(|| common::dot(&fx.graph, &options)).flatten() {
                let theirs = common::quality(&d.nodes, &fx.graph.nodes, &d.paths, &d.ends);
                let pct = |a: f64, b: f64| {
                    if b == 0.0 {
                        if a == 0.0 {
                            100.0
                        } else {
                            f64::INFINITY
                        }
                    } else {
                        100.0 * a / b
                    }
                };
                line += &format!(
                    " {:>9} {:>6} {:>10.0} {:>8.2} | {:>5.0}% {:>5.0}%",
                    theirs.crossings,
                    theirs.bends,
                    theirs.area,
                    ms(d.took),
                    pct(ours.crossings as f64, theirs.crossings as f64),
                    pct(ours.area, theirs.area)
                );
            } else {
                line += " (no dot)";
            }
            println!("{line}");
        }
    }
}

/// The layered layout of graphs with cross edges, as `layout` and
/// `import_mermaid` meet them.
fn cross_edges() {
    let graph = |n: usize, edges: Vec<(usize, usize)>| Graph {
        nodes: graphs::sizes(n)
            .into_iter()
            .map(|(w, h)| Size::new(w, h))
            .collect(),
        edges,
    };
    let cases: [(&str, usize, Graph); 7] = [
        (
            "random links",
            200,
            graph(200, graphs::links(200, 279, 7, false)),
        ),
        (
            "chain + cross edges (issue 29)",
            200,
            graph(200, graphs::chain(200, 279, 7)),
        ),
        (
            "random links",
            300,
            graph(300, graphs::links(300, 420, 7, false)),
        ),
        (
            "random links, cycles",
            300,
            graph(300, graphs::links(300, 420, 7, true)),
        ),
        (
            "chain + cross edges",
            300,
            graph(300, graphs::chain(300, 420, 7)),
        ),
        (
            "random links",
            1000,
            graph(1000, graphs::links(1000, 1500, 7, false)),
        ),
        (
            "random links, cycles",
            1000,
            graph(1000, graphs::links(1000, 1500, 7, true)),
        ),
    ];
    println!();
    for (name, n, g) in cases {
        let runs = if n >= 1000 { 3 } else { 5 };
        let t = median(
            || {
                std::hint::black_box(layout(&g, &Options::default()).expect("layout"));
            },
            runs,
        );
        let verdict = match n {
            300 if ms(t) <= 1000.0 => " (budget 1 s: ok)",
            300 => " (budget 1 s: OVER)",
            _ => "",
        };
        println!(
            "Layered, {name}, {n} nodes / {} edges: {:.1} ms{verdict}",
            g.edges.len(),
            ms(t)
        );
    }
    let g = graph(1000, graphs::chain(1000, 1500, 7));
    let t = median(
        || {
            std::hint::black_box(layout(&g, &Options::default()).expect("layout"));
        },
        1,
    );
    println!(
        "Layered, chain + cross edges, 1000 nodes / 1500 edges (about 300,000 places): {:.0} ms",
        ms(t)
    );
}
