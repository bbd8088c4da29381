//! `check` finds each seeded problem on a bad board, and none on a clean one; its
//! text overflow verdict agrees with what the renderer draws.

mod common;

use common::*;
use inkboard_core::{Arrow, Geom, Route, Style};
use inkboard_render::fit::ELLIPSIS;
use inkboard_render::scene::Part;
use inkboard_render::{check, resolve, ProblemKind};

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

    let problems = check(&b.board, PAGE);
    let find = |kind: ProblemKind| -> Vec<_> {
        problems
            .iter()
            .filter(|p| p.kind == kind)
            .map(|p| p.ids.clone())
            .collect()
    };
    assert_eq!(find(ProblemKind::Overlap), vec![vec![x.clone(), y.clone()]]);
    assert_eq!(find(ProblemKind::TextOverflow), vec![vec![long.clone()]]);
    assert_eq!(
        find(ProblemKind::FreeEnd),
        vec![vec![free], vec![both.clone()]]
    );
    assert_eq!(find(ProblemKind::OutsideFrame), vec![vec![out, frame]]);
    assert_eq!(problems.len(), 5);
    for p in &problems {
        assert!(p.message.ends_with('.'), "{}", p.message);
        assert_eq!(
            p.message.matches(". ").count(),
            0,
            "one sentence: {}",
            p.message
        );
        assert!(!p.ids.is_empty());
    }
    let msg = &problems
        .iter()
        .find(|p| p.ids == vec![both.clone()])
        .unwrap()
        .message;
    assert!(msg.contains("start and end"), "{msg}");
}

/// The renderer draws an ellipsis exactly when check reports the overflow.
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
                let clipped = drawn.last().is_some_and(|l| l.ends_with(ELLIPSIS));
                let joined: String = drawn.concat();
                let all_shown = joined.replace(' ', "") == text.replace(' ', "");
                assert_eq!(
                    reported,
                    clipped || !all_shown,
                    "{geom} {w}×{h} {text:?}: drawn {drawn:?}"
                );
            }
        }
    }
}
