//! A page as an Excalidraw scene (`.excalidraw` JSON). Excalidraw has no pages,
//! so one page is written: the one asked for. Every element carries the fields
//! Excalidraw's `restore` reads, with fixed `seed`s and times made from the
//! object's id, so the same board always gives the same file.
//!
//! Shapes become rectangles, ellipses and diamonds with their text bound to
//! them (a text element whose `containerId` is the shape, listed in the shape's
//! `boundElements`); frames are frames, and the objects wholly inside one name
//! it in `frameId`; connectors are arrows bound to their ends
//! (`startBinding`/`endBinding`, and the arrow in each end's `boundElements`),
//! with their label bound as text; images are image elements with their bytes
//! in `files`; ink is freedraw; groups are `groupIds`, innermost first.
//!
//! What Excalidraw cannot say is kept where it looks: an outline it has no
//! element for (triangle, hexagon, cloud...) is drawn as a rectangle and a
//! connector's route is drawn straight, both recorded in the element's
//! `customData.inkboard` (`geom`, `route`), which `map.rs` reads back; a
//! connector's end labels, which Excalidraw has no place for, are kept there too
//! (`start_label`, `end_label`) and not shown.
//! Partly transparent colours lose their alpha; a fully transparent one is
//! `transparent`.

use std::collections::HashMap;

use base64::Engine as _;
use inkboard_core::{
    Align, Arrow, Board, Color, Connector, Dash, End, Geom, Kind, Object, ObjectId, Page, Route,
    Style, VAlign,
};
use serde_json::{json, Map, Value};

use inkboard_core::Vocabulary as _;

use crate::out::{ancestors, end_points, hex, parents};

/// Excalidraw's default stroke colour, for objects with the default stroke.
const INK: &str = "#1e1e1e";

/// `page` of `board` as an Excalidraw scene (pretty JSON). A page that is not
/// on the board gives an empty scene.
pub fn to_excalidraw(board: &Board, page: inkboard_core::PageId) -> String {
    let mut elements: Vec<Map<String, Value>> = Vec::new();
    let mut files = Map::new();
    if let Some(page) = board.page(page) {
        write_page(board, page, &mut elements, &mut files);
    }
    let doc = json!({
        "type": "excalidraw",
        "version": 2,
        "source": "https://github.com/inkboard",
        "elements": elements,
        "appState": { "gridSize": null, "viewBackgroundColor": "#ffffff" },
        "files": files,
    });
    let mut text = serde_json::to_string_pretty(&doc).expect("a JSON value always prints");
    text.push('\n');
    text
}

