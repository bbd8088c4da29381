//! `import_mermaid` of a sequence diagram: the parsed [`Sequence`] placed by
//! [`inkboard_arrange::sequence`] and made into ordinary objects, inside the
//! caller's transaction.
//!
//! Each participant is a head shape (a box; an actor a box with a person
//! marker above its name, as a board has no stick figure; a database a
//! cylinder) with a lifeline under it: a dashed connector from the head's
//! bottom to a point, which the checker takes as meant. Each message is a
//! horizontal connector between two points on lifelines (a self-message a
//! loop through two bends): solid or dashed as written, its heads as Mermaid
//! draws them (`->>` filled, `-)` open, `-x` a diamond, for a board has no
//! cross), its text the label, numbered "1. " under `autonumber`. Activation
//! bars are thin boxes on the lifeline, cut where a frame's border or a note
//! crosses them (the pieces of one bar grouped); notes are sticky notes; each
//! section of a block is a frame titled with its keyword and condition
//! ("alt [is sick]", then "else [is well]"), outer frames behind inner ones.
//!
//! The block lands in free space, or at `x`, `y`; no layout runs after, so what
//! the placement decided is what the board holds.

use inkboard_arrange::place;
use inkboard_arrange::sequence::{self, Diagram, NoteAt, Row};
use inkboard_core::{
    Arrow, Color, Connector, Dash, End, Geom, Group, IdKind, Kind, Object, ObjectId, Point, Rect,
    Rotation, Route, Shape, Side, Sizing, Style,
};
use inkboard_interop::mermaid::sequence::{
    Event, Head, Message, NotePlace, ParticipantKind, Sequence, PERSON,
};

use super::Imported;
use crate::tool::Cx;
use crate::ToolError;

/// The smallest head: Mermaid's boxes are about this size.
const HEAD_MIN: (f64, f64) = (110.0, 44.0);
/// The smallest note.
const NOTE_MIN: (f64, f64) = (100.0, 40.0);
/// A lifeline's grey, lighter than the messages drawn across it.
const LIFELINE: &str = "#9e9e9e";
/// An activation bar's fill.
const BAR_FILL: &str = "#f4f4f4";

/// Draws `seq` on the page, at `x`, `y` or in free space.
pub(super) fn draw(
    cx: &mut Cx<'_, '_>,
    seq: &Sequence,
    (x, y): (Option<f64>, Option<f64>),
) -> Result<Imported, ToolError> {
    if seq.participants.is_empty() {
        return Err(ToolError::args(
            "'text': the sequence diagram has no participants: add a message, like 'Alice->>Bob: Hello'",
        ));
    }
    let heads: Vec<(Geom, String)> = seq
        .participants
        .iter()
        .map(|p| match p.kind {
            ParticipantKind::Box => (Geom::Rect, p.label.clone()),
            ParticipantKind::Actor => (Geom::Rect, format!("{PERSON}\n{}", p.label)),
            ParticipantKind::Database => (Geom::Cylinder, p.label.clone()),
        })
        .collect();
    let titles = seq.frame_titles();
    let diagram = Diagram {
        heads: heads
            .iter()
            .map(|(geom, text)| {
                at_least(place::text_size(*geom, text, &Style::default()), HEAD_MIN)
            })
            .collect(),
        rows: rows(seq, &titles),
    };
    let placed = sequence::place(&diagram);
    let (ox, oy) = match (x, y) {
        (Some(x), Some(y)) => (x, y),
        _ => place::free_spot_with(cx.board(), cx.page, x, y, placed.size.0, placed.size.1),
    };
    let at = |p: Point| Point::new(p.x + ox, p.y + oy);
    let shape = |geom: Geom, bounds: Rect, text: String, style: Style| {
        Kind::Shape(Shape {
            geom,
            bounds: bounds.translated(ox, oy),
            text,
            style,
            sizing: Sizing::Fixed,
            rotation: Rotation::NONE,
            icon: None,
        })
    };

    // Frames at the back, outer ones behind inner ones, ids in the order the
    // sections open.
    let frame_ids: Vec<ObjectId> = placed
        .frames
        .iter()
        .map(|_| cx.tx.new_id(IdKind::Shape))
        .collect();
    let mut by_depth: Vec<usize> = (0..placed.frames.len()).collect();
    by_depth.sort_by_key(|&f| placed.frames[f].1);
    for (slot, &f) in by_depth.iter().enumerate() {
        let title = titles.get(f).cloned().unwrap_or_default();
        let kind = shape(Geom::Frame, placed.frames[f].0, title, Style::default());
        cx.tx
            .insert(cx.page, Some(slot), Object::new(frame_ids[f].clone(), kind))?;
    }

    // Lifelines first, so that bars, messages and notes are drawn over them.
    let head_ids: Vec<ObjectId> = placed
        .heads
        .iter()
        .map(|_| cx.tx.new_id(IdKind::Shape))
        .collect();
    let mut lifeline_ids = Vec::new();
    for (id, foot) in head_ids.iter().zip(&placed.feet) {
        let mut line = Connector::new(End::Object(id.clone()), End::Point(at(*foot)));
        line.route = Route::Straight;
        line.end_arrow = Arrow::None;
        line.style.dash = Some(Dash::Dashed);
        line.style.stroke = Color::parse(LIFELINE).ok();
        line.set_side(true, Some(Side::Bottom));
        // Heads go in after their lifelines (ends are checked at commit), so
        // that they are drawn over the lines' tops.
        lifeline_ids.push(cx.tx.add(cx.page, None, Kind::Connector(line))?);
    }

    let mut shapes: Vec<ObjectId> = Vec::new();
    let mut groups: Vec<ObjectId> = Vec::new();
    let bar_style = Style {
        fill: Color::parse(BAR_FILL).ok(),
        ..Style::default()
    };
    for pieces in &placed.bars {
        let mut ids = Vec::new();
        for piece in pieces {
            let kind = shape(Geom::Rect, *piece, String::new(), bar_style.clone());
            ids.push(cx.tx.add(cx.page, None, kind)?);
        }
        if ids.len() > 1 {
            let group = Kind::Group(Group {
                members: ids.clone(),
            });
            groups.push(cx.tx.add(cx.page, None, group)?);
        }
        shapes.extend(ids);
    }

    let messages = seq.events.iter().filter_map(|e| match e {
        Event::Message(m) => Some(m),
        _ => None,
    });
    let mut message_ids = Vec::new();
    for (m, path) in messages.zip(&placed.messages) {
        let line = message(m, &path.iter().map(|p| at(*p)).collect::<Vec<_>>());
        message_ids.push(cx.tx.add(cx.page, None, Kind::Connector(line))?);
    }

    for (i, ((geom, text), bounds)) in heads.iter().zip(&placed.heads).enumerate() {
        let kind = shape(*geom, *bounds, text.clone(), Style::default());
        cx.tx
            .insert(cx.page, None, Object::new(head_ids[i].clone(), kind))?;
    }
    let notes = seq.events.iter().filter_map(|e| match e {
        Event::Note(n) => Some(n),
        _ => None,
    });
    let mut note_ids = Vec::new();
    for (n, bounds) in notes.zip(&placed.notes) {
        let kind = shape(Geom::Note, *bounds, n.text.clone(), Style::default());
        note_ids.push(cx.tx.add(cx.page, None, kind)?);
    }

    let ids: Vec<ObjectId> = head_ids
        .into_iter()
        .chain(note_ids)
        .chain(shapes)
        .chain(lifeline_ids)
        .chain(message_ids)
        .chain(frame_ids)
        .chain(groups)
        .collect();
    Ok(Imported::new(&ids, seq.report()))
}

