//! One object to JSON and back, in the compact form shared by files and tool reads.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use inkboard_core::limits::{self, Limit};
use inkboard_core::{
    Arrow, Connector, End, Extra, Flip, Geom, Group, IconName, Image, ImageFormat, Ink, Kind, Link,
    Object, Point, Rect, Rotation, Route, Shape, Sizing, Style, Vocabulary,
};
use serde_json::{Map, Number, Value};

use super::board::over;
use super::read::{describe, index, join, number_value, Fields};
use super::sink::{Sink, Tree};
use super::{Detail, READ_INK_POINTS};
use crate::FormatError;

/// The fields each type knows besides its style. An unknown field (kept in `Extra`)
/// with one of these names is not written, since reading it back would take it for
/// the known field.
const SHAPE_KEYS: &[&str] = &[
    "id", "type", "geom", "x", "y", "w", "h", "rotation", "size", "text", "icon", "locked",
];
const CONNECTOR_KEYS: &[&str] = &[
    "id",
    "type",
    "from",
    "to",
    "text",
    "route",
    "start_arrow",
    "end_arrow",
    "locked",
    "waypoints",
    "label_at",
    "from_side",
    "to_side",
    "merge",
    "start_label",
    "end_label",
];
const IMAGE_KEYS: &[&str] = &[
    "id", "type", "x", "y", "w", "h", "rotation", "format", "data", "bytes", "locked",
];
const INK_KEYS: &[&str] = &["id", "type", "points", "color", "width", "locked"];
/// The fields any type may have after `locked`.
const OBJECT_KEYS: &[&str] = &["link", "flip_x", "flip_y"];
const GROUP_KEYS: &[&str] = &["id", "type", "ids", "locked"];

/// The words of the `type` field.
const TYPES: &str = "shape, connector, image, ink, group";

/// A number for JSON: rounded to 0.01 (board units are pixels; finer is noise that
/// only bloats files and diffs), integral values without a fraction (`10`, not
/// `10.0`), and `-0` as `0`.
///
/// A non-finite number (which the model should never hold) is written as 0: a file
/// that cannot be read back would lose the whole board, not one coordinate.
pub fn num(v: f64) -> Value {
    Value::Number(number(v))
}

/// [`num`] as a bare [`Number`], for a [`Sink`].
pub(crate) fn number(v: f64) -> Number {
    if !v.is_finite() {
        return Number::from(0);
    }
    // Beyond 1e15 a double has no hundredths to round, and scaling could overflow.
    let r = if v.abs() < 1e15 {
        (v * 100.0).round() / 100.0
    } else {
        v
    };
    if r.trunc() == r && r.abs() < 9e15 {
        Number::from(r as i64)
    } else {
        Number::from_f64(r).unwrap_or(Number::from(0))
    }
}

/// Inserts the style fields that are set, in the documented order: fill, stroke,
/// stroke_width, dash, font_size, text_color, align, valign, font, opacity,
/// roughness, fill_style.
pub fn style_to_json(style: &Style, out: &mut Map<String, Value>) {
    let mut tree = Tree::default();
    tree.open_object();
    write_style(style, &mut tree, false);
    tree.close();
    out.extend(tree.finish_object());
}

/// Writes a style; ink strokes call their stroke `color` and `width`, written first,
/// by the caller's order, so here they are skipped.
fn write_style(style: &Style, out: &mut impl Sink, ink: bool) {
    if let Some(c) = style.fill {
        out.text_field("fill", &c.to_string());
    }
    if !ink {
        if let Some(c) = style.stroke {
            out.text_field("stroke", &c.to_string());
        }
        if let Some(w) = style.stroke_width {
            out.number_field("stroke_width", number(w));
        }
    }
    if let Some(d) = style.dash {
        out.text_field("dash", d.name());
    }
    if let Some(n) = style.font_size {
        out.number_field("font_size", number(n));
    }
    if let Some(c) = style.text_color {
        out.text_field("text_color", &c.to_string());
    }
    if let Some(a) = style.align {
        out.text_field("align", a.name());
    }
    if let Some(a) = style.valign {
        out.text_field("valign", a.name());
    }
    if let Some(f) = style.font {
        out.text_field("font", f.name());
    }
    if let Some(n) = style.opacity {
        out.number_field("opacity", number(n));
    }
    if let Some(n) = style.roughness {
        out.number_field("roughness", number(n));
    }
    if let Some(f) = style.fill_style {
        out.text_field("fill_style", f.name());
    }
}

