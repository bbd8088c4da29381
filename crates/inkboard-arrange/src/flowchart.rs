//! A flowchart's first placement, for the Mermaid import: before the layered
//! layout places everything for good ([`crate::layout::arrange_with`]), each
//! subgraph's frame must be nested around its contents, so that the layout
//! knows which frame holds what, and the whole block's size must be known, so
//! that free space can be found for it. [`plan`] does both from a [`Chart`]:
//! the graph of a flowchart with its nodes' sizes, and nothing of Mermaid's
//! syntax. [`spacing`] widens the first placement's gaps for link labels (the
//! layout then leaves each label its own room), and [`keep_clear`] moves the
//! laid-out block off what was on the page before.
//!
//! Limitations: the first placement ranks by longest path and packs each rank
//! in order, with no crossing reduction: only its nesting and size are kept.

use std::collections::{BTreeSet, HashMap};

use inkboard_core::{Geom, Kind, ObjectId, Rect, Style, Transaction, FRAME_TITLE_HEIGHT};

use crate::layout::Direction;
use crate::place::{self, FRAME_PADDING};
use crate::ArrangeError;

/// A flowchart as the first placement sees it: its direction, its nodes with
/// their sizes, its subgraphs (each a frame) and its links, every end resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Which way the chart runs.
    pub direction: Direction,
    /// Every node, in the order it was first mentioned.
    pub nodes: Vec<Node>,
    /// Every link, drawn or not (an invisible link still orders the ranks).
    pub links: Vec<(Endpoint, Endpoint)>,
    /// Every subgraph, parents before the subgraphs inside them or not.
    pub subgraphs: Vec<Subgraph>,
}

/// A node: its size, and the subgraph it is written in (an index into
/// [`Chart::subgraphs`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    pub size: (f64, f64),
    pub subgraph: Option<usize>,
}

/// A subgraph: the one it lies in, its own direction if it has one, and its
/// title with its style (the frame is never narrower than the title).
#[derive(Clone, Debug, PartialEq)]
pub struct Subgraph {
    pub parent: Option<usize>,
    pub direction: Option<Direction>,
    pub title: String,
    pub style: Style,
}

/// One end of a link: a node or a subgraph, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    Node(usize),
    Subgraph(usize),
}

impl Chart {
    /// `subgraph` and the subgraphs around it, innermost first.
    pub fn enclosing(&self, subgraph: Option<usize>) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(subgraph, |&s| self.subgraphs[s].parent)
    }
}

/// Where a frame's contents start within it, as `layout` frames them: inside its
/// padding, below its title band.
const CONTENT_AT: (f64, f64) = (FRAME_PADDING, FRAME_TITLE_HEIGHT + FRAME_PADDING / 2.0);
/// An empty subgraph's frame (`layout` keeps the size of a frame holding nothing).
pub const EMPTY_FRAME: (f64, f64) = (200.0, 100.0);

/// The gap the first placement leaves between shapes (ranks get 1.5 times as
/// much) for a chart running `direction` whose drawn links carry `labels`, so
/// that its size is near the laid-out one's: wider than its
/// default when links carry text, so that the text fits between the shapes it
/// runs between (across the layers' gap going right or left, where labels sit
/// on horizontal lines; a line's height going up or down). `None`: the default.
pub fn spacing<'a>(direction: Direction, labels: impl IntoIterator<Item = &'a str>) -> Option<f64> {
    let widest = labels
        .into_iter()
        .filter(|label| !label.is_empty())
        .map(|label| {
            let (w, h) = place::fit_text(Geom::Text, label, &Style::default());
            match direction {
                Direction::Right | Direction::Left => w,
                Direction::Down | Direction::Up => h,
            }
        })
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))?;
    // Room for the label and a short run of line on either side of it.
    Some(((widest + 40.0) / 1.5).clamp(40.0, 160.0))
}

/// Moves the imported shapes so that their block's top-left is at the `x`, `y`
/// asked for, and so that, unless both were asked for, it overlaps nothing that
/// was on the page `before`: the layout already keeps clear of it, this makes sure
/// of it. The move edits only the imported shapes: a frame's move would drag
/// whatever lies in it, and what lies there may not be ours.
pub fn keep_clear(
    tx: &mut Transaction<'_>,
    shapes: &[ObjectId],
    before: &[Rect],
    (x, y): (Option<f64>, Option<f64>),
) -> Result<(), ArrangeError> {
    let Some(block) = shapes
        .iter()
        .filter_map(|id| tx.board().bounds(id))
        .reduce(|a, b| a.union(&b))
    else {
        return Ok(());
    };
    let mut target = Rect::new(x.unwrap_or(block.x), y.unwrap_or(block.y), block.w, block.h);
    let margin = Rect::new(
        target.x - 8.0,
        target.y - 8.0,
        target.w + 16.0,
        target.h + 16.0,
    );
    let both = x.is_some() && y.is_some();
    if !both && before.iter().any(|b| b.overlaps(&margin)) {
        let left = before.iter().map(|b| b.x).fold(f64::INFINITY, f64::min);
        let right = before
            .iter()
            .map(|b| b.right())
            .fold(f64::NEG_INFINITY, f64::max);
        let bottom = before
            .iter()
            .map(|b| b.bottom())
            .fold(f64::NEG_INFINITY, f64::max);
        match (x, y) {
            (None, Some(_)) => target.x = right + place::GAP,
            (Some(_), None) => target.y = bottom + place::GAP,
            _ => (target.x, target.y) = (left, bottom + place::GAP),
        }
    }
    let (dx, dy) = (target.x - block.x, target.y - block.y);
    if dx == 0.0 && dy == 0.0 {
        return Ok(());
    }
    for id in shapes {
        tx.edit(id, |o| {
            if let Kind::Shape(s) = &mut o.kind {
                s.bounds = s.bounds.translated(dx, dy);
            }
        })?;
    }
    Ok(())
}

