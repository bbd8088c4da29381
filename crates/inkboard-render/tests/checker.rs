//! The checker's corpus: boards in `tests/checker/`, each a JSON file listing its
//! objects and the problems `check` must report on it (kind and ids), none for a
//! clean board. The test checks every board, prints the misses and the noise, and
//! the recall (planted problems found) and precision (problems reported that were
//! planted) over the whole corpus; it fails under 100% of either.
//!
//! A board file: `{"about": "...", "objects": [...], "expected": [{"kind": "...",
//! "ids": ["a", "b"]}]}`. An object is a shape (`"shape": geom, "box": [x, y, w,
//! h]`, optional `"text"`, `"font"`, `"turn"`) or a connector (`"from"` and `"to"`:
//! an object's name or a point `[x, y]`; optional `"route"`, `"text"`,
//! `"start_arrow"`, `"end_arrow"`, `"dash"`, `"roughness"`, `"waypoints"`, `"sides"` (two sides or
//! nulls), `"label_at"`, `"start_label"`, `"end_label"`). Names are the corpus's own; the board's ids are mapped
//! back to them in what is printed. Problems are compared as a kind and a set of
//! names, so the order of the ids does not matter, and matched one to one: a
//! problem planted twice must be reported twice.
//!
//! `CHECKER_PNG=DIR` also draws each board into `DIR/NAME.png`, to look at what a
//! board plants.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use inkboard_core::{
    Actor, Arrow, Board, Connector, Dash, End, Font, Geom, IdKind, Kind, Object, ObjectId, PageId,
    Point, Rect, Rotation, Route, Shape, Side, Sizing, Style, Transaction, Vocabulary,
};
use serde_json::Value;

const PAGE: PageId = PageId(1);

/// One problem as the corpus names it: its kind and the names of its objects.
type Named = (String, BTreeSet<String>);

#[test]
fn the_checker_finds_every_planted_problem_and_nothing_else() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/checker");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let (mut planted, mut found, mut reported, mut right) = (0, 0, 0, 0);
    let (mut clean, mut defective) = (0, 0);
    let mut wrong = Vec::new();
    for file in &files {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(file).expect("readable");
        let spec: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (board, names) = build(&spec, &name);
        let expected: Vec<Named> = spec["expected"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: no \"expected\" list"))
            .iter()
            .map(|p| {
                let ids = p["ids"].as_array().expect("ids");
                (
                    p["kind"].as_str().expect("kind").to_string(),
                    ids.iter()
                        .map(|i| i.as_str().unwrap().to_string())
                        .collect(),
                )
            })
            .collect();
        if expected.is_empty() {
            clean += 1;
        } else {
            defective += 1;
        }
        let problems = inkboard_render::check(&board, PAGE);
        if let Some(dir) = std::env::var_os("CHECKER_PNG") {
            let scene = inkboard_render::resolve(&board, PAGE);
            let png = inkboard_render::to_png_scaled(&scene, None, 2.0).expect("drawn");
            std::fs::write(Path::new(&dir).join(format!("{name}.png")), png.data).expect("written");
        }
        for p in &problems {
            assert!(!p.ids.is_empty(), "{name}: {p:?} names no object");
            assert!(
                p.message.ends_with('.') && !p.message.contains(". "),
                "{name}: one sentence: {}",
                p.message
            );
        }
        let got: Vec<Named> = problems
            .iter()
            .map(|p| {
                (
                    p.kind.name().to_string(),
                    p.ids
                        .iter()
                        .map(|id| names.get(id).cloned().unwrap_or_else(|| id.to_string()))
                        .collect(),
                )
            })
            .collect();
        planted += expected.len();
        reported += got.len();
        // One to one: each planted problem takes one reported problem of its
        // kind and objects, so a problem planted twice must be reported twice,
        // and a problem reported twice is noise the second time.
        let mut unmatched: Vec<bool> = vec![true; got.len()];
        for e in &expected {
            match (0..got.len()).find(|&k| unmatched[k] && got[k] == *e) {
                Some(k) => {
                    unmatched[k] = false;
                    found += 1;
                    right += 1;
                }
                None => wrong.push(format!("{name}: missed {} {:?}", e.0, e.1)),
            }
        }
        for ((g, p), _) in got
            .iter()
            .zip(&problems)
            .zip(&unmatched)
            .filter(|(_, &u)| u)
        {
            wrong.push(format!("{name}: noise {} {:?}: {}", g.0, g.1, p.message));
        }
    }
    let share = |a: usize, b: usize| {
        if b == 0 {
            100.0
        } else {
            a as f64 * 100.0 / b as f64
        }
    };
    let (recall, precision) = (share(found, planted), share(right, reported));
    println!(
        "checker corpus: {} boards ({defective} with planted problems, {clean} clean), \
         {planted} problems planted, {reported} reported; \
         recall {recall:.1}% ({found}/{planted}), precision {precision:.1}% ({right}/{reported})",
        files.len()
    );
    for w in &wrong {
        println!("  {w}");
    }
    assert!(
        files.len() >= 20,
        "the corpus is too small: {}",
        files.len()
    );
    assert!(
        wrong.is_empty(),
        "recall {recall:.1}%, precision {precision:.1}%:\n{}",
        wrong.join("\n")
    );
}

