//! The org chart on its fixture: a parent with four or more children that are
//! all leaves has them stacked in two columns either side of the trunk below it
//! (so the level is no wider than two of them), other parents have their
//! children side by side as in the tidy tree, and every child lies below its
//! parent with nothing overlapping.

mod common;

use inkboard_layout::{layout, metrics, Algorithm, Options};

#[test]
fn many_leaves_are_stacked_either_side_of_the_trunk() {
    let fx = common::fixture("orgchart");
    let g = &fx.graph;
    let opts = Options {
        algorithm: Algorithm::OrgChart,
        ..Options::default()
    };
    let out = layout(g, &opts).expect("layout");
    assert!(metrics::overlaps(&out.nodes, &g.nodes).is_empty());
    let n = g.nodes.len();
    let kids =
        |v: usize| -> Vec<usize> { g.edges.iter().filter(|e| e.0 == v).map(|e| e.1).collect() };
    let centre = |v: usize| out.nodes[v].x + g.nodes[v].w / 2.0;
    let mut stacked = 0;
    for v in 0..n {
        let k = kids(v);
        for &c in &k {
            assert!(
                out.nodes[c].y >= out.nodes[v].y + g.nodes[v].h,
                "{c} below {v}"
            );
        }
        let leaves = k.iter().all(|&c| kids(c).is_empty());
        if k.len() >= 4 && leaves {
            stacked += 1;
            // Two columns, either side of the parent's centre, rows one below another.
            for (i, &c) in k.iter().enumerate() {
                let left = centre(c) < centre(v);
                assert_eq!(left, i % 2 == 0, "leaf {c} of {v} on the wrong side");
                if i >= 2 {
                    let above = k[i - 2];
                    assert!(out.nodes[c].y >= out.nodes[above].y + g.nodes[above].h);
                }
            }
        } else if k.len() >= 2 {
            // Side by side, on one level.
            let y = out.nodes[k[0]].y + g.nodes[k[0]].h / 2.0;
            for &c in &k {
                assert!((out.nodes[c].y + g.nodes[c].h / 2.0 - y).abs() < 1e-6);
            }
        }
    }
    assert!(stacked >= 3, "the fixture has parents of many leaves");
}
