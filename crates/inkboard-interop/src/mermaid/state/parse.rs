//! The state diagram reader proper: a statement a line, told apart by its first
//! word or its arrow. A first pass finds which names open a body
//! (`state X {`), so that a composite state mentioned before its body is still
//! one, and which bodies hold `--` (they are split into regions); the second
//! reads the statements in scope, a stack of open bodies, and resolves names
//! at the end.

use std::collections::{HashMap, HashSet};

use super::{
    Composite, Endpoint, State, StateDiagram, StateKind, StateNote, Transition, MAX_STATES,
    MAX_TRANSITIONS,
};
use crate::mermaid::label::clean_label;
use crate::mermaid::{Direction, MermaidError, Note, NoteKind};

type Result<T> = std::result::Result<T, MermaidError>;

/// What a statement may be, for messages.
const STATEMENT: &str =
    "a transition like 's1 --> s2 : label', a state, 'state X {', a note or '}'";

/// True when the first statement of `text` (past blank lines, comments,
/// directives and front matter) is `stateDiagram-v2` or `stateDiagram`.
pub(crate) fn is_state(text: &str) -> bool {
    header(&lines(text)).is_some_and(|(_, ok)| ok)
}

/// The text's lines, numbered from 1.
fn lines(text: &str) -> Vec<(usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect()
}

/// The index of the header line among `lines` and whether it names a state
/// diagram; `None` when there is no statement at all.
fn header(lines: &[(usize, &str)]) -> Option<(usize, bool)> {
    let mut i = 0;
    let mut first = true;
    while i < lines.len() {
        let t = lines[i].1.trim();
        if first && t.starts_with("---") {
            i += 1;
            while i < lines.len() && lines[i].1.trim() != "---" {
                i += 1;
            }
        } else if !(t.is_empty() || t.starts_with("%%")) {
            let word = t.split_whitespace().next().unwrap_or("");
            let ok = word.eq_ignore_ascii_case("stateDiagram-v2")
                || word.eq_ignore_ascii_case("stateDiagram");
            return Some((i, ok));
        }
        first = first && t.is_empty();
        i += 1;
    }
    None
}

/// A state named in a statement, before names are resolved.
#[derive(Clone, Debug, PartialEq)]
enum Ref {
    /// `[*]`.
    Star,
    Name(String),
}

/// A body open in the text: `state X {` not yet closed.
struct Open {
    name: String,
    line: usize,
    column: usize,
    /// Its composite.
    composite: usize,
    /// The scope the body was opened in.
    outer: Option<usize>,
    /// True when the body is split into regions by `--`.
    regions: bool,
}

struct Parser {
    d: StateDiagram,
    /// Names that open a body somewhere: composite states.
    composite_names: HashSet<String>,
    /// Lines of the bodies that hold `--`.
    split_bodies: HashSet<usize>,
    /// Each name's state, or composite once its body is open.
    states: HashMap<String, usize>,
    composites: HashMap<String, usize>,
    /// Each scope's start and end.
    starts: HashMap<Option<usize>, usize>,
    ends: HashMap<Option<usize>, usize>,
    /// Long names and descriptions by name.
    names: HashMap<String, (Option<String>, Vec<String>)>,
    stereotypes: HashMap<String, StateKind>,
    /// Transitions and notes with their ends still names.
    transitions: Vec<(Target, Target, String, usize)>,
    notes_beside: Vec<(Target, bool, String, usize)>,
    stack: Vec<Open>,
    scope: Option<usize>,
}

/// A transition's end once `[*]` is resolved to its scope's start or end.
#[derive(Clone, Debug)]
enum Target {
    State(usize),
    Name(String),
}

