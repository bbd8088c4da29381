//! The grid of one search window and the A* search on it, for [`Router`]
//! (`orthogonal.rs`, whose module documentation describes both): the lines of the
//! grid, the edges obstacles block, the earlier routes each edge crosses and the
//! channels they run along, and the search's memory, reused from search to search.
//!
//! [`Router`]: super::orthogonal::Router

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use inkboard_core::{Point, Rect};

use crate::route::nudge::SPACING;
use crate::route::orthogonal::{simplify, Dir, Found, Port};

/// What a bend costs, in pixels of length: a route takes a detour up to this long to
/// save one bend.
pub(super) const BEND: f64 = 40.0;
/// What crossing an earlier route costs, in pixels of length.
pub(super) const CROSSING: f64 = 24.0;
/// What each grid edge inside an earlier connector's label box costs, in
/// crossings ([`CROSSING`] each; 480 px): more than going round it by four
/// bends and a detour, so a route keeps off a label wherever it has room to.
/// Only labels with no room to move aside are such boxes (`labels::likely`).
pub(super) const LABEL_WEIGHT: u8 = 20;
/// What running along an earlier route costs, per pixel, where the channel has no
/// room to set another line beside it.
const CROWDING: f64 = 1.0;
/// On grids larger than [`EXACT_NODES`], the heuristic counts this much, which
/// makes the search greedy: it finds a route in a fraction of the steps, one that
/// may cost a little more than the best (at most this factor, in practice much
/// less).
const GREED: f32 = 1.25;
/// The largest grid searched for the very best route.
const EXACT_NODES: usize = 4096;
/// A channel that holds this many lines side by side counts as wide, never
/// crowded.
const WIDE_LINES: usize = 6;
/// The channel number of wide channels.
const WIDE: u32 = u32::MAX - 1;
/// The largest grid searched (nodes).
const MAX_NODES: usize = 1_000_000;

/// One window's grid. See the module documentation.
#[derive(Default)]
pub(super) struct Grid {
    pub(super) xs: Vec<f64>,
    pub(super) ys: Vec<f64>,
    /// Per horizontal edge (row j, from xs[i] to xs[i+1]) at `j * (nx - 1) + i`:
    /// whether an obstacle's grown box covers it.
    h_block: Vec<bool>,
    /// Per vertical edge (column i, from ys[j] to ys[j+1]) at `i * (ny - 1) + j`.
    v_block: Vec<bool>,
    /// Per edge, like the above: how many earlier routes it crosses.
    h_cross: Vec<u8>,
    v_cross: Vec<u8>,
    /// Per edge: its channel, the run of parallel open edges side by side with it
    /// (an index into `channels`).
    h_channel: Vec<u32>,
    v_channel: Vec<u32>,
    /// Per channel: how many lines it holds side by side (from its width, at the
    /// nudging's spacing), and how many earlier routes run along it.
    channels: Vec<(u8, u8)>,
    /// Edges visited to block, cross and run along, over all builds.
    pub(super) walked: usize,
}

