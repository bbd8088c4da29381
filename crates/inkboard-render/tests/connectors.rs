//! Connectors laid out together: orthogonal routes go around shapes (and frames
//! they have no end in), parallel segments sharing a channel lie apart, ends
//! sharing a side are spread along it, diagonal pairs take one bend, labels sit on
//! the longest leg where they cover no shape, and keep apart.

mod common;

use common::*;
use inkboard_core::{Arrow, Geom, ObjectId, Point, Rect, Route};
use inkboard_geom::{crosses, orient};
use inkboard_render::scene::{Part, Seg};
use inkboard_render::{resolve, ProblemKind};

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
    b.labelled(&decide, &supplier, "no");
    b.labelled(&supplier, &check, "restocked");
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
    b.labelled(&l, &r, "request");
    b.labelled(&r, &l, "response");
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

/// Every segment of `line` is horizontal or vertical.
fn square(line: &[Point]) -> bool {
    line.windows(2)
        .all(|w| (w[0].x - w[1].x).abs() < 1e-6 || (w[0].y - w[1].y).abs() < 1e-6)
}

/// Whether the axis-parallel segment a–b runs inside `r` shrunk by `inset`.
fn runs_into(a: Point, b: Point, r: Rect, inset: f64) -> bool {
    let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
    let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
    x0 < r.right() - inset && x1 > r.x + inset && y0 < r.bottom() - inset && y1 > r.y + inset
}

/// A grid of shapes, each joined to shapes two and three places along its row and
/// to the one below and two across, so that most straight paths are blocked.
fn crowded() -> (Build, Vec<Rect>) {
    let mut b = Build::new();
    let mut ids = Vec::new();
    let mut rects = Vec::new();
    for i in 0..24 {
        let (col, row) = ((i % 6) as f64, (i / 6) as f64);
        let r = [
            col * 170.0 + (i % 3) as f64 * 9.0,
            row * 130.0 + (i % 4) as f64 * 7.0,
            110.0,
            60.0,
        ];
        ids.push(b.shape(Geom::Rect, r, ""));
        rects.push(Rect::new(r[0], r[1], r[2], r[3]));
    }
    for i in 0..24 {
        for j in [i + 2, i + 3, i + 8] {
            if j < 24 && (j % 6 > i % 6 || j == i + 8) {
                b.connect(obj(&ids[i]), obj(&ids[j]), Route::Orthogonal, Arrow::Arrow);
            }
        }
    }
    (b, rects)
}

#[test]
fn orthogonal_routes_go_around_shapes() {
    let (b, rects) = crowded();
    let lines = connectors(&b);
    assert!(lines.len() > 40);
    for (k, (line, _)) in lines.iter().enumerate() {
        assert!(square(line), "connector {k}: {line:?}");
        // No segment enters a shape; the first and last run out of their own.
        let n = line.len();
        for (s, w) in line.windows(2).enumerate() {
            for r in &rects {
                let own = (s == 0 && r.contains(&Rect::new(w[0].x, w[0].y, 0.0, 0.0)))
                    || (s + 2 == n && r.contains(&Rect::new(w[1].x, w[1].y, 0.0, 0.0)));
                assert!(
                    own || !runs_into(w[0], w[1], *r, 0.5),
                    "connector {k} runs through {r:?}: {line:?}"
                );
            }
        }
    }
    let through = problems(&b, ProblemKind::ThroughShape);
    assert!(through.is_empty(), "{through:?}");
}

#[test]
fn a_blocked_straight_path_goes_round_the_blocker() {
    let mut b = Build::new();
    let wall = around_wall(&mut b);
    let line = &connectors(&b)[0].0;
    assert!(square(line), "{line:?}");
    assert!(line.len() >= 4, "{line:?}");
    for w in line.windows(2) {
        // Clear of the wall by the routing clearance, not just outside it.
        assert!(!runs_into(w[0], w[1], wall, -11.0), "{line:?}");
    }
}

#[test]
fn parallel_segments_sharing_a_channel_lie_apart() {
    let mut b = Build::new();
    shared_channel(&mut b);
    let lines = lines_of(&b);
    for (i, p) in lines.iter().enumerate() {
        for q in &lines[i + 1..] {
            for u in p.windows(2) {
                for v in q.windows(2) {
                    // Collinear and overlapping by more than a pixel would draw one
                    // line over the other.
                    let vertical = |w: &[Point]| (w[0].x - w[1].x).abs() < 1e-6;
                    let (a0, a1, b0, b1, same) = if vertical(u) && vertical(v) {
                        (
                            u[0].y,
                            u[1].y,
                            v[0].y,
                            v[1].y,
                            (u[0].x - v[0].x).abs() < 1.0,
                        )
                    } else if !vertical(u) && !vertical(v) {
                        (
                            u[0].x,
                            u[1].x,
                            v[0].x,
                            v[1].x,
                            (u[0].y - v[0].y).abs() < 1.0,
                        )
                    } else {
                        continue;
                    };
                    let overlap = a0.max(a1).min(b0.max(b1)) - a0.min(a1).max(b0.min(b1));
                    assert!(!(same && overlap > 1.0), "{u:?} lies on {v:?}");
                }
            }
        }
    }
}

