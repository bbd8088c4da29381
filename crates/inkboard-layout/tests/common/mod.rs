//! Shared by the quality tests and the benchmark: the fixture graphs, the
//! quality figures of a layout, and the same figures for Graphviz `dot` run on the
//! same graph (when `dot` is on PATH).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use inkboard_layout::{metrics, Direction, Graph, Layout, Options, Point, Size};
use serde_json::Value;

pub mod graphs;

pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A fixture graph: `tests/fixtures/NAME.json` holds `{"nodes": [[w, h], ...],
/// "edges": [[from, to], ...]}` (and, for the frames fixture, `"frames"`, which
/// only the board-level tests use).
pub struct Fixture {
    pub name: String,
    pub graph: Graph,
}

pub fn fixture(name: &str) -> Fixture {
    let text =
        std::fs::read_to_string(fixtures_dir().join(format!("{name}.json"))).expect("read fixture");
    let v: Value = serde_json::from_str(&text).expect("fixture is JSON");
    let pairs = |key: &str| -> Vec<(f64, f64)> {
        v[key]
            .as_array()
            .expect(key)
            .iter()
            .map(|p| {
                let num = |i: usize| p[i].as_f64().expect("number");
                (num(0), num(1))
            })
            .collect()
    };
    let nodes = pairs("nodes")
        .into_iter()
        .map(|(w, h)| Size::new(w, h))
        .collect();
    let edges = pairs("edges")
        .into_iter()
        .map(|(a, b)| (a as usize, b as usize))
        .collect();
    Fixture {
        name: name.to_string(),
        graph: Graph { nodes, edges },
    }
}

pub const FIXTURES: [&str; 6] = [
    "dag50",
    "tree100",
    "cycles",
    "disconnected",
    "frames",
    "bench200",
];

/// The figures compared between layouts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quality {
    pub crossings: usize,
    pub bends: usize,
    pub area: f64,
    pub width: f64,
    pub height: f64,
}

/// Bends are corners left after simplifying a path to within this many units.
pub const BEND_TOLERANCE: f64 = 2.0;

/// The quality of node corners `nodes` (top-left) and edge paths whose ends are
/// `ends`; self loops do not count.
pub fn quality(
    nodes: &[Point],
    sizes: &[Size],
    paths: &[Vec<Point>],
    ends: &[(usize, usize)],
) -> Quality {
    let (paths, ends): (Vec<Vec<Point>>, Vec<(usize, usize)>) = paths
        .iter()
        .zip(ends)
        .filter(|(_, (a, b))| a != b)
        .map(|(p, e)| (p.clone(), *e))
        .unzip();
    let (width, height) = metrics::extent(nodes, sizes);
    Quality {
        crossings: metrics::crossings(&paths, &ends),
        bends: metrics::bends(&paths, BEND_TOLERANCE),
        area: width * height,
        width,
        height,
    }
}

pub fn quality_of(layout: &Layout, graph: &Graph) -> Quality {
    quality(&layout.nodes, &graph.nodes, &layout.edges, &graph.edges)
}

