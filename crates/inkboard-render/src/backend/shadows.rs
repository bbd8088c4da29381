//! Soft shadows drawn from cached sprites, for the PNG backend.
//!
//! A sticky note's shadow is eight faint layers of its outline (`resolve.rs`),
//! which keeps it vector in SVG and PDF. Anti-aliasing eight large paths per
//! note was a third of a 199-object flow's PNG (callgrind: 90 M of 250 M
//! instructions, for 20 notes). Notes of one size have the same shadow, so the
//! PNG backend leaves the layers out of the SVG it parses, draws them once per
//! process at the picture's scale and the item's quarter-pixel phase, on the
//! page's colour as resvg would, keeps how much of the shadow's colour each
//! pixel took as a coverage mask (a sprite), and blends the shadow's colour
//! through that mask under each such note: on the page, the pixels resvg makes.
//!
//! Only an item drawn whole (opaque, not turned) has its shadow drawn apart: an
//! item's opacity applies to its parts composited together, and a turned
//! shadow would need a turned sprite. The cache is bounded ([`MAX_BYTES`]).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock, RwLock};

use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, PixmapMut, Transform};

use crate::backend::coverage::{self, split, Mask, Place, PHASES};
use crate::backend::svg::as_written;
use crate::scene::{Item, Part, Rgba, Seg};
use crate::style::BACKGROUND;
use crate::theme::Theme;

/// The most sprite bytes the cache holds before it is emptied.
const MAX_BYTES: usize = 16 << 20;

/// A sprite larger than this many pixels a side is not made: the shadow is
/// filled where it lies, as the SVG would have it.
const MAX_SIDE: f64 = 2048.0;

/// Whether the PNG backend draws `item`'s shadow itself (see the module's notes).
pub(crate) fn drawn_apart(item: &Item) -> bool {
    item.shadow > 0 && item.opacity >= 1.0 && item.turn.is_none()
}

/// A shadow's sprite: its colour, and how much of it each pixel takes.
struct Sprite {
    color: Rgba,
    mask: Mask,
}

/// Draws `item`'s shadow parts into `pixmap`, a band placed at `place`, in
/// `theme`'s colours.
pub(crate) fn draw(pixmap: &mut PixmapMut, item: &Item, theme: Theme, place: &Place) {
    let parts = &item.parts[..item.shadow.min(item.parts.len())];
    let Some(anchor) = anchor(parts) else { return };
    let at = (
        (anchor.0 - place.origin.0) * place.scale,
        (anchor.1 - place.origin.1) * place.scale - place.top,
    );
    if !(at.0.is_finite() && at.1.is_finite()) {
        return;
    }
    let (ix, fx) = split(at.0);
    let (iy, fy) = split(at.1);
    let key = key(parts, anchor, place.scale, (fx, fy), theme);
    let phase = (
        f64::from(fx) / f64::from(PHASES),
        f64::from(fy) / f64::from(PHASES),
    );
    match sprite(key, || paint(parts, anchor, place.scale, phase, theme)) {
        Some(sprite) => {
            let m = &sprite.mask;
            let at = (ix + i64::from(m.left), iy + i64::from(m.top));
            coverage::blend(pixmap, m, at, sprite.color);
        }
        // A shadow with no sprite (too large to keep, or not of one colour)
        // is filled where it lies, as the SVG would have drawn it.
        None => {
            for (path, color) in paths(parts, anchor, place.scale, at, theme) {
                let [r, g, b, a] = color.0;
                let mut paint = Paint::default();
                paint.set_color_rgba8(r, g, b, a);
                paint.anti_alias = true;
                pixmap.fill_path(
                    &path,
                    &paint,
                    FillRule::Winding,
                    Transform::identity(),
                    None,
                );
            }
        }
    }
}

/// The first point of the first part: what the sprite is placed by.
fn anchor(parts: &[Part]) -> Option<(f64, f64)> {
    parts.iter().find_map(|p| match p {
        Part::Path(p) => p.segs.iter().find_map(|s| match *s {
            Seg::Move(a) => Some((a.x, a.y)),
            _ => None,
        }),
        _ => None,
    })
}

/// What the sprite of `parts` depends on: their shape relative to `anchor`,
/// their colours, the scale and the phase. Two notes of one size share it.
fn key(parts: &[Part], anchor: (f64, f64), scale: f64, phase: (u8, u8), theme: Theme) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    scale.to_bits().hash(&mut h);
    phase.hash(&mut h);
    (theme == Theme::Dark).hash(&mut h);
    let rel = |p: inkboard_core::Point| ((p.x - anchor.0).to_bits(), (p.y - anchor.1).to_bits());
    for part in parts {
        let Part::Path(p) = part else { continue };
        p.fill.map(|c| c.0).hash(&mut h);
        p.stroke.is_some().hash(&mut h);
        for s in &p.segs {
            match *s {
                Seg::Move(a) => (0u8, rel(a)).hash(&mut h),
                Seg::Line(a) => (1u8, rel(a)).hash(&mut h),
                Seg::Cubic(a, b, c) => (2u8, rel(a), rel(b), rel(c)).hash(&mut h),
                Seg::Close => 3u8.hash(&mut h),
            }
        }
    }
    h.finish()
}

