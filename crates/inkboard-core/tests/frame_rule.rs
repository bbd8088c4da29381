//! Which objects a frame holds, checked case by case against
//! `tests/frame_rule.json`. The editor's `frameHolds` (`inkboard-app/web/canvas/geom.js`)
//! copies [`Board::frame_holds`] so that a drag moves what the server will count
//! as the frame's contents; `tests/browser/frame_rule.test.mjs` checks the copy
//! against the same file, so the two rules cannot drift apart unseen. Where they
//! disagree, this rule is the one that holds.
//!
//! A case is a frame box with its rotation, an object (a shape or image box with
//! its rotation, or ink points), and whether the frame holds it. Connectors and
//! groups are left out: frames hold objects with a box of their own
//! (`Board::frame_contents`), and the editor never asks about the others.

use std::sync::Arc;

use inkboard_core::{
    Actor, Board, Geom, IdKind, Image, ImageFormat, Ink, Kind, Object, Point, Rect, Rotation,
    Shape, Sizing, Style, Transaction,
};
use serde_json::Value;

const CASES: &str = include_str!("frame_rule.json");

fn number(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is a number in {v}"))
}

fn rect(v: &Value) -> Rect {
    Rect::new(
        number(v, "x"),
        number(v, "y"),
        number(v, "w"),
        number(v, "h"),
    )
}

fn rotation(v: &Value) -> Rotation {
    Rotation::degrees(v["rotation"].as_f64().unwrap_or(0.0)).expect("a finite rotation")
}

fn shape(geom: Geom, v: &Value) -> Kind {
    Kind::Shape(Shape {
        geom,
        bounds: rect(v),
        text: String::new(),
        style: Style::default(),
        sizing: Sizing::Fixed,
        rotation: rotation(v),
        icon: None,
    })
}

/// The object a case describes, as the model holds it.
fn kind(v: &Value) -> Kind {
    match v["type"].as_str() {
        Some("shape") => shape(Geom::Rect, v),
        Some("image") => Kind::Image(Image {
            bounds: rect(v),
            format: ImageFormat::Svg,
            data: Arc::from(&b"<svg xmlns='http://www.w3.org/2000/svg'/>"[..]),
            style: Style::default(),
            rotation: rotation(v),
        }),
        Some("ink") => Kind::Ink(Ink {
            points: v["points"]
                .as_array()
                .expect("ink has points")
                .iter()
                .map(|p| Point::new(p[0].as_f64().unwrap(), p[1].as_f64().unwrap()))
                .collect(),
            style: Style::default(),
        }),
        other => panic!("unknown object type {other:?}"),
    }
}

#[test]
fn frames_hold_what_the_shared_cases_say() {
    let cases: Value = serde_json::from_str(CASES).expect("frame_rule.json is JSON");
    let cases = cases.as_array().expect("a list of cases");
    assert!(cases.len() >= 20, "the cases are all there");
    let mut wrong = Vec::new();
    for case in cases {
        let name = case["name"].as_str().expect("each case has a name");
        let mut board = Board::new("Frames", &[]);
        let page = board.pages()[0].id;
        let mut tx = Transaction::begin(&mut board);
        let frame = tx.new_id(IdKind::Shape);
        let object = tx.new_id(IdKind::Shape);
        tx.insert(
            page,
            None,
            Object::new(frame.clone(), shape(Geom::Frame, &case["frame"])),
        )
        .unwrap_or_else(|e| panic!("{name}: the frame: {e}"));
        tx.insert(
            page,
            None,
            Object::new(object.clone(), kind(&case["object"])),
        )
        .unwrap_or_else(|e| panic!("{name}: the object: {e}"));
        tx.commit(Actor::User)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = case["holds"].as_bool().expect("holds is true or false");
        let holds = board.frame_holds(&frame, &object);
        // The contents list is the same rule seen from the frame.
        assert_eq!(
            board.frame_contents(&frame).contains(&object),
            holds,
            "{name}"
        );
        if holds != want {
            wrong.push(format!("{name}: holds {holds}, the case says {want}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
