//! An Excalidraw scene onto one inkboard page. Bound text (a text element with a
//! `containerId`) becomes its container's text; arrows and lines become
//! connectors bound through `startBinding`/`endBinding`; a bent line bound to
//! nothing becomes an ink stroke, which keeps its shape; `groupIds` become
//! nested groups; frames go to the back, as Excalidraw draws their content over
//! them. Like the draw.io mapping: plan, hand out ids, then emit.

use std::collections::{HashMap, HashSet};

use inkboard_core::limits::MAX_WAYPOINTS;
use inkboard_core::{
    Align, Arrow, Connector, Dash, End, FillStyle, Geom, Group, IdKind, Ink, Kind, ObjectId, Point,
    Route, Shape, Style, VAlign,
};

use inkboard_core::Vocabulary as _;

use super::element::{Element, Scene};
use crate::build::{data_url, placeholder, turned, BoardBuilder};
use crate::colour::{self, Paint};
use crate::lost::LostKind;

enum Plan {
    Ready(Kind),
    /// An arrow or a line, built once every id is known.
    Connector,
}

/// Maps the scene onto the builder's current page.
pub(crate) fn scene(b: &mut BoardBuilder, scene: &Scene) {
    let els = &scene.elements;
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(els.len());
    for (i, e) in els.iter().enumerate() {
        index.entry(e.id.as_str()).or_insert(i);
    }
    // Bound text: container → its text element.
    let mut bound_text: HashMap<usize, usize> = HashMap::new();
    for (i, e) in els.iter().enumerate() {
        if e.kind != "text" {
            continue;
        }
        if let Some(&c) = e.container_id.as_deref().and_then(|c| index.get(c)) {
            if c != i && els[c].kind != "text" {
                bound_text.entry(c).or_insert(i);
            }
        }
    }
    let folded: HashSet<usize> = bound_text.values().copied().collect();

    // Frames first: Excalidraw draws a frame's content over it.
    let order: Vec<usize> = (0..els.len())
        .filter(|i| is_frame(&els[*i]))
        .chain((0..els.len()).filter(|i| !is_frame(&els[*i])))
        .filter(|i| !folded.contains(i))
        .collect();

    let mut plans: Vec<(usize, Plan)> = Vec::with_capacity(order.len());
    for &i in &order {
        let e = &els[i];
        let label = bound_text.get(&i).map(|&t| &els[t]);
        let plan = element(b, e, label, scene);
        plans.push((i, plan));
    }

    let mut ids: Vec<Option<ObjectId>> = vec![None; els.len()];
    let mut plan_ids = Vec::with_capacity(plans.len());
    for (i, plan) in &plans {
        let id = b.id(match plan {
            Plan::Ready(kind) => kind.id_kind(),
            Plan::Connector => IdKind::Connector,
        });
        ids[*i] = Some(id.clone());
        plan_ids.push(id);
    }
    // Bound text is reached through its container (arrows may bind to it).
    for (&container, &text) in &bound_text {
        ids[text] = ids[container].clone();
    }
    let attachable: Vec<bool> = plans
        .iter()
        .fold(vec![false; els.len()], |mut v, (i, plan)| {
            v[*i] = matches!(plan, Plan::Ready(Kind::Shape(_) | Kind::Image(_)));
            v
        });

    for ((i, plan), id) in plans.into_iter().zip(plan_ids) {
        let kind = match plan {
            Plan::Ready(kind) => kind,
            Plan::Connector => {
                let label = bound_text.get(&i).map(|&t| &els[t]);
                Kind::Connector(connector(
                    b,
                    &els[i],
                    label,
                    &index,
                    &ids,
                    &attachable,
                    &folded,
                ))
            }
        };
        b.push(id, kind);
        if els[i].locked {
            b.lock_last();
        }
    }
    groups(b, els, &ids, &folded);
}

fn is_frame(e: &Element) -> bool {
    matches!(e.kind.as_str(), "frame" | "magicframe")
}

