//! Obstacle-avoiding orthogonal routes: an A* search on a sparse grid.
//!
//! The grid's lines are the interesting coordinates near a connector: both edges of
//! every obstacle grown by [`CLEARANCE`], the lines through the connector's ports,
//! and the border of the search window. Where they cross are the nodes, so every
//! route that keeps [`CLEARANCE`] from the shapes and bends as little as possible
//! runs along these lines (the orthogonal visibility graph of Wybrow, Marriott and
//! Stuckey, "Orthogonal Connector Routing", 2009, drawn as a full grid). A grid edge
//! is blocked where an obstacle's grown box covers it.
//!
//! The search state is a node and a heading. Moving on costs the distance, turning
//! costs [`BEND`], crossing a route found before costs [`CROSSING`](super::grid::CROSSING), and running
//! along one where the channel is too narrow for the nudging to set the two lines
//! apart costs [`CROWDING`](super::grid::CROWDING) per pixel, so routes bend little, cross little and do
//! not squeeze into gaps already taken. The heuristic adds to the remaining Manhattan
//! distance the fewest bends any route from this heading to a target needs on an
//! empty plane, which keeps the search on the few routes of least cost instead of
//! flooding the box between the ends. A search starts from any of its start ports
//! and ends at any of its targets, so the sides a route uses are its choice.
//!
//! A grid over a whole page of jittered shapes has hundreds of lines each way, most
//! of them far from any one connector, so [`Router`] searches a window: the box
//! around the connector's ends, grown by a margin, with only the obstacles that
//! reach into it. A route leaving a window grown by `m` would be at least `2m`
//! longer than the ends' Manhattan distance, so a route found within that bound is
//! the best there is; otherwise (or when the window holds no route) the window grows
//! until it covers the page.
//!
//! The grid and the search on it are `grid.rs`. [`crate::route::connectors`] runs the searches and tidies the results
//! ([`crate::route::nudge`]).
//!
//! Limitations: within a window the grid has a node for every pair of lines, so a
//! long connector across a crowded page searches a large grid (one over
//! [`MAX_NODES`](super::grid::MAX_NODES) is not searched and the caller falls back to a simple route); the
//! costs of bends and crossings are fixed, not tuned to the page.

use inkboard_core::{Point, Rect};

use crate::route::buckets::Buckets;
use crate::route::grid::{bends, Grid, Scratch, BEND};
use crate::route::Side;

/// The room a route keeps from the obstacles it passes.
pub(crate) const CLEARANCE: f64 = 12.0;
/// The first search window's margin around the ends; each retry triples it.
const FIRST_MARGIN: f64 = 96.0;

/// A heading: east (+x), south (+y), west (−x), north (−y), clockwise on a screen.
pub(crate) type Dir = u8;

/// The heading that leaves a side.
pub(crate) fn out_of(side: Side) -> Dir {
    match side {
        Side::Right => 0,
        Side::Bottom => 1,
        Side::Left => 2,
        Side::Top => 3,
    }
}

/// Where a search may start or end: a point, and the heading a route must leave it
/// by (for a start) or arrive with (for a target); `None` for any.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Port {
    pub at: Point,
    pub dir: Option<Dir>,
    /// The side this port stands for and its offset along it from the side's
    /// middle, handed back with the result.
    pub side: Option<Side>,
    pub offset: f64,
    /// What starting or ending here costs beyond the route: what leaving or
    /// entering by a side across the flow costs, or a nudge that settles ties
    /// between equally good sides.
    pub cost: f64,
}

/// A route found by a search: its corners from the start port to the target port,
/// the ports used, and its cost.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub points: Vec<Point>,
    pub start: usize,
    pub target: usize,
    pub cost: f64,
}

/// Searches routes on one page, remembering the routes found so that later ones
/// pay for crossing them.
pub(crate) struct Router<'a> {
    obstacles: &'a [Rect],
    /// The obstacles' grown boxes, bucketed.
    near: Buckets,
    /// The box that holds every obstacle and port: a window covering it covers all.
    extent: Rect,
    /// Segments of the routes found so far, bucketed.
    routes: Vec<(Point, Point)>,
    route_cells: Buckets,
    /// The labels of the connectors routed so far where they will likely sit
    /// (grown by [`CLEARANCE`]), each with its connector: later routes pay to run
    /// through them ([`LABEL_WEIGHT`](super::grid::LABEL_WEIGHT)), bucketed.
    labels: Vec<(usize, Rect)>,
    label_cells: Buckets,
    soft: Vec<Rect>,
    /// The current window's grid and the search's memory, reused from search to
    /// search.
    grid: Grid,
    scratch: Scratch,
    found: Vec<u32>,
    boxes: Vec<Rect>,
    /// Grid nodes built so far, over all searches (see [`Router::work`]).
    work: usize,
}

