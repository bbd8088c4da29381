//! Model → scene: every decision about how a page looks is made here, once.
//!
//! Each object becomes one [`Item`] in page order. Shapes get their outline, fill,
//! stroke and fitted text; connectors their route, heads and label on a white
//! rounded background, all laid out for the whole page first ([`connectors`], since
//! connectors share sides and keep their labels apart); ink a smoothed curve (Catmull-Rom through the points, as
//! cubic Béziers); images their bytes; groups nothing (their members are items of
//! their own, so a group adds no drawing).

use std::sync::OnceLock;

use inkboard_core::{
    Align, Board, Connector, FillStyle, Font, Geom, Image, Ink, Kind, Object, ObjectId, PageId,
    Point, Rect, Shape, VAlign, Vocabulary,
};

use crate::deadline::{unstoppable, Deadline, Stopped};
use crate::route::connectors::{self, Laid};
use crate::route::labels::{end_label_font_size, label_font_size, END_LABEL_PAD, LABEL_PAD};
use crate::scene::{
    Anchor, FaceRun, ImagePart, Item, LabelEnd, Part, PathPart, PlacedLine, Rgba, Scene, Seg,
    Stroke, TextPart, Turn,
};
use crate::shapes::{self, pt};
use crate::style;
use crate::text::faces;
use crate::text::fit::fit_within;
use crate::text::{self, Typeface, Weight};
use crate::theme::Theme;

/// Resolves page `page` of `board` into a scene. A page that does not exist gives an
/// empty scene.
pub fn resolve(board: &Board, page: PageId) -> Scene {
    unstoppable(resolve_within(board, page, &Deadline::none()))
}

/// [`resolve`], stopping with [`Stopped`] once `deadline` has come: it is checked
/// for each connector routed, each object resolved and each line of text fitted.
pub fn resolve_within(board: &Board, page: PageId, deadline: &Deadline) -> Result<Scene, Stopped> {
    let Some(p) = board.page(page) else {
        return Ok(Scene {
            page,
            name: String::new(),
            bounds: empty_bounds(),
            items: Vec::new(),
            theme: Theme::Light,
            background: true,
        });
    };
    let laid = connectors::layout(board, &p.objects, deadline)?;
    let items: Vec<Item> = p
        .objects
        .iter()
        .zip(&laid)
        .map(|(o, laid)| {
            deadline.check()?;
            resolve_object(o, laid.as_ref(), deadline)
        })
        .collect::<Result<_, _>>()?;
    let bounds = padded_bounds(&items);
    Ok(Scene {
        page,
        name: p.name.clone(),
        bounds,
        items,
        theme: Theme::Light,
        background: true,
    })
}

/// The box around what `items` draw, with the page's padding: a scene's bounds.
pub(crate) fn padded_bounds(items: &[Item]) -> Rect {
    items
        .iter()
        .filter_map(item_extent)
        .reduce(|a, b| a.union(&b))
        .map(|r| {
            Rect::new(
                r.x - style::PADDING,
                r.y - style::PADDING,
                r.w + 2.0 * style::PADDING,
                r.h + 2.0 * style::PADDING,
            )
        })
        .unwrap_or_else(empty_bounds)
}

/// The drawn line of each connector on page `page`, as a polyline (curves
/// flattened, ends pulled back under filled heads), in page order: the routes
/// [`resolve`] draws, without laying out anything else. `layout` reads them to
/// see how crowded the channels between its layers are.
pub fn connector_lines(board: &Board, page: PageId) -> Vec<(ObjectId, Vec<Point>)> {
    let Some(p) = board.page(page) else {
        return Vec::new();
    };
    // The routes alone: their labels are not what `layout` asks about.
    let routed = unstoppable(connectors::routes(board, &p.objects, &Deadline::none()));
    p.objects
        .iter()
        .zip(routed)
        .filter_map(|(o, routed)| Some((o.id.clone(), crate::route::polyline(&routed?.line))))
        .collect()
}