/// A text element's text as the board's rich text: the rich text inkboard wrote
/// it from, while its shown form is still what Excalidraw holds; otherwise
/// Excalidraw's plain text, kept literal.
fn board_text(t: &Element) -> String {
    match &t.inkboard_text {
        Some(source) if inkboard_core::rich::plain(source) == t.text => source.clone(),
        _ => inkboard_core::rich::escape(&t.text),
    }
}

/// Plans one element (not bound text, which `label` carries).
fn element(b: &mut BoardBuilder, e: &Element, label: Option<&Element>, scene: &Scene) -> Plan {
    let name = example(e, label);
    // Excalidraw's angle is in radians, clockwise on screen about the centre, as
    // inkboard's rotation is in degrees. Shapes and images keep it; the lines and
    // strokes that cannot are drawn unturned and reported.
    let rotation = inkboard_core::Rotation::degrees(e.angle.to_degrees()).unwrap_or_default();
    let turnable = matches!(
        e.kind.as_str(),
        "rectangle" | "ellipse" | "diamond" | "text" | "frame" | "magicframe" | "image"
    );
    if !rotation.is_none() && !turnable {
        b.losses.add(LostKind::Rotation, &name);
    }
    // An embed's link is its content, reported as the embed.
    if e.link.is_some() && !matches!(e.kind.as_str(), "embeddable" | "iframe") {
        b.losses.add(LostKind::Link, &name);
    }
    if e.custom_data {
        b.losses.add(LostKind::CustomData, &name);
    }
    let rect = b.rect(e.x, e.y, e.w, e.h);
    let text = label.map(board_text).unwrap_or_default();
    // Text draws no fill or outline, so its own fill settings mean nothing.
    let mut style = if e.kind == "text" {
        Style::default()
    } else {
        shape_style(b, e)
    };
    if let Some(t) = label {
        text_style(b, t, &mut style);
    }
    let shape = |geom: Geom, text: String, style: Style| {
        Plan::Ready(Kind::Shape(Shape {
            geom,
            bounds: rect,
            text,
            style,
            sizing: inkboard_core::Sizing::Fixed,
            rotation,
            // A name not spelled as icons are is not one.
            icon: e
                .inkboard_icon
                .as_deref()
                .and_then(|n| inkboard_core::IconName::parse(n).ok()),
        }))
    };
    // The outline inkboard recorded when it wrote a shape Excalidraw has no
    // element for.
    let recorded = e
        .inkboard_geom
        .as_deref()
        .and_then(|g| Geom::parse(g).ok())
        .filter(|g| !matches!(g, Geom::Text | Geom::Frame));
    match e.kind.as_str() {
        "rectangle" | "ellipse" | "diamond" if recorded.is_some() => {
            shape(recorded.expect("checked"), text, style)
        }
        "rectangle" => shape(
            if e.rounded { Geom::Rounded } else { Geom::Rect },
            text,
            style,
        ),
        "ellipse" => shape(Geom::Ellipse, text, style),
        "diamond" => shape(Geom::Diamond, text, style),
        "text" => {
            let mut style = Style::default();
            text_style(b, e, &mut style);
            shape(Geom::Text, board_text(e), style)
        }
        "frame" | "magicframe" => {
            let title = e.name.clone().unwrap_or_else(|| "Frame".to_string());
            shape(Geom::Frame, title, Style::default())
        }
        "arrow" => Plan::Connector,
        "line" if e.points.len() > 2 && e.start_binding.is_none() && e.end_binding.is_none() => {
            b.losses.add(LostKind::LineAsInk, &name);
            Plan::Ready(ink(b, e))
        }
        "line" => Plan::Connector,
        "freedraw" => Plan::Ready(ink(b, e)),
        "image" => {
            let url = e.file_id.as_deref().and_then(|f| scene.files.get(f));
            match url.and_then(|u| data_url(u)) {
                Some((_, bytes)) => {
                    Plan::Ready(turned(b.image(bytes, rect, "image", &name), rotation))
                }
                None => {
                    b.losses.add(LostKind::BadImage, &name);
                    Plan::Ready(turned(placeholder(rect, "image"), rotation))
                }
            }
        }
        "embeddable" | "iframe" => {
            let link = e.link.clone().unwrap_or_default();
            b.losses.add(LostKind::Embed, &link);
            Plan::Ready(placeholder(rect, &link))
        }
        other => {
            b.losses.add(LostKind::UnknownShape, other);
            shape(Geom::Rect, text, style)
        }
    }
}

