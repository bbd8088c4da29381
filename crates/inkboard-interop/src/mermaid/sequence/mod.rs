//! Mermaid sequence diagrams, read into a typed [`Sequence`] for `import_mermaid`.
//!
//! The reader takes what Mermaid's documentation shows: `participant` and
//! `actor` lines (with `as` aliases, and `@{ "type": "database" }`),
//! messages with every arrow Mermaid writes (`->`, `-->`, `->>`, `-->>`, `-x`,
//! `--x`, `-)`, `--)`, `<<->>`, `<<-->>`) and their `+`/`-` activation
//! shorthands, `activate`/`deactivate`, the blocks `loop`, `alt`/`else`, `opt`,
//! `par`/`and`, `critical`/`option`, `break` and `rect` (nested), notes
//! (`Note left of A`, `right of A`, `over A,B`), `autonumber` (with a start, a
//! step, or `off`), `%%` comments and `;` separators. Keywords are read in any
//! case, as Mermaid reads them.
//!
//! [`to_sequence`] writes a page's sequence diagram back as Mermaid text.
//!
//! [`parse`] makes text into a [`Sequence`], whose
//! participants are resolved (each message, note and activation names one by
//! index) and whose events keep the text's order. The tool `import_mermaid`
//! places it with `inkboard-arrange`'s `sequence` module and draws it as
//! shapes, connectors and frames.
//!
//! Nothing is dropped without a word: what a board cannot show (`box` groups,
//! `create` and `destroy`, `title`, `links`, `accTitle`, directives, front
//! matter, a cross end) becomes a [`Note`] with its line, which the tool's
//! answer lists.
//!
//! Limitations: participant names are read as Mermaid's lexer reads them (no
//! `-`, `<`, `>`, `+`, `:`, `,` or `;` inside a name); `box` groups, `create`
//! and `destroy` are noted, not drawn (every participant heads the diagram and
//! its lifeline runs to the end); `rect` colours are left out.

mod parse;
mod write;

pub(crate) use parse::is_sequence;
pub use parse::parse;
pub use write::{is_sequence_page, to_sequence};

/// Above an actor's name in its head's text: a person, as a board has no
/// stick-figure outline (what the import writes and the export reads).
pub const PERSON: &str = "\u{1F464}";

use super::{Counted, Note};

/// The most participants one import may make: wider than any screen already.
pub const MAX_PARTICIPANTS: usize = 100;
/// The most events (messages, notes, activations and block lines) one import
/// may make.
pub const MAX_EVENTS: usize = 2000;
/// The deepest blocks may nest.
pub const MAX_DEPTH: usize = 16;

/// A parsed sequence diagram: what the text says, resolved, before any geometry.
#[derive(Clone, Debug, PartialEq)]
pub struct Sequence {
    /// Every participant, in the order it was first declared or mentioned (the
    /// order Mermaid puts them in, left to right).
    pub participants: Vec<Participant>,
    /// What happens, top to bottom, in the order written.
    pub events: Vec<Event>,
    /// What the text says that the import leaves out, in the order written.
    pub notes: Vec<Note>,
}

/// One column of the diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct Participant {
    /// The name messages use.
    pub id: String,
    /// What its box shows: the alias after `as`, else the id (rich text).
    pub label: String,
    pub kind: ParticipantKind,
    /// The line it was declared on (or first mentioned on).
    pub line: usize,
}

/// How a participant is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParticipantKind {
    /// `participant`: a box.
    Box,
    /// `actor` (or `@{ "type": "actor" }`): a person.
    Actor,
    /// `@{ "type": "database" }`: a cylinder.
    Database,
}

/// Something that happens, in the order written.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Message(Message),
    Note(SequenceNote),
    /// `activate A`: a bar starts on A's lifeline.
    Activate(usize),
    /// `deactivate A`: A's innermost bar ends.
    Deactivate(usize),
    /// A block opens: its first section, titled with its keyword and condition.
    Open {
        kind: BlockKind,
        label: String,
    },
    /// `else`, `and` or `option`: the open block's next section.
    Section {
        label: String,
    },
    /// `end`: the innermost open block closes.
    Close,
}