#[test]
fn frames_are_crossed_only_by_lines_that_must() {
    let mut b = Build::new();
    let frame = frame_routes(&mut b);
    let lines = connectors(&b);
    let inside =
        |p: &Point| frame.x < p.x && p.x < frame.right() && frame.y < p.y && p.y < frame.bottom();
    // Inside to inside stays inside; outside to outside stays outside.
    assert!(lines[0].0.iter().all(inside), "{:?}", lines[0].0);
    for w in lines[2].0.windows(2) {
        assert!(!runs_into(w[0], w[1], frame, 0.0), "{:?}", lines[2].0);
    }
    // Outside to inside crosses the border once.
    let flips = lines[1]
        .0
        .windows(2)
        .filter(|w| inside(&w[0]) != inside(&w[1]))
        .count();
    assert_eq!(flips, 1, "{:?}", lines[1].0);
}

#[test]
fn free_ends_are_routed_around_shapes_too() {
    let mut b = Build::new();
    b.shape(Geom::Rect, [100.0, -60.0, 40.0, 120.0], "wall");
    let t = b.shape(Geom::Rect, [250.0, -20.0, 80.0, 40.0], "t");
    b.connect(at(0.0, 0.0), obj(&t), Route::Orthogonal, Arrow::Arrow);
    let line = &connectors(&b)[0].0;
    assert!(square(line), "{line:?}");
    assert_eq!(line[0], Point { x: 0.0, y: 0.0 });
    for w in line.windows(2) {
        assert!(
            !runs_into(w[0], w[1], Rect::new(100.0, -60.0, 40.0, 120.0), 0.0),
            "{line:?}"
        );
    }
}

#[test]
fn an_enclosed_end_still_gets_a_simple_route() {
    // A shape walled in on all sides: no route leaves it, so the simple L or Z
    // is drawn (through a wall), rather than nothing.
    let mut b = Build::new();
    let inner = b.shape(Geom::Rect, [100.0, 100.0, 60.0, 40.0], "in");
    for r in [
        [60.0, 60.0, 140.0, 20.0],
        [60.0, 160.0, 140.0, 20.0],
        [60.0, 60.0, 20.0, 120.0],
        [180.0, 60.0, 20.0, 120.0],
    ] {
        b.shape(Geom::Rect, r, "");
    }
    let out = b.shape(Geom::Rect, [400.0, 300.0, 80.0, 40.0], "out");
    b.connect(obj(&inner), obj(&out), Route::Orthogonal, Arrow::Arrow);
    let line = &connectors(&b)[0].0;
    assert!(line.len() >= 2 && square(line), "{line:?}");
    assert!(line.len() <= 4, "{line:?}");
}

#[test]
fn labels_keep_off_shapes() {
    let mut b = Build::new();
    let note = label_by_note(&mut b);
    let (line, label) = &connectors(&b)[0];
    let label = label.unwrap();
    assert!(!label.overlaps(&note), "{label:?}");
    // On its line or right beside it (a few px off), as near the middle as the
    // note allows: beside it, over the note, at the middle.
    let y = line[0].y;
    assert!(label.y - 4.0 <= y && y <= label.bottom() + 4.0, "{label:?}");
    assert!((label.center().x - 450.0).abs() < 200.0, "{label:?}");
}

#[test]
fn a_free_elbow_connector_bends_once() {
    // Two free ends, orthogonal by default: drawn as the elbow it is (the editor's
    // panel says "Elbow"), one bend, across then down, the arrowhead on the last
    // leg pointing along it. A straight one stays one line from point to point.
    let mut b = Build::new();
    b.connect(
        at(0.0, 0.0),
        at(200.0, 120.0),
        Route::Orthogonal,
        Arrow::Arrow,
    );
    b.connect(
        at(0.0, 300.0),
        at(200.0, 420.0),
        Route::Straight,
        Arrow::Arrow,
    );
    let drawn = connectors(&b);
    let line = &drawn[0].0;
    assert_eq!(line.len(), 3, "{line:?}");
    assert_eq!(line[0], Point { x: 0.0, y: 0.0 });
    assert_eq!(line[1], Point { x: 200.0, y: 0.0 });
    // It ends at (or just short of) the free point, coming straight down.
    let end = line[2];
    assert!(
        (end.x - 200.0).abs() < 1e-6 && (end.y - 120.0).abs() < 3.0,
        "{line:?}"
    );
    let straight = &drawn[1].0;
    assert_eq!(straight.len(), 2, "{straight:?}");
    let end = straight[1];
    assert!(((end.y - 300.0) / end.x - 0.6).abs() < 1e-6, "{straight:?}");
}