impl Grid {
    /// Makes this the grid of `window` around `grown` (obstacles' grown boxes) and
    /// `soft` (boxes a route may cross at [`LABEL_WEIGHT`] an edge) with lines
    /// through `ports`. False when it would have more than [`MAX_NODES`] nodes.
    pub(super) fn build(
        &mut self,
        window: Rect,
        grown: &[Rect],
        soft: &[Rect],
        ports: impl Iterator<Item = Point>,
    ) -> bool {
        let (xs, ys) = (&mut self.xs, &mut self.ys);
        xs.clear();
        ys.clear();
        xs.extend([window.x, window.right()]);
        ys.extend([window.y, window.bottom()]);
        for p in ports {
            xs.push(p.x);
            ys.push(p.y);
        }
        for g in grown.iter().chain(soft) {
            xs.extend([g.x, g.right()]);
            ys.extend([g.y, g.bottom()]);
        }
        let lines = |v: &mut Vec<f64>, lo: f64, hi: f64| {
            v.retain(|c| c.is_finite() && *c >= lo && *c <= hi);
            v.sort_by(f64::total_cmp);
            v.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
        };
        // Sorting the lines is work too (about a dozen steps a line for a
        // window that spans a page of thousands of shapes).
        self.walked += (xs.len() + ys.len()) * 12;
        lines(xs, window.x, window.right());
        lines(ys, window.y, window.bottom());
        let (nx, ny) = (xs.len(), ys.len());
        if nx < 2 || ny < 2 || nx.saturating_mul(ny) > MAX_NODES {
            return false;
        }
        let (h, v) = (ny * (nx - 1), nx * (ny - 1));
        for (a, n) in [(&mut self.h_block, h), (&mut self.v_block, v)] {
            a.clear();
            a.resize(n, false);
        }
        for (a, n) in [(&mut self.h_cross, h), (&mut self.v_cross, v)] {
            a.clear();
            a.resize(n, 0);
        }
        for g in grown {
            self.block(*g, None);
        }
        for g in soft {
            self.block(*g, Some(LABEL_WEIGHT));
        }
        self.clear_channels();
        true
    }

    /// Forgets the channels. They are found when an earlier route first runs
    /// along them ([`Grid::channel`]), which spares measuring all the others.
    fn clear_channels(&mut self) {
        let (nx, ny) = (self.xs.len(), self.ys.len());
        self.channels.clear();
        self.h_channel.clear();
        self.h_channel.resize(ny * (nx - 1), u32::MAX);
        self.v_channel.clear();
        self.v_channel.resize(nx * (ny - 1), u32::MAX);
    }

    /// The channel of the horizontal (or vertical) edge `e`: the run of open
    /// parallel edges side by side with it (in consecutive rows of its column
    /// interval, or columns of its row band), found and numbered on first use.
    fn channel(&mut self, e: usize, horizontal: bool) -> u32 {
        let (along, lines, ids, block) = if horizontal {
            (&self.xs, &self.ys, &mut self.h_channel, &self.h_block)
        } else {
            (&self.ys, &self.xs, &mut self.v_channel, &self.v_block)
        };
        let stride = along.len() - 1;
        if ids[e] != u32::MAX {
            return ids[e];
        }
        // Position across: the row (horizontal) or column (vertical) of the edge.
        let (across, first) = (e / stride, e % stride);
        let at = |k: usize| k * stride + first;
        let count = lines.len();
        // A channel wide enough for many lines is never crowded: stop measuring
        // there, and leave it unnumbered.
        let wide = WIDE_LINES as f64 * SPACING;
        let (mut lo, mut hi) = (across, across);
        while lo > 0 && !block[at(lo - 1)] {
            lo -= 1;
            if lines[hi] - lines[lo] >= wide {
                ids[e] = WIDE;
                return WIDE;
            }
        }
        while hi + 1 < count && !block[at(hi + 1)] {
            hi += 1;
            if lines[hi] - lines[lo] >= wide {
                ids[e] = WIDE;
                return WIDE;
            }
        }
        let id = self.channels.len() as u32;
        let width = lines[hi] - lines[lo];
        self.channels
            .push((((width / SPACING).floor() as usize + 1).min(255) as u8, 0));
        for k in lo..=hi {
            ids[at(k)] = id;
        }
        id
    }

    /// Counts one more route in channel `id`.
    fn use_channel(&mut self, id: u32) {
        if let Some(c) = self.channels.get_mut(id as usize) {
            c.1 = c.1.saturating_add(1);
        }
    }

