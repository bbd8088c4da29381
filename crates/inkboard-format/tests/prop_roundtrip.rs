//! Property tests with proptest: random boards (the strategies of
//! `inkboard_core::arbitrary`) saved to a real file and loaded back are the same
//! board, and saving what was loaded writes the same bytes; unknown fields of any
//! JSON shape survive on the board, its pages and its objects; and texts with odd
//! Unicode (combining marks, right to left, emoji sequences, controls and NUL, very
//! long runs) come back exactly.
//!
//! Each property runs 64 cases (`PROPTEST_CASES` overrides): they write files.

use std::fs;

use inkboard_core::arbitrary::{board, config, point, ODD_TEXT};
use inkboard_core::{
    Actor, Board, Connector, End, Extra, Geom, IdKind, Kind, Object, Rect, Shape, Style,
    Transaction,
};
use inkboard_format::{board_from_json, board_to_json, load, save, to_pretty_string};
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use serde_json::Value;

/// Text made of the odd pieces and of any characters; now and then very long.
fn odd() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        select(ODD_TEXT).prop_map(str::to_string),
        any::<char>().prop_map(String::from),
    ];
    prop_oneof![
        8 => vec(piece, 0..40).prop_map(|p| p.concat()),
        // Long runs, but within the limit on a text's length.
        1 => (select(ODD_TEXT), 5_000..50_000usize).prop_map(|(p, n)| {
            p.repeat(n.min(inkboard_core::limits::MAX_TEXT_CHARS / p.chars().count()))
        }),
    ]
}

