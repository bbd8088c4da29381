//! The back ends: a resolved [`Scene`](crate::Scene) written as SVG, PNG or PDF.
//!
//! They decide nothing about the drawing. [`svg`] writes the scene as a
//! self-contained SVG; `png` parses that SVG with usvg and draws it with resvg, filling
//! most letters itself from the scene's own layout (`glyphs`) through cached
//! coverage masks (`coverage`) and notes' shadows from cached sprites
//! (`shadows`); `pdf` draws the same usvg
//! tree onto a page through krilla-svg. `budget` prices embedded SVG images before
//! either rasterizes them, so one image cannot ask for minutes of work.

pub(crate) mod budget;
pub(crate) mod coverage;
pub(crate) mod encode;
pub(crate) mod glyphs;
pub(crate) mod pdf;
pub(crate) mod png;
pub(crate) mod shadows;
pub(crate) mod svg;
