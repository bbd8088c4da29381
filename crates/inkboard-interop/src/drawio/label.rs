//! Labels: draw.io's HTML labels (`html=1`) turned into the plain text the model
//! holds, with line breaks where the browser would break (`<br>`, block elements)
//! and entities decoded; and, for shapes, into rich text: bold, italic, struck and
//! code runs, links and list items as inkboard's Markdown subset. Other formatting
//! (colours, fonts, underline) cannot be kept; the caller is told when there was
//! some, so it can be reported. Shapes' rich text is written back as HTML
//! ([`rich_html`]).

use crate::detect::floor;
use inkboard_core::rich::html::{push_escaped, TAGS};

/// Where the tag starting at `rest` (at a `<`) ends, if it is one: its `>`. Once
/// no `>` is left, none will be in what follows either, and `closed` says so: a
/// label of a million `<` without one is then read in one pass, not searched
/// to its end from each of them (99 s before).
fn tag_end(rest: &str, closed: &mut bool) -> Option<usize> {
    if !*closed {
        return None;
    }
    let end = rest.find('>');
    *closed = end.is_some();
    end
}

/// Plain text from an HTML label, and whether the label had formatting.
pub(crate) fn html_to_text(html: &str) -> (String, bool) {
    let mut out = String::with_capacity(html.len());
    let mut formatted = false;
    let mut rest = html;
    let mut closed = true;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            if let Some(end) = tag_end(rest, &mut closed) {
                let tag = &rest[1..end];
                rest = &rest[end + 1..];
                formatted |= on_tag(tag, &mut out);
                continue;
            }
        }
        if c == '&' {
            if let Some((decoded, used)) = entity(rest) {
                out.push(decoded);
                rest = &rest[used..];
                continue;
            }
        }
        if c.is_whitespace() {
            if !out.is_empty() && !out.ends_with([' ', '\n']) {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    (lines.join("\n").trim_matches('\n').to_string(), formatted)
}

/// Applies a tag; true when it formats text.
fn on_tag(tag: &str, out: &mut String) -> bool {
    let tag = tag.trim();
    let closing = tag.starts_with('/');
    let name: String = tag
        .trim_start_matches('/')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    match name.as_str() {
        "br" => {
            trim_spaces(out);
            out.push('\n');
            false
        }
        "div" | "p" | "li" | "tr" | "ul" | "ol" | "table" | "h1" | "h2" | "h3" | "h4" | "h5"
        | "h6" | "blockquote" | "pre" | "hr" => {
            trim_spaces(out);
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            false
        }
        "b" | "strong" | "i" | "em" | "u" | "font" | "strike" | "s" | "sub" | "sup" | "code"
        | "mark" | "small" | "big" => !closing,
        "span" => !closing && tag.contains("style"),
        _ => false,
    }
}

fn trim_spaces(out: &mut String) {
    while out.ends_with(' ') {
        out.pop();
    }
}

/// Decodes the entity at the start of `s`: (its character, bytes used). A
/// no-break space becomes a space, as the browser shows it.
fn entity(s: &str) -> Option<(char, usize)> {
    let end = s[..floor(s, 12)].find(';')?;
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
            "nbsp" => ' ',
            "hellip" => '…',
            "ndash" => '–',
            "mdash" => '—',
            "lsquo" => '‘',
            "rsquo" => '’',
            "ldquo" => '“',
            "rdquo" => '”',
            "laquo" => '«',
            "raquo" => '»',
            "copy" => '©',
            "reg" => '®',
            "trade" => '™',
            "deg" => '°',
            "middot" => '·',
            "bull" => '•',
            "times" => '×',
            "divide" => '÷',
            "euro" => '€',
            "larr" => '←',
            "rarr" => '→',
            "uarr" => '↑',
            "darr" => '↓',
            _ => return None,
        }
    };
    let c = if c == '\u{a0}' { ' ' } else { c };
    Some((c, end + 1))
}

