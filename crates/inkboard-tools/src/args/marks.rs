//! `link`, `flip_x`, `flip_y` and `icon`: what `add_shape` and `update` set on a
//! shape (and `update` on an image) besides its geometry and style. A link is
//! checked into a [`Link`] at the boundary (web and mail addresses only; `""`
//! removes it), so a board never holds one that an SVG, a PDF or the editor
//! should not open; an icon is checked against the set (`inkboard_icons`), so a
//! tool never stores a name nothing draws, and a mistyped one is answered with
//! the names most likely meant.

use inkboard_core::{IconName, Link, Object};

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

/// The icon an `icon` argument names, as the set spells it: `Some(None)` for
/// `null` or `""` (take it away). An unknown name is refused with the nearest
/// names (`postgres`: did you mean "database"?).
pub(crate) fn icon_arg(icon: Option<Option<&str>>) -> Result<Option<Option<IconName>>, ToolError> {
    match icon.map(|i| i.map(str::trim)) {
        None => Ok(None),
        Some(None | Some("")) => Ok(Some(None)),
        Some(Some(word)) => {
            let icon = inkboard_icons::Icon::parse(word)
                .map_err(|e| ToolError::args(format!("'icon': {e}")))?;
            // The set's names are spelled as the model's are; a name that is
            // not would be a bug in the set, said as such rather than stored.
            IconName::parse(icon.name())
                .map(|n| Some(Some(n)))
                .map_err(|e| ToolError::args(format!("'icon': {e}")))
        }
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
