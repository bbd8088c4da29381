//! Graph layout for inkboard: given the sizes of some boxes and the directed edges
//! between them, where each box goes. Four arrangements: a layered
//! (Sugiyama-style) drawing for flows and dependency graphs, a tidy tree for
//! hierarchies (also as an org chart), a mind map, and a plain grid. This crate is pure geometry: it knows nothing of
//! boards, ids, JSON or files; `inkboard-tools` maps a page onto a [`Graph`] and the
//! [`Layout`] back onto the page.
//!
//! All of them work in one abstract frame, "along" a layer and "deep" across layers,
//! and [`Direction`] maps that frame onto page coordinates at the end, so every
//! algorithm supports every direction the same way.
//!
//! The layered layout also takes clusters ([`layout_clustered`]): groups of
//! nodes drawn inside one box (a frame), laid out with the rest of the graph as
//! `dot` lays out its `subgraph cluster_…` (see [`Cluster`]). [`ranks`] gives
//! the layered layout's layers alone, for a caller that places nodes itself.
//!
//! ```
//! use inkboard_layout::{layout, Graph, Options, Size};
//! let graph = Graph {
//!     nodes: vec![Size::new(120.0, 60.0); 3],
//!     edges: vec![(0, 1), (0, 2)],
//! };
//! let out = layout(&graph, &Options::default()).unwrap();
//! assert!(out.nodes[1].y > out.nodes[0].y + 60.0);
//! ```

mod acyclic;
mod cluster;
#[cfg(test)]
mod cost_tests;
mod frame;
mod grid;
mod layered;
pub mod metrics;
mod mindmap;
mod normal;
mod order;
mod rank;
mod simplex;
mod tree;
mod watch;

pub use layered::{channel_width, MAX_PLACES};
pub use rank::ranks;

/// A node's top-left corner, a point of an edge's path, and a cluster's box: the
/// plane of `inkboard-geom`, the one the model and the renderer use.
pub use inkboard_geom::{Point, Rect};

use cluster::Tree;
use frame::{Boxes, Frame};
use watch::Watch;

/// The largest node side, spacing or coordinate the layout accepts. Coordinates
/// are solved in whole units with 64-bit integers; this keeps every sum far from
/// overflowing, and boards never come near it.
pub const MAX_SIZE: f64 = 1e9;

/// The width and height of a node.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Size {
    pub w: f64,
    pub h: f64,
}

impl Size {
    pub fn new(w: f64, h: f64) -> Self {
        Size { w, h }
    }
}

/// What to lay out: node sizes, and directed edges between node indices. Self
/// loops, repeated edges and edges both ways are all allowed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    pub nodes: Vec<Size>,
    pub edges: Vec<(usize, usize)>,
}

/// A cluster: nodes drawn inside one box (a frame), laid out together with the
/// rest of the graph. Its nodes take part in the layers like any other (a cluster
/// does not take a layer of its own); within each layer they stay side by side,
/// with nothing else between them; the box is then drawn around them, `padding`
/// away, and nothing else lies inside it. Clusters nest through `parent`.
///
/// Limitations: only [`Algorithm::Layered`] draws clusters. A cluster's nodes run
/// in the direction of the whole layout: a box whose contents run another way is
/// one node to this crate, its contents laid out on their own first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cluster {
    /// The nodes directly in it (a node is in at most one cluster; the nodes of a
    /// cluster inside this one are listed there).
    pub nodes: Vec<usize>,
    /// The cluster holding this one, as an index into the clusters.
    pub parent: Option<usize>,
    /// The room between the box and what it holds, on each side of the page.
    pub padding: Padding,
    /// The smallest the box may be, e.g. to show its whole title.
    pub min: Size,
}

/// Room on each side of a box, on the page (whatever the direction).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Padding {
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
    pub left: f64,
}

/// How nodes are arranged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// Layers along the direction: cycles broken, layers assigned by network
    /// simplex, crossings reduced by median sweeps, coordinates by network simplex
    /// so that edges run straight where they can.
    #[default]
    Layered,
    /// A tidy tree: each node centred over its children, levels along the
    /// direction. A graph that is not a tree is laid out along a spanning forest.
    Tree,
    /// Rows (or columns, going right or left) in the order the nodes are given.
    Grid,
    /// A mind map: each tree's root in the middle, its branches split between
    /// both sides of it (going right or left: left and right of it; going down
    /// or up: above and below), balanced by height, children stacked further
    /// out. A graph that is not a tree is laid out along a spanning forest.
    Mindmap,
    /// The tidy tree drawn as an org chart: a parent whose children are all
    /// leaves, and at least four, has them stacked in two columns either side
    /// of the trunk below it instead of side by side.
    OrgChart,
}

