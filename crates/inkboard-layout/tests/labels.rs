//! Room for edge labels (`layout_labelled`, issue 31): in the layered layout,
//! the tree and the org chart, going down and going right, every labelled edge
//! between neighbouring layers has a gap between its shapes deep enough for its
//! label and the arrowhead's run, and the children of one parent whose lines
//! carry labels stand far enough apart along the layer for those labels to sit
//! side by side. The same graph laid out without its labels has neither, so the
//! checks can fail; and labels that are not one per edge, or of a bad size, are
//! refused.

use inkboard_layout::{
    layout, layout_labelled, Algorithm, Direction, Graph, Layout, LayoutError, Options, Size,
};

/// The run of line a label needs clear at each end of its gap (an arrowhead and
/// the room the renderer keeps from a route's ends).
const END_RUN: f64 = 16.0;

/// A parent over three children, one of which leads on to a fourth node; every
/// edge labelled, the labels wider than the shapes going down and longer than
/// the layer spacing going right.
fn graph() -> (Graph, Vec<Option<Size>>) {
    let graph = Graph {
        nodes: vec![
            Size::new(120.0, 50.0),
            Size::new(60.0, 40.0),
            Size::new(60.0, 40.0),
            Size::new(60.0, 40.0),
            Size::new(80.0, 40.0),
        ],
        edges: vec![(0, 1), (0, 2), (0, 3), (2, 4)],
    };
    let labels = vec![
        Some(Size::new(150.0, 22.0)),
        Some(Size::new(130.0, 22.0)),
        Some(Size::new(140.0, 22.0)),
        Some(Size::new(110.0, 40.0)),
    ];
    (graph, labels)
}

/// What is missing for the labels, in words; empty when every label has room.
fn lacking(g: &Graph, labels: &[Option<Size>], out: &Layout, direction: Direction) -> Vec<String> {
    let right = direction == Direction::Right;
    // (along from, along to, deep from, deep to) of a node, and a label's
    // (along, deep).
    let span = |v: usize| {
        let (p, s) = (out.nodes[v], g.nodes[v]);
        if right {
            (p.y, p.y + s.h, p.x, p.x + s.w)
        } else {
            (p.x, p.x + s.w, p.y, p.y + s.h)
        }
    };
    let extent = |s: Size| if right { (s.h, s.w) } else { (s.w, s.h) };
    let mut missing = Vec::new();
    for (e, &(s, t)) in g.edges.iter().enumerate() {
        let Some(label) = labels[e] else { continue };
        let gap = span(t).2 - span(s).3;
        let need = extent(label).1 + 2.0 * END_RUN;
        if gap < need {
            missing.push(format!("edge {e}: a gap of {gap}, under {need}"));
        }
    }
    // Siblings, neighbours along their layer: their labels side by side.
    let kids: Vec<usize> = (0..g.edges.len()).filter(|&e| g.edges[e].0 == 0).collect();
    for (i, &e) in kids.iter().enumerate() {
        for &f in &kids[i + 1..] {
            let (a, b) = (g.edges[e].1, g.edges[f].1);
            let centre = |v: usize| (span(v).0 + span(v).1) / 2.0;
            let apart = (centre(a) - centre(b)).abs();
            let need = match (labels[e], labels[f]) {
                (Some(x), Some(y)) => (extent(x).0 + extent(y).0) / 2.0,
                _ => 0.0,
            };
            if apart < need {
                missing.push(format!("edges {e} and {f}: {apart} apart, under {need}"));
            }
        }
    }
    missing
}

#[test]
fn labelled_edges_get_room_in_every_layout_and_direction() {
    let (g, labels) = graph();
    for algorithm in [Algorithm::Layered, Algorithm::Tree, Algorithm::OrgChart] {
        for direction in [Direction::Down, Direction::Right] {
            let opts = Options {
                algorithm,
                direction,
                ..Options::default()
            };
            let out = layout_labelled(&g, &labels, &[], &opts, &|| false).expect("layout");
            let missing = lacking(&g, &labels, &out, direction);
            assert!(
                missing.is_empty(),
                "{algorithm:?} {direction:?}: {missing:?}"
            );
            // Without its labels the same graph is drawn tighter: the check
            // above has something to find.
            let plain = layout(&g, &opts).expect("layout");
            assert!(
                !lacking(&g, &labels, &plain, direction).is_empty(),
                "{algorithm:?} {direction:?}: the plain layout already had room"
            );
        }
    }
}

#[test]
fn no_labels_is_the_plain_layout() {
    let (g, _) = graph();
    for algorithm in [Algorithm::Layered, Algorithm::Tree] {
        let opts = Options {
            algorithm,
            ..Options::default()
        };
        let none = vec![None; g.edges.len()];
        let plain = layout(&g, &opts).expect("layout");
        for labels in [&[][..], &none[..]] {
            let out = layout_labelled(&g, labels, &[], &opts, &|| false).expect("layout");
            assert_eq!(out, plain, "{algorithm:?}");
        }
    }
}

#[test]
fn labels_must_be_one_per_edge_and_of_a_good_size() {
    let (g, labels) = graph();
    let opts = Options::default();
    assert_eq!(
        layout_labelled(&g, &labels[..2], &[], &opts, &|| false),
        Err(LayoutError::LabelCount {
            labels: 2,
            edges: 4
        })
    );
    for bad in [f64::NAN, -1.0, f64::INFINITY] {
        let mut l = labels.clone();
        l[3] = Some(Size::new(bad, 10.0));
        assert!(matches!(
            layout_labelled(&g, &l, &[], &opts, &|| false),
            Err(LayoutError::BadLabelSize { edge: 3, .. })
        ));
    }
}