    /// Counts an earlier route's segment a–b on the edges it runs along, when it
    /// lies on a grid line.
    pub(super) fn along(&mut self, a: Point, b: Point) {
        let Some((horizontal, at, lo, hi)) = axis_parallel(a, b) else {
            return;
        };
        let (along, across) = self.lines(horizontal);
        let Some(line) = index(across, at) else {
            return;
        };
        let stride = along.len() - 1;
        let first = along.partition_point(|&v| v < lo - 1e-6);
        let end = along.partition_point(|&v| v <= hi + 1e-6);
        self.walked += end.saturating_sub(first);
        for i in first..end.saturating_sub(1) {
            let e = line * stride + i;
            let open = if horizontal {
                !self.h_block[e]
            } else {
                !self.v_block[e]
            };
            if open {
                let id = self.channel(e, horizontal);
                self.use_channel(id);
            }
        }
    }

    /// Blocks the edges a grown box covers: the horizontal edges on rows strictly
    /// inside it and the vertical edges on columns strictly inside it. Its edges
    /// are grid lines or lie outside the window. With a `weight`, the edges are
    /// not blocked but cost that many crossings more.
    fn block(&mut self, g: Rect, weight: Option<u8>) {
        let (nx, ny) = (self.xs.len(), self.ys.len());
        let at = |v: &[f64], c: f64| v.partition_point(|&x| x < c - 1e-6);
        // Lines from x0 up to x1 (both within the box), rows strictly inside.
        let (x0, x1) = (at(&self.xs, g.x), at(&self.xs, g.right() + 1e-6 * 2.0));
        let (y0, y1) = (at(&self.ys, g.y), at(&self.ys, g.bottom() + 1e-6 * 2.0));
        // x1, y1: one past the last line within the box.
        let inside = |v: &[f64], i: usize, lo: f64, hi: f64| v[i] > lo + 1e-6 && v[i] < hi - 1e-6;
        self.walked += (x1 - x0 + 1) * (y1 - y0 + 1);
        for j in y0..y1 {
            if !inside(&self.ys, j, g.y, g.bottom()) {
                continue;
            }
            for i in x0..x1.saturating_sub(1) {
                let e = j * (nx - 1) + i;
                match weight {
                    None => self.h_block[e] = true,
                    Some(w) => self.h_cross[e] = self.h_cross[e].saturating_add(w),
                }
            }
        }
        for i in x0..x1 {
            if !inside(&self.xs, i, g.x, g.right()) {
                continue;
            }
            for j in y0..y1.saturating_sub(1) {
                let e = i * (ny - 1) + j;
                match weight {
                    None => self.v_block[e] = true,
                    Some(w) => self.v_cross[e] = self.v_cross[e].saturating_add(w),
                }
            }
        }
    }

    /// Counts an earlier route's segment a–b on the edges that cross it: those on
    /// the lines strictly within its extent that reach across its own line (or end
    /// on it).
    pub(super) fn cross(&mut self, a: Point, b: Point) {
        let Some((horizontal, at, lo, hi)) = axis_parallel(a, b) else {
            return;
        };
        let (along, across) = self.lines(horizontal);
        // The interval from across[j-1] to across[j] holds `at`.
        let j = across.partition_point(|&v| v < at);
        if j == 0 || j >= across.len() {
            return;
        }
        let stride = across.len() - 1;
        let first = along.partition_point(|&v| v <= lo + 1e-6);
        let end = along.partition_point(|&v| v < hi - 1e-6);
        let counts = if horizontal {
            &mut self.v_cross
        } else {
            &mut self.h_cross
        };
        self.walked += end.saturating_sub(first);
        for i in first..end {
            let c = &mut counts[i * stride + j - 1];
            *c = c.saturating_add(1);
        }
    }

    /// The grid lines along and across edges of one direction: for horizontal
    /// edges, the xs they run between and the ys they run on. An edge's index is
    /// its line's, times the number of intervals along, plus its interval's.
    fn lines(&self, horizontal: bool) -> (&[f64], &[f64]) {
        if horizontal {
            (&self.xs, &self.ys)
        } else {
            (&self.ys, &self.xs)
        }
    }

