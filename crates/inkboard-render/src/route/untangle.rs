//! Untangling (step 3c of a page's layout, after straightening): two lines that
//! meet the same side of the same shape and cross each other trade how they
//! arrive there: their ports, their last tracks, or both.
//!
//! Port spreading ([`ports`](super::ports)) orders the ends of a side by the
//! routes the search found, and the nudging ([`nudge`](super::nudge)) then sets
//! each line's tracks in its channel; the two do not always agree. A fan of
//! lines leaving a shape's bottom for shapes to its left, or arriving at a
//! shape's top from the right, then gets a crossing of two of its own lines
//! that no other drawing of the same shapes needs: the line to the farthest
//! shape took the inner port, or turned on the far track. Here each such pair
//! tries the three trades at that end (ports alone, last tracks alone, both),
//! and takes the one with the fewest crossings, if it has fewer than now and
//! both lines stay as good as they were on the terms of the straightening
//! ([`straight`](super::straight)): clear of shapes, [`MIN_SPACING`] from other
//! lines, off other labels' likely places.
//!
//! Only searched routes trade: a line drawn through the person's waypoints, a
//! planned route or a bus keeps its course. The ports of a side stay where they
//! were as a set, so their spacing does not change.
//!
//! Limitations: only the last corner of each line, one pair at a time; a fan
//! that needs three lines to pass their ends round (tried: it changed one
//! crossing in the benchmark's 3,958) keeps its crossings.

use inkboard_core::{Arrow, Point, Rect};

use crate::deadline::{Deadline, Stopped};
use crate::route::connectors::{Corners, Draft, Page};
use crate::route::nudge::MIN_SPACING;
use crate::route::orthogonal::simplify;
use crate::route::straight::{as_good, crossings_between, crossings_of, likely_label, MIN_END_LEG};
use crate::route::Side;

/// The most segment tests the pass may make on one page (as the straightening's).
const BUDGET: usize = 4_000_000;

/// Passes over the page: a trade can bring two other lines of a fan to cross.
const ROUNDS: usize = 3;

/// The most ends of one side looked at for trades: its pairs grow with the
/// square of its ends.
const MAX_FAN: usize = 16;

/// The shortest a leg may become when its track moves: room for a turn.
const MIN_LEG: f64 = MIN_SPACING;

/// One end of a route on a side of a shape: the connector and which end.
#[derive(Clone, Copy, Debug, PartialEq)]
struct SideEnd {
    conn: usize,
    at_end: bool,
}

/// What two lines trade at their shared side.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Trade {
    Ports,
    Tracks,
    Both,
}

