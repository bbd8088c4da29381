//! A board as a draw.io file: plain (uncompressed) `<mxfile>` XML with one
//! `<diagram>` per page, which draw.io opens as it opens its own. Each object is
//! one cell whose id is the object's id, so connectors name their ends by them
//! (`source`, `target`). Shapes are vertices with the style draw.io gives that
//! outline, frames are swimlane containers, tables draw.io's own tables
//! (`table.rs`), a sequence diagram's head and lifeline one `umlLifeline` cell
//! (`lifeline.rs`), images carry their bytes as a data
//! URL in their style, groups are draw.io group cells holding their members (at
//! coordinates relative to the group, as draw.io keeps them), and ink is a
//! polyline edge through its points, bound to nothing and without arrowheads:
//! the one draw.io object that keeps every point editable (`map.rs` reads such
//! an edge back as ink; the style's `inkboard=ink`, which draw.io keeps as it
//! keeps every style key, tells it that nothing changed kind).
//!
//! Limitations: draw.io has no partly transparent colours (the alpha is
//! dropped, a fully transparent one is `none`), frames other than swimlanes
//! (`lanes.rs`) do not hold the objects over them (draw.io would move them with
//! the frame only if they were its children, which would change their z-order),
//! and text is plain, never HTML.

use std::collections::HashSet;

use base64::Engine as _;
use inkboard_core::{
    Align, Arrow, Board, Dash, End, Geom, Kind, Object, ObjectId, Page, Point, Rect, Route, Style,
    VAlign,
};

use crate::out::{end_points, hex, num, parents};

/// The board as draw.io XML, every page.
pub fn to_drawio(board: &Board) -> String {
    let mut x = String::new();
    x.push_str("<mxfile host=\"inkboard\" agent=\"inkboard\" version=\"24.0.0\">\n");
    for (i, page) in board.pages().iter().enumerate() {
        x.push_str(&format!(
            "  <diagram id=\"page-{}\" name=\"{}\">\n",
            i + 1,
            escape(&page.name)
        ));
        x.push_str("    <mxGraphModel grid=\"1\" gridSize=\"10\" guides=\"1\" tooltips=\"1\" connect=\"1\" arrows=\"1\" fold=\"1\" page=\"0\" pageScale=\"1\" math=\"0\" shadow=\"0\">\n      <root>\n        <mxCell id=\"0\" />\n        <mxCell id=\"1\" parent=\"0\" />\n");
        write_page(board, page, &mut x);
        x.push_str("      </root>\n    </mxGraphModel>\n  </diagram>\n");
    }
    x.push_str("</mxfile>\n");
    x
}

/// The cells of one page, in z-order, each group just before its first member
/// so that draw.io (and the importer) find the parent before the children.
fn write_page(board: &Board, page: &Page, x: &mut String) {
    let mut parent = parents(page);
    // Swimlanes go in their pools, and what is in a lane in the lane.
    let lanes = super::lanes::lanes(board, page, &parent);
    parent.extend(lanes.parent);
    let rows = lanes.rows;
    let lines = super::lifeline::Lifelines::of(board, page);
    let mut written: HashSet<ObjectId> = HashSet::new();
    for o in &page.objects {
        // The groups around this object first, outermost first.
        let mut chain = crate::out::ancestors(&parent, &o.id);
        chain.reverse();
        for g in chain {
            if written.insert(g.clone()) {
                if let Some(group) = page.objects.iter().find(|p| p.id == g) {
                    cell(board, group, &parent, (&rows, &lines), x);
                }
            }
        }
        if written.insert(o.id.clone()) {
            cell(board, o, &parent, (&rows, &lines), x);
        }
    }
}

/// The origin of the cell that holds `id`: the top-left of its group, or the
/// page's origin.
fn origin(
    board: &Board,
    parent: &std::collections::HashMap<ObjectId, ObjectId>,
    id: &ObjectId,
) -> (String, (f64, f64)) {
    match parent.get(id) {
        Some(g) => {
            let r = board.bounds(g).unwrap_or(Rect::new(0.0, 0.0, 0.0, 0.0));
            (g.to_string(), (r.x, r.y))
        }
        None => ("1".to_string(), (0.0, 0.0)),
    }
}

