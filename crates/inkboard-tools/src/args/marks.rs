//! `link`, `flip_x` and `flip_y`: what `add_shape` and `update` set on a shape
//! (and `update` on an image) besides its geometry and style. A link is checked
//! into a [`Link`] at the boundary (web and mail addresses only; `""` removes
//! it), so a board never holds one that an SVG, a PDF or the editor should not
//! open.

use inkboard_core::{Link, Object};

use crate::ToolError;

/// The link a `link` argument names: `Some(None)` for `""` (remove it).
pub(crate) fn link_arg(link: Option<&str>) -> Result<Option<Option<Link>>, ToolError> {
    match link.map(str::trim) {
        None => Ok(None),
        Some("") => Ok(Some(None)),
        Some(text) => Link::parse(text)
            .map(|l| Some(Some(l)))
            .map_err(|e| ToolError::args(format!("'link': {e}"))),
    }
}

/// Sets what was given on `object`.
pub(crate) fn apply(
    object: &mut Object,
    link: &Option<Option<Link>>,
    flip_x: Option<bool>,
    flip_y: Option<bool>,
) {
    if let Some(link) = link {
        object.link = link.clone();
    }
    if let Some(x) = flip_x {
        object.flip.x = x;
    }
    if let Some(y) = flip_y {
        object.flip.y = y;
    }
}
