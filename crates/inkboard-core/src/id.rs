//! Typed ids: [`ObjectId`] for objects (`s12`, `c3`...) and [`PageId`] for pages.
//! Ids are short, unique within a board and stable across saves; the board hands
//! out new ones from a counter that is saved with it, so an id is never reused.

use std::fmt;
use std::sync::Arc;

use crate::ModelError;

/// The id of an object, unique within its board. Cheap to clone.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(Arc<str>);

impl ObjectId {
    /// Parses an id as found in a file or a tool argument.
    pub fn parse(text: &str) -> Result<Self, ModelError> {
        let ok = !text.is_empty()
            && text.len() <= 64
            && text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if ok {
            Ok(Self(Arc::from(text)))
        } else {
            Err(ModelError::BadId(crate::echo::echo(text).into_owned()))
        }
    }

    /// Makes the id for counter value `n` of an object of this kind.
    pub fn new(kind: IdKind, n: u64) -> Self {
        Self(Arc::from(format!("{}{n}", kind.prefix())))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The counter value of an id made by [`ObjectId::new`], if it is one.
    pub fn counter(&self) -> Option<u64> {
        let digits = self.0.trim_start_matches(|c: char| c.is_ascii_lowercase());
        if digits.len() == self.0.len() {
            return None;
        }
        digits.parse().ok()
    }
}

impl fmt::Display for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", &*self.0)
    }
}

/// Which prefix a new id gets, so that ids say what they name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdKind {
    Shape,
    Connector,
    Image,
    Ink,
    Group,
}

impl IdKind {
    fn prefix(self) -> &'static str {
        match self {
            IdKind::Shape => "s",
            IdKind::Connector => "c",
            IdKind::Image => "i",
            IdKind::Ink => "k",
            IdKind::Group => "g",
        }
    }
}

/// The stable id of a page. Pages are shown to people by number and name; the id
/// survives renames and reordering so that history and change logs stay valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PageId(pub u32);

impl fmt::Display for PageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}", self.0)
    }
}

impl PageId {
    /// Parses `p7` as written by [`Display`](fmt::Display).
    pub fn parse(text: &str) -> Option<Self> {
        text.strip_prefix('p')?.parse().ok().map(PageId)
    }
}
