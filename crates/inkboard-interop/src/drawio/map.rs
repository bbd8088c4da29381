//! One draw.io page onto one inkboard page. The cells form a tree by their
//! `parent`: the root, its layers (flattened in order), then vertices and edges,
//! where a child's coordinates are relative to its parent vertex; the tree is
//! walked in document order, which is draw.io's z-order, so parents come before
//! their children. Three passes: plan what each cell becomes (absolute bounds,
//! text, style, losses), hand out ids, then emit objects, binding connector ends
//! and group members through the ids.

use std::collections::HashMap;

use inkboard_core::{
    Arrow, Connector, Dash, End, Geom, Group, Kind, ObjectId, Point, Rect, Shape, Style, VAlign,
};

use super::cells::Cell;
use super::label::{html_to_rich, html_to_text};
use super::style::{self, CellStyle, VertexKind};
use inkboard_core::limits::MAX_WAYPOINTS;

use crate::build::{data_url, placeholder, turned, BoardBuilder};
use crate::colour::{self, Paint};
use crate::lost::LostKind;

/// What a cell becomes.
enum Plan {
    /// An object ready to place; `main` is false for a companion (an image's
    /// label, a group's title), which is not what connectors attach to.
    Ready { kind: Kind, main: bool },
    /// A connector, built once every id is known.
    Edge,
    /// A group of the cell's children.
    Group,
    /// A lifeline's dashed line, from the cell's head (its main object) down to
    /// this point, in this colour.
    Lifeline(Point, Option<inkboard_core::Color>),
}

/// Where a visited cell sits: its parent and the origin its coordinates are
/// relative to.
#[derive(Clone, Copy)]
struct Visit {
    cell: usize,
    origin: (f64, f64),
    /// The parent's absolute bounds when the parent is a vertex (for relative
    /// geometry).
    parent_rect: Option<Rect>,
}

