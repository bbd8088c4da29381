//! What `layout` sets on the connectors between the shapes it laid out, once
//! they are in place (the router draws them from there):
//!
//! - bends placed by hand are dropped, as draw.io's layouts reset their edges:
//!   they were placed for where the shapes no longer are;
//! - pinned sides and merging are cleared, for the same reason, and then set
//!   again by the layouts that draw their own way:
//! - a mind map's branches are curves, each leaving its parent by the side
//!   facing the child and entering the child by its near side (left and right in
//!   a mind map that spreads sideways), as XMind and Miro draw them;
//! - an org chart's lines from a parent to its children merge into one trunk
//!   (`merge`): out of the parent's side the chart flows by, into each child's
//!   side facing back, or, for leaves stacked in two columns either side of the
//!   trunk, into the side facing it.
//!
//! A locked connector keeps everything.

use std::collections::{BTreeMap, HashMap};

use inkboard_core::{Connector, End, Kind, ObjectId, PageId, Rect, Route, Side, Transaction};

use crate::layout::{Algorithm, Direction};
use crate::ArrangeError;

/// Restyles the connectors on `page` between two of the shapes laid out
/// (`laid`: their new boxes), for a layout `algorithm` flowing `direction`.
pub(crate) fn restyle(
    tx: &mut Transaction<'_>,
    page: PageId,
    laid: &HashMap<ObjectId, Rect>,
    algorithm: Algorithm,
    direction: Direction,
) -> Result<(), ArrangeError> {
    let on_laid = |e: &End| e.object().is_some_and(|id| laid.contains_key(id));
    let links: Vec<(ObjectId, Connector)> = tx
        .board()
        .page(page)
        .into_iter()
        .flat_map(|p| &p.objects)
        .filter(|o| !o.locked)
        .filter_map(|o| match &o.kind {
            Kind::Connector(c) if on_laid(&c.from) || on_laid(&c.to) => {
                Some((o.id.clone(), c.clone()))
            }
            _ => None,
        })
        .collect();
    let flow = flow_side(direction);
    let org = if algorithm == Algorithm::OrgChart {
        org_sides(&links, laid, flow)
    } else {
        HashMap::new()
    };
    for (id, was) in &links {
        let mut c = was.clone();
        c.set_waypoints(Vec::new());
        let both = |c: &Connector| (box_of(laid, &c.from), box_of(laid, &c.to));
        if let (Some(a), Some(b)) = both(&c) {
            c.set_side(true, None);
            c.set_side(false, None);
            c.set_merge(false);
            match algorithm {
                Algorithm::Mindmap => {
                    c.route = Route::Curved;
                    let (sa, sb) = facing(a, b, flow);
                    c.set_side(true, Some(sa));
                    c.set_side(false, Some(sb));
                }
                Algorithm::OrgChart => {
                    if let Some(&to_side) = org.get(id) {
                        c.set_side(true, Some(flow));
                        c.set_side(false, Some(to_side));
                        c.set_merge(true);
                    }
                }
                _ => {}
            }
        }
        if c != *was {
            tx.edit(id, |o| o.kind = Kind::Connector(c))?;
        }
    }
    Ok(())
}

/// The box an end is laid out in, if it is on a shape laid out.
fn box_of(laid: &HashMap<ObjectId, Rect>, end: &End) -> Option<Rect> {
    laid.get(end.object()?).copied()
}

/// The side a layout flowing `direction` leaves a shape by.
fn flow_side(direction: Direction) -> Side {
    match direction {
        Direction::Down => Side::Bottom,
        Direction::Up => Side::Top,
        Direction::Right => Side::Right,
        Direction::Left => Side::Left,
    }
}

/// Across the flow, the coordinate of `r`'s centre.
fn across(r: Rect, flow: Side) -> f64 {
    match flow {
        Side::Top | Side::Bottom => r.center().x,
        Side::Left | Side::Right => r.center().y,
    }
}

/// Along the flow, the coordinate of `r`'s centre.
fn along(r: Rect, flow: Side) -> f64 {
    match flow {
        Side::Top | Side::Bottom => r.center().y,
        Side::Left | Side::Right => r.center().x,
    }
}

/// The sides of `a` and `b` that face each other along the axis of `flow` (a mind
/// map's branch axis): right and left when `b` lies right of `a` in a map that
/// spreads sideways.
fn facing(a: Rect, b: Rect, flow: Side) -> (Side, Side) {
    let ahead = along(b, flow) >= along(a, flow);
    let side = match (flow, ahead) {
        (Side::Top | Side::Bottom, true) => Side::Bottom,
        (Side::Top | Side::Bottom, false) => Side::Top,
        (_, true) => Side::Right,
        (_, false) => Side::Left,
    };
    (side, side.opposite())
}

/// The side each org-chart connector enters its child by, for the connectors
/// that run with the flow (the child lies wholly past its parent's side `flow`):
/// the side facing back, or, where a parent's children do not sit on one level
/// (leaves stacked in two columns either side of its trunk), the side facing the
/// trunk.
fn org_sides(
    links: &[(ObjectId, Connector)],
    laid: &HashMap<ObjectId, Rect>,
    flow: Side,
) -> HashMap<ObjectId, Side> {
    // Past `flow`'s side of `a`: how far `b` starts beyond it.
    let past = |a: Rect, b: Rect| match flow {
        Side::Bottom => b.y - a.bottom(),
        Side::Top => a.y - b.bottom(),
        Side::Right => b.x - a.right(),
        Side::Left => a.x - b.right(),
    };
    let mut by_parent: BTreeMap<&ObjectId, Vec<(&ObjectId, Rect, Rect)>> = BTreeMap::new();
    for (id, c) in links {
        let (Some(a), Some(b)) = (box_of(laid, &c.from), box_of(laid, &c.to)) else {
            continue;
        };
        if let (Some(parent), true) = (c.from.object(), past(a, b) > 0.0) {
            by_parent.entry(parent).or_default().push((id, a, b));
        }
    }
    let (low, high) = match flow {
        Side::Top | Side::Bottom => (Side::Left, Side::Right),
        Side::Left | Side::Right => (Side::Top, Side::Bottom),
    };
    let mut out = HashMap::new();
    for kids in by_parent.values() {
        let first = along(kids[0].2, flow);
        let one_level = kids
            .iter()
            .all(|&(_, _, b)| (along(b, flow) - first).abs() < 0.5);
        for &(id, a, b) in kids {
            let side = if one_level {
                flow.opposite()
            } else if across(b, flow) < across(a, flow) {
                high
            } else {
                low
            };
            out.insert(id.clone(), side);
        }
    }
    out
}
