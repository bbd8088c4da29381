//! Placement on small pages built by hand: each test sets up the lines, shapes and
//! arrowheads that make one rule matter.

use super::*;
use crate::scene::LabelEnd;

fn p(x: f64, y: f64) -> Point {
    Point { x, y }
}

/// Places labels of `size` on `tracks` (each also the connector's line), with
/// `shapes` and `heads` on the page.
fn place(
    shapes: Vec<Rect>,
    tracks: &[Vec<Point>],
    heads: &[Vec<Rect>],
    size: (f64, f64),
) -> Vec<Rect> {
    let mut heads = heads.to_vec();
    heads.resize(tracks.len(), Vec::new());
    let mut ground = Ground::new(
        shapes,
        tracks,
        &heads,
        vec![[None, None]; tracks.len()],
        &[],
    );
    let wanted: Vec<Wanted> = tracks
        .iter()
        .enumerate()
        .map(|(conn, track)| Wanted {
            conn,
            size,
            track,
            ends: true,
            looped: None,
            end: None,
        })
        .collect();
    place_all(&mut ground, &wanted, &Deadline::none())
        .expect("no deadline")
        .into_iter()
        .map(|r| r.expect("a place"))
        .collect()
}

fn hidden(r: &Rect, line: &[Point]) -> f64 {
    line.windows(2)
        .map(|w| inkboard_geom::clipped_length(w[0], w[1], r))
        .sum()
}

#[test]
fn a_label_leaves_a_shape_in_the_middle_of_its_leg() {
    // A long horizontal route with a shape sitting on its middle (as when the
    // route's only straight leg passes under a wide shape).
    let shape = Rect::new(180.0, -15.0, 40.0, 30.0);
    let r = place(
        vec![shape],
        &[vec![p(0.0, 0.0), p(400.0, 0.0)]],
        &[],
        (60.0, 20.0),
    )[0];
    assert!(!r.overlaps(&shape), "{r:?}");
    // Nearest the middle that is clear.
    assert!((r.center().x - 200.0).abs() < 80.0, "{r:?}");
}

#[test]
fn a_label_keeps_off_a_line_crossing_its_own() {
    // A horizontal line crossed in its middle by a vertical one: on the line at
    // the middle would be struck through, so the label moves along, or beside.
    let a = vec![p(0.0, 0.0), p(300.0, 0.0)];
    let b = vec![p(150.0, -200.0), p(150.0, 200.0)];
    let rects = place(Vec::new(), &[a.clone(), b.clone()], &[], (60.0, 20.0));
    assert!(hidden(&rects[0], &b) < 0.5, "{:?}", rects[0]);
    assert!(hidden(&rects[1], &a) < 0.5, "{:?}", rects[1]);
    assert!(!rects[0].overlaps(&rects[1]), "{rects:?}");
}

#[test]
fn a_label_keeps_off_its_arrowhead_and_the_route_ends() {
    // A short vertical line between two shapes, its arrowhead at the bottom: the
    // label fits on the line only in its middle, or beside it.
    let top = Rect::new(-40.0, -40.0, 80.0, 40.0);
    let bottom = Rect::new(-40.0, 70.0, 80.0, 40.0);
    let head = Rect::new(-5.0, 58.0, 10.0, 12.0);
    let r = place(
        vec![top, bottom],
        &[vec![p(0.0, 0.0), p(0.0, 70.0)]],
        &[vec![head]],
        (40.0, 20.0),
    )[0];
    for s in [top, bottom, head] {
        assert!(!r.overlaps(&s), "{r:?} over {s:?}");
    }
}

#[test]
fn labels_of_parallel_lines_share_the_room_between_them() {
    // Three close parallel lines with labels wider than the gaps: the page's
    // choice sets them apart along their lines, none over another's line.
    let tracks: Vec<Vec<Point>> = (0..3)
        .map(|k| vec![p(0.0, 20.0 * k as f64), p(400.0, 20.0 * k as f64)])
        .collect();
    let rects = place(Vec::new(), &tracks, &[], (80.0, 18.0));
    for (i, r) in rects.iter().enumerate() {
        for (j, t) in tracks.iter().enumerate() {
            if i != j {
                assert!(hidden(r, t) < 0.5, "label {i} {r:?} over line {j}");
            }
        }
        for s in &rects[i + 1..] {
            assert!(!r.overlaps(s), "{r:?} and {s:?}");
        }
    }
}