fn write_page(
    board: &Board,
    page: &Page,
    elements: &mut Vec<Map<String, Value>>,
    files: &mut Map<String, Value>,
) {
    let parent = parents(page);
    // Which frame each object lies in (the innermost, the last in z-order).
    let mut frame_of: HashMap<ObjectId, ObjectId> = HashMap::new();
    for f in page.objects.iter().filter(|o| o.is_frame()) {
        for inside in board.frame_contents(&f.id) {
            frame_of.insert(inside, f.id.clone());
        }
    }
    // Which connectors touch each object, for its `boundElements`.
    let mut arrows: HashMap<ObjectId, Vec<ObjectId>> = HashMap::new();
    for o in &page.objects {
        if let Kind::Connector(c) = &o.kind {
            for end in [&c.from, &c.to].into_iter().filter_map(End::object) {
                let list = arrows.entry(end.clone()).or_default();
                if !list.contains(&o.id) {
                    list.push(o.id.clone());
                }
            }
        }
    }
    for o in &page.objects {
        let groups: Vec<Value> = ancestors(&parent, &o.id)
            .iter()
            .map(|g| json!(g.as_str()))
            .collect();
        let frame = frame_of.get(&o.id).map(|f| f.as_str());
        let mut bound: Vec<Value> = arrows
            .get(&o.id)
            .into_iter()
            .flatten()
            .map(|a| json!({ "type": "arrow", "id": a.as_str() }))
            .collect();
        let shown = o.shown_text();
        let label = shown
            .as_deref()
            .filter(|t| !t.is_empty() && !o.is_frame() && !is_text(o));
        let label_id = format!("{}-text", o.id);
        if label.is_some() {
            bound.push(json!({ "type": "text", "id": label_id }));
        }
        let mut e = match &o.kind {
            Kind::Shape(s) => {
                let (kind, extra) = match s.geom {
                    Geom::Rect | Geom::Rounded | Geom::Note => ("rectangle", None),
                    Geom::Ellipse => ("ellipse", None),
                    // A circle in Excalidraw, its ring-and-disc kept in customData.
                    Geom::EndState => ("ellipse", Some(Geom::EndState)),
                    Geom::Diamond => ("diamond", None),
                    Geom::Text => ("text", None),
                    Geom::Frame => ("frame", None),
                    other => ("rectangle", Some(other)),
                };
                let mut e = base(o.id.as_str(), kind, s.bounds, &s.style);
                if s.geom == Geom::Rounded {
                    e.insert("roundness".into(), json!({ "type": 3 }));
                }
                // A note is a rectangle; its geom goes along, like the others'.
                if let Some(g) = extra.or((s.geom == Geom::Note).then_some(Geom::Note)) {
                    e.insert(
                        "customData".into(),
                        json!({ "inkboard": { "geom": g.name() } }),
                    );
                }
                // Excalidraw has no icons: the name goes along, for the way back.
                if let Some(icon) = &s.icon {
                    keep(&mut e, "icon", json!(icon.as_str()));
                }
                match s.geom {
                    Geom::Text => {
                        text_fields(&mut e, &o.shown_text().unwrap_or_default(), &s.style, None);
                        keep_rich_source(&mut e, o);
                    }
                    Geom::Frame => {
                        e.insert("name".into(), json!(s.text));
                    }
                    _ => {}
                }
                e
            }
            Kind::Connector(c) => arrow(board, o, c),
            Kind::Image(i) => {
                let mut e = base(o.id.as_str(), "image", i.bounds, &i.style);
                let file = format!("file-{}", o.id);
                let data = base64::engine::general_purpose::STANDARD.encode(&i.data);
                files.insert(
                    file.clone(),
                    json!({
                        "mimeType": i.format.mime(),
                        "id": file,
                        "dataURL": format!("data:{};base64,{data}", i.format.mime()),
                        "created": 1,
                    }),
                );
                e.insert("fileId".into(), json!(file));
                e.insert("status".into(), json!("saved"));
                e.insert("scale".into(), json!([1, 1]));
                e
            }
            Kind::Ink(k) => {
                let first = k
                    .points
                    .first()
                    .copied()
                    .unwrap_or(inkboard_core::Point { x: 0.0, y: 0.0 });
                let area = inkboard_core::Rect::around(k.points.iter().copied())
                    .unwrap_or(inkboard_core::Rect::new(first.x, first.y, 0.0, 0.0));
                let mut e = base(
                    o.id.as_str(),
                    "freedraw",
                    inkboard_core::Rect::new(first.x, first.y, area.w, area.h),
                    &k.style,
                );
                let points: Vec<Value> = k
                    .points
                    .iter()
                    .map(|p| json!([p.x - first.x, p.y - first.y]))
                    .collect();
                e.insert("points".into(), json!(points));
                e.insert("pressures".into(), json!([]));
                e.insert("simulatePressure".into(), json!(true));
                e.insert("lastCommittedPoint".into(), Value::Null);
                e
            }
            // Groups are the members' `groupIds`.
            Kind::Group(_) => continue,
        };
        // Radians, clockwise about the centre, as inkboard's degrees.
        if !o.rotation().is_none() {
            e.insert("angle".into(), json!(o.rotation().radians()));
        }
        e.insert("groupIds".into(), json!(groups));
        e.insert("frameId".into(), frame.map_or(Value::Null, |f| json!(f)));
        // Excalidraw locks elements, not groups: a locked group's members are
        // locked, as a person locks a group there (they come back locked).
        let locked = o.locked
            || ancestors(&parent, &o.id)
                .iter()
                .any(|g| board.object(g).is_some_and(|g| g.locked));
        e.insert("locked".into(), json!(locked));
        e.insert(
            "boundElements".into(),
            if bound.is_empty() {
                Value::Null
            } else {
                json!(bound)
            },
        );
        let container = (e.clone(), o.id.clone());
        elements.push(e);
        if let Some(text) = label {
            let mut t = bound_text(board, &container, &label_id, text, o);
            // Bound text turns with its container, as Excalidraw draws it.
            if !o.rotation().is_none() {
                t.insert("angle".into(), json!(o.rotation().radians()));
            }
            elements.push(t);
        }
    }
}

fn is_text(o: &Object) -> bool {
    matches!(&o.kind, Kind::Shape(s) if s.geom == Geom::Text)
}

/// Excalidraw's `roughness`: a whole number as one (its three settings are 0, 1
/// and 2), anything else as it is.
fn roughness(style: &Style) -> Value {
    match style.roughness {
        Some(r) if r.fract() != 0.0 => json!(r),
        r => json!(r.unwrap_or(0.0) as i64),
    }
}

