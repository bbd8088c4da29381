//! A state diagram drawn by `import_mermaid`: each state a rounded box sized to
//! its name, a start a filled black circle, an end a ring around a disc
//! (`geom: "end_state"`), a choice a small diamond, a fork or a join a black
//! bar across the flow; each composite state a frame holding its states, each
//! concurrency region an untitled dashed frame inside it (the regions side by
//! side across the flow); each transition an arrow whose label the renderer
//! places by the label rules; each note a sticky note beside its state.
//!
//! The layout is a flowchart's: a first placement nests the frames and finds
//! free space for the block, then `layout`'s layered arrangement places
//! everything for good with the frames as clusters, top to bottom unless
//! `direction` says otherwise. A state with notes is laid out as one box with
//! room for them on its sides, so the layout keeps that room free; the box is
//! then cut back to the state and the notes put in the room. A note on a
//! composite state goes beside its frame after the layout, the frames around
//! it grown to hold it.

use std::collections::HashMap;

use inkboard_arrange::flowchart::{self, Chart};
use inkboard_arrange::{place, Algorithm, Direction as LayoutDirection, LayoutOptions};
use inkboard_core::{
    Color, Connector, Dash, End, Geom, IdKind, Kind, Object, ObjectId, Palette, Rect, Rotation,
    Shape, Sizing, Style,
};
use inkboard_interop::mermaid::state::{Endpoint, StateDiagram, StateKind};
use inkboard_interop::mermaid::Direction;

use super::{layout_direction, Imported};
use crate::tool::Cx;
use crate::tools::layout::lay_out;
use crate::ToolError;

/// The gap between a state and its notes.
const NOTE_GAP: f64 = 16.0;
/// The side of a start's circle and of an end's ring.
const START: f64 = 24.0;
const END: f64 = 28.0;
/// The side of a choice's diamond.
const CHOICE: f64 = 32.0;
/// A fork's or join's bar: its length across the flow, its thickness along it
/// (a layout widens it further for many lines).
const BAR: (f64, f64) = (80.0, 8.0);
/// The smallest state box: Mermaid's states are small rounded boxes.
const MIN_STATE: (f64, f64) = (90.0, 44.0);

