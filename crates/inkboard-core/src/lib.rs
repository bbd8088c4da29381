//! The inkboard model: a board of pages, each page a z-ordered list of objects
//! (shapes, connectors, images, ink strokes, groups), and the only way to change it,
//! a [`Transaction`] that commits whole or leaves no trace.
//!
//! This crate is pure: it knows nothing of JSON, files, MCP or HTTP. The format crate
//! makes boards into files, the tools crate makes tool calls into transactions, and
//! both rely on the invariants kept here:
//!
//! - every object id is unique within its board and never reused;
//! - every connector end and group member refers to an object on the same page;
//! - every record is within the board's [`limits`], checked on each step;
//! - a committed change is a value ([`Commit`]): the before and after of each record
//!   it touched, so undo is a swap and the change log is a projection of it.

#[cfg(feature = "arbitrary")]
pub mod arbitrary;
mod board;
mod change;
mod color;
pub mod diagram;
pub mod echo;
mod error;
mod history;
mod id;
mod image;
pub mod limits;
mod link;
mod merge;
mod object;
mod order;
mod rewrite;
pub mod rich;
mod style;
mod tx;
pub mod xml;

pub use board::{Board, Page};
pub use change::{diff_boards, Change, ChangeKind};
pub use color::{css_color, Color, Palette};
pub use error::ModelError;
pub use history::History;
pub use id::{IdKind, ObjectId, PageId};
pub use inkboard_geom::{Point, Rect, Rotation};
pub use link::{Flip, IconName, Link, MAX_ICON_NAME, MAX_LINK};
pub use merge::{MergeError, Overlap};
pub use object::{
    Arrow, ByHand, Connector, End, Extra, Geom, Group, Image, ImageFormat, Ink, Kind, Object,
    Route, Shape, Side, Sizing, Table, FRAME_TITLE_HEIGHT, ICON_GAP, ICON_SIDE,
};
pub use order::Moved;
pub use style::{Align, Dash, FillStyle, Font, Style, VAlign};
pub use tx::{Actor, Commit, Savepoint, Step, Transaction};

/// Names the values of a closed vocabulary (geometries, arrowheads, palette colours...)
/// so that parsers, schemas and error messages all list the same words.
pub trait Vocabulary: Sized + Copy + 'static {
    /// Every value, in the order documentation lists them.
    const ALL: &'static [Self];
    /// What the vocabulary is called in messages, e.g. "geom".
    const WHAT: &'static str;
    /// The word for this value.
    fn name(self) -> &'static str;

    /// Parses a word of the vocabulary; the error lists the accepted words.
    fn parse(word: &str) -> Result<Self, ModelError> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.name() == word)
            .ok_or_else(|| ModelError::UnknownWord {
                what: Self::WHAT,
                word: echo::echo(word).into_owned(),
                expected: Self::ALL
                    .iter()
                    .map(|v| v.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

/// Declares a fieldless enum together with its [`Vocabulary`] words.
#[macro_export]
macro_rules! vocabulary {
    ($(#[$meta:meta])* $vis:vis enum $name:ident as $what:literal { $($(#[$vmeta:meta])* $variant:ident = $word:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name { $($(#[$vmeta])* $variant),+ }
        impl $crate::Vocabulary for $name {
            const ALL: &'static [Self] = &[$(Self::$variant),+];
            const WHAT: &'static str = $what;
            fn name(self) -> &'static str { match self { $(Self::$variant => $word),+ } }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($crate::Vocabulary::name(*self))
            }
        }
    };
}
