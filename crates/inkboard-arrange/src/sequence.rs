//! A sequence diagram's placement, for the Mermaid import: no graph layout, but
//! the rules a person drawing one by hand follows, as Mermaid draws it.
//!
//! The participants' heads stand in one row at the top, a lifeline under each.
//! Events go down the page in the order written, each on a row of its own: a
//! message is a horizontal line between two lifelines (a self-message a small
//! loop out to the right and back), a note a box beside or over lifelines, a
//! block's section a frame around its rows titled in its band. The gaps between
//! lifelines grow to fit what must lie in them: a message's label in the gap
//! next to its sender (where Mermaid makes room for it too), a self-message's
//! loop and label, a note beside a lifeline. So no label lies across a lifeline
//! and no two things share a row. Activation bars stand on their lifeline from
//! the message that starts them to the one that ends them, nested ones stepped
//! to the right; a bar crossing a frame's border is cut there (and under a note
//! over it), so that every frame wholly holds or wholly leaves each piece.
//!
//! [`place`] takes a [`Diagram`] (sizes and indices, nothing of Mermaid's
//! syntax) and answers a [`Placed`] relative to the diagram's top-left; the tool
//! makes the objects.
//!
//! Limitations: a participant's head is drawn once, at the top (Mermaid draws it
//! again at the foot); gaps are sized from the widest need anywhere, not row by
//! row.

use inkboard_core::{Connector, End, Point, Rect, FRAME_TITLE_HEIGHT};

/// The least gap between two heads.
const HEAD_GAP: f64 = 40.0;
/// Half an activation bar's width. A nested bar stands beside the one it is in,
/// to its right (Mermaid overlaps them by half, which reads as two shapes on
/// top of each other).
const BAR_HALF: f64 = 5.0;
/// The most pieces the activation bars of one diagram are cut into.
const MAX_BAR_PIECES: usize = 20_000;
/// Room kept between a label or a note and a lifeline or bar.
const CLEAR: f64 = 10.0;
/// Room kept between a message's label and the lifelines at its ends: past the
/// arrowheads, and past the room the renderer keeps free at a route's ends.
const HEAD_ROOM: f64 = 24.0;
/// A frame's margin round what it holds.
const FRAME_PAD: f64 = 14.0;
/// Between rows.
const ROW_GAP: f64 = 12.0;
/// A self-message's loop, at least.
const LOOP_MIN: (f64, f64) = (30.0, 26.0);
/// How far a note over two lifelines reaches past them.
const NOTE_OVER: f64 = 20.0;
/// A sequence diagram as placement sees it: the heads' sizes and the rows, top
/// to bottom.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagram {
    /// Each participant's head, left to right.
    pub heads: Vec<(f64, f64)>,
    pub rows: Vec<Row>,
}

/// One row of a sequence diagram (or an event that takes none).
#[derive(Clone, Debug, PartialEq)]
pub enum Row {
    /// A message between heads (indices), with its label's size (0 × 0 for
    /// none); `activate` starts a bar on `to`, `deactivate` ends one on `from`.
    Message {
        from: usize,
        to: usize,
        label: (f64, f64),
        activate: bool,
        deactivate: bool,
    },
    /// A note of this size.
    Note { at: NoteAt, size: (f64, f64) },
    /// A bar starts on this head's lifeline, at the last message.
    Activate(usize),
    /// This head's innermost bar ends, at the last message.
    Deactivate(usize),
    /// A block's first section opens; its title is this wide.
    Open { title: f64 },
    /// The open block's next section.
    Section { title: f64 },
    /// The innermost block closes.
    Close,
}

/// Where a note goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteAt {
    LeftOf(usize),
    RightOf(usize),
    Over(usize, usize),
}

