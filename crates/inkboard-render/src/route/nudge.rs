//! Nudging: moving the segments of orthogonal routes sideways, after the search,
//! so that parallel segments sharing a channel lie side by side instead of on top of
//! each other, and so that lone segments sit where a person would draw them.
//!
//! Routes from [`crate::route::orthogonal`] run on grid lines, which hug the shapes at
//! [`CLEARANCE`] and are shared by every route passing the same way. Each segment
//! may move across its direction within its channel: the free band between the
//! nearest obstacles on either side, over the segment's extent, less [`CLEARANCE`],
//! without shortening its neighbours below [`MIN_LEG`] (or [`CLEARANCE`] for a
//! neighbour leaving a port), and, for a route's first or last segment, only as far
//! as its port may slide along its side (a free end stays put). A port's segment
//! stays where it is unless a bundle pushes it aside; an inner segment's ideal
//! place depends on its neighbours:
//!
//! - a segment whose neighbours leave to opposite sides (the middle of a Z) can move
//!   without changing the route's length, so it goes to the middle of its range;
//! - one whose neighbours leave to the same side (a U around an obstacle) would grow
//!   by moving away, so it only keeps [`COMFORT`] from the obstacle it goes round;
//! - either way, a leg ending at a port keeps [`MIN_STUB`] when it can, room for an
//!   arrowhead.
//!
//! Segments whose ideal places are closer than [`SPACING`] and whose extents overlap
//! form a bundle. A bundle is ordered pair by pair, each pair of members side by
//! side (their extents overlap) so that their turns cross least, and each member
//! takes the lowest track above every earlier member beside it that is better on
//! its left, and off the tracks of the others beside it: members that are not
//! side by side share tracks, as in ELK's orthogonal router, and a pair whose
//! turns cross as often either way round may go either way. Where that order
//! needs more tracks than the members' room holds (hiding lines, or setting them
//! closer than [`MIN_SPACING`]), the bundle is packed onto the fewest instead (an
//! interval colouring) when that is less crowded, at the price of some crossings. The
//! tracks are spread [`SPACING`] apart around their members' ideal places, each
//! member kept in its range; a bundle whose room cannot hold it at [`SPACING`] is
//! spaced closer, down to [`MIN_SPACING`]. Two bundles that spread into each
//! other (members side by side closer than [`MIN_SPACING`]) become one and are
//! placed again. Vertical segments move first, then horizontal ones (the same
//! code on the transposed picture), and then both twice more.
//!
//! Limitations: a bundle wider than its channel even on the fewest tracks is
//! squeezed against the channel's sides and its members may touch; two bundles
//! of more than [`MAX_MERGED`] members together are not merged, and may end up
//! close; ordering and tracks are quadratic in a bundle's members.

use std::collections::BTreeMap;

use inkboard_core::{Point, Rect};

use crate::route::buckets::Buckets;
use crate::route::orthogonal::CLEARANCE;

/// The distance between parallel segments of a bundle.
pub(crate) const SPACING: f64 = 12.0;
/// The least distance between parallel segments of a bundle, where its room
/// does not hold it at [`SPACING`] (`layout` widens the gaps between layers
/// where lines come closer: the crate's `MIN_LINE_GAP`).
pub const MIN_SPACING: f64 = 8.0;
/// The most members two bundles that spread into each other may have together
/// to be merged and placed again as one (see [`pass`]). Drawn diagrams have a few
/// dozen at most; a page of thousands of routes could chain a channel's bundles
/// into one of thousands, and ordering one is quadratic.
const MAX_MERGED: usize = 64;
/// The distance a segment going round an obstacle keeps from it, room permitting.
const COMFORT: f64 = 24.0;
/// The length a route's first and last legs keep, room permitting.
const MIN_STUB: f64 = 24.0;
/// The shortest a leg may become by nudging its neighbour.
const MIN_LEG: f64 = 4.0;

/// One route to nudge.
pub(crate) struct Path<'a> {
    /// Its corners.
    pub points: &'a mut Vec<Point>,
    /// For its start and end, where along the side of its shape the port may move
    /// (taking the first or last segment along), as a range of the coordinate
    /// across that segment; `None` for an end that stays put (a free end).
    pub ports: [Option<(f64, f64)>; 2],
    /// The obstacles (ascending indices into the obstacle list) this route may
    /// cross, which do not bound its channels.
    pub lifted: &'a [usize],
}

