//! Routing rules on small graphs laid out as the `layout` tool lays them out
//! (layered, down, spacing 40 and 60 between layers), measured on the connectors
//! as drawn in the resolved scene:
//!
//! - no two edges that share no node run on one line, or closer than 8 px side by
//!   side (`no_line_is_hidden`);
//! - arrowheads on one node keep 8 px apart: no shared port, no stacked heads
//!   (`ports_are_distinct`);
//! - in a fixture marked `rule flow`, every edge to a node in a lower layer leaves
//!   its source's bottom and enters its target's top (`ports_follow_the_flow`);
//! - in a fixture marked `rule crossings N`, the drawing has at most N crossings
//!   (`small_flowcharts_do_not_cross`);
//! - an edge named by `rule straight A B` (the edge from A to B) is drawn as one
//!   straight line, without a bend (`lines_between_shapes_in_line_run_straight`).
//!
//! The fixtures are `tests/routing/*.txt`: `a -> b` lines (nodes appear as
//! named), `node NAME GEOM [WxH]` for a node's shape, `rule ...` for the rules
//! above. Every fixture's figures are also held in `tests/routing/figures.txt`
//! (`UPDATE_EXPECT=1` rewrites it), so that a change in the drawings shows in a
//! diff.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::*;
use inkboard_core::{End, Geom, ObjectId, Point, Rect};
use inkboard_layout::{layout, metrics, Graph, Options, Size};
use inkboard_render::resolve;
use inkboard_render::scene::{Part, Seg};

/// The least distance between parallel lines of edges that share no node, and
/// between arrowheads on one node.
const MIN_GAP: f64 = 8.0;

struct Fixture {
    name: String,
    names: Vec<String>,
    geoms: Vec<(Geom, Size)>,
    edges: Vec<(usize, usize)>,
    crossings: Option<usize>,
    flow: bool,
    /// The edges (by name of their ends) that must be drawn straight.
    straight: Vec<(String, String)>,
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/routing")
}

fn fixtures() -> Vec<Fixture> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt") && !p.ends_with("figures.txt"))
        .collect();
    files.sort();
    files.iter().map(|p| parse(p)).collect()
}

fn parse(path: &Path) -> Fixture {
    let text = std::fs::read_to_string(path).unwrap();
    let mut f = Fixture {
        name: path.file_stem().unwrap().to_string_lossy().into_owned(),
        names: Vec::new(),
        geoms: Vec::new(),
        edges: Vec::new(),
        crossings: None,
        flow: false,
        straight: Vec::new(),
    };
    fn node(f: &mut Fixture, name: &str) -> usize {
        if let Some(i) = f.names.iter().position(|n| n == name) {
            return i;
        }
        f.names.push(name.to_string());
        f.geoms.push((Geom::Rect, Size::new(120.0, 60.0)));
        f.names.len() - 1
    }
    for line in text.lines().map(str::trim) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [w, ..] if w.starts_with('#') => {}
            ["rule", "crossings", n] => f.crossings = Some(n.parse().unwrap()),
            ["rule", "flow"] => f.flow = true,
            ["rule", "straight", a, b] => f.straight.push((a.to_string(), b.to_string())),
            ["node", name, geom, rest @ ..] => {
                let i = node(&mut f, name);
                let geom = match *geom {
                    "rect" => Geom::Rect,
                    "rounded" => Geom::Rounded,
                    "diamond" => Geom::Diamond,
                    "ellipse" => Geom::Ellipse,
                    g => panic!("{}: unknown geom {g}", f.name),
                };
                let size = match rest {
                    [wh] => {
                        let (w, h) = wh.split_once('x').unwrap();
                        Size::new(w.parse().unwrap(), h.parse().unwrap())
                    }
                    _ if geom == Geom::Diamond => Size::new(140.0, 80.0),
                    _ => Size::new(120.0, 60.0),
                };
                f.geoms[i] = (geom, size);
            }
            [a, "->", b] => {
                let (a, b) = (node(&mut f, a), node(&mut f, b));
                f.edges.push((a, b));
            }
            _ => panic!("{}: cannot read {line:?}", f.name),
        }
    }
    f
}

/// A fixture drawn: each node's box, and each edge's line (its corners as
/// drawn, curves flattened) and arrowhead tip.
struct Drawn {
    boxes: Vec<Rect>,
    lines: Vec<Vec<Point>>,
}

