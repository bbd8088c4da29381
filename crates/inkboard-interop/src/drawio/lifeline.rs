//! Sequence diagrams in draw.io: a participant's head and its lifeline are one
//! cell of draw.io's own `umlLifeline` shape (the head `size` px high, the
//! dashed line down to the cell's bottom), which draw.io moves, resizes and
//! connects as a lifeline; an actor's is drawn as draw.io's stick figure
//! (`participant=umlActor`).
//!
//! Out ([`Lifelines::of`]): every lifeline whose head is a box (a database's
//! cylinder head stays a cylinder with its dashed line, as draw.io has no
//! cylinder participant). Messages, bars, notes and frames need nothing of their
//! own: they are free lines and shapes at the same places.
//!
//! In ([`read`]): a `umlLifeline` cell becomes a head (a box, an actor's marked
//! with a person as `import_mermaid` marks it) and a dashed connector from its
//! bottom straight down to the cell's bottom. An edge drawn in draw.io to a
//! lifeline, at a point, ends at that height on the line (`map.rs`).

use std::collections::{HashMap, HashSet};

use inkboard_core::diagram::sequence::lifelines;
use inkboard_core::{
    Board, Connector, Dash, End, Geom, Kind, ObjectId, Page, Point, Rect, Route, Side,
};

use super::style::CellStyle;
use crate::mermaid::sequence::PERSON;

/// The style draw.io gives a lifeline it makes, less its size and participant.
const STYLE: &str = "shape=umlLifeline;perimeter=lifelinePerimeter;whiteSpace=wrap;container=0;dropTarget=0;collapsible=0;recursiveResize=0;outlineConnect=0;portConstraint=eastwest;";
/// A lifeline's head height when its style says none (draw.io's default).
const DEFAULT_SIZE: f64 = 40.0;

/// The lifelines of a page written as draw.io's: by head, the lifeline and its
/// foot's height.
#[derive(Default)]
pub(super) struct Lifelines {
    heads: HashMap<ObjectId, (ObjectId, f64)>,
    lines: HashSet<ObjectId>,
}

impl Lifelines {
    /// The lifelines of `page` that are written as draw.io's.
    pub(super) fn of(board: &Board, page: &Page) -> Lifelines {
        let mut out = Lifelines::default();
        for l in lifelines(board, page.id) {
            let boxed = matches!(
                board.object(&l.head).map(|o| &o.kind),
                Some(Kind::Shape(s)) if matches!(s.geom, Geom::Rect | Geom::Rounded)
            );
            if boxed && !out.heads.contains_key(&l.head) {
                out.lines.insert(l.id.clone());
                out.heads.insert(l.head, (l.id, l.foot));
            }
        }
        out
    }

    /// Whether `id` is a lifeline written as part of its head's cell.
    pub(super) fn is_line(&self, id: &ObjectId) -> bool {
        self.lines.contains(id)
    }

    /// For a head written as a lifeline: the cell's style start, its value (an
    /// actor's name without the person marker) and its bounds down to the foot.
    pub(super) fn head(
        &self,
        id: &ObjectId,
        text: &str,
        bounds: Rect,
    ) -> Option<(String, String, Rect)> {
        let (_, foot) = self.heads.get(id)?;
        let (actor, name) = match text.strip_prefix(PERSON) {
            Some(rest) => (true, rest.trim_start_matches(['\n', ' '])),
            None => (false, text),
        };
        let mut style = format!("{STYLE}size={};", crate::out::num(bounds.h));
        if actor {
            style.push_str("participant=umlActor;verticalLabelPosition=bottom;");
        }
        let r = Rect::new(
            bounds.x,
            bounds.y,
            bounds.w,
            (foot - bounds.y).max(bounds.h),
        );
        Some((style, name.to_string(), r))
    }
}

/// Whether a cell's style is a draw.io lifeline.
pub(super) fn is_lifeline(st: &CellStyle) -> bool {
    st.get("shape") == Some("umlLifeline")
}

/// A lifeline cell at `cell` (absolute bounds) with label `text` as its head's
/// bounds and text, and the foot of its line.
pub(super) fn read(st: &CellStyle, cell: Rect, text: String) -> (Rect, String, Point) {
    let size = st
        .num("size")
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(DEFAULT_SIZE)
        .min(cell.h);
    let text = match st.get("participant") {
        Some("umlActor") => format!("{PERSON}\n{text}"),
        _ => text,
    };
    let head = Rect::new(cell.x, cell.y, cell.w, size);
    let foot = Point::new(
        cell.x + cell.w / 2.0,
        cell.bottom().max(head.bottom() + 1.0),
    );
    (head, text, foot)
}

/// The dashed line from head `head` down to `foot`.
pub(super) fn line(head: ObjectId, foot: Point, stroke: Option<inkboard_core::Color>) -> Kind {
    let mut line = Connector::new(End::Object(head), End::Point(foot));
    line.route = Route::Straight;
    line.end_arrow = inkboard_core::Arrow::None;
    line.style.dash = Some(Dash::Dashed);
    line.style.stroke = stroke;
    line.set_side(true, Some(Side::Bottom));
    Kind::Connector(line)
}
