//! Problems on a page that an agent or a person should fix: shapes that overlap,
//! text that does not fit its shape, objects that stick out of a frame, frames over
//! one another, connectors that run through shapes and connectors that cross, and
//! (in [`labels`]) labels over lines, arrowheads, shapes or each other and
//! arrowheads landing on one point.
//! What the agent or the person chose is not a problem: a line between lanes
//! crossing the lanes' borders, a line with an end pinned to a point (a lifeline, a
//! callout) and a line routed by hand through waypoints go where they were told.
//! The text check reads the verdict of [`fit`](crate::text::fit::fit) that resolving the
//! scene drew the text with, and the connector checks read the lines of the resolved
//! [`Scene`], so each reports exactly what the picture shows.

use std::collections::{BTreeMap, HashMap, HashSet};

use inkboard_core::{Board, End, Geom, Kind, Object, ObjectId, PageId, Point, Rect, Rotation};
use inkboard_geom::{clipped_length, crosses};

use crate::route;
use crate::route::buckets::Buckets;
use crate::scene::{Part, Scene};
use crate::shapes;
use crate::style;

mod labels;

/// How far inside a shape's outline a line must reach to count as running through
/// it: a line along an edge, or grazing a corner, does not.
const INSET: f64 = 1.0;

/// What kind of problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// Two shapes (or images) overlap; frames are left out, as holding shapes is
    /// what they are for.
    ShapeOverlap,
    /// A shape's text does not fit its text box even shrunk to the floor of the fit
    /// rule ([`crate::text::fit`]), so it runs past the shape's edges.
    TextOverflow,
    /// A character of a shape's text or a connector's label is in no font: not in
    /// the text's face, the bundled fallbacks nor the system's fonts, so it is drawn
    /// as an empty box.
    MissingGlyph,
    /// A shape or image lies partly inside a frame and partly outside it.
    OutsideFrame,
    /// Two frames overlap and neither holds the other: one covers part of the
    /// other and of what it holds (a frame grown or moved over its neighbour).
    FrameOverlap,
    /// An object lies under a frame drawn over it, so the frame's fill hides it
    /// (a frame grown over its neighbour, or moved onto other objects).
    UnderFrame,
    /// A connector's line runs through a shape or image that is not one of its
    /// ends (nor under one), or through a frame holding neither of its ends.
    ThroughShape,
    /// Two connectors' lines cross (one problem per pair, however many times).
    Crossing,
    /// A connector's label lies over another connector's line, which strikes it
    /// through.
    LabelOverLine,
    /// A connector's label hides an arrowhead, its own or another connector's.
    LabelOverArrowhead,
    /// Two connectors' labels overlap.
    LabelOverlap,
    /// A connector's label covers part of a shape or image.
    LabelOverShape,
    /// Two connectors' arrowheads land on one point, so one hides the other.
    ArrowheadOverlap,
    /// An SVG image was too costly to draw at the picture's scale (its filters
    /// would take too long), so a placeholder stands in for it. Found while
    /// drawing, not by [`check`]: see [`crate::Png::not_drawn`].
    ImageNotDrawn,
}

impl ProblemKind {
    /// The word for this kind in summaries.
    pub fn name(self) -> &'static str {
        match self {
            ProblemKind::ShapeOverlap => "shape_overlap",
            ProblemKind::TextOverflow => "text_overflow",
            ProblemKind::MissingGlyph => "missing_glyph",
            ProblemKind::OutsideFrame => "outside_frame",
            ProblemKind::FrameOverlap => "frame_overlap",
            ProblemKind::UnderFrame => "under_frame",
            ProblemKind::ThroughShape => "through_shape",
            ProblemKind::Crossing => "crossing",
            ProblemKind::LabelOverLine => "label_over_line",
            ProblemKind::LabelOverArrowhead => "label_over_arrowhead",
            ProblemKind::LabelOverlap => "label_overlap",
            ProblemKind::LabelOverShape => "label_over_shape",
            ProblemKind::ArrowheadOverlap => "arrowhead_overlap",
            ProblemKind::ImageNotDrawn => "image_not_drawn",
        }
    }
}