/// Maps the cells of one page onto the builder's current page.
pub(crate) fn page(b: &mut BoardBuilder, cells: &[Cell]) {
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(cells.len());
    for (i, c) in cells.iter().enumerate() {
        index.entry(c.id.as_str()).or_insert(i);
    }
    let mut children = vec![Vec::new(); cells.len()];
    let mut roots = Vec::new();
    for (i, c) in cells.iter().enumerate() {
        match c.parent.as_deref().and_then(|p| index.get(p)) {
            Some(&p) if p != i => children[p].push(i),
            _ => roots.push(i),
        }
    }
    let visits = walk(b, cells, &children, &roots);

    // Pass 1: what each cell becomes. A table's rows and cells become its text
    // (`table.rs`): `in_table` maps each to its table.
    let mut in_table: HashMap<usize, usize> = HashMap::new();
    let mut plans: Vec<(usize, Plan)> = Vec::with_capacity(visits.len());
    let mut edge_texts: HashMap<usize, Vec<(f64, String)>> = HashMap::new();
    let mut origins: HashMap<usize, (f64, f64)> = HashMap::new();
    // Each lifeline cell's line, across the page: an edge to it ends on the line.
    let mut lifeline_x: HashMap<usize, f64> = HashMap::new();
    for v in &visits {
        let cell = &cells[v.cell];
        if in_table.contains_key(&v.cell) {
            continue;
        }
        if cell.vertex && !cell.edge && super::table::is_table(&CellStyle::parse(&cell.style)) {
            let text = super::table::read(cells, &children, v.cell, &mut in_table);
            plans.push((v.cell, table_plan(b, cell, v, text)));
            continue;
        }
        if cell.vertex && !cell.edge && super::table::is_uml_class(cells, &children, v.cell) {
            let text = super::table::read_class(cells, &children, v.cell, &mut in_table);
            plans.push((v.cell, table_plan(b, cell, v, text)));
            continue;
        }
        let parent = cell.parent.as_deref().and_then(|p| index.get(p)).copied();
        let parent_is_edge = parent.is_some_and(|p| cells[p].edge);
        if cell.vertex && parent_is_edge {
            let (text, _) = label(b, cell, &CellStyle::parse(&cell.style));
            if !text.is_empty() {
                // Where along the edge it sits, from -1 (source) to 1 (target).
                let g = &cell.geometry;
                let along = if g.relative && g.x.is_finite() {
                    g.x
                } else {
                    0.0
                };
                edge_texts
                    .entry(parent.unwrap_or(0))
                    .or_default()
                    .push((along, text));
            }
        } else if cell.edge {
            if !cell.visible {
                b.losses.add(LostKind::Hidden, &example(cell));
            }
            if let Some(ink) = polyline(b, cell, v.origin) {
                plans.push((
                    v.cell,
                    Plan::Ready {
                        kind: ink,
                        main: true,
                    },
                ));
                continue;
            }
            origins.insert(v.cell, v.origin);
            plans.push((v.cell, Plan::Edge));
        } else if cell.vertex {
            if super::lifeline::is_lifeline(&CellStyle::parse(&cell.style)) {
                let r = bounds(b, cell, v);
                lifeline_x.insert(v.cell, r.x + r.w / 2.0);
            }
            vertex(b, cell, v, &mut plans);
        } else {
            // The root and the layers hold the drawing; a hidden layer's content
            // is imported all the same.
            if !cell.visible {
                b.losses.add(LostKind::Hidden, &example(cell));
            }
            // A layer's name has no place on a page; a label on a cell that is
            // neither a layer nor drawn is reported.
            let layer = parent.is_none_or(|p| cells[p].parent.is_none());
            if !layer && !cell.label.is_empty() {
                b.losses.add(LostKind::Skipped, &example(cell));
            }
        }
    }

    // Pass 2: ids.
    let mut main_id: Vec<Option<ObjectId>> = vec![None; cells.len()];
    let mut companions: HashMap<usize, Vec<ObjectId>> = HashMap::new();
    let mut ids = Vec::with_capacity(plans.len());
    for (cell, plan) in &plans {
        let id = b.id(match plan {
            Plan::Ready { kind, .. } => kind.id_kind(),
            Plan::Edge | Plan::Lifeline(..) => inkboard_core::IdKind::Connector,
            Plan::Group => inkboard_core::IdKind::Group,
        });
        match plan {
            Plan::Ready { main: false, .. } => {
                companions.entry(*cell).or_default().push(id.clone())
            }
            _ => main_id[*cell] = main_id[*cell].clone().or(Some(id.clone())),
        }
        ids.push(id);
    }

    // An edge to a table's row or cell attaches to the table.
    for (&part, &table) in &in_table {
        main_id[part] = main_id[table].clone();
    }

    // A group that ends up with no members (all its children were edge labels
    // or empty groups) is not made, and nothing may attach to it. Children come
    // after their parents, so going backwards settles nested groups first.
    let mut empty_groups = std::collections::HashSet::new();
    for (cell, plan) in plans.iter().rev() {
        if matches!(plan, Plan::Group)
            && !companions.contains_key(cell)
            && !children[*cell]
                .iter()
                .any(|c| main_id[*c].is_some() || companions.contains_key(c))
        {
            main_id[*cell] = None;
            empty_groups.insert(*cell);
        }
    }

    // Pass 3: objects, in z-order.
    for ((cell, plan), id) in plans.into_iter().zip(ids) {
        let kind = match plan {
            Plan::Ready { kind, .. } => kind,
            Plan::Edge => {
                let texts = edge_texts.remove(&cell).unwrap_or_default();
                let origin = origins.get(&cell).copied().unwrap_or((0.0, 0.0));
                let ends = Ends {
                    index: &index,
                    main_id: &main_id,
                    lifeline_x: &lifeline_x,
                };
                Kind::Connector(edge(b, cells, cell, origin, texts, &ends))
            }
            Plan::Group => {
                let mut members: Vec<ObjectId> = companions.get(&cell).cloned().unwrap_or_default();
                for &child in &children[cell] {
                    members.extend(main_id[child].iter().cloned());
                    members.extend(companions.get(&child).into_iter().flatten().cloned());
                }
                if empty_groups.contains(&cell) {
                    continue;
                }
                Kind::Group(Group { members })
            }
            Plan::Lifeline(foot, stroke) => match &main_id[cell] {
                Some(head) => super::lifeline::line(head.clone(), foot, stroke),
                None => continue,
            },
        };
        b.push(id, kind);
        // draw.io's lock (Arrange > Lock): the cell cannot be selected or moved.
        if CellStyle::parse(&cells[cell].style).flag("locked") {
            b.lock_last();
        }
    }
}