/// The quality benchmark's decision loop as `layout` places it: "More?" sits right
/// of "Process", and its loop back to "Read input" must not cross the line that
/// comes down into it from "Process".
#[test]
fn a_loop_back_leaves_clear_of_the_line_coming_in() {
    let mut b = Build::new();
    let start = b.shape(Geom::Ellipse, [160.0, 0.0, 120.0, 100.0], "Start");
    let read = b.shape(Geom::Rect, [160.0, 160.0, 120.0, 60.0], "Read input");
    let valid = b.shape(Geom::Diamond, [160.0, 280.0, 120.0, 100.0], "Valid?");
    let error = b.shape(Geom::Rect, [0.0, 440.0, 120.0, 60.0], "Show error");
    let process = b.shape(Geom::Rect, [160.0, 440.0, 120.0, 60.0], "Process");
    let more = b.shape(Geom::Diamond, [240.0, 560.0, 120.0, 100.0], "More?");
    let end = b.shape(Geom::Ellipse, [240.0, 720.0, 120.0, 100.0], "End");
    elbows(
        &mut b,
        &[
            (&start, &read),
            (&read, &valid),
            (&valid, &error),
            (&error, &read),
            (&valid, &process),
            (&process, &more),
            (&more, &read),
            (&more, &end),
        ],
    );
    let lines = lines_of(&b);
    let crossings = crossings(&lines);
    assert!(crossings.is_empty(), "{crossings:?}\n{lines:?}");
}

/// Graphviz's trapeziumlr as `layout` places it: a hub between a row of 26 shapes
/// above and 26 below. Its top and bottom cannot hold every end, so the outer ends
/// go round its corners onto its sides, where they must enter in the order that
/// nests them (the furthest lowest), or each line crosses the ones inside it.
#[test]
fn ends_spilled_onto_a_side_nest_their_lines() {
    let mut b = Build::new();
    let hub = b.shape(Geom::Rect, [1920.0, 372.0, 120.0, 60.0], "Trapezium");
    for i in 0..26 {
        let x = i as f64 * 160.0;
        let above = b.shape(Geom::Parallelogram, [x, 0.0, 120.0, 60.0], "a");
        let below = b.shape(Geom::Rect, [x, 744.0, 120.0, 60.0], "A");
        elbows(&mut b, &[(&above, &hub), (&hub, &below)]);
    }
    let lines = lines_of(&b);
    let crossings = crossings(&lines);
    assert!(
        crossings.is_empty(),
        "{} crossings: {crossings:?}",
        crossings.len()
    );
}

/// Joins each pair of `pairs` by an orthogonal connector with an arrow.
fn elbows(b: &mut Build, pairs: &[(&ObjectId, &ObjectId)]) {
    for (s, t) in pairs {
        b.connect(obj(s), obj(t), Route::Orthogonal, Arrow::Arrow);
    }
}

/// The corners of each connector's line, in page order.
fn lines_of(b: &Build) -> Vec<Vec<Point>> {
    connectors(b).into_iter().map(|(l, _)| l).collect()
}

/// The pairs of lines (by index) that cross, once per crossing.
fn crossings(lines: &[Vec<Point>]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for i in 0..lines.len() {
        for j in i + 1..lines.len() {
            for a in lines[i].windows(2) {
                for c in lines[j].windows(2) {
                    if crosses(a[0], a[1], c[0], c[1]) {
                        out.push((i, j));
                    }
                }
            }
        }
    }
    out
}

/// Whether `p` lies on one of the segments of `line`.
fn on_line(line: &[Point], p: Point) -> bool {
    line.windows(2).any(|w| {
        let (a, b) = (w[0], w[1]);
        let within = |v: f64, lo: f64, hi: f64| v >= lo.min(hi) - 1e-6 && v <= lo.max(hi) + 1e-6;
        orient(a, b, p).abs() < 1e-6 && within(p.x, a.x, b.x) && within(p.y, a.y, b.y)
    })
}

