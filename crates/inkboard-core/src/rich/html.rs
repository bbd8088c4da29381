//! Rich text as the editor's HTML, both ways: [`to_html`] writes a shape's Markdown
//! source as the HTML the in-place editor (`web/textedit.js`, a contenteditable
//! element) shows formatted, and [`from_html`] reads what the editor holds after
//! typing back into the Markdown subset of [`super`].
//!
//! The editor's HTML is the browser's own: lines as `<div>` (an empty one holds a
//! `<br>`), marks as `<b>`, `<i>`, `<s>`/`<strike>`, `<code>`, links as `<a href>`,
//! lists as `<ul>`/`<ol>` of `<li>`, a list inside a list one level deeper. Other
//! tags are read for their text; attributes other than `href` and `start`, and the
//! few inline styles the browser writes for bold, italic and strikethrough, are
//! ignored.
//!
//! **Round trip.** Markdown is written with as few escapes as read back the same
//! (`snake_case` and `2 * 3` stay as typed), each line checked by [`super::parse`];
//! and when what the editor holds reads the same as the source it started from, that
//! source comes back byte for byte (`\*`, `__bold__` or `1)` kept as written).
//!
//! Limitations: a numbered list is renumbered from its first number when edited,
//! and its `)` becomes `.`; underline, colours and fonts have no Markdown and are
//! dropped.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::{lines, parse, safe_url, ListItem, Marks, Next};

/// Elements open at once that [`from_html`] keeps track of; one nested deeper is read
/// for its text only. The editor's HTML nests a dozen deep at most (lists in lists,
/// a few marks); a hostile one nested 500,000 deep made every tag and character
/// look through all of them.
const MAX_OPEN: usize = 64;

/// A link's target, shared by the runs of its text: a run is compared with the
/// next character's target for every character read, which a shared pointer
/// answers at once.
type Href = Option<Rc<str>>;

/// One line as the editor shows it: runs of text with their marks and link target,
/// and how it is listed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Line {
    runs: Vec<(String, Marks, Href)>,
    /// `Some(None)` a bullet item, `Some(Some(n))` item number `n`.
    list: Option<Option<u64>>,
    depth: u8,
}

impl Line {
    fn push(&mut self, c: char, marks: Marks, link: &Href) {
        // The same link's text shares its target: told at once, not by comparing
        // the target (`Rc<str>`'s `==` compares the text) for every character.
        let same = |l: &Href| match (l, link) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b) || a == b,
            (a, b) => a.is_none() && b.is_none(),
        };
        match self.runs.last_mut() {
            Some((t, m, l)) if *m == marks && same(l) => t.push(c),
            _ => self.runs.push((c.to_string(), marks, link.clone())),
        }
    }

    fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// The same line with white space moved out of marks (`** a**` would not read
    /// as bold) and equal neighbours merged: the form two lines are compared in.
    fn normal(&self) -> Line {
        let mut out = Line {
            list: self.list,
            depth: self.depth,
            runs: Vec::new(),
        };
        let mut add = |t: &str, m: Marks, l: &Href| {
            if t.is_empty() {
                return;
            }
            match out.runs.last_mut() {
                Some((pt, pm, pl)) if *pm == m && pl == l => pt.push_str(t),
                _ => out.runs.push((t.to_owned(), m, l.clone())),
            }
        };
        for (t, m, l) in &self.runs {
            if m.is_empty() || m.has(Marks::CODE) {
                add(t, *m, l);
                continue;
            }
            let core = t.trim_matches(' ');
            let lead = &t[..t.len() - t.trim_start_matches(' ').len()];
            let trail = &t[t.trim_end_matches(' ').len()..];
            if core.is_empty() {
                add(t, Marks::NONE, l);
            } else {
                add(lead, Marks::NONE, l);
                add(core, *m, l);
                add(trail, Marks::NONE, l);
            }
        }
        out
    }
}

/// The lines `source` is shown as.
fn shown(source: &str) -> Vec<Line> {
    let Some(rich) = parse(source) else {
        return lines(source)
            .map(|l| Line {
                runs: if l.is_empty() {
                    Vec::new()
                } else {
                    vec![(l.to_owned(), Marks::NONE, None)]
                },
                ..Line::default()
            })
            .collect();
    };
    rich.paragraphs
        .iter()
        .map(|p| {
            let line = Line {
                runs: p
                    .spans
                    .iter()
                    .map(|s| {
                        let link = s.link.and_then(|i| safe_url(&rich.links[i])).map(Rc::from);
                        (p.text[s.range.clone()].to_owned(), s.marks, link)
                    })
                    .collect(),
                list: p.list.as_ref().map(|l| match l {
                    ListItem::Bullet => None,
                    ListItem::Numbered(n) => Some(number(n)),
                }),
                depth: p.depth,
            };
            line.normal()
        })
        .collect()
}