/// The cells in document order, parents before children, each with the origin
/// its coordinates are relative to. Iterative, so a deep parent chain cannot
/// overflow the stack; a cell in a parent cycle is visited once, from the root.
fn walk(
    b: &mut BoardBuilder,
    cells: &[Cell],
    children: &[Vec<usize>],
    roots: &[usize],
) -> Vec<Visit> {
    let mut visited = vec![false; cells.len()];
    let mut visits = Vec::with_capacity(cells.len());
    let mut stack: Vec<Visit> = roots
        .iter()
        .rev()
        .map(|&cell| Visit {
            cell,
            origin: (0.0, 0.0),
            parent_rect: None,
        })
        .collect();
    let mut next_orphan = 0;
    loop {
        let Some(v) = stack.pop() else {
            // Cells only reachable through a cycle of parents start from the origin.
            while next_orphan < cells.len() && visited[next_orphan] {
                next_orphan += 1;
            }
            if next_orphan == cells.len() {
                break;
            }
            stack.push(Visit {
                cell: next_orphan,
                origin: (0.0, 0.0),
                parent_rect: None,
            });
            continue;
        };
        if std::mem::replace(&mut visited[v.cell], true) {
            continue;
        }
        let cell = &cells[v.cell];
        let (origin, parent_rect) = if cell.vertex && !cell.edge {
            let r = bounds(b, cell, &v);
            ((r.x, r.y), Some(r))
        } else {
            (v.origin, None)
        };
        visits.push(v);
        for &child in children[v.cell].iter().rev() {
            stack.push(Visit {
                cell: child,
                origin,
                parent_rect,
            });
        }
    }
    visits
}

/// The absolute bounds of a vertex.
fn bounds(b: &mut BoardBuilder, cell: &Cell, v: &Visit) -> Rect {
    let g = &cell.geometry;
    let (ox, oy) = g.offset.unwrap_or((0.0, 0.0));
    let (x, y) = match v.parent_rect {
        Some(p) if g.relative => (p.x + g.x * p.w + ox, p.y + g.y * p.h + oy),
        _ => (v.origin.0 + g.x, v.origin.1 + g.y),
    };
    b.rect(x, y, g.w, g.h)
}

/// The icon inkboard wrote (`inkboardIcon`, a key draw.io keeps as it keeps
/// every style key); a name not spelled as icons are is not one.
fn icon_of(st: &CellStyle) -> Option<inkboard_core::IconName> {
    st.get("inkboardIcon")
        .and_then(|n| inkboard_core::IconName::parse(n).ok())
}

/// Plans a draw.io table: a table shape of its bounds and colours, whose text
/// `table.rs` read from its rows.
fn table_plan(b: &mut BoardBuilder, cell: &Cell, v: &Visit, text: String) -> Plan {
    let st = CellStyle::parse(&cell.style);
    let rotation = st
        .num("rotation")
        .and_then(inkboard_core::Rotation::degrees)
        .unwrap_or_default();
    let kind = Kind::Shape(Shape {
        geom: Geom::Table,
        bounds: bounds(b, cell, v),
        text,
        style: shape_style(b, &st),
        sizing: inkboard_core::Sizing::Fixed,
        rotation,
        icon: icon_of(&st),
    });
    Plan::Ready { kind, main: true }
}

