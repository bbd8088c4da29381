//! No input makes the layout panic, overlap nodes or send an edge of an acyclic
//! graph against the direction: empty graphs, one node, self loops, repeated and
//! two-way edges, zero and huge sizes, and a few hundred random graphs in every
//! algorithm and direction. Bad input is an error, never a panic.

mod common;

use inkboard_layout::{
    layout, layout_until, metrics, Algorithm, Cluster, Direction, Graph, LayoutError, Options,
    Padding, Size, MAX_SIZE,
};

const ALGORITHMS: [Algorithm; 5] = [
    Algorithm::Layered,
    Algorithm::Tree,
    Algorithm::OrgChart,
    Algorithm::Grid,
    Algorithm::Mindmap,
];
const DIRECTIONS: [Direction; 4] = [
    Direction::Down,
    Direction::Right,
    Direction::Up,
    Direction::Left,
];

/// Lays `graph` out every way and checks what always holds.
fn check_all(graph: &Graph) {
    let acyclic = common::acyclic(graph);
    for algorithm in ALGORITHMS {
        for direction in DIRECTIONS {
            let options = Options {
                algorithm,
                direction,
                ..Options::default()
            };
            let out = layout(graph, &options).expect("layout");
            assert_eq!(out.nodes.len(), graph.nodes.len());
            assert_eq!(out.edges.len(), graph.edges.len());
            let overlaps = metrics::overlaps(&out.nodes, &graph.nodes);
            assert!(
                overlaps.is_empty(),
                "{algorithm:?} {direction:?}: {overlaps:?} in {graph:?}"
            );
            // A mind map's branches run both ways from its root, by design.
            if acyclic && !matches!(algorithm, Algorithm::Grid | Algorithm::Mindmap) {
                let against = common::against(&out, graph, direction);
                assert!(
                    against.is_empty(),
                    "{algorithm:?} {direction:?}: {against:?} in {graph:?}"
                );
            }
            for (p, s) in out.nodes.iter().zip(&graph.nodes) {
                assert!(p.x >= -1e-9 && p.y >= -1e-9, "{p:?}");
                assert!(p.x + s.w <= out.width + 1e-6 && p.y + s.h <= out.height + 1e-6);
            }
            for path in &out.edges {
                assert!(path.len() >= 2);
                assert!(path.iter().all(|p| p.x.is_finite() && p.y.is_finite()));
            }
        }
    }
}

fn boxes(n: usize) -> Vec<Size> {
    (0..n)
        .map(|i| Size::new(60.0 + (i % 3) as f64 * 40.0, 40.0 + (i % 2) as f64 * 30.0))
        .collect()
}

#[test]
fn small_and_odd_graphs() {
    check_all(&Graph::default());
    check_all(&Graph {
        nodes: boxes(1),
        edges: vec![],
    });
    check_all(&Graph {
        nodes: boxes(1),
        edges: vec![(0, 0), (0, 0)],
    });
    check_all(&Graph {
        nodes: boxes(2),
        edges: vec![(0, 1), (0, 1), (1, 0), (1, 1)],
    });
    check_all(&Graph {
        nodes: boxes(5),
        edges: vec![],
    });
    check_all(&Graph {
        nodes: vec![Size::new(0.0, 0.0); 4],
        edges: vec![(0, 1), (1, 2), (2, 3)],
    });
    check_all(&Graph {
        nodes: boxes(3),
        edges: vec![(0, 1), (1, 2), (2, 0)],
    });
    // A long chain and a wide star.
    let chain = Graph {
        nodes: boxes(300),
        edges: (0..299).map(|i| (i, i + 1)).collect(),
    };
    check_all(&chain);
    let star = Graph {
        nodes: boxes(80),
        edges: (1..80).map(|i| (0, i)).collect(),
    };
    check_all(&star);
    let complete = Graph {
        nodes: boxes(8),
        edges: (0..8).flat_map(|a| (0..8).map(move |b| (a, b))).collect(),
    };
    check_all(&complete);
}