/// Nudges `paths` among `obstacles` (plain boxes). See the module documentation.
pub(crate) fn nudge(paths: &mut [Path], obstacles: &[Rect]) {
    let flip = |p: &mut Point| std::mem::swap(&mut p.x, &mut p.y);
    let flipped: Vec<Rect> = obstacles
        .iter()
        .map(|o| Rect::new(o.y, o.x, o.h, o.w))
        .collect();
    // Three times round: moving the horizontal segments changes the extents of
    // the vertical ones, which may then meet (two port legs 6 px apart, each
    // beside nothing when its bundle was placed), and the other way round.
    for _ in 0..3 {
        pass(paths, obstacles);
        for p in paths.iter_mut() {
            p.points.iter_mut().for_each(flip);
        }
        pass(paths, &flipped);
        for p in paths.iter_mut() {
            p.points.iter_mut().for_each(flip);
        }
    }
}

/// A vertical segment that may move along x.
#[derive(Clone, Debug)]
struct Piece {
    path: usize,
    /// Its first point's index in the route.
    k: usize,
    x: f64,
    /// Its extent along y.
    y0: f64,
    y1: f64,
    /// Where it may go.
    lo: f64,
    hi: f64,
    ideal: f64,
    /// Where its neighbours at the top and bottom ends go: -1 left, 1 right, 0 none.
    turn0: i8,
    turn1: i8,
}