fn cell(
    board: &Board,
    o: &Object,
    parent: &std::collections::HashMap<ObjectId, ObjectId>,
    (rows, lines): (&HashSet<ObjectId>, &super::lifeline::Lifelines),
    x: &mut String,
) {
    // A lifeline is drawn by its head's cell.
    if lines.is_line(&o.id) {
        return;
    }
    let (up, (ox, oy)) = origin(board, parent, &o.id);
    let id = escape(o.id.as_str());
    let geometry = |r: Rect| {
        format!(
            "<mxGeometry x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" as=\"geometry\" />",
            num(r.x - ox),
            num(r.y - oy),
            num(r.w),
            num(r.h)
        )
    };
    let vertex = |value: &str, style: String, r: Rect, x: &mut String| {
        x.push_str(&format!(
            "        <mxCell id=\"{id}\" value=\"{}\" style=\"{}\" vertex=\"1\" parent=\"{}\">\n          {}\n        </mxCell>\n",
            escape(value),
            escape(&style),
            escape(&up),
            geometry(r)
        ));
    };
    match &o.kind {
        Kind::Shape(s) => {
            let shown = o.shown_text().unwrap_or_default();
            let lifeline = lines.head(&o.id, &shown, s.bounds);
            let mut st = match &lifeline {
                Some((style, _, _)) => style.clone(),
                None => geom_style(s.geom).to_string(),
            };
            // A row of lanes (and its pool) has its title down its left side.
            if rows.contains(&o.id) {
                st.push_str("horizontal=0;");
            }
            text_style(&s.style, &mut st);
            if s.geom == Geom::EndState {
                // draw.io fills an end state's disc with its fill colour, which
                // inkboard draws in the outline's: the ring's own fill is lost.
                let disc = s.style.stroke.and_then(hex);
                st.push_str(&format!(
                    "fillColor={};",
                    disc.as_deref().unwrap_or("#000000")
                ));
            } else {
                fill_style(&s.style, &mut st);
            }
            line_style(&s.style, &mut st);
            rotation_style(o, &mut st);
            lock_style(o, &mut st);
            // draw.io has no icon set of inkboard's: the name rides in a style
            // key of inkboard's own, which draw.io keeps, so a round trip keeps it.
            if let Some(icon) = &s.icon {
                st.push_str(&format!("inkboardIcon={icon};"));
            }
            if let Some((_, value, bounds)) = lifeline {
                vertex(&value, st, bounds, x);
                return;
            }
            if s.geom == Geom::Table {
                let r = s.bounds;
                let at = Rect::new(r.x - ox, r.y - oy, r.w, r.h);
                super::table::write(o.id.as_str(), &up, &s.text, &st, at, x);
                return;
            }
            // Rich text is a label of HTML; text with no marks is written as shown.
            match (s.geom != Geom::Frame)
                .then(|| super::label::rich_html(&s.text))
                .flatten()
            {
                Some(html) => {
                    // Every outline but a frame's already wraps.
                    st.push_str("html=1;");
                    vertex(&html, st, s.bounds, x);
                }
                None => vertex(&o.shown_text().unwrap_or_default(), st, s.bounds, x),
            }
        }
        Kind::Image(i) => {
            let data = base64::engine::general_purpose::STANDARD.encode(&i.data);
            // draw.io writes data URLs in styles without `;base64`, since `;`
            // separates style entries.
            let mut st = format!(
                "shape=image;imageAspect=0;aspect=fixed;image=data:{},{data};",
                i.format.mime()
            );
            line_style(&i.style, &mut st);
            rotation_style(o, &mut st);
            lock_style(o, &mut st);
            vertex("", st, i.bounds, x);
        }
        Kind::Group(_) => {
            let r = board.bounds(&o.id).unwrap_or(Rect::new(0.0, 0.0, 0.0, 0.0));
            let mut st = "group;".to_string();
            lock_style(o, &mut st);
            vertex("", st, r, x);
        }
        Kind::Connector(c) => {
            let mut st = match c.route {
                Route::Orthogonal => "edgeStyle=orthogonalEdgeStyle;rounded=0;",
                Route::Curved => "curved=1;",
                Route::Straight => "rounded=0;",
            }
            .to_string();
            st.push_str(&format!(
                "startArrow={};endArrow={};",
                arrow(c.start_arrow),
                arrow(c.end_arrow)
            ));
            // UML's hollow ends are draw.io's block and thin diamond, unfilled.
            for (a, key) in [(c.start_arrow, "startFill"), (c.end_arrow, "endFill")] {
                if matches!(a, Arrow::HollowTriangle | Arrow::HollowDiamond) {
                    st.push_str(&format!("{key}=0;"));
                }
            }
            // A dot is draw.io's oval at a small size (read back as a dot).
            for (a, key) in [(c.start_arrow, "startSize"), (c.end_arrow, "endSize")] {
                if a == Arrow::Dot {
                    st.push_str(&format!("{key}={};", crate::drawio::style::DOT_SIZE));
                }
            }
            // A pinned side as draw.io's exit or entry point at its middle.
            let (from_side, to_side) = c.sides();
            for (side, prefix) in [(from_side, "exit"), (to_side, "entry")] {
                if let Some(side) = side {
                    let (sx, sy) = super::style::side_point(side);
                    st.push_str(&format!("{prefix}X={};{prefix}Y={};", num(sx), num(sy)));
                }
            }
            text_style(&c.style, &mut st);
            line_style(&c.style, &mut st);
            lock_style(o, &mut st);
            let (a, b) = end_points(board, &c.from, &c.to);
            let bound = |end: &End, key: &str| match end {
                End::Object(id) => format!(" {key}=\"{}\"", escape(id.as_str())),
                End::Point(_) => String::new(),
            };
            let free = |end: &End, p: Point, name: &str| match end {
                End::Point(_) => format!(
                    "\n            <mxPoint x=\"{}\" y=\"{}\" as=\"{name}\" />",
                    num(p.x - ox),
                    num(p.y - oy)
                ),
                End::Object(_) => String::new(),
            };
            // The waypoints as draw.io keeps an edge's points; the label's place
            // as its geometry's x, from -1 (source) to 1 (target).
            let mut points = String::new();
            if !c.waypoints().is_empty() {
                points.push_str("\n            <Array as=\"points\">");
                for p in c.waypoints() {
                    points.push_str(&format!(
                        "\n              <mxPoint x=\"{}\" y=\"{}\" />",
                        num(p.x - ox),
                        num(p.y - oy)
                    ));
                }
                points.push_str("\n            </Array>");
            }
            let label_x = c
                .label_at()
                .map(|at| format!(" x=\"{}\"", num(at * 2.0 - 1.0)))
                .unwrap_or_default();
            x.push_str(&format!(
                "        <mxCell id=\"{id}\" value=\"{}\" style=\"{}\" edge=\"1\" parent=\"{}\"{}{}>\n          <mxGeometry{label_x} relative=\"1\" as=\"geometry\">{}{}{points}\n          </mxGeometry>\n        </mxCell>\n",
                escape(&c.text),
                escape(&st),
                escape(&up),
                bound(&c.from, "source"),
                bound(&c.to, "target"),
                free(&c.from, a, "sourcePoint"),
                free(&c.to, b, "targetPoint"),
            ));
            end_labels(&id, c.start_label(), c.end_label(), (a, b), x);
        }
        Kind::Ink(k) => {
            // `inkboard=ink` says the line was ink to begin with, so reading it
            // back as ink is no change of kind to report.
            let mut st = "endArrow=none;startArrow=none;rounded=0;inkboard=ink;".to_string();
            line_style(&k.style, &mut st);
            lock_style(o, &mut st);
            let at = |p: &Point, name: &str| {
                format!(
                    "<mxPoint x=\"{}\" y=\"{}\"{name} />",
                    num(p.x - ox),
                    num(p.y - oy)
                )
            };
            let first = k
                .points
                .first()
                .copied()
                .unwrap_or(Point { x: 0.0, y: 0.0 });
            let last = k.points.last().copied().unwrap_or(first);
            // Every point is a waypoint, the ends included, so a stroke of one
            // or two points is still a polyline and not a plain line.
            let points: String = k
                .points
                .iter()
                .map(|p| format!("\n              {}", at(p, "")))
                .collect();
            x.push_str(&format!(
                "        <mxCell id=\"{id}\" value=\"\" style=\"{}\" edge=\"1\" parent=\"{}\">\n          <mxGeometry relative=\"1\" as=\"geometry\">\n            {}\n            {}\n            <Array as=\"points\">{points}\n            </Array>\n          </mxGeometry>\n        </mxCell>\n",
                escape(&st),
                escape(&up),
                at(&first, " as=\"sourcePoint\""),
                at(&last, " as=\"targetPoint\""),
            ));
        }
    }
}

