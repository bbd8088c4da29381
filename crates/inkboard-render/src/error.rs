//! The errors of rendering: what can go wrong between a resolved scene and the bytes
//! of a picture. Checking never fails and resolving only stops at its
//! [`Deadline`](crate::Deadline); drawing can fail, and says why.

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
    /// A page needs more drawn elements than usvg reads in one picture
    /// ([`MAX_ELEMENTS`](crate::MAX_ELEMENTS)): thousands of lines of text in
    /// long texts, on one page. Not a bug: a limit, with what to do about it.
    #[error("the page \"{page}\" needs more than {limit} drawn elements (each line of text, shape and connector is one or more), the most one picture can hold: split its objects across pages, or shorten its longest texts")]
    TooManyElements { page: String, limit: usize },
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

/// The most elements usvg reads in one SVG document (its own limit, against
/// hostile files): a page whose picture needs more is refused with
/// [`RenderError::TooManyElements`].
pub const MAX_ELEMENTS: usize = 1_000_000;

impl RenderError {
    /// usvg's error for the SVG written for page `page`: its element limit as
    /// [`RenderError::TooManyElements`] (it said "nodes limit reached", which no
    /// one can act on), anything else as [`RenderError::Svg`].
    pub(crate) fn from_usvg(e: usvg::Error, page: &str) -> Self {
        // usvg stops at a million elements with `NodesLimitReached` (a depth of
        // over 1,024 too, which the SVG we write never has).
        match e {
            usvg::Error::ElementsLimitReached
            | usvg::Error::ParsingFailed(usvg::roxmltree::Error::NodesLimitReached) => {
                RenderError::TooManyElements {
                    page: page.to_owned(),
                    limit: MAX_ELEMENTS,
                }
            }
            e => RenderError::Svg(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usvgs_element_limit_is_told_as_a_limit_with_what_to_do() {
        let limit = usvg::Error::ParsingFailed(usvg::roxmltree::Error::NodesLimitReached);
        let e = RenderError::from_usvg(limit, "Plan");
        assert_eq!(
            e,
            RenderError::TooManyElements {
                page: "Plan".into(),
                limit: MAX_ELEMENTS
            }
        );
        let told = e.to_string();
        assert!(
            told.contains("\"Plan\"") && told.contains("1000000") && told.contains("split"),
            "{told}"
        );
        assert!(!told.contains("internal error"), "{told}");
        // Anything else is still ours to fix.
        let other = RenderError::from_usvg(usvg::Error::InvalidSize, "Plan");
        assert!(matches!(other, RenderError::Svg(_)));
    }
}