/// One problem: its kind, the objects involved and a one-sentence message.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub kind: ProblemKind,
    pub ids: Vec<ObjectId>,
    pub message: String,
}

/// The problems on page `page` of `board`, in a stable order: by kind, then by the
/// objects' z-order. Resolves the page to see its connectors' lines; a caller that
/// has the scene already should use [`check_scene`].
pub fn check(board: &Board, page: PageId) -> Vec<Problem> {
    check_scene(board, &crate::resolve(board, page))
}

/// The problems on the page of `board` that `scene` shows (resolved from that
/// board), as [`check`] gives them, reading the connectors' lines from the scene.
pub fn check_scene(board: &Board, scene: &Scene) -> Vec<Problem> {
    let Some(p) = board.page(scene.page) else {
        return Vec::new();
    };
    let mut problems = Vec::new();

    // Shapes and images that take up room, frames apart, where they are drawn.
    let solid: Vec<(&ObjectId, Footprint)> = p
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) if s.geom != Geom::Frame => Some((&o.id, Footprint::of(o)?)),
            Kind::Image(_) => Some((&o.id, Footprint::of(o)?)),
            _ => None,
        })
        .collect();
    // Activation bars on one lifeline overlap as they nest: meant, not a problem.
    let lines = inkboard_core::diagram::sequence::lifelines(board, scene.page);
    let bars: HashMap<&ObjectId, usize> = match lines.is_empty() {
        true => HashMap::new(),
        false => p
            .objects
            .iter()
            .filter_map(|o| Some((&o.id, inkboard_core::diagram::sequence::bar_on(&lines, o)?)))
            .collect(),
    };
    let meant = |a: &ObjectId, b: &ObjectId| bars.get(a).is_some_and(|l| bars.get(b) == Some(l));
    overlaps(&solid, &meant, &mut problems);

    // The fit rule ran when the scene was resolved; its verdict is on each text.
    let overflowing: HashSet<&ObjectId> = scene
        .items
        .iter()
        .filter(|item| {
            item.parts
                .iter()
                .any(|part| matches!(part, Part::Text(t) if t.overflows))
        })
        .map(|item| &item.id)
        .collect();
    let mut overflows = 0;
    for o in &p.objects {
        let Kind::Shape(s) = &o.kind else { continue };
        if s.text.is_empty() || !overflowing.contains(&o.id) {
            continue;
        }
        if overflows == MAX_PER_KIND {
            problems.push(cut(ProblemKind::TextOverflow, "texts that do not fit"));
            break;
        }
        let message = format!(
            "The text of {} does not fit its shape even at {}% of its font size, and runs past its edges; enlarge the shape, shorten the text or make the font smaller.",
            o.id,
            (crate::text::fit::SHRINK_FLOOR * 100.0).round()
        );
        overflows += 1;
        problems.push(Problem {
            kind: ProblemKind::TextOverflow,
            ids: vec![o.id.clone()],
            message,
        });
    }

    missing_glyphs(&p.objects, &mut problems);
    // A connector end at a point is no problem: the agent pinned it there (a
    // lifeline's foot, a callout's tip), and the line goes where it was told.
    outside_frames(&p.objects, &mut problems);
    under_frames(&p.objects, &mut problems);
    let lines = connector_lines(&p.objects, scene);
    through_shapes(board, &p.objects, &lines, &mut problems);
    crossings(&lines, &mut problems);
    let carried = labels::carried(&p.objects, scene);
    labels::labels_over_lines(&carried, &mut problems);
    labels::labels_overlapping(&carried, &mut problems);
    labels::labels_over_shapes(board, &p.objects, &carried, &mut problems);
    labels::arrowheads_overlapping(&carried, &mut problems);
    problems
}

