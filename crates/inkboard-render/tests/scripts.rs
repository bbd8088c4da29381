//! Every script drawn: each sample is set in real glyphs (a bundled face or a
//! system font, never the `.notdef` box), a PDF's text, as poppler's `pdftotext`
//! extracts it, holds every character written in reading order, and a character no
//! font has is reported as `missing_glyph` with the object and the character.
//!
//! The CJK, Arabic, Hebrew, Devanagari and Thai samples need the system fonts
//! `docs/fonts.md` names (Debian's `fonts-noto-core` and `fonts-noto-cjk`), and the PDF test
//! needs `pdftotext` (`poppler-utils`): `scripts/test` installs them. Without them
//! these tests fail, saying what to install; they never pass silently.

mod common;

use common::*;
use inkboard_core::{Font, Geom, Style, Vocabulary};
use inkboard_render::faces::{missing, runs, Typeface};
use inkboard_render::text::Weight;
use inkboard_render::{check, resolve, to_pdf, ProblemKind};

/// One sample per script or kind of symbol, and the family its non-Latin part is
/// expected in ("" for text the primary face has whole).
const SAMPLES: [(&str, &str, &str); 12] = [
    ("latin", "Quick brown fox", ""),
    ("arrows", "A → B ⇄ C", "Inkboard Symbols"),
    ("box drawing", "╔══╗ ┌─┐", "Inkboard Symbols"),
    ("math", "∀x ∈ ℝ ∮ 𝔸𝔹", "Inkboard Math"),
    ("emoji", "Ship 🚀 😀", "Inkboard Emoji"),
    ("chinese", "简体中文", "Noto Sans CJK SC"),
    ("japanese", "ひらがなカタカナ", "Noto Sans CJK SC"),
    ("korean", "한국어", "Noto Sans CJK SC"),
    ("hebrew", "שלום עולם", "Noto Sans Hebrew"),
    ("arabic", "مرحبا بالعالم", "Noto Sans Arabic"),
    ("devanagari", "नमस्ते", "Noto Sans Devanagari"),
    ("thai", "สวัสดี", "Noto Sans Thai"),
];

const INSTALL: &str = "install the system fonts docs/fonts.md names \
    (apt-get install fonts-noto-core fonts-noto-cjk; scripts/test does)";

#[test]
fn every_script_has_real_glyphs() {
    for (name, text, family) in SAMPLES {
        for font in Font::ALL {
            let face = Typeface::new(*font, Weight::Regular);
            assert_eq!(
                missing(text, face),
                Vec::<char>::new(),
                "{name} ({text:?}) in {font}: characters in no font; {INSTALL}"
            );
        }
        let families: Vec<&str> = runs(text, Weight::Regular.into())
            .iter()
            .map(|r| r.face.family())
            .collect();
        if family.is_empty() {
            assert_eq!(families, ["Inter"], "{name}");
        } else {
            assert!(
                families.contains(&family),
                "{name} ({text:?}) is set in {families:?}, not {family}; {INSTALL}"
            );
        }
    }
}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect()
}

#[test]
fn pdf_text_holds_every_character_in_reading_order() {
    // One shape per sample and font, top to bottom, each wide enough for one line.
    let mut b = Build::new();
    let mut written = Vec::new();
    let mut y = 0.0;
    for font in Font::ALL {
        for (_, text, _) in SAMPLES {
            b.styled(
                Geom::Rect,
                [0.0, y, 400.0, 40.0],
                text,
                Style {
                    font: Some(*font),
                    ..Style::default()
                },
            );
            written.push(text);
            y += 50.0;
        }
    }
    let pdf = to_pdf(&[resolve(&b.board, PAGE)], "scripts").expect("pdf");
    let extracted = pdftotext(&pdf);
    // Whitespace apart (poppler puts a line break before an emoji whose face is
    // taller than the line), and poppler's marks around right-to-left text (it
    // writes Hebrew and Arabic in reading order between U+202B and U+202C).
    let plain: String = squeeze(&extracted)
        .chars()
        .filter(|c| !('\u{202A}'..='\u{202E}').contains(c))
        .collect();
    let mut rest = plain.as_str();
    for text in &written {
        let text = squeeze(text);
        if text.chars().any(|c| ('\u{0E00}'..='\u{0E7F}').contains(&c)) {
            // poppler 22 sorts Thai's marks above the line into a line of their own
            // (`ส ส` then `วั ดี`), so only the characters are checked, not their order.
            let n = text.chars().count();
            let taken: String = rest.chars().take(n).collect();
            let mut a: Vec<char> = taken.chars().collect();
            let mut b: Vec<char> = text.chars().collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "Thai characters in {extracted}");
            rest = &rest[taken.len()..];
            continue;
        }
        assert!(
            rest.starts_with(&text),
            "expected {text:?} next, pdftotext gave:\n{extracted}"
        );
        rest = &rest[text.len()..];
    }
    assert_eq!(rest, "", "extra text: pdftotext gave:\n{extracted}");
}

#[test]
fn a_character_in_no_font_is_reported_with_object_and_character() {
    let mut b = Build::new();
    let ok = b.shape(Geom::Rect, [0.0, 0.0, 200.0, 60.0], "日本 → 😀 שלום");
    let bad = b.shape(
        Geom::Rect,
        [0.0, 100.0, 200.0, 60.0],
        "Plane 16 \u{10FFFD}!",
    );
    let other = b.shape(Geom::Rect, [300.0, 100.0, 200.0, 60.0], "x");
    let label = b.labelled(&bad, &other, "to \u{10FFFC}");
    let problems: Vec<_> = check(&b.board, PAGE)
        .into_iter()
        .filter(|p| p.kind == ProblemKind::MissingGlyph)
        .collect();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert_eq!(problems[0].ids, std::slice::from_ref(&bad));
    assert!(
        problems[0].message.contains("U+10FFFD"),
        "{}",
        problems[0].message
    );
    assert!(problems[0].message.contains('\u{10FFFD}'));
    assert_eq!(problems[1].ids, [label]);
    assert!(
        problems[1].message.contains("U+10FFFC"),
        "{}",
        problems[1].message
    );
    assert_eq!(ProblemKind::MissingGlyph.name(), "missing_glyph");
    assert!(problems.iter().all(|p| !p.ids.contains(&ok)));
}
