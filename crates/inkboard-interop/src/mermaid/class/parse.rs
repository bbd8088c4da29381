//! The class reader proper: a statement a line, told apart by its first word
//! (`class`, `namespace`, `note`, `direction`, a `<<annotation>>`, a style or
//! interaction keyword) or else by what follows the first class name: a `:`
//! (a member), or a relation. A class's member block runs to its `}` line by
//! line, as a namespace's does. Class names are resolved as they are met.

use std::collections::HashMap;

use super::{
    generics, head, Class, ClassDiagram, Namespace, Relation, Sticky, MAX_CLASSES, MAX_RELATIONS,
};
use crate::mermaid::label::{clean_label, rich_label};
use crate::mermaid::lines::Lines;
use crate::mermaid::{Direction, MermaidError, Note, NoteKind};

type Result<T> = std::result::Result<T, MermaidError>;

/// What a statement may be, for messages.
const STATEMENT: &str = "a relation like 'Animal <|-- Duck', a member like 'Duck : +swim()', or a statement (class, namespace, note, direction)";

/// True when the first statement of `text` (past blank lines, comments,
/// directives and front matter) is `classDiagram` (or `classDiagram-v2`).
pub(crate) fn is_class(text: &str) -> bool {
    let word = crate::mermaid::first_word(text);
    word.eq_ignore_ascii_case("classDiagram") || word.eq_ignore_ascii_case("classDiagram-v2")
}

/// Parses a Mermaid class diagram.
pub fn parse(text: &str) -> Result<ClassDiagram> {
    crate::mermaid::check_size(text)?;
    let mut p = Parser {
        src: text,
        lines: Lines::new(text),
        d: ClassDiagram {
            direction: Direction::Down,
            classes: Vec::new(),
            relations: Vec::new(),
            namespaces: Vec::new(),
            stickies: Vec::new(),
            notes: Vec::new(),
        },
        index: HashMap::new(),
        open: Vec::new(),
        block: None,
    };
    p.read()?;
    if let Some((class, line)) = p.block {
        let (at, column) = p.lines.line_col(text, text.trim_end().len());
        return Err(MermaidError::Syntax {
            line: at,
            column,
            expected: format!(
                "'}}' to close the members of '{}' opened on line {line}",
                p.d.classes[class].id
            ),
            found: "the end of the text".into(),
        });
    }
    if let Some(&(ns, opened)) = p.open.last() {
        let (line, column) = p.lines.line_col(text, text.trim_end().len());
        return Err(MermaidError::Syntax {
            line,
            column,
            expected: format!(
                "'}}' to close namespace '{}' opened on line {opened}",
                p.d.namespaces[ns].name
            ),
            found: "the end of the text".into(),
        });
    }
    Ok(p.d)
}

struct Parser<'a> {
    src: &'a str,
    lines: Lines,
    d: ClassDiagram,
    index: HashMap<String, usize>,
    /// The namespaces open, innermost last, with the line each opened on.
    open: Vec<(usize, usize)>,
    /// The class whose member block is open, and the line it opened on.
    block: Option<(usize, usize)>,
}

impl<'a> Parser<'a> {
    fn syntax(&self, at: usize, expected: &str, found: &str) -> MermaidError {
        let (line, column) = self.lines.line_col(self.src, at);
        MermaidError::Syntax {
            line,
            column,
            expected: expected.to_string(),
            found: found.to_string(),
        }
    }

    fn note(&mut self, kind: NoteKind, line: usize, message: &str) {
        self.d.notes.push(Note {
            kind,
            line,
            message: message.to_string(),
        });
    }

    /// Byte offset of `part`, a slice of the text.
    fn at(&self, part: &str) -> usize {
        part.as_ptr() as usize - self.src.as_ptr() as usize
    }