/// Which way edges run (for the grid: which way the rows advance).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Direction {
    #[default]
    Down,
    Right,
    Up,
    Left,
}

/// The knobs of a layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    pub algorithm: Algorithm,
    pub direction: Direction,
    /// The gap between neighbours within a layer (and between components).
    pub node_spacing: f64,
    /// The gap between consecutive layers.
    pub layer_spacing: f64,
    /// Where the layered layout's crossing reduction starts (other layouts
    /// ignore it): [`Start::Best`] unless a caller wants alternatives to judge
    /// on its own terms.
    pub start: Start,
}

/// Where the layered layout's crossing reduction starts. Its own count of
/// crossings (between layers, lines as straight segments between node centres)
/// is not what a router draws: ports, jogs and lines spread along a side add
/// crossings that differ from one order to the next. A caller that routes the
/// lines can lay a graph out from a few starts and keep the drawing that
/// crosses least (`inkboard-arrange` does). Every start is deterministic, and
/// each runs within the same work budget as the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Start {
    /// The better, by the layout's own count, of the searches from the two
    /// depth-first orders (down from the sources and up from the sinks).
    #[default]
    Best,
    /// The other of those two searches: the one [`Start::Best`] does not keep.
    Other,
    /// A search from a depth-first order (down from the sources for an even
    /// seed, up from the sinks for an odd one) with every layer shuffled,
    /// reproducibly, by the seed.
    Shuffled(u64),
}

impl Default for Options {
    fn default() -> Self {
        Options {
            algorithm: Algorithm::Layered,
            direction: Direction::Down,
            node_spacing: 40.0,
            layer_spacing: 60.0,
            start: Start::Best,
        }
    }
}

/// Where everything went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    /// The top-left corner of each node, in the order of [`Graph::nodes`]. The
    /// drawing starts at (0, 0).
    pub nodes: Vec<Point>,
    /// The path each edge takes, in the order of [`Graph::edges`]: from the centre
    /// of its source through its bend points to the centre of its target (a self
    /// loop is its node's centre twice).
    pub edges: Vec<Vec<Point>>,
    /// The size of the drawing: every node and every edge path lies within
    /// (0, 0)–(width, height).
    pub width: f64,
    pub height: f64,
    /// The box of each cluster, in the order of the clusters given to
    /// [`layout_clustered`] (empty for [`layout`]), within (0, 0)–(width, height).
    pub clusters: Vec<Rect>,
}

