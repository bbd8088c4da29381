//! Builds the board both importers produce: pages in order, objects in z-order,
//! ids handed out from one counter, numbers kept within the model's range, and
//! losses collected. [`BoardBuilder::finish`] hands everything to
//! `Board::from_parts`, which checks every invariant and limit once, so the
//! mappers never build a board the rest of inkboard could not load.

use std::sync::Arc;

use base64::Engine as _;
use inkboard_core::limits::{check_image, check_page_count, MAX_COORD, MAX_INK_POINTS};
use inkboard_core::{
    Board, Dash, Extra, Geom, IdKind, Image, ImageFormat, Kind, Object, ObjectId, Page, PageId,
    Point, Rect, Shape, Sizing, Style,
};

use crate::lost::{Losses, LostKind};
use crate::{ImportError, Lost};

/// The board being built, page by page.
pub(crate) struct BoardBuilder {
    title: String,
    pages: Vec<Page>,
    next: u64,
    pub(crate) losses: Losses,
}

impl BoardBuilder {
    pub(crate) fn new(title: String) -> Self {
        BoardBuilder {
            title,
            pages: Vec::new(),
            next: 1,
            losses: Losses::default(),
        }
    }

    /// Starts a new page; the objects pushed from now on go on it. Refuses a
    /// board with more pages than the limit before it is built.
    pub(crate) fn page(&mut self, name: &str) -> Result<(), ImportError> {
        check_page_count(self.pages.len() + 1).map_err(ImportError::Limit)?;
        let number = self.pages.len() as u32 + 1;
        let name = if name.trim().is_empty() {
            format!("Page {number}")
        } else {
            name.to_string()
        };
        self.pages.push(Page::new(PageId(number), name));
        Ok(())
    }

    /// A new object id of this kind.
    pub(crate) fn id(&mut self, kind: IdKind) -> ObjectId {
        let id = ObjectId::new(kind, self.next);
        self.next += 1;
        id
    }

    /// Puts an object on top of the current page.
    pub(crate) fn push(&mut self, id: ObjectId, kind: Kind) {
        if self.pages.is_empty() {
            // Importers always start a page first; this keeps a slip from panicking.
            self.pages.push(Page::new(PageId(1), "Page 1"));
        }
        let page = self.pages.last_mut().expect("a page");
        page.objects.push(Object::new(id, kind));
    }

    /// Locks the object pushed last (draw.io's `locked=1`, Excalidraw's
    /// `locked: true`).
    pub(crate) fn lock_last(&mut self) {
        if let Some(o) = self.pages.last_mut().and_then(|p| p.objects.last_mut()) {
            o.locked = true;
        }
    }

    /// A coordinate the model accepts: not finite becomes 0, too far is moved to
    /// the edge of the board's range. Both are reported.
    pub(crate) fn coord(&mut self, v: f64) -> f64 {
        if v.is_finite() && v.abs() <= MAX_COORD {
            return v;
        }
        self.losses.add(LostKind::OutOfRange, &format!("{v}"));
        if v.is_finite() {
            v.clamp(-MAX_COORD, MAX_COORD)
        } else {
            0.0
        }
    }

    pub(crate) fn point(&mut self, x: f64, y: f64) -> Point {
        Point {
            x: self.coord(x),
            y: self.coord(y),
        }
    }

    /// The points of an ink stroke at `origin` + each point, within range, and
    /// thinned (its ends kept) when over the model's limit, which is reported.
    pub(crate) fn ink_points(
        &mut self,
        mut pts: Vec<(f64, f64)>,
        (ox, oy): (f64, f64),
        example: &str,
    ) -> Vec<Point> {
        if pts.is_empty() {
            pts.push((0.0, 0.0));
        }
        if pts.len() > MAX_INK_POINTS {
            self.losses.add(LostKind::InkThinned, example);
            let step = pts.len().div_ceil(MAX_INK_POINTS);
            let last = *pts.last().expect("not empty");
            pts = pts.into_iter().step_by(step).collect();
            pts.truncate(MAX_INK_POINTS - 1);
            pts.push(last);
        }
        pts.into_iter()
            .map(|(x, y)| self.point(ox + x, oy + y))
            .collect()
    }

