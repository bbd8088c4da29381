//! `import_mermaid`: a Mermaid flowchart drawn on the page as shapes, connectors
//! and frames (one per subgraph), laid out in the chart's direction, in free space;
//! a sequence diagram is drawn by [`sequence`], an ER diagram by [`er`], a
//! state diagram by [`state`], a class diagram by [`class`].
//!
//! The text is parsed first ([`inkboard_interop::mermaid`]), so a syntax error
//! changes nothing. Then every object is made through the same model calls
//! `add_shape` and `add_connector` use, sized to its text with
//! [`place::fit_text`], inside the caller's transaction (so inside a batch it is
//! part of the batch's one undo step). A first placement ([`flowchart::plan`])
//! nests each subgraph's frame around its contents, so that each node lies in
//! its frame, and estimates the block's size, for which free space is found;
//! `layout`'s layered arrangement ([`inkboard_arrange::arrange_with`])
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

use std::collections::HashMap;

use inkboard_arrange::flowchart::{self, Chart};
use inkboard_arrange::{place, Algorithm, Direction as LayoutDirection, LayoutOptions};
use inkboard_core::{End, Geom, IdKind, Kind, Object, ObjectId, Rect, Shape};
use inkboard_interop::mermaid::{self, Direction, Endpoint, Flowchart, Stroke};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::layout::lay_out;
use crate::args::finite;
use crate::tool::{Cx, EditTool, Hints, Tool};
use crate::ToolError;
use inkboard_interop::mermaid::{Counted, Diagram};

mod class;
mod er;
mod sequence;
mod state;

pub struct ImportMermaid;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportMermaidArgs {
    /// Mermaid source
    text: String,
    x: Option<f64>,
    y: Option<f64>,
}

impl Tool for ImportMermaid {
    const NAME: &'static str = "import_mermaid";
    const TITLE: &'static str = "Import Mermaid diagram";
    const DESCRIPTION: &'static str = "Draw Mermaid flowchart (shapes, connectors, subgraph frames), sequenceDiagram (lifelines, messages, activations, blocks, notes), erDiagram (tables, crow's-foot ends), classDiagram (class tables, UML ends, namespaces) or stateDiagram (states, composites, choice, fork, notes) in free space or at x,y.";
    const HINTS: Hints = Hints::ADD;
    type Args = ImportMermaidArgs;
    type Output = Imported;
}

/// What `import_mermaid` answers: the objects made, and what it left out.
#[derive(Serialize, JsonSchema)]
pub struct Imported {
    /// The shapes, then the connectors, then the frames (then, for a sequence
    /// diagram, the groups holding a bar cut by frames).
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
    /// The first lines it is on (at most [`mermaid::MAX_LINES_LISTED`]).
    lines: Vec<usize>,
}

