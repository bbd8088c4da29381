//! `check` finds each seeded problem on a bad board, and none on a clean one; its
//! text overflow verdict agrees with what the renderer draws, and its connector
//! problems (lines through shapes, crossings) with the lines it draws.

mod common;

use common::*;
use inkboard_core::{Arrow, Geom, Point, Route, Style};
use inkboard_geom::crossings;
use inkboard_render::route::polyline;
use inkboard_render::scene::Part;
use inkboard_render::{check, check_scene, resolve, ProblemKind};

#[test]
fn a_clean_board_has_no_problems() {
    let mut b = Build::new();
    let f = b.shape(Geom::Frame, [0.0, 0.0, 500.0, 300.0], "Plan");
    let a = b.shape(Geom::Rect, [20.0, 60.0, 120.0, 60.0], "First");
    let c = b.shape(Geom::Ellipse, [220.0, 60.0, 140.0, 80.0], "Second");
    let n = b.shape(
        Geom::Note,
        [20.0, 150.0, 160.0, 120.0],
        "A note with a few words",
    );
    b.connect(obj(&a), obj(&c), Route::Orthogonal, Arrow::Arrow);
    b.connect(obj(&c), obj(&n), Route::Curved, Arrow::Triangle);
    // Ink and images outside frames, touching edges only, are fine.
    b.shape(Geom::Rect, [600.0, 0.0, 100.0, 50.0], "Beside");
    b.shape(Geom::Rect, [700.0, 0.0, 100.0, 50.0], "Touching");
    b.ink(&[(0.0, 0.0), (800.0, 400.0)], Style::default());
    b.group(&[a, f]);
    let problems = check(&b.board, PAGE);
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn a_bad_board_reports_each_seeded_problem() {
    let mut b = Build::new();
    let frame = b.shape(Geom::Frame, [0.0, 0.0, 300.0, 200.0], "Area");
    let out = b.shape(Geom::Rect, [250.0, 50.0, 100.0, 50.0], "half out");
    let x = b.shape(Geom::Rect, [500.0, 0.0, 100.0, 60.0], "x");
    let y = b.shape(Geom::Ellipse, [560.0, 30.0, 100.0, 60.0], "y");
    let long = b.shape(
        Geom::Rect,
        [800.0, 0.0, 100.0, 40.0],
        "Far too much text for a small box like this one",
    );
    let free = b.connect(obj(&x), at(900.0, 300.0), Route::Straight, Arrow::Arrow);
    let both = b.connect(
        at(0.0, 400.0),
        at(100.0, 400.0),
        Route::Straight,
        Arrow::Arrow,
    );

    assert_eq!(
        problems(&b, ProblemKind::ShapeOverlap),
        vec![vec![x.clone(), y.clone()]]
    );
    assert_eq!(
        problems(&b, ProblemKind::TextOverflow),
        vec![vec![long.clone()]]
    );
    // Ends pinned at points (a lifeline's foot, a callout's tip) are no problem.
    assert!(
        check(&b.board, PAGE)
            .iter()
            .all(|p| !p.ids.contains(&free) && !p.ids.contains(&both)),
        "{:#?}",
        check(&b.board, PAGE)
    );
    assert_eq!(
        problems(&b, ProblemKind::OutsideFrame),
        vec![vec![out, frame]]
    );
    let all = check(&b.board, PAGE);
    assert_eq!(all.len(), 3);
    for p in &all {
        assert!(p.message.ends_with('.'), "{}", p.message);
        assert_eq!(
            p.message.matches(". ").count(),
            0,
            "one sentence: {}",
            p.message
        );
        assert!(!p.ids.is_empty());
    }
}

/// Every letter is always drawn, and check reports the overflow exactly when the
/// drawn lines run past the text box.
#[test]
fn overflow_verdict_matches_the_drawing() {
    let texts = [
        "Short",
        "Two words",
        "A label that needs a few lines to fit",
        "A much longer label that cannot possibly fit in the smaller boxes of this test",
    ];
    for geom in [
        Geom::Rect,
        Geom::Ellipse,
        Geom::Diamond,
        Geom::Note,
        Geom::Frame,
    ] {
        for (w, h) in [(60.0, 30.0), (120.0, 60.0), (200.0, 100.0), (300.0, 200.0)] {
            for text in texts {
                let mut b = Build::new();
                let id = b.shape(geom, [0.0, 0.0, w, h], text);
                let reported = check(&b.board, PAGE)
                    .iter()
                    .any(|p| p.kind == ProblemKind::TextOverflow && p.ids == vec![id.clone()]);
                let scene = resolve(&b.board, PAGE);
                let drawn: Vec<String> = scene.items[0]
                    .parts
                    .iter()
                    .filter_map(|p| match p {
                        Part::Text(t) => Some(t.lines.iter().map(|l| l.text.clone())),
                        _ => None,
                    })
                    .flatten()
                    .collect();
                let joined: String = drawn.concat();
                assert_eq!(joined.replace(' ', ""), text.replace(' ', ""), "{drawn:?}");
                let tb = geom.text_box(inkboard_core::Rect::new(0.0, 0.0, w, h));
                let Some(Part::Text(t)) = scene.items[0]
                    .parts
                    .iter()
                    .find(|p| matches!(p, Part::Text(_)))
                else {
                    panic!("no text");
                };
                let lh = t.font_size * inkboard_render::text::LINE_HEIGHT;
                let too_tall = t.lines.len() > 1 && t.lines.len() as f32 * lh > tb.h as f32 + 0.01;
                let too_wide = t.lines.iter().any(|l| l.width > tb.w as f32 + 0.01);
                assert_eq!(
                    reported,
                    too_tall || too_wide,
                    "{geom} {w}×{h} {text:?}: drawn {drawn:?}"
                );
            }
        }
    }
}

#[test]
fn lines_through_shapes_are_reported() {
    let mut b = Build::new();
    let a = b.shape(Geom::Rect, [0.0, 0.0, 80.0, 40.0], "a");
    let c = b.shape(Geom::Rect, [400.0, 0.0, 80.0, 40.0], "c");
    let mid = b.shape(Geom::Ellipse, [200.0, -10.0, 60.0, 60.0], "in the way");
    // Straight through the ellipse: reported. Orthogonal: routed round it.
    let straight = b.connect(obj(&a), obj(&c), Route::Straight, Arrow::Arrow);
    b.connect(obj(&a), obj(&c), Route::Orthogonal, Arrow::Arrow);
    // A diamond whose box the line cuts at a corner, missing its outline.
    b.shape(Geom::Diamond, [200.0, 150.0, 60.0, 60.0], "");
    let d = b.shape(Geom::Rect, [100.0, 100.0, 20.0, 20.0], "");
    let e = b.shape(Geom::Rect, [300.0, 300.0, 20.0, 20.0], "");
    b.connect(obj(&d), obj(&e), Route::Straight, Arrow::None);
    // A frame holding neither end is reported; one holding an end is not.
    let f = b.shape(Geom::Frame, [550.0, 300.0, 150.0, 100.0], "frame");
    let g = b.shape(Geom::Rect, [400.0, 330.0, 60.0, 40.0], "g");
    let h = b.shape(Geom::Rect, [800.0, 330.0, 60.0, 40.0], "h");
    let inside = b.shape(Geom::Rect, [580.0, 300.0, 60.0, 30.0], "inside");
    let across = b.connect(obj(&g), obj(&h), Route::Straight, Arrow::Arrow);
    b.connect(obj(&g), obj(&inside), Route::Straight, Arrow::Arrow);
    // A shape under an end (a background holding it) is not in the way.
    b.shape(Geom::Rect, [0.0, 500.0, 300.0, 100.0], "background");
    let k = b.shape(Geom::Rect, [20.0, 520.0, 60.0, 40.0], "k");
    let m = b.shape(Geom::Rect, [400.0, 520.0, 60.0, 40.0], "m");
    b.connect(obj(&k), obj(&m), Route::Straight, Arrow::Arrow);

    assert_eq!(
        problems(&b, ProblemKind::ThroughShape),
        vec![vec![straight, mid], vec![across, f]]
    );
    let all = check(&b.board, PAGE);
    let through = all
        .iter()
        .find(|p| p.kind == ProblemKind::ThroughShape)
        .unwrap();
    assert_eq!(through.kind.name(), "through_shape");
    assert!(through.message.ends_with('.') && !through.message.contains(". "));
}

#[test]
fn crossings_are_reported_once_per_pair() {
    let mut b = Build::new();
    let a = b.shape(Geom::Rect, [0.0, 0.0, 60.0, 40.0], "a");
    let c = b.shape(Geom::Rect, [300.0, 200.0, 60.0, 40.0], "c");
    let d = b.shape(Geom::Rect, [0.0, 200.0, 60.0, 40.0], "d");
    let e = b.shape(Geom::Rect, [300.0, 0.0, 60.0, 40.0], "e");
    let x = b.connect(obj(&a), obj(&c), Route::Straight, Arrow::Arrow);
    let y = b.connect(obj(&d), obj(&e), Route::Straight, Arrow::Arrow);
    // Touching at a shared end is no crossing.
    b.connect(obj(&a), obj(&d), Route::Straight, Arrow::Arrow);
    assert_eq!(problems(&b, ProblemKind::Crossing), vec![vec![x, y]]);
    let all = check(&b.board, PAGE);
    let p = all
        .iter()
        .find(|p| p.kind == ProblemKind::Crossing)
        .unwrap();
    assert_eq!(p.kind.name(), "crossing");
    assert!(
        p.message.ends_with('.') && !p.message.contains(". "),
        "{}",
        p.message
    );
}

/// The crossings reported are exactly the pairs of drawn lines that cross, found
/// here the slow way from the scene.
#[test]
fn crossings_match_the_drawn_lines() {
    let mut b = Build::new();
    let mut ids = Vec::new();
    for i in 0..12 {
        let (col, row) = ((i % 4) as f64, (i / 4) as f64);
        ids.push(b.shape(Geom::Rect, [col * 160.0, row * 120.0, 90.0, 50.0], ""));
    }
    for (i, j) in [
        (0, 6),
        (1, 4),
        (2, 8),
        (3, 9),
        (5, 10),
        (7, 1),
        (11, 0),
        (4, 7),
    ] {
        b.labelled(&ids[i], &ids[j], &format!("{i}-{j}"));
    }
    let scene = resolve(&b.board, PAGE);
    let lines: Vec<Vec<Point>> = scene
        .items
        .iter()
        .filter(|i| i.kind == "connector")
        .map(|i| match &i.parts[0] {
            Part::Path(p) => polyline(&p.segs),
            _ => unreachable!(),
        })
        .collect();
    let mut expected = Vec::new();
    for i in 0..lines.len() {
        for j in i + 1..lines.len() {
            if crossings(&lines[i], &lines[j]) > 0 {
                expected.push((i, j));
            }
        }
    }
    let connectors: Vec<_> = scene
        .items
        .iter()
        .filter(|i| i.kind == "connector")
        .map(|i| i.id.clone())
        .collect();
    let found: Vec<(usize, usize)> = check_scene(&b.board, &scene)
        .into_iter()
        .filter(|p| p.kind == ProblemKind::Crossing)
        .map(|p| {
            let at = |id| connectors.iter().position(|c| *c == id).unwrap();
            (at(p.ids[0].clone()), at(p.ids[1].clone()))
        })
        .collect();
    assert!(!expected.is_empty(), "the board has crossings to find");
    assert_eq!(found, expected);
}

#[test]
fn a_pile_of_shapes_lists_the_first_problems_and_says_the_rest_were_cut() {
    let mut b = Build::new();
    for i in 0..600 {
        b.shape(Geom::Rect, [i as f64, 0.0, 100.0, 50.0], "");
    }
    let overlaps = check(&b.board, PAGE)
        .into_iter()
        .filter(|p| p.kind == ProblemKind::ShapeOverlap)
        .collect::<Vec<_>>();
    assert_eq!(overlaps.len(), inkboard_render::MAX_PER_KIND + 1);
    let last = overlaps.last().expect("the cut");
    assert!(last.ids.is_empty(), "{last:?}");
    assert!(
        last.message.starts_with("More than 500 overlaps"),
        "{last:?}"
    );
    // The listed ones are real pairs, in z-order of their first object.
    assert!(overlaps[..500].iter().all(|p| p.ids.len() == 2));
}

#[test]
fn a_frame_drawn_over_objects_hides_them_and_says_so() {
    let mut b = Build::new();
    // A frame nested in a frame, and what is drawn over both: nothing hidden.
    let outer = b.shape(Geom::Frame, [0.0, 0.0, 600.0, 400.0], "Outer");
    let inner = b.shape(Geom::Frame, [20.0, 50.0, 300.0, 200.0], "Inner");
    b.shape(Geom::Rect, [40.0, 100.0, 100.0, 50.0], "on top");
    // A neighbour, and a frame grown over it afterwards (drawn later: over it).
    let neighbour = b.shape(Geom::Frame, [700.0, 0.0, 200.0, 200.0], "Neighbour");
    let shape = b.shape(Geom::Rect, [720.0, 60.0, 100.0, 50.0], "in it");
    let grown = b.shape(Geom::Frame, [650.0, -20.0, 400.0, 300.0], "Grown");
    // A frame with no fill hides nothing.
    let clear = b.shape(Geom::Rect, [1200.0, 0.0, 100.0, 50.0], "under glass");
    let glass = b.styled(
        Geom::Frame,
        [1180.0, -20.0, 200.0, 200.0],
        "Glass",
        Style {
            fill: Some(inkboard_core::Color::Rgba([0, 0, 0, 0])),
            ..Style::default()
        },
    );
    let problems: Vec<_> = check(&b.board, PAGE)
        .into_iter()
        .filter(|p| p.kind == ProblemKind::UnderFrame)
        .map(|p| p.ids)
        .collect();
    assert_eq!(
        problems,
        [vec![neighbour, grown.clone()], vec![shape, grown]],
        "outer {outer:?}, inner {inner:?}, clear {clear:?} under {glass:?}"
    );
}

#[test]
fn frames_across_each_other_are_a_frame_overlap() {
    let mut b = Build::new();
    let left = b.shape(Geom::Frame, [0.0, 0.0, 300.0, 200.0], "Left");
    let right = b.shape(Geom::Frame, [250.0, 50.0, 300.0, 200.0], "Right");
    // A frame wholly in another is nested, not overlapping.
    b.shape(Geom::Frame, [20.0, 60.0, 100.0, 100.0], "Nested");
    let across = b.shape(Geom::Rect, [500.0, 20.0, 100.0, 60.0], "Across");
    assert_eq!(
        problems(&b, ProblemKind::FrameOverlap),
        vec![vec![right.clone(), left]]
    );
    assert_eq!(
        problems(&b, ProblemKind::OutsideFrame),
        vec![vec![across, right]]
    );
    let all = check(&b.board, PAGE);
    let overlap = all.iter().find(|p| p.kind == ProblemKind::FrameOverlap);
    let message = &overlap.expect("a frame overlap").message;
    assert!(message.contains("neither holds the other"), "{message}");
}

/// The checks see rotated objects where they are drawn: two turned bars whose
/// boxes around them overlap, but not the bars, do not overlap; a bar turned into
/// its neighbour does; a turned shape sticking out of a frame is reported, and one
/// whose unturned box would stick out but whose turned one does not, is not; a
/// line that passes a turned bar's box but not the bar does not run through it;
/// text that fits a turned shape fits (rotation changes no fit).
#[test]
fn checks_use_the_rotated_outline() {
    let mut b = Build::new();
    // Two 100 × 10 bars turned 45°, side by side along their length.
    let a = b.shape(Geom::Rect, [0.0, 0.0, 100.0, 10.0], "");
    b.turn(&a, 45.0);
    let c = b.shape(Geom::Rect, [30.0, -30.0, 100.0, 10.0], "");
    b.turn(&c, 45.0);
    assert!(problems(&b, ProblemKind::ShapeOverlap).is_empty());
    // A bar turned upright into a shape 10 px above its unturned box.
    let d = b.shape(Geom::Rect, [300.0, 0.0, 100.0, 10.0], "");
    let e = b.shape(Geom::Rect, [330.0, -60.0, 40.0, 40.0], "");
    assert!(problems(&b, ProblemKind::ShapeOverlap).is_empty());
    b.turn(&d, 90.0);
    assert_eq!(problems(&b, ProblemKind::ShapeOverlap), vec![vec![d, e]]);

    let mut b = Build::new();
    let f = b.shape(Geom::Frame, [0.0, 0.0, 200.0, 200.0], "Frame");
    let tall = b.shape(Geom::Rect, [-20.0, 80.0, 140.0, 40.0], "");
    assert_eq!(
        problems(&b, ProblemKind::OutsideFrame),
        vec![vec![tall.clone(), f.clone()]]
    );
    b.turn(&tall, 90.0);
    assert!(problems(&b, ProblemKind::OutsideFrame).is_empty());
    let wide = b.shape(Geom::Rect, [60.0, 130.0, 60.0, 60.0], "");
    b.turn(&wide, 45.0);
    assert_eq!(problems(&b, ProblemKind::OutsideFrame), vec![vec![wide, f]]);

    let mut b = Build::new();
    let bar = b.shape(Geom::Rect, [100.0, 0.0, 200.0, 10.0], "");
    b.turn(&bar, 45.0);
    // The box around the bar (running down to the right) is about 148 px square
    // about (200, 5); a line across its empty top-right corner misses the bar.
    // (Between small shapes: a line to a pinned point goes where it was told.)
    let dot = |b: &mut Build, x: f64, y: f64| b.shape(Geom::Rect, [x - 4.0, y - 4.0, 8.0, 8.0], "");
    let (p, q) = (dot(&mut b, 240.0, -90.0), dot(&mut b, 300.0, -30.0));
    b.connect(obj(&p), obj(&q), Route::Straight, Arrow::None);
    assert!(problems(&b, ProblemKind::ThroughShape).is_empty());
    let (p, q) = (dot(&mut b, 20.0, 5.0), dot(&mut b, 380.0, 5.0));
    b.connect(obj(&p), obj(&q), Route::Straight, Arrow::None);
    assert_eq!(problems(&b, ProblemKind::ThroughShape).len(), 1);

    // Turning changes no fit: text too long for its box still overflows it.
    let mut b = Build::new();
    let fits = b.shape(Geom::Rect, [0.0, 0.0, 160.0, 60.0], "Fits the box");
    let long = b.shape(
        Geom::Rect,
        [300.0, 0.0, 40.0, 20.0],
        "A label far too long for a box this small, even at the smallest size",
    );
    b.turn(&fits, 30.0);
    b.turn(&long, 30.0);
    assert_eq!(problems(&b, ProblemKind::TextOverflow), vec![vec![long]]);
}
