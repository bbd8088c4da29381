//! The cells of one draw.io page, read from its `<mxGraphModel>` into plain
//! records that own their text: ids, parent, label, style, geometry, ends. A cell
//! may be wrapped in `<UserObject>` or `<object>`, which then holds its id, its
//! label and any custom properties. Nothing is interpreted here; `map.rs` decides
//! what each cell becomes.

use roxmltree::Node;

/// One `mxCell`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cell {
    pub id: String,
    pub parent: Option<String>,
    pub label: String,
    pub style: String,
    pub vertex: bool,
    pub edge: bool,
    pub source: Option<String>,
    pub target: Option<String>,
    pub geometry: Geometry,
    pub visible: bool,
    pub link: Option<String>,
    /// Custom properties (a `UserObject`'s other attributes), name and value.
    pub custom: Vec<(String, String)>,
    /// `placeholders="1"` on the wrapper: `%name%` in the label is a property.
    pub placeholders: bool,
}

/// An `mxGeometry`: bounds for vertices; end points and waypoints for edges.
/// Coordinates are relative to the parent cell, as draw.io stores them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Geometry {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// `relative="1"`: x and y are fractions of the parent's size (ports, edge labels).
    pub relative: bool,
    pub source_point: Option<(f64, f64)>,
    pub target_point: Option<(f64, f64)>,
    pub offset: Option<(f64, f64)>,
    pub points: Vec<(f64, f64)>,
}

/// Attributes a `UserObject` carries that are not custom data.
const WRAPPER_OWN: [&str; 5] = ["id", "label", "placeholders", "link", "linkTarget"];

/// The cells under `model` (an `<mxGraphModel>` element), in document order.
pub(crate) fn read(model: Node) -> Vec<Cell> {
    let Some(root) = model.children().find(|n| n.has_tag_name("root")) else {
        return Vec::new();
    };
    let mut cells = Vec::new();
    for (i, node) in root.children().filter(Node::is_element).enumerate() {
        let cell = match node.tag_name().name() {
            "mxCell" => Some(cell(node, None, i)),
            "UserObject" | "object" => node
                .children()
                .find(|n| n.has_tag_name("mxCell"))
                .map(|inner| cell(inner, Some(node), i)),
            _ => None,
        };
        cells.extend(cell);
    }
    cells
}

fn cell(node: Node, wrapper: Option<Node>, index: usize) -> Cell {
    let attr = |name: &str| node.attribute(name).map(str::to_string);
    let outer = wrapper.unwrap_or(node);
    let mut custom = Vec::new();
    if let Some(w) = wrapper {
        for a in w.attributes() {
            // An empty tooltip is no data.
            let empty_tooltip = a.name() == "tooltip" && a.value().is_empty();
            if !(WRAPPER_OWN.contains(&a.name()) || empty_tooltip) {
                custom.push((a.name().to_string(), a.value().to_string()));
            }
        }
    }
    Cell {
        // A cell without an id can still be drawn; this one cannot collide with
        // a real id, which is never empty.
        id: outer
            .attribute("id")
            .map(str::to_string)
            .unwrap_or_else(|| format!("\u{0}{index}")),
        parent: attr("parent"),
        label: match wrapper {
            Some(w) => w.attribute("label").unwrap_or("").to_string(),
            None => node.attribute("value").unwrap_or("").to_string(),
        },
        style: attr("style").unwrap_or_default(),
        vertex: node.attribute("vertex") == Some("1"),
        edge: node.attribute("edge") == Some("1"),
        source: attr("source"),
        target: attr("target"),
        geometry: node
            .children()
            .find(|n| n.has_tag_name("mxGeometry"))
            .map(geometry)
            .unwrap_or_default(),
        visible: node.attribute("visible") != Some("0"),
        link: wrapper
            .and_then(|w| w.attribute("link"))
            .map(str::to_string),
        custom,
        placeholders: wrapper.and_then(|w| w.attribute("placeholders")) == Some("1"),
    }
}

fn num(node: Node, name: &str) -> f64 {
    node.attribute(name)
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0.0)
}

fn point(node: Node) -> (f64, f64) {
    (num(node, "x"), num(node, "y"))
}

fn geometry(node: Node) -> Geometry {
    let mut g = Geometry {
        x: num(node, "x"),
        y: num(node, "y"),
        w: num(node, "width"),
        h: num(node, "height"),
        relative: node.attribute("relative") == Some("1"),
        ..Geometry::default()
    };
    for child in node.children().filter(Node::is_element) {
        match (child.tag_name().name(), child.attribute("as")) {
            ("mxPoint", Some("sourcePoint")) => g.source_point = Some(point(child)),
            ("mxPoint", Some("targetPoint")) => g.target_point = Some(point(child)),
            ("mxPoint", Some("offset")) => g.offset = Some(point(child)),
            ("Array", Some("points")) => g.points.extend(
                child
                    .children()
                    .filter(|n| n.has_tag_name("mxPoint"))
                    .map(point),
            ),
            _ => {}
        }
    }
    g
}
