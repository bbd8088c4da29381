//! `rich`: any text, as the Markdown of a shape (`inkboard_core::rich`) and as the
//! editor's HTML (`rich::html`, what `/api/rich` converts both ways). Run with
//! `-timeout`, a text read slowly is a failure (a line of 100,000 `[`, or a million
//! `<`, each looking ahead through the rest, took minutes). Must hold:
//!
//! - any text, [`escape`]d, reads back as itself with no markup;
//! - a source shown in the editor and sent back unchanged comes back byte for
//!   byte (`from_html(to_html(s), s) == s`), and so does the Markdown written for
//!   any HTML the editor sends. Outside this promise, by design: tabs, `\r`,
//!   no-break spaces and zero-width characters (the editor shows them as spaces or
//!   not at all), line breaks other than `\n`, and numbered lists (renumbered from
//!   their first number).

#![no_main]

use inkboard_core::rich::{escape, html, lines, parse};
use libfuzzer_sys::fuzz_target;

/// True when `s` is within the byte-for-byte promise (see the module docs).
fn kept(s: &str) -> bool {
    let odd = |c: char| {
        matches!(
            c,
            '\t' | '\r'
                | '\u{a0}'
                | '\u{200b}'
                | '\u{feff}'
                | '\u{b}'
                | '\u{c}'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        )
    };
    let numbered = |l: &str| {
        let body = l.trim_start_matches(' ');
        let digits = body.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0 && matches!(body.as_bytes().get(digits), Some(b'.' | b')'))
    };
    !s.contains(odd) && !lines(s).any(numbered)
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);

    let escaped = escape(&text);
    let back: Vec<String> = match parse(&escaped) {
        None => lines(&escaped).map(str::to_owned).collect(),
        Some(r) => {
            for p in &r.paragraphs {
                assert!(
                    p.list.is_none()
                        && p.spans
                            .iter()
                            .all(|s| s.marks.is_empty() && s.link.is_none()),
                    "{escaped:?} still has markup"
                );
            }
            r.paragraphs.into_iter().map(|p| p.text).collect()
        }
    };
    assert!(
        back.iter().map(String::as_str).eq(lines(&text)),
        "{escaped:?} reads back otherwise"
    );

    let shown = html::to_html(&text);
    if kept(&text) {
        assert_eq!(
            html::from_html(&shown, &text),
            text,
            "unchanged, yet rewritten"
        );
    }

    let written = html::from_html(&text, "");
    if kept(&written) {
        let again = html::from_html(&html::to_html(&written), &written);
        assert_eq!(again, written, "our own Markdown, unchanged, yet rewritten");
    }
});