/// Where everything goes, relative to the diagram's top-left.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Placed {
    /// Each head's box.
    pub heads: Vec<Rect>,
    /// Where the lifelines end (under each head's centre).
    pub feet: Vec<Point>,
    /// Each message's line, start to end (a self-message's loop through its two
    /// corners), in the order of the rows.
    pub messages: Vec<Vec<Point>>,
    /// Each note's box, in the order of the rows.
    pub notes: Vec<Rect>,
    /// Each activation bar's pieces, in the order the bars start.
    pub bars: Vec<Vec<Rect>>,
    /// Each section's frame, in the order the sections open, with how many
    /// blocks hold it (0: none).
    pub frames: Vec<(Rect, usize)>,
    /// The whole diagram's size.
    pub size: (f64, f64),
}

/// The size of a connector's label background for `text`, as the renderer
/// draws it (`inkboard_render::label_size`), in whole pixels; 0 × 0 for none.
pub fn label_size(text: &str) -> (f64, f64) {
    let mut line = Connector::new(End::Point(Point::default()), End::Point(Point::default()));
    line.text = text.to_string();
    inkboard_render::label_size(&line).map_or((0.0, 0.0), |(w, h)| (w.ceil(), h.ceil()))
}

/// An open bar: its head, its step (0 for the outermost) and where it starts.
struct Bar {
    head: usize,
    step: usize,
    top: f64,
    bottom: Option<f64>,
}

/// A block being placed: its sections' frames (indices), what its sections
/// before the current one hold, and its widest title.
struct Block {
    frames: Vec<usize>,
    content: Option<Rect>,
    title: f64,
    /// Its leftmost lifeline and the room its titles need left of it.
    room: Option<(usize, f64)>,
}

