//! The errors of rendering: what can go wrong between a resolved scene and the bytes
//! of a picture. Resolving and checking never fail; drawing can.

/// Why a scene could not be turned into a PNG or a PDF.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RenderError {
    /// The region to draw has no area or is not finite.
    #[error("the region to render is empty or invalid ({w} × {h}): give a region with a positive width and height")]
    EmptyRegion { w: f64, h: f64 },
    /// The requested size or scale cannot make a picture.
    #[error("cannot render at scale {scale} to {width} × {height} px: use a max_size of at least 1 and a positive scale")]
    BadSize { scale: f32, width: u32, height: u32 },
    /// The picture would be too big to allocate.
    #[error("the picture would be {width} × {height} px, more than {max} px on a side: lower the scale or render a region")]
    TooLarge { width: u32, height: u32, max: u32 },
    /// The SVG written for the scene did not parse; a bug, since we wrote it.
    #[error("internal error: the scene's SVG did not parse: {0}")]
    Svg(String),
    /// PNG encoding failed.
    #[error("could not encode the PNG: {0}")]
    Png(String),
    /// PDF writing failed.
    #[error("could not write the PDF: {0}")]
    Pdf(String),
    /// A PDF needs at least one page.
    #[error("no pages to put in the PDF: give at least one scene")]
    NoPages,
    /// The drawing ran past its [`Deadline`](crate::Deadline) or was cancelled.
    #[error(transparent)]
    Stopped(#[from] crate::Stopped),
}
