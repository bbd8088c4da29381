//! Geometry: rectangles, the derived extent of groups and connectors, the derived
//! indexes (connectors touching, groups holding, frame contents), and the text box
//! of every outline.

mod common;

use common::*;
use inkboard_core::{
    Actor, End, Geom, IdKind, Ink, Kind, Object, Point, Rect, Rotation, Style, Transaction,
    Vocabulary, FRAME_TITLE_HEIGHT,
};

#[test]
fn rectangles_that_only_touch_do_not_overlap() {
    let a = Rect::new(0.0, 0.0, 10.0, 10.0);
    assert!(!a.overlaps(&Rect::new(10.0, 0.0, 5.0, 5.0)));
    assert!(a.overlaps(&Rect::new(9.0, 9.0, 5.0, 5.0)));
    assert!(a.contains(&Rect::new(0.0, 0.0, 10.0, 10.0)));
    assert!(!a.contains(&Rect::new(1.0, 1.0, 10.0, 1.0)));
    assert_eq!(
        a.union(&Rect::new(-5.0, 20.0, 1.0, 1.0)),
        Rect::new(-5.0, 0.0, 15.0, 21.0)
    );
    assert_eq!(Rect::around([]), None);
    assert_eq!(
        Rect::around([Point { x: 3.0, y: -1.0 }, Point { x: -2.0, y: 4.0 }]),
        Some(Rect::new(-2.0, -1.0, 5.0, 5.0))
    );
    assert_eq!(a.translated(2.0, -3.0), Rect::new(2.0, -3.0, 10.0, 10.0));
    assert_eq!(a.center(), Point { x: 5.0, y: 5.0 });
}

#[test]
fn bounds_of_groups_and_connectors_derive_from_what_they_name() {
    let mut s = sample();
    assert_eq!(s.board.bounds(&s.a), Some(Rect::new(0.0, 0.0, 100.0, 50.0)));
    assert_eq!(
        s.board.bounds(&s.grp),
        Some(Rect::new(0.0, 0.0, 300.0, 50.0))
    );
    // Between the centres of its ends.
    assert_eq!(
        s.board.bounds(&s.link),
        Some(Rect::new(50.0, 25.0, 200.0, 0.0))
    );
    assert_eq!(s.board.bounds(&oid("nope")), None);

    // A group of a group and a shape; a connector from a free point to a group; a
    // group holding only a connector.
    let mut tx = Transaction::begin(&mut s.board);
    let outer = tx.new_id(IdKind::Group);
    tx.insert(s.p1, None, group(&outer, &[&s.grp, &s.c]))
        .unwrap();
    let to_group = tx.new_id(IdKind::Connector);
    let mut o = connector(&to_group, &s.a, &outer);
    if let Kind::Connector(c) = &mut o.kind {
        c.from = End::Point(Point {
            x: -100.0,
            y: 500.0,
        });
    }
    tx.insert(s.p1, None, o).unwrap();
    let lines = tx.new_id(IdKind::Group);
    tx.insert(s.p1, None, group(&lines, &[&s.link])).unwrap();
    let empty = tx.new_id(IdKind::Group);
    tx.insert(s.p1, None, group(&empty, &[])).unwrap();
    tx.commit(Actor::User).unwrap().unwrap();

    assert_eq!(
        s.board.bounds(&outer),
        Some(Rect::new(0.0, 0.0, 300.0, 250.0))
    );
    // The centre of `outer` is (150, 125).
    assert_eq!(
        s.board.bounds(&to_group),
        Some(Rect::new(-100.0, 125.0, 250.0, 375.0))
    );
    assert_eq!(
        s.board.bounds(&lines),
        Some(Rect::new(50.0, 25.0, 200.0, 0.0))
    );
    assert_eq!(s.board.bounds(&empty), None);
}

#[test]
fn bounds_of_ink_are_around_its_points() {
    let mut s = sample();
    let mut tx = Transaction::begin(&mut s.board);
    let id = tx.new_id(IdKind::Ink);
    let points = vec![
        Point { x: 1.0, y: 2.0 },
        Point { x: -3.0, y: 8.0 },
        Point { x: 4.0, y: 0.0 },
    ];
    let ink = Object::new(
        id.clone(),
        Kind::Ink(Ink {
            points,
            style: Style::default(),
        }),
    );
    tx.insert(s.p2, None, ink).unwrap();
    assert_eq!(tx.board().bounds(&id), Some(Rect::new(-3.0, 0.0, 7.0, 8.0)));
}

