//! Letters drawn from cached coverage masks, for the PNG backend.
//!
//! Filling a label's outlines scan-converts every letter anew, with four
//! sub-scanlines a row, and blends it through tiny-skia's general pipeline in
//! spans a few pixels long: a third of a 199-object flow's render went there
//! (callgrind). A board's letters repeat (a few faces, a few sizes, the same
//! words), so each letter is rasterised once per process at its pixel size and
//! its position's quarter-pixel phase, as an alpha mask, and every later copy is
//! a blend of that mask: what font rasterisers (FreeType's caches, Skia's glyph
//! cache) do. A quarter pixel keeps the spacing within an eighth of a pixel of
//! the outline's own; larger letters (over [`MAX_CACHED_PX`]) are filled from
//! their outline, as they are few and their mask would be large.
//!
//! The cache is bounded ([`MAX_BYTES`]): past that it is emptied and refilled,
//! so a render of many sizes or scripts cannot hold more than that.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use tiny_skia::{FillRule, Path, PixmapMut, Transform};

use crate::backend::svg::SLANT;
use crate::scene::Rgba;

/// Letters larger than this many pixels to the em are filled from their
/// outline, not cached.
const MAX_CACHED_PX: f32 = 96.0;

/// The most mask bytes the cache holds before it is emptied.
const MAX_BYTES: usize = 32 << 20;

/// Phases of a pixel a letter's (or a shadow's) place is rounded to, along
/// each axis.
pub(crate) const PHASES: f32 = 4.0;

/// One letter to draw: its outline in font units (y up), its pen position on the
/// baseline and its size, in board units.
pub(crate) struct Letter {
    pub face: u32,
    pub glyph: u16,
    pub outline: Arc<Path>,
    pub x: f32,
    pub baseline: f32,
    /// Board units per font unit.
    pub scale: f32,
    /// The font size, board units to the em.
    pub em: f32,
    pub italic: bool,
}

impl Letter {
    /// The transform from font units to pixels, the pen at `(x, y)` px, for a
    /// picture of `px_per_unit` pixels per board unit.
    fn to_pixels(&self, px_per_unit: f32, (x, y): (f32, f32)) -> Transform {
        let s = self.scale * px_per_unit;
        let skew = if self.italic { SLANT * s } else { 0.0 };
        Transform::from_row(s, 0.0, skew, -s, x, y)
    }
}

/// A letter's (or a shadow's) coverage: `width` × `height` alpha bytes whose
/// top-left pixel lies at `(left, top)` from the pixel the pen's (or the
/// shadow's) phase was rounded down to.
pub(crate) struct Mask {
    pub left: i32,
    pub top: i32,
    pub width: usize,
    pub height: usize,
    pub alpha: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    face: u32,
    glyph: u16,
    /// Pixels per font unit, as bits: a size is the same size only exactly.
    size: u32,
    phase: (u8, u8),
    italic: bool,
}

struct Cache {
    masks: HashMap<Key, Option<Arc<Mask>>>,
    bytes: usize,
}

/// Where a band of the picture lies: pixel (0, `top`) of the picture is the
/// board's point `origin`, at `scale` pixels a board unit. Letters and
/// shadows (`shadows.rs`) are placed by it.
#[derive(Clone, Copy)]
pub(crate) struct Place {
    pub origin: (f64, f64),
    pub scale: f64,
    pub top: f64,
}

/// Draws `letter` in `color` into `pixmap`, a band placed at `place`.
pub(crate) fn draw(pixmap: &mut PixmapMut, letter: &Letter, color: Rgba, place: Place) {
    // In the picture's own precision, as the letters' outlines are.
    let px_per_unit = place.scale as f32;
    let pen = (
        (letter.x - place.origin.0 as f32) * px_per_unit,
        (letter.baseline - place.origin.1 as f32) * px_per_unit - place.top as f32,
    );
    if !(pen.0.is_finite() && pen.1.is_finite()) {
        return;
    }
    if letter.em * px_per_unit > MAX_CACHED_PX {
        fill(pixmap, letter, color, letter.to_pixels(px_per_unit, pen));
        return;
    }
    let (ix, fx) = split(f64::from(pen.0));
    let (iy, fy) = split(f64::from(pen.1));
    let key = Key {
        face: letter.face,
        glyph: letter.glyph,
        size: (letter.scale * px_per_unit).to_bits(),
        phase: (fx, fy),
        italic: letter.italic,
    };
    if let Some(mask) = mask(key, letter, px_per_unit) {
        blend(
            pixmap,
            &mask,
            (ix + mask.left as i64, iy + mask.top as i64),
            color,
        );
    }
}

/// A pixel coordinate as its whole pixel and its phase, in quarters.
pub(crate) fn split(v: f64) -> (i64, u8) {
    let quarters = (v * f64::from(PHASES)).round() as i64;
    (
        quarters.div_euclid(PHASES as i64),
        quarters.rem_euclid(PHASES as i64) as u8,
    )
}

