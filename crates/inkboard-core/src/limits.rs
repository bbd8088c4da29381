//! The limits of a board, named once: how long a text, how many points in a
//! stroke, how big an image, how many objects on a page and pages on a board, how
//! far from the origin, how big a file and how deep its JSON. The values are far
//! beyond any real board; they exist so that a runaway agent, a damaged file or a
//! hostile request is refused with a message that says what to do, instead of
//! exhausting memory or time.
//!
//! The model enforces its own: every step a [`Transaction`](crate::Transaction)
//! records is checked with [`check_step`] before it is applied, so every tool,
//! batch, the application and undo/redo are covered without any of them repeating
//! the checks, and [`Board::from_parts`](crate::Board::from_parts) checks a whole
//! board with [`check_board`]. The limits on what never becomes a model value are
//! named here and enforced at their boundary: [`MAX_FILE_BYTES`] and
//! [`MAX_JSON_DEPTH`] by the format crate when it loads and saves a file (and the
//! tools' engine for the depth of a call's arguments), [`MAX_BATCH_OPERATIONS`]
//! by `batch`, and the ranges of tool arguments that are no record ([`MIN_SIZE`],
//! [`MAX_GAP`]; a `find` text is held to [`MAX_TEXT_CHARS`] like any text) by the
//! tools. `docs/limits.md` lists them all.

use crate::{Board, Kind, ModelError, Object, Page, Point, Rect, Step};

/// Characters in one text: a shape's or a connector's text, a page name, the title.
pub const MAX_TEXT_CHARS: usize = 100_000;
/// Points in one ink stroke.
pub const MAX_INK_POINTS: usize = 50_000;
/// Waypoints of one connector: a route a person bends by hand has a few.
pub const MAX_WAYPOINTS: usize = 1_000;
/// Bytes of one image as embedded (encoded PNG, JPEG or SVG, before base64).
pub const MAX_IMAGE_BYTES: usize = 16 * 1024 * 1024;
/// Pixels on the longest side of a PNG or JPEG image.
pub const MAX_IMAGE_SIDE: u32 = 16_384;
/// Pixels in all of a PNG or JPEG image: 40 megapixels, about 160 MB decoded.
pub const MAX_IMAGE_PIXELS: u64 = 40_000_000;
/// Objects on one page.
pub const MAX_OBJECTS_PER_PAGE: usize = 100_000;
/// Pages on one board.
pub const MAX_PAGES: usize = 1_000;
/// Bytes of a board file.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;
/// Lists and objects in a board file, counted in its text before it is parsed:
/// every ink point is one (`[x, y]`), so this bounds the points of all strokes
/// together (50 strokes of [`MAX_INK_POINTS`]). A parsed list or object costs
/// about 300 bytes until the board is built, so a file at this limit reads in
/// about 1 GB; past it, ink-heavy files within [`MAX_FILE_BYTES`] took 20 times
/// their size (a 166 MB file, gigabytes).
pub const MAX_JSON_CONTAINERS: usize = 2_500_000;
/// Levels of nesting of lists and objects in a board file or a call's arguments
/// (a board itself needs 7: document, pages, page, objects, object, points, point).
pub const MAX_JSON_DEPTH: usize = 64;
/// The largest distance from the origin of a coordinate, and the largest size.
pub const MAX_COORD: f64 = 10_000_000.0;
/// Operations in one `batch`.
pub const MAX_BATCH_OPERATIONS: usize = 200;
/// The smallest size a tool takes other than none at all: a width or height, a
/// stroke width, a font size, an export's scale. Files keep numbers to 0.01, so
/// a smaller size would be saved as 0; one next to 0 (5e-324) only makes the
/// drawing's divisions blow up. (A board read from a file may hold 0: the model
/// takes sizes from 0.)
pub const MIN_SIZE: f64 = 0.01;
/// Attributes on one element of any XML inkboard reads (draw.io files, SVG
/// images): the parser compares each with the element's earlier ones, so their
/// cost is the square of their count (250,000 took a minute). draw.io writes a
/// handful, plus one per custom property; an SVG element a few dozen.
pub const MAX_XML_ATTRIBUTES: usize = 256;
/// Namespace declarations in scope at one element of any XML inkboard reads: an
/// element that declares one copies and compares all of them. Inkscape declares
/// about ten, draw.io two, plus one on each HTML label.
pub const MAX_XML_NAMESPACES: usize = 64;
/// Bytes that the XML entities an SVG image declares may add to it, expanded
/// wherever they are used: old Illustrator SVGs name their namespaces with a few
/// entities, while a few hundred bytes of nested ones grow to gigabytes. draw.io
/// files may declare none ([`crate::xml`]).
pub const MAX_XML_ENTITY_BYTES: u64 = 1024 * 1024;
/// The largest gap or spacing a tool puts between objects (`gap`, `spacing`):
/// one step past it would already be far off any board a person looks at, and
/// many of them would leave the coordinates' range with a less useful message.
pub const MAX_GAP: f64 = 100_000.0;

