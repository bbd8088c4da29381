//! Arranging objects: `move`, `order` (z-order), `align` and `distribute`, as
//! adapters of `inkboard-arrange` (`place`, `shift`, `align`).

use inkboard_arrange::align::{self, Axis, Edge, ZTarget};
use inkboard_arrange::shift::{block, bounds, moving_set, translate};
use inkboard_arrange::{locked, place};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::{finite, IdArg, Relative, Word};
use crate::tool::{Cx, EditTool, Hints, Ids, Tool};
use crate::ToolError;

pub struct Move;

/// Unknown arguments are refused by the catalogue (serde cannot deny them
/// through a flatten).
#[derive(Deserialize, JsonSchema)]
pub struct MoveArgs {
    ids: Vec<IdArg>,
    dx: Option<f64>,
    dy: Option<f64>,
    x: Option<f64>,
    y: Option<f64>,
    #[serde(flatten)]
    place: Relative,
}

impl Tool for Move {
    const NAME: &'static str = "move";
    const TITLE: &'static str = "Move objects";
    const DESCRIPTION: &'static str = "Move objects by dx/dy, to x/y (the first; the rest keep their offsets), or beside or inside an object. Frames carry their contents.";
    const HINTS: Hints = Hints::EDIT;
    type Args = MoveArgs;
    type Output = Ids;
}

impl EditTool for Move {
    fn run(cx: &mut Cx<'_, '_>, a: MoveArgs) -> Result<Ids, ToolError> {
        let ids = IdArg::resolve_all(&a.ids, cx.board(), "ids")?;
        locked::refuse_named(cx.board(), &ids, "ids")?;
        let (dx, dy, x, y) = (
            finite("dx", a.dx)?,
            finite("dy", a.dy)?,
            finite("x", a.x)?,
            finite("y", a.y)?,
        );
        let moving = moving_set(cx.board(), &ids);
        let relation = a.place.resolve(cx, &ids, &moving)?;
        let by = dx.is_some() || dy.is_some();
        let to = x.is_some() || y.is_some();
        match [by, to, relation.is_some()].iter().filter(|given| **given).count() {
            0 => return Err(ToolError::args(
                "give dx/dy (move by), x/y (move to), or right_of/left_of/below/above/inside (move next to an object or into a frame)",
            )),
            1 => {}
            _ => return Err(ToolError::args(
                "give only one of dx/dy (move by), x/y (move to), or right_of/left_of/below/above/inside",
            )),
        }
        // With relative placement, the block of all the objects is placed (each
        // keeps its offset in it), and the frame it went into grows to hold it.
        // A message of a sequence diagram moved up or down takes its place in the
        // order of messages, as a person dragging it means.
        if let ([id], true, None) = (ids.as_slice(), by, &relation) {
            if inkboard_arrange::lifeline::reorder(cx.tx, id, dy.unwrap_or(0.0))? {
                return Ok(Ids::of(&ids));
            }
        }
        let mut frame = None;
        let (dx, dy) = if let Some(relation) = relation {
            let block = block(cx.board(), &ids)?;
            let spot = place::relative(
                cx.board(),
                cx.page,
                &relation,
                block.w,
                block.h,
                Some(block),
                &moving,
            );
            frame = spot.frame.map(|f| (f, spot.at));
            (spot.at.x - block.x, spot.at.y - block.y)
        } else if by {
            (dx.unwrap_or(0.0), dy.unwrap_or(0.0))
        } else {
            let first = bounds(cx.board(), &ids[0])?;
            (
                x.map_or(0.0, |x| x - first.x),
                y.map_or(0.0, |y| y - first.y),
            )
        };
        translate(cx.tx, &ids, dx, dy)?;
        if let Some((frame, at)) = frame {
            place::hold(cx.tx, &frame, &at)?;
            place::raise_above(cx.tx, &frame, &moving)?;
        }
        Ok(Ids::of(&ids))
    }
}

pub struct Order;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OrderArgs {
    ids: Vec<IdArg>,
    /// Where in the stack
    to: Word<ZTarget>,
}

impl Tool for Order {
    const NAME: &'static str = "order";
    const TITLE: &'static str = "Change stacking order";
    const DESCRIPTION: &'static str =
        "Change the stacking order: front, back, or one step forward or backward.";
    const HINTS: Hints = Hints::EDIT;
    type Args = OrderArgs;
    type Output = Ids;
}

impl EditTool for Order {
    fn run(cx: &mut Cx<'_, '_>, a: OrderArgs) -> Result<Ids, ToolError> {
        let ids = IdArg::resolve_all(&a.ids, cx.board(), "ids")?;
        align::restack(cx.tx, &ids, a.to.0)?;
        Ok(Ids::of(&ids))
    }
}

pub struct Align;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AlignArgs {
    ids: Vec<IdArg>,
    edge: Word<Edge>,
}

impl Tool for Align {
    const NAME: &'static str = "align";
    const TITLE: &'static str = "Align objects";
    const DESCRIPTION: &'static str =
        "Line objects up on the left, center, right, top, middle or bottom of their joint bounds.";
    const HINTS: Hints = Hints::EDIT;
    type Args = AlignArgs;
    type Output = Ids;
}

impl EditTool for Align {
    fn run(cx: &mut Cx<'_, '_>, a: AlignArgs) -> Result<Ids, ToolError> {
        let ids = IdArg::resolve_all(&a.ids, cx.board(), "ids")?;
        locked::refuse_named(cx.board(), &ids, "ids")?;
        if ids.len() < 2 {
            return Err(ToolError::args("'ids' needs at least 2 objects to align"));
        }
        align::align(cx.tx, &ids, a.edge.0)?;
        Ok(Ids::of(&ids))
    }
}

pub struct Distribute;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DistributeArgs {
    ids: Vec<IdArg>,
    axis: Word<Axis>,
    /// Exact spacing.
    gap: Option<f64>,
}

impl Tool for Distribute {
    const NAME: &'static str = "distribute";
    const TITLE: &'static str = "Distribute objects";
    const DESCRIPTION: &'static str = "Space objects evenly along an axis, in their current order; with gap, exactly gap apart starting from the first.";
    const HINTS: Hints = Hints::EDIT;
    type Args = DistributeArgs;
    type Output = Ids;
}

impl EditTool for Distribute {
    fn run(cx: &mut Cx<'_, '_>, a: DistributeArgs) -> Result<Ids, ToolError> {
        let ids = IdArg::resolve_all(&a.ids, cx.board(), "ids")?;
        locked::refuse_named(cx.board(), &ids, "ids")?;
        let gap = crate::args::gap("gap", a.gap)?;
        if ids.len() < 2 || (gap.is_none() && ids.len() < 3) {
            return Err(ToolError::args(
                "'ids' needs at least 3 objects to space evenly, or 2 with a 'gap'",
            ));
        }
        align::distribute(cx.tx, &ids, a.axis.0, gap)?;
        Ok(Ids::of(&ids))
    }
}
