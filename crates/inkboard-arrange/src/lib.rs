//! Arranging boards: where shapes go, how big they are, and what moves with
//! what. Every tool that places, moves, grows or lays out objects (`add_shape`,
//! `move`, `align`, `update`, `layout`, the Mermaid import) does it through this
//! crate, so that a frame grows, pushes its neighbours and carries its contents
//! by one rule whoever asks.
//!
//! The API takes a core [`Transaction`](inkboard_core::Transaction) and a page
//! (and plain option values), edits inside the transaction, and returns what it
//! changed or an [`ArrangeError`]; the caller commits or drops the transaction,
//! so an error changes nothing. It knows nothing of MCP, JSON, argument schemas
//! or files: the tools map their arguments onto the plain types here.
//!
//! - [`place`]: free-space placement in reading order, placement beside an
//!   object or into a frame ([`place::relative`]), frames growing to hold what
//!   is put in them and pushing what they would cover ([`place::make_room`]),
//!   and shapes sized to fit their text ([`place::fit_text`]), measured with
//!   the renderer's fonts.
//! - [`shift`]: moving and turning objects with what they carry.
//! - [`lifeline`]: a sequence diagram's columns and message order, as a
//!   person edits them.
//! - [`align`]: aligning, distributing and restacking, as an Arrange menu does.
//! - [`locked`]: the one rule for locked objects.
//! - [`layout`]: the page as a graph for `inkboard-layout` and its result
//!   written back (frames as clusters, connectors restyled, crowded channels
//!   widened as the renderer routes them).
//! - [`flowchart`]: a flowchart's first placement, for the Mermaid import.
//! - [`sequence`]: a sequence diagram's placement, for the Mermaid import.

pub mod align;
mod channels;
mod error;
pub mod flowchart;
pub mod layout;
pub mod lifeline;
mod links;
pub mod locked;
pub mod place;
pub mod sequence;
pub mod shift;

pub use error::ArrangeError;
pub use layout::{arrange, arrange_with, Algorithm, Direction, LayoutOptions};
