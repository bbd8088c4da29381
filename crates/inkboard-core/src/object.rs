//! The objects on a page: shapes (every geometry, sticky notes, text and frames
//! included), connectors, images, ink strokes and groups.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::vocabulary;
use crate::{Flip, IconName, IdKind, Link, ObjectId, Point, Rect, Rotation, Style};

vocabulary! {
    /// The outline of a shape. `note` is a sticky note, `text` a borderless text box,
    /// `frame` a titled area that holds other objects, `table` a titled box of rows
    /// (an ER entity or a UML class: its text's first line is the title, each line
    /// after it a row of cells split by `|`, a `---` line a new compartment),
    /// `end_state` a state diagram's end: a ring around a filled disc (UML's final
    /// state; a start is a filled `ellipse`, which needs no geom of its own).
    pub enum Geom as "geom" {
        Rect = "rect", Rounded = "rounded", Ellipse = "ellipse", Diamond = "diamond",
        Triangle = "triangle", Hexagon = "hexagon", Parallelogram = "parallelogram",
        Cylinder = "cylinder", Cloud = "cloud", Star = "star", Note = "note", Text = "text",
        Frame = "frame", Table = "table",
        EndState = "end_state",
    }
}

/// Frames show their text as a title in a band of this height at their top.
pub const FRAME_TITLE_HEIGHT: f64 = 32.0;

/// The side of the icon a shape shows above its text, in px (Lucide's 24-unit
/// drawings a little enlarged, about two lines of 16 px text high).
pub const ICON_SIDE: f64 = 28.0;

/// The room between a shape's icon and its text, in px.
pub const ICON_GAP: f64 = 4.0;

impl Geom {
    /// (share of the width for text, share of the height, vertical start as a share
    /// of the height, padding in px). The text box of a shape is derived from these,
    /// both ways: to wrap text inside a shape and to size a shape around its text.
    fn text_box_shares(self) -> (f64, f64, f64, f64) {
        match self {
            Geom::Ellipse | Geom::EndState => (0.72, 0.72, 0.14, 6.0),
            Geom::Diamond => (0.56, 0.56, 0.22, 4.0),
            Geom::Triangle => (0.5, 0.45, 0.48, 4.0),
            Geom::Hexagon => (0.7, 0.9, 0.05, 8.0),
            Geom::Parallelogram => (0.72, 1.0, 0.0, 10.0),
            Geom::Cylinder => (1.0, 0.7, 0.22, 10.0),
            Geom::Cloud => (0.68, 0.62, 0.2, 6.0),
            Geom::Star => (0.42, 0.34, 0.4, 2.0),
            Geom::Text => (1.0, 1.0, 0.0, 2.0),
            Geom::Rect | Geom::Rounded | Geom::Note | Geom::Frame | Geom::Table => {
                (1.0, 1.0, 0.0, 12.0)
            }
        }
    }

    /// Where the text of a shape with this outline and bounds goes.
    pub fn text_box(self, bounds: Rect) -> Rect {
        if self == Geom::Frame {
            let pad = 10.0;
            return Rect::new(
                bounds.x + pad,
                bounds.y,
                (bounds.w - 2.0 * pad).max(0.0),
                FRAME_TITLE_HEIGHT.min(bounds.h),
            );
        }
        let (fw, fh, fy, pad) = self.text_box_shares();
        let w = (bounds.w * fw - 2.0 * pad).max(0.0);
        let h = (bounds.h * fh - 2.0 * pad).max(0.0);
        let x = bounds.x + (bounds.w - w) / 2.0;
        Rect::new(x, bounds.y + bounds.h * fy + pad, w, h)
    }

