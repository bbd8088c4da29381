//! Reference renders of `layout`: boards built from the fixture graphs of
//! `inkboard-layout` with the real tools (`create_board`, one `batch` of
//! `add_shape`/`add_connector`, then `layout`), checked for overlapping shapes,
//! for connectors running against the direction and for lines drawn on each
//! other (two connectors that share no end along one line), and drawn to SVG for comparison
//! with `tests/layout/NAME.svg` (among them a mind map and an org chart). `UPDATE_EXPECT=1` rewrites the pictures; set
//! `LAYOUT_PNG_OUT=DIR` to also get PNGs there for a look.

mod common;

use std::path::{Path, PathBuf};

use inkboard_core::{Board, Kind, Rect};
use inkboard_tools::Engine;
use serde_json::{json, Value};

fn fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../inkboard-layout/tests/fixtures")
        .join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("read fixture"))
        .expect("fixture JSON")
}

/// Builds the board of fixture `name`, lays it out with `args`, and returns it.
fn build(name: &str, args: Value, dir: &Path) -> Board {
    let fx = fixture(name);
    let mut ops = Vec::new();
    // Frames first (operations 0..f), so members can go `inside` them.
    let frames = fx["frames"].as_array().cloned().unwrap_or_default();
    let mut frame_of = std::collections::HashMap::new();
    for (k, f) in frames.iter().enumerate() {
        ops.push(json!({"tool": "add_shape", "args": {"geom": "frame", "text": f["title"]}}));
        for n in f["nodes"].as_array().expect("frame nodes") {
            frame_of.insert(n.as_u64().expect("node") as usize, k);
        }
    }
    let first = ops.len();
    for (i, size) in fx["nodes"].as_array().expect("nodes").iter().enumerate() {
        let mut a = json!({"text": format!("n{i}"), "w": size[0], "h": size[1]});
        if let Some(k) = frame_of.get(&i) {
            a["inside"] = json!(format!("${k}.id"));
        }
        ops.push(json!({"tool": "add_shape", "args": a}));
    }
    for e in fx["edges"].as_array().expect("edges") {
        let (a, b) = (
            e[0].as_u64().unwrap() as usize,
            e[1].as_u64().unwrap() as usize,
        );
        ops.push(json!({"tool": "add_connector", "args": {
            "from": format!("${}.id", first + a), "to": format!("${}.id", first + b)}}));
    }
    laid_out(&dir.join(format!("{name}.inkboard")), ops, args)
}

/// A new board at `path` with `ops` run in one `batch`, then `layout` with
/// `args`, as read back from the file.
fn laid_out(path: &Path, ops: Vec<Value>, mut args: Value) -> Board {
    let engine = Engine::new();
    engine
        .call("create_board", json!({"path": path, "overwrite": true}))
        .expect("create_board");
    engine
        .call("batch", json!({"path": path, "operations": ops}))
        .expect("batch");
    args["path"] = json!(path);
    engine.call("layout", args).expect("layout");
    inkboard_format::load(path).expect("load").board
}

/// Pairs of shapes that overlap, a frame and what it holds aside.
fn overlaps(board: &Board) -> Vec<String> {
    let shapes: Vec<(String, Rect, bool)> = board.pages()[0]
        .objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Shape(s) => Some((o.id.to_string(), s.bounds, o.is_frame())),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for (i, a) in shapes.iter().enumerate() {
        for b in &shapes[i + 1..] {
            let nested = (a.2 && a.1.contains(&b.1)) || (b.2 && b.1.contains(&a.1));
            if !nested && a.1.overlaps(&b.1) {
                out.push(format!("{} {:?} / {} {:?}", a.0, a.1, b.0, b.1));
            }
        }
    }
    out
}

/// Connectors whose target is not wholly beyond their source in `direction`.
fn against(board: &Board, direction: &str) -> Vec<String> {
    let page = &board.pages()[0];
    page.objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Connector(c) => {
                let s = board.bounds(c.from.object()?)?;
                let t = board.bounds(c.to.object()?)?;
                let with = match direction {
                    "down" => t.y >= s.bottom(),
                    "up" => t.bottom() <= s.y,
                    "right" => t.x >= s.right(),
                    _ => t.right() <= s.x,
                };
                (!with && c.from != c.to).then(|| o.id.to_string())
            }
            _ => None,
        })
        .collect()
}

/// A straight piece of a drawn line: horizontal or not, where it lies across,
/// and its extent along.
type Straight = (bool, f64, f64, f64);

