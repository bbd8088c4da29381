//! Quality of the layouts on the fixture graphs (`tests/fixtures/`): no two nodes
//! overlap, every edge of an acyclic graph runs with the direction, and crossings,
//! bends, area and edges against the direction are no worse than the figures
//! recorded in `tests/baseline.txt` (`UPDATE_EXPECT=1 cargo test -p inkboard-layout` rewrites
//! it). When Graphviz `dot` is on PATH, the layered layout is also held to within
//! 20% of its crossings and area on the same graphs.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use inkboard_layout::{layout, metrics, Algorithm, Direction, Options};

const RUNS: [(Algorithm, Direction); 8] = [
    (Algorithm::Layered, Direction::Down),
    (Algorithm::Layered, Direction::Right),
    (Algorithm::Layered, Direction::Up),
    (Algorithm::Layered, Direction::Left),
    (Algorithm::Tree, Direction::Down),
    (Algorithm::Grid, Direction::Down),
    (Algorithm::Mindmap, Direction::Right),
    (Algorithm::OrgChart, Direction::Down),
];

fn baseline_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/baseline.txt")
}

/// The figures held to the baseline, per "fixture algorithm direction".
#[derive(Clone, Copy, Debug)]
struct Figures {
    crossings: usize,
    bends: usize,
    area: f64,
    against: usize,
}

impl Figures {
    /// True when any figure is worse than `base`'s (area with a hair of
    /// tolerance for the last digit printed).
    fn worse_than(&self, base: &Figures) -> bool {
        self.crossings > base.crossings
            || self.bends > base.bends
            || self.area > base.area * 1.0001
            || self.against > base.against
    }
}

fn parse(text: &str) -> BTreeMap<String, Figures> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let num = |key: &str| {
                f.iter()
                    .find_map(|p| p.strip_prefix(key))
                    .and_then(|v| v.parse::<f64>().ok())
            };
            Some((
                f.get(..3)?.join(" "),
                Figures {
                    crossings: num("crossings=")? as usize,
                    bends: num("bends=")? as usize,
                    area: num("area=")?,
                    against: num("against=")? as usize,
                },
            ))
        })
        .collect()
}

#[test]
fn fixtures_keep_their_baseline() {
    let mut got = BTreeMap::new();
    let mut text = String::from(
        "# Layout quality on the fixture graphs; refreshed by UPDATE_EXPECT=1.\n# bends: corners left after simplifying each path to within 2 units.\n",
    );
    let mut failures = Vec::new();
    for name in common::FIXTURES {
        let fx = common::fixture(name);
        let acyclic = common::acyclic(&fx.graph);
        for (algorithm, direction) in RUNS {
            let options = Options {
                algorithm,
                direction,
                ..Options::default()
            };
            let out = layout(&fx.graph, &options).expect("layout");
            let key = format!("{name} {algorithm:?} {direction:?}").to_lowercase();
            let overlaps = metrics::overlaps(&out.nodes, &fx.graph.nodes);
            if !overlaps.is_empty() {
                failures.push(format!("{key}: overlapping nodes {overlaps:?}"));
            }
            let against = common::against(&out, &fx.graph, direction);
            let both_ways = matches!(algorithm, Algorithm::Grid | Algorithm::Mindmap);
            if acyclic && !both_ways && !against.is_empty() {
                failures.push(format!("{key}: edges against the direction {against:?}"));
            }
            let q = common::quality_of(&out, &fx.graph);
            text += &format!(
                "{key} crossings={} bends={} area={} against={} size={}x{}\n",
                q.crossings,
                q.bends,
                q.area,
                against.len(),
                q.width,
                q.height
            );
            got.insert(
                key,
                Figures {
                    crossings: q.crossings,
                    bends: q.bends,
                    area: q.area,
                    against: against.len(),
                },
            );
        }
    }
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(baseline_path(), &text).expect("write baseline");
    } else {
        let want = parse(&std::fs::read_to_string(baseline_path()).unwrap_or_default());
        for (key, now) in &got {
            match want.get(key) {
                None => failures.push(format!("{key}: no baseline; run with UPDATE_EXPECT=1")),
                Some(base) if now.worse_than(base) => {
                    failures.push(format!("{key}: {now:?}, baseline {base:?}"))
                }
                Some(_) => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn layered_is_within_a_fifth_of_dot() {
    if !common::have_dot() {
        eprintln!("dot is not on PATH: skipped");
        return;
    }
    let mut failures = Vec::new();
    for name in common::FIXTURES {
        let fx = common::fixture(name);
        for direction in [Direction::Down, Direction::Right] {
            let options = Options {
                direction,
                ..Options::default()
            };
            let ours = common::quality_of(&layout(&fx.graph, &options).expect("layout"), &fx.graph);
            // `dot` is on PATH, so a failure here is the harness's (its output
            // no longer parsed), which must not pass for a good comparison.
            let Some(d) = common::dot(&fx.graph, &options) else {
                failures.push(format!("{name} {direction:?}: dot failed"));
                continue;
            };
            let dot = common::quality(&d.nodes, &fx.graph.nodes, &d.paths, &d.ends);
            // A fifth, or two crossings on graphs where dot has almost none.
            let max_crossings = (dot.crossings as f64 * 1.2).max(dot.crossings as f64 + 2.0);
            if ours.crossings as f64 > max_crossings || ours.area > dot.area * 1.2 {
                failures.push(format!("{name} {direction:?}: ours {ours:?}, dot {dot:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