/// A first placement, relative to the block's top-left: where each node and each
/// subgraph's frame goes, and the size of the block. [`arrange_with`](crate::layout::arrange_with) keeps only which
/// frame holds what (and the block's corner), so the places need not be good; the
/// size is what free space is looked for, so it follows the layout's spacing and
/// frame padding to come close to the final one.
pub struct Plan {
    /// Each node's box, by its index in [`Chart::nodes`].
    pub nodes: Vec<Rect>,
    /// Each subgraph's frame, by its index in [`Chart::subgraphs`].
    pub frames: Vec<Rect>,
    /// The size of the whole block.
    pub size: (f64, f64),
}

/// One thing placed within a container (the page or a frame).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Item {
    Node(usize),
    Frame(usize),
}

/// Places each container's items (its nodes and the frames of its subgraphs) in
/// ranks along its direction, longest path first, frames sized around what they
/// hold, with the gap `layout` leaves (`spacing`, or its default).
pub fn plan(chart: &Chart, spacing: Option<f64>) -> Plan {
    let sizes: Vec<(f64, f64)> = chart.nodes.iter().map(|n| n.size).collect();
    let mut planner = Planner {
        chart,
        sizes: &sizes,
        gap: spacing.unwrap_or(place::GAP),
        items: HashMap::new(),
        frame_sizes: vec![(0.0, 0.0); chart.subgraphs.len()],
        first: first_nodes(chart),
    };
    let size = planner.pack(None, chart.direction);
    let mut plan = Plan {
        nodes: vec![Rect::default(); chart.nodes.len()],
        frames: vec![Rect::default(); chart.subgraphs.len()],
        size,
    };
    planner.place(None, 0.0, 0.0, &mut plan);
    plan
}

struct Planner<'a> {
    chart: &'a Chart,
    sizes: &'a [(f64, f64)],
    /// Between neighbours in a rank; ranks are 1.5 times as far apart.
    gap: f64,
    /// Each container's items and their offsets within it.
    items: HashMap<Option<usize>, Vec<(Item, f64, f64)>>,
    frame_sizes: Vec<(f64, f64)>,
    /// The first node in each subgraph (through the ones inside it).
    first: Vec<usize>,
}

