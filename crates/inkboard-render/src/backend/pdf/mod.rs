//! The PDF backend: one page per scene, each the scene's SVG parsed by usvg with the
//! bundled fonts and drawn onto a krilla page by krilla-svg. Text stays text
//! (selectable, extractable), and shapes stay vectors. krilla-svg takes each glyph's
//! font from the tree's own font database (the bundled faces of [`fontdb`](crate::fontdb)),
//! so the PDF embeds Inter, subset to the glyphs used, and nothing else. It draws
//! every glyph at its own position, so extractors that rebuild words from gaps
//! between text runs may need the font's widths to do it (see `tests/outputs.rs`).
//!
//! A page is as big as its scene, one board unit per PDF point, scaled down only
//! when a side would pass the 14,400 pt that PDF readers accept. The document
//! carries the board's title and a bookmark per page ([`outline`]).

mod outline;

use krilla::action::LinkAction;
use krilla::annotation::{LinkAnnotation, Target};
use krilla::geom::{Rect, Size};
use krilla::page::PageSettings;
use krilla::Document;
use krilla_svg::{SurfaceExt, SvgSettings};

use crate::backend::svg::{to_svg_drawing, SvgOptions};
use crate::deadline::Deadline;
use crate::scene::{Part, Scene};
use crate::text::fonts::usvg_options;
use crate::RenderError;

/// PDF's largest page side, in points (Acrobat's limit, kept by the PDF/A profiles).
const MAX_PAGE: f32 = 14_400.0;

/// Pixels a point at which filters are rasterized (krilla-svg's default).
const FILTER_SCALE: f32 = 4.0;

/// A PDF of the scenes, one page each, in order, titled `title` (left out when
/// blank) and with one bookmark per page, named after it.
pub fn to_pdf(scenes: &[Scene], title: &str) -> Result<Vec<u8>, RenderError> {
    to_pdf_within(scenes, title, &Deadline::none())
}

/// [`to_pdf`], stopping with [`RenderError::Stopped`] once `deadline` has come: it
/// is checked before each page is parsed and before it is drawn.
pub fn to_pdf_within(
    scenes: &[Scene],
    title: &str,
    deadline: &Deadline,
) -> Result<Vec<u8>, RenderError> {
    if scenes.is_empty() {
        return Err(RenderError::NoPages);
    }
    let options = usvg_options();
    let mut document = Document::new();
    outline::describe(&mut document, scenes, title);
    for scene in scenes {
        deadline.check()?;
        let b = scene.bounds;
        // krilla rasterizes filters at FILTER_SCALE pixels a point; a page wider
        // than MAX_PAGE is shrunk first.
        let shrink = (MAX_PAGE / (b.w.max(b.h) as f32)).min(1.0);
        let not_drawn =
            crate::backend::budget::costly_images(scene, (shrink * FILTER_SCALE) as f64);
        let svg = to_svg_drawing(
            scene,
            None,
            SvgOptions {
                embed_fonts: false,
                background: true,
            },
            &not_drawn,
        );
        deadline.check()?;
        let tree = usvg::Tree::from_str(&svg, &options)
            .map_err(|e| RenderError::from_usvg(e, &scene.name))?;
        deadline.check()?;
        let (w, h) = (b.w as f32, b.h as f32);
        let size = Size::from_wh(w * shrink, h * shrink)
            .ok_or(RenderError::EmptyRegion { w: b.w, h: b.h })?;
        let mut page = document.start_page_with(PageSettings::new(size));
        let mut surface = page.surface();
        surface
            .draw_svg(
                &tree,
                size,
                SvgSettings {
                    filter_scale: FILTER_SCALE,
                    ..SvgSettings::default()
                },
            )
            .ok_or_else(|| RenderError::Pdf("the page's SVG could not be drawn".into()))?;
        surface.finish();
        for (rect, url) in links(scene, shrink) {
            page.add_annotation(
                LinkAnnotation::new(rect, Target::Action(LinkAction::new(url).into())).into(),
            );
        }
        page.finish();
    }
    document
        .finish()
        .map_err(|e| RenderError::Pdf(format!("{e:?}")))
}

/// The links of a page's rich text: where each piece of a link's text is on the page
/// (scaled by `shrink`; in rotated text, the box around it), and where it goes. Only links safe to follow are kept.
fn links(scene: &Scene, shrink: f32) -> Vec<(Rect, String)> {
    let (ox, oy) = (scene.bounds.x as f32, scene.bounds.y as f32);
    let mut out = Vec::new();
    // An object's own link covers what it draws (the box around it, turned);
    // links in its text come after, so a reader that takes the last area over a
    // point follows the text's.
    for item in &scene.items {
        let (Some(url), Some(b)) = (&item.link, crate::item_extent(item)) else {
            continue;
        };
        let (x, y, w, h) = (b.x as f32, b.y as f32, b.w as f32, b.h as f32);
        if let Some(rect) =
            Rect::from_xywh((x - ox) * shrink, (y - oy) * shrink, w * shrink, h * shrink)
        {
            out.push((rect, url.clone()));
        }
    }
    let texts = scene.items.iter().flat_map(|i| {
        i.parts.iter().filter_map(move |p| match p {
            Part::Text(t) => Some((t, i.turn)),
            _ => None,
        })
    });
    for (t, turn) in texts {
        for line in &t.lines {
            for p in &line.pieces {
                let Some(url) = t.href(p) else { continue };
                let (x, y, w, h) = t.piece_box(line, p);
                // A link in turned text: the box around its turned box (a link
                // area is upright).
                let b = inkboard_core::Rect::new(x as f64, y as f64, w as f64, h as f64);
                let b = turn.map_or(b, |t| t.extent(b));
                let (x, y, w, h) = (b.x as f32, b.y as f32, b.w as f32, b.h as f32);
                let rect =
                    Rect::from_xywh((x - ox) * shrink, (y - oy) * shrink, w * shrink, h * shrink);
                if let Some(rect) = rect {
                    out.push((rect, url.to_owned()));
                }
            }
        }
    }
    out
}
