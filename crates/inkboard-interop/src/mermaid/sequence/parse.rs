//! The sequence reader proper: a sequence diagram is one statement per line (or
//! per `;`), each told apart by its first word, so the reader goes statement by
//! statement, resolving participant names as it meets them. A statement that is
//! no keyword must be a message, found by its arrow; anything else is an error
//! naming its line and column. What it skips, it notes ([`Note`]) with its line.

use std::collections::HashMap;

use super::{
    BlockKind, Event, Head, Message, NotePlace, Participant, ParticipantKind, Sequence,
    SequenceNote, MAX_DEPTH, MAX_EVENTS, MAX_PARTICIPANTS,
};
use crate::mermaid::label::{clean_label, rich_label};
use crate::mermaid::lines::Lines;
use crate::mermaid::{MermaidError, Note, NoteKind};

type Result<T> = std::result::Result<T, MermaidError>;

/// Every arrow Mermaid writes, longest first where one starts another: (token,
/// dashed, start, end).
const ARROWS: &[(&str, bool, Head, Head)] = &[
    ("<<-->>", true, Head::Filled, Head::Filled),
    ("<<->>", false, Head::Filled, Head::Filled),
    ("-->>", true, Head::None, Head::Filled),
    ("->>", false, Head::None, Head::Filled),
    ("--x", true, Head::None, Head::Cross),
    ("--)", true, Head::None, Head::Open),
    ("-->", true, Head::None, Head::None),
    ("-x", false, Head::None, Head::Cross),
    ("-)", false, Head::None, Head::Open),
    ("->", false, Head::None, Head::None),
];

/// The arrows, for messages: what a message may use.
const ARROW_LIST: &str = "'->>', '-->>', '->', '-->', '-x', '--x', '-)', '--)' or '<<->>'";

/// The statements a sequence diagram takes besides messages, for messages.
const STATEMENTS: &str = "a message like 'Alice->>Bob: Hello', or a statement (participant, actor, Note, loop, alt, opt, par, critical, break, rect, activate, deactivate, autonumber, end)";

/// True when the first statement of `text` (past blank lines, comments,
/// directives and front matter) is `sequenceDiagram`.
pub(crate) fn is_sequence(text: &str) -> bool {
    crate::mermaid::first_word(text).eq_ignore_ascii_case("sequenceDiagram")
}

/// Parses a Mermaid sequence diagram.
pub fn parse(text: &str) -> Result<Sequence> {
    crate::mermaid::check_size(text)?;
    let mut p = Parser {
        src: text,
        lines: Lines::new(text),
        participants: Vec::new(),
        index: HashMap::new(),
        events: Vec::new(),
        notes: Vec::new(),
        open: Vec::new(),
        active: Vec::new(),
        number: None,
    };
    p.read()?;
    if let Some(open) = p.open.last() {
        let (line, column) = p.line_col(text.trim_end().len());
        return Err(MermaidError::UnclosedBlock {
            line,
            column,
            block: open.keyword,
            opened: open.line,
        });
    }
    Ok(Sequence {
        participants: p.participants,
        events: p.events,
        notes: p.notes,
    })
}

/// A block or a `box` between its first line and its `end`.
struct Open {
    /// `None` for a `box`, which draws nothing and takes no `else`.
    kind: Option<BlockKind>,
    keyword: &'static str,
    line: usize,
}

struct Parser<'a> {
    src: &'a str,
    lines: Lines,
    participants: Vec<Participant>,
    index: HashMap<String, usize>,
    events: Vec<Event>,
    notes: Vec<Note>,
    open: Vec<Open>,
    /// How many bars are open on each participant.
    active: Vec<usize>,
    /// `autonumber`'s next number and step, while numbering is on.
    number: Option<(u64, u64)>,
}

/// Where a part of `s` starts, as a byte offset into the text `s` was cut from
/// at `at`.
fn offset(at: usize, s: &str, part: &str) -> usize {
    at + (part.as_ptr() as usize - s.as_ptr() as usize)
}

impl<'a> Parser<'a> {
    fn line_col(&self, pos: usize) -> (usize, usize) {
        self.lines.line_col(self.src, pos)
    }