/// How far apart the renderer keeps parallel lines at the least (8 px).
const APART: f64 = inkboard_render::MIN_LINE_GAP;

/// Pairs of connectors that share no end and whose drawn lines run side by
/// side closer than [`APART`], or along one line, for more than a pixel: there,
/// a reader cannot tell where either goes.
fn lines_on_lines(board: &Board) -> Vec<String> {
    let pieces: Vec<(Drawn, Vec<Straight>)> = drawn(board)
        .into_iter()
        .map(|d| {
            let straight = d
                .line
                .windows(2)
                .filter_map(|w| {
                    let (a, b) = (w[0], w[1]);
                    if (a.y - b.y).abs() < 0.5 {
                        Some((true, a.y, a.x.min(b.x), a.x.max(b.x)))
                    } else if (a.x - b.x).abs() < 0.5 {
                        Some((false, a.x, a.y.min(b.y), a.y.max(b.y)))
                    } else {
                        None
                    }
                })
                .collect();
            (d, straight)
        })
        .collect();
    let mut out = Vec::new();
    for (i, (a, pa)) in pieces.iter().enumerate() {
        for (b, pb) in &pieces[i + 1..] {
            if [&a.ends.0, &a.ends.1]
                .iter()
                .any(|e| *e == &b.ends.0 || *e == &b.ends.1)
            {
                continue;
            }
            let shared: f64 = pa
                .iter()
                .flat_map(|p| pb.iter().map(move |q| (p, q)))
                .filter(|(p, q)| p.0 == q.0 && (p.1 - q.1).abs() < APART)
                .map(|(p, q)| (p.3.min(q.3) - p.2.max(q.2)).max(0.0))
                .sum();
            if shared > 1.0 {
                out.push(format!("{} / {}: {shared:.0} px", a.id, b.id));
            }
        }
    }
    out
}

fn expected_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/layout")
}

/// Builds, checks and compares one render.
fn case(file: &str, fixture: &str, args: Value, acyclic: bool) -> Option<String> {
    let tmp = tempfile::tempdir().expect("temp dir");
    let board = build(fixture, args.clone(), tmp.path());
    let mut problems = Vec::new();
    let o = overlaps(&board);
    if !o.is_empty() {
        problems.push(format!("{file}: overlapping shapes:\n  {}", o.join("\n  ")));
    }
    let algorithm = args["algorithm"].as_str().unwrap_or("layered");
    // A grid ignores the direction, and a mind map runs both ways on purpose.
    if acyclic && algorithm != "grid" && algorithm != "mindmap" {
        let direction = args["direction"].as_str().unwrap_or("down");
        let a = against(&board, direction);
        if !a.is_empty() {
            problems.push(format!("{file}: connectors against {direction}: {a:?}"));
        }
    }
    let page = board.pages()[0].id;
    let scene = inkboard_render::resolve(&board, page);
    let hidden = lines_on_lines(&board);
    if !hidden.is_empty() {
        problems.push(format!(
            "{file}: lines on each other:\n  {}",
            hidden.join("\n  ")
        ));
    }
    // Without the embedded font (700 KB a file): the pictures are compared as
    // text, and the font is the same every time.
    let options = inkboard_render::SvgOptions {
        embed_fonts: false,
        ..Default::default()
    };
    let svg = inkboard_render::to_svg_with(&scene, None, options);
    if let Some(out) = std::env::var_os("LAYOUT_PNG_OUT") {
        let png = inkboard_render::to_png(&scene, None, 2400).expect("png");
        std::fs::write(Path::new(&out).join(format!("{file}.png")), png.data).expect("write png");
    }
    let path = expected_dir().join(format!("{file}.svg"));
    problems.extend(common::expect_file(&path, &svg, file));
    (!problems.is_empty()).then(|| problems.join("\n"))
}