/// Parses a Mermaid state diagram.
pub fn parse(text: &str) -> Result<StateDiagram> {
    crate::mermaid::check_size(text)?;
    let lines = lines(text);
    let Some((start, ok)) = header(&lines) else {
        return Err(MermaidError::Empty);
    };
    let (no, line) = lines[start];
    if !ok {
        let t = line.trim();
        return Err(MermaidError::Unsupported {
            line: no,
            column: column(line, t),
            found: t.split_whitespace().next().unwrap_or("").to_string(),
        });
    }
    let mut p = Parser {
        d: StateDiagram {
            direction: Direction::Down,
            states: Vec::new(),
            composites: Vec::new(),
            transitions: Vec::new(),
            notes_beside: Vec::new(),
            notes: Vec::new(),
        },
        composite_names: HashSet::new(),
        split_bodies: HashSet::new(),
        states: HashMap::new(),
        composites: HashMap::new(),
        starts: HashMap::new(),
        ends: HashMap::new(),
        names: HashMap::new(),
        stereotypes: HashMap::new(),
        transitions: Vec::new(),
        notes_beside: Vec::new(),
        stack: Vec::new(),
        scope: None,
    };
    p.preamble(&lines[..start]);
    p.first_pass(&lines[start + 1..]);
    let mut i = start + 1;
    while i < lines.len() {
        i = p.statement(&lines, i)?;
    }
    if let Some(open) = p.stack.last() {
        return Err(MermaidError::Syntax {
            line: lines.last().map_or(open.line, |l| l.0),
            column: lines.last().map_or(1, |l| l.1.chars().count() + 1),
            expected: format!(
                "'}}' to close state '{}' (opened on line {}, column {})",
                open.name, open.line, open.column
            ),
            found: "the end of the text".into(),
        });
    }
    p.resolve()
}

/// The column (from 1, in characters) where `part`, a slice of `line`, starts.
fn column(line: &str, part: &str) -> usize {
    let at = (part.as_ptr() as usize).saturating_sub(line.as_ptr() as usize);
    line.get(..at.min(line.len()))
        .map_or(1, |l| l.chars().count() + 1)
}

/// `line` without a `%%` comment at its end (outside quotes).
fn uncommented(line: &str) -> &str {
    let mut quoted = false;
    let bytes = line.as_bytes();
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '%' if !quoted && bytes.get(i + 1) == Some(&b'%') => return &line[..i],
            _ => {}
        }
    }
    line
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

/// A state's name at the start of `s` (what Mermaid's lexer takes: anything but
/// blanks, quotes, braces, angle brackets and colons) and its length in bytes.
fn name_at(s: &str) -> Option<(&str, usize)> {
    if s.starts_with("[*]") {
        return Some(("[*]", 3));
    }
    let end = s
        .find(|c: char| c.is_whitespace() || "\"{}<>:;".contains(c))
        .unwrap_or(s.len());
    // A name never runs into an arrow written without spaces.
    let end = s[..end].find("-->").unwrap_or(end);
    (end > 0).then(|| (&s[..end], end))
}

impl Parser {
    fn note(&mut self, kind: NoteKind, line: usize, message: &str) {
        self.d.notes.push(Note {
            kind,
            line,
            message: message.to_string(),
        });
    }

    /// Notes what comes before the header: front matter and directives.
    fn preamble(&mut self, lines: &[(usize, &str)]) {
        let mut front = false;
        for &(no, line) in lines {
            let t = line.trim();
            if t.starts_with("---") {
                if !front {
                    self.note(NoteKind::FrontMatter, no, "front matter left out");
                }
                front = !front;
            } else if !front && t.starts_with("%%{") {
                self.note(NoteKind::Directive, no, "directive left out");
            }
        }
    }

    /// Finds the composite states' names and the bodies split by `--`.
    fn first_pass(&mut self, lines: &[(usize, &str)]) {
        let mut open: Vec<usize> = Vec::new();
        for &(no, line) in lines {
            let t = uncommented(line).trim();
            if t == "}" {
                open.pop();
            } else if t == "--" {
                if let Some(&body) = open.last() {
                    self.split_bodies.insert(body);
                }
            } else if let Some(rest) = keyword(t, "state") {
                if rest.ends_with('{') {
                    if let Ok((_, id, _)) = declared(rest.trim_end_matches('{')) {
                        self.composite_names.insert(id.to_string());
                    }
                    open.push(no);
                }
            }
        }
    }

