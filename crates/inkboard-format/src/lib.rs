//! inkboard's files: the on-disk JSON of a board, its versions and migrations, the JSON
//! form of objects that tool reads return, and safe file I/O.
//!
//! Two modules, one per noun:
//!
//! - [`json`](mod@json) makes the model of `inkboard-core` into JSON and back. Reading is
//!   strict (every field is checked, every error names where it is in the document
//!   and what was expected) but keeps what it does not know: unknown fields on the
//!   board, a page or an object are carried in the record's `Extra` and written back
//!   verbatim, so a file from a newer or foreign writer survives a round trip.
//! - [`file`](mod@file) reads and writes board files: atomic saves (temp file, fsync, rename),
//!   change detection by content [`Stamp`] so a save never overwrites
//!   an edit made by someone else (a [`Stat`] may spare re-reading a file that did
//!   not move, never a save's check), and an advisory [`FileLock`] that
//!   every inkboard process takes around a read-modify-write.
//!
//! This crate knows nothing of MCP or HTTP: its errors speak of files and fields.
//!
//! **Invariant: a file written by this crate loads back to an equal board, and saving
//! that board again gives the same bytes.**

mod error;
pub mod file;
pub mod json;

pub use error::FormatError;
pub use file::{
    board_from_bytes, export_target, follow_links, load, normalize, save, save_export,
    save_overwrite, stamp_of, stat_of, write_export, Existing, FileKind, FileLock, Loaded, Saved,
    Stamp, Stat,
};
pub use json::{
    board_from_json, board_to_json, to_pretty_string, Detail, FORMAT_VERSION, READ_INK_POINTS,
};
