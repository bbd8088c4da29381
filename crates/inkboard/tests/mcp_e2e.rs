//! End-to-end tests of the MCP server: the built `inkboard mcp` driven over stdio by
//! rmcp's own client, in both protocol eras (the 2025-11-25 handshake and the
//! stateless 2026-07-28 requests). They check the external contract a client sees:
//! the server's description of itself, the `tools/list` answer (golden file
//! `golden/tools_list.json`, refreshed with `UPDATE_EXPECT=1`), the flow200 batch,
//! the file kinds, and how every kind of failure is reported. The last tests speak
//! raw JSON-RPC to prove that stdout carries nothing else.

mod common;

use std::collections::HashMap;
use std::fs;
use std::process::Stdio;
use std::time::Duration;

use common::{check_golden, flow_operations, Era, Session, BIN};
use rmcp::model::ErrorCode;
use rmcp::service::ServiceError;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

both_eras!(
    describes_itself,
    tools_list_is_golden,
    flow_of_199_operations,
    every_board_file_kind,
    unknown_extension_is_a_tool_error,
    corrupt_file_is_reported_and_left_untouched,
    missing_file_is_a_tool_error,
    atomic_batch_failure_changes_nothing,
    non_atomic_batch_failure_keeps_what_succeeded,
    no_path_and_no_application,
    unknown_tool_is_a_protocol_error,
    bad_arguments_are_tool_errors,
    import_makes_a_board_and_says_what_was_lost,
);

async fn describes_itself(era: Era) {
    let s = Session::start(era).await;
    let info = s.client.peer_info().expect("the server described itself");
    assert_eq!(info.protocol_version, era.version());
    let server = info.server_info.as_ref().expect("serverInfo");
    assert_eq!(server.name, "inkboard");
    assert_eq!(server.version, env!("CARGO_PKG_VERSION"));
    assert!(info.capabilities.tools.is_some(), "tools are advertised");
    let instructions = info.instructions.as_deref().expect("instructions");
    for needle in ["batch", "read_board", "`path`", "`page`", ".inkboard"] {
        assert!(
            instructions.contains(needle),
            "the instructions should mention {needle}: {instructions}"
        );
    }
    common::assert_quiet(&s.close().await);
}

/// The tools that must say `readOnlyHint: true`, and the delete-like ones that must
/// say `destructiveHint: true`.
const READ_ONLY: [&str; 4] = ["read_board", "find", "board_changes", "render"];
const DESTRUCTIVE: [&str; 2] = ["delete", "delete_page"];

