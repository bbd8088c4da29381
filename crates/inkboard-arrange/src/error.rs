//! Why arranging a board can fail. Each message is one sentence naming the
//! object or argument at fault and what to do, worded for the tool call that
//! asked: the tools crate hands these messages on as they are.

use inkboard_core::{ModelError, ObjectId};

/// How an error about a locked object ends: what to do about it.
const UNLOCK: &str = "unlock it first (update with locked: false)";

/// Why an arrangement failed. The transaction it ran in is then left as it was
/// when the error happened: the caller drops it, so nothing changes.
#[derive(Debug, thiserror::Error)]
pub enum ArrangeError {
    /// The model refused an edit (a missing object, a limit).
    #[error(transparent)]
    Model(#[from] ModelError),
    /// An object named in the argument `arg` is locked (`locked.rs`).
    #[error("'{arg}': \"{id}\" is locked: {UNLOCK}")]
    Locked { arg: String, id: ObjectId },
    /// A locked object would have to go along with another, named one.
    #[error("\"{id}\" is locked and would go with \"{with}\": {UNLOCK}")]
    Carried { id: ObjectId, with: ObjectId },
    /// An object without an extent (a connector whose ends are gone, an empty
    /// group) was to be placed or aligned.
    #[error("\"{0}\" has no extent to place or align")]
    NoExtent(ObjectId),
    /// The page to arrange is not on the board.
    #[error("the page is gone")]
    NoPage,
    /// The objects named for a layout hold no shape, image or ink.
    #[error("'ids' holds no shapes or images to lay out: give shape ids, or leave 'ids' out to lay out the whole page")]
    NothingToLayOut,
    /// A swimlane layout found no frame to use as a lane.
    #[error("'lanes' lays out frames as lanes, and there is none: add frames (a frame holding frames is a pool of lanes), or name them in 'ids'")]
    NoLanes,
    /// The layout crate refused the graph (sizes, frames), in its own words.
    #[error("layout: {0}")]
    Layout(inkboard_layout::LayoutError),
    /// The caller's stop check said stop; the caller knows why (cancelled,
    /// past a deadline) and says so.
    #[error("the layout was stopped")]
    Stopped,
}

impl From<inkboard_layout::LayoutError> for ArrangeError {
    fn from(e: inkboard_layout::LayoutError) -> Self {
        match e {
            inkboard_layout::LayoutError::Stopped => ArrangeError::Stopped,
            e => ArrangeError::Layout(e),
        }
    }
}
