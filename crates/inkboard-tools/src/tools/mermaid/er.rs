//! An ER diagram drawn by `import_mermaid`: each entity a table shape
//! (`geom: "table"`, auto-sized, so it grows as rows are added), each
//! relationship a connector with crow's-foot ends (solid when identifying,
//! dashed when not) whose label the renderer places by the label rules. The
//! tables are laid out as a flowchart's nodes are: a first placement finds free
//! space for the block, then `layout`'s layered arrangement places the tables
//! for good, in the diagram's direction (top to bottom unless `direction` says
//! otherwise, as Mermaid draws it), leaving each label its room.

use inkboard_arrange::flowchart::{self, Chart};
use inkboard_arrange::{place, Algorithm, LayoutOptions};
use inkboard_core::{End, Geom, Kind, ObjectId, Shape, Sizing, Style};
use inkboard_interop::mermaid::Er;

use super::{layout_direction, Imported};
use crate::tool::Cx;
use crate::tools::layout::lay_out;
use crate::ToolError;

/// Draws `er` on the call's page, from `x`, `y` when given.
pub(super) fn draw(
    cx: &mut Cx<'_, '_>,
    er: &Er,
    (x, y): (Option<f64>, Option<f64>),
) -> Result<Imported, ToolError> {
    if er.entities.is_empty() {
        return Err(ToolError::args(
            "'text': the ER diagram has no entities: add some, like 'CUSTOMER ||--o{ ORDER : places'",
        ));
    }
    let texts: Vec<String> = er.entities.iter().map(|e| e.table_text()).collect();
    let style = Style::default();
    let direction = layout_direction(er.direction);
    let spacing = flowchart::spacing(direction, er.relationships.iter().map(|r| r.label.as_str()));
    let chart = Chart {
        direction,
        nodes: texts
            .iter()
            .map(|t| flowchart::Node {
                size: place::fit_text(Geom::Table, t, &style),
                subgraph: None,
            })
            .collect(),
        links: er
            .relationships
            .iter()
            .map(|r| {
                (
                    flowchart::Endpoint::Node(r.from),
                    flowchart::Endpoint::Node(r.to),
                )
            })
            .collect(),
        subgraphs: Vec::new(),
    };
    let plan = flowchart::plan(&chart, spacing);
    let (before, (ox, oy)) = super::landing(cx, plan.size, (x, y));
    let mut ids: Vec<ObjectId> = Vec::with_capacity(er.entities.len());
    for (i, text) in texts.into_iter().enumerate() {
        let shape = Shape {
            geom: Geom::Table,
            bounds: plan.nodes[i].translated(ox, oy),
            text,
            style: style.clone(),
            // Auto-sized: a row added later grows the table.
            sizing: Sizing::Auto,
            rotation: inkboard_core::Rotation::NONE,
            icon: None,
        };
        ids.push(cx.tx.add(cx.page, None, Kind::Shape(shape))?);
    }
    let mut connector_ids = Vec::with_capacity(er.relationships.len());
    for r in &er.relationships {
        let c = r.connector(
            End::Object(ids[r.from].clone()),
            End::Object(ids[r.to].clone()),
        );
        connector_ids.push(cx.tx.add(cx.page, None, Kind::Connector(c))?);
    }
    let options = LayoutOptions {
        algorithm: Algorithm::Layered,
        direction,
        spacing: None,
    };
    lay_out(cx, |tx, page, stop| {
        inkboard_arrange::arrange_with(tx, page, Some(&ids), &options, &Default::default(), stop)
    })?;
    flowchart::keep_clear(cx.tx, &ids, &before, (x, y))?;
    let all: Vec<ObjectId> = ids.into_iter().chain(connector_ids).collect();
    Ok(Imported::new(&all, er.report()))
}
