//! Plane geometry for inkboard, at the bottom of the crate graph: the [`Point`],
//! [`Rect`] and [`Rotation`] of board units that the model (`inkboard-core`
//! re-exports them), the graph layout and the renderer all speak. It depends on
//! nothing, so the layout, which must not know the model, shares it too.
//!
//! Segment and polyline math lives here once, so that the renderer's checker, its
//! routing and the layout's quality measures agree on what a crossing or a length
//! is (Excalidraw keeps `packages/math` under `packages/element` for the same
//! reason). Everything is plain `f64` arithmetic in a fixed order: the same inputs
//! give the same bits, which the renderer's byte-identical goldens rely on.

mod plane;
mod polyline;
mod segment;

pub use plane::{Point, Rect, Rotation};
pub use polyline::{crossings, cubic_at, length, point_along};
pub use segment::{
    clip, clip_span, clipped_length, crosses, distance, distance_to_segment, orient,
};
