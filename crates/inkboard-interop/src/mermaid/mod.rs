//! Mermaid flowcharts, read into a typed [`Flowchart`] for `import_mermaid`,
//! sequence diagrams, read by [`sequence`], ER diagrams by [`er`], state
//! diagrams by [`state`] and class diagrams by [`class`] ([`read`] picks by the
//! header).
//!
//! Mermaid is what models write most fluently, so the reader is as generous as
//! Mermaid itself: `flowchart`/`graph` headers with a direction (TD, TB, LR, RL,
//! BT), every classic node shape, links of any length (`-->`, `--->`, `---`,
//! `-.->`, `==>`, `~~~`, `--o`, `--x`, `<-->`) with `|labels|` or `-- text -->`,
//! chains (`A --> B --> C`) and fans (`A & B --> C`), `subgraph ... end` (nested,
//! with `direction`), `classDef`, `class`, `A:::name`, `style`, `linkStyle`,
//! quoted labels, `<br>` line breaks, `#quot;`-style entities, `%%` comments and
//! `;` separators. The v11 form `A@{ shape: ..., label: "..." }` is read too.
//!
//! This module only parses: [`parse()`] makes text into a [`Flowchart`] whose
//! references are resolved (every edge end is a node or a subgraph) and whose
//! styles are folded into one [`Style`] per node; [`shapes`] says which geom
//! draws each Mermaid shape. The tool `import_mermaid` (in `inkboard-tools`)
//! makes that into shapes, connectors and frames; `write.rs` goes the other way
//! ([`to_mermaid`]).
//!
//! Nothing is dropped without a word: what the text says that a board cannot
//! hold (`click`, `accTitle`, `accDescr`, `%%{init}%%` directives, front matter,
//! CSS with no equal in a [`Style`], `@{ }` keys other than `shape` and `label`,
//! `linkStyle ... interpolate`) becomes a [`Note`] with its line, which the
//! tool's answer lists.
//!
//! Limitations: other diagram types (gantt, pie...) are refused.

pub mod class;
mod css;
pub mod er;
mod label;
mod lines;
mod parse;
mod report;
pub mod sequence;
pub mod shapes;
pub mod state;
#[cfg(test)]
mod tests;
mod write;

pub use write::to_mermaid;

use std::fmt;

use inkboard_core::{Arrow, Connector, Dash, End, Style};

pub use class::ClassDiagram;
pub use er::Er;
pub use parse::parse;
pub use report::{Counted, MAX_LINES_LISTED};
pub use sequence::Sequence;
pub use state::StateDiagram;

/// The most nodes one import may make: past this, a diagram is better split.
pub const MAX_NODES: usize = 1000;
/// The most links one import may make (fans multiply: `A & B & C --> D & E`).
pub const MAX_EDGES: usize = 2000;
/// The longest text accepted, in bytes.
pub const MAX_TEXT: usize = 256 * 1024;

/// Refuses a text over [`MAX_TEXT`] before any reader looks at it.
fn check_size(text: &str) -> Result<(), MermaidError> {
    if text.len() > MAX_TEXT {
        return Err(MermaidError::TooBig {
            line: 1,
            column: 1,
            what: "bytes of text",
            limit: MAX_TEXT,
        });
    }
    Ok(())
}

/// A parsed flowchart: what the text says, resolved, before any geometry.
#[derive(Clone, Debug, PartialEq)]
pub struct Flowchart {
    /// The direction of the header (or of a top-level `direction` line).
    pub direction: Direction,
    /// Every node, in the order it was first mentioned.
    pub nodes: Vec<Node>,
    /// Every link, in the order written (a chain or a fan gives several; this is
    /// the order `linkStyle` numbers them in).
    pub edges: Vec<Edge>,
    /// Every subgraph, in the order its `subgraph` line comes.
    pub subgraphs: Vec<Subgraph>,
    /// What the text says that the import leaves out, in the order written.
    pub notes: Vec<Note>,
}

/// Something in the text that the import leaves out or draws otherwise than
/// Mermaid, for the tool's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub kind: NoteKind,
    /// Where, counted from 1.
    pub line: usize,
    /// What, in words; notes of one kind and message are counted together.
    pub message: String,
}

/// What a [`Note`] is about: its `kind` in the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoteKind {
    /// A `click` (or `callback`, `href`) line.
    Click,
    /// An `accTitle` line.
    AccTitle,
    /// An `accDescr` line or block.
    AccDescr,
    /// A `%%{ ... }%%` directive.
    Directive,
    /// The `---` block before the header.
    FrontMatter,
    /// A CSS property of `classDef`, `style` or `linkStyle` with no equal.
    Style,
    /// A `linkStyle` part with no equal (`interpolate`, a link that is not there).
    LinkStyle,
    /// A key of `@{ }` other than `shape` and `label`.
    ShapeData,
    /// A node drawn with the nearest geom, or with an unknown shape name.
    Shape,
    /// A link end drawn otherwise.
    Link,
    /// A statement a board does not draw (a sequence diagram's `box`,
    /// `create`, `destroy`, `title`, `links`).
    Statement,
}

