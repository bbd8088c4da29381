//! Checks that `text::line_width` agrees with how usvg 0.47 lays out the
//! same text as the SVG writer puts it (runs of fallback faces, one `<text>` each) with
//! the renderer's font database, so that anything rendered through usvg/resvg has
//! exactly the width our layout measured, in every face and script.

use inkboard_core::Font;
use inkboard_render::faces::{runs, Typeface};
use inkboard_render::text::{layout, line_width, Weight, FONT_FAMILY};

/// The renderer's usvg options: its font database, and no fallback of usvg's own.
fn options() -> usvg::Options<'static> {
    usvg::Options {
        fontdb: inkboard_render::fontdb(),
        font_family: FONT_FAMILY.to_owned(),
        font_resolver: usvg::FontResolver {
            select_font: usvg::FontResolver::default_font_selector(),
            select_fallback: Box::new(|_, _, _| None),
        },
        ..Default::default()
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Parses one `<text>` element in `family` and returns it as usvg laid it out.
fn usvg_in(
    text: &str,
    font_size: f32,
    family: &str,
    weight: Weight,
    anchor: &str,
) -> Box<usvg::Text> {
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="100">
             <text x="100" y="50" font-family="'{family}'" font-size="{font_size}"
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

fn usvg_text(text: &str, font_size: f32, weight: Weight, anchor: &str) -> Box<usvg::Text> {
    usvg_in(text, font_size, FONT_FAMILY, weight, anchor)
}

/// x of the leftmost glyph's origin (pen position) in the laid-out text.
fn first_glyph_x(text: &usvg::Text) -> f32 {
    text.layouted()
        .iter()
        .flat_map(|span| span.positioned_glyphs.iter())
        .map(|g| g.transform().tx)
        .fold(f32::INFINITY, f32::min)
}

/// The advance width usvg gives `text` in `family`: usvg shifts the whole run left
/// by exactly its advance width for `text-anchor="end"`, so the leftmost glyph's
/// pen position in the start- and end-anchored versions differs by it.
fn usvg_advance_in(text: &str, font_size: f32, family: &str, weight: Weight) -> f32 {
    let start = usvg_in(text, font_size, family, weight, "start");
    let end = usvg_in(text, font_size, family, weight, "end");
    first_glyph_x(&start) - first_glyph_x(&end)
}

/// The advance width usvg gives the line as the SVG backend writes it: one
/// `<text>` in the face's family, or one per piece when it takes several faces
/// (each piece checked against its own measured width).
fn usvg_advance(text: &str, font_size: f32, face: impl Into<Typeface>) -> f32 {
    let face = face.into();
    let block = layout(text, font_size, face, None);
    let line = &block.lines[0];
    if line.pieces.is_empty() {
        let family = runs(text, face)[0].face.family();
        return usvg_advance_in(text, font_size, family, face.weight);
    }
    let mut total = 0.0;
    for p in &line.pieces {
        let piece = &text[p.start..p.end];
        assert!(
            (p.dx - total).abs() < 0.01,
            "pieces of {text:?} are side by side"
        );
        if piece.trim().is_empty() {
            // Nothing to draw (usvg makes no node of it), only room to leave.
            total += p.width;
            continue;
        }
        let theirs = usvg_advance_in(piece, font_size, p.face.family(), face.weight);
        assert!(
            (p.width - theirs).abs() < 0.01,
            "piece {piece:?} of {text:?}: measured {} vs usvg {theirs}",
            p.width
        );
        assert!(
            (p.dx - total).abs() < 0.01,
            "pieces of {text:?} are side by side"
        );
        total += theirs;
    }
    total
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
        // Fallback faces: bundled symbols, math and emoji, the system's CJK.
        ("Hi 日本語 😀!", 16.0, Weight::Regular),
        ("日", 40.0, Weight::SemiBold),
        ("A ⇄ B ╔══╗ ∮ ⨁ ✅ ❤️ 👨‍👩‍👧", 16.0, Weight::Regular),
        // Right to left, alone and mixed with left-to-right text and digits.
        ("שלום עולם", 16.0, Weight::Regular),
        ("مرحبا بالعالم", 20.0, Weight::Regular),
        ("Hello שלום 123 world", 16.0, Weight::SemiBold),
        // In no font: the primary face's .notdef.
        ("a\u{10FFFD}b", 16.0, Weight::Regular),
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

#[test]
fn every_font_matches_usvg() {
    for font in [Font::Sans, Font::Serif, Font::Mono, Font::Hand] {
        for weight in [Weight::Regular, Weight::SemiBold] {
            let face = Typeface::new(font, weight);
            for text in ["Quick brown fox → jumps", "┌──┐ 😀 日本 ∑", "AVATAR office"]
            {
                let ours = line_width(text, 16.0, face);
                let theirs = usvg_advance(text, 16.0, face);
                assert!(
                    (ours - theirs).abs() < 0.01,
                    "{text:?} {face:?}: line_width {ours} vs usvg {theirs}"
                );
            }
        }
    }
}
