//! draw.io's style strings (`rounded=1;whiteSpace=wrap;fillColor=#dae8fc;`): a
//! list of named styles (`ellipse`, `text`, `swimlane`...) and `key=value`
//! entries, later ones winning. This module reads them and says what they mean in
//! inkboard's terms: the kind of shape, the arrowheads, the route, the side an
//! edge's end is pinned to.

use inkboard_core::{Arrow, Geom, Route, Side};

/// A parsed style string. Borrows from the cell's style text.
#[derive(Debug, Default)]
pub(crate) struct CellStyle<'a> {
    names: Vec<&'a str>,
    entries: Vec<(&'a str, &'a str)>,
}

impl<'a> CellStyle<'a> {
    pub(crate) fn parse(text: &'a str) -> Self {
        let mut style = CellStyle::default();
        for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            match part.split_once('=') {
                Some((k, v)) => style.entries.push((k.trim(), v.trim())),
                None => style.names.push(part),
            }
        }
        style
    }

    /// The value of `key`, the last one written.
    pub(crate) fn get(&self, key: &str) -> Option<&'a str> {
        self.entries
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }

    /// True when `key` is `1` (draw.io's true).
    pub(crate) fn flag(&self, key: &str) -> bool {
        self.get(key).is_some_and(|v| v == "1" || v == "true")
    }

    pub(crate) fn num(&self, key: &str) -> Option<f64> {
        self.get(key)?.parse::<f64>().ok().filter(|v| v.is_finite())
    }

    pub(crate) fn has_name(&self, name: &str) -> bool {
        self.names.contains(&name)
    }

    /// The shape's name: `shape=...`, or the named style that stands for one.
    fn shape_name(&self) -> Option<&'a str> {
        self.get("shape").or_else(|| {
            self.names.iter().copied().find(|n| {
                matches!(
                    *n,
                    "ellipse"
                        | "rhombus"
                        | "triangle"
                        | "hexagon"
                        | "cylinder"
                        | "cloud"
                        | "swimlane"
                        | "image"
                        | "roundImage"
                        | "rhombusImage"
                        | "line"
                        | "actor"
                        | "doubleEllipse"
                )
            })
        })
    }
}

/// What a vertex becomes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum VertexKind {
    /// A shape with this outline.
    Shape(Geom),
    /// A draw.io group: an inkboard group of its children.
    Group,
    /// A container or swimlane: a frame.
    Frame,
    /// A picture (`image=...`).
    Image,
    /// A stencil (`shape=mxgraph.…`): drawn as a rectangle, named in the report.
    Stencil(String),
    /// A built-in shape inkboard has no outline for: drawn as a rectangle.
    Unknown(String),
}

/// What kind of vertex a style describes.
pub(crate) fn vertex_kind(style: &CellStyle) -> VertexKind {
    let shape = style.shape_name();
    if style.has_name("group") || shape == Some("group") {
        return VertexKind::Group;
    }
    let label_box = style.has_name("label") || shape == Some("label");
    if matches!(shape, Some("image" | "roundImage" | "rhombusImage"))
        || (shape.is_none() && !label_box && style.get("image").is_some_and(|v| !v.is_empty()))
    {
        return VertexKind::Image;
    }
    if style.flag("container") || matches!(shape, Some("swimlane" | "table" | "umlFrame")) {
        return VertexKind::Frame;
    }
    if style.has_name("text") || shape == Some("text") {
        return VertexKind::Shape(Geom::Text);
    }
    let rounded = style.flag("rounded");
    match shape {
        None | Some("rect" | "rectangle" | "label") => {
            VertexKind::Shape(if rounded { Geom::Rounded } else { Geom::Rect })
        }
        // draw.io's UML start state is a filled circle: an ellipse of its fill.
        Some("ellipse" | "doubleEllipse" | "startState") => VertexKind::Shape(Geom::Ellipse),
        Some("endState") => VertexKind::Shape(Geom::EndState),
        Some("rhombus") => VertexKind::Shape(Geom::Diamond),
        Some("triangle") => VertexKind::Shape(Geom::Triangle),
        Some("hexagon") => VertexKind::Shape(Geom::Hexagon),
        Some("parallelogram") => VertexKind::Shape(Geom::Parallelogram),
        Some("cylinder" | "cylinder2" | "cylinder3" | "datastore") => {
            VertexKind::Shape(Geom::Cylinder)
        }
        Some("cloud") => VertexKind::Shape(Geom::Cloud),
        Some("star") => VertexKind::Shape(Geom::Star),
        Some("note" | "note2") => VertexKind::Shape(Geom::Note),
        // The star in draw.io's "Basic" library.
        Some("mxgraph.basic.star") => VertexKind::Shape(Geom::Star),
        Some(name) if name.starts_with("mxgraph.") => VertexKind::Stencil(name.to_string()),
        Some(name) => VertexKind::Unknown(name.to_string()),
    }
}