/// Plans a vertex: a shape, frame, image (with its label beside it) or group.
fn vertex(b: &mut BoardBuilder, cell: &Cell, v: &Visit, plans: &mut Vec<(usize, Plan)>) {
    let st = CellStyle::parse(&cell.style);
    let rect = bounds(b, cell, v);
    let kind = style::vertex_kind(&st);
    let (text, rich) = label(b, cell, &st);
    common_losses(b, cell, &st, &kind);
    let mut style = shape_style(b, &st);
    if kind == VertexKind::Shape(Geom::EndState) {
        // Its fill colour is the disc's, which inkboard draws in the outline's.
        style.fill = None;
    } else if st.get("shape") == Some("startState") && style.fill.is_none() {
        style.fill = Some(inkboard_core::Color::Named(inkboard_core::Palette::Black));
    }
    // draw.io's `rotation` is degrees clockwise about the centre, as inkboard's.
    let rotation = st
        .num("rotation")
        .and_then(inkboard_core::Rotation::degrees)
        .unwrap_or_default();
    let icon = icon_of(&st);
    // `text` is the label: a frame's title keeps it plain, other shapes take it as
    // rich text.
    let shape = |geom: Geom, text: String, style: Style| {
        Kind::Shape(Shape {
            geom,
            bounds: rect,
            text: if geom == Geom::Frame {
                text
            } else {
                rich.clone()
            },
            style,
            sizing: inkboard_core::Sizing::Fixed,
            rotation,
            icon: icon.clone(),
        })
    };
    let ready = |kind: Kind| Plan::Ready { kind, main: true };
    if super::lifeline::is_lifeline(&st) {
        let (head, text, foot) = super::lifeline::read(&st, rect, rich);
        let stroke = style.stroke;
        let kind = Kind::Shape(Shape {
            geom: Geom::Rect,
            bounds: head,
            text,
            style,
            sizing: inkboard_core::Sizing::Fixed,
            rotation,
            icon,
        });
        plans.push((v.cell, ready(kind)));
        plans.push((v.cell, Plan::Lifeline(b.point(foot.x, foot.y), stroke)));
        return;
    }
    match kind {
        VertexKind::Shape(geom) => plans.push((v.cell, ready(shape(geom, text, style)))),
        VertexKind::Frame => plans.push((v.cell, ready(shape(Geom::Frame, text, style)))),
        VertexKind::Stencil(name) => {
            b.losses.add(LostKind::Stencil, &name);
            plans.push((v.cell, ready(shape(Geom::Rect, text, style))));
        }
        VertexKind::Unknown(name) => {
            b.losses.add(LostKind::UnknownShape, &name);
            plans.push((v.cell, ready(shape(Geom::Rect, text, style))));
        }
        VertexKind::Group => {
            if !text.is_empty() {
                let title = shape(Geom::Text, text, style);
                plans.push((
                    v.cell,
                    Plan::Ready {
                        kind: title,
                        main: false,
                    },
                ));
            }
            plans.push((v.cell, Plan::Group));
        }
        VertexKind::Image => {
            let source = st.get("image").unwrap_or("");
            let image = match data_url(source) {
                Some((_, bytes)) => b.image(bytes, rect, &text, &example(cell)),
                None => {
                    b.losses.add(LostKind::LinkedImage, source);
                    placeholder(rect, if text.is_empty() { source } else { &text })
                }
            };
            let image = turned(image, rotation);
            let was_image = matches!(image, Kind::Image(_));
            plans.push((v.cell, ready(image)));
            if was_image && !text.is_empty() {
                // draw.io draws an image's label below it by default.
                let lines = text.lines().count().max(1) as f64;
                let below = st.get("verticalLabelPosition") != Some("middle")
                    && st.get("verticalLabelPosition") != Some("top");
                let bounds = if below {
                    Rect::new(
                        rect.x - rect.w / 2.0,
                        rect.bottom(),
                        rect.w * 2.0,
                        20.0 * lines,
                    )
                } else {
                    rect
                };
                let caption = Kind::Shape(Shape {
                    geom: Geom::Text,
                    bounds,
                    text,
                    style: Style {
                        text_color: style.text_color,
                        font_size: style.font_size,
                        ..Style::default()
                    },
                    sizing: inkboard_core::Sizing::Fixed,
                    rotation: inkboard_core::Rotation::NONE,
                    icon: None,
                });
                plans.push((
                    v.cell,
                    Plan::Ready {
                        kind: caption,
                        main: false,
                    },
                ));
            }
        }
    }
}

/// Losses any vertex may have: rotation (a group's, or a direction), formatting, links, custom data, hiding.
fn common_losses(b: &mut BoardBuilder, cell: &Cell, st: &CellStyle, kind: &VertexKind) {
    let name = example(cell);
    // Shapes and images keep their rotation; a group's has nothing to turn.
    let rotated = matches!(kind, VertexKind::Group)
        && st
            .num("rotation")
            .is_some_and(|r| r.rem_euclid(360.0).abs() > 1e-9);
    // draw.io's shapes face east unless told; inkboard's triangle points up.
    let facing = st.get("direction").unwrap_or("east");
    let turned = match kind {
        VertexKind::Shape(Geom::Triangle) => facing != "north",
        VertexKind::Shape(_) | VertexKind::Frame => facing != "east",
        _ => false,
    };
    if rotated || turned {
        b.losses.add(LostKind::Rotation, &name);
    }
    if cell.link.is_some() {
        b.losses.add(LostKind::Link, &name);
    }
    if !cell.custom.is_empty() {
        b.losses.add(LostKind::CustomData, &custom_names(cell));
    }
    if cell.label_icon(st) {
        b.losses.add(LostKind::Icon, st.get("image").unwrap_or(""));
    }
    if !cell.visible {
        b.losses.add(LostKind::Hidden, &name);
    }
}

