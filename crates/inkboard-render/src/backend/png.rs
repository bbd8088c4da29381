//! The PNG backend: the scene's SVG parsed by usvg with the bundled fonts only,
//! rasterised by resvg on the page's colour (white, or the dark theme's), its
//! letters filled from the glyph outlines of the scene's own layout (`glyphs.rs`:
//! usvg's layout of `<text>` was a third to two thirds of a render) through
//! masks cached per letter, size and phase (`coverage.rs`), notes' shadows from
//! cached sprites (`shadows.rs`), and encoded fast (`encode.rs`: rows filtered
//! with Paeth on the drawing threads, fdeflate's fast deflate: a tenth of the
//! default level's time for about twice the bytes, which matters at 1600 px and
//! for agents waiting on a render).

use inkboard_core::{ObjectId, Rect};

use crate::backend::glyphs::{self, Ink, Letters};
use crate::backend::svg::to_svg_pieces;
use crate::backend::{coverage, encode, shadows};
use crate::deadline::Deadline;
use crate::scene::{Item, Rgba, Scene};
use crate::style::BACKGROUND;
use crate::text::fonts::usvg_options;
use crate::theme::Theme;
use crate::RenderError;

/// The largest scale a PNG is drawn at: beyond 2× a board shows nothing more.
pub const MAX_SCALE: f32 = 2.0;

/// The longest side a PNG may have, so a bad scale cannot exhaust memory.
const MAX_SIDE: u32 = 16_384;

/// An encoded PNG.
#[derive(Clone, Debug, PartialEq)]
pub struct Png {
    pub data: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// Pixels per board unit.
    pub scale: f32,
    /// Objects whose SVG image was too costly to draw at this scale: a
    /// placeholder stands in for it (see `budget.rs`).
    pub not_drawn: Vec<ObjectId>,
}

/// Renders `view` (default: the scene's bounds) so that the longest side is at most
/// `max_size` px, at a scale of at most [`MAX_SCALE`].
pub fn to_png(scene: &Scene, view: Option<Rect>, max_size: u32) -> Result<Png, RenderError> {
    to_png_within(scene, view, max_size, &Deadline::none())
}

/// [`to_png`], stopping with [`RenderError::Stopped`] once `deadline` has come: it
/// is checked before each piece of the picture is parsed, each item's letters are
/// laid out and each band is drawn.
pub fn to_png_within(
    scene: &Scene,
    view: Option<Rect>,
    max_size: u32,
    deadline: &Deadline,
) -> Result<Png, RenderError> {
    let v = view.unwrap_or(scene.bounds);
    check_view(v)?;
    let longest = v.w.max(v.h) as f32;
    let mut scale = (max_size as f32 / longest).min(MAX_SCALE);
    // Rounding up the pixel size must not push the longest side past max_size.
    while scale > 0.0 && (longest * scale).ceil() as u32 > max_size {
        scale *= 0.9999;
    }
    to_png_scaled_within(scene, Some(v), scale, deadline)
}

/// Renders `view` (default: the scene's bounds) at `scale` px per board unit.
pub fn to_png_scaled(scene: &Scene, view: Option<Rect>, scale: f32) -> Result<Png, RenderError> {
    to_png_scaled_within(scene, view, scale, &Deadline::none())
}

/// [`to_png_scaled`], stopping once `deadline` has come (as [`to_png_within`]).
pub fn to_png_scaled_within(
    scene: &Scene,
    view: Option<Rect>,
    scale: f32,
    deadline: &Deadline,
) -> Result<Png, RenderError> {
    let v = view.unwrap_or(scene.bounds);
    check_view(v)?;
    let width = (v.w as f32 * scale).ceil();
    let height = (v.h as f32 * scale).ceil();
    if !(scale.is_finite() && scale > 0.0 && width >= 1.0 && height >= 1.0) {
        return Err(RenderError::BadSize {
            scale,
            width: width.max(0.0) as u32,
            height: height.max(0.0) as u32,
        });
    }
    let (width, height) = (width as u32, height as u32);
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(RenderError::TooLarge {
            width,
            height,
            max: MAX_SIDE,
        });
    }
    draw(
        scene,
        v,
        scale,
        (width, height),
        workers(scene.items.len(), height),
        deadline,
    )
}

