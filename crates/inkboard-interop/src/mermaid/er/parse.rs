//! The ER reader proper: statements one per line, told apart by their shape
//! (an entity alone, an entity and a `{` block, or two entities and a
//! relationship between them), entity names resolved as they are met. An
//! attribute block is read as tokens up to its `}`, on one line or many, so
//! `p[Person] { string name }` reads as the block form does.

use std::collections::HashMap;

use super::{cardinality, Attribute, Entity, Er, Relationship, MAX_ENTITIES, MAX_RELATIONSHIPS};
use crate::mermaid::label::clean_label;
use crate::mermaid::lines::Lines;
use crate::mermaid::{Direction, MermaidError, Note, NoteKind};

type Result<T> = std::result::Result<T, MermaidError>;

/// What a relationship may be written as, for messages.
const RELATIONSHIP: &str =
    "a relationship like 'CUSTOMER ||--o{ ORDER : places', an entity, or an attribute block '{ ... }'";

/// True when the first statement of `text` (past blank lines, comments,
/// directives and front matter) is `erDiagram`.
pub(crate) fn is_er(text: &str) -> bool {
    let mut p = Parser::new(text);
    p.skip_preamble();
    p.word().eq_ignore_ascii_case("erDiagram")
}

/// Parses a Mermaid ER diagram.
pub fn parse(text: &str) -> Result<Er> {
    crate::mermaid::check_size(text)?;
    let mut p = Parser::new(text);
    p.skip_preamble();
    let header = p.word();
    if !header.eq_ignore_ascii_case("erDiagram") {
        let (line, column) = p.line_col(p.pos);
        return Err(MermaidError::Unsupported {
            line,
            column,
            found: header.to_string(),
        });
    }
    p.pos += header.len();
    p.rest_of_line();
    while p.next_statement() {
        p.statement()?;
    }
    Ok(p.er)
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    lines: Lines,
    er: Er,
    index: HashMap<String, usize>,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> Self {
        Parser {
            src,
            pos: 0,
            lines: Lines::new(src),
            er: Er {
                direction: Direction::Down,
                entities: Vec::new(),
                relationships: Vec::new(),
                notes: Vec::new(),
            },
            index: HashMap::new(),
        }
    }

    fn line_col(&self, pos: usize) -> (usize, usize) {
        self.lines.line_col(self.src, pos)
    }

    fn note(&mut self, kind: NoteKind, at: usize, message: &str) {
        let line = self.lines.line(at);
        self.er.notes.push(Note {
            kind,
            line,
            message: message.to_string(),
        });
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    /// The word (letters and digits) at the cursor.
    fn word(&self) -> &'a str {
        let rest = self.rest();
        let end = rest
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        &rest[..end]
    }

    /// The rest of the current line, the cursor moved past its end.
    fn rest_of_line(&mut self) -> &'a str {
        let rest = self.rest();
        let end = rest.find('\n').unwrap_or(rest.len());
        self.pos += (end + 1).min(rest.len());
        &rest[..end]
    }

    /// Past blank lines, comments, directives and front matter (each noted).
    fn skip_preamble(&mut self) {
        let mut first = true;
        loop {
            self.skip_blank();
            let rest = self.rest();
            if first && rest.starts_with("---") {
                let at = self.pos;
                self.rest_of_line();
                while self.pos < self.src.len() && self.rest_of_line().trim() != "---" {}
                self.note(NoteKind::FrontMatter, at, "front matter left out");
            } else if !self.comment() {
                return;
            }
            first = false;
        }
    }

    /// Past a `%%` comment or a `%%{ }%%` directive (noted) at the cursor.
    fn comment(&mut self) -> bool {
        let rest = self.rest();
        if rest.starts_with("%%{") {
            let at = self.pos;
            let end = rest.find("}%%").map_or(rest.len(), |e| e + 3);
            self.pos += end;
            self.note(NoteKind::Directive, at, "directive left out");
            true
        } else if rest.starts_with("%%") {
            self.rest_of_line();
            true
        } else {
            false
        }
    }

    fn skip_blank(&mut self) {
        let rest = self.rest();
        let end = rest
            .find(|c: char| !(c.is_whitespace() || c == ';'))
            .unwrap_or(rest.len());
        self.pos += end;
    }

    /// Moves to the next statement; false at the end of the text.
    fn next_statement(&mut self) -> bool {
        loop {
            self.skip_blank();
            if self.pos >= self.src.len() {
                return false;
            }
            if !self.comment() {
                return true;
            }
        }
    }

    fn syntax(&self, at: usize, expected: &str, found: &str) -> MermaidError {
        let (line, column) = self.line_col(at);
        MermaidError::Syntax {
            line,
            column,
            expected: expected.to_string(),
            found: found.to_string(),
        }
    }

    fn statement(&mut self) -> Result<()> {
        let at = self.pos;
        let word = self.word().to_ascii_lowercase();
        let skipped = match word.as_str() {
            "direction" => {
                let line = self.rest_of_line();
                let arg = line["direction".len()..].trim().trim_end_matches(';');
                match Direction::from_word(arg) {
                    Some(d) => self.er.direction = d,
                    None => {
                        return Err(self.syntax(
                            at + "direction ".len(),
                            "a direction (TB, BT, LR or RL)",
                            &format!("'{arg}'"),
                        ))
                    }
                }
                return Ok(());
            }
            "classdef" | "class" | "style" => Some((NoteKind::Style, "styles left out")),
            "title" => Some((NoteKind::Statement, "title left out")),
            "acctitle" => Some((NoteKind::AccTitle, "accTitle left out")),
            "accdescr" => Some((NoteKind::AccDescr, "accDescr left out")),
            _ => None,
        };
        if let Some((kind, message)) = skipped {
            let line = self.rest_of_line();
            // A block description runs to its `}`.
            if kind == NoteKind::AccDescr && line.contains('{') && !line.contains('}') {
                let end = self
                    .rest()
                    .find('}')
                    .map_or(self.src.len(), |e| self.pos + e + 1);
                self.pos = end;
            }
            self.note(kind, at, message);
            return Ok(());
        }
        let first = self.entity_ref()?;
        self.skip_spaces();
        let rest = self.rest();
        if rest.starts_with('{') {
            self.pos += 1;
            return self.attributes(first);
        }
        let line = self.rest_of_line();
        let statement = line.trim().trim_end_matches(';').trim_end();
        if statement.is_empty() {
            return Ok(());
        }
        let at = statement.as_ptr() as usize - self.src.as_ptr() as usize;
        self.relationship(first, statement, at)
    }

    fn skip_spaces(&mut self) {
        let rest = self.rest();
        let end = rest
            .find(|c: char| c != ' ' && c != '\t')
            .unwrap_or(rest.len());
        self.pos += end;
    }

    /// An entity name (and its `[alias]`, `:::class`) at the cursor: its index.
    fn entity_ref(&mut self) -> Result<usize> {
        let at = self.pos;
        let (name, len) = name_at(self.rest())
            .ok_or_else(|| self.syntax(at, RELATIONSHIP, &found(self.rest())))?;
        self.pos += len;
        let mut alias = None;
        if self.rest().starts_with('[') {
            let Some(end) = self.rest().find(']') else {
                return Err(self.syntax(self.pos, "']' to close the alias", "the end of the line"));
            };
            alias = Some(clean_label(self.rest()[1..end].trim().trim_matches('"')));
            self.pos += end + 1;
        }
        if self.rest().starts_with(":::") {
            let end = self.rest()[3..]
                .find(|c: char| c.is_whitespace() || c == '{')
                .map_or(self.rest().len(), |e| e + 3);
            self.pos += end;
            self.note(NoteKind::Style, at, "styles left out");
        }
        self.entity(&name, alias, at)
    }

    fn entity(&mut self, name: &str, alias: Option<String>, at: usize) -> Result<usize> {
        if let Some(&i) = self.index.get(name) {
            if let Some(a) = alias {
                self.er.entities[i].label = a;
            }
            return Ok(i);
        }
        if self.er.entities.len() == MAX_ENTITIES {
            let (line, column) = self.line_col(at);
            return Err(MermaidError::TooBig {
                line,
                column,
                what: "entities",
                limit: MAX_ENTITIES,
            });
        }
        let i = self.er.entities.len();
        self.er.entities.push(Entity {
            id: name.to_string(),
            label: alias.unwrap_or_else(|| name.to_string()),
            attributes: Vec::new(),
            line: self.lines.line(at),
        });
        self.index.insert(name.to_string(), i);
        Ok(i)
    }

    /// The attributes of entity `e`, from just after its `{` to its `}`.
    fn attributes(&mut self, e: usize) -> Result<()> {
        let open = self.pos - 1;
        let mut tokens: Vec<(usize, &'a str, bool)> = Vec::new();
        loop {
            let rest = self.rest();
            let skip = rest
                .find(|c: char| !c.is_whitespace() && c != ',')
                .unwrap_or(rest.len());
            self.pos += skip;
            let rest = self.rest();
            if rest.is_empty() {
                return Err(self.syntax(
                    self.pos,
                    &format!(
                        "'}}' to close the attributes opened on line {}",
                        self.lines.line(open)
                    ),
                    "the end of the text",
                ));
            }
            if rest.starts_with('}') {
                self.pos += 1;
                break;
            }
            if rest.starts_with("%%") {
                self.rest_of_line();
                continue;
            }
            if let Some(body) = rest.strip_prefix('"') {
                let end = body.find('"').ok_or_else(|| {
                    self.syntax(self.pos, "'\"' to close the comment", "the end of the text")
                })?;
                tokens.push((self.pos, &body[..end], true));
                self.pos += end + 2;
                continue;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == ',' || c == '}' || c == '"')
                .unwrap_or(rest.len());
            tokens.push((self.pos, &rest[..end], false));
            self.pos += end;
        }
        let mut i = 0;
        while i < tokens.len() {
            let (at, kind, quoted) = tokens[i];
            let Some(&(_, name, false)) = tokens.get(i + 1).filter(|_| !quoted) else {
                let found = if quoted {
                    format!("'\"{kind}\"'")
                } else {
                    "nothing after it".to_string()
                };
                return Err(self.syntax(at, "an attribute as 'type name'", &found));
            };
            i += 2;
            let mut keys = Vec::new();
            while let Some(&(_, k, false)) = tokens.get(i) {
                let upper = k.to_ascii_uppercase();
                if !matches!(upper.as_str(), "PK" | "FK" | "UK") {
                    break;
                }
                keys.push(upper);
                i += 1;
            }
            let mut comment = String::new();
            if let Some(&(_, c, true)) = tokens.get(i) {
                comment = c.trim().to_string();
                i += 1;
            }
            self.er.entities[e].attributes.push(Attribute {
                kind: kind.to_string(),
                name: name.to_string(),
                keys,
                comment,
            });
        }
        Ok(())
    }

    /// A relationship from entity `from`: `statement` is what follows its name
    /// on the line, starting at byte `at`.
    fn relationship(&mut self, from: usize, statement: &str, at: usize) -> Result<()> {
        let offset = |part: &str| at + (part.as_ptr() as usize - statement.as_ptr() as usize);
        let (before, label) = match split_label(statement) {
            Some((b, l)) => (b.trim_end(), l.trim()),
            None => (statement, ""),
        };
        let label = clean_label(label.trim_matches('"'));
        // The symbol form first: `||--o{`.
        let symbol = before.get(..6).filter(|s| s.is_ascii()).and_then(|s| {
            let (l, m, r) = (&s[..2], &s[2..4], &s[4..]);
            let identifying = match m {
                "--" => true,
                ".." => false,
                _ => return None,
            };
            Some((cardinality(l, true)?, cardinality(r, false)?, identifying))
        });
        let (from_end, to_end, identifying, second) = match symbol {
            Some((a, b, id)) => (a, b, id, before[6..].trim_start()),
            None => {
                // Words: `only one to zero or more CAR`.
                let (cards, second) = last_name(before)
                    .ok_or_else(|| self.syntax(offset(before), RELATIONSHIP, &found(before)))?;
                let (left, right, identifying) = match cards.find(" optionally to ") {
                    Some(i) => (&cards[..i], &cards[i + " optionally to ".len()..], false),
                    None => match cards.find(" to ") {
                        Some(i) => (&cards[..i], &cards[i + " to ".len()..], true),
                        None => {
                            return Err(self.syntax(
                                offset(before),
                                "a relationship like '||--o{' or 'only one to zero or more'",
                                &found(before),
                            ))
                        }
                    },
                };
                let card = |w: &str, left: bool| {
                    cardinality(w.trim(), left).ok_or_else(|| {
                        self.syntax(
                            offset(w),
                            "a cardinality (||, |o, }|, }o, or words like 'zero or more')",
                            &found(w.trim()),
                        )
                    })
                };
                (card(left, true)?, card(right, false)?, identifying, second)
            }
        };
        let second_at = offset(second);
        let (name, len) = name_at(second)
            .ok_or_else(|| self.syntax(second_at, "an entity name", &found(second)))?;
        let tail = second[len..].trim();
        let alias = match tail.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            Some(a) => Some(clean_label(a.trim().trim_matches('"'))),
            None if tail.is_empty() => None,
            None => {
                return Err(self.syntax(
                    offset(tail),
                    "':' and the relationship's label",
                    &found(tail),
                ))
            }
        };
        let to = self.entity(&name, alias, second_at)?;
        if self.er.relationships.len() == MAX_RELATIONSHIPS {
            let (line, column) = self.line_col(at);
            return Err(MermaidError::TooBig {
                line,
                column,
                what: "relationships",
                limit: MAX_RELATIONSHIPS,
            });
        }
        self.er.relationships.push(Relationship {
            from,
            to,
            from_end,
            to_end,
            identifying,
            label,
            line: self.lines.line(at),
        });
        Ok(())
    }
}