/// Writes the unknown fields back, sorted (an `Extra` is a sorted map), skipping
/// names the record's type knows: `known`, and the style fields when `styled`.
/// Those cover every key the writers emit, so no key is written twice. A value that
/// is not valid JSON text (only a buggy caller can make one) is written as a JSON
/// string rather than lost.
pub(crate) fn write_extra(extra: &Extra, known: &[&str], styled: bool, out: &mut impl Sink) {
    for (key, text) in extra {
        let key_known = known.contains(&key.as_str())
            || OBJECT_KEYS.contains(&key.as_str())
            || (styled && Style::FIELDS.contains(&key.as_str()));
        if key_known {
            continue;
        }
        let value = serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.clone()));
        out.key(key);
        out.value(value);
    }
}

fn write_rect(out: &mut impl Sink, r: &Rect) {
    out.number_field("x", number(r.x));
    out.number_field("y", number(r.y));
    out.number_field("w", number(r.w));
    out.number_field("h", number(r.h));
}

/// A rotation in degrees, left out when there is none (files and reads of
/// unrotated objects stay as they were before version 3).
fn write_rotation(out: &mut impl Sink, rotation: Rotation) {
    if !rotation.is_none() {
        out.number_field("rotation", number(rotation.deg()));
    }
}

/// The optional `icon`: a name spelled as icon names are. Whether the set has it
/// is not asked: a newer version's icon is kept, and drawn by nothing here.
fn read_icon(f: &mut Fields) -> Result<Option<IconName>, FormatError> {
    f.opt_string("icon")?
        .map(|name| IconName::parse(name).map_err(|e| f.error("icon", e.to_string())))
        .transpose()
}

/// The optional `rotation` in degrees, normalised into [0, 360).
fn read_rotation(f: &mut Fields) -> Result<Rotation, FormatError> {
    match f.opt_number("rotation")? {
        None => Ok(Rotation::NONE),
        // Finite: `opt_number` takes JSON numbers only.
        Some(deg) => Rotation::degrees(deg)
            .ok_or_else(|| f.error("rotation", "expected a finite number of degrees")),
    }
}

fn write_end(out: &mut impl Sink, key: &str, end: &End) {
    match end {
        End::Object(id) => out.text_field(key, id.as_str()),
        End::Point(p) => {
            out.key(key);
            out.open_object();
            out.number_field("x", number(p.x));
            out.number_field("y", number(p.y));
            out.close();
        }
    }
}

/// An image's bytes as a data URL.
fn data_url(image: &Image) -> String {
    format!(
        "data:{};base64,{}",
        image.format.mime(),
        BASE64.encode(&image.data)
    )
}

