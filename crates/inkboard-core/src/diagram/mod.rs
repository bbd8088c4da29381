//! Diagrams read from a page's ordinary objects by their geometry, nothing stored
//! beside them: what editing rules (`inkboard-arrange`) and exporters
//! (`inkboard-interop`) both need to recognise, read once here.
//!
//! - [`sequence`]: a sequence diagram's lifelines, messages and activation bars.

pub mod sequence;
