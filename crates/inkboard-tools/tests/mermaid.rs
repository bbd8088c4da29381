//! Data-driven `import_mermaid` tests. Each `tests/mermaid/NAME.mmd` is imported
//! through the real engine into a new board file; what the tool answered (its ids,
//! or its error) and the objects on the page afterwards are compared with
//! `tests/mermaid/NAME.expected.json`. One fixture per construct, and `bad_*`
//! fixtures whose expected answer is the error, with its line and column.
//!
//! `UPDATE_EXPECT=1 cargo test -p inkboard-tools --test mermaid` rewrites the
//! expected files. `MERMAID_PNG=DIR` also exports each imported page to
//! `DIR/NAME.png`, to look at.

mod common;

use std::path::{Path, PathBuf};

use inkboard_tools::Engine;
use serde_json::{json, Value};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mermaid")
}

/// Imports one fixture and returns what came of it.
fn run(engine: &Engine, name: &str, text: &str) -> Value {
    let board = common::Board::new(engine, &["Page 1"]);
    let answer = board.call(engine, "import_mermaid", json!({ "text": text }));
    let page = board
        .call(engine, "read_board", json!({}))
        .expect("read_board")["page"]["objects"]
        .clone();
    if let (Ok(_), Some(dir)) = (&answer, std::env::var_os("MERMAID_PNG")) {
        let output = Path::new(&dir).join(format!("{name}.png"));
        board
            .call(
                engine,
                "export",
                json!({ "output": output.to_string_lossy() }),
            )
            .expect("export a PNG");
    }
    match answer {
        Ok(ids) => json!({ "answer": ids, "objects": page }),
        Err(e) => json!({ "error": e.to_string(), "objects": page }),
    }
}

#[test]
fn fixtures_import_as_expected() {
    // SAFETY: set before any engine runs in this process; no other thread reads it yet.
    let runtime = tempfile::tempdir().expect("runtime dir");
    unsafe { std::env::set_var("INKBOARD_RUNTIME_DIR", runtime.path()) };
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .expect("tests/mermaid")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mmd"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no fixtures found");
    let engine = Engine::new();
    let mut failures = Vec::new();
    for input in &inputs {
        let name = input
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(input).expect("read fixture");
        let got = run(&engine, &name, &text);
        // Bad inputs must fail, and good ones must not.
        if name.starts_with("bad_") != got.get("error").is_some() {
            failures.push(format!("{name}: unexpected outcome {got}"));
        }
        let got_text = serde_json::to_string_pretty(&got).expect("json") + "\n";
        let expected_path = fixtures().join(format!("{name}.expected.json"));
        failures.extend(common::expect_file(&expected_path, &got_text, &name));
    }
    assert!(
        failures.is_empty(),
        "{} fixture(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