/// Shapes and connectors whose text has characters no font has, in z-order.
fn missing_glyphs(objects: &[Object], problems: &mut Vec<Problem>) {
    let mut found = 0;
    for o in objects {
        let (text, face) = match &o.kind {
            Kind::Shape(s) => (&s.text, style::shape_font(s.geom, &s.style).1),
            Kind::Connector(c) => (&c.text, style::label_face(&c.style)),
            _ => continue,
        };
        if text.is_empty() || text.is_ascii() {
            continue;
        }
        let missing = crate::text::faces::missing(text, face);
        if missing.is_empty() {
            continue;
        }
        if found == MAX_PER_KIND {
            problems.push(cut(
                ProblemKind::MissingGlyph,
                "texts with missing characters",
            ));
            return;
        }
        found += 1;
        let shown: Vec<String> = missing
            .iter()
            .take(10)
            .map(|&c| format!("\"{c}\" (U+{:04X})", c as u32))
            .collect();
        let more = if missing.len() > 10 { " and more" } else { "" };
        problems.push(Problem {
            kind: ProblemKind::MissingGlyph,
            ids: vec![o.id.clone()],
            message: format!(
                "The text of {} has characters no installed font has, drawn as empty boxes: {}{more}; install a font that has them (inkboard's docs/fonts.md names Debian's packages) or write other characters.",
                o.id,
                shown.join(", "),
            ),
        });
    }
}

/// At most this many problems of one kind are listed (`render` shows 50), so a
/// page of 100,000 shapes piled on each other is checked in bounded time and
/// memory; past it, one more problem of that kind says the list was cut.
pub const MAX_PER_KIND: usize = 500;

/// The problem that closes a list cut at [`MAX_PER_KIND`].
fn cut(kind: ProblemKind, what: &str) -> Problem {
    Problem {
        kind,
        ids: Vec::new(),
        message: format!(
            "More than {MAX_PER_KIND} {what}: only the first {MAX_PER_KIND} are listed."
        ),
    }
}

/// A spatial index of `boxes` (index = position in the list).
fn index_of(boxes: impl Iterator<Item = Rect> + Clone) -> Buckets {
    let count = boxes.clone().count();
    let area = boxes
        .clone()
        .reduce(|a, b| a.union(&b))
        .unwrap_or(Rect::new(0.0, 0.0, 1.0, 1.0));
    let mut index = Buckets::new(area, count);
    for (i, r) in boxes.enumerate() {
        index.insert(r, i as u32);
    }
    index
}

/// Pairs of solid objects that overlap, in z-order, found through a spatial
/// index rather than by trying every pair.
fn overlaps(
    solid: &[(&ObjectId, Footprint)],
    meant: &dyn Fn(&ObjectId, &ObjectId) -> bool,
    problems: &mut Vec<Problem>,
) {
    let index = index_of(solid.iter().map(|(_, f)| f.extent));
    let mut pairs = Vec::new();
    let mut near = Vec::new();
    let mut more = false;
    'all: for (i, (_, fa)) in solid.iter().enumerate() {
        index.query(&fa.extent, &mut near);
        for &j in near.iter().filter(|&&j| j as usize > i) {
            if fa.overlaps(&solid[j as usize].1) && !meant(solid[i].0, solid[j as usize].0) {
                if pairs.len() == MAX_PER_KIND {
                    more = true;
                    break 'all;
                }
                pairs.push((i, j as usize));
            }
        }
    }
    for (i, j) in pairs {
        let (a, b) = (solid[i].0, solid[j].0);
        problems.push(Problem {
            kind: ProblemKind::ShapeOverlap,
            ids: vec![a.clone(), b.clone()],
            message: format!("{a} and {b} overlap; move one of them or make room."),
        });
    }
    if more {
        problems.push(cut(ProblemKind::ShapeOverlap, "overlaps"));
    }
}

/// Where a shape or image is drawn: its box's corners, turned with it, and the
/// box around them.
#[derive(Clone, Copy, Debug)]
struct Footprint {
    extent: Rect,
    corners: [Point; 4],
    turned: bool,
}