    /// The node at `p`, if `p` lies on one.
    fn node(&self, p: Point) -> Option<usize> {
        Some(index(&self.ys, p.y)? * self.xs.len() + index(&self.xs, p.x)?)
    }

    fn point(&self, node: usize) -> Point {
        let nx = self.xs.len();
        Point {
            x: self.xs[node % nx],
            y: self.ys[node / nx],
        }
    }

    /// The node one step from `node` heading `d`, with what that step costs beyond
    /// its length (for crossing earlier routes, or crowding a full channel), if
    /// that edge is open.
    fn step(&self, node: usize, d: Dir, len: impl Fn(usize) -> f64) -> Option<(usize, f64)> {
        let (nx, ny) = (self.xs.len(), self.ys.len());
        let (i, j) = (node % nx, node / nx);
        let (edge, next, horizontal) = match d {
            0 if i + 1 < nx => (j * (nx - 1) + i, node + 1, true),
            2 if i > 0 => (j * (nx - 1) + i - 1, node - 1, true),
            1 if j + 1 < ny => (i * (ny - 1) + j, node + nx, false),
            3 if j > 0 => (i * (ny - 1) + j - 1, node - nx, false),
            _ => return None,
        };
        let (block, cross, channel) = if horizontal {
            (&self.h_block, &self.h_cross, &self.h_channel)
        } else {
            (&self.v_block, &self.v_cross, &self.v_channel)
        };
        if block[edge] {
            return None;
        }
        let l = len(next);
        let crowded = match self.channels.get(channel[edge] as usize) {
            Some(&(room, used)) if used >= room => CROWDING * l,
            _ => 0.0,
        };
        Some((next, l + CROSSING * cross[edge] as f64 + crowded))
    }

    /// The cheapest route from one of `starts` to one of `targets`.
    pub(super) fn search(
        &self,
        s: &mut Scratch,
        starts: &[Port],
        targets: &[Port],
    ) -> Option<Found> {
        let goals: Vec<(usize, Point, Option<Dir>, usize)> = targets
            .iter()
            .enumerate()
            .filter_map(|(k, t)| Some((self.node(t.at)?, t.at, t.dir, k)))
            .collect();
        // Reaching a target with its heading opens a final state of its own (one
        // per target, after the grid's), at the target's cost: the search ends
        // when one is taken from the heap, so a target's cost counts like the
        // route's length.
        if goals.is_empty() {
            return None;
        }
        let h = |p: Point, d: Dir| -> f32 {
            goals
                .iter()
                .map(|&(_, t, a, _)| {
                    (t.x - p.x).abs() + (t.y - p.y).abs() + BEND * bends(d, p, t, a) as f64
                })
                .fold(f64::INFINITY, f64::min) as f32
        };
        let nodes = self.xs.len() * self.ys.len();
        let greed = if nodes <= EXACT_NODES { 1.0 } else { GREED };
        let finals = nodes * 4;
        s.begin(finals + targets.len());
        let mut seq = 0u32;
        for p in starts {
            let Some(node) = self.node(p.at) else {
                continue;
            };
            for d in 0..4 {
                if p.dir.is_some_and(|pd| pd != d) {
                    continue;
                }
                let st = node * 4 + d as usize;
                if s.open(st, p.cost as f32, u32::MAX) {
                    s.heap.push(Open {
                        f: p.cost as f32 + greed * h(p.at, d),
                        g: p.cost as f32,
                        seq,
                        state: st as u32,
                    });
                    seq += 1;
                }
            }
        }
        while let Some(open) = s.heap.pop() {
            s.popped += 1;
            let st = open.state as usize;
            if open.g > s.states[st].g {
                continue;
            }
            if st >= finals {
                let last = s.states[st].parent as usize;
                return Some(self.trace(s, last, starts, st - finals, open.g as f64));
            }
            let (node, d) = (st / 4, (st % 4) as Dir);
            for &(.., k) in goals
                .iter()
                .filter(|&&(n, _, a, _)| n == node && a.is_none_or(|a| a == d))
            {
                let (fs, g) = (finals + k, open.g + targets[k].cost as f32);
                if s.open(fs, g, st as u32) {
                    s.heap.push(Open {
                        f: g,
                        g,
                        seq,
                        state: fs as u32,
                    });
                    seq += 1;
                }
            }
            let here = self.point(node);
            let len = |next: usize| {
                let there = self.point(next);
                (there.x - here.x).abs() + (there.y - here.y).abs()
            };
            // On, or turning and moving on: a turn happens at a node on the way
            // out of it, so a state is only ever a node reached.
            for (nd, turn) in [(d, 0.0), ((d + 1) % 4, BEND), ((d + 3) % 4, BEND)] {
                let Some((next, cost)) = self.step(node, nd, len) else {
                    continue;
                };
                let g = open.g + (cost + turn) as f32;
                let p = self.point(next);
                let ns = next * 4 + nd as usize;
                if s.open(ns, g, st as u32) {
                    s.heap.push(Open {
                        f: g + greed * h(p, nd),
                        g,
                        seq,
                        state: ns as u32,
                    });
                    seq += 1;
                }
                // A target reached across its heading: the last turn is onto its
                // stub, at the target itself.
                for &(n, _, a, _) in &goals {
                    let Some(a) = a else { continue };
                    if n != next || a == nd || a == (nd + 2) % 4 {
                        continue;
                    }
                    let (gs, ga) = (next * 4 + a as usize, g + BEND as f32);
                    if s.open(gs, ga, ns as u32) {
                        s.heap.push(Open {
                            f: ga,
                            g: ga,
                            seq,
                            state: gs as u32,
                        });
                        seq += 1;
                    }
                }
            }
        }
        None
    }