    fn read(&mut self) -> Result<()> {
        let src = self.src;
        let mut lines = src.lines().enumerate().peekable();
        // The preamble: front matter, directives, comments, then the header.
        let mut header = false;
        let mut first = true;
        while let Some((i, raw)) = lines.next() {
            let n = i + 1;
            let line = raw.trim();
            if line.is_empty() || (line.starts_with("%%") && !line.starts_with("%%{")) {
                continue;
            }
            if line.starts_with("%%{") {
                self.note(NoteKind::Directive, n, "directive left out");
                let mut end = line.contains("}%%");
                while !end {
                    match lines.next() {
                        Some((_, l)) => end = l.contains("}%%"),
                        None => end = true,
                    }
                }
                continue;
            }
            if first && line.starts_with("---") {
                first = false;
                self.note(NoteKind::FrontMatter, n, "front matter left out");
                for (_, l) in lines.by_ref() {
                    if l.trim() == "---" {
                        break;
                    }
                }
                continue;
            }
            let word: String = line
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if !(word.eq_ignore_ascii_case("classDiagram")
                || word.eq_ignore_ascii_case("classDiagram-v2"))
            {
                let (line, column) = self.lines.line_col(src, self.at(line));
                return Err(MermaidError::Unsupported {
                    line,
                    column,
                    found: word,
                });
            }
            header = true;
            break;
        }
        if !header {
            return Err(MermaidError::Empty);
        }
        for (i, raw) in lines {
            let line = raw.trim().trim_end_matches(';').trim_end();
            if line.is_empty() || line.starts_with("%%") {
                continue;
            }
            self.statement(line, i + 1)?;
        }
        Ok(())
    }

    fn statement(&mut self, line: &'a str, n: usize) -> Result<()> {
        if let Some((class, _)) = self.block {
            return self.member_line(class, line, n);
        }
        if line == "}" {
            if self.open.pop().is_none() {
                return Err(self.syntax(self.at(line), STATEMENT, "'}'"));
            }
            return Ok(());
        }
        let word: String = line
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        let rest = line[word.len()..].trim_start();
        let lower = word.to_ascii_lowercase();
        // A keyword is one only when a space (or the end) follows it: `classA
        // <|-- classB` names a class.
        let keyword = line.len() == word.len() || line[word.len()..].starts_with([' ', '\t']);
        let skipped = match lower.as_str() {
            _ if !keyword => None,
            "classdef" | "style" | "cssclass" => Some((NoteKind::Style, "styles left out")),
            "click" | "link" | "callback" => {
                Some((NoteKind::Click, "click, link and callback left out"))
            }
            "title" => Some((NoteKind::Statement, "title left out")),
            "acctitle" => Some((NoteKind::AccTitle, "accTitle left out")),
            "accdescr" => Some((NoteKind::AccDescr, "accDescr left out")),
            _ => None,
        };
        if let Some((kind, message)) = skipped {
            self.note(kind, n, message);
            return Ok(());
        }
        if keyword && lower == "direction" {
            self.d.direction = Direction::from_word(rest).ok_or_else(|| {
                self.syntax(
                    self.at(rest),
                    "a direction (TB, BT, LR or RL)",
                    &found(rest),
                )
            })?;
            return Ok(());
        }
        if keyword && lower == "namespace" {
            let name = rest.trim_end_matches('{').trim();
            if name.is_empty() || !rest.ends_with('{') {
                return Err(self.syntax(self.at(rest), "'namespace Name {'", &found(rest)));
            }
            let i = self.d.namespaces.len();
            self.d.namespaces.push(Namespace {
                name: clean_label(name.trim_matches('"').trim_matches('`')),
                parent: self.open.last().map(|&(ns, _)| ns),
                line: n,
            });
            self.open.push((i, n));
            return Ok(());
        }
        if keyword && lower == "note" {
            return self.sticky(rest, n);
        }
        if keyword && lower == "class" && !rest.is_empty() {
            return self.class_statement(rest, n);
        }
        if let Some(after) = line.strip_prefix("<<") {
            let Some(end) = after.find(">>") else {
                return Err(self.syntax(
                    self.at(after),
                    "'>>' to close the annotation",
                    &found(after),
                ));
            };
            let name_part = after[end + 2..].trim();
            let (name, _, len) = name_at(name_part).ok_or_else(|| {
                self.syntax(self.at(name_part), "a class name", &found(name_part))
            })?;
            if !name_part[len..].trim().is_empty() {
                return Err(self.syntax(
                    self.at(&name_part[len..]),
                    "the end of the line",
                    &found(&name_part[len..]),
                ));
            }
            let c = self.class(&name, None, n, self.at(line))?;
            self.d.classes[c].annotation = Some(after[..end].trim().to_string());
            return Ok(());
        }
        // A class name, then a member or a relation.
        let (name, generic, len) =
            name_at(line).ok_or_else(|| self.syntax(self.at(line), STATEMENT, &found(line)))?;
        let after = line[len..].trim_start();
        if let Some(member) = after.strip_prefix(':') {
            let c = self.class(&name, generic.as_deref(), n, self.at(line))?;
            self.member(c, member.trim());
            return Ok(());
        }
        if after.is_empty() {
            self.class(&name, generic.as_deref(), n, self.at(line))?;
            return Ok(());
        }
        let from = self.class(&name, generic.as_deref(), n, self.at(line))?;
        self.relation(from, after, n)
    }

