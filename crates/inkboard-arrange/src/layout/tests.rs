//! A layout stops inside the layout crate when its stop check says so, with
//! [`ArrangeError::Stopped`], and its transaction then changes nothing.

use std::cell::Cell;

use inkboard_core::{Board, Connector, End, Geom, Kind, Rect, Shape, Style, Transaction};

use super::{arrange, Algorithm, Direction, LayoutOptions};
use crate::ArrangeError;

/// A board of three shapes in a row, linked one to the next.
fn board() -> Board {
    let mut board = Board::new("t", &[]);
    let page = board.pages()[0].id;
    let mut tx = Transaction::begin(&mut board);
    let ids: Vec<_> = (0..3)
        .map(|i| {
            let shape = Shape {
                geom: Geom::Rect,
                bounds: Rect::new(200.0 * i as f64, 0.0, 100.0, 50.0),
                text: format!("s{i}"),
                style: Style::default(),
                sizing: inkboard_core::Sizing::Fixed,
                rotation: inkboard_core::Rotation::NONE,
                icon: None,
            };
            tx.add(page, None, Kind::Shape(shape)).unwrap()
        })
        .collect();
    for pair in ids.windows(2) {
        let c = Connector::new(End::Object(pair[0].clone()), End::Object(pair[1].clone()));
        tx.add(page, None, Kind::Connector(c)).unwrap();
    }
    tx.commit(inkboard_core::Actor::Agent).unwrap();
    board
}

/// A layout of the whole page with `stop`, and the board before and after:
/// committed when the layout succeeds, dropped (as the tools drop it) when not.
fn lay_out(stop: &dyn Fn() -> bool) -> (Result<(), ArrangeError>, Board, Board) {
    let mut board = board();
    let before = board.clone();
    let page = board.pages()[0].id;
    let opts = LayoutOptions {
        algorithm: Algorithm::Layered,
        direction: Direction::Down,
        spacing: None,
    };
    let out = {
        let mut tx = Transaction::begin(&mut board);
        let out = arrange(&mut tx, page, None, &opts, stop).map(|_| ());
        if out.is_ok() {
            tx.commit(inkboard_core::Actor::Agent).unwrap();
        }
        out
    };
    (out, before, board)
}

#[test]
fn a_layout_runs_when_nothing_stops_it() {
    let asked = Cell::new(0);
    let (out, before, after) = lay_out(&|| {
        asked.set(asked.get() + 1);
        false
    });
    assert!(out.is_ok(), "{out:?}");
    assert_ne!(before, after, "a row laid out downwards moves");
    assert!(asked.get() > 0, "the stop check was never asked");
}

#[test]
fn a_stopped_layout_stops_inside_and_changes_nothing() {
    let (out, before, after) = lay_out(&|| true);
    assert!(matches!(out, Err(ArrangeError::Stopped)), "{out:?}");
    assert_eq!(before, after);
}