/// One of the counted limits: its value, and how a message over it reads.
/// Coordinates, which are not counted, are [`MAX_COORD`] and
/// [`ModelError::BadNumber`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// [`MAX_TEXT_CHARS`]
    TextChars,
    /// [`MAX_INK_POINTS`]
    InkPoints,
    /// [`MAX_WAYPOINTS`]
    Waypoints,
    /// [`MAX_IMAGE_BYTES`]
    ImageBytes,
    /// [`MAX_IMAGE_SIDE`]
    ImageSide,
    /// [`MAX_IMAGE_PIXELS`]
    ImagePixels,
    /// [`MAX_OBJECTS_PER_PAGE`]
    ObjectsPerPage,
    /// [`MAX_PAGES`]
    Pages,
    /// [`MAX_FILE_BYTES`]
    FileBytes,
    /// [`MAX_JSON_DEPTH`]
    JsonDepth,
    /// [`MAX_JSON_CONTAINERS`]
    JsonContainers,
    /// [`MAX_BATCH_OPERATIONS`]
    BatchOperations,
    /// [`MAX_XML_ATTRIBUTES`]
    XmlAttributes,
    /// [`MAX_XML_NAMESPACES`]
    XmlNamespaces,
    /// [`MAX_XML_ENTITY_BYTES`]
    XmlEntityBytes,
}

impl Limit {
    /// The limit's value.
    pub fn value(self) -> u64 {
        match self {
            Limit::TextChars => MAX_TEXT_CHARS as u64,
            Limit::InkPoints => MAX_INK_POINTS as u64,
            Limit::Waypoints => MAX_WAYPOINTS as u64,
            Limit::ImageBytes => MAX_IMAGE_BYTES as u64,
            Limit::ImageSide => u64::from(MAX_IMAGE_SIDE),
            Limit::ImagePixels => MAX_IMAGE_PIXELS,
            Limit::ObjectsPerPage => MAX_OBJECTS_PER_PAGE as u64,
            Limit::Pages => MAX_PAGES as u64,
            Limit::FileBytes => MAX_FILE_BYTES,
            Limit::JsonDepth => MAX_JSON_DEPTH as u64,
            Limit::JsonContainers => MAX_JSON_CONTAINERS as u64,
            Limit::BatchOperations => MAX_BATCH_OPERATIONS as u64,
            Limit::XmlAttributes => MAX_XML_ATTRIBUTES as u64,
            Limit::XmlNamespaces => MAX_XML_NAMESPACES as u64,
            Limit::XmlEntityBytes => MAX_XML_ENTITY_BYTES,
        }
    }

    /// What is counted, and the value again in a friendlier unit where there is one.
    fn unit(self) -> (&'static str, &'static str) {
        match self {
            Limit::TextChars => ("characters", ""),
            Limit::InkPoints => ("points", ""),
            Limit::Waypoints => ("waypoints", ""),
            Limit::ImageBytes => ("bytes", " (16 MiB)"),
            Limit::ImageSide => ("pixels on its longest side", ""),
            Limit::ImagePixels => ("pixels", " (40 megapixels)"),
            Limit::ObjectsPerPage => ("objects", ""),
            Limit::Pages => ("pages", ""),
            Limit::FileBytes => ("bytes", " (256 MiB)"),
            Limit::JsonDepth => ("levels of nesting", ""),
            Limit::JsonContainers => ("lists and objects (each ink point is one)", ""),
            Limit::BatchOperations => ("operations", ""),
            Limit::XmlAttributes => ("attributes on one element", ""),
            Limit::XmlNamespaces => ("namespace declarations around one element", ""),
            Limit::XmlEntityBytes => ("bytes of XML entities once expanded", " (1 MiB)"),
        }
    }

