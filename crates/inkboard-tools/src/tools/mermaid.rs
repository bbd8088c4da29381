//! `import_mermaid`: a Mermaid flowchart drawn on the page as shapes, connectors
//! and frames (one per subgraph), laid out in the chart's direction, in free space.
//!
//! The text is parsed first ([`crate::mermaid`]), so a syntax error changes
//! nothing. Then every object is made through the same model calls `add_shape` and
//! `add_connector` use, sized to its text with [`place::fit_text`], inside the
//! caller's transaction (so inside a batch it is part of the batch's one undo
//! step). A first placement ([`plan`]) nests each subgraph's frame around its
//! contents, so that each node lies in its frame, and estimates the block's size,
//! for which free space is found; `layout`'s layered arrangement ([`arrange_with`])
//! then places everything for good, keeping only which frame holds what, each
//! frame laid out inside in its subgraph's own `direction`, if it has one, and
//! then placed as one block in the layout around it. Last,
//! the block is moved to the `x`, `y` asked for, and kept off whatever was on the
//! page before.
//!
//! Shapes: each Mermaid shape is drawn with its geom in [`mermaid::shapes`]:
//! `[ ]` rect, `( )` rounded, `[( )]` cylinder, `(( ))` a circle, `{ }` diamond,
//! `{{ }}` hexagon, `[/ /]` parallelogram, and the nearest geom for the rest
//! (`([ ])` rounded, `[[ ]]` rect, `((( )))` a circle, `[\ \]`, `[/ \]`,
//! `[\ /]` and `>]` parallelogram, the closest slanted outline: a plain rect
//! would hide that they differ). Links: `-->` an arrow, `---` none, `-.->`
//! dashed, `==>` 4 px wide, `--o` a circle, `--x` a diamond (we have no cross; a
//! diamond stays visible and does not read as a direction), `<-->` both ends,
//! `~~~` nothing drawn. Link text becomes the connector's text.
//!
//! The answer lists, beside the ids, what the import left out or drew with
//! another outline than Mermaid's (`notes`: kind, message, how often, the first
//! lines), so that nothing is lost without a word.
//!
//! Limitations: `~~~` links are not drawn, so they do not order the layout
//! either. A subgraph's `direction` is honoured even when links cross its border
//! (Mermaid's dagre renderer then ignores it); a subgraph without one follows its
//! parent's direction (dagre turns an unlinked one across it).

use std::collections::{BTreeSet, HashMap};

