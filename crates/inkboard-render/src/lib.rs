//! Rendering for inkboard: model → resolved scene → SVG, PNG and PDF, plus text
//! measurement with the bundled Inter fonts and the checks that the `render` tool
//! reports.
//!
//! The pipeline has one direction ("resolve first, draw dumbly"):
//!
//! 1. [`resolve`] turns a page of a [`Board`] into a [`Scene`]: styles resolved to
//!    concrete colours and widths ([`style`] holds the defaults), outlines turned into
//!    paths ([`shapes`]), connectors routed ([`route`]; a page's connectors together,
//!    so they can share sides and keep their labels apart), text wrapped into
//!    positioned lines ([`fit`], on top of [`text`]).
//! 2. [`to_svg`] writes the scene as a self-contained SVG, one `<g id>` per object.
//! 3. [`to_png`] and [`to_pdf`] parse that SVG with usvg, using [`fontdb`] (the
//!    bundled fonts and nothing else), and draw the same tree with resvg or, through
//!    krilla-svg, with krilla. The PNG fills most letters itself from the scene's
//!    own layout (`glyphs.rs`), in the faces and places usvg would use.
//!
//! A scene is painted in the board's own colours, or in the editor's dark view of
//! them ([`Theme`], [`theme`]), by the backends as they write each colour.
//!
//! [`check_scene`] finds what is wrong with a page (overlaps, text that does not fit,
//! free connector ends, objects sticking out of frames, connectors through shapes or
//! crossing), with the same text layout as the renderer and the connector lines of
//! the resolved scene, so a reported problem is exactly what the picture shows;
//! [`check`] resolves the page first, for a caller without its scene.

mod bends;
mod buckets;
mod budget;
mod bus;
mod check;
mod connectors;
mod error;
pub mod faces;
pub mod fit;
mod fonts;
mod glyphs;
mod labels;
mod marks;
mod nudge;
mod orthogonal;
pub mod outline;
mod pdf;
mod png;
mod resolve;
mod richtext;
pub mod route;
pub mod scene;
pub mod shapes;
pub mod style;
mod svg;
pub mod text;
pub mod theme;

pub use check::{check, check_scene, Problem, ProblemKind, MAX_PER_KIND};
pub use error::RenderError;
pub use fonts::font_face_css;
pub use fonts::{fontdb, system_families};
pub use labels::clipped_length;
pub use nudge::MIN_SPACING as MIN_LINE_GAP;
pub use pdf::to_pdf;
pub use png::{to_png, to_png_scaled, Png, MAX_SCALE};
pub use resolve::{connector_lines, item_extent, resolve};
pub use scene::{Item, Part, Scene};
pub use svg::{item_svg, to_svg, to_svg_with, SvgOptions};
pub use theme::Theme;

#[doc(no_inline)]
pub use inkboard_core::{Board, PageId, Rect};
