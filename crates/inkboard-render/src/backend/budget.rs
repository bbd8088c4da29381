//! The work budget of an embedded SVG image. An SVG of a few hundred bytes can ask
//! the rasterizer for minutes of work: an `feMorphology` of radius 400 costs
//! about (2·400+1)² operations a pixel, a 15×15 `feConvolveMatrix` 225, and a
//! filter region can be made as large as the picture. Before a picture is
//! rasterized (PNG, and the filters krilla rasterizes for PDF), each SVG image is
//! priced at the scale it will be drawn at; one over [`MAX_WORK`] is drawn as a
//! placeholder instead (a grey box with a cross), and `render` reports it as
//! `image_not_drawn` (see `check.rs`). The SVG export keeps the image as it is:
//! the viewer that opens it spends its own time.
//!
//! The price is an estimate in "pixel operations", calibrated on resvg 0.47 on
//! this project's machine (about 30 M a second for morphology): close enough to
//! tell a diagram's drop shadow from an attack, not a timing.

use inkboard_core::{ImageFormat, ObjectId};
use usvg::filter::Kind;
use usvg::{Group, Node, Tree};

use crate::scene::{Part, Scene};

/// The most work one SVG image may ask for: about a second of rasterizing.
pub const MAX_WORK: f64 = 3e7;

/// The largest side, in pixels, a filter region is priced at: a region is
/// clipped to the picture, and no picture is wider than this.
const MAX_SIDE_PX: f64 = 16_384.0;

/// True when the SVG image `data`, drawn into a `w`×`h` box at `scale` pixels per
/// board unit, asks for more than [`MAX_WORK`]. One SVG unit becomes the box's
/// fit (`preserveAspectRatio="xMidYMid meet"`) times `scale` pixels.
pub fn too_costly(data: &[u8], w: f64, h: f64, scale: f64) -> bool {
    let Ok(tree) = Tree::from_data(data, &crate::text::fonts::usvg_options()) else {
        return false;
    };
    let size = tree.size();
    let fit = (w / size.width() as f64).min(h / size.height() as f64);
    group_work(tree.root(), fit * scale, 0) > MAX_WORK
}

/// The objects of `scene` holding an SVG image too costly to draw at `scale`
/// pixels per board unit.
pub fn costly_images(scene: &Scene, scale: f64) -> Vec<ObjectId> {
    scene
        .items
        .iter()
        .filter(|item| {
            item.parts.iter().any(|part| match part {
                Part::Image(i) if i.format == ImageFormat::Svg => {
                    too_costly(&i.data, i.rect.w, i.rect.h, scale)
                }
                _ => false,
            })
        })
        .map(|item| item.id.clone())
        .collect()
}

fn group_work(group: &Group, px: f64, depth: usize) -> f64 {
    let t = group.abs_transform();
    // How much the group's own units are scaled on the way to the canvas.
    let linear = ((t.sx * t.sy - t.kx * t.ky).abs() as f64).sqrt() * px;
    let mut work = 0.0;
    for filter in group.filters() {
        let r = filter.rect();
        let side = |units: f32| (units as f64 * linear).clamp(1.0, MAX_SIDE_PX);
        let area = side(r.width()) * side(r.height());
        for primitive in filter.primitives() {
            work += area * per_pixel(primitive.kind(), linear);
        }
    }
    for child in group.children() {
        work += match child {
            Node::Group(g) => group_work(g, px, depth),
            // A nested SVG image inside the image: priced alike, a few levels deep.
            Node::Image(image) if depth < 4 => match image.kind() {
                usvg::ImageKind::SVG(tree) => group_work(tree.root(), px, depth + 1),
                _ => 0.0,
            },
            _ => 0.0,
        };
    }
    work
}

/// Operations a pixel for one filter primitive, its sizes scaled by `linear`.
fn per_pixel(kind: &Kind, linear: f64) -> f64 {
    match kind {
        Kind::Morphology(m) => {
            let rx = m.radius_x().get() as f64 * linear;
            let ry = m.radius_y().get() as f64 * linear;
            (2.0 * rx + 1.0) * (2.0 * ry + 1.0)
        }
        Kind::ConvolveMatrix(c) => (c.matrix().columns() * c.matrix().rows()) as f64,
        // A box blur three times each way, whatever the deviation, plus the
        // region it spreads over (the region is already priced).
        Kind::GaussianBlur(_) | Kind::DropShadow(_) => 12.0,
        Kind::Turbulence(t) => 8.0 * t.num_octaves().max(1) as f64,
        Kind::DiffuseLighting(_) | Kind::SpecularLighting(_) => 20.0,
        _ => 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svg(filter: &str) -> Vec<u8> {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><filter id="f" x="0" y="0" width="100" height="100" filterUnits="userSpaceOnUse">{filter}</filter><rect width="100" height="100" fill="red" filter="url(#f)"/></svg>"#
        )
        .into_bytes()
    }

    #[test]
    fn attacks_cost_more_than_the_budget_and_drop_shadows_less() {
        let hostile = [
            r#"<feMorphology radius="400"/>"#,
            r#"<feConvolveMatrix order="15" kernelMatrix="{}"/>"#,
        ];
        for f in hostile {
            let f = f.replace("{}", &vec!["1"; 225].join(" "));
            assert!(too_costly(&svg(&f), 400.0, 400.0, 4.0), "{f} passed");
        }
        for f in [
            r#"<feGaussianBlur stdDeviation="3"/>"#,
            r#"<feDropShadow dx="2" dy="2" stdDeviation="2"/>"#,
            r#"<feMorphology radius="1"/>"#,
        ] {
            assert!(!too_costly(&svg(f), 100.0, 100.0, 2.0), "{f} refused");
        }
        // No filter, no cost, however large it is drawn.
        assert!(!too_costly(&svg(""), 10_000.0, 10_000.0, 8.0));
    }
}