fn empty_bounds() -> Rect {
    Rect::new(0.0, 0.0, 2.0 * style::PADDING, 2.0 * style::PADDING)
}

fn resolve_object(
    object: &Object,
    laid: Option<&Laid>,
    deadline: &Deadline,
) -> Result<Item, Stopped> {
    let mut item = Item {
        id: object.id.clone(),
        kind: object.kind.type_name(),
        geom: None,
        opacity: object.style().map_or(1.0, style::opacity),
        parts: Vec::new(),
        shadow: 0,
        link: crate::marks::link(object),
        turn: object.own_bounds().and_then(|b| {
            let rotation = object.rotation();
            (!rotation.is_none()).then(|| Turn {
                rotation,
                about: b.center(),
            })
        }),
    };
    match &object.kind {
        Kind::Shape(s) => {
            item.geom = Some(inkboard_core::Vocabulary::name(s.geom));
            shape(s, object.flip, &mut item.parts, deadline)?;
            if s.geom == Geom::Note {
                item.shadow = NOTE_SHADOW_LAYERS.min(item.parts.len());
            }
            if !object.flip.is_none() {
                // The outline and details, not the text, nor a note's shadow,
                // which falls below whatever the outline's way round.
                if let Some(parts) = item.parts.get_mut(item.shadow..) {
                    crate::marks::flip_paths(parts, s.bounds, object.flip);
                }
            }
            sketched(object, &s.style, item.shadow, &mut item.parts);
            // After the flip and the sketch: an icon is drawn as its set draws
            // it, the right way round and with clean lines, as the text is.
            crate::icon::add(s, &mut item.parts);
        }
        Kind::Connector(c) => {
            if let Some(laid) = laid {
                connector(c, laid, &mut item.parts, deadline)?;
                crate::rough::sketch(&object.id, &c.style, false, &mut item.parts);
            }
        }
        Kind::Image(i) => image(i, object.flip, &mut item.parts),
        Kind::Ink(k) => ink(k, &mut item.parts),
        Kind::Group(_) => {}
    }
    Ok(item)
}

fn shape(
    s: &Shape,
    flip: inkboard_core::Flip,
    parts: &mut Vec<Part>,
    deadline: &Deadline,
) -> Result<(), Stopped> {
    if s.geom == Geom::Table {
        return crate::table::draw(s, parts, deadline);
    }
    let b = s.bounds;
    let fill = style::shape_fill(s.geom, &s.style);
    let stroke = style::shape_stroke(s.geom, &s.style);
    if s.geom == Geom::Note {
        note_shadow(b, parts);
    }
    if fill.is_some() || stroke.is_some() {
        parts.push(Part::Path(PathPart {
            segs: shapes::outline(s.geom, b),
            fill,
            stroke: stroke.clone(),
        }));
    }
    if let Some(disc) = shapes::disc(s.geom, b) {
        // In the outline's colour: an end state drawn in red has a red disc.
        let ink = stroke.as_ref().map_or(style::INK, |k| k.color);
        parts.push(Part::Path(PathPart {
            segs: disc,
            fill: Some(ink),
            stroke: None,
        }));
    }
    if let (Some(details), Some(stroke)) = (shapes::details(s.geom, b), stroke) {
        parts.push(Part::Path(PathPart {
            segs: details,
            fill: None,
            stroke: Some(stroke),
        }));
    }
    if !s.text.is_empty() {
        let (font_size, weight) = style::shape_font(s.geom, &s.style);
        let (align, valign) = style::shape_align(s.geom, &s.style);
        // Hatching leaves the page showing between its lines: the text is set
        // as on no fill, not white on a dark one.
        let hatched = s.style.fill_style.is_some_and(|f| f != FillStyle::Solid);
        let color = style::shape_text_color(s.geom, &s.style, fill.filter(|_| !hatched));
        if let Some(t) = shape_text(
            &s.text,
            crate::marks::flip_box(s.text_box(), b, flip),
            font_size,
            weight,
            (align, valign),
            color,
            s.geom != Geom::Frame,
            deadline,
        )? {
            parts.push(Part::Text(t));
        }
    }
    Ok(())
}