use inkboard_core::{
    Arrow, Connector, Dash, End, Geom, IdKind, Kind, Object, ObjectId, Rect, Shape, Style,
    Vocabulary, FRAME_TITLE_HEIGHT,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use inkboard_interop::mermaid::{self, Direction, Endpoint, Flowchart, Head, Note, NoteKind, Stroke};
use crate::place::{self, FRAME_PADDING};
use crate::tool::{finite, Cx, EditTool, Hints, Tool};

use super::layout::{arrange_with, Algorithm, Direction as LayoutDirection, LayoutOptions};
use crate::ToolError;

pub struct ImportMermaid;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportMermaidArgs {
    /// Flowchart source
    text: String,
    x: Option<f64>,
    y: Option<f64>,
}

impl Tool for ImportMermaid {
    const NAME: &'static str = "import_mermaid";
    const TITLE: &'static str = "Import Mermaid flowchart";
    const DESCRIPTION: &'static str = "Draw a Mermaid flowchart as shapes, connectors and frames (subgraphs), laid out in free space or from x,y.";
    const HINTS: Hints = Hints::ADD;
    type Args = ImportMermaidArgs;
    type Output = Imported;
}

/// What `import_mermaid` answers: the objects made, and what it left out.
#[derive(Serialize, JsonSchema)]
pub struct Imported {
    /// The shapes, then the connectors, then the frames.
    ids: Vec<String>,
    /// What the text says that the board does not show as Mermaid would, one
    /// entry per kind and message, in the order first written; absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<NoteOutput>,
}

#[derive(Serialize, JsonSchema)]
struct NoteOutput {
    kind: &'static str,
    message: String,
    /// How many times the text says it.
    count: usize,
    /// The first lines it is on (at most [`MAX_LINES_LISTED`]).
    lines: Vec<usize>,
}

/// At most this many lines are listed for a note; its count says how many more.
const MAX_LINES_LISTED: usize = 10;

/// Where a frame's contents start within it, as `layout` frames them: inside its
/// padding, below its title band.
const CONTENT_AT: (f64, f64) = (FRAME_PADDING, FRAME_TITLE_HEIGHT + FRAME_PADDING / 2.0);
/// An empty subgraph's frame (`layout` keeps the size of a frame holding nothing).
const EMPTY_FRAME: (f64, f64) = (200.0, 100.0);

impl EditTool for ImportMermaid {
    fn run(cx: &mut Cx<'_, '_>, a: ImportMermaidArgs) -> Result<Imported, ToolError> {
        let chart = mermaid::parse(&a.text).map_err(|e| ToolError::args(format!("'text': {e}")))?;
        let (x, y) = (finite("x", a.x)?, finite("y", a.y)?);
        if chart.nodes.is_empty() && chart.subgraphs.is_empty() {
            return Err(ToolError::args(
                "'text': the flowchart has no nodes: add some, like 'A[Start] --> B[End]'",
            ));
        }

        let geoms: Vec<Geom> = chart.nodes.iter().map(|n| n.shape.geom).collect();
        let sizes: Vec<(f64, f64)> = chart
            .nodes
            .iter()
            .map(|n| {
                let (w, h) = place::fit_text(n.shape.geom, &n.label, &n.style);
                // A circle holds its text in a square; an ellipse around it would
                // not be the shape Mermaid draws.
                match n.shape.round {
                    true => (w.max(h), w.max(h)),
                    false => (w, h),
                }
            })
            .collect();
        let spacing = spacing(&chart);
        let plan = plan(&chart, &sizes, spacing);

        // What was on the page before: the import must not land on it.
        let before: Vec<Rect> = place::obstacles(cx.board(), cx.page, &[])
            .into_iter()
            .map(|(_, bounds, _)| bounds)
            .collect();
        let (ox, oy) = match (x, y) {
            (Some(x), Some(y)) => (x, y),
            _ => place::free_spot_with(cx.board(), cx.page, x, y, plan.size.0, plan.size.1),
        };

        let mut node_ids = Vec::with_capacity(chart.nodes.len());
        for (i, node) in chart.nodes.iter().enumerate() {
            let shape = Shape {
                geom: geoms[i],
                bounds: plan.nodes[i].translated(ox, oy),
                text: node.label.clone(),
                style: node.style.clone(),
                sizing: inkboard_core::Sizing::Fixed,
                rotation: inkboard_core::Rotation::NONE,
            };
            let id = cx.tx.add(cx.page, None, Kind::Shape(shape))?;
            node_ids.push(id);
        }
        // Frames go to the back, outer ones behind inner ones; ids are handed out in
        // the order the subgraphs are written.
        let frame_ids: Vec<ObjectId> = chart
            .subgraphs
            .iter()
            .map(|_| cx.tx.new_id(IdKind::Shape))
            .collect();
        let mut by_depth: Vec<usize> = (0..chart.subgraphs.len()).collect();
        by_depth.sort_by_key(|&s| chart.enclosing(chart.subgraphs[s].parent).count());
        for (slot, &s) in by_depth.iter().enumerate() {
            let sub = &chart.subgraphs[s];
            let shape = Shape {
                geom: Geom::Frame,
                bounds: plan.frames[s].translated(ox, oy),
                text: sub.title.clone(),
                style: sub.style.clone(),
                sizing: inkboard_core::Sizing::Fixed,
                rotation: inkboard_core::Rotation::NONE,
            };
            let object = Object::new(frame_ids[s].clone(), Kind::Shape(shape));
            cx.tx.insert(cx.page, Some(slot), object)?;
        }
        let end = |e: Endpoint| match e {
            Endpoint::Node(n) => End::Object(node_ids[n].clone()),
            Endpoint::Subgraph(s) => End::Object(frame_ids[s].clone()),
        };
        let mut connector_ids = Vec::new();
        for edge in &chart.edges {
            let mut style = Style::default();
            match edge.stroke {
                Stroke::Invisible => continue,
                Stroke::Normal => {}
                Stroke::Dotted => style.dash = Some(Dash::Dashed),
                Stroke::Thick => style.stroke_width = Some(4.0),
            }
            style.merge(&edge.style);
            let mut connector = Connector::new(end(edge.from), end(edge.to));
            connector.text = edge.label.clone();
            connector.start_arrow = arrow(edge.start);
            connector.end_arrow = arrow(edge.end);
            connector.style = style;
            let id = cx.tx.add(cx.page, None, Kind::Connector(connector))?;
            connector_ids.push(id);
        }

        let shapes: Vec<ObjectId> = node_ids.iter().chain(&frame_ids).cloned().collect();
        let options = LayoutOptions {
            algorithm: Algorithm::Layered,
            direction: layout_direction(chart.direction),
            spacing,
        };
        // A subgraph's own `direction` runs inside its frame only; one without
        // follows the subgraph around it.
        let inner: HashMap<ObjectId, LayoutDirection> = chart
            .subgraphs
            .iter()
            .zip(&frame_ids)
            .filter_map(|(sub, id)| Some((id.clone(), layout_direction(sub.direction?))))
            .collect();
        arrange_with(cx, Some(&shapes), &options, &inner)?;
        keep_clear(cx, &shapes, &before, (x, y))?;

        let ids: Vec<ObjectId> = node_ids
            .into_iter()
            .chain(connector_ids)
            .chain(frame_ids)
            .collect();
        Ok(Imported {
            ids: ids.iter().map(|i| i.to_string()).collect(),
            notes: notes(&chart),
        })
    }
}

/// What the answer says was left out or drawn otherwise: the parser's notes, a
/// note for each node drawn with the nearest geom and for each cross end,
/// counted by kind and message, in the order first written.
fn notes(chart: &Flowchart) -> Vec<NoteOutput> {
    let shapes = chart.nodes.iter().filter_map(|n| {
        let lost = n.shape.lost?;
        Some(Note {
            kind: NoteKind::Shape,
            line: n.line,
            message: format!("{} drawn as {}, {lost}", n.shape.label, n.shape.geom.name()),
        })
    });
    let crosses = chart
        .edges
        .iter()
        .filter(|e| e.stroke != Stroke::Invisible)
        .filter(|e| e.start == Head::Cross || e.end == Head::Cross)
        .map(|e| Note {
            kind: NoteKind::Link,
            line: e.line,
            message: "cross end 'x' drawn as a diamond: a board has no cross".into(),
        });
    let mut all: Vec<Note> = chart
        .notes
        .iter()
        .cloned()
        .chain(shapes)
        .chain(crosses)
        .collect();
    all.sort_by_key(|n| n.line);
    let mut out: Vec<NoteOutput> = Vec::new();
    for note in all {
        let kind = note.kind.name();
        match out
            .iter_mut()
            .find(|o| o.kind == kind && o.message == note.message)
        {
            Some(o) => {
                o.count += 1;
                if o.lines.len() < MAX_LINES_LISTED && o.lines.last() != Some(&note.line) {
                    o.lines.push(note.line);
                }
            }
            None => out.push(NoteOutput {
                kind,
                message: note.message,
                count: 1,
                lines: vec![note.line],
            }),
        }
    }
    out
}

/// The head a Mermaid link end becomes.
fn arrow(head: Head) -> Arrow {
    match head {
        Head::None => Arrow::None,
        Head::Arrow => Arrow::Arrow,
        Head::Circle => Arrow::Circle,
        Head::Cross => Arrow::Diamond,
    }
}

/// The gap the layout leaves between shapes (layers get 1.5 times as much): wider
/// than its default when links carry text, so that the text fits between the
/// shapes it runs between (across the layers' gap going right or left, where
/// labels sit on horizontal lines; a line's height going up or down).
fn spacing(chart: &Flowchart) -> Option<f64> {
    let widest = chart
        .edges
        .iter()
        .filter(|e| !e.label.is_empty() && e.stroke != Stroke::Invisible)
        .map(|e| {
            let (w, h) = place::fit_text(Geom::Text, &e.label, &Style::default());
            match chart.direction {
                Direction::Right | Direction::Left => w,
                Direction::Down | Direction::Up => h,
            }
        })
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))?;
    // Room for the label and a short run of line on either side of it.
    Some(((widest + 40.0) / 1.5).clamp(40.0, 160.0))
}

