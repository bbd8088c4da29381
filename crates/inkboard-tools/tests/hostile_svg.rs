//! Hostile SVG images: each file in `tests/hostile_svg/` is added to a board and the
//! board is rendered to PNG and exported to PDF through the engine, as an agent
//! would. A few hundred bytes of filters (morphology of radius 400, a blur over a
//! huge region, a 15×15 convolution) once took minutes; now the image is drawn as
//! a placeholder and `render` reports `image_not_drawn`. A benign drop shadow is
//! drawn. An image link to a file is never followed. Each call runs on its own
//! thread with a generous guard (a hang fails the test rather than the run), which
//! is not a speed target: the benchmark has none for this.

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use base64::Engine as _;
use inkboard_tools::{Engine, Reply};
use serde_json::{json, Value};

/// Far above what a drawing should take, far below a hung test run.
const GUARD: Duration = Duration::from_secs(120);

fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile_svg");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().to_string();
            (name, std::fs::read(&p).expect("an svg"))
        })
        .collect()
}

/// Runs `f` on its own thread; panics if it takes longer than [`GUARD`].
fn guarded<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    receive
        .recv_timeout(GUARD)
        .unwrap_or_else(|_| panic!("{what} did not finish within {GUARD:?}"))
}

#[test]
fn hostile_svg_images_are_drawn_as_placeholders_and_reported() {
    let dir = tempfile::tempdir().expect("a folder");
    // The file the file-link case names by a relative path.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/boards/red-4x2.png"),
        dir.path().join("red-4x2.png"),
    )
    .ok();
    for (name, svg) in corpus() {
        let path = dir.path().join(format!("{name}.inkboard"));
        let engine = std::sync::Arc::new(Engine::new());
        let p = path.display().to_string();
        engine
            .call("create_board", json!({"path": p}))
            .expect("a board");
        let data = format!(
            "data:image/svg+xml;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&svg)
        );
        let added = engine
            .call(
                "add_image",
                json!({"path": p, "data": data, "x": 0, "y": 0, "w": 400, "h": 400}),
            )
            .unwrap_or_else(|e| panic!("{name}: add_image: {e}"));
        let Reply::Json(added) = added else {
            panic!("{name}: add_image answered a picture")
        };
        let id = added["id"].as_str().expect("an id").to_string();

        let (e, q) = (engine.clone(), p.clone());
        let reply = guarded(&format!("{name}: render"), move || {
            e.call("render", json!({"path": q, "max_size": 1600}))
        })
        .unwrap_or_else(|e| panic!("{name}: render: {e}"));
        let Reply::Image { data, png, .. } = reply else {
            panic!("{name}: render answered no picture")
        };
        assert!(!png.is_empty());
        let not_drawn: Vec<&Value> = data["problems"]
            .as_array()
            .expect("problems")
            .iter()
            .filter(|p| p["kind"] == "image_not_drawn")
            .collect();
        let hostile = !matches!(name.as_str(), "shadow" | "file-link");
        assert_eq!(
            !not_drawn.is_empty(),
            hostile,
            "{name}: image_not_drawn reported {not_drawn:?}"
        );
        if hostile {
            assert_eq!(not_drawn[0]["ids"], json!([id]), "{name}");
        }

        let (e, q) = (engine.clone(), p.clone());
        let out = dir.path().join(format!("{name}.pdf")).display().to_string();
        guarded(&format!("{name}: export to PDF"), move || {
            e.call("export", json!({"path": q, "output": out}))
        })
        .unwrap_or_else(|e| panic!("{name}: export: {e}"));
    }
}

#[test]
fn an_image_link_to_a_file_draws_nothing_of_it() {
    // An SVG whose only content is a link to a red PNG on disk: if the link were
    // followed, the picture would hold red pixels.
    let dir = tempfile::tempdir().expect("a folder");
    let red = dir.path().join("red.png");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/boards/red-4x2.png"),
        &red,
    )
    .expect("the red image");
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><image href="{}" width="100" height="100"/></svg>"#,
        red.display()
    );
    let engine = Engine::new();
    let p = dir.path().join("b.inkboard").display().to_string();
    engine
        .call("create_board", json!({"path": p}))
        .expect("a board");
    let data = format!(
        "data:image/svg+xml;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(svg)
    );
    engine
        .call(
            "add_image",
            json!({"path": p, "data": data, "x": 0, "y": 0, "w": 100, "h": 100}),
        )
        .expect("the image");
    let Ok(Reply::Image { png, .. }) = engine.call("render", json!({"path": p})) else {
        panic!("no picture")
    };
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("pixels");
    let channels = info.color_type.samples();
    let red_pixels = pixels[..info.buffer_size()]
        .chunks(channels)
        .filter(|px| px[0] > 200 && px[1] < 60 && px[2] < 60)
        .count();
    assert_eq!(red_pixels, 0, "the linked file was drawn");
}