impl NoteKind {
    /// Its name in the answer.
    pub fn name(self) -> &'static str {
        match self {
            NoteKind::Click => "click",
            NoteKind::AccTitle => "accTitle",
            NoteKind::AccDescr => "accDescr",
            NoteKind::Directive => "directive",
            NoteKind::FrontMatter => "front matter",
            NoteKind::Style => "style",
            NoteKind::LinkStyle => "linkStyle",
            NoteKind::ShapeData => "shape data",
            NoteKind::Shape => "shape",
            NoteKind::Link => "link",
            NoteKind::Statement => "statement",
        }
    }
}

/// A diagram `import_mermaid` draws, of the kind its header names.
#[derive(Clone, Debug, PartialEq)]
pub enum Diagram {
    Flowchart(Flowchart),
    Sequence(Sequence),
    Er(Er),
    State(StateDiagram),
    Class(ClassDiagram),
}

/// Reads a Mermaid diagram of any kind this reader takes: a sequence diagram
/// when its first statement (past comments, directives and front matter) is
/// `sequenceDiagram`, an ER diagram when it is `erDiagram`, a state diagram
/// when it is `stateDiagram-v2` or `stateDiagram`, a class diagram when it is
/// `classDiagram`, else a flowchart ([`parse`] says what is wrong with it).
/// The first word of `text`'s first statement, past blank lines, `%%` comments,
/// `%%{...}%%` directives and `---` front matter: what says which kind of
/// diagram it is (letters, digits and `-`, as in `classDiagram-v2`).
pub(crate) fn first_word(text: &str) -> String {
    let (mut front, mut directive, mut first) = (false, false, true);
    for line in text.lines().map(str::trim) {
        if directive {
            directive = !line.contains("}%%");
            continue;
        }
        if front {
            front = line != "---";
            continue;
        }
        if line.is_empty() || (line.starts_with("%%") && !line.starts_with("%%{")) {
            continue;
        }
        if line.starts_with("%%{") {
            directive = !line.contains("}%%");
            continue;
        }
        if first && line.starts_with("---") {
            (front, first) = (true, false);
            continue;
        }
        return line
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
    }
    String::new()
}

pub fn read(text: &str) -> Result<Diagram, MermaidError> {
    if sequence::is_sequence(text) {
        sequence::parse(text).map(Diagram::Sequence)
    } else if er::is_er(text) {
        er::parse(text).map(Diagram::Er)
    } else if state::is_state(text) {
        state::parse(text).map(Diagram::State)
    } else if class::is_class(text) {
        class::parse(text).map(Diagram::Class)
    } else {
        parse(text).map(Diagram::Flowchart)
    }
}

impl Flowchart {
    /// `subgraph` and the subgraphs around it, innermost first (nothing for
    /// `None`, the top level). It ends: a subgraph's parent comes before it.
    pub fn enclosing(&self, subgraph: Option<usize>) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(subgraph, |&s| self.subgraphs[s].parent)
    }
}

/// The direction a flowchart (or a subgraph) runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// `TD`, `TB`, `v`: top to bottom (the default).
    Down,
    /// `BT`, `^`: bottom to top.
    Up,
    /// `LR`, `>`: left to right.
    Right,
    /// `RL`, `<`: right to left.
    Left,
}

impl Direction {
    /// The direction a Mermaid word names (case-insensitive), if it names one.
    pub fn from_word(word: &str) -> Option<Direction> {
        Some(match word.to_ascii_uppercase().as_str() {
            "TD" | "TB" | "V" => Direction::Down,
            "BT" | "^" => Direction::Up,
            "LR" | ">" => Direction::Right,
            "RL" | "<" => Direction::Left,
            _ => return None,
        })
    }
}

/// A node: a box with a label.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub id: String,
    /// The label with `<br>` made into line breaks and entities decoded; the id
    /// when the node was never given a label.
    pub label: String,
    pub shape: NodeShape,
    /// The line its shape was given on (where it was first mentioned, if never).
    pub line: usize,
    /// `classDef default`, then its classes in order, then its `style` lines.
    pub style: Style,
    /// The innermost subgraph holding it (index into [`Flowchart::subgraphs`]).
    pub subgraph: Option<usize>,
}

/// A node's Mermaid shape: one of [`shapes`]' statics.
pub type NodeShape = &'static shapes::Shape;

/// One end of an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// Index into [`Flowchart::nodes`].
    Node(usize),
    /// Index into [`Flowchart::subgraphs`]: a link to a subgraph's id.
    Subgraph(usize),
}

/// How a link's line is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stroke {
    /// `-->`, `---`.
    Normal,
    /// `-.->`, `-.-`.
    Dotted,
    /// `==>`, `===`.
    Thick,
    /// `~~~`: not drawn; it only orders the layout.
    Invisible,
}