/// Why a graph could not be laid out.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LayoutError {
    /// An edge names a node index past the end of [`Graph::nodes`].
    #[error("edge {edge} refers to node {node}, but there are only {nodes} nodes")]
    NoSuchNode {
        edge: usize,
        node: usize,
        nodes: usize,
    },
    /// A node's width or height is negative, not a number, or over [`MAX_SIZE`].
    #[error("node {node} has a size of {w} × {h}: sizes must be between 0 and {MAX_SIZE}")]
    BadSize { node: usize, w: f64, h: f64 },
    /// A spacing is negative, not a number, or over [`MAX_SIZE`].
    #[error("the spacing {0} must be between 0 and {MAX_SIZE}")]
    BadSpacing(f64),
    /// The drawing would be larger than [`MAX_SIZE`] in some direction.
    #[error("the layout would be {0} units across, more than {MAX_SIZE}")]
    TooLarge(f64),
    /// A cluster names a node past the end of [`Graph::nodes`], or one that
    /// another cluster (or this one) already holds.
    #[error(
        "cluster {cluster} holds node {node}, which does not exist or is already in a cluster"
    )]
    ClusterNode { cluster: usize, node: usize },
    /// A cluster's parent does not exist, or the parents go round in a circle.
    #[error("cluster {0} has a parent that does not exist or holds it in turn")]
    ClusterParent(usize),
    /// A cluster holds no node, not even through the clusters inside it.
    #[error("cluster {0} holds no node")]
    EmptyCluster(usize),
    /// A cluster's padding or least size is negative, not a number, or over
    /// [`MAX_SIZE`].
    #[error("cluster {0} has a padding or least size that is not between 0 and {MAX_SIZE}")]
    BadClusterSize(usize),
    /// Clusters were given to an algorithm other than [`Algorithm::Layered`].
    #[error("only the layered layout draws clusters")]
    ClustersNeedLayered,
    /// The layered layout would need more places in its layers than
    /// [`MAX_PLACES`]: its nodes, a place in each layer an edge passes through
    /// (edges between far layers need many), and each layer each cluster spans.
    #[error("the layered layout would need {0} places in its layers (a node, or an edge or a frame passing through a layer, takes one), more than the limit of {MAX_PLACES}: lay out fewer shapes at a time, or use the tree or grid layout")]
    TooManyPlaces(usize),
    /// The labels given to [`layout_labelled`] are neither none nor one per
    /// edge.
    #[error("{labels} edge labels were given for {edges} edges: give one per edge, or none")]
    LabelCount { labels: usize, edges: usize },
    /// An edge's label has a width or height that is negative, not a number,
    /// or over [`MAX_SIZE`].
    #[error(
        "the label of edge {edge} has a size of {w} × {h}: sizes must be between 0 and {MAX_SIZE}"
    )]
    BadLabelSize { edge: usize, w: f64, h: f64 },
    /// The caller's stop check ([`layout_until`]) said stop before the layout
    /// was done.
    #[error("the layout was stopped before it was done")]
    Stopped,
}

/// Lays `graph` out. Deterministic: the same graph and options give the same
/// layout.
pub fn layout(graph: &Graph, options: &Options) -> Result<Layout, LayoutError> {
    layout_clustered(graph, &[], options)
}

/// Lays `graph` out with its nodes in `clusters` (see [`Cluster`]); the boxes
/// are in [`Layout::clusters`]. With no clusters this is [`layout`].
pub fn layout_clustered(
    graph: &Graph,
    clusters: &[Cluster],
    options: &Options,
) -> Result<Layout, LayoutError> {
    layout_until(graph, clusters, options, &|| false)
}

/// [`layout_clustered`], asking `stop` between its phases and inside its long
/// loops whether to give up (a call cancelled, a deadline passed): once it
/// answers true, the layout ends at the next question with
/// [`LayoutError::Stopped`]. `stop` is asked often, so it should be cheap (a
/// flag, a look at the clock); it is asked at least once.
pub fn layout_until(
    graph: &Graph,
    clusters: &[Cluster],
    options: &Options,
    stop: &dyn Fn() -> bool,
) -> Result<Layout, LayoutError> {
    layout_labelled(graph, &[], clusters, options, stop)
}

/// [`layout_until`] leaving room for the edges' labels: `labels` holds the
/// size of each edge's label on the page, in the order of [`Graph::edges`]
/// (`None`, or a side of zero: no label), or is empty when no edge has one.
///
/// The room is made as ELK makes it with its label dummy nodes and `dot` with
/// its label nodes. In the layered layout, a component with a label has its
/// layers doubled: between every two layers of nodes lies a layer of the
/// labels of the edges crossing there, each label a node on its edge, as
/// wide along the layer as its label (plus a margin), so that the ordering and
/// the placement keep other lines and labels off it, and that layer as deep as
/// its deepest label; the layer spacing is halved on either side of it, so a
/// drawing whose labels are small is no larger than one without. The tree and
/// the org chart widen the gap below a level by the deepest label of the
/// edges leaving it, and keep a child as far from its siblings as its label is
/// wide. Labels of edges in one place (repeated edges) lie side by side.
///
/// Limitations: the label's place is reserved, not chosen: the renderer
/// routes the lines and places the labels, and finds this room free. The mind
/// map and the grid leave no room for labels, nor does a layered component
/// with clusters (its layers of labels changed which way sibling frames
/// stand, for a larger drawing: see `layered.rs`).
pub fn layout_labelled(
    graph: &Graph,
    labels: &[Option<Size>],
    clusters: &[Cluster],
    options: &Options,
    stop: &dyn Fn() -> bool,
) -> Result<Layout, LayoutError> {
    let watch = Watch::new(stop);
    let out = layout_watched(graph, labels, clusters, options, &watch);
    // A stop seen inside cut a search short, and what came of its plainer
    // answer (a layout, or an error such as `TooLarge` with another figure)
    // is not what the layout says without one: once seen, the stop is the
    // answer. A layout done is checked once more (a deadline may have passed
    // meanwhile); an error with no stop seen is the answer as it is.
    match out {
        Err(_) if watch.has_stopped() => Err(LayoutError::Stopped),
        Ok(_) if watch.stopped_now() => Err(LayoutError::Stopped),
        out => out,
    }
}

