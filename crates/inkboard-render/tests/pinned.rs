//! Pinned sides and merged connectors: an end pinned to a side meets its object
//! there whatever the route's kind, ends pinned to one side still get ports of
//! their own, and connectors marked `merge` leaving one side share one port and
//! one trunk, with a junction dot where each branch leaves it.

mod common;

use common::*;
use inkboard_core::{Arrow, Connector, Geom, Point, Route, Side};
use inkboard_render::resolve;
use inkboard_render::scene::{Item, Part, Seg};

/// The connector items of the page, in page order.
fn items(b: &Build) -> Vec<Item> {
    resolve(&b.board, PAGE)
        .items
        .into_iter()
        .filter(|i| i.kind == "connector")
        .collect()
}

/// The points a connector's line passes through (a curve's ends), in order.
fn line(item: &Item) -> Vec<Point> {
    let Some(Part::Path(p)) = item.parts.first() else {
        panic!("no line")
    };
    p.segs
        .iter()
        .filter_map(|s| match *s {
            Seg::Move(p) | Seg::Line(p) | Seg::Cubic(_, _, p) => Some(p),
            Seg::Close => None,
        })
        .collect()
}

/// The junction dots drawn with a connector: filled and stroked round paths.
fn dots(item: &Item) -> Vec<Point> {
    item.parts
        .iter()
        .skip(1)
        .filter_map(|p| match p {
            Part::Path(p)
                if p.fill.is_some()
                    && p.stroke.is_some()
                    && p.segs.iter().any(|s| matches!(s, Seg::Cubic(..))) =>
            {
                let xs = p.segs.iter().filter_map(|s| match *s {
                    Seg::Move(a) | Seg::Line(a) | Seg::Cubic(_, _, a) => Some(a),
                    Seg::Close => None,
                });
                inkboard_core::Rect::around(xs).map(|r| r.center())
            }
            _ => None,
        })
        .collect()
}

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

fn pinned(from: Side, to: Side, c: Connector) -> Connector {
    let mut c = c;
    c.set_side(true, Some(from));
    c.set_side(false, Some(to));
    c
}

#[test]
fn a_pinned_side_is_used_by_every_kind_of_route() {
    for route in [Route::Orthogonal, Route::Straight, Route::Curved] {
        let mut b = Build::new();
        // Side by side: unpinned, every kind would leave by the right side.
        let a = b.shape(Geom::Rect, [0.0, 0.0, 100.0, 60.0], "a");
        let c = b.shape(Geom::Rect, [300.0, 0.0, 100.0, 60.0], "b");
        b.connector(pinned(
            Side::Bottom,
            Side::Top,
            Connector {
                route,
                end_arrow: Arrow::None,
                ..Connector::new(obj(&a), obj(&c))
            },
        ));
        let pts = line(&items(&b)[0]);
        let (first, last) = (pts[0], pts[pts.len() - 1]);
        assert!(
            near(first.y, 60.0) && near(first.x, 50.0),
            "{route:?}: {pts:?}"
        );
        assert!(
            near(last.y, 0.0) && near(last.x, 350.0),
            "{route:?}: {pts:?}"
        );
    }
}

#[test]
fn ends_pinned_to_one_side_get_ports_of_their_own() {
    for route in [Route::Orthogonal, Route::Straight, Route::Curved] {
        let mut b = Build::new();
        let a = b.shape(Geom::Rect, [0.0, 0.0, 120.0, 60.0], "a");
        for k in 0..3 {
            let t = b.shape(Geom::Rect, [300.0, k as f64 * 100.0, 80.0, 40.0], "t");
            let mut c = Connector {
                route,
                ..Connector::new(obj(&a), obj(&t))
            };
            c.set_side(true, Some(Side::Bottom));
            b.connector(c);
        }
        let starts: Vec<Point> = items(&b).iter().map(|i| line(i)[0]).collect();
        for s in &starts {
            assert!(near(s.y, 60.0), "{route:?}: {starts:?}");
        }
        for (i, p) in starts.iter().enumerate() {
            for q in &starts[i + 1..] {
                assert!((p.x - q.x).abs() >= 8.0, "{route:?}: {starts:?}");
            }
        }
    }
}

#[test]
fn merged_connectors_share_one_port_and_trunk_with_a_dot_at_each_branch() {
    let mut b = Build::new();
    let parent = b.shape(Geom::Rect, [200.0, 0.0, 100.0, 40.0], "parent");
    let kids: Vec<_> = [0.0, 200.0, 400.0]
        .iter()
        .map(|&x| b.shape(Geom::Rect, [x, 120.0, 100.0, 40.0], "kid"))
        .collect();
    for k in &kids {
        let mut c = Connector::new(obj(&parent), obj(k));
        c.set_merge(true);
        b.connector(c);
    }
    let items = items(&b);
    let lines: Vec<Vec<Point>> = items.iter().map(line).collect();
    for (l, x) in lines.iter().zip([50.0, 250.0, 450.0]) {
        assert_eq!(l[0], Point { x: 250.0, y: 40.0 }, "one port: {lines:?}");
        let end = l[l.len() - 1];
        assert!(near(end.x, x) && end.y <= 120.0 && end.y > 100.0, "{l:?}");
    }
    // The outer two share the trunk down to the bus, halfway to the children.
    for l in [&lines[0], &lines[2]] {
        assert_eq!(l[1], Point { x: 250.0, y: 80.0 }, "{l:?}");
    }
    let all: Vec<Point> = items.iter().flat_map(dots).collect();
    assert_eq!(all, vec![Point { x: 250.0, y: 80.0 }]);
}

#[test]
fn unmerged_connectors_keep_ports_of_their_own_and_no_dots() {
    let mut b = Build::new();
    let parent = b.shape(Geom::Rect, [200.0, 0.0, 100.0, 40.0], "parent");
    for x in [0.0, 200.0, 400.0] {
        let k = b.shape(Geom::Rect, [x, 120.0, 100.0, 40.0], "kid");
        b.connector(Connector::new(obj(&parent), obj(&k)));
    }
    let items = items(&b);
    let starts: Vec<Point> = items.iter().map(|i| line(i)[0]).collect();
    assert!(starts.windows(2).all(|w| w[0] != w[1]), "{starts:?}");
    assert!(items.iter().all(|i| dots(i).is_empty()));
}
