//! Channels wide enough for their lines: after `layout` has placed a layered
//! diagram, the gaps between its layers are widened where the connectors, as the
//! renderer routes them, run closer than [`MIN_APART`] there.
//!
//! The layout sizes each gap from the lines it expects to cross it, between the
//! middles of the shapes they join. The renderer routes on its own, from ports
//! spread along the shapes' sides, and may run a long connector's turn in another
//! gap than the layout kept for it, so a gap can need more tracks than the
//! layout gave it. ELK sizes its layer gaps from its router's slots; here the
//! renderer is asked for its routes ([`inkboard_render::connector_lines`]) and a
//! crowded gap is opened by moving what lies beyond it further on, frames that
//! span it growing, a few rounds at most (a wider gap may draw other turns in).
//! Nothing moves when the block would grow into something that is not laid out.

use std::collections::HashSet;

use inkboard_core::{Board, Kind, ObjectId, PageId, Point, Rect, Transaction};

use crate::{place, shift, ArrangeError};

/// The least distance the renderer keeps between parallel lines when a channel
/// is crowded: closer, a reader loses a line.
const MIN_APART: f64 = inkboard_render::MIN_LINE_GAP;

/// The renderer's spacing of parallel lines, and its clearance from the shapes
/// on either side (12 px both): a crowded gap grows by at least one.
const TRACK: f64 = 12.0;

/// How many times the routes are read and the gaps widened.
const ROUNDS: usize = 3;

/// Which way the layers follow each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stacking {
    /// Layers are rows (a `down` or `up` layout): the gaps are horizontal bands.
    Rows,
    /// Layers are columns (`right` or `left`): the gaps are vertical bands.
    Columns,
}

impl Stacking {
    /// The extent of `r` from one layer to the next.
    fn along(self, r: Rect) -> (f64, f64) {
        match self {
            Stacking::Rows => (r.y, r.bottom()),
            Stacking::Columns => (r.x, r.right()),
        }
    }

    /// `p` as (where it is from layer to layer, where it is across).
    fn split(self, p: Point) -> (f64, f64) {
        match self {
            Stacking::Rows => (p.y, p.x),
            Stacking::Columns => (p.x, p.y),
        }
    }

    /// `r` with its extent from layer to layer set to `lo..hi`.
    fn with_along(self, r: Rect, lo: f64, hi: f64) -> Rect {
        match self {
            Stacking::Rows => Rect::new(r.x, lo, r.w, hi - lo),
            Stacking::Columns => Rect::new(lo, r.y, hi - lo, r.h),
        }
    }
}

/// A straight piece of a connector running across the flow inside a gap.
#[derive(Clone, Copy, Debug)]
struct Piece {
    /// Where it lies between the layers.
    at: f64,
    /// Its extent across.
    from: f64,
    to: f64,
    /// The connector it belongs to, by its place in the routes read.
    line: usize,
}

/// Widens the gaps between the layers of the objects `laid` (what `layout` just
/// placed on `page`, frames with their contents) where the connectors between
/// them run closer than [`MIN_APART`]. `moved` is everything that moved with
/// the layout and `holders` the frames holding the block: neither is in its
/// way. `stop` is asked before each round: when it says stop, so does this.
pub(crate) fn widen(
    tx: &mut Transaction<'_>,
    page: PageId,
    laid: &[ObjectId],
    stacking: Stacking,
    moved: &[ObjectId],
    holders: &[&ObjectId],
    stop: &dyn Fn() -> bool,
) -> Result<(), ArrangeError> {
    let members: HashSet<&ObjectId> = laid.iter().collect();
    for _ in 0..ROUNDS {
        // Each round routes the page: a stopped call stops here.
        if stop() {
            return Err(ArrangeError::Stopped);
        }
        let board = tx.board();
        let boxes: Vec<(ObjectId, Rect, bool)> = laid
            .iter()
            .filter_map(|id| {
                let o = board.object(id)?;
                Some((id.clone(), o.own_bounds()?, o.is_frame()))
            })
            .collect();
        let gaps = gaps(boxes.iter().filter(|b| !b.2).map(|b| stacking.along(b.1)));
        if gaps.is_empty() {
            return Ok(());
        }
        let mut pieces: Vec<Vec<Piece>> = vec![Vec::new(); gaps.len()];
        let lines = inkboard_render::connector_lines(board, page);
        for (n, (id, line)) in lines.iter().enumerate() {
            let joins_laid = match board.object(id).map(|o| &o.kind) {
                Some(Kind::Connector(c)) => [&c.from, &c.to]
                    .iter()
                    .all(|e| e.object().is_some_and(|o| members.contains(o))),
                _ => false,
            };
            if !joins_laid {
                continue;
            }
            for w in line.windows(2) {
                let ((a, p), (b, q)) = (stacking.split(w[0]), stacking.split(w[1]));
                if (a - b).abs() >= 0.5 || (p - q).abs() <= 1.0 {
                    continue;
                }
                // The gap it lies in, if any: gaps are sorted and apart.
                let k = gaps.partition_point(|g| g.1 <= a);
                if k < gaps.len() && gaps[k].0 < a {
                    pieces[k].push(Piece {
                        at: a,
                        from: p.min(q),
                        to: p.max(q),
                        line: n,
                    });
                }
            }
        }
        let extra: Vec<f64> = gaps
            .iter()
            .zip(&mut pieces)
            .map(|(g, p)| extra_room(g.1 - g.0, p))
            .collect();
        if extra.iter().all(|e| *e <= 0.0) {
            return Ok(());
        }
        // Everything wholly past a gap moves on by its extra room; a frame
        // spanning the gap grows by it.
        let shift = |u: f64| -> f64 {
            gaps.iter()
                .zip(&extra)
                .filter(|(g, _)| g.1 <= u + 0.5)
                .map(|(_, e)| e)
                .sum()
        };
        let moves: Vec<(ObjectId, Rect, Rect)> = boxes
            .iter()
            .map(|(id, r, _)| {
                let (lo, hi) = stacking.along(*r);
                (
                    id.clone(),
                    *r,
                    stacking.with_along(*r, lo + shift(lo), hi + shift(hi)),
                )
            })
            .collect();
        if grows_into_others(tx.board(), page, &moves, moved, holders) {
            return Ok(());
        }
        for (id, old, new) in moves {
            if new == old {
                continue;
            }
            let ink = matches!(tx.board().object(&id).map(|o| &o.kind), Some(Kind::Ink(_)));
            if ink {
                shift::translate(tx, std::slice::from_ref(&id), new.x - old.x, new.y - old.y)?;
                continue;
            }
            tx.edit(&id, |o| match &mut o.kind {
                Kind::Shape(s) => s.bounds = new,
                Kind::Image(im) => im.bounds = new,
                _ => {}
            })?;
        }
    }
    Ok(())
}

