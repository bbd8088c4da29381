//! Sequence diagrams as a person edits them: a participant moved across takes
//! its lifeline, its activation bars and its ends of messages along, and a
//! message moved up or down takes its place in the order of messages.
//!
//! A sequence diagram is ordinary objects, read by their geometry
//! ([`inkboard_core::diagram::sequence`]: lifelines, messages, bars).
//!
//! [`carried`] says what moves with heads that move across ([`crate::shift`]
//! moves it, for `move`, `align`, `distribute` and a drag alike); [`reorder`]
//! moves messages into their new order.
//!
//! Limitations: bars stay where they are when messages are reordered; notes and
//! frames do not move with a participant or a reordered message.

use inkboard_core::diagram::sequence::{bar_on, lifelines, message_ends};
use inkboard_core::{Board, End, Kind, ObjectId, Point, Transaction};

use crate::ArrangeError;

/// What moves across with heads that move across, besides the heads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Carried {
    /// Lifelines whose foot moves (their top follows the head).
    pub feet: Vec<ObjectId>,
    /// Messages, with which of their ends move (start, end); a message whose two
    /// ends move takes its bends along.
    pub ends: Vec<(ObjectId, bool, bool)>,
    /// Activation bars.
    pub bars: Vec<ObjectId>,
}

impl Carried {
    pub fn is_empty(&self) -> bool {
        self.feet.is_empty() && self.ends.is_empty() && self.bars.is_empty()
    }
}

/// What moves with the heads among `set` (the objects that move) when they move
/// across: their lifelines' feet, the ends of messages on those lifelines and the
/// bars standing on them, unless those move already.
pub fn carried(board: &Board, set: &[ObjectId]) -> Carried {
    let Some((page, _)) = set.first().and_then(|id| board.locate(id)) else {
        return Carried::default();
    };
    let lines = lifelines(board, page);
    let moving: Vec<usize> = (0..lines.len())
        .filter(|&i| set.contains(&lines[i].head) && !set.contains(&lines[i].id))
        .collect();
    let mut out = Carried::default();
    if moving.is_empty() {
        return out;
    }
    out.feet = moving.iter().map(|&i| lines[i].id.clone()).collect();
    let Some(objects) = board.page(page).map(|p| p.objects.as_slice()) else {
        return out;
    };
    for o in objects.iter().filter(|o| !o.locked && !set.contains(&o.id)) {
        if let Some((a, b)) = message_ends(&lines, &o.kind) {
            let (a, b) = (moving.contains(&a), moving.contains(&b));
            if a || b {
                out.ends.push((o.id.clone(), a, b));
            }
            continue;
        }
        if bar_on(&lines, o).is_some_and(|i| moving.contains(&i)) {
            out.bars.push(o.id.clone());
        }
    }
    out
}

/// Moves what `carried` found across by `dx`.
pub(crate) fn carry(
    tx: &mut Transaction<'_>,
    carried: &Carried,
    dx: f64,
) -> Result<(), ArrangeError> {
    let across = |p: &mut Point| p.x += dx;
    for id in &carried.feet {
        tx.edit(id, |o| {
            if let Kind::Connector(c) = &mut o.kind {
                if let End::Point(p) = &mut c.to {
                    across(p);
                }
            }
        })?;
    }
    for (id, start, end) in &carried.ends {
        tx.edit(id, |o| {
            let Kind::Connector(c) = &mut o.kind else {
                return;
            };
            for (moves, e) in [(*start, &mut c.from), (*end, &mut c.to)] {
                if let (true, End::Point(p)) = (moves, e) {
                    across(p);
                }
            }
            if *start && *end {
                c.waypoints_mut().iter_mut().for_each(across);
            }
        })?;
    }
    for id in &carried.bars {
        tx.edit(id, |o| {
            if let Kind::Shape(s) = &mut o.kind {
                s.bounds = s.bounds.translated(dx, 0.0);
            }
        })?;
    }
    Ok(())
}

/// A message: its id, the lifelines its ends are on, and its row ([`row`]).
type Message = (ObjectId, (usize, usize), (f64, f64));

