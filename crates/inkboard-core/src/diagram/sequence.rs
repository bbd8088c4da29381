//! A sequence diagram on a page, as `import_mermaid` draws one or a person does
//! by hand:
//! - a **lifeline** is a straight connector from a shape (its head) to a free
//!   point straight below the head's centre;
//! - a **message** is a connector whose two ends are free points on lifelines
//!   (within [`REACH`] of the line, as an end at an activation bar's edge is),
//!   a self-message one whose two ends are on the same lifeline;
//! - an **activation bar** is a thin shape without text standing on a lifeline.

use crate::{Board, End, Geom, Kind, Object, ObjectId, PageId, Point, Route};

/// How far from its lifeline a message's end may be: past an activation bar's
/// edge, three nested bars deep.
pub const REACH: f64 = 24.0;
/// How far a lifeline's foot may stray from under its head's centre.
const PLUMB: f64 = 1.0;
/// The widest shape read as an activation bar.
const BAR_MAX_WIDTH: f64 = 2.0 * REACH;

/// A lifeline: connector `id` from head `head` down to `foot`, at `x`.
#[derive(Clone, Debug, PartialEq)]
pub struct Lifeline {
    pub id: ObjectId,
    pub head: ObjectId,
    /// Where it runs across the page.
    pub x: f64,
    /// The head's bottom, where it starts.
    pub top: f64,
    /// The height of its free end.
    pub foot: f64,
}

impl Lifeline {
    /// Whether point `p` lies on this lifeline, within [`REACH`].
    pub fn holds(&self, p: Point) -> bool {
        (p.x - self.x).abs() <= REACH && p.y >= self.top - 1.0 && p.y <= self.foot + 1.0
    }
}

/// The lifelines of page `page`, left to right (the order [`message_ends`] and
/// [`bar_on`] search them in, by `x`, so a page of many lifelines costs a
/// search each, not a walk through all of them).
pub fn lifelines(board: &Board, page: PageId) -> Vec<Lifeline> {
    let Some(page) = board.page(page) else {
        return Vec::new();
    };
    let mut lines = page
        .objects
        .iter()
        .filter_map(|o| {
            let Kind::Connector(c) = &o.kind else {
                return None;
            };
            let (End::Object(head), End::Point(foot)) = (&c.from, &c.to) else {
                return None;
            };
            if c.route != Route::Straight || !c.waypoints().is_empty() {
                return None;
            }
            let b = match &board.object(head)?.kind {
                Kind::Shape(s) if s.geom != Geom::Frame => s.bounds,
                _ => return None,
            };
            let x = b.x + b.w / 2.0;
            ((foot.x - x).abs() <= PLUMB && foot.y > b.bottom()).then(|| Lifeline {
                id: o.id.clone(),
                head: head.clone(),
                x,
                top: b.bottom(),
                foot: foot.y,
            })
        })
        .collect::<Vec<_>>();
    // Stable: lifelines at one `x` keep the page's order.
    lines.sort_by(|a, b| a.x.total_cmp(&b.x));
    lines
}

/// The lifelines of `lines` (sorted by `x`) within [`REACH`] of `x`, by index.
fn near(lines: &[Lifeline], x: f64) -> impl Iterator<Item = usize> + '_ {
    let first = lines.partition_point(|l| l.x < x - REACH);
    (first..lines.len()).take_while(move |&i| lines[i].x <= x + REACH)
}

/// The lifelines (indices into `lines`) that object `kind`'s two ends lie on, if
/// it is a message: the nearest at each end.
pub fn message_ends(lines: &[Lifeline], kind: &Kind) -> Option<(usize, usize)> {
    let Kind::Connector(c) = kind else {
        return None;
    };
    let (End::Point(a), End::Point(b)) = (&c.from, &c.to) else {
        return None;
    };
    let on = |p: &Point| {
        near(lines, p.x)
            .filter(|&i| lines[i].holds(*p))
            .min_by(|&i, &j| {
                (lines[i].x - p.x)
                    .abs()
                    .total_cmp(&(lines[j].x - p.x).abs())
            })
    };
    Some((on(a)?, on(b)?))
}

/// The lifeline (an index into `lines`) that `object` stands on as an
/// activation bar: a thin shape without text whose middle is on a lifeline and
/// which lies within its length.
pub fn bar_on(lines: &[Lifeline], object: &Object) -> Option<usize> {
    let Kind::Shape(s) = &object.kind else {
        return None;
    };
    if !s.text.is_empty() || s.bounds.w > BAR_MAX_WIDTH || s.geom == Geom::Frame {
        return None;
    }
    let centre = s.bounds.center();
    near(lines, centre.x).find(|&i| {
        let l = &lines[i];
        s.bounds.y >= l.top - 1.0 && s.bounds.bottom() <= l.foot + 1.0
    })
}
