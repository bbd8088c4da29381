//! The contracts of the backends: a self-contained, valid SVG with one `<g>` per
//! object; PNGs of the promised size and scale; PDFs that parse, have one page per
//! scene and whose text can be extracted; only the bundled fonts.

mod common;

use common::*;
use inkboard_core::{Arrow, Geom, Rect, Route};
use inkboard_render::{
    fontdb, resolve, to_pdf, to_png, to_png_scaled, to_svg, RenderError, Scene, MAX_SCALE,
};

fn flow() -> Build {
    let mut b = Build::new();
    let a = b.shape(Geom::Rounded, [0.0, 0.0, 140.0, 60.0], "Start here");
    let c = b.shape(Geom::Diamond, [240.0, -20.0, 140.0, 100.0], "Decide");
    let d = b.shape(Geom::Note, [480.0, 0.0, 160.0, 120.0], "Привет & <ok>");
    b.connect(obj(&a), obj(&c), Route::Orthogonal, Arrow::Arrow);
    b.connect(obj(&c), obj(&d), Route::Curved, Arrow::Triangle);
    b.group(&[a, c]);
    b
}

#[test]
fn bundled_fonts_come_first_and_system_fonts_never_shadow_them() {
    let db = fontdb();
    let bundled: Vec<&str> = db
        .faces()
        .take_while(|f| matches!(f.source, usvg::fontdb::Source::Binary(_)))
        .map(|f| f.families[0].0.as_str())
        .collect();
    assert_eq!(
        bundled,
        [
            "Inter",
            "Inter",
            "Inkboard Serif",
            "Inkboard Serif",
            "Inkboard Mono",
            "Inkboard Mono",
            "Inkboard Hand",
            "Inkboard Hand",
            "Inkboard Symbols",
            "Inkboard Math",
            "Inkboard Symbols 2",
            "Inkboard Emoji"
        ]
    );
    // Every other face is a system font, and none is of a bundled family.
    for face in db.faces().skip(bundled.len()) {
        assert!(!matches!(face.source, usvg::fontdb::Source::Binary(_)));
        assert!(face
            .families
            .iter()
            .all(|(n, _)| n != "Inter" && !n.starts_with("Inkboard")));
    }
    // Loaded once and shared.
    assert!(std::sync::Arc::ptr_eq(&db, &fontdb()));
}

