//! What an object carries besides its outline and style, resolved: a mirrored
//! outline ([`inkboard_core::Flip`]) and a link. A flipped shape's outline and
//! details are mirrored here, in the scene's coordinates, so every backend, the
//! scene's bounds and the checks see the mirrored drawing with nothing to undo;
//! its text box is mirrored as a box (a flipped triangle's text sits in its
//! wide half) and the text stays readable. An image is mirrored by
//! its backend (`ImagePart::flip`). A link reaches the scene only when it is
//! safe to follow ([`inkboard_core::rich::safe_url`], which every `Link`
//! already is), and becomes an SVG `<a>` and a PDF link over the item.

use inkboard_core::{Flip, Object, Point, Rect};

use crate::scene::{Part, Seg};

/// `p` mirrored in `b` as `flip` says.
fn mirror(p: Point, b: Rect, flip: Flip) -> Point {
    let c = b.center();
    Point {
        x: if flip.x { 2.0 * c.x - p.x } else { p.x },
        y: if flip.y { 2.0 * c.y - p.y } else { p.y },
    }
}

/// A shape's text box `tb` in its box `b`, mirrored as its outline is (a
/// flipped triangle's text sits in its wide half); the text itself is not.
pub(crate) fn flip_box(tb: Rect, b: Rect, flip: Flip) -> Rect {
    let c = b.center();
    Rect::new(
        if flip.x { 2.0 * c.x - tb.right() } else { tb.x },
        if flip.y {
            2.0 * c.y - tb.bottom()
        } else {
            tb.y
        },
        tb.w,
        tb.h,
    )
}

/// Mirrors the path parts of `parts` (a shape's outline and details, not its
/// text) in the box `b`.
pub(crate) fn flip_paths(parts: &mut [Part], b: Rect, flip: Flip) {
    if flip.is_none() {
        return;
    }
    for part in parts {
        if let Part::Path(p) = part {
            for s in &mut p.segs {
                *s = match *s {
                    Seg::Move(a) => Seg::Move(mirror(a, b, flip)),
                    Seg::Line(a) => Seg::Line(mirror(a, b, flip)),
                    Seg::Cubic(a, c, d) => {
                        Seg::Cubic(mirror(a, b, flip), mirror(c, b, flip), mirror(d, b, flip))
                    }
                    Seg::Close => Seg::Close,
                };
            }
        }
    }
}

/// The address an object's drawing links to, if it has one (a `Link` is safe to
/// follow by construction: `Link::parse`).
pub(crate) fn link(object: &Object) -> Option<String> {
    object.link.as_ref().map(|l| l.as_str().to_owned())
}