/// What names an element in the report: its text, or its type and id.
fn example(e: &Element, label: Option<&Element>) -> String {
    let text = label.map_or(e.text.as_str(), |l| l.text.as_str());
    if text.trim().is_empty() {
        format!("{} {}", e.kind, e.id)
    } else {
        text.to_string()
    }
}

/// A colour, reported when unreadable.
fn paint(b: &mut BoardBuilder, value: Option<&str>) -> Option<inkboard_core::Color> {
    let value = value?;
    let p = colour::parse(value);
    if p == Paint::Unknown {
        b.losses.add(LostKind::Colour, value);
    }
    p.color()
}

/// Stroke, fill, dash, width, opacity and hand-drawn look (roughness, hachure
/// or cross-hatch fill) of a shape or line.
fn shape_style(b: &mut BoardBuilder, e: &Element) -> Style {
    let fill = paint(b, e.background.as_deref());
    let filled = fill.is_some_and(|c| c.rgba()[3] > 0);
    let fill_style = match e.fill_style.as_deref() {
        Some("hachure") => Some(FillStyle::Hachure),
        Some("cross-hatch") => Some(FillStyle::CrossHatch),
        _ => None,
    };
    // Excalidraw's other patterns (zigzag, dots) have no equal here.
    if filled && fill_style.is_none() && e.fill_style.as_deref().is_some_and(|f| f != "solid") {
        b.losses.add(LostKind::PatternFill, &example(e, None));
    }
    Style {
        fill,
        stroke: paint(b, e.stroke.as_deref()),
        stroke_width: e.stroke_width.map(|w| w.clamp(0.0, 1000.0)),
        dash: match e.stroke_style.as_deref() {
            Some("dashed") => Some(Dash::Dashed),
            Some("dotted") => Some(Dash::Dotted),
            _ => None,
        },
        opacity: opacity(e),
        roughness: e
            .roughness
            .filter(|r| r.is_finite() && *r > 0.0)
            .map(|r| r.min(2.0)),
        fill_style: fill_style.filter(|_| filled),
        ..Style::default()
    }
}

fn opacity(e: &Element) -> Option<f64> {
    e.opacity
        .filter(|o| *o < 100.0)
        .map(|o| (o / 100.0).clamp(0.0, 1.0))
}

/// The text style of a text element, onto `style`.
fn text_style(b: &mut BoardBuilder, t: &Element, style: &mut Style) {
    style.text_color = paint(b, t.stroke.as_deref());
    style.font_size = t.font_size.map(|s| s.clamp(0.0, 1000.0));
    style.font = t.font_family.and_then(crate::fonts::from_excalidraw);
    style.align = match t.text_align.as_deref() {
        Some("left") => Some(Align::Left),
        Some("right") => Some(Align::Right),
        Some("center") => Some(Align::Center),
        _ => None,
    };
    style.valign = match t.vertical_align.as_deref() {
        Some("top") => Some(VAlign::Top),
        Some("bottom") => Some(VAlign::Bottom),
        Some("middle") => Some(VAlign::Middle),
        _ => None,
    };
    if style.opacity.is_none() {
        style.opacity = opacity(t);
    }
}

/// A stroke through an element's points, thinned if over the model's limit.
fn ink(b: &mut BoardBuilder, e: &Element) -> Kind {
    let points = b.ink_points(e.points.clone(), (e.x, e.y), &example(e, None));
    let style = shape_style(b, e);
    Kind::Ink(Ink {
        points,
        style: Style {
            stroke: style.stroke,
            stroke_width: style.stroke_width,
            dash: style.dash,
            opacity: style.opacity,
            ..Style::default()
        },
    })
}