/// How many bytes filling a label's placeholders may add to it: four times the
/// longest text a shape holds (a character is at most four bytes), more than any
/// label the board could keep needs unless its properties are mostly HTML tags.
const MAX_FILLED: usize = 4 * inkboard_core::limits::MAX_TEXT_CHARS;

/// The names of a cell's custom properties, for the report.
fn custom_names(cell: &Cell) -> String {
    cell.custom
        .iter()
        .map(|(k, _)| k.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Cell {
    /// True for draw.io's `label` shape with an icon (`image=`): a box whose
    /// picture at its left the board cannot draw.
    fn label_icon(&self, st: &CellStyle) -> bool {
        (st.has_name("label") || st.get("shape") == Some("label"))
            && st.get("image").is_some_and(|i| !i.is_empty())
    }

    /// The label with `%name%` placeholders filled from the cell's properties,
    /// as draw.io shows it when placeholders are on. Filling stops once it has
    /// added [`MAX_FILLED`] bytes, the rest of the label kept as written: a
    /// label of many placeholders naming one long property would otherwise grow
    /// to their product (a 2.5 MB file, terabytes).
    pub(super) fn shown_label(&self, st: &CellStyle) -> String {
        if !(self.placeholders || st.flag("placeholders")) || !self.label.contains('%') {
            return self.label.clone();
        }
        let mut out = String::with_capacity(self.label.len());
        let mut rest = self.label.as_str();
        while let Some(start) = rest.find('%') {
            if out.len() > self.label.len() + MAX_FILLED {
                break;
            }
            out.push_str(&rest[..start]);
            let after = &rest[start + 1..];
            let value = after.find('%').and_then(|end| {
                let key = &after[..end];
                let value = self
                    .custom
                    .iter()
                    .find(|(k, _)| k == key)
                    .map(|(_, v)| v.as_str());
                value
                    .or((key == "id").then_some(self.id.as_str()))
                    .map(|v| (v, end))
            });
            match value {
                Some((v, end)) => {
                    out.push_str(v);
                    rest = &after[end + 1..];
                }
                None => {
                    out.push('%');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// A cell's text: placeholders filled, the HTML of `html=1` labels made plain; and
/// the same as a shape's rich text (bold, italic, struck, code, links and lists
/// kept from the HTML, the rest escaped). Formatting that is not kept is reported.
fn label(b: &mut BoardBuilder, cell: &Cell, st: &CellStyle) -> (String, String) {
    let shown = cell.shown_label(st);
    let (text, formatted, rich) = if st.flag("html") {
        let (text, formatted) = html_to_text(&shown);
        (text, formatted, html_to_rich(&shown))
    } else {
        (shown, false, None)
    };
    let kept_all = rich.as_ref().is_some_and(|(_, complete)| *complete);
    let styled = st.num("fontStyle").is_some_and(|s| s != 0.0);
    if !text.is_empty() && ((formatted && !kept_all) || styled) {
        b.losses.add(LostKind::TextStyle, &text);
    }
    let rich = rich.map_or_else(|| inkboard_core::rich::escape(&text), |(r, _)| r);
    (text, rich)
}

/// What names a cell in the report: its text, or its id.
fn example(cell: &Cell) -> String {
    let (text, _) = html_to_text(&cell.shown_label(&CellStyle::parse(&cell.style)));
    if text.is_empty() {
        format!("id {}", cell.id.trim_start_matches('\u{0}'))
    } else {
        text
    }
}

/// A colour from a style key, reported when unreadable.
fn paint(b: &mut BoardBuilder, st: &CellStyle, key: &str) -> Option<inkboard_core::Color> {
    let value = st.get(key)?;
    let p = colour::parse(value);
    if p == Paint::Unknown {
        b.losses.add(LostKind::Colour, value);
    }
    p.color()
}

/// The style of a vertex.
fn shape_style(b: &mut BoardBuilder, st: &CellStyle) -> Style {
    let mut style = line_style(b, st);
    style.fill = paint(b, st, "fillColor");
    style.align = match st.get("align") {
        Some("left") => Some(inkboard_core::Align::Left),
        Some("right") => Some(inkboard_core::Align::Right),
        Some("center") => Some(inkboard_core::Align::Center),
        _ => None,
    };
    style.valign = match st.get("verticalAlign") {
        Some("top") => Some(VAlign::Top),
        Some("bottom") => Some(VAlign::Bottom),
        Some("middle") => Some(VAlign::Middle),
        _ => None,
    };
    style
}

/// The style an edge and a vertex share: stroke, dash, text, opacity.
fn line_style(b: &mut BoardBuilder, st: &CellStyle) -> Style {
    let dash = st.flag("dashed").then(|| {
        // draw.io's dotted preset is a dash pattern of 1-unit dashes.
        match st.get("dashPattern") {
            Some(p) if p.split_whitespace().next() == Some("1") => Dash::Dotted,
            _ => Dash::Dashed,
        }
    });
    Style {
        stroke: paint(b, st, "strokeColor"),
        stroke_width: st.num("strokeWidth").map(|w| w.clamp(0.0, 1000.0)),
        dash,
        font_size: st.num("fontSize").map(|s| s.clamp(0.0, 1000.0)),
        font: st.get("fontFamily").and_then(crate::fonts::from_css),
        text_color: paint(b, st, "fontColor"),
        opacity: st
            .num("opacity")
            .filter(|o| *o < 100.0)
            .map(|o| (o / 100.0).clamp(0.0, 1.0)),
        ..Style::default()
    }
}

/// An ink stroke for a free polyline: an edge bound to nothing, with
/// waypoints, no arrowheads and no label (how inkboard writes ink, and how a
/// line drawn point by point looks). It keeps every point, where a connector
/// would lose the bends; the change of kind is reported.
fn polyline(b: &mut BoardBuilder, cell: &Cell, origin: (f64, f64)) -> Option<Kind> {
    let st = CellStyle::parse(&cell.style);
    let g = &cell.geometry;
    let free = cell.source.is_none() && cell.target.is_none();
    let headless =
        st.get("startArrow").unwrap_or("none") == "none" && st.get("endArrow") == Some("none");
    if !free || !headless || g.points.is_empty() || !cell.label.is_empty() {
        return None;
    }
    let mut pts: Vec<(f64, f64)> = Vec::with_capacity(g.points.len() + 2);
    pts.extend(g.source_point.filter(|p| Some(p) != g.points.first()));
    pts.extend(g.points.iter().copied());
    pts.extend(g.target_point.filter(|p| Some(p) != g.points.last()));
    let name = example(cell);
    // A line inkboard wrote for ink is ink again: nothing changed kind.
    if st.get("inkboard") != Some("ink") {
        b.losses.add(LostKind::LineAsInk, &name);
    }
    let points = b.ink_points(pts, origin, &name);
    let style = line_style(b, &st);
    Some(Kind::Ink(inkboard_core::Ink {
        points,
        style: Style {
            stroke: style.stroke,
            stroke_width: style.stroke_width,
            dash: style.dash,
            opacity: style.opacity,
            ..Style::default()
        },
    }))
}

/// How near an end of its edge (-1 or 1) a child label must sit to be that
/// end's label (draw.io puts an end label it makes at exactly -1 or 1).
const AT_END: f64 = 0.75;

/// Builds the connector for an edge cell; `labels` are its child labels, each
/// with where it sits along it (-1 to 1): those near an end become that end's
/// label, the others join its text.
fn edge(
    b: &mut BoardBuilder,
    cells: &[Cell],
    cell: usize,
    origin: (f64, f64),
    labels: Vec<(f64, String)>,
    ends: &Ends<'_>,
) -> Connector {
    let c = &cells[cell];
    let st = CellStyle::parse(&c.style);
    let (text, _) = label(b, c, &st);
    // An edge's own label sits at x along it, from -1 (source) to 1 (target).
    let g = &c.geometry;
    let label_at = (!text.is_empty() && g.x != 0.0 && g.x.is_finite())
        .then(|| ((g.x + 1.0) / 2.0).clamp(0.0, 1.0));
    let mut at_ends = (Vec::new(), Vec::new());
    let mut middle = Vec::new();
    for (along, t) in labels {
        if along <= -AT_END {
            at_ends.0.push(t);
        } else if along >= AT_END {
            at_ends.1.push(t);
        } else {
            middle.push(t);
        }
    }
    let text = std::iter::once(text)
        .chain(middle)
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    let at = |p: (f64, f64)| (origin.0 + p.0, origin.1 + p.1);
    let source_point = g.source_point.map(at).or(g.points.first().copied().map(at));
    let target_point = g.target_point.map(at).or(g.points.last().copied().map(at));
    let name = example(c);
    let from = end(
        b,
        cells,
        c.source.as_deref(),
        (source_point, target_point),
        origin,
        ends,
        &name,
    );
    let to = end(
        b,
        cells,
        c.target.as_deref(),
        (target_point, source_point),
        origin,
        ends,
        &name,
    );
    // Waypoints are kept, as many as a connector holds (the rest reported).
    if g.points.len() > MAX_WAYPOINTS {
        b.losses.add(LostKind::Waypoints, &name);
    }
    let waypoints: Vec<Point> = g
        .points
        .iter()
        .take(MAX_WAYPOINTS)
        .map(|&p| {
            let (x, y) = at(p);
            b.point(x, y)
        })
        .collect();
    if let Some(shape) = st.get("shape").filter(|s| *s != "connector") {
        b.losses.add(LostKind::LineShape, shape);
    }
    let (start_arrow, odd_start) = style::arrow(st.get("startArrow"), Arrow::None);
    let (end_arrow, odd_end) = style::arrow(st.get("endArrow"), Arrow::Arrow);
    for odd in [odd_start, odd_end].into_iter().flatten() {
        b.losses.add(LostKind::ArrowHead, &odd);
    }
    let start_arrow = style::dot_sized(start_arrow, st.get("startSize"));
    let end_arrow = style::dot_sized(end_arrow, st.get("endSize"));
    let start_arrow = style::hollowed(start_arrow, st.get("startFill"));
    let end_arrow = style::hollowed(end_arrow, st.get("endFill"));
    if c.link.is_some() {
        b.losses.add(LostKind::Link, &name);
    }
    if !c.custom.is_empty() {
        b.losses.add(LostKind::CustomData, &custom_names(c));
    }
    let mut c = Connector {
        from,
        to,
        text,
        route: style::route(&st),
        start_arrow,
        end_arrow,
        style: line_style(b, &st),
        by_hand: None,
    };
    c.set_waypoints(waypoints);
    c.set_label_at(label_at);
    c.set_end_label(true, at_ends.0.join("\n"));
    c.set_end_label(false, at_ends.1.join("\n"));
    // Exit and entry points at a side's middle pin that side (on a bound end).
    if c.from.object().is_some() {
        c.set_side(true, style::side(&st, "exit"));
    }
    if c.to.object().is_some() {
        c.set_side(false, style::side(&st, "entry"));
    }
    c
}

/// A point of a cell's geometry, as draw.io writes it.
type Spot = (f64, f64);

/// What edge ends are attached to: the cells by id, the object each became, and
/// the lifelines' lines.
struct Ends<'a> {
    index: &'a HashMap<&'a str, usize>,
    main_id: &'a [Option<ObjectId>],
    lifeline_x: &'a HashMap<usize, f64>,
}

/// One end of an edge: the object it is attached to, or a free point (its own,
/// or the other end's, or the origin), with the reason reported when it was
/// attached to something the board cannot attach to. An end attached to a
/// lifeline at a point is that point's height on the line, as a message is.
fn end(
    b: &mut BoardBuilder,
    cells: &[Cell],
    reference: Option<&str>,
    (own, other): (Option<Spot>, Option<Spot>),
    origin: (f64, f64),
    ends: &Ends<'_>,
    name: &str,
) -> End {
    let Ends { index, main_id, .. } = ends;
    let lifeline = reference
        .and_then(|r| index.get(r))
        .and_then(|i| ends.lifeline_x.get(i));
    if let (Some(&x), Some((_, y))) = (lifeline, own) {
        return End::Point(b.point(x, y));
    }
    let point = own.or(other);
    if let Some(reference) = reference {
        match index.get(reference) {
            Some(&i) if main_id[i].is_some() && !cells[i].edge => {
                return End::Object(main_id[i].clone().expect("checked"));
            }
            Some(&i) if cells[i].edge || cells[i].vertex => {
                b.losses.add(LostKind::EndOnConnector, name)
            }
            _ => b.losses.add(LostKind::MissingEnd, name),
        }
    }
    let (x, y) = point.unwrap_or(origin);
    End::Point(Point {
        x: b.coord(x),
        y: b.coord(y),
    })
}