async fn tools_list_is_golden(era: Era) {
    let s = Session::start(era).await;
    let listed = s.client.list_tools(None).await.expect("tools/list");
    assert!(listed.next_cursor.is_none(), "one page holds every tool");

    // Its size and its rules for model APIs: tests/schema_lint.rs.
    let tools = serde_json::to_value(&listed.tools).expect("serialize the tools");
    let pretty = serde_json::to_string_pretty(&tools).expect("pretty") + "\n";
    check_golden("golden/tools_list.json", &pretty);

    let names: Vec<&str> = listed.tools.iter().map(|t| t.name.as_ref()).collect();
    for name in [
        "create_board",
        "save_board",
        "board_changes",
        "batch",
        "read_board",
        "find",
        "add_shape",
        "add_connector",
        "add_image",
        "add_ink",
        "update",
        "move",
        "delete",
        "duplicate",
        "group",
        "ungroup",
        "order",
        "align",
        "distribute",
        "add_page",
        "rename_page",
        "delete_page",
        "import",
    ] {
        assert!(names.contains(&name), "tools/list lacks {name}: {names:?}");
    }
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(
        unique.len(),
        names.len(),
        "a tool is listed twice: {names:?}"
    );

    for tool in &listed.tools {
        let name = tool.name.as_ref();
        let description = tool.description.as_deref().unwrap_or_default();
        assert!(!description.trim().is_empty(), "{name} has no description");
        assert_eq!(
            tool.input_schema.get("type"),
            Some(&json!("object")),
            "{name}: inputSchema"
        );
        let output = tool
            .output_schema
            .as_ref()
            .unwrap_or_else(|| panic!("{name} has no outputSchema"));
        assert_eq!(
            output.get("type"),
            Some(&json!("object")),
            "{name}: outputSchema"
        );
        // Both schemas must be usable by a validating client.
        for schema in [&tool.input_schema, output] {
            common::compile_schema(&Value::Object((**schema).clone()))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        let hints = tool
            .annotations
            .as_ref()
            .unwrap_or_else(|| panic!("{name} has no annotations"));
        assert_eq!(hints.open_world_hint, Some(false), "{name}: openWorldHint");
        if READ_ONLY.contains(&name) {
            assert_eq!(hints.read_only_hint, Some(true), "{name}: readOnlyHint");
        } else {
            assert_ne!(hints.read_only_hint, Some(true), "{name} is not read-only");
        }
        if DESTRUCTIVE.contains(&name) {
            assert_eq!(
                hints.destructive_hint,
                Some(true),
                "{name}: destructiveHint"
            );
        }
        if name.starts_with("add_") {
            assert_eq!(hints.destructive_hint, Some(false), "{name} only adds");
        }
    }

    // The batch tool's description is the user's own text (batch.md), verbatim.
    let batch = listed
        .tools
        .iter()
        .find(|t| t.name == "batch")
        .expect("batch");
    let description = batch.description.as_deref().unwrap_or_default();
    let user = user_batch_text();
    let (summary, instructions) = (&user.summary, &user.instructions);
    assert!(
        description.contains(summary.as_str()),
        "batch's description lacks the user's summary line:\n{summary}\n---\n{description}"
    );
    assert!(
        description.contains(instructions.as_str()),
        "batch's description lacks the user's instructions verbatim:\n{instructions}\n---\n{description}"
    );
    // Its arguments are the user's table (names, descriptions, what is required),
    // then the extensions the project added on purpose, each optional: `check`
    // (issue 31), which changes no answer unless asked for.
    let properties = batch.input_schema["properties"].as_object().unwrap();
    let names: Vec<&String> = properties.keys().collect();
    let table: Vec<&String> = user.arguments.iter().map(|a| &a.0).collect();
    assert_eq!(names[..table.len()], table[..], "batch's arguments");
    let extensions: Vec<&str> = names[table.len()..].iter().map(|n| n.as_str()).collect();
    assert_eq!(extensions, ["check"], "batch's extensions");
    let required = &batch.input_schema["required"];
    assert!(
        !required
            .as_array()
            .is_some_and(|r| r.contains(&json!("check"))),
        "check is optional"
    );
    for (name, required, text) in &user.arguments {
        assert_eq!(
            properties[name]["description"], *text,
            "batch's description of {name}"
        );
        let listed = batch.input_schema["required"]
            .as_array()
            .is_some_and(|r| r.contains(&json!(name)));
        assert_eq!(listed, *required, "is batch's {name} required?");
    }
    common::assert_quiet(&s.close().await);
}

/// The user's text for `batch` (see [`user_batch_text`]).
struct UserBatch {
    /// The line after "**batch**".
    summary: String,
    /// The paragraph after "**Instructions**".
    instructions: String,
    /// The rows of the "**Input Schema**" table: name, required, description.
    arguments: Vec<(String, bool, String)>,
}

/// The user's text for `batch`, read from `docs/spec/batch.md`, the repository's
/// verbatim copy of the project's contract (quoted there with `> `; `tests/docs.rs`
/// holds the copy to the project's own where that sits beside the repository).
fn user_batch_text() -> UserBatch {
    let text = fs::read_to_string(common::here("../../../docs/spec/batch.md"))
        .expect("docs/spec/batch.md");
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.strip_prefix('>').unwrap_or(l).trim())
        .collect();
    let after = |marker: &str| {
        let at = lines
            .iter()
            .position(|l| *l == marker)
            .unwrap_or_else(|| panic!("batch.md has no {marker} line"));
        &lines[at + 1..]
    };
    let first = |marker: &str| {
        after(marker)
            .iter()
            .find(|l| !l.is_empty())
            .map(|l| l.to_string())
            .unwrap_or_default()
    };
    let arguments = after("**Input Schema**")
        .iter()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2) // the header and its rule
        .map(|row| {
            let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
            (
                cells[0].to_string(),
                cells[1] == "Yes",
                cells[2].to_string(),
            )
        })
        .collect();
    UserBatch {
        summary: first("**batch**"),
        instructions: first("**Instructions**"),
        arguments,
    }
}

