//! Rich text: the small Markdown subset that the text of shapes, notes and text
//! objects is written in, read into paragraphs of marked spans.
//!
//! **The subset.** Inline: `**bold**` (or `__bold__`), `*italic*` (or `_italic_`),
//! `~~strikethrough~~`, `` `code` `` and `[text](url)`. Lines starting with `- `,
//! `* `, `+ ` or `• ` are bullet items, `1. ` or `1) ` numbered items (the number is
//! shown as written), each two leading spaces one level deeper. A backslash before
//! an ASCII punctuation character keeps it literal (`\*`, `\_`, `\[`, `1\.`), and
//! [`escape`] writes any plain text so that it reads back as itself.
//!
//! **Why not CommonMark.** Everything outside the subset stays literal text: a label
//! "# of users", "> 5 ms" or "<b>" is drawn as typed. A CommonMark parser would turn
//! those into a heading, a quote or HTML and hide characters people wrote, so the
//! subset has its own small parser. Inline marks follow CommonMark's delimiter
//! rules, so `snake_case`, `2 * 3 * 4` and a lone `*` stay literal; a delimiter left
//! without a partner is literal too. Every line is a paragraph of its own: a line
//! break in a label is a line break in the drawing.

pub mod html;

use std::ops::Range;

/// Marks on a span of text, as bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Marks(u8);

impl Marks {
    pub const NONE: Marks = Marks(0);
    pub const BOLD: Marks = Marks(1);
    pub const ITALIC: Marks = Marks(2);
    pub const STRIKE: Marks = Marks(4);
    pub const CODE: Marks = Marks(8);

    pub const fn has(self, m: Marks) -> bool {
        self.0 & m.0 == m.0
    }

    pub const fn with(self, m: Marks) -> Marks {
        Marks(self.0 | m.0)
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// A run of a paragraph's text with the same marks and link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// Byte range in [`Paragraph::text`].
    pub range: Range<usize>,
    pub marks: Marks,
    /// Index in [`Rich::links`] of the link this span is the text of.
    pub link: Option<usize>,
}

/// How a paragraph is listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListItem {
    /// A bullet item (`- `, `* ` or `+ `).
    Bullet,
    /// A numbered item, with its number as written (`"3."`, `"2)"`).
    Numbered(String),
}

/// One line of rich text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paragraph {
    /// The text shown, without marks, escapes or the list marker.
    pub text: String,
    /// Spans covering `text` whole, in order, none empty.
    pub spans: Vec<Span>,
    pub list: Option<ListItem>,
    /// Nesting level of a list item: 0 at the margin, one more per two leading spaces.
    pub depth: u8,
}

impl Paragraph {
    /// The marker drawn before a list item's text: "•" (or "◦" and "▪" deeper) or its
    /// number.
    pub fn marker(&self) -> Option<&str> {
        match &self.list {
            None => None,
            Some(ListItem::Bullet) => Some(["•", "◦", "▪"][usize::from(self.depth) % 3]),
            Some(ListItem::Numbered(n)) => Some(n),
        }
    }
}

/// Rich text read from its source: paragraphs, and the targets of its links.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rich {
    pub paragraphs: Vec<Paragraph>,
    pub links: Vec<String>,
}

/// Deepest list level kept; deeper items are drawn at this level.
const MAX_DEPTH: u8 = 4;

/// Bytes that can start markup: without any of them (and no list marker), text is
/// plain and [`parse`] returns `None` at once.
fn may_mark(b: u8) -> bool {
    matches!(b, b'*' | b'_' | b'~' | b'`' | b'[' | b'\\')
}

/// Reads `source` as rich text, or `None` when it has no markup at all, so that it is
/// shown exactly as written (the common case, and the fast one).
pub fn parse(source: &str) -> Option<Rich> {
    let marked = source.bytes().any(may_mark) || lines(source).any(|l| list_prefix(l).is_some());
    if !marked {
        return None;
    }
    let mut links = Vec::new();
    let paragraphs: Vec<Paragraph> = lines(source).map(|l| paragraph(l, &mut links)).collect();
    let plain = paragraphs.iter().all(|p| {
        p.list.is_none()
            && p.spans
                .iter()
                .all(|s| s.marks.is_empty() && s.link.is_none())
    });
    if plain && links.is_empty() && paragraphs.iter().map(|p| p.text.as_str()).eq(lines(source)) {
        return None;
    }
    Some(Rich { paragraphs, links })
}