/// An object in its compact JSON form. Keys, in order:
///
/// - shape: `id, type, geom` (unless rect)`, x, y, w, h, rotation` (degrees in
///   [0, 360), unless 0)`, size` (unless fixed)`, text`
///   (unless empty), style;
/// - connector: `id, type, from, to, text` (unless empty), `route` (unless orthogonal),
///   `start_arrow` (unless none), `end_arrow` (unless arrow), `waypoints` (`[[x, y],
///   ...]`, unless none), `label_at` (a fraction of the line, unless placed
///   automatically), `from_side` and `to_side` (the side of its object an end is
///   pinned to: top, right, bottom, left; unless the router's), `merge` (`true`:
///   shares its start port and trunk with the other merging connectors leaving
///   that side; unless false), `start_label` and `end_label` (short texts beside
///   the line's start and end, such as a cardinality; unless empty), style; an end
///   is an id or `{"x", "y"}`. The last seven came after version 3 without a new
///   version: a reader that does not know them keeps them as unknown fields and
///   saves them back, losing only the bends, the label's place and the end labels
///   on screen (files without them are written as before);
///   a reader checks them like any field, with its place;
/// - image: `id, type, x, y, w, h, rotation` (unless 0)`, format, data` (a data URL; [`Detail::Read`]:
///   `bytes`, their count), style;
/// - ink: `id, type, points` (`[[x, y], ...]`; [`Detail::Read`]: at most
///   [`READ_INK_POINTS`], then `point_count`, their count), `color` and `width` (the
///   stroke), the other style fields;
/// - group: `id, type, ids`;
///
/// then `locked: true` on every type (left out when unlocked, so files without
/// a lock read and write as before), `link` (an http:, https: or mailto:
/// address, unless none), `flip_x` and `flip_y` (`true`: the drawing mirrored,
/// unless not; the last three came after version 3 as the connector's bends did,
/// and are kept by an older reader as unknown fields), then the object's unknown fields, sorted. Style fields come in the order of
/// [`style_to_json`], each only when set.
pub fn object_to_json(object: &Object, detail: Detail) -> Map<String, Value> {
    let mut tree = Tree::default();
    write_object(object, detail, &mut tree);
    tree.finish_object()
}

/// Writes an object as [`object_to_json`] documents it: the one place that knows
/// which fields an object has, in what order, and when each is left out.
pub(crate) fn write_object(object: &Object, detail: Detail, out: &mut impl Sink) {
    out.open_object();
    out.text_field("id", object.id.as_str());
    out.text_field("type", object.kind.type_name());
    let known = match &object.kind {
        Kind::Shape(s) => {
            if s.geom != Geom::Rect {
                out.text_field("geom", s.geom.name());
            }
            write_rect(out, &s.bounds);
            write_rotation(out, s.rotation);
            if s.sizing != Sizing::Fixed {
                out.text_field("size", s.sizing.name());
            }
            if !s.text.is_empty() {
                out.text_field("text", &s.text);
            }
            if let Some(icon) = &s.icon {
                out.text_field("icon", icon.as_str());
            }
            write_style(&s.style, out, false);
            SHAPE_KEYS
        }
        Kind::Connector(c) => {
            write_end(out, "from", &c.from);
            write_end(out, "to", &c.to);
            if !c.text.is_empty() {
                out.text_field("text", &c.text);
            }
            if c.route != Route::Orthogonal {
                out.text_field("route", c.route.name());
            }
            if c.start_arrow != Arrow::None {
                out.text_field("start_arrow", c.start_arrow.name());
            }
            if c.end_arrow != Arrow::Arrow {
                out.text_field("end_arrow", c.end_arrow.name());
            }
            if !c.waypoints().is_empty() {
                out.key("waypoints");
                out.open_list(false);
                for p in c.waypoints() {
                    out.open_list(true);
                    out.number(number(p.x));
                    out.number(number(p.y));
                    out.close();
                }
                out.close();
            }
            if let Some(at) = c.label_at() {
                out.number_field("label_at", number_fraction(at));
            }
            let (from_side, to_side) = c.sides();
            for (key, side) in [("from_side", from_side), ("to_side", to_side)] {
                if let Some(side) = side {
                    out.text_field(key, side.name());
                }
            }
            if c.merge() {
                out.key("merge");
                out.value(Value::Bool(true));
            }
            for (key, text) in [
                ("start_label", c.start_label()),
                ("end_label", c.end_label()),
            ] {
                if !text.is_empty() {
                    out.text_field(key, text);
                }
            }
            write_style(&c.style, out, false);
            CONNECTOR_KEYS
        }
        Kind::Image(i) => {
            write_rect(out, &i.bounds);
            write_rotation(out, i.rotation);
            out.text_field("format", i.format.name());
            match detail {
                Detail::File => out.text_field("data", &data_url(i)),
                Detail::Read | Detail::Editor => {
                    out.number_field("bytes", Number::from(i.data.len()))
                }
            };
            write_style(&i.style, out, false);
            IMAGE_KEYS
        }
        Kind::Ink(k) => {
            let n = k.points.len();
            let shown = match detail {
                Detail::Read if n > READ_INK_POINTS => READ_INK_POINTS,
                _ => n,
            };
            out.key("points");
            out.open_list(false);
            for i in 0..shown {
                // Spread evenly over the stroke, its first and last point kept.
                let p = k.points[if shown == n {
                    i
                } else {
                    i * (n - 1) / (shown - 1)
                }];
                out.open_list(true);
                out.number(number(p.x));
                out.number(number(p.y));
                out.close();
            }
            out.close();
            if shown < n {
                out.number_field("point_count", Number::from(n));
            }
            if let Some(c) = k.style.stroke {
                out.text_field("color", &c.to_string());
            }
            if let Some(w) = k.style.stroke_width {
                out.number_field("width", number(w));
            }
            write_style(&k.style, out, true);
            INK_KEYS
        }
        Kind::Group(g) => {
            out.key("ids");
            out.open_list(true);
            for m in &g.members {
                out.text(m.as_str());
            }
            out.close();
            GROUP_KEYS
        }
    };
    if object.locked {
        out.key("locked");
        out.value(Value::Bool(true));
    }
    if let Some(link) = &object.link {
        out.text_field("link", link.as_str());
    }
    for (key, on) in [("flip_x", object.flip.x), ("flip_y", object.flip.y)] {
        if on {
            out.key(key);
            out.value(Value::Bool(true));
        }
    }
    let styled = !matches!(object.kind, Kind::Group(_));
    write_extra(&object.extra, known, styled, out);
    out.close();
}