    /// Reads the statement on `lines[i]` (and the lines of a note block after
    /// it); the index of the next statement.
    fn statement(&mut self, lines: &[(usize, &str)], i: usize) -> Result<usize> {
        let (no, raw) = lines[i];
        let trimmed = raw.trim();
        if trimmed.starts_with("%%{") {
            self.note(NoteKind::Directive, no, "directive left out");
            return Ok(i + 1);
        }
        let t = uncommented(raw).trim().trim_end_matches(';').trim_end();
        if t.is_empty() {
            return Ok(i + 1);
        }
        let syntax = |part: &str, expected: &str| MermaidError::Syntax {
            line: no,
            column: column(raw, part),
            expected: expected.to_string(),
            found: found(part),
        };
        if t == "}" {
            let Some(open) = self.stack.pop() else {
                return Err(syntax(t, "a statement ('}' closes nothing open)"));
            };
            self.scope = open.outer;
            return Ok(i + 1);
        }
        if t == "--" {
            match self.stack.last() {
                Some(open) if open.regions => {
                    let (c, name) = (open.composite, open.name.clone());
                    self.region(&name, c, no)?;
                }
                _ => self.note(
                    NoteKind::Statement,
                    no,
                    "'--' outside a composite state left out",
                ),
            }
            return Ok(i + 1);
        }
        let word = t
            .split(|c: char| c.is_whitespace() || c == ':')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let skipped = match word.as_str() {
            "classdef" | "class" | "style" => Some((NoteKind::Style, "styles left out")),
            "title" => Some((NoteKind::Statement, "title left out")),
            "acctitle" => Some((NoteKind::AccTitle, "accTitle left out")),
            "accdescr" => Some((NoteKind::AccDescr, "accDescr left out")),
            "hide" | "scale" => Some((NoteKind::Statement, "'hide' and 'scale' left out")),
            _ => None,
        };
        if let Some((kind, message)) = skipped {
            self.note(kind, no, message);
            // A block description runs to its `}`.
            let mut next = i + 1;
            if kind == NoteKind::AccDescr && t.contains('{') && !t.contains('}') {
                while next < lines.len() && !lines[next].1.contains('}') {
                    next += 1;
                }
                next += 1;
            }
            return Ok(next);
        }
        match word.as_str() {
            "direction" => {
                let arg = t["direction".len()..].trim();
                let d = Direction::from_word(arg)
                    .ok_or_else(|| syntax(arg, "a direction (TB, BT, LR or RL)"))?;
                match self.scope {
                    None => self.d.direction = d,
                    Some(c) => self.d.composites[c].direction = Some(d),
                }
                return Ok(i + 1);
            }
            "state" if keyword(t, "state").is_some() => {
                self.state_statement(t, raw, no)?;
                return Ok(i + 1);
            }
            "note" => return self.note_statement(lines, i, t),
            _ => {}
        }
        if let Some(arrow) = t.find("-->") {
            let (left, right) = (t[..arrow].trim(), t[arrow + 3..].trim_start());
            let from = self
                .reference(left, no)
                .ok_or_else(|| syntax(left, STATEMENT))?;
            if from.1 != left.len() {
                return Err(syntax(&left[from.1..], "'-->' after the state's name"));
            }
            let (to, len) = self
                .reference(right, no)
                .ok_or_else(|| syntax(right, "a state's name or '[*]' after '-->'"))?;
            let rest = right[len..].trim();
            let label = match rest.strip_prefix(':') {
                Some(label) => clean_label(label.trim()),
                None if rest.is_empty() => String::new(),
                None => return Err(syntax(rest, "':' and the transition's label")),
            };
            let from = self.target(from.0, true, no)?;
            let to = self.target(to, false, no)?;
            if self.transitions.len() == MAX_TRANSITIONS {
                return Err(MermaidError::TooBig {
                    line: no,
                    column: column(raw, t),
                    what: "transitions",
                    limit: MAX_TRANSITIONS,
                });
            }
            self.transitions.push((from, to, label, no));
            return Ok(i + 1);
        }
        // A state alone, or with a description after `:`.
        let (r, len) = self.reference(t, no).ok_or_else(|| syntax(t, STATEMENT))?;
        let rest = t[len..].trim();
        let Ref::Name(name) = r else {
            return Err(syntax(t, STATEMENT));
        };
        match rest.strip_prefix(':') {
            Some(desc) => {
                self.mention(&name, no)?;
                let desc = clean_label(desc.trim());
                if !desc.is_empty() {
                    self.names.entry(name).or_default().1.push(desc);
                }
            }
            None if rest.is_empty() => {
                self.mention(&name, no)?;
            }
            None => return Err(syntax(rest, STATEMENT)),
        }
        Ok(i + 1)
    }

