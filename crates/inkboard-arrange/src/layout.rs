//! Layout on the board: arranges shapes and the connectors between them with
//! `inkboard-layout` (layered, tree, org chart, mind map or grid), for the
//! `layout` tool and the Mermaid import. This module maps the page onto that
//! crate's plain graph and the result back onto the page:
//!
//! - the nodes are the shapes and images asked for (by default every one on the
//!   page that no frame holds); in a layered layout a frame is a cluster
//!   (`inkboard_layout::Cluster`): its contents are laid out with everything
//!   else, sharing its layers, and the frame is drawn around them with its
//!   padding and title, as `dot` draws `subgraph cluster_…` (a connector from
//!   the frame itself counts as one from the last thing in it, and one to it
//!   as one to the first); in the other
//!   layouts, and for a frame whose contents run in a direction of their own, a
//!   frame is one node whose contents are laid out inside it first, the frame
//!   then sized to hold them, so nested frames work from the inside out;
//! - the edges are the page's connectors between two of those nodes, a connector
//!   to something inside a frame laid out as one node counting as one to that
//!   frame;
//! - the laid-out block keeps the top-left corner of what it arranged when nothing
//!   else is in the way there, and otherwise moves right, past what is;
//! - connectors are routed when drawn, from their ends, so moving shapes is all it
//!   takes, besides what `links.rs` sets on them (bends dropped; a mind map's
//!   curves and sides, an org chart's trunks); ink inside a frame is laid out with its contents, and free-ended
//!   connectors move with the frame;
//! - in a layered or tree layout, a hub with more lines in (or out) than the
//!   side facing them holds 12 px apart is widened across the flow first
//!   (`hub_size`, as ELK grows a node to fit its ports), and the gaps between
//!   layers that the routes crowd (lines closer than 8 px) are then widened
//!   (`channels.rs`).
//!
//! With the `lanes` algorithm the frames are lanes instead, and `lanes.rs`
//! places everything (swimlanes, issue 32).
//!
//! The Mermaid import calls [`arrange_with`] directly, naming the frames whose
//! contents run in a direction of their own (a subgraph's `direction` line): each
//! such frame is still one node of the layout around it, so its inner direction
//! changes only what it holds.
//!
//! A layout stops when the caller's stop check says so (the tools ask whether
//! the call was cancelled or has run past its deadline): the layout crate is
//! asked from inside its long loops, the gaps between their rounds of routing,
//! and [`ArrangeError::Stopped`] comes back; the caller drops the transaction,
//! so nothing changes. The layout crate's own budgets keep any graph well
//! within a deadline; the stop check is the backstop.

use std::collections::HashMap;

use inkboard_core::{Geom, Kind, ObjectId, PageId, Point, Rect, Transaction};
use inkboard_layout as engine;
use inkboard_render::route::{side_for_ports, Side as RouteSide};

use crate::channels::Stacking;
use crate::place::{self, Side, FRAME_PADDING};
use crate::{shift, ArrangeError};
use page::Page;

mod drawn;
mod lanes;
mod page;
#[cfg(test)]
mod tests;

inkboard_core::vocabulary! {
    /// How `layout` arranges shapes.
    pub enum Algorithm as "algorithm" {
        Layered = "layered", Tree = "tree", OrgChart = "org_chart", Grid = "grid",
        Mindmap = "mindmap", Lanes = "lanes",
    }
}

inkboard_core::vocabulary! {
    /// Which way connectors run after `layout` (for a grid, which way rows advance).
    pub enum Direction as "direction" { Down = "down", Right = "right", Up = "up", Left = "left" }
}

/// What [`arrange`] is asked to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayoutOptions {
    pub algorithm: Algorithm,
    pub direction: Direction,
    /// The gap between neighbouring shapes; layers are 1.5 times as far apart, to
    /// leave room for connectors and their labels. Default 40.
    pub spacing: Option<f64>,
}

/// The gap between shapes when `spacing` is not given.
const SPACING: f64 = 40.0;

