//! Moving objects by an offset, shared by `move`, `align`, `distribute` and
//! `update`. Moving a group moves its members; moving a frame moves what lies in
//! it; a connector's free ends and waypoints move with it, its bound ends follow
//! their objects (and its waypoints too, when both its ends move). Turning a frame
//! (`update`'s `rotation`) carries what lies in it the same way ([`turn`]).

use std::collections::{HashMap, HashSet};

use inkboard_core::{Board, End, Geom, Kind, Object, ObjectId, Point, Rect, Rotation, Transaction};

use crate::ArrangeError;

/// The objects that actually move when `ids` move: groups expanded to their
/// members and frames to their contents, each object once. A locked object is
/// not in it, nor what it would carry (a locked group's members, a locked
/// frame's contents): it stays where it is, and so does what it holds
/// (`locked.rs`; callers refuse the locked objects a call names first).
pub fn moving_set(board: &Board, ids: &[ObjectId]) -> Vec<ObjectId> {
    let mut out: Vec<ObjectId> = Vec::new();
    let mut stack: Vec<ObjectId> = ids.iter().rev().cloned().collect();
    while let Some(id) = stack.pop() {
        if out.contains(&id) {
            continue;
        }
        let Some(object) = board.object(&id) else {
            continue;
        };
        if object.locked {
            continue;
        }
        if let Kind::Group(g) = &object.kind {
            stack.extend(g.members.iter().rev().cloned());
        }
        if object.is_frame() {
            stack.extend(board.frame_contents(&id).into_iter().rev());
            stack.extend(free_connectors_in(board, &id).into_iter().rev());
        }
        out.push(id);
    }
    out
}

/// The connectors with a free end that lie wholly inside a frame: they belong to
/// it like its shapes do (`frame_contents` only counts objects with bounds of
/// their own, and connectors with both ends bound follow their objects anyway).
fn free_connectors_in(board: &Board, frame: &ObjectId) -> Vec<ObjectId> {
    let Some((page, _)) = board.locate(frame) else {
        return Vec::new();
    };
    let Some(page) = board.page(page) else {
        return Vec::new();
    };
    page.objects
        .iter()
        .filter(|o| match &o.kind {
            Kind::Connector(c) => {
                (matches!(c.from, End::Point(_)) || matches!(c.to, End::Point(_)))
                    && board.frame_holds(frame, &o.id)
            }
            _ => false,
        })
        .map(|o| o.id.clone())
        .collect()
}

/// The connectors with waypoints, not in `set`, whose two ends are both objects in
/// it: their bends move with them, as draw.io moves an edge's points with both its
/// ends. A connector with one end moving keeps its waypoints where they are.
fn carried_bends(board: &Board, set: &[ObjectId]) -> Vec<ObjectId> {
    let Some((page, _)) = set.first().and_then(|id| board.locate(id)) else {
        return Vec::new();
    };
    let moves = |e: &End| e.object().is_some_and(|id| set.contains(id));
    board
        .page(page)
        .map(|p| p.objects.as_slice())
        .unwrap_or(&[])
        .iter()
        .filter(|o| match &o.kind {
            Kind::Connector(c) => {
                !o.locked && !c.waypoints().is_empty() && moves(&c.from) && moves(&c.to)
            }
            _ => false,
        })
        .filter(|o| !set.contains(&o.id))
        .map(|o| o.id.clone())
        .collect()
}

/// Moves `ids` (and what moves with them, [`moving_set`]) by (dx, dy); a
/// sequence diagram's head moved across takes its column ([`crate::lifeline`]).
pub fn translate(
    tx: &mut Transaction<'_>,
    ids: &[ObjectId],
    dx: f64,
    dy: f64,
) -> Result<(), ArrangeError> {
    if dx == 0.0 && dy == 0.0 {
        return Ok(());
    }
    let mut set = moving_set(tx.board(), ids);
    set.extend(carried_bends(tx.board(), &set));
    // A participant of a sequence diagram moved across takes its column along.
    let columns = if dx == 0.0 {
        crate::lifeline::Carried::default()
    } else {
        crate::lifeline::carried(tx.board(), &set)
    };
    for id in set {
        tx.edit(&id, |o| match &mut o.kind {
            Kind::Shape(s) => s.bounds = s.bounds.translated(dx, dy),
            Kind::Image(i) => i.bounds = i.bounds.translated(dx, dy),
            Kind::Ink(k) => k.points.iter_mut().for_each(|p| {
                *p = Point {
                    x: p.x + dx,
                    y: p.y + dy,
                }
            }),
            Kind::Connector(c) => {
                for end in [&mut c.from, &mut c.to] {
                    if let End::Point(p) = end {
                        *p = Point {
                            x: p.x + dx,
                            y: p.y + dy,
                        };
                    }
                }
                for p in c.waypoints_mut() {
                    *p = Point {
                        x: p.x + dx,
                        y: p.y + dy,
                    };
                }
            }
            Kind::Group(_) => {}
        })?;
    }
    crate::lifeline::carry(tx, &columns, dx)
}