/// A connector's end labels as draw.io keeps them: child `edgeLabel` cells of
/// the edge at `x` -1 (its source) and 1 (its target) along it, each moved off
/// the line by an offset: inward along the line and above it (right of a
/// vertical one), so that draw.io shows it beside the end rather than on the
/// shape's border. `ends` are the line's end points, start then end.
fn end_labels(id: &str, start: &str, end: &str, ends: (Point, Point), x: &mut String) {
    for (text, at, here, there, name) in [
        (start, -1, ends.0, ends.1, "start"),
        (end, 1, ends.1, ends.0, "end"),
    ] {
        if text.is_empty() {
            continue;
        }
        let (dx, dy) = (there.x - here.x, there.y - here.y);
        let len = dx.hypot(dy);
        let u = if len > 1e-9 {
            (dx / len, dy / len)
        } else {
            (1.0, 0.0)
        };
        // Across the line, toward the top (or the right of a vertical line).
        let mut n = (u.1, -u.0);
        if n.1 > 0.0 || (n.1 == 0.0 && n.0 < 0.0) {
            n = (-n.0, -n.1);
        }
        let (ox, oy) = (u.0 * 16.0 + n.0 * 10.0, u.1 * 16.0 + n.1 * 10.0);
        x.push_str(&format!(
            "        <mxCell id=\"{id}-{name}\" value=\"{}\" style=\"edgeLabel;align=center;verticalAlign=middle;resizable=0;points=[];\" vertex=\"1\" connectable=\"0\" parent=\"{id}\">\n          <mxGeometry x=\"{at}\" relative=\"1\" as=\"geometry\">\n            <mxPoint x=\"{}\" y=\"{}\" as=\"offset\" />\n          </mxGeometry>\n        </mxCell>\n",
            escape(text),
            num(ox),
            num(oy),
        ));
    }
}