/// The rows placement sees, one per event, sized.
fn rows(seq: &Sequence, titles: &[String]) -> Vec<Row> {
    let mut titles = titles.iter();
    let mut title = || {
        let t = titles.next().map_or("", String::as_str);
        match t.is_empty() {
            true => 0.0,
            false => place::text_size(Geom::Frame, t, &Style::default()).0,
        }
    };
    seq.events
        .iter()
        .map(|e| match e {
            Event::Message(m) => Row::Message {
                from: m.from,
                to: m.to,
                label: sequence::label_size(&m.text),
                activate: m.activate,
                deactivate: m.deactivate,
            },
            Event::Note(n) => Row::Note {
                at: match n.place {
                    NotePlace::LeftOf(p) => NoteAt::LeftOf(p),
                    NotePlace::RightOf(p) => NoteAt::RightOf(p),
                    NotePlace::Over(a, b) => NoteAt::Over(a, b),
                },
                size: at_least(
                    place::text_size(Geom::Note, &n.text, &Style::default()),
                    NOTE_MIN,
                ),
            },
            Event::Activate(p) => Row::Activate(*p),
            Event::Deactivate(p) => Row::Deactivate(*p),
            Event::Open { .. } => Row::Open { title: title() },
            Event::Section { .. } => Row::Section { title: title() },
            Event::Close => Row::Close,
        })
        .collect()
}

/// A message's connector along `path` (two points, or a self-message's four).
fn message(m: &Message, path: &[Point]) -> Connector {
    let head = |h: Head| match h {
        Head::None => Arrow::None,
        Head::Filled => Arrow::Triangle,
        Head::Open => Arrow::Arrow,
        Head::Cross => Arrow::Diamond,
    };
    let (first, last) = (path[0], path[path.len() - 1]);
    let mut line = Connector::new(End::Point(first), End::Point(last));
    line.text = m.text.clone();
    line.start_arrow = head(m.start);
    line.end_arrow = head(m.end);
    if m.dashed {
        line.style.dash = Some(Dash::Dashed);
    }
    if path.len() > 2 {
        line.set_waypoints(path[1..path.len() - 1].to_vec());
    } else {
        line.route = Route::Straight;
    }
    line
}

fn at_least((w, h): (f64, f64), (min_w, min_h): (f64, f64)) -> (f64, f64) {
    (w.max(min_w), h.max(min_h))
}