/// Carries `ids` (the contents of `frame`, which has turned) with it: each point `p`
/// goes to `to + (p - from)` turned by `by`, so they turn by `by` about the
/// frame's old centre `from` and move with it to its new one `to`; a shape or
/// image keeps its size about its moved centre and turns by `by` more, ink turns
/// point by point, a connector's free ends turn (its bound ends follow their
/// objects) with its bends, as do the bends of a connector whose two ends are
/// the frame or carried ([`carried_bends`]). Places are rounded to hundredths, as files keep
/// them, so the live board and its file agree.
pub fn turn(
    tx: &mut Transaction<'_>,
    frame: &ObjectId,
    ids: &[ObjectId],
    by: Rotation,
    from: Point,
    to: Point,
) -> Result<(), ArrangeError> {
    let hundredths = |v: f64| (v * 100.0).round() / 100.0;
    let carry = |p: Point| {
        let q = p.rotated(by, from);
        Point::new(
            hundredths(q.x + to.x - from.x),
            hundredths(q.y + to.y - from.y),
        )
    };
    let carry_box = |b: Rect| {
        let c = carry(b.center());
        Rect::new(
            hundredths(c.x - b.w / 2.0),
            hundredths(c.y - b.h / 2.0),
            b.w,
            b.h,
        )
    };
    let add = |r: Rotation| {
        let deg = hundredths(r.deg() + by.deg());
        Rotation::degrees(deg).unwrap_or(Rotation::NONE)
    };
    let mut set = ids.to_vec();
    let ends: Vec<ObjectId> = ids.iter().chain([frame]).cloned().collect();
    set.extend(carried_bends(tx.board(), &ends));
    for id in &set {
        tx.edit(id, |o| match &mut o.kind {
            Kind::Shape(s) => {
                s.bounds = carry_box(s.bounds);
                s.rotation = add(s.rotation);
            }
            Kind::Image(i) => {
                i.bounds = carry_box(i.bounds);
                i.rotation = add(i.rotation);
            }
            Kind::Ink(k) => k.points.iter_mut().for_each(|p| *p = carry(*p)),
            Kind::Connector(c) => {
                for end in [&mut c.from, &mut c.to] {
                    if let End::Point(p) = end {
                        *p = carry(*p);
                    }
                }
                for p in c.waypoints_mut() {
                    *p = carry(*p);
                }
            }
            Kind::Group(_) => {}
        })?;
    }
    Ok(())
}

/// The bounds of an object, or an error naming it when it has none (a connector
/// between objects that are gone, an empty group).
pub fn bounds(board: &Board, id: &ObjectId) -> Result<inkboard_core::Rect, ArrangeError> {
    board
        .bounds(id)
        .ok_or_else(|| ArrangeError::NoExtent(id.clone()))
}

/// The bounds of several objects together: what relative placement places.
pub fn block(board: &Board, ids: &[ObjectId]) -> Result<inkboard_core::Rect, ArrangeError> {
    let mut all = ids.iter().map(|id| bounds(board, id));
    let first = all.next().unwrap_or_else(|| Ok(Default::default()))?;
    all.try_fold(first, |joint, b| Ok(joint.union(&b?)))
}

/// What each frame among `ids` would carry if it turns, as the board is before
/// the call: what it holds (`Board::frame_holds`, nested frames' contents
/// included), but not what the call names itself, which gets what the call says,
/// nor what a frame nested in it and named too holds, which that frame carries.
/// So the order of `ids` changes nothing, and nothing turns twice.
pub fn held_by_frames(board: &Board, ids: &[ObjectId]) -> HashMap<ObjectId, Vec<ObjectId>> {
    let mut held: HashMap<ObjectId, Vec<ObjectId>> = ids
        .iter()
        .filter(|id| board.object(id).is_some_and(Object::is_frame))
        .map(|id| {
            let inside = moving_set(board, std::slice::from_ref(id))
                .into_iter()
                .filter(|o| !ids.contains(o))
                .collect();
            (id.clone(), inside)
        })
        .collect();
    let frames: Vec<ObjectId> = held.keys().cloned().collect();
    for outer in &frames {
        let nested: HashSet<ObjectId> = frames
            .iter()
            .filter(|f| *f != outer && board.frame_holds(outer, f))
            .flat_map(|f| held[f].iter().cloned())
            .collect();
        if let Some(list) = held.get_mut(outer) {
            list.retain(|o| !nested.contains(o));
        }
    }
    held
}

/// How a frame turns from `was` to `now`: by what angle, from which centre to
/// which (it may move in the same call). `None` when it is not a frame or does
/// not turn.
pub fn frame_turn(was: &Object, now: &Object) -> Option<(Rotation, Point, Point)> {
    let (Kind::Shape(a), Kind::Shape(b)) = (&was.kind, &now.kind) else {
        return None;
    };
    if a.geom != Geom::Frame || b.geom != Geom::Frame || a.rotation == b.rotation {
        return None;
    }
    let by = Rotation::degrees(b.rotation.deg() - a.rotation.deg())?;
    Some((by, a.bounds.center(), b.bounds.center()))
}