    /// Where a shape's text goes when it also shows an icon (`icon`): the
    /// [`text_box`](Geom::text_box) less the room the icon takes, a band at its top
    /// ([`ICON_SIDE`] high, less in a small box) or, in a frame's title band, a
    /// square at its start. The renderer, the sizing rules and the editor's text
    /// editing all ask this, so the text is edited where it is drawn.
    pub fn text_box_with_icon(self, bounds: Rect, icon: bool) -> Rect {
        let tb = self.text_box(bounds);
        if !icon {
            return tb;
        }
        let side = self.icon_side(tb);
        if self == Geom::Frame {
            let room = (side + ICON_GAP).min(tb.w);
            return Rect::new(tb.x + room, tb.y, tb.w - room, tb.h);
        }
        let room = (side + ICON_GAP).min(tb.h);
        Rect::new(tb.x, tb.y + room, tb.w, tb.h - room)
    }

    /// The side of the icon a shape with text shows, in a text box `tb` of this
    /// outline: [`ICON_SIDE`], but never more than half the box's height (a frame:
    /// its title band less a margin) nor its width.
    pub fn icon_side(self, tb: Rect) -> f64 {
        let most = if self == Geom::Frame {
            (tb.h - 12.0).min(20.0)
        } else {
            tb.h / 2.0
        };
        ICON_SIDE.min(most).min(tb.w).max(0.0)
    }

    /// [`size_for_text`](Geom::size_for_text) with room for an icon when `icon`:
    /// its band above the text (beside a frame's title), so
    /// [`text_box_with_icon`](Geom::text_box_with_icon) still holds the text.
    pub fn size_for_text_with_icon(self, text_w: f64, text_h: f64, icon: bool) -> (f64, f64) {
        if !icon {
            return self.size_for_text(text_w, text_h);
        }
        if self == Geom::Frame {
            return self.size_for_text(text_w + 20.0 + ICON_GAP, text_h);
        }
        self.size_for_text(text_w.max(ICON_SIDE), text_h + ICON_SIDE + ICON_GAP)
    }

    /// The smallest bounds whose [`text_box`](Geom::text_box) holds a text block of
    /// this size.
    pub fn size_for_text(self, text_w: f64, text_h: f64) -> (f64, f64) {
        if self == Geom::Frame {
            return (inverse_share(text_w, 1.0, 10.0), FRAME_TITLE_HEIGHT);
        }
        let (fw, fh, _, pad) = self.text_box_shares();
        (
            inverse_share(text_w, fw, pad),
            inverse_share(text_h, fh, pad),
        )
    }

    /// The size a shape of this outline gets when neither text nor size is given.
    pub fn default_size(self) -> (f64, f64) {
        match self {
            Geom::Note => (160.0, 160.0),
            Geom::Text => (120.0, 24.0),
            Geom::Frame => (480.0, 320.0),
            Geom::Table => (160.0, 36.0),
            // UML's final state is a small mark, not a box for text.
            Geom::EndState => (30.0, 30.0),
            Geom::Ellipse | Geom::Star | Geom::Diamond | Geom::Triangle | Geom::Hexagon => {
                (120.0, 100.0)
            }
            _ => (120.0, 60.0),
        }
    }
}

/// The smallest size whose `share`, less the padding on both sides, holds `text`
/// as [`Geom::text_box`] computes it. The exact inverse can come out an ulp short
/// after rounding, and text measured to fit that is then a hair too wide would wrap,
/// so the size is nudged up until it holds.
fn inverse_share(text: f64, share: f64, pad: f64) -> f64 {
    let mut size = (text + 2.0 * pad) / share;
    for _ in 0..8 {
        if !(size > 0.0 && size * share - 2.0 * pad < text) {
            break;
        }
        // The next larger f64 (`f64::next_up` needs a newer Rust).
        size = f64::from_bits(size.to_bits() + 1);
    }
    size
}

/// A table shape's text read into its parts: the first line is the title,
/// every other line a row of cells split by `|`, a line of `---` the start of a
/// new compartment; blank lines are skipped. The renderer lays it out
/// (`inkboard_render::table`); importers and exporters read and write it here.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The first line: the entity's or class's name.
    pub title: String,
    /// The compartments under the title, each a list of rows, each a list of
    /// cells. A table with rows and no `---` has one compartment.
    pub compartments: Vec<Vec<Vec<String>>>,
}

