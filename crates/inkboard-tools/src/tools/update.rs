//! `update`: change text, geometry, outline, style or connector fields of one or
//! more objects. A field that does not apply to an object's kind is an error
//! naming both, never silently ignored. A frame that turns carries what lies in
//! it (`shift::turn`), in the same transaction: one undo step.

use std::collections::HashMap;

use inkboard_arrange::{place, shift};
use inkboard_core::{Arrow, End, Geom, Kind, ObjectId, Rect, Route, Side, Sizing, Style};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::{finite, positive, rotation, ColorArg, EndArg, IdArg, StyleArgs, Word};
use crate::tool::{Cx, EditTool, Hints, Ids, Tool};
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
    rotation: Option<f64>,
    geom: Option<Word<Geom>>,
    #[serde(flatten)]
    style: StyleArgs,
    from: Option<EndArg>,
    to: Option<EndArg>,
    route: Option<Word<Route>>,
    start_arrow: Option<Word<Arrow>>,
    end_arrow: Option<Word<Arrow>>,
    waypoints: Option<Vec<[f64; 2]>>,
    #[serde(default, deserialize_with = "present")]
    label_at: Option<Option<f64>>,
    #[serde(default, deserialize_with = "present")]
    from_side: Option<Option<Word<Side>>>,
    #[serde(default, deserialize_with = "present")]
    to_side: Option<Option<Word<Side>>>,
    merge: Option<bool>,
    #[serde(default, deserialize_with = "present")]
    start_label: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    end_label: Option<Option<String>>,
    /// Ink colour.
    color: Option<ColorArg>,
    /// Ink width.
    width: Option<f64>,
    points: Option<Vec<[f64; 2]>>,
    locked: Option<bool>,
    link: Option<String>,
    #[serde(default, deserialize_with = "present")]
    icon: Option<Option<String>>,
    flip_x: Option<bool>,
    flip_y: Option<bool>,
}

impl Tool for Update {
    const NAME: &'static str = "update";
    const TITLE: &'static str = "Update objects";
    const DESCRIPTION: &'static str = "Change objects: only the fields given change (connectors: from, to, route, arrows, waypoints, label_at, sides, end labels; ink: color, width, points). Shapes sized to their text refit; w or h fixes the size. Turning a frame turns its contents. A locked object is not moved, resized or deleted by id (refused); carried along, it stays.";
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

/// The fields of `update` that were given, by argument name.
fn given(a: &UpdateArgs) -> Vec<&'static str> {
    let s = &a.style;
    [
        ("text", a.text.is_some()),
        ("x", a.x.is_some()),
        ("y", a.y.is_some()),
        ("w", a.w.is_some()),
        ("h", a.h.is_some()),
        ("rotation", a.rotation.is_some()),
        ("geom", a.geom.is_some()),
        ("fill", s.fill.is_some()),
        ("stroke", s.stroke.is_some()),
        ("stroke_width", s.stroke_width.is_some()),
        ("dash", s.dash.is_some()),
        ("font_size", s.font_size.is_some()),
        ("text_color", s.text_color.is_some()),
        ("align", s.align.is_some()),
        ("valign", s.valign.is_some()),
        ("font", s.font.is_some()),
        ("opacity", s.opacity.is_some()),
        ("roughness", s.roughness.is_some()),
        ("fill_style", s.fill_style.is_some()),
        ("from", a.from.is_some()),
        ("to", a.to.is_some()),
        ("route", a.route.is_some()),
        ("start_arrow", a.start_arrow.is_some()),
        ("end_arrow", a.end_arrow.is_some()),
        ("waypoints", a.waypoints.is_some()),
        ("label_at", a.label_at.is_some()),
        ("from_side", a.from_side.is_some()),
        ("to_side", a.to_side.is_some()),
        ("merge", a.merge.is_some()),
        ("start_label", a.start_label.is_some()),
        ("end_label", a.end_label.is_some()),
        ("color", a.color.is_some()),
        ("width", a.width.is_some()),
        ("points", a.points.is_some()),
        ("locked", a.locked.is_some()),
        ("link", a.link.is_some()),
        ("icon", a.icon.is_some()),
        ("flip_x", a.flip_x.is_some()),
        ("flip_y", a.flip_y.is_some()),
    ]
    .into_iter()
    .filter_map(|(name, set)| set.then_some(name))
    .collect()
}

/// The fields that move, resize or turn an object, or reattach a connector:
/// refused on a locked object (`inkboard_arrange::locked`).
const GEOMETRY: &[&str] = &[
    "x",
    "y",
    "w",
    "h",
    "rotation",
    "from",
    "to",
    "waypoints",
    "label_at",
    "from_side",
    "to_side",
    "merge",
    "points",
    "flip_x",
    "flip_y",
];