/// The connector for an arrow or a line.
fn connector(
    b: &mut BoardBuilder,
    e: &Element,
    label: Option<&Element>,
    index: &HashMap<&str, usize>,
    ids: &[Option<ObjectId>],
    attachable: &[bool],
    folded: &HashSet<usize>,
) -> Connector {
    let name = example(e, label);
    let first = e.points.first().copied().unwrap_or((0.0, 0.0));
    let last = e.points.last().copied().unwrap_or((e.w, e.h));
    let mut end = |binding: Option<&str>, (px, py): (f64, f64)| -> End {
        if let Some(target) = binding {
            match index.get(target) {
                Some(&i) if ids[i].is_some() && (attachable[i] || folded.contains(&i)) => {
                    return End::Object(ids[i].clone().expect("checked"));
                }
                Some(_) => b.losses.add(LostKind::EndOnConnector, &name),
                None => b.losses.add(LostKind::MissingEnd, &name),
            }
        }
        End::Point(b.point(e.x + px, e.y + py))
    };
    let from = end(e.start_binding.as_deref(), first);
    let to = end(e.end_binding.as_deref(), last);
    let bent = e.points.len() > 2;
    // A bent line's middle points are its waypoints (as many as a connector
    // holds); an elbow arrow's corners are Excalidraw's own routing, routed anew.
    let middle = if bent && !e.elbowed {
        &e.points[1..e.points.len() - 1]
    } else {
        &[][..]
    };
    if middle.len() > MAX_WAYPOINTS {
        b.losses.add(LostKind::Waypoints, &name);
    }
    let waypoints: Vec<Point> = middle
        .iter()
        .take(MAX_WAYPOINTS)
        .map(|&(px, py)| b.point(e.x + px, e.y + py))
        .collect();
    let recorded = e
        .inkboard_route
        .as_deref()
        .and_then(|r| Route::parse(r).ok());
    let route = if let Some(route) = recorded {
        route
    } else if e.elbowed {
        Route::Orthogonal
    } else if bent && e.rounded {
        Route::Curved
    } else {
        Route::Straight
    };
    let kept = |name: &Option<String>| {
        name.as_deref()
            .and_then(|w| <Arrow as inkboard_core::Vocabulary>::parse(w).ok())
    };
    let start_arrow =
        kept(&e.inkboard_arrows.0).unwrap_or_else(|| arrowhead(b, e.start_arrowhead.as_deref()));
    let end_arrow =
        kept(&e.inkboard_arrows.1).unwrap_or_else(|| arrowhead(b, e.end_arrowhead.as_deref()));
    let mut style = shape_style(b, e);
    style.fill = None;
    if let Some(t) = label {
        text_style(b, t, &mut style);
    }
    let mut c = Connector {
        from,
        to,
        text: label.map(|t| t.text.clone()).unwrap_or_default(),
        route,
        start_arrow,
        end_arrow,
        style,
        by_hand: None,
    };
    c.set_waypoints(waypoints);
    let (start, end) = e.inkboard_ends.clone();
    c.set_end_label(true, start.unwrap_or_default());
    c.set_end_label(false, end.unwrap_or_default());
    c
}

/// Excalidraw's arrowheads onto inkboard's; the rest are reported.
fn arrowhead(b: &mut BoardBuilder, name: Option<&str>) -> Arrow {
    match name {
        None => Arrow::None,
        Some("arrow") => Arrow::Arrow,
        Some("triangle") => Arrow::Triangle,
        Some("diamond") => Arrow::Diamond,
        Some("triangle_outline") => Arrow::HollowTriangle,
        Some("diamond_outline") => Arrow::HollowDiamond,
        Some("circle" | "circle_outline") => Arrow::Circle,
        Some("dot") => Arrow::Dot,
        Some("bar") => Arrow::Bar,
        Some("crowfoot_one") => Arrow::One,
        Some("crowfoot_many") => Arrow::Many,
        Some("crowfoot_one_or_many") => Arrow::OneOrMany,
        Some(other) => {
            b.losses.add(LostKind::ArrowHead, other);
            Arrow::Arrow
        }
    }
}