    fn line(&self, pos: usize) -> usize {
        self.lines.line(pos.min(self.src.len()))
    }

    /// An error at `pos`: `expected`, and what is there (its first word or
    /// token, or the end of the line).
    fn error(&self, expected: impl Into<String>, pos: usize) -> MermaidError {
        let (line, column) = self.line_col(pos);
        let rest = &self.src[pos.min(self.src.len())..];
        let rest = rest.split(['\n', ';']).next().unwrap_or("").trim_end();
        let found = match rest.chars().next() {
            None if pos >= self.src.len() => "the end of the text".to_string(),
            None => "the end of the line".to_string(),
            Some(c) if c.is_alphanumeric() || c == '_' => {
                let word: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .take(24)
                    .collect();
                format!("'{word}'")
            }
            Some(_) => {
                let token: String = rest
                    .chars()
                    .take_while(|c| !c.is_alphanumeric() && !c.is_whitespace())
                    .take(6)
                    .collect();
                format!("'{token}'")
            }
        };
        MermaidError::Syntax {
            line,
            column,
            expected: expected.into(),
            found,
        }
    }

    fn note(&mut self, kind: NoteKind, pos: usize, message: String) {
        let line = self.line(pos);
        self.notes.push(Note {
            kind,
            line,
            message,
        });
    }

    /// Refuses a block (or a box) opened at `pos` past [`MAX_DEPTH`] open ones.
    fn deeper(&self, pos: usize) -> Result<()> {
        if self.open.len() >= MAX_DEPTH {
            let (line, column) = self.line_col(pos);
            return Err(MermaidError::TooBig {
                line,
                column,
                what: "blocks inside one another",
                limit: MAX_DEPTH,
            });
        }
        Ok(())
    }

    fn push(&mut self, event: Event, pos: usize) -> Result<()> {
        if self.events.len() >= MAX_EVENTS {
            let (line, column) = self.line_col(pos);
            return Err(MermaidError::TooBig {
                line,
                column,
                what: "messages, notes and block lines",
                limit: MAX_EVENTS,
            });
        }
        self.events.push(event);
        Ok(())
    }