/// A shape's outline and details in its style's hand-drawn look (`rough`), not
/// the `shadow` first parts (a note's shadow), which stay soft.
fn sketched(object: &Object, style: &inkboard_core::Style, shadow: usize, parts: &mut Vec<Part>) {
    if !crate::rough::plain(style) && parts.len() > shadow {
        let mut rest = parts.split_off(shadow);
        crate::rough::sketch(&object.id, style, true, &mut rest);
        parts.append(&mut rest);
    }
}

/// The parts a sticky note's shadow takes, drawn first.
const NOTE_SHADOW_LAYERS: usize = 8;

/// A soft shadow under a sticky note: translucent, growing, lowered copies of its
/// outline. Layers instead of a blur filter keep PNGs fast and PDFs vector. Eight
/// faint layers a fraction of a unit apart, over the same area as ever (grown by up
/// to 2, lowered by 1.5 to 5): three darker ones a unit or more apart showed as
/// separate edges when zoomed in (issue 35), these fade evenly.
fn note_shadow(b: Rect, parts: &mut Vec<Part>) {
    const LAYERS: usize = NOTE_SHADOW_LAYERS;
    for i in (0..LAYERS).rev() {
        let t = i as f64 / (LAYERS - 1) as f64;
        let (grow, drop, alpha) = (2.0 * t, 1.5 + 3.5 * t, 6u8);
        let r = Rect::new(
            b.x - grow,
            b.y - grow + drop,
            b.w + 2.0 * grow,
            b.h + 2.0 * grow,
        );
        parts.push(Part::Path(PathPart {
            segs: shapes::rect(r, 3.0 + grow),
            fill: Some(Rgba([0, 0, 0, alpha])),
            stroke: None,
        }));
    }
}

/// Where the first baseline sits below the top of a line box, as a share of the font
/// size: the face's ascent-plus-descent is centred in the line pitch, as browsers do.
fn baseline_share(face: Typeface) -> f32 {
    static SHARES: [OnceLock<f32>; 4] = [const { OnceLock::new() }; 4];
    let slot = Font::ALL.iter().position(|&f| f == face.font).unwrap_or(0);
    *SHARES[slot].get_or_init(|| {
        use skrifa::MetadataProvider;
        let m = skrifa::FontRef::new(faces::primary_data(Typeface::new(
            face.font,
            Weight::Regular,
        )))
        .map(|f| {
            f.metrics(
                skrifa::instance::Size::unscaled(),
                skrifa::instance::LocationRef::default(),
            )
        })
        .ok();
        let (asc, desc) = m.map_or((0.97, 0.24), |m| {
            let upm = m.units_per_em as f32;
            (m.ascent / upm, -m.descent / upm)
        });
        (text::LINE_HEIGHT - (asc + desc)) / 2.0 + asc
    })
}