/// Places a sequence diagram. Every head index in its rows must be below
/// `heads.len()` (the reader resolves names to indices, so they are).
pub fn place(d: &Diagram) -> Placed {
    let n = d.heads.len();
    if n == 0 {
        return Placed::default();
    }
    let deepest = deepest_bars(d);
    // How far bars reach left and right of a lifeline, at their deepest.
    // (Past the last lifeline there is none: nothing reaches.)
    let right = |p: usize| match deepest.get(p).copied().unwrap_or(0) {
        0 => 0.0,
        k => BAR_HALF * (2.0 * k as f64 - 1.0),
    };
    let left = |p: usize| match deepest.get(p).copied().unwrap_or(0) {
        0 => 0.0,
        _ => BAR_HALF,
    };
    let widest_loop = |p: usize, lw: f64| right(p) + LOOP_MIN.0.max(lw / 2.0 + CLEAR);

    // Gaps between neighbouring lifelines, grown to what must lie in them.
    let mut gaps: Vec<f64> = (1..n)
        .map(|k| (d.heads[k - 1].0 + d.heads[k].0) / 2.0 + HEAD_GAP)
        .collect();
    let between = |k: usize| right(k) + left(k + 1) + 2.0 * CLEAR;
    for row in &d.rows {
        let (gap, need) = match *row {
            Row::Message {
                from, to, label, ..
            } if from != to => {
                let k = if to > from { from } else { from - 1 };
                (k, label.0 + right(k) + left(k + 1) + 2.0 * HEAD_ROOM)
            }
            // Room for the label on the loop's far side, or wholly beside it.
            Row::Message { from, label, .. } => (
                from,
                widest_loop(from, label.0) + label.0 + 2.0 * CLEAR + left(from + 1),
            ),
            Row::Note {
                at: NoteAt::RightOf(p),
                size,
            } => (p, size.0 + between(p)),
            Row::Note {
                at: NoteAt::LeftOf(p),
                size,
            } if p > 0 => (p - 1, size.0 + between(p - 1)),
            _ => continue,
        };
        if let Some(g) = gaps.get_mut(gap) {
            *g = g.max(need);
        }
    }
    let rooms = title_rooms(d, left);
    for &(lm, room) in rooms.iter().flatten() {
        if lm > 0 {
            let g = &mut gaps[lm - 1];
            *g = g.max(room + CLEAR + right(lm - 1));
        }
    }
    let mut xs = vec![d.heads[0].0 / 2.0];
    for g in &gaps {
        xs.push(xs[xs.len() - 1] + g);
    }
    let head_h = d.heads.iter().map(|h| h.1).fold(0.0, f64::max);
    let mut out = Placed {
        heads: d
            .heads
            .iter()
            .zip(&xs)
            .map(|(&(w, _), &x)| Rect::new(x - w / 2.0, 0.0, w, head_h))
            .collect(),
        ..Placed::default()
    };

    // Down the rows.
    let mut y = head_h + 2.0 * ROW_GAP;
    let mut last = y;
    let mut bars: Vec<Bar> = Vec::new();
    let mut open: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut blocks: Vec<Block> = Vec::new();
    let mut opened = 0;
    let mut content: Option<Rect> = None;
    // The reach of the bars open on a lifeline now, left and right.
    let reach = |open: &[Vec<usize>], bars: &[Bar], p: usize| match open[p].last() {
        None => (0.0, 0.0),
        Some(&b) => (BAR_HALF, BAR_HALF * (2.0 * bars[b].step as f64 + 1.0)),
    };
    let start_bar = |bars: &mut Vec<Bar>, open: &mut Vec<Vec<usize>>, p: usize, top: f64| {
        bars.push(Bar {
            head: p,
            step: open[p].len(),
            top,
            bottom: None,
        });
        open[p].push(bars.len() - 1);
    };
    let end_bar = |bars: &mut Vec<Bar>, open: &mut Vec<Vec<usize>>, p: usize, at: f64| {
        if let Some(b) = open[p].pop() {
            bars[b].bottom = Some(at.max(bars[b].top + ROW_GAP));
        }
    };
    let add = |content: &mut Option<Rect>, r: Rect| {
        *content = Some(content.map_or(r, |c| c.union(&r)));
    };
    for row in &d.rows {
        match *row {
            Row::Message {
                from,
                to,
                label,
                activate,
                deactivate,
            } if from != to => {
                let line = y + label.1.max(ROW_GAP) + 4.0;
                if activate {
                    start_bar(&mut bars, &mut open, to, line);
                }
                let (fl, fr) = reach(&open, &bars, from);
                let (tl, tr) = reach(&open, &bars, to);
                let (a, b) = match to > from {
                    true => (xs[from] + fr, xs[to] - tl),
                    false => (xs[from] - fl, xs[to] + tr),
                };
                out.messages
                    .push(vec![Point::new(a, line), Point::new(b, line)]);
                if deactivate {
                    end_bar(&mut bars, &mut open, from, line);
                }
                add(
                    &mut content,
                    Rect::new(a.min(b), line - label.1, (a - b).abs(), 1.5 * label.1),
                );
                (last, y) = (line, line + label.1 / 2.0 + ROW_GAP);
            }
            Row::Message {
                from,
                label,
                activate,
                deactivate,
                ..
            } => {
                let top = y + ROW_GAP / 2.0;
                let h = LOOP_MIN.1.max(label.1 + 16.0);
                let x = xs[from];
                let out_x = x + reach(&open, &bars, from).1;
                let loop_x = x + widest_loop(from, label.0);
                if activate {
                    start_bar(&mut bars, &mut open, from, top + h);
                }
                let back_x = x + reach(&open, &bars, from).1;
                out.messages.push(vec![
                    Point::new(out_x, top),
                    Point::new(loop_x, top),
                    Point::new(loop_x, top + h),
                    Point::new(back_x, top + h),
                ]);
                if deactivate {
                    end_bar(&mut bars, &mut open, from, top + h);
                }
                let reach_x = loop_x + label.0 + CLEAR;
                add(&mut content, Rect::new(x, top, reach_x - x, h));
                (last, y) = (top + h, top + h + ROW_GAP);
            }
            Row::Note { at, size: (w, h) } => {
                let top = y + 4.0;
                let x = match at {
                    NoteAt::LeftOf(p) => xs[p] - left(p) - CLEAR - w,
                    NoteAt::RightOf(p) => xs[p] + right(p) + CLEAR,
                    NoteAt::Over(a, b) => {
                        let (l, r) = (xs[a].min(xs[b]), xs[a].max(xs[b]));
                        let w = w.max(r - l + 2.0 * NOTE_OVER * f64::from(u8::from(a != b)));
                        (l + r) / 2.0 - w / 2.0
                    }
                };
                let w = match at {
                    NoteAt::Over(a, b) if a != b => w.max((xs[a] - xs[b]).abs() + 2.0 * NOTE_OVER),
                    _ => w,
                };
                let r = Rect::new(x, top, w, h);
                out.notes.push(r);
                add(&mut content, r);
                y = top + h + ROW_GAP;
            }
            Row::Activate(p) => start_bar(&mut bars, &mut open, p, last),
            Row::Deactivate(p) => end_bar(&mut bars, &mut open, p, last),
            Row::Open { title } => {
                let top = y + 2.0;
                out.frames
                    .push((Rect::new(0.0, top, 0.0, 0.0), blocks.len()));
                if let (Some(outer), Some(c)) = (blocks.last_mut(), content.take()) {
                    add(&mut outer.content, c);
                }
                blocks.push(Block {
                    frames: vec![out.frames.len() - 1],
                    content: None,
                    title,
                    room: rooms.get(opened).copied().flatten(),
                });
                opened += 1;
                content = None;
                y = top + FRAME_TITLE_HEIGHT + 4.0;
            }
            Row::Section { title } => {
                let depth = blocks.len().saturating_sub(1);
                let Some(block) = blocks.last_mut() else {
                    continue;
                };
                let bottom = y + 4.0;
                let f = block.frames[block.frames.len() - 1];
                out.frames[f].0.h = bottom - out.frames[f].0.y;
                if let Some(c) = content.take() {
                    add(&mut block.content, c);
                }
                block.title = block.title.max(title);
                out.frames.push((Rect::new(0.0, bottom, 0.0, 0.0), depth));
                block.frames.push(out.frames.len() - 1);
                y = bottom + FRAME_TITLE_HEIGHT + 4.0;
            }
            Row::Close => {
                let Some(mut block) = blocks.pop() else {
                    continue;
                };
                let bottom = y + 4.0;
                let f = block.frames[block.frames.len() - 1];
                out.frames[f].0.h = bottom - out.frames[f].0.y;
                if let Some(c) = content.take() {
                    add(&mut block.content, c);
                }
                let top = out.frames[block.frames[0]].0.y;
                let span = frame_span(&block, &xs, &bars, (top, bottom));
                for &f in &block.frames {
                    out.frames[f].0.x = span.0;
                    out.frames[f].0.w = span.1 - span.0;
                }
                // The block as its parent's content, and what the parent held
                // before it.
                content = blocks.last_mut().and_then(|b| b.content.take());
                add(
                    &mut content,
                    Rect::new(span.0, top, span.1 - span.0, bottom - top),
                );
                y = bottom + ROW_GAP;
            }
        }
    }
    let foot = y + 2.0 * ROW_GAP;
    for p in 0..n {
        while !open[p].is_empty() {
            end_bar(&mut bars, &mut open, p, foot - ROW_GAP);
        }
    }
    out.feet = xs.iter().map(|&x| Point::new(x, foot)).collect();
    // Bars are cut at frame borders and under notes, up to MAX_BAR_PIECES in
    // all: past that (thousands of bars under thousands of notes, which only a
    // made-up diagram has) the rest are drawn whole, so the board stays small.
    let mut pieces = 0;
    out.bars = bars
        .iter()
        .map(|b| {
            let x = xs[b.head] - BAR_HALF + 2.0 * BAR_HALF * b.step as f64;
            let bottom = b.bottom.unwrap_or(foot);
            let whole = Rect::new(x, b.top, 2.0 * BAR_HALF, bottom - b.top);
            let cuts = cut(whole, &out.frames, &out.notes);
            pieces += cuts.len();
            if pieces > MAX_BAR_PIECES {
                vec![whole]
            } else {
                cuts
            }
        })
        .collect();
    shift_to_origin(&mut out, foot);
    out
}

