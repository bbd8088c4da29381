//! `layout`: small graphs read from the bytes, with node sizes, edges (loops,
//! repeats, both ways, now and then one to a node that does not exist),
//! clusters (nested, now and then invalid) and spacing, laid out by every
//! algorithm of `inkboard-layout` in the direction and from the start of the
//! crossing reduction the bytes pick, and once
//! more with a stop check that says stop after a few questions. The layout must
//! not panic, must answer the same twice, and must keep its promises: a node
//! placed for every node, inside the drawing, no two overlapping, and every
//! edge a path of finite points; a stopped layout answers `Stopped` or a
//! layout. Slow or huge inputs are failures too (`-timeout`, `-rss_limit_mb`).

#![no_main]

use std::cell::Cell;

use inkboard_layout::{
    layout_until, metrics, Algorithm, Cluster, Direction, Graph, Layout, LayoutError, Options,
    Padding, Size, Start,
};
use libfuzzer_sys::fuzz_target;

/// The bytes, read one at a time; zeros once they run out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let (first, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        *first
    }

    /// A size or spacing: mostly an ordinary one, now and then zero, huge or
    /// not a number (which the layout refuses).
    fn length(&mut self) -> f64 {
        match self.byte() {
            0 => 0.0,
            1 => 1e9,
            2 => f64::NAN,
            3 => -1.0,
            b => f64::from(b) * 2.0 + 0.5,
        }
    }
}

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

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let n = usize::from(b.byte() % 65);
    let nodes: Vec<Size> = (0..n).map(|_| Size::new(b.length(), b.length())).collect();
    let m = usize::from(b.byte()) % (4 * n + 1);
    // An edge names a node past the end when its byte says so (255).
    let end = |b: &mut Bytes| match b.byte() {
        255 => n,
        x => usize::from(x) % n.max(1),
    };
    let edges: Vec<(usize, usize)> = (0..m).map(|_| (end(&mut b), end(&mut b))).collect();
    let mut clusters: Vec<Cluster> = Vec::new();
    for c in 0..usize::from(b.byte() % 5) {
        let members = usize::from(b.byte() % 9);
        let parent = match b.byte() % 4 {
            0 if c > 0 => Some(usize::from(b.byte()) % c),
            1 => Some(usize::from(b.byte()) % 5),
            _ => None,
        };
        clusters.push(Cluster {
            nodes: (0..members).map(|_| end(&mut b)).collect(),
            parent,
            padding: Padding {
                top: b.length(),
                right: 10.0,
                bottom: 10.0,
                left: 10.0,
            },
            min: Size::new(f64::from(b.byte()), 0.0),
        });
    }
    let graph = Graph { nodes, edges };
    let mut options = Options {
        algorithm: ALGORITHMS[usize::from(b.byte()) % ALGORITHMS.len()],
        direction: DIRECTIONS[usize::from(b.byte()) % DIRECTIONS.len()],
        node_spacing: b.length(),
        layer_spacing: b.length(),
        start: Start::Best,
    };
    let stop_after = u32::from(b.byte());
    // The crossing reduction's start from a byte already read, so that the
    // seeds keep their meaning: the default, the other, or a shuffled one.
    options.start = match stop_after % 3 {
        0 => Start::Best,
        1 => Start::Other,
        _ => Start::Shuffled(u64::from(stop_after)),
    };
    // Clusters only for the layered layout, now and then for another too.
    let clusters = if options.algorithm == Algorithm::Layered || stop_after % 7 == 0 {
        clusters
    } else {
        Vec::new()
    };

    let never = || false;
    let out = layout_until(&graph, &clusters, &options, &never);
    let again = layout_until(&graph, &clusters, &options, &never);
    assert_eq!(
        written(&out),
        written(&again),
        "the same input lays out the same"
    );
    if let Ok(layout) = &out {
        assert_eq!(layout.nodes.len(), graph.nodes.len());
        assert_eq!(layout.edges.len(), graph.edges.len());
        assert_eq!(layout.clusters.len(), clusters.len());
        for (p, s) in layout.nodes.iter().zip(&graph.nodes) {
            assert!(p.x.is_finite() && p.y.is_finite(), "{p:?}");
            assert!(p.x >= -1e-6 && p.y >= -1e-6, "{p:?} inside the drawing");
            assert!(p.x + s.w <= layout.width + 1e-3 * (1.0 + layout.width));
            assert!(p.y + s.h <= layout.height + 1e-3 * (1.0 + layout.height));
        }
        for path in &layout.edges {
            assert!(path.len() >= 2);
            assert!(path.iter().all(|p| p.x.is_finite() && p.y.is_finite()));
        }
        let overlaps = metrics::overlaps(&layout.nodes, &graph.nodes);
        assert!(overlaps.is_empty(), "{overlaps:?}");
    }

    // Stopped after a few questions: a stop, or (when it asked fewer) the same.
    let asked = Cell::new(0u32);
    let stop = || {
        asked.set(asked.get() + 1);
        asked.get() > stop_after % 16
    };
    match layout_until(&graph, &clusters, &options, &stop) {
        Err(LayoutError::Stopped) => {}
        other => assert_eq!(
            written(&other),
            written(&out),
            "a stop that never came changes nothing"
        ),
    }
});

/// An answer as text, to compare two answers: an error can carry a size that is
/// not a number (`BadSize`), which `==` finds unequal to itself; the text of a
/// float is exact, so equal texts are equal answers.
fn written(answer: &Result<Layout, LayoutError>) -> String {
    format!("{answer:?}")
}