#[test]
fn bounds_of_deeply_nested_groups() {
    let mut s = sample();
    let mut tx = Transaction::begin(&mut s.board);
    let mut inner = s.c.clone();
    for _ in 0..10 {
        let id = tx.new_id(IdKind::Group);
        tx.insert(s.p1, None, group(&id, &[&inner])).unwrap();
        inner = id;
    }
    tx.commit(Actor::User).unwrap().unwrap();
    assert_eq!(s.board.bounds(&inner), s.board.bounds(&s.c));
}

#[test]
fn connectors_touching_and_groups_holding_are_derived() {
    let mut s = sample();
    let mut tx = Transaction::begin(&mut s.board);
    let back = tx.new_id(IdKind::Connector);
    tx.insert(s.p1, Some(0), connector(&back, &s.b, &s.c))
        .unwrap();
    let outer = tx.new_id(IdKind::Group);
    tx.insert(s.p1, None, group(&outer, &[&s.grp, &s.c]))
        .unwrap();
    tx.commit(Actor::User).unwrap().unwrap();
    let b = &s.board;

    assert_eq!(
        b.connectors_touching(s.p1, &[s.a.clone()]),
        [s.link.clone()]
    );
    // In z-order, once each.
    assert_eq!(
        b.connectors_touching(s.p1, &[s.b.clone(), s.a.clone()]),
        [back.clone(), s.link.clone()]
    );
    assert_eq!(
        b.connectors_touching(s.p1, &[s.c.clone()]),
        vec![back.clone()]
    );
    assert_eq!(b.connectors_touching(s.p2, &[s.a.clone()]), []);
    assert_eq!(b.connectors_touching(s.p1, &[s.d.clone()]), []);

    assert_eq!(b.groups_holding(s.p1, &s.a), [s.grp.clone()]);
    assert_eq!(b.groups_holding(s.p1, &s.c), vec![outer.clone()]);
    // Only direct holders.
    assert_eq!(b.groups_holding(s.p1, &s.grp), [outer]);
    assert_eq!(b.groups_holding(s.p2, &s.a), []);
    assert_eq!(b.groups_holding(s.p1, &s.link), []);
}

#[test]
fn frame_contents_are_the_objects_wholly_inside() {
    let mut s = sample();
    let mut tx = Transaction::begin(&mut s.board);
    let frame = tx.new_id(IdKind::Shape);
    let mut o = shape_at(&frame, Rect::new(-10.0, -10.0, 150.0, 300.0), "Frame");
    if let Kind::Shape(sh) = &mut o.kind {
        sh.geom = Geom::Frame;
    }
    assert!(o.is_frame());
    tx.insert(s.p1, Some(0), o).unwrap();
    let edge = tx.new_id(IdKind::Shape);
    // Touching the frame's edge from inside still counts.
    tx.insert(
        s.p1,
        None,
        shape_at(&edge, Rect::new(40.0, 100.0, 100.0, 10.0), "edge"),
    )
    .unwrap();
    let across = tx.new_id(IdKind::Shape);
    tx.insert(
        s.p1,
        None,
        shape_at(&across, Rect::new(100.0, 100.0, 100.0, 10.0), "across"),
    )
    .unwrap();
    let elsewhere = tx.new_id(IdKind::Shape);
    tx.insert(s.p2, None, shape(&elsewhere, "same place, other page"))
        .unwrap();
    tx.commit(Actor::User).unwrap().unwrap();

    // `b` lies outside, `link` and `grp` have no bounds of their own.
    assert_eq!(
        s.board.frame_contents(&frame),
        [s.a.clone(), s.c.clone(), edge]
    );
    assert_eq!(s.board.frame_contents(&oid("nope")), []);
}