/// [`layout_until`] with its watch, which also counts the work done.
fn layout_watched(
    graph: &Graph,
    labels: &[Option<Size>],
    clusters: &[Cluster],
    options: &Options,
    watch: &Watch,
) -> Result<Layout, LayoutError> {
    if watch.stopped_now() {
        return Err(LayoutError::Stopped);
    }
    check(graph, options)?;
    let labels = check_labels(graph, labels)?;
    if !clusters.is_empty() && options.algorithm != Algorithm::Layered {
        return Err(LayoutError::ClustersNeedLayered);
    }
    let frame = Frame::new(options.direction);
    let tree = Tree::of(graph.nodes.len(), clusters, frame)?;
    let boxes = Boxes::of(graph, frame);
    // Each label as (along, deep), as the nodes are.
    let labels: Vec<(f64, f64)> = labels.iter().map(|&s| frame.along_deep(s)).collect();
    let spacing = (options.node_spacing, options.layer_spacing);
    let placed = match options.algorithm {
        Algorithm::Layered => layered::layout(
            &boxes,
            &graph.edges,
            &labels,
            &tree,
            spacing,
            options.start,
            watch,
        )?,
        Algorithm::Tree => tree::layout(&boxes, &graph.edges, &labels, spacing, false),
        Algorithm::OrgChart => tree::layout(&boxes, &graph.edges, &labels, spacing, true),
        Algorithm::Grid => grid::layout(&boxes, &graph.edges, spacing),
        Algorithm::Mindmap => mindmap::layout(&boxes, &graph.edges, spacing),
    };
    let out = frame.to_page(graph, placed);
    let extent = out.width.max(out.height);
    if !extent.is_finite() || extent > MAX_SIZE {
        return Err(LayoutError::TooLarge(extent));
    }
    Ok(out)
}

fn check(graph: &Graph, options: &Options) -> Result<(), LayoutError> {
    let ok = |v: f64| v.is_finite() && (0.0..=MAX_SIZE).contains(&v);
    for s in [options.node_spacing, options.layer_spacing] {
        if !ok(s) {
            return Err(LayoutError::BadSpacing(s));
        }
    }
    for (node, s) in graph.nodes.iter().enumerate() {
        if !ok(s.w) || !ok(s.h) {
            return Err(LayoutError::BadSize {
                node,
                w: s.w,
                h: s.h,
            });
        }
    }
    let nodes = graph.nodes.len();
    for (edge, &(a, b)) in graph.edges.iter().enumerate() {
        for node in [a, b] {
            if node >= nodes {
                return Err(LayoutError::NoSuchNode { edge, node, nodes });
            }
        }
    }
    Ok(())
}

/// The label of each edge, checked: one per edge (all of zero size when
/// `labels` is empty), a missing one of zero size.
fn check_labels(graph: &Graph, labels: &[Option<Size>]) -> Result<Vec<Size>, LayoutError> {
    if labels.is_empty() {
        return Ok(vec![Size::default(); graph.edges.len()]);
    }
    if labels.len() != graph.edges.len() {
        return Err(LayoutError::LabelCount {
            labels: labels.len(),
            edges: graph.edges.len(),
        });
    }
    let ok = |v: f64| v.is_finite() && (0.0..=MAX_SIZE).contains(&v);
    labels
        .iter()
        .enumerate()
        .map(|(edge, s)| match s {
            Some(s) if !ok(s.w) || !ok(s.h) => Err(LayoutError::BadLabelSize {
                edge,
                w: s.w,
                h: s.h,
            }),
            // A label of no extent either way needs no room.
            Some(s) if s.w > 0.0 && s.h > 0.0 => Ok(*s),
            _ => Ok(Size::default()),
        })
        .collect()
}