/// Lays `text` (rich text when `rich`) out in `tb` with the shared fit rule (shrink,
/// then overflow past `tb`'s edges) and places its lines.
#[allow(clippy::too_many_arguments)]
pub(crate) fn shape_text(
    text: &str,
    tb: Rect,
    font_size: f32,
    face: Typeface,
    (align, valign): (Align, VAlign),
    color: Rgba,
    rich: bool,
    deadline: &Deadline,
) -> Result<Option<TextPart>, Stopped> {
    if font_size <= 0.0 {
        return Ok(None);
    }
    let fitted = fit_within(
        text,
        font_size,
        face,
        tb.w as f32,
        tb.h as f32,
        rich,
        deadline,
    )?;
    let top = match valign {
        VAlign::Top => tb.y as f32,
        VAlign::Middle => tb.y as f32 + (tb.h as f32 - fitted.height) / 2.0,
        VAlign::Bottom => tb.bottom() as f32 - fitted.height,
    };
    let (x, anchor) = match align {
        Align::Left => (tb.x as f32, Anchor::Start),
        Align::Center => ((tb.x + tb.w / 2.0) as f32, Anchor::Middle),
        Align::Right => (tb.right() as f32, Anchor::End),
    };
    let share = baseline_share(face);
    let font_size = fitted.font_size;
    let lines = fitted
        .lines
        .into_iter()
        .enumerate()
        .map(|(i, l)| PlacedLine {
            x,
            baseline: top + i as f32 * fitted.line_height + share * font_size,
            width: l.width,
            pieces: l
                .pieces
                .iter()
                .map(|r| FaceRun {
                    start: r.start,
                    end: r.end,
                    face: r.face,
                    dx: r.dx,
                    width: r.width,
                    marks: r.marks,
                    link: r.link,
                })
                .collect(),
            text: l.text,
        })
        .collect();
    Ok(Some(TextPart {
        lines,
        font_size,
        face,
        color,
        anchor,
        links: fitted
            .links
            .iter()
            .map(|u| inkboard_core::rich::safe_url(u))
            .collect(),
        overflows: fitted.overflows,
        end: None,
    }))
}

fn connector(
    c: &Connector,
    laid: &Laid,
    parts: &mut Vec<Part>,
    deadline: &Deadline,
) -> Result<(), Stopped> {
    if let Some(stroke) = style::line_stroke(&c.style, style::STROKE_WIDTH) {
        parts.push(Part::Path(PathPart {
            segs: laid.routed.line.clone(),
            fill: None,
            stroke: Some(stroke.clone()),
        }));
        // Heads are always solid, whatever the dash of the line.
        let head_stroke = Stroke {
            dash: Vec::new(),
            round_cap: true,
            ..stroke.clone()
        };
        for (segs, filled) in &laid.routed.heads {
            parts.push(Part::Path(PathPart {
                segs: segs.clone(),
                fill: filled.then_some(stroke.color),
                stroke: Some(if *filled {
                    Stroke {
                        width: (stroke.width * 0.5).max(0.5),
                        ..head_stroke.clone()
                    }
                } else {
                    head_stroke.clone()
                }),
            }));
        }
    }
    if let Some(bg) = laid.label {
        label(c, None, bg, parts, deadline)?;
    }
    for end in LabelEnd::BOTH {
        if let Some(bg) = laid.end_labels[end.index()] {
            label(c, Some(end), bg, parts, deadline)?;
        }
    }
    Ok(())
}

/// A connector's label, or its label at `end`: its text centred in `bg`, over a
/// white rounded box.
fn label(
    c: &Connector,
    end: Option<LabelEnd>,
    bg: Rect,
    parts: &mut Vec<Part>,
    deadline: &Deadline,
) -> Result<(), Stopped> {
    let ((pad_x, pad_y), text, font_size, corner) = match end {
        None => (LABEL_PAD, c.text.as_str(), label_font_size(c), 4.0),
        Some(end) => (END_LABEL_PAD, end.text(c), end_label_font_size(c), 2.0),
    };
    parts.push(Part::Path(PathPart {
        segs: shapes::rect(bg, corner),
        fill: Some(style::BACKGROUND),
        stroke: None,
    }));
    let tb = Rect::new(
        bg.x + pad_x,
        bg.y + pad_y,
        bg.w - 2.0 * pad_x,
        bg.h - 2.0 * pad_y,
    );
    let color = c.style.text_color.map_or(style::INK, style::color);
    if let Some(t) = shape_text(
        text,
        tb,
        font_size,
        style::label_face(&c.style),
        (Align::Center, VAlign::Middle),
        color,
        false,
        deadline,
    )? {
        parts.push(Part::Text(TextPart { end, ..t }));
    }
    Ok(())
}

