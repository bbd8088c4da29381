//! The fit rule never hides text (`src/fit.rs`): over random labels, boxes and font
//! sizes, the drawn SVG holds every character of the label, in order, and no line
//! ends in "…"; the PDF's text holds every character too; text shrinks no further
//! than 60% of its size; and `check` reports `text_overflow` exactly when the drawn
//! lines run past the text box. Labels mix in rich text (marks, code, links, lists),
//! whose shown text (marks gone, list markers drawn) is what must come back whole.

mod common;

use common::*;
use inkboard_core::{Geom, Style};
use inkboard_render::fit::{fit, SHRINK_FLOOR};
use inkboard_render::scene::Part;
use inkboard_render::text::{self, Weight};
use inkboard_render::{check, resolve, to_pdf, to_svg, ProblemKind};
use proptest::prelude::*;

/// Words as people write them on boards: short and long, with punctuation after
/// them, a URL, digits, Cyrillic, CJK, emoji, arrows, box drawing and math.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z]{1,8}",
        "[a-z]{9,24}",
        "[A-Z][a-z]{2,7}[?!.,:;)]",
        "\\([a-z]{1,6}\\)",
        "[0-9]{1,4}",
        Just("https://example.com/a/long/path".to_string()),
        "[а-я]{2,8}",
        "[日本語版]{1,4}",
        Just("😀".to_string()),
        Just("A→B".to_string()),
        Just("╔══╗".to_string()),
        Just("∑x²≤π".to_string()),
        "[a-z]{2,6}-[a-z]{2,6}",
        // Rich text: marks, code, links, and a literal asterisk.
        "\\*\\*[a-z]{1,6}\\*\\*",
        "_[a-z]{2,6}_",
        "`[a-z ]{1,6}`",
        "~~[a-z]{2,5}~~",
        Just("[the docs](https://example.com)".to_string()),
        Just("2\\*3".to_string()),
    ]
}

fn label() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(word(), 1..14),
        prop::collection::vec(
            prop::sample::select(vec![" ", " ", " ", "\n", "  ", "\n- ", "\n1. "]),
            14,
        ),
    )
        .prop_map(|(words, seps)| {
            let mut s = String::new();
            for (i, w) in words.iter().enumerate() {
                if i > 0 {
                    s.push_str(seps[i]);
                }
                s.push_str(w);
            }
            s
        })
}

fn geom() -> impl Strategy<Value = Geom> {
    prop::sample::select(vec![
        Geom::Rect,
        Geom::Rounded,
        Geom::Ellipse,
        Geom::Diamond,
        Geom::Note,
        Geom::Hexagon,
        Geom::Text,
        Geom::Frame,
    ])
}

/// The text a shape of `geom` shows for `label`: frame titles are plain, the rest rich.
fn shown(geom: Geom, label: &str) -> String {
    if geom == Geom::Frame {
        label.to_owned()
    } else {
        inkboard_core::rich::plain(label)
    }
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The text of every `<text>` element of an SVG (its `<tspan>`s' too), unescaped.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text ")
        .skip(1)
        .map(|t| {
            let body = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
            let mut plain = String::new();
            let mut in_tag = false;
            for c in body.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    c if !in_tag => plain.push(c),
                    _ => {}
                }
            }
            plain
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&amp;", "&")
        })
        .collect()
}