#[test]
fn a_turned_frame_holds_what_lies_in_its_own_unturned_place() {
    let mut s = sample();
    let mut tx = Transaction::begin(&mut s.board);
    let frame = tx.new_id(IdKind::Shape);
    // A 400 × 100 frame about (200, 50), a quarter turn: it stands upright.
    let mut o = shape_at(&frame, Rect::new(0.0, 0.0, 400.0, 100.0), "Frame");
    if let Kind::Shape(sh) = &mut o.kind {
        sh.geom = Geom::Frame;
        sh.rotation = Rotation::degrees(90.0).unwrap();
    }
    tx.insert(s.p2, Some(0), o).unwrap();
    // Near the frame's left end before the turn, (20, 50), now at (200, -130):
    // outside the unturned box, inside the turned frame.
    let carried = tx.new_id(IdKind::Shape);
    tx.insert(
        s.p2,
        None,
        shape_at(&carried, Rect::new(180.0, -140.0, 40.0, 20.0), "carried"),
    )
    .unwrap();
    // Inside the unturned box, near its end, but outside the upright frame.
    let left = tx.new_id(IdKind::Shape);
    tx.insert(
        s.p2,
        None,
        shape_at(&left, Rect::new(10.0, 40.0, 40.0, 20.0), "left behind"),
    )
    .unwrap();
    tx.commit(Actor::User).unwrap().unwrap();

    assert!(s.board.frame_holds(&frame, &carried));
    assert!(!s.board.frame_holds(&frame, &left));
    assert!(!s.board.frame_holds(&carried, &frame), "only a frame holds");
    assert_eq!(s.board.frame_contents(&frame), [carried]);
}

/// Text sizes from a short word to a long paragraph.
const TEXT_SIZES: [(f64, f64); 8] = [
    (0.0, 0.0),
    (1.0, 1.0),
    (7.3, 19.2),
    (33.3, 21.7),
    (100.1, 24.0),
    (123.456, 31.9),
    (480.7, 200.3),
    (1234.5678, 987.654),
];

#[test]
fn size_for_text_gives_a_text_box_that_holds_the_text() {
    for &geom in Geom::ALL {
        for (tw, th) in TEXT_SIZES {
            // A frame's text is its one-line title, in a band of fixed height.
            if geom == Geom::Frame && th > FRAME_TITLE_HEIGHT {
                continue;
            }
            let (w, h) = geom.size_for_text(tw, th);
            for at in [
                Point { x: 0.0, y: 0.0 },
                Point {
                    x: -37.1,
                    y: 1e4 / 3.0,
                },
            ] {
                let bounds = Rect::new(at.x, at.y, w, h);
                let text = geom.text_box(bounds);
                assert!(
                    text.w >= tw && text.h >= th,
                    "{geom}: text {tw}x{th} in a box of {}x{}",
                    text.w,
                    text.h
                );
                // Not much more: the size is the smallest.
                assert!(text.w - tw < 1e-6, "{geom}: {} wide for {tw}", text.w);
                if geom != Geom::Frame {
                    assert!(text.h - th < 1e-6, "{geom}: {} high for {th}", text.h);
                }
                assert!(
                    bounds.contains(&text),
                    "{geom}: text box {text:?} leaves {bounds:?}"
                );
            }
        }
    }
}

#[test]
fn text_boxes_stay_inside_their_shape() {
    for &geom in Geom::ALL {
        let (w, h) = geom.default_size();
        for bounds in [
            Rect::new(10.0, 20.0, w, h),
            Rect::new(-5.0, 0.0, 2.0 * w, h),
        ] {
            let text = geom.text_box(bounds);
            assert!(
                bounds.contains(&text),
                "{geom}: text box {text:?} leaves {bounds:?}"
            );
        }
        // Shapes too small for their padding get an empty box, never a negative one.
        for bounds in [Rect::new(0.0, 0.0, 0.0, 0.0), Rect::new(5.0, 5.0, 3.0, 2.0)] {
            let text = geom.text_box(bounds);
            assert!(text.w >= 0.0 && text.h >= 0.0, "{geom}: {text:?}");
        }
        // The default size leaves room for some text.
        let text = geom.text_box(Rect::new(0.0, 0.0, w, h));
        assert!(text.w > 0.0 && text.h > 0.0, "{geom}: {text:?}");
    }
}