/// Draws `d` on the call's page, from `x`, `y` when given.
pub(super) fn draw(
    cx: &mut Cx<'_, '_>,
    d: &StateDiagram,
    (x, y): (Option<f64>, Option<f64>),
) -> Result<Imported, ToolError> {
    if d.states.is_empty() && d.composites.is_empty() {
        return Err(ToolError::args(
            "'text': the state diagram has no states: add some, like '[*] --> Idle'",
        ));
    }
    let direction = layout_direction(d.direction);
    // Each state's shape, and its notes' sizes on the left and right.
    let shapes: Vec<Shape> = d
        .states
        .iter()
        .map(|s| state_shape(s.kind, &s.label, d.direction_in(s.parent)))
        .collect();
    let mut beside: Vec<Vec<(usize, (f64, f64))>> = vec![Vec::new(); d.states.len()];
    for (k, n) in d.notes_beside.iter().enumerate() {
        if let Endpoint::State(s) = n.of {
            beside[s].push((k, note_size(&n.text)));
        }
    }
    let room: Vec<Room> = shapes
        .iter()
        .zip(&beside)
        .map(|(shape, notes)| Room::new(shape.bounds, notes, &d.notes_beside))
        .collect();
    let labels = d.transitions.iter().map(|t| t.label.as_str());
    let spacing = flowchart::spacing(direction, labels);
    let end = |e: Endpoint| match e {
        Endpoint::State(s) => flowchart::Endpoint::Node(s),
        Endpoint::Composite(c) => flowchart::Endpoint::Subgraph(c),
    };
    let chart = Chart {
        direction,
        nodes: d
            .states
            .iter()
            .zip(&room)
            .map(|(s, r)| flowchart::Node {
                size: r.size,
                subgraph: s.parent,
            })
            .collect(),
        links: d
            .transitions
            .iter()
            .map(|t| (end(t.from), end(t.to)))
            .collect(),
        subgraphs: d
            .composites
            .iter()
            .enumerate()
            .map(|(k, c)| flowchart::Subgraph {
                parent: c.parent,
                direction: own_direction(d, k).map(layout_direction),
                title: c.title.clone(),
                style: Style::default(),
            })
            .collect(),
    };
    let plan = flowchart::plan(&chart, spacing);
    let (before, (ox, oy)) = super::landing(cx, plan.size, (x, y));

    let mut state_ids = Vec::with_capacity(d.states.len());
    for (i, mut shape) in shapes.into_iter().enumerate() {
        // Laid out with its notes' room; cut back after.
        shape.bounds = plan.nodes[i].translated(ox, oy);
        state_ids.push(cx.tx.add(cx.page, None, Kind::Shape(shape))?);
    }
    // Frames go to the back, outer ones behind inner ones.
    let frame_ids: Vec<ObjectId> = d
        .composites
        .iter()
        .map(|_| cx.tx.new_id(IdKind::Shape))
        .collect();
    let mut by_depth: Vec<usize> = (0..d.composites.len()).collect();
    by_depth.sort_by_key(|&c| d.enclosing(d.composites[c].parent).count());
    for (slot, &c) in by_depth.iter().enumerate() {
        let composite = &d.composites[c];
        let style = match composite.region {
            true => Style {
                dash: Some(Dash::Dashed),
                ..Style::default()
            },
            false => Style::default(),
        };
        let shape = Shape {
            geom: Geom::Frame,
            bounds: plan.frames[c].translated(ox, oy),
            text: composite.title.clone(),
            style,
            sizing: Sizing::Fixed,
            rotation: Rotation::NONE,
            icon: None,
        };
        let object = Object::new(frame_ids[c].clone(), Kind::Shape(shape));
        cx.tx.insert(cx.page, Some(slot), object)?;
    }
    let object = |e: Endpoint| match e {
        Endpoint::State(s) => End::Object(state_ids[s].clone()),
        Endpoint::Composite(c) => End::Object(frame_ids[c].clone()),
    };
    let mut connector_ids = Vec::with_capacity(d.transitions.len());
    for t in &d.transitions {
        let mut c = Connector::new(object(t.from), object(t.to));
        c.text = t.label.clone();
        connector_ids.push(cx.tx.add(cx.page, None, Kind::Connector(c))?);
    }

    let laid: Vec<ObjectId> = state_ids.iter().chain(&frame_ids).cloned().collect();
    let options = LayoutOptions {
        algorithm: Algorithm::Layered,
        direction,
        // As for a flowchart: among frames the layout leaves labels no room
        // of their own, and the wider gaps stay.
        spacing: if d.composites.is_empty() {
            None
        } else {
            spacing
        },
    };
    let inner = inner_directions(d, &frame_ids);
    lay_out(cx, |tx, page, stop| {
        inkboard_arrange::arrange_with(tx, page, Some(&laid), &options, &inner, stop)
    })?;

    // Each state cut back from its notes' room, and the notes put in it; a
    // circle or a diamond the layout widened for its lines made round again.
    let mut note_ids: Vec<Option<ObjectId>> = vec![None; d.notes_beside.len()];
    for (i, r) in room.iter().enumerate() {
        let mark = matches!(
            d.states[i].kind,
            StateKind::Start | StateKind::End | StateKind::Choice
        );
        if beside[i].is_empty() && !mark {
            continue;
        }
        let Some(at) = cx.tx.board().bounds(&state_ids[i]) else {
            continue;
        };
        let (mut state, notes) = r.cut(at);
        if mark {
            let c = state.center();
            let (w, h) = r.state;
            state = Rect::new(c.x - w / 2.0, c.y - h / 2.0, w, h);
        }
        cx.tx.edit(&state_ids[i], |o| {
            if let Kind::Shape(s) = &mut o.kind {
                s.bounds = state;
            }
        })?;
        for (k, b) in notes {
            note_ids[k] = Some(cx.tx.add(
                cx.page,
                None,
                Kind::Shape(note(&d.notes_beside[k].text, b)),
            )?);
        }
    }
    // Notes on composite states, beside their frames.
    for (k, n) in d.notes_beside.iter().enumerate() {
        let Endpoint::Composite(c) = n.of else {
            continue;
        };
        let Some(fb) = cx.tx.board().bounds(&frame_ids[c]) else {
            continue;
        };
        let (w, h) = note_size(&n.text);
        let start = match n.left {
            true => Rect::new(fb.x - NOTE_GAP - w, fb.y, w, h),
            false => Rect::new(fb.right() + NOTE_GAP, fb.y, w, h),
        };
        let side = if n.left {
            place::Side::Left
        } else {
            place::Side::Right
        };
        let around: Vec<&ObjectId> = d
            .enclosing(d.composites[c].parent)
            .map(|p| &frame_ids[p])
            .collect();
        let all = place::obstacles(cx.tx.board(), cx.page, &[]);
        let at = place::walk(&all, &around, start, side, NOTE_GAP);
        if let Some(&parent) = around.first() {
            let parent = parent.clone();
            place::hold(cx.tx, &parent, &at)?;
        }
        note_ids[k] = Some(cx.tx.add(cx.page, None, Kind::Shape(note(&n.text, at)))?);
    }
    let note_ids: Vec<ObjectId> = note_ids.into_iter().flatten().collect();

    let placed: Vec<ObjectId> = laid.iter().chain(&note_ids).cloned().collect();
    flowchart::keep_clear(cx.tx, &placed, &before, (x, y))?;
    let ids: Vec<ObjectId> = state_ids
        .into_iter()
        .chain(connector_ids)
        .chain(frame_ids)
        .chain(note_ids)
        .collect();
    Ok(Imported::new(&ids, d.report()))
}