impl Table {
    /// Reads a table's text (see the module's documentation).
    pub fn parse(text: &str) -> Table {
        let mut lines = text.lines();
        let title = lines.next().unwrap_or("").trim().to_string();
        let mut compartments: Vec<Vec<Vec<String>>> = Vec::new();
        for line in lines {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if is_rule(line) {
                compartments.push(Vec::new());
                continue;
            }
            if compartments.is_empty() {
                compartments.push(Vec::new());
            }
            let cells = line.split('|').map(|c| c.trim().to_string()).collect();
            if let Some(last) = compartments.last_mut() {
                last.push(cells);
            }
        }
        Table {
            title,
            compartments,
        }
    }

    /// The text that [`Table::parse`] reads back as this table.
    pub fn to_text(&self) -> String {
        let mut out = self.title.clone();
        for (i, rows) in self.compartments.iter().enumerate() {
            if i > 0 || rows.is_empty() {
                out.push_str("\n---");
            }
            for row in rows {
                out.push('\n');
                out.push_str(&row.join(" | "));
            }
        }
        out
    }
}

impl Table {
    /// The title split into a UML stereotype and the name: `<<interface>> Shape`
    /// is `(Some("interface"), "Shape")`; a title with no `<<...>>` first is all
    /// name.
    pub fn stereotype(&self) -> (Option<&str>, &str) {
        let title = self.title.trim();
        if let Some(rest) = title.strip_prefix("<<") {
            if let Some(end) = rest.find(">>") {
                let name = rest[end + 2..].trim();
                return (Some(rest[..end].trim()), name);
            }
        }
        (None, title)
    }

    /// True when the table is a UML class rather than an ER entity: it has a
    /// stereotype, or more than one compartment (attributes, then methods).
    pub fn is_class(&self) -> bool {
        self.compartments.len() > 1 || self.stereotype().0.is_some()
    }
}

/// A line of three or more dashes and nothing else.
fn is_rule(line: &str) -> bool {
    line.len() >= 3 && line.chars().all(|c| c == '-')
}

vocabulary! {
    /// How a connector runs between its ends.
    pub enum Route as "route" { Straight = "straight", Orthogonal = "orthogonal", Curved = "curved" }
}

vocabulary! {
    /// The head drawn at a connector end: an open arrow, a filled triangle,
    /// diamond or circle before the end, a bar across it, or a small dot on it
    /// (as ER and UML diagrams draw; Excalidraw's and draw.io's heads map onto
    /// these); or a crow's-foot end of an ER relationship, its cardinality at that
    /// end: `one` (exactly one: two bars), `zero_or_one` (a circle and a bar),
    /// `one_or_many` (a bar and a crow's foot), `zero_or_many` (a circle and a
    /// crow's foot) or `many` (a crow's foot alone, draw.io's `ERmany`); or a
    /// hollow UML end: `hollow_triangle` (inheritance, realization) or
    /// `hollow_diamond` (aggregation; the filled `diamond` is composition).
    pub enum Arrow as "arrow" {
        None = "none", Arrow = "arrow", Triangle = "triangle", Diamond = "diamond", Circle = "circle",
        Bar = "bar", Dot = "dot", One = "one", ZeroOrOne = "zero_or_one",
        OneOrMany = "one_or_many", ZeroOrMany = "zero_or_many", Many = "many",
        HollowTriangle = "hollow_triangle", HollowDiamond = "hollow_diamond",
    }
}

impl Arrow {
    /// True for the ends only a UML class diagram draws: the hollow triangle and
    /// the diamonds (composition and aggregation).
    pub fn is_uml(self) -> bool {
        matches!(
            self,
            Arrow::HollowTriangle | Arrow::HollowDiamond | Arrow::Diamond
        )
    }

    /// True for the crow's-foot ends of ER diagrams.
    pub fn is_crows_foot(self) -> bool {
        matches!(
            self,
            Arrow::One | Arrow::ZeroOrOne | Arrow::OneOrMany | Arrow::ZeroOrMany | Arrow::Many
        )
    }
}