fn number(marker: &str) -> u64 {
    marker.trim_end_matches(['.', ')']).parse().unwrap_or(1)
}

/// Appends `text` with HTML's markup characters as entities (the editor's HTML
/// and draw.io's rich labels both).
pub fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// The HTML tag of each inline mark.
pub const TAGS: [(Marks, &str); 4] = [
    (Marks::BOLD, "b"),
    (Marks::ITALIC, "i"),
    (Marks::STRIKE, "s"),
    (Marks::CODE, "code"),
];

/// The editor's HTML for `source`: one `<div>` per line, list items in lists.
pub fn to_html(source: &str) -> String {
    let mut out = String::new();
    // The lists open: (numbered, depth).
    let mut open: Vec<bool> = Vec::new();
    let close = |out: &mut String, open: &mut Vec<bool>, keep: usize| {
        while open.len() > keep {
            let numbered = open.pop().unwrap_or(false);
            out.push_str(if numbered { "</ol>" } else { "</ul>" });
        }
    };
    for line in shown(source) {
        let Some(item) = line.list else {
            close(&mut out, &mut open, 0);
            out.push_str("<div>");
            runs_html(&mut out, &line);
            out.push_str("</div>");
            continue;
        };
        let numbered = item.is_some();
        let depth = usize::from(line.depth);
        if open.len() > depth + 1 || (open.len() == depth + 1 && open[depth] != numbered) {
            close(&mut out, &mut open, depth);
        }
        while open.len() < depth + 1 {
            let n = if open.len() == depth { item } else { None };
            match n {
                Some(n) if numbered => out.push_str(&format!("<ol start=\"{n}\">")),
                _ if numbered && open.len() == depth => out.push_str("<ol>"),
                _ => out.push_str("<ul>"),
            }
            open.push(numbered && open.len() == depth);
        }
        out.push_str("<li>");
        runs_html(&mut out, &line);
        out.push_str("</li>");
    }
    close(&mut out, &mut open, 0);
    out
}

fn runs_html(out: &mut String, line: &Line) {
    if line.is_empty() {
        out.push_str("<br>");
        return;
    }
    for (text, marks, link) in &line.runs {
        if let Some(href) = link {
            out.push_str("<a href=\"");
            push_escaped(out, href);
            out.push_str("\">");
        }
        let on: Vec<&str> = TAGS
            .iter()
            .filter(|(m, _)| marks.has(*m))
            .map(|(_, t)| *t)
            .collect();
        on.iter().for_each(|t| out.push_str(&format!("<{t}>")));
        push_escaped(out, text);
        on.iter()
            .rev()
            .for_each(|t| out.push_str(&format!("</{t}>")));
        if link.is_some() {
            out.push_str("</a>");
        }
    }
}

/// An element open while [`from_html`] walks the HTML.
enum Open {
    Mark(&'static str, Marks),
    Link(Href),
    List { numbered: bool, next: u64 },
    Other(String),
}

/// The Markdown for the editor's `html`. When it shows the same as `before` (the
/// source the editing started from), `before` itself.
pub fn from_html(html: &str, before: &str) -> String {
    let lines = read(html);
    let lines: Vec<Line> = lines.iter().map(Line::normal).collect();
    // A line shown as one of `before`'s keeps that line's source (its escapes, its
    // `__` or `1)`), the one at the same place first.
    let old: Vec<(&str, Line)> = super::lines(before)
        .map(|l| (l, shown(l).into_iter().next().unwrap_or_default()))
        .collect();
    // The first of `before`'s lines shown as each line (looked up, not searched:
    // thousands of lines each searched for among thousands took minutes).
    let mut first: HashMap<&Line, &str> = HashMap::new();
    for (source, line) in &old {
        first.entry(line).or_insert(source);
    }
    let md: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let here = old.get(i).filter(|(_, l)| l == line).map(|(s, _)| *s);
            match here.or_else(|| first.get(line).copied()) {
                Some(source) => source.to_owned(),
                None => write_line(line),
            }
        })
        .collect();
    let md = md.join("\n");
    if shown(before) == shown(&md) {
        return before.to_owned();
    }
    md
}