impl Footprint {
    fn of(o: &Object) -> Option<Footprint> {
        let b = o.own_bounds()?;
        let rotation = o.rotation();
        Some(Footprint {
            extent: b.rotated_extent(rotation),
            corners: b.corners().map(|p| p.rotated(rotation, b.center())),
            turned: !rotation.is_none(),
        })
    }

    /// True when the interiors meet: the boxes around them for two unrotated
    /// boxes, else no axis of either's sides separates them (two convex
    /// outlines, the separating axis test). Touching is no overlap.
    fn overlaps(&self, other: &Footprint) -> bool {
        if !self.extent.overlaps(&other.extent) {
            return false;
        }
        if !self.turned && !other.turned {
            return true;
        }
        let axes = [self.corners, other.corners].map(|c| [sub(c[1], c[0]), sub(c[3], c[0])]);
        !axes.iter().flatten().any(|&axis| {
            let span = |c: &[Point; 4]| {
                c.iter()
                    .map(|p| p.x * axis.x + p.y * axis.y)
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                        (lo.min(v), hi.max(v))
                    })
            };
            let ((a0, a1), (b0, b1)) = (span(&self.corners), span(&other.corners));
            // A small margin: corners turned by rounding do not make a touch an overlap.
            let eps = 1e-6 * (axis.x.abs() + axis.y.abs()).max(1.0);
            a1 <= b0 + eps || b1 <= a0 + eps
        })
    }
}

fn sub(a: Point, b: Point) -> Point {
    Point::new(a.x - b.x, a.y - b.y)
}

/// Objects partly inside and partly outside a frame, frame by frame in z-order;
/// among them frames across another frame's border, which are frame overlaps.
fn outside_frames(objects: &[Object], problems: &mut Vec<Problem>) {
    // Connectors cross frames by design; ink is annotation drawn over anything.
    let placed: Vec<(usize, &Object, Rect)> = objects
        .iter()
        .enumerate()
        .filter(|(_, o)| !matches!(o.kind, Kind::Connector(_) | Kind::Group(_) | Kind::Ink(_)))
        .filter_map(|(z, o)| o.own_extent().map(|b| (z, o, b)))
        .collect();
    let index = index_of(placed.iter().map(|(_, _, r)| *r));
    let mut near = Vec::new();
    let (mut found, mut frames) = (0, 0);
    for (zf, f) in objects.iter().enumerate() {
        let Kind::Shape(frame) = &f.kind else {
            continue;
        };
        if frame.geom != Geom::Frame {
            continue;
        }
        let area = f.own_extent().unwrap_or(frame.bounds);
        index.query(&area, &mut near);
        near.sort_unstable();
        for &k in &near {
            let (z, o, b) = placed[k as usize];
            if z == zf || !area.overlaps(&b) || area.contains(&b) {
                continue;
            }
            let (kind, count, message) = if o.is_frame() {
                // Two frames across each other's border: reported once, from the
                // one further back; a frame holding this one is not in it.
                if z < zf || b.contains(&area) {
                    continue;
                }
                (
                    ProblemKind::FrameOverlap,
                    &mut frames,
                    format!(
                        "Frames {} and {} overlap and neither holds the other; move one clear of the other, or fully inside it.",
                        o.id, f.id
                    ),
                )
            } else {
                (
                    ProblemKind::OutsideFrame,
                    &mut found,
                    format!(
                        "{} sticks out of frame {}; move it fully inside or outside.",
                        o.id, f.id
                    ),
                )
            };
            if *count >= MAX_PER_KIND {
                if *count == MAX_PER_KIND {
                    let what = match kind {
                        ProblemKind::FrameOverlap => "frames over frames",
                        _ => "objects sticking out of frames",
                    };
                    problems.push(cut(kind, what));
                }
                *count += 1;
                continue;
            }
            *count += 1;
            problems.push(Problem {
                kind,
                ids: vec![o.id.clone(), f.id.clone()],
                message,
            });
        }
    }
}