/// Lays out `ids` on `page` (None: every shape and image on the page that no
/// frame holds) and returns the shapes placed, each frame followed by what it
/// holds. Objects not named are left where they are, and the laid-out block
/// does not overlap them. `stop` is asked between the phases and inside the
/// long searches: when it says stop, the layout ends with
/// [`ArrangeError::Stopped`].
///
/// Errors: a locked object or nothing to lay out among `ids`, a graph the
/// layout crate refuses, a stop, or an edit the model refuses.
pub fn arrange(
    tx: &mut Transaction<'_>,
    page: PageId,
    ids: Option<&[ObjectId]>,
    opts: &LayoutOptions,
    stop: &dyn Fn() -> bool,
) -> Result<Vec<ObjectId>, ArrangeError> {
    if opts.algorithm == Algorithm::Lanes {
        return lanes::arrange(tx, page, ids, opts, stop);
    }
    arrange_with(tx, page, ids, opts, &HashMap::new(), stop)
}

/// [`arrange`], with the contents of the frames named in `inner` laid out in the
/// direction given there (and the frames inside those in it too, unless named
/// themselves). A frame named there whose contents have no connector between
/// them has them laid out in a row (or column) that way, in page order, as
/// Mermaid does for a subgraph with a `direction` and no links.
///
/// A layered layout of a page of at most `drawn::MAX_LINES` connectors is
/// laid out from a few starts and the one whose routed lines cross least is
/// kept (`drawn.rs`).
pub fn arrange_with(
    tx: &mut Transaction<'_>,
    page_id: PageId,
    ids: Option<&[ObjectId]>,
    opts: &LayoutOptions,
    inner: &HashMap<ObjectId, Direction>,
    stop: &dyn Fn() -> bool,
) -> Result<Vec<ObjectId>, ArrangeError> {
    let layered = matches!(opts.algorithm, Algorithm::Layered | Algorithm::Lanes);
    if layered && drawn::worth_judging(tx, page_id) {
        let flow = match opts.direction {
            Direction::Down => drawn::Flow::Down,
            Direction::Right => drawn::Flow::Right,
            Direction::Up => drawn::Flow::Up,
            Direction::Left => drawn::Flow::Left,
        };
        return drawn::keep_least_crossed(tx, page_id, flow, stop, |tx, start| {
            arrange_from(tx, page_id, ids, opts, inner, stop, start)
        });
    }
    arrange_from(tx, page_id, ids, opts, inner, stop, engine::Start::Best)
}

