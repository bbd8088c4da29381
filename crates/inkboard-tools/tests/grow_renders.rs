//! The grow rule drawn (issue 14, item 1): shapes that `add_shape` sized to
//! their text stay sized to it when `update` gives them a longer text, a larger
//! font or another face. Boxes, ellipses and diamonds grow both ways about
//! their centre, a note keeps its width and grows down, free text grows from its
//! corner. Each case is held to rules that fail on their own (every character
//! drawn, no "…", nothing reported as overflowing, each line inside the shape's
//! text box, the shape larger than before) and its drawing is kept as a text
//! snapshot, `tests/grow/NAME.svg` (`UPDATE_EXPECT=1 cargo test -p
//! inkboard-tools --test grow_renders` rewrites them; `GROW_PNG=DIR` also
//! writes each page as a PNG to look at).

mod common;

use std::path::{Path, PathBuf};

use inkboard_core::{Kind, Rect};
use inkboard_render::scene::Part;
use inkboard_render::ProblemKind;
use inkboard_tools::Engine;
use serde_json::{json, Value};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grow")
}

/// A case: the shape's `add_shape` arguments, then its `update`.
type Case = (&'static str, Value, Value);

fn cases() -> Vec<Case> {
    vec![
        (
            "rect_longer_text",
            json!({"text": "Add"}),
            json!({"text": "Add to the onboarding checklist and tell the team about it"}),
        ),
        (
            "ellipse_typed_label",
            json!({"geom": "ellipse", "text": "A"}),
            json!({"text": "A much longer label typed into an ellipse"}),
        ),
        (
            "diamond_question",
            json!({"geom": "diamond", "text": "Ok?"}),
            json!({"text": "Ready to ship today?", "font_size": 24}),
        ),
        (
            "note_grows_down",
            json!({"geom": "note", "text": "Short"}),
            json!({"text": "A sticky note whose text grows a lot: it keeps its width and grows down, line after line, as far as the text needs"}),
        ),
        (
            "title_48px",
            json!({"geom": "text", "text": "Plan"}),
            json!({"text": "Self-serve onboarding", "font_size": 48}),
        ),
        (
            "other_face",
            json!({"text": "A label set in another face"}),
            json!({"font": "mono"}),
        ),
        (
            "scripts",
            json!({"geom": "rounded", "text": "Hi"}),
            json!({"text": "日本語のテキスト → 🚀 ship"}),
        ),
    ]
}

fn bounds(board: &inkboard_core::Board) -> Rect {
    match &board.pages()[0].objects[0].kind {
        Kind::Shape(s) => s.bounds,
        _ => panic!("the first object is the shape"),
    }
}

fn board(file: &common::Board) -> inkboard_core::Board {
    inkboard_format::board_from_json(&String::from_utf8(file.bytes()).expect("UTF-8"))
        .expect("the board file")
}

/// The failures of one case, none if it holds.
fn run(name: &str, add: &Value, update: &Value) -> Vec<String> {
    let engine = Engine::new();
    let file = common::Board::new(&engine, &["Page 1"]);
    let mut add = add.clone();
    add["x"] = json!(100);
    add["y"] = json!(60);
    file.call(&engine, "add_shape", add).expect("add_shape");
    let before = bounds(&board(&file));
    let mut update = update.clone();
    update["id"] = json!("s1");
    file.call(&engine, "update", update.clone())
        .expect("update");
    let board = board(&file);
    let after = bounds(&board);
    let mut failures = Vec::new();
    let grew = after.w > before.w + 0.5 || after.h > before.h + 0.5;
    let narrower = after.w + 0.5 < before.w;
    if !grew && !(update.get("font").is_some() && (narrower || after.h != before.h)) {
        failures.push(format!("{name}: {before:?} did not refit: {after:?}"));
    }
    let page = board.pages()[0].id;
    if let Some(p) = inkboard_render::check(&board, page)
        .iter()
        .find(|p| p.kind == ProblemKind::TextOverflow)
    {
        failures.push(format!("{name}: {}", p.message));
    }
    let scene = inkboard_render::resolve(&board, page);
    let mut drawn = String::new();
    for part in scene.items.iter().flat_map(|i| &i.parts) {
        if let Part::Text(t) = part {
            for line in &t.lines {
                drawn.push_str(&line.text);
                let left = f64::from(line.left(t.anchor));
                let right = left + f64::from(line.width);
                let (top, base) = (
                    f64::from(line.baseline - 0.9 * t.font_size),
                    f64::from(line.baseline),
                );
                let inside = left >= after.x - 0.5
                    && right <= after.right() + 0.5
                    && top >= after.y - 0.5
                    && base <= after.bottom() + 0.5;
                if !inside {
                    failures.push(format!("{name}: line {:?} outside {after:?}", line.text));
                }
            }
        }
    }
    let text = board.pages()[0].objects[0]
        .text()
        .unwrap_or_default()
        .to_string();
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    if squeeze(&drawn) != squeeze(&text) || drawn.contains('…') {
        failures.push(format!("{name}: drew {drawn:?} for {text:?}"));
    }
    let options = inkboard_render::SvgOptions {
        embed_fonts: false,
        ..Default::default()
    };
    let svg = inkboard_render::to_svg_with(&scene, None, options);
    if let Some(out) = std::env::var_os("GROW_PNG") {
        let png = inkboard_render::to_png(&scene, None, 800).expect("png");
        std::fs::write(Path::new(&out).join(format!("{name}.png")), png.data).expect("write");
    }
    failures.extend(common::expect_file(
        &dir().join(format!("{name}.svg")),
        &svg,
        name,
    ));
    failures
}

#[test]
fn shapes_sized_to_their_text_grow_with_it() {
    let failures: Vec<String> = cases()
        .iter()
        .flat_map(|(name, add, update)| run(name, add, update))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