/// Objects hidden under a frame: drawn before it (below it in z-order) where its
/// opaque fill covers them. A frame's own parents, which lie under it by
/// design, are not hidden by it; connectors, which cross frames, are left out.
fn under_frames(objects: &[Object], problems: &mut Vec<Problem>) {
    let placed: Vec<(usize, &Object, Rect)> = objects
        .iter()
        .enumerate()
        .filter(|(_, o)| !matches!(o.kind, Kind::Connector(_) | Kind::Group(_)))
        .filter_map(|(z, o)| o.own_extent().map(|b| (z, o, b)))
        .collect();
    let index = index_of(placed.iter().map(|(_, _, r)| *r));
    let mut near = Vec::new();
    let mut found = 0;
    for (zf, f) in objects.iter().enumerate() {
        let Kind::Shape(frame) = &f.kind else {
            continue;
        };
        let opaque = style::shape_fill(frame.geom, &frame.style).is_some_and(|c| c.0[3] > 0);
        if frame.geom != Geom::Frame || !opaque {
            continue;
        }
        let area = f.own_extent().unwrap_or(frame.bounds);
        index.query(&area, &mut near);
        near.sort_unstable();
        for &k in &near {
            let (z, o, b) = placed[k as usize];
            if z >= zf || !area.overlaps(&b) || (o.is_frame() && b.contains(&area)) {
                continue;
            }
            if found == MAX_PER_KIND {
                problems.push(cut(ProblemKind::UnderFrame, "objects under frames"));
                return;
            }
            found += 1;
            problems.push(Problem {
                kind: ProblemKind::UnderFrame,
                ids: vec![o.id.clone(), f.id.clone()],
                message: format!(
                    "{} is hidden under frame {}, which is drawn over it; move one of them, or bring {} to the front.",
                    o.id, f.id, o.id
                ),
            });
        }
    }
}

/// A connector's drawn line: its connector's place on the page, and its points.
struct Line<'a> {
    object: &'a Object,
    points: Vec<Point>,
    /// Routed as told: through waypoints set by hand, or to an end pinned at a
    /// point. Where such a line runs, through shapes or across other lines, is
    /// what was asked for, not a problem.
    told: bool,
}

/// The drawn lines of the page's connectors, in page order: the first part of each
/// connector's item (its line; heads and label follow), curves flattened. A
/// connector drawn without a line (no stroke) has none.
fn connector_lines<'a>(objects: &'a [Object], scene: &Scene) -> Vec<Line<'a>> {
    let items: HashMap<&ObjectId, usize> = scene
        .items
        .iter()
        .enumerate()
        .map(|(i, item)| (&item.id, i))
        .collect();
    objects
        .iter()
        .filter(|o| matches!(o.kind, Kind::Connector(_)))
        .filter_map(|o| {
            let item = &scene.items[*items.get(&o.id)?];
            let Kind::Connector(c) = &o.kind else {
                return None;
            };
            let told = told(c);
            match item.parts.first()? {
                Part::Path(path) if path.stroke.is_some() && path.fill.is_none() => Some(Line {
                    object: o,
                    points: route::polyline(&path.segs),
                    told,
                }),
                _ => None,
            }
        })
        .collect()
}

/// Whether connector `c` is routed as told: through waypoints set by hand, or to
/// an end pinned at a point.
fn told(c: &inkboard_core::Connector) -> bool {
    !c.waypoints().is_empty() || matches!(c.from, End::Point(_)) || matches!(c.to, End::Point(_))
}

/// What a connector end is attached to, for the through-shape check: its bounds,
/// or its point, and the object.
fn end_box(board: &Board, end: &End) -> (Rect, Option<ObjectId>) {
    match end {
        End::Point(p) => (Rect::new(p.x, p.y, 0.0, 0.0), None),
        End::Object(id) => (
            board
                .object(id)
                .and_then(Object::own_extent)
                .or_else(|| board.bounds(id))
                .unwrap_or(Rect::new(0.0, 0.0, 0.0, 0.0)),
            Some(id.clone()),
        ),
    }
}