/// `locked=1;` for a locked object: draw.io's own lock, which keeps the cell
/// from being selected or moved, as inkboard's editor does.
fn lock_style(o: &Object, st: &mut String) {
    if o.locked {
        st.push_str("locked=1;");
    }
}

/// `rotation=DEG;` for a rotated shape or image: degrees clockwise about the
/// centre in both programs.
fn rotation_style(o: &Object, st: &mut String) {
    if !o.rotation().is_none() {
        st.push_str(&format!("rotation={};", num(o.rotation().deg())));
    }
}

/// The style draw.io gives each outline (`style.rs` reads them back).
fn geom_style(geom: Geom) -> &'static str {
    match geom {
        Geom::Rect => "rounded=0;whiteSpace=wrap;",
        Geom::Rounded => "rounded=1;whiteSpace=wrap;",
        Geom::Ellipse => "ellipse;whiteSpace=wrap;",
        Geom::Diamond => "rhombus;whiteSpace=wrap;",
        Geom::Triangle => "triangle;direction=north;whiteSpace=wrap;",
        Geom::Hexagon => "shape=hexagon;perimeter=hexagonPerimeter2;fixedSize=1;whiteSpace=wrap;",
        Geom::Parallelogram => {
            "shape=parallelogram;perimeter=parallelogramPerimeter;fixedSize=1;whiteSpace=wrap;"
        }
        Geom::Cylinder => {
            "shape=cylinder3;boundedLbl=1;backgroundOutline=1;size=15;whiteSpace=wrap;"
        }
        Geom::Cloud => "ellipse;shape=cloud;whiteSpace=wrap;",
        Geom::Star => "shape=mxgraph.basic.star;whiteSpace=wrap;",
        Geom::Note => "shape=note;size=20;whiteSpace=wrap;",
        Geom::Text => "text;strokeColor=none;fillColor=none;whiteSpace=wrap;",
        Geom::Frame => "swimlane;startSize=32;container=1;collapsible=0;",
        Geom::Table => super::table::STYLE,
        // draw.io's own UML final state: a ring around a disc of its fill colour.
        Geom::EndState => "ellipse;html=1;shape=endState;",
    }
}

