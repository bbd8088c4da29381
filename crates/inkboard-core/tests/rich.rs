//! Rich text sources as tools and files give them, and what each reads as: plain, or
//! paragraphs of marked spans. Inputs are `tests/rich/parse.txt`; the answers are in
//! `parse.expected` beside it, refreshed with `UPDATE_EXPECT=1`. Every source also
//! reads back as itself once [`escape`]d, and [`plain`] keeps every shown character.

use std::fmt::Write;
use std::path::Path;

use inkboard_core::rich::{escape, parse, plain, ListItem, Marks};

fn describe(source: &str) -> String {
    let Some(rich) = parse(source) else {
        return "plain".into();
    };
    let mut out = String::new();
    for p in &rich.paragraphs {
        out.push_str("\n    ");
        match &p.list {
            Some(ListItem::Bullet) => write!(out, "bullet@{} ", p.depth).unwrap(),
            Some(ListItem::Numbered(n)) => write!(out, "number {n}@{} ", p.depth).unwrap(),
            None => {}
        }
        for s in &p.spans {
            let mut marks = String::new();
            for (m, c) in [
                (Marks::BOLD, 'b'),
                (Marks::ITALIC, 'i'),
                (Marks::STRIKE, 's'),
                (Marks::CODE, 'c'),
            ] {
                if s.marks.has(m) {
                    marks.push(c);
                }
            }
            if let Some(l) = s.link {
                write!(marks, "→{}", rich.links[l]).unwrap();
            }
            let sep = if marks.is_empty() { "" } else { " " };
            write!(out, "[{marks}{sep}{:?}]", &p.text[s.range.clone()]).unwrap();
        }
    }
    out
}

#[test]
fn rich_sources_read_as_expected() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rich");
    let inputs = std::fs::read_to_string(dir.join("parse.txt")).unwrap();
    let mut out = String::new();
    for line in inputs.lines().filter(|l| !l.starts_with("//")) {
        let source = line.replace("\\n", "\n").replace("\\r", "\r");
        writeln!(out, "{line}\n  → {}", describe(&source)).unwrap();
        writeln!(out, "  plain: {:?}", plain(&source)).unwrap();
        let escaped = escape(&source);
        assert!(
            parse(&escaped).is_none_or(|r| r.paragraphs.iter().all(|p| p.list.is_none()
                && p.spans
                    .iter()
                    .all(|s| s.marks.is_empty() && s.link.is_none()))),
            "{escaped:?} still has marks"
        );
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

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, ..Default::default() })]

    /// Any text, markup characters and all: reading never panics, spans cover each
    /// paragraph's text in order, and escaped text reads back as itself.
    #[test]
    fn any_text_reads_and_escapes_back(s in "[-*_~`\\[\\]()\\\\ a-zé😀1.\n+]{0,40}") {
        if let Some(rich) = parse(&s) {
            for p in &rich.paragraphs {
                let mut at = 0;
                for span in &p.spans {
                    proptest::prop_assert_eq!(span.range.start, at);
                    proptest::prop_assert!(span.range.end > span.range.start);
                    at = span.range.end;
                    proptest::prop_assert!(span.link.is_none_or(|l| l < rich.links.len()));
                }
                proptest::prop_assert_eq!(at, p.text.len());
            }
        }
        let escaped = escape(&s);
        proptest::prop_assert_eq!(plain(&escaped), s.replace('\r', ""));
    }
}
