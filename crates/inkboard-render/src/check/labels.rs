//! The checks on what a connector carries besides its line: its label over another
//! connector's line or over an arrowhead, over a shape or over another label, and
//! arrowheads of two connectors landing on one point.
//!
//! They read the connector items of the resolved [`Scene`] (the line first, then its
//! heads, then each label's background box and its text, as `resolve` draws them:
//! the label, then its end labels, whose text says which end it labels), so each
//! reports what the picture shows. A label sits on its own line by design (its
//! background knocks the line out), so only other connectors' lines count against
//! it; an end label belongs beside its line, so its own line counts too.

use inkboard_core::{End, Geom, Kind, Object, ObjectId, Point, Rect};
use inkboard_geom::{clip, distance_to_segment};

use super::{cut, enters, index_of, Problem, ProblemKind, MAX_PER_KIND};
use crate::route;
use crate::scene::{LabelEnd, Part, Scene};

/// How much of a line must run under a label, in px, to strike it through: a line
/// grazing the label's rounded corner does not.
const STRUCK: f64 = 3.0;

/// How far two boxes must reach into each other, in px each way, to overlap: boxes
/// placed side by side, or touching after rounding, do not.
const MEET: f64 = 1.0;

/// What a connector carries, where it is drawn.
pub(super) struct Carried<'a> {
    pub object: &'a Object,
    /// Its drawn line, curves flattened (empty when drawn without a line).
    pub line: Vec<Point>,
    /// The box around each of its arrowheads.
    pub heads: Vec<Rect>,
    /// Its labels' background boxes: its label (`None`) and its end labels.
    pub labels: Vec<(Option<LabelEnd>, Rect)>,
    /// Routed as told (waypoints, or an end pinned at a point).
    pub told: bool,
}

/// The page's connectors as the scene draws them, in page order.
pub(super) fn carried<'a>(objects: &'a [Object], scene: &Scene) -> Vec<Carried<'a>> {
    let items: std::collections::HashMap<_, _> =
        scene.items.iter().map(|item| (&item.id, item)).collect();
    objects
        .iter()
        .filter(|o| matches!(o.kind, Kind::Connector(_)))
        .filter_map(|o| {
            let item = items.get(&o.id)?;
            let Kind::Connector(conn) = &o.kind else {
                return None;
            };
            let mut c = Carried {
                object: o,
                line: Vec::new(),
                heads: Vec::new(),
                labels: Vec::new(),
                told: super::told(conn),
            };
            for (k, part) in item.parts.iter().enumerate() {
                let Part::Path(path) = part else { continue };
                let points = route::polyline(&path.segs);
                let text = match item.parts.get(k + 1) {
                    Some(Part::Text(t)) => Some(t.end),
                    _ => None,
                };
                match (k, path.fill.is_some(), path.stroke.is_some()) {
                    // A label's background: filled, never stroked, under its text.
                    (_, true, false) if text.is_some() => {
                        if let (Some(end), Some(r)) = (text, Rect::around(points)) {
                            c.labels.push((end, r));
                        }
                    }
                    (0, false, true) => c.line = points,
                    // A head, or a sketched head's fill (drawn apart from its
                    // rough outline, `rough::Sketch::apply`).
                    (_, true, _) | (_, _, true) => c.heads.extend(Rect::around(points)),
                    _ => {}
                }
            }
            Some(c)
        })
        .collect()
}

/// The part of `r` that `a` and `b` both cover, if they reach [`MEET`] into each
/// other both ways.
fn meet(a: &Rect, b: &Rect) -> Option<Rect> {
    let (x0, y0) = (a.x.max(b.x), a.y.max(b.y));
    let (x1, y1) = (a.right().min(b.right()), a.bottom().min(b.bottom()));
    (x1 - x0 > MEET && y1 - y0 > MEET).then(|| Rect::new(x0, y0, x1 - x0, y1 - y0))
}

/// What a message calls a connector's label: `label`, `start label` or `end label`.
fn called(end: Option<LabelEnd>) -> &'static str {
    match end {
        None => "label",
        Some(LabelEnd::Start) => "start label",
        Some(LabelEnd::End) => "end label",
    }
}