/// The mark at one end of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Head {
    None,
    /// `>` (or `<` at the start).
    Arrow,
    /// `o`.
    Circle,
    /// `x`.
    Cross,
}

/// A link between two nodes or subgraphs.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub from: Endpoint,
    pub to: Endpoint,
    pub label: String,
    pub stroke: Stroke,
    pub start: Head,
    pub end: Head,
    /// From `linkStyle`.
    pub style: Style,
    /// The line it is written on.
    pub line: usize,
}

impl Edge {
    /// The connector this link draws from `from` to `to`: its stroke (dotted
    /// dashed, thick 4 px wide) under its `linkStyle`, its text and its heads;
    /// `None` for an invisible link (`~~~`), which draws nothing.
    pub fn connector(&self, from: End, to: End) -> Option<Connector> {
        let mut style = Style::default();
        match self.stroke {
            Stroke::Invisible => return None,
            Stroke::Normal => {}
            Stroke::Dotted => style.dash = Some(Dash::Dashed),
            Stroke::Thick => style.stroke_width = Some(4.0),
        }
        style.merge(&self.style);
        let mut connector = Connector::new(from, to);
        connector.text = self.label.clone();
        connector.start_arrow = self.start.arrow();
        connector.end_arrow = self.end.arrow();
        connector.style = style;
        Some(connector)
    }
}

impl Head {
    /// The arrowhead a link end becomes: a cross as a diamond (a board has no
    /// cross; a diamond stays visible and does not read as a direction).
    pub fn arrow(self) -> Arrow {
        match self {
            Head::None => Arrow::None,
            Head::Arrow => Arrow::Arrow,
            Head::Circle => Arrow::Circle,
            Head::Cross => Arrow::Diamond,
        }
    }
}

/// A subgraph: a titled group of nodes (and of other subgraphs).
#[derive(Clone, Debug, PartialEq)]
pub struct Subgraph {
    pub id: String,
    pub title: String,
    /// The subgraph it is nested in: always an earlier one.
    pub parent: Option<usize>,
    /// Its own `direction` line, if it has one.
    pub direction: Option<Direction>,
    /// Its classes and `style` lines.
    pub style: Style,
}

/// Why a text is not a flowchart this reader takes. Every variant knows where in
/// the text it went wrong, counted from 1 (columns in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MermaidError {
    /// The text holds nothing but blanks and comments.
    Empty,
    /// The first line names a kind of diagram the reader does not take.
    Unsupported {
        line: usize,
        column: usize,
        found: String,
    },
    /// Something other than what the grammar allows at this point.
    Syntax {
        line: usize,
        column: usize,
        /// What would have been right, in words ("a node id after '-->'").
        expected: String,
        /// What is there, in words ("'}'", "the end of the line").
        found: String,
    },
    /// A `subgraph` never closed by `end`.
    Unclosed {
        line: usize,
        column: usize,
        subgraph: String,
        opened: usize,
    },
    /// A sequence diagram's block never closed by `end`.
    UnclosedBlock {
        line: usize,
        column: usize,
        /// Its keyword (`loop`, `alt`, `box`...).
        block: &'static str,
        opened: usize,
    },
    /// More nodes, links or text than one import takes.
    TooBig {
        line: usize,
        column: usize,
        what: &'static str,
        limit: usize,
    },
}

impl fmt::Display for MermaidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MermaidError::Empty => f.write_str(
                "the text holds no diagram: start it with a header like 'flowchart TD', 'graph LR' or 'sequenceDiagram'",
            ),
            MermaidError::Unsupported { line, column, found } => write!(
                f,
                "line {line}, column {column}: only Mermaid flowcharts, sequence, ER, state and class diagrams can be imported (a first line like 'flowchart TD', 'sequenceDiagram', 'erDiagram', 'stateDiagram-v2' or 'classDiagram'), found '{found}'"
            ),
            MermaidError::Syntax {
                line,
                column,
                expected,
                found,
            } => write!(
                f,
                "line {line}, column {column}: expected {expected}, found {found}"
            ),
            MermaidError::Unclosed {
                line,
                column,
                subgraph,
                opened,
            } => write!(
                f,
                "line {line}, column {column}: expected 'end' to close subgraph '{subgraph}' (opened on line {opened}), found the end of the text"
            ),
            MermaidError::UnclosedBlock {
                line,
                column,
                block,
                opened,
            } => write!(
                f,
                "line {line}, column {column}: expected 'end' to close '{block}' (opened on line {opened}), found the end of the text"
            ),
            MermaidError::TooBig {
                line,
                column,
                what,
                limit,
            } => write!(
                f,
                "line {line}, column {column}: more than {limit} {what}: split the diagram into several imports"
            ),
        }
    }
}

impl std::error::Error for MermaidError {}