#[test]
fn a_self_loop_label_sits_outside_its_loop() {
    // A loop out of the right side of a shape, round its top-right corner, back
    // into its top.
    let shape = Rect::new(0.0, 0.0, 100.0, 60.0);
    let track = vec![
        p(100.0, 30.0),
        p(128.0, 30.0),
        p(128.0, -28.0),
        p(50.0, -28.0),
        p(50.0, 0.0),
    ];
    let mut ground = Ground::new(
        vec![shape],
        std::slice::from_ref(&track),
        &[Vec::new()],
        vec![[Some(shape), Some(shape)]],
        &[],
    );
    let wanted = [Wanted {
        conn: 0,
        size: (50.0, 18.0),
        track: &track,
        ends: true,
        looped: Some(shape),
        end: None,
    }];
    let r = place_all(&mut ground, &wanted, &Deadline::none()).expect("no deadline")[0]
        .expect("a place");
    // Outside the loop's box: right of its right leg or above its top leg.
    assert!(r.x >= 128.0 || r.bottom() <= -28.0, "{r:?}");
    assert!(hidden(&r, &track) < 0.5, "{r:?}");
}

#[test]
fn the_same_page_gives_the_same_places() {
    let tracks: Vec<Vec<Point>> = (0..6)
        .map(|k| {
            vec![
                p(0.0, 15.0 * k as f64),
                p(200.0, 15.0 * k as f64),
                p(200.0, 300.0),
            ]
        })
        .collect();
    let first = place(Vec::new(), &tracks, &[], (70.0, 18.0));
    let again = place(Vec::new(), &tracks, &[], (70.0, 18.0));
    assert_eq!(first, again);
}

#[test]
fn a_route_of_a_thousand_legs_gives_a_bounded_number_of_candidates() {
    // A staircase through 1,000 waypoints, the most a connector may have.
    let track: Vec<Point> = (0..=1000)
        .map(|k| {
            p(
                10.0 * (k / 2) as f64 + 10.0 * (k % 2) as f64,
                10.0 * (k / 2) as f64,
            )
        })
        .collect();
    let w = Wanted {
        conn: 0,
        size: (40.0, 16.0),
        track: &track,
        ends: true,
        looped: None,
        end: None,
    };
    let found = candidates::candidates(&w, 64).len();
    assert!(found <= 4 * 64, "{found} candidates");
}

/// Places the end label of `size` at `end` of `line` (connector 0, whose end
/// shapes are `ends`), with `shapes`, `others` (other connectors' lines) and
/// `heads` (connector 0's arrowheads) on the page.
fn place_end(
    shapes: Vec<Rect>,
    line: &[Point],
    others: &[Vec<Point>],
    heads: Vec<Rect>,
    end: LabelEnd,
    size: (f64, f64),
) -> Rect {
    let mut lines = vec![line.to_vec()];
    lines.extend(others.iter().cloned());
    let mut all_heads = vec![heads];
    all_heads.resize(lines.len(), Vec::new());
    let ends = vec![[None, None]; lines.len()];
    let mut ground = Ground::new(shapes, &lines, &all_heads, ends, &[]);
    let wanted = [Wanted {
        conn: 0,
        size,
        track: line,
        ends: true,
        looped: None,
        end: Some(end),
    }];
    place_all(&mut ground, &wanted, &Deadline::none()).expect("no deadline")[0].expect("a place")
}

#[test]
fn an_end_label_sits_beside_its_end_clear_of_the_shape_and_the_arrowhead() {
    // A line from the left into the left side of shape b, an arrowhead at b.
    let b = Rect::new(300.0, -30.0, 100.0, 60.0);
    let line = [p(0.0, 0.0), p(300.0, 0.0)];
    let head = Rect::new(288.0, -5.0, 12.0, 10.0);
    let size = (30.0, 16.0);
    let r = place_end(vec![b], &line, &[], vec![head], LabelEnd::End, size);
    assert!(!r.overlaps(&b) && !r.overlaps(&head), "{r:?}");
    assert!(hidden(&r, &line) < 0.5, "off the line: {r:?}");
    // Close to the end: its near edge within 1.5 label heights of it.
    assert!(300.0 - r.right() <= 1.5 * size.1 + 2.0, "{r:?}");
    assert!(r.bottom() <= 0.0 || r.y >= 0.0, "beside the line: {r:?}");
    // The start's label sits by the start, not the end.
    let s = place_end(vec![b], &line, &[], vec![head], LabelEnd::Start, size);
    assert!(
        s.x <= 1.5 * size.1 + 2.0 && hidden(&s, &line) < 0.5,
        "{s:?}"
    );
}

#[test]
fn an_end_label_takes_the_free_side() {
    // Another line runs just above the end of this one: the label goes below.
    let line = [p(0.0, 0.0), p(300.0, 0.0)];
    let above = vec![p(200.0, -12.0), p(320.0, -12.0)];
    let r = place_end(
        Vec::new(),
        &line,
        &[above.clone()],
        Vec::new(),
        LabelEnd::End,
        (30.0, 16.0),
    );
    assert!(r.y >= 0.0, "below: {r:?}");
    assert!(hidden(&r, &above) < 0.5, "{r:?}");
}