#[test]
fn layouts_render_as_recorded() {
    let cases = [
        ("dag50-down", "dag50", json!({}), true),
        ("random63-down", "random63", json!({}), true),
        ("dag50-right", "dag50", json!({"direction": "right"}), true),
        (
            "tree100-tree",
            "tree100",
            json!({"algorithm": "tree"}),
            true,
        ),
        (
            "tree100-layered-left",
            "tree100",
            json!({"direction": "left"}),
            true,
        ),
        ("cycles-down", "cycles", json!({}), false),
        (
            "disconnected-up",
            "disconnected",
            json!({"direction": "up"}),
            false,
        ),
        (
            "disconnected-grid",
            "disconnected",
            json!({"algorithm": "grid"}),
            false,
        ),
        ("frames-down", "frames", json!({}), true),
        ("mindmap", "mindmap", json!({"algorithm": "mindmap"}), false),
        (
            "orgchart",
            "orgchart",
            json!({"algorithm": "org_chart"}),
            true,
        ),
        (
            "frames-right",
            "frames",
            json!({"direction": "right", "spacing": 30}),
            true,
        ),
    ];
    let failures: Vec<String> = cases
        .into_iter()
        .filter_map(|(file, fx, args, acyclic)| case(file, fx, args, acyclic))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each connector of a board as drawn: its id, its ends' boxes, the line's
/// points (curves flattened) and the junction dots drawn with it.
struct Drawn {
    id: String,
    /// The ids of the objects at its ends.
    ends: (String, String),
    from: Rect,
    to: Rect,
    line: Vec<inkboard_core::Point>,
    dots: usize,
}

fn drawn(board: &Board) -> Vec<Drawn> {
    use inkboard_render::scene::{Part, Seg};
    let page = &board.pages()[0];
    let scene = inkboard_render::resolve(board, page.id);
    page.objects
        .iter()
        .filter_map(|o| match &o.kind {
            Kind::Connector(c) => Some((o, c)),
            _ => None,
        })
        .map(|(o, c)| {
            let item = scene.items.iter().find(|i| i.id == o.id).expect("drawn");
            let paths: Vec<&Vec<Seg>> = item
                .parts
                .iter()
                .filter_map(|p| match p {
                    Part::Path(p) => Some(&p.segs),
                    _ => None,
                })
                .collect();
            // Heads of these boards are open arrows: a filled round path is a dot.
            let dots = item
                .parts
                .iter()
                .skip(1)
                .filter(|p| matches!(p, Part::Path(p) if p.fill.is_some()))
                .count();
            let (a, b) = (c.from.object().unwrap(), c.to.object().unwrap());
            Drawn {
                id: o.id.to_string(),
                ends: (a.to_string(), b.to_string()),
                from: board.bounds(a).unwrap(),
                to: board.bounds(b).unwrap(),
                line: inkboard_render::route::polyline(paths[0]),
                dots,
            }
        })
        .collect()
}

/// Which side of `r` the point `p` lies on (within 2 px: an arrowhead pulls a
/// line's end back by half its width).
fn side_of(r: Rect, p: inkboard_core::Point) -> Option<&'static str> {
    let near = |a: f64, b: f64| (a - b).abs() <= 2.0;
    let within = |v: f64, lo: f64, hi: f64| lo - 2.0 <= v && v <= hi + 2.0;
    if near(p.x, r.x) && within(p.y, r.y, r.bottom()) {
        Some("left")
    } else if near(p.x, r.right()) && within(p.y, r.y, r.bottom()) {
        Some("right")
    } else if near(p.y, r.y) && within(p.x, r.x, r.right()) {
        Some("top")
    } else if near(p.y, r.bottom()) && within(p.x, r.x, r.right()) {
        Some("bottom")
    } else {
        None
    }
}

/// Pairs of lines that cross (at a point inside a segment of each).
fn crossing_pairs(lines: &[Drawn]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for i in 0..lines.len() {
        for j in i + 1..lines.len() {
            if inkboard_geom::crossings(&lines[i].line, &lines[j].line) > 0 {
                out.push((i, j));
            }
        }
    }
    out
}

/// A mind map's branches leave their parent by the side facing the child and
/// enter the child by its near side (left and right: the map spreads sideways),
/// and no two cross.
#[test]
fn mind_map_branches_join_facing_sides_without_crossing() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let board = build("mindmap", json!({"algorithm": "mindmap"}), tmp.path());
    let lines = drawn(&board);
    for d in &lines {
        let right = d.to.center().x > d.from.center().x;
        let (out, into) = if right {
            ("right", "left")
        } else {
            ("left", "right")
        };
        let (first, last) = (d.line[0], d.line[d.line.len() - 1]);
        assert_eq!(side_of(d.from, first), Some(out), "{:?}", d.line);
        assert_eq!(side_of(d.to, last), Some(into), "{:?}", d.line);
    }
    assert_eq!(crossing_pairs(&lines), vec![]);
}

