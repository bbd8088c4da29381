//! `add_shape`: a shape of any outline, sized to its text and placed in free space
//! unless told otherwise.

use inkboard_core::{Geom, IdKind, Kind, Object, Rect, Shape};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::{IdArg, StyleArgs, Word};
use crate::place::{self, Side};
use crate::tool::{finite, positive, Cx, EditTool, Hints, Placed, Tool};
use crate::ToolError;

pub struct AddShape;

#[derive(Deserialize, JsonSchema)]
pub struct AddShapeArgs {
    geom: Option<Word<Geom>>,
    text: Option<String>,
    x: Option<f64>,
    y: Option<f64>,
    w: Option<f64>,
    h: Option<f64>,
    #[serde(flatten)]
    style: StyleArgs,
    right_of: Option<IdArg>,
    left_of: Option<IdArg>,
    below: Option<IdArg>,
    above: Option<IdArg>,
    gap: Option<f64>,
    inside: Option<IdArg>,
}

impl Tool for AddShape {
    const NAME: &'static str = "add_shape";
    const DESCRIPTION: &'static str = "Add a shape (geom; default rect), sticky note (note), text (text) or frame. Without x/y it goes in free space; right_of/left_of/below/above (an id, gap default 40) place it by an object, inside in a frame. Without w/h it fits its text. Colours: hex or red, blue, green, yellow, orange, purple, gray, black, white.";
    const HINTS: Hints = Hints::ADD;
    type Args = AddShapeArgs;
    type Output = Placed;
}

impl EditTool for AddShape {
    fn run(cx: &mut Cx<'_, '_>, a: AddShapeArgs) -> Result<Placed, ToolError> {
        let geom = a.geom.map_or(Geom::Rect, |g| g.0);
        let text = a.text.unwrap_or_default();
        let style = a.style.to_style()?;
        let (x, y) = (finite("x", a.x)?, finite("y", a.y)?);
        let (w, h) = (positive("w", a.w)?, positive("h", a.h)?);
        let gap = finite("gap", a.gap)?.unwrap_or(place::GAP);
        let (w, h) = size(geom, &text, &style, w, h);

        let relative = [
            (a.right_of, Side::Right, "right_of"),
            (a.left_of, Side::Left, "left_of"),
            (a.below, Side::Below, "below"),
            (a.above, Side::Above, "above"),
        ]
        .into_iter()
        .filter_map(|(id, side, name)| id.map(|id| (id, side, name)))
        .collect::<Vec<_>>();
        if relative.len() > 1 {
            return Err(ToolError::args(
                "give only one of right_of, left_of, below, above",
            ));
        }
        let frame = match &a.inside {
            Some(frame) => {
                let frame = frame.resolve(cx.board(), "inside")?;
                cx.on_page(&frame, "inside")?;
                if !cx.board().object(&frame).is_some_and(|o| o.is_frame()) {
                    return Err(ToolError::args(format!(
                        "'inside': \"{frame}\" is not a frame: give the id of a shape with geom frame"
                    )));
                }
                Some(frame)
            }
            None => None,
        };
        let (mut px, mut py) = if let Some((id, side, name)) = relative.into_iter().next() {
            let id = id.resolve(cx.board(), name)?;
            cx.on_page(&id, name)?;
            let reference = super::shift::bounds(cx.board(), &id)?;
            place::beside(cx.board(), cx.page, reference, side, gap, w, h)
        } else if let Some(frame) = &frame {
            place::spot_in_frame(cx.board(), frame, w, h)
        } else if x.is_none() || y.is_none() {
            place::free_spot_with(cx.board(), cx.page, x, y, w, h)
        } else {
            (0.0, 0.0)
        };
        if let Some(x) = x {
            px = x;
        }
        if let Some(y) = y {
            py = y;
        }
        let bounds = Rect::new(px, py, w, h);
        // A shape put inside a frame is inside it, wherever it went: the frame grows
        // to hold it, so that it moves with the frame.
        if let Some(frame) = &frame {
            if let Some(grown) = place::frame_grown_to_hold(cx.board(), frame, &bounds) {
                cx.tx.edit(frame, |o| {
                    if let Kind::Shape(s) = &mut o.kind {
                        s.bounds = grown;
                    }
                })?;
            }
        }
        let id = cx.tx.new_id(IdKind::Shape);
        let object = Object::new(
            id.clone(),
            Kind::Shape(Shape {
                geom,
                bounds,
                text,
                style,
            }),
        );
        // Frames go to the back, behind what they hold.
        let index = (geom == Geom::Frame).then_some(0);
        cx.tx.insert(cx.page, index, object)?;
        Ok(Placed::new(&id, bounds))
    }
}

/// The size of a new shape: what was given, the rest fitted to the text.
pub(crate) fn size(
    geom: Geom,
    text: &str,
    style: &inkboard_core::Style,
    w: Option<f64>,
    h: Option<f64>,
) -> (f64, f64) {
    match (w, h) {
        (Some(w), Some(h)) => (w, h),
        (None, Some(h)) => (place::fit_text(geom, text, style).0, h),
        (Some(w), None) => (w, place::fit_height(geom, text, style, w)),
        (None, None) => place::fit_text(geom, text, style),
    }
}