/// Any JSON value: scalars (floats of every size, odd texts), lists and objects
/// nested a few levels.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("JSON numbers are finite", |f| f.is_finite())
            .prop_map(Value::from),
        odd().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(Value::Array),
            btree_map(odd(), inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Unknown fields: keys that no record knows (`x-` then odd text), values of any
/// JSON shape as the reader keeps them (compact JSON text).
fn unknown_fields() -> impl Strategy<Value = Extra> {
    btree_map(
        odd().prop_map(|k| format!("x-{k}")),
        json_value().prop_map(|v| v.to_string()),
        0..3,
    )
}

/// A random board with unknown fields added on it, on its pages and on some of its
/// objects.
fn board_with_unknown_fields() -> impl Strategy<Value = Board> {
    (
        board(),
        unknown_fields(),
        vec(unknown_fields(), 0..4),
        vec((any::<Index>(), unknown_fields()), 0..6),
    )
        .prop_map(|(board, on_board, on_pages, on_objects)| {
            let mut pages = board.pages().to_vec();
            for (page, extra) in pages.iter_mut().zip(on_pages) {
                page.extra.extend(extra);
            }
            let places: Vec<(usize, usize)> = pages
                .iter()
                .enumerate()
                .flat_map(|(p, page)| (0..page.objects.len()).map(move |o| (p, o)))
                .collect();
            for (i, extra) in on_objects {
                if !places.is_empty() {
                    let (p, o) = places[i.index(places.len())];
                    pages[p].objects[o].extra.extend(extra);
                }
            }
            let mut extra = board.extra().clone();
            extra.extend(on_board);
            Board::from_parts(
                board.title().to_string(),
                pages,
                board.next_object(),
                board.revision(),
                extra,
            )
            .expect("the parts of a valid board")
        })
}

/// Saves `board` as a new file, loads it, saves what was loaded over it, and
/// checks: the same board (revision and id counter included), and the same bytes.
/// Returns the board loaded and the file text.
fn round_trip(board: &Board) -> Result<(Board, String), TestCaseError> {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("board.inkboard");
    let saved = save(&path, board, None).expect("save a new file");
    let text = fs::read_to_string(&path).expect("the file is UTF-8");
    prop_assert_eq!(saved.bytes, text.len());
    let loaded = load(&path).expect("load what was saved");
    prop_assert_eq!(&loaded.board, board);
    prop_assert_eq!(loaded.board.revision(), board.revision());
    prop_assert_eq!(loaded.board.next_object(), board.next_object());
    prop_assert_eq!(&loaded.stamp, &saved.stamp);
    save(&path, &loaded.board, Some(&loaded.stamp)).expect("save over what was loaded");
    let again = fs::read_to_string(&path).expect("the file is UTF-8");
    prop_assert!(again == text, "saving the loaded board changed the bytes");
    Ok((loaded.board, text))
}

proptest! {
    #![proptest_config(config(64))]

    /// Save then load gives the same board, and saving that board the same bytes.
    /// The file text is also the document tree, laid out: both writers agree.
    #[test]
    fn save_then_load_gives_the_same_board(board in board()) {
        let (_, text) = round_trip(&board)?;
        let parsed: Value = serde_json::from_str(&text).expect("the file is JSON");
        prop_assert_eq!(parsed, board_to_json(&board));
        prop_assert_eq!(&board_from_json(&text).expect("the text reads"), &board);
        prop_assert_eq!(to_pretty_string(&board), text);
    }

    /// Unknown fields on the board, its pages and its objects survive a round trip
    /// verbatim (`round_trip` checks that: boards, pages and objects compare their
    /// unknown fields too), and the file holds each as the same JSON value.
    #[test]
    fn unknown_fields_survive(board in board_with_unknown_fields()) {
        let (_, text) = round_trip(&board)?;
        let doc: Value = serde_json::from_str(&text).expect("the file is JSON");
        for (key, value) in board.extra() {
            let value: Value = serde_json::from_str(value).expect("kept as JSON");
            prop_assert_eq!(&doc[key], &value, "board field {:?}", key);
        }
        for (i, page) in board.pages().iter().enumerate() {
            let on_page = &doc["pages"][i];
            for (key, value) in &page.extra {
                let value: Value = serde_json::from_str(value).expect("kept as JSON");
                prop_assert_eq!(&on_page[key], &value, "page field {:?}", key);
            }
            for (j, object) in page.objects.iter().enumerate() {
                for (key, value) in &object.extra {
                    let value: Value = serde_json::from_str(value).expect("kept as JSON");
                    prop_assert_eq!(&on_page["objects"][j][key], &value, "object field {:?}", key);
                }
            }
        }
    }

    /// Odd text comes back exactly, wherever a board holds text: the title, page
    /// names, a shape's and a connector's text, and an unknown field's name and
    /// value.
    #[test]
    fn odd_text_survives(
        title in odd(),
        names in vec(odd(), 1..3),
        shape_text in odd(),
        label in odd(),
        key in odd(),
        value in odd(),
        end in point(),
    ) {
        let mut board = Board::new(title.clone(), &names);
        let page = board.pages()[0].id;
        let mut tx = Transaction::begin(&mut board);
        let s = tx.new_id(IdKind::Shape);
        let mut shape = Object::new(
            s.clone(),
            Kind::Shape(Shape {
                geom: Geom::Note,
                bounds: Rect::new(0.0, 0.0, 160.0, 160.0),
                text: shape_text.clone(),
                style: Style::default(),
                sizing: inkboard_core::Sizing::Fixed,
                rotation: inkboard_core::Rotation::NONE,
                icon: None,
            }),
        );
        let field = format!("x-{key}");
        shape.extra.insert(field.clone(), Value::String(value.clone()).to_string());
        tx.insert(page, None, shape).expect("insert the shape");
        let c = tx.new_id(IdKind::Connector);
        let mut connector = Connector::new(End::Object(s.clone()), End::Point(end));
        connector.text = label.clone();
        tx.insert(page, None, Object::new(c.clone(), Kind::Connector(connector)))
            .expect("insert the connector");
        tx.commit(Actor::Agent).expect("commit");

        let (loaded, _) = round_trip(&board)?;
        prop_assert_eq!(loaded.title(), title.as_str());
        let got: Vec<&str> = loaded.pages().iter().map(|p| p.name.as_str()).collect();
        prop_assert_eq!(got, names.iter().map(String::as_str).collect::<Vec<_>>());
        let shape = loaded.object(&s).expect("the shape is back");
        prop_assert_eq!(shape.text(), Some(shape_text.as_str()));
        let kept: Value = serde_json::from_str(&shape.extra[&field]).expect("kept as JSON");
        prop_assert_eq!(kept, Value::String(value));
        let connector = loaded.object(&c).expect("the connector is back");
        prop_assert_eq!(connector.text(), Some(label.as_str()));
    }
}

/// A case `unknown_fields_survive` found: a float in an unknown field must come
/// back as written. `serde_json` without its `float_roundtrip` feature reads some
/// decimals one unit in the last place off (`1.7427315020814044e-214` is read as
/// `1.7427315020814042e-214`), so the field changes on the first load and save.
#[test]
fn a_float_in_an_unknown_field_survives() {
    for number in ["1.7427315020814044e-214", "123456789012345.67"] {
        let text = format!(
            r#"{{"format": "inkboard", "version": 1, "title": "t", "pages": [
                {{"id": "p1", "name": "Page 1", "objects": []}}], "x-f": {number}}}"#
        );
        let board = board_from_json(&text).expect("the file reads");
        assert_eq!(board.extra()["x-f"], number, "read back");
        let again = board_from_json(&to_pretty_string(&board)).expect("the save reads");
        assert_eq!(again.extra()["x-f"], number, "after a save");
    }
}
