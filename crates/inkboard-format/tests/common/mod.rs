//! What the file tests share: boards with shapes on them.

use inkboard_core::{Actor, Board, Geom, IdKind, Kind, Object, Rect, Shape, Style, Transaction};

/// Adds a rounded shape holding `text` to the first page of `board`.
pub fn add_shape(board: &mut Board, text: &str) {
    let page = board.pages()[0].id;
    let mut tx = Transaction::begin(board);
    let id = tx.new_id(IdKind::Shape);
    let shape = Shape {
        geom: Geom::Rounded,
        bounds: Rect::new(10.0, 20.0, 120.0, 60.0),
        text: text.to_string(),
        style: Style::default(),
        sizing: inkboard_core::Sizing::Fixed,
        rotation: inkboard_core::Rotation::NONE,
        icon: None,
    };
    tx.insert(page, None, Object::new(id, Kind::Shape(shape)))
        .unwrap();
    tx.commit(Actor::Agent).unwrap();
}