#[test]
fn svg_is_self_contained_and_valid() {
    let b = flow();
    let scene = resolve(&b.board, PAGE);
    let svg = to_svg(&scene, None);
    assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg""#));
    assert!(svg.contains("viewBox="));
    assert!(svg.contains(r#"font-family="Inter""#));
    assert!(svg.contains("@font-face"));
    assert!(
        svg.contains("data:font/otf;base64,T1RUTw"),
        "the OTF embedded"
    );
    for item in &scene.items {
        let tag = format!(r#"<g id="{}" data-type="{}""#, item.id, item.kind);
        assert_eq!(svg.matches(&tag).count(), 1, "{tag}");
    }
    assert!(svg.contains(r#"data-type="group"/>"#));
    assert!(svg.contains("Привет &amp; &lt;ok&gt;"));
    assert!(svg.contains(r#"xml:space="preserve""#));
    // It parses, with all the text where it was written.
    let tree = usvg::Tree::from_str(
        &svg,
        &usvg::Options {
            fontdb: fontdb(),
            ..Default::default()
        },
    )
    .expect("valid SVG");
    assert_eq!(tree.size().width(), scene.bounds.w as f32);
    let texts = count_texts(tree.root());
    assert_eq!(texts, 3, "one <text> per line: 3 one-line labels");
}

/// A twelve-shape flow of the kind an agent draws: labelled steps, a decision,
/// labelled connectors, a bold title and a serif note.
fn twelve_shapes() -> Build {
    let mut b = Build::new();
    let labels = [
        "Order received",
        "Check stock",
        "In stock?",
        "Reserve items",
        "Back-order",
        "Take payment",
        "Payment ok?",
        "Pack & label",
        "Notify customer",
        "Ship (2–3 days)",
        "Refund",
        "Done",
    ];
    let ids: Vec<_> = labels
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let (col, row) = ((i % 4) as f64, (i / 4) as f64);
            let geom = if text.ends_with('?') {
                Geom::Diamond
            } else {
                Geom::Rounded
            };
            b.shape(geom, [col * 220.0, row * 160.0, 150.0, 80.0], text)
        })
        .collect();
    for (i, pair) in ids.windows(2).enumerate() {
        match i {
            2 => b.labelled(&pair[0], &pair[1], "yes"),
            6 => b.labelled(&pair[0], &pair[1], "approved"),
            _ => b.connect(
                obj(&pair[0]),
                obj(&pair[1]),
                Route::Orthogonal,
                Arrow::Arrow,
            ),
        };
    }
    b
}

#[test]
fn svg_embeds_only_the_glyphs_it_draws() {
    let b = twelve_shapes();
    let scene = resolve(&b.board, PAGE);
    let svg = to_svg(&scene, None);
    // Whole faces were 680 KB for such a board; the subset of Inter is a few KB.
    assert!(svg.len() < 60_000, "{} bytes", svg.len());
    assert_eq!(svg.matches("@font-face").count(), 1, "Inter regular only");
    // The text is still text, one `<text>` a line, as before.
    for label in [
        "Order received",
        "Pack &amp; label",
        "Ship (2–3 days)",
        "approved",
    ] {
        assert!(svg.contains(&format!(">{label}</text>")), "{label}");
    }
}

fn count_texts(g: &usvg::Group) -> usize {
    g.children()
        .iter()
        .map(|n| match n {
            usvg::Node::Text(_) => 1,
            usvg::Node::Group(g) => count_texts(g),
            _ => 0,
        })
        .sum()
}

#[test]
fn svg_view_sets_the_viewbox() {
    let scene = resolve(&flow().board, PAGE);
    let svg = to_svg(&scene, Some(Rect::new(10.0, 20.0, 300.5, 200.0)));
    assert!(svg.contains(r#"width="300.5" height="200" viewBox="10 20 300.5 200""#));
}

fn png_size(data: &[u8]) -> (u32, u32) {
    let r = png::Decoder::new(std::io::Cursor::new(data))
        .read_info()
        .expect("decodable PNG");
    (r.info().width, r.info().height)
}

#[test]
fn png_respects_max_size_and_scale_cap() {
    let scene = resolve(&flow().board, PAGE);
    let (w, h) = (scene.bounds.w, scene.bounds.h);
    for max in [100, 333, 800, 1600, 5000] {
        let png = to_png(&scene, None, max).unwrap();
        assert_eq!(png_size(&png.data), (png.width, png.height));
        assert!(
            png.width.max(png.height) <= max,
            "{max}: {}×{}",
            png.width,
            png.height
        );
        assert!(png.scale <= MAX_SCALE);
        if max == 5000 {
            assert_eq!(png.scale, MAX_SCALE);
            assert_eq!(png.width, (w * 2.0).ceil() as u32);
        } else if (max as f64) < 2.0 * w.max(h) {
            assert!(png.width.max(png.height) >= max - 1, "uses the room it has");
        }
    }
    let region = Rect::new(0.0, 0.0, 100.0, 50.0);
    let png = to_png(&scene, Some(region), 1600).unwrap();
    assert_eq!((png.width, png.height), (200, 100));
    let png = to_png_scaled(&scene, None, 0.5).unwrap();
    assert_eq!(png.width, (w * 0.5).ceil() as u32);
    assert_eq!(png.height, (h * 0.5).ceil() as u32);
}

#[test]
fn png_refuses_bad_regions_and_sizes() {
    let scene = resolve(&flow().board, PAGE);
    assert!(matches!(
        to_png(&scene, Some(Rect::new(0.0, 0.0, 0.0, 10.0)), 100),
        Err(RenderError::EmptyRegion { .. })
    ));
    assert!(matches!(
        to_png(&scene, None, 0),
        Err(RenderError::BadSize { .. })
    ));
    assert!(matches!(
        to_png_scaled(&scene, None, 1000.0),
        Err(RenderError::TooLarge { .. })
    ));
    assert!(to_png_scaled(&scene, None, f32::NAN).is_err());
}

#[test]
fn empty_and_missing_pages_render() {
    let b = Build::new();
    let scene = resolve(&b.board, PAGE);
    assert!(scene.items.is_empty());
    assert!(to_png(&scene, None, 1600).is_ok());
    let missing = resolve(&b.board, inkboard_core::PageId(99));
    assert!(missing.items.is_empty());
}

fn pdf_of(scenes: &[Scene]) -> Vec<u8> {
    let pdf = to_pdf(scenes, "test").expect("pdf");
    assert!(pdf.starts_with(b"%PDF-"));
    pdf
}

#[test]
fn pdf_has_a_page_per_scene_and_extractable_text() {
    let mut scenes = Vec::new();
    for i in 0..3 {
        let mut b = flow();
        b.shape(
            Geom::Rect,
            [0.0, 200.0, 200.0, 60.0],
            &format!("Page marker {i}"),
        );
        scenes.push(resolve(&b.board, PAGE));
    }
    let pdf = pdf_of(&scenes);
    let doc = lopdf::Document::load_mem(&pdf).expect("PDF parses");
    assert_eq!(doc.get_pages().len(), 3);
    // krilla-svg draws every glyph on its own, at the position usvg gave it, and
    // pdf-extract 0.12 misreads the range form of a CID font's /W array, so it takes
    // each glyph for a word and puts spaces between them all (poppler's pdftotext
    // reads "Start here"). Compare without whitespace: what matters here is that every
    // glyph maps back to its character, in order.
    let text = pdf_extract::extract_text_from_mem(&pdf).expect("text extracts");
    let squeezed: String = text.split_whitespace().collect();
    for needle in [
        "Start here",
        "Decide",
        "Page marker 0",
        "Page marker 2",
        "Привет & <ok>",
    ] {
        let needle: String = needle.split_whitespace().collect();
        assert!(
            squeezed.contains(&needle),
            "{needle:?} not in extracted text: {text:?}"
        );
    }
    // Each page holds its own text.
    for (i, page) in (1..=3).enumerate() {
        let text = doc.extract_text(&[page]).expect("page text extracts");
        let squeezed: String = text.split_whitespace().collect();
        assert!(
            squeezed.contains(&format!("Pagemarker{i}")),
            "page {page}: {text:?}"
        );
        assert!(!squeezed.contains(&format!("Pagemarker{}", (i + 1) % 3)));
    }
    // The one face used is embedded once, as a subset ("ABCDEF+Inter-Regular"),
    // with a ToUnicode map.
    let fonts: Vec<&lopdf::Dictionary> = doc
        .objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .filter(|d| d.get(b"Type").and_then(|t| t.as_name()).ok() == Some(b"Font".as_slice()))
        .filter(|d| d.get(b"Subtype").and_then(|t| t.as_name()).ok() == Some(b"Type0".as_slice()))
        .collect();
    assert_eq!(fonts.len(), 1, "one embedded font");
    let name = fonts[0].get(b"BaseFont").unwrap().as_name().unwrap();
    let name = String::from_utf8_lossy(name);
    assert!(
        name.len() > 7 && name.as_bytes()[6] == b'+' && name[7..].starts_with("Inter-Regular"),
        "{name}"
    );
    assert!(fonts[0].has(b"ToUnicode"));
    // The font is embedded once and subset: far smaller than two full faces.
    assert!(pdf.len() < 200_000, "{} bytes", pdf.len());
    assert!(matches!(to_pdf(&[], "test"), Err(RenderError::NoPages)));
}

/// A PDF text string (Info values, outline titles) as text: UTF-16 with its byte
/// order mark, or PDFDocEncoding, which is Latin-1 for what these tests write.
fn pdf_text(object: &lopdf::Object) -> String {
    let bytes = object.as_str().expect("a string");
    match bytes.strip_prefix(&[0xfe, 0xff]) {
        Some(utf16) => {
            let units: Vec<u16> = utf16
                .chunks(2)
                .map(|c| u16::from_be_bytes([c[0], c[1]]))
                .collect();
            String::from_utf16(&units).expect("UTF-16")
        }
        None => bytes.iter().map(|&b| b as char).collect(),
    }
}

#[test]
fn pdf_carries_the_title_and_a_bookmark_per_page() {
    let names = ["Overview", "Plan — Q3", "Risks"].map(String::from);
    let mut board = inkboard_core::Board::new("Roadmap — Q3", &names);
    let pages: Vec<_> = board.pages().iter().map(|p| p.id).collect();
    for (i, &page) in pages.iter().enumerate() {
        let mut tx = inkboard_core::Transaction::begin(&mut board);
        let shape = inkboard_core::Shape {
            geom: Geom::Rect,
            bounds: Rect::new(0.0, 0.0, 160.0, 60.0),
            text: format!("Page marker {i}"),
            style: Default::default(),
            sizing: inkboard_core::Sizing::Fixed,
            rotation: inkboard_core::Rotation::NONE,
            icon: None,
        };
        tx.add(page, None, inkboard_core::Kind::Shape(shape))
            .expect("add");
        tx.commit(inkboard_core::Actor::Agent).expect("commit");
    }
    let scenes: Vec<Scene> = pages.iter().map(|&p| resolve(&board, p)).collect();
    let pdf = to_pdf(&scenes, board.title()).expect("pdf");
    let doc = lopdf::Document::load_mem(&pdf).expect("PDF parses");

    // The title, in the information dictionary and in the XMP metadata.
    let info = doc.trailer.get(b"Info").expect("an Info dictionary");
    let info = doc
        .get_dictionary(info.as_reference().expect("Info is a reference"))
        .expect("Info");
    assert_eq!(
        pdf_text(info.get(b"Title").expect("/Title")),
        "Roadmap — Q3"
    );
    let catalog = doc.catalog().expect("catalog");
    let xmp = catalog.get(b"Metadata").expect("XMP metadata");
    let xmp = doc
        .get_object(xmp.as_reference().expect("a reference"))
        .and_then(lopdf::Object::as_stream)
        .expect("a stream");
    let xmp = String::from_utf8(xmp.content.clone()).expect("XMP is UTF-8");
    assert!(xmp.contains("<dc:title>"), "{xmp}");
    assert!(xmp.contains("Roadmap — Q3"), "{xmp}");

    // The outline: one bookmark per page, named after it, in order, each opening
    // its own page.
    let outlines = catalog.get(b"Outlines").expect("an outline");
    let outlines = doc
        .get_dictionary(outlines.as_reference().expect("a reference"))
        .expect("Outlines");
    let page_ids: Vec<lopdf::ObjectId> = doc.get_pages().into_values().collect();
    assert_eq!(page_ids.len(), 3);
    let mut bookmarks = Vec::new();
    let mut next = outlines.get(b"First").ok().cloned();
    while let Some(at) = next {
        let item = doc
            .get_dictionary(at.as_reference().expect("a reference"))
            .expect("an outline item");
        let dest = item.get(b"Dest").expect("a destination");
        let (_, dest) = doc.dereference(dest).expect("the destination");
        let dest = dest.as_array().expect("an explicit destination");
        let page = dest[0].as_reference().expect("a page reference");
        let page = page_ids.iter().position(|&p| p == page).expect("a page") + 1;
        bookmarks.push((pdf_text(item.get(b"Title").expect("/Title")), page));
        next = item.get(b"Next").ok().cloned();
    }
    assert_eq!(
        bookmarks,
        [
            ("Overview".to_string(), 1),
            ("Plan — Q3".to_string(), 2),
            ("Risks".to_string(), 3)
        ]
    );

    // A blank title is left out (readers show the file name instead).
    let untitled = to_pdf(&scenes, "  ").expect("pdf");
    let doc = lopdf::Document::load_mem(&untitled).expect("PDF parses");
    let has_title = doc
        .trailer
        .get(b"Info")
        .and_then(lopdf::Object::as_reference)
        .and_then(|r| doc.get_dictionary(r))
        .is_ok_and(|d| d.has(b"Title"));
    assert!(!has_title);
}

/// Rotated objects stay what they are in a PDF: a turned shape's text is still text
/// (extracted in order, each glyph mapped back), drawn under the turn rather than
/// as outlines, and the page is as big as the turned drawing.
#[test]
fn pdf_text_of_rotated_shapes_is_extractable() {
    let mut b = Build::new();
    let s = b.shape(Geom::Rect, [0.0, 0.0, 200.0, 60.0], "Turned thirty");
    b.turn(&s, 30.0);
    let t = b.shape(Geom::Text, [0.0, 120.0, 160.0, 24.0], "Reads upwards");
    b.turn(&t, 270.0);
    let scene = resolve(&b.board, PAGE);
    let pdf = pdf_of(std::slice::from_ref(&scene));
    let text = pdf_extract::extract_text_from_mem(&pdf).expect("text extracts");
    let squeezed: String = text.split_whitespace().collect();
    for needle in ["Turnedthirty", "Readsupwards"] {
        assert!(squeezed.contains(needle), "{needle:?} not in {text:?}");
    }
    // The turned 200 × 60 rect reaches 46 px above its unturned top (its box
    // around is about 203 × 152 about (100, 30)): the page holds it.
    assert!(scene.bounds.y < -45.9, "{:?}", scene.bounds);
}