    /// What to do about it.
    fn fix(self) -> &'static str {
        match self {
            Limit::TextChars => "shorten it, or split it over several objects",
            Limit::InkPoints => "split the stroke into several, or draw it with fewer points",
            Limit::Waypoints => "give the connector fewer waypoints",
            Limit::ImageBytes => "use a smaller image: scale it down or compress it",
            Limit::ImageSide | Limit::ImagePixels => "scale the image down",
            Limit::ObjectsPerPage => "put some of them on another page",
            Limit::Pages => "split the board into several boards",
            Limit::FileBytes => "split the board into several, or make its images smaller",
            Limit::JsonDepth => "flatten the nested lists and objects",
            Limit::JsonContainers => {
                "split the board into several, or draw its ink with fewer points"
            }
            Limit::BatchOperations => "split the work into several batches",
            Limit::XmlAttributes | Limit::XmlNamespaces => {
                "save it again from the program that made it; no drawing needs that many"
            }
            Limit::XmlEntityBytes => "save it again without XML entities",
        }
    }

    /// The one-sentence message for `what` holding `got` of what this limit counts.
    pub fn explain(self, what: &str, got: u64) -> String {
        let (unit, friendly) = self.unit();
        format!(
            "{what} has {got} {unit}, more than the limit of {}{friendly}: {}",
            self.value(),
            self.fix()
        )
    }

    /// Refuses `got` over this limit, naming `what` holds it.
    pub fn check(self, what: impl FnOnce() -> String, got: u64) -> Result<(), ModelError> {
        if got <= self.value() {
            return Ok(());
        }
        Err(ModelError::TooLarge {
            limit: self,
            what: what(),
            got,
        })
    }
}

/// Refuses a coordinate that is not finite or is farther than [`MAX_COORD`] from 0.
pub fn check_coord(what: &'static str, v: f64) -> Result<(), ModelError> {
    if v.is_finite() && v.abs() <= MAX_COORD {
        return Ok(());
    }
    Err(ModelError::BadNumber {
        what,
        value: v,
        extra: " from -10000000 to 10000000",
    })
}

/// Refuses a size (a width or height) that is not from 0 to [`MAX_COORD`].
pub fn check_size(what: &'static str, v: f64) -> Result<(), ModelError> {
    if v.is_finite() && (0.0..=MAX_COORD).contains(&v) {
        return Ok(());
    }
    Err(ModelError::BadNumber {
        what,
        value: v,
        extra: " from 0 to 10000000",
    })
}

/// Refuses a text longer than [`MAX_TEXT_CHARS`]; `what` names it in the message
/// ("the text of shape \"s1\"", "'text'").
pub fn check_text(what: &str, text: &str) -> Result<(), ModelError> {
    // Characters are never more than bytes, so most texts are not counted.
    if text.len() <= MAX_TEXT_CHARS {
        return Ok(());
    }
    Limit::TextChars.check(|| what.to_string(), text.chars().count() as u64)
}

/// Refuses image bytes over [`MAX_IMAGE_BYTES`], a PNG or JPEG whose header
/// declares more than [`MAX_IMAGE_SIDE`] pixels on a side or [`MAX_IMAGE_PIXELS`]
/// in all (an SVG is drawn at the size of its box, so only its bytes count), and
/// an SVG whose XML would cost its parser more than its size says
/// ([`crate::xml::check`]: attributes, namespaces, entities).
pub fn check_image(what: &str, data: &[u8]) -> Result<(), ModelError> {
    let named = || what.to_string();
    Limit::ImageBytes.check(named, data.len() as u64)?;
    if let Some((w, h)) = crate::image::raster_size(data) {
        Limit::ImageSide.check(named, u64::from(w.max(h)))?;
        Limit::ImagePixels.check(named, u64::from(w) * u64::from(h))?;
    }
    if crate::ImageFormat::sniff(data) == Some(crate::ImageFormat::Svg) {
        // Not UTF-8 is no SVG a parser reads: nothing to bound.
        if let Ok(text) = std::str::from_utf8(data) {
            crate::xml::check(what, text, crate::xml::Entities::Bounded)?;
        }
    }
    Ok(())
}

/// Refuses a count of pages over [`MAX_PAGES`], before such a board is made.
pub fn check_page_count(pages: usize) -> Result<(), ModelError> {
    Limit::Pages.check(|| "the board".to_string(), pages as u64)
}

/// Checks one object on its own: its numbers (coordinates, sizes, style), its text,
/// its points, its image bytes and pixels. Messages name it by its id.
pub fn check_object(object: &Object) -> Result<(), ModelError> {
    check_named(object, || {
        format!("{} \"{}\"", noun(&object.kind), object.id)
    })
}