    /// The corners of the route ending in state `st`, at target `target`.
    fn trace(
        &self,
        s: &Scratch,
        mut st: usize,
        starts: &[Port],
        target: usize,
        cost: f64,
    ) -> Found {
        let mut nodes = Vec::new();
        loop {
            let node = st / 4;
            if nodes.last() != Some(&node) {
                nodes.push(node);
            }
            let parent = s.states[st].parent;
            if parent == u32::MAX {
                break;
            }
            st = parent as usize;
        }
        nodes.reverse();
        // `st` is now the first state: the start port at its node with its heading.
        let (node, d) = (st / 4, (st % 4) as Dir);
        let start = starts
            .iter()
            .position(|p| self.node(p.at) == Some(node) && p.dir.is_none_or(|pd| pd == d))
            .unwrap_or(0);
        let mut points: Vec<Point> = nodes.iter().map(|&n| self.point(n)).collect();
        simplify(&mut points);
        Found {
            points,
            start,
            target,
            cost,
        }
    }
}

/// The search's memory of states, reused from search to search: a state's entry is
/// valid only when its stamp is the current search's.
#[derive(Default)]
pub(super) struct Scratch {
    states: Vec<State>,
    current: u32,
    heap: BinaryHeap<Open>,
    /// States taken from the heap, over all searches.
    pub(super) popped: usize,
}

#[derive(Clone, Copy, Default)]
struct State {
    g: f32,
    parent: u32,
    stamp: u32,
}

impl Scratch {
    /// Readies for a search over `n` states.
    fn begin(&mut self, n: usize) {
        if self.states.len() < n {
            self.states.resize(n, State::default());
        }
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.states.fill(State::default());
            self.current = 1;
        }
        self.heap.clear();
    }

    /// Records state `st` reached at cost `g` from `parent`, unless it was reached
    /// as cheaply before; true when recorded.
    fn open(&mut self, st: usize, g: f32, parent: u32) -> bool {
        let e = &mut self.states[st];
        if e.stamp == self.current && e.g <= g {
            return false;
        }
        *e = State {
            g,
            parent,
            stamp: self.current,
        };
        true
    }
}

