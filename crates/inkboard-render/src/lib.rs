//! Rendering for inkboard: model → resolved scene → SVG, PNG and PDF, plus text
//! measurement with the bundled Inter fonts and the checks that the `render` tool
//! reports.
//!
//! The pipeline has one direction ("resolve first, draw dumbly"):
//!
//! 1. [`resolve`] makes a page of a [`Board`] into a [`Scene`]: styles resolved to
//!    concrete colours and widths ([`style`] holds the defaults), outlines made into
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
//! objects sticking out of frames, connectors through shapes or crossing, labels over
//! lines, arrowheads, shapes or each other, arrowheads on one point), with the same
//! text layout as the renderer and the connector lines, heads and labels of the
//! resolved scene, so a reported problem is exactly what the picture shows;
//! [`check`] resolves the page first, for a caller without its scene. Its corpus,
//! `tests/checker/`, holds it to 100% recall and precision.

mod backend;
mod check;
mod deadline;
mod error;
mod icon;
mod marks;
mod resolve;
mod rough;
pub mod route;
pub mod scene;
pub mod shapes;
pub mod style;
pub mod table;
pub mod text;
pub mod theme;

pub use backend::pdf::{to_pdf, to_pdf_within};
pub use backend::png::{
    to_png, to_png_scaled, to_png_scaled_within, to_png_within, Png, MAX_SCALE,
};
pub use backend::svg::{item_svg, to_svg, to_svg_with, SvgOptions};
pub use check::{check, check_scene, Problem, ProblemKind, MAX_PER_KIND};
pub use deadline::{Deadline, Stopped};
pub use error::{RenderError, MAX_ELEMENTS};
pub use inkboard_geom::clipped_length;
pub use resolve::{connector_lines, item_extent, resolve, resolve_within};
pub use route::labels::label_size;
pub use route::nudge::MIN_SPACING as MIN_LINE_GAP;
pub use scene::{Item, Part, Scene};
pub use text::fonts::{font_face_css, fontdb, latin_faces, system_families, WebFace};
pub use theme::Theme;
// `faces` and `fit` live in the text folder; these paths are kept for the callers
// (tests, fuzz targets) that name them from the crate root.
pub use text::{faces, fit};

#[doc(no_inline)]
pub use inkboard_core::{Board, PageId, Rect};