/// The text as it is shown: marks and escapes gone, list markers kept ("• item",
/// "1. item"), one line per paragraph. What plain-text formats receive.
pub fn plain(source: &str) -> String {
    let Some(rich) = parse(source) else {
        return source.to_owned();
    };
    let mut out = String::with_capacity(source.len());
    for (i, p) in rich.paragraphs.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if let Some(m) = p.marker() {
            out.extend(std::iter::repeat_n("  ", usize::from(p.depth)));
            out.push_str(m);
            out.push(' ');
        }
        out.push_str(&p.text);
    }
    out
}

/// `url` as a link may point to it: web and mail addresses (`http:`, `https:`,
/// `mailto:`), and a bare domain ("example.com/x") as `https:`. Anything else (a
/// `javascript:` or `file:` URL) is no link: it is drawn as its text only.
pub fn safe_url(url: &str) -> Option<String> {
    let url = url.trim();
    let lower = url.to_ascii_lowercase();
    if ["http://", "https://", "mailto:"]
        .iter()
        .any(|s| lower.starts_with(s))
    {
        return Some(url.to_owned());
    }
    let host = url.split(['/', '?', '#']).next().unwrap_or("");
    let bare = !url.contains(':') && host.contains('.') && !host.starts_with('.');
    bare.then(|| format!("https://{url}"))
}

/// Plain `text` written so that it reads back as itself: unchanged when it has
/// nothing that would be read as markup, else every markup character escaped.
pub fn escape(text: &str) -> String {
    if parse(text).is_none() {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for line in split_keeping_breaks(text) {
        let body_start = line.len() - line.trim_start_matches(' ').len();
        let (indent, body) = line.split_at(body_start);
        out.push_str(indent);
        // A list marker is escaped by its punctuation: "\- ", "1\. ".
        let digits = body.bytes().take_while(u8::is_ascii_digit).count();
        let mut rest = body;
        // (A `*` marker is escaped below with the other marks.)
        if list_prefix(line).is_some() && !body.starts_with('*') {
            if digits > 0 {
                out.push_str(&body[..digits]);
                rest = &body[digits..];
            }
            out.push('\\');
        }
        for c in rest.chars() {
            if matches!(c, '*' | '_' | '~' | '`' | '[' | ']' | '\\') {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

/// The lines of a text, split at its explicit breaks ([`is_break`]; `\r\n` is one),
/// without the breaks: the paragraphs of rich text and of the text layout alike.
pub fn lines(source: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(source);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.char_indices().find(|&(_, c)| is_break(c)) {
            None => {
                rest = None;
                Some(r)
            }
            Some((i, c)) => {
                let skip = if r[i..].starts_with("\r\n") {
                    2
                } else {
                    c.len_utf8()
                };
                rest = Some(&r[i + skip..]);
                Some(&r[..i])
            }
        }
    })
}

/// The lines of `text` with the break that ends each kept at its end.
fn split_keeping_breaks(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if is_break(c) {
            let mut end = i + c.len_utf8();
            if c == '\r' && chars.peek().is_some_and(|&(_, n)| n == '\n') {
                chars.next();
                end += 1;
            }
            out.push(&text[start..end]);
            start = end;
        }
    }
    out.push(&text[start..]);
    out
}

/// The explicit (mandatory) line breaks of Unicode (UAX #14 classes BK, CR, LF and
/// NL): where both rich text and the text layout start a new line.
pub fn is_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{000B}' | '\u{000C}' | '\u{0085}' | '\u{2028}' | '\u{2029}'
    )
}

/// A list line's item and depth, and where its text starts.
fn list_prefix(line: &str) -> Option<(ListItem, u8, usize)> {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    let body = &line[spaces..];
    let (item, marker_len) = if let Some(c) = body.chars().next().filter(|c| "-*+".contains(*c)) {
        (ListItem::Bullet, c.len_utf8())
    } else {
        let digits = body.bytes().take_while(u8::is_ascii_digit).count();
        let punct = body.as_bytes().get(digits).copied();
        if !(1..=9).contains(&digits) || !matches!(punct, Some(b'.' | b')')) {
            return None;
        }
        (ListItem::Numbered(body[..=digits].to_owned()), digits + 1)
    };
    let after = &body[marker_len..];
    let gap = after.len() - after.trim_start_matches(' ').len();
    if gap == 0 || after[gap..].is_empty() {
        return None;
    }
    let depth = u8::try_from(spaces / 2).unwrap_or(u8::MAX).min(MAX_DEPTH);
    Some((item, depth, spaces + marker_len + gap))
}

