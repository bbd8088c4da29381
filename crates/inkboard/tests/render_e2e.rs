//! End-to-end tests of `render` and `export` through a real MCP client: the PNG an
//! agent gets decodes and has the size asked for, the summary reports each kind of
//! problem seeded on a bad board and none on a clean one, and every export format
//! writes a file that its own kind of reader accepts.

mod common;

use base64::Engine as _;
use common::{flow_operations, Era, Session};
use rmcp::model::CallToolResult;
use serde_json::json;

both_eras!(
    render_gives_a_png_of_the_size_asked,
    render_reports_seeded_problems,
    render_of_a_clean_board_reports_none,
    render_stays_under_900_kb,
    export_writes_every_format,
);

/// The PNG and the text of a render answer, decoded: (width, height, text, bytes).
fn picture(r: &CallToolResult) -> (u32, u32, String, usize) {
    assert_eq!(r.is_error, Some(false), "render failed: {:?}", r.content);
    let image = r
        .content
        .iter()
        .find_map(|c| c.as_image())
        .expect("an image content");
    assert_eq!(image.mime_type, "image/png");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&image.data)
        .expect("base64");
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes.clone()));
    let reader = decoder.read_info().expect("a PNG that decodes");
    let (w, h) = (reader.info().width, reader.info().height);
    let text = r
        .content
        .iter()
        .find_map(|c| c.as_text())
        .map(|t| t.text.clone())
        .expect("a text content");
    let total = image.data.len() + text.len();
    (w, h, text, total)
}

async fn board_with(s: &Session, name: &str, operations: serde_json::Value) -> String {
    let path = s.path(name);
    s.ok("create_board", json!({"path": path})).await;
    s.ok("batch", json!({"path": path, "operations": operations}))
        .await;
    path
}

async fn render_gives_a_png_of_the_size_asked(era: Era) {
    let s = Session::start(era).await;
    let path = board_with(&s, "flow.inkboard", flow_operations(100)).await;
    let (w, h, text, _) = picture(
        &s.call("render", json!({"path": path, "max_size": 800}))
            .await,
    );
    assert_eq!(w.max(h), 800, "the longest side is max_size");
    assert!(text.contains("199 objects"), "{text}");
    // The default is 1600 px on the longest side.
    let (w, h, _, _) = picture(&s.call("render", json!({"path": path})).await);
    assert_eq!(w.max(h), 1600);
    // A region keeps its own proportions.
    let (w, h, _, _) = picture(
        &s.call(
            "render",
            json!({"path": path, "region": {"x": 0, "y": 0, "w": 400, "h": 200}, "max_size": 400}),
        )
        .await,
    );
    assert_eq!((w, h), (400, 200));
    s.close().await;
}

async fn render_reports_seeded_problems(era: Era) {
    let s = Session::start(era).await;
    let path = board_with(
        &s,
        "bad.inkboard",
        json!([
            {"tool": "add_shape", "args": {"text": "A", "x": 0, "y": 0, "w": 100, "h": 60}},
            {"tool": "add_shape", "args": {"text": "B", "x": 50, "y": 20, "w": 100, "h": 60}},
            {"tool": "add_shape", "args": {"text": "Far too much text for such a very small box", "x": 400, "y": 0, "w": 60, "h": 30}},
            {"tool": "add_connector", "args": {"from": "$2.id", "to": {"x": 700, "y": 300}}},
            {"tool": "add_shape", "args": {"geom": "frame", "text": "Frame", "x": 0, "y": 400, "w": 300, "h": 200}},
            {"tool": "add_shape", "args": {"text": "Half out", "x": 250, "y": 450, "w": 120, "h": 60}},
        ]),
    )
    .await;
    let (_, _, text, _) = picture(&s.call("render", json!({"path": path})).await);
    for (kind, id) in [
        ("shape_overlap", "s1"),
        ("shape_overlap", "s2"),
        ("text_overflow", "s3"),
        ("outside_frame", "s6"),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("- {kind}:")) && l.contains(id));
        assert!(
            line.is_some(),
            "the summary should report {kind} for {id}:\n{text}"
        );
    }
    s.close().await;
}

