//! A class diagram drawn by `import_mermaid`: each class a table shape
//! (`geom: "table"`, auto-sized: its annotation and name, then its attributes
//! and methods in two compartments), each relation a connector with UML ends
//! (hollow triangle, diamonds, arrow; dashed for `..`), its cardinalities as end
//! labels and its label placed by the label rules; each namespace a frame
//! around its classes; each note a sticky note, joined to its class by a dashed
//! line when it is `note for`. Laid out as a flowchart is: a first placement
//! nests the frames and finds free space for the block, then `layout`'s layered
//! arrangement places everything for good, in the diagram's direction (top to
//! bottom unless `direction` says otherwise, as Mermaid draws it).

use inkboard_arrange::flowchart::{self, Chart};
use inkboard_arrange::{place, Algorithm, LayoutOptions};
use inkboard_core::{
    Arrow, Connector, Dash, End, Geom, IdKind, Kind, Object, ObjectId, Rotation, Shape, Sizing,
    Style,
};
use inkboard_interop::mermaid::ClassDiagram;

use super::{layout_direction, Imported};
use crate::tool::Cx;
use crate::tools::layout::lay_out;
use crate::ToolError;

/// Draws `d` on the call's page, from `x`, `y` when given.
pub(super) fn draw(
    cx: &mut Cx<'_, '_>,
    d: &ClassDiagram,
    (x, y): (Option<f64>, Option<f64>),
) -> Result<Imported, ToolError> {
    if d.classes.is_empty() && d.stickies.is_empty() {
        return Err(ToolError::args(
            "'text': the class diagram has no classes: add some, like 'Animal <|-- Duck'",
        ));
    }
    let style = Style::default();
    // The nodes: the classes, then the notes.
    let mut nodes: Vec<(Geom, String, Option<usize>)> = d
        .classes
        .iter()
        .map(|c| (Geom::Table, c.table_text(), c.namespace))
        .collect();
    let first_note = nodes.len();
    nodes.extend(d.stickies.iter().map(|s| {
        let ns = s.class.and_then(|c| d.classes[c].namespace);
        (Geom::Note, s.text.clone(), ns)
    }));
    let direction = layout_direction(d.direction);
    let spacing = flowchart::spacing(direction, d.relations.iter().map(|r| r.label.as_str()));
    let mut links: Vec<(usize, usize)> = d.relations.iter().map(|r| (r.from, r.to)).collect();
    links.extend(
        d.stickies
            .iter()
            .enumerate()
            .filter_map(|(i, s)| Some((first_note + i, s.class?))),
    );
    let chart = Chart {
        direction,
        nodes: nodes
            .iter()
            .map(|(geom, text, ns)| flowchart::Node {
                size: node_size(*geom, text, &style),
                subgraph: *ns,
            })
            .collect(),
        links: links
            .iter()
            .map(|&(a, b)| (flowchart::Endpoint::Node(a), flowchart::Endpoint::Node(b)))
            .collect(),
        subgraphs: d
            .namespaces
            .iter()
            .map(|n| flowchart::Subgraph {
                parent: n.parent,
                direction: None,
                title: n.name.clone(),
                style: Style::default(),
            })
            .collect(),
    };
    let plan = flowchart::plan(&chart, spacing);
    let (before, (ox, oy)) = super::landing(cx, plan.size, (x, y));
    let mut ids: Vec<ObjectId> = Vec::with_capacity(nodes.len());
    for (i, (geom, text, _)) in nodes.into_iter().enumerate() {
        let shape = Shape {
            geom,
            bounds: plan.nodes[i].translated(ox, oy),
            text,
            style: style.clone(),
            // Auto-sized: a member added later grows the class.
            sizing: if geom == Geom::Table {
                Sizing::Auto
            } else {
                Sizing::Fixed
            },
            rotation: Rotation::NONE,
            icon: None,
        };
        ids.push(cx.tx.add(cx.page, None, Kind::Shape(shape))?);
    }
    // Frames go to the back, outer ones behind inner ones.
    let frame_ids: Vec<ObjectId> = d
        .namespaces
        .iter()
        .map(|_| cx.tx.new_id(IdKind::Shape))
        .collect();
    let depth = |mut n: usize| {
        let mut k = 0;
        while let Some(p) = d.namespaces[n].parent {
            (n, k) = (p, k + 1);
        }
        k
    };
    let mut by_depth: Vec<usize> = (0..d.namespaces.len()).collect();
    by_depth.sort_by_key(|&n| depth(n));
    for (slot, &n) in by_depth.iter().enumerate() {
        let shape = Shape {
            geom: Geom::Frame,
            bounds: plan.frames[n].translated(ox, oy),
            text: d.namespaces[n].name.clone(),
            style: Style::default(),
            sizing: Sizing::Fixed,
            rotation: Rotation::NONE,
            icon: None,
        };
        let object = Object::new(frame_ids[n].clone(), Kind::Shape(shape));
        cx.tx.insert(cx.page, Some(slot), object)?;
    }
    let mut connector_ids = Vec::with_capacity(links.len());
    for r in &d.relations {
        let c = r.connector(
            End::Object(ids[r.from].clone()),
            End::Object(ids[r.to].clone()),
        );
        connector_ids.push(cx.tx.add(cx.page, None, Kind::Connector(c))?);
    }
    for (i, s) in d.stickies.iter().enumerate() {
        let Some(class) = s.class else { continue };
        // A note's line, as UML draws it: dashed, no heads.
        let mut c = Connector::new(
            End::Object(ids[first_note + i].clone()),
            End::Object(ids[class].clone()),
        );
        c.end_arrow = Arrow::None;
        c.style.dash = Some(Dash::Dashed);
        connector_ids.push(cx.tx.add(cx.page, None, Kind::Connector(c))?);
    }
    let shapes: Vec<ObjectId> = ids.iter().chain(&frame_ids).cloned().collect();
    let options = LayoutOptions {
        algorithm: Algorithm::Layered,
        direction,
        // As for a flowchart: among frames the layout leaves labels no room of
        // their own, so the gaps widened for them stay.
        spacing: if d.namespaces.is_empty() {
            None
        } else {
            spacing
        },
    };
    lay_out(cx, |tx, page, stop| {
        inkboard_arrange::arrange_with(tx, page, Some(&shapes), &options, &Default::default(), stop)
    })?;
    flowchart::keep_clear(cx.tx, &shapes, &before, (x, y))?;
    let all: Vec<ObjectId> = ids
        .into_iter()
        .chain(connector_ids)
        .chain(frame_ids)
        .collect();
    Ok(Imported::new(&all, d.report()))
}

/// A class's natural size; a note's, its text's with no floor of a new note's
/// square (a note beside a class is a remark, not a card), at least 100 by 40.
fn node_size(geom: Geom, text: &str, style: &Style) -> (f64, f64) {
    if geom == Geom::Note {
        let (w, h) = place::text_size(geom, text, style);
        return (w.max(100.0), h.max(40.0));
    }
    place::fit_text(geom, text, style)
}