/// A message's row: the height of its start (the upper end), and of its lowest
/// point.
fn row(kind: &Kind) -> Option<(f64, f64)> {
    let Kind::Connector(c) = kind else {
        return None;
    };
    let (End::Point(a), End::Point(b)) = (&c.from, &c.to) else {
        return None;
    };
    let low = c
        .waypoints()
        .iter()
        .chain([a, b])
        .map(|p| p.y)
        .fold(f64::MIN, f64::max);
    Some((a.y.min(b.y), low))
}

/// Moves message `id` up or down by `dy` as a person drags it: it takes its
/// place among the messages of its diagram (those joined to its lifelines through
/// messages), which close up behind it and make room in front, each keeping its
/// row's height; nothing moves across. Answers false, changing nothing, when
/// `id` is no message.
pub fn reorder(tx: &mut Transaction<'_>, id: &ObjectId, dy: f64) -> Result<bool, ArrangeError> {
    let board = tx.board();
    let Some((page, _)) = board.locate(id) else {
        return Ok(false);
    };
    let lines = lifelines(board, page);
    let Some(objects) = board.page(page).map(|p| p.objects.as_slice()) else {
        return Ok(false);
    };
    // Every message of the page, with its lifelines.
    let messages: Vec<Message> = objects
        .iter()
        .filter_map(|o| {
            let ends = message_ends(&lines, &o.kind)?;
            Some((o.id.clone(), ends, row(&o.kind)?))
        })
        .collect();
    let Some(dragged) = messages.iter().position(|m| &m.0 == id) else {
        return Ok(false);
    };
    // The dragged message's diagram: the lifelines its messages join, step by step.
    // The lifelines joined to its own through messages, found once each (a walk
    // over the messages of each lifeline reached), so a page of many lifelines
    // costs its messages, not their square.
    let mut by_line: std::collections::HashMap<usize, Vec<usize>> = Default::default();
    for (_, (a, b), _) in &messages {
        by_line.entry(*a).or_default().push(*b);
        by_line.entry(*b).or_default().push(*a);
    }
    let (a, b) = messages[dragged].1;
    let mut joined: std::collections::HashSet<usize> = [a, b].into();
    let mut todo = vec![a, b];
    while let Some(line) = todo.pop() {
        for &next in by_line.get(&line).into_iter().flatten() {
            if joined.insert(next) {
                todo.push(next);
            }
        }
    }
    let mut diagram: Vec<&Message> = messages
        .iter()
        .filter(|(_, (a, b), _)| joined.contains(a) && joined.contains(b))
        .collect();
    diagram.sort_by(|m, n| m.2 .0.total_cmp(&n.2 .0));
    let tops: Vec<f64> = diagram.iter().map(|m| m.2 .0).collect();
    // Each row's height: down to the next message; the last one's, its own drawing
    // and the least gap between rows.
    let least = tops
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::MAX, f64::min);
    let heights: Vec<f64> = diagram
        .iter()
        .enumerate()
        .map(|(i, m)| match tops.get(i + 1) {
            Some(next) => next - m.2 .0,
            None => (m.2 .1 - m.2 .0) + if least.is_finite() { least } else { 0.0 },
        })
        .collect();
    let Some(from) = diagram.iter().position(|m| &m.0 == id) else {
        return Ok(false);
    };
    let target = tops[from] + dy;
    let mut order: Vec<usize> = (0..diagram.len()).filter(|&i| i != from).collect();
    let to = order.iter().take_while(|&&i| tops[i] < target).count();
    order.insert(to, from);
    let mut y = tops[0];
    let mut moves = Vec::new();
    for &i in &order {
        if (y - tops[i]).abs() > f64::EPSILON {
            moves.push((diagram[i].0.clone(), y - tops[i]));
        }
        y += heights[i];
    }
    for (id, by) in moves {
        tx.edit(&id, |o| {
            let Kind::Connector(c) = &mut o.kind else {
                return;
            };
            let down = |p: &mut Point| p.y += by;
            for e in [&mut c.from, &mut c.to] {
                if let End::Point(p) = e {
                    down(p);
                }
            }
            c.waypoints_mut().iter_mut().for_each(down);
        })?;
    }
    Ok(true)
}
