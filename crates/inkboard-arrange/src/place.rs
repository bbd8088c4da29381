//! Where shapes go and how big they are when the caller does not say exactly:
//! sized to fit their text (measured with the renderer's own font and shaper, so
//! the text the renderer wraps fits exactly), placed in free space in reading
//! order (to the right of the last object placed, or at the start of a new row
//! below everything once the row is full), or placed relative to an object or
//! into a frame ([`relative`], shared by `add_shape`, `move` and `duplicate`).

use std::collections::HashSet;

use inkboard_core::{Board, Geom, Kind, ObjectId, PageId, Rect, Shape, Style, Transaction};
use inkboard_render::style::shape_font;
use inkboard_render::text::{self, DEFAULT_FONT_SIZE};

use crate::ArrangeError;

/// Space left between neighbours.
pub const GAP: f64 = 40.0;
/// A row of auto-placed shapes wraps once it would be wider than this.
pub const ROW_WIDTH: f64 = 1200.0;
/// Inside a frame, contents keep this far from its border.
pub const FRAME_PADDING: f64 = 20.0;

/// The widest a text line may be before an auto-sized shape wraps it, at the
/// default font size; it scales with the font size ([`wrap_width`]), so a large
/// title wraps as a small label does, at the same number of letters. `text` shapes
/// do not wrap at all unless given a width.
fn base_wrap_width(geom: Geom) -> Option<f64> {
    match geom {
        Geom::Text => None,
        Geom::Note => Some(136.0),
        Geom::Frame => Some(1000.0),
        _ => Some(200.0),
    }
}

/// [`base_wrap_width`] scaled to `font_size`.
fn wrap_width(geom: Geom, font_size: f32) -> Option<f32> {
    base_wrap_width(geom).map(|w| (w * f64::from(font_size) / f64::from(DEFAULT_FONT_SIZE)) as f32)
}

/// The size of a shape that fits `text` in the font the renderer will draw it in:
/// wrapped between words only (so no word is broken) at [`wrap_width`], and as
/// wide as its widest line, so the renderer's fit rule draws it at its own size.
pub fn fit_text(geom: Geom, text: &str, style: &Style) -> (f64, f64) {
    fit_text_icon(geom, text, style, false)
}

/// [`fit_text`] with room for an icon above the text when `icon`
/// ([`Geom::size_for_text_with_icon`]).
fn fit_text_icon(geom: Geom, text: &str, style: &Style, icon: bool) -> (f64, f64) {
    if geom == Geom::Table {
        // A table lays out its own rows and columns: its size is theirs.
        return inkboard_render::table::natural_size(text, style);
    }
    let (min_w, min_h) = geom.default_size();
    if text.trim().is_empty() {
        return (min_w, min_h);
    }
    let (w, h) = text_size_icon(geom, text, style, icon);
    match geom {
        Geom::Text => (w, h),
        Geom::Frame => (w.max(min_w), min_h),
        _ => (w.max(min_w), h.max(min_h)),
    }
}

/// Something a placed shape must not overlap: its id, its bounds, and whether it
/// is a frame. The id is borrowed from the board: this list is made for every
/// placed shape, and on a page of thousands of objects cloning every id showed.
pub type Obstacle<'a> = (&'a ObjectId, Rect, bool);

/// The smallest shape of `geom` whose text box holds `text` as [`fit_text`]
/// wraps it, with no floor of the geom's default size (a sequence diagram's
/// notes and heads are smaller than a new shape).
pub fn text_size(geom: Geom, text: &str, style: &Style) -> (f64, f64) {
    text_size_icon(geom, text, style, false)
}

fn text_size_icon(geom: Geom, text: &str, style: &Style, icon: bool) -> (f64, f64) {
    if geom == Geom::Table {
        return inkboard_render::table::natural_size(text, style);
    }
    let (size, weight) = shape_font(geom, style);
    let rich = geom != Geom::Frame;
    let block = text::layout_text(text, size, weight, wrap_width(geom, size), true, rich);
    // Whole pixels, rounded up, so that the text box is never a hair too small.
    let (w, h) = geom.size_for_text_with_icon(
        block.width.ceil() as f64 + 1.0,
        block.height.ceil() as f64,
        icon,
    );
    (w.ceil(), h.ceil())
}