impl Planner<'_> {
    /// The item of `container` that holds `end` (itself, or the frame of the
    /// subgraph on its way out), if `end` lies in `container`.
    fn item_for(&self, end: Endpoint, container: Option<usize>) -> Option<Item> {
        let (mut item, mut parent) = match end {
            Endpoint::Node(n) => (Item::Node(n), self.chart.nodes[n].subgraph),
            Endpoint::Subgraph(s) => (Item::Frame(s), self.chart.subgraphs[s].parent),
        };
        while parent != container {
            let p = parent?;
            item = Item::Frame(p);
            parent = self.chart.subgraphs[p].parent;
        }
        Some(item)
    }

    fn size_of(&self, item: Item) -> (f64, f64) {
        match item {
            Item::Node(n) => self.sizes[n],
            Item::Frame(s) => self.frame_sizes[s],
        }
    }

    /// Arranges `container`'s items and returns the size they take.
    fn pack(&mut self, container: Option<usize>, direction: Direction) -> (f64, f64) {
        let chart = self.chart;
        let mut items: Vec<Item> = Vec::new();
        // Subgraphs are packed before their parent needs their size.
        for (s, sub) in chart.subgraphs.iter().enumerate() {
            if sub.parent == container {
                let (w, h) = self.pack(Some(s), sub.direction.unwrap_or(direction));
                let title = place::fit_text(Geom::Frame, &sub.title, &sub.style).0;
                self.frame_sizes[s] = if w == 0.0 {
                    (EMPTY_FRAME.0.max(title), EMPTY_FRAME.1)
                } else {
                    let (w, h) = (w + 2.0 * CONTENT_AT.0, h + CONTENT_AT.1 + FRAME_PADDING);
                    (w.max(title), h)
                };
                items.push(Item::Frame(s));
            }
        }
        for (n, node) in chart.nodes.iter().enumerate() {
            if node.subgraph == container {
                items.push(Item::Node(n));
            }
        }
        if items.is_empty() {
            return (0.0, 0.0);
        }
        items.sort_by_key(|item| self.first_mention(*item));
        let slot: HashMap<Item, usize> = items.iter().enumerate().map(|(i, it)| (*it, i)).collect();
        // Links between items of this container.
        let links: Vec<(usize, usize)> = chart
            .links
            .iter()
            .filter_map(|&(from, to)| {
                let a = self.item_for(from, container)?;
                let b = self.item_for(to, container)?;
                (a != b).then(|| (slot[&a], slot[&b]))
            })
            .collect();
        // As the layout does: unlinked items of a subgraph with its own direction
        // follow one another along it.
        let own = container.is_some_and(|s| chart.subgraphs[s].direction.is_some());
        let links = if own && links.is_empty() {
            (1..items.len()).map(|k| (k - 1, k)).collect()
        } else {
            links
        };
        let ranks = ranks(items.len(), &links);
        let count = ranks.iter().max().map_or(0, |r| r + 1);
        let across = matches!(direction, Direction::Down | Direction::Up);
        // Sizes as (along the rank, across ranks).
        let extent = |item: Item| {
            let (w, h) = self.size_of(item);
            if across {
                (w, h)
            } else {
                (h, w)
            }
        };
        let mut rank_len = vec![0.0f64; count];
        let mut rank_depth = vec![0.0f64; count];
        let mut placed = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let (len, deep) = extent(*item);
            let r = ranks[i];
            if rank_len[r] > 0.0 {
                rank_len[r] += self.gap;
            }
            placed.push((*item, rank_len[r]));
            rank_len[r] += len;
            rank_depth[r] = rank_depth[r].max(deep);
        }
        // Ranks in flow order: reversed going up or left.
        let mut start_of = vec![0.0; count];
        let mut at = 0.0;
        let mut order: Vec<usize> = (0..count).collect();
        if matches!(direction, Direction::Up | Direction::Left) {
            order.reverse();
        }
        for r in order {
            start_of[r] = at;
            at += rank_depth[r] + 1.5 * self.gap;
        }
        let deep = at - 1.5 * self.gap;
        let widest = rank_len.iter().cloned().fold(0.0, f64::max);
        let placed = placed
            .into_iter()
            .zip(&ranks)
            .map(|((item, along), &r)| {
                if across {
                    (item, along, start_of[r])
                } else {
                    (item, start_of[r], along)
                }
            })
            .collect();
        self.items.insert(container, placed);
        if across {
            (widest, deep)
        } else {
            (deep, widest)
        }
    }

    /// Writes absolute positions (relative to the block) for `container`, whose
    /// contents start at (x, y).
    fn place(&self, container: Option<usize>, x: f64, y: f64, plan: &mut Plan) {
        let Some(items) = self.items.get(&container) else {
            return;
        };
        for &(item, ix, iy) in items {
            let (w, h) = self.size_of(item);
            let r = Rect::new(x + ix, y + iy, w, h);
            match item {
                Item::Node(n) => plan.nodes[n] = r,
                Item::Frame(s) => {
                    plan.frames[s] = r;
                    self.place(Some(s), r.x + CONTENT_AT.0, r.y + CONTENT_AT.1, plan);
                }
            }
        }
    }
}

impl Planner<'_> {
    /// Where an item first comes in the text: nodes by their index (the order
    /// they were first mentioned), frames just before their first node.
    fn first_mention(&self, item: Item) -> (usize, usize) {
        match item {
            Item::Node(n) => (n, 1),
            Item::Frame(s) => (self.first[s], 0),
        }
    }
}

/// The first node (by index) in each subgraph, through the subgraphs inside it
/// (`usize::MAX` for none): found once, not for each comparison of a sort.
fn first_nodes(chart: &Chart) -> Vec<usize> {
    let mut first = vec![usize::MAX; chart.subgraphs.len()];
    for (n, node) in chart.nodes.iter().enumerate() {
        for s in chart.enclosing(node.subgraph) {
            if first[s] != usize::MAX {
                break;
            }
            first[s] = n;
        }
    }
    first
}

/// The rank of each of `n` items: the longest path of links leading to it.
/// Cycles are broken by dropping the links into the earliest item still waiting,
/// so the first-written node of a loop comes first.
///
/// The items waiting, and those of them with no link in left, are kept in
/// ordered sets, so that finding the next costs a logarithm rather than a pass
/// over all items.
fn ranks(n: usize, links: &[(usize, usize)]) -> Vec<usize> {
    let mut incoming = vec![0usize; n];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in links {
        incoming[b] += 1;
        out[a].push(b);
    }
    let mut rank = vec![0usize; n];
    let mut waiting: BTreeSet<usize> = (0..n).collect();
    let mut free: BTreeSet<usize> = (0..n).filter(|&i| incoming[i] == 0).collect();
    while let Some(&i) = free.first().or_else(|| waiting.first()) {
        waiting.remove(&i);
        free.remove(&i);
        for &b in &out[i] {
            if waiting.contains(&b) {
                incoming[b] = incoming[b].saturating_sub(1);
                rank[b] = rank[b].max(rank[i] + 1);
                if incoming[b] == 0 {
                    free.insert(b);
                }
            }
        }
    }
    rank
}