    /// A state named at the start of `s` (a `:::class` after it noted and
    /// skipped), and the bytes it takes.
    fn reference(&mut self, s: &str, no: usize) -> Option<(Ref, usize)> {
        let (name, mut len) = name_at(s)?;
        if s[len..].starts_with(":::") {
            let class = &s[len + 3..];
            len += 3 + class
                .find(|c: char| c.is_whitespace() || c == ':')
                .unwrap_or(class.len());
            self.note(NoteKind::Style, no, "styles left out");
        }
        let r = if name == "[*]" {
            Ref::Star
        } else {
            Ref::Name(name.to_string())
        };
        Some((r, len))
    }

    /// A transition's end: `[*]` as the scope's start (on the left) or end.
    fn target(&mut self, r: Ref, left: bool, no: usize) -> Result<Target> {
        let name = match r {
            Ref::Star => {
                let kind = if left {
                    StateKind::Start
                } else {
                    StateKind::End
                };
                let scope = self.scope;
                let known = if left { &self.starts } else { &self.ends };
                if let Some(&s) = known.get(&scope) {
                    return Ok(Target::State(s));
                }
                let s = self.add_state("[*]".into(), kind, no)?;
                if left {
                    self.starts.insert(scope, s);
                } else {
                    self.ends.insert(scope, s);
                }
                return Ok(Target::State(s));
            }
            Ref::Name(n) => n,
        };
        self.mention(&name, no)?;
        Ok(Target::Name(name))
    }

    /// A name met in the current scope: a new state there unless it is known
    /// or opens a body (a composite state, made when its body opens).
    fn mention(&mut self, name: &str, no: usize) -> Result<()> {
        if self.states.contains_key(name) || self.composite_names.contains(name) {
            return Ok(());
        }
        let s = self.add_state(name.to_string(), StateKind::Plain, no)?;
        self.states.insert(name.to_string(), s);
        Ok(())
    }

    fn add_state(&mut self, id: String, kind: StateKind, no: usize) -> Result<usize> {
        self.room(no)?;
        self.d.states.push(State {
            label: if kind == StateKind::Plain {
                id.clone()
            } else {
                String::new()
            },
            id,
            kind,
            parent: self.scope,
            line: no,
        });
        Ok(self.d.states.len() - 1)
    }

    /// Refuses one state or composite more than [`MAX_STATES`].
    fn room(&self, no: usize) -> Result<()> {
        if self.d.states.len() + self.d.composites.len() >= MAX_STATES {
            return Err(MermaidError::TooBig {
                line: no,
                column: 1,
                what: "states",
                limit: MAX_STATES,
            });
        }
        Ok(())
    }

