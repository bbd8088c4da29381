//! The schema lint: the real `tools/list` of `inkboard mcp`, read over stdio as a
//! client reads it, held to the rules of the strictest places clients forward it
//! to. Clients hand each input schema to the model's function declarations, and
//! Gemini's `parameters` (behind LangChain, n8n, the Vercel AI SDK and many chat
//! apps) refuses a whole request for one declaration it does not take: no list
//! of types (`anyOf` instead), every `enum` a `"type": "string"`, no object
//! without `properties`. Beyond those: no bare `true`/`false` schema anywhere, a
//! short description on every argument, a title on every tool, annotations that
//! tell the truth, `batch`'s operations naming only the tools a batch takes, and
//! the byte budget of what a model receives (see `common/budget.rs`).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use common::budget;
use serde_json::{json, Map, Value};

/// The longest argument description the lint lets through: a few words.
const MAX_DESCRIPTION: usize = 80;

/// The tools that `batch` refuses (`docs/spec/batch.md`, and `import`, which
/// reads and writes files of its own).
const NOT_IN_BATCH: [&str; 7] = [
    "batch",
    "create_board",
    "save_board",
    "board_changes",
    "export",
    "render",
    "import",
];

/// The `tools/list` result, as sent, after the 2025-11-25 handshake.
fn tools_list() -> (Value, usize) {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let mut child = Command::new(common::BIN)
        .arg("mcp")
        .env("INKBOARD_RUNTIME_DIR", dir.path())
        .env_remove("INKBOARD_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn inkboard mcp");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    // The answer is read below; the server ends when its stdin closes.
    for line in [
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"lint","version":"0"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
    ] {
        writeln!(stdin, "{line}").expect("write");
    }
    stdin.flush().expect("flush");
    let mut line = String::new();
    let result = loop {
        line.clear();
        assert!(out.read_line(&mut line).expect("read") > 0, "no answer");
        let v: Value = serde_json::from_str(&line).expect("JSON");
        if v["id"] == 1 {
            break v["result"].clone();
        }
    };
    drop(stdin);
    child.wait().expect("exit");
    let bytes = result.to_string().len();
    (result, bytes)
}

/// Every schema inside `schema` (itself included), with where it is.
fn schemas<'a>(schema: &'a Value, at: String, out: &mut Vec<(String, &'a Value)>) {
    out.push((at.clone(), schema));
    let Value::Object(map) = schema else {
        return;
    };
    for key in ["items", "additionalProperties", "not", "contains"] {
        if let Some(sub) = map.get(key) {
            schemas(sub, format!("{at}.{key}"), out);
        }
    }
    for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(subs)) = map.get(key) {
            for (i, sub) in subs.iter().enumerate() {
                schemas(sub, format!("{at}.{key}[{i}]"), out);
            }
        }
    }
    for key in ["properties", "$defs", "definitions"] {
        if let Some(Value::Object(props)) = map.get(key) {
            for (name, sub) in props {
                schemas(sub, format!("{at}.{name}"), out);
            }
        }
    }
}

/// What is wrong with one schema for the model APIs.
fn portable_faults(at: &str, schema: &Value, faults: &mut Vec<String>) {
    let Value::Object(map) = schema else {
        faults.push(format!("{at}: a bare {schema} schema"));
        return;
    };
    if map.get("type").is_some_and(Value::is_array) {
        faults.push(format!("{at}: a list of types (use anyOf)"));
    }
    if let Some(words) = map.get("enum") {
        let all_words = words
            .as_array()
            .is_some_and(|w| w.iter().all(Value::is_string));
        if !all_words || map.get("type") != Some(&json!("string")) {
            faults.push(format!("{at}: an enum not of \"type\": \"string\" words"));
        }
    }
    if map.get("type") == Some(&json!("object"))
        && map
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty)
    {
        faults.push(format!("{at}: an object without properties"));
    }
}

/// The arguments of `schema` without a short description. `batch`'s `args`
/// names every argument of the tools a batch takes, each described on its tool.
fn undescribed(at: &str, schema: &Value, faults: &mut Vec<String>) {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    if at.contains(".operations.items.args") {
        return;
    }
    for (name, prop) in props {
        // batch's own arguments carry the user's words from batch.md, verbatim.
        let verbatim = at == "batch.input";
        match prop.get("description").and_then(Value::as_str) {
            Some(d) if !d.trim().is_empty() && (verbatim || d.len() <= MAX_DESCRIPTION) => {}
            Some(d) => faults.push(format!("{at}.{name}: description of {} bytes", d.len())),
            None => faults.push(format!("{at}.{name}: no description")),
        }
    }
}

