//! Layout rules held on fixtures: each `tests/rules/NAME.json` builds a board
//! (`setup`, a list of tool calls), runs the calls under test (`act`) and checks
//! the rules it names (`rules`); the shapes' bounds at the end are compared with
//! `tests/rules/NAME.expected.json` (`UPDATE_EXPECT=1 cargo test -p
//! inkboard-tools --test rules` rewrites them). The rules fail on their own,
//! whatever the expected file says:
//!
//! - `frames`: no frame covers what is not its own. After `act`, two frames
//!   either lie apart or one holds the other, no shape lies partly in a frame,
//!   and nothing that lay outside a frame before `act` lies in it after, unless
//!   it is named in `joins` (what `act` put there on purpose) or was made by
//!   `act`.
//! - `still`: these ids keep their bounds.
//! - `others_still`: every shape that existed before `act` and is not named in
//!   it (its `ids`) keeps its bounds.
//! - `no_overlap`: no two shapes (frames apart) overlap.
//! - `order`: these ids lie in reading order (each row from the left, rows
//!   from the top).
//! - `sizes`: these ids have these sizes (`[w, h]`).

mod common;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use common::Board;
use inkboard_tools::Engine;
use serde_json::{json, Value};

#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    frame: bool,
}

impl Rect {
    fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }
    fn contains(&self, o: &Rect) -> bool {
        o.x >= self.x - 1e-6
            && o.y >= self.y - 1e-6
            && o.x + o.w <= self.x + self.w + 1e-6
            && o.y + o.h <= self.y + self.h + 1e-6
    }
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rules")
}

/// The shapes and images of the first page, by id.
fn shapes(board: &Board, engine: &Engine) -> BTreeMap<String, Rect> {
    let page = board
        .call(engine, "read_board", json!({}))
        .expect("read_board");
    page["page"]["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .filter(|o| o["type"] == "shape" || o["type"] == "image")
        .map(|o| {
            let n = |k: &str| o[k].as_f64().expect("a number");
            (
                o["id"].as_str().expect("id").to_string(),
                Rect {
                    x: n("x"),
                    y: n("y"),
                    w: n("w"),
                    h: n("h"),
                    frame: o["geom"] == "frame",
                },
            )
        })
        .collect()
}

fn run(board: &Board, engine: &Engine, calls: &Value) -> Vec<Value> {
    let mut answers = Vec::new();
    for call in calls.as_array().into_iter().flatten() {
        let tool = call["tool"].as_str().expect("tool");
        let args = call.get("args").cloned().unwrap_or(json!({}));
        answers.push(match board.call(engine, tool, args) {
            Ok(v) => v,
            Err(e) => json!({"error": e.to_string()}),
        });
    }
    answers
}

fn ids(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s.as_str().map(str::to_string))
        .collect()
}

/// Checks the rules of one case; the failures, as sentences.
fn check(
    case: &Value,
    before: &BTreeMap<String, Rect>,
    after: &BTreeMap<String, Rect>,
) -> Vec<String> {
    let rules = &case["rules"];
    let mut failures = Vec::new();
    if rules["frames"] == true {
        let joins: HashSet<String> = ids(&rules["joins"]).into_iter().collect();
        for (fid, f) in after.iter().filter(|(_, r)| r.frame) {
            for (oid, o) in after.iter().filter(|(id, _)| *id != fid) {
                if !f.overlaps(o) || f.contains(o) || (o.frame && o.contains(f)) {
                    continue;
                }
                failures.push(format!("{oid} lies partly in frame {fid}"));
            }
            for (oid, o) in after {
                let Some(was) = before.get(oid) else { continue };
                let Some(fwas) = before.get(fid) else {
                    continue;
                };
                let joined = f.contains(o) && !fwas.contains(was) && !(o.frame && o.contains(f));
                if oid != fid && joined && !joins.contains(oid) {
                    failures.push(format!("frame {fid} grew over {oid}"));
                }
            }
        }
    }
    let named: HashSet<String> = case["act"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|c| ids(&c["args"]["ids"]))
        .collect();
    let mut still = ids(&rules["still"]);
    if rules["others_still"] == true {
        still.extend(before.keys().filter(|id| !named.contains(*id)).cloned());
    }
    for id in still {
        if before.get(&id) != after.get(&id) {
            failures.push(format!(
                "{id} moved: {:?} → {:?}",
                before.get(&id),
                after.get(&id)
            ));
        }
    }
    if rules["no_overlap"] == true {
        let solid: Vec<(&String, &Rect)> = after.iter().filter(|(_, r)| !r.frame).collect();
        for (k, (a, ra)) in solid.iter().enumerate() {
            for (b, rb) in &solid[k + 1..] {
                if ra.overlaps(rb) {
                    failures.push(format!("{a} and {b} overlap"));
                }
            }
        }
    }
    let order = ids(&rules["order"]);
    for pair in order.windows(2) {
        let (a, b) = (after[&pair[0]], after[&pair[1]]);
        // b comes after a: in a later row, or in a's row further right.
        let later_row = b.y >= a.y + a.h;
        let same_row = b.y < a.y + a.h && a.y < b.y + b.h && b.x >= a.x + a.w;
        if !(later_row || same_row) {
            failures.push(format!(
                "{} does not come after {} in reading order",
                pair[1], pair[0]
            ));
        }
    }
    if let Some(sizes) = rules["sizes"].as_object() {
        for (id, size) in sizes {
            let want = (size[0].as_f64().unwrap(), size[1].as_f64().unwrap());
            let r = after[id];
            if (r.w, r.h) != want {
                failures.push(format!(
                    "{id} is {}×{}, not {}×{}",
                    r.w, r.h, want.0, want.1
                ));
            }
        }
    }
    failures
}

#[test]
fn layout_rules_hold_on_the_fixtures() {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("tests/rules")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.to_string_lossy().ends_with(".json")
                && !p.to_string_lossy().ends_with(".expected.json")
        })
        .collect();
    names.sort();
    assert!(!names.is_empty());
    let mut failures = Vec::new();
    for path in names {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let case: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read case"))
            .expect("case JSON");
        let engine = Engine::new();
        let board = Board::new(&engine, &[]);
        for answer in run(&board, &engine, &case["setup"]) {
            assert!(
                answer.get("error").is_none(),
                "{name}: setup failed: {answer}"
            );
        }
        let before = shapes(&board, &engine);
        let answers = run(&board, &engine, &case["act"]);
        let after = shapes(&board, &engine);
        for f in check(&case, &before, &after) {
            failures.push(format!("{name}: {f}"));
        }
        let bounds: BTreeMap<&String, [f64; 4]> = after
            .iter()
            .map(|(id, r)| (id, [r.x, r.y, r.w, r.h]))
            .collect();
        let got = serde_json::to_string_pretty(&json!({"answers": answers, "bounds": bounds}))
            .unwrap()
            + "\n";
        if let Some(diff) =
            common::expect_file(&dir().join(format!("{name}.expected.json")), &got, &name)
        {
            failures.push(diff);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