async fn render_of_a_clean_board_reports_none(era: Era) {
    let s = Session::start(era).await;
    let path = board_with(&s, "clean.inkboard", flow_operations(12)).await;
    let (_, _, text, _) = picture(&s.call("render", json!({"path": path})).await);
    assert!(text.contains("No problems found."), "{text}");
    assert!(!text.contains("Problems"), "{text}");
    s.close().await;
}

async fn render_stays_under_900_kb(era: Era) {
    let s = Session::start(era).await;
    // Hundreds of differently coloured shapes make a PNG that compresses badly.
    let ops: Vec<serde_json::Value> = (0..200)
        .map(|i| {
            let fill = format!("#{:02x}{:02x}{:02x}", (i * 37) % 256, (i * 91) % 256, (i * 53) % 256);
            json!({"tool": "add_shape", "args": {"geom": "note", "text": format!("Note number {i} with some words"), "fill": fill}})
        })
        .collect();
    let path = board_with(&s, "big.inkboard", json!(ops)).await;
    let (w, h, _, total) = picture(
        &s.call("render", json!({"path": path, "max_size": 8000}))
            .await,
    );
    assert!(total < 900 * 1024, "the render answer is {total} bytes");
    // At 8000 px this board's PNG would be several MB: the picture had to shrink.
    assert!(w.max(h) < 8000, "the picture was not made smaller: {w}x{h}");
    s.close().await;
}

async fn export_writes_every_format(era: Era) {
    let s = Session::start(era).await;
    let path = board_with(&s, "two.inkboard", flow_operations(5)).await;
    s.ok("add_page", json!({"path": path, "name": "Second"}))
        .await;
    s.ok(
        "add_shape",
        json!({"path": path, "page": 2, "text": "On page two"}),
    )
    .await;

    let svg = s
        .ok("export", json!({"path": path, "output": s.path("out.svg")}))
        .await;
    assert_eq!(svg["format"], "svg");
    let text = std::fs::read_to_string(s.path("out.svg")).unwrap();
    assert!(
        text.contains("xmlns=\"http://www.w3.org/2000/svg\"") && text.contains("Step 4"),
        "{}",
        &text[..200.min(text.len())]
    );
    assert_eq!(svg["bytes"].as_u64().unwrap() as usize, text.len());

    s.ok(
        "export",
        json!({"path": path, "output": s.path("out.png"), "scale": 2}),
    )
    .await;
    let png = std::fs::read(s.path("out.png")).unwrap();
    let reader = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .expect("PNG");
    assert!(reader.info().width > 100);

    s.ok(
        "export",
        json!({"path": path, "output": s.path("out.pdf"), "all_pages": true}),
    )
    .await;
    let pdf = lopdf::Document::load(s.path("out.pdf")).expect("a PDF that parses");
    assert_eq!(pdf.get_pages().len(), 2);
    // Readers split text into runs differently; the letters and their order count.
    let words: String = pdf
        .extract_text(&[2])
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    assert!(
        words.contains("Onpagetwo"),
        "the PDF text can be extracted: {words:?}"
    );

    let copy = s
        .ok(
            "export",
            json!({"path": path, "output": s.path("copy.inkboard.json")}),
        )
        .await;
    assert_eq!(copy["format"], "inkboard.json");
    let read = s
        .ok(
            "read_board",
            json!({"path": s.path("copy.inkboard.json"), "page": "Second"}),
        )
        .await;
    assert_eq!(read["page"]["objects"].as_array().unwrap().len(), 1);

    let failure = s
        .fails("export", json!({"path": path, "output": s.path("out.gif")}))
        .await;
    assert!(
        failure.text.contains(".svg, .png, .pdf"),
        "{}",
        failure.text
    );
    s.close().await;
}
