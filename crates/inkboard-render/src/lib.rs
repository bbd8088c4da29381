//! Rendering support for inkboard.
//!
//! For now this crate holds the [`text`] module: text measurement and line
//! layout with the bundled Inter fonts. The renderer and the shape
//! auto-sizing code both go through it, so a label measures the same width
//! in both places. The renderer itself will be added here later.

pub mod text;