fn paragraph(line: &str, links: &mut Vec<String>) -> Paragraph {
    let (list, depth, start) = match list_prefix(line) {
        Some((item, depth, start)) => (Some(item), depth, start),
        None => (None, 0, 0),
    };
    let mut nodes = Vec::new();
    inline(&line[start..], Marks::NONE, None, links, &mut nodes);
    let mut text = String::with_capacity(line.len());
    let mut spans: Vec<Span> = Vec::new();
    for n in nodes {
        let before = text.len();
        match &n.kind {
            NodeKind::Text(t) => text.push_str(t),
            NodeKind::Delim { ch, count, .. } => text.extend(std::iter::repeat_n(*ch, *count)),
        }
        let range = before..text.len();
        if range.is_empty() {
            continue;
        }
        match spans.last_mut() {
            Some(last)
                if last.marks == n.marks
                    && last.link == n.link
                    && last.range.end == range.start =>
            {
                last.range.end = range.end;
            }
            _ => spans.push(Span {
                range,
                marks: n.marks,
                link: n.link,
            }),
        }
    }
    Paragraph {
        text,
        spans,
        list,
        depth,
    }
}

struct Node {
    kind: NodeKind,
    marks: Marks,
    link: Option<usize>,
}

enum NodeKind {
    Text(String),
    /// A run of `*`, `_` or `~` that may open or close marks; what is left of it
    /// after matching is literal.
    Delim {
        ch: char,
        count: usize,
        open: bool,
        close: bool,
    },
}

fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation() || (!c.is_alphanumeric() && !c.is_whitespace())
}

/// Reads one line's inline markup into `out`, every node carrying `marks` and `link`.
///
/// Linear in the line: what a look-ahead finds (the `]` and `)` of a link, the
/// closing run of a code span) is remembered for the look-aheads after it, so a
/// line of 100,000 `[` or backticks is read once, not once per character.
fn inline(
    s: &str,
    marks: Marks,
    link: Option<usize>,
    links: &mut Vec<String>,
    out: &mut Vec<Node>,
) {
    let first = out.len();
    let mut text = String::new();
    let flush = |text: &mut String, out: &mut Vec<Node>| {
        if !text.is_empty() {
            out.push(Node {
                kind: NodeKind::Text(std::mem::take(text)),
                marks,
                link,
            });
        }
    };
    let mut ahead = Ahead::new(s);
    let mut i = 0;
    while i < s.len() {
        let c = s[i..].chars().next().unwrap_or_default();
        match c {
            '\\' => match s[i + 1..].chars().next() {
                Some(n) if n.is_ascii_punctuation() => {
                    text.push(n);
                    i += 2;
                }
                _ => {
                    text.push('\\');
                    i += 1;
                }
            },
            '`' => {
                let run = s[i..].bytes().take_while(|&b| b == b'`').count();
                match ahead.closing_backticks(i + run, run) {
                    Some(end) => {
                        flush(&mut text, out);
                        let mut code = &s[i + run..end];
                        if code.len() >= 2
                            && code.starts_with(' ')
                            && code.ends_with(' ')
                            && !code.trim().is_empty()
                        {
                            code = &code[1..code.len() - 1];
                        }
                        out.push(Node {
                            kind: NodeKind::Text(code.to_owned()),
                            marks: marks.with(Marks::CODE),
                            link,
                        });
                        i = end + run;
                    }
                    None => {
                        text.push_str(&s[i..i + run]);
                        i += run;
                    }
                }
            }
            '[' if link.is_none() => match ahead.link_at(i) {
                Some((label, url, end)) => {
                    flush(&mut text, out);
                    links.push(s[url].to_owned());
                    let index = links.len() - 1;
                    inline(&s[label], marks, Some(index), links, out);
                    i = end;
                }
                None => {
                    text.push('[');
                    i += 1;
                }
            },
            '*' | '_' | '~' => {
                let run = s[i..].bytes().take_while(|&b| b == c as u8).count();
                let prev = s[..i].chars().next_back();
                let next = s[i + run..].chars().next();
                let white = |c: Option<char>| c.is_none_or(char::is_whitespace);
                let punct = |c: Option<char>| c.is_some_and(is_punct);
                let left = !white(next) && (!punct(next) || white(prev) || punct(prev));
                let right = !white(prev) && (!punct(prev) || white(next) || punct(next));
                let (open, close) = if c == '_' {
                    (
                        left && (!right || punct(prev)),
                        right && (!left || punct(next)),
                    )
                } else {
                    (left, right)
                };
                flush(&mut text, out);
                out.push(Node {
                    kind: NodeKind::Delim {
                        ch: c,
                        count: run,
                        open,
                        close,
                    },
                    marks,
                    link,
                });
                i += run;
            }
            _ => {
                text.push(c);
                i += c.len_utf8();
            }
        }
    }
    flush(&mut text, out);
    emphasis(&mut out[first..]);
}

