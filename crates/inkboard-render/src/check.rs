//! Problems on a page that an agent or a person should fix: shapes that overlap,
//! text that does not fit its shape, connectors with a free end, and objects that
//! stick out of a frame. The text check uses [`fit`](crate::fit::fit) with the very
//! arguments the renderer uses, so it reports exactly the clipped text the picture
//! shows.

use inkboard_core::{Board, End, Geom, Kind, ObjectId, PageId, Rect};

use crate::fit::fit;
use crate::style;

/// What kind of problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// Two shapes (or images) overlap; frames are left out, as holding shapes is
    /// what they are for.
    Overlap,
    /// A shape's text does not fit its text box and is clipped with an ellipsis.
    TextOverflow,
    /// A connector end is a point, attached to no object.
    FreeEnd,
    /// A shape or image lies partly inside a frame and partly outside it.
    OutsideFrame,
}

impl ProblemKind {
    /// The word for this kind in summaries.
    pub fn name(self) -> &'static str {
        match self {
            ProblemKind::Overlap => "overlap",
            ProblemKind::TextOverflow => "text_overflow",
            ProblemKind::FreeEnd => "free_end",
            ProblemKind::OutsideFrame => "outside_frame",
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
/// objects' z-order.
pub fn check(board: &Board, page: PageId) -> Vec<Problem> {
    let Some(p) = board.page(page) else {
        return Vec::new();
    };
    let mut problems = Vec::new();

    // Shapes and images that take up room, frames apart.
    let solid: Vec<(&ObjectId, Rect)> = p
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) if s.geom != Geom::Frame => Some((&o.id, s.bounds)),
            Kind::Image(i) => Some((&o.id, i.bounds)),
            _ => None,
        })
        .collect();
    for (i, (a, ra)) in solid.iter().enumerate() {
        for (b, rb) in &solid[i + 1..] {
            if ra.overlaps(rb) {
                problems.push(Problem {
                    kind: ProblemKind::Overlap,
                    ids: vec![(*a).clone(), (*b).clone()],
                    message: format!("{a} and {b} overlap; move one of them or make room."),
                });
            }
        }
    }

    for o in &p.objects {
        let Kind::Shape(s) = &o.kind else { continue };
        if s.text.is_empty() {
            continue;
        }
        let (font_size, weight) = style::shape_font(s.geom, &s.style);
        if font_size <= 0.0 {
            continue;
        }
        let tb = s.geom.text_box(s.bounds);
        let fitted = fit(&s.text, font_size, weight, tb.w as f32, tb.h as f32);
        if fitted.overflows() {
            let total = fitted.wrapped_lines;
            let message = if fitted.clipped {
                format!(
                    "The text of {} does not fit its shape: {} of {total} lines show; enlarge it or shorten the text.",
                    o.id,
                    fitted.lines.len()
                )
            } else {
                format!(
                    "The text of {} does not fit its shape: it is too narrow for a single letter; widen it.",
                    o.id
                )
            };
            problems.push(Problem {
                kind: ProblemKind::TextOverflow,
                ids: vec![o.id.clone()],
                message,
            });
        }
    }

    for o in &p.objects {
        let Kind::Connector(c) = &o.kind else {
            continue;
        };
        let free: Vec<&str> = [("start", &c.from), ("end", &c.to)]
            .into_iter()
            .filter(|(_, e)| matches!(e, End::Point(_)))
            .map(|(w, _)| w)
            .collect();
        if !free.is_empty() {
            problems.push(Problem {
                kind: ProblemKind::FreeEnd,
                ids: vec![o.id.clone()],
                message: format!(
                    "Connector {} has a free {} not attached to any object.",
                    o.id,
                    free.join(" and ")
                ),
            });
        }
    }

    for f in &p.objects {
        let Kind::Shape(frame) = &f.kind else {
            continue;
        };
        if frame.geom != Geom::Frame {
            continue;
        }
        let area = frame.bounds;
        for o in &p.objects {
            // Connectors cross frames by design; ink is annotation drawn over anything.
            if o.id == f.id || matches!(o.kind, Kind::Connector(_) | Kind::Group(_) | Kind::Ink(_))
            {
                continue;
            }
            let Some(b) = o.own_bounds() else { continue };
            // A frame larger than this one is not "in" it.
            if o.is_frame() && b.w * b.h >= area.w * area.h {
                continue;
            }
            if area.overlaps(&b) && !area.contains(&b) {
                problems.push(Problem {
                    kind: ProblemKind::OutsideFrame,
                    ids: vec![o.id.clone(), f.id.clone()],
                    message: format!(
                        "{} sticks out of frame {}; move it fully inside or outside.",
                        o.id, f.id
                    ),
                });
            }
        }
    }
    problems
}
