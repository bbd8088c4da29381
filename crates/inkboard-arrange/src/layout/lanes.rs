//! The swimlane layout (`layout` with `"algorithm": "lanes"`, issue 32): the
//! frames of the page (or those named) are lanes, laid side by side across the
//! flow, all of one length, each as thick as its contents need, every shape
//! staying in the lane that holds it. A frame holding frames is a pool: its
//! frames are its lanes, in its place, and it is sized around them.
//!
//! The shapes are ordered along the flow by one layering of the whole page
//! (`inkboard_layout::ranks`: cycles broken depth-first, layers by network
//! simplex), so a line between lanes runs forward where it can, and a layer
//! is a column (a row, going down) shared by every lane, as a BPMN swimlane
//! reads: each column as wide as its widest shape, the gap after it widened for
//! the labels of the lines crossing it. Within a lane, the shapes of one layer
//! stand across the flow, ordered by where the shapes that lead to them stand
//! (a barycentre sweep), and centred in the lane, so a chain in one lane runs
//! straight. Lanes keep the order the person gave them across the flow;
//! lanes touch, so a line between two lanes crosses one shared border (the
//! router lets it through the lanes between, `inkboard-render`'s
//! `route::obstacles`, and the checker does not report it).
//!
//! A frame inside a lane is one block, its contents laid out inside it first
//! (layered, as [`super::Plan`] does for any frame laid out as one node).
//!
//! What a pool holds outside its lanes joins the lane nearest it across the
//! flow, so a pool just split into lanes (the editor's "Make lanes") takes in
//! the shapes it held.
//!
//! Limitations: the lanes' titles stand on top, as every frame's does (BPMN
//! turns a row's title on its side at the left); ink in a lane stays where it
//! was drawn.

use std::collections::HashMap;

use inkboard_core::{Board, Kind, ObjectId, PageId, Rect, Transaction, FRAME_TITLE_HEIGHT};
use inkboard_layout as engine;

use super::page::Page;
use super::{Direction, LayoutOptions, Plan, SPACING};
use crate::place::{self, Side, FRAME_PADDING};
use crate::{shift, ArrangeError};

/// Where a frame's contents begin below its top edge: its title band and half
/// its padding, as every layout leaves it.
const TOP: f64 = FRAME_TITLE_HEIGHT + FRAME_PADDING / 2.0;

/// The room a label needs beside it along the flow, in a gap between layers:
/// the renderer's clearance on each side.
const LABEL_ROOM: f64 = 24.0;

/// How thick a lane with nothing in it is drawn (across the flow, inside its
/// padding): room to drop a shape into.
const EMPTY_LANE: f64 = 60.0;

/// The room a lane keeps beyond its shapes for the lines going back within it.
const LOOP_ROOM: f64 = 24.0;

/// A pool (or none: lanes side by side on the page) and its lanes, by item.
struct Group {
    pool: Option<usize>,
    lanes: Vec<usize>,
}

/// The flow's axes: positions are worked out "along" the flow and "across" it,
/// and turned into page coordinates at the end.
#[derive(Clone, Copy)]
struct Axes {
    /// The flow runs along x (lanes are rows).
    rows: bool,
}

impl Axes {
    /// (along, across) sizes of a page size.
    fn split(self, (w, h): (f64, f64)) -> (f64, f64) {
        if self.rows {
            (w, h)
        } else {
            (h, w)
        }
    }

    /// The page rectangle at `a`, `c` of sizes `sa`, `sc`.
    fn rect(self, a: f64, c: f64, sa: f64, sc: f64) -> Rect {
        if self.rows {
            Rect::new(a, c, sa, sc)
        } else {
            Rect::new(c, a, sc, sa)
        }
    }

    /// A frame's padding (before, after) along and across the flow: its title
    /// stands on top, which is before along a column and before across a row.
    /// A row also keeps the title's room at its left, where draw.io draws a
    /// horizontal lane's title (the export writes rows of lanes that way).
    fn pads(self) -> ((f64, f64), (f64, f64)) {
        let (p, t) = (FRAME_PADDING, TOP);
        if self.rows {
            ((t, p), (t, p))
        } else {
            ((t, p), (p, p))
        }
    }
}