/// The lines of the editor's HTML, as the browser shows them.
///
/// Linear in the HTML: the `>` that ends a tag is looked for once for all the `<`
/// before it (a million `<` with none took minutes), at most [`MAX_OPEN`]
/// elements are tracked, the marks of the text are worked out once per tag, and
/// equal link targets share one string.
fn read(html: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut cur = Line::default();
    let mut tag_end = Next::default();
    // The marks and link of text here, worked out again after a tag.
    let mut here: Option<(Marks, Href)> = None;
    let mut hrefs: HashSet<Rc<str>> = HashSet::new();
    // A line's content began (text, a list item, or a `<br>` ending an empty line).
    let mut started = false;
    // A `<br>` after text: a break, unless the block ends right after it.
    let mut pending_br = false;
    let mut stack: Vec<Open> = Vec::new();
    let end_line = |lines: &mut Vec<Line>, cur: &mut Line, started: &mut bool| {
        if *started || !cur.is_empty() {
            lines.push(std::mem::take(cur));
        }
        *cur = Line::default();
        *started = false;
    };
    let mut rest = html;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            let at = html.len() - rest.len();
            let found = tag_end.find(at, |i| html[i..].find('>').map(|j| i + j));
            if let Some(end) = found.map(|f| f - at) {
                let tag = &rest[1..end];
                rest = &rest[end + 1..];
                here = None;
                let closing = tag.starts_with('/');
                let name: String = tag
                    .trim_start_matches('/')
                    .chars()
                    .take_while(char::is_ascii_alphanumeric)
                    .collect::<String>()
                    .to_ascii_lowercase();
                match name.as_str() {
                    "br" => {
                        // A `<br>` after text breaks the line unless its block ends
                        // right after it (the browser's placeholder); on an empty
                        // line it ends that line.
                        if pending_br {
                            end_line(&mut lines, &mut cur, &mut started);
                            pending_br = false;
                        }
                        if cur.is_empty() && !started {
                            started = true;
                            end_line(&mut lines, &mut cur, &mut started);
                        } else {
                            pending_br = true;
                        }
                    }
                    "div" | "p" | "ul" | "ol" | "li" | "blockquote" | "pre" | "h1" | "h2"
                    | "h3" | "h4" | "h5" | "h6" => {
                        pending_br = false;
                        end_line(&mut lines, &mut cur, &mut started);
                        if closing {
                            if let Some(i) = stack.iter().rposition(|o| match o {
                                Open::List { numbered, .. } => {
                                    (name == "ol") == *numbered && (name == "ul" || name == "ol")
                                }
                                Open::Other(n) => *n == name,
                                _ => false,
                            }) {
                                stack.truncate(i);
                            }
                        } else if name == "ul" || name == "ol" {
                            let start = attribute(tag, "start")
                                .and_then(|s| s.parse().ok())
                                .unwrap_or(1);
                            stack.push(Open::List {
                                numbered: name == "ol",
                                next: start,
                            });
                        } else if name == "li" {
                            let depth = stack
                                .iter()
                                .filter(|o| matches!(o, Open::List { .. }))
                                .count();
                            let list = stack.iter_mut().rev().find_map(|o| match o {
                                Open::List { numbered, next } => {
                                    let n = *next;
                                    *next += 1;
                                    Some(numbered.then_some(n))
                                }
                                _ => None,
                            });
                            cur.list = Some(list.unwrap_or(None));
                            cur.depth = u8::try_from(depth.saturating_sub(1)).unwrap_or(u8::MAX);
                            started = true;
                            stack.push(Open::Other(name));
                        } else if !tag.ends_with('/') {
                            stack.push(Open::Other(name));
                        }
                    }
                    _ => {
                        let mark = match name.as_str() {
                            "b" | "strong" => Some(Marks::BOLD),
                            "i" | "em" => Some(Marks::ITALIC),
                            "s" | "strike" | "del" => Some(Marks::STRIKE),
                            "code" => Some(Marks::CODE),
                            "span" => Some(span_marks(tag)),
                            _ => None,
                        };
                        let key: &'static str = match name.as_str() {
                            "b" => "b",
                            "strong" => "strong",
                            "i" => "i",
                            "em" => "em",
                            "s" => "s",
                            "strike" => "strike",
                            "del" => "del",
                            "code" => "code",
                            "span" => "span",
                            "a" => "a",
                            _ => "",
                        };
                        if key.is_empty() || tag.ends_with('/') {
                            continue;
                        }
                        if closing {
                            if let Some(i) = stack.iter().rposition(|o| match o {
                                Open::Mark(k, _) => *k == key,
                                Open::Link(_) => key == "a",
                                _ => false,
                            }) {
                                stack.remove(i);
                            }
                        } else if key == "a" {
                            let href = attribute(tag, "href").and_then(|h| safe_url(&h));
                            let href = href.map(|h| match hrefs.get(h.as_str()) {
                                Some(known) => known.clone(),
                                None => {
                                    let h: Rc<str> = Rc::from(h);
                                    hrefs.insert(h.clone());
                                    h
                                }
                            });
                            stack.push(Open::Link(href));
                        } else {
                            stack.push(Open::Mark(key, mark.unwrap_or(Marks::NONE)));
                        }
                    }
                }
                // An element past the depth kept is read for its text only.
                stack.truncate(MAX_OPEN);
                continue;
            }
        }
        let (c, used) = match c {
            '&' => entity(rest).unwrap_or(('&', 1)),
            c => (c, c.len_utf8()),
        };
        rest = &rest[used..];
        if c == '\u{200b}' || c == '\u{feff}' || c == '\r' {
            continue;
        }
        let c = match c {
            '\u{a0}' | '\t' => ' ',
            // The editor shows white space as typed; a line break in text is a break.
            c => c,
        };
        if pending_br {
            end_line(&mut lines, &mut cur, &mut started);
            pending_br = false;
        }
        if c == '\n' {
            started = true;
            end_line(&mut lines, &mut cur, &mut started);
            continue;
        }
        let (marks, link) = here.get_or_insert_with(|| {
            let mut marks = Marks::NONE;
            let mut link = None;
            for o in &stack {
                match o {
                    Open::Mark(_, m) => marks = marks.with(*m),
                    Open::Link(l) => link.clone_from(l),
                    _ => {}
                }
            }
            (marks, link)
        });
        cur.push(c, *marks, link);
    }
    end_line(&mut lines, &mut cur, &mut started);
    lines
}