/// Rich text as the HTML of a draw.io label (`html=1`): bold, italic, struck, code and
/// links as their tags, list items with their marker as text, lines joined by `<br>`.
/// `None` for text with no marks, links or lists, which is written plain.
pub(crate) fn rich_html(source: &str) -> Option<String> {
    use inkboard_core::rich::{parse, safe_url};
    let rich = parse(source)?;
    let formatted = rich.paragraphs.iter().any(|p| {
        p.list.is_some()
            || p.spans
                .iter()
                .any(|s| !s.marks.is_empty() || s.link.is_some())
    });
    if !formatted {
        return None;
    }
    let mut out = String::new();
    // Bullet items as HTML lists (draw.io draws their bullets); numbered ones with
    // their number as written.
    let mut in_list = false;
    for (i, p) in rich.paragraphs.iter().enumerate() {
        let bullet = p.list == Some(inkboard_core::rich::ListItem::Bullet);
        match (bullet, in_list) {
            (true, false) => out.push_str("<ul>"),
            (false, true) => out.push_str("</ul>"),
            (false, false) if i > 0 => out.push_str("<br>"),
            _ => {}
        }
        in_list = bullet;
        if bullet {
            out.push_str("<li>");
        } else if let Some(m) = p.marker() {
            out.push_str(&"&nbsp;&nbsp;".repeat(usize::from(p.depth)));
            push_escaped(&mut out, m);
            out.push(' ');
        }
        for span in &p.spans {
            let href = span.link.and_then(|l| safe_url(&rich.links[l]));
            if let Some(h) = &href {
                out.push_str("<a href=\"");
                push_escaped(&mut out, h);
                out.push_str("\">");
            }
            let on: Vec<&str> = TAGS
                .iter()
                .filter(|(m, _)| span.marks.has(*m))
                .map(|(_, t)| *t)
                .collect();
            on.iter().for_each(|t| out.push_str(&format!("<{t}>")));
            push_escaped(&mut out, &p.text[span.range.clone()]);
            on.iter()
                .rev()
                .for_each(|t| out.push_str(&format!("</{t}>")));
            if href.is_some() {
                out.push_str("</a>");
            }
        }
        if bullet {
            out.push_str("</li>");
        }
    }
    if in_list {
        out.push_str("</ul>");
    }
    Some(out)
}

/// An HTML label as rich text (Markdown source), when it has formatting rich text can
/// hold: `(source, complete)`, `complete` false when it also had formatting that is
/// lost (colours, fonts, underline). `None` for a label without such formatting, or
/// whose tags nest so that the Markdown would not read back as the same text.
pub(crate) fn html_to_rich(html: &str) -> Option<(String, bool)> {
    let mut w = RichWriter {
        complete: true,
        ..RichWriter::default()
    };
    let mut rest = html;
    let mut closed = true;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            if let Some(end) = tag_end(rest, &mut closed) {
                w.tag(&rest[1..end]);
                rest = &rest[end + 1..];
                continue;
            }
        }
        let (c, used) = match c {
            '&' => entity(rest).unwrap_or(('&', 1)),
            c => (c, c.len_utf8()),
        };
        w.char(c);
        rest = &rest[used..];
    }
    if !w.marked {
        return None;
    }
    let lines: Vec<&str> = w.md.lines().map(str::trim).collect();
    let md = lines.join("\n").trim_matches('\n').to_string();
    // The source must show exactly the label's text and lines (list bullets and
    // spaces aside).
    let shown = |t: &str| -> String {
        t.chars()
            .filter(|c| *c == '\n' || (!c.is_whitespace() && !"•◦▪".contains(*c)))
            .collect()
    };
    (shown(&inkboard_core::rich::plain(&md)) == shown(&html_to_text(html).0))
        .then_some((md, w.complete))
}

/// Writes rich text while [`html_to_rich`] walks the HTML.
#[derive(Default)]
struct RichWriter {
    md: String,
    /// Opening marks not written yet: they are written before the next visible
    /// character, so that a mark never opens before a space ("** x"). A closing
    /// tag takes back the latest pending opening of its mark, found through
    /// `pending_at` and left as `None`, so that a run of tags costs its length
    /// (a search from the end for each closing tag made thousands of openings
    /// and closings of different marks cost their count squared).
    pending: Vec<Option<&'static str>>,
    /// Where in `pending` each mark's pending openings are, latest last.
    pending_at: Vec<(&'static str, Vec<usize>)>,
    /// The targets of the open `<a>` tags (`None`: not a link kept).
    links: Vec<Option<String>>,
    marked: bool,
    complete: bool,
}

impl RichWriter {
    fn tag(&mut self, tag: &str) {
        let tag = tag.trim();
        let closing = tag.starts_with('/');
        let name = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        let mark = match name.as_str() {
            "b" | "strong" => "**",
            "i" | "em" => "*",
            "s" | "strike" | "del" => "~~",
            "code" => "`",
            "br" => {
                while self.md.ends_with(' ') {
                    self.md.pop();
                }
                self.md.push('\n');
                return;
            }
            "li" => {
                self.line();
                if !closing {
                    self.md.push_str("- ");
                    self.marked = true;
                }
                return;
            }
            "div" | "p" | "tr" | "ul" | "ol" | "table" | "h1" | "h2" | "h3" | "h4" | "h5"
            | "h6" | "blockquote" | "pre" | "hr" => {
                self.line();
                return;
            }
            "a" => {
                if closing {
                    if let Some(Some(href)) = self.links.pop() {
                        self.close("[", &format!("]({href})"));
                    }
                } else {
                    let href =
                        attribute(tag, "href").and_then(|h| inkboard_core::rich::safe_url(&h));
                    if href.is_some() {
                        self.open("[");
                        self.marked = true;
                    }
                    self.links.push(href);
                }
                return;
            }
            "u" | "font" | "sub" | "sup" | "mark" | "small" | "big" => {
                self.complete &= closing;
                return;
            }
            "span" => {
                self.complete &= closing || !tag.contains("style");
                return;
            }
            _ => return,
        };
        self.marked = true;
        if closing {
            self.close(mark, mark);
        } else {
            self.open(mark);
        }
    }