/// Lays out the lanes of `page` (see the module documentation): the frames
/// among `ids` (None: the page's outermost frames), a pool standing for its
/// lanes. Returns what was placed: pools, lanes, then what they hold.
///
/// Errors: no frame to lay out as a lane, a stop, or an edit the model refuses.
pub(super) fn arrange(
    tx: &mut Transaction<'_>,
    page_id: PageId,
    ids: Option<&[ObjectId]>,
    opts: &LayoutOptions,
    stop: &dyn Fn() -> bool,
) -> Result<Vec<ObjectId>, ArrangeError> {
    let page = Page::read(tx.board(), page_id)?;
    let axes = Axes {
        rows: matches!(opts.direction, Direction::Right | Direction::Left),
    };
    let groups = groups(&page, tx.board(), ids, axes)?;
    let spacing = opts.spacing.unwrap_or(SPACING);
    let options = engine::Options {
        algorithm: engine::Algorithm::Layered,
        direction: super::engine_direction(opts.direction),
        node_spacing: spacing,
        layer_spacing: spacing * 1.5,
        start: engine::Start::Best,
    };
    let none = HashMap::new();
    let mut plan = Plan {
        rel: HashMap::new(),
        size: HashMap::new(),
        children: HashMap::new(),
        inner: &none,
        grid: false,
        stop,
    };
    // The units: what each lane holds directly (a frame in it as one block).
    let lanes: Vec<usize> = groups.iter().flat_map(|g| g.lanes.clone()).collect();
    let mut units: Vec<usize> = Vec::new();
    let mut lane_of: Vec<usize> = Vec::new();
    for (l, &lane) in lanes.iter().enumerate() {
        for k in page.children(lane) {
            if page.items[k].ink {
                continue;
            }
            plan.measure(&page, k, &options, 1)?;
            units.push(k);
            lane_of.push(l);
        }
    }
    // What a pool holds outside its lanes (dropped across a border, or there
    // before the pool was split into lanes) joins the lane its centre is in
    // across the flow, or the nearest.
    let mut first = 0;
    for g in &groups {
        let Some(pool) = g.pool else {
            first += g.lanes.len();
            continue;
        };
        for k in page.children(pool) {
            let item = &page.items[k];
            if item.ink || g.lanes.contains(&k) {
                continue;
            }
            let at = axes
                .split((item.bounds.center().x, item.bounds.center().y))
                .1;
            let distance = |l: &usize| {
                let r = page.items[*l].bounds;
                let lo = axes.split((r.x, r.y)).1;
                let thick = axes.split((r.w, r.h)).1;
                (lo - at).max(at - lo - thick).max(0.0)
            };
            let Some(l) = (0..g.lanes.len())
                .min_by(|&p, &q| distance(&g.lanes[p]).total_cmp(&distance(&g.lanes[q])))
            else {
                continue;
            };
            plan.measure(&page, k, &options, 1)?;
            units.push(k);
            lane_of.push(first + l);
        }
        first += g.lanes.len();
    }
    let slot: HashMap<usize, usize> = units.iter().enumerate().map(|(k, &u)| (u, k)).collect();
    let rep = |mut i: usize| loop {
        if let Some(&k) = slot.get(&i) {
            return Some(k);
        }
        i = page.items[i].parent?;
    };
    let links: Vec<super::Link> = page
        .links
        .iter()
        .zip(&page.labels)
        .filter_map(|(&(a, b), &label)| Some(((rep(a)?, rep(b)?), label)))
        .filter(|((a, b), _)| a != b)
        .collect();
    let graph = engine::Graph {
        nodes: units
            .iter()
            .map(|u| engine::Size::new(plan.size[u].0, plan.size[u].1))
            .collect(),
        edges: links.iter().map(|l| l.0).collect(),
    };
    let mut rank = engine::ranks(&graph, stop)?;
    let layers = rank.iter().copied().max().map_or(0, |r| r + 1);
    if matches!(opts.direction, Direction::Left | Direction::Up) {
        rank.iter_mut().for_each(|r| *r = layers - 1 - *r);
    }
    let size: Vec<(f64, f64)> = units.iter().map(|u| axes.split(plan.size[u])).collect();

    // Along the flow: each layer as wide as its widest unit, the gap after it
    // wide enough for the labels of the lines crossing it.
    let mut width = vec![0.0f64; layers];
    for (k, &r) in rank.iter().enumerate() {
        width[r] = width[r].max(size[k].0);
    }
    let mut gap = vec![spacing * 1.5; layers.saturating_sub(1)];
    for ((a, b), label) in &links {
        let (lo, hi) = (rank[*a].min(rank[*b]), rank[*a].max(rank[*b]));
        if let Some(l) = label {
            let need = axes.split(*l).0 + 2.0 * LABEL_ROOM;
            for g in &mut gap[lo..hi] {
                *g = g.max(need);
            }
        }
    }
    let mut start = vec![0.0f64; layers];
    for r in 1..layers {
        start[r] = (start[r - 1] + width[r - 1] + gap[r - 1]).round();
    }
    let content = layers.checked_sub(1).map_or(0.0, |r| start[r] + width[r]);

    // Across the flow: each lane as thick as its fullest layer.
    let mut cells: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
    for k in 0..units.len() {
        cells.entry((lane_of[k], rank[k])).or_default().push(k);
    }
    let stack = |cell: &[usize]| {
        cell.iter().map(|&k| size[k].1).sum::<f64>() + spacing * cell.len().saturating_sub(1) as f64
    };
    let mut thick = vec![EMPTY_LANE; lanes.len()];
    for (&(l, _), cell) in &cells {
        thick[l] = thick[l].max(stack(cell));
    }
    // A line back within one lane runs round the far side of its shapes
    // (`pin_loops`): that lane keeps room for it there.
    let loops: Vec<usize> = (0..links.len())
        .filter(|&e| {
            let (a, b) = links[e].0;
            lane_of[a] == lane_of[b] && rank[b] < rank[a]
        })
        .collect();
    let mut room = vec![0.0f64; lanes.len()];
    for &e in &loops {
        room[lane_of[links[e].0 .0]] = LOOP_ROOM;
    }
    let ((a0, a1), (c0, c1)) = axes.pads();
    // A lane is never narrower than its title: along a row, across a column.
    let title = |f: usize| page.items[f].min_w;
    let framed = |f: usize| axes.split((title(f), 0.0));
    let any_pool = groups.iter().any(|g| g.pool.is_some());
    let lane_start = if any_pool { a0 } else { 0.0 };
    let mut length = a0 + content + a1;
    for &f in lanes
        .iter()
        .chain(groups.iter().filter_map(|g| g.pool.as_ref()))
    {
        length = length.max(framed(f).0);
    }
    let lane_across: Vec<f64> = (0..lanes.len())
        .map(|l| (c0 + thick[l] + room[l] + c1).max(framed(lanes[l]).1))
        .collect();

    // The lanes and pools, stacked across from 0.
    let mut target: HashMap<usize, Rect> = HashMap::new();
    let mut lane_at = vec![0.0f64; lanes.len()];
    let mut c = 0.0;
    let mut l = 0;
    for g in &groups {
        let top = c;
        if g.pool.is_some() {
            c += c0;
        }
        for &lane in &g.lanes {
            lane_at[l] = c;
            target.insert(lane, axes.rect(lane_start, c, length, lane_across[l]));
            c += lane_across[l];
            l += 1;
        }
        if let Some(pool) = g.pool {
            c += c1;
            let along = lane_start + length + a1;
            target.insert(pool, axes.rect(0.0, top, along, c - top));
        }
        c += spacing;
    }
    let block = axes.rect(
        0.0,
        0.0,
        lane_start + length + if any_pool { a1 } else { 0.0 },
        c - spacing,
    );

    // The units, layer by layer: each cell's units stand in the order of where
    // what leads to them stands (their own order across, for the first), and
    // the cell is centred in its lane.
    let mut centre = vec![f64::NAN; units.len()];
    let mut before: Vec<Vec<usize>> = vec![Vec::new(); units.len()];
    for ((a, b), _) in &links {
        let (p, q) = if rank[*a] < rank[*b] {
            (*a, *b)
        } else {
            (*b, *a)
        };
        before[q].push(p);
    }
    let now = |k: usize| {
        axes.split((page.items[units[k]].bounds.x, page.items[units[k]].bounds.y))
            .1
    };
    let mut keys: Vec<(usize, usize)> = cells.keys().copied().collect();
    keys.sort_by_key(|&(l, r)| (r, l));
    for key in keys {
        let (l, r) = key;
        let cell = cells.get_mut(&key).expect("a cell");
        let bary = |k: usize| {
            let known: Vec<f64> = before[k]
                .iter()
                .map(|&p| centre[p])
                .filter(|v| !v.is_nan())
                .collect();
            (!known.is_empty()).then(|| known.iter().sum::<f64>() / known.len() as f64)
        };
        let keyed: Vec<(usize, f64)> = cell
            .iter()
            .map(|&k| (k, bary(k).unwrap_or(now(k))))
            .collect();
        let mut sorted = keyed.clone();
        sorted.sort_by(|p, q| p.1.total_cmp(&q.1).then(now(p.0).total_cmp(&now(q.0))));
        *cell = sorted.iter().map(|p| p.0).collect();
        let mut at = (lane_at[l] + c0 + (thick[l] - stack(cell)) / 2.0).round();
        for &k in cell.iter() {
            let (sa, sc) = size[k];
            let a = (lane_start + a0 + start[r] + (width[r] - sa) / 2.0).round();
            target.insert(units[k], axes.rect(a, at, sa, sc));
            centre[k] = at + sc / 2.0;
            at += sc + spacing;
        }
    }

    // Where the block goes: where the lanes began, moved right past what else
    // is there (not what moves, nor the frames around the pools).
    let outer: Vec<usize> = groups
        .iter()
        .flat_map(|g| g.pool.map_or(g.lanes.clone(), |p| vec![p]))
        .collect();
    let moving = page.moving(&outer);
    let ancestors = page.ancestors_of(&outer);
    let moved: Vec<ObjectId> = (0..page.items.len())
        .filter(|&i| moving[i])
        .map(|i| page.items[i].id.clone())
        .collect();
    let holders: Vec<&ObjectId> = ancestors.iter().map(|&f| &page.items[f].id).collect();
    let was = outer
        .iter()
        .map(|&i| page.items[i].bounds)
        .reduce(|a, b| a.union(&b))
        .unwrap_or_default();
    let at = place::walk(
        &place::obstacles(tx.board(), page_id, &moved),
        &holders,
        Rect::new(was.x, was.y, block.w, block.h),
        Side::Right,
        place::GAP,
    );
    for r in target.values_mut() {
        *r = r.translated(at.x, at.y);
    }
    // Inside the frames in lanes, outside in.
    let mut order: Vec<usize> = outer.clone();
    order.extend(
        groups
            .iter()
            .filter(|g| g.pool.is_some())
            .flat_map(|g| g.lanes.clone()),
    );
    order.extend(units.iter().copied());
    let mut k = 0;
    while k < order.len() {
        let f = order[k];
        if let Some(kids) = plan.children.get(&f) {
            let base = target[&f];
            for &kid in kids {
                let (x, y) = plan.rel[&kid];
                let (w, h) = plan.size[&kid];
                target.insert(kid, Rect::new(base.x + x, base.y + y, w, h));
                order.push(kid);
            }
        }
        k += 1;
    }
    let riders = page.riders(tx.board(), &order, &target);
    for i in &order {
        let (item, r) = (&page.items[*i], target[i]);
        if item.ink {
            let (dx, dy) = (r.x - item.bounds.x, r.y - item.bounds.y);
            shift::translate(tx, std::slice::from_ref(&item.id), dx, dy)?;
            continue;
        }
        tx.edit(&item.id, |o| match &mut o.kind {
            Kind::Shape(s) => s.bounds = r,
            Kind::Image(im) => im.bounds = r,
            _ => {}
        })?;
    }
    for (id, dx, dy) in riders {
        shift::translate(tx, &[id], dx, dy)?;
    }
    let laid: HashMap<ObjectId, Rect> = order
        .iter()
        .map(|i| (page.items[*i].id.clone(), target[i]))
        .collect();
    crate::links::restyle(tx, page_id, &laid, opts.algorithm, opts.direction)?;
    let back: Vec<(usize, usize)> = loops.iter().map(|&e| links[e].0).collect();
    pin_loops(tx, page_id, &page, &units, &back, axes)?;
    // Each lane drawn over its pool, and what it holds over it: a frame is
    // opaque, and a pool or a lane drawn later would hide what it holds.
    for g in &groups {
        if let Some(pool) = g.pool {
            let ids: Vec<ObjectId> = g.lanes.iter().map(|&l| page.items[l].id.clone()).collect();
            place::raise_above(tx, &page.items[pool].id, &ids)?;
        }
    }
    for (l, &lane) in lanes.iter().enumerate() {
        let ids: Vec<ObjectId> = (0..units.len())
            .filter(|&k| lane_of[k] == l)
            .map(|k| page.items[units[k]].id.clone())
            .collect();
        place::raise_above(tx, &page.items[lane].id, &ids)?;
    }
    // The frames around the pools grow to hold them.
    if let Some(&parent) = ancestors.first() {
        place::hold(
            tx,
            &page.items[parent].id,
            &Rect::new(at.x, at.y, block.w, block.h),
        )?;
    }
    Ok(order.iter().map(|&i| page.items[i].id.clone()).collect())
}