/// Connectors whose lines run through shapes, images or frames they have no
/// business in: not their ends, not a shape under an end (overlapping it, or
/// holding a free end), not a frame holding an end, nor a lane the line crosses
/// between lanes (see [`between_lanes`]). Lines routed as told are left out.
fn through_shapes(board: &Board, objects: &[Object], lines: &[Line], problems: &mut Vec<Problem>) {
    // Each with the box around it where it is rotated: the index and the cheap
    // tests use that; the line is turned back into the object's own frame for
    // `enters`.
    let solids: Vec<(&Object, Rect, Option<Geom>, Rect)> = objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) => Some((o, s.bounds, Some(s.geom), o.own_extent()?)),
            Kind::Image(i) => Some((o, i.bounds, None, o.own_extent()?)),
            _ => None,
        })
        .collect();
    let index = index_of(solids.iter().map(|(_, _, _, e)| *e));
    let mut near = Vec::new();
    let mut beside = Vec::new();
    let mut found = 0;
    for line in lines.iter().filter(|l| !l.told) {
        let Kind::Connector(c) = &line.object.kind else {
            continue;
        };
        let Some(reach) = Rect::around(line.points.iter().copied()) else {
            continue;
        };
        let ends = [end_box(board, &c.from), end_box(board, &c.to)];
        index.query(&reach, &mut near);
        for &k in &near {
            let (o, own, geom, r) = solids[k as usize];
            if !reach.overlaps(&r) || ends.iter().any(|(_, id)| id.as_ref() == Some(&o.id)) {
                continue;
            }
            let frame = geom == Some(Geom::Frame);
            let excused = ends.iter().any(|(b, _)| {
                if frame {
                    let c = b.center();
                    r.x < c.x && c.x < r.right() && r.y < c.y && c.y < r.bottom()
                } else {
                    // Overlapping the end's box without lying inside it; for a free
                    // end (a box of no size), holding its point.
                    r.overlaps(b) && !b.contains(&r)
                }
            });
            if excused {
                continue;
            }
            let back = Rotation::degrees(-o.rotation().deg()).unwrap_or_default();
            let local = |p: Point| p.rotated(back, own.center());
            let through = line.points.windows(2).any(|w| {
                enters(
                    if frame { None } else { geom },
                    own,
                    local(w[0]),
                    local(w[1]),
                )
            });
            // Lanes are looked for only around a frame the line does run
            // through, among the frames the index finds beside it.
            let mut lanes = || {
                index.query(&r.grown(2.0), &mut beside);
                let frames: Vec<Rect> = beside
                    .iter()
                    .map(|&f| &solids[f as usize])
                    .filter(|(_, _, g, _)| *g == Some(Geom::Frame))
                    .map(|(_, _, _, e)| *e)
                    .collect();
                between_lanes(&frames, r, [ends[0].0, ends[1].0])
            };
            if through && !(frame && lanes()) {
                if found == MAX_PER_KIND {
                    problems.push(cut(
                        ProblemKind::ThroughShape,
                        "connectors running through shapes",
                    ));
                    return;
                }
                found += 1;
                let what = if frame { "frame " } else { "" };
                problems.push(Problem {
                    kind: ProblemKind::ThroughShape,
                    ids: vec![line.object.id.clone(), o.id.clone()],
                    message: format!(
                        "Connector {} runs through {what}{}; move it or one of the connector's ends to clear the way.",
                        line.object.id, o.id
                    ),
                });
            }
        }
    }
}

/// Whether frame `lane` is one of a row of lanes that a line between `ends` crosses
/// as lanes are for: a frame that holds both ends holds it too (lanes in a pool),
/// or it borders a frame holding an end (lanes side by side, no pool).
fn between_lanes(frames: &[Rect], lane: Rect, ends: [Rect; 2]) -> bool {
    let holds = |f: &Rect, e: &Rect| {
        let c = e.center();
        f.x < c.x && c.x < f.right() && f.y < c.y && c.y < f.bottom()
    };
    frames.iter().filter(|f| **f != lane).any(|f| {
        let pool = f.contains(&lane) && ends.iter().all(|e| holds(f, e));
        // Borders: within a few px along one side, sharing part of it.
        let near = f.grown(2.0);
        let bordering =
            near.overlaps(&lane) && !f.overlaps(&lane) && ends.iter().any(|e| holds(f, e));
        pool || bordering
    })
}

