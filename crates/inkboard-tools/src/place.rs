//! Where new shapes go and how big they are when the caller does not say: sized to
//! fit their text (measured with the renderer's own font and shaper, so the text
//! the renderer wraps fits exactly), and placed in free space in reading order:
//! to the right of the last object placed, or at the start of a new row below
//! everything once the row is full.

use inkboard_core::{Board, Geom, Kind, ObjectId, PageId, Rect, Style};
use inkboard_render::style::shape_font;
use inkboard_render::text;

/// Space left between neighbours.
pub const GAP: f64 = 40.0;
/// A row of auto-placed shapes wraps once it would be wider than this.
pub const ROW_WIDTH: f64 = 1200.0;
/// Inside a frame, contents keep this far from its border.
const FRAME_PADDING: f64 = 20.0;

/// The widest a text line may be before an auto-sized shape wraps it.
fn wrap_width(geom: Geom) -> f64 {
    match geom {
        Geom::Text => 400.0,
        Geom::Note => 136.0,
        Geom::Frame => 1000.0,
        _ => 200.0,
    }
}

/// The size of a shape that fits `text` in the font the renderer will draw it in.
pub fn fit_text(geom: Geom, text: &str, style: &Style) -> (f64, f64) {
    let (min_w, min_h) = geom.default_size();
    if text.trim().is_empty() {
        return (min_w, min_h);
    }
    let (size, weight) = shape_font(geom, style);
    let block = text::layout(text, size, weight, Some(wrap_width(geom) as f32));
    // Whole pixels, rounded up, so that the text box is never a hair too small.
    let (w, h) = geom.size_for_text(block.width.ceil() as f64 + 1.0, block.height.ceil() as f64);
    let (w, h) = (w.ceil(), h.ceil());
    match geom {
        Geom::Text => (w, h),
        Geom::Frame => (w.max(min_w), min_h),
        _ => (w.max(min_w), h.max(min_h)),
    }
}

/// Something a new shape must not overlap: its id, its bounds, and whether it is a
/// frame. The id is borrowed from the board: this list is made for every placed
/// shape, and on a page of thousands of objects cloning every id showed.
type Obstacle<'a> = (&'a ObjectId, Rect, bool);

/// The rectangles new shapes must not overlap: shapes and images on the page.
fn obstacles(board: &Board, page: PageId) -> Vec<Obstacle<'_>> {
    let Some(page) = board.page(page) else {
        return Vec::new();
    };
    page.objects
        .iter()
        .filter(|o| matches!(o.kind, Kind::Shape(_) | Kind::Image(_)))
        .filter_map(|o| o.own_bounds().map(|b| (&o.id, b, o.is_frame())))
        .collect()
}