/// An org chart's lines from one parent share one start at the middle of its
/// bottom and enter each child by its top, or, for leaves stacked either side of
/// the trunk, by the side facing it; every parent of two or more children has a
/// junction dot, and no two lines cross.
#[test]
fn org_chart_lines_share_a_trunk_with_junction_dots() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let board = build("orgchart", json!({"algorithm": "org_chart"}), tmp.path());
    let lines = drawn(&board);
    let mut parents: Vec<(Rect, Vec<&Drawn>)> = Vec::new();
    for d in &lines {
        match parents.iter_mut().find(|(p, _)| *p == d.from) {
            Some((_, kids)) => kids.push(d),
            None => parents.push((d.from, vec![d])),
        }
    }
    for (parent, kids) in &parents {
        let port = inkboard_core::Point {
            x: parent.center().x,
            y: parent.bottom(),
        };
        let stacked = kids.iter().any(|d| d.to.y != kids[0].to.y);
        for d in kids {
            assert_eq!(d.line[0], port, "one start for {parent:?}");
            let last = d.line[d.line.len() - 1];
            let want = match (stacked, d.to.center().x < port.x) {
                (false, _) => "top",
                (true, true) => "right",
                (true, false) => "left",
            };
            assert_eq!(side_of(d.to, last), Some(want), "{:?}", d.line);
        }
        if kids.len() >= 2 {
            let dots: usize = kids.iter().map(|d| d.dots).sum();
            assert!(dots >= 1, "no junction dot below {parent:?}");
        }
    }
    assert_eq!(crossing_pairs(&lines), vec![]);
}

/// Builds a graph of the quality benchmark's corpus (`tests/quality/corpus`) as
/// the benchmark does: one `add_shape` per node with its shape and label (so
/// sized to fit it), one `add_connector` per edge, then `layout` with its
/// defaults.
fn build_corpus(set: &str, name: &str, dir: &Path) -> Board {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/quality/corpus")
        .join(set)
        .join(format!("{name}.json"));
    let g: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read graph"))
        .expect("graph JSON");
    let nodes = g["nodes"].as_array().expect("nodes");
    let index: std::collections::HashMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n["id"].as_str().expect("id"), i))
        .collect();
    let shapes: Vec<Value> = nodes
        .iter()
        .map(|n| json!({"tool": "add_shape", "args": {"geom": n["shape"], "text": n["label"]}}))
        .collect();
    let path = dir.join(format!("{name}.inkboard"));
    let engine = Engine::new();
    engine
        .call("create_board", json!({"path": path, "overwrite": true}))
        .expect("create_board");
    // A batch holds 200 operations: the shapes first, then the connectors by id.
    let Ok(inkboard_tools::Reply::Json(added)) =
        engine.call("batch", json!({"path": path, "operations": shapes}))
    else {
        panic!("batch of shapes failed");
    };
    let ids: Vec<&Value> = added["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| &r["id"])
        .collect();
    let links: Vec<Value> = g["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .map(|e| {
            let end = |k: &str| ids[index[e[k].as_str().expect("end")]];
            json!({"tool": "add_connector", "args": {"from": end("from"), "to": end("to")}})
        })
        .collect();
    for chunk in links.chunks(200) {
        engine
            .call("batch", json!({"path": path, "operations": chunk}))
            .expect("batch of connectors");
    }
    engine
        .call("layout", json!({"path": path}))
        .expect("layout");
    inkboard_format::load(&path).expect("load").board
}

/// The pairs of connector ends on one object closer than `within` px: each as
/// the object's box and the two points.
fn close_ends(lines: &[Drawn], within: f64) -> Vec<String> {
    let mut ends: Vec<(&str, Rect, inkboard_core::Point, usize)> = Vec::new();
    for (k, d) in lines.iter().enumerate() {
        ends.push((&d.ends.0, d.from, d.line[0], k));
        ends.push((&d.ends.1, d.to, d.line[d.line.len() - 1], k));
    }
    let mut out = Vec::new();
    for (i, a) in ends.iter().enumerate() {
        for b in &ends[i + 1..] {
            let d = (a.2.x - b.2.x).hypot(a.2.y - b.2.y);
            if a.0 == b.0 && a.3 != b.3 && d < within {
                out.push(format!("{} {:?}: {:?} and {:?}", a.0, a.1, a.2, b.2));
            }
        }
    }
    out
}