/// The marker size (`startSize`, `endSize`) inkboard writes an oval at for a
/// dot; an oval this small or smaller is read back as a dot.
pub(crate) const DOT_SIZE: f64 = 4.0;

/// A circle head whose draw.io marker size (`size`: `startSize` or `endSize`)
/// is a dot's.
pub(crate) fn dot_sized(arrow: Arrow, size: Option<&str>) -> Arrow {
    match size.and_then(|s| s.trim().parse::<f64>().ok()) {
        Some(s) if arrow == Arrow::Circle && s <= DOT_SIZE => Arrow::Dot,
        _ => arrow,
    }
}

/// A block or diamond head drawn hollow when draw.io's `startFill`/`endFill`
/// (`fill`) is `0`: UML's inheritance and aggregation ends.
pub(crate) fn hollowed(arrow: Arrow, fill: Option<&str>) -> Arrow {
    match (arrow, fill.map(str::trim)) {
        (Arrow::Triangle, Some("0")) => Arrow::HollowTriangle,
        (Arrow::Diamond, Some("0")) => Arrow::HollowDiamond,
        _ => arrow,
    }
}

/// The arrowhead for draw.io's `startArrow`/`endArrow` value, and the name when
/// it had to be approximated.
pub(crate) fn arrow(value: Option<&str>, default: Arrow) -> (Arrow, Option<String>) {
    let Some(name) = value else {
        return (default, None);
    };
    let arrow = match name {
        "none" | "" => Arrow::None,
        "classic" | "classicThin" | "open" | "openThin" | "async" | "openAsync" => Arrow::Arrow,
        "block" | "blockThin" => Arrow::Triangle,
        "diamond" | "diamondThin" => Arrow::Diamond,
        "oval" | "circle" | "dot" => Arrow::Circle,
        "dash" => Arrow::Bar,
        // draw.io's entity-relation ends. `ERone` (one bar) means one as
        // `ERmandOne` (two) does.
        "ERmandOne" | "ERone" => Arrow::One,
        "ERzeroToOne" => Arrow::ZeroOrOne,
        "ERoneToMany" => Arrow::OneOrMany,
        "ERzeroToMany" => Arrow::ZeroOrMany,
        "ERmany" => Arrow::Many,
        other => return (Arrow::Arrow, Some(other.to_string())),
    };
    (arrow, None)
}

/// The route of an edge: orthogonal for the elbow styles, curved when asked,
/// straight otherwise (draw.io's default).
pub(crate) fn route(style: &CellStyle) -> Route {
    match style.get("edgeStyle") {
        Some(
            "orthogonalEdgeStyle"
            | "elbowEdgeStyle"
            | "entityRelationEdgeStyle"
            | "segmentEdgeStyle"
            | "isometricEdgeStyle",
        ) => Route::Orthogonal,
        _ if style.flag("curved") => Route::Curved,
        _ => Route::Straight,
    }
}