/// Untangles the lines of `page` that cross another line ending on the same
/// side (see the module documentation).
pub(super) fn untangle(
    page: &Page,
    drafts: &[Draft],
    corners: &mut Corners,
    deadline: &Deadline,
) -> Result<(), Stopped> {
    let groups = groups(page, drafts, corners);
    if groups.is_empty() {
        return Ok(());
    }
    let mut labels: Vec<Option<Rect>> = (0..corners.len())
        .map(|k| likely_label(page, corners, k))
        .collect();
    let mut work = 0usize;
    for _ in 0..ROUNDS {
        let mut changed = false;
        for (side, ends) in &groups {
            if work > BUDGET {
                return Ok(());
            }
            for [a, b] in tangles(ends, corners, &mut work) {
                if work > BUDGET {
                    return Ok(());
                }
                deadline.check()?;
                // A trade of an earlier pair this round may have undone it.
                if !cross(corners, a.conn, b.conn) {
                    continue;
                }
                let at = Trading {
                    page,
                    drafts,
                    labels: &labels,
                    side: *side,
                };
                if let Some(routes) = at.best(corners, [a, b], &mut work) {
                    for (m, route) in [a, b].iter().zip(routes) {
                        corners[m.conn] = Some(route);
                        labels[m.conn] = likely_label(page, corners, m.conn);
                    }
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    Ok(())
}

/// The pairs of ends of one side whose lines cross, among its first
/// [`MAX_FAN`] ends.
fn tangles(ends: &[SideEnd], corners: &Corners, work: &mut usize) -> Vec<[SideEnd; 2]> {
    let ends = &ends[..ends.len().min(MAX_FAN)];
    let mut out = Vec::new();
    let len = |k: usize| corners[k].as_ref().map_or(0, Vec::len);
    for (i, a) in ends.iter().enumerate() {
        for b in &ends[i + 1..] {
            *work += len(a.conn) * len(b.conn);
            if a.conn != b.conn && cross(corners, a.conn, b.conn) {
                out.push([*a, *b]);
            }
        }
    }
    out
}

/// The ends of searched routes, grouped by the side of the shape they meet
/// (only sides met by two or more).
fn groups(page: &Page, drafts: &[Draft], corners: &Corners) -> Vec<(Side, Vec<SideEnd>)> {
    let mut by_side: std::collections::BTreeMap<(usize, Side), (Side, Vec<SideEnd>)> =
        Default::default();
    for (k, draft) in drafts.iter().enumerate() {
        let Draft::Searched { sides, .. } = draft else {
            continue;
        };
        if corners[k].as_ref().is_none_or(|p| p.len() < 3) {
            continue;
        }
        let (a, b) = &page.ends[k];
        for (end, side, at_end) in [(a, sides.0, false), (b, sides.1, true)] {
            let (Some(object), Some(side)) = (end.object, side) else {
                continue;
            };
            if end.shape.is_point() {
                continue;
            }
            by_side
                .entry((object, side))
                .or_insert_with(|| (side, Vec::new()))
                .1
                .push(SideEnd { conn: k, at_end });
        }
    }
    by_side.into_values().filter(|(_, e)| e.len() > 1).collect()
}

/// Whether the routes of connectors `a` and `b` cross each other.
fn cross(corners: &Corners, a: usize, b: usize) -> bool {
    let (Some(pa), Some(pb)) = (&corners[a], &corners[b]) else {
        return false;
    };
    crossings_between(pa, pb) > 0
}

/// What a trade is judged against: the page, and the side its ends share.
struct Trading<'a, 'p> {
    page: &'a Page<'p>,
    drafts: &'a [Draft],
    labels: &'a [Option<Rect>],
    side: Side,
}

impl Trading<'_, '_> {
    /// The trade between the two ends `members` of one side that crosses
    /// least, if it crosses less than now and both routes stay as good (see
    /// the module documentation): their new routes.
    fn best(
        &self,
        corners: &mut Corners,
        members: [SideEnd; 2],
        work: &mut usize,
    ) -> Option<[Vec<Point>; 2]> {
        let olds = [
            corners[members[0].conn].clone()?,
            corners[members[1].conn].clone()?,
        ];
        let now = set_crossings(corners, &members, work);
        let mut best: Option<(usize, [Vec<Point>; 2])> = None;
        for trade in [Trade::Ports, Trade::Tracks, Trade::Both] {
            // Each end takes from the other.
            let take = |i: usize| {
                let (m, other) = (members[i], members[1 - i]);
                let least = self.far_leg(&m);
                let theirs = &olds[1 - i];
                traded(
                    &olds[i],
                    m.at_end,
                    theirs,
                    other.at_end,
                    self.side,
                    trade,
                    least,
                )
            };
            let (Some(a), Some(b)) = (take(0), take(1)) else {
                continue;
            };
            corners[members[0].conn] = Some(a.clone());
            corners[members[1].conn] = Some(b.clone());
            let count = set_crossings(corners, &members, work);
            let better = count < now && best.as_ref().is_none_or(|(c, _)| count < *c);
            let good = |k: usize, work: &mut usize| {
                let route = corners[k].as_deref().unwrap_or_default();
                as_good(
                    self.page,
                    self.drafts,
                    corners,
                    self.labels,
                    k,
                    route,
                    false,
                    work,
                )
            };
            if better && members.iter().all(|m| good(m.conn, work)) {
                best = Some((count, [a, b]));
            }
        }
        let [a, b] = olds;
        corners[members[0].conn] = Some(a);
        corners[members[1].conn] = Some(b);
        best.map(|(_, news)| news)
    }

    /// The shortest the first leg of end `m`'s route may become, counted from
    /// its other end: room for an arrowhead there, else for a turn.
    fn far_leg(&self, m: &SideEnd) -> f64 {
        let c = self.page.connectors[m.conn].1;
        let far = if m.at_end { c.start_arrow } else { c.end_arrow };
        if far == Arrow::None {
            MIN_LEG
        } else {
            MIN_END_LEG
        }
    }
}

/// The crossings of the lines of `members` with every line, those between
/// them counted once.
fn set_crossings(corners: &Corners, members: &[SideEnd], work: &mut usize) -> usize {
    let mut count = 0;
    for (i, m) in members.iter().enumerate() {
        let Some(p) = &corners[m.conn] else { continue };
        count += crossings_of(p, corners, m.conn, work);
        for o in &members[i + 1..] {
            if let Some(q) = &corners[o.conn] {
                count -= crossings_between(p, q);
            }
        }
    }
    count
}

/// Route `mine` with its end (`at_end`, else its start) on `side` given what
/// `trade` takes from `theirs`'s end on the same side: its port (the leg moves
/// along the side with it), its last track (the leg before moves across with
/// it), or both. `None` when the route has no such leg and track to trade, or a
/// leg would turn back or become shorter than [`MIN_LEG`] (`far_least` for the
/// leg from the route's other end).
fn traded(
    mine: &[Point],
    at_end: bool,
    theirs: &[Point],
    their_end: bool,
    side: Side,
    trade: Trade,
    far_least: f64,
) -> Option<Vec<Point>> {
    let mut me: Vec<Point> = mine.to_vec();
    if !at_end {
        me.reverse();
    }
    let mut them: Vec<Point> = theirs.to_vec();
    if !their_end {
        them.reverse();
    }
    let (n, m) = (me.len(), them.len());
    if n < 3 || m < 3 {
        return None;
    }
    // Along the side, and across it (the axis the legs run on).
    let along = |p: Point| side.coord(p);
    let across = |p: Point| if side.is_vertical() { p.x } else { p.y };
    let point = |t: f64, d: f64| {
        if side.is_vertical() {
            Point { x: d, y: t }
        } else {
            Point { x: t, y: d }
        }
    };
    // Each route ends with a leg across the side from its last track.
    let shaped = |r: &[Point], n: usize| {
        (along(r[n - 1]) - along(r[n - 2])).abs() < 1e-6
            && (across(r[n - 2]) - across(r[n - 3])).abs() < 1e-6
    };
    if !shaped(&me, n) || !shaped(&them, m) {
        return None;
    }
    let port = if matches!(trade, Trade::Ports | Trade::Both) {
        them[m - 1]
    } else {
        me[n - 1]
    };
    let track = if matches!(trade, Trade::Tracks | Trade::Both) {
        across(them[m - 2])
    } else {
        across(me[n - 2])
    };
    if (across(port) - track).abs() < MIN_LEG {
        return None;
    }
    if track != across(me[n - 2]) {
        // The track moves: the leg into it (before the last track) must keep
        // its direction and room for a turn.
        if n < 4 || (along(me[n - 4]) - along(me[n - 3])).abs() > 1e-6 {
            return None;
        }
        let before = across(me[n - 4]);
        let was = across(me[n - 3]) - before;
        let now = track - before;
        // A first leg from the route's other end keeps what that end needs.
        let least = if n == 4 { far_least } else { MIN_LEG };
        if was.signum() != now.signum() || now.abs() < least {
            return None;
        }
        me[n - 3] = point(along(me[n - 3]), track);
    }
    me[n - 2] = point(along(port), track);
    me[n - 1] = port;
    simplify(&mut me);
    if !at_end {
        me.reverse();
    }
    (me.len() >= 2).then_some(me)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    /// Two lines into the top of a shape at y = 100 from the right, the one
    /// from farther right on the inner port and the far track: they cross.
    fn crossed() -> (Vec<Point>, Vec<Point>) {
        let far = vec![p(210.0, 0.0), p(210.0, 60.0), p(40.0, 60.0), p(40.0, 100.0)];
        let near = vec![p(190.0, 0.0), p(190.0, 75.0), p(60.0, 75.0), p(60.0, 100.0)];
        (far, near)
    }

    #[test]
    fn the_two_lines_cross_until_they_trade() {
        let (far, near) = crossed();
        let corners: Corners = vec![Some(far.clone()), Some(near.clone())];
        assert!(cross(&corners, 0, 1));
        let far2 = traded(&far, true, &near, true, Side::Top, Trade::Both, MIN_END_LEG).unwrap();
        let near2 = traded(&near, true, &far, true, Side::Top, Trade::Both, MIN_END_LEG).unwrap();
        assert_eq!(
            far2,
            vec![p(210.0, 0.0), p(210.0, 75.0), p(60.0, 75.0), p(60.0, 100.0)]
        );
        assert_eq!(
            near2,
            vec![p(190.0, 0.0), p(190.0, 60.0), p(40.0, 60.0), p(40.0, 100.0)]
        );
        let corners: Corners = vec![Some(far2), Some(near2)];
        assert!(!cross(&corners, 0, 1));
    }

    #[test]
    fn a_start_trades_as_an_end_does() {
        // The same two lines drawn from the shape: they leave by its top.
        let (far, near) = crossed();
        let rev = |v: &Vec<Point>| v.iter().rev().copied().collect::<Vec<_>>();
        let far2 = traded(
            &rev(&far),
            false,
            &rev(&near),
            false,
            Side::Top,
            Trade::Both,
            MIN_END_LEG,
        );
        assert_eq!(
            far2,
            Some(rev(&vec![
                p(210.0, 0.0),
                p(210.0, 75.0),
                p(60.0, 75.0),
                p(60.0, 100.0)
            ]))
        );
    }

    #[test]
    fn a_leg_that_would_turn_back_is_no_trade() {
        // A track above where the route's first leg starts would turn it back.
        let mine = vec![
            p(210.0, 50.0),
            p(210.0, 60.0),
            p(40.0, 60.0),
            p(40.0, 100.0),
        ];
        let theirs = vec![p(190.0, 0.0), p(190.0, 30.0), p(60.0, 30.0), p(60.0, 100.0)];
        assert_eq!(
            traded(
                &mine,
                true,
                &theirs,
                true,
                Side::Top,
                Trade::Tracks,
                MIN_END_LEG
            ),
            None
        );
        // Trading ports alone keeps the leg.
        assert!(traded(
            &mine,
            true,
            &theirs,
            true,
            Side::Top,
            Trade::Ports,
            MIN_END_LEG
        )
        .is_some());
    }
}