    /// `class Name["label"]~T~ <<annotation>> {` and the forms between.
    fn class_statement(&mut self, rest: &'a str, n: usize) -> Result<()> {
        let (name, generic, len) = name_at(rest)
            .ok_or_else(|| self.syntax(self.at(rest), "a class name", &found(rest)))?;
        let c = self.class(&name, generic.as_deref(), n, self.at(rest))?;
        let mut tail = rest[len..].trim_start();
        if let Some(body) = tail.strip_prefix('[') {
            let Some(end) = body.find(']') else {
                return Err(self.syntax(self.at(tail), "']' to close the label", &found(tail)));
            };
            self.d.classes[c].label = clean_label(body[..end].trim().trim_matches('"'));
            tail = body[end + 1..].trim_start();
        }
        if let Some(css) = tail.strip_prefix(":::") {
            self.note(NoteKind::Style, n, "styles left out");
            let end = css
                .find(|ch: char| ch.is_whitespace() || ch == '{' || ch == '<')
                .unwrap_or(css.len());
            tail = css[end..].trim_start();
        }
        if let Some(a) = tail.strip_prefix("<<") {
            let Some(end) = a.find(">>") else {
                return Err(self.syntax(
                    self.at(tail),
                    "'>>' to close the annotation",
                    &found(tail),
                ));
            };
            self.d.classes[c].annotation = Some(a[..end].trim().to_string());
            tail = a[end + 2..].trim_start();
        }
        if tail.is_empty() {
            return Ok(());
        }
        let Some(body) = tail.strip_prefix('{') else {
            return Err(self.syntax(self.at(tail), "'{' and the class's members", &found(tail)));
        };
        let body = body.trim();
        // `{ }` on one line, or `{` with members to come.
        match body.strip_suffix('}') {
            Some(inner) => {
                for m in inner.split(';').map(str::trim).filter(|m| !m.is_empty()) {
                    self.member_line(c, m, n)?;
                }
            }
            None => {
                self.block = Some((c, n));
                if !body.is_empty() {
                    self.member_line(c, body, n)?;
                }
            }
        }
        Ok(())
    }

    /// A line of an open member block: a member, an annotation or the `}`.
    fn member_line(&mut self, c: usize, line: &str, _n: usize) -> Result<()> {
        if line == "}" {
            self.block = None;
            return Ok(());
        }
        let (line, closes) = match line.strip_suffix('}') {
            Some(l) => (l.trim_end(), true),
            None => (line, false),
        };
        if let Some(a) = line.strip_prefix("<<").and_then(|a| a.strip_suffix(">>")) {
            self.d.classes[c].annotation = Some(a.trim().to_string());
        } else if !line.is_empty() {
            self.member(c, line);
        }
        if closes {
            self.block = None;
        }
        Ok(())
    }

    fn member(&mut self, c: usize, text: &str) {
        let text = generics(text.trim());
        if text.is_empty() {
            return;
        }
        let class = &mut self.d.classes[c];
        if text.contains('(') {
            class.methods.push(text);
        } else {
            class.attributes.push(text);
        }
    }