/// The fields every element has, for an object in `bounds` with `style`.
fn base(id: &str, kind: &str, bounds: inkboard_core::Rect, style: &Style) -> Map<String, Value> {
    let seed = seed(id);
    let fill = style
        .fill
        .map_or("transparent".to_string(), |c| colour(c, "transparent"));
    let Value::Object(map) = json!({
        "id": id,
        "type": kind,
        "x": bounds.x,
        "y": bounds.y,
        "width": bounds.w,
        "height": bounds.h,
        "angle": 0,
        "strokeColor": style.stroke.map_or(INK.to_string(), |c| colour(c, "transparent")),
        "backgroundColor": fill,
        "fillStyle": style.fill_style.map_or("solid", |f| f.name()),
        "strokeWidth": style.stroke_width.unwrap_or(2.0),
        "strokeStyle": match style.dash {
            Some(Dash::Dashed) => "dashed",
            Some(Dash::Dotted) => "dotted",
            _ => "solid",
        },
        "roughness": roughness(style),
        "opacity": (style.opacity.unwrap_or(1.0) * 100.0).round(),
        "groupIds": [],
        "frameId": null,
        "roundness": null,
        "seed": seed,
        "version": 1,
        "versionNonce": seed / 2 + 1,
        "isDeleted": false,
        "boundElements": null,
        "updated": 1,
        "link": null,
        "locked": false,
    }) else {
        unreachable!("json! of an object is an object")
    };
    map
}

/// A seed from the id, the same on every run (Excalidraw's are random; any
/// positive 31-bit number will do).
fn seed(id: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    (h % 0x7fff_fffe) + 1
}

fn colour(c: Color, transparent: &str) -> String {
    hex(c).unwrap_or_else(|| transparent.to_string())
}

/// The fields of a text element.
fn text_fields(e: &mut Map<String, Value>, text: &str, style: &Style, container: Option<&str>) {
    e.insert("text".into(), json!(text));
    e.insert("originalText".into(), json!(text));
    e.insert("fontSize".into(), json!(style.font_size.unwrap_or(16.0)));
    // Helvetica, Excalidraw's plain sans-serif, is the closest to inkboard's Inter
    // (and to its serif, which Excalidraw lacks).
    e.insert(
        "fontFamily".into(),
        json!(crate::fonts::excalidraw_number(style.font)),
    );
    e.insert(
        "textAlign".into(),
        json!(match style.align {
            Some(Align::Left) => "left",
            Some(Align::Right) => "right",
            Some(Align::Center) => "center",
            None if container.is_some() => "center",
            None => "left",
        }),
    );
    e.insert(
        "verticalAlign".into(),
        json!(match style.valign {
            Some(VAlign::Top) => "top",
            Some(VAlign::Bottom) => "bottom",
            Some(VAlign::Middle) => "middle",
            None if container.is_some() => "middle",
            None => "top",
        }),
    );
    e.insert(
        "containerId".into(),
        container.map_or(Value::Null, |c| json!(c)),
    );
    e.insert("lineHeight".into(), json!(1.25));
    e.insert("autoResize".into(), json!(true));
    e.insert(
        "strokeColor".into(),
        json!(style.text_color.map_or(INK.to_string(), |c| colour(c, INK))),
    );
    e.insert("backgroundColor".into(), json!("transparent"));
}

/// Records the rich text (`rich.rs`) of `o` in the text element's
/// `customData.inkboard.text` when it differs from the shown text Excalidraw
/// gets, so that reading the file back restores bold, links and lists.
fn keep_rich_source(e: &mut Map<String, Value>, o: &Object) {
    let (Some(source), Some(shown)) = (o.text(), o.shown_text()) else {
        return;
    };
    if o.is_frame() || source == shown {
        return;
    }
    keep(e, "text", json!(source));
}

/// Records `value` as `key` in the element's `customData.inkboard`, beside what
/// is there already.
fn keep(e: &mut Map<String, Value>, key: &str, value: Value) {
    let custom = e.entry("customData").or_insert_with(|| json!({}));
    if let Some(custom) = custom.as_object_mut() {
        let inkboard = custom.entry("inkboard").or_insert_with(|| json!({}));
        if let Some(inkboard) = inkboard.as_object_mut() {
            inkboard.insert(key.into(), value);
        }
    }
}