/// For each block, in the order blocks open: its leftmost lifeline (of what its
/// sections hold) and how far left of it the frame's edge must reach for the
/// widest of its titles to sit between the edge and that lifeline, so that no
/// lifeline runs through a title. A block holding one whose leftmost lifeline
/// is the same reaches a frame's margin further.
fn title_rooms(d: &Diagram, left: impl Fn(usize) -> f64) -> Vec<Option<(usize, f64)>> {
    struct Open {
        index: usize,
        title: f64,
        leftmost: Option<usize>,
        inner: Vec<(usize, f64)>,
    }
    let mut rooms = Vec::new();
    let mut open: Vec<Open> = Vec::new();
    let mention = |open: &mut Vec<Open>, p: usize| {
        if let Some(o) = open.last_mut() {
            o.leftmost = Some(o.leftmost.map_or(p, |l| l.min(p)));
        }
    };
    for row in &d.rows {
        match *row {
            Row::Message { from, to, .. } => {
                mention(&mut open, from);
                mention(&mut open, to);
            }
            Row::Note { at, .. } => match at {
                NoteAt::LeftOf(p) | NoteAt::RightOf(p) => mention(&mut open, p),
                NoteAt::Over(a, b) => {
                    mention(&mut open, a);
                    mention(&mut open, b);
                }
            },
            Row::Activate(p) | Row::Deactivate(p) => mention(&mut open, p),
            Row::Open { title } => {
                rooms.push(None);
                open.push(Open {
                    index: rooms.len() - 1,
                    title,
                    leftmost: None,
                    inner: Vec::new(),
                });
            }
            Row::Section { title } => {
                if let Some(o) = open.last_mut() {
                    o.title = o.title.max(title);
                }
            }
            Row::Close => {
                let Some(o) = open.pop() else { continue };
                let room = o.leftmost.map(|lm| {
                    let own = o.title + 10.0 + CLEAR + left(lm);
                    let inner = o
                        .inner
                        .iter()
                        .filter(|(l, _)| *l == lm)
                        .map(|(_, r)| r + FRAME_PAD)
                        .fold(0.0, f64::max);
                    (lm, own.max(inner).max(FRAME_PAD + left(lm)))
                });
                rooms[o.index] = room;
                if let (Some(outer), Some((lm, r))) = (open.last_mut(), room) {
                    outer.leftmost = Some(outer.leftmost.map_or(lm, |l| l.min(lm)));
                    outer.inner.push((lm, r));
                }
            }
        }
    }
    rooms
}