/// Pins both ends of each line going back within one lane (`back`: pairs of
/// units) to the far side across the flow (below a row, right of a column), so
/// that it runs round under the lane's shapes instead of back through the lines
/// going forward between them, as a loop is drawn in a BPMN lane.
fn pin_loops(
    tx: &mut Transaction<'_>,
    page_id: PageId,
    page: &Page,
    units: &[usize],
    back: &[(usize, usize)],
    axes: Axes,
) -> Result<(), ArrangeError> {
    if back.is_empty() {
        return Ok(());
    }
    let slot: HashMap<usize, usize> = units.iter().enumerate().map(|(k, &u)| (u, k)).collect();
    let unit = |id: &ObjectId| {
        let mut i = *page.index.get(id)?;
        loop {
            if let Some(&k) = slot.get(&i) {
                return Some(k);
            }
            i = page.items[i].parent?;
        }
    };
    let side = if axes.rows {
        inkboard_core::Side::Bottom
    } else {
        inkboard_core::Side::Right
    };
    let pinned: Vec<(ObjectId, inkboard_core::Connector)> = tx
        .board()
        .page(page_id)
        .into_iter()
        .flat_map(|p| &p.objects)
        .filter(|o| !o.locked)
        .filter_map(|o| match &o.kind {
            Kind::Connector(c) => {
                let pair = (unit(c.from.object()?)?, unit(c.to.object()?)?);
                back.contains(&pair).then(|| {
                    let mut c = c.clone();
                    c.set_side(true, Some(side));
                    c.set_side(false, Some(side));
                    (o.id.clone(), c)
                })
            }
            _ => None,
        })
        .collect();
    for (id, c) in pinned {
        tx.edit(&id, |o| o.kind = Kind::Connector(c))?;
    }
    Ok(())
}

