//! Connector labels: how big each label is, and where the labels of a page sit.
//!
//! Labels are placed for the whole page at once, as map labelling places names:
//!
//! 1. each label gets its candidate boxes ([`candidates`]): beside each straight
//!    piece of its route, on both sides with a small gap off the line, and centred
//!    on the line (whose stroke its white box then knocks out), along the piece's
//!    length and away from its bends, ends and arrowheads; a self-loop's only
//!    beside its loop's outer legs, on the outside;
//! 2. each candidate is judged against the page ([`ground`]): a box over a shape,
//!    an arrowhead, a label placed by hand or another connector's line (or its
//!    own line, off the piece it labels) is out; the rest cost their distance from
//!    the middle of the route's longest leg, a little more beside the line than on
//!    it, and more when other lines pass close by;
//! 3. the best set of candidates that keep clear of each other is chosen
//!    ([`choose`]): greedily over the conflict graph, the label with the fewest
//!    free candidates first, each taking its cheapest free one; a label left with
//!    none moves the one label blocking one of its candidates elsewhere (local
//!    repair), and failing that takes the least bad box it has.
//!
//! A connector's end labels (`start_label`, `end_label`: a role name or a
//! cardinality) are placed with the others, after them in the same choice, each
//! from candidates of its own ([`ends`]): beside the line close to its end, on
//! either side, never on the line; the same judging keeps them off their end's
//! shape, the arrowhead and every other line and label.
//!
//! A label placed by hand (`label_at`) stays where it was put, and the others keep
//! off it. Everything runs in page order with ties broken by it, so a page always
//! comes out the same; the candidates per label shrink on pages with very many
//! labels so that the work stays near-linear, and the [`Deadline`] is asked for
//! each label.
//!
//! Limitations: lines are routed before labels and do not move for them, so a
//! label whose route has no free stretch anywhere (a short line between shapes
//! packed close, crossed by others) takes its least bad box, which may still cover
//! something; the checker then says so.

mod candidates;
mod choose;
mod ends;
mod ground;

use inkboard_core::{Connector, Point, Rect};

use crate::deadline::{Deadline, Stopped};
use crate::scene::LabelEnd;
use crate::style;
use crate::text;

pub(crate) use ground::Ground;

/// Widest a connector label gets before it wraps.
pub(crate) const LABEL_MAX_WIDTH: f32 = 220.0;
/// Room between a label's text and the edge of its background, across and down.
pub(crate) const LABEL_PAD: (f64, f64) = (6.0, 2.0);

/// The font size of a connector's label.
pub(crate) fn label_font_size(c: &Connector) -> f32 {
    c.style
        .font_size
        .map_or(style::LABEL_FONT_SIZE, |s| s as f32)
}

/// The size of a connector's label background, if it shows a label.
pub fn label_size(c: &Connector) -> Option<(f64, f64)> {
    let font_size = label_font_size(c);
    if c.text.is_empty() || font_size <= 0.0 {
        return None;
    }
    let block = text::layout(
        &c.text,
        font_size,
        crate::style::label_face(&c.style),
        Some(LABEL_MAX_WIDTH),
    );
    Some((
        block.width as f64 + 2.0 * LABEL_PAD.0,
        block.height as f64 + 2.0 * LABEL_PAD.1,
    ))
}

/// An end label's text is this much of its connector's label size: it is a
/// footnote to the line, as in UML and ER drawings.
const END_LABEL_SCALE: f32 = 12.0 / 14.0;
/// Room between an end label's text and the edge of its background, across and
/// down: less than a label's, so that it can sit close to its end.
pub(crate) const END_LABEL_PAD: (f64, f64) = (3.0, 1.0);

/// The font size of a connector's end labels.
pub(crate) fn end_label_font_size(c: &Connector) -> f32 {
    label_font_size(c) * END_LABEL_SCALE
}

/// The size of the background of connector `c`'s label at `end`, if it has one.
pub(crate) fn end_label_size(c: &Connector, end: LabelEnd) -> Option<(f64, f64)> {
    let font_size = end_label_font_size(c);
    let text = end.text(c);
    if text.is_empty() || font_size <= 0.0 {
        return None;
    }
    let block = text::layout(
        text,
        font_size,
        crate::style::label_face(&c.style),
        Some(LABEL_MAX_WIDTH),
    );
    Some((
        block.width as f64 + 2.0 * END_LABEL_PAD.0,
        block.height as f64 + 2.0 * END_LABEL_PAD.1,
    ))
}

/// One label to place.
pub(crate) struct Wanted<'a> {
    /// Its connector's place among the page's connectors (as in [`Ground::new`]).
    pub conn: usize,
    /// The size of its background box.
    pub size: (f64, f64),
    /// Where it may sit: the route's corners, or the middle half of its curve.
    pub track: &'a [Point],
    /// The track's first and last points are the route's ends (not so for a
    /// curve, whose track is its middle half).
    pub ends: bool,
    /// For a self-loop, the box of its shape: the label sits outside the loop.
    pub looped: Option<Rect>,
    /// For an end label, the end it belongs beside; `track` is then the drawn
    /// line, from its start to its end.
    pub end: Option<LabelEnd>,
}

/// The boxes of the labels `wanted`, in the same order, placed together on the
/// page that `ground` describes (`None` for a label with nowhere to go: a track
/// of no length).
pub(crate) fn place_all(
    ground: &mut Ground,
    wanted: &[Wanted],
    deadline: &Deadline,
) -> Result<Vec<Option<Rect>>, Stopped> {
    let per_label = candidates::per_label(wanted.len());
    let mut all = Vec::with_capacity(wanted.len());
    for w in wanted {
        deadline.check()?;
        let mut found = match w.end {
            Some(end) => ends::candidates(w, end),
            None => candidates::candidates(w, per_label),
        };
        for c in &mut found {
            ground.judge(w.conn, c);
        }
        all.push(found);
    }
    choose::choose(&all, deadline)
}

#[cfg(test)]
mod tests;