    /// A rectangle from a corner and a size, a negative size made into a
    /// positive one from the other corner, everything within range.
    pub(crate) fn rect(&mut self, x: f64, y: f64, w: f64, h: f64) -> Rect {
        let (x, w) = if w < 0.0 { (x + w, -w) } else { (x, w) };
        let (y, h) = if h < 0.0 { (y + h, -h) } else { (y, h) };
        let x = self.coord(x);
        let y = self.coord(y);
        let w = self.coord(w).abs();
        let h = self.coord(h).abs();
        Rect::new(x, y, w, h)
    }

    /// An image with these bytes, or, when the model cannot hold them (unknown
    /// format, over the image limits), a dashed placeholder carrying `label`,
    /// reported as lost with `example`.
    pub(crate) fn image(
        &mut self,
        data: Vec<u8>,
        bounds: Rect,
        label: &str,
        example: &str,
    ) -> Kind {
        match ImageFormat::sniff(&data) {
            Some(format) if check_image("the image", &data).is_ok() => Kind::Image(Image {
                bounds,
                format,
                data: Arc::from(data),
                style: Style::default(),
                rotation: inkboard_core::Rotation::NONE,
            }),
            _ => {
                self.losses.add(LostKind::BadImage, example);
                placeholder(bounds, label)
            }
        }
    }

    /// Builds the board; the model checks it whole (ids, references, limits).
    pub(crate) fn finish(mut self) -> Result<(Board, Vec<Lost>), ImportError> {
        if self.pages.is_empty() {
            self.page("")?;
        }
        let board = Board::from_parts(self.title, self.pages, self.next, 0, Extra::new())
            .map_err(ImportError::Limit)?;
        Ok((board, self.losses.into_vec()))
    }
}

/// A dashed rectangle standing for something the board cannot show, with a text
/// that says what it was.
pub(crate) fn placeholder(bounds: Rect, label: &str) -> Kind {
    Kind::Shape(Shape {
        geom: Geom::Rect,
        bounds,
        text: label.to_string(),
        style: Style {
            dash: Some(Dash::Dashed),
            ..Style::default()
        },
        sizing: Sizing::Fixed,
        rotation: inkboard_core::Rotation::NONE,
        icon: None,
    })
}

/// `kind` turned by `rotation` when it is a shape or an image (a placeholder for
/// an image turns as the image would have).
pub(crate) fn turned(mut kind: Kind, rotation: inkboard_core::Rotation) -> Kind {
    match &mut kind {
        Kind::Shape(s) => s.rotation = rotation,
        Kind::Image(i) => i.rotation = rotation,
        _ => {}
    }
    kind
}

/// The MIME type and bytes of a `data:` URL, with or without `;base64` (draw.io
/// writes `data:image/png,BASE64` in styles, where `;` separates entries, so a
/// URL without the flag whose data looks like base64 is read as base64 too).
pub(crate) fn data_url(url: &str) -> Option<(String, Vec<u8>)> {
    let rest = url.trim().strip_prefix("data:")?;
    let (head, data) = rest.split_once(',')?;
    let mut parts = head.split(';');
    let mime = parts.next().unwrap_or("").trim().to_ascii_lowercase();
    let base64_flag = parts.any(|p| p.trim().eq_ignore_ascii_case("base64"));
    let bytes = if base64_flag {
        base64_lenient(data)?
    } else {
        match base64_lenient(data) {
            Some(b) => b,
            None => percent_encoding::percent_decode_str(data).collect(),
        }
    };
    Some((mime, bytes))
}

/// Decodes base64 as writers produce it: standard alphabet, padding or not,
/// whitespace (line breaks) anywhere.
pub(crate) fn base64_lenient(text: &str) -> Option<Vec<u8>> {
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    const LENIENT: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );
    let cleaned: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    LENIENT.decode(cleaned).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_urls_decode_with_or_without_the_base64_flag() {
        assert_eq!(
            data_url("data:image/png;base64,aGk=").unwrap(),
            ("image/png".into(), b"hi".to_vec())
        );
        assert_eq!(data_url("data:image/png,aGk=").unwrap().1, b"hi".to_vec());
        assert_eq!(
            data_url("data:image/svg+xml,%3Csvg%3E").unwrap().1,
            b"<svg>".to_vec()
        );
        assert!(data_url("https://example.com/a.png").is_none());
    }
}