/// The index of `c` among the sorted lines `v`, if it is one of them.
fn index(v: &[f64], c: f64) -> Option<usize> {
    let i = v.partition_point(|&x| x < c - 1e-6);
    (i < v.len() && (v[i] - c).abs() < 1e-6).then_some(i)
}

/// An axis-parallel segment a–b as whether it is horizontal, its coordinate across
/// and its extent along; `None` for a slanted one.
fn axis_parallel(a: Point, b: Point) -> Option<(bool, f64, f64, f64)> {
    if (a.y - b.y).abs() < 1e-9 {
        Some((true, a.y, a.x.min(b.x), a.x.max(b.x)))
    } else if (a.x - b.x).abs() < 1e-9 {
        Some((false, a.x, a.y.min(b.y), a.y.max(b.y)))
    } else {
        None
    }
}

/// The fewest bends of any orthogonal route from `p` heading `d` to `t`, arriving
/// with heading `a` (any, for `None`), on an empty plane.
pub(super) fn bends(d: Dir, p: Point, t: Point, a: Option<Dir>) -> u32 {
    // Turn the picture so that the route heads east.
    let (x, y) = (t.x - p.x, t.y - p.y);
    let (vx, vy) = match d {
        0 => (x, y),
        1 => (y, -x),
        2 => (-x, -y),
        _ => (-y, x),
    };
    let eps = 1e-6;
    let (ahead, behind) = (vx > eps, vx < -eps);
    let level = vy.abs() <= eps;
    match a.map(|a| (a + 4 - d) % 4) {
        None => {
            if level && !behind {
                0
            } else if !behind {
                1
            } else {
                2
            }
        }
        // Arriving heading east too.
        Some(0) => {
            if level && !behind {
                0
            } else if ahead {
                2
            } else {
                4
            }
        }
        // Arriving heading west: come back from beyond.
        Some(2) => {
            if level {
                4
            } else {
                2
            }
        }
        // Arriving heading south (1) or north (3): one bend when the target is
        // ahead and on the side the route arrives from.
        Some(s) => {
            let beyond = if s == 1 { vy > eps } else { vy < -eps };
            if beyond && !behind {
                1
            } else {
                3
            }
        }
    }
}

/// An open search state, ordered for the heap: lowest estimate first, then the one
/// furthest along (so equal routes are followed to the end, not all begun), then
/// the earliest pushed (so the search is deterministic).
struct Open {
    f: f32,
    g: f32,
    seq: u32,
    state: u32,
}

impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Open {}
impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .total_cmp(&self.f)
            .then(self.g.total_cmp(&other.g))
            .then(other.seq.cmp(&self.seq))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    #[test]
    fn bend_counts() {
        // Heading east, target ahead on the line.
        assert_eq!(bends(0, p(0.0, 0.0), p(10.0, 0.0), None), 0);
        assert_eq!(bends(0, p(0.0, 0.0), p(10.0, 5.0), None), 1);
        assert_eq!(bends(0, p(0.0, 0.0), p(-10.0, 5.0), None), 2);
        // Into the top of a target below and ahead.
        assert_eq!(bends(0, p(0.0, 0.0), p(10.0, 5.0), Some(1)), 1);
        assert_eq!(bends(0, p(0.0, 0.0), p(10.0, -5.0), Some(1)), 3);
        // Heading south, into a left side (arriving east) further down and right.
        assert_eq!(bends(1, p(0.0, 0.0), p(10.0, 20.0), Some(0)), 1);
        assert_eq!(bends(1, p(0.0, 0.0), p(-10.0, 20.0), Some(0)), 3);
        assert_eq!(bends(0, p(0.0, 0.0), p(10.0, 20.0), Some(0)), 2);
        assert_eq!(bends(0, p(0.0, 0.0), p(10.0, 20.0), Some(2)), 2);
    }
}
