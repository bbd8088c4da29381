//! Connectors laid out together: ends sharing a side are spread along it, diagonal
//! pairs take one bend, labels sit on the longest leg and keep apart.

mod common;

use common::*;
use inkboard_core::{Arrow, Connector, Geom, Point, Rect, Route};
use inkboard_render::resolve;
use inkboard_render::scene::{Part, Seg};

/// The corners of each connector's line and its label background, in page order.
fn connectors(b: &Build) -> Vec<(Vec<Point>, Option<Rect>)> {
    resolve(&b.board, PAGE)
        .items
        .iter()
        .filter(|i| i.kind == "connector")
        .map(|i| {
            let mut paths = i.parts.iter().filter_map(|p| match p {
                Part::Path(p) => Some(&p.segs),
                _ => None,
            });
            let line = paths
                .next()
                .unwrap()
                .iter()
                .filter_map(|s| match *s {
                    Seg::Move(p) | Seg::Line(p) => Some(p),
                    _ => None,
                })
                .collect();
            // The label's background is the one closed path after the heads.
            let label = i.parts.iter().find_map(|p| match p {
                Part::Path(p) if p.stroke.is_none() => {
                    let pts = p.segs.iter().filter_map(|s| match *s {
                        Seg::Move(a) | Seg::Line(a) => Some(a),
                        Seg::Cubic(_, _, a) => Some(a),
                        Seg::Close => None,
                    });
                    Rect::around(pts)
                }
                _ => None,
            });
            (line, label)
        })
        .collect()
}

/// The flow of the demo board: a diamond above a box, the box back to a shape up
/// and to the left.
fn demo_like() -> Build {
    let mut b = Build::new();
    let check = b.shape(Geom::Rect, [310.0, 100.0, 145.0, 72.0], "Check stock");
    let decide = b.shape(Geom::Diamond, [502.0, 80.0, 165.0, 120.0], "In stock?");
    let supplier = b.shape(Geom::Rounded, [481.5, 290.0, 206.0, 72.0], "Order");
    b.connector(Connector {
        text: "no".into(),
        ..Connector::new(obj(&decide), obj(&supplier))
    });
    b.connector(Connector {
        text: "restocked".into(),
        ..Connector::new(obj(&supplier), obj(&check))
    });
    b
}

#[test]
fn a_diagonal_pair_takes_one_bend_clear_of_other_shapes() {
    let lines = connectors(&demo_like());
    let (no, back) = (&lines[0].0, &lines[1].0);
    // Straight down into the top of the box; the way back leaves by its left side
    // (the top would run up through the diamond) and enters the target from below.
    assert_eq!(no.len(), 2);
    assert_eq!(back.len(), 3, "{back:?}");
    assert!((back[0].x - 481.5).abs() < 1e-6, "{back:?}");
    assert!((back[2].y - 172.0).abs() < 4.0, "{back:?}");
    for w in no.windows(2).chain(back.windows(2)) {
        let square = (w[0].x - w[1].x).abs() < 1e-6 || (w[0].y - w[1].y).abs() < 1e-6;
        assert!(square, "{w:?}");
    }
}

#[test]
fn labels_sit_on_the_longest_leg_and_do_not_overlap() {
    let lines = connectors(&demo_like());
    let back = &lines[1];
    let label = back.1.unwrap();
    // The vertical leg is the longer one; the label is centred on it.
    let leg_x = back.0[1].x;
    assert!((label.center().x - leg_x).abs() < 1e-6, "{label:?}");

    let mut b = Build::new();
    let l = b.shape(Geom::Rect, [0.0, 0.0, 100.0, 50.0], "l");
    let r = b.shape(Geom::Rect, [400.0, 0.0, 100.0, 50.0], "r");
    for (from, to, text) in [(&l, &r, "request"), (&r, &l, "response")] {
        b.connector(Connector {
            text: text.into(),
            ..Connector::new(obj(from), obj(to))
        });
    }
    let lines = connectors(&b);
    let (a, c) = (lines[0].1.unwrap(), lines[1].1.unwrap());
    assert!(!a.overlaps(&c), "{a:?} {c:?}");
}

#[test]
fn ends_on_one_side_are_spread_in_order() {
    let mut b = Build::new();
    let server = b.shape(Geom::Rect, [0.0, 200.0, 300.0, 60.0], "server");
    for x in [220.0, 0.0, 110.0] {
        let c = b.shape(Geom::Rect, [x, 0.0, 80.0, 40.0], "");
        b.connect(obj(&c), obj(&server), Route::Orthogonal, Arrow::Arrow);
    }
    let ends: Vec<f64> = connectors(&b)
        .iter()
        .map(|(line, _)| line.last().unwrap().x)
        .collect();
    // In the order of their sources (right, left, middle), the middle one straight.
    assert!(ends[1] < ends[2] && ends[2] < ends[0], "{ends:?}");
    assert!((ends[2] - 150.0).abs() < 1e-6, "{ends:?}");
    // The same page always lays out the same.
    assert_eq!(resolve(&b.board, PAGE), resolve(&b.board, PAGE));
}
