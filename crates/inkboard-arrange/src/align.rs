//! Lining objects up and spacing them out, as a drawing program's Arrange menu
//! does: [`align`] on an edge or centre line of their joint bounds,
//! [`distribute`] along an axis, evenly or a gap apart, and [`restack`] in the
//! z-order. Each object moves with what it carries ([`crate::shift`]).

use std::collections::HashMap;

use inkboard_core::{ObjectId, PageId, Rect, Transaction};

use crate::shift::{bounds, translate};
use crate::ArrangeError;

inkboard_core::vocabulary! {
    /// The edge or centre line `align` lines objects up on.
    pub enum Edge as "edge" { Left = "left", Center = "center", Right = "right", Top = "top", Middle = "middle", Bottom = "bottom" }
}

inkboard_core::vocabulary! {
    /// The direction `distribute` spaces objects along.
    pub enum Axis as "axis" { Horizontal = "horizontal", Vertical = "vertical" }
}

inkboard_core::vocabulary! {
    /// Where `order` sends objects.
    pub enum ZTarget as "z-order target" { Front = "front", Back = "back", Forward = "forward", Backward = "backward" }
}

/// Lines `ids` up on `edge` of their joint bounds.
///
/// Errors: an object without an extent, or an edit the model refuses.
pub fn align(tx: &mut Transaction<'_>, ids: &[ObjectId], edge: Edge) -> Result<(), ArrangeError> {
    let all: Vec<Rect> = ids
        .iter()
        .map(|id| bounds(tx.board(), id))
        .collect::<Result<_, _>>()?;
    let Some(&first) = all.first() else {
        return Ok(());
    };
    let joint = all.iter().skip(1).fold(first, |a, b| a.union(b));
    for (id, b) in ids.iter().zip(&all) {
        let (dx, dy) = match edge {
            Edge::Left => (joint.x - b.x, 0.0),
            Edge::Center => (joint.center().x - b.center().x, 0.0),
            Edge::Right => (joint.right() - b.right(), 0.0),
            Edge::Top => (0.0, joint.y - b.y),
            Edge::Middle => (0.0, joint.center().y - b.center().y),
            Edge::Bottom => (0.0, joint.bottom() - b.bottom()),
        };
        translate(tx, std::slice::from_ref(id), dx, dy)?;
    }
    Ok(())
}

/// Spaces `ids` along `axis` in their current order: `gap` apart from the first
/// one, or (`None`) evenly between the first and the last.
///
/// Errors: an object without an extent, or an edit the model refuses.
pub fn distribute(
    tx: &mut Transaction<'_>,
    ids: &[ObjectId],
    axis: Axis,
    gap: Option<f64>,
) -> Result<(), ArrangeError> {
    let horizontal = axis == Axis::Horizontal;
    let start = |r: &Rect| if horizontal { (r.x, r.w) } else { (r.y, r.h) };
    let mut items: Vec<(ObjectId, Rect)> = ids
        .iter()
        .map(|id| bounds(tx.board(), id).map(|b| (id.clone(), b)))
        .collect::<Result<_, _>>()?;
    items.sort_by(|a, b| start(&a.1).0.total_cmp(&start(&b.1).0));
    let Some(first) = items.first().map(|(_, r)| start(r).0) else {
        return Ok(());
    };
    let gap = gap.unwrap_or_else(|| {
        let last = items.last().map_or(0.0, |(_, r)| start(r).0 + start(r).1);
        let total: f64 = items.iter().map(|(_, r)| start(r).1).sum();
        (last - first - total) / (items.len().max(2) - 1) as f64
    });
    let mut cursor = first;
    for (id, r) in &items {
        let (s, len) = start(r);
        let d = cursor - s;
        if horizontal {
            translate(tx, std::slice::from_ref(id), d, 0.0)?;
        } else {
            translate(tx, std::slice::from_ref(id), 0.0, d)?;
        }
        cursor += len + gap;
    }
    Ok(())
}

/// Sends `ids` to the front or back of their pages, or one step forward or
/// backward, keeping their order among themselves.
///
/// Errors: an edit the model refuses.
pub fn restack(
    tx: &mut Transaction<'_>,
    ids: &[ObjectId],
    to: ZTarget,
) -> Result<(), ArrangeError> {
    let mut placed: Vec<(usize, ObjectId)> = ids
        .iter()
        .filter_map(|id| tx.board().locate(id).map(|l| (l.1, id.clone())))
        .collect();
    placed.sort();
    let page_len = |tx: &Transaction<'_>, id: &ObjectId| {
        tx.board()
            .locate(id)
            .and_then(|(p, _)| tx.board().page(p))
            .map_or(0, |p| p.objects.len())
    };
    match to {
        ZTarget::Front => {
            for (_, id) in &placed {
                let top = page_len(tx, id) - 1;
                tx.reorder(id, top)?;
            }
        }
        ZTarget::Back => {
            // Counted per page: objects of several pages each go to their back.
            let mut next: HashMap<PageId, usize> = HashMap::new();
            for (_, id) in &placed {
                let Some((page, _)) = tx.board().locate(id) else {
                    continue;
                };
                let n = next.entry(page).or_insert(0);
                tx.reorder(id, *n)?;
                *n += 1;
            }
        }
        // One step, but never past another object that moves the same way and
        // could not: [a, b, c] with b and c forward stays as it is.
        ZTarget::Forward => {
            let mut ceiling: HashMap<PageId, usize> = HashMap::new();
            for (_, id) in placed.iter().rev() {
                let Some((page, at)) = tx.board().locate(id) else {
                    continue;
                };
                let top = *ceiling.entry(page).or_insert(page_len(tx, id) - 1);
                let to = (at + 1).min(top).max(at);
                tx.reorder(id, to)?;
                ceiling.insert(page, to.saturating_sub(1));
            }
        }
        ZTarget::Backward => {
            let mut floor: HashMap<PageId, usize> = HashMap::new();
            for (_, id) in &placed {
                let Some((page, at)) = tx.board().locate(id) else {
                    continue;
                };
                let bottom = *floor.entry(page).or_insert(0);
                let to = at.saturating_sub(1).max(bottom).min(at);
                tx.reorder(id, to)?;
                floor.insert(page, to + 1);
            }
        }
    }
    Ok(())
}