fn is_free(obstacles: &[Obstacle<'_>], r: &Rect, inside: Option<&ObjectId>) -> bool {
    // A little margin keeps shapes from touching.
    let grown = Rect::new(r.x - 8.0, r.y - 8.0, r.w + 16.0, r.h + 16.0);
    obstacles
        .iter()
        .all(|(id, b, _)| Some(*id) == inside || !b.overlaps(&grown))
}

/// A free spot for a `w`×`h` shape on `page`, in reading order.
pub fn free_spot(board: &Board, page: PageId, w: f64, h: f64) -> (f64, f64) {
    let all = obstacles(board, page);
    flow(&all, None, w, h)
}

/// A free spot when the caller fixed one coordinate (`x` or `y`): the other one is
/// moved along its axis, past what is in the way, until the shape overlaps nothing.
pub fn free_spot_with(
    board: &Board,
    page: PageId,
    x: Option<f64>,
    y: Option<f64>,
    w: f64,
    h: f64,
) -> (f64, f64) {
    let (fx, fy) = free_spot(board, page, w, h);
    let mut r = Rect::new(x.unwrap_or(fx), y.unwrap_or(fy), w, h);
    if x.is_some() == y.is_some() {
        return (r.x, r.y);
    }
    let all = obstacles(board, page);
    for _ in 0..1000 {
        let grown = Rect::new(r.x - 8.0, r.y - 8.0, r.w + 16.0, r.h + 16.0);
        let blockers: Vec<&Rect> = all
            .iter()
            .filter(|(_, b, _)| b.overlaps(&grown))
            .map(|(_, b, _)| b)
            .collect();
        if blockers.is_empty() {
            break;
        }
        if x.is_some() {
            r.y = blockers.iter().map(|b| b.bottom()).fold(r.y, f64::max) + GAP;
        } else {
            r.x = blockers.iter().map(|b| b.right()).fold(r.x, f64::max) + GAP;
        }
    }
    (r.x, r.y)
}

/// The area of a frame where its contents go: inside its border, below its title.
fn frame_area(fb: Rect) -> Rect {
    Rect::new(
        fb.x + FRAME_PADDING,
        fb.y + inkboard_core::FRAME_TITLE_HEIGHT + FRAME_PADDING / 2.0,
        (fb.w - 2.0 * FRAME_PADDING).max(0.0),
        (fb.h - inkboard_core::FRAME_TITLE_HEIGHT - 1.5 * FRAME_PADDING).max(0.0),
    )
}

/// A free spot inside `frame`, in reading order within it (possibly beyond its
/// border: see [`frame_grown_to_hold`]).
pub fn spot_in_frame(board: &Board, frame: &ObjectId, w: f64, h: f64) -> (f64, f64) {
    let Some((page, _)) = board.locate(frame) else {
        return (0.0, 0.0);
    };
    let Some(fb) = board.bounds(frame) else {
        return (0.0, 0.0);
    };
    let all = obstacles(board, page);
    flow(&all, Some((frame, frame_area(fb))), w, h)
}

/// The bounds `frame` must grow to so that `placed` lies within it (what makes an
/// object part of a frame), or `None` when it already does. The frame only grows,
/// on whichever sides need it, keeping its padding and title band clear.
pub fn frame_grown_to_hold(board: &Board, frame: &ObjectId, placed: &Rect) -> Option<Rect> {
    let fb = board.bounds(frame)?;
    if fb.contains(placed) {
        return None;
    }
    let left = fb.x.min(placed.x - FRAME_PADDING);
    let top =
        fb.y.min(placed.y - inkboard_core::FRAME_TITLE_HEIGHT - FRAME_PADDING / 2.0);
    let right = fb.right().max(placed.right() + FRAME_PADDING);
    let bottom = fb.bottom().max(placed.bottom() + FRAME_PADDING);
    Some(Rect::new(left, top, right - left, bottom - top))
}

/// Reading-order placement among `all`, optionally within a frame's area.
fn flow(all: &[Obstacle<'_>], frame: Option<(&ObjectId, Rect)>, w: f64, h: f64) -> (f64, f64) {
    let inside_id = frame.map(|(id, _)| id);
    // The objects that count for the flow: inside the frame, or everything.
    let local: Vec<&Rect> = match frame {
        Some((id, area)) => all
            .iter()
            .filter(|(o, b, _)| *o != id && area.contains(b))
            .map(|(_, b, _)| b)
            .collect(),
        None => all.iter().map(|(_, b, _)| b).collect(),
    };
    let (left, top, width) = match frame {
        Some((_, area)) => (area.x, area.y, area.w.max(w)),
        None => {
            let left = local.iter().map(|b| b.x).fold(f64::INFINITY, f64::min);
            if left.is_finite() {
                (left, 0.0, ROW_WIDTH.max(w))
            } else {
                (0.0, 0.0, ROW_WIDTH)
            }
        }
    };
    let Some(last) = local.last() else {
        return (left, top);
    };
    // Next to the last object, if the row has room and the spot is free.
    let beside = Rect::new(last.right() + GAP, last.y, w, h);
    if beside.right() <= left + width && is_free(all, &beside, inside_id) {
        return (beside.x, beside.y);
    }
    // Otherwise a new row below everything that counts.
    let bottom = local.iter().map(|b| b.bottom()).fold(top, f64::max);
    let mut spot = Rect::new(left, bottom + GAP, w, h);
    // Objects outside the frame may still be in the way; step down past them.
    for _ in 0..1000 {
        if is_free(all, &spot, inside_id) {
            break;
        }
        let below = all
            .iter()
            .filter(|(id, b, _)| Some(*id) != inside_id && b.overlaps(&spot))
            .map(|(_, b, _)| b.bottom())
            .fold(spot.y, f64::max);
        spot.y = below + GAP;
    }
    (spot.x, spot.y)
}

/// Which side of a reference object a shape goes on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Side {
    Right,
    Left,
    Below,
    Above,
}

/// A spot `gap` away from `reference` on `side`, centred on it, moved further out
/// along that side past whatever is already there.
pub fn beside(
    board: &Board,
    page: PageId,
    reference: Rect,
    side: Side,
    gap: f64,
    w: f64,
    h: f64,
) -> (f64, f64) {
    let all = obstacles(board, page);
    let c = reference.center();
    let mut r = match side {
        Side::Right => Rect::new(reference.right() + gap, c.y - h / 2.0, w, h),
        Side::Left => Rect::new(reference.x - gap - w, c.y - h / 2.0, w, h),
        Side::Below => Rect::new(c.x - w / 2.0, reference.bottom() + gap, w, h),
        Side::Above => Rect::new(c.x - w / 2.0, reference.y - gap - h, w, h),
    };
    for _ in 0..1000 {
        let blocker = all
            .iter()
            .find(|(_, b, frame)| !frame && b.overlaps(&r))
            .map(|(_, b, _)| *b);
        let Some(b) = blocker else { break };
        match side {
            Side::Right => r.x = b.right() + gap,
            Side::Left => r.x = b.x - gap - w,
            Side::Below => r.y = b.bottom() + gap,
            Side::Above => r.y = b.y - gap - h,
        }
    }
    (r.x, r.y)
}

/// The height a shape of width `w` needs for `text`, wrapped inside its text box.
pub fn fit_height(geom: Geom, text: &str, style: &Style, w: f64) -> f64 {
    let min_h = geom.default_size().1;
    if text.trim().is_empty() || geom == Geom::Frame {
        return min_h;
    }
    let (size, weight) = shape_font(geom, style);
    let inner = geom.text_box(Rect::new(0.0, 0.0, w, 10_000.0)).w;
    let block = text::layout(text, size, weight, Some(inner as f32));
    let h = geom
        .size_for_text(block.width as f64, block.height.ceil() as f64)
        .1
        .ceil();
    if geom == Geom::Text {
        h
    } else {
        h.max(min_h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_grows_the_shape_and_wraps() {
        let (w1, h1) = fit_text(Geom::Rect, "Hi", &Style::default());
        assert_eq!((w1, h1), Geom::Rect.default_size());
        let (w2, _) = fit_text(
            Geom::Rect,
            "A rather longer label for a box",
            &Style::default(),
        );
        assert!(w2 > w1);
        let (w3, h3) = fit_text(Geom::Rect, &"word ".repeat(40), &Style::default());
        assert!(w3 <= 200.0 + 24.0 + 2.0, "{w3}");
        assert!(h3 > 60.0);
    }
}