/// Whether the segment a–b reaches more than [`INSET`] inside the outline of a
/// shape of `geom` in `r` (a box for images and frames).
fn enters(geom: Option<Geom>, r: Rect, a: Point, b: Point) -> bool {
    let inner = Rect::new(
        r.x + INSET,
        r.y + INSET,
        r.w - 2.0 * INSET,
        r.h - 2.0 * INSET,
    );
    if inner.w <= 0.0 || inner.h <= 0.0 || clipped_length(a, b, &inner) <= 0.0 {
        return false;
    }
    match geom {
        Some(Geom::Ellipse | Geom::Cloud | Geom::EndState) => {
            // The least of |(p - c) / radii|² along the segment, below one.
            let c = r.center();
            let (rx, ry) = (inner.w / 2.0, inner.h / 2.0);
            let (ox, oy) = ((a.x - c.x) / rx, (a.y - c.y) / ry);
            let (dx, dy) = ((b.x - a.x) / rx, (b.y - a.y) / ry);
            let dd = dx * dx + dy * dy;
            let t = if dd > 1e-12 {
                (-(ox * dx + oy * dy) / dd).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let (px, py) = (ox + dx * t, oy + dy * t);
            px * px + py * py < 1.0
        }
        Some(g) => match shapes::polygon(g, inner) {
            Some(poly) => {
                inside(&poly, a)
                    || inside(&poly, b)
                    || (0..poly.len()).any(|i| crosses(a, b, poly[i], poly[(i + 1) % poly.len()]))
            }
            None => true,
        },
        None => true,
    }
}

/// Whether `p` lies inside the polygon `poly` (even-odd rule).
fn inside(poly: &[Point], p: Point) -> bool {
    let mut odd = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + n - 1) % n]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) {
            odd = !odd;
        }
    }
    odd
}

/// Pairs of connectors whose lines cross, found by sweeping the segments from left
/// to right.
fn crossings(lines: &[Line], problems: &mut Vec<Problem>) {
    // (line, left, right, a, b), by left edge.
    let mut segs: Vec<(usize, f64, f64, Point, Point)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.told)
        .flat_map(|(i, l)| {
            l.points
                .windows(2)
                .map(move |w| (i, w[0].x.min(w[1].x), w[0].x.max(w[1].x), w[0], w[1]))
        })
        .collect();
    segs.sort_by(|p, q| p.1.total_cmp(&q.1));
    let mut pairs: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let mut more = false;
    for (k, &(i, _, right, a, b)) in segs.iter().enumerate() {
        let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
        for &(j, left, _, c, d) in &segs[k + 1..] {
            if left > right {
                break;
            }
            if i == j || c.y.max(d.y) < y0 || c.y.min(d.y) > y1 {
                continue;
            }
            if crosses(a, b, c, d) {
                let pair = (i.min(j), i.max(j));
                if let Some(times) = pairs.get_mut(&pair) {
                    *times += 1;
                } else if pairs.len() < MAX_PER_KIND {
                    pairs.insert(pair, 1);
                } else {
                    more = true;
                }
            }
        }
    }
    for ((i, j), times) in pairs {
        let (a, b) = (&lines[i].object.id, &lines[j].object.id);
        let how = if times == 1 {
            String::new()
        } else {
            format!(" {times} times")
        };
        problems.push(Problem {
            kind: ProblemKind::Crossing,
            ids: vec![a.clone(), b.clone()],
            message: format!(
                "Connectors {a} and {b} cross{how}; move their shapes or ends to untangle them."
            ),
        });
    }
    if more {
        problems.push(cut(ProblemKind::Crossing, "crossings"));
    }
}
