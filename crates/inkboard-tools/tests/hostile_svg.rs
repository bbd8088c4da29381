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

/// An SVG image whose XML would cost its parser gigabytes (issue 29): nested
/// entities are refused by `add_image` with the limit's name, old Illustrator's
/// few entities are taken, and the same bomb inside an image nested in a clean
/// SVG (which `add_image` cannot see into) is skipped when drawn, as is a
/// gzip-compressed nested SVG, which usvg would inflate without a bound.
#[test]
fn an_svg_image_is_never_parsed_past_its_limits() {
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let bomb = format!(
        "<?xml version=\"1.0\"?><!DOCTYPE svg [<!ENTITY a \"{}\"><!ENTITY b \"{}\">]><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><desc>{}</desc></svg>",
        "A".repeat(2000),
        "&a;".repeat(250),
        "&b;".repeat(4000)
    );
    let dir = tempfile::tempdir().expect("a folder");
    let p = dir.path().join("b.inkboard").display().to_string();
    let engine = Engine::new();
    engine
        .call("create_board", json!({"path": p}))
        .expect("a board");
    let add = |svg: &[u8]| {
        engine.call(
            "add_image",
            json!({"path": p, "data": format!("data:image/svg+xml;base64,{}", b64(svg)), "x": 0, "y": 0, "w": 100, "h": 100}),
        )
    };
    let refused = add(bomb.as_bytes()).expect_err("the bomb is refused");
    assert!(
        refused.to_string().contains(
            "bytes of XML entities once expanded, more than the limit of 1048576 (1 MiB)"
        ),
        "{refused}"
    );
    let illustrator = "<?xml version=\"1.0\"?><!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\" [<!ENTITY ns_svg \"http://www.w3.org/2000/svg\">]><svg xmlns=\"&ns_svg;\" width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\"/></svg>";
    add(illustrator.as_bytes()).expect("Illustrator's entities are taken");

    // Nested: the bomb, and a red square gzipped, each inside a clean SVG.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(
        &mut gz,
        b"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\" fill=\"#ff0000\"/></svg>",
    )
    .expect("gzip");
    let svgz = gz.finish().expect("gzip");
    for inner in [bomb.into_bytes(), svgz] {
        let outer = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\"><image href=\"data:image/svg+xml;base64,{}\" width=\"100\" height=\"100\"/></svg>",
            b64(&inner)
        );
        add(outer.as_bytes()).expect("the outer SVG is clean");
    }
    let (e, q) = (std::sync::Arc::new(engine), p.clone());
    let reply = guarded("render", move || e.call("render", json!({"path": q})));
    let Ok(Reply::Image { png, .. }) = reply else {
        panic!("no picture")
    };
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("pixels");
    let channels = info.color_type.samples();
    let red = pixels[..info.buffer_size()]
        .chunks(channels)
        .filter(|px| px[0] > 200 && px[1] < 60 && px[2] < 60)
        .count();
    assert_eq!(red, 0, "the gzipped nested SVG was drawn");
}