    /// `state ...`: a declaration with a long name, a stereotype, or a body.
    fn state_statement(&mut self, t: &str, raw: &str, no: usize) -> Result<()> {
        let rest = keyword(t, "state").unwrap_or_default();
        let opens = rest.ends_with('{');
        let body = rest.trim_end_matches('{').trim_end();
        let (long, id, tail) = declared(body).map_err(|(part, expected)| MermaidError::Syntax {
            line: no,
            column: column(raw, part),
            expected: expected.to_string(),
            found: found(part),
        })?;
        let id = id.to_string();
        let mut tail = tail.trim();
        if tail.starts_with(":::") {
            self.note(NoteKind::Style, no, "styles left out");
            tail = tail
                .find(char::is_whitespace)
                .map_or("", |e| tail[e..].trim());
        }
        if let Some(l) = long {
            self.names.entry(id.clone()).or_default().0 = Some(l);
        }
        if let Some(st) = tail.strip_prefix("<<") {
            let Some(end) = st.find(">>") else {
                return Err(MermaidError::Syntax {
                    line: no,
                    column: column(raw, tail),
                    expected: "'>>' to close the stereotype".into(),
                    found: found(tail),
                });
            };
            let kind = match st[..end].trim().to_ascii_lowercase().as_str() {
                "choice" => StateKind::Choice,
                "fork" => StateKind::Fork,
                "join" => StateKind::Join,
                _ => {
                    return Err(MermaidError::Syntax {
                        line: no,
                        column: column(raw, tail),
                        expected: "<<choice>>, <<fork>> or <<join>>".into(),
                        found: found(tail),
                    })
                }
            };
            self.stereotypes.insert(id.clone(), kind);
            tail = st[end + 2..].trim();
        }
        if let Some(desc) = tail.strip_prefix(':') {
            let desc = clean_label(desc.trim());
            if !desc.is_empty() {
                self.names.entry(id.clone()).or_default().1.push(desc);
            }
        } else if !tail.is_empty() {
            return Err(MermaidError::Syntax {
                line: no,
                column: column(raw, tail),
                expected: "'{', a stereotype like <<choice>> or the end of the line".into(),
                found: found(tail),
            });
        }
        if !opens {
            return self.mention(&id, no);
        }
        let c = match self.composites.get(&id) {
            Some(&c) => c,
            None => {
                self.room(no)?;
                self.d.composites.push(Composite {
                    id: id.clone(),
                    title: id.clone(),
                    parent: self.scope,
                    direction: None,
                    region: false,
                    line: no,
                });
                let c = self.d.composites.len() - 1;
                self.composites.insert(id.clone(), c);
                c
            }
        };
        let regions = self.split_bodies.contains(&no);
        self.stack.push(Open {
            name: id.clone(),
            line: no,
            column: column(raw, t),
            composite: c,
            outer: self.scope,
            regions,
        });
        self.scope = Some(c);
        if regions {
            self.region(&id, c, no)?;
        }
        Ok(())
    }

    /// Opens the next concurrency region of composite `c`.
    fn region(&mut self, name: &str, c: usize, no: usize) -> Result<()> {
        self.room(no)?;
        let n = self
            .d
            .composites
            .iter()
            .filter(|k| k.region && k.parent == Some(c))
            .count();
        self.d.composites.push(Composite {
            id: format!("{name}--{}", n + 1),
            title: String::new(),
            parent: Some(c),
            direction: None,
            region: true,
            line: no,
        });
        self.scope = Some(self.d.composites.len() - 1);
        Ok(())
    }

    /// `note left of X : text`, `note right of X` up to `end note`, or a
    /// floating note (left out).
    fn note_statement(&mut self, lines: &[(usize, &str)], i: usize, t: &str) -> Result<usize> {
        let (no, raw) = lines[i];
        let rest = t["note".len()..].trim_start();
        let lower = rest.to_ascii_lowercase();
        let side = if lower.starts_with("left of") {
            Some(true)
        } else if lower.starts_with("right of") {
            Some(false)
        } else {
            None
        };
        let block = !rest.contains(':');
        let Some(left) = side else {
            // `note "text" as N`: Mermaid draws it on its own, joined to nothing.
            self.note(NoteKind::Statement, no, "floating note left out");
            return Ok(if block && !rest.starts_with('"') {
                end_note(lines, i).map_or(lines.len(), |e| e + 1)
            } else {
                i + 1
            });
        };
        let after = rest[if left { 7 } else { 8 }..].trim_start();
        let (r, len) = self
            .reference(after, no)
            .ok_or_else(|| MermaidError::Syntax {
                line: no,
                column: column(raw, after),
                expected: "the name of the state the note is beside".into(),
                found: found(after),
            })?;
        let target = self.target(r, false, no)?;
        let tail = after[len..].trim();
        let (text, next) = match tail.strip_prefix(':') {
            Some(text) => (text.trim().to_string(), i + 1),
            None => {
                let end = end_note(lines, i).ok_or_else(|| MermaidError::Syntax {
                    line: lines.last().map_or(no, |l| l.0),
                    column: lines.last().map_or(1, |l| l.1.chars().count() + 1),
                    expected: format!("'end note' to close the note opened on line {no}"),
                    found: "the end of the text".into(),
                })?;
                let body: Vec<&str> = lines[i + 1..end].iter().map(|l| l.1.trim()).collect();
                (body.join("\n"), end + 1)
            }
        };
        self.notes_beside
            .push((target, left, clean_label(&text), no));
        Ok(next)
    }