impl EditTool for ImportMermaid {
    fn run(cx: &mut Cx<'_, '_>, a: ImportMermaidArgs) -> Result<Imported, ToolError> {
        let diagram =
            mermaid::read(&a.text).map_err(|e| ToolError::args(format!("'text': {e}")))?;
        let (x, y) = (finite("x", a.x)?, finite("y", a.y)?);
        let chart = match diagram {
            Diagram::Flowchart(chart) => chart,
            Diagram::Sequence(s) => return sequence::draw(cx, &s, (x, y)),
            Diagram::Er(er) => return er::draw(cx, &er, (x, y)),
            Diagram::State(d) => return state::draw(cx, &d, (x, y)),
            Diagram::Class(d) => return class::draw(cx, &d, (x, y)),
        };
        if chart.nodes.is_empty() && chart.subgraphs.is_empty() {
            return Err(ToolError::args(
                "'text': the flowchart has no nodes: add some, like 'A[Start] --> B[End]'",
            ));
        }

        let geoms: Vec<Geom> = chart.nodes.iter().map(|n| n.shape.geom).collect();
        let spacing = flowchart::spacing(
            layout_direction(chart.direction),
            chart
                .edges
                .iter()
                .filter(|e| e.stroke != Stroke::Invisible)
                .map(|e| e.label.as_str()),
        );
        let plan = flowchart::plan(&first_placement(&chart), spacing);

        let (before, (ox, oy)) = landing(cx, plan.size, (x, y));

        let mut node_ids = Vec::with_capacity(chart.nodes.len());
        for (i, node) in chart.nodes.iter().enumerate() {
            let shape = Shape {
                geom: geoms[i],
                bounds: plan.nodes[i].translated(ox, oy),
                text: node.label.clone(),
                style: node.style.clone(),
                sizing: inkboard_core::Sizing::Fixed,
                rotation: inkboard_core::Rotation::NONE,
                icon: None,
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
                icon: None,
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
            let Some(connector) = edge.connector(end(edge.from), end(edge.to)) else {
                continue;
            };
            let id = cx.tx.add(cx.page, None, Kind::Connector(connector))?;
            connector_ids.push(id);
        }

        let shapes: Vec<ObjectId> = node_ids.iter().chain(&frame_ids).cloned().collect();
        let options = LayoutOptions {
            algorithm: Algorithm::Layered,
            direction: layout_direction(chart.direction),
            // The layout leaves each label its own room (a layer of labels
            // between the layers of shapes): the gaps the first placement
            // widened for the widest label would add to it. Not among frames,
            // where the layout leaves labels no room of their own
            // (`inkboard_layout::layout_labelled`): the wider gaps stay.
            spacing: if chart.subgraphs.is_empty() {
                None
            } else {
                spacing
            },
        };
        // A subgraph's own `direction` runs inside its frame only; one without
        // follows the subgraph around it.
        let inner: HashMap<ObjectId, LayoutDirection> = chart
            .subgraphs
            .iter()
            .zip(&frame_ids)
            .filter_map(|(sub, id)| Some((id.clone(), layout_direction(sub.direction?))))
            .collect();
        lay_out(cx, |tx, page, stop| {
            inkboard_arrange::arrange_with(tx, page, Some(&shapes), &options, &inner, stop)
        })?;
        flowchart::keep_clear(cx.tx, &shapes, &before, (x, y))?;

        let ids: Vec<ObjectId> = node_ids
            .into_iter()
            .chain(connector_ids)
            .chain(frame_ids)
            .collect();
        Ok(Imported::new(&ids, chart.report()))
    }
}

impl Imported {
    /// The answer: the objects made, and what was left out.
    pub(super) fn new(ids: &[ObjectId], report: Vec<Counted>) -> Self {
        Imported {
            ids: ids.iter().map(|i| i.to_string()).collect(),
            notes: report
                .into_iter()
                .map(|n| NoteOutput {
                    kind: n.kind.name(),
                    message: n.message,
                    count: n.count,
                    lines: n.lines,
                })
                .collect(),
        }
    }
}

/// The chart as the first placement sees it: each node sized to fit its label,
/// the subgraphs, and every link, drawn or not.
fn first_placement(chart: &Flowchart) -> Chart {
    let node = |n: &mermaid::Node| {
        let (w, h) = place::fit_text(n.shape.geom, &n.label, &n.style);
        // A circle holds its text in a square; an ellipse around it would
        // not be the shape Mermaid draws.
        let size = match n.shape.round {
            true => (w.max(h), w.max(h)),
            false => (w, h),
        };
        flowchart::Node {
            size,
            subgraph: n.subgraph,
        }
    };
    let end = |e: Endpoint| match e {
        Endpoint::Node(n) => flowchart::Endpoint::Node(n),
        Endpoint::Subgraph(s) => flowchart::Endpoint::Subgraph(s),
    };
    Chart {
        direction: layout_direction(chart.direction),
        nodes: chart.nodes.iter().map(node).collect(),
        links: chart
            .edges
            .iter()
            .map(|e| (end(e.from), end(e.to)))
            .collect(),
        subgraphs: chart
            .subgraphs
            .iter()
            .map(|s| flowchart::Subgraph {
                parent: s.parent,
                direction: s.direction.map(layout_direction),
                title: s.title.clone(),
                style: s.style.clone(),
            })
            .collect(),
    }
}

/// The layout's name for a chart direction.
pub(super) fn layout_direction(d: Direction) -> LayoutDirection {
    match d {
        Direction::Down => LayoutDirection::Down,
        Direction::Up => LayoutDirection::Up,
        Direction::Right => LayoutDirection::Right,
        Direction::Left => LayoutDirection::Left,
    }
}

/// Where an import lands: what was on the page before (the import must not land
/// on it, nor later steps move it), and the top-left of a block of `size`, at
/// `x`, `y` or in free space.
fn landing(
    cx: &Cx<'_, '_>,
    size: (f64, f64),
    (x, y): (Option<f64>, Option<f64>),
) -> (Vec<Rect>, (f64, f64)) {
    let before = place::obstacles(cx.board(), cx.page, &[])
        .into_iter()
        .map(|(_, bounds, _)| bounds)
        .collect();
    let at = match (x, y) {
        (Some(x), Some(y)) => (x, y),
        _ => place::free_spot_with(cx.board(), cx.page, x, y, size.0, size.1),
    };
    (before, at)
}