/// How a message tells to move a connector's label: along its line, or, for an
/// end label (which always sits by its end), by making room at that end.
fn how_to_move(end: Option<LabelEnd>) -> &'static str {
    match end {
        None => "drag the label along its line (label_at)",
        Some(_) => "pin that end to another side (from_side, to_side), shorten the label",
    }
}

/// The problem of label `end` of connector `a` struck through by the line of
/// connector `b`, or by its own line (`None`: an end label only).
fn struck_through(end: Option<LabelEnd>, a: &ObjectId, b: Option<&ObjectId>) -> Problem {
    let (ids, message) = match (end, b) {
        (None, b) => {
            let b = b.unwrap_or(a);
            (
                vec![a.clone(), b.clone()],
                format!(
                    "The label of {a} lies over the line of {b}, which strikes it through; drag the label along its line (label_at) or move a shape so the lines part."
                ),
            )
        }
        (Some(_), None) => (
            vec![a.clone()],
            format!(
                "The {} of {a} lies over its own line; {} or move a shape to give that end a longer straight piece.",
                called(end),
                how_to_move(end)
            ),
        ),
        (Some(_), Some(b)) => (
            vec![a.clone(), b.clone()],
            format!(
                "The {} of {a} lies over the line of {b}, which strikes it through; {} or move a shape so the lines part.",
                called(end),
                how_to_move(end)
            ),
        ),
    };
    Problem {
        kind: ProblemKind::LabelOverLine,
        ids,
        message,
    }
}

/// What the checker says of label `end` of connector `a` hiding `whose` arrowhead.
fn hides_head(end: Option<LabelEnd>, a: &ObjectId, whose: &str) -> String {
    match end {
        None => format!(
            "The label of {a} hides {whose}; drag the label toward the middle of its line (label_at) or lengthen the line."
        ),
        Some(_) => format!(
            "The {} of {a} hides {whose}; {} or lengthen the line.",
            called(end),
            how_to_move(end)
        ),
    }
}

/// How far `p` is from the polyline `line`.
fn distance(p: Point, line: &[Point]) -> f64 {
    line.windows(2)
        .map(|w| distance_to_segment(p, w[0], w[1]))
        .fold(f64::INFINITY, f64::min)
}

/// Pushes `problem` unless `count` problems of its kind are listed already; the
/// first one past the limit says the list was cut. False once past it.
fn listed(count: &mut usize, problems: &mut Vec<Problem>, problem: Problem, what: &str) -> bool {
    if *count == MAX_PER_KIND {
        problems.push(cut(problem.kind, what));
        *count += 1;
        return false;
    }
    *count += 1;
    problems.push(problem);
    true
}

/// Labels struck through by another connector's line, or covering an arrowhead
/// (their own connector's, or another's).
pub(super) fn labels_over_lines(carried: &[Carried], problems: &mut Vec<Problem>) {
    // Every line's segments, tagged with their connector.
    let segs: Vec<(usize, Point, Point)> = carried
        .iter()
        .enumerate()
        .flat_map(|(i, c)| c.line.windows(2).map(move |w| (i, w[0], w[1])))
        .collect();
    let seg_index = index_of(
        segs.iter()
            .map(|&(_, a, b)| Rect::around([a, b]).unwrap_or(Rect::new(a.x, a.y, 0.0, 0.0))),
    );
    let heads: Vec<(usize, Rect)> = carried
        .iter()
        .enumerate()
        .flat_map(|(i, c)| c.heads.iter().map(move |h| (i, *h)))
        .collect();
    let head_index = index_of(heads.iter().map(|(_, r)| *r));
    let (mut near, mut lines, mut arrowheads) = (Vec::new(), 0, 0);
    for (i, c) in carried.iter().enumerate() {
        for &(end, label) in &c.labels {
            // Inside the rounded corners, so a line passing a corner does not count.
            let inner = label.grown(-2.0);
            seg_index.query(&label, &mut near);
            let mut struck: Vec<usize> = Vec::new();
            for &k in &near {
                let (j, a, b) = segs[k as usize];
                // A label's own line runs under it by design; an end label's does not.
                if (j == i && end.is_none()) || struck.contains(&j) {
                    continue;
                }
                let Some((p, q)) = clip(a, b, &inner) else {
                    continue;
                };
                // A line that runs along this connector's own (a shared trunk) is
                // hidden by it already, not by the label.
                let along = j != i && distance(p, &c.line) <= 1.5 && distance(q, &c.line) <= 1.5;
                if !along && (q.x - p.x).hypot(q.y - p.y) > STRUCK {
                    struck.push(j);
                }
            }
            struck.sort_unstable();
            for j in struck {
                let (a, b) = (&c.object.id, &carried[j].object.id);
                let problem = struck_through(end, a, (j != i).then_some(b));
                if !listed(&mut lines, problems, problem, "labels over lines") {
                    break;
                }
            }
            head_index.query(&label, &mut near);
            let mut covered: Vec<usize> = near
                .iter()
                .map(|&k| heads[k as usize])
                .filter(|(_, h)| meet(&label, h).is_some())
                .map(|(j, _)| j)
                .collect();
            covered.dedup();
            for j in covered {
                let a = &c.object.id;
                let (ids, whose) = if j == i {
                    (vec![a.clone()], "its own arrowhead".to_string())
                } else {
                    let b = &carried[j].object.id;
                    (vec![a.clone(), b.clone()], format!("the arrowhead of {b}"))
                };
                let message = hides_head(end, a, &whose);
                let problem = Problem {
                    kind: ProblemKind::LabelOverArrowhead,
                    ids,
                    message,
                };
                if !listed(&mut arrowheads, problems, problem, "labels over arrowheads") {
                    break;
                }
            }
        }
    }
}

