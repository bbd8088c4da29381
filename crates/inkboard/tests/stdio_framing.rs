//! Every line a client sends over stdio gets an answer, so no client waits for
//! its timeout: not JSON (-32700, id null), a line over the 32 MiB cap (-32600,
//! with the id read from its start), arguments nested past serde's 128 levels
//! (-32600, with the id), a lone UTF-16 surrogate (-32602, with the id). A line
//! within the cap is read whole, however long: a 16 MB image as a data URL (about
//! 21 MB of JSON) is taken. After each, the server goes on answering.

mod common;

use base64::Engine as _;
use common::raw::Raw;
use serde_json::{json, Value};

#[tokio::test]
async fn malformed_json_is_a_parse_error_with_a_null_id() {
    let mut s = Raw::start().await;
    s.send_line(r#"{"jsonrpc":"2.0","id":5,"method":"tools/list""#)
        .await;
    let answer = s.read().await;
    assert_eq!(answer["id"], Value::Null, "{answer}");
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    s.ping().await;
    assert!(s.close().await.success());
}

#[tokio::test]
async fn a_line_over_the_cap_is_refused_with_its_id() {
    let mut s = Raw::start().await;
    let text = "x".repeat(33 * 1024 * 1024);
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"add_shape","arguments":{{"text":"{text}"}}}}}}"#
    );
    s.send_line(&line).await;
    let answer = s.read().await;
    assert_eq!(answer["id"], 7, "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("32 MiB"),
        "{answer}"
    );
    s.ping().await;
}

#[tokio::test]
async fn nesting_past_the_parser_is_refused_with_its_id() {
    let mut s = Raw::start().await;
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    s.send_line(&format!(
        r#"{{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{{"name":"find","arguments":{{"text":{deep}}}}}}}"#
    ))
    .await;
    let answer = s.read().await;
    assert_eq!(answer["id"], "deep", "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    // Deep, but within what the parser takes: the tool's own limit answers.
    let path = s.path("b.inkboard");
    s.ok("create_board", json!({"path": path})).await;
    let mut nested = json!(1);
    for _ in 0..100 {
        nested = json!([nested]);
    }
    let id = s
        .call("find", json!({"path": path, "text": nested}), None)
        .await;
    let (answer, _) = s.answer(id).await;
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    s.ping().await;
}

#[tokio::test]
async fn a_lone_surrogate_is_refused_with_its_id() {
    let mut s = Raw::start().await;
    s.send_line(r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"find","arguments":{"text":"\ud800"}}}"#)
        .await;
    let answer = s.read().await;
    assert_eq!(answer["id"], 9, "{answer}");
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    s.ping().await;
}

#[tokio::test]
async fn a_16_mb_image_as_a_data_url_is_taken() {
    let mut s = Raw::start().await;
    let path = s.path("b.inkboard");
    s.ok("create_board", json!({"path": path})).await;
    let png = noise_png(2000, 2000);
    assert!(png.len() > 15_000_000, "{} bytes", png.len());
    let data = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&png)
    );
    let id = s
        .call("add_image", json!({"path": path, "data": data}), None)
        .await;
    let (answer, _) = s.answer(id).await;
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    s.ping().await;
}

/// A PNG of random pixels, which does not compress: about 4 bytes a pixel.
fn noise_png(w: u32, h: u32) -> Vec<u8> {
    let mut state: u32 = 0x2545_f491;
    let pixels: Vec<u8> = (0..w * h * 4)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state >> 24) as u8
        })
        .collect();
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().expect("a PNG header");
    writer.write_image_data(&pixels).expect("the pixels");
    writer.finish().expect("the PNG");
    out
}