vocabulary! {
    /// A side of an object's box, where a connector end may be pinned to meet it
    /// (as draw.io's exit and entry constraints at a side's middle do).
    pub enum Side as "side" { Top = "top", Right = "right", Bottom = "bottom", Left = "left" }
}

impl Side {
    /// The side across the box from this one.
    pub fn opposite(self) -> Side {
        match self {
            Side::Top => Side::Bottom,
            Side::Right => Side::Left,
            Side::Bottom => Side::Top,
            Side::Left => Side::Right,
        }
    }
}

/// One end of a connector: bound to an object (it follows it) or a free point.
#[derive(Clone, Debug, PartialEq)]
pub enum End {
    Object(ObjectId),
    Point(Point),
}

impl End {
    /// The object this end is bound to, if any.
    pub fn object(&self) -> Option<&ObjectId> {
        match self {
            End::Object(id) => Some(id),
            End::Point(_) => None,
        }
    }
}

vocabulary! {
    /// How a shape's size is decided. `fixed` (the default, and what files without a
    /// `size` field hold): its bounds are what they were set to, and text that does
    /// not fit shrinks, then overflows. `auto`: the shape is sized to its text, and
    /// new text or a new font size sizes it again (`update`). Setting `w` or `h`
    /// makes a shape fixed.
    pub enum Sizing as "size" { Fixed = "fixed", Auto = "auto" }
}

/// A shape: an outline with text inside.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    pub geom: Geom,
    pub bounds: Rect,
    pub text: String,
    pub style: Style,
    /// Whether the bounds follow the text ([`Sizing::Auto`]) or stay as set.
    pub sizing: Sizing,
    /// The turn about the centre of `bounds`; the bounds are the unrotated box.
    pub rotation: Rotation,
    /// The icon drawn in it, above its text (`inkboard-icons` has the drawings).
    pub icon: Option<IconName>,
}

impl Shape {
    /// Where its text goes: its outline's text box, less its icon's room when it
    /// has both an icon and text ([`Geom::text_box_with_icon`]).
    pub fn text_box(&self) -> Rect {
        let both = self.icon.is_some() && !self.text.is_empty();
        self.geom.text_box_with_icon(self.bounds, both)
    }
}

/// A line between two ends, with optional arrowheads and a label.
#[derive(Clone, Debug, PartialEq)]
pub struct Connector {
    pub from: End,
    pub to: End,
    pub text: String,
    pub route: Route,
    pub start_arrow: Arrow,
    pub end_arrow: Arrow,
    pub style: Style,
    /// Bends, the label's place, pinned sides, merging and end labels, set by hand
    /// or by a layout; `None` while none is set (what the setters below keep).
    /// Boxed because few connectors have them: an object stays as small as before,
    /// and a transaction step holds two.
    pub by_hand: Option<Box<ByHand>>,
}

/// What was decided for a connector rather than left to the router, and the
/// texts at its ends: all rarely set, so they share one box.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ByHand {
    /// Points the line passes through, in order, in board coordinates (as
    /// draw.io's `mxGeometry` points). Empty: the route is found automatically.
    /// They stay where they are when one end's object moves, as in draw.io.
    pub waypoints: Vec<Point>,
    /// Where the label sits, as a fraction of the drawn line's length from its
    /// start (0 ..= 1). `None`: placed automatically, clear of shapes and labels.
    pub label_at: Option<f64>,
    /// The sides of their objects the start and the end meet (`None`: the
    /// router's choice). Ignored at a free end.
    pub sides: (Option<Side>, Option<Side>),
    /// A deliberate merge: this connector shares its start port and trunk with
    /// the other merging connectors that leave the same side of the same object,
    /// as a bus (an org chart's lines to a parent's children), drawn with a
    /// junction dot where each branch leaves the shared line. Orthogonal routes
    /// only.
    pub merge: bool,
    /// Short texts drawn beside the start and the end of the line (a role name or
    /// a cardinality such as `1` or `0..*`, as in UML and ER diagrams); empty for
    /// none. Plain text, not rich.
    pub end_labels: (String, String),
}

