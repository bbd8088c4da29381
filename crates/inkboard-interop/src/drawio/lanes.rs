//! Swimlanes in draw.io (issue 32): a board's lanes go out as draw.io's own
//! swimlane containers, a pool holding its lanes and each lane the shapes in
//! it, so that draw.io moves a lane's shapes with it and a pool's lanes with the
//! pool, as its pool templates do. A row of lanes (lanes stacked top to bottom,
//! the flow running right) is written `horizontal=0`, draw.io's horizontal
//! lane with its title along its left side; a column keeps its title on top.
//!
//! A lane is a frame that borders another frame along a whole side (the same
//! left and width, one's bottom the other's top; or the same top and height,
//! side by side), as `layout` with `"algorithm": "lanes"` leaves them; its pool
//! is the smallest frame holding it. Only what lies over a lane (later in
//! z-order, as the checker wants it anyway) becomes its child: draw.io draws
//! children over their container, so the z-order is kept. Connectors and ink
//! (edges to draw.io), and the members of groups, keep their own parents.
//!
//! Reading back needs nothing of its own: every swimlane is a frame, and the
//! shapes land where they were (`map.rs` adds the parents' origins).

use std::collections::{HashMap, HashSet};

use inkboard_core::{Board, Geom, Kind, ObjectId, Page, Rect};

/// Past this many frames on a page, lanes are not looked for (each frame is
/// compared with each other): the page goes out flat, as it always did.
const MAX_FRAMES: usize = 2000;

/// How near two sides must be to count as one, in page units.
const NEAR: f64 = 0.5;

/// The lanes of a page as draw.io will hold them.
#[derive(Default)]
pub(super) struct Lanes {
    /// The container each pooled lane, and each object over a lane, goes in.
    pub(super) parent: HashMap<ObjectId, ObjectId>,
    /// The lanes and pools of rows, written `horizontal=0`.
    pub(super) rows: HashSet<ObjectId>,
}

/// The lanes of `page`, leaving out of `parent` anything `groups` (the group
/// holding each member) already places.
pub(super) fn lanes(board: &Board, page: &Page, groups: &HashMap<ObjectId, ObjectId>) -> Lanes {
    let frames: Vec<(usize, &ObjectId, Rect)> = page
        .objects
        .iter()
        .enumerate()
        .filter_map(|(z, o)| match &o.kind {
            Kind::Shape(s) if s.geom == Geom::Frame && s.rotation.is_none() => {
                Some((z, &o.id, s.bounds))
            }
            _ => None,
        })
        .collect();
    let mut out = Lanes::default();
    if frames.len() > MAX_FRAMES {
        return out;
    }
    let same = |a: f64, b: f64| (a - b).abs() <= NEAR;
    // (z, id, bounds, a row) of every lane.
    let mut lanes: Vec<(usize, &ObjectId, Rect, bool)> = Vec::new();
    for (k, &(z, id, a)) in frames.iter().enumerate() {
        let mut row = false;
        let mut column = false;
        for (j, &(_, _, b)) in frames.iter().enumerate() {
            if j == k {
                continue;
            }
            row |= same(a.x, b.x)
                && same(a.w, b.w)
                && (same(a.bottom(), b.y) || same(b.bottom(), a.y));
            column |=
                same(a.y, b.y) && same(a.h, b.h) && (same(a.right(), b.x) || same(b.right(), a.x));
        }
        if row || column {
            lanes.push((z, id, a, row));
        }
    }
    for &(z, id, r, row) in &lanes {
        if row {
            out.rows.insert(id.clone());
        }
        let pool = frames
            .iter()
            .filter(|&&(pz, pid, p)| pid != id && pz < z && p.contains(&r) && p.w * p.h > r.w * r.h)
            .min_by(|p, q| (p.2.w * p.2.h).total_cmp(&(q.2.w * q.2.h)));
        if let Some(&(_, pool, _)) = pool {
            if !groups.contains_key(id) {
                out.parent.insert(id.clone(), pool.clone());
            }
            if row {
                out.rows.insert(pool.clone());
            }
        }
    }
    let is_lane: HashSet<&ObjectId> = lanes.iter().map(|l| l.1).collect();
    for (z, o) in page.objects.iter().enumerate() {
        let placed = matches!(o.kind, Kind::Shape(_) | Kind::Image(_) | Kind::Group(_));
        if !placed || groups.contains_key(&o.id) || is_lane.contains(&o.id) {
            continue;
        }
        let Some(b) = board.bounds(&o.id) else {
            continue;
        };
        let lane = lanes
            .iter()
            .filter(|&&(lz, _, r, _)| lz < z && r.contains(&b))
            .min_by(|p, q| (p.2.w * p.2.h).total_cmp(&(q.2.w * q.2.h)));
        if let Some(&(_, lane, _, _)) = lane {
            out.parent.insert(o.id.clone(), lane.clone());
        }
    }
    out
}
