//! `add_ink`: a freehand stroke, and the check of a stroke's points that `update`
//! shares (the editor's handles scale and turn a stroke by rewriting its points).

use inkboard_core::{Ink, Kind, Point, Style};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::{finite, positive, ColorArg};
use crate::tool::{Cx, EditTool, Hints, Id, Tool};
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
        let points = points(&a.points)?;
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

/// A stroke's points checked: at least 2, each finite (the transaction holds
/// them to the limit on points, as every step).
pub(crate) fn points(list: &[[f64; 2]]) -> Result<Vec<Point>, ToolError> {
    if list.len() < 2 {
        return Err(ToolError::args(
            "'points' needs at least 2 points, like [[0, 0], [40, 10]]",
        ));
    }
    list.iter()
        .map(|&[x, y]| {
            finite("points", Some(x))?;
            finite("points", Some(y))?;
            Ok(Point { x, y })
        })
        .collect()
}