/// The marks a `<span style="…">` the browser wrote stands for.
fn span_marks(tag: &str) -> Marks {
    let style = attribute(tag, "style")
        .unwrap_or_default()
        .to_ascii_lowercase()
        .replace(' ', "");
    let mut m = Marks::NONE;
    if style.contains("font-weight:bold") || style.contains("font-weight:700") {
        m = m.with(Marks::BOLD);
    }
    if style.contains("font-style:italic") {
        m = m.with(Marks::ITALIC);
    }
    if style.contains("line-through") {
        m = m.with(Marks::STRIKE);
    }
    m
}

/// The value of attribute `name` in a tag's text (quoted with `"` or `'`).
fn attribute(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let at = lower.find(&format!(" {name}="))? + name.len() + 2;
    let rest = &tag[at..];
    let quote = rest.chars().next().filter(|q| *q == '"' || *q == '\'')?;
    let end = rest[1..].find(quote)?;
    Some(decode(&rest[1..1 + end]))
}

fn decode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let (c, used) = match c {
            '&' => entity(rest).unwrap_or(('&', 1)),
            c => (c, c.len_utf8()),
        };
        out.push(c);
        rest = &rest[used..];
    }
    out
}

/// The entities the browser writes in `innerHTML`, and numeric ones.
fn entity(s: &str) -> Option<(char, usize)> {
    let end = s.char_indices().take(12).find(|(_, c)| *c == ';')?.0;
    let name = &s[1..end];
    let c = if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        char::from_u32(code)?
    } else {
        match name {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            "nbsp" => '\u{a0}',
            _ => return None,
        }
    };
    Some((c, end + 1))
}

/// A line as Markdown: with no escapes when it reads back the same, else with its
/// markup characters escaped.
fn write_line(line: &Line) -> String {
    let bare = line_md(line, false);
    if shown(&bare)
        .first()
        .map_or(line.is_empty() && line.list.is_none(), |l| l == line)
    {
        return bare;
    }
    line_md(line, true)
}