    /// `note "text"` or `note for Class "text"`.
    fn sticky(&mut self, rest: &'a str, n: usize) -> Result<()> {
        let (class, text) = match rest.strip_prefix("for ") {
            Some(after) => {
                let after = after.trim_start();
                let (name, generic, len) = name_at(after)
                    .ok_or_else(|| self.syntax(self.at(after), "a class name", &found(after)))?;
                let c = self.class(&name, generic.as_deref(), n, self.at(after))?;
                (Some(c), after[len..].trim())
            }
            None => (None, rest),
        };
        let Some(body) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) else {
            return Err(self.syntax(self.at(text), "the note's text in quotes", &found(text)));
        };
        self.d.stickies.push(Sticky {
            text: rich_label(&body.replace("\\n", "<br>")),
            class,
            line: n,
        });
        Ok(())
    }

    /// The class called `name`, made if it is new.
    fn class(&mut self, name: &str, generic: Option<&str>, n: usize, at: usize) -> Result<usize> {
        let label = |name: &str| match generic {
            Some(g) => format!("{name}<{}>", generics(g)),
            None => name.to_string(),
        };
        if let Some(&i) = self.index.get(name) {
            if generic.is_some() {
                self.d.classes[i].label = label(name);
            }
            return Ok(i);
        }
        if self.d.classes.len() == MAX_CLASSES {
            let (line, column) = self.lines.line_col(self.src, at);
            return Err(MermaidError::TooBig {
                line,
                column,
                what: "classes",
                limit: MAX_CLASSES,
            });
        }
        let i = self.d.classes.len();
        self.d.classes.push(Class {
            id: name.to_string(),
            label: label(name),
            annotation: None,
            attributes: Vec::new(),
            methods: Vec::new(),
            namespace: self.open.last().map(|&(ns, _)| ns),
            line: n,
        });
        self.index.insert(name.to_string(), i);
        Ok(i)
    }

    /// A relation from class `from`: `rest` is what follows its name.
    fn relation(&mut self, from: usize, rest: &'a str, n: usize) -> Result<()> {
        let (from_card, rest) = quoted(rest);
        let (symbol, after) = split_symbol(rest).ok_or_else(|| {
            self.syntax(
                self.at(rest),
                "a relation (<|--, *--, o--, -->, --, ..>, ..|>, ..) or ':' and a member",
                &found(rest),
            )
        })?;
        let (to_card, after) = quoted(after);
        let (name, generic, len) = name_at(after)
            .ok_or_else(|| self.syntax(self.at(after), "a class name", &found(after)))?;
        let tail = after[len..].trim();
        let label = match tail.strip_prefix(':') {
            Some(l) => clean_label(l.trim().trim_matches('"')),
            None if tail.is_empty() => String::new(),
            None => {
                return Err(self.syntax(
                    self.at(tail),
                    "':' and the relation's label",
                    &found(tail),
                ))
            }
        };
        let to = self.class(&name, generic.as_deref(), n, self.at(after))?;
        if self.d.relations.len() == MAX_RELATIONS {
            let (line, column) = self.lines.line_col(self.src, self.at(rest));
            return Err(MermaidError::TooBig {
                line,
                column,
                what: "relations",
                limit: MAX_RELATIONS,
            });
        }
        if symbol.0 == "()" || symbol.2 == "()" {
            self.note(
                NoteKind::Link,
                n,
                "lollipop interface drawn as a circle end",
            );
        }
        self.d.relations.push(Relation {
            from,
            to,
            from_end: head(symbol.0).unwrap_or(inkboard_core::Arrow::None),
            to_end: head(symbol.2).unwrap_or(inkboard_core::Arrow::None),
            dashed: symbol.1,
            from_cardinality: from_card,
            to_cardinality: to_card,
            label,
            line: n,
        });
        Ok(())
    }
}