/// Draws `v` at `scale` into a `size` PNG with `workers` threads.
fn draw(
    scene: &Scene,
    v: Rect,
    scale: f32,
    (width, height): (u32, u32),
    workers: usize,
    deadline: &Deadline,
) -> Result<Png, RenderError> {
    let not_drawn = crate::backend::budget::costly_images(scene, scale as f64);
    deadline.check()?;
    let pieces = to_svg_pieces(scene, Some(v), &not_drawn, workers);
    let layers = parse_pieces(&pieces, scene.theme, &scene.name, deadline)?;
    let filtered = draw_bands(
        &layers,
        Frame {
            view: v,
            scale,
            width,
            height,
            // A transparent picture starts from clear pixels and keeps their alpha.
            background: match scene.background {
                true => scene.theme.paint(BACKGROUND),
                false => Rgba([0, 0, 0, 0]),
            },
            theme: scene.theme,
        },
        bands(scene.items.len()),
        workers,
        deadline,
    )?;
    deadline.check()?;
    let data = encode::write(&filtered, width, height, scene.background)?;
    Ok(Png {
        data,
        width,
        height,
        scale,
        not_drawn,
    })
}

fn check_view(v: Rect) -> Result<(), RenderError> {
    let ok = [v.x, v.y, v.w, v.h].iter().all(|n| n.is_finite()) && v.w > 0.0 && v.h > 0.0;
    if ok {
        Ok(())
    } else {
        Err(RenderError::EmptyRegion { w: v.w, h: v.h })
    }
}

/// Scenes with fewer items than this are drawn on one thread, in one band: for
/// them, starting threads would cost more than it saves.
const MIN_ITEMS_TO_SPLIT: usize = 40;

/// The horizontal bands a larger picture is drawn in. Their number is fixed,
/// not the number of cores, so that a picture has the same pixels on every
/// machine: a band is drawn with the transform moved up by its top, which can
/// round an anti-aliased edge's coverage differently than drawing in one piece.
const BANDS: usize = 4;

/// How many threads draw a picture: one per core, at most [`BANDS`], and one
/// for a small scene. The SVG is parsed in that many pieces, each piece's letters
/// laid out beside it (`glyphs.rs`), and the bands are shared among them.
fn workers(items: usize, height: u32) -> usize {
    if bands(items) == 1 {
        return 1;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.clamp(1, BANDS).min(height as usize).max(1)
}

/// How many bands a scene of `items` items is drawn in.
fn bands(items: usize) -> usize {
    if items < MIN_ITEMS_TO_SPLIT {
        1
    } else {
        BANDS
    }
}

/// A piece of the picture: the tree usvg made of its SVG, and the letters its
/// items draw themselves (`glyphs.rs`), an entry per item.
struct Layer<'a> {
    tree: usvg::Tree,
    items: &'a [Item],
    inks: Vec<Vec<Ink>>,
}

/// What is drawn where: the board's `view` at `scale` px a unit, `width` ×
/// `height` px, on `background`.
#[derive(Clone, Copy)]
struct Frame {
    view: Rect,
    scale: f32,
    width: u32,
    height: u32,
    background: Rgba,
    theme: Theme,
}