/// Pairs of labels that overlap, in page order; end labels count, also against
/// their own connector's other labels.
pub(super) fn labels_overlapping(carried: &[Carried], problems: &mut Vec<Problem>) {
    let labels: Vec<(usize, Option<LabelEnd>, Rect)> = carried
        .iter()
        .enumerate()
        .flat_map(|(i, c)| c.labels.iter().map(move |&(end, r)| (i, end, r)))
        .collect();
    let index = index_of(labels.iter().map(|(_, _, r)| *r));
    let (mut near, mut found) = (Vec::new(), 0);
    for (k, (i, e, r)) in labels.iter().enumerate() {
        index.query(r, &mut near);
        for &m in near.iter().filter(|&&m| m as usize > k) {
            let (j, f, s) = labels[m as usize];
            if meet(r, &s).is_none() {
                continue;
            }
            let (a, b) = (&carried[*i].object.id, &carried[j].object.id);
            let problem = match (e, f) {
                (None, None) => Problem {
                    kind: ProblemKind::LabelOverlap,
                    ids: vec![a.clone(), b.clone()],
                    message: format!(
                        "The labels of {a} and {b} overlap; drag one along its line (label_at) or move a shape to part the lines."
                    ),
                },
                _ if *i == j => Problem {
                    kind: ProblemKind::LabelOverlap,
                    ids: vec![a.clone()],
                    message: format!(
                        "The {} and the {} of {a} overlap; lengthen the line or drag its label along it (label_at).",
                        called(*e),
                        called(f)
                    ),
                },
                _ => Problem {
                    kind: ProblemKind::LabelOverlap,
                    ids: vec![a.clone(), b.clone()],
                    message: format!(
                        "The {} of {a} and the {} of {b} overlap; move a shape to part the lines, or pin an end to another side (from_side, to_side).",
                        called(*e),
                        called(f)
                    ),
                },
            };
            if !listed(&mut found, problems, problem, "overlapping labels") {
                return;
            }
        }
    }
}

