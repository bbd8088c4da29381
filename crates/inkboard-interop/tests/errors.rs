//! Files that cannot be imported, and what the person is told. Every case's
//! message is golden, in `tests/errors.expect` (`UPDATE_EXPECT=1` refreshes it),
//! so a message only changes on purpose.

mod common;

use std::fmt::Write as _;
use std::io::Write as _;

use base64::Engine as _;
use inkboard_interop::{import, ImportError};

fn deflate_raw(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn png_with_text(keyword: &str, text: &[u8]) -> Vec<u8> {
    let mut data = keyword.as_bytes().to_vec();
    data.push(0);
    data.extend_from_slice(text);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(b"tEXt");
    out.extend_from_slice(&data);
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(b"IEND");
    out.extend_from_slice(&[0; 4]);
    out
}

#[test]
fn refused_files_say_why() {
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let many_pages = format!(
        "<mxfile>{}</mxfile>",
        "<diagram name=\"p\"></diagram>".repeat(1001)
    );
    let long_text = format!(
        "{{\"type\":\"excalidraw\",\"elements\":[{{\"type\":\"text\",\"id\":\"t\",\"text\":\"{}\"}}]}}",
        "x".repeat(100_001)
    );
    let cases: Vec<(&str, Vec<u8>, Option<&str>)> = vec![
        ("empty", Vec::new(), None),
        ("plain text", b"hello".to_vec(), Some("notes.txt")),
        ("an SVG without a diagram", b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>".to_vec(), Some("flow.drawio.svg")),
        ("a PNG without a diagram", png_with_text("Software", b"x"), Some("scene.excalidraw.png")),
        ("other XML", b"<html><mxfile/></html>".to_vec(), None),
        ("broken XML", b"<mxfile><diagram>".to_vec(), None),
        ("a page that is not base64", b"<mxfile><diagram>!!!</diagram></mxfile>".to_vec(), None),
        ("a page that does not inflate", format!("<mxfile><diagram>{}</diagram></mxfile>", b64(b"not deflate at all")).into_bytes(), None),
        ("a page of something else", format!("<mxfile><diagram>{}</diagram></mxfile>", b64(&deflate_raw(b"%3Cfoo%2F%3E"))).into_bytes(), None),
        ("too many pages", many_pages.into_bytes(), None),
        ("JSON that is not a scene", b"{\"type\":\"excalidraw\"}".to_vec(), None),
        ("broken JSON", b"{\"type\":\"excalidraw\", ".to_vec(), None),
        ("a library", b"{\"type\":\"excalidrawlib\",\"libraryItems\":[]}".to_vec(), Some("shapes.excalidrawlib")),
        ("a text over the limit", long_text.into_bytes(), None),
        ("a damaged Excalidraw envelope", png_with_text("application/vnd.excalidraw+json", b"{\"encoding\":\"bstring\",\"compressed\":true,\"encoded\":\"xyz\"}"), None),
        ("an SVG payload that is not base64", b"<svg><!-- payload-type:application/vnd.excalidraw+json --><!-- payload-version:2 --><!-- payload-start -->***<!-- payload-end --></svg>".to_vec(), None),
    ];
    let mut out = String::new();
    for (what, bytes, name) in cases {
        let result = import(&bytes, name);
        let error: ImportError = match result {
            Ok(_) => panic!("{what} imported"),
            Err(e) => e,
        };
        writeln!(out, "{what}:\n  {error}").unwrap();
    }
    common::expect(&common::corpus_dir().join("../errors.expect"), &out);
}
