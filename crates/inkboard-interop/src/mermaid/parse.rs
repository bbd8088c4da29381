//! The reader proper: a hand-written, one-pass parser over the text (Mermaid's
//! grammar is too context-dependent for a separate lexer to pay: `--` starts a
//! link, a link's text, or is part of an id, depending on what follows). It
//! collects raw nodes, links and subgraphs as they come, then resolves them in
//! [`Parser::finish`]: ids that name a subgraph become links to it, classes and
//! `style` lines fold into one style per node, `linkStyle` lines reach their links.
//! What it skips, it notes ([`Note`]) with its line.

use std::collections::{BTreeMap, HashMap};

use inkboard_core::Style;

use super::css::style_of;
use super::label::{clean_label, rich_label};
use super::lines::Lines;
use super::shapes;
use super::{
    Direction, Edge, Endpoint, Flowchart, Head, MermaidError, Node, NodeShape, Note, NoteKind,
    Stroke, Subgraph, MAX_EDGES, MAX_NODES,
};

mod finish;
mod link;
mod node;

type Result<T> = std::result::Result<T, MermaidError>;

/// Parses a Mermaid flowchart.
pub fn parse(text: &str) -> Result<Flowchart> {
    crate::mermaid::check_size(text)?;
    let mut p = Parser::new(text);
    p.header()?;
    while p.skip_blank() {
        p.statement()?;
    }
    p.finish()
}

/// Node openers, longest first for each first character, with the closers that
/// may end them. When no closer is found on the line, the next (shorter) opener is
/// tried, so `A[/path]` is a rectangle labelled "/path", not an error.
const OPENERS: &[(&str, &[(&str, NodeShape)])] = &[
    ("(((", &[(")))", &shapes::DOUBLE_CIRCLE)]),
    ("((", &[("))", &shapes::CIRCLE)]),
    ("([", &[("])", &shapes::STADIUM)]),
    ("(", &[(")", &shapes::ROUNDED)]),
    ("[[", &[("]]", &shapes::SUBROUTINE)]),
    ("[(", &[(")]", &shapes::CYLINDER)]),
    (
        "[/",
        &[("/]", &shapes::LEAN_RIGHT), ("\\]", &shapes::TRAPEZOID)],
    ),
    (
        "[\\",
        &[("\\]", &shapes::LEAN_LEFT), ("/]", &shapes::INV_TRAPEZOID)],
    ),
    ("[", &[("]", &shapes::RECT)]),
    ("{{", &[("}}", &shapes::HEXAGON)]),
    ("{", &[("}", &shapes::RHOMBUS)]),
    (">", &[("]", &shapes::ODD)]),
];

/// First words of the other Mermaid diagram types, to say plainly that they are
/// not flowcharts.
const OTHER_DIAGRAMS: &[&str] = &[
    "sequencediagram",
    "classdiagram",
    "statediagram",
    "erdiagram",
    "journey",
    "gantt",
    "pie",
    "quadrantchart",
    "requirementdiagram",
    "gitgraph",
    "c4context",
    "c4container",
    "c4component",
    "c4dynamic",
    "c4deployment",
    "mindmap",
    "timeline",
    "zenuml",
    "sankey",
    "xychart",
    "block",
    "packet",
    "kanban",
    "architecture",
    "radar",
    "treemap",
];

struct RawNode {
    id: String,
    label: Option<String>,
    shape: NodeShape,
    /// Where its shape was last given (or it was first mentioned).
    line: usize,
    /// Given a shape or label somewhere (so it is a node even if a subgraph has
    /// its id).
    explicit: bool,
    classes: Vec<String>,
    subgraph: Option<usize>,
}

struct RawEdge {
    from: usize,
    to: usize,
    link: Link,
    line: usize,
}

/// A link as written, between two node groups.
#[derive(Clone)]
struct Link {
    /// The link's text, for messages ("-->").
    token: String,
    stroke: Stroke,
    start: Head,
    end: Head,
    label: String,
}

/// A subgraph between its `subgraph` line and its `end`.
struct Open {
    subgraph: usize,
    /// The nodes mentioned directly inside it, claimed at its `end` unless an
    /// inner (or earlier) subgraph claimed them first, as Mermaid does.
    mentioned: Vec<usize>,
    line: usize,
}