/// The look-aheads of one line's inline markup, each scanning any byte once.
struct Ahead<'a> {
    s: &'a str,
    /// The label end (an unescaped `]`) the last scan found, and where it started.
    bracket: Next,
    /// The first `)` and the first white space at or after some offset.
    paren: Next,
    space: Next,
    /// The starts of the line's runs of backticks, by run length (made on first use).
    backticks: Option<std::collections::HashMap<usize, Vec<usize>>>,
}

/// The answer of a forward scan from `from`: where it found what it looked for
/// (`None`: nowhere up to the end). Any scan starting between `from` and that
/// place finds the same place, so it is asked again only past it.
#[derive(Clone, Copy, Default)]
struct Next {
    from: usize,
    found: Option<Option<usize>>,
}

impl Next {
    /// The first place at or after `at` that `scan` (a forward scan from `at`)
    /// finds, remembered.
    fn find(&mut self, at: usize, scan: impl FnOnce(usize) -> Option<usize>) -> Option<usize> {
        match self.found {
            Some(found) if at >= self.from && found.is_none_or(|f| at <= f) => found,
            _ => {
                let found = scan(at);
                *self = Next {
                    from: at,
                    found: Some(found),
                };
                found
            }
        }
    }
}

impl<'a> Ahead<'a> {
    fn new(s: &'a str) -> Self {
        Ahead {
            s,
            bracket: Next::default(),
            paren: Next::default(),
            space: Next::default(),
            backticks: None,
        }
    }

    /// A link `[label](url)` at `at`: its label, its url and where it ends. The
    /// label holds no `]` (unless escaped) and is not empty; the url no white space
    /// and is not empty.
    fn link_at(&mut self, at: usize) -> Option<(Range<usize>, Range<usize>, usize)> {
        let b = self.s.as_bytes();
        // A scan for the label's end from a later `[` joins this one at the byte
        // after that `[` (it is no backslash, so no scan skips it), so it finds the
        // same `]`.
        let close = self.bracket.find(at + 1, |mut i| {
            while i < b.len() && b[i] != b']' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            (i < b.len()).then_some(i)
        })?;
        if close == at + 1 || b.get(close + 1) != Some(&b'(') {
            return None;
        }
        let url_start = close + 2;
        let s = self.s;
        let url_end = self
            .paren
            .find(url_start, |i| s[i..].find(')').map(|j| i + j))?;
        let space = self.space.find(url_start, |i| {
            s[i..].find(char::is_whitespace).map(|j| i + j)
        });
        if url_end == url_start || space.is_some_and(|sp| sp < url_end) {
            return None;
        }
        Some((at + 1..close, url_start..url_end, url_end + 1))
    }

    /// Where a code span opened by `run` backticks ending at `from` ends: the
    /// start of the next run of exactly `run` backticks.
    fn closing_backticks(&mut self, from: usize, run: usize) -> Option<usize> {
        let s = self.s;
        let runs = self.backticks.get_or_insert_with(|| {
            let mut runs: std::collections::HashMap<usize, Vec<usize>> = Default::default();
            let b = s.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if b[i] == b'`' {
                    let n = b[i..].iter().take_while(|&&x| x == b'`').count();
                    runs.entry(n).or_default().push(i);
                    i += n;
                } else {
                    i += 1;
                }
            }
            runs
        });
        // `from` follows a whole run (or an escaped backtick and its run), so the
        // runs that start at or after it are whole runs of the rest too.
        let starts = runs.get(&run)?;
        starts.get(starts.partition_point(|&st| st < from)).copied()
    }
}

