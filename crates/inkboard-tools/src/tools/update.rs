//! `update`: change text, geometry, outline, style or connector fields of one or
//! more objects. A field that does not apply to an object's kind is an error
//! naming both, never silently ignored.

use inkboard_core::{Arrow, Geom, Kind, ObjectId, Rect, Route};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::{ColorArg, EndArg, IdArg, StyleArgs, Word};
use crate::tool::{finite, positive, Cx, EditTool, Hints, Ids, Tool};
use crate::ToolError;

pub struct Update;

#[derive(Deserialize, JsonSchema)]
pub struct UpdateArgs {
    id: Option<IdArg>,
    ids: Option<Vec<IdArg>>,
    text: Option<String>,
    x: Option<f64>,
    y: Option<f64>,
    w: Option<f64>,
    h: Option<f64>,
    geom: Option<Word<Geom>>,
    #[serde(flatten)]
    style: StyleArgs,
    from: Option<EndArg>,
    to: Option<EndArg>,
    route: Option<Word<Route>>,
    start_arrow: Option<Word<Arrow>>,
    end_arrow: Option<Word<Arrow>>,
    /// Ink colour.
    color: Option<ColorArg>,
    /// Ink width.
    width: Option<f64>,
}

impl Tool for Update {
    const NAME: &'static str = "update";
    const DESCRIPTION: &'static str = "Change objects: text, x/y/w/h, geom, style, and for connectors from/to/route/arrows, for ink color/width. Only the fields given change.";
    const HINTS: Hints = Hints::EDIT;
    type Args = UpdateArgs;
    type Output = Ids;
}

/// The objects a call names by `id` and/or `ids`.
pub(crate) fn targets(
    cx: &Cx<'_, '_>,
    id: &Option<IdArg>,
    ids: &Option<Vec<IdArg>>,
) -> Result<Vec<ObjectId>, ToolError> {
    let mut all: Vec<IdArg> = id.iter().cloned().collect();
    all.extend(ids.iter().flatten().cloned());
    if all.is_empty() {
        return Err(ToolError::args("give 'id' or 'ids': the objects to change"));
    }
    IdArg::resolve_all(&all, cx.board(), if id.is_some() { "id" } else { "ids" })
}

impl EditTool for Update {
    fn run(cx: &mut Cx<'_, '_>, a: UpdateArgs) -> Result<Ids, ToolError> {
        let ids = targets(cx, &a.id, &a.ids)?;
        let style = a.style.to_style()?;
        let (x, y) = (finite("x", a.x)?, finite("y", a.y)?);
        let (w, h) = (positive("w", a.w)?, positive("h", a.h)?);
        let width = positive("width", a.width)?;
        let from = a
            .from
            .as_ref()
            .map(|e| super::connector::end(cx, e, "from"))
            .transpose()?;
        let to =
            a.to.as_ref()
                .map(|e| super::connector::end(cx, e, "to"))
                .transpose()?;
        for id in &ids {
            let object =
                cx.board().object(id).cloned().ok_or_else(|| {
                    ToolError::args(format!("'id' refers to no object: \"{id}\""))
                })?;
            let kind = object.kind.type_name();
            let refuse = |field: &str| {
                ToolError::args(format!(
                    "'{field}' does not apply to {kind} \"{id}\": leave it out for this object"
                ))
            };
            let mut changed = object.clone();
            if let Some(s) = changed.style_mut() {
                s.merge(&style);
            } else if !style.is_empty() {
                return Err(refuse("style"));
            }
            match &mut changed.kind {
                Kind::Shape(s) => {
                    if let Some(t) = &a.text {
                        s.text = t.clone();
                    }
                    if let Some(g) = a.geom {
                        s.geom = g.0;
                    }
                    s.bounds = resize(s.bounds, x, y, w, h);
                }
                Kind::Image(i) => {
                    if a.text.is_some() {
                        return Err(refuse("text"));
                    }
                    i.bounds = resize(i.bounds, x, y, w, h);
                }
                Kind::Connector(c) => {
                    if x.is_some() || y.is_some() || w.is_some() || h.is_some() {
                        return Err(refuse("x/y/w/h"));
                    }
                    if let Some(t) = &a.text {
                        c.text = t.clone();
                    }
                    if let Some(f) = &from {
                        c.from = f.clone();
                    }
                    if let Some(t) = &to {
                        c.to = t.clone();
                    }
                    if let Some(r) = a.route {
                        c.route = r.0;
                    }
                    if let Some(s) = a.start_arrow {
                        c.start_arrow = s.0;
                    }
                    if let Some(e) = a.end_arrow {
                        c.end_arrow = e.0;
                    }
                }
                Kind::Ink(k) => {
                    if a.text.is_some() || w.is_some() || h.is_some() {
                        return Err(refuse("text/w/h"));
                    }
                    if let Some(c) = a.color {
                        k.style.stroke = Some(c.0);
                    }
                    if width.is_some() {
                        k.style.stroke_width = width;
                    }
                }
                Kind::Group(_) => {
                    if a.text.is_some() || w.is_some() || h.is_some() {
                        return Err(refuse("text/w/h"));
                    }
                }
            }
            let is_shape_or_image = matches!(changed.kind, Kind::Shape(_) | Kind::Image(_));
            let is_connector = matches!(changed.kind, Kind::Connector(_));
            let is_ink = matches!(changed.kind, Kind::Ink(_));
            if a.geom.is_some() && !matches!(changed.kind, Kind::Shape(_)) {
                return Err(refuse("geom"));
            }
            if (a.from.is_some()
                || a.to.is_some()
                || a.route.is_some()
                || a.start_arrow.is_some()
                || a.end_arrow.is_some())
                && !is_connector
            {
                return Err(refuse("from/to/route/arrows"));
            }
            if (a.color.is_some() || a.width.is_some()) && !is_ink {
                return Err(refuse("color/width (ink only: use stroke, stroke_width)"));
            }
            cx.tx.replace(changed)?;
            // Ink strokes and groups move as a whole when given x/y.
            if !is_shape_or_image && !is_connector && (x.is_some() || y.is_some()) {
                let b = super::shift::bounds(cx.board(), id)?;
                super::shift::translate(
                    cx,
                    std::slice::from_ref(id),
                    x.map_or(0.0, |x| x - b.x),
                    y.map_or(0.0, |y| y - b.y),
                )?;
            }
        }
        Ok(Ids::of(&ids))
    }
}

fn resize(b: Rect, x: Option<f64>, y: Option<f64>, w: Option<f64>, h: Option<f64>) -> Rect {
    Rect::new(
        x.unwrap_or(b.x),
        y.unwrap_or(b.y),
        w.unwrap_or(b.w),
        h.unwrap_or(b.h),
    )
}
