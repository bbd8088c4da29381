//! The JSON form of a board: the file document, and the compact form of single
//! objects that tool reads return. Both share one writer and one reader, so a read
//! shows an object exactly as the file holds it (images aside, see [`Detail`]). The
//! writer speaks to a sink (`sink.rs`): a `Value` tree for reads, file text for saves.
//!
//! Writing is compact: fields at their default are left out, numbers are rounded to
//! 0.01, and keys come in a fixed order (the known fields as documented on
//! [`object_to_json`], then unknown fields sorted), so equal boards give equal bytes.
//! Reading goes parse → migrate → check → [`Board::from_parts`](inkboard_core::Board::from_parts):
//! every error names its place in the document. The [limits](inkboard_core::limits)
//! are checked on the way: size and nesting on the text before it is parsed, counts
//! before a list is read, and each object's numbers, texts and image as it is read.

mod board;
mod change;
mod depth;
mod migrate;
mod object;
mod pretty;
mod read;
mod sink;

pub use board::{board_from_json, board_to_json, to_pretty_string};
pub use change::{commit_from_json, commit_to_json, StoredSteps};
pub use depth::depth;
pub use object::{num, object_from_json, object_from_json_at, object_to_json, style_to_json};

/// The version of the file format this build writes, and the newest it reads. Older
/// versions are migrated on load (see `migrate.rs`).
pub const FORMAT_VERSION: u64 = 3;

/// How much of an object to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Everything, as saved in the file.
    File,
    /// As tool reads show it: like `File`, but an image's bytes are replaced by their
    /// count (`"bytes": n`), since a data URL is of no use to a reader and can be huge;
    /// and an ink stroke of more than [`READ_INK_POINTS`] points shows that many,
    /// spread along it (the first and the last kept), with `"point_count": n`: a
    /// stroke of 50,000 points (a board of them can be 200 MB) would be megabytes
    /// of numbers an agent cannot use, and gigabytes of memory to answer.
    Read,
    /// As the editor shows it: like `Read`, but every point of an ink stroke (the
    /// editor copies and pastes strokes whole).
    Editor,
}

/// The most points of an ink stroke a [`Detail::Read`] shows.
pub const READ_INK_POINTS: usize = 256;