/// True when `dot` can be run.
pub fn have_dot() -> bool {
    Command::new("dot")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `dot`'s layout of a graph: node corners, edge paths (its splines, sampled)
/// with their ends, and how long the `dot` process took.
pub struct DotLayout {
    pub nodes: Vec<Point>,
    pub paths: Vec<Vec<Point>>,
    pub ends: Vec<(usize, usize)>,
    pub took: Duration,
}

/// The start of a DOT graph with `options`' direction and spacing, for nodes of
/// fixed sizes without labels; the caller adds nodes, clusters, edges and `}`.
pub fn dot_head(options: &Options) -> String {
    let rankdir = match options.direction {
        Direction::Down => "TB",
        Direction::Right => "LR",
        Direction::Up => "BT",
        Direction::Left => "RL",
    };
    format!(
        "digraph G {{\n graph [rankdir={rankdir}, nodesep={}, ranksep={}];\n node [shape=box, fixedsize=true, label=\"\"];\n",
        inch(options.node_spacing),
        inch(options.layer_spacing)
    )
}

/// Points to DOT's inches.
pub fn inch(v: f64) -> f64 {
    v / 72.0
}

/// `graph`'s nodes (with their sizes) and edges, in DOT, closing the graph.
pub fn dot_body(graph: &Graph) -> String {
    let mut src = String::new();
    for (i, s) in graph.nodes.iter().enumerate() {
        src += &format!(" n{i} [width={}, height={}];\n", inch(s.w), inch(s.h));
    }
    for (a, b) in &graph.edges {
        src += &format!(" n{a} -> n{b};\n");
    }
    src + "}\n"
}

/// `dot -Tplain` of `src`, and how long the process took; `None` when `dot` is
/// missing or fails.
pub fn run_dot(src: &str) -> Option<(String, Duration)> {
    use std::io::Write;
    let start = Instant::now();
    let mut child = Command::new("dot")
        .arg("-Tplain")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(src.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    let took = start.elapsed();
    if !out.status.success() {
        return None;
    }
    Some((String::from_utf8(out.stdout).ok()?, took))
}

/// The area of the drawing in `dot -Tplain` output (its first line: `graph
/// scale width height`), in points.
pub fn plain_area(plain: &str) -> Option<f64> {
    let f: Vec<f64> = plain
        .lines()
        .next()?
        .split_whitespace()
        .skip(2)
        .filter_map(|v| v.parse().ok())
        .collect();
    Some(f.first()? * 72.0 * f.get(1)? * 72.0)
}

/// `dot`'s layout of `graph` with the same sizes and spacing; `None` when `dot`
/// is missing or fails.
pub fn dot(graph: &Graph, options: &Options) -> Option<DotLayout> {
    let (text, took) = run_dot(&(dot_head(options) + &dot_body(graph)))?;
    let mut height = 0.0;
    let mut nodes = vec![Point::default(); graph.nodes.len()];
    let mut paths = Vec::new();
    let mut ends = Vec::new();
    let id = |s: &str| s.trim_start_matches('n').parse::<usize>().ok();
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let num = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0) * 72.0;
        match f.first() {
            Some(&"graph") => height = num(3),
            Some(&"node") => {
                let i = id(f[1])?;
                let (w, h) = (graph.nodes[i].w, graph.nodes[i].h);
                nodes[i] = Point {
                    x: num(2) - w / 2.0,
                    y: height - num(3) - h / 2.0,
                };
            }
            Some(&"edge") => {
                let (a, b) = (id(f[1])?, id(f[2])?);
                let n: usize = f[3].parse().ok()?;
                let pts: Vec<Point> = (0..n)
                    .map(|k| Point {
                        x: num(4 + 2 * k),
                        y: height - num(5 + 2 * k),
                    })
                    .collect();
                paths.push(sample_bspline(&pts));
                ends.push((a, b));
            }
            _ => {}
        }
    }
    Some(DotLayout {
        nodes,
        paths,
        ends,
        took,
    })
}

/// Points along a piecewise cubic Bézier given as dot gives it (1 + 3k points).
fn sample_bspline(p: &[Point]) -> Vec<Point> {
    let mut out = vec![];
    if let Some(first) = p.first() {
        out.push(*first);
    }
    let mut i = 0;
    while i + 3 < p.len() {
        let (a, b, c, d) = (p[i], p[i + 1], p[i + 2], p[i + 3]);
        for k in 1..=8 {
            let t = k as f64 / 8.0;
            let u = 1.0 - t;
            out.push(Point {
                x: u * u * u * a.x
                    + 3.0 * u * u * t * b.x
                    + 3.0 * u * t * t * c.x
                    + t * t * t * d.x,
                y: u * u * u * a.y
                    + 3.0 * u * u * t * b.y
                    + 3.0 * u * t * t * c.y
                    + t * t * t * d.y,
            });
        }
        i += 3;
    }
    out
}

/// True when the edges, self loops aside, form no cycle.
pub fn acyclic(graph: &Graph) -> bool {
    let n = graph.nodes.len();
    let mut pending = vec![0; n];
    let mut outs = vec![Vec::new(); n];
    for &(a, b) in &graph.edges {
        if a != b {
            outs[a].push(b);
            pending[b] += 1;
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&v| pending[v] == 0).collect();
    let mut done = 0;
    while let Some(v) = ready.pop() {
        done += 1;
        for &w in &outs[v] {
            pending[w] -= 1;
            if pending[w] == 0 {
                ready.push(w);
            }
        }
    }
    done == n
}

/// The edges (self loops aside) that do not run with `direction`: whose target
/// does not lie wholly beyond its source that way.
pub fn against(layout: &Layout, graph: &Graph, direction: Direction) -> Vec<(usize, usize)> {
    graph
        .edges
        .iter()
        .copied()
        .filter(|&(a, b)| a != b)
        .filter(|&(a, b)| {
            let (p, q) = (layout.nodes[a], layout.nodes[b]);
            let (s, t) = (graph.nodes[a], graph.nodes[b]);
            let with = match direction {
                Direction::Down => q.y >= p.y + s.h,
                Direction::Up => q.y + t.h <= p.y,
                Direction::Right => q.x >= p.x + s.w,
                Direction::Left => q.x + t.w <= p.x,
            };
            !with
        })
        .collect()
}
