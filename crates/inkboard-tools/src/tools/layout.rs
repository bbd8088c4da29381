//! `layout`: the tool. Its arguments are checked here and mapped onto
//! `inkboard-arrange`'s [`LayoutOptions`]; the layout itself (the page as a
//! graph, frames as clusters, connectors restyled, crowded gaps widened) is
//! [`inkboard_arrange::layout`].
//!
//! A layout stops when the call is cancelled or has run [`LAYOUT_DEADLINE`]
//! ([`lay_out`]): the arrange crate asks the call's control line from inside its
//! long loops, and the error drops the transaction, so nothing changes.

use std::time::Duration;

use inkboard_arrange::{Algorithm, ArrangeError, Direction, LayoutOptions};
use inkboard_core::{PageId, Transaction};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::{IdArg, Word};
use crate::control::{Control, DRAWING_DEADLINE};
use crate::tool::{Cx, EditTool, Hints, Ids, Tool};
use crate::ToolError;

/// How long a layout may run before it is stopped: as long as a drawing, which
/// it includes (the routes read to widen crowded gaps).
pub(crate) const LAYOUT_DEADLINE: Duration = DRAWING_DEADLINE;

pub struct Layout;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LayoutArgs {
    ids: Option<Vec<IdArg>>,
    algorithm: Option<Word<Algorithm>>,
    direction: Option<Word<Direction>>,
    spacing: Option<f64>,
}

impl Tool for Layout {
    const NAME: &'static str = "layout";
    const TITLE: &'static str = "Lay out shapes";
    const DESCRIPTION: &'static str = "Arrange shapes (default all): no overlaps, connectors one way (default layered, down); frames fit contents. ids: only those move, beside their links. mindmap: two-sided branches; org_chart: merged trunks, leaves stacked; lanes: frames (or a pool's) as swimlanes keeping their shapes, flow right.";
    const HINTS: Hints = Hints::EDIT;
    type Args = LayoutArgs;
    type Output = Ids;
}

impl EditTool for Layout {
    fn run(cx: &mut Cx<'_, '_>, a: LayoutArgs) -> Result<Ids, ToolError> {
        let ids = match &a.ids {
            Some(list) => {
                let ids = IdArg::resolve_all(list, cx.board(), "ids")?;
                for id in &ids {
                    cx.on_page(id, "ids")?;
                }
                inkboard_arrange::locked::refuse_named(cx.board(), &ids, "ids")?;
                Some(ids)
            }
            None => None,
        };
        let spacing = crate::args::gap("spacing", a.spacing)?;
        let algorithm = a.algorithm.map_or(Algorithm::Layered, |w| w.0);
        // A mind map spreads left and right unless asked otherwise, and
        // swimlanes are rows that the flow runs along.
        let default_direction = match algorithm {
            Algorithm::Mindmap | Algorithm::Lanes => Direction::Right,
            _ => Direction::Down,
        };
        let opts = LayoutOptions {
            algorithm,
            direction: a.direction.map_or(default_direction, |w| w.0),
            spacing,
        };
        lay_out(cx, |tx, page, stop| {
            inkboard_arrange::arrange(tx, page, ids.as_deref(), &opts, stop)
        })
        .map(|ids| Ids::of(&ids))
    }
}

/// Runs a layout of the arrange crate on the call's page, stopped when the call
/// is cancelled or has run [`LAYOUT_DEADLINE`]; a stop comes back as the
/// call's error saying why ([`stopped`]).
pub(crate) fn lay_out<T>(
    cx: &mut Cx<'_, '_>,
    f: impl FnOnce(&mut Transaction<'_>, PageId, &dyn Fn() -> bool) -> Result<T, ArrangeError>,
) -> Result<T, ToolError> {
    let control = cx.control.within(LAYOUT_DEADLINE);
    let stop = || control.check().is_err();
    f(cx.tx, cx.page, &stop).map_err(|e| match e {
        ArrangeError::Stopped => stopped(&control),
        e => e.into(),
    })
}

/// The call's error once its control line says stop: cancelled, or past the
/// layout's deadline.
fn stopped(control: &Control) -> ToolError {
    match control.check() {
        Err(ToolError::TooLong(secs)) => ToolError::LayoutTooLong(secs),
        Err(e) => e,
        Ok(()) => ToolError::Cancelled,
    }
}

#[cfg(test)]
mod tests;