/// The side an edge's end is pinned to by draw.io's constraint `prefix` (`exit`
/// or `entry`: `exitX`, `exitY`), when it is a side's middle; another point of
/// the outline is left to the router.
pub(crate) fn side(style: &CellStyle, prefix: &str) -> Option<Side> {
    let x = style.num(&format!("{prefix}X"))?;
    let y = style.num(&format!("{prefix}Y"))?;
    let at = |a: f64, b: f64| (a - b).abs() < 1e-6;
    [Side::Top, Side::Right, Side::Bottom, Side::Left]
        .into_iter()
        .find(|&s| {
            let (sx, sy) = side_point(s);
            at(x, sx) && at(y, sy)
        })
}

/// Where side `s` has its middle, as draw.io's constraint fractions of the box.
pub(crate) fn side_point(s: Side) -> (f64, f64) {
    match s {
        Side::Top => (0.5, 0.0),
        Side::Right => (1.0, 0.5),
        Side::Bottom => (0.5, 1.0),
        Side::Left => (0.0, 0.5),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constraints_at_a_side_middle_pin_that_side() {
        let side = |s: &str| side(&CellStyle::parse(s), "exit");
        assert_eq!(side("exitX=0.5;exitY=1;"), Some(Side::Bottom));
        assert_eq!(side("exitX=0;exitY=0.5;entryX=1;"), Some(Side::Left));
        assert_eq!(side("exitX=0.25;exitY=1;"), None);
        assert_eq!(side("exitX=1;"), None);
        assert_eq!(side(""), None);
    }

    #[test]
    fn styles_read_into_kinds() {
        let kind = |s: &str| vertex_kind(&CellStyle::parse(s));
        assert_eq!(
            kind("rounded=1;whiteSpace=wrap;html=1;"),
            VertexKind::Shape(Geom::Rounded)
        );
        assert_eq!(
            kind("ellipse;whiteSpace=wrap"),
            VertexKind::Shape(Geom::Ellipse)
        );
        assert_eq!(kind("rhombus;"), VertexKind::Shape(Geom::Diamond));
        assert_eq!(kind("text;html=1"), VertexKind::Shape(Geom::Text));
        assert_eq!(kind("swimlane;horizontal=0"), VertexKind::Frame);
        assert_eq!(kind("group"), VertexKind::Group);
        assert_eq!(
            kind("shape=image;image=data:image/png,AAA"),
            VertexKind::Image
        );
        assert_eq!(
            kind("shape=mxgraph.aws4.lambda;fillColor=#f00"),
            VertexKind::Stencil("mxgraph.aws4.lambda".into())
        );
        assert_eq!(kind("shape=process"), VertexKind::Unknown("process".into()));
        let s = CellStyle::parse("a=1;a=2;dashed=1");
        assert_eq!(s.get("a"), Some("2"));
        assert!(s.flag("dashed"));
        assert_eq!(arrow(None, Arrow::Arrow), (Arrow::Arrow, None));
        assert_eq!(arrow(Some("block"), Arrow::Arrow), (Arrow::Triangle, None));
        assert_eq!(arrow(Some("ERmany"), Arrow::None), (Arrow::Many, None));
        assert_eq!(hollowed(Arrow::Triangle, Some("0")), Arrow::HollowTriangle);
        assert_eq!(hollowed(Arrow::Diamond, Some("0")), Arrow::HollowDiamond);
        assert_eq!(hollowed(Arrow::Diamond, Some("1")), Arrow::Diamond);
        assert_eq!(hollowed(Arrow::Arrow, Some("0")), Arrow::Arrow);
        assert_eq!(
            arrow(Some("ERzeroToOne"), Arrow::None),
            (Arrow::ZeroOrOne, None)
        );
        assert_eq!(
            arrow(Some("openAsync2"), Arrow::None).1.as_deref(),
            Some("openAsync2")
        );
        assert_eq!(
            route(&CellStyle::parse("edgeStyle=orthogonalEdgeStyle")),
            Route::Orthogonal
        );
        assert_eq!(route(&CellStyle::parse("curved=1")), Route::Curved);
        assert_eq!(route(&CellStyle::parse("")), Route::Straight);
    }
}