/// Labels over a shape or an image: over its outline, not merely its box. A shape
/// under one of the label's connector's ends (a background holding it) is where the
/// label belongs, and frames hold labels as they hold everything else, but for
/// their title ([`crate::style::frame_title_box`]), which a label must not cover.
pub(super) fn labels_over_shapes(
    board: &inkboard_core::Board,
    objects: &[Object],
    carried: &[Carried],
    problems: &mut Vec<Problem>,
) {
    let solids: Vec<(&Object, Rect, Option<Geom>, Rect)> = objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) if s.geom != Geom::Frame => {
                Some((o, s.bounds, Some(s.geom), o.own_extent()?))
            }
            Kind::Image(i) => Some((o, i.bounds, None, o.own_extent()?)),
            // A frame's title, as a box of its own.
            Kind::Shape(_) => crate::style::frame_title_box(o).map(|t| (o, t, None, t)),
            _ => None,
        })
        .collect();
    let index = index_of(solids.iter().map(|(_, _, _, e)| *e));
    let (mut near, mut found) = (Vec::new(), 0);
    for c in carried {
        let Kind::Connector(conn) = &c.object.kind else {
            continue;
        };
        let ends: Vec<Rect> = [&conn.from, &conn.to]
            .into_iter()
            .filter_map(|e| match e {
                End::Object(id) => board.object(id).and_then(Object::own_extent),
                End::Point(p) => Some(Rect::new(p.x, p.y, 0.0, 0.0)),
            })
            .collect();
        for &(end, label) in &c.labels {
            index.query(&label, &mut near);
            for &k in &near {
                let (o, own, geom, extent) = solids[k as usize];
                if meet(&label, &extent).is_none()
                    || ends.iter().any(|e| extent.contains(e) && *e != extent)
                {
                    continue;
                }
                // Turned back into the shape's own frame, the label's four sides.
                let back =
                    inkboard_core::Rotation::degrees(-o.rotation().deg()).unwrap_or_default();
                let local = |p: Point| p.rotated(back, own.center());
                let corners = label.corners().map(local);
                let over = (0..4).any(|n| enters(geom, own, corners[n], corners[(n + 1) % 4]))
                    || label.contains(&own);
                if !over {
                    continue;
                }
                let (a, b) = (&c.object.id, &o.id);
                let message = match end {
                None if o.is_frame() => format!(
                    "The label of {a} covers the title of {b}; drag the label along its line (label_at), or move the connector's ends or {b}."
                ),
                None => format!(
                    "The label of {a} covers part of {b}; drag the label along its line (label_at), or move {b} or the connector's ends to make room."
                ),
                Some(_) => format!(
                    "The {} of {a} covers part of {b}; {}, or move {b} or the connector's ends to make room.",
                    called(end),
                    how_to_move(end)
                ),
            };
                let problem = Problem {
                    kind: ProblemKind::LabelOverShape,
                    ids: vec![a.clone(), b.clone()],
                    message,
                };
                if !listed(&mut found, problems, problem, "labels over shapes") {
                    return;
                }
            }
        }
    }
}

/// Pairs of connectors whose arrowheads land on one point: their heads cover each
/// other by more than half of the smaller one, so one hides the other. Two lines
/// both routed as told (a fork drawn by hand) meet where they were told to.
pub(super) fn arrowheads_overlapping(carried: &[Carried], problems: &mut Vec<Problem>) {
    let heads: Vec<(usize, Rect)> = carried
        .iter()
        .enumerate()
        .flat_map(|(i, c)| c.heads.iter().map(move |h| (i, *h)))
        .collect();
    let index = index_of(heads.iter().map(|(_, r)| *r));
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut near = Vec::new();
    for (k, (i, h)) in heads.iter().enumerate() {
        index.query(h, &mut near);
        for &m in near.iter().filter(|&&m| m as usize > k) {
            let (j, g) = heads[m as usize];
            if j == *i || (carried[*i].told && carried[j].told) {
                continue;
            }
            let Some(both) = meet(h, &g) else { continue };
            let smaller = (h.w * h.h).min(g.w * g.h);
            let pair = (*i.min(&j), *i.max(&j));
            if both.w * both.h * 2.0 >= smaller && !pairs.contains(&pair) {
                pairs.push(pair);
            }
        }
    }
    pairs.sort_unstable();
    let mut found = 0;
    for (i, j) in pairs {
        let (a, b) = (&carried[i].object.id, &carried[j].object.id);
        let problem = Problem {
            kind: ProblemKind::ArrowheadOverlap,
            ids: vec![a.clone(), b.clone()],
            message: format!(
                "The arrowheads of {a} and {b} land on one point, so one hides the other; pin the ends to different sides, or move a shape."
            ),
        };
        if !listed(&mut found, problems, problem, "arrowheads on one point") {
            return;
        }
    }
}