/// The text bound to a shape or an arrow, centred on it (Excalidraw lays it
/// out again when the scene is opened).
fn bound_text(
    board: &Board,
    (container, id): &(Map<String, Value>, ObjectId),
    text_id: &str,
    text: &str,
    o: &Object,
) -> Map<String, Value> {
    let style = o.style().cloned().unwrap_or_default();
    let size = style.font_size.unwrap_or(16.0);
    let lines = text.lines().count().max(1) as f64;
    let longest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
    let (w, h) = (longest * size * 0.55, lines * size * 1.25);
    let centre = match board.bounds(id) {
        Some(r) => r.center(),
        None => inkboard_core::Point {
            x: container["x"].as_f64().unwrap_or(0.0),
            y: container["y"].as_f64().unwrap_or(0.0),
        },
    };
    let mut e = base(
        text_id,
        "text",
        inkboard_core::Rect::new(centre.x - w / 2.0, centre.y - h / 2.0, w, h),
        &Style::default(),
    );
    text_fields(&mut e, text, &style, Some(id.as_str()));
    keep_rich_source(&mut e, o);
    e.insert("groupIds".into(), container["groupIds"].clone());
    e.insert("frameId".into(), container["frameId"].clone());
    e.insert("locked".into(), container["locked"].clone());
    e
}

/// A connector as an arrow from one end to the other.
fn arrow(board: &Board, o: &Object, c: &Connector) -> Map<String, Value> {
    let (a, b) = end_points(board, &c.from, &c.to);
    // Waypoints are the arrow's middle points, as Excalidraw bends a line.
    let all: Vec<inkboard_core::Point> = std::iter::once(a)
        .chain(c.waypoints().iter().copied())
        .chain(std::iter::once(b))
        .collect();
    let area = inkboard_core::Rect::around(all.iter().copied())
        .unwrap_or(inkboard_core::Rect::new(a.x, a.y, 0.0, 0.0));
    let mut e = base(o.id.as_str(), "arrow", area, &c.style);
    e.insert("x".into(), json!(a.x));
    e.insert("y".into(), json!(a.y));
    e.insert("backgroundColor".into(), json!("transparent"));
    // The first point is the arrow's own place: written `[0, 0]`, as before.
    let points: Vec<Value> = std::iter::once(json!([0, 0]))
        .chain(all[1..].iter().map(|p| json!([p.x - a.x, p.y - a.y])))
        .collect();
    e.insert("points".into(), json!(points));
    e.insert("lastCommittedPoint".into(), Value::Null);
    let binding = |end: &End| match end {
        End::Object(id) => json!({ "elementId": id.as_str(), "focus": 0, "gap": 4 }),
        End::Point(_) => Value::Null,
    };
    e.insert("startBinding".into(), binding(&c.from));
    e.insert("endBinding".into(), binding(&c.to));
    e.insert("startArrowhead".into(), arrowhead(c.start_arrow));
    e.insert("endArrowhead".into(), arrowhead(c.end_arrow));
    e.insert("elbowed".into(), json!(false));
    // What Excalidraw has no form for, kept where inkboard reads it back: the
    // route, and the end labels (Excalidraw does not show them).
    let mut kept = Map::new();
    if c.route != Route::Straight {
        kept.insert("route".into(), json!(c.route.name()));
    }
    for (key, text) in [
        ("start_label", c.start_label()),
        ("end_label", c.end_label()),
    ] {
        if !text.is_empty() {
            kept.insert(key.into(), json!(text));
        }
    }
    for (key, a) in [("start_arrow", c.start_arrow), ("end_arrow", c.end_arrow)] {
        if a.is_crows_foot() || matches!(a, Arrow::HollowTriangle | Arrow::HollowDiamond) {
            kept.insert(key.into(), json!(a.name()));
        }
    }
    if !kept.is_empty() {
        e.insert("customData".into(), json!({ "inkboard": kept }));
    }
    e
}

fn arrowhead(a: Arrow) -> Value {
    match a {
        Arrow::None => Value::Null,
        Arrow::Arrow => json!("arrow"),
        Arrow::Triangle => json!("triangle"),
        Arrow::Diamond => json!("diamond"),
        // Excalidraw's outlined heads; the kind goes along in `customData` too.
        Arrow::HollowTriangle => json!("triangle_outline"),
        Arrow::HollowDiamond => json!("diamond_outline"),
        Arrow::Circle => json!("circle"),
        Arrow::Bar => json!("bar"),
        // Excalidraw's older name for its filled circle: drawn as one there, read
        // back as a dot here.
        Arrow::Dot => json!("dot"),
        // Excalidraw's crow's feet (0.18) draw these; the exact kind, zero or
        // not, goes along in `customData` (`arrow`).
        Arrow::One | Arrow::ZeroOrOne => json!("crowfoot_one"),
        Arrow::OneOrMany => json!("crowfoot_one_or_many"),
        Arrow::ZeroOrMany | Arrow::Many => json!("crowfoot_many"),
    }
}