/// Reads an object from its JSON form. Errors name the field (`geom: unknown geom
/// "circle": use one of ...`); see [`object_from_json_at`] to name its place too.
/// Unknown fields are kept in the object's `extra`.
pub fn object_from_json(value: &Value) -> Result<Object, FormatError> {
    object_from_json_at(value, "")
}

/// Like [`object_from_json`], with error places starting at `at`
/// (e.g. `pages[0].objects[3]`).
pub fn object_from_json_at(value: &Value, at: &str) -> Result<Object, FormatError> {
    let mut f = Fields::new(value, at, "an object")?;
    let id = f.id("id")?;
    let kind = match f.string("type")? {
        "shape" => Kind::Shape(Shape {
            geom: f.word("geom")?.unwrap_or(Geom::Rect),
            bounds: read_rect(&mut f)?,
            rotation: read_rotation(&mut f)?,
            sizing: f.word("size")?.unwrap_or(Sizing::Fixed),
            text: f.opt_string("text")?.unwrap_or_default().to_string(),
            style: read_style(&mut f, false)?,
            icon: read_icon(&mut f)?,
        }),
        "connector" => {
            let from = read_end(&mut f, "from")?;
            let to = read_end(&mut f, "to")?;
            let mut c = Connector::new(from, to);
            c.text = f.opt_string("text")?.unwrap_or_default().to_string();
            c.route = f.word("route")?.unwrap_or(Route::Orthogonal);
            c.start_arrow = f.word("start_arrow")?.unwrap_or(Arrow::None);
            c.end_arrow = f.word("end_arrow")?.unwrap_or(Arrow::Arrow);
            c.set_waypoints(read_waypoints(&mut f)?);
            let label_at = f.opt_number("label_at")?;
            if let Some(at) = label_at {
                limits::check_fraction("label_at", at)
                    .map_err(|e| f.error("label_at", e.to_string()))?;
            }
            c.set_label_at(label_at);
            c.set_side(true, f.word("from_side")?);
            c.set_side(false, f.word("to_side")?);
            c.set_merge(f.opt_bool("merge")?.unwrap_or(false));
            for (at_start, key) in [(true, "start_label"), (false, "end_label")] {
                c.set_end_label(at_start, f.opt_string(key)?.unwrap_or_default().to_string());
            }
            c.style = read_style(&mut f, false)?;
            Kind::Connector(c)
        }
        "image" => read_image(&mut f)?,
        "ink" => {
            let list = f.list("points")?;
            let at = f.path("points");
            over(Limit::InkPoints, &at, "the ink stroke", list.len())?;
            let points = list
                .iter()
                .enumerate()
                .map(|(i, p)| read_point_pair(p, &index(&at, i)))
                .collect::<Result<Vec<_>, _>>()?;
            Kind::Ink(Ink {
                points,
                style: read_style(&mut f, true)?,
            })
        }
        "group" => {
            let list = f.list("ids")?;
            let at = f.path("ids");
            let members = list
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let at = index(&at, i);
                    let text = v.as_str().ok_or_else(|| {
                        FormatError::invalid(
                            at.as_str(),
                            format!("expected an object id, got {}", describe(v)),
                        )
                    })?;
                    inkboard_core::ObjectId::parse(text)
                        .map_err(|e| FormatError::invalid(at.as_str(), e.to_string()))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Kind::Group(Group { members })
        }
        other => {
            return Err(f.error(
                "type",
                format!("unknown type {other:?}: use one of {TYPES}"),
            ))
        }
    };
    let object = Object {
        id,
        kind,
        locked: f.opt_bool("locked")?.unwrap_or(false),
        link: match f.opt_string("link")? {
            Some(text) => Some(Link::parse(text).map_err(|e| f.error("link", e.to_string()))?),
            None => None,
        },
        flip: Flip {
            x: f.opt_bool("flip_x")?.unwrap_or(false),
            y: f.opt_bool("flip_y")?.unwrap_or(false),
        },
        extra: f.extra(),
    };
    // The fields above checked their own numbers; the model checks the rest of
    // its limits (texts, image bytes and pixels) and has the last word.
    limits::check_object(&object).map_err(|e| FormatError::invalid(at, e.to_string()))?;
    Ok(object)
}