/// A message: an arrow from one lifeline to another (or back to its own).
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// Index into [`Sequence::participants`].
    pub from: usize,
    pub to: usize,
    /// Its text, plain, `<br>` made line breaks, with its `autonumber` number in
    /// front ("1. ") when numbering is on.
    pub text: String,
    /// `--`: a dashed line (a reply).
    pub dashed: bool,
    /// The mark at its start (`<<` of `<<->>`) and at its end.
    pub start: Head,
    pub end: Head,
    /// `+`: the target's bar starts with this message.
    pub activate: bool,
    /// `-`: the source's bar ends with this message.
    pub deactivate: bool,
    /// The line it is written on.
    pub line: usize,
}

/// The mark at one end of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Head {
    /// `->`, `-->`: no head.
    None,
    /// `->>`: a filled arrowhead.
    Filled,
    /// `-)`: an open arrowhead (an asynchronous message).
    Open,
    /// `-x`: a cross (a lost message).
    Cross,
}

/// A note beside or over lifelines.
#[derive(Clone, Debug, PartialEq)]
pub struct SequenceNote {
    pub place: NotePlace,
    /// Its text (rich text, as a shape's).
    pub text: String,
    pub line: usize,
}

/// Where a note goes, by participant index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotePlace {
    LeftOf(usize),
    RightOf(usize),
    /// Over one lifeline (both the same) or spanning from one to the other.
    Over(usize, usize),
}

/// What kind of block a frame draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    Loop,
    Alt,
    Opt,
    Par,
    Critical,
    Break,
    /// `rect COLOUR`: a highlighted area, drawn as an untitled frame.
    Rect,
}

impl BlockKind {
    /// The keyword that opens it.
    pub fn keyword(self) -> &'static str {
        match self {
            BlockKind::Loop => "loop",
            BlockKind::Alt => "alt",
            BlockKind::Opt => "opt",
            BlockKind::Par => "par",
            BlockKind::Critical => "critical",
            BlockKind::Break => "break",
            BlockKind::Rect => "rect",
        }
    }

    /// The keyword of its further sections, if it may have some.
    pub fn section(self) -> Option<&'static str> {
        match self {
            BlockKind::Alt => Some("else"),
            BlockKind::Par => Some("and"),
            BlockKind::Critical => Some("option"),
            _ => None,
        }
    }

    /// The title of a section: its keyword and its condition in brackets, as
    /// Mermaid draws them ("alt [is sick]", "else", "loop [Every minute]"); a
    /// `rect` has none.
    pub fn title(self, keyword: &str, label: &str) -> String {
        match (self, label.is_empty()) {
            (BlockKind::Rect, _) => String::new(),
            (_, true) => keyword.to_string(),
            (_, false) => format!("{keyword} [{label}]"),
        }
    }
}

impl Sequence {
    /// What a drawing of the diagram leaves out or draws otherwise: the parser's
    /// notes and a note for each cross end, counted by kind and message.
    pub fn report(&self) -> Vec<Counted> {
        let crosses = self.events.iter().filter_map(|e| match e {
            Event::Message(m) if m.start == Head::Cross || m.end == Head::Cross => Some(Note {
                kind: super::NoteKind::Link,
                line: m.line,
                message: "cross end 'x' drawn as a diamond: a board has no cross".into(),
            }),
            _ => None,
        });
        super::report::count(self.notes.iter().cloned().chain(crosses).collect())
    }

    /// The title of each frame the diagram draws, one per section, in the order
    /// the sections open (an `Open` then each of its `Section`s).
    pub fn frame_titles(&self) -> Vec<String> {
        let mut open: Vec<BlockKind> = Vec::new();
        let mut titles = Vec::new();
        for e in &self.events {
            match e {
                Event::Open { kind, label } => {
                    titles.push(kind.title(kind.keyword(), label));
                    open.push(*kind);
                }
                Event::Section { label } => {
                    if let Some(kind) = open.last() {
                        titles.push(kind.title(kind.section().unwrap_or(""), label));
                    }
                }
                Event::Close => {
                    open.pop();
                }
                _ => {}
            }
        }
        titles
    }
}
