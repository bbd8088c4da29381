//! Excalidraw: `.excalidraw` JSON, and the scene embedded in `.excalidraw.png`
//! (a `tEXt` chunk) and `.excalidraw.svg` (a base64 payload between
//! `<!-- payload-start -->` and `<!-- payload-end -->`). `envelope.rs` unwraps
//! the scene JSON, `element.rs` reads its elements into typed records, and
//! `map.rs` makes them into objects.

mod element;
mod envelope;
mod map;
mod write;

pub use write::to_excalidraw;

use inkboard_core::Board;

use crate::build::BoardBuilder;
use crate::{Format, ImportError, Lost};

/// Imports an Excalidraw file of the given (detected) format.
pub(crate) fn import(
    bytes: &[u8],
    format: Format,
    title: String,
) -> Result<(Board, Vec<Lost>), ImportError> {
    let json = envelope::scene_text(bytes, format)?;
    let scene = element::Scene::parse(&json)?;
    let mut b = BoardBuilder::new(title);
    b.page("")?;
    map::scene(&mut b, &scene);
    b.finish()
}
