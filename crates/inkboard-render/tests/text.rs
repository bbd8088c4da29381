//! Checks that `text::line_width` agrees with how usvg 0.47 lays out the
//! same text with the same (bundled) font, so that anything rendered through
//! usvg/resvg has exactly the width our layout measured.

use std::sync::Arc;

use inkboard_render::text::{font_data, line_width, Weight, FONT_FAMILY};

/// A usvg options value whose font database holds ONLY the bundled fonts.
fn options() -> usvg::Options<'static> {
    let mut db = usvg::fontdb::Database::new();
    db.load_font_data(font_data(Weight::Regular).to_vec());
    db.load_font_data(font_data(Weight::SemiBold).to_vec());
    assert_eq!(db.len(), 2);
    usvg::Options {
        fontdb: Arc::new(db),
        font_family: FONT_FAMILY.to_owned(),
        ..Default::default()
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Parses one `<text>` element and returns it as usvg laid it out.
fn usvg_text(text: &str, font_size: f32, weight: Weight, anchor: &str) -> Box<usvg::Text> {
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="100">
             <text x="100" y="50" font-family="{FONT_FAMILY}" font-size="{font_size}"
                   font-weight="{}" text-anchor="{anchor}" xml:space="preserve">{}</text>
           </svg>"#,
        weight.css_weight(),
        escape(text),
    );
    let tree = usvg::Tree::from_str(&svg, &options()).expect("valid svg");
    match tree.root().children() {
        [usvg::Node::Text(t)] => t.clone(),
        other => panic!("expected one text node, got {other:?}"),
    }
}

/// x of the first glyph's origin (pen position) in the laid-out text.
fn first_glyph_x(text: &usvg::Text) -> f32 {
    let span = &text.layouted()[0];
    span.positioned_glyphs[0].transform().tx
}

/// The advance width usvg gives the text: usvg shifts the whole run left by
/// exactly its advance width for `text-anchor="end"`, so the first glyph's
/// pen position in the start- and end-anchored versions differs by it.
fn usvg_advance(text: &str, font_size: f32, weight: Weight) -> f32 {
    let start = usvg_text(text, font_size, weight, "start");
    let end = usvg_text(text, font_size, weight, "end");
    first_glyph_x(&start) - first_glyph_x(&end)
}

#[test]
fn hello_world_matches_usvg() {
    let ours = line_width("Hello world", 16.0, Weight::Regular);

    // 1. Advance width: must agree essentially exactly.
    let advance = usvg_advance("Hello world", 16.0, Weight::Regular);
    eprintln!("Hello world @16 Regular: line_width = {ours}, usvg advance = {advance}");
    assert!(
        (ours - advance).abs() < 0.01,
        "line_width {ours} vs usvg advance {advance}"
    );

    // 2. usvg's text bounding box (SVG `objectBoundingBox` of text) is built
    //    from the glyph advances too, so it must agree just as closely.
    let text = usvg_text("Hello world", 16.0, Weight::Regular, "start");
    let bbox = text.bounding_box();
    eprintln!(
        "usvg text bbox: x = {} .. {} (width {})",
        bbox.left(),
        bbox.right(),
        bbox.width()
    );
    assert!((bbox.left() - 100.0).abs() < 0.01);
    assert!(
        (bbox.width() - ours).abs() < 0.01,
        "bbox {} vs {ours}",
        bbox.width()
    );

    // 3. The flattened outlines' ink box is narrower than the advance by the
    //    side bearings of 'H' and 'd' (about 1 px each at 16 px): compare
    //    loosely, and check that the ink lies within the advance box.
    let ink = text.flattened().bounding_box();
    eprintln!(
        "usvg ink bbox: x = {} .. {} (width {}), advance box 100 .. {}",
        ink.left(),
        ink.right(),
        ink.width(),
        100.0 + ours
    );
    assert!(ink.width() < ours && ours - ink.width() < 3.0);
    assert!(ink.left() > 100.0 && ink.right() < 100.0 + ours);
}

#[test]
fn various_texts_match_usvg() {
    let cases = [
        ("Hello world", 16.0, Weight::SemiBold),
        ("AVATAR WAVE To Ty", 16.0, Weight::Regular),
        ("AVATAR WAVE To Ty", 23.5, Weight::SemiBold),
        ("office ffl fi 1/2 -> 123", 12.0, Weight::Regular),
        ("Ünïcödé café — “quotes” … ½", 16.0, Weight::Regular),
        // Missing from Inter: both sides use the .notdef advance.
        ("Hi 日本語 😀!", 16.0, Weight::Regular),
        ("日", 40.0, Weight::SemiBold),
    ];
    for (text, size, weight) in cases {
        let ours = line_width(text, size, weight);
        let theirs = usvg_advance(text, size, weight);
        eprintln!("{text:?} @{size} {weight:?}: line_width = {ours}, usvg = {theirs}");
        assert!(
            (ours - theirs).abs() < 0.01,
            "{text:?} @{size} {weight:?}: line_width {ours} vs usvg {theirs}"
        );
    }
}