/// The mask of `key`, from the cache or rasterised now; `None` for a letter
/// that covers no pixel.
fn mask(key: Key, letter: &Letter, px_per_unit: f32) -> Option<Arc<Mask>> {
    static CACHE: OnceLock<RwLock<Cache>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| {
        RwLock::new(Cache {
            masks: HashMap::new(),
            bytes: 0,
        })
    });
    if let Some(found) = cache
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .masks
        .get(&key)
    {
        return found.clone();
    }
    let phase = (
        f32::from(key.phase.0) / PHASES,
        f32::from(key.phase.1) / PHASES,
    );
    let made = rasterise(letter, letter.to_pixels(px_per_unit, phase)).map(Arc::new);
    let mut cache = cache
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let size = made.as_ref().map_or(0, |m| m.alpha.len()) + std::mem::size_of::<Key>();
    if cache.bytes + size > MAX_BYTES {
        cache.masks.clear();
        cache.bytes = 0;
    }
    cache.bytes += size;
    cache.masks.insert(key, made.clone());
    made
}

/// The coverage of `letter`'s outline placed by `ts` (pen at the phase from
/// pixel (0, 0)), cut to the pixels it touches.
fn rasterise(letter: &Letter, ts: Transform) -> Option<Mask> {
    let b = letter.outline.bounds().transform(ts)?;
    let (left, top) = (b.left().floor() as i32 - 1, b.top().floor() as i32 - 1);
    let (right, bottom) = (b.right().ceil() as i32 + 1, b.bottom().ceil() as i32 + 1);
    let (width, height) = ((right - left) as u32, (bottom - top) as u32);
    let mut mask = tiny_skia::Mask::new(width, height)?;
    let ts = ts.post_translate(-left as f32, -top as f32);
    mask.fill_path(&letter.outline, FillRule::Winding, true, ts);
    Some(Mask {
        left,
        top,
        width: width as usize,
        height: height as usize,
        alpha: mask.data().to_vec(),
    })
}

/// Fills `letter`'s outline placed by `ts` (a letter too large to cache).
fn fill(pixmap: &mut PixmapMut, letter: &Letter, color: Rgba, ts: Transform) {
    let [r, g, b, a] = color.0;
    let mut paint = tiny_skia::Paint::default();
    paint.set_color_rgba8(r, g, b, a);
    paint.anti_alias = true;
    pixmap.fill_path(&letter.outline, &paint, FillRule::Winding, ts, None);
}

/// Blends `color` through `mask` into the premultiplied RGBA of `pixmap`, the
/// mask's top-left pixel at `(x, y)`; what falls outside is cut.
pub(crate) fn blend(pixmap: &mut PixmapMut, mask: &Mask, (x, y): (i64, i64), color: Rgba) {
    let (w, h) = (pixmap.width() as i64, pixmap.height() as i64);
    let (x0, x1) = (x.max(0), (x + mask.width as i64).min(w));
    let (y0, y1) = (y.max(0), (y + mask.height as i64).min(h));
    if x0 >= x1 || y0 >= y1 {
        return;
    }
    let [r, g, b, a] = color.0.map(u32::from);
    let data = pixmap.data_mut();
    for py in y0..y1 {
        let mask_row = &mask.alpha[(py - y) as usize * mask.width..][..mask.width];
        let row = &mut data[(py * w + x0) as usize * 4..(py * w + x1) as usize * 4];
        for (px, &m) in row
            .chunks_exact_mut(4)
            .zip(&mask_row[(x0 - x) as usize..(x1 - x) as usize])
        {
            if m == 0 {
                continue;
            }
            // The source's alpha where it covers this pixel.
            let k = div255(u32::from(m) * a);
            let keep = 255 - k;
            px[0] = div255(r * k + u32::from(px[0]) * keep) as u8;
            px[1] = div255(g * k + u32::from(px[1]) * keep) as u8;
            px[2] = div255(b * k + u32::from(px[2]) * keep) as u8;
            px[3] = div255(255 * k + u32::from(px[3]) * keep) as u8;
        }
    }
}

/// The smallest rectangle holding all of `rects`; `None` for none.
pub(crate) fn join(rects: impl IntoIterator<Item = tiny_skia::Rect>) -> Option<tiny_skia::Rect> {
    rects.into_iter().reduce(|a, b| {
        tiny_skia::Rect::from_ltrb(
            a.left().min(b.left()),
            a.top().min(b.top()),
            a.right().max(b.right()),
            a.bottom().max(b.bottom()),
        )
        .unwrap_or(a)
    })
}

/// `v / 255`, rounded, for `v` up to 255 × 255 × 2.
pub(crate) fn div255(v: u32) -> u32 {
    let v = v + 128;
    (v + (v >> 8)) >> 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_round_to_the_nearest_quarter() {
        assert_eq!(split(3.0), (3, 0));
        assert_eq!(split(3.24), (3, 1));
        assert_eq!(split(3.9), (4, 0));
        assert_eq!(split(-0.3), (-1, 3));
    }

    #[test]
    fn blending_is_exact_at_the_ends() {
        for v in [0u32, 255, 255 * 255, 128 * 255] {
            assert_eq!(div255(v), (v as f64 / 255.0).round() as u32, "{v}");
        }
    }
}