/// The fields that apply to an object of this kind.
fn applicable(kind: &Kind) -> Vec<&'static str> {
    let mut fields: Vec<&'static str> = match kind {
        Kind::Shape(_) => vec!["text", "x", "y", "w", "h", "rotation", "geom", "icon"],
        Kind::Image(_) => vec!["x", "y", "w", "h", "rotation", "opacity"],
        Kind::Connector(_) => vec![
            "text",
            "from",
            "to",
            "route",
            "start_arrow",
            "end_arrow",
            "waypoints",
            "label_at",
            "from_side",
            "to_side",
            "merge",
            "start_label",
            "end_label",
        ],
        Kind::Ink(_) => vec![
            "x",
            "y",
            "points",
            "color",
            "width",
            "stroke",
            "stroke_width",
            "dash",
            "opacity",
        ],
        Kind::Group(_) => vec!["x", "y"],
    };
    if matches!(kind, Kind::Shape(_) | Kind::Connector(_)) {
        fields.extend(Style::FIELDS);
    }
    if matches!(kind, Kind::Shape(_) | Kind::Image(_)) {
        fields.extend(["link", "flip_x", "flip_y"]);
    }
    fields.push("locked");
    fields
}

impl EditTool for Update {
    fn run(cx: &mut Cx<'_, '_>, mut a: UpdateArgs) -> Result<Ids, ToolError> {
        let ids = targets(cx, &a.id, &a.ids)?;
        let fields = given(&a);
        if fields.is_empty() {
            return Err(ToolError::args(
                "nothing to change: give at least one field, e.g. text, x, y, w, h, fill or stroke",
            ));
        }
        if let Some(text) = &a.text {
            // Before the text is measured, which would take long over the limit.
            inkboard_core::limits::check_text("'text'", text)?;
        }
        let style = a.style.to_style()?;
        let (x, y) = (finite("x", a.x)?, finite("y", a.y)?);
        let (w, h) = (positive("w", a.w)?, positive("h", a.h)?);
        let width = positive("width", a.width)?;
        let turn = rotation("rotation", a.rotation)?;
        let from = a
            .from
            .as_ref()
            .map(|e| super::connector::end(cx, e, "from"))
            .transpose()?;
        let to =
            a.to.as_ref()
                .map(|e| super::connector::end(cx, e, "to"))
                .transpose()?;
        let waypoints = a
            .waypoints
            .as_deref()
            .map(crate::args::waypoints)
            .transpose()?;
        let label_at = a.label_at.map(crate::args::label_at).transpose()?;
        let start_label = (a.start_label.take())
            .map(|t| crate::args::end_label("start_label", t))
            .transpose()?;
        let end_label = (a.end_label.take())
            .map(|t| crate::args::end_label("end_label", t))
            .transpose()?;
        let points = a.points.as_deref().map(super::ink::points).transpose()?;
        let link = crate::args::marks::link_arg(a.link.as_deref())?;
        let icon = crate::args::marks::icon_arg(a.icon.as_ref().map(|i| i.as_deref()))?;
        let mut held = turn.map_or_else(HashMap::new, |_| shift::held_by_frames(cx.board(), &ids));
        for id in &ids {
            let object =
                cx.board().object(id).cloned().ok_or_else(|| {
                    ToolError::args(format!("'id' refers to no object: \"{id}\""))
                })?;
            // A field that does not apply is refused, naming it and what applies.
            let kind = object.kind.type_name();
            let applies = applicable(&object.kind);
            if let Some(field) = fields.iter().find(|f| !applies.contains(f)) {
                let hint = match *field {
                    "color" | "width" => {
                        "use 'stroke' and 'stroke_width' (color and width are for ink)".to_string()
                    }
                    _ => format!("it takes {}", applies.join(", ")),
                };
                return Err(ToolError::args(format!(
                    "'{field}' does not apply to {kind} \"{id}\": {hint}"
                )));
            }
            // A locked object keeps its place and size unless this call unlocks it.
            let guarded = object.locked && a.locked != Some(false);
            if guarded {
                if let Some(field) = fields.iter().find(|f| GEOMETRY.contains(f)) {
                    return Err(inkboard_arrange::locked::named(field, id).into());
                }
            }
            let mut changed = object.clone();
            if let Some(locked) = a.locked {
                changed.locked = locked;
            }
            crate::args::marks::apply(&mut changed, &link, a.flip_x, a.flip_y);
            if let Some(s) = changed.style_mut() {
                s.merge(&style);
            }
            if let (Some(turn), Some(r)) = (turn, changed.rotation_mut()) {
                *r = turn;
            }
            match &mut changed.kind {
                Kind::Shape(s) => {
                    if let Some(t) = &a.text {
                        s.text = t.clone();
                    }
                    if let Some(g) = a.geom {
                        s.geom = g.0;
                    }
                    if let Some(i) = &icon {
                        s.icon = i.clone();
                    }
                    s.bounds = resize(s.bounds, x, y, w, h);
                    if w.is_some() || h.is_some() {
                        // A size set by hand (or by the editor's handles) is kept.
                        s.sizing = Sizing::Fixed;
                    }
                    // A shape sized to its text (and every text shape, as before
                    // the size mode was kept) is sized again for new text, a new
                    // font size or outline, measured as the renderer will draw it.
                    let refit = a.text.is_some()
                        || style.font_size.is_some()
                        || style.font.is_some()
                        || a.geom.is_some()
                        || icon.is_some();
                    let auto = s.sizing == Sizing::Auto || s.geom == Geom::Text;
                    if auto && refit && w.is_none() && h.is_none() && !guarded {
                        s.bounds = place::refit(s, x.is_some() || y.is_some());
                    }
                }
                Kind::Image(i) => i.bounds = resize(i.bounds, x, y, w, h),
                Kind::Connector(c) => {
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
                    if let Some(w) = &waypoints {
                        c.set_waypoints(w.clone());
                    }
                    if let Some(at) = label_at {
                        c.set_label_at(at);
                    }
                    if let Some(side) = a.from_side {
                        c.set_side(true, side.map(|w| w.0));
                    }
                    if let Some(side) = a.to_side {
                        c.set_side(false, side.map(|w| w.0));
                    }
                    if let Some(m) = a.merge {
                        c.set_merge(m);
                    }
                    // null and "" both take an end label away.
                    if let Some(t) = &start_label {
                        c.set_end_label(true, t.clone());
                    }
                    if let Some(t) = &end_label {
                        c.set_end_label(false, t.clone());
                    }
                    // A side pinned on an end made free is refused when this call
                    // pins it, and otherwise let go: a free point has no sides.
                    let (pin_from, pin_to) = c.sides();
                    if a.from_side.is_some() {
                        crate::args::side_on(&c.from, pin_from, "from_side")?;
                    } else if matches!(c.from, End::Point(_)) && pin_from.is_some() {
                        c.set_side(true, None);
                    }
                    if a.to_side.is_some() {
                        crate::args::side_on(&c.to, pin_to, "to_side")?;
                    } else if matches!(c.to, End::Point(_)) && pin_to.is_some() {
                        c.set_side(false, None);
                    }
                }
                Kind::Ink(k) => {
                    if let Some(c) = a.color {
                        k.style.stroke = Some(c.0);
                    }
                    if width.is_some() {
                        k.style.stroke_width = width;
                    }
                    if let Some(p) = &points {
                        // Before a move by x/y below, which then moves the new stroke.
                        k.points = p.clone();
                    }
                }
                Kind::Group(_) => {}
            }
            let carried = shift::frame_turn(&object, &changed)
                .map(|turn| (held.remove(id).unwrap_or_default(), turn));
            let moves_whole = matches!(changed.kind, Kind::Ink(_) | Kind::Group(_));
            // A frame given a larger size pushes what it would cover out of the
            // way, as every frame that grows does ([`place::make_room`]).
            if let (Kind::Shape(was), Kind::Shape(now)) = (&object.kind, &changed.kind) {
                if now.geom == Geom::Frame && (w.is_some() || h.is_some()) {
                    place::make_room(cx.tx, id, was.bounds, now.bounds, None)?;
                }
            }
            cx.tx.replace(changed)?;
            if let Some((held, (by, from, to))) = carried {
                shift::turn(cx.tx, id, &held, by, from, to)?;
            }
            // Ink strokes and groups move as a whole when given x/y.
            if moves_whole && (x.is_some() || y.is_some()) {
                let b = shift::bounds(cx.board(), id)?;
                shift::translate(
                    cx.tx,
                    std::slice::from_ref(id),
                    x.map_or(0.0, |x| x - b.x),
                    y.map_or(0.0, |y| y - b.y),
                )?;
            }
        }
        Ok(Ids::of(&ids))
    }
}

/// Tells `"label_at": null` (set it back to automatic) from no `label_at`, and
/// likewise for a pinned side and an end label (null takes it away).
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

fn resize(b: Rect, x: Option<f64>, y: Option<f64>, w: Option<f64>, h: Option<f64>) -> Rect {
    Rect::new(
        x.unwrap_or(b.x),
        y.unwrap_or(b.y),
        w.unwrap_or(b.w),
        h.unwrap_or(b.h),
    )
}