/// The shape of a state of `kind` (its bounds only sized) in a flow running
/// `direction`.
fn state_shape(kind: StateKind, label: &str, direction: Direction) -> Shape {
    let black = Style {
        fill: Some(Color::Named(Palette::Black)),
        stroke: Some(Color::Named(Palette::Black)),
        ..Style::default()
    };
    let across = matches!(direction, Direction::Down | Direction::Up);
    let (geom, size, style, text) = match kind {
        StateKind::Plain => {
            let (w, h) = place::text_size(Geom::Rounded, label, &Style::default());
            let size = (w.max(MIN_STATE.0), h.max(MIN_STATE.1));
            (Geom::Rounded, size, Style::default(), label.to_string())
        }
        StateKind::Start => (Geom::Ellipse, (START, START), black, String::new()),
        StateKind::End => {
            let style = Style {
                stroke: black.stroke,
                ..Style::default()
            };
            (Geom::EndState, (END, END), style, String::new())
        }
        StateKind::Choice => (
            Geom::Diamond,
            (CHOICE, CHOICE),
            Style::default(),
            String::new(),
        ),
        StateKind::Fork | StateKind::Join => {
            let size = if across { BAR } else { (BAR.1, BAR.0) };
            (Geom::Rect, size, black, String::new())
        }
    };
    Shape {
        geom,
        bounds: Rect::new(0.0, 0.0, size.0, size.1),
        text,
        style,
        sizing: Sizing::Fixed,
        rotation: Rotation::NONE,
        icon: None,
    }
}

/// A note's size: its text's, no smaller than a short word's box.
fn note_size(text: &str) -> (f64, f64) {
    let (w, h) = place::text_size(Geom::Note, text, &Style::default());
    (w.max(80.0), h.max(40.0))
}