    /// Names resolved: each composite's title and each state's label from its
    /// long name and descriptions, stereotypes applied, every end bound.
    fn resolve(mut self) -> Result<StateDiagram> {
        let label = |id: &str, names: &HashMap<String, (Option<String>, Vec<String>)>| {
            let Some((long, descs)) = names.get(id) else {
                return id.to_string();
            };
            let mut parts: Vec<String> = long.iter().cloned().collect();
            parts.extend(descs.iter().cloned());
            if parts.is_empty() {
                id.to_string()
            } else {
                parts.join("\n")
            }
        };
        for s in &mut self.d.states {
            if s.kind != StateKind::Plain {
                continue;
            }
            if let Some(&kind) = self.stereotypes.get(&s.id) {
                s.kind = kind;
                s.label = String::new();
            } else {
                s.label = label(&s.id, &self.names);
            }
        }
        for c in &mut self.d.composites {
            if !c.region {
                c.title = label(&c.id, &self.names);
            }
        }
        let end = |t: &Target| match t {
            Target::State(s) => Endpoint::State(*s),
            Target::Name(n) => match self.composites.get(n) {
                Some(&c) => Endpoint::Composite(c),
                None => Endpoint::State(self.states[n]),
            },
        };
        self.d.transitions = self
            .transitions
            .iter()
            .map(|(from, to, label, line)| Transition {
                from: end(from),
                to: end(to),
                label: label.clone(),
                line: *line,
            })
            .collect();
        self.d.notes_beside = self
            .notes_beside
            .iter()
            .map(|(of, left, text, line)| StateNote {
                of: end(of),
                left: *left,
                text: text.clone(),
                line: *line,
            })
            .collect();
        Ok(self.d)
    }
}

/// `t` past its first word when that word is `word` followed by a blank.
fn keyword<'a>(t: &'a str, word: &str) -> Option<&'a str> {
    let rest = t.strip_prefix(word)?;
    rest.starts_with(char::is_whitespace).then(|| rest.trim())
}

/// What `state` declares: `"Long name" as id` or `id`, and what follows; on
/// error, where and what was expected.
fn declared(s: &str) -> std::result::Result<(Option<String>, &str, &str), (&str, &'static str)> {
    let s = s.trim();
    if let Some(body) = s.strip_prefix('"') {
        let end = body
            .find('"')
            .ok_or((s, "'\"' to close the state's long name"))?;
        let long = clean_label(&body[..end]);
        let rest = body[end + 1..].trim_start();
        let rest = keyword(rest, "as").ok_or((rest, "'as' and the state's name"))?;
        let (id, len) = name_at(rest).ok_or((rest, "the state's name after 'as'"))?;
        return Ok((Some(long), id, &rest[len..]));
    }
    let (id, len) = name_at(s).ok_or((s, "a state's name after 'state'"))?;
    if id == "[*]" {
        return Err((s, "a state's name after 'state'"));
    }
    Ok((None, id, &s[len..]))
}

/// The index of the `end note` line closing the note opened on `lines[i]`.
fn end_note(lines: &[(usize, &str)], i: usize) -> Option<usize> {
    (i + 1..lines.len()).find(|&k| {
        let t = lines[k].1.trim();
        t.get(..8)
            .is_some_and(|w| w.eq_ignore_ascii_case("end note"))
    })
}
