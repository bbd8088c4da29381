//! `add_ink`: a freehand stroke.

use inkboard_core::{Ink, Kind, Point, Style};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::ColorArg;
use crate::tool::{finite, positive, Cx, EditTool, Hints, Id, Tool};
use crate::ToolError;

pub struct AddInk;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddInkArgs {
    points: Vec<[f64; 2]>,
    color: Option<ColorArg>,
    width: Option<f64>,
}

impl Tool for AddInk {
    const NAME: &'static str = "add_ink";
    const TITLE: &'static str = "Add ink stroke";
    const DESCRIPTION: &'static str =
        "Add a freehand ink stroke through points [[x, y], ...] (at least 2), drawn smoothed.";
    const HINTS: Hints = Hints::ADD;
    type Args = AddInkArgs;
    type Output = Id;
}

impl EditTool for AddInk {
    fn run(cx: &mut Cx<'_, '_>, a: AddInkArgs) -> Result<Id, ToolError> {
        if a.points.len() < 2 {
            return Err(ToolError::args(
                "'points' needs at least 2 points, like [[0, 0], [40, 10]]",
            ));
        }
        let mut points = Vec::with_capacity(a.points.len());
        for [x, y] in a.points {
            finite("points", Some(x))?;
            finite("points", Some(y))?;
            points.push(Point { x, y });
        }
        let style = Style {
            stroke: a.color.map(|c| c.0),
            stroke_width: positive("width", a.width)?,
            ..Style::default()
        };
        style.validate()?;
        let id = cx.tx.add(cx.page, None, Kind::Ink(Ink { points, style }))?;
        Ok(Id { id: id.to_string() })
    }
}