#[test]
fn every_schema_is_one_model_apis_take() {
    let (result, _) = tools_list();
    let mut faults = Vec::new();
    for tool in result["tools"].as_array().expect("tools") {
        let name = tool["name"].as_str().expect("a name");
        let mut all = Vec::new();
        schemas(&tool["inputSchema"], format!("{name}.input"), &mut all);
        for (at, schema) in &all {
            portable_faults(at, schema, &mut faults);
            undescribed(at, schema, &mut faults);
        }
        let mut outputs = Vec::new();
        schemas(
            &tool["outputSchema"],
            format!("{name}.output"),
            &mut outputs,
        );
        for (at, schema) in &outputs {
            if !schema.is_object() {
                faults.push(format!("{at}: a bare {schema} schema"));
            }
            if schema.get("type").is_some_and(Value::is_array) {
                faults.push(format!("{at}: a list of types"));
            }
        }
    }
    assert!(
        faults.is_empty(),
        "{} faults:\n{}",
        faults.len(),
        faults.join("\n")
    );
}

#[test]
fn the_lint_catches_what_it_looks_for() {
    let bad = json!({"type": "object", "properties": {
        "a": {"type": ["integer", "string"], "description": "x"},
        "b": {"enum": ["x", "y"], "description": "x"},
        "c": {"type": "object", "description": "x"},
        "d": {"type": "array", "items": true, "description": "x"},
        "e": {"type": "string"},
    }});
    let mut all = Vec::new();
    schemas(&bad, "t".into(), &mut all);
    let mut faults = Vec::new();
    for (at, schema) in &all {
        portable_faults(at, schema, &mut faults);
        undescribed(at, schema, &mut faults);
    }
    let expected = [
        "t.a: a list of types (use anyOf)",
        "t.b: an enum not of \"type\": \"string\" words",
        "t.c: an object without properties",
        "t.d.items: a bare true schema",
        "t.e: no description",
    ];
    for e in expected {
        assert!(faults.iter().any(|f| f == e), "missed {e}: {faults:?}");
    }
}

#[test]
fn batch_operations_name_the_tools_a_batch_takes() {
    let (result, _) = tools_list();
    let tools = result["tools"].as_array().expect("tools");
    let takes: Vec<&str> = tools
        .iter()
        .filter_map(|t| t["name"].as_str())
        .filter(|n| !NOT_IN_BATCH.contains(n))
        .collect();
    let batch = tools.iter().find(|t| t["name"] == "batch").expect("batch");
    let op = &batch["inputSchema"]["properties"]["operations"]["items"]["properties"];
    let named: Vec<&str> = op["tool"]["enum"]
        .as_array()
        .expect("an enum of tools")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(named, takes);
    // `args` names every argument of those tools but `path`.
    let args = op["args"]["properties"]
        .as_object()
        .expect("args' properties");
    for tool in tools
        .iter()
        .filter(|t| takes.contains(&t["name"].as_str().unwrap_or("")))
    {
        let props: &Map<String, Value> = tool["inputSchema"]["properties"]
            .as_object()
            .expect("properties");
        for name in props.keys().filter(|k| *k != "path") {
            assert!(
                args.contains_key(name),
                "batch args lack {name} of {}",
                tool["name"]
            );
        }
    }
    assert!(
        !args.contains_key("path"),
        "a batch operation takes no path"
    );
}

#[test]
fn every_tool_has_a_title_and_truthful_annotations() {
    let (result, _) = tools_list();
    for tool in result["tools"].as_array().expect("tools") {
        let name = tool["name"].as_str().expect("a name");
        let title = tool["title"].as_str().unwrap_or_default();
        assert!(!title.trim().is_empty(), "{name} has no title");
        let a = &tool["annotations"];
        assert_eq!(
            a["openWorldHint"], false,
            "{name}: it touches no outside world"
        );
        let reads = ["read_board", "find", "board_changes", "render"].contains(&name);
        assert_eq!(a["readOnlyHint"] == true, reads, "{name}: readOnlyHint");
        // Tools that remove or replace what is there: deletes, overwriting
        // writes (export and import replace a file), rewrites (create_board
        // with overwrite, batch with delete inside).
        let destroys = [
            "delete",
            "delete_page",
            "export",
            "import",
            "create_board",
            "batch",
        ]
        .contains(&name);
        if destroys {
            assert_eq!(a["destructiveHint"], true, "{name}: destructiveHint");
        } else if !reads {
            assert_eq!(a["destructiveHint"], false, "{name}: destructiveHint");
        }
    }
}

/// Holds the answer within its budget (`common/budget.rs`); the mcp bench prints
/// the figures.
#[test]
fn what_a_model_receives_stays_under_its_ceiling() {
    let (result, bytes) = tools_list();
    let model = budget::model_bytes(result["tools"].as_array().expect("tools"));
    assert!(
        model <= budget::MODEL_BUDGET,
        "a model receives {model} bytes of names, titles, descriptions and input schemas, over {}",
        budget::MODEL_BUDGET
    );
    assert!(
        bytes <= budget::ANSWER_BUDGET,
        "the tools/list result is {bytes} bytes, over {}",
        budget::ANSWER_BUDGET
    );
}
