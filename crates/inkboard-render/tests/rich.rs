//! Rich text as drawn: a PDF's text (poppler's `pdftotext`) holds each shape's shown
//! text in reading order, links are clickable in the PDF (link annotations) and the
//! SVG (`<a href>`), and only links safe to follow are made: a `javascript:` link is
//! drawn as its text alone. Auto-size measures rich text as it is drawn.

mod common;

use common::*;
use inkboard_core::{Geom, Style};
use inkboard_render::{resolve, to_pdf, to_svg};

const SOURCES: [&str; 4] = [
    "**Launch plan** for _Q3_",
    "- ship ~~v1~~ **v2**\n- run `cargo test`\n1. read [the docs](https://example.com/docs)",
    "Never [click](javascript:alert(1)) this",
    "A bare [site](example.org) link",
];

fn board() -> Build {
    let mut b = Build::new();
    for (i, s) in SOURCES.iter().enumerate() {
        b.styled(
            Geom::Note,
            [0.0, i as f64 * 140.0, 260.0, 120.0],
            s,
            Style::default(),
        );
    }
    b
}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect()
}

#[test]
fn pdf_text_is_the_shown_text_in_reading_order() {
    let b = board();
    let pdf = to_pdf(&[resolve(&b.board, PAGE)], "rich").unwrap();
    let text = squeeze(&pdftotext(&pdf));
    let mut from = 0;
    for s in SOURCES {
        let shown = squeeze(&inkboard_core::rich::plain(s));
        let at = text[from..]
            .find(&shown)
            .unwrap_or_else(|| panic!("{shown:?} not in order in {text:?}"));
        from += at + shown.len();
    }
}

#[test]
fn links_are_clickable_where_safe() {
    let b = board();
    let pdf = to_pdf(&[resolve(&b.board, PAGE)], "rich").unwrap();
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    let mut uris = Vec::new();
    for (_, id) in doc.get_pages() {
        for annot in doc.get_page_annotations(id).unwrap() {
            let action = annot.get(b"A").unwrap().as_dict().unwrap();
            uris.push(
                String::from_utf8(action.get(b"URI").unwrap().as_str().unwrap().to_vec()).unwrap(),
            );
        }
    }
    uris.sort();
    assert_eq!(uris, ["https://example.com/docs", "https://example.org"]);

    let svg = to_svg(&resolve(&b.board, PAGE), None);
    assert!(
        svg.contains(r#"<a href="https://example.com/docs" target="_blank""#),
        "{svg}"
    );
    assert!(svg.contains(r#"<a href="https://example.org""#));
    assert!(!svg.to_ascii_lowercase().contains("javascript"), "{svg}");
}