/// The board a corpus file describes, and the corpus's name for each id.
fn build(spec: &Value, file: &str) -> (Board, HashMap<ObjectId, String>) {
    let mut board = Board::new("corpus", &[]);
    let mut ids: HashMap<String, ObjectId> = HashMap::new();
    for o in spec["objects"].as_array().expect("objects") {
        let name = o["id"].as_str().expect("each object has an id").to_string();
        let kind = if let Some(geom) = o["shape"].as_str() {
            let b = numbers(&o["box"]);
            let mut style = Style::default();
            if let Some(font) = o["font"].as_str() {
                style.font = Some(word::<Font>(font));
            }
            (
                IdKind::Shape,
                Kind::Shape(Shape {
                    geom: word::<Geom>(geom),
                    bounds: Rect::new(b[0], b[1], b[2], b[3]),
                    text: o["text"].as_str().unwrap_or("").to_string(),
                    style,
                    sizing: Sizing::Fixed,
                    rotation: Rotation::degrees(o["turn"].as_f64().unwrap_or(0.0)).expect("finite"),
                    icon: None,
                }),
            )
        } else {
            let end = |v: &Value| match v {
                Value::String(s) => End::Object(
                    ids.get(s)
                        .unwrap_or_else(|| panic!("{file}: {s} is not defined before"))
                        .clone(),
                ),
                _ => {
                    let p = numbers(v);
                    End::Point(Point::new(p[0], p[1]))
                }
            };
            let mut c = Connector::new(end(&o["from"]), end(&o["to"]));
            if let Some(r) = o["route"].as_str() {
                c.route = word::<Route>(r);
            }
            if let Some(a) = o["start_arrow"].as_str() {
                c.start_arrow = word::<Arrow>(a);
            }
            if let Some(a) = o["end_arrow"].as_str() {
                c.end_arrow = word::<Arrow>(a);
            }
            c.style.roughness = o["roughness"].as_f64();
            if let Some(d) = o["dash"].as_str() {
                c.style.dash = Some(word::<Dash>(d));
            }
            c.text = o["text"].as_str().unwrap_or("").to_string();
            if let Some(w) = o["waypoints"].as_array() {
                c.set_waypoints(
                    w.iter()
                        .map(|p| {
                            let p = numbers(p);
                            Point::new(p[0], p[1])
                        })
                        .collect(),
                );
            }
            if let Some(s) = o["sides"].as_array() {
                for (at_start, side) in [(true, &s[0]), (false, &s[1])] {
                    c.set_side(at_start, side.as_str().map(word::<Side>));
                }
            }
            for (at_start, key) in [(true, "start_label"), (false, "end_label")] {
                if let Some(t) = o[key].as_str() {
                    c.set_end_label(at_start, t.to_string());
                }
            }
            if let Some(at) = o["label_at"].as_f64() {
                c.set_label_at(Some(at));
            }
            (IdKind::Connector, Kind::Connector(c))
        };
        let mut tx = Transaction::begin(&mut board);
        let id = tx.new_id(kind.0);
        tx.insert(PAGE, None, Object::new(id.clone(), kind.1))
            .unwrap_or_else(|e| panic!("{file}: {name}: {e}"));
        tx.commit(Actor::Agent)
            .unwrap_or_else(|e| panic!("{file}: {name}: {e}"));
        assert!(
            ids.insert(name.clone(), id).is_none(),
            "{file}: {name} twice"
        );
    }
    let names = ids.into_iter().map(|(n, id)| (id, n)).collect();
    (board, names)
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("a list of numbers")
        .iter()
        .map(|n| n.as_f64().expect("a number"))
        .collect()
}

fn word<T: Vocabulary>(w: &str) -> T {
    T::parse(w).unwrap_or_else(|e| panic!("{e}"))
}