async fn flow_of_199_operations(era: Era) {
    let s = Session::start(era).await;
    let path = s.path("flow.inkboard");
    let created = s
        .ok("create_board", json!({"path": path, "title": "Flow"}))
        .await;
    assert_eq!(created["pages"], json!([{"number": 1, "name": "Page 1"}]));
    assert!(
        created["path"].as_str().unwrap().ends_with("flow.inkboard"),
        "{created}"
    );

    let answer = s
        .ok(
            "batch",
            json!({"path": path, "operations": flow_operations(100)}),
        )
        .await;
    assert_eq!(answer["applied"], 199);
    assert!(answer.get("failed").is_none(), "{answer}");
    let results = answer["results"].as_array().expect("results");
    assert_eq!(results.len(), 199);
    let shape_ids: Vec<&str> = results[..100]
        .iter()
        .map(|r| r["id"].as_str().expect("a shape id"))
        .collect();
    for r in &results[..100] {
        for key in ["x", "y", "w", "h"] {
            assert!(r[key].is_number(), "add_shape answers its geometry: {r}");
        }
    }
    let mut unique = shape_ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 100, "shape ids are unique");
    for r in &results[100..] {
        assert_eq!(
            r.as_object().map(|o| o.keys().collect::<Vec<_>>()),
            Some(vec![&"id".to_string()]),
            "add_connector answers only its id: {r}"
        );
    }

    let board = s.ok("read_board", json!({"path": path})).await;
    assert_eq!(board["title"], "Flow");
    assert_eq!(board["pages"][0]["objects"], 199);
    let objects = board["page"]["objects"].as_array().expect("objects");
    assert_eq!(objects.len(), 199);
    let by_id: HashMap<&str, &Value> = objects
        .iter()
        .map(|o| (o["id"].as_str().unwrap(), o))
        .collect();
    for (i, id) in shape_ids.iter().enumerate() {
        let shape = by_id[id];
        assert_eq!(shape["type"], "shape");
        assert_eq!(shape["text"], format!("Step {i}"));
    }
    // Every reference resolved to the shape it named: connector i joins i and i+1.
    for (i, r) in results[100..].iter().enumerate() {
        let connector = by_id[r["id"].as_str().unwrap()];
        assert_eq!(connector["type"], "connector");
        assert_eq!(connector["from"], shape_ids[i], "{connector}");
        assert_eq!(connector["to"], shape_ids[i + 1], "{connector}");
    }
    // Placed in free space: no two shapes overlap.
    let rects: Vec<[f64; 4]> = results[..100]
        .iter()
        .map(|r| ["x", "y", "w", "h"].map(|k| r[k].as_f64().unwrap()))
        .collect();
    for (i, a) in rects.iter().enumerate() {
        for b in &rects[i + 1..] {
            let apart = a[0] + a[2] <= b[0]
                || b[0] + b[2] <= a[0]
                || a[1] + a[3] <= b[1]
                || b[1] + b[3] <= a[1];
            assert!(apart, "shapes overlap: {a:?} and {b:?}");
        }
    }
    // The file on disk is the board: an inkboard document with the 199 objects.
    let file: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert_eq!(file["format"], "inkboard");
    assert_eq!(file["pages"][0]["objects"].as_array().unwrap().len(), 199);
    common::assert_quiet(&s.close().await);
}

async fn every_board_file_kind(era: Era) {
    let s = Session::start(era).await;
    for name in ["a.inkboard", "b.inkboard.json", "c.tableau.json"] {
        let path = s.path(name);
        s.ok(
            "create_board",
            json!({"path": path, "pages": ["One", "Two"]}),
        )
        .await;
        let added = s
            .ok(
                "batch",
                json!({"path": path, "page": "Two", "operations": [
                    {"tool": "add_shape", "args": {"text": name, "x": 10, "y": 20}},
                ]}),
            )
            .await;
        assert_eq!(added["applied"], 1, "{name}");
        let read = s.ok("read_board", json!({"path": path, "page": 2})).await;
        assert_eq!(read["page"]["name"], "Two", "{name}");
        assert_eq!(read["page"]["objects"][0]["text"], name, "{name}");
        assert_eq!(read["page"]["objects"][0]["x"], 10, "{name}");
        assert_eq!(
            read["pages"][0]["objects"], 0,
            "{name}: page One stays empty"
        );
        let file: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        assert_eq!(file["format"], "inkboard", "{name}");
    }
    // save_board `as` converts between the kinds; the copy reads the same.
    let copy = s.path("copy.tableau.json");
    let saved = s
        .ok(
            "save_board",
            json!({"path": s.path("a.inkboard"), "as": copy}),
        )
        .await;
    assert!(saved["bytes"].as_u64().unwrap() > 0, "{saved}");
    let read = s
        .ok("read_board", json!({"path": copy, "page": "Two"}))
        .await;
    assert_eq!(read["page"]["objects"][0]["text"], "a.inkboard");
    common::assert_quiet(&s.close().await);
}