/// The rectangles placed shapes must not overlap: shapes and images on the page,
/// but for `ignore` (what is being moved, and so leaves its place).
pub fn obstacles<'a>(board: &'a Board, page: PageId, ignore: &[ObjectId]) -> Vec<Obstacle<'a>> {
    let Some(page) = board.page(page) else {
        return Vec::new();
    };
    let ignore: HashSet<&ObjectId> = ignore.iter().collect();
    page.objects
        .iter()
        .filter(|o| matches!(o.kind, Kind::Shape(_) | Kind::Image(_)) && !ignore.contains(&o.id))
        .filter_map(|o| o.own_bounds().map(|b| (&o.id, b, o.is_frame())))
        .collect()
}

/// The frames among `all` that wholly hold `r`, innermost (smallest) first.
fn frames_around<'a>(all: &[Obstacle<'a>], r: &Rect) -> Vec<(&'a ObjectId, Rect)> {
    let mut out: Vec<(&ObjectId, Rect)> = all
        .iter()
        .filter(|(_, b, frame)| *frame && b.contains(r))
        .map(|(id, b, _)| (*id, *b))
        .collect();
    out.sort_by(|a, b| (a.1.w * a.1.h).total_cmp(&(b.1.w * b.1.h)));
    out
}

/// True when `r` overlaps none of `all` but the `passable` ones (the frames it is
/// meant to lie in).
fn is_free(obstacles: &[Obstacle<'_>], r: &Rect, passable: &[&ObjectId]) -> bool {
    // A little margin keeps shapes from touching.
    let grown = Rect::new(r.x - 8.0, r.y - 8.0, r.w + 16.0, r.h + 16.0);
    obstacles
        .iter()
        .all(|(id, b, _)| passable.contains(id) || !b.overlaps(&grown))
}

/// A free spot for a `w`×`h` shape on `page`, in reading order.
pub fn free_spot(board: &Board, page: PageId, w: f64, h: f64) -> (f64, f64) {
    let all = obstacles(board, page, &[]);
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
    let all = obstacles(board, page, &[]);
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
/// border: the frame then grows, [`hold`]), with `ignore` leaving their place.
fn spot_in_frame(
    board: &Board,
    frame: &ObjectId,
    w: f64,
    h: f64,
    ignore: &[ObjectId],
) -> (f64, f64) {
    let Some((page, _)) = board.locate(frame) else {
        return (0.0, 0.0);
    };
    let Some(fb) = board.bounds(frame) else {
        return (0.0, 0.0);
    };
    let all = obstacles(board, page, ignore);
    flow(&all, Some((frame, fb)), w, h)
}

/// The bounds a frame (now `fb`) must grow to so that `placed` lies within it
/// (what makes an object part of a frame), or `None` when it already does. The
/// frame only grows, on whichever sides need it, keeping its padding and title
/// band clear.
pub fn grown_to_hold(fb: Rect, placed: &Rect) -> Option<Rect> {
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

/// Grows `frame` to hold `placed` ([`grown_to_hold`]), and then the
/// frame that held it before, and so on outwards, so that a frame in a frame
/// stays in it.
pub fn hold(tx: &mut Transaction<'_>, frame: &ObjectId, placed: &Rect) -> Result<(), ArrangeError> {
    let (mut frame, mut placed) = (frame.clone(), *placed);
    // Nesting is finite, but a bound costs nothing.
    for _ in 0..64 {
        let Some(old) = tx.board().bounds(&frame) else {
            break;
        };
        let Some(grown) = grown_to_hold(old, &placed) else {
            break;
        };
        // A locked frame keeps its size (`locked.rs`), and so do those
        // around it: what it does not hold is not theirs to grow for.
        if crate::locked::is_locked(tx.board(), &frame) {
            break;
        }
        let parent = tx.board().locate(&frame).and_then(|(page, _)| {
            frames_around(&obstacles(tx.board(), page, &[]), &old)
                .into_iter()
                .find(|(id, _)| **id != frame)
                .map(|(id, _)| id.clone())
        });
        make_room(tx, &frame, old, grown, Some(&placed))?;
        tx.edit(&frame, |o| {
            if let Kind::Shape(s) = &mut o.kind {
                s.bounds = grown;
            }
        })?;
        match parent {
            Some(parent) => (frame, placed) = (parent, grown),
            None => break,
        }
    }
    Ok(())
}

/// The one rule for a frame that grows, whatever grows it (`add_shape` or `move`
/// `inside` it, `layout`, `update` with a new size, the Mermaid importer): before
/// `frame` grows from `old` to `grown`, what it would newly cover is pushed out of
/// the way, side by side. On each side it grows, the objects wholly beyond that
/// side that the grown frame overlaps move on by the growth, and so do those that
/// they would then land on, and so on; the rest stay where the person put them.
/// Frames pushed take what they hold along, so a neighbouring frame keeps its
/// layout. What the frame already held (or overlapped), the frames around it,
/// and what lies in `placed` (what the frame grows to take in) are not pushed.
pub fn make_room(
    tx: &mut Transaction<'_>,
    frame: &ObjectId,
    old: Rect,
    grown: Rect,
    placed: Option<&Rect>,
) -> Result<(), ArrangeError> {
    const EPS: f64 = 0.5;
    // (dx, dy) of each side, and whether a box lies wholly beyond it.
    type Beyond = fn(&Rect, &Rect) -> bool;
    let sides: [(f64, f64, Beyond); 4] = [
        (0.0, grown.bottom() - old.bottom(), |b, o| {
            b.y >= o.bottom() - EPS
        }),
        (grown.right() - old.right(), 0.0, |b, o| {
            b.x >= o.right() - EPS
        }),
        (0.0, grown.y - old.y, |b, o| b.bottom() <= o.y + EPS),
        (grown.x - old.x, 0.0, |b, o| b.right() <= o.x + EPS),
    ];
    for (k, (dx, dy, beyond)) in sides.into_iter().enumerate() {
        // Only a side that moves outwards covers anything new: the bottom and
        // right ones (the first two) outwards by growing, the others by shrinking.
        let growth = if k < 2 { dx + dy } else { -(dx + dy) };
        if growth < EPS {
            continue;
        }
        let Some((page, _)) = tx.board().locate(frame) else {
            return Ok(());
        };
        let candidates: Vec<(ObjectId, Rect)> = obstacles(tx.board(), page, &[])
            .into_iter()
            .filter(|(id, b, is_frame)| {
                let theirs = *id == frame
                    || b.overlaps(&old)
                    || placed.is_some_and(|p| p.contains(b))
                    || (*is_frame && b.contains(&old));
                !theirs && beyond(b, &old)
            })
            .map(|(id, b, _)| (id.clone(), b))
            .collect();
        // Pushed: those under the grown frame, then those the pushed would land on.
        let mut pushed = vec![false; candidates.len()];
        let mut landing: Vec<Rect> = vec![grown];
        while let Some(area) = landing.pop() {
            for (i, (_, b)) in candidates.iter().enumerate() {
                if !pushed[i] && b.overlaps(&area) {
                    pushed[i] = true;
                    landing.push(b.translated(dx, dy));
                }
            }
        }
        let ids: Vec<ObjectId> = candidates
            .into_iter()
            .zip(pushed)
            .filter(|(_, p)| *p)
            .map(|((id, _), _)| id)
            .collect();
        crate::shift::translate(tx, &ids, dx, dy)?;
    }
    Ok(())
}

/// Puts those of `ids` that lie below `frame` in z-order just above it, keeping
/// their order: a frame is opaque, and what is in it must be drawn over it.
pub fn raise_above(
    tx: &mut Transaction<'_>,
    frame: &ObjectId,
    ids: &[ObjectId],
) -> Result<(), ArrangeError> {
    let Some((_, at)) = tx.board().locate(frame) else {
        return Ok(());
    };
    let mut below: Vec<(usize, &ObjectId)> = ids
        .iter()
        .filter_map(|id| tx.board().locate(id).map(|(_, i)| (i, id)))
        .filter(|(i, _)| *i < at)
        .collect();
    // Topmost first: each one then lands just above the frame, under the last.
    below.sort_by_key(|b| std::cmp::Reverse(b.0));
    for (_, id) in below {
        if let Some((_, at)) = tx.board().locate(frame) {
            tx.reorder(id, at)?;
        }
    }
    Ok(())
}

/// Reading-order placement among `all`, optionally within a frame (its id and
/// bounds).
fn flow(all: &[Obstacle<'_>], frame: Option<(&ObjectId, Rect)>, w: f64, h: f64) -> (f64, f64) {
    // Inside a frame, that frame and the frames around it are no obstacles.
    let passable: Vec<&ObjectId> = match frame {
        Some((_, fb)) => frames_around(all, &fb)
            .into_iter()
            .map(|(id, _)| id)
            .collect(),
        None => Vec::new(),
    };
    let area = frame.map(|(_, fb)| frame_area(fb));
    // The objects that count for the flow: the frame's contents (all it holds, not
    // only what lies in its area: a shape a hair too tall for the area is still
    // in the frame, and in the way), or everything.
    let local: Vec<&Rect> = match frame {
        Some((id, fb)) => all
            .iter()
            .filter(|(o, b, _)| *o != id && fb.contains(b))
            .map(|(_, b, _)| b)
            .collect(),
        None => all.iter().map(|(_, b, _)| b).collect(),
    };
    let (left, top, width) = match area {
        Some(area) => (area.x, area.y, area.w.max(w)),
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
    if beside.right() <= left + width && is_free(all, &beside, &passable) {
        return (beside.x, beside.y);
    }
    // Otherwise a new row below everything that counts.
    let bottom = local.iter().map(|b| b.bottom()).fold(top, f64::max);
    let mut spot = Rect::new(left, bottom + GAP, w, h);
    // In a frame, that row is free: what lies outside the frame and in the way
    // is pushed on as the frame grows (`hold`). Elsewhere, step down past it.
    if frame.is_some() {
        return (spot.x, spot.y);
    }
    for _ in 0..1000 {
        if is_free(all, &spot, &passable) {
            break;
        }
        let below = all
            .iter()
            .filter(|(id, b, _)| !passable.contains(id) && b.overlaps(&spot))
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

/// Relative placement checked against the board (the tools' `Relative`
/// arguments, resolved).
#[derive(Clone, Debug, PartialEq)]
pub struct Relation {
    /// The object to go beside, its bounds, and the side.
    pub beside: Option<(ObjectId, Rect, Side)>,
    /// The space between the reference and the box.
    pub gap: f64,
    /// The frame asked for.
    pub inside: Option<ObjectId>,
}

/// Where a box goes, and the frame that must hold it there ([`hold`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Spot {
    pub at: Rect,
    pub frame: Option<ObjectId>,
}

/// Where a `w`×`h` box placed by `relation` goes. `moving` leave their place:
/// they are no obstacles.
///
/// Beside an object, the box starts centred on it, `gap` away, and moves on along
/// that direction, `gap` past each thing in the way, until it overlaps nothing:
/// not a shape, not an image, and not a frame it does not belong to (landing on a
/// frame's border, or inside a stranger's frame, would put it in that frame).
/// Which frame it belongs to:
/// - with `inside`, that one (and the frames around it): it grows to hold the box;
/// - otherwise the frame the reference lies in, innermost first, so that a step
///   added below a step stays in its column: the frame grows to hold the box, but
///   only over free space. When growing would cover something that is not already
///   in the frame, the box looks in the next frame out, and at last outside them
///   all, past the frame's edge.
///
/// With `inside` alone the box flows into the frame in reading order, unless
/// `now` (where the box is today) already lies in it: then it stays.
pub fn relative(
    board: &Board,
    page: PageId,
    relation: &Relation,
    w: f64,
    h: f64,
    now: Option<Rect>,
    moving: &[ObjectId],
) -> Spot {
    let all = obstacles(board, page, moving);
    let frame_bounds = |id: &ObjectId| {
        all.iter()
            .find(|(o, _, _)| *o == id)
            .map_or_else(Rect::default, |(_, b, _)| *b)
    };
    match (&relation.beside, &relation.inside) {
        (None, None) => Spot {
            at: now.unwrap_or(Rect::new(0.0, 0.0, w, h)),
            frame: None,
        },
        (None, Some(frame)) => {
            let fb = frame_bounds(frame);
            let at = match now {
                Some(now) if fb.contains(&now) => now,
                _ => {
                    let (x, y) = spot_in_frame(board, frame, w, h, moving);
                    Rect::new(x, y, w, h)
                }
            };
            Spot {
                at,
                frame: Some(frame.clone()),
            }
        }
        (Some((reference, rb, side)), inside) => {
            let c = rb.center();
            let gap = relation.gap;
            let start = match side {
                Side::Right => Rect::new(rb.right() + gap, c.y - h / 2.0, w, h),
                Side::Left => Rect::new(rb.x - gap - w, c.y - h / 2.0, w, h),
                Side::Below => Rect::new(c.x - w / 2.0, rb.bottom() + gap, w, h),
                Side::Above => Rect::new(c.x - w / 2.0, rb.y - gap - h, w, h),
            };
            let walk = |passable: &[&ObjectId]| walk(&all, passable, start, *side, gap);
            if let Some(frame) = inside {
                let fb = frame_bounds(frame);
                let passable: Vec<&ObjectId> = frames_around(&all, &fb)
                    .into_iter()
                    .map(|(id, _)| id)
                    .collect();
                return Spot {
                    at: walk(&passable),
                    frame: Some(frame.clone()),
                };
            }
            let homes = frames_around(&all, rb);
            for (home, hb) in homes.iter().filter(|(id, _)| *id != reference) {
                let passable: Vec<&ObjectId> = frames_around(&all, hb)
                    .into_iter()
                    .map(|(id, _)| id)
                    .collect();
                let at = walk(&passable);
                if grows_over_nothing(&all, home, *hb, &at) {
                    return Spot {
                        at,
                        frame: Some((*home).clone()),
                    };
                }
            }
            Spot {
                at: walk(&[]),
                frame: None,
            }
        }
    }
}

/// Moves `r` along `side`, `gap` past whatever it overlaps but the `passable`
/// frames, until it overlaps nothing. Each step goes strictly further out, so this
/// ends; the bound only guards against pages of thousands of objects in a line.
pub fn walk(
    all: &[Obstacle<'_>],
    passable: &[&ObjectId],
    start: Rect,
    side: Side,
    gap: f64,
) -> Rect {
    let mut r = start;
    for _ in 0..1000 {
        let mut blockers = all
            .iter()
            .filter(|(id, b, _)| !passable.contains(id) && b.overlaps(&r))
            .map(|(_, b, _)| *b)
            .peekable();
        if blockers.peek().is_none() {
            break;
        }
        let (far, near) = (f64::NEG_INFINITY, f64::INFINITY);
        match side {
            Side::Right => r.x = blockers.map(|b| b.right()).fold(far, f64::max) + gap,
            Side::Left => r.x = blockers.map(|b| b.x).fold(near, f64::min) - gap - r.w,
            Side::Below => r.y = blockers.map(|b| b.bottom()).fold(far, f64::max) + gap,
            Side::Above => r.y = blockers.map(|b| b.y).fold(near, f64::min) - gap - r.h,
        }
    }
    r
}

/// True when the frame `home` (bounds `hb`) holds `at` already, or can grow to
/// hold it over nothing but what it already holds and the frames around it.
fn grows_over_nothing(all: &[Obstacle<'_>], home: &ObjectId, hb: Rect, at: &Rect) -> bool {
    let Some(grown) = grown_to_hold(hb, at) else {
        return true;
    };
    all.iter().all(|(id, b, frame)| {
        *id == home || !b.overlaps(&grown) || hb.contains(b) || (*frame && b.contains(&grown))
    })
}

/// The height a shape of width `w` needs for `text`, wrapped inside its text box.
pub fn fit_height(geom: Geom, text: &str, style: &Style, w: f64, icon: bool) -> f64 {
    if geom == Geom::Table {
        return inkboard_render::table::natural_size(text, style).1;
    }
    let min_h = geom.default_size().1;
    if text.trim().is_empty() || geom == Geom::Frame {
        return min_h;
    }
    let (size, weight) = shape_font(geom, style);
    let inner = geom.text_box(Rect::new(0.0, 0.0, w, 10_000.0)).w;
    let block = text::layout_text(text, size, weight, Some(inner as f32), true, true);
    let h = geom
        .size_for_text_with_icon(block.width as f64, block.height.ceil() as f64, icon)
        .1
        .ceil();
    if geom == Geom::Text {
        h
    } else {
        h.max(min_h)
    }
}

/// The size of a new shape: what was given, the rest fitted to the text (and
/// to its icon above the text, when `icon`).
pub fn fit_size(
    geom: Geom,
    text: &str,
    style: &inkboard_core::Style,
    (w, h): (Option<f64>, Option<f64>),
    icon: bool,
) -> (f64, f64) {
    match (w, h) {
        (Some(w), Some(h)) => (w, h),
        (None, Some(h)) => (fit_text_icon(geom, text, style, icon).0, h),
        (Some(w), None) => (w, fit_height(geom, text, style, w, icon)),
        (None, None) => fit_text_icon(geom, text, style, icon),
    }
}

/// The bounds of an auto-sized shape fitted to its text again, grown (or shrunk) in
/// the direction that suits its layout: a sticky note keeps its width and top and
/// changes height (notes are read as a column of fixed-width cards); a text shape
/// keeps its top-left corner (it reads from there); every other shape keeps its
/// centre, so that it stays where the connectors, the layout and alignment put it,
/// unless the same call set `x` or `y` (`placed`): then the top-left is kept.
pub fn refit(s: &Shape, placed: bool) -> Rect {
    let b = s.bounds;
    let icon = s.icon.is_some();
    if s.geom == Geom::Note {
        let h = fit_height(s.geom, &s.text, &s.style, b.w, icon);
        return Rect::new(b.x, b.y, b.w, h);
    }
    let (w, h) = fit_text_icon(s.geom, &s.text, &s.style, icon);
    // A table reads from its title down, as text does: it grows below, as a row
    // is added, rather than both ways.
    if matches!(s.geom, Geom::Text | Geom::Table) || placed {
        Rect::new(b.x, b.y, w, h)
    } else {
        Rect::new(b.x + (b.w - w) / 2.0, b.y + (b.h - h) / 2.0, w, h)
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

    #[test]
    fn wrap_width_scales_with_the_font_size() {
        // At 48 px, "Self-serve onboarding" wraps between the words, not inside
        // "Self-serve" (it did at a fixed 200 px).
        let big = Style {
            font_size: Some(48.0),
            ..Style::default()
        };
        let (size, weight) = shape_font(Geom::Rect, &big);
        let block = text::layout_words(
            "Self-serve onboarding",
            size,
            weight,
            wrap_width(Geom::Rect, size),
        );
        let lines: Vec<&str> = block.lines.iter().map(|l| l.text.as_str()).collect();
        assert!(lines.iter().all(|l| !l.ends_with('-')), "{lines:?}");
        let (w, _) = fit_text(Geom::Rect, "Self-serve onboarding", &big);
        let (w16, _) = fit_text(Geom::Rect, "Self-serve onboarding", &Style::default());
        assert!(
            w > 2.5 * w16,
            "{w} vs {w16}: wrapped the same way, three times larger"
        );
        // Text shapes do not wrap unless given a width.
        let long = "A text shape holds a long line without wrapping it at all";
        let (w, h) = fit_text(Geom::Text, long, &Style::default());
        assert!(w > 400.0 && h < 30.0, "{w}×{h}");
    }
}