/// The deepest each lifeline's bars nest, over the whole diagram.
fn deepest_bars(d: &Diagram) -> Vec<usize> {
    let mut now = vec![0usize; d.heads.len()];
    let mut deepest = now.clone();
    let mut bump = |now: &mut Vec<usize>, p: usize, up: bool| {
        if let Some(k) = now.get_mut(p) {
            *k = if up { *k + 1 } else { k.saturating_sub(1) };
            deepest[p] = deepest[p].max(*k);
        }
    };
    for row in &d.rows {
        match *row {
            Row::Message {
                from,
                to,
                activate,
                deactivate,
                ..
            } => {
                if activate {
                    bump(&mut now, to, true);
                }
                if deactivate {
                    bump(&mut now, from, false);
                }
            }
            Row::Activate(p) => bump(&mut now, p, true),
            Row::Deactivate(p) => bump(&mut now, p, false),
            _ => {}
        }
    }
    deepest
}

/// A block's frames' left and right: round what its sections hold (every head
/// when they hold nothing), wide enough for the longest title, and out past any
/// bar its border would cut across lengthwise.
fn frame_span(block: &Block, xs: &[f64], bars: &[Bar], (top, bottom): (f64, f64)) -> (f64, f64) {
    let held = block.content.unwrap_or_else(|| {
        let (l, r) = (xs[0], xs[xs.len() - 1]);
        Rect::new(l, top, r - l, 0.0)
    });
    let (mut l, mut r) = (held.x - FRAME_PAD, held.right() + FRAME_PAD);
    if let Some((lm, room)) = block.room {
        l = l.min(xs[lm] - room);
    }
    r = r.max(l + block.title + 2.0 * CLEAR);
    for b in bars {
        let (bt, bb) = (b.top, b.bottom.unwrap_or(f64::INFINITY));
        if bb <= top || bt >= bottom {
            continue;
        }
        let x0 = xs[b.head] - BAR_HALF + 2.0 * BAR_HALF * b.step as f64;
        let x1 = x0 + 2.0 * BAR_HALF;
        if l > x0 - 1.0 && l < x1 + 1.0 {
            l = x0 - 4.0;
        }
        if r > x0 - 1.0 && r < x1 + 1.0 {
            r = x1 + 4.0;
        }
    }
    (l, r)
}

