//! `add_connector`: a line between two objects or points.

use inkboard_core::{Arrow, Connector, End, Kind, Route, Side};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::{EndArg, StyleArgs, Word};
use crate::tool::{Cx, EditTool, Hints, Id, Tool};
use crate::ToolError;

pub struct AddConnector;

#[derive(Deserialize, JsonSchema)]
pub struct AddConnectorArgs {
    from: EndArg,
    to: EndArg,
    text: Option<String>,
    route: Option<Word<Route>>,
    start_arrow: Option<Word<Arrow>>,
    end_arrow: Option<Word<Arrow>>,
    waypoints: Option<Vec<[f64; 2]>>,
    label_at: Option<f64>,
    from_side: Option<Word<Side>>,
    to_side: Option<Word<Side>>,
    merge: Option<bool>,
    start_label: Option<String>,
    end_label: Option<String>,
    #[serde(flatten)]
    style: StyleArgs,
}

impl Tool for AddConnector {
    const NAME: &'static str = "add_connector";
    const TITLE: &'static str = "Add connector";
    const DESCRIPTION: &'static str = "Connect two objects or points with a line that follows them. Default: orthogonal, arrow at the end. ER ends: one, zero_or_one, one_or_many, zero_or_many, many. UML: hollow_triangle inherits, diamond composes, hollow_diamond aggregates. merge: lines leaving one side share a trunk.";
    const HINTS: Hints = Hints::ADD;
    type Args = AddConnectorArgs;
    type Output = Id;
}

/// Makes an end argument into a model end, checking the object is one a
/// connector can attach to, on this call's page.
pub(crate) fn end(cx: &Cx<'_, '_>, arg: &EndArg, name: &str) -> Result<End, ToolError> {
    match arg {
        EndArg::Point(p) => {
            crate::args::finite(name, Some(p.x))?;
            crate::args::finite(name, Some(p.y))?;
            Ok(End::Point((*p).into()))
        }
        EndArg::Object(id) => {
            let id = id.resolve(cx.board(), name)?;
            cx.on_page(&id, name)?;
            match cx.board().object(&id).map(|o| &o.kind) {
                Some(Kind::Connector(_) | Kind::Ink(_)) => Err(ToolError::args(format!(
                    "'{name}': \"{id}\" is a connector or ink stroke: connect shapes, images or groups"
                ))),
                _ => Ok(End::Object(id)),
            }
        }
    }
}

impl EditTool for AddConnector {
    fn run(cx: &mut Cx<'_, '_>, a: AddConnectorArgs) -> Result<Id, ToolError> {
        let mut connector = Connector::new(end(cx, &a.from, "from")?, end(cx, &a.to, "to")?);
        connector.text = a.text.unwrap_or_default();
        connector.style = a.style.to_style()?;
        if let Some(r) = a.route {
            connector.route = r.0;
        }
        if let Some(s) = a.start_arrow {
            connector.start_arrow = s.0;
        }
        if let Some(e) = a.end_arrow {
            connector.end_arrow = e.0;
        }
        if let Some(w) = &a.waypoints {
            connector.set_waypoints(crate::args::waypoints(w)?);
        }
        connector.set_label_at(crate::args::label_at(a.label_at)?);
        let (from_side, to_side) = (a.from_side.map(|w| w.0), a.to_side.map(|w| w.0));
        crate::args::side_on(&connector.from, from_side, "from_side")?;
        crate::args::side_on(&connector.to, to_side, "to_side")?;
        connector.set_side(true, from_side);
        connector.set_side(false, to_side);
        connector.set_merge(a.merge.unwrap_or(false));
        connector.set_end_label(true, crate::args::end_label("start_label", a.start_label)?);
        connector.set_end_label(false, crate::args::end_label("end_label", a.end_label)?);
        let id = cx.tx.add(cx.page, None, Kind::Connector(connector))?;
        Ok(Id { id: id.to_string() })
    }
}
