//! Mermaid state diagrams (`stateDiagram-v2` and the older `stateDiagram`),
//! read into a typed [`StateDiagram`] for `import_mermaid`, and a page of state
//! shapes written back as one ([`to_state`]).
//!
//! The reader takes what Mermaid's documentation shows: states named alone, with
//! a long name (`state "Long name" as s`) or descriptions (`s : text`, several
//! stack); transitions `a --> b : label`; `[*]` as the start (on the left of
//! `-->`) or the end (on the right), one start and one end per composite state
//! or concurrency region, as Mermaid draws them; composite states
//! `state X { ... }`, nested, split into concurrency regions by `--` lines;
//! `<<choice>>`, `<<fork>>` and `<<join>>`; notes `note left of X` / `right of`,
//! on one line after `:` or up to `end note`; `direction`, at the top or in a
//! composite state; `%%` comments, also at the end of a line. What a board does
//! not draw (`classDef`, `class`, `style`, `:::`, `accTitle`, `accDescr`,
//! `title`, `hide empty description`, `scale`, floating notes, directives, front
//! matter) becomes a [`Note`] with its line.
//!
//! A state is a rounded box; a start a filled black circle; an end a ring around
//! a disc (`geom: "end_state"`); a choice a small diamond; a fork or a join a
//! black bar across the flow; a composite state a frame holding its states, a
//! concurrency region an untitled dashed frame inside it. The tool lays them out
//! with frames as clusters.
//!
//! Limitations: a state belongs to the composite state it is first mentioned
//! in; a stereotype other than choice, fork and join is refused; a transition is
//! one arrow (no chains); `;` does not separate statements.

mod parse;
mod write;

pub(crate) use parse::is_state;
pub use parse::parse;
pub use write::{is_state_page, to_state};

use super::{Counted, Direction, Note};

/// The most states (with the starts, ends and composite states) one import may
/// make.
pub const MAX_STATES: usize = super::MAX_NODES;
/// The most transitions one import may make.
pub const MAX_TRANSITIONS: usize = super::MAX_EDGES;

/// A parsed state diagram: what the text says, resolved, before any geometry.
#[derive(Clone, Debug, PartialEq)]
pub struct StateDiagram {
    /// The top-level `direction`, else top to bottom, as Mermaid draws it.
    pub direction: Direction,
    /// Every simple state, start, end, choice, fork and join, in the order
    /// first mentioned.
    pub states: Vec<State>,
    /// Every composite state and concurrency region (parents first).
    pub composites: Vec<Composite>,
    /// Every transition, in the order written.
    pub transitions: Vec<Transition>,
    /// Every note beside a state, in the order written.
    pub notes_beside: Vec<StateNote>,
    /// What the text says that the import leaves out, in the order written.
    pub notes: Vec<Note>,
}

/// What kind of state a [`State`] is: what it is drawn as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateKind {
    /// A rounded box with its name.
    Plain,
    /// `[*] -->`: a filled circle.
    Start,
    /// `--> [*]`: a ring around a disc.
    End,
    /// `<<choice>>`: a small diamond.
    Choice,
    /// `<<fork>>`: a bar across the flow.
    Fork,
    /// `<<join>>`: a bar across the flow.
    Join,
}

/// A state that is not composite.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Its name in the text (`[*]` for a start or an end).
    pub id: String,
    /// What its box shows: its long name, then its descriptions, one a line;
    /// its id when it has neither; empty for the marks.
    pub label: String,
    pub kind: StateKind,
    /// The composite state or region it lies in (index into
    /// [`StateDiagram::composites`]).
    pub parent: Option<usize>,
    /// The line it was first mentioned on.
    pub line: usize,
}

/// A composite state (a frame titled with its name), or a concurrency region of
/// one (an untitled frame inside it).
#[derive(Clone, Debug, PartialEq)]
pub struct Composite {
    /// Its name in the text; a region's is its composite's with `--` and its
    /// number.
    pub id: String,
    /// Its title: its long name and descriptions, else its id; empty for a region.
    pub title: String,
    /// The composite state (or region) it lies in: always an earlier one.
    pub parent: Option<usize>,
    /// Its own `direction` line, if it has one.
    pub direction: Option<Direction>,
    /// True for a concurrency region.
    pub region: bool,
    /// The line its body opens on.
    pub line: usize,
}

/// One end of a transition or a note's place: a state or a composite state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// Index into [`StateDiagram::states`].
    State(usize),
    /// Index into [`StateDiagram::composites`].
    Composite(usize),
}

/// A transition between two states.
#[derive(Clone, Debug, PartialEq)]
pub struct Transition {
    pub from: Endpoint,
    pub to: Endpoint,
    pub label: String,
    pub line: usize,
}

/// A note beside a state: a sticky note on its left or right.
#[derive(Clone, Debug, PartialEq)]
pub struct StateNote {
    pub of: Endpoint,
    /// `left of` (else `right of`).
    pub left: bool,
    pub text: String,
    pub line: usize,
}

impl StateDiagram {
    /// What a drawing of the diagram leaves out, counted by kind and message,
    /// in the order first written.
    pub fn report(&self) -> Vec<Counted> {
        super::report::count(self.notes.clone())
    }

    /// The composite `c` and those around it, innermost first.
    pub fn enclosing(&self, c: Option<usize>) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(c, |&c| self.composites[c].parent)
    }

    /// The direction the flow runs in inside composite `c` (`None`: the top
    /// level): its own, else the nearest around it, else the diagram's.
    pub fn direction_in(&self, c: Option<usize>) -> Direction {
        self.enclosing(c)
            .find_map(|c| self.composites[c].direction)
            .unwrap_or(self.direction)
    }
}
