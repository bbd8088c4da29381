//! Locked objects and the tools: the one rule every tool that moves, resizes,
//! turns or deletes objects follows, so that what a person locked stays where
//! they put it.
//!
//! - An object a call **names** (in `id` or `ids`) that is locked is refused, with
//!   an error naming it and saying how to unlock it: `move`, `align`,
//!   `distribute`, `layout`, `delete`, `ungroup`, and `update`'s geometry (`x`, `y`, `w`, `h`,
//!   `rotation`, `from`, `to`) unless the same call unlocks it.
//! - An object a call only **carries along** (a frame's contents, a group's
//!   members, what a growing frame pushes, the whole page's `layout`) stays where
//!   it is when locked, with what it holds ([`crate::shift::moving_set`] leaves
//!   it out).
//! - What cannot stay behind is refused: `delete` of an object whose connector,
//!   group or member is locked names that locked object.
//!
//! Text, style, z-order and grouping are not guarded: a lock keeps an object's
//! place and size, as Excalidraw's and tldraw's do.

use inkboard_core::{Board, ObjectId};

use crate::ArrangeError;

/// True when `id` is a locked object.
pub fn is_locked(board: &Board, id: &ObjectId) -> bool {
    board.object(id).is_some_and(|o| o.locked)
}

/// Refuses a call that names a locked object in its argument `arg`.
pub fn refuse_named(board: &Board, ids: &[ObjectId], arg: &str) -> Result<(), ArrangeError> {
    match ids.iter().find(|id| is_locked(board, id)) {
        Some(id) => Err(named(arg, id)),
        None => Ok(()),
    }
}

/// The error for a locked object named in `arg`.
pub fn named(arg: &str, id: &ObjectId) -> ArrangeError {
    ArrangeError::Locked {
        arg: arg.to_string(),
        id: id.clone(),
    }
}

/// The error for a locked object that would go along with `with`, named.
pub fn carried(id: &ObjectId, with: &ObjectId) -> ArrangeError {
    ArrangeError::Carried {
        id: id.clone(),
        with: with.clone(),
    }
}