impl ByHand {
    /// True when nothing is set: the connector is routed wholly automatically.
    fn is_empty(&self) -> bool {
        self.waypoints.is_empty()
            && self.label_at.is_none()
            && self.sides == (None, None)
            && !self.merge
            && self.end_labels.0.is_empty()
            && self.end_labels.1.is_empty()
    }
}

impl Connector {
    /// A connector with the defaults: orthogonal, an arrow at the end only.
    pub fn new(from: End, to: End) -> Self {
        Connector {
            from,
            to,
            text: String::new(),
            route: Route::Orthogonal,
            start_arrow: Arrow::None,
            end_arrow: Arrow::Arrow,
            style: Style::default(),
            by_hand: None,
        }
    }

    /// The points the line passes through (none: routed automatically).
    pub fn waypoints(&self) -> &[Point] {
        self.by_hand.as_ref().map_or(&[], |h| &h.waypoints)
    }

    /// The waypoints, to move them.
    pub fn waypoints_mut(&mut self) -> &mut [Point] {
        self.by_hand.as_mut().map_or(&mut [], |h| &mut h.waypoints)
    }

    /// The label's place along the line, if set by hand.
    pub fn label_at(&self) -> Option<f64> {
        self.by_hand.as_ref().and_then(|h| h.label_at)
    }

    /// Sets the waypoints; none gives the route back to the router.
    pub fn set_waypoints(&mut self, waypoints: Vec<Point>) {
        self.edit_by_hand(|h| h.waypoints = waypoints);
    }

    /// Sets the label's place; `None` places it automatically.
    pub fn set_label_at(&mut self, at: Option<f64>) {
        self.edit_by_hand(|h| h.label_at = at);
    }

    /// The sides the start and the end are pinned to, if any.
    pub fn sides(&self) -> (Option<Side>, Option<Side>) {
        self.by_hand.as_ref().map_or((None, None), |h| h.sides)
    }

    /// Pins the start (`at_start`) or the end to `side`; `None` unpins it.
    pub fn set_side(&mut self, at_start: bool, side: Option<Side>) {
        self.edit_by_hand(|h| {
            if at_start {
                h.sides.0 = side;
            } else {
                h.sides.1 = side;
            }
        });
    }

    /// Whether this connector merges with the others leaving its start's side.
    pub fn merge(&self) -> bool {
        self.by_hand.as_ref().is_some_and(|h| h.merge)
    }

    /// Marks the connector as merging (or not) into a shared trunk.
    pub fn set_merge(&mut self, merge: bool) {
        self.edit_by_hand(|h| h.merge = merge);
    }

    /// The text beside the start of the line (empty: none).
    pub fn start_label(&self) -> &str {
        self.by_hand.as_ref().map_or("", |h| &h.end_labels.0)
    }

    /// The text beside the end of the line (empty: none).
    pub fn end_label(&self) -> &str {
        self.by_hand.as_ref().map_or("", |h| &h.end_labels.1)
    }

    /// Sets the text beside the start (`at_start`) or the end of the line; an
    /// empty one takes it away.
    pub fn set_end_label(&mut self, at_start: bool, text: String) {
        self.edit_by_hand(|h| {
            if at_start {
                h.end_labels.0 = text;
            } else {
                h.end_labels.1 = text;
            }
        });
    }

    fn edit_by_hand(&mut self, f: impl FnOnce(&mut ByHand)) {
        let mut h = self.by_hand.take().map(|b| *b).unwrap_or_default();
        f(&mut h);
        if !h.is_empty() {
            self.by_hand = Some(Box::new(h));
        }
    }
}

vocabulary! {
    /// The encodings an image may have.
    pub enum ImageFormat as "image format" { Png = "png", Jpeg = "jpeg", Svg = "svg" }
}