/// [`arrange_with`] with the layered layout's crossing reduction started
/// from `start`.
fn arrange_from(
    tx: &mut Transaction<'_>,
    page_id: PageId,
    ids: Option<&[ObjectId]>,
    opts: &LayoutOptions,
    inner: &HashMap<ObjectId, Direction>,
    stop: &dyn Fn() -> bool,
    start: engine::Start,
) -> Result<Vec<ObjectId>, ArrangeError> {
    let page = Page::read(tx.board(), page_id)?;
    let mut top = page.top_level(tx.board(), ids)?;
    // A grid fills its cells in reading order: the order the shapes were named
    // in, or else the order they are read in on the page today (page order puts
    // each new frame at the back, which would deal frames out backwards).
    let grid = opts.algorithm == Algorithm::Grid;
    if grid && ids.is_none() {
        page.reading_order(&mut top);
    }
    if top.is_empty() {
        return Ok(Vec::new());
    }
    let spacing = opts.spacing.unwrap_or(SPACING);
    let options = engine::Options {
        algorithm: match opts.algorithm {
            // Lanes are laid out by `lanes.rs`; asked here (by the Mermaid
            // import, which never asks), they are a layered layout.
            Algorithm::Layered | Algorithm::Lanes => engine::Algorithm::Layered,
            Algorithm::Tree => engine::Algorithm::Tree,
            Algorithm::Grid => engine::Algorithm::Grid,
            Algorithm::Mindmap => engine::Algorithm::Mindmap,
            Algorithm::OrgChart => engine::Algorithm::OrgChart,
        },
        direction: engine_direction(opts.direction),
        node_spacing: spacing,
        layer_spacing: spacing * 1.5,
        start,
    };
    // Sizes and relative places, inside out: every frame's contents are laid out
    // before the frame itself is sized and placed among its siblings.
    let mut plan = Plan {
        rel: HashMap::new(),
        size: HashMap::new(),
        children: HashMap::new(),
        inner,
        grid,
        stop,
    };
    let block = plan.solve(&page, &top, &options, false, 0)?;
    if stop() {
        return Err(ArrangeError::Stopped);
    }
    // Where the block goes: where its shapes began, unless something else is there.
    let start = top
        .iter()
        .map(|&i| page.items[i].bounds)
        .reduce(|a, b| a.union(&b))
        .unwrap_or_default();
    // Moved right past what is in the way, as `add_shape` beside an object is:
    // what moves is not in the way, nor are the frames holding the block (it
    // belongs in them), nor is ink (a stroke drawn around a diagram must not push
    // the diagram elsewhere; place's obstacles are shapes and images).
    let moving = page.moving(&top);
    let ancestors = page.ancestors_of(&top);
    let moved: Vec<ObjectId> = (0..page.items.len())
        .filter(|&i| moving[i])
        .map(|i| page.items[i].id.clone())
        .collect();
    let holders: Vec<&ObjectId> = ancestors.iter().map(|&f| &page.items[f].id).collect();
    // Shapes laid out among others that stay (a subset named in `ids`) go beside
    // the shapes they connect to that stay, the way the flow runs, and move on
    // across the flow past what is in the way; the rest keep their corner.
    // A grid is no flow: it keeps its corner.
    let anchored = ids.is_some() && !grid;
    let (first, side) = match anchored.then(|| page.pinned_anchor(&moving, &ancestors)) {
        Some(Some(anchor)) => anchor.place(block, opts.direction, spacing * 1.5),
        _ => (Rect::new(start.x, start.y, block.0, block.1), Side::Right),
    };
    let at = place::walk(
        &place::obstacles(tx.board(), page_id, &moved),
        &holders,
        first,
        side,
        place::GAP,
    );
    let origin = Point { x: at.x, y: at.y };
    // Absolute bounds, outside in.
    let mut target: HashMap<usize, Rect> = HashMap::new();
    let mut stack: Vec<(usize, Point)> = top.iter().rev().map(|&i| (i, origin)).collect();
    let mut order = Vec::new();
    while let Some((i, base)) = stack.pop() {
        let (x, y) = plan.rel[&i];
        let (w, h) = plan.size[&i];
        let r = Rect::new(base.x + x, base.y + y, w, h);
        target.insert(i, r);
        order.push(i);
        if let Some(kids) = plan.children.get(&i) {
            for &k in kids.iter().rev() {
                stack.push((k, Point { x: r.x, y: r.y }));
            }
        }
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
    // Bends dropped, and a mind map's curves or an org chart's trunks set.
    let laid: HashMap<ObjectId, Rect> = order
        .iter()
        .map(|i| (page.items[*i].id.clone(), target[i]))
        .collect();
    crate::links::restyle(tx, page_id, &laid, opts.algorithm, opts.direction)?;
    // Gaps the routes crowd are opened (a mind map's curves and an org chart's
    // trunks keep to their own lanes, and a grid has no layers).
    if matches!(opts.algorithm, Algorithm::Layered | Algorithm::Tree) {
        let stacking = match opts.direction {
            Direction::Down | Direction::Up => Stacking::Rows,
            Direction::Left | Direction::Right => Stacking::Columns,
        };
        let placed: Vec<ObjectId> = order.iter().map(|&i| page.items[i].id.clone()).collect();
        crate::channels::widen(tx, page_id, &placed, stacking, &moved, &holders, stop)?;
    }
    // Shapes laid out inside a frame that was not itself laid out stay in it, and
    // that frame in the frames around it (where the channels left them).
    let held = order
        .iter()
        .filter_map(|&i| tx.board().object(&page.items[i].id)?.own_bounds())
        .reduce(|a, b| a.union(&b));
    if let (Some(&parent), Some(held)) = (ancestors.first(), held) {
        place::hold(tx, &page.items[parent].id, &held)?;
    }
    Ok(order.iter().map(|&i| page.items[i].id.clone()).collect())
}

/// Which way the layout crate runs for a direction word.
fn engine_direction(direction: Direction) -> engine::Direction {
    match direction {
        Direction::Down => engine::Direction::Down,
        Direction::Right => engine::Direction::Right,
        Direction::Up => engine::Direction::Up,
        Direction::Left => engine::Direction::Left,
    }
}

/// The size of shape `u`, widened across the flow of a layered or tree layout
/// when its lines in (or out) are more than the side facing them holds a
/// comfortable step apart, as ELK grows a node to fit its ports: a hub's ends
/// then spread on the sides the flow meets instead of crowding there or
/// spilling round its corners (issue 13). Only what is laid out grows.
fn hub_size(page: &Page, u: usize, size: (f64, f64), options: &engine::Options) -> (f64, f64) {
    if !matches!(
        options.algorithm,
        engine::Algorithm::Layered | engine::Algorithm::Tree
    ) {
        return size;
    }
    let item = &page.items[u];
    let (ins, outs) = (page.ins[u], page.outs[u]);
    let bounds = Rect::new(0.0, 0.0, size.0, size.1);
    let geom = item.geom.or(Some(Geom::Rect));
    let need = |side: RouteSide| side_for_ports(geom, bounds, side, ins.max(outs));
    match options.direction {
        engine::Direction::Down | engine::Direction::Up => (need(RouteSide::Top), size.1),
        engine::Direction::Left | engine::Direction::Right => (size.0, need(RouteSide::Left)),
    }
}

/// An edge of a layout's graph (indices into its units) and its label's size.
type Link = ((usize, usize), Option<(f64, f64)>);

/// Sizes and places relative to the enclosing block, filled in by [`Plan::solve`].
struct Plan<'a> {
    rel: HashMap<usize, (f64, f64)>,
    size: HashMap<usize, (f64, f64)>,
    children: HashMap<usize, Vec<usize>>,
    /// Frames whose contents run in a direction of their own.
    inner: &'a HashMap<ObjectId, Direction>,
    /// A grid: cells are dealt in reading order, and frames keep the size they
    /// were given when their contents need no more.
    grid: bool,
    /// Asked by the layout crate whether to give up.
    stop: &'a dyn Fn() -> bool,
}