/// What messages call an object of this kind.
fn noun(kind: &Kind) -> &'static str {
    match kind {
        Kind::Shape(_) => "shape",
        Kind::Connector(_) => "connector",
        Kind::Image(_) => "image",
        Kind::Ink(_) => "ink stroke",
        Kind::Group(_) => "group",
    }
}

/// [`check_object`], with `name` saying what the object is called in messages.
fn check_named(object: &Object, name: impl Fn() -> String) -> Result<(), ModelError> {
    match &object.kind {
        Kind::Shape(s) => {
            check_rect(&s.bounds)?;
            check_text(&format!("the text of {}", name()), &s.text)?;
        }
        Kind::Connector(c) => {
            for end in [&c.from, &c.to] {
                if let crate::End::Point(p) = end {
                    check_point(p)?;
                }
            }
            Limit::Waypoints.check(&name, c.waypoints().len() as u64)?;
            c.waypoints().iter().try_for_each(check_point)?;
            if let Some(at) = c.label_at() {
                check_fraction("label_at", at)?;
            }
            check_text(&format!("the text of {}", name()), &c.text)?;
            check_text(&format!("the start label of {}", name()), c.start_label())?;
            check_text(&format!("the end label of {}", name()), c.end_label())?;
        }
        Kind::Image(i) => {
            check_rect(&i.bounds)?;
            check_image(&name(), &i.data)?;
        }
        Kind::Ink(k) => {
            Limit::InkPoints.check(&name, k.points.len() as u64)?;
            k.points.iter().try_for_each(check_point)?;
        }
        // A group's members are ids on its page, so the page's count bounds them.
        Kind::Group(_) => {}
    }
    match object.style() {
        Some(style) => style.validate(),
        None => Ok(()),
    }
}

fn check_rect(r: &Rect) -> Result<(), ModelError> {
    check_coord("x", r.x)?;
    check_coord("y", r.y)?;
    check_size("w", r.w)?;
    check_size("h", r.h)
}

/// Refuses a fraction (a place along a line) that is not from 0 to 1.
pub fn check_fraction(what: &'static str, v: f64) -> Result<(), ModelError> {
    if (0.0..=1.0).contains(&v) {
        return Ok(());
    }
    Err(ModelError::BadNumber {
        what,
        value: v,
        extra: " from 0 to 1",
    })
}

fn check_point(p: &Point) -> Result<(), ModelError> {
    check_coord("x", p.x)?;
    check_coord("y", p.y)
}

/// Checks a page: its name, how many objects it holds, and each of them.
/// `number` is its position on the board, from 1, for messages.
pub fn check_page(page: &Page, number: usize) -> Result<(), ModelError> {
    check_text(&format!("the name of page {number}"), &page.name)?;
    Limit::ObjectsPerPage.check(|| format!("page {number}"), page.objects.len() as u64)?;
    page.objects.iter().try_for_each(check_object)
}

/// Checks a whole board: its title, its page count and every page.
pub fn check_board(board: &Board) -> Result<(), ModelError> {
    check_text("the title", board.title())?;
    check_page_count(board.pages().len())?;
    board
        .pages()
        .iter()
        .enumerate()
        .try_for_each(|(i, page)| check_page(page, i + 1))
}

/// Checks what `step` would write to `board`, before it is applied: the record
/// it adds or replaces, and the count it raises. Removals never go over a limit.
pub fn check_step(board: &Board, step: &Step) -> Result<(), ModelError> {
    let number = |page| board.page_position(page).map_or(0, |i| i + 1);
    match step {
        Step::Insert { page, object, .. } => {
            let len = board.page(*page).map_or(0, |p| p.objects.len());
            Limit::ObjectsPerPage.check(|| format!("page {}", number(*page)), len as u64 + 1)?;
            // Its id means nothing yet to whoever is adding it.
            check_named(object, || format!("the {} being added", noun(&object.kind)))
        }
        Step::Replace { after, .. } => check_object(after),
        Step::InsertPage { index, page } => {
            check_page_count(board.pages().len() + 1)?;
            check_page(page, index + 1)
        }
        Step::RenamePage { page, after, .. } => {
            check_text(&format!("the name of page {}", number(*page)), after)
        }
        Step::SetTitle { after, .. } => check_text("the title", after),
        Step::Remove { .. } | Step::RemovePage { .. } => Ok(()),
    }
}