/// Parses the pieces of [`to_svg_pieces`] and lays out their items' letters, each
/// piece on a thread of its own (the first on this one).
fn parse_pieces<'a>(
    pieces: &[(&'a [Item], String)],
    theme: Theme,
    page: &str,
    deadline: &Deadline,
) -> Result<Vec<Layer<'a>>, RenderError> {
    let parse = |&(items, ref doc): &(&'a [Item], String)| -> Result<Layer<'a>, RenderError> {
        deadline.check()?;
        let tree = usvg::Tree::from_str(doc, &usvg_options())
            .map_err(|e| RenderError::from_usvg(e, page))?;
        let inks = items
            .iter()
            .map(|item| {
                deadline.check()?;
                Ok(glyphs::ink(item, theme))
            })
            .collect::<Result<_, RenderError>>()?;
        Ok(Layer { tree, items, inks })
    };
    let (first, rest) = pieces
        .split_first()
        .expect("to_svg_pieces gives a piece at least");
    std::thread::scope(|s| {
        let others: Vec<_> = rest.iter().map(|p| s.spawn(move || parse(p))).collect();
        let mut layers = Vec::with_capacity(pieces.len());
        layers.push(parse(first)?);
        for handle in others {
            layers.push(join(handle)?);
        }
        Ok(layers)
    })
}

/// Draws the layers, in order, on the frame's background, as `bands` horizontal
/// bands shared among `workers` threads, each band then filtered as PNG rows on
/// its thread (`encode.rs`), and returns the filtered rows of the whole picture:
/// RGB when the background is opaque (tiny-skia's premultiplied pixels are then
/// the plain colours), else plain RGBA.
///
/// An opaque band is filtered in place, and the bands' rows are then moved
/// together: a second buffer (6 MB at 1600 px) cost more in fresh pages than
/// the copying itself (measured: 28.5 → 23.5 ms for the 199-object flow).
fn draw_bands(
    layers: &[Layer<'_>],
    frame: Frame,
    bands: usize,
    workers: usize,
    deadline: &Deadline,
) -> Result<Vec<u8>, RenderError> {
    let Frame {
        scale,
        width,
        height,
        background,
        ..
    } = frame;
    let opaque = background.0[3] == u8::MAX;
    let row = width as usize * 4;
    let rows_per_band = (height as usize).div_ceil(bands.max(1));
    let mut pixels = vec![0u8; row * height as usize];
    type Filtered = (usize, Option<Vec<u8>>, usize);
    let draw = |i: usize, band: &mut [u8]| -> Result<Filtered, RenderError> {
        deadline.check()?;
        let rows = (band.len() / row) as u32;
        let top = (i * rows_per_band) as f32;
        let mut pixmap =
            tiny_skia::PixmapMut::from_bytes(band, width, rows).ok_or(RenderError::BadSize {
                scale,
                width,
                height,
            })?;
        let [r, g, b, a] = background.0;
        pixmap.fill(tiny_skia::Color::from_rgba8(r, g, b, a));
        for layer in layers {
            draw_layer(layer, frame, top, &mut pixmap, deadline)?;
        }
        let (apart, len) = encode::filter_band(band, width as usize, opaque);
        Ok((i, apart, len))
    };
    // Thread k draws bands k, k + workers, ...: neighbouring bands cost alike.
    let workers = workers.clamp(1, bands.max(1));
    let mut shares: Vec<Vec<(usize, &mut [u8])>> = (0..workers).map(|_| Vec::new()).collect();
    for (i, band) in pixels.chunks_mut(rows_per_band * row).enumerate() {
        shares[i % workers].push((i, band));
    }
    let run = |share: Vec<(usize, &mut [u8])>| -> Result<Vec<Filtered>, RenderError> {
        share.into_iter().map(|(i, b)| draw(i, b)).collect()
    };
    let mut filtered = std::thread::scope(|s| {
        let mut shares = shares.into_iter();
        let first = shares.next().unwrap_or_default();
        let others: Vec<_> = shares.map(|share| s.spawn(move || run(share))).collect();
        let mut all = run(first)?;
        for handle in others {
            all.extend(join(handle)?);
        }
        Ok::<_, RenderError>(all)
    })?;
    filtered.sort_by_key(|(i, ..)| *i);
    if !opaque {
        return Ok(filtered
            .into_iter()
            .flat_map(|(_, apart, len)| apart.unwrap_or_default().into_iter().take(len))
            .collect());
    }
    // Band k's filtered rows sit at the start of its RGBA rows; moving them down
    // in order never overwrites rows still to move.
    let mut at = 0;
    for (i, _, len) in filtered {
        let start = i * rows_per_band * row;
        pixels.copy_within(start..start + len, at);
        at += len;
    }
    pixels.truncate(at);
    Ok(pixels)
}

/// Draws `layer` into a band whose first row is the picture's row `top`: each
/// item that reaches into the band, its parts from the tree, then its letters.
/// An item's node is drawn alone (with the transforms above it), so a band skips
/// what lies outside it instead of transforming every path of the picture.
fn draw_layer(
    layer: &Layer<'_>,
    frame: Frame,
    top: f32,
    pixmap: &mut tiny_skia::PixmapMut,
    deadline: &Deadline,
) -> Result<(), RenderError> {
    let scale = frame.scale;
    // Pixels of the band from the SVG's user space, and from board units.
    let from_svg = tiny_skia::Transform::from_scale(scale, scale).post_translate(0.0, -top);
    let from_board =
        tiny_skia::Transform::from_translate(-frame.view.x as f32, -frame.view.y as f32)
            .post_concat(from_svg);
    let band = tiny_skia::Rect::from_xywh(0.0, 0.0, frame.width as f32, pixmap.height() as f32);
    let inside = |r: tiny_skia::Rect, ts: tiny_skia::Transform| {
        let (Some(r), Some(band)) = (r.transform(ts), band) else {
            return true;
        };
        r.left() <= band.right()
            && r.right() >= band.left()
            && r.top() <= band.bottom()
            && r.bottom() >= band.top()
    };
    let place = coverage::Place {
        origin: (frame.view.x, frame.view.y),
        scale: f64::from(scale),
        top: f64::from(top),
    };
    let (nodes, root) = item_nodes(&layer.tree);
    let above = from_svg.pre_concat(root);
    let mut nodes = nodes.iter().peekable();
    for (item, inks) in layer.items.iter().zip(&layer.inks) {
        deadline.check()?;
        if shadows::drawn_apart(item) {
            shadows::draw(pixmap, item, frame.theme, &place);
        }
        if let Some(node) = nodes.next_if(|n| n.id() == item.id.as_str()) {
            if let Some(b) = node.abs_layer_bounding_box() {
                if inside(b.to_rect(), from_svg) {
                    // `render_node` draws a node with its box's corner at the origin.
                    let ts = above.pre_translate(b.x(), b.y());
                    resvg::render_node(node, ts, pixmap);
                }
            }
        }
        for ink in inks.iter().filter(|ink| inside(ink.bounds, from_board)) {
            match &ink.letters {
                Letters::Cached(letters) => {
                    for letter in letters {
                        coverage::draw(pixmap, letter, ink.color, place);
                    }
                }
                Letters::Outlines(path) => {
                    let [r, g, b, a] = ink.color.0;
                    let mut paint = tiny_skia::Paint::default();
                    paint.set_color_rgba8(r, g, b, a);
                    paint.anti_alias = true;
                    let rule = tiny_skia::FillRule::Winding;
                    pixmap.fill_path(path, &paint, rule, from_board, None);
                }
            }
        }
    }
    debug_assert!(nodes.next().is_none(), "every node of a piece is an item's");
    Ok(())
}

/// The nodes of a tree's items, in order, and the transform above them: usvg puts
/// the view box's shift on a group of its own around the document's elements.
fn item_nodes(tree: &usvg::Tree) -> (&[usvg::Node], tiny_skia::Transform) {
    let root = tree.root();
    match root.children() {
        [usvg::Node::Group(g)] if g.id().is_empty() => (g.children(), g.transform()),
        nodes => (nodes, tiny_skia::Transform::identity()),
    }
}

/// The result of a scoped thread; a panic in it goes on in this thread.
fn join<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

#[cfg(test)]
mod tests {
    use inkboard_core::{
        Actor, Board, Connector, End, Geom, IdKind, Kind, Object, PageId, Rect, Route, Shape,
        Sizing, Style, Transaction,
    };

    use super::draw;
    use crate::resolve;
    use crate::style::BACKGROUND;
    use crate::Deadline;

    /// Labelled shapes of every kind, some half transparent, some turned, connected
    /// in a chain: text in four faces, rich text, outlines, arrowheads and layers
    /// cross the bands' edges.
    fn board() -> Board {
        let mut board = Board::new("bands", &[]);
        let mut tx = Transaction::begin(&mut board);
        let geoms = [Geom::Rounded, Geom::Ellipse, Geom::Diamond, Geom::Note];
        let mut ids = Vec::new();
        for i in 0..60 {
            let id = tx.new_id(IdKind::Shape);
            let bounds = Rect::new((i % 8) as f64 * 130.0, (i / 8) as f64 * 37.0, 120.0, 60.0);
            let shape = Shape {
                geom: geoms[i % geoms.len()],
                bounds,
                text: format!("**Step {i}** → 確認 `code` _then_ [go](https://x.io)"),
                style: Style {
                    opacity: (i % 5 == 0).then_some(0.5),
                    ..Style::default()
                },
                sizing: Sizing::Fixed,
                rotation: if i % 7 == 3 {
                    inkboard_core::Rotation::degrees(25.0).unwrap()
                } else {
                    inkboard_core::Rotation::NONE
                },
                icon: None,
            };
            tx.insert(PageId(1), None, Object::new(id.clone(), Kind::Shape(shape)))
                .unwrap();
            ids.push(id);
        }
        for pair in ids.windows(2) {
            let id = tx.new_id(IdKind::Connector);
            let mut c = Connector::new(End::Object(pair[0].clone()), End::Object(pair[1].clone()));
            c.route = Route::Orthogonal;
            tx.insert(PageId(1), None, Object::new(id, Kind::Connector(c)))
                .unwrap();
        }
        tx.commit(Actor::Agent).unwrap();
        board
    }

    fn pixels(png: &[u8]) -> Vec<u8> {
        let mut reader = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        buf
    }

    #[test]
    fn a_picture_has_the_same_pixels_whatever_the_number_of_threads() {
        let board = board();
        let scene = resolve(&board, PageId(1));
        let v = scene.bounds;
        let scale = 1.37;
        let size = (
            (v.w as f32 * scale).ceil() as u32,
            (v.h as f32 * scale).ceil() as u32,
        );
        let one = draw(&scene, v, scale, size, 1, &Deadline::none()).unwrap();
        for workers in [2, 3, 4] {
            let many = draw(&scene, v, scale, size, workers, &Deadline::none()).unwrap();
            assert_eq!(
                (many.width, many.height),
                (one.width, one.height),
                "{workers} workers"
            );
            let (a, b) = (pixels(&one.data), pixels(&many.data));
            let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
            let max = differ
                .iter()
                .map(|&i| a[i].abs_diff(b[i]))
                .max()
                .unwrap_or(0);
            let rows: std::collections::BTreeSet<usize> = differ
                .iter()
                .map(|&i| i / (3 * one.width as usize))
                .collect();
            assert!(
                differ.is_empty(),
                "{workers} workers: {} bytes differ, max {max}, rows {:?}",
                differ.len(),
                rows.iter().take(20).collect::<Vec<_>>()
            );
        }
    }

    /// The scene drawn by this backend and by resvg from the whole SVG (letters
    /// and shadows in it), at `scale`, as RGB pixels.
    fn ours_and_usvgs(scene: &crate::Scene, scale: f32) -> (Vec<u8>, Vec<u8>) {
        let v = scene.bounds;
        let size = (
            (v.w as f32 * scale).ceil() as u32,
            (v.h as f32 * scale).ceil() as u32,
        );
        let ours = pixels(
            &draw(scene, v, scale, size, 2, &Deadline::none())
                .unwrap()
                .data,
        );
        let options = crate::backend::svg::SvgOptions {
            embed_fonts: false,
            background: true,
        };
        let svg = crate::backend::svg::to_svg_drawing(scene, Some(v), options, &[]);
        let tree = usvg::Tree::from_str(&svg, &crate::text::fonts::usvg_options()).unwrap();
        let mut pixmap = tiny_skia::Pixmap::new(size.0, size.1).unwrap();
        // As `draw_bands`: the view's rect may end inside the last pixel.
        let [r, g, b, a] = scene.theme.paint(BACKGROUND).0;
        pixmap.fill(tiny_skia::Color::from_rgba8(r, g, b, a));
        resvg::render(
            &tree,
            tiny_skia::Transform::from_scale(scale, scale),
            &mut pixmap.as_mut(),
        );
        let theirs: Vec<u8> = pixmap
            .data()
            .chunks(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        assert_eq!(ours.len(), theirs.len());
        (ours, theirs)
    }

    /// How many pixels differ by more than `by` in a channel.
    fn differing(ours: &[u8], theirs: &[u8], by: u8) -> usize {
        ours.chunks(3)
            .zip(theirs.chunks(3))
            .filter(|(p, q)| p.iter().zip(q.iter()).any(|(a, b)| a.abs_diff(*b) > by))
            .count()
    }

    /// The letters the PNG backend draws from glyph outlines (`glyphs.rs`,
    /// `coverage.rs`) are the ones usvg draws from the SVG's `<text>`: the same
    /// faces, glyphs and places, to within anti-aliasing and a quarter pixel.
    #[test]
    fn letters_drawn_from_outlines_are_the_ones_usvg_draws() {
        let scene = resolve(&board(), PageId(1));
        assert!(crate::backend::svg::to_svg(&scene, None).contains("<text"));
        let (ours, theirs) = ours_and_usvgs(&scene, 1.5);
        let pixels = ours.len() / 3;
        let differ = differing(&ours, &theirs, 32);
        let ink = (0..pixels).filter(|&i| theirs[3 * i] < 128).count();
        assert!(ink > 20_000, "the picture has letters: {ink} dark pixels");
        // Letters are placed to a quarter pixel (`coverage.rs`), so an edge may
        // move by an eighth and cross one of the four sub-scanlines a row is
        // sampled at: 0.31% of these pixels. Half a pixel off makes it 2.1%,
        // a whole one 3%.
        assert!(
            differ * 200 < pixels,
            "{differ} of {pixels} pixels differ from usvg's drawing"
        );
    }

    /// A board of empty sticky notes at `bounds`.
    fn notes(bounds: impl IntoIterator<Item = Rect>) -> Board {
        let mut board = Board::new("notes", &[]);
        let mut tx = Transaction::begin(&mut board);
        for bounds in bounds {
            let shape = Shape {
                geom: Geom::Note,
                bounds,
                text: String::new(),
                style: Style::default(),
                sizing: Sizing::Fixed,
                rotation: inkboard_core::Rotation::NONE,
                icon: None,
            };
            let id = tx.new_id(IdKind::Shape);
            tx.insert(PageId(1), None, Object::new(id, Kind::Shape(shape)))
                .unwrap();
        }
        tx.commit(Actor::Agent).unwrap();
        board
    }

    /// Notes' shadows drawn from cached sprites (`shadows.rs`) are the layers the
    /// SVG draws, to within a shade: over one another, in both themes, at a
    /// scale that puts notes at every quarter-pixel phase.
    #[test]
    fn shadows_drawn_from_sprites_are_the_layers_usvg_draws() {
        let board = notes((0..24).map(|i| {
            Rect::new(
                (i % 6) as f64 * 97.3,
                (i / 6) as f64 * 61.9,
                80.0 + (i % 2) as f64 * 13.0,
                50.0,
            )
        }));
        for theme in [crate::Theme::Light, crate::Theme::Dark] {
            let scene = resolve(&board, PageId(1)).in_theme(theme);
            assert!(
                scene.items.iter().all(crate::backend::shadows::drawn_apart),
                "every note's shadow is drawn from its sprite"
            );
            let (ours, theirs) = ours_and_usvgs(&scene, 1.37);
            // A shadow is faint and soft: placed to a quarter pixel, it moves by
            // an eighth at most, which shifts a shade in the columns and rows
            // where its layers' edges bunch (under the note's own edge): up to 7
            // levels there (280 pixels of these by more than 2), the same pixels
            // elsewhere.
            let differ = differing(&ours, &theirs, 8);
            assert_eq!(
                differ, 0,
                "{theme:?}: {differ} pixels differ by more than 8"
            );
            // Yet it is there, and a shade off on average at most: the shadow's
            // pixels are darker than the page.
            let page = theirs[0];
            let shaded: Vec<usize> = (0..theirs.len())
                .filter(|&i| theirs[i] < page && theirs[i] > page.saturating_sub(60))
                .collect();
            assert!(shaded.len() > 1000, "{theme:?}: {} shaded", shaded.len());
            let off: usize = shaded
                .iter()
                .map(|&i| ours[i].abs_diff(theirs[i]) as usize)
                .sum();
            assert!(
                off < shaded.len() * 3,
                "{theme:?}: {:.2} levels off on average",
                off as f64 / shaded.len() as f64
            );
        }
    }

    /// A note too large for a sprite still has its shadow: it is filled where it
    /// lies (`shadows.rs`), the pixels the SVG's layers make.
    #[test]
    fn a_shadow_too_large_for_a_sprite_is_filled_in_place() {
        let board = notes([Rect::new(0.0, 0.0, 2300.0, 60.0)]);
        let scene = resolve(&board, PageId(1));
        assert!(crate::backend::shadows::drawn_apart(&scene.items[0]));
        let (ours, theirs) = ours_and_usvgs(&scene, 1.0);
        let page = theirs[0];
        let shaded = theirs.iter().filter(|&&c| c < page).count();
        assert!(shaded > 2000, "the SVG draws a shadow: {shaded}");
        let ours_shaded = ours.iter().filter(|&&c| c < page).count();
        assert!(
            ours_shaded * 10 > shaded * 9,
            "{ours_shaded} shaded channels against the SVG's {shaded}"
        );
        assert_eq!(differing(&ours, &theirs, 2), 0);
    }
}
