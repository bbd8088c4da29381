//! The errors of the model: what a transaction or a parse of a model value refuses.
//! Each message names the thing that was wrong and how to put it right.

use crate::id::{ObjectId, PageId};
use crate::limits::Limit;

/// Why the model refused a value or a change.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModelError {
    /// A word outside a closed vocabulary (geom, arrow, colour name...).
    #[error("unknown {what} \"{word}\": use one of {expected}")]
    UnknownWord {
        what: &'static str,
        word: String,
        expected: String,
    },
    /// A colour that is not CSS hex, a palette name or a CSS colour name;
    /// `nearest` is what the writer most likely meant, when there is a guess.
    #[error(
        "invalid colour \"{given}\"{}: use CSS hex like \"#1e88e5\", a palette name ({}) or a CSS colour name like \"lightblue\"",
        .nearest.as_ref().map(|n| format!(" (did you mean \"{n}\"?)")).unwrap_or_default(),
        crate::color::palette_names()
    )]
    BadColor {
        given: String,
        nearest: Option<String>,
    },
    /// An id that is empty or has characters ids may not have.
    #[error("invalid id \"{0}\": ids are letters, digits, '-' or '_'")]
    BadId(String),
    /// No object with this id on the board.
    #[error("no object \"{0}\" on this board: use an id from read_board or find")]
    NoSuchObject(ObjectId),
    /// No page with this id on the board.
    #[error("no page {0} on this board")]
    NoSuchPage(PageId),
    /// Two objects with the same id.
    #[error("the id \"{0}\" is used twice on this board")]
    DuplicateId(ObjectId),
    /// Two pages with the same id.
    #[error("the page id {0} is used twice on this board: give each page its own id")]
    DuplicatePage(PageId),
    /// A position past the end of a page's objects or of the board's pages.
    #[error("no position {index} here: there are {len}, numbered from 0")]
    NoSuchPosition { index: usize, len: usize },
    /// A connector end pointing at a missing object.
    #[error("connector \"{connector}\" refers to no object \"{end}\" on its page")]
    DanglingConnector { connector: ObjectId, end: ObjectId },
    /// A group member that is missing.
    #[error("group \"{group}\" refers to no object \"{member}\" on its page")]
    DanglingMember { group: ObjectId, member: ObjectId },
    /// A group among its own members, directly or through other groups.
    #[error("group \"{0}\" would hold itself, directly or through another group: take it out of the members")]
    GroupCycle(ObjectId),
    /// A recorded change (an undo, a redo, a revert) that no longer fits the board:
    /// the record it touches (named here) was changed or moved since.
    #[error("{0} changed since this change was made, so it cannot be undone or redone: take back the later changes first")]
    Stale(String),
    /// The last page cannot go.
    #[error("a board keeps at least one page: add another page before deleting this one")]
    LastPage,
    /// Something holds more than one of the board's limits allows (see
    /// [`crate::limits`]): `what` names it, `got` is how much it holds.
    #[error("{}", limit.explain(what, *got))]
    TooLarge {
        limit: Limit,
        what: String,
        got: u64,
    },
    /// A link that is too long or not safe to follow (see [`crate::Link`]).
    #[error("link \"{link}\" is {why}")]
    BadLink { link: String, why: &'static str },
    /// An icon name not spelled as icon names are (see [`crate::IconName`]).
    #[error("invalid icon name \"{0}\": icon names are lower-case words joined by '-', like \"hard-drive\"")]
    BadIconName(String),
    /// XML that declares entities where none are read, or entities that hold
    /// markup or refer to themselves (see [`crate::xml`]): a few bytes of them can
    /// expand to gigabytes.
    #[error("{what} declares XML entities {}: save it again without them", problem.words())]
    XmlEntities {
        what: String,
        problem: crate::xml::EntityProblem,
    },
    /// A number that must be finite (and sometimes non-negative) was not.
    #[error("{what} must be a finite number{extra}, got {}", shown(*value))]
    BadNumber {
        what: &'static str,
        value: f64,
        extra: &'static str,
    },
}

/// A number as a message shows it: huge ones in exponent form (`1e300`), which
/// plain formatting would write out in hundreds of digits.
fn shown(value: f64) -> String {
    if value.is_finite() && value.abs() >= 1e16 {
        format!("{value:e}")
    } else {
        value.to_string()
    }
}