    /// Reads the header and every statement after it.
    fn read(&mut self) -> Result<()> {
        let src = self.src;
        let mut header = false;
        let mut pos = 0;
        // Set while inside front matter, a multi-line directive or an
        // `accDescr { }` block: what closes it.
        let mut skipping: Option<&str> = None;
        let mut front_opened: Option<usize> = None;
        for raw in src.split_inclusive('\n') {
            let at = pos;
            pos += raw.len();
            let line = raw.trim_end_matches(['\n', '\r']);
            let trimmed = line.trim();
            if let Some(close) = skipping {
                let done = match close {
                    "---" => trimmed == "---",
                    _ => trimmed.contains(close),
                };
                if done {
                    skipping = None;
                }
                continue;
            }
            if trimmed.is_empty() {
                continue;
            }
            let start = offset(at, line, trimmed);
            if !header && front_opened.is_none() && trimmed.starts_with("---") {
                self.note(
                    NoteKind::FrontMatter,
                    start,
                    "front matter left out: its title and config have no equal on a board".into(),
                );
                front_opened = Some(start);
                skipping = Some("---");
                continue;
            }
            if let Some(body) = trimmed.strip_prefix("%%{") {
                let name: String = body
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '-')
                    .take(24)
                    .collect();
                self.note(
                    NoteKind::Directive,
                    start,
                    format!(
                        "'%%{{{name}}}%%' directive left out: its settings have no equal on a board"
                    ),
                );
                if !body.contains("}%%") {
                    skipping = Some("}%%");
                }
                continue;
            }
            if trimmed.starts_with("%%") {
                continue;
            }
            let mut body = trimmed;
            if !header {
                let word: String = trimmed
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '-')
                    .collect();
                if !word.eq_ignore_ascii_case("sequenceDiagram") {
                    return Err(self.error("a first line 'sequenceDiagram'", start));
                }
                header = true;
                // Statements may follow the header on its line, after a `;`.
                body = &trimmed[word.len()..];
                if !body.trim().is_empty() && !body.trim_start().starts_with(';') {
                    return Err(
                        self.error("the end of the line", offset(at, line, body.trim_start()))
                    );
                }
            }
            for statement in statements(body) {
                let s = statement.trim();
                if s.is_empty() || s.starts_with("%%") {
                    continue;
                }
                if let Some(close) = self.statement(s, offset(at, line, s))? {
                    skipping = Some(close);
                    break;
                }
            }
        }
        if skipping == Some("---") {
            return Err(self.error(
                format!(
                    "'---' to close the front matter opened on line {}",
                    self.line(front_opened.unwrap_or(0))
                ),
                src.len(),
            ));
        }
        if !header {
            return Err(MermaidError::Empty);
        }
        Ok(())
    }

    /// The participant named `name` (at `pos`), made on its first mention.
    fn participant(&mut self, name: &str, pos: usize) -> Result<usize> {
        let name = name.trim();
        if name.is_empty() || name.contains([':', ',', '<', '>', '+']) {
            return Err(self.error("a participant name", pos));
        }
        if let Some(&i) = self.index.get(name) {
            return Ok(i);
        }
        if self.participants.len() >= MAX_PARTICIPANTS {
            let (line, column) = self.line_col(pos);
            return Err(MermaidError::TooBig {
                line,
                column,
                what: "participants",
                limit: MAX_PARTICIPANTS,
            });
        }
        let line = self.line(pos);
        self.participants.push(Participant {
            id: name.to_string(),
            label: rich_label(name),
            kind: ParticipantKind::Box,
            line,
        });
        self.active.push(0);
        self.index
            .insert(name.to_string(), self.participants.len() - 1);
        Ok(self.participants.len() - 1)
    }

    /// One statement `s`, which starts at byte `at`. Answers what closes a
    /// multi-line statement it opened, if it did.
    fn statement(&mut self, s: &str, at: usize) -> Result<Option<&'static str>> {
        let word = s.split_whitespace().next().unwrap_or("");
        let rest = s[word.len()..].trim();
        let rest_at = offset(at, s, rest);
        match word.to_ascii_lowercase().as_str() {
            "participant" | "actor" => {
                let kind = match word.eq_ignore_ascii_case("actor") {
                    true => ParticipantKind::Actor,
                    false => ParticipantKind::Box,
                };
                self.declare(kind, rest, rest_at)?;
            }
            "create" => {
                let w = rest.split_whitespace().next().unwrap_or("");
                let kind = match w.to_ascii_lowercase().as_str() {
                    "participant" => ParticipantKind::Box,
                    "actor" => ParticipantKind::Actor,
                    _ => return Err(self.error("'participant' or 'actor' after 'create'", rest_at)),
                };
                self.note(
                    NoteKind::Statement,
                    at,
                    "'create' drawn in the top row: every participant heads the diagram".into(),
                );
                let decl = rest[w.len()..].trim();
                self.declare(kind, decl, offset(rest_at, rest, decl))?;
            }
            "destroy" => {
                self.participant(rest, rest_at)?;
                self.note(
                    NoteKind::Statement,
                    at,
                    "'destroy' left out: every lifeline runs to the end".into(),
                );
            }
            "activate" | "deactivate" => {
                let p = self.participant(rest, rest_at)?;
                if word.eq_ignore_ascii_case("activate") {
                    self.active[p] += 1;
                    self.push(Event::Activate(p), at)?;
                } else if self.active[p] == 0 {
                    let message = format!(
                        "'deactivate {}' left out: it is not active",
                        self.participants[p].id
                    );
                    self.note(NoteKind::Statement, at, message);
                } else {
                    self.active[p] -= 1;
                    self.push(Event::Deactivate(p), at)?;
                }
            }
            "note" => self.note_statement(rest, rest_at, at)?,
            "autonumber" => self.autonumber(rest, rest_at)?,
            "loop" | "alt" | "opt" | "par" | "par_over" | "critical" | "break" | "rect" => {
                let kind = match word.to_ascii_lowercase().as_str() {
                    "loop" => BlockKind::Loop,
                    "alt" => BlockKind::Alt,
                    "opt" => BlockKind::Opt,
                    "par" | "par_over" => BlockKind::Par,
                    "critical" => BlockKind::Critical,
                    "break" => BlockKind::Break,
                    _ => BlockKind::Rect,
                };
                self.deeper(at)?;
                if kind == BlockKind::Rect {
                    self.note(
                        NoteKind::Style,
                        at,
                        "'rect' drawn as an untitled frame: its colour is left out".into(),
                    );
                }
                let label = match kind {
                    BlockKind::Rect => String::new(),
                    _ => clean_label(rest),
                };
                self.push(Event::Open { kind, label }, at)?;
                let line = self.line(at);
                self.open.push(Open {
                    kind: Some(kind),
                    keyword: kind.keyword(),
                    line,
                });
            }
            "else" | "and" | "option" => {
                let lower = word.to_ascii_lowercase();
                let fits = self
                    .open
                    .last()
                    .and_then(|o| o.kind)
                    .and_then(BlockKind::section)
                    .is_some_and(|k| k == lower);
                if !fits {
                    let parent = match lower.as_str() {
                        "else" => "alt",
                        "and" => "par",
                        _ => "critical",
                    };
                    return Err(self.error(
                        format!("'{lower}' only inside an '{parent}' block, before its 'end'"),
                        at,
                    ));
                }
                self.push(
                    Event::Section {
                        label: clean_label(rest),
                    },
                    at,
                )?;
            }
            "end" if rest.is_empty() => match self.open.pop() {
                None => {
                    return Err(self.error(
                        format!("{STATEMENTS} ('end' closes a block, and none is open)"),
                        at,
                    ))
                }
                Some(Open { kind: None, .. }) => {}
                Some(Open { kind: Some(_), .. }) => self.push(Event::Close, at)?,
            },
            "box" => {
                self.note(
                    NoteKind::Statement,
                    at,
                    "'box' left out: its participants are drawn in the row without it".into(),
                );
                // A box is open until its `end`, as a block is: held to the
                // same depth, or `box` lines alone would grow the list unbounded.
                self.deeper(at)?;
                let line = self.line(at);
                self.open.push(Open {
                    kind: None,
                    keyword: "box",
                    line,
                });
            }
            "title" => self.note(
                NoteKind::Statement,
                at,
                "'title' left out: the drawing carries no title".into(),
            ),
            "links" | "link" | "properties" | "details" => {
                let message = format!(
                    "'{}' line left out: a board's shapes carry no links or menus",
                    word.to_ascii_lowercase()
                );
                self.note(NoteKind::Click, at, message);
            }
            _ => return self.other(s, at),
        }
        Ok(None)
    }

    /// `accTitle`, `accDescr` (a line or a `{ }` block), `title:`, or a message.
    fn other(&mut self, s: &str, at: usize) -> Result<Option<&'static str>> {
        for (word, kind, what) in [
            ("accTitle", NoteKind::AccTitle, "accessibility title"),
            ("accDescr", NoteKind::AccDescr, "accessibility description"),
        ] {
            let Some(after) = s.strip_prefix(word).map(str::trim_start) else {
                continue;
            };
            if after.starts_with([':', '{']) {
                self.note(
                    kind,
                    at,
                    format!("'{word}' left out: a board has no {what}"),
                );
                if after.starts_with('{') && !after.contains('}') {
                    return Ok(Some("}"));
                }
                return Ok(None);
            }
        }
        let title = s.get(..5).is_some_and(|t| t.eq_ignore_ascii_case("title"));
        if title && s[5..].starts_with(':') {
            self.note(
                NoteKind::Statement,
                at,
                "'title' left out: the drawing carries no title".into(),
            );
            return Ok(None);
        }
        self.message(s, at)?;
        Ok(None)
    }

    /// `participant NAME`, `NAME as ALIAS`, `NAME@{ "type": "database" }`.
    fn declare(&mut self, mut kind: ParticipantKind, rest: &str, at: usize) -> Result<()> {
        let (mut name, alias) = match split_as(rest) {
            Some((name, alias)) => (name, Some(alias)),
            None => (rest, None),
        };
        if let Some(open) = name.find("@{") {
            let data = &name[open..];
            let typ = shape_type(data);
            match typ.as_deref() {
                None | Some("participant") => {}
                Some("actor") => kind = ParticipantKind::Actor,
                Some("database") => kind = ParticipantKind::Database,
                Some(other) => {
                    let message = format!("'{other}' participant drawn as a box");
                    self.note(NoteKind::Shape, at, message);
                }
            }
            name = name[..open].trim_end();
        }
        let p = self.participant(name, at)?;
        let line = self.line(at);
        let participant = &mut self.participants[p];
        participant.kind = kind;
        participant.line = line;
        if let Some(alias) = alias.map(rich_label).filter(|a| !a.is_empty()) {
            self.participants[p].label = alias;
        }
        Ok(())
    }

    /// `Note left of A: text`, `right of A`, `over A` or `over A,B`.
    fn note_statement(&mut self, rest: &str, rest_at: usize, at: usize) -> Result<()> {
        let Some(colon) = rest.find(':') else {
            return Err(self.error(
                "a note like 'Note right of A: text' (its text after ':')",
                rest_at + rest.len(),
            ));
        };
        let (head, text) = (&rest[..colon], &rest[colon + 1..]);
        let words: Vec<&str> = head.split_whitespace().collect();
        let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
        let (skip, side) = match lower.iter().map(String::as_str).collect::<Vec<_>>()[..] {
            ["left", "of", ..] => (2, 'l'),
            ["right", "of", ..] => (2, 'r'),
            ["over", ..] => (1, 'o'),
            _ => return Err(self.error("'left of', 'right of' or 'over' after 'Note'", rest_at)),
        };
        let names = words[skip..].join(" ");
        let names_at = match words.get(skip) {
            Some(w) => offset(rest_at, rest, w),
            None => rest_at + colon,
        };
        let place = match side {
            'l' => NotePlace::LeftOf(self.participant(&names, names_at)?),
            'r' => NotePlace::RightOf(self.participant(&names, names_at)?),
            _ => {
                let mut parts = names.split(',');
                let a = self.participant(parts.next().unwrap_or(""), names_at)?;
                let b = match parts.next() {
                    Some(b) => self.participant(b, names_at)?,
                    None => a,
                };
                if parts.next().is_some() {
                    return Err(self.error("at most two participants after 'over'", names_at));
                }
                NotePlace::Over(a, b)
            }
        };
        let line = self.line(at);
        self.push(
            Event::Note(SequenceNote {
                place,
                text: rich_label(text),
                line,
            }),
            at,
        )
    }

    /// `autonumber`, `autonumber off`, `autonumber START [STEP]`.
    fn autonumber(&mut self, rest: &str, at: usize) -> Result<()> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        self.number = match words[..] {
            [] => Some((1, 1)),
            [w] if w.eq_ignore_ascii_case("off") => None,
            [start] => Some((self.number_at(start, at)?, 1)),
            [start, step] => Some((self.number_at(start, at)?, self.number_at(step, at)?)),
            _ => return Err(self.error("'off', or a start and a step, after 'autonumber'", at)),
        };
        Ok(())
    }

    fn number_at(&self, word: &str, at: usize) -> Result<u64> {
        word.parse::<u64>()
            .ok()
            .filter(|n| *n < 1_000_000_000)
            .ok_or_else(|| self.error("a whole number after 'autonumber'", at))
    }

    /// `FROM ARROW [+|-] TO [: text]`.
    fn message(&mut self, s: &str, at: usize) -> Result<()> {
        let arrow = s.char_indices().find_map(|(i, c)| {
            if c != '-' && c != '<' {
                return None;
            }
            ARROWS
                .iter()
                .find(|(token, ..)| s[i..].starts_with(token))
                .map(|a| (i, a))
        });
        let Some((i, &(token, dashed, start, end))) = arrow else {
            // Something like an arrow, but none Mermaid writes: point at it.
            return Err(match s.find(['-', '<', '>', '=']) {
                Some(i) if i > 0 => self.error(format!("an arrow ({ARROW_LIST})"), at + i),
                _ => self.error(STATEMENTS, at),
            });
        };
        let from_name = &s[..i];
        if from_name.trim().is_empty() {
            return Err(self.error(format!("a participant name before '{token}'"), at));
        }
        if from_name.contains(['<', '>']) {
            return Err(self.error(format!("an arrow ({ARROW_LIST})"), at + i));
        }
        let mut rest = &s[i + token.len()..];
        let (mut activate, mut deactivate) = (false, false);
        let trimmed = rest.trim_start();
        if let Some(r) = trimmed.strip_prefix('+') {
            (activate, rest) = (true, r);
        } else if let Some(r) = trimmed.strip_prefix('-') {
            (deactivate, rest) = (true, r);
        }
        let rest_at = offset(at, s, rest);
        let (to_name, text) = match rest.find(':') {
            Some(c) => (&rest[..c], &rest[c + 1..]),
            None => (rest, ""),
        };
        if to_name.trim().is_empty() {
            let at = offset(at, s, rest.trim_start());
            return Err(self.error(format!("a participant name after '{token}'"), at));
        }
        if to_name.contains(['-', '<', '>']) && to_name.trim_start().starts_with(['-', '<', '>']) {
            return Err(self.error(format!("an arrow ({ARROW_LIST})"), at + i));
        }
        let from = self.participant(from_name, at)?;
        let to = self.participant(to_name, offset(rest_at, rest, to_name.trim_start()))?;
        if activate {
            self.active[to] += 1;
        }
        if deactivate {
            if self.active[from] == 0 {
                let message = format!(
                    "'-' (deactivate {}) left out: it is not active",
                    self.participants[from].id
                );
                self.note(NoteKind::Statement, at, message);
                deactivate = false;
            } else {
                self.active[from] -= 1;
            }
        }
        let mut text = clean_label(text);
        if let Some((n, step)) = self.number {
            text = match text.is_empty() {
                true => format!("{n}."),
                false => format!("{n}. {text}"),
            };
            self.number = Some((n.saturating_add(step), step));
        }
        let line = self.line(at);
        self.push(
            Event::Message(Message {
                from,
                to,
                text,
                dashed,
                start,
                end,
                activate,
                deactivate,
                line,
            }),
            at,
        )
    }
}

