//! `add_shape`: a shape of any outline, sized to its text and placed in free space
//! unless told otherwise.

use inkboard_arrange::place;
use inkboard_core::{Geom, Kind, Rect, Shape, Sizing};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::{finite, positive, rotation, Relative, StyleArgs, Word};
use crate::tool::{Cx, EditTool, Hints, Placed, Tool};
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
    rotation: Option<f64>,
    link: Option<String>,
    icon: Option<String>,
    flip_x: Option<bool>,
    flip_y: Option<bool>,
    #[serde(flatten)]
    style: StyleArgs,
    #[serde(flatten)]
    place: Relative,
}

impl Tool for AddShape {
    const NAME: &'static str = "add_shape";
    const TITLE: &'static str = "Add shape";
    const DESCRIPTION: &'static str = "Add a shape (geom, default rect), sticky note (note), text, frame, or table (ER entity, UML class: text is the name, then a row per line, cells split by |, a line --- starts a compartment; it grows with its rows). Without x/y: in free space, or beside an object (right_of, left_of, below, above; gap 40), or inside a frame. Without w/h it fits its text, also after edits. Text is Markdown: **bold**, *italic*, ~~strike~~, `code`, [link](url), lines '- ' or '1. ' (\\* keeps a *).";
    const HINTS: Hints = Hints::ADD;
    type Args = AddShapeArgs;
    type Output = Placed;
}

impl EditTool for AddShape {
    fn run(cx: &mut Cx<'_, '_>, a: AddShapeArgs) -> Result<Placed, ToolError> {
        let geom = a.geom.map_or(Geom::Rect, |g| g.0);
        let text = a.text.unwrap_or_default();
        // Before the text is measured, which would take long over the limit.
        inkboard_core::limits::check_text("'text'", &text)?;
        let style = a.style.to_style()?;
        let (x, y) = (finite("x", a.x)?, finite("y", a.y)?);
        let (w, h) = (positive("w", a.w)?, positive("h", a.h)?);
        let rotation = rotation("rotation", a.rotation)?.unwrap_or_default();
        let link = crate::args::marks::link_arg(a.link.as_deref())?;
        let icon = crate::args::marks::icon_arg(Some(a.icon.as_deref()))?.flatten();
        let (w, h) = place::fit_size(geom, &text, &style, (w, h), icon.is_some());
        // A side and x/y would each say where the shape goes; `inside` with x/y says
        // where and in which frame.
        if a.place.has_side() && (x.is_some() || y.is_some()) {
            return Err(ToolError::args(
                "give either x/y or right_of/left_of/below/above, not both",
            ));
        }
        let spot = a
            .place
            .resolve(cx, &[], &[])?
            .map(|r| place::relative(cx.board(), cx.page, &r, w, h, None, &[]));
        let (mut px, mut py) = match &spot {
            Some(spot) => (spot.at.x, spot.at.y),
            None if x.is_none() || y.is_none() => {
                place::free_spot_with(cx.board(), cx.page, x, y, w, h)
            }
            None => (0.0, 0.0),
        };
        if let Some(x) = x {
            px = x;
        }
        if let Some(y) = y {
            py = y;
        }
        let bounds = Rect::new(px, py, w, h);
        // A shape put in a frame is in it, wherever it went: the frame grows to
        // hold it, so that it moves with the frame.
        let holder = spot.and_then(|s| s.frame);
        if let Some(frame) = &holder {
            place::hold(cx.tx, frame, &bounds)?;
        }
        // Sized to its text, it stays so (`update` sizes it again for new text);
        // frames excepted, which are sized to what they hold.
        let sizing = if a.w.is_none() && a.h.is_none() && geom != Geom::Frame {
            Sizing::Auto
        } else {
            Sizing::Fixed
        };
        let shape = Kind::Shape(Shape {
            geom,
            bounds,
            text,
            style,
            sizing,
            rotation,
            icon,
        });
        // Frames go to the back, behind what they hold, but above the frame that
        // holds them.
        let index = match (&holder, geom) {
            (Some(frame), Geom::Frame) => cx.board().locate(frame).map(|(_, i)| i + 1),
            (None, Geom::Frame) => Some(0),
            _ => None,
        };
        let id = cx.tx.add(cx.page, index, shape)?;
        if link.is_some() || a.flip_x.is_some() || a.flip_y.is_some() {
            cx.tx.edit(&id, |o| {
                crate::args::marks::apply(o, &link, a.flip_x, a.flip_y);
            })?;
        }
        Ok(Placed::new(&id, bounds))
    }
}
