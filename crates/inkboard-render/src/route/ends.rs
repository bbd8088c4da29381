//! One end of a connector as the page's layout sees it ([`EndInfo`]): the shape or
//! point it is attached to, the page object it belongs to, the side it is pinned to;
//! and the geometry of an end's sides that the other steps share: a side's points,
//! the part of it ports may use, and where a route's end goes onto the outline.

use inkboard_core::{Board, End, Kind, Object, Point, Rect};

use crate::route::orthogonal::CLEARANCE;
use crate::route::outline::Turned;
use crate::route::{self, EndShape, Side};

/// One end of a connector: what it is attached to.
#[derive(Clone, Copy, Debug)]
pub(super) struct EndInfo {
    pub(super) shape: EndShape,
    /// The page object it is attached to, by its place on the page.
    pub(super) object: Option<usize>,
    /// The side it is pinned to meet (never at a free end).
    pub(super) pin: Option<Side>,
}

impl EndInfo {
    /// The point that decides whether the end is inside a frame.
    pub(super) fn anchor(&self) -> Point {
        self.shape.bounds.center()
    }

    /// The end pinned to `side` (a free end has no sides: it stays unpinned).
    pub(super) fn pinned(self, side: Option<inkboard_core::Side>) -> Self {
        EndInfo {
            pin: side.filter(|_| !self.shape.is_point()).map(Side::from),
            ..self
        }
    }
}

/// What a connector end is attached to.
pub(super) fn end_info(board: &Board, objects: &[Object], end: &End) -> EndInfo {
    let object = end.object().and_then(|id| {
        let (_, i) = board.locate(id)?;
        (objects.get(i)?.id == *id).then_some(i)
    });
    let shape = match end {
        End::Point(p) => EndShape::point(*p),
        End::Object(id) => match board.object(id).map(|o| &o.kind) {
            Some(Kind::Shape(s)) => EndShape {
                bounds: s.bounds.rotated_extent(s.rotation),
                geom: Some(s.geom),
                turned: Turned::of(s.bounds, s.rotation),
            },
            Some(Kind::Image(i)) => EndShape {
                bounds: i.bounds.rotated_extent(i.rotation),
                geom: None,
                turned: Turned::of(i.bounds, i.rotation),
            },
            Some(Kind::Ink(_) | Kind::Group(_)) => match board.bounds(id) {
                Some(bounds) => EndShape {
                    bounds,
                    geom: None,
                    turned: None,
                },
                None => EndShape::point(Point::default()),
            },
            // A connector onto a connector meets it at the middle of its ends.
            _ => EndShape::point(board.bounds(id).map(|b| b.center()).unwrap_or_default()),
        },
    };
    EndInfo {
        shape,
        object,
        pin: None,
    }
}

/// The middle of side `side` of `r`, moved `offset` along it and `out` away from it.
pub(super) fn side_point(r: Rect, side: Side, offset: f64, out: f64) -> Point {
    let c = r.center();
    let (n, t) = (side.normal(), side.along());
    let half = side.depth(r) / 2.0;
    Point {
        x: c.x + n.x * (half + out) + t.x * offset,
        y: c.y + n.y * (half + out) + t.y * offset,
    }
}

/// Moves a searched route's ends from its shapes' boxes onto their outlines, along
/// the legs' directions.
pub(super) fn onto_outlines(
    points: &mut [Point],
    a: &EndInfo,
    b: &EndInfo,
    sides: (Option<Side>, Option<Side>),
) {
    let n = points.len();
    if n < 2 {
        return;
    }
    let onto = |p: Point, e: &EndInfo, side: Side| {
        let offset = side.coord(p) - side.coord(e.shape.bounds.center());
        route::port(e.shape, side, offset)
    };
    if let Some(s) = sides.0 {
        points[0] = onto(points[0], a, s);
    }
    if let Some(s) = sides.1 {
        points[n - 1] = onto(points[n - 1], b, s);
    }
}

/// Where along side `side` of an end's box a port may slide in nudging (see
/// [`usable`]); `None` for a free end, which stays put.
pub(super) fn slide(e: &EndInfo, side: Option<Side>) -> Option<(f64, f64)> {
    let side = side?;
    (!e.shape.is_point()).then(|| usable(e.shape.bounds, side))
}

/// [`usable`], within the part of the side whose ports land on it
/// ([`route::side_span`]).
pub(super) fn facing_part(shape: EndShape, side: Side) -> (f64, f64) {
    let (lo, hi) = usable(shape.bounds, side);
    let c = side.coord(shape.bounds.center());
    let (a, b) = route::side_span(shape, side);
    (lo.max(c + a), hi.min(c + b))
}

/// The middle 70% of side `side` of `r`, as a range of [`Side::coord`]: near the
/// corners a line meets a rounded or slanted outline awkwardly.
fn usable(r: Rect, side: Side) -> (f64, f64) {
    let (c, half) = (side.coord(r.center()), 0.35 * side.length(r));
    (c - half, c + half)
}

/// `r` grown by the clearance.
pub(super) fn grow(r: Rect) -> Rect {
    r.grown(CLEARANCE)
}