fn arrow(a: Arrow) -> &'static str {
    match a {
        Arrow::None => "none",
        // Our arrow is an open V: draw.io's `open` (its `classic` is filled).
        Arrow::Arrow => "open",
        Arrow::Triangle | Arrow::HollowTriangle => "block",
        // UML's composition and aggregation ends, as draw.io's UML shapes draw
        // them.
        Arrow::Diamond | Arrow::HollowDiamond => "diamondThin",
        Arrow::Circle | Arrow::Dot => "oval",
        Arrow::Bar => "dash",
        Arrow::One => "ERmandOne",
        Arrow::ZeroOrOne => "ERzeroToOne",
        Arrow::OneOrMany => "ERoneToMany",
        Arrow::ZeroOrMany => "ERzeroToMany",
        Arrow::Many => "ERmany",
    }
}

fn colour(c: inkboard_core::Color) -> String {
    hex(c).unwrap_or_else(|| "none".to_string())
}

fn fill_style(s: &Style, st: &mut String) {
    if let Some(c) = s.fill {
        st.push_str(&format!("fillColor={};", colour(c)));
    }
}

/// Stroke, width, dash and opacity: what every cell may carry.
fn line_style(s: &Style, st: &mut String) {
    if let Some(c) = s.stroke {
        st.push_str(&format!("strokeColor={};", colour(c)));
    }
    if let Some(w) = s.stroke_width {
        st.push_str(&format!("strokeWidth={};", num(w)));
    }
    match s.dash {
        Some(Dash::Dashed) => st.push_str("dashed=1;"),
        Some(Dash::Dotted) => st.push_str("dashed=1;dashPattern=1 4;"),
        Some(Dash::Solid) | None => {}
    }
    if let Some(o) = s.opacity {
        st.push_str(&format!("opacity={};", num((o * 100.0).round())));
    }
}

fn text_style(s: &Style, st: &mut String) {
    if let Some(size) = s.font_size {
        st.push_str(&format!("fontSize={};", num(size)));
    }
    if let Some(font) = s.font {
        st.push_str(crate::fonts::drawio_style(font));
    }
    if let Some(c) = s.text_color {
        st.push_str(&format!("fontColor={};", colour(c)));
    }
    if let Some(a) = s.align {
        st.push_str(match a {
            Align::Left => "align=left;",
            Align::Center => "align=center;",
            Align::Right => "align=right;",
        });
    }
    if let Some(v) = s.valign {
        st.push_str(match v {
            VAlign::Top => "verticalAlign=top;",
            VAlign::Middle => "verticalAlign=middle;",
            VAlign::Bottom => "verticalAlign=bottom;",
        });
    }
}

/// Text as an XML attribute value: markup characters as entities, line breaks
/// as character references (so that they survive attribute normalization), and
/// the control characters XML 1.0 cannot hold replaced.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}