#[test]
fn an_orthogonal_route_passes_through_its_waypoints_square() {
    let mut b = Build::new();
    let a = b.shape(Geom::Rect, [0.0, 0.0, 100.0, 60.0], "a");
    let c = b.shape(Geom::Ellipse, [300.0, 200.0, 100.0, 60.0], "b");
    // In the way of the automatic route, which the waypoints override.
    b.shape(Geom::Rect, [150.0, 80.0, 60.0, 60.0], "x");
    let waypoints = vec![
        Point { x: 180.0, y: 30.0 },
        Point { x: 250.0, y: 170.0 },
        Point { x: 350.0, y: 320.0 },
    ];
    let mut bent = inkboard_core::Connector::new(obj(&a), obj(&c));
    bent.set_waypoints(waypoints.clone());
    b.connector(bent);
    let lines = connectors(&b);
    let line = &lines[0].0;
    assert!(square(line), "{line:?}");
    for w in waypoints {
        assert!(on_line(line, w), "{w:?} is not on {line:?}");
    }
    // It leaves a's right side across from the first waypoint, and enters the
    // ellipse from below, under the last one.
    assert_eq!(line[0], Point { x: 100.0, y: 30.0 });
    assert!((line[line.len() - 1].x - 350.0).abs() < 1e-6, "{line:?}");
    assert!(line[line.len() - 1].y > 260.0, "{line:?}");
}

#[test]
fn straight_and_curved_routes_pass_through_their_waypoints() {
    for route in [Route::Straight, Route::Curved] {
        let mut b = Build::new();
        let a = b.shape(Geom::Rect, [0.0, 0.0, 100.0, 60.0], "a");
        let c = b.shape(Geom::Rect, [300.0, 0.0, 100.0, 60.0], "b");
        let w = Point { x: 200.0, y: 200.0 };
        let mut bent = inkboard_core::Connector {
            route,
            ..inkboard_core::Connector::new(obj(&a), obj(&c))
        };
        bent.set_waypoints(vec![w]);
        b.connector(bent);
        let item = resolve(&b.board, PAGE)
            .items
            .into_iter()
            .find(|i| i.kind == "connector")
            .unwrap();
        let Some(Part::Path(p)) = item.parts.first() else {
            panic!("no line")
        };
        let ends: Vec<Point> = p
            .segs
            .iter()
            .filter_map(|s| match *s {
                Seg::Move(p) | Seg::Line(p) | Seg::Cubic(_, _, p) => Some(p),
                Seg::Close => None,
            })
            .collect();
        assert!(ends.contains(&w), "{route:?}: {ends:?}");
        let curved = p.segs.iter().any(|s| matches!(s, Seg::Cubic(..)));
        assert_eq!(curved, route == Route::Curved, "{route:?}");
    }
}

#[test]
fn a_label_with_a_place_sits_there_along_the_line() {
    let mut b = Build::new();
    let a = b.shape(Geom::Rect, [0.0, 0.0, 100.0, 60.0], "a");
    let c = b.shape(Geom::Rect, [500.0, 0.0, 100.0, 60.0], "b");
    let mut placed = inkboard_core::Connector {
        text: "here".into(),
        end_arrow: Arrow::None,
        ..inkboard_core::Connector::new(obj(&a), obj(&c))
    };
    placed.set_label_at(Some(0.25));
    b.connector(placed);
    let lines = connectors(&b);
    let (line, label) = (&lines[0].0, lines[0].1.unwrap());
    assert_eq!(line.len(), 2, "{line:?}");
    // A quarter of the way from x = 100 to x = 500.
    let centre = label.center();
    assert!((centre.x - 200.0).abs() < 1e-6, "{label:?}");
    assert!((centre.y - 30.0).abs() < 1e-6, "{label:?}");
}

/// A self-loop goes round the corner of its shape where it crosses nothing: here
/// a line runs down just right of the shape, so the loop must not take the top
/// right corner it takes when nothing is in its way.
#[test]
fn a_self_loop_goes_round_a_free_corner() {
    let mut b = Build::new();
    let state = b.shape(Geom::Rounded, [0.0, 0.0, 120.0, 60.0], "Waiting");
    let above = b.shape(Geom::Rect, [100.0, -200.0, 80.0, 40.0], "a");
    let below = b.shape(Geom::Rect, [100.0, 200.0, 80.0, 40.0], "b");
    elbows(&mut b, &[(&state, &state), (&above, &below)]);
    let lines = lines_of(&b);
    assert!(
        lines[1].iter().all(|p| (p.x - 140.0).abs() < 1e-6),
        "{:?}",
        lines[1]
    );
    assert_eq!(crossings(&lines), vec![], "{lines:?}");

    // Alone, it goes round the top right.
    let mut alone = Build::new();
    let state = alone.shape(Geom::Rounded, [0.0, 0.0, 120.0, 60.0], "Waiting");
    elbows(&mut alone, &[(&state, &state)]);
    let line = &connectors(&alone)[0].0;
    assert!(
        line.iter().any(|p| p.y < 0.0) && line.iter().any(|p| p.x > 120.0),
        "{line:?}"
    );
}