/// A class name at the start of `s`: in backticks, or Mermaid's name
/// characters (letters and digits of any script, `_`, and `-` inside a name);
/// then a generic part `~T~`, if any. Returns the name, the generic's inside and
/// the length of both in bytes.
fn name_at(s: &str) -> Option<(String, Option<String>, usize)> {
    if let Some(body) = s.strip_prefix('`') {
        let end = body.find('`')?;
        let name = body[..end].trim();
        return (!name.is_empty()).then(|| (name.to_string(), None, end + 2));
    }
    let mut end = 0;
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let next = chars.get(k + 1).map(|&(_, c)| c);
        let ok = c.is_alphanumeric()
            || c == '_'
            || (c == '-' && next.is_some_and(|n| n.is_alphanumeric() || n == '_') && k > 0);
        if !ok {
            break;
        }
        end = i + c.len_utf8();
    }
    if end == 0 {
        return None;
    }
    let name = s[..end].to_string();
    // A generic part: `~...~` up to the last `~` of the word.
    if let Some(g) = s[end..].strip_prefix('~') {
        let stop = g.find(|c: char| c.is_whitespace() || c == '{' || c == '[' || c == ':');
        let word = &g[..stop.unwrap_or(g.len())];
        if let Some(close) = word.rfind('~') {
            let inner = word[..close].to_string();
            return Some((name, Some(inner), end + 1 + close + 1));
        }
    }
    Some((name, None, end))
}

/// A cardinality in quotes at the start of `s`, and what follows it.
fn quoted(s: &str) -> (String, &str) {
    let s = s.trim_start();
    if let Some(body) = s.strip_prefix('"') {
        if let Some(end) = body.find('"') {
            return (body[..end].trim().to_string(), body[end + 1..].trim_start());
        }
    }
    (String::new(), s)
}

/// The relation symbol at the start of `s` (left head, dashed, right head), and
/// what follows it.
fn split_symbol(s: &str) -> Option<((&'static str, bool, &'static str), &str)> {
    const LEFT: [&str; 5] = ["<|", "()", "*", "o", "<"];
    const RIGHT: [&str; 5] = ["|>", "()", "*", "o", ">"];
    let (left, s1) = LEFT
        .iter()
        .find_map(|&h| s.strip_prefix(h).map(|r| (h, r)))
        .filter(|(_, r)| r.starts_with("--") || r.starts_with(".."))
        .unwrap_or(("", s));
    let dashed = if s1.starts_with("..") {
        true
    } else if s1.starts_with("--") {
        false
    } else {
        return None;
    };
    let s2 = &s1[2..];
    let (right, s3) = RIGHT
        .iter()
        .find_map(|&h| s2.strip_prefix(h).map(|r| (h, r)))
        .filter(|(_, r)| r.is_empty() || r.starts_with([' ', '\t', '"']))
        .unwrap_or(("", s2));
    if !(s3.is_empty() || s3.starts_with([' ', '\t', '"'])) {
        return None;
    }
    Some(((left, dashed, right), s3.trim_start()))
}

/// What is at the start of `s`, for an error message.
fn found(s: &str) -> String {
    let s = s.trim();
    if s.is_empty() {
        return "the end of the line".into();
    }
    let word: String = s.chars().take(24).collect();
    format!("'{word}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_split_into_heads_and_line() {
        let s = |t: &str| split_symbol(t).map(|(s, r)| (s, r.to_string()));
        assert_eq!(s("<|-- B"), Some((("<|", false, ""), "B".into())));
        assert_eq!(s("..|> B"), Some((("", true, "|>"), "B".into())));
        assert_eq!(s("--o B"), Some((("", false, "o"), "B".into())));
        assert_eq!(s("o-- B"), Some((("o", false, ""), "B".into())));
        assert_eq!(s("<|--|> B"), Some((("<|", false, "|>"), "B".into())));
        assert_eq!(s("-- \"1\" B"), Some((("", false, ""), "\"1\" B".into())));
        assert_eq!(s("()-- B"), Some((("()", false, ""), "B".into())));
        assert_eq!(s("--() B"), Some((("", false, "()"), "B".into())));
        assert_eq!(s("-x B"), None);
    }

    #[test]
    fn names_take_their_generic_part() {
        assert_eq!(
            name_at("Square~Shape~{"),
            Some(("Square".into(), Some("Shape".into()), 13))
        );
        assert_eq!(name_at("A-B --> C"), Some(("A-B".into(), None, 3)));
        assert_eq!(name_at("A--> C"), Some(("A".into(), None, 1)));
        assert_eq!(
            name_at("`Animal Class!` x"),
            Some(("Animal Class!".into(), None, 15))
        );
    }
}