fn read_rect(f: &mut Fields) -> Result<Rect, FormatError> {
    Ok(Rect::new(
        f.coord("x")?,
        f.coord("y")?,
        f.size("w")?,
        f.size("h")?,
    ))
}

fn read_style(f: &mut Fields, ink: bool) -> Result<Style, FormatError> {
    let (stroke, stroke_width) = if ink {
        f.refuse(
            "stroke",
            "an ink stroke has \"color\" instead of \"stroke\": rename the field",
        )?;
        f.refuse(
            "stroke_width",
            "an ink stroke has \"width\" instead of \"stroke_width\": rename the field",
        )?;
        (f.color("color")?, f.opt_number("width")?)
    } else {
        (f.color("stroke")?, f.opt_number("stroke_width")?)
    };
    let style = Style {
        fill: f.color("fill")?,
        stroke,
        stroke_width,
        dash: f.word("dash")?,
        font_size: f.opt_number("font_size")?,
        text_color: f.color("text_color")?,
        align: f.word("align")?,
        valign: f.word("valign")?,
        font: f.word("font")?,
        opacity: f.opt_number("opacity")?,
        roughness: f.opt_number("roughness")?,
        fill_style: f.word("fill_style")?,
    };
    // The model owns the ranges; its message names the field as it stands in files,
    // except ink's width.
    style.validate().map_err(|e| match e {
        inkboard_core::ModelError::BadNumber { what, .. } => {
            let key = if ink && what == "stroke_width" {
                "width"
            } else {
                what
            };
            f.error(key, e.to_string().replace("stroke_width", key))
        }
        other => FormatError::invalid(f.at(), other.to_string()),
    })?;
    Ok(style)
}