struct Parser<'a> {
    src: &'a str,
    lines: Lines,
    pos: usize,
    direction: Direction,
    nodes: Vec<RawNode>,
    index: HashMap<String, usize>,
    edges: Vec<RawEdge>,
    subgraphs: Vec<Subgraph>,
    open: Vec<Open>,
    classes: BTreeMap<String, Style>,
    /// `class ids name` lines: (id, class), applied at the end.
    class_lines: Vec<(String, String)>,
    /// `style id ...` lines, applied at the end.
    style_lines: Vec<(String, Style)>,
    /// `linkStyle` lines: the link numbers (`None`: default), the style and the
    /// line.
    link_styles: Vec<(Option<Vec<usize>>, Style, usize)>,
    /// What was skipped, so far.
    notes: Vec<Note>,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> Self {
        Parser {
            src,
            lines: Lines::new(src),
            pos: 0,
            direction: Direction::Down,
            nodes: Vec::new(),
            index: HashMap::new(),
            edges: Vec::new(),
            subgraphs: Vec::new(),
            open: Vec::new(),
            classes: BTreeMap::new(),
            class_lines: Vec::new(),
            style_lines: Vec::new(),
            link_styles: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Notes that the text at `pos` is left out.
    fn note(&mut self, kind: NoteKind, pos: usize, message: String) {
        let line = self.line_col(pos).0;
        self.notes.push(Note {
            kind,
            line,
            message,
        });
    }

    // ---- the cursor ----

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn peek_nth(&self, n: usize) -> Option<char> {
        self.rest().chars().nth(n)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn take_while(&mut self, f: impl Fn(char) -> bool) -> &'a str {
        let start = self.pos;
        while self.peek().is_some_and(&f) {
            self.bump();
        }
        &self.src[start..self.pos]
    }

    /// Spaces and tabs (and the `\r` of Windows line ends), never a line break.
    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\r')) {
            self.bump();
        }
    }

    /// The text from `from` to the end of its line.
    fn line_from(&self, from: usize) -> &'a str {
        let rest = &self.src[from..];
        &rest[..rest.find('\n').unwrap_or(rest.len())]
    }

    /// Moves to the end of the line (before its line break).
    fn skip_line(&mut self) {
        self.pos += self.line_from(self.pos).len();
    }

    /// Skips a `%%` comment, or a `%%{ ... }%%` directive (which may span lines,
    /// and is noted: its settings are left out).
    fn skip_comment(&mut self) -> bool {
        if let Some(body) = self.rest().strip_prefix("%%{") {
            let name: String = body
                .trim_start()
                .chars()
                .take_while(|c| is_word_char(*c) || *c == '-')
                .take(24)
                .collect();
            let message = match name.as_str() {
                "" => "directive left out: its settings have no equal on a board".to_string(),
                name => format!(
                    "'%%{{{name}}}%%' directive left out: its settings have no equal on a board"
                ),
            };
            self.note(NoteKind::Directive, self.pos, message);
            match self.rest().find("}%%") {
                Some(i) => self.pos += i + 3,
                None => self.skip_line(),
            }
            true
        } else if self.rest().starts_with("%%") {
            self.skip_line();
            true
        } else {
            false
        }
    }

    /// Skips blank lines, separators and comments; false at the end of the text.
    fn skip_blank(&mut self) -> bool {
        loop {
            while matches!(self.peek(), Some(c) if c.is_whitespace() || c == ';') {
                self.bump();
            }
            if !self.skip_comment() {
                return self.pos < self.src.len();
            }
        }
    }

    fn at_statement_end(&self) -> bool {
        matches!(self.peek(), None | Some('\n' | ';')) || self.rest().starts_with("%%")
    }

    /// Ends a statement: a comment, then a `;` or a line break.
    fn end_statement(&mut self) {
        self.skip_spaces();
        self.skip_comment();
        if matches!(self.peek(), Some(';' | '\n')) {
            self.bump();
        }
    }

    /// The rest of the statement, quoted strings kept whole, the cursor after it.
    fn statement_text(&mut self) -> &'a str {
        let start = self.pos;
        let mut quoted = false;
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            if c == '"' {
                quoted = !quoted;
            } else if !quoted && (c == ';' || self.rest().starts_with("%%")) {
                break;
            }
            self.bump();
        }
        &self.src[start..self.pos]
    }

    /// A node id: letters, digits, `_`, and `-` or `.` between them (`my-node`,
    /// `v1.2`), never the `-` of a link (`A-->B`).
    fn take_id(&mut self) -> &'a str {
        let start = self.pos;
        if !self.peek().is_some_and(is_word_char) {
            return "";
        }
        loop {
            match self.peek() {
                Some(c) if is_word_char(c) => {
                    self.bump();
                }
                Some('-' | '.') if self.peek_nth(1).is_some_and(is_word_char) => {
                    self.bump();
                }
                _ => break,
            }
        }
        &self.src[start..self.pos]
    }

    // ---- errors ----

    fn line_col(&self, pos: usize) -> (usize, usize) {
        self.lines.line_col(self.src, pos)
    }

    /// What is at `pos`, in words.
    fn found(&self, pos: usize) -> String {
        let rest = &self.src[pos..];
        match rest.chars().next() {
            None => "the end of the text".into(),
            Some('\n' | '\r') => "the end of the line".into(),
            Some(c) if is_word_char(c) => {
                let word: String = rest
                    .chars()
                    .take_while(|c| is_word_char(*c))
                    .take(24)
                    .collect();
                format!("'{word}'")
            }
            Some(_) => {
                let token: String = rest
                    .chars()
                    .take_while(|c| !is_word_char(*c) && !c.is_whitespace())
                    .take(4)
                    .collect();
                format!("'{token}'")
            }
        }
    }

    fn error(&self, expected: impl Into<String>, pos: usize) -> MermaidError {
        let (line, column) = self.line_col(pos);
        MermaidError::Syntax {
            line,
            column,
            expected: expected.into(),
            found: self.found(pos),
        }
    }

    // ---- statements ----

    fn header(&mut self) -> Result<()> {
        if !self.skip_blank() {
            return Err(MermaidError::Empty);
        }
        // YAML front matter (`---` ... `---`) carries a title and config: skipped.
        if self.rest().starts_with("---") {
            let at = self.pos;
            self.note(
                NoteKind::FrontMatter,
                at,
                "front matter left out: its title and config have no equal on a board".into(),
            );
            self.skip_line();
            loop {
                if self.pos >= self.src.len() {
                    return Err(self.error(
                        format!(
                            "'---' to close the front matter opened on line {}",
                            self.lines.line(at)
                        ),
                        self.pos,
                    ));
                }
                self.bump();
                let line_start = self.pos;
                self.skip_line();
                if self.src[line_start..self.pos].trim() == "---" {
                    break;
                }
            }
            if !self.skip_blank() {
                return Err(MermaidError::Empty);
            }
        }
        let start = self.pos;
        let word = self.take_while(|c| is_word_char(c) || c == '-');
        let lower = word.to_ascii_lowercase();
        match lower.as_str() {
            "flowchart" | "graph" | "flowchart-elk" => {}
            _ if OTHER_DIAGRAMS.iter().any(|d| lower.starts_with(d)) => {
                let (line, column) = self.line_col(start);
                return Err(MermaidError::Unsupported {
                    line,
                    column,
                    found: word.to_string(),
                });
            }
            _ => return Err(self.error(
                "a first line like 'flowchart TD', 'graph LR' or 'sequenceDiagram' (only flowcharts and sequence diagrams can be imported)",
                start,
            )),
        }
        self.skip_spaces();
        if !self.at_statement_end() {
            self.direction = self.direction_after(&lower)?;
        }
        // Statements may follow on the same line, after a space or a `;`.
        self.end_statement();
        Ok(())
    }

    /// Where the statement after `word` at the cursor starts, if the text there is
    /// `word` followed by a space or the end of the statement (so `classDef` is a
    /// keyword but `classDefault` is a node id).
    fn keyword(&self, word: &str) -> Option<usize> {
        let rest = self.rest();
        let after = rest.strip_prefix(word)?;
        match after.chars().next() {
            None | Some(' ' | '\t' | '\r' | '\n' | ';') => {}
            _ if after.starts_with("%%") => {}
            _ => return None,
        }
        let spaces = after.len() - after.trim_start_matches([' ', '\t', '\r']).len();
        Some(self.pos + word.len() + spaces)
    }

    /// True when a keyword is followed by a word (an id, a class, a direction),
    /// not by a link or shape: `class --> B` links a node called "class".
    fn keyword_then_word(&self, word: &str) -> Option<usize> {
        let at = self.keyword(word)?;
        self.src[at..]
            .chars()
            .next()
            .is_some_and(is_word_char)
            .then_some(at)
    }

    /// A run of anything but blanks and `;`: a direction, or a list like `A,B`.
    fn word(&mut self) -> &'a str {
        self.take_while(|c| !c.is_whitespace() && c != ';')
    }

    /// The direction at the cursor, which follows `keyword`.
    fn direction_after(&mut self, keyword: &str) -> Result<Direction> {
        let at = self.pos;
        let word = self.word();
        Direction::from_word(word).ok_or_else(|| {
            self.error(
                format!("a direction (TD, TB, LR, RL or BT) after '{keyword}'"),
                at,
            )
        })
    }

    /// The rest of a `classDef`, `class`, `style` or `linkStyle` line: its list
    /// (names, ids or link numbers), where what follows the list starts, and that.
    fn list_and_rest(&mut self) -> (&'a str, usize, &'a str) {
        let list = self.word();
        self.skip_spaces();
        let at = self.pos;
        (list, at, self.statement_text())
    }

    /// The rest of a `classDef` or `style` line: its list and the style it sets.
    fn list_and_style(&mut self, keyword: &str) -> Result<(&'a str, Style)> {
        let (list, at, props) = self.list_and_rest();
        if props.trim().is_empty() {
            return Err(self.error(
                format!("styles like 'fill:#f9f,stroke:#333' after '{keyword} {list}'"),
                at,
            ));
        }
        Ok((list, self.css(props, at)))
    }

    /// The style CSS at `at` sets, with a note for each property left out.
    fn css(&mut self, props: &str, at: usize) -> Style {
        let (style, left_out) = style_of(props);
        for prop in left_out {
            // A property alone has no equal; with its value, the value was unread.
            let message = match prop.contains(':') {
                true => format!("'{prop}' left out: a board's styles cannot take its value"),
                false => format!("'{prop}' left out: it has no equal in a board's styles"),
            };
            self.note(NoteKind::Style, at, message);
        }
        style
    }

    fn statement(&mut self) -> Result<()> {
        let start = self.pos;
        if let Some(at) = self.keyword("subgraph") {
            self.pos = at;
            return self.subgraph(start);
        }
        if let Some(at) = self.keyword("end") {
            let rest = &self.src[at..];
            if rest.is_empty() || rest.starts_with(['\n', ';']) || rest.starts_with("%%") {
                self.pos = at;
                return self.end(start);
            }
        }
        if let Some(at) = self.keyword_then_word("direction") {
            self.pos = at;
            let direction = self.direction_after("direction")?;
            match self.open.last() {
                Some(open) => self.subgraphs[open.subgraph].direction = Some(direction),
                None => self.direction = direction,
            }
            return self.close_statement();
        }
        if let Some(at) = self.keyword_then_word("classDef") {
            self.pos = at;
            let (names, style) = self.list_and_style("classDef")?;
            for name in names.split(',').filter(|n| !n.is_empty()) {
                self.classes
                    .entry(name.to_string())
                    .or_default()
                    .merge(&style);
            }
            return self.close_statement();
        }
        if let Some(at) = self.keyword_then_word("class") {
            self.pos = at;
            let (ids, name_at, names) = self.list_and_rest();
            let names = names.trim();
            if names.is_empty() {
                return Err(self.error(
                    format!("a class name after 'class {ids}', like 'class A,B important'"),
                    name_at,
                ));
            }
            for id in ids.split(',').filter(|i| !i.is_empty()) {
                for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    self.class_lines.push((id.to_string(), name.to_string()));
                }
            }
            return self.close_statement();
        }
        if let Some(at) = self.keyword_then_word("style") {
            self.pos = at;
            let (ids, style) = self.list_and_style("style")?;
            for id in ids.split(',').filter(|i| !i.is_empty()) {
                self.style_lines.push((id.to_string(), style.clone()));
            }
            return self.close_statement();
        }
        if let Some(at) = self.keyword_then_word("linkStyle") {
            self.pos = at;
            let (which, props_at, props) = self.list_and_rest();
            // `interpolate basis` names the curve of the lines; inkboard routes
            // connectors itself.
            let props = match props.trim_start().strip_prefix("interpolate") {
                Some(rest) if rest.starts_with([' ', '\t']) => {
                    let rest = rest.trim_start();
                    let curve = rest.split([' ', '\t']).next().unwrap_or("");
                    let message = format!(
                        "'interpolate {curve}' left out: connectors are routed by the board"
                    );
                    self.note(NoteKind::LinkStyle, props_at, message);
                    &rest[curve.len()..]
                }
                _ => props,
            };
            let numbers = if which == "default" {
                None
            } else {
                let numbers: Option<Vec<usize>> =
                    which.split(',').map(|n| n.trim().parse().ok()).collect();
                Some(numbers.ok_or_else(|| {
                    self.error(
                        "link numbers (from 0) like '0,2', or 'default', after 'linkStyle'",
                        at,
                    )
                })?)
            };
            let style = self.css(props, props_at);
            let line = self.line_col(start).0;
            self.link_styles.push((numbers, style, line));
            return self.close_statement();
        }
        // Interaction and accessibility lines have nothing to draw.
        for word in ["click", "callback", "href"] {
            if self.keyword_then_word(word).is_some() {
                let message =
                    format!("'{word}' line left out: a board's shapes carry no links or callbacks");
                self.note(NoteKind::Click, start, message);
                self.statement_text();
                return self.close_statement();
            }
        }
        for (word, kind, what) in [
            ("accTitle", NoteKind::AccTitle, "accessibility title"),
            ("accDescr", NoteKind::AccDescr, "accessibility description"),
        ] {
            if let Some(after) = self.rest().strip_prefix(word) {
                let after = after.trim_start();
                if after.starts_with([':', '{']) {
                    let message = format!("'{word}' left out: a board has no {what}");
                    self.note(kind, start, message);
                }
                if after.starts_with(':') {
                    self.skip_line();
                    return Ok(());
                }
                if after.starts_with('{') {
                    match self.rest().find('}') {
                        Some(i) => self.pos += i + 1,
                        None => self.pos = self.src.len(),
                    }
                    return self.close_statement();
                }
            }
        }
        self.node_statement()
    }

    /// After a statement: only a comment, `;` or the end of the line may follow.
    fn close_statement(&mut self) -> Result<()> {
        self.skip_spaces();
        if !self.at_statement_end() {
            return Err(self.error("the end of the line", self.pos));
        }
        self.end_statement();
        Ok(())
    }

    fn subgraph(&mut self, start: usize) -> Result<()> {
        let head_at = self.pos;
        let head = self.statement_text().trim();
        if head.is_empty() {
            return Err(self.error(
                "a subgraph id or title after 'subgraph', like 'subgraph api [API layer]'",
                head_at,
            ));
        }
        let (id, title) = subgraph_head(head);
        let (line, _) = self.line_col(start);
        self.subgraphs.push(Subgraph {
            id,
            title,
            parent: self.open.last().map(|o| o.subgraph),
            direction: None,
            style: Style::default(),
        });
        self.open.push(Open {
            subgraph: self.subgraphs.len() - 1,
            mentioned: Vec::new(),
            line,
        });
        self.end_statement();
        Ok(())
    }

    fn end(&mut self, start: usize) -> Result<()> {
        let Some(open) = self.open.pop() else {
            return Err(self.error(
                "a node or a link ('end' closes a subgraph, and none is open)",
                start,
            ));
        };
        for node in open.mentioned {
            let node = &mut self.nodes[node];
            if node.subgraph.is_none() {
                node.subgraph = Some(open.subgraph);
            }
        }
        self.close_statement()
    }

    fn node_statement(&mut self) -> Result<()> {
        let mut left = self.node_group(None)?;
        loop {
            self.skip_spaces();
            if self.at_statement_end() {
                break;
            }
            let at = self.pos;
            let Some(link) = self.link()? else {
                let last = &self.nodes[*left.last().unwrap_or(&0)].id;
                return Err(self.error(
                    format!("a link like '-->', '&' or the end of the line after node '{last}'"),
                    at,
                ));
            };
            self.skip_spaces();
            let right = self.node_group(Some(&link.token))?;
            for &from in &left {
                for &to in &right {
                    if self.edges.len() >= MAX_EDGES {
                        let (line, column) = self.line_col(at);
                        return Err(MermaidError::TooBig {
                            line,
                            column,
                            what: "links",
                            limit: MAX_EDGES,
                        });
                    }
                    let line = self.lines.line(at);
                    self.edges.push(RawEdge {
                        from,
                        to,
                        link: link.clone(),
                        line,
                    });
                }
            }
            left = right;
        }
        self.end_statement();
        Ok(())
    }
}

/// Splits `id [Title]`, `id["Title"]`, `"Title"` or `Title` into (id, title).
fn subgraph_head(head: &str) -> (String, String) {
    if let Some(inner) = head.strip_prefix('"').and_then(|h| h.strip_suffix('"')) {
        let title = clean_label(inner);
        return (inner.trim().to_string(), title);
    }
    if let (Some(open), true) = (head.find('['), head.ends_with(']')) {
        let id = head[..open].trim();
        let title = clean_label(unquote(&head[open + 1..head.len() - 1]));
        let id = if id.is_empty() {
            title.clone()
        } else {
            id.to_string()
        };
        return (id, title);
    }
    (head.to_string(), clean_label(head))
}

/// The link end a character marks: `>` an arrow, `x` a cross, `o` a circle.
fn head_mark(c: char) -> Option<Head> {
    match c {
        '>' => Some(Head::Arrow),
        'x' => Some(Head::Cross),
        'o' => Some(Head::Circle),
        _ => None,
    }
}

/// Text without its surrounding quotes, if it has them.
fn unquote(text: &str) -> &str {
    let t = text.trim();
    t.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(t)
}

fn split_outside_quotes(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut quoted, mut start) = (false, 0);
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}