/// A sticky note with `text` in `bounds`.
fn note(text: &str, bounds: Rect) -> Shape {
    Shape {
        geom: Geom::Note,
        bounds,
        text: inkboard_core::rich::escape(text),
        style: Style::default(),
        sizing: Sizing::Fixed,
        rotation: Rotation::NONE,
        icon: None,
    }
}

/// A state with room for its notes: the box the layout places, the state in
/// its middle and its notes' columns on either side.
struct Room {
    /// The state's own size.
    state: (f64, f64),
    /// The notes on each side, in order (index into the diagram's notes, size),
    /// stacked in a column centred on the state.
    left: Vec<(usize, (f64, f64))>,
    right: Vec<(usize, (f64, f64))>,
    /// The size of the whole.
    size: (f64, f64),
}

impl Room {
    fn new(
        state: Rect,
        notes: &[(usize, (f64, f64))],
        all: &[inkboard_interop::mermaid::state::StateNote],
    ) -> Room {
        let (left, right): (Vec<_>, Vec<_>) = notes.iter().partition(|(k, _)| all[*k].left);
        let column = |side: &[(usize, (f64, f64))]| {
            let w = side.iter().map(|(_, s)| s.0).fold(0.0, f64::max);
            let h: f64 = side.iter().map(|(_, s)| s.1 + NOTE_GAP).sum::<f64>() - NOTE_GAP;
            match side.is_empty() {
                true => (0.0, 0.0),
                false => (w + NOTE_GAP, h),
            }
        };
        let (lw, lh) = column(&left);
        let (rw, rh) = column(&right);
        // As much room on both sides: the state stays in the middle of its
        // box, where the layout lines it up with its neighbours.
        let side = lw.max(rw);
        Room {
            state: (state.w, state.h),
            size: (2.0 * side + state.w, state.h.max(lh).max(rh)),
            left,
            right,
        }
    }

    /// Where the state and its notes go in `at`, the box the layout gave (it
    /// may have widened it for many lines: the state takes what was added).
    fn cut(&self, at: Rect) -> (Rect, Vec<(usize, Rect)>) {
        let w = self.state.0 + (at.w - self.size.0).max(0.0);
        let h = self.state.1 + (at.h - self.size.1).max(0.0);
        let (cx, cy) = (at.x + at.w / 2.0, at.y + at.h / 2.0);
        let state = Rect::new(cx - w / 2.0, cy - h / 2.0, w, h);
        let mut notes = Vec::new();
        for (side, left) in [(&self.left, true), (&self.right, false)] {
            let total: f64 = side.iter().map(|(_, s)| s.1 + NOTE_GAP).sum::<f64>() - NOTE_GAP;
            let mut y = cy - total / 2.0;
            for &(k, (nw, nh)) in side.iter() {
                let x = match left {
                    true => state.x - NOTE_GAP - nw,
                    false => state.right() + NOTE_GAP,
                };
                notes.push((k, Rect::new(x, y, nw, nh)));
                y += nh + NOTE_GAP;
            }
        }
        (state, notes)
    }
}

/// The frames whose contents run in a direction of their own ([`own_direction`]).
fn inner_directions(d: &StateDiagram, frames: &[ObjectId]) -> HashMap<ObjectId, LayoutDirection> {
    (0..d.composites.len())
        .filter_map(|c| Some((frames[c].clone(), layout_direction(own_direction(d, c)?))))
        .collect()
}

/// The direction composite `c`'s contents run in, when it is its own: a
/// composite state's `direction`; a composite split into regions lays them
/// side by side across its flow, each running in the flow.
fn own_direction(d: &StateDiagram, c: usize) -> Option<Direction> {
    let composite = &d.composites[c];
    let flow = d.direction_in(Some(c));
    let split = d.composites.iter().any(|k| k.region && k.parent == Some(c));
    if split {
        Some(match flow {
            Direction::Down | Direction::Up => Direction::Right,
            Direction::Right | Direction::Left => Direction::Down,
        })
    } else if composite.region || composite.direction.is_some() {
        Some(flow)
    } else {
        None
    }
}
