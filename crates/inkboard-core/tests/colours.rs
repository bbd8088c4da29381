//! Colour text as files and tool calls give it: what each parses to, as stored
//! and as drawn (saturated, and as a sticky note's fill), or the error with its
//! suggestion. Inputs are `tests/colours/parse.txt`; the answers are in
//! `parse.expected` beside it, refreshed with `UPDATE_EXPECT=1`.

use std::fmt::Write;
use std::path::Path;

use inkboard_core::{Color, ModelError, Palette, Vocabulary};

fn hex([r, g, b, a]: [u8; 4]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}{a:02x}")
}

#[test]
fn colour_texts_parse_as_expected() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/colours");
    let inputs = std::fs::read_to_string(dir.join("parse.txt")).unwrap();
    let mut out = String::new();
    for line in inputs.lines().filter(|l| !l.starts_with("//")) {
        let text = if line == "<empty>" { "" } else { line };
        let answer = match Color::parse(text) {
            Ok(c) => format!(
                "{c}  (draws {}, as a note's fill {})",
                hex(c.rgba()),
                hex(c.note_fill_rgba())
            ),
            Err(e) => {
                // The error quotes what was given, whatever the suggestion.
                assert!(
                    matches!(&e, ModelError::BadColor { given, .. } if given == text),
                    "{e:?}"
                );
                format!("error: {e}")
            }
        };
        writeln!(out, "{text:?} → {answer}").unwrap();
    }
    let path = dir.join("parse.expected");
    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v != "0") {
        std::fs::write(&path, &out).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    for (e, a) in expected.lines().zip(out.lines()) {
        assert_eq!(e, a, "(run with UPDATE_EXPECT=1 to accept the new output)");
    }
    assert_eq!(expected, out, "(run with UPDATE_EXPECT=1 to accept)");
}

/// Every palette name has a pastel tone light enough for the default dark text
/// (except black, which draws white text), and the tones differ from each other.
#[test]
fn pastel_tones_are_light_and_distinct() {
    let luminance = |[r, g, b]: [u8; 3]| {
        let lin = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    };
    let mut seen = Vec::new();
    for &p in Palette::ALL {
        let tone = p.pastel();
        if p != Palette::Black {
            assert!(luminance(tone) > 0.6, "{}: {tone:?}", p.name());
        }
        assert!(!seen.contains(&tone), "{} repeats a tone", p.name());
        seen.push(tone);
    }
}
