//! How an error message quotes what a client sent. Messages repeat the value at
//! fault ("unknown geom \"x\"") so the reader sees what was wrong, but a client can
//! send anything: a megabyte of text, a NUL, a right-to-left override that turns
//! the rest of the line around. [`echo`] keeps a short value whole and a long one by
//! its start and end, and escapes the characters that would break or garble one
//! line of text, so that a message stays one readable sentence whatever it quotes.

use std::borrow::Cow;

/// The most characters [`echo`] keeps of a value.
pub const MAX_ECHO: usize = 80;

/// `text` as a message may quote it: whole if it has at most [`MAX_ECHO`]
/// characters, else its first and last characters around "…"; control,
/// bidirectional and invisible characters written as `\u{…}`.
pub fn echo(text: &str) -> Cow<'_, str> {
    echo_within(text, MAX_ECHO)
}

/// Like [`echo`], keeping at most `max` characters (paths are worth more of
/// them than other values, since their end names the file).
pub fn echo_within(text: &str, max: usize) -> Cow<'_, str> {
    let count = text.chars().count();
    if count <= max && !text.chars().any(garbles) {
        return Cow::Borrowed(text);
    }
    let mut out = String::new();
    let mut push = |c: char| {
        if garbles(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    };
    if count <= max {
        text.chars().for_each(&mut push);
    } else {
        // The end is kept too: it holds a file's name and extension.
        let tail = max / 4;
        text.chars().take(max - tail).for_each(&mut push);
        push('…');
        text.chars().skip(count - tail).for_each(&mut push);
    }
    Cow::Owned(out)
}

/// The most characters of a path [`echo_path`] keeps: more than of other values,
/// since a path's end names the file.
pub const MAX_ECHO_PATH: usize = 160;

/// A path as a message quotes it: [`echo_within`] [`MAX_ECHO_PATH`] characters.
pub fn echo_path(path: &std::path::Path) -> String {
    echo_within(&path.to_string_lossy(), MAX_ECHO_PATH).into_owned()
}

/// `text` as a terminal may be given it: every character [`garbles`] would
/// have it do something other than show (an escape sequence's ESC, a carriage
/// return, a right-to-left override) written as `\u{…}`, as [`echo`] writes
/// them, except the line feeds and tabs of a text of several lines; nothing is
/// shortened. For text from files on its way to stdout or stderr.
pub fn for_terminal(text: &str) -> Cow<'_, str> {
    let escaped = |c: char| garbles(c) && c != '\n' && c != '\t';
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if escaped(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Characters that break a line, reorder it, or cannot be seen: control
/// characters (C0, DEL and C1, which terminals obey), bidirectional controls,
/// invisible ones. What [`echo`] and [`for_terminal`] escape.
pub fn garbles(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200b}' | '\u{200e}' | '\u{200f}' // zero-width space, LRM, RLM (joiners are kept: emoji need them)
            | '\u{2028}'..='\u{202e}' // line and paragraph separators, embeddings, overrides
            | '\u{2066}'..='\u{2069}' // isolates
            | '\u{feff}' // byte order mark
            | '\u{fff9}'..='\u{ffff}') // interlinear annotations, noncharacters
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_plain_values_are_kept_whole() {
        for text in ["", "x", "s12", "Ünïcödé 🦀 e\u{301}", &"a".repeat(MAX_ECHO)] {
            assert!(
                matches!(echo(text), Cow::Borrowed(t) if t == text),
                "{text}"
            );
        }
    }

    #[test]
    fn long_values_keep_their_start_and_end() {
        let text = format!("{}{}.inkboard", "a".repeat(500), "b".repeat(500));
        let shown = echo(&text);
        assert_eq!(shown.chars().count(), MAX_ECHO + 1);
        assert!(
            shown.starts_with("aaaa") && shown.ends_with("bb.inkboard"),
            "{shown}"
        );
        assert!(shown.contains('…'));
    }

    #[test]
    fn line_breaking_and_reordering_characters_are_escaped() {
        assert_eq!(echo("a\nb"), "a\\u{a}b");
        assert_eq!(echo("a\0b"), "a\\u{0}b");
        assert_eq!(echo("\u{202e}exe.txt"), "\\u{202e}exe.txt");
        assert_eq!(echo("\u{ffff}"), "\\u{ffff}");
        // A zero-width joiner is part of an emoji, not a trick: kept.
        assert_eq!(echo("👩\u{200d}💻"), "👩\u{200d}💻");
    }

    #[test]
    fn text_for_a_terminal_keeps_its_lines_and_loses_its_escapes() {
        let title = "\u{1b}]0;owned\u{7}\u{1b}[2J lines\n\tand\r\u{9b}31m \u{202e}";
        assert_eq!(
            for_terminal(title),
            "\\u{1b}]0;owned\\u{7}\\u{1b}[2J lines\n\tand\\u{d}\\u{9b}31m \\u{202e}"
        );
        let long = "a".repeat(1000);
        assert!(matches!(for_terminal(&long), Cow::Borrowed(t) if t == long));
    }
}
