//! The resolved scene: what a page looks like, with nothing left to decide.
//!
//! [`resolve`](crate::resolve) makes a page of the model into a [`Scene`]: every style
//! default filled in with a concrete colour and width, every outline made into a
//! path, every connector routed with its arrowheads placed, every text laid out into
//! positioned lines. The backends ([`svg`](crate::to_svg), PNG, PDF) only draw it and
//! never look back at the model, so they cannot disagree about what a board shows.

use std::sync::Arc;

use inkboard_core::rich::Marks;
use inkboard_core::{ImageFormat, ObjectId, PageId, Point, Rect, Rotation};

use crate::text::{FaceRef, Typeface};
use crate::theme::Theme;

/// A resolved page, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// The page it shows.
    pub page: PageId,
    /// That page's name (a PDF's bookmark for it).
    pub name: String,
    /// Content bounds, padding included: the default region to draw.
    pub bounds: Rect,
    /// One item per object on the page, back to front (the page's z-order).
    pub items: Vec<Item>,
    /// The colours the backends paint it in: light (the board's own, as
    /// [`resolve`](crate::resolve) gives it) unless [`Scene::in_theme`] says.
    pub theme: Theme,
    /// Whether the backends paint the page's colour under the drawing (true as
    /// resolved); a transparent export leaves it out ([`Scene::transparent`]).
    pub background: bool,
}

impl Scene {
    /// The scene, to be painted in `theme`.
    pub fn in_theme(self, theme: Theme) -> Scene {
        Scene { theme, ..self }
    }

    /// The scene on no background: a PNG with an alpha channel, an SVG or PDF
    /// page without the page's colour.
    pub fn transparent(self) -> Scene {
        Scene {
            background: false,
            ..self
        }
    }

    /// The scene with only the items of `ids`, its bounds around them: an export
    /// of a selection. The items keep what was resolved on the whole page
    /// (connectors their routes around every shape), so the part looks as it does
    /// there.
    pub fn only(mut self, ids: &[ObjectId]) -> Scene {
        let keep: std::collections::HashSet<&ObjectId> = ids.iter().collect();
        self.items.retain(|item| keep.contains(&item.id));
        self.bounds = crate::resolve::padded_bounds(&self.items);
        self
    }
}

/// One object of the page, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub id: ObjectId,
    /// The object's type word (`shape`, `connector`, `image`, `ink`, `group`).
    pub kind: &'static str,
    /// The shape's geom word, for shapes; backends pass it on (`data-geom`).
    pub geom: Option<&'static str>,
    /// The object's opacity, applied to all of its parts together.
    pub opacity: f32,
    /// What to draw, in order. A group has none: its members are items of their own.
    /// Parts are in the object's own, unrotated place; `turn` turns them all.
    pub parts: Vec<Part>,
    /// How many of the first parts are a soft shadow (a sticky note's), which a
    /// backend may draw another way (the PNG one, from a cached sprite).
    pub shadow: usize,
    /// The turn of a rotated shape or image, applied to all of its parts.
    pub turn: Option<Turn>,
    /// Where the object links to (a safe web or mail address): an SVG `<a>`
    /// and a PDF link over the item.
    pub link: Option<String>,
}

/// A turn of an item's whole drawing about a point: a rotated shape or image,
/// turned about the centre of its box. Backends draw the parts as they are and
/// turn them together (SVG's `rotate(deg cx cy)`), so text stays text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Turn {
    pub rotation: Rotation,
    pub about: Point,
}

impl Turn {
    /// `p`, a point of the unturned drawing, where it is drawn.
    pub fn apply(&self, p: Point) -> Point {
        p.rotated(self.rotation, self.about)
    }

    /// The box around `r`, a box of the unturned drawing, once turned.
    pub fn extent(&self, r: Rect) -> Rect {
        Rect::around(r.corners().map(|p| self.apply(p))).unwrap_or(r)
    }
}

/// One drawing primitive.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Path(PathPart),
    Text(TextPart),
    Image(ImagePart),
}

/// A colour with alpha, as resolved from a style or the theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgba(pub [u8; 4]);

impl Rgba {
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Rgba([r, g, b, 255])
    }
    pub const fn with_alpha(self, a: u8) -> Self {
        let [r, g, b, _] = self.0;
        Rgba([r, g, b, a])
    }
    /// Relative luminance (0 black .. 1 white), used to pick readable text colours.
    pub fn luminance(self) -> f32 {
        let lin = |c: u8| {
            let c = c as f32 / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let [r, g, b, _] = self.0;
        0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    }
}

/// A segment of a path outline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seg {
    Move(Point),
    Line(Point),
    Cubic(Point, Point, Point),
    Close,
}

/// How a line is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Stroke {
    pub color: Rgba,
    pub width: f32,
    /// Dash and gap lengths; empty for a solid line.
    pub dash: Vec<f32>,
    /// Round caps (dotted lines, ink, connectors) instead of butt caps.
    pub round_cap: bool,
}

