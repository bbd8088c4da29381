//! Auto-size and rendering agree: a shape that `add_shape` sized to its text shows
//! all of it at its own font size (the fit rule never shrinks it), by the renderer's
//! own overflow check (the one `render` reports), for every outline (frames:
//! one-line titles), several font sizes and text shapes. A shape one line too short
//! draws its text smaller, and one far too small is reported, so the check is not
//! blind.

use inkboard_core::{Geom, Kind, Vocabulary};
use inkboard_render::{check, ProblemKind};
use inkboard_tools::{Engine, Reply};
use serde_json::json;

const TEXTS: &[&str] = &[
    "OK",
    "Check stock",
    "A rather long label that has to wrap over a few lines inside its shape",
    "First line\nSecond, longer line\nThird",
    "Pneumonoultramicroscopicsilicovolcanoconiosis is a long word",
    "Привет, мир — Γειά σου κόσμε",
];

#[test]
fn auto_sized_shapes_show_all_their_text() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fit.inkboard");
    let engine = Engine::new();
    engine.call("create_board", json!({"path": path})).unwrap();
    let mut ops = Vec::new();
    for geom in Geom::ALL {
        for text in TEXTS {
            // A frame's text is its title, one line in the band at its top.
            if *geom == Geom::Frame && text.contains('\n') {
                continue;
            }
            for font_size in [12, 16, 24] {
                ops.push(json!({"tool": "add_shape", "args": {"geom": geom.name(), "text": text, "font_size": font_size}}));
            }
        }
    }
    for chunk in ops.chunks(200) {
        let reply = engine
            .call("batch", json!({"path": path, "operations": chunk}))
            .unwrap();
        assert!(matches!(reply, Reply::Json(_)));
    }
    let board = inkboard_format::load(&path).unwrap().board;
    let page = board.pages()[0].id;
    let overflows: Vec<String> = check(&board, page)
        .into_iter()
        .filter(|p| p.kind == ProblemKind::TextOverflow)
        .map(|p| p.message)
        .collect();
    assert!(
        overflows.is_empty(),
        "auto-sized shapes overflow:\n{}",
        overflows.join("\n")
    );
    assert_eq!(board.pages()[0].objects.len(), ops.len());
    // Drawn at the size set: auto-size leaves the fit rule nothing to shrink.
    let scene = inkboard_render::resolve(&board, page);
    for (item, object) in scene.items.iter().zip(&board.pages()[0].objects) {
        let Kind::Shape(s) = &object.kind else {
            continue;
        };
        let set = inkboard_render::style::shape_font(s.geom, &s.style).0;
        for part in &item.parts {
            if let inkboard_render::Part::Text(t) = part {
                assert_eq!(t.font_size, set, "{} {:?} shrunk", s.geom, s.text);
            }
        }
    }
}

#[test]
fn a_shape_too_short_for_its_text_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("short.inkboard");
    let engine = Engine::new();
    engine.call("create_board", json!({"path": path})).unwrap();
    let text = TEXTS[2];
    let Reply::Json(added) = engine
        .call("add_shape", json!({"path": path, "text": text, "w": 160}))
        .unwrap()
    else {
        panic!("add_shape answers JSON")
    };
    let h = added["h"].as_f64().unwrap();
    // One line of 16 px text is 20 px high: take that away and the text no longer fits.
    engine
        .call(
            "update",
            json!({"path": path, "id": added["id"], "h": h - 20.0}),
        )
        .unwrap();
    let board = inkboard_format::load(&path).unwrap().board;
    let shape_text = board.pages()[0].objects.iter().find_map(|o| match &o.kind {
        Kind::Shape(s) => Some(s.text.clone()),
        _ => None,
    });
    assert_eq!(shape_text.as_deref(), Some(text));
    let page = board.pages()[0].id;
    let problems = check(&board, page);
    assert!(
        !problems.iter().any(|p| p.kind == ProblemKind::TextOverflow),
        "one line short, the text shrinks to fit: {problems:?}"
    );
    let shrunk = inkboard_render::resolve(&board, page).items[0]
        .parts
        .iter()
        .any(|p| matches!(p, inkboard_render::Part::Text(t) if t.font_size < 16.0));
    assert!(shrunk, "the text is drawn smaller");
    // Far too small even for 60% of the size: reported.
    engine
        .call("update", json!({"path": path, "id": added["id"], "h": 30}))
        .unwrap();
    let board = inkboard_format::load(&path).unwrap().board;
    let problems = check(&board, page);
    assert!(
        problems.iter().any(|p| p.kind == ProblemKind::TextOverflow),
        "{problems:?}"
    );
}