fn line_md(line: &Line, escape: bool) -> String {
    let mut out = String::new();
    out.push_str(&"  ".repeat(usize::from(line.depth)));
    match line.list {
        Some(None) => out.push_str("- "),
        Some(Some(n)) => out.push_str(&format!("{n}. ")),
        None => {}
    }
    let body_at = out.len();
    // The marks open, outermost first.
    let mut open: Vec<(Marks, &str)> = Vec::new();
    let mut link: Option<&Rc<str>> = None;
    let close_all = |out: &mut String, open: &mut Vec<(Marks, &str)>| {
        while let Some((_, m)) = open.pop() {
            out.push_str(m);
        }
    };
    for (text, marks, l) in &line.runs {
        if l.as_ref() != link {
            close_all(&mut out, &mut open);
            if let Some(href) = link {
                out.push_str(&format!("]({href})"));
            }
            if l.is_some() {
                out.push('[');
            }
            link = l.as_ref();
        }
        // Close what this run does not have (and all inside it), then open the rest.
        if let Some(i) = open.iter().position(|(m, _)| !marks.has(*m)) {
            while open.len() > i {
                let (_, m) = open.pop().unwrap_or((Marks::NONE, ""));
                out.push_str(m);
            }
        }
        if open.iter().any(|(m, _)| *m == Marks::CODE) && !marks.has(Marks::CODE) {
            close_all(&mut out, &mut open);
        }
        for (m, md) in [
            (Marks::BOLD, "**"),
            (Marks::ITALIC, "*"),
            (Marks::STRIKE, "~~"),
            (Marks::CODE, "`"),
        ] {
            if marks.has(m) && !open.iter().any(|(o, _)| *o == m) {
                out.push_str(md);
                open.push((m, md));
            }
        }
        let code = marks.has(Marks::CODE);
        for c in text.chars() {
            if escape && !code && matches!(c, '*' | '_' | '~' | '`' | '[' | ']' | '\\') {
                out.push('\\');
            }
            out.push(c);
        }
    }
    close_all(&mut out, &mut open);
    if let Some(href) = link {
        out.push_str(&format!("]({href})"));
    }
    if escape && line.list.is_none() {
        // A plain line that starts like a list item keeps its marker literal.
        let body = &out[body_at..];
        let lead = body.len() - body.trim_start_matches(' ').len();
        let rest = &body[lead..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let marker = rest[digits..].chars().next();
        let item = (digits > 0 && matches!(marker, Some('.' | ')')))
            || (digits == 0 && matches!(marker, Some('-' | '+' | '•')));
        if item && shown(&out).first().is_some_and(|l| l.list.is_some()) {
            out.insert(body_at + lead + digits, '\\');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn back(source: &str) -> String {
        from_html(&to_html(source), "")
    }

    #[test]
    fn plain_text_comes_back_byte_for_byte() {
        for t in [
            "snake_case",
            "2 * 3",
            "a  b\n\nc",
            "# of users",
            "> 5 ms <b>",
            "",
        ] {
            assert_eq!(back(t), t, "{t:?}");
        }
    }

    #[test]
    fn marks_links_and_lists_come_back() {
        for t in [
            "**Plan** now",
            "*Idea* later",
            "~~x~~ and `c`",
            "See [the docs](https://example.com/docs)",
            "- one\n- two\nafter",
            "1. first\n2. second\n3. third",
            "- a\n  - b\n- c",
        ] {
            assert_eq!(back(t), t, "{t:?}");
        }
        assert_eq!(
            to_html("**a** `c`\n- x"),
            "<div><b>a</b> <code>c</code></div><ul><li>x</li></ul>"
        );
    }

    #[test]
    fn the_source_is_kept_when_nothing_changed() {
        for t in ["a \\* b", "__bold__", "1) one", "_it_"] {
            assert_eq!(from_html(&to_html(t), t), t, "{t:?}");
        }
        // A line edited is written anew; the others keep their source.
        let before = "plain\\*\n__b__ x";
        let html = to_html(before).replace(" x", " y");
        assert_eq!(from_html(&html, before), "plain\\*\n**b** y");
    }

    #[test]
    fn the_browsers_html_reads_as_markdown() {
        let md = |h: &str| from_html(h, "");
        assert_eq!(
            md("one<div>two</div><div><br></div><div>three</div>"),
            "one\ntwo\n\nthree"
        );
        assert_eq!(md("<div>a<br></div><div>b</div>"), "a\nb");
        assert_eq!(md("a<br>b"), "a\nb");
        assert_eq!(md("<div><b>Plan</b>&nbsp;now</div>"), "**Plan** now");
        assert_eq!(md("<b>Plan </b>now"), "**Plan** now");
        assert_eq!(
            md("<ul><li>one</li><li>two</li></ul><div>after</div>"),
            "- one\n- two\nafter"
        );
        assert_eq!(md("<ol><li>a</li><li>b</li></ol>"), "1. a\n2. b");
        assert_eq!(md("<ul><li>a</li><ul><li>b</li></ul></ul>"), "- a\n  - b");
        assert_eq!(md("<b>x<i>y</i></b>z"), "**x*y***z");
        assert_eq!(md("<span style=\"font-weight: 700;\">w</span>"), "**w**");
        assert_eq!(md("2 * 3 and *not*"), "2 \\* 3 and \\*not\\*");
        assert_eq!(md("- not a list"), "\\- not a list");
        assert_eq!(md("<a href=\"javascript:x\">t</a>"), "t");
        assert_eq!(md("a<code>x*y</code>"), "a`x*y`");
    }
}