impl Plan<'_> {
    /// The graph of `units` (measured) joined by `edges` (indices into `units`),
    /// and their labels' sizes.
    fn graph(
        &self,
        units: &[usize],
        edges: Vec<Link>,
    ) -> (engine::Graph, Vec<Option<engine::Size>>) {
        let (edges, labels) = edges
            .into_iter()
            .map(|(e, l)| (e, l.map(|(w, h)| engine::Size::new(w, h))))
            .unzip();
        let graph = engine::Graph {
            nodes: units
                .iter()
                .map(|u| {
                    let (w, h) = self.size[u];
                    engine::Size::new(w, h)
                })
                .collect(),
            edges,
        };
        (graph, labels)
    }

    /// Lays out `units`, `depth` frames down (after the contents of the frames
    /// among them), and returns the size of the block they make. `in_row`: the
    /// units are a frame's contents laid out in its own direction, so with no
    /// connector between them they follow one another that way.
    fn solve(
        &mut self,
        page: &Page,
        units: &[usize],
        options: &engine::Options,
        in_row: bool,
        depth: usize,
    ) -> Result<(f64, f64), ArrangeError> {
        if options.algorithm == engine::Algorithm::Layered && !in_row {
            return self.solve_clustered(page, units, options, depth);
        }
        for &u in units {
            self.measure(page, u, options, depth)?;
        }
        let slot: HashMap<usize, usize> = units.iter().enumerate().map(|(k, &u)| (u, k)).collect();
        // An end inside a frame of this level stands for that frame.
        let rep = |mut i: usize| loop {
            if let Some(&k) = slot.get(&i) {
                return Some(k);
            }
            i = page.items[i].parent?;
        };
        let mut edges: Vec<Link> = page
            .links
            .iter()
            .zip(&page.labels)
            .filter_map(|(&(a, b), &label)| Some(((rep(a)?, rep(b)?), label)))
            .collect();
        // Unconnected units would stand side by side across the direction (the
        // layered layout packs components that way); a direction asked for on
        // purpose means one after another along it. Connectors within one unit
        // (inside a frame among them) join no two of them.
        if in_row && edges.iter().all(|((a, b), _)| a == b) {
            edges = (1..units.len()).map(|k| ((k - 1, k), None)).collect();
        }
        let (graph, labels) = self.graph(units, edges);
        let out = engine::layout_labelled(&graph, &labels, &[], options, self.stop)?;
        for (&u, p) in units.iter().zip(&out.nodes) {
            self.rel.insert(u, (p.x, p.y));
        }
        Ok((out.width, out.height))
    }
    /// Sizes unit `u` of a layout `depth` frames down: a frame as one block,
    /// its contents laid out inside it first (in its own direction, if it has
    /// one); anything else as it is.
    fn measure(
        &mut self,
        page: &Page,
        u: usize,
        options: &engine::Options,
        depth: usize,
    ) -> Result<(), ArrangeError> {
        let item = &page.items[u];
        let mut size = (item.bounds.w, item.bounds.h);
        if item.frame && depth < 64 {
            let mut kids = page.children(u);
            if self.grid {
                page.reading_order(&mut kids);
            }
            if !kids.is_empty() {
                let own = self.inner.get(&item.id).map(|&d| engine_direction(d));
                let kid_options = engine::Options {
                    direction: own.unwrap_or(options.direction),
                    ..*options
                };
                let (w, h) = self.solve(page, &kids, &kid_options, own.is_some(), depth + 1)?;
                let mut fw = (w + 2.0 * FRAME_PADDING).max(item.min_w);
                let top = inkboard_core::FRAME_TITLE_HEIGHT + FRAME_PADDING / 2.0;
                let mut fh = top + h + FRAME_PADDING;
                if self.grid {
                    fw = fw.max(item.bounds.w);
                    fh = fh.max(item.bounds.h);
                }
                size = (fw, fh);
                // The contents, centred across the frame below its title.
                let dx = (fw - w) / 2.0;
                for &k in &kids {
                    if let Some(r) = self.rel.get_mut(&k) {
                        *r = (r.0 + dx, r.1 + top);
                    }
                }
                self.children.insert(u, kids);
            }
        }
        if !item.frame && !item.ink {
            size = hub_size(page, u, size, options);
        }
        self.size.insert(u, size);
        Ok(())
    }

    /// [`Plan::solve`] for a layered layout: the frames among `units` (and the
    /// frames in them) are clusters of one layout with everything else, as
    /// `dot` draws clusters, rather than blocks laid out on their own: their
    /// contents share the layers with the rest, and each frame is drawn around
    /// its own with its padding and title. A frame whose contents run in a
    /// direction of their own stays one block. A connector from a frame counts
    /// as one from the last thing in it, and one to a frame as one to the first.
    fn solve_clustered(
        &mut self,
        page: &Page,
        units: &[usize],
        options: &engine::Options,
        depth: usize,
    ) -> Result<(f64, f64), ArrangeError> {
        let mut nodes: Vec<usize> = Vec::new();
        let mut node_in: Vec<Option<usize>> = Vec::new();
        let mut clusters: Vec<engine::Cluster> = Vec::new();
        let mut frames: Vec<usize> = Vec::new();
        let mut slot: HashMap<usize, usize> = HashMap::new();
        let mut cslot: HashMap<usize, usize> = HashMap::new();
        let padding = engine::Padding {
            top: inkboard_core::FRAME_TITLE_HEIGHT + FRAME_PADDING / 2.0,
            right: FRAME_PADDING,
            bottom: FRAME_PADDING,
            left: FRAME_PADDING,
        };
        let mut stack: Vec<(usize, Option<usize>, usize)> =
            units.iter().rev().map(|&u| (u, None, depth)).collect();
        while let Some((u, within, d)) = stack.pop() {
            let item = &page.items[u];
            let opens = item.frame && d < 64 && !self.inner.contains_key(&item.id);
            let kids = if opens { page.children(u) } else { Vec::new() };
            if kids.is_empty() {
                self.measure(page, u, options, d)?;
                if let Some(c) = within {
                    clusters[c].nodes.push(nodes.len());
                }
                slot.insert(u, nodes.len());
                nodes.push(u);
                node_in.push(within);
                continue;
            }
            cslot.insert(u, clusters.len());
            clusters.push(engine::Cluster {
                nodes: Vec::new(),
                parent: within,
                padding,
                min: engine::Size::new(item.min_w, 0.0),
            });
            frames.push(u);
            let c = clusters.len() - 1;
            stack.extend(kids.iter().rev().map(|&k| (k, Some(c), d + 1)));
            self.children.insert(u, kids);
        }
        // A link from a frame leaves from the last node in it, and a link into
        // one arrives at the first (in page order): a frame linked to a frame
        // then runs on from where the first one's flow ends.
        let mut first: Vec<Option<usize>> = vec![None; clusters.len()];
        let mut last: Vec<Option<usize>> = vec![None; clusters.len()];
        for (k, &within) in node_in.iter().enumerate() {
            let mut p = within;
            while let Some(c) = p {
                first[c].get_or_insert(k);
                last[c] = Some(k);
                p = clusters[c].parent;
            }
        }
        let rep = |mut i: usize, ends: &[Option<usize>]| loop {
            if let Some(&k) = slot.get(&i) {
                return Some(k);
            }
            if let Some(&c) = cslot.get(&i) {
                return ends[c];
            }
            i = page.items[i].parent?;
        };
        let edges: Vec<Link> = page
            .links
            .iter()
            .zip(&page.labels)
            .filter_map(|(&(a, b), &label)| Some(((rep(a, &last)?, rep(b, &first)?), label)))
            .collect();
        let (graph, labels) = self.graph(&nodes, edges);
        let out = engine::layout_labelled(&graph, &labels, &clusters, options, self.stop)?;
        // Places relative to the frame holding each thing, or to the block.
        let corner = |c: Option<usize>| {
            c.map_or((0.0, 0.0), |c| {
                let r: &engine::Rect = &out.clusters[c];
                (r.x, r.y)
            })
        };
        for (k, (&u, p)) in nodes.iter().zip(&out.nodes).enumerate() {
            let (x0, y0) = corner(node_in[k]);
            self.rel.insert(u, (p.x - x0, p.y - y0));
        }
        for (c, &f) in frames.iter().enumerate() {
            let r = out.clusters[c];
            let (x0, y0) = corner(clusters[c].parent);
            self.rel.insert(f, (r.x - x0, r.y - y0));
            self.size.insert(f, (r.w, r.h));
        }
        Ok((out.width, out.height))
    }
}

/// The width a frame needs to show its title on one line.
pub(crate) fn title_width(text: &str, style: &inkboard_core::Style) -> f64 {
    if text.trim().is_empty() {
        return 0.0;
    }
    let (size, weight) = inkboard_render::style::shape_font(Geom::Frame, style);
    let block = inkboard_render::text::layout(text, size, weight, None);
    Geom::Frame
        .size_for_text(block.width.ceil() as f64 + 1.0, 0.0)
        .0
        .ceil()
}