fn image(i: &Image, flip: inkboard_core::Flip, parts: &mut Vec<Part>) {
    parts.push(Part::Image(ImagePart {
        rect: i.bounds,
        format: i.format,
        data: i.data.clone(),
        flip,
    }));
    // Images have no frame unless the style asks for one.
    if i.style.stroke.is_some() || i.style.stroke_width.is_some() {
        parts.push(Part::Path(PathPart {
            segs: shapes::rect(i.bounds, 0.0),
            fill: None,
            stroke: style::line_stroke(&i.style, style::STROKE_WIDTH),
        }));
    }
}

fn ink(k: &Ink, parts: &mut Vec<Part>) {
    let Some(stroke) = style::line_stroke(&k.style, style::INK_WIDTH) else {
        return;
    };
    let segs = smooth(&k.points);
    if segs.is_empty() {
        return;
    }
    parts.push(Part::Path(PathPart {
        segs,
        fill: k.style.fill.map(style::color),
        stroke: Some(Stroke {
            round_cap: true,
            ..stroke
        }),
    }));
}

/// A Catmull-Rom spline through `points` as cubic Béziers (the curve passes through
/// every point, with no overshoot at the ends). One point becomes a dot.
pub(crate) fn smooth(points: &[Point]) -> Vec<Seg> {
    let points: Vec<Point> = points
        .iter()
        .copied()
        .filter(|p| p.x.is_finite() && p.y.is_finite())
        .collect();
    match points.len() {
        0 => return Vec::new(),
        // A zero-length line with round caps draws a dot.
        1 => return vec![Seg::Move(points[0]), Seg::Line(points[0])],
        _ => {}
    }
    let mut segs = vec![Seg::Move(points[0])];
    let n = points.len();
    for i in 0..n - 1 {
        let p0 = points[i.saturating_sub(1)];
        let (p1, p2) = (points[i], points[i + 1]);
        let p3 = points[(i + 2).min(n - 1)];
        let c1 = pt(p1.x + (p2.x - p0.x) / 6.0, p1.y + (p2.y - p0.y) / 6.0);
        let c2 = pt(p2.x - (p3.x - p1.x) / 6.0, p2.y - (p3.y - p1.y) / 6.0);
        segs.push(Seg::Cubic(c1, c2, p2));
    }
    segs
}

/// The area an item draws on, for the scene's bounds and for the editor, which draws
/// only what is in view (control points included, so it may be a little generous
/// around curves). None for an item that draws nothing (a group).
pub fn item_extent(item: &Item) -> Option<Rect> {
    let turn = |r: Rect| item.turn.map_or(r, |t| t.extent(r));
    item.parts
        .iter()
        .filter_map(|part| match part {
            Part::Path(p) => {
                let grow = p.stroke.as_ref().map_or(0.0, |s| s.width as f64 / 2.0);
                let points = p.segs.iter().flat_map(|s| match *s {
                    Seg::Move(a) | Seg::Line(a) => vec![a],
                    Seg::Cubic(a, b, c) => vec![a, b, c],
                    Seg::Close => vec![],
                });
                // A turned outline's own points, turned: tighter than its box turned.
                let points = points.map(|a| item.turn.map_or(a, |t| t.apply(a)));
                Rect::around(points).map(|r| r.grown(grow))
            }
            Part::Text(t) => t
                .lines
                .iter()
                .map(|l| {
                    let x = match t.anchor {
                        Anchor::Start => l.x,
                        Anchor::Middle => l.x - l.width / 2.0,
                        Anchor::End => l.x - l.width,
                    };
                    let fs = t.font_size;
                    Rect::new(
                        x as f64,
                        (l.baseline - fs) as f64,
                        l.width as f64,
                        (1.3 * fs) as f64,
                    )
                })
                .reduce(|a, b| a.union(&b))
                .map(turn),
            Part::Image(i) => Some(turn(i.rect)),
        })
        .reduce(|a, b| a.union(&b))
}