/// Nudges the vertical segments.
fn pass(paths: &mut [Path], obstacles: &[Rect]) {
    let near = Near::new(obstacles);
    let mut pieces = Vec::new();
    for (r, path) in paths.iter().enumerate() {
        let pts = &path.points;
        let n = pts.len();
        for k in 0..n.saturating_sub(1) {
            let (a, b) = (pts[k], pts[k + 1]);
            if (a.x - b.x).abs() > 1e-9 || (a.y - b.y).abs() < 1e-9 {
                continue;
            }
            let x = a.x;
            let turn = |i: Option<usize>| -> i8 {
                match i.map(|i| pts[i].x - x) {
                    Some(d) if d < -1e-9 => -1,
                    Some(d) if d > 1e-9 => 1,
                    _ => 0,
                }
            };
            let before = turn(k.checked_sub(1));
            let after = turn((k + 2 < n).then_some(k + 2));
            let (y0, y1, turn0, turn1) = if a.y < b.y {
                (a.y, b.y, before, after)
            } else {
                (b.y, a.y, after, before)
            };
            let mut piece = Piece {
                path: r,
                k,
                x,
                y0,
                y1,
                lo: x,
                hi: x,
                ideal: x,
                turn0,
                turn1,
            };
            // A port's segment moves with its port, along the side.
            let port = match (k == 0, k + 2 == n) {
                (false, false) => Some((f64::NEG_INFINITY, f64::INFINITY)),
                (true, false) => path.ports[0],
                (false, true) => path.ports[1],
                (true, true) => path.ports[0]
                    .zip(path.ports[1])
                    .map(|(a, b)| (a.0.max(b.0), a.1.min(b.1))),
            };
            if let Some(port) = port {
                room(&mut piece, pts, path.lifted, &near, port);
            }
            pieces.push(piece);
        }
    }
    pieces.sort_by(|a, b| a.ideal.total_cmp(&b.ideal));

    // Bundles: overlapping extents and ideal places within SPACING, transitively.
    let mut parent: Vec<usize> = (0..pieces.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for i in 0..pieces.len() {
        for j in i + 1..pieces.len() {
            if pieces[j].ideal - pieces[i].ideal >= SPACING - 1e-9 {
                break;
            }
            if beside(&pieces[i], &pieces[j]) {
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let mut place = vec![0.0; pieces.len()];
    let mut size = vec![0usize; pieces.len()];
    for i in 0..pieces.len() {
        size[root(&mut parent, i)] += 1;
    }
    let mut todo: Vec<usize> = (0..pieces.len()).filter(|&i| parent[i] == i).collect();
    // Bundles placed apart may still spread into each other: two that end up
    // closer than MIN_SPACING are merged and placed again as one, until none do
    // (each round merges, so this ends), as long as the merged bundle has at
    // most MAX_MERGED members: placing one is quadratic in its members.
    while !todo.is_empty() {
        let mut members: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for i in 0..pieces.len() {
            let r = root(&mut parent, i);
            if todo.binary_search(&r).is_ok() {
                members.entry(r).or_default().push(i);
            }
        }
        for bundle in members.values() {
            for (i, x) in placed(&pieces, bundle) {
                place[i] = x;
            }
        }
        let mut by_place: Vec<usize> = (0..pieces.len()).collect();
        by_place.sort_by(|&a, &b| place[a].total_cmp(&place[b]));
        let mut merged = Vec::new();
        for (k, &i) in by_place.iter().enumerate() {
            for &j in &by_place[k + 1..] {
                if place[j] - place[i] >= MIN_SPACING - 1e-6 {
                    break;
                }
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                let fits = size[a] + size[b] <= MAX_MERGED;
                if a != b && fits && beside(&pieces[i], &pieces[j]) {
                    let (keep, gone) = (a.min(b), a.max(b));
                    parent[gone] = keep;
                    size[keep] += size[gone];
                    merged.push(keep);
                }
            }
        }
        todo = merged.into_iter().map(|r| root(&mut parent, r)).collect();
        todo.sort_unstable();
        todo.dedup();
    }
    for (p, &x) in pieces.iter().zip(&place) {
        if (x - p.x).abs() > 1e-9 {
            let pts = &mut paths[p.path].points;
            pts[p.k].x = x;
            pts[p.k + 1].x = x;
        }
    }
}

/// Where the members of a bundle (indices into `pieces`) go: ordered so their
/// turns cross least, on shared tracks, or packed onto the fewest where that
/// hides fewer lines (see the module documentation).
fn placed(pieces: &[Piece], bundle: &[usize]) -> Vec<(usize, f64)> {
    let mut order = bundle.to_vec();
    // Insertion sort: the order below need not be transitive, which a library
    // sort may not accept.
    for i in 1..order.len() {
        let mut j = i;
        while j > 0 && before(&pieces[order[j]], &pieces[order[j - 1]]) {
            order.swap(j, j - 1);
            j -= 1;
        }
    }
    let order: Vec<usize> = {
        let sorted: Vec<&Piece> = order.iter().map(|&i| &pieces[i]).collect();
        untangled(&sorted).into_iter().map(|k| order[k]).collect()
    };
    let mut members: Vec<&Piece> = order.iter().map(|&i| &pieces[i]).collect();
    let mut xs = spread(&members);
    // An order that needs more tracks than the members' ranges hold hides
    // lines on each other, or sets them closer than MIN_SPACING: then the
    // fewest tracks, at the price of some crossings, if that hides fewer or,
    // as few, sets fewer close.
    let mut order = order;
    let crowded = crowding(&members, &xs);
    if crowded != (0, 0) {
        let fewer: Vec<usize> = packed(&members).into_iter().map(|k| order[k]).collect();
        let others: Vec<&Piece> = fewer.iter().map(|&i| &pieces[i]).collect();
        let spread_out = spread(&others);
        if crowding(&others, &spread_out) < crowded {
            (order, members, xs) = (fewer, others, spread_out);
        }
    }
    // A bundle squeezed by its members' ranges may bring members side by
    // side closer than they were: it stays as it was unless the new places
    // hide fewer lines on each other, or as few and bring fewer closer than
    // MIN_SPACING.
    let was: Vec<f64> = members.iter().map(|p| p.x).collect();
    if crowding(&members, &xs) > crowding(&members, &was) {
        xs = was;
    }
    order.into_iter().zip(xs).collect()
}

/// The obstacles, bucketed so that a segment's channel is found among those level
/// with it only.
struct Near<'a> {
    obstacles: &'a [Rect],
    area: Rect,
    cells: Buckets,
}

impl<'a> Near<'a> {
    fn new(obstacles: &'a [Rect]) -> Self {
        let area = obstacles
            .iter()
            .copied()
            .reduce(|a, b| a.union(&b))
            .unwrap_or_default();
        let mut cells = Buckets::new(area, obstacles.len());
        for (i, o) in obstacles.iter().enumerate() {
            cells.insert(*o, i as u32);
        }
        Near {
            obstacles,
            area,
            cells,
        }
    }
}

/// Works out where a segment may go (within `port` too, the range of its port for
/// a first or last segment) and where it would best be.
fn room(p: &mut Piece, pts: &[Point], lifted: &[usize], near: &Near, port: (f64, f64)) {
    let x = p.x;
    // The channel: the nearest obstacle edges left and right over the extent (grown
    // by the clearance along it, so that the turns at its ends stay clear too).
    let (mut left, mut right) = (f64::NEG_INFINITY, f64::INFINITY);
    let band = Rect::new(
        near.area.x,
        p.y0 - CLEARANCE,
        near.area.w,
        p.y1 - p.y0 + 2.0 * CLEARANCE,
    );
    let mut found = Vec::new();
    near.cells.query(&band, &mut found);
    for i in found.into_iter().map(|i| i as usize) {
        let o = &near.obstacles[i];
        if o.y - CLEARANCE >= p.y1 || o.bottom() + CLEARANCE <= p.y0 {
            continue;
        }
        if lifted.binary_search(&i).is_ok() {
            continue;
        }
        if o.right() <= x + 1e-6 {
            left = left.max(o.right());
        } else if o.x >= x - 1e-6 {
            right = right.min(o.x);
        }
    }
    let mut lo = (left + CLEARANCE).max(port.0).min(x);
    let mut hi = (right - CLEARANCE).min(port.1).max(x);
    // Neighbours keep their direction and some length.
    let n = pts.len();
    let mut want_lo = f64::NEG_INFINITY;
    let mut want_hi = f64::INFINITY;
    let neighbours = [
        (p.k.checked_sub(1), p.k == 1),
        ((p.k + 2 < n).then_some(p.k + 2), p.k + 3 == n),
    ];
    for (i, stub) in neighbours {
        let Some(i) = i else { continue };
        let end = pts[i].x;
        let keep = if stub { CLEARANCE } else { MIN_LEG };
        if end < x {
            lo = lo.max((end + keep).min(x));
            if stub {
                want_lo = end + MIN_STUB;
            }
        } else {
            hi = hi.min((end - keep).max(x));
            if stub {
                want_hi = end - MIN_STUB;
            }
        }
    }
    p.lo = lo;
    p.hi = hi;
    if p.k == 0 || p.k + 2 == n {
        // A port's segment stays where its port is unless pushed aside.
        return;
    }
    let turn = p.turn0 + p.turn1;
    let ideal = if turn == 0 {
        // A Z (or a segment between a turn and a route end): the middle of its room.
        if lo.is_finite() && hi.is_finite() {
            (lo + hi) / 2.0
        } else {
            x
        }
    } else if left.is_finite() && right.is_finite() && right - left < 2.0 * COMFORT {
        (left + right) / 2.0
    } else if turn < 0 {
        // A U opening to the left goes round something on its left.
        if left.is_finite() {
            x.max(left + COMFORT)
        } else {
            x
        }
    } else if right.is_finite() {
        x.min(right - COMFORT)
    } else {
        x
    };
    let ideal = ideal.max(want_lo).min(want_hi);
    p.ideal = ideal.clamp(lo, hi);
}

/// Whether `a` goes left of `b` in a bundle: by ideal place, then, for equal places,
/// by where their ends turn: where one segment ends inside the other's extent, it
/// goes on the side it turns to there, so that its turn does not cross the other.
fn before(a: &Piece, b: &Piece) -> bool {
    if (a.ideal - b.ideal).abs() > 0.5 {
        return a.ideal < b.ideal;
    }
    let eps = 1e-6;
    // At the top: the segment starting lower turns there.
    let top = if a.y0 > b.y0 + eps {
        a.turn0
    } else if b.y0 > a.y0 + eps {
        -b.turn0
    } else {
        (a.turn0 - b.turn0).signum()
    };
    if top != 0 {
        return top < 0;
    }
    let bottom = if a.y1 < b.y1 - eps {
        a.turn1
    } else if b.y1 < a.y1 - eps {
        -b.turn1
    } else {
        (a.turn1 - b.turn1).signum()
    };
    if bottom != 0 {
        return bottom < 0;
    }
    (a.path, a.k) < (b.path, b.k)
}

/// What it costs to set `a` left of `b`: each turn of `a` to the right within
/// `b`'s extent crosses `b`, as does each turn of `b` to the left within `a`'s
/// (ELK's orthogonal router counts the same to order a channel's segments). A
/// turn at the very end of the other's extent counts twice: the two turns there
/// run along one line.
fn crossings_if_left(a: &Piece, b: &Piece) -> u32 {
    let meets = |y: f64, p: &Piece| {
        if y > p.y0 + 0.5 && y < p.y1 - 0.5 {
            1
        } else if (y - p.y0).abs() <= 0.5 || (y - p.y1).abs() <= 0.5 {
            2
        } else {
            0
        }
    };
    let turning = |turn: i8, y: f64, p: &Piece| if turn == 0 { 0 } else { meets(y, p) };
    turning(a.turn0.max(0), a.y0, b)
        + turning(a.turn1.max(0), a.y1, b)
        + turning(b.turn0.min(0), b.y0, a)
        + turning(b.turn1.min(0), b.y1, a)
}

/// A bundle's order, left to right, from `sorted` (ordered by [`before`]): of two
/// members side by side, the one whose turns cross fewer lines when it goes
/// first goes first ([`crossings_if_left`]), ties as `sorted` has them. Members
/// not side by side are not ordered against each other, so they may share a
/// track ([`spread`]). Where the pairwise choices make a cycle, the member with
/// the fewest members still wanting to go before it goes next (a greedy cut, as
/// in ELK).
fn untangled(sorted: &[&Piece]) -> Vec<usize> {
    let n = sorted.len();
    let mut after: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut waiting = vec![0usize; n];
    for i in 0..n {
        for j in i + 1..n {
            if !beside(sorted[i], sorted[j]) {
                continue;
            }
            let (ij, ji) = (
                crossings_if_left(sorted[i], sorted[j]),
                crossings_if_left(sorted[j], sorted[i]),
            );
            let (first, second) = if ji < ij { (j, i) } else { (i, j) };
            after[first].push(second);
            waiting[second] += 1;
        }
    }
    let mut done = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for _ in 0..n {
        let next = (0..n)
            .filter(|&i| !done[i])
            .min_by_key(|&i| (waiting[i], i))
            .expect("a member is left");
        done[next] = true;
        order.push(next);
        for &k in &after[next] {
            waiting[k] = waiting[k].saturating_sub(1);
        }
    }
    order
}

/// Each member's track in an ordered bundle: the lowest above every earlier
/// member beside it that crosses fewer turns on its left, and other than the
/// track of every other earlier member beside it. A pair whose turns cross as
/// often either way round may go either way: a chain of such pairs, one beside
/// the next, does not climb a track each.
fn tracks(order: &[&Piece]) -> Vec<usize> {
    let mut track = vec![0usize; order.len()];
    let mut taken = Vec::new();
    for i in 0..order.len() {
        let mut floor = 0;
        taken.clear();
        for j in (0..i).filter(|&j| beside(order[j], order[i])) {
            if crossings_if_left(order[j], order[i]) < crossings_if_left(order[i], order[j]) {
                floor = floor.max(track[j] + 1);
            } else {
                taken.push(track[j]);
            }
        }
        track[i] = (floor..)
            .find(|t| !taken.contains(t))
            .expect("a free track");
    }
    track
}

/// `order` rearranged to need the fewest tracks: members taken by where their
/// extents start, each on the lowest track free there (an interval graph's
/// colouring, which needs no more tracks than members side by side at one
/// place), then listed track by track, keeping `order` within a track.
fn packed(order: &[&Piece]) -> Vec<usize> {
    let mut by_start: Vec<usize> = (0..order.len()).collect();
    by_start.sort_by(|&a, &b| order[a].y0.total_cmp(&order[b].y0).then(a.cmp(&b)));
    let mut ends: Vec<f64> = Vec::new();
    let mut track = vec![0usize; order.len()];
    for i in by_start {
        let p = order[i];
        let free = ends.iter().position(|&end| end <= p.y0 + 0.5);
        let t = free.unwrap_or_else(|| {
            ends.push(f64::NEG_INFINITY);
            ends.len() - 1
        });
        ends[t] = p.y1;
        track[i] = t;
    }
    let mut out: Vec<usize> = (0..order.len()).collect();
    out.sort_by_key(|&i| (track[i], i));
    out
}

/// How crowded `members` placed at `xs` are: the pairs side by side (their
/// extents overlap) on one line, where one hides the other, then the pairs side
/// by side closer than [`MIN_SPACING`].
fn crowding(members: &[&Piece], xs: &[f64]) -> (usize, usize) {
    let (mut hidden, mut close) = (0, 0);
    for i in 0..members.len() {
        for j in i + 1..members.len() {
            if !beside(members[i], members[j]) {
                continue;
            }
            let d = (xs[i] - xs[j]).abs();
            hidden += usize::from(d < 1.0);
            close += usize::from(d < MIN_SPACING - 1e-6);
        }
    }
    (hidden, close)
}

/// Whether two pieces lie side by side: their extents overlap.
fn beside(a: &Piece, b: &Piece) -> bool {
    a.y1.min(b.y1) - a.y0.max(b.y0) > 0.5
}

/// Places an ordered bundle. Members that lie side by side each get a track,
/// in the bundle's order; members that do not (one ends before the other
/// starts) may share one, as a channel's tracks are shared in ELK's orthogonal
/// router. Each member's track is the lowest above every earlier member beside
/// it, so a bundle needs only as many tracks as its longest such chain, not one
/// per member. The tracks are set as near their members' ideal places as they can
/// with [`SPACING`] between neighbours (pooling adjacent violators: a run of
/// tracks pushed together sits at the mean of what it wants), then each member is
/// clamped into its range, keeping the spacing from those beside it where the
/// ranges allow.
fn spread(order: &[&Piece]) -> Vec<f64> {
    let n = order.len();
    if n == 1 {
        return vec![order[0].ideal];
    }
    let track = tracks(order);
    let tracks = track.iter().max().map_or(1, |t| t + 1);
    // A bundle wider than its room at the full spacing is spaced closer, down to
    // [`MIN_SPACING`], rather than squeezed until its lines touch.
    let lo = order.iter().map(|p| p.lo).fold(f64::INFINITY, f64::min);
    let hi = order.iter().map(|p| p.hi).fold(f64::NEG_INFINITY, f64::max);
    let fits = (hi - lo) / tracks.saturating_sub(1).max(1) as f64;
    let step = if fits.is_finite() {
        fits.clamp(MIN_SPACING, SPACING)
    } else {
        SPACING
    };
    // The room as a whole may hold the step while some members, held in a
    // narrower range (lines squeezed between two shapes, beside one free to go
    // anywhere), cannot: then the largest step down to MIN_SPACING that keeps
    // every two members side by side that far apart.
    let mut xs = spread_at(order, &track, tracks, step);
    let mut closer = step;
    while gap(order, &xs) < closer - 1e-6 && closer > MIN_SPACING {
        closer = (closer - 1.0).max(MIN_SPACING);
        xs = spread_at(order, &track, tracks, closer);
    }
    xs
}

/// The least distance between two members of a bundle side by side.
fn gap(order: &[&Piece], xs: &[f64]) -> f64 {
    let mut least = f64::INFINITY;
    for i in 0..order.len() {
        for j in i + 1..order.len() {
            if beside(order[i], order[j]) {
                least = least.min((xs[i] - xs[j]).abs());
            }
        }
    }
    least
}

/// [`spread`] with tracks `step` apart.
fn spread_at(order: &[&Piece], track: &[usize], tracks: usize, step: f64) -> Vec<f64> {
    let n = order.len();
    // What each track wants: the mean of its members' ideal places.
    let mut wants = vec![(0.0, 0usize); tracks];
    for (p, &t) in order.iter().zip(track) {
        wants[t].0 += p.ideal;
        wants[t].1 += 1;
    }
    // Blocks of consecutive tracks: (first track, count, sum of wanted starts).
    let mut blocks: Vec<(usize, usize, f64)> = Vec::new();
    for (t, &(sum, count)) in wants.iter().enumerate() {
        blocks.push((t, 1, sum / count.max(1) as f64));
        while blocks.len() > 1 {
            let (_, c1, t1) = blocks[blocks.len() - 1];
            let (s0, c0, t0) = blocks[blocks.len() - 2];
            let start0 = t0 / c0 as f64;
            let start1 = t1 / c1 as f64;
            if start0 + c0 as f64 * step <= start1 + 1e-9 {
                break;
            }
            // Merge: each track of the second block wants to start c0 places later.
            let shifted = t1 - c1 as f64 * c0 as f64 * step;
            blocks.pop();
            blocks.pop();
            blocks.push((s0, c0 + c1, t0 + shifted));
        }
    }
    let mut at = vec![0.0; tracks];
    for (s, c, t) in blocks {
        let start = t / c as f64;
        for j in 0..c {
            at[s + j] = start + j as f64 * step;
        }
    }
    let mut xs: Vec<f64> = order
        .iter()
        .zip(track)
        .map(|(p, &t)| at[t].clamp(p.lo, p.hi))
        .collect();
    // Members track by track (those on one track are never side by side).
    let mut seq: Vec<usize> = (0..n).collect();
    seq.sort_by_key(|&i| (track[i], i));
    for p in 1..n {
        let i = seq[p];
        let want = seq[..p]
            .iter()
            .filter(|&&j| beside(order[j], order[i]))
            .map(|&j| xs[j] + step)
            .fold(f64::NEG_INFINITY, f64::max);
        if xs[i] < want {
            xs[i] = want.min(order[i].hi).max(xs[i]);
        }
    }
    for p in (0..n - 1).rev() {
        let i = seq[p];
        let want = seq[p + 1..]
            .iter()
            .filter(|&&j| beside(order[j], order[i]))
            .map(|&j| xs[j] - step)
            .fold(f64::INFINITY, f64::min);
        if xs[i] > want {
            xs[i] = want.max(order[i].lo).min(xs[i]);
        }
    }
    xs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    /// A piece along y from `y0` to `y1`, free to go anywhere, wanting `x`.
    fn piece(path: usize, x: f64, y0: f64, y1: f64) -> Piece {
        Piece {
            path,
            k: 1,
            x,
            y0,
            y1,
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
            ideal: x,
            turn0: 0,
            turn1: 0,
        }
    }

    #[test]
    fn lines_squeezed_beside_a_free_one_keep_min_spacing() {
        // Three lines held between two shapes (x 1652..1668, 16 px) and a fourth
        // free to go anywhere, all side by side: the room as a whole holds the
        // full spacing, the three do not. They were set 4 px apart (sdh); now
        // the spacing comes down until the three fit it.
        let held = |path: usize, x: f64| Piece {
            lo: 1652.0,
            hi: 1668.0,
            ..piece(path, x, 0.0, 1000.0)
        };
        let (a, b, c) = (held(0, 1652.0), held(1, 1660.0), held(2, 1661.0));
        let free = Piece {
            lo: 1652.0,
            ..piece(3, 1664.0, 100.0, 900.0)
        };
        let xs = spread(&[&a, &b, &c, &free]);
        let order = [&a, &b, &c, &free];
        assert!(gap(&order, &xs) >= MIN_SPACING - 1e-6, "{xs:?}");
        assert!(
            xs[..3].iter().all(|x| (1652.0..=1668.0).contains(x)),
            "{xs:?}"
        );
    }

    #[test]
    fn pieces_not_side_by_side_share_a_track() {
        // a and c do not meet; b lies beside both: two tracks, not three.
        let (a, b, c) = (
            piece(0, 0.0, 0.0, 100.0),
            piece(1, 0.0, 50.0, 200.0),
            piece(2, 0.0, 150.0, 250.0),
        );
        assert_eq!(tracks(&[&a, &c, &b]), vec![0, 0, 1]);
        let xs = spread(&[&a, &c, &b]);
        assert_eq!(xs[0], xs[1], "{xs:?}");
        assert!((xs[2] - xs[0]).abs() >= SPACING - 1e-9, "{xs:?}");
        // Chained in that order (b between a and c) with no turns to cross, c
        // need only keep off b's track: a and c still share one.
        assert_eq!(tracks(&[&a, &b, &c]), vec![0, 1, 0]);
        // Where each turns left inside the next (a at 100 inside b, b at 200
        // inside c), each is better left of the next: the chain climbs three
        // tracks, and packing finds two, at the price of a crossing.
        let (mut a, mut b) = (a, b);
        a.turn1 = -1;
        b.turn1 = -1;
        assert_eq!(crossings_if_left(&b, &a), 1);
        assert_eq!(crossings_if_left(&a, &b), 0);
        let chained = [&a, &b, &c];
        assert_eq!(tracks(&chained), vec![0, 1, 2]);
        let order = packed(&chained);
        let reordered: Vec<&Piece> = order.iter().map(|&i| chained[i]).collect();
        assert_eq!(tracks(&reordered).iter().max(), Some(&1));
        // Given in any order, they are untangled into a, b, c, left to right.
        let given = [&c, &b, &a];
        let order: Vec<&Piece> = untangled(&given).into_iter().map(|k| given[k]).collect();
        assert_eq!(order.iter().map(|p| p.path).collect::<Vec<_>>(), [0, 1, 2]);
        let xs = spread(&order);
        assert!(
            xs[1] - xs[0] >= SPACING - 1e-9 && xs[2] - xs[1] >= SPACING - 1e-9,
            "{xs:?}"
        );
    }

    #[test]
    fn a_turn_onto_the_other_end_costs_more_than_one_crossing() {
        // Both end at y = 100; a turns right there, b turns left: a left of b
        // would run both turns along one line.
        let mut a = piece(0, 0.0, 0.0, 100.0);
        let mut b = piece(1, 0.0, 20.0, 100.0);
        a.turn1 = 1;
        b.turn1 = -1;
        assert_eq!(crossings_if_left(&a, &b), 4);
        assert_eq!(crossings_if_left(&b, &a), 0);
        assert_eq!(untangled(&[&a, &b]), vec![1, 0]);
    }

    #[test]
    fn two_zs_in_one_gap_are_spread_around_its_middle() {
        // Two shapes on the left, two on the right; each route is a Z whose middle
        // runs down the gap at the same x.
        let obstacles = [
            Rect::new(0.0, 0.0, 100.0, 50.0),
            Rect::new(0.0, 100.0, 100.0, 50.0),
            Rect::new(300.0, 0.0, 100.0, 50.0),
            Rect::new(300.0, 100.0, 100.0, 50.0),
        ];
        let mut a = vec![
            p(100.0, 25.0),
            p(112.0, 25.0),
            p(112.0, 125.0),
            p(300.0, 125.0),
        ];
        let mut b = vec![
            p(100.0, 20.0),
            p(112.0, 20.0),
            p(112.0, 130.0),
            p(300.0, 130.0),
        ];
        let mut paths = [
            Path {
                points: &mut a,
                ports: [None, None],
                lifted: &[],
            },
            Path {
                points: &mut b,
                ports: [None, None],
                lifted: &[],
            },
        ];
        nudge(&mut paths, &obstacles);
        let (xa, xb) = (a[1].x, b[1].x);
        assert!((xa - xb).abs() >= SPACING - 1e-9, "{a:?} {b:?}");
        assert!(((xa + xb) / 2.0 - 200.0).abs() < 1e-6, "{a:?} {b:?}");
        // a starts lower and turns left there, so it goes left of b (one crossing
        // is unavoidable for nested Zs; this order puts it at the bottom).
        assert!(xa < xb, "{a:?} {b:?}");
    }

    #[test]
    fn bundles_that_spread_into_each_other_are_placed_as_one() {
        // Three nested Zs want the middle of the gap, x = 200, and spread to
        // 188, 200 and 212; a line with free ends stays at 214, 14 px from
        // their wish and so in a bundle of its own, but 2 px from their spread.
        let obstacles = [
            Rect::new(0.0, 0.0, 100.0, 150.0),
            Rect::new(300.0, 0.0, 100.0, 150.0),
        ];
        let z = |y0: f64, y1: f64| vec![p(100.0, y0), p(200.0, y0), p(200.0, y1), p(300.0, y1)];
        let (mut a, mut b, mut c) = (z(20.0, 130.0), z(25.0, 125.0), z(30.0, 120.0));
        let mut fixed = vec![p(214.0, 10.0), p(214.0, 140.0)];
        let mut paths: Vec<Path> = [&mut a, &mut b, &mut c, &mut fixed]
            .into_iter()
            .map(|points| Path {
                points,
                ports: [None, None],
                lifted: &[],
            })
            .collect();
        nudge(&mut paths, &obstacles);
        let xs = [a[1].x, b[1].x, c[1].x, fixed[0].x];
        assert_eq!(xs[3], 214.0);
        for i in 0..4 {
            for j in i + 1..4 {
                assert!((xs[i] - xs[j]).abs() >= MIN_SPACING - 1e-9, "{xs:?}");
            }
        }
    }
}