impl<'a> Router<'a> {
    /// A router among `obstacles` (plain boxes), for routes whose ports lie in
    /// `ports` (any box holding them all).
    pub fn new(obstacles: &'a [Rect], ports: Rect) -> Self {
        let extent = obstacles
            .iter()
            .map(|o| o.grown(CLEARANCE))
            .fold(ports, |a, b| a.union(&b));
        let mut near = Buckets::new(extent, obstacles.len());
        for (i, o) in obstacles.iter().enumerate() {
            near.insert(o.grown(CLEARANCE), i as u32);
        }
        Router {
            obstacles,
            near,
            extent,
            routes: Vec::new(),
            route_cells: Buckets::new(extent, obstacles.len() * 4),
            labels: Vec::new(),
            label_cells: Buckets::new(extent, obstacles.len()),
            soft: Vec::new(),
            grid: Grid::default(),
            scratch: Scratch::default(),
            found: Vec::new(),
            boxes: Vec::new(),
            work: 0,
        }
    }

    /// What routing has cost so far, over all searches, in steps that each take
    /// about the same time: grid nodes built, edges visited to mark obstacles and
    /// earlier routes, and states the searches took. A measure of the time
    /// routing took that does not depend on the machine. (Nodes alone missed
    /// most of it on pages where every search spans the page: there, marking
    /// the earlier routes in each window is what grows.)
    pub fn work(&self) -> usize {
        self.work + self.grid.walked + self.scratch.popped
    }

    /// Remembers a route (its corners) for the crossing costs of later searches.
    pub fn add(&mut self, points: &[Point]) {
        for w in points.windows(2) {
            if let Some(r) = Rect::around([w[0], w[1]]) {
                self.route_cells.insert(r, self.routes.len() as u32);
                self.routes.push((w[0], w[1]));
            }
        }
    }

    /// Remembers connector `conn`'s label box, where it will likely sit, for the
    /// searches after: they pay to run through it, so that a label placed for an
    /// earlier line keeps a clear stretch of that line (issue 31). A soft
    /// obstacle, not a wall: a route with no other way still runs through it.
    pub fn add_label(&mut self, conn: usize, label: Rect) {
        let grown = label.grown(CLEARANCE);
        self.label_cells.insert(grown, self.labels.len() as u32);
        self.labels.push((conn, grown));
    }

    /// The cheapest route from one of `starts` to one of `targets`, the obstacles
    /// `lifted` (ascending indices) out of the way, and the label of connector
    /// `own` (a route searched again) no obstacle to it. `None` when there is
    /// none.
    pub fn route(
        &mut self,
        starts: &[Port],
        targets: &[Port],
        lifted: &[usize],
        own: Option<usize>,
    ) -> Option<Found> {
        let ends = Rect::around(starts.iter().chain(targets).map(|p| p.at))?;
        // The least any route could cost, were the page empty: its length and bends.
        let least = starts
            .iter()
            .flat_map(|s| {
                targets.iter().map(move |t| {
                    let bends = s.dir.map_or(0, |d| bends(d, s.at, t.at, t.dir));
                    (s.at.x - t.at.x).abs()
                        + (s.at.y - t.at.y).abs()
                        + BEND * bends as f64
                        + s.cost
                        + t.cost
                })
            })
            .fold(f64::INFINITY, f64::min);
        let mut margin = FIRST_MARGIN;
        let mut best = None;
        loop {
            // A page with coordinates out of all proportion is never covered.
            if !margin.is_finite() || margin > 1e9 {
                return best;
            }
            let window = ends.grown(margin);
            let whole = window.contains(&self.extent);
            if !self.build(window, starts, targets, lifted, own) {
                return best;
            }
            self.work += self.grid.xs.len() * self.grid.ys.len();
            if let Some(f) = self.grid.search(&mut self.scratch, starts, targets) {
                if whole || f.cost <= least + 2.0 * margin {
                    return Some(f);
                }
                best = Some(f);
            } else if whole {
                return best;
            }
            margin *= 3.0;
        }
    }