/// `import` over stdio: a draw.io file with losses becomes a new board whose
/// answer (checked against its output schema by `Session::call`) says what was
/// lost, kind by kind; the board reads back; an existing board and a file that
/// is no diagram are refused, and nothing is written for them; `batch` does not
/// offer it.
async fn import_makes_a_board_and_says_what_was_lost(era: Era) {
    let s = Session::start(era).await;
    let source = s.path("features.drawio");
    fs::copy(
        common::here("../../inkboard-interop/tests/corpus/made-features.drawio"),
        &source,
    )
    .unwrap();
    let board = s.path("features.inkboard");
    let answer = s
        .ok("import", json!({"source": source, "path": board}))
        .await;
    assert_eq!(answer["format"], "draw.io", "{answer}");
    assert_eq!(
        answer["pages"].as_array().map(Vec::len),
        Some(3),
        "{answer}"
    );
    let lost = answer["lost"].as_array().expect("lost");
    let stencil = lost
        .iter()
        .find(|l| l["kind"] == "stencil")
        .unwrap_or_else(|| panic!("no stencil entry: {answer}"));
    assert_eq!(stencil["count"], 1);
    assert_eq!(stencil["examples"], json!(["mxgraph.aws4.resourceIcon"]));
    assert_eq!(
        stencil["message"],
        "1 stencil shape drawn as a rectangle: \"mxgraph.aws4.resourceIcon\""
    );
    let read = s.ok("read_board", json!({"path": board})).await;
    let objects: u64 = read["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["objects"].as_u64().unwrap())
        .sum();
    assert_eq!(Some(objects), answer["objects"].as_u64(), "{read}");

    let before = fs::read(&board).unwrap();
    let failure = s
        .fails("import", json!({"source": source, "path": board}))
        .await;
    assert!(failure.text.contains("overwrite"), "{}", failure.text);
    // batch's schema does not offer it (a client that checks arguments never
    // sends it); the engine's refusal is in inkboard-tools' import_errors case.
    let listed = s.client.list_tools(None).await.expect("tools/list");
    let tools = serde_json::to_value(&listed.tools).expect("serialize the tools");
    let batch = tools
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "batch"))
        .expect("batch");
    let offered =
        &batch["inputSchema"]["properties"]["operations"]["items"]["properties"]["tool"]["enum"];
    assert!(
        offered
            .as_array()
            .is_some_and(|names| !names.contains(&json!("import"))),
        "{offered}"
    );
    assert_eq!(fs::read(&board).unwrap(), before);
    let text = s.path("notes.txt");
    fs::write(&text, "just words").unwrap();
    let failure = s
        .fails(
            "import",
            json!({"source": text, "path": s.path("notes.inkboard")}),
        )
        .await;
    assert!(
        failure.text.contains("not a draw.io or Excalidraw file"),
        "{}",
        failure.text
    );
    assert!(!s.dir.path().join("notes.inkboard").exists());
    common::assert_quiet(&s.close().await);
}

async fn unknown_extension_is_a_tool_error(era: Era) {
    let s = Session::start(era).await;
    let path = s.path("board.txt");
    let failure = s.fails("create_board", json!({"path": path})).await;
    assert!(failure.text.contains("board.txt"), "{}", failure.text);
    assert!(failure.text.contains(".inkboard"), "{}", failure.text);
    assert!(
        !s.dir.path().join("board.txt").exists(),
        "nothing was written"
    );
    // Existing files with other extensions are not touched either.
    fs::write(&path, "not a board").unwrap();
    for (tool, args) in [
        ("read_board", json!({"path": path})),
        (
            "batch",
            json!({"path": path, "operations": [{"tool": "add_shape", "args": {}}]}),
        ),
    ] {
        let failure = s.fails(tool, args).await;
        assert!(
            failure.text.contains(".inkboard"),
            "{tool}: {}",
            failure.text
        );
    }
    assert_eq!(fs::read_to_string(&path).unwrap(), "not a board");
    still_serving(&s).await;
    common::assert_quiet(&s.close().await);
}