#[test]
fn huge_sizes_are_laid_out_or_refused() {
    let big = Graph {
        nodes: vec![Size::new(1e8, 1e8); 3],
        edges: vec![(0, 1), (0, 2)],
    };
    check_all(&big);
    let too_big = Graph {
        nodes: vec![Size::new(MAX_SIZE, MAX_SIZE); 3],
        edges: vec![(0, 1), (0, 2)],
    };
    for algorithm in ALGORITHMS {
        let options = Options {
            algorithm,
            ..Options::default()
        };
        assert!(matches!(
            layout(&too_big, &options),
            Err(LayoutError::TooLarge(_))
        ));
    }
}

#[test]
fn bad_input_is_an_error() {
    let options = Options::default();
    let g = Graph {
        nodes: boxes(2),
        edges: vec![(0, 2)],
    };
    assert_eq!(
        layout(&g, &options),
        Err(LayoutError::NoSuchNode {
            edge: 0,
            node: 2,
            nodes: 2
        })
    );
    for bad in [f64::NAN, -1.0, f64::INFINITY, 2e9] {
        let g = Graph {
            nodes: vec![Size::new(bad, 10.0)],
            edges: vec![],
        };
        assert!(matches!(
            layout(&g, &options),
            Err(LayoutError::BadSize { node: 0, .. })
        ));
        let spaced = Options {
            node_spacing: bad,
            ..Options::default()
        };
        assert!(matches!(
            layout(&Graph::default(), &spaced),
            Err(LayoutError::BadSpacing(_))
        ));
    }
}

#[test]
fn random_graphs() {
    let mut seed = 0x2545F4914F6CDD1Du64;
    let mut next = |m: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m.max(1) as u64) as usize
    };
    for round in 0..150 {
        let n = 1 + next(25);
        let m = next(2 * n + 1);
        let acyclic = round % 2 == 0;
        let nodes = (0..n)
            .map(|_| Size::new(next(200) as f64, next(120) as f64))
            .collect();
        let edges = (0..m)
            .map(|_| {
                let (a, b) = (next(n), next(n));
                if acyclic && a > b {
                    (b, a)
                } else {
                    (a, b)
                }
            })
            .filter(|(a, b)| !acyclic || a != b)
            .collect();
        check_all(&Graph { nodes, edges });
    }
}

#[test]
fn the_same_graph_gives_the_same_layout() {
    let fx = common::fixture("dag50");
    let a = layout(&fx.graph, &Options::default()).unwrap();
    let b = layout(&fx.graph, &Options::default()).unwrap();
    assert_eq!(a, b);
}

/// The fuzz target `layout` found a layout too large to draw (a node 1e9
/// wide) answering `TooLarge` with another figure when a stop check said stop
/// in the middle (seed `fuzz/corpus/layout/stopped_too_large`): the stop cut a
/// search short, its plainer answer was wider, and the error went out before
/// the stop was looked at. A stop, once seen, is the answer.
#[test]
fn a_stop_inside_a_layout_too_large_says_stopped() {
    let mut nodes = vec![Size::new(100.0, 60.0); 12];
    nodes[8] = Size::new(MAX_SIZE, 0.0);
    nodes[9] = Size::new(0.0, 0.0);
    let graph = Graph {
        nodes,
        edges: vec![
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 5),
            (5, 6),
            (10, 7),
            (7, 8),
            (8, 9),
            (9, 10),
            (10, 11),
            (0, 7),
            (2, 9),
            (3, 11),
            (5, 6),
        ],
    };
    let cluster = |nodes: Vec<usize>| Cluster {
        nodes,
        padding: Padding {
            top: 40.5,
            right: 10.0,
            bottom: 10.0,
            left: 10.0,
        },
        min: Size::new(40.0, 0.0),
        ..Cluster::default()
    };
    let clusters = [cluster(vec![1, 2, 3]), cluster(vec![8, 9])];
    let options = Options {
        node_spacing: 0.0,
        layer_spacing: 60.5,
        ..Options::default()
    };
    let full = layout_until(&graph, &clusters, &options, &|| false);
    assert!(matches!(full, Err(LayoutError::TooLarge(_))), "{full:?}");
    // Stopped after every number of questions up to where none is needed.
    for after in 0..200 {
        let asked = std::cell::Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() > after
        };
        match layout_until(&graph, &clusters, &options, &stop) {
            Err(LayoutError::Stopped) => {}
            other => assert_eq!(other, full, "stopped after {after} questions"),
        }
    }
}