/// The layout's name for a chart direction.
fn layout_direction(d: Direction) -> LayoutDirection {
    match d {
        Direction::Down => LayoutDirection::Down,
        Direction::Up => LayoutDirection::Up,
        Direction::Right => LayoutDirection::Right,
        Direction::Left => LayoutDirection::Left,
    }
}

/// Moves the imported shapes so that their block's top-left is at the `x`, `y`
/// asked for, and so that, unless both were asked for, it overlaps nothing that
/// was on the page `before`: the layout already keeps clear of it, this makes sure
/// of it. The move edits only the imported shapes: a frame's move would drag
/// whatever lies in it, and what lies there may not be ours.
fn keep_clear(
    cx: &mut Cx<'_, '_>,
    shapes: &[ObjectId],
    before: &[Rect],
    (x, y): (Option<f64>, Option<f64>),
) -> Result<(), ToolError> {
    let Some(block) = shapes
        .iter()
        .filter_map(|id| cx.board().bounds(id))
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
        cx.tx.edit(id, |o| {
            if let Kind::Shape(s) = &mut o.kind {
                s.bounds = s.bounds.translated(dx, dy);
            }
        })?;
    }
    Ok(())
}

/// A first placement, relative to the block's top-left: where each node and each
/// subgraph's frame goes, and the size of the block. [`arrange_with`] keeps only which
/// frame holds what (and the block's corner), so the places need not be good; the
/// size is what free space is looked for, so it follows the layout's spacing and
/// frame padding to come close to the final one.
struct Plan {
    nodes: Vec<Rect>,
    frames: Vec<Rect>,
    size: (f64, f64),
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
fn plan(chart: &Flowchart, sizes: &[(f64, f64)], spacing: Option<f64>) -> Plan {
    let mut planner = Planner {
        chart,
        sizes,
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
    chart: &'a Flowchart,
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
            .edges
            .iter()
            .filter_map(|e| {
                let a = self.item_for(e.from, container)?;
                let b = self.item_for(e.to, container)?;
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
fn first_nodes(chart: &Flowchart) -> Vec<usize> {
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