impl ImageFormat {
    /// The MIME type, as used in data URLs.
    pub fn mime(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
            ImageFormat::Svg => "image/svg+xml",
        }
    }
}

/// A picture embedded in the board. The bytes are shared, so copies are cheap.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub bounds: Rect,
    pub format: ImageFormat,
    pub data: Arc<[u8]>,
    pub style: Style,
    /// The turn about the centre of `bounds`; the bounds are the unrotated box.
    pub rotation: Rotation,
}

/// A freehand stroke through its points.
#[derive(Clone, Debug, PartialEq)]
pub struct Ink {
    pub points: Vec<Point>,
    pub style: Style,
}

/// Objects moved, ordered and deleted together. Members stay in the page's own list;
/// the group only names them.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub members: Vec<ObjectId>,
}

/// What an object is.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Shape(Shape),
    Connector(Connector),
    Image(Image),
    Ink(Ink),
    Group(Group),
}

impl Kind {
    /// The word for this kind in reads and files: `shape`, `connector`...
    pub fn type_name(&self) -> &'static str {
        match self {
            Kind::Shape(_) => "shape",
            Kind::Connector(_) => "connector",
            Kind::Image(_) => "image",
            Kind::Ink(_) => "ink",
            Kind::Group(_) => "group",
        }
    }

    /// The kind of id an object of this kind gets.
    pub fn id_kind(&self) -> IdKind {
        match self {
            Kind::Shape(_) => IdKind::Shape,
            Kind::Connector(_) => IdKind::Connector,
            Kind::Image(_) => IdKind::Image,
            Kind::Ink(_) => IdKind::Ink,
            Kind::Group(_) => IdKind::Group,
        }
    }
}

/// Fields a newer or foreign writer put on a record that this version does not know.
/// They are kept verbatim (each value as its source text) and written back on save,
/// so nothing is lost in a round trip. The model never looks inside.
pub type Extra = BTreeMap<String, String>;

/// An object on a page.
#[derive(Clone, Debug, PartialEq)]
pub struct Object {
    pub id: ObjectId,
    pub kind: Kind,
    /// Kept where the person put it: the editor's mouse does not select, move,
    /// resize, turn or delete it, and tools refuse to when they name it and leave
    /// it in place when they only carry it along. Only unlocking (`update` with
    /// `locked: false`, or the editor's Unlock) changes that; its text and style
    /// may still change.
    pub locked: bool,
    /// Where the object links to, if anywhere (tools set it on shapes and images).
    pub link: Option<Link>,
    /// A shape's or image's drawing mirrored in its box; other kinds keep
    /// [`Flip::NONE`] (tools refuse to set it on them, the renderer ignores it).
    pub flip: Flip,
    pub extra: Extra,
}

impl Object {
    pub fn new(id: ObjectId, kind: Kind) -> Self {
        Object {
            id,
            kind,
            locked: false,
            link: None,
            flip: Flip::NONE,
            extra: Extra::new(),
        }
    }

    /// The bounds of a shape or image; `None` for objects whose extent depends on
    /// others (connectors, groups): see [`crate::Board::bounds`].
    pub fn own_bounds(&self) -> Option<Rect> {
        match &self.kind {
            Kind::Shape(s) => Some(s.bounds),
            Kind::Image(i) => Some(i.bounds),
            Kind::Ink(k) => Rect::around(k.points.iter().copied()),
            Kind::Connector(_) | Kind::Group(_) => None,
        }
    }

    /// The turn of a shape or image about its centre; [`Rotation::NONE`] for the
    /// other kinds, which have no rotation.
    pub fn rotation(&self) -> Rotation {
        match &self.kind {
            Kind::Shape(s) => s.rotation,
            Kind::Image(i) => i.rotation,
            _ => Rotation::NONE,
        }
    }

    /// Mutable access to the rotation of a shape or image.
    pub fn rotation_mut(&mut self) -> Option<&mut Rotation> {
        match &mut self.kind {
            Kind::Shape(s) => Some(&mut s.rotation),
            Kind::Image(i) => Some(&mut i.rotation),
            _ => None,
        }
    }