/// A filled and/or stroked outline.
#[derive(Clone, Debug, PartialEq)]
pub struct PathPart {
    pub segs: Vec<Seg>,
    pub fill: Option<Rgba>,
    pub stroke: Option<Stroke>,
}

/// Where `x` sits on a text line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// A laid-out line: its text and baseline position.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedLine {
    pub text: String,
    pub x: f32,
    pub baseline: f32,
    /// The measured advance width (`text::line_width`), in px.
    pub width: f32,
    /// The pieces of a line set in more than one face (`text::Piece`), left to
    /// right, each drawn on its own; empty when the whole line is in one face.
    pub pieces: Vec<FaceRun>,
}

impl PlacedLine {
    /// Its left edge, in board units, when drawn with `anchor`.
    pub fn left(&self, anchor: Anchor) -> f32 {
        match anchor {
            Anchor::Start => self.x,
            Anchor::Middle => self.x - self.width / 2.0,
            Anchor::End => self.x - self.width,
        }
    }
}

/// A piece of a line set in one face of the fallback chain.
#[derive(Clone, Debug, PartialEq)]
pub struct FaceRun {
    /// Byte range of the line's text.
    pub start: usize,
    pub end: usize,
    /// The face it is set in (its family is what the SVG names).
    pub face: FaceRef,
    /// Its left edge, in px from the line's left edge.
    pub dx: f32,
    /// Its advance width, in px.
    pub width: f32,
    /// Rich text's marks: bold (drawn in the bold face), italic, strikethrough, code.
    pub marks: Marks,
    /// Index in [`TextPart::links`] of the link it is the text of.
    pub link: Option<usize>,
}

/// Text already broken into lines and placed; backends draw each line as is.
#[derive(Clone, Debug, PartialEq)]
pub struct TextPart {
    pub lines: Vec<PlacedLine>,
    pub font_size: f32,
    /// The text's own face; runs of its lines may name others.
    pub face: Typeface,
    pub color: Rgba,
    pub anchor: Anchor,
    /// Link targets of rich text ([`FaceRun::link`] points here), each kept only when
    /// safe to follow (`inkboard_core::rich::safe_url`): `None` draws its text alone.
    pub links: Vec<Option<String>>,
    /// True when the text does not fit its box even shrunk to the floor, and runs
    /// past its edges (`Fitted::overflows`): what `check` reports as
    /// `text_overflow`, read here instead of fitting the text again.
    pub overflows: bool,
    /// The end of its connector this text labels, for an end label (a role name
    /// or a cardinality); `None` for any other text. The SVG marks it
    /// (`data-end`), so the editor and the checker tell it from the main label.
    pub end: Option<LabelEnd>,
}

/// Which end of its connector an end label is drawn beside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabelEnd {
    Start,
    End,
}

impl LabelEnd {
    /// Both ends, start first: the order end labels are placed and drawn in.
    pub const BOTH: [LabelEnd; 2] = [LabelEnd::Start, LabelEnd::End];

    /// The word the SVG and the tools use for it (`start`, `end`).
    pub fn name(self) -> &'static str {
        match self {
            LabelEnd::Start => "start",
            LabelEnd::End => "end",
        }
    }

    /// Its place in a pair of start and end: 0 for the start, 1 for the end.
    pub fn index(self) -> usize {
        match self {
            LabelEnd::Start => 0,
            LabelEnd::End => 1,
        }
    }

    /// The connector's text for this end (empty: none).
    pub fn text(self, c: &inkboard_core::Connector) -> &str {
        match self {
            LabelEnd::Start => c.start_label(),
            LabelEnd::End => c.end_label(),
        }
    }
}

impl TextPart {
    /// Where a piece's link goes, if it is a link safe to follow.
    pub fn href(&self, piece: &FaceRun) -> Option<&str> {
        self.links.get(piece.link?)?.as_deref()
    }

    /// The box a piece of `line` covers, `(x, y, w, h)` in board units: its advance,
    /// from a little above the caps to below the descenders. The area of a link and
    /// the background of inline code.
    pub fn piece_box(&self, line: &PlacedLine, piece: &FaceRun) -> (f32, f32, f32, f32) {
        let fs = self.font_size;
        (
            line.left(self.anchor) + piece.dx,
            line.baseline - 0.95 * fs,
            piece.width,
            1.2 * fs,
        )
    }
}

/// An embedded picture, drawn into `rect` keeping its aspect ratio.
#[derive(Clone, Debug, PartialEq)]
pub struct ImagePart {
    pub rect: Rect,
    pub format: ImageFormat,
    pub data: Arc<[u8]>,
    /// The picture mirrored in `rect`.
    pub flip: inkboard_core::Flip,
}
