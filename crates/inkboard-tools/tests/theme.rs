//! `render` and `export` with `theme`: light (the board's own colours) unless a
//! call asks for dark, which paints every colour by the renderer's one rule
//! (`inkboard_render::Theme::paint`), the page's background included, and leaves
//! images as they are. The arguments' refusals are in `tests/cases/theme_args.json`.

use std::sync::Once;

use inkboard_render::scene::Rgba;
use inkboard_render::Theme;
use inkboard_tools::{Engine, Reply};
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

fn hex(c: Rgba) -> String {
    let [r, g, b, _] = c.0;
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// A board with a blue shape on it, in a temp folder.
fn board() -> (tempfile::TempDir, String, Engine) {
    no_application();
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("b.inkboard").to_string_lossy().to_string();
    let engine = Engine::new();
    engine
        .call("create_board", json!({"path": path}))
        .expect("board");
    engine
        .call(
            "add_shape",
            json!({"path": path, "text": "A", "x": 0, "y": 0, "fill": "#1e88e5", "stroke": "#212121"}),
        )
        .expect("shape");
    (dir, path, engine)
}

fn export_svg(engine: &Engine, path: &str, out: &str, extra: Value) -> String {
    let mut args = json!({"path": path, "output": out, "embed": false});
    args.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    engine.call("export", args).expect("export");
    std::fs::read_to_string(out).expect("svg written")
}

#[test]
fn an_svg_export_is_light_unless_asked_and_dark_paints_every_colour() {
    let (dir, path, engine) = board();
    let out = |n: &str| dir.path().join(n).to_string_lossy().to_string();
    let light = export_svg(&engine, &path, &out("light.svg"), json!({}));
    let dark = export_svg(&engine, &path, &out("dark.svg"), json!({"theme": "dark"}));
    let named = export_svg(&engine, &path, &out("named.svg"), json!({"theme": "light"}));
    assert_eq!(light, named, "light is the default");
    for c in [
        Rgba::rgb(0xff, 0xff, 0xff),
        Rgba::rgb(0x1e, 0x88, 0xe5),
        Rgba::rgb(0x21, 0x21, 0x21),
    ] {
        let (was, now) = (hex(c), hex(Theme::Dark.paint(c)));
        assert!(light.contains(&was), "light has {was}");
        assert!(!dark.contains(&was), "dark has no {was}");
        assert!(dark.contains(&now), "dark has {now} for {was}");
    }
    assert!(dark.contains(r##"data-type="background" "##));
    assert!(dark.contains(r##"fill="#121212""##), "the page is dark");
}

/// The first pixel of a PNG, which the page's background covers.
fn corner(png: &[u8]) -> [u8; 3] {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    reader.next_frame(&mut buf).expect("png frame");
    [buf[0], buf[1], buf[2]]
}

#[test]
fn render_and_png_export_draw_on_the_themes_page() {
    let (dir, path, engine) = board();
    let render = |theme: Value| {
        let mut args = json!({"path": path, "max_size": 200});
        if !theme.is_null() {
            args["theme"] = theme;
        }
        match engine.call("render", args).expect("render") {
            Reply::Image { png, .. } => corner(&png),
            _ => panic!("render answers with an image"),
        }
    };
    assert_eq!(render(Value::Null), [255, 255, 255]);
    assert_eq!(render(json!("dark")), [0x12, 0x12, 0x12]);
    let out = dir.path().join("dark.png");
    engine
        .call(
            "export",
            json!({"path": path, "output": out, "theme": "dark"}),
        )
        .expect("export");
    assert_eq!(corner(&std::fs::read(&out).unwrap()), [0x12, 0x12, 0x12]);
}
