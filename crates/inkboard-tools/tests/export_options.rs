//! `export`'s `background` and `ids`, as the editor's export dialog sends them to
//! `/export`: a transparent picture leaves the page's colour out (a PNG with
//! alpha, an SVG without its background rectangle), and `ids` draws only those
//! objects (a group's members and a frame's contents with them), in a picture
//! cut to them. The refusals are in `tests/cases/export_options.json`.

use std::sync::Once;

use inkboard_tools::Engine;
use serde_json::{json, Value};

fn no_application() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let runtime = tempfile::tempdir().expect("runtime dir").keep();
        // SAFETY: every test of this file calls this before it builds an engine, and
        // `Once` makes the others wait until it is set, so no thread reads it meanwhile.
        unsafe { std::env::set_var("INKBOARD_RUNTIME_DIR", runtime) };
    });
}

/// A board with two shapes (s1, s2), a group of two more (g5 of s3, s4), and a
/// frame (s6) holding s7.
fn board() -> (tempfile::TempDir, String, Engine) {
    no_application();
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("b.inkboard").to_string_lossy().to_string();
    let engine = Engine::new();
    engine
        .call("create_board", json!({"path": path}))
        .expect("board");
    let ops = json!([
        {"tool": "add_shape", "args": {"text": "A", "x": 0, "y": 0, "fill": "#1e88e5"}},
        {"tool": "add_shape", "args": {"text": "B", "x": 400, "y": 0}},
        {"tool": "add_shape", "args": {"text": "C", "x": 0, "y": 300}},
        {"tool": "add_shape", "args": {"text": "D", "x": 200, "y": 300}},
        {"tool": "group", "args": {"ids": ["$2.id", "$3.id"]}},
        {"tool": "add_shape", "args": {"geom": "frame", "text": "F", "x": 600, "y": 300, "w": 300, "h": 200}},
        {"tool": "add_shape", "args": {"text": "in F", "x": 650, "y": 350}}
    ]);
    engine
        .call("batch", json!({"path": path, "operations": ops}))
        .expect("objects");
    (dir, path, engine)
}

fn export(engine: &Engine, path: &str, out: &std::path::Path, extra: Value) -> Vec<u8> {
    let mut args = json!({"path": path, "output": out, "embed": false});
    args.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    engine.call("export", args).expect("export");
    std::fs::read(out).expect("written")
}

/// The ids of the objects an SVG draws (`<g id="…"`).
fn drawn(svg: &str) -> Vec<String> {
    svg.split("<g id=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(str::to_string)
        .collect()
}

/// The width of an SVG (its `width` attribute).
fn width(svg: &str) -> f64 {
    let at = svg.find(" width=\"").expect("width") + 8;
    svg[at..]
        .split('"')
        .next()
        .unwrap()
        .parse()
        .expect("a number")
}

#[test]
fn ids_draw_those_objects_with_a_groups_members_and_a_frames_contents() {
    let (dir, path, engine) = board();
    let svg = |name: &str, extra: Value| {
        String::from_utf8(export(&engine, &path, &dir.path().join(name), extra)).unwrap()
    };
    let page = svg("page.svg", json!({}));
    // A frame is drawn behind what it holds; a group draws nothing of its own.
    assert_eq!(drawn(&page), ["s6", "s1", "s2", "s3", "s4", "g5", "s7"]);
    let one = svg("one.svg", json!({"ids": ["s1"]}));
    assert_eq!(drawn(&one), ["s1"]);
    assert!(
        width(&one) < width(&page) / 4.0,
        "cut to s1: {} of {}",
        width(&one),
        width(&page)
    );
    assert_eq!(
        drawn(&svg("group.svg", json!({"ids": ["g5"]}))),
        ["s3", "s4", "g5"]
    );
    assert_eq!(
        drawn(&svg("frame.svg", json!({"ids": ["s6"]}))),
        ["s6", "s7"]
    );
    // Page order, whatever the order named.
    assert_eq!(
        drawn(&svg("two.svg", json!({"ids": ["s7", "s2"]}))),
        ["s2", "s7"]
    );
}

/// A PNG's colour type and its pixels as RGBA.
fn pixels(png: &[u8]) -> (png::ColorType, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    (info.color_type, info.width, buf)
}

#[test]
fn a_transparent_background_leaves_the_pages_colour_out() {
    let (dir, path, engine) = board();
    let svg = export(
        &engine,
        &path,
        &dir.path().join("clear.svg"),
        json!({"background": "transparent"}),
    );
    let svg = String::from_utf8(svg).unwrap();
    assert!(
        !svg.contains(r#"data-type="background""#),
        "no page rectangle"
    );
    let solid = String::from_utf8(export(
        &engine,
        &path,
        &dir.path().join("solid.svg"),
        json!({"background": "solid"}),
    ))
    .unwrap();
    assert!(solid.contains(r#"data-type="background""#));

    let (kind, w, px) = pixels(&export(
        &engine,
        &path,
        &dir.path().join("clear.png"),
        json!({"background": "transparent", "ids": ["s1"]}),
    ));
    assert_eq!(kind, png::ColorType::Rgba);
    assert_eq!(px[3], 0, "the corner is clear");
    // The middle of s1 (120 × 60 at 0, 0, padded by 25): its blue fill, opaque.
    let at = |x: u32, y: u32| ((y * w + x) * 4) as usize;
    let mid = &px[at(85, 55)..at(85, 55) + 4];
    assert_eq!(mid, [0x1e, 0x88, 0xe5, 255], "s1's fill");
    let (kind, _, px) = pixels(&export(
        &engine,
        &path,
        &dir.path().join("solid.png"),
        json!({"ids": ["s1"]}),
    ));
    assert_eq!(kind, png::ColorType::Rgb);
    assert_eq!(px[..3], [255, 255, 255]);
}
