//! `layout` stops inside the arrange crate's layout when its call is cancelled
//! or past its deadline, with the call's own error, and its transaction then
//! changes nothing.

use std::time::Duration;

use inkboard_core::{Board, Transaction};

use super::{Layout, LayoutArgs};
use crate::control::Control;
use crate::tool::{Cx, EditTool};
use crate::ToolError;

/// The tests' diagram: a frame holding two linked shapes, a group of two
/// more linked to them, ink and an image.
fn board() -> Board {
    let text = include_str!("../../../tests/boards/diagram.inkboard");
    inkboard_format::board_from_json(text).expect("the test diagram loads")
}

/// `layout` of the whole page with `control`, and the board after its
/// transaction is dropped (as the engine drops it on an error).
fn lay_out(control: &Control) -> (Result<(), ToolError>, Board, Board) {
    let mut board = board();
    let before = board.clone();
    let page = board.pages()[0].id;
    let args: LayoutArgs = serde_json::from_value(serde_json::json!({})).unwrap();
    let out = {
        let mut tx = Transaction::begin(&mut board);
        let mut cx = Cx {
            tx: &mut tx,
            page,
            control,
        };
        Layout::run(&mut cx, args).map(|_| ())
    };
    (out, before, board)
}

#[test]
fn a_layout_runs_when_nothing_stops_it() {
    let (out, _, _) = lay_out(&Control::default());
    assert!(out.is_ok(), "{out:?}");
}

#[test]
fn a_cancelled_layout_stops_inside_and_changes_nothing() {
    let control = Control::default();
    control.cancel();
    let (out, before, after) = lay_out(&control);
    assert!(matches!(out, Err(ToolError::Cancelled)), "{out:?}");
    assert_eq!(before, after);
}

#[test]
fn a_layout_past_its_deadline_says_so() {
    let control = Control::default().within(Duration::ZERO);
    let (out, _, _) = lay_out(&control);
    match out {
        Err(e @ ToolError::LayoutTooLong(0)) => {
            assert!(
                e.to_string().starts_with("the layout took longer than 0 s"),
                "{e}"
            );
        }
        other => panic!("{other:?}"),
    }
}