/// Hubs of Graphviz's gallery graphs, ellipses with 7 to 34 lines and
/// `trapeziumlr`'s box with 52: every two of their ends keep 8 px apart. They
/// met on one point where one side's fan ran round the ellipse into the next
/// side's, and came 2–8 px apart where a side held more lines than it had room
/// for, until `layout` widened such hubs across the flow.
#[test]
fn hub_ends_keep_apart_on_ellipses() {
    let tmp = tempfile::tempdir().expect("temp dir");
    for (name, within) in [
        ("NaN", 8.0),
        ("jsort", 8.0),
        ("oldarrows", 8.0),
        ("abstract", 8.0),
        ("fig6", 8.0),
        ("trapeziumlr", 8.0),
    ] {
        let board = build_corpus("gallery", name, tmp.path());
        let close = close_ends(&drawn(&board), within);
        assert!(
            close.is_empty(),
            "{name}: ends within {within} px:\n{close:#?}"
        );
    }
}

/// Random DAGs of the benchmark whose lines ran closer than 8 px: in
/// `dag07_n42` the renderer's routes needed more tracks between two layers than
/// the layout gave the gap (a 60 px gap with six lines side by side, two of them
/// 4 px apart), so the gap is widened; in `dag19_n96` two port legs came 6 px
/// apart when the nudge last moved the lines across them, so it goes round once
/// more. Every two lines that share no end keep 8 px apart.
#[test]
fn lines_keep_apart_on_random_dags() {
    let tmp = tempfile::tempdir().expect("temp dir");
    for name in ["dag07_n42", "dag19_n96"] {
        let board = build_corpus("random", name, tmp.path());
        let close = lines_on_lines(&board);
        assert!(
            close.is_empty(),
            "{name}: lines closer than {APART} px:\n{close:#?}"
        );
    }
}

/// Which side of `r` point `p` is on, as a reader sees it: the one it lies
/// furthest out towards, against the half-size of the box (a diamond's or
/// ellipse's corner is its side's; the benchmark's `side_of`).
fn facing_side(r: Rect, p: inkboard_core::Point) -> &'static str {
    let c = r.center();
    let (dx, dy) = ((p.x - c.x) / (r.w / 2.0), (p.y - c.y) / (r.h / 2.0));
    match (dx.abs() >= dy.abs(), dx > 0.0, dy > 0.0) {
        (true, true, _) => "right",
        (true, false, _) => "left",
        (false, _, true) => "bottom",
        (false, _, false) => "top",
    }
}

/// Flowcharts of the benchmark with decisions (diamonds) and ellipses: every
/// line to a shape wholly below leaves by the bottom and enters by the top, a
/// diamond by its corner's half of the side, not straight down onto or off a
/// slanted edge (before: 14 such ends on these and the other flowcharts).
#[test]
fn flowchart_lines_leave_bottoms_and_enter_tops() {
    let tmp = tempfile::tempdir().expect("temp dir");
    for name in ["approval_flow", "bug_triage", "http_retry", "ci_pipeline"] {
        let board = build_corpus("flowcharts", name, tmp.path());
        let against: Vec<String> = drawn(&board)
            .iter()
            .filter(|d| d.to.y >= d.from.bottom())
            .filter_map(|d| {
                let (a, b) = (d.line[0], d.line[d.line.len() - 1]);
                let sides = (facing_side(d.from, a), facing_side(d.to, b));
                (sides != ("bottom", "top"))
                    .then(|| format!("{} leaves {} enters {}", d.id, sides.0, sides.1))
            })
            .collect();
        assert!(against.is_empty(), "{name}: {against:#?}");
    }
}

/// Lines that meet one side of a shape crossed each other there where the line
/// to the farther shape took the inner port or turned on the far track; they
/// now trade ports or tracks (`route/untangle.rs` of the renderer). In these
/// graphs of the benchmark, which ELK draws without a crossing of two lines
/// sharing an end (each had one to three), no two such lines cross.
#[test]
fn lines_sharing_an_end_do_not_cross() {
    let tmp = tempfile::tempdir().expect("temp dir");
    for (set, name) in [
        ("random", "dag00_n10"),
        ("gallery", "train11"),
        ("gallery", "arrows"),
        ("gallery", "honda-tokoro"),
    ] {
        let board = build_corpus(set, name, tmp.path());
        let lines = drawn(&board);
        let tangled: Vec<String> = crossing_pairs(&lines)
            .into_iter()
            .filter(|&(i, j)| {
                let (a, b) = (&lines[i].ends, &lines[j].ends);
                a.0 == b.0 || a.0 == b.1 || a.1 == b.0 || a.1 == b.1
            })
            .map(|(i, j)| format!("{:?} and {:?}", lines[i].line, lines[j].line))
            .collect();
        assert!(tangled.is_empty(), "{name}: {tangled:#?}");
    }
}