/// A connector end: an object id, or a free point `{"x", "y"}`.
fn read_end(f: &mut Fields, key: &'static str) -> Result<End, FormatError> {
    let expected = "an object id or a point {\"x\", \"y\"}";
    let v = f.require(key, expected)?;
    let at = f.path(key);
    match v {
        Value::String(text) => inkboard_core::ObjectId::parse(text)
            .map(End::Object)
            .map_err(|e| FormatError::invalid(at, e.to_string())),
        Value::Object(map) => {
            if let Some(k) = map.keys().find(|k| *k != "x" && *k != "y") {
                return Err(FormatError::invalid(
                    join(&at, k),
                    "a point has only \"x\" and \"y\": remove this field",
                ));
            }
            let mut p = Fields::new(v, &at, "a point")?;
            Ok(End::Point(Point {
                x: p.coord("x")?,
                y: p.coord("y")?,
            }))
        }
        other => Err(FormatError::invalid(
            at,
            format!("expected {expected}, got {}", describe(other)),
        )),
    }
}

/// A connector's optional `waypoints`: `[[x, y], ...]`, as ink points.
fn read_waypoints(f: &mut Fields) -> Result<Vec<Point>, FormatError> {
    if f.get("waypoints").is_none() {
        return Ok(Vec::new());
    }
    let list = f.list("waypoints")?;
    let at = f.path("waypoints");
    over(Limit::Waypoints, &at, "the connector", list.len())?;
    list.iter()
        .enumerate()
        .map(|(i, p)| read_point_pair(p, &index(&at, i)))
        .collect()
}

/// A fraction along a line, to 0.0001: hundredths of a long line would be
/// pixels apart.
fn number_fraction(v: f64) -> Number {
    let r = (v.clamp(0.0, 1.0) * 10_000.0).round() / 10_000.0;
    if r.trunc() == r {
        Number::from(r as i64)
    } else {
        Number::from_f64(r).unwrap_or(Number::from(0))
    }
}

/// An ink point: `[x, y]`.
fn read_point_pair(v: &Value, at: &str) -> Result<Point, FormatError> {
    match v.as_array().map(Vec::as_slice) {
        Some([x, y]) => match (number_value(x), number_value(y)) {
            (Some(x), Some(y)) => {
                limits::check_coord("x", x)
                    .and_then(|_| limits::check_coord("y", y))
                    .map_err(|e| FormatError::invalid(at, e.to_string()))?;
                Ok(Point { x, y })
            }
            _ => Err(FormatError::invalid(at, "expected two numbers [x, y]")),
        },
        _ => Err(FormatError::invalid(
            at,
            format!("expected a point [x, y], got {}", describe(v)),
        )),
    }
}

fn read_image(f: &mut Fields) -> Result<Kind, FormatError> {
    let bounds = read_rect(f)?;
    let rotation = read_rotation(f)?;
    let format: ImageFormat = f.word("format")?.ok_or_else(|| {
        FormatError::invalid(f.at(), "missing \"format\": add it (one of png, jpeg, svg)")
    })?;
    // A read shows only the size; it is not enough to rebuild the image.
    let has_count = f.get("bytes").is_some();
    let Some(url) = f.opt_string("data")? else {
        let why = if has_count {
            "missing \"data\": a read shows only the image's size (\"bytes\"); give the image as a data URL"
        } else {
            "missing \"data\": add the image as a data URL (data:image/png;base64,...)"
        };
        return Err(FormatError::invalid(f.at(), why));
    };
    let data = decode_data_url(url, format).map_err(|why| f.error("data", why))?;
    Ok(Kind::Image(Image {
        bounds,
        format,
        data: data.into(),
        style: read_style(f, false)?,
        rotation,
    }))
}

/// The bytes of a base64 data URL whose type matches `format`.
fn decode_data_url(url: &str, format: ImageFormat) -> Result<Vec<u8>, String> {
    let bad = "expected a data URL like data:image/png;base64,...";
    let rest = url.strip_prefix("data:").ok_or(bad)?;
    let (header, payload) = rest.split_once(',').ok_or(bad)?;
    let mime = header
        .strip_suffix(";base64")
        .ok_or("the data URL must be base64 (data:<type>;base64,...)")?;
    if mime != format.mime() {
        return Err(format!(
            "the data is {mime} but format is {format} ({}): make them agree",
            format.mime()
        ));
    }
    BASE64
        .decode(payload)
        .map_err(|e| format!("the base64 in the data URL is broken ({e}): encode the image again"))
}
