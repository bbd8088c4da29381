//! Connector routing: where each connector of a page runs, where its ends meet
//! their shapes, its arrowheads, and where its label sits.
//!
//! `connectors` lays out a page's connectors together, as [`resolve`](crate::resolve)
//! builds its scene: ends are spread along the sides they share, orthogonal routes are
//! searched around the page's shapes on one grid (`orthogonal`), then set apart in
//! their channels (`nudge`), drawn straight where their ends face each other (`straight`), and two lines
//! crossing at the side they share trade ports or tracks (`untangle`); connectors marked `merge` share a trunk (`bus`);
//! a connector with waypoints runs through them (`bends`); labels find their places
//! last (`labels`). The pieces every single route shares (its sides, ports, simple
//! routes and arrowheads) are this module's own items (`single`), and [`outline`]
//! alone knows that an end may be rotated. `buckets` is the grid of cells that keeps
//! the lookups near a box fast.

pub(crate) mod bends;
pub(crate) mod buckets;
pub(crate) mod bus;
mod choice;
pub(crate) mod connectors;
mod ends;
mod grid;
pub(crate) mod labels;
mod loops;
mod merge;
pub(crate) mod nudge;
mod obstacles;
pub(crate) mod orthogonal;
pub mod outline;
mod ports;
mod single;
mod straight;
mod untangle;

// One connector's routing is the face of this module: `route::Side`, `route::plan`,
// `route::polyline` are used across the crate and by the tools.
pub use single::*;
