//! Data-driven engine tests. Each `tests/cases/NAME.json` is a list of tool calls
//! run in order through the real engine on a real board file in a temp folder;
//! what each call answered (result or error, and whether the file changed) and
//! the board file at the end are compared with `tests/cases/NAME.expected.json`.
//! `UPDATE_EXPECT=1 cargo test -p inkboard-tools --test engine` rewrites them.
//!
//! A case is `{"board": "boards/NAME.inkboard" (optional starting file),
//! "copy": ["boards/FILE", ...] (optional files put in the temp folder by name),
//! "calls": [{"tool", "args"}, ...]}`. Calls get `"path"` set to the board file
//! unless their args already have one (or the call says `"no_path": true`); the
//! string `$DIR` in args stands for the temp folder, and the temp folder is written
//! as `$DIR` in the answers. The expected file also lists every file left in the
//! temp folder at the end, so a stray temporary file or a missing copy shows.

mod common;

use std::path::{Path, PathBuf};

use inkboard_tools::{Engine, Reply};
use serde_json::{json, Map, Value};

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn substitute(v: &mut Value, dir: &str) {
    match v {
        Value::String(s) => *s = s.replace("$DIR", dir),
        Value::Array(a) => a.iter_mut().for_each(|v| substitute(v, dir)),
        Value::Object(m) => m.values_mut().for_each(|v| substitute(v, dir)),
        _ => {}
    }
}

fn scrub(text: &str, dir: &str) -> String {
    text.replace(dir, "$DIR")
}

/// Runs one case and returns what it produced.
fn run_case(case: &Value) -> Value {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().to_string_lossy().to_string();
    // No application runs for these tests: calls without a path must say so.
    let board = tmp.path().join("board.inkboard");
    if let Some(start) = case.get("board").and_then(Value::as_str) {
        std::fs::copy(cases_dir().join(start), &board).expect("copy starting board");
    }
    for extra in case
        .get("copy")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let from = cases_dir().join(extra.as_str().expect("copy holds paths"));
        let name = from.file_name().expect("a file name");
        std::fs::copy(&from, tmp.path().join(name)).expect("copy a file for the case");
    }
    let engine = Engine::new();
    let mut answers = Vec::new();
    for call in case["calls"].as_array().expect("calls") {
        let tool = call["tool"].as_str().expect("tool");
        let mut args = call.get("args").cloned().unwrap_or(json!({}));
        substitute(&mut args, &dir);
        if let Value::Object(map) = &mut args {
            let wants_path =
                !map.contains_key("path") && !call.get("no_path").is_some_and(|v| v == true);
            if wants_path {
                map.insert("path".into(), json!(board.to_string_lossy()));
            }
        }
        let before = std::fs::read(&board).ok();
        let answer = engine.call(tool, args);
        let after = std::fs::read(&board).ok();
        let mut out = Map::new();
        out.insert("tool".into(), json!(tool));
        match answer {
            Ok(Reply::Json(v)) => {
                out.insert(
                    "ok".into(),
                    serde_json::from_str(&scrub(&v.to_string(), &dir)).unwrap_or(v),
                );
            }
            Ok(Reply::Image { png, text, .. }) => {
                out.insert("image_bytes".into(), json!(!png.is_empty()));
                out.insert("text".into(), json!(scrub(&text, &dir)));
            }
            Err(e) => {
                out.insert("error".into(), json!(scrub(&e.to_string(), &dir)));
                if let Some(data) = e.data() {
                    out.insert(
                        "data".into(),
                        serde_json::from_str(&scrub(&data.to_string(), &dir)).unwrap_or(data),
                    );
                }
            }
        }
        out.insert("file_changed".into(), json!(before != after));
        answers.push(Value::Object(out));
    }
    let file = std::fs::read_to_string(&board)
        .ok()
        .map(|t| serde_json::from_str::<Value>(&t).unwrap_or(json!(t)));
    let mut files: Vec<String> = std::fs::read_dir(tmp.path())
        .expect("temp dir")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().to_string()))
        .collect();
    files.sort();
    json!({"answers": answers, "file": file, "files": files})
}

#[test]
fn cases() {
    // SAFETY: set before any engine runs in this process; no other thread reads it yet.
    let runtime = tempfile::tempdir().expect("runtime dir");
    unsafe { std::env::set_var("INKBOARD_RUNTIME_DIR", runtime.path()) };
    let mut names: Vec<PathBuf> = std::fs::read_dir(cases_dir().join("cases"))
        .expect("cases folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e == "json")
                && !p.to_string_lossy().ends_with(".expected.json")
        })
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no cases found");
    let mut failures = Vec::new();
    for path in &names {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read case"))
            .expect("case is JSON");
        let got = run_case(&case);
        let expected_path = path.with_extension("expected.json");
        let got_text = serde_json::to_string_pretty(&got).expect("json") + "\n";
        failures.extend(common::expect_file(
            &expected_path,
            &got_text,
            &path.display().to_string(),
        ));
    }
    assert!(
        failures.is_empty(),
        "{} case(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