async fn corrupt_file_is_reported_and_left_untouched(era: Era) {
    let s = Session::start(era).await;
    // Bytes that are not text, and text that is not JSON (a save cut short).
    let cases: [(&str, &[u8], &str); 2] = [
        (
            "broken.inkboard",
            b"{\"format\": \"inkboard\", \xff\xfe",
            "not UTF-8",
        ),
        (
            "broken.tableau.json",
            b"{\"format\": \"inkboard\", \"pages\": [",
            "JSON",
        ),
    ];
    for (name, garbage, why) in cases {
        let path = s.path(name);
        fs::write(&path, garbage).unwrap();
        for (tool, args) in [
            ("read_board", json!({"path": path})),
            ("find", json!({"path": path, "text": "x"})),
            ("add_shape", json!({"path": path, "text": "x"})),
            (
                "batch",
                json!({"path": path, "operations": [{"tool": "add_shape", "args": {"text": "x"}}]}),
            ),
            ("board_changes", json!({"path": path})),
            ("save_board", json!({"path": path})),
            ("create_board", json!({"path": path})),
        ] {
            let failure = s.fails(tool, args).await;
            assert!(
                failure.text.contains(name),
                "{tool}: the error should name the file: {}",
                failure.text
            );
            if tool != "create_board" {
                assert!(
                    failure.text.contains(why),
                    "{tool}: the error should say what is wrong ({why}): {}",
                    failure.text
                );
            }
            assert_eq!(
                fs::read(&path).unwrap(),
                garbage,
                "{tool} changed the corrupt file"
            );
        }
    }
    let mut left: Vec<String> = fs::read_dir(s.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["broken.inkboard", "broken.tableau.json", "runtime"],
        "no temporary file or lock file is left behind"
    );
    still_serving(&s).await;
    common::assert_quiet(&s.close().await);
}

async fn missing_file_is_a_tool_error(era: Era) {
    let s = Session::start(era).await;
    let path = s.path("nowhere.inkboard");
    for (tool, args) in [
        ("read_board", json!({"path": path})),
        ("add_shape", json!({"path": path, "text": "x"})),
        (
            "batch",
            json!({"path": path, "operations": [{"tool": "add_shape", "args": {}}]}),
        ),
    ] {
        let failure = s.fails(tool, args).await;
        assert!(
            failure.text.contains("nowhere.inkboard") && failure.text.contains("create_board"),
            "{tool}: {}",
            failure.text
        );
    }
    // Asking about a board that is not there leaves nothing behind, not even a lock.
    let left: Vec<_> = fs::read_dir(s.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["runtime"]);
    common::assert_quiet(&s.close().await);
}

async fn atomic_batch_failure_changes_nothing(era: Era) {
    let s = Session::start(era).await;
    let path = s.path("atomic.inkboard");
    s.ok("create_board", json!({"path": path})).await;
    s.ok("add_shape", json!({"path": path, "text": "kept"}))
        .await;
    let before = fs::read(&path).unwrap();
    let board_before = s.ok("read_board", json!({"path": path})).await;

    let r = s
        .call(
            "batch",
            json!({"path": path, "operations": [
                {"tool": "add_shape", "args": {"text": "A"}},
                {"tool": "add_shape", "args": {"text": "B"}},
                {"tool": "add_connector", "args": {"from": "$0.id", "to": "s999"}},
                {"tool": "add_shape", "args": {"text": "never run"}},
            ]}),
        )
        .await;
    assert_eq!(r.is_error, Some(true));
    let payload = r
        .structured_content
        .clone()
        .expect("structured error payload");
    let text: Value = serde_json::from_str(&common::only_text(&r)).expect("JSON text");
    assert_eq!(text, payload, "text and structured content differ");
    let keys: Vec<&String> = payload.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["index", "error", "results"]);
    assert_eq!(payload["index"], 2);
    let error = payload["error"].as_str().unwrap();
    assert!(error.contains("operation 2"), "{error}");
    assert!(error.contains("s999"), "{error}");
    let results = payload["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert!(results.iter().all(|r| r["id"].is_string()), "{results:?}");

    assert_eq!(fs::read(&path).unwrap(), before, "the file was written");
    let board_after = s.ok("read_board", json!({"path": path})).await;
    assert_eq!(board_after, board_before);
    common::assert_quiet(&s.close().await);
}