/// The sprite of `key`, from the cache or made by `make` now; `None` for one
/// that covers no pixel.
fn sprite(key: u64, make: impl FnOnce() -> Option<Sprite>) -> Option<Arc<Sprite>> {
    type Cache = (HashMap<u64, Option<Arc<Sprite>>>, usize);
    static CACHE: OnceLock<RwLock<Cache>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(found) = cache
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .0
        .get(&key)
    {
        return found.clone();
    }
    let made = make().map(Arc::new);
    let mut cache = cache
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let size = made.as_ref().map_or(0, |s| s.mask.alpha.len()) + 64;
    if cache.1 + size > MAX_BYTES {
        cache.0.clear();
        cache.1 = 0;
    }
    cache.1 += size;
    cache.0.insert(key, made.clone());
    made
}

/// The filled paths of `parts` in pixels, `anchor` at `at`, in `theme`'s colours.
fn paths(
    parts: &[Part],
    anchor: (f64, f64),
    scale: f64,
    at: (f64, f64),
    theme: Theme,
) -> Vec<(tiny_skia::Path, Rgba)> {
    let to_px = |p: inkboard_core::Point| {
        (
            ((p.x - anchor.0) * scale + at.0) as f32,
            ((p.y - anchor.1) * scale + at.1) as f32,
        )
    };
    let mut paths = Vec::new();
    for part in parts {
        let Part::Path(p) = part else { continue };
        let Some(fill) = p.fill else { continue };
        let mut b = PathBuilder::new();
        for s in &p.segs {
            match *s {
                Seg::Move(a) => b.move_to(to_px(a).0, to_px(a).1),
                Seg::Line(a) => b.line_to(to_px(a).0, to_px(a).1),
                Seg::Cubic(a, c, d) => {
                    let (a, c, d) = (to_px(a), to_px(c), to_px(d));
                    b.cubic_to(a.0, a.1, c.0, c.1, d.0, d.1);
                }
                Seg::Close => b.close(),
            }
        }
        if let Some(path) = b.finish() {
            // The opacity the SVG writes (0.02 for the layers' 6/255), which
            // the SVG and PDF draw with.
            paths.push((path, as_written(theme.paint(fill))));
        }
    }
    paths
}

/// Fills `parts` (a shadow: fills of one colour) on the page's colour, as resvg
/// fills the SVG's paths, the anchor at `phase` from its whole pixel, and reads
/// back how much of the shadow's colour each pixel took. `None` for parts of
/// several colours, or of the page's own.
fn paint(
    parts: &[Part],
    anchor: (f64, f64),
    scale: f64,
    phase: (f64, f64),
    theme: Theme,
) -> Option<Sprite> {
    let paths = paths(parts, anchor, scale, phase, theme);
    let color = paths.first()?.1;
    if paths.iter().any(|(_, c)| *c != color) {
        return None;
    }
    let page = theme.paint(BACKGROUND);
    // The channel in which the shadow's colour differs most from the page's
    // tells how much of it a pixel took.
    let channel = (0..3).max_by_key(|&c| color.0[c].abs_diff(page.0[c]))?;
    let (shade, base) = (f64::from(color.0[channel]), f64::from(page.0[channel]));
    if shade == base {
        return None;
    }
    let bounds = coverage::join(paths.iter().map(|(p, _)| p.bounds()))?;
    let (left, top) = (
        bounds.left().floor() as i32 - 1,
        bounds.top().floor() as i32 - 1,
    );
    let (right, bottom) = (
        bounds.right().ceil() as i32 + 1,
        bounds.bottom().ceil() as i32 + 1,
    );
    let (width, height) = (right - left, bottom - top);
    if f64::from(width) > MAX_SIDE || f64::from(height) > MAX_SIDE {
        return None;
    }
    let mut pixmap = Pixmap::new(width as u32, height as u32)?;
    let [r, g, b, _] = page.0;
    pixmap.fill(tiny_skia::Color::from_rgba8(r, g, b, u8::MAX));
    let shift = Transform::from_translate(-left as f32, -top as f32);
    for (path, color) in &paths {
        let [r, g, b, a] = color.0;
        let mut paint = Paint::default();
        paint.set_color_rgba8(r, g, b, a);
        paint.anti_alias = true;
        pixmap.fill_path(path, &paint, FillRule::Winding, shift, None);
    }
    let alpha = pixmap
        .data()
        .chunks_exact(4)
        .map(|px| {
            let took = (f64::from(px[channel]) - base) / (shade - base);
            (took * 255.0).round().clamp(0.0, 255.0) as u8
        })
        .collect();
    Some(Sprite {
        color: color.with_alpha(u8::MAX),
        mask: Mask {
            left,
            top,
            width: width as usize,
            height: height as usize,
            alpha,
        },
    })
}