/// Pairs the delimiter runs of one inline sequence into marks, closer by closer, each
/// with the nearest opener of the same character before it (CommonMark's rule, less
/// its "multiple of 3" clause). Strikethrough takes `~~` on both sides.
///
/// Linear in the runs: the openers still able to pair are kept on a stack per
/// character (a pair takes the ones inside it off), and a pair's mark is noted at
/// its two edges and spread over the nodes between them once, at the end. (A scan
/// back for each closer, and marking each pair's inside, were quadratic: a line of
/// "a* " repeated, or of pairs nested thousands deep.)
fn emphasis(nodes: &mut [Node]) {
    const MARKS: [Marks; 3] = [Marks::BOLD, Marks::ITALIC, Marks::STRIKE];
    let slot = |ch: char| match ch {
        '*' => 0,
        '_' => 1,
        _ => 2,
    };
    // A run can pair while it has delimiters left: `~` two at a time.
    let can_pair = |ch: char, count: usize| count > 0 && (ch != '~' || count >= 2);
    let count_of = |n: &Node| match n.kind {
        NodeKind::Delim { count, .. } => count,
        NodeKind::Text(_) => 0,
    };
    // Openers still able to pair, by character, nearest last.
    let mut openers: [Vec<usize>; 3] = Default::default();
    // For each mark, +1 at the first node inside a pair and -1 at its closer.
    let mut edges = vec![[0i32; 3]; nodes.len() + 1];
    for c in 0..nodes.len() {
        let NodeKind::Delim {
            ch, open, close, ..
        } = nodes[c].kind
        else {
            continue;
        };
        while close && can_pair(ch, count_of(&nodes[c])) {
            let Some(&o) = openers[slot(ch)].last() else {
                break;
            };
            let (oc, cc) = (count_of(&nodes[o]), count_of(&nodes[c]));
            let (used, mark) = match ch {
                '~' => (2, 2),
                _ if oc >= 2 && cc >= 2 => (2, 0),
                _ => (1, 1),
            };
            edges[o + 1][mark] += 1;
            edges[c][mark] -= 1;
            // Runs inside a pair can no longer pair across its edges.
            for stack in &mut openers {
                while stack.last().is_some_and(|&x| x > o) {
                    stack.pop();
                }
            }
            for at in [o, c] {
                if let NodeKind::Delim { count, .. } = &mut nodes[at].kind {
                    *count -= used;
                }
            }
            if !can_pair(ch, count_of(&nodes[o])) {
                openers[slot(ch)].pop();
            }
            // The closer may close again (`***a** b*`).
        }
        if open && can_pair(ch, count_of(&nodes[c])) {
            openers[slot(ch)].push(c);
        }
    }
    let mut inside = [0i32; 3];
    for (n, edge) in nodes.iter_mut().zip(&edges) {
        for k in 0..3 {
            inside[k] += edge[k];
            if inside[k] > 0 {
                n.marks = n.marks.with(MARKS[k]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_reads_back_as_itself() {
        for s in [
            "plain",
            "a*b*c",
            "- not a list",
            "1. one",
            "snake_case and **x**",
            "C:\\*",
            "[a](b)",
            "line\n  - two\r\n`c`",
        ] {
            let e = escape(s);
            assert_eq!(plain_lines(&e), s, "{s:?} escaped as {e:?}");
        }
    }

    fn plain_lines(source: &str) -> String {
        match parse(source) {
            None => source.to_owned(),
            Some(r) => {
                assert!(r.paragraphs.iter().all(|p| p.list.is_none()
                    && p.spans
                        .iter()
                        .all(|s| s.marks.is_empty() && s.link.is_none())));
                let texts: Vec<_> = r.paragraphs.iter().map(|p| p.text.as_str()).collect();
                // Breaks other than \n are not kept by `parse`; the cases use \n and \r\n.
                let mut out = String::new();
                let mut breaks = split_keeping_breaks(source).into_iter();
                for t in texts {
                    out.push_str(t);
                    if let Some(l) = breaks.next() {
                        let brk: String = l.chars().rev().take_while(|&c| is_break(c)).collect();
                        out.extend(brk.chars().rev());
                    }
                }
                out
            }
        }
    }
}
