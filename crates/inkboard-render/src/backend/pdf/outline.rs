//! What a PDF says about itself besides its pages: the board's title, in the
//! document information dictionary and in the XMP metadata stream (krilla writes
//! both from one [`Metadata`]), and the outline, one bookmark per page named
//! after it, so a reader's sidebar lists the board's pages as the editor does.

use krilla::destination::XyzDestination;
use krilla::geom::Point;
use krilla::metadata::Metadata;
use krilla::outline::{Outline, OutlineNode};
use krilla::Document;

use crate::scene::Scene;

/// Sets `document`'s title and outline for `scenes`, its pages in order.
pub(super) fn describe(document: &mut Document, scenes: &[Scene], title: &str) {
    // A blank title is left out: readers then show the file's name, which is what
    // a board without a title is known by.
    let title = title.trim();
    if !title.is_empty() {
        document.set_metadata(Metadata::new().title(title.to_string()));
    }
    let mut outline = Outline::new();
    for (i, scene) in scenes.iter().enumerate() {
        // Page names are never blank on a board made by inkboard; a file may
        // still hold one, and a bookmark needs words.
        let name = match scene.name.trim() {
            "" => format!("Page {}", i + 1),
            name => name.to_string(),
        };
        // The page's top-left corner: the bookmark opens the page at its top.
        let top = XyzDestination::new(i, Point::from_xy(0.0, 0.0));
        outline.push_child(OutlineNode::new(name, top));
    }
    document.set_outline(outline);
}