/// The pools and lanes to lay out, in the order they stand across the flow:
/// the frames among `ids` (None: the page's outermost frames); a frame that
/// holds frames is a pool of them, and a lane named inside a pool stands for
/// the pool. Frames that are neither pools nor in one are lanes of one group
/// without a pool.
fn groups(
    page: &Page,
    board: &Board,
    ids: Option<&[ObjectId]>,
    axes: Axes,
) -> Result<Vec<Group>, ArrangeError> {
    let items = &page.items;
    let frames_in = |f: usize| -> Vec<usize> {
        page.kids[f]
            .iter()
            .copied()
            .filter(|&k| items[k].frame)
            .collect()
    };
    let chosen: Vec<usize> = match ids {
        Some(_) => page
            .top_level(board, ids)
            .map_err(|_| ArrangeError::NoLanes)?
            .into_iter()
            .filter(|&i| items[i].frame)
            .collect(),
        None => (0..items.len())
            .filter(|&i| items[i].frame && items[i].parent.is_none())
            .collect(),
    };
    let across = |i: usize| axes.split((items[i].bounds.x, items[i].bounds.y));
    let by_place = |list: &mut Vec<usize>| {
        list.sort_by(|&p, &q| {
            let (ap, cp) = across(p);
            let (aq, cq) = across(q);
            cp.total_cmp(&cq).then(ap.total_cmp(&aq)).then(p.cmp(&q))
        })
    };
    let mut pools: Vec<usize> = Vec::new();
    let mut bare: Vec<usize> = Vec::new();
    for f in chosen {
        let pool = if !frames_in(f).is_empty() {
            Some(f)
        } else {
            items[f].parent.filter(|&p| ids.is_some() && items[p].frame)
        };
        match pool {
            Some(p) if !pools.contains(&p) => pools.push(p),
            Some(_) => {}
            None => bare.push(f),
        }
    }
    if pools.is_empty() && bare.is_empty() {
        return Err(ArrangeError::NoLanes);
    }
    let mut groups: Vec<(f64, Group)> = pools
        .into_iter()
        .map(|p| {
            let mut lanes = frames_in(p);
            by_place(&mut lanes);
            (
                across(p).1,
                Group {
                    pool: Some(p),
                    lanes,
                },
            )
        })
        .collect();
    if !bare.is_empty() {
        by_place(&mut bare);
        groups.push((
            across(bare[0]).1,
            Group {
                pool: None,
                lanes: bare,
            },
        ));
    }
    groups.sort_by(|p, q| p.0.total_cmp(&q.0));
    Ok(groups.into_iter().map(|g| g.1).collect())
}