async fn non_atomic_batch_failure_keeps_what_succeeded(era: Era) {
    let s = Session::start(era).await;
    let path = s.path("partial.inkboard");
    s.ok("create_board", json!({"path": path})).await;
    let answer = s
        .ok(
            "batch",
            json!({"path": path, "atomic": false, "operations": [
                {"tool": "add_shape", "args": {"text": "A"}},
                {"tool": "add_shape", "args": {"text": "B"}},
                {"tool": "delete", "args": {"ids": ["$0.id", "s999"]}},
                {"tool": "add_shape", "args": {"text": "never run"}},
            ]}),
        )
        .await;
    assert_eq!(answer["applied"], 2);
    assert_eq!(answer["failed"]["index"], 2);
    let error = answer["failed"]["error"].as_str().unwrap();
    assert!(error.contains("s999"), "{error}");
    assert_eq!(answer["results"].as_array().unwrap().len(), 2);

    let board = s.ok("read_board", json!({"path": path})).await;
    let texts: Vec<&Value> = board["page"]["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| &o["text"])
        .collect();
    assert_eq!(texts, [&json!("A"), &json!("B")]);
    common::assert_quiet(&s.close().await);
}

async fn no_path_and_no_application(era: Era) {
    let s = Session::start(era).await;
    for (tool, args) in [
        ("read_board", json!({})),
        ("add_shape", json!({"text": "A"})),
        (
            "batch",
            json!({"operations": [{"tool": "add_shape", "args": {}}]}),
        ),
    ] {
        let failure = s.fails(tool, args).await;
        assert!(
            failure.text.contains("pass `path`") && failure.text.contains("inkboard open"),
            "{tool}: {}",
            failure.text
        );
    }
    still_serving(&s).await;
    common::assert_quiet(&s.close().await);
}

async fn unknown_tool_is_a_protocol_error(era: Era) {
    let s = Session::start(era).await;
    match s
        .try_call("no_such_tool", json!({"path": "x.inkboard"}))
        .await
    {
        Err(ServiceError::McpError(e)) => {
            assert_eq!(e.code, ErrorCode::INVALID_PARAMS, "{e:?}");
            assert!(e.message.contains("no_such_tool"), "{}", e.message);
            assert!(e.message.contains("tools/list"), "{}", e.message);
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
    // An unknown tool inside a batch is the batch's error, not the protocol's.
    // The schema's enum already forbids it, so only a client that does not check
    // arguments sends it: sent unchecked.
    let path = s.path("b.inkboard");
    s.ok("create_board", json!({"path": path})).await;
    let failure = s
        .try_call(
            "batch",
            json!({"path": path, "operations": [{"tool": "no_such_tool", "args": {}}]}),
        )
        .await
        .expect("a tool error, not a protocol error");
    assert_eq!(failure.is_error, Some(true));
    assert_eq!(failure.structured_content.as_ref().unwrap()["index"], 0);
    still_serving(&s).await;
    common::assert_quiet(&s.close().await);
}

async fn bad_arguments_are_tool_errors(era: Era) {
    let s = Session::start(era).await;
    let path = s.path("args.inkboard");
    s.ok("create_board", json!({"path": path})).await;
    let before = fs::read(&path).unwrap();
    let r = s
        .try_call("add_shape", json!({"path": path, "colour": "red"}))
        .await
        .expect("a tool error, not a protocol error");
    assert_eq!(r.is_error, Some(true));
    let text = common::only_text(&r);
    assert!(text.contains("colour"), "{text}");
    let r = s
        .try_call("add_shape", json!({"path": path, "x": "left"}))
        .await
        .expect("a tool error, not a protocol error");
    assert_eq!(r.is_error, Some(true));
    assert!(common::only_text(&r).contains('x'));
    for ops in [json!([]), json!("add_shape"), flow_operations(101)] {
        let r = s
            .try_call("batch", json!({"path": path, "operations": ops}))
            .await
            .expect("a tool error, not a protocol error");
        assert_eq!(r.is_error, Some(true), "{ops}");
        assert!(common::only_text(&r).contains("operations"));
    }
    assert_eq!(fs::read(&path).unwrap(), before);
    still_serving(&s).await;
    common::assert_quiet(&s.close().await);
}

/// The server answers normally after whatever came before.
async fn still_serving(s: &Session) {
    let tools = s.client.list_all_tools().await.expect("tools/list");
    assert!(tools.len() >= 20);
    let path = s.path("alive.inkboard");
    if !s.dir.path().join("alive.inkboard").exists() {
        s.ok("create_board", json!({"path": path})).await;
    }
    let placed = s
        .ok("add_shape", json!({"path": path, "text": "alive"}))
        .await;
    assert!(placed["id"].is_string());
}

// ---------------------------------------------------------------------------
// Raw JSON-RPC: stdout carries JSON-RPC messages and nothing else.
// ---------------------------------------------------------------------------

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}"#;

/// The lines of a session that goes through successes and every kind of failure.
fn raw_lines(era: Era, board: &str) -> Vec<String> {
    let board = serde_json::to_string(board).unwrap();
    let calls = [
        r#""method":"tools/list","params":{}"#.to_string(),
        format!(
            r#""method":"tools/call","params":{{"name":"create_board","arguments":{{"path":{board}}}}}"#
        ),
        format!(
            r#""method":"tools/call","params":{{"name":"batch","arguments":{{"path":{board},"operations":[{{"tool":"add_shape","args":{{"text":"A"}}}},{{"tool":"delete","args":{{"ids":["nope"]}}}}]}}}}"#
        ),
        r#""method":"tools/call","params":{"name":"read_board","arguments":{}}"#.to_string(),
        r#""method":"tools/call","params":{"name":"no_such_tool","arguments":{}}"#.to_string(),
        r#""method":"no/such/method","params":{}"#.to_string(),
        format!(
            r#""method":"tools/call","params":{{"name":"read_board","arguments":{{"path":{board}}}}}"#
        ),
    ];
    let mut lines = Vec::new();
    if era == Era::Handshake {
        lines.push(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#.to_string());
        lines.push(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_string());
    } else {
        lines.push(format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{{{META}}}}}"#
        ));
    }
    for (i, call) in calls.iter().enumerate() {
        let mut call = call.clone();
        if era == Era::Stateless {
            // Every stateless request carries the version and capabilities.
            call = match call.strip_suffix("}") {
                Some(open) if open.ends_with('{') => format!("{open}{META}}}"),
                Some(open) => format!("{open},{META}}}"),
                None => call,
            };
        }
        lines.push(format!(r#"{{"jsonrpc":"2.0","id":{},{call}}}"#, i + 1));
        if i == 3 {
            // A line that is not JSON at all gets a parse error, id null, and the
            // server goes on.
            lines.push("this is not JSON".to_string());
        }
    }
    lines
}

/// Runs a raw session; returns the answers by id and everything on stderr.
async fn raw_session(era: Era, log: Option<&str>) -> (HashMap<u64, Value>, String) {
    let dir = tempfile::tempdir().unwrap();
    let runtime = dir.path().join("runtime");
    common::private_dir(&runtime);
    let mut cmd = tokio::process::Command::new(BIN);
    cmd.arg("mcp")
        .env("INKBOARD_RUNTIME_DIR", &runtime)
        .env_remove("INKBOARD_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(filter) = log {
        cmd.env("INKBOARD_LOG", filter);
    }
    let mut child = cmd.spawn().expect("spawn inkboard mcp");
    let mut stdin = child.stdin.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let stderr = tokio::spawn(async move {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text).await;
        text
    });
    let board = dir.path().join("raw.inkboard").display().to_string();
    let lines = raw_lines(era, &board);
    let mut out = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut answers = HashMap::new();
    // One line at a time, so the answers come back in order. Every line is
    // answered but the notifications.
    for line in &lines {
        stdin.write_all(line.as_bytes()).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
        stdin.flush().await.unwrap();
        if line.starts_with(r#"{"jsonrpc":"2.0","method""#) {
            continue;
        }
        let answer = tokio::time::timeout(Duration::from_secs(10), out.next_line())
            .await
            .expect("an answer within 10 s")
            .unwrap()
            .expect("the server is still running");
        let v: Value = serde_json::from_str(&answer)
            .unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {answer}"));
        assert_eq!(v["jsonrpc"], "2.0", "{answer}");
        // The line that is not JSON is answered too, with a null id (JSON-RPC 2.0).
        let id = match &v["id"] {
            Value::Null => NOT_JSON,
            id => id
                .as_u64()
                .unwrap_or_else(|| panic!("an answer to a request: {answer}")),
        };
        answers.insert(id, v);
    }
    drop(stdin);
    // After stdin closes, the server exits and says nothing more on stdout.
    let rest = tokio::time::timeout(Duration::from_secs(10), out.next_line())
        .await
        .expect("the server exits once stdin closes")
        .unwrap();
    assert_eq!(rest, None, "stdout carried more than the answers");
    let status = child.wait().await.unwrap();
    assert!(status.success(), "the server exited with {status}");
    (answers, stderr.await.unwrap())
}

/// Where `raw_session` files the answer to the line that is not JSON.
const NOT_JSON: u64 = u64::MAX;

fn check_raw_answers(era: Era, answers: &HashMap<u64, Value>) {
    assert_eq!(answers.len(), 9, "one answer per line: {answers:?}");
    assert_eq!(answers[&NOT_JSON]["error"]["code"], -32700);
    assert!(answers[&1]["result"]["tools"].is_array());
    // The budget of that answer: tests/schema_lint.rs.
    assert_eq!(answers[&2]["result"]["isError"], false);
    assert_eq!(answers[&3]["result"]["isError"], true);
    assert_eq!(answers[&3]["result"]["structuredContent"]["index"], 1);
    assert_eq!(answers[&4]["result"]["isError"], true);
    assert_eq!(answers[&5]["error"]["code"], -32602);
    assert_eq!(answers[&6]["error"]["code"], -32601);
    assert_eq!(answers[&7]["result"]["isError"], false);
    assert_eq!(
        answers[&7]["result"]["structuredContent"]["pages"][0]["objects"], 0,
        "the failed atomic batch left the board empty"
    );
    // Only the stateless era marks its results as complete.
    let marked = answers[&7]["result"].get("resultType").is_some();
    assert_eq!(marked, era == Era::Stateless);
}

#[tokio::test]
async fn stdout_is_only_json_rpc_and_stderr_is_quiet() {
    for era in [Era::Handshake, Era::Stateless] {
        let (answers, stderr) = raw_session(era, None).await;
        check_raw_answers(era, &answers);
        // Requests 5 and 6 are the JSON-RPC errors; nothing else is said by default.
        common::assert_quiet(&stderr);
    }
}

#[tokio::test]
async fn logs_go_to_stderr_only() {
    for era in [Era::Handshake, Era::Stateless] {
        let (answers, stderr) = raw_session(era, Some("debug")).await;
        check_raw_answers(era, &answers);
        assert!(
            stderr.contains("tools/call"),
            "{era:?}: with INKBOARD_LOG=debug the calls are logged to stderr: {stderr}"
        );
    }
}

/// What a modern host does: probe with `server/discover` and fall back to the
/// handshake. Against inkboard the probe succeeds, so the stateless era is used.
#[tokio::test]
async fn auto_lifecycle_settles_on_the_stateless_era() {
    use rmcp::model::{ClientCapabilities, ClientConfig, Implementation, ProtocolVersion};
    use rmcp::{ClientLifecycleMode, ClientServiceExt};

    let dir = tempfile::tempdir().unwrap();
    let mut cmd = tokio::process::Command::new(BIN);
    cmd.arg("mcp")
        .env("INKBOARD_RUNTIME_DIR", dir.path())
        .env_remove("INKBOARD_LOG");
    let transport = rmcp::transport::TokioChildProcess::new(cmd).expect("spawn");
    let client = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("inkboard-e2e", "0.0.1"),
    )
    .with_protocol_version(ProtocolVersion::V_2025_11_25)
    .serve_with_lifecycle(
        transport,
        ClientLifecycleMode::Auto {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            legacy_version: Some(ProtocolVersion::V_2025_11_25),
        },
    )
    .await
    .expect("connect");
    let info = client.peer_info().expect("server info");
    assert_eq!(info.protocol_version, ProtocolVersion::V_2026_07_28);
    assert_eq!(info.server_info.as_ref().unwrap().name, "inkboard");
    assert!(client.list_all_tools().await.unwrap().len() >= 20);
    client.cancel().await.unwrap();
}