/// One inkboard group per Excalidraw group id: its members are the elements
/// whose innermost group it is, and the groups directly inside it.
fn groups(
    b: &mut BoardBuilder,
    els: &[Element],
    ids: &[Option<ObjectId>],
    folded: &HashSet<usize>,
) {
    let mut order: Vec<&str> = Vec::new();
    let mut members: HashMap<&str, Vec<ObjectId>> = HashMap::new();
    let mut parent: HashMap<&str, &str> = HashMap::new();
    let mut trees = Trees::default();
    // The same links in the order met, so that members come out in a stable
    // order (a map's iteration order changes from run to run).
    let mut links: Vec<(&str, &str)> = Vec::new();
    for (i, e) in els.iter().enumerate() {
        let Some(id) = ids[i].as_ref().filter(|_| !folded.contains(&i)) else {
            continue;
        };
        for g in &e.group_ids {
            if !members.contains_key(g.as_str()) {
                order.push(g);
                members.insert(g, Vec::new());
            }
        }
        if let Some(inner) = e.group_ids.first() {
            members
                .get_mut(inner.as_str())
                .expect("inserted")
                .push(id.clone());
        }
        for pair in e.group_ids.windows(2) {
            let (child, up) = (pair[0].as_str(), pair[1].as_str());
            // The first nesting seen wins; one that would make a cycle is ignored.
            if child != up && !parent.contains_key(child) && trees.root(up) != child {
                parent.insert(child, up);
                trees.join(child, up);
                links.push((child, up));
            }
        }
    }
    let group_ids: HashMap<&str, ObjectId> =
        order.iter().map(|g| (*g, b.id(IdKind::Group))).collect();
    for (child, up) in &links {
        let id = group_ids[child].clone();
        members.get_mut(up).expect("a known group").push(id);
    }
    for g in order {
        let mut m = members.remove(g).unwrap_or_default();
        let mut seen = HashSet::new();
        m.retain(|id| seen.insert(id.clone()));
        b.push(group_ids[g].clone(), Kind::Group(Group { members: m }));
    }
}

/// The trees the group nesting makes, as a union-find whose sets each know
/// their root: a link from `child` (a root, having no parent yet) up to `up`
/// would make a cycle exactly when `up`'s root is `child`. Walking the parents
/// instead cost the length of the chain for every link, the square of it for a
/// chain built from the top (50,000 nested groups, a billion steps).
#[derive(Default)]
struct Trees<'a> {
    /// Union-find parent of a group (absent: its own set's representative).
    up: HashMap<&'a str, &'a str>,
    /// A representative's set size and the tree root it stands for.
    sets: HashMap<&'a str, (usize, &'a str)>,
}

impl<'a> Trees<'a> {
    fn find(&mut self, g: &'a str) -> &'a str {
        let mut top = g;
        while let Some(&next) = self.up.get(top) {
            top = next;
        }
        // Path compression: every group walked now points at the top.
        let mut at = g;
        while let Some(&next) = self.up.get(at) {
            self.up.insert(at, top);
            at = next;
        }
        top
    }

    /// The root of the tree holding `g` (`g` itself when it is in none).
    fn root(&mut self, g: &'a str) -> &'a str {
        let rep = self.find(g);
        self.sets.get(rep).map_or(rep, |&(_, root)| root)
    }

    /// Puts the tree of `child` (a root) under `up`: the joined tree's root is `up`'s.
    fn join(&mut self, child: &'a str, up: &'a str) {
        let (a, b) = (self.find(child), self.find(up));
        let root = self.sets.get(b).map_or(b, |&(_, r)| r);
        let size = |t: &Self, r: &str| t.sets.get(r).map_or(1, |&(n, _)| n);
        let (na, nb) = (size(self, a), size(self, b));
        // Union by size keeps the sets shallow.
        let (small, big) = if na <= nb { (a, b) } else { (b, a) };
        self.up.insert(small, big);
        self.sets.remove(small);
        self.sets.insert(big, (na + nb, root));
    }
}
