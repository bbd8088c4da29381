//! Text and fonts: measuring and laying out text exactly as it is drawn.
//!
//! `measure` shapes and wraps text with the bundled faces and their fallbacks; its
//! items are this module's own (`text::layout`, `text::Weight`). [`faces`] picks the
//! face of every character (the fallback chain) and loads the bundled fonts once;
//! `fonts` builds the font database usvg draws with and the CSS that names the same
//! faces. [`fit`] is the rule that fits a shape's text into its box (wrap, then
//! shrink), shared by the renderer and the checker; `wrap` finds where long text breaks
//! without measuring it all; `rich` lays out formatted text (Markdown marks) on top of
//! the same measurement; `subset` cuts a bundled face down to the characters a
//! picture draws, for the fonts an SVG embeds.

pub mod faces;
pub mod fit;
pub(crate) mod fonts;
mod measure;
pub(crate) mod rich;
pub(crate) mod subset;
pub(crate) mod wrap;

// The measurement is the face of this module, as it was before text had a folder:
// `text::layout`, `text::Weight`, `text::LINE_HEIGHT` for the crate and its callers.
pub use measure::*;