/// A line's statements: split at each `;` but the one ending an entity
/// (`#9829;`, `#quot;`, `&amp;`), which Mermaid reads as a character.
fn statements(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in line.char_indices() {
        if c != ';' {
            continue;
        }
        let before = &line[start..i];
        let word = before.trim_end_matches(|c: char| c.is_ascii_alphanumeric());
        let entity = word.len() < before.len() && word.ends_with(['#', '&']);
        if !entity {
            out.push(&line[start..i]);
            start = i + 1;
        }
    }
    out.push(&line[start..]);
    out
}

/// `NAME as ALIAS` split at its first ` as ` (any case), if it has one.
fn split_as(rest: &str) -> Option<(&str, &str)> {
    let lower = rest.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find("as") {
        let i = from + i;
        let before = lower[..i].ends_with([' ', '\t']);
        let after = lower[i + 2..].starts_with([' ', '\t']);
        if before && after && !rest[..i].trim().is_empty() {
            return Some((rest[..i].trim(), rest[i + 2..].trim()));
        }
        from = i + 2;
    }
    None
}

/// The `type` of a participant's `@{ ... }` data, lowercased, if it has one.
fn shape_type(data: &str) -> Option<String> {
    let inner = data
        .trim_start_matches("@{")
        .split('}')
        .next()
        .unwrap_or("");
    inner.split(',').find_map(|pair| {
        let (key, value) = pair.split_once(':')?;
        let unquote = |t: &str| t.trim().trim_matches(['"', '\'']).to_ascii_lowercase();
        (unquote(key) == "type").then(|| unquote(value))
    })
}