    /// The pending openings of `mark`, latest last.
    fn pending_of(&mut self, mark: &'static str) -> &mut Vec<usize> {
        let i = match self.pending_at.iter().position(|(m, _)| *m == mark) {
            Some(i) => i,
            None => {
                self.pending_at.push((mark, Vec::new()));
                self.pending_at.len() - 1
            }
        };
        &mut self.pending_at[i].1
    }

    /// Opens `mark` before the next visible character.
    fn open(&mut self, mark: &'static str) {
        let at = self.pending.len();
        self.pending.push(Some(mark));
        self.pending_of(mark).push(at);
    }

    /// Closes `open` with `text`: dropped with its opening when nothing was written
    /// between them, else written before any trailing spaces.
    fn close(&mut self, open: &'static str, text: &str) {
        if let Some(i) = self.pending_of(open).pop() {
            self.pending[i] = None;
            return;
        }
        let spaces = self.md.len() - self.md.trim_end_matches(' ').len();
        self.md.truncate(self.md.len() - spaces);
        self.md.push_str(text);
        self.md.push_str(&" ".repeat(spaces));
    }

    /// Ends the line: at the start of one, nothing to do.
    fn line(&mut self) {
        while self.md.ends_with(' ') {
            self.md.pop();
        }
        if !self.md.is_empty() && !self.md.ends_with('\n') {
            self.md.push('\n');
        }
    }

    fn char(&mut self, c: char) {
        if c.is_whitespace() {
            if !self.md.is_empty() && !self.md.ends_with([' ', '\n']) {
                self.md.push(' ');
            }
            return;
        }
        for p in self.pending.drain(..).flatten() {
            self.md.push_str(p);
        }
        self.pending_at.iter_mut().for_each(|(_, at)| at.clear());
        if matches!(c, '*' | '_' | '~' | '`' | '[' | ']' | '\\') {
            self.md.push('\\');
        }
        self.md.push(c);
    }
}

/// The value of attribute `name` in a tag's text (quoted with `"` or `'`).
fn attribute(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let at = lower.find(&format!("{name}="))? + name.len() + 1;
    let rest = &tag[at..];
    let quote = rest.chars().next().filter(|q| *q == '"' || *q == '\'')?;
    let end = rest[1..].find(quote)?;
    Some(rest[1..1 + end].replace("&amp;", "&"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_labels_become_plain_text_with_breaks() {
        assert_eq!(html_to_text("a<br>b").0, "a\nb");
        assert_eq!(html_to_text("a<div>b</div><div>c</div>").0, "a\nb\nc");
        assert_eq!(html_to_text("<div>x&amp;y &lt;z&gt;</div>").0, "x&y <z>");
        assert_eq!(html_to_text("one&nbsp;two &#39;q&#x27;").0, "one two 'q'");
        assert_eq!(html_to_text("  lots   of\n space ").0, "lots of space");
        assert_eq!(
            html_to_text("<b>bold</b> text"),
            ("bold text".to_string(), true)
        );
        assert_eq!(
            html_to_text("<span>plain</span>"),
            ("plain".to_string(), false)
        );
        assert_eq!(html_to_text("a < b").0, "a < b");
        assert_eq!(html_to_text("&bogus; &#xZZ;").0, "&bogus; &#xZZ;");
    }

    #[test]
    fn rich_text_is_written_as_html() {
        assert_eq!(rich_html("plain 2\\*3"), None);
        assert_eq!(
            rich_html("**a** & *b* `c` [d](https://x.io) [e](javascript:f)\n- g").as_deref(),
            Some("<b>a</b> &amp; <i>b</i> <code>c</code> <a href=\"https://x.io\">d</a> e<ul><li>g</li></ul>")
        );
    }

    #[test]
    fn formatted_html_reads_as_rich_text() {
        let rich = |h: &str| html_to_rich(h);
        assert_eq!(rich("plain <br>text"), None);
        assert_eq!(
            rich("<b>bold </b>and <i>it</i> <s>x</s> <code>c</code> 2*3"),
            Some(("**bold** and *it* ~~x~~ `c` 2\\*3".into(), true))
        );
        assert_eq!(
            rich("<ul><li>one</li><li><a href=\"https://x.io\">two</a></li></ul>"),
            Some(("- one\n- [two](https://x.io)".into(), true))
        );
        assert_eq!(
            rich("<b>a</b> <font color=\"red\">b</font>"),
            Some(("**a** b".into(), false))
        );
        assert_eq!(rich("<a href=\"javascript:x\">t</a>"), None);
        // Written by `rich_html`, read back the same.
        let source = "**a** & *b* `c` [d](https://x.io)\n- g";
        let html = rich_html(source).unwrap();
        assert_eq!(
            rich(&html).map(|r| r.0).as_deref(),
            Some("**a** & *b* `c` [d](https://x.io)\n- g")
        );
    }
}