fn board_with(geom: Geom, w: f64, h: f64, label: &str, font_size: f64) -> Build {
    let mut b = Build::new();
    b.styled(
        geom,
        [0.0, 0.0, w, h],
        label,
        Style {
            font_size: Some(font_size),
            ..Style::default()
        },
    );
    b
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn svg_shows_every_character_and_never_an_ellipsis(
        label in label(),
        geom in geom(),
        w in 8.0f64..320.0,
        h in 8.0f64..240.0,
        font_size in prop::sample::select(vec![10.0, 14.0, 16.0, 20.0, 28.0, 48.0]),
    ) {
        let b = board_with(geom, w, h, &label, font_size);
        let scene = resolve(&b.board, PAGE);
        let texts = svg_texts(&to_svg(&scene, None));
        for t in &texts {
            prop_assert!(!t.ends_with('…'), "a line ends in an ellipsis: {texts:?}");
        }
        // What is shown: the label, or for rich text its text without marks (list
        // markers included).
        prop_assert_eq!(squeeze(&texts.concat()), squeeze(&shown(geom, &label)));

        // Never below the floor; overflow reported exactly when drawn past the box.
        let Some(Part::Text(t)) = scene.items[0].parts.iter().find(|p| matches!(p, Part::Text(_))) else {
            return Err(TestCaseError::fail("no text drawn"));
        };
        let set = inkboard_render::style::shape_font(geom, &Style { font_size: Some(font_size), ..Style::default() }).0;
        prop_assert!(t.font_size >= set * SHRINK_FLOOR - 1e-3 && t.font_size <= set);
        let tb = geom.text_box(inkboard_core::Rect::new(0.0, 0.0, w, h));
        let fitted = fit(&label, set, inkboard_render::style::shape_font(geom, &Style::default()).1, tb.w as f32, tb.h as f32, geom != Geom::Frame);
        let reported = check(&b.board, PAGE).iter().any(|p| p.kind == ProblemKind::TextOverflow);
        prop_assert_eq!(reported, fitted.overflows());
        if !fitted.overflows() {
            for l in &fitted.lines {
                prop_assert!(l.width <= tb.w as f32 + 0.01, "{l:?} wider than {}", tb.w);
            }
        }
    }

    #[test]
    fn pdf_text_holds_every_character(
        label in label(),
        geom in geom(),
        w in 8.0f64..320.0,
        h in 8.0f64..240.0,
    ) {
        let b = board_with(geom, w, h, &label, 16.0);
        let pdf = to_pdf(&[resolve(&b.board, PAGE)], "fit").expect("pdf");
        let doc = lopdf::Document::load_mem(&pdf).expect("PDF parses");
        let text = doc.extract_text(&[1]).expect("page text extracts");
        // Every character comes back, in order, whichever face of the chain
        // draws it (CJK from the system's fonts, which scripts/test installs).
        prop_assert_eq!(squeeze(&text), squeeze(&shown(geom, &label)));
    }
}

/// Words keep the punctuation after them, and break inside only when no break
/// between words fits.
#[test]
fn breaks_keep_words_and_their_punctuation() {
    let w = |s: &str| text::line_width(s, 16.0, Weight::Regular);
    // "Decide?" a hair too wide for its box: broken inside, but not before "?".
    let block = text::layout("Decide?", 16.0, Weight::Regular, Some(w("Decide") + 1.0));
    let lines: Vec<&str> = block.lines.iter().map(|l| l.text.as_str()).collect();
    assert!(!lines.iter().any(|l| l.starts_with('?')), "{lines:?}");
    // Whole words, when they fit the width.
    let block = text::layout_words(
        "Ready to ship?",
        16.0,
        Weight::Regular,
        Some(w("Ready to") + 1.0),
    );
    let lines: Vec<&str> = block.lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(lines, ["Ready to", "ship?"]);
    // In a diamond, "Decide?" shrinks rather than break.
    let f = fit(
        "Decide?",
        16.0,
        Weight::Regular,
        w("Decide") + 1.0,
        40.0,
        true,
    );
    assert_eq!(f.lines.len(), 1, "{f:?}");
    assert!(f.font_size < 16.0 && !f.overflows());
}

/// The case: "Node 12" in a 56×48 box was drawn "N…"; now it shrinks and
/// shows whole.
#[test]
fn node_12_in_a_small_box_shows_whole() {
    let b = board_with(Geom::Rect, 56.0, 48.0, "Node 12", 16.0);
    let texts = svg_texts(&to_svg(&resolve(&b.board, PAGE), None));
    assert_eq!(squeeze(&texts.concat()), "Node12");
    assert!(problems(&b, ProblemKind::TextOverflow).is_empty());
}