/// A bar's pieces: cut at every border of a frame that it crosses, and out from
/// under every note over it.
fn cut(bar: Rect, frames: &[(Rect, usize)], notes: &[Rect]) -> Vec<Rect> {
    let across = |r: &Rect| r.x < bar.right() && bar.x < r.right();
    let mut marks: Vec<f64> = frames
        .iter()
        .filter(|(f, _)| across(f))
        .flat_map(|(f, _)| [f.y, f.bottom()])
        .filter(|&y| y > bar.y && y < bar.bottom())
        .collect();
    marks.sort_by(f64::total_cmp);
    marks.dedup();
    let mut pieces = Vec::new();
    let mut from = bar.y;
    for y in marks.into_iter().chain([bar.bottom()]) {
        pieces.push((from, y));
        from = y;
    }
    // The notes over it as disjoint spans, in order; each piece then loses
    // what they cover in one sweep (a note per piece per note was cubic in a
    // hostile diagram's notes and bars).
    let mut under: Vec<(f64, f64)> = notes
        .iter()
        .filter(|r| across(r))
        .map(|r| (r.y, r.bottom()))
        .filter(|&(a, b)| b > bar.y && a < bar.bottom())
        .collect();
    under.sort_by(|p, q| p.0.total_cmp(&q.0));
    let mut spans: Vec<(f64, f64)> = Vec::with_capacity(under.len());
    for (a, b) in under {
        match spans.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => spans.push((a, b)),
        }
    }
    let mut kept = Vec::with_capacity(pieces.len() + spans.len());
    let mut first = 0;
    for (mut a, b) in pieces {
        while first < spans.len() && spans[first].1 <= a {
            first += 1;
        }
        for &(na, nb) in &spans[first..] {
            if na >= b {
                break;
            }
            kept.push((a, na.max(a)));
            a = nb.min(b).max(a);
        }
        kept.push((a, b));
    }
    let pieces: Vec<(f64, f64)> = kept.into_iter().filter(|(a, b)| b - a >= 1.0).collect();
    pieces
        .into_iter()
        .map(|(a, b)| Rect::new(bar.x, a, bar.w, b - a))
        .collect()
}

/// Moves everything so that the diagram's left edge is at 0, and sets its size.
fn shift_to_origin(out: &mut Placed, foot: f64) {
    let rects = out
        .heads
        .iter()
        .chain(&out.notes)
        .chain(out.frames.iter().map(|(f, _)| f))
        .chain(out.bars.iter().flatten());
    let points = out.messages.iter().flatten().chain(&out.feet);
    let left = rects
        .clone()
        .map(|r| r.x)
        .chain(points.clone().map(|p| p.x))
        .fold(f64::INFINITY, f64::min);
    let right = rects
        .map(|r| r.right())
        .chain(points.map(|p| p.x))
        .fold(f64::NEG_INFINITY, f64::max);
    let dx = -left;
    let move_rect = |r: &mut Rect| r.x += dx;
    out.heads.iter_mut().for_each(move_rect);
    out.notes.iter_mut().for_each(move_rect);
    out.frames.iter_mut().for_each(|(f, _)| f.x += dx);
    out.bars.iter_mut().flatten().for_each(move_rect);
    out.messages
        .iter_mut()
        .flatten()
        .chain(&mut out.feet)
        .for_each(|p| p.x += dx);
    out.size = (right - left, foot);
}
