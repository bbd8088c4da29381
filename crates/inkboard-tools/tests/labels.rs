//! The corpus of labelled diagrams (issue 31): state machines, pipelines,
//! decision flows, ER sketches with "1 : N" labels, an org chart and a tree, each
//! a `tests/labels/NAME.mmd` drawn through the real engine with `import_mermaid`
//! and, when its first line is `%% layout {…}`, laid out again by `layout` with
//! those arguments. The checker then looks at the scene the SVG is drawn from,
//! and the label problems it finds (labels over lines, over arrowheads, over
//! shapes and over each other) are compared with `tests/labels/NAME.expected`.
//!
//! Zero of each on every board: `layout` and the import leave every label
//! room of its own (a layer of labels between the layers of shapes, a tree's
//! levels set apart by its labels' depth), so a clear place exists on each
//! route. The totals may never grow past zero: the test fails when they do,
//! whatever the files say.
//!
//! `UPDATE_EXPECT=1 cargo test -p inkboard-tools --test labels` rewrites the
//! expected files; `LABELS_PNG=DIR` also exports each page to `DIR/NAME.png`, to
//! look at.

mod common;

use std::path::{Path, PathBuf};

use inkboard_render::ProblemKind;
use inkboard_tools::Engine;
use serde_json::{json, Value};

/// The most label problems of each kind the whole corpus may have: none
/// (issue 31). Main's placement before the page-wide placement had 14, 11, 4
/// and 5, and 6, 5, 3 and 5 after it, before the layout left room for labels.
const MOST: [usize; 4] = [0, 0, 0, 0];

/// The kinds the corpus must be free of.
const KINDS: [ProblemKind; 4] = [
    ProblemKind::LabelOverLine,
    ProblemKind::LabelOverArrowhead,
    ProblemKind::LabelOverlap,
    ProblemKind::LabelOverShape,
];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/labels")
}

/// Draws one diagram and returns its label problems as the expected file reads:
/// a count for each kind, then each problem with the ids involved.
fn run(engine: &Engine, name: &str, text: &str) -> (String, [usize; 4]) {
    let board = common::Board::new(engine, &["Page 1"]);
    board
        .call(engine, "import_mermaid", json!({ "text": text }))
        .expect("import_mermaid");
    if let Some(args) = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("%% layout "))
    {
        let args: Value = serde_json::from_str(args).expect("the layout line's arguments");
        board.call(engine, "layout", args).expect("layout");
    }
    if let Some(dir) = std::env::var_os("LABELS_PNG") {
        let output = Path::new(&dir).join(format!("{name}.png"));
        board
            .call(
                engine,
                "export",
                json!({ "output": output.to_string_lossy() }),
            )
            .expect("export a PNG");
    }
    let file = inkboard_format::load(&board.path).expect("load").board;
    let page = file.pages()[0].id;
    let problems = inkboard_render::check(&file, page);
    let mut counts = [0; 4];
    let mut listed = String::new();
    for p in &problems {
        let Some(k) = KINDS.iter().position(|k| *k == p.kind) else {
            continue;
        };
        counts[k] += 1;
        let ids: Vec<String> = p.ids.iter().map(ToString::to_string).collect();
        listed += &format!("  {} {}\n", p.kind.name(), ids.join(" "));
    }
    let mut out = String::new();
    for (k, n) in KINDS.iter().zip(counts) {
        out += &format!("{} {n}\n", k.name());
    }
    (out + &listed, counts)
}

#[test]
fn labelled_diagrams_have_no_label_problems() {
    // SAFETY: set before any engine runs in this process; no other thread reads it yet.
    let runtime = tempfile::tempdir().expect("runtime dir");
    unsafe { std::env::set_var("INKBOARD_RUNTIME_DIR", runtime.path()) };
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .expect("tests/labels")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mmd"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 10, "the corpus holds 10 diagrams or more");
    let engine = Engine::new();
    let (mut failures, mut totals) = (Vec::new(), [0; 4]);
    for input in &inputs {
        let name = input
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(input).expect("read fixture");
        let (got, counts) = run(&engine, &name, &text);
        eprintln!("{name:24} {counts:?}");
        for (t, n) in totals.iter_mut().zip(counts) {
            *t += n;
        }
        let expected = fixtures().join(format!("{name}.expected"));
        failures.extend(common::expect_file(&expected, &got, &name));
    }
    eprintln!("{:24} {totals:?} ({:?})", "total", KINDS.map(|k| k.name()));
    for ((kind, total), most) in KINDS.iter().zip(totals).zip(MOST) {
        if total > most {
            failures.push(format!("{}: {total} in all, more than {most}", kind.name()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