/// The gaps between `extents` (each from one layer to the next), in order: the
/// stretches no extent covers, between the first and the last.
fn gaps(extents: impl Iterator<Item = (f64, f64)>) -> Vec<(f64, f64)> {
    let mut all: Vec<(f64, f64)> = extents.collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = Vec::new();
    let mut reach: Option<f64> = None;
    for (lo, hi) in all {
        match reach {
            Some(r) if lo > r => {
                out.push((r, lo));
                reach = Some(hi);
            }
            Some(r) => reach = Some(r.max(hi)),
            None => reach = Some(hi),
        }
    }
    out
}

/// How much wider a gap of `width` must be for its `pieces` to lie
/// [`MIN_APART`] apart: nothing when they already do; else the width the
/// layout gives a gap for such lines ([`inkboard_layout::channel_width`]), and
/// at least one track more than it has (the order that crosses least may need
/// more tracks than the fewest).
fn extra_room(width: f64, pieces: &mut [Piece]) -> f64 {
    pieces.sort_by(|a, b| a.at.total_cmp(&b.at));
    let side_by_side = |a: &Piece, b: &Piece| a.from.max(b.from) < a.to.min(b.to) - 1.0;
    let crowded = pieces.iter().enumerate().any(|(i, a)| {
        pieces[i + 1..]
            .iter()
            .take_while(|b| b.at - a.at < MIN_APART)
            .any(|b| b.line != a.line && side_by_side(a, b))
    });
    if !crowded {
        return 0.0;
    }
    let spans = pieces.iter().map(|p| (p.from, p.to, 1));
    (inkboard_layout::channel_width(spans) - width).max(TRACK)
}

/// Whether the block, its objects moved as `moves` says, would newly overlap a
/// shape or image that is not laid out (nor one of `holders`).
fn grows_into_others(
    board: &Board,
    page: PageId,
    moves: &[(ObjectId, Rect, Rect)],
    moved: &[ObjectId],
    holders: &[&ObjectId],
) -> bool {
    let (Some(before), Some(after)) = (
        moves.iter().map(|m| m.1).reduce(|a, b| a.union(&b)),
        moves.iter().map(|m| m.2).reduce(|a, b| a.union(&b)),
    ) else {
        return false;
    };
    place::obstacles(board, page, moved)
        .iter()
        .any(|(id, r, _)| !holders.contains(id) && r.overlaps(&after) && !r.overlaps(&before))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_lie_between_the_layers() {
        let rows = [
            (0.0, 40.0),
            (10.0, 50.0),
            (100.0, 140.0),
            (200.0, 260.0),
            (120.0, 150.0),
        ];
        assert_eq!(gaps(rows.into_iter()), vec![(50.0, 100.0), (150.0, 200.0)]);
    }

    #[test]
    fn a_gap_grows_only_when_its_lines_crowd() {
        let piece = |at: f64, from: f64, to: f64, line: usize| Piece { at, from, to, line };
        // 12 px apart: nothing to do.
        let mut apart = [piece(20.0, 0.0, 100.0, 0), piece(32.0, 50.0, 150.0, 1)];
        assert_eq!(extra_room(60.0, &mut apart), 0.0);
        // 4 px apart and side by side: three at once need 48 px, 12 more.
        let mut close = [
            piece(20.0, 0.0, 100.0, 0),
            piece(24.0, 50.0, 150.0, 1),
            piece(30.0, 60.0, 70.0, 2),
        ];
        assert_eq!(extra_room(36.0, &mut close), 12.0);
        // Close but one after the other (no shared stretch): nothing.
        let mut after = [piece(20.0, 0.0, 100.0, 0), piece(22.0, 100.0, 150.0, 1)];
        assert_eq!(extra_room(36.0, &mut after), 0.0);
        // Close with enough tracks in all: one track more.
        assert_eq!(extra_room(200.0, &mut close), TRACK);
    }
}