    /// Builds the grid of `window`, with its obstacles, the earlier routes and
    /// the labels in it (but `own`'s); false when it would be too large.
    fn build(
        &mut self,
        window: Rect,
        starts: &[Port],
        targets: &[Port],
        lifted: &[usize],
        own: Option<usize>,
    ) -> bool {
        self.near.query(&window, &mut self.found);
        self.boxes.clear();
        self.boxes.extend(
            self.found
                .iter()
                .map(|&i| i as usize)
                .filter(|i| lifted.binary_search(i).is_err())
                .map(|i| self.obstacles[i].grown(CLEARANCE)),
        );
        self.label_cells.query(&window, &mut self.found);
        self.soft.clear();
        self.soft.extend(
            self.found
                .iter()
                .map(|&i| self.labels[i as usize])
                .filter(|(conn, _)| Some(*conn) != own)
                .map(|(_, r)| r),
        );
        let ports = starts.iter().chain(targets).map(|p| p.at);
        if !self.grid.build(window, &self.boxes, &self.soft, ports) {
            return false;
        }
        self.route_cells.query(&window, &mut self.found);
        for &i in &self.found {
            let (a, b) = self.routes[i as usize];
            self.grid.cross(a, b);
            self.grid.along(a, b);
        }
        true
    }
}

/// Drops repeated points and the middle of three collinear points.
pub(crate) fn simplify(points: &mut Vec<Point>) {
    points.dedup_by(|a, b| (a.x - b.x).abs() < 1e-9 && (a.y - b.y).abs() < 1e-9);
    let mut i = 1;
    while i + 1 < points.len() {
        let (a, b, c) = (points[i - 1], points[i], points[i + 1]);
        let straight = ((a.x - b.x).abs() < 1e-9 && (b.x - c.x).abs() < 1e-9)
            || ((a.y - b.y).abs() < 1e-9 && (b.y - c.y).abs() < 1e-9);
        if straight {
            points.remove(i);
        } else {
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::grid::CROSSING;

    fn p(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    fn port(x: f64, y: f64, dir: Dir) -> Port {
        Port {
            at: p(x, y),
            dir: Some(dir),
            side: None,
            offset: 0.0,
            cost: 0.0,
        }
    }

    #[test]
    fn a_route_goes_around_a_wall() {
        let wall = [Rect::new(40.0, -50.0, 20.0, 100.0)];
        let mut router = Router::new(&wall, Rect::new(0.0, 0.0, 100.0, 0.0));
        let (start, target) = (port(0.0, 0.0, 0), port(100.0, 0.0, 0));
        let found = router.route(&[start], &[target], &[], None).unwrap();
        assert_eq!(found.points.len(), 6, "{:?}", found.points);
        for q in &found.points {
            assert!(q.y.abs() >= 50.0 + CLEARANCE - 1e-9 || q.y == 0.0, "{q:?}");
        }
        // Lifting the wall lets the route run straight.
        let found = router.route(&[start], &[target], &[0], None).unwrap();
        assert_eq!(found.points, vec![p(0.0, 0.0), p(100.0, 0.0)]);
    }

    #[test]
    fn a_long_wall_makes_the_window_grow() {
        // The wall reaches far beyond the first window; the route goes round its end.
        let wall = [Rect::new(40.0, -1000.0, 20.0, 1500.0)];
        let mut router = Router::new(&wall, Rect::new(0.0, 0.0, 100.0, 0.0));
        let found = router
            .route(&[port(0.0, 0.0, 0)], &[port(100.0, 0.0, 0)], &[], None)
            .unwrap();
        assert!(
            found.points.iter().any(|q| q.y >= 500.0 + CLEARANCE - 1e-9),
            "{:?}",
            found.points
        );
    }

    #[test]
    fn routes_pay_for_crossings() {
        // A route already runs across the direct way; the detour round it is
        // cheaper than crossing only when crossing costs more than the detour.
        let mut router = Router::new(&[], Rect::new(0.0, -100.0, 100.0, 200.0));
        router.add(&[p(50.0, -20.0), p(50.0, 20.0)]);
        let found = router
            .route(&[port(0.0, 0.0, 0)], &[port(100.0, 0.0, 0)], &[], None)
            .unwrap();
        // Going round would cost four bends; crossing once is cheaper.
        assert_eq!(found.points.len(), 2);
        assert!((found.cost - (100.0 + CROSSING)).abs() < 1e-3, "{found:?}");
    }
}