/// An entity name at the start of `s`: a quoted string or Mermaid's name
/// characters (letters, digits, `_`, `-`, `*`, and any non-ASCII letter), and
/// its length in bytes.
fn name_at(s: &str) -> Option<(String, usize)> {
    if let Some(body) = s.strip_prefix('"') {
        let end = body.find('"')?;
        let name = body[..end].trim();
        return (!name.is_empty()).then(|| (name.to_string(), end + 2));
    }
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-' || c == '*'))
        .unwrap_or(s.len());
    (end > 0).then(|| (s[..end].to_string(), end))
}

/// `s` split at its label's `:` (outside quotes).
fn split_label(s: &str) -> Option<(&str, &str)> {
    let mut quoted = false;
    for (i, c) in s.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ':' if !quoted => return Some((&s[..i], &s[i + 1..])),
            _ => {}
        }
    }
    None
}

/// `s` split before its last entity name (a quoted string or a word, with an
/// alias in `[ ]`): the cardinality words, and the name with what follows it.
fn last_name(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_end();
    let mut start = if s.ends_with(']') {
        s.rfind('[')?
    } else {
        s.len()
    };
    let head = &s[..start];
    start = match head.strip_suffix('"') {
        Some(quoted) => quoted.rfind('"')?,
        None => head.rfind(char::is_whitespace)? + 1,
    };
    Some((s[..start].trim_end(), &s[start..]))
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