fn draw(f: &Fixture) -> Drawn {
    let graph = Graph {
        nodes: f.geoms.iter().map(|g| g.1).collect(),
        edges: f.edges.clone(),
    };
    let options = Options {
        node_spacing: 40.0,
        layer_spacing: 60.0,
        ..Options::default()
    };
    let out = layout(&graph, &options).unwrap();
    let mut b = Build::new();
    let mut boxes = Vec::new();
    let ids: Vec<ObjectId> = out
        .nodes
        .iter()
        .zip(&f.geoms)
        .zip(&f.names)
        .map(|((p, (geom, size)), name)| {
            let r = Rect::new(p.x + 40.0, p.y + 40.0, size.w, size.h);
            boxes.push(r);
            b.shape(*geom, [r.x, r.y, r.w, r.h], name)
        })
        .collect();
    for &(s, t) in &f.edges {
        b.connect(
            End::Object(ids[s].clone()),
            End::Object(ids[t].clone()),
            inkboard_core::Route::Orthogonal,
            inkboard_core::Arrow::Arrow,
        );
    }
    let scene = resolve(&b.board, PAGE);
    // ROUTING_SVG=DIR draws every fixture there, to look at.
    if let Some(out) = std::env::var_os("ROUTING_SVG") {
        let svg = inkboard_render::to_svg(&scene, None);
        std::fs::write(Path::new(&out).join(format!("{}.svg", f.name)), svg).unwrap();
        let png = inkboard_render::to_png(&scene, None, 1600).unwrap();
        std::fs::write(Path::new(&out).join(format!("{}.png", f.name)), png.data).unwrap();
    }
    let lines = scene
        .items
        .iter()
        .filter(|i| i.kind == "connector")
        .map(|i| {
            let segs = i
                .parts
                .iter()
                .find_map(|p| match p {
                    Part::Path(p) => Some(&p.segs),
                    _ => None,
                })
                .unwrap();
            let mut pts = Vec::new();
            for s in segs {
                match *s {
                    Seg::Move(p) | Seg::Line(p) => pts.push(p),
                    Seg::Cubic(c1, c2, p) => {
                        let p0 = *pts.last().unwrap();
                        for k in 1..=12 {
                            let t = k as f64 / 12.0;
                            let u = 1.0 - t;
                            let (a, bb, c, d) =
                                (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
                            pts.push(Point {
                                x: a * p0.x + bb * c1.x + c * c2.x + d * p.x,
                                y: a * p0.y + bb * c1.y + c * c2.y + d * p.y,
                            });
                        }
                    }
                    Seg::Close => {}
                }
            }
            pts
        })
        .collect();
    Drawn { boxes, lines }
}

/// Whether two edges share a node.
fn related(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 == b.0 || a.0 == b.1 || a.1 == b.0 || a.1 == b.1
}

/// The length along which axis-parallel segments of edges that share no node lie
/// closer than [`MIN_GAP`] side by side (on one line included).
fn hidden(f: &Fixture, d: &Drawn) -> (f64, Vec<String>) {
    let mut total = 0.0;
    let mut worst = Vec::new();
    for i in 0..d.lines.len() {
        for j in i + 1..d.lines.len() {
            if related(f.edges[i], f.edges[j]) {
                continue;
            }
            for s in d.lines[i].windows(2) {
                for t in d.lines[j].windows(2) {
                    let l = close_parallel(s[0], s[1], t[0], t[1]);
                    if l > 0.5 {
                        total += l;
                        worst.push(format!(
                            "{}->{} and {}->{}: {l:.0} px at {:?}",
                            f.names[f.edges[i].0],
                            f.names[f.edges[i].1],
                            f.names[f.edges[j].0],
                            f.names[f.edges[j].1],
                            s
                        ));
                    }
                }
            }
        }
    }
    (total, worst)
}

/// The length over which two axis-parallel segments run side by side closer
/// than [`MIN_GAP`]; 0 for segments that are not parallel.
fn close_parallel(a: Point, b: Point, c: Point, d: Point) -> f64 {
    let horizontal = |p: Point, q: Point| (p.y - q.y).abs() < 1e-6 && (p.x - q.x).abs() > 1e-6;
    let vertical = |p: Point, q: Point| (p.x - q.x).abs() < 1e-6 && (p.y - q.y).abs() > 1e-6;
    let (across, lo1, hi1, lo2, hi2) = if horizontal(a, b) && horizontal(c, d) {
        (
            (a.y - c.y).abs(),
            a.x.min(b.x),
            a.x.max(b.x),
            c.x.min(d.x),
            c.x.max(d.x),
        )
    } else if vertical(a, b) && vertical(c, d) {
        (
            (a.x - c.x).abs(),
            a.y.min(b.y),
            a.y.max(b.y),
            c.y.min(d.y),
            c.y.max(d.y),
        )
    } else {
        return 0.0;
    };
    if across >= MIN_GAP - 1e-6 {
        return 0.0;
    }
    (hi1.min(hi2) - lo1.max(lo2)).max(0.0)
}

/// The least distance between two arrowhead tips on one node, and where.
fn port_gap(f: &Fixture, d: &Drawn) -> (f64, String) {
    let mut best = (f64::INFINITY, String::new());
    for i in 0..d.lines.len() {
        for j in i + 1..d.lines.len() {
            let (ti, tj) = (f.edges[i].1, f.edges[j].1);
            if ti != tj {
                continue;
            }
            let (p, q) = (*d.lines[i].last().unwrap(), *d.lines[j].last().unwrap());
            let gap = ((p.x - q.x).powi(2) + (p.y - q.y).powi(2)).sqrt();
            if gap < best.0 {
                best = (
                    gap,
                    format!(
                        "into {} at {p:?} and {q:?} (from {} and {})",
                        f.names[ti], f.names[f.edges[i].0], f.names[f.edges[j].0]
                    ),
                );
            }
        }
    }
    best
}

/// The edges between layers (target wholly below source) that leave other than
/// by the source's bottom or enter other than by the target's top.
fn against_flow(f: &Fixture, d: &Drawn) -> Vec<String> {
    let mut out = Vec::new();
    for (k, &(s, t)) in f.edges.iter().enumerate() {
        let (a, b) = (d.boxes[s], d.boxes[t]);
        if b.y < a.bottom() || s == t {
            continue;
        }
        let line = &d.lines[k];
        let n = line.len();
        let down = |p: Point, q: Point| (p.x - q.x).abs() < 1e-6 && q.y > p.y;
        // Leaves downward from the bottom half and arrives downward at the top half.
        let leaves = down(line[0], line[1]) && line[0].y >= a.center().y;
        let enters = down(line[n - 2], line[n - 1]) && line[n - 1].y <= b.center().y;
        if !(leaves && enters) {
            out.push(format!("{}->{}: {line:?}", f.names[s], f.names[t]));
        }
    }
    out
}

fn crossings(f: &Fixture, d: &Drawn) -> usize {
    let paths: Vec<Vec<inkboard_layout::Point>> = d
        .lines
        .iter()
        .map(|l| {
            l.iter()
                .map(|p| inkboard_layout::Point { x: p.x, y: p.y })
                .collect()
        })
        .collect();
    metrics::crossings(&paths, &f.edges)
}

fn bends(d: &Drawn) -> usize {
    d.lines.iter().map(|l| l.len().saturating_sub(2)).sum()
}

/// Every fixture, drawn once.
fn drawn() -> Vec<(Fixture, Drawn)> {
    fixtures()
        .into_iter()
        .map(|f| {
            let d = draw(&f);
            (f, d)
        })
        .collect()
}

#[test]
fn no_line_is_hidden() {
    let mut bad = Vec::new();
    for (f, d) in drawn() {
        let (len, worst) = hidden(&f, &d);
        if len > 0.0 {
            bad.push(format!("{}: {len:.0} px\n  {}", f.name, worst.join("\n  ")));
        }
    }
    assert!(bad.is_empty(), "lines run together:\n{}", bad.join("\n"));
}

#[test]
fn ports_are_distinct() {
    let mut bad = Vec::new();
    for (f, d) in drawn() {
        let (gap, at) = port_gap(&f, &d);
        if gap < MIN_GAP - 1e-6 {
            bad.push(format!("{}: {gap:.1} px {at}", f.name));
        }
    }
    assert!(bad.is_empty(), "arrowheads too close:\n{}", bad.join("\n"));
}

#[test]
fn ports_follow_the_flow() {
    let mut bad = Vec::new();
    for (f, d) in drawn().into_iter().filter(|(f, _)| f.flow) {
        let against = against_flow(&f, &d);
        if !against.is_empty() {
            bad.push(format!("{}:\n  {}", f.name, against.join("\n  ")));
        }
    }
    assert!(
        bad.is_empty(),
        "side entries in a down flow:\n{}",
        bad.join("\n")
    );
}

#[test]
fn small_flowcharts_do_not_cross() {
    let mut bad = Vec::new();
    for (f, d) in drawn() {
        let Some(max) = f.crossings else { continue };
        let c = crossings(&f, &d);
        if c > max {
            bad.push(format!("{}: {c} crossings, at most {max}", f.name));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn lines_between_shapes_in_line_run_straight() {
    let mut bad = Vec::new();
    for (f, d) in drawn() {
        for (a, b) in &f.straight {
            let at = |n: &str| f.names.iter().position(|x| x == n);
            let (Some(s), Some(t)) = (at(a), at(b)) else {
                panic!("{}: rule straight {a} {b} names no node", f.name);
            };
            let Some(k) = f.edges.iter().position(|&e| e == (s, t)) else {
                panic!("{}: rule straight {a} {b} names no edge", f.name);
            };
            if d.lines[k].len() != 2 {
                bad.push(format!("{}: {a}->{b} runs {:?}", f.name, d.lines[k]));
            }
        }
    }
    assert!(bad.is_empty(), "lines with bends:\n{}", bad.join("\n"));
}

#[test]
fn figures_match_the_record() {
    let mut now = BTreeMap::new();
    for (f, d) in drawn() {
        let (hidden, _) = hidden(&f, &d);
        let (gap, _) = port_gap(&f, &d);
        let gap = if gap.is_finite() {
            format!("{gap:.1}")
        } else {
            "-".into()
        };
        now.insert(
            f.name.clone(),
            format!(
                "{} crossings={} hidden={hidden:.0} port_gap={gap} against_flow={} bends={}",
                f.name,
                crossings(&f, &d),
                against_flow(&f, &d).len(),
                bends(&d)
            ),
        );
    }
    let text = format!(
        "# Routing figures of tests/routing/*.txt; refreshed by UPDATE_EXPECT=1.\n{}\n",
        now.values().cloned().collect::<Vec<_>>().join("\n")
    );
    let path = dir().join("figures.txt");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(text, want, "figures changed; UPDATE_EXPECT=1 records them");
}