    /// What the object covers on the page: [`own_bounds`](Object::own_bounds)
    /// turned by its rotation ([`Rect::rotated_extent`]).
    pub fn own_extent(&self) -> Option<Rect> {
        self.own_bounds().map(|b| b.rotated_extent(self.rotation()))
    }

    /// The text shown on the object, if it has any.
    pub fn text(&self) -> Option<&str> {
        match &self.kind {
            Kind::Shape(s) => Some(&s.text),
            Kind::Connector(c) => Some(&c.text),
            _ => None,
        }
    }

    /// The text as it is shown, for formats that hold plain text: a shape's rich text
    /// without its marks ([`crate::rich::plain`]); a frame's title and a connector's
    /// label as they are.
    pub fn shown_text(&self) -> Option<std::borrow::Cow<'_, str>> {
        match &self.kind {
            Kind::Shape(s) if s.geom != Geom::Frame => {
                Some(std::borrow::Cow::Owned(crate::rich::plain(&s.text)))
            }
            _ => self.text().map(std::borrow::Cow::Borrowed),
        }
    }

    /// The style of the object, if it has one.
    pub fn style(&self) -> Option<&Style> {
        match &self.kind {
            Kind::Shape(s) => Some(&s.style),
            Kind::Connector(c) => Some(&c.style),
            Kind::Image(i) => Some(&i.style),
            Kind::Ink(k) => Some(&k.style),
            Kind::Group(_) => None,
        }
    }

    /// Mutable access to the style, if the object has one.
    pub fn style_mut(&mut self) -> Option<&mut Style> {
        match &mut self.kind {
            Kind::Shape(s) => Some(&mut s.style),
            Kind::Connector(c) => Some(&mut c.style),
            Kind::Image(i) => Some(&mut i.style),
            Kind::Ink(k) => Some(&mut k.style),
            Kind::Group(_) => None,
        }
    }

    /// The ids this object refers to: connector ends and group members.
    pub fn references(&self) -> Vec<&ObjectId> {
        match &self.kind {
            Kind::Connector(c) => c.from.object().into_iter().chain(c.to.object()).collect(),
            Kind::Group(g) => g.members.iter().collect(),
            _ => Vec::new(),
        }
    }

    /// True for a shape with the `frame` outline.
    pub fn is_frame(&self) -> bool {
        matches!(&self.kind, Kind::Shape(s) if s.geom == Geom::Frame)
    }
}

#[cfg(test)]
mod table_tests {
    use super::Table;

    #[test]
    fn reads_title_rows_cells_and_compartments() {
        let t = Table::parse("Customer\nid | int | PK\n\nname | string\n---\n+pay()");
        assert_eq!(t.title, "Customer");
        assert_eq!(t.compartments.len(), 2);
        assert_eq!(t.compartments[0][0], ["id", "int", "PK"]);
        assert_eq!(t.compartments[0][1], ["name", "string"]);
        assert_eq!(t.compartments[1][0], ["+pay()"]);
        assert_eq!(Table::parse(&t.to_text()), t);
    }

    #[test]
    fn a_class_has_a_stereotype_or_two_compartments() {
        let t = Table::parse("<<interface>> Shape\n---\n+area() double");
        assert_eq!(t.stereotype(), (Some("interface"), "Shape"));
        assert!(t.is_class());
        let empty = Table::parse("Duck\n---\n---");
        assert_eq!(empty.compartments.len(), 2);
        assert!(empty.is_class());
        assert!(!Table::parse("ORDER\nint | id | PK").is_class());
        assert_eq!(Table::parse("ORDER").stereotype(), (None, "ORDER"));
    }

    #[test]
    fn an_empty_first_compartment_survives_a_round_trip() {
        let t = Table::parse("Shape\n---\n---\n+area() float");
        assert_eq!(t.compartments.len(), 2);
        assert!(t.compartments[0].is_empty());
        assert_eq!(Table::parse(&t.to_text()), t);
    }
}
