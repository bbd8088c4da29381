//! The command line, run as a user runs it: the built `inkboard` binary with
//! `std::process::Command`. `inkboard batch` must print exactly what the MCP `batch`
//! tool answers (same engine, no second implementation), so one test runs the same
//! operations through both, on two copies of one board, and compares.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use common::{flow_operations, Era, Session, BIN};
use serde_json::{json, Value};

/// Runs `inkboard ARGS` in `dir`, with no application to be found.
fn inkboard(dir: &Path, args: &[&str]) -> Output {
    let runtime = dir.join("runtime");
    common::private_dir(&runtime);
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("INKBOARD_RUNTIME_DIR", runtime)
        .output()
        .expect("run inkboard")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 on stdout")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The JSON an `inkboard` command printed.
fn json_out(out: &Output) -> Value {
    serde_json::from_str(&stdout(out)).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}\nstderr: {}",
            stdout(out),
            stderr(out)
        )
    })
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("an exit code")
}

/// Writes an operations file and returns its name.
fn ops_file(dir: &Path, name: &str, ops: &Value) -> String {
    fs::write(dir.join(name), serde_json::to_string_pretty(ops).unwrap()).unwrap();
    name.to_string()
}

#[test]
fn version() {
    let dir = tempfile::tempdir().unwrap();
    for flag in ["--version", "-V"] {
        let out = inkboard(dir.path(), &[flag]);
        assert_eq!(code(&out), 0);
        assert_eq!(
            stdout(&out),
            format!("inkboard {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}

#[test]
fn help_on_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let out = inkboard(dir.path(), &["--help"]);
    assert_eq!(code(&out), 0);
    let top = stdout(&out);
    assert!(top.contains("Usage: inkboard <COMMAND>"), "{top}");
    // The commands as the top-level help lists them, so a new one is covered too.
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    for expected in ["mcp", "new", "batch"] {
        assert!(commands.contains(&expected), "{expected} in {commands:?}");
    }
    for command in commands {
        let out = inkboard(dir.path(), &[command, "--help"]);
        assert_eq!(code(&out), 0, "{command} --help: {}", stderr(&out));
        let help = stdout(&out);
        assert!(
            help.contains(&format!("Usage: inkboard {command}")),
            "{command} --help:\n{help}"
        );
        assert!(help.lines().next().is_some_and(|l| !l.is_empty()), "{help}");
    }
    // The flags each command documents.
    let help = stdout(&inkboard(dir.path(), &["new", "--help"]));
    for flag in ["--title", "--page", "--overwrite", "<FILE>"] {
        assert!(help.contains(flag), "new --help lacks {flag}:\n{help}");
    }
    let help = stdout(&inkboard(dir.path(), &["batch", "--help"]));
    for flag in ["--page", "--no-atomic", "<FILE>", "<OPS>"] {
        assert!(help.contains(flag), "batch --help lacks {flag}:\n{help}");
    }
    // A usage error is not a tool failure: clap's code 2, nothing on stdout.
    let out = inkboard(dir.path(), &["frobnicate"]);
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "");
}

#[test]
fn new_board() {
    let dir = tempfile::tempdir().unwrap();
    let out = inkboard(
        dir.path(),
        &[
            "new",
            "plan.inkboard",
            "--title",
            "Plan",
            "--page",
            "Ideas",
            "--page",
            "Done",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let answer = json_out(&out);
    assert_eq!(
        answer["pages"],
        json!([{"number": 1, "name": "Ideas"}, {"number": 2, "name": "Done"}])
    );
    let path = dir.path().join("plan.inkboard");
    assert_eq!(
        Path::new(answer["path"].as_str().unwrap()),
        path.canonicalize().unwrap()
    );
    let file: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert_eq!(file["format"], "inkboard");
    assert_eq!(file["title"], "Plan");
    let pages: Vec<&Value> = file["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["name"])
        .collect();
    assert_eq!(pages, [&json!("Ideas"), &json!("Done")]);

    // An existing board is never replaced by accident.
    let before = fs::read(&path).unwrap();
    let out = inkboard(dir.path(), &["new", "plan.inkboard"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("already exists") && stderr(&out).contains("--overwrite"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read(&path).unwrap(), before);
    let out = inkboard(dir.path(), &["new", "plan.inkboard", "--overwrite"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        json_out(&out)["pages"],
        json!([{"number": 1, "name": "Page 1"}])
    );

    // Every board file kind; any other name is refused.
    for name in ["b.inkboard.json", "c.tableau.json"] {
        let out = inkboard(dir.path(), &["new", name]);
        assert_eq!(code(&out), 0, "{name}: {}", stderr(&out));
        assert!(dir.path().join(name).is_file());
    }
    let out = inkboard(dir.path(), &["new", "d.json"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains(".inkboard"), "{}", stderr(&out));
    assert!(!dir.path().join("d.json").exists());
}

#[test]
fn batch_exit_codes_and_atomicity() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(code(&inkboard(d, &["new", "b.inkboard"])), 0);

    let good = ops_file(
        d,
        "good.json",
        &json!([
            {"tool": "add_shape", "args": {"text": "A"}},
            {"tool": "add_shape", "args": {"text": "B"}},
            {"tool": "add_connector", "args": {"from": "$0.id", "to": "$1.id"}},
        ]),
    );
    let out = inkboard(d, &["batch", "b.inkboard", &good]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let answer = json_out(&out);
    assert_eq!(answer["applied"], 3);
    assert_eq!(answer["results"][2], json!({"id": "c3"}));
    assert_eq!(stderr(&out), "");

    // Atomic failure: exit 1, the error payload on stdout, the file untouched.
    let bad = ops_file(
        d,
        "bad.json",
        &json!({"operations": [
            {"tool": "add_shape", "args": {"text": "C"}},
            {"tool": "delete", "args": {"ids": ["s99"]}},
        ]}),
    );
    let before = fs::read(d.join("b.inkboard")).unwrap();
    let out = inkboard(d, &["batch", "b.inkboard", &bad]);
    assert_eq!(code(&out), 1);
    let payload = json_out(&out);
    assert_eq!(payload["index"], 1);
    assert!(
        payload["error"].as_str().unwrap().contains("s99"),
        "{payload}"
    );
    assert_eq!(payload["results"].as_array().unwrap().len(), 1);
    assert_eq!(fs::read(d.join("b.inkboard")).unwrap(), before);

    // Non-atomic failure: exit 1 as well, but what succeeded is kept.
    let out = inkboard(d, &["batch", "b.inkboard", &bad, "--no-atomic"]);
    assert_eq!(code(&out), 1);
    let answer = json_out(&out);
    assert_eq!(answer["applied"], 1);
    assert_eq!(answer["failed"]["index"], 1);
    let read = json_out(&inkboard(
        d,
        &["call", "read_board", r#"{"path": "b.inkboard"}"#],
    ));
    assert_eq!(read["pages"][0]["objects"], 4);

    // An operations file that is missing or not JSON is a usage problem (code 2),
    // said on stderr and naming the file.
    fs::write(d.join("broken.json"), "[{").unwrap();
    for file in ["broken.json", "missing.json"] {
        let out = inkboard(d, &["batch", "b.inkboard", file]);
        assert_eq!(code(&out), 2, "{file}");
        assert_eq!(stdout(&out), "");
        assert!(stderr(&out).contains(file), "{}", stderr(&out));
    }
    // A corrupt board: exit 1, the file named, the file untouched.
    fs::write(d.join("corrupt.inkboard"), "{ not json").unwrap();
    let out = inkboard(d, &["batch", "corrupt.inkboard", &good]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("corrupt.inkboard"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read(d.join("corrupt.inkboard")).unwrap(), b"{ not json");
}

#[test]
fn batch_page_flag() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = inkboard(d, &["new", "p.inkboard", "--page", "One", "--page", "Two"]);
    assert_eq!(code(&out), 0);
    let ops = ops_file(
        d,
        "ops.json",
        &json!([{"tool": "add_shape", "args": {"text": "x"}}]),
    );
    for page in ["Two", "2"] {
        let out = inkboard(d, &["batch", "p.inkboard", &ops, "--page", page]);
        assert_eq!(code(&out), 0, "--page {page}: {}", stderr(&out));
    }
    // An operation's own page wins over the batch's.
    let own = ops_file(
        d,
        "own.json",
        &json!([{"tool": "add_shape", "args": {"text": "y", "page": "One"}}]),
    );
    assert_eq!(
        code(&inkboard(d, &["batch", "p.inkboard", &own, "--page", "2"])),
        0
    );
    let read = json_out(&inkboard(
        d,
        &["call", "read_board", r#"{"path": "p.inkboard"}"#],
    ));
    assert_eq!(read["pages"][0]["objects"], 1, "page One: {read}");
    assert_eq!(read["pages"][1]["objects"], 2, "page Two: {read}");

    let out = inkboard(d, &["batch", "p.inkboard", &ops, "--page", "Three"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("Three") || stdout(&out).contains("Three"));
    let out = inkboard(d, &["batch", "p.inkboard", &ops, "--page", "3"]);
    assert_eq!(code(&out), 1);
}

/// `inkboard batch` prints what the MCP tool answers, for success and for both
/// kinds of failure, and leaves the same board behind.
#[tokio::test]
async fn batch_prints_what_mcp_answers() {
    let mcp = Session::start(Era::Handshake).await;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(
        code(&inkboard(d, &["new", "cli.inkboard", "--title", "Same"])),
        0
    );
    let via_mcp = mcp.path("mcp.inkboard");
    fs::copy(d.join("cli.inkboard"), &via_mcp).unwrap();

    let failing = json!([
        {"tool": "add_shape", "args": {"text": "late"}},
        {"tool": "add_connector", "args": {"from": "$0.id", "to": "$5.id"}},
    ]);
    let cases = [
        (flow_operations(100), false, 0),
        (failing.clone(), false, 1),
        (failing, true, 1),
    ];
    for (ops, no_atomic, exit) in cases {
        let file = ops_file(d, "ops.json", &ops);
        let mut args = vec!["batch", "cli.inkboard", file.as_str()];
        if no_atomic {
            args.push("--no-atomic");
        }
        let out = inkboard(d, &args);
        assert_eq!(code(&out), exit, "{}", stderr(&out));
        let cli = json_out(&out);

        let r = mcp
            .call(
                "batch",
                json!({"path": via_mcp, "operations": ops, "atomic": !no_atomic}),
            )
            .await;
        let from_mcp = r.structured_content.clone().expect("structured content");
        assert_eq!(cli, from_mcp, "no_atomic: {no_atomic}");
    }

    let read = |path: &str| json!({"path": path});
    let cli_board = json_out(&inkboard(
        d,
        &["call", "read_board", &read("cli.inkboard").to_string()],
    ));
    let mcp_board = mcp.ok("read_board", read(&via_mcp)).await;
    assert_eq!(cli_board, mcp_board);
    assert_eq!(cli_board["pages"][0]["objects"], 200);
    common::assert_quiet(&mcp.close().await);
}

/// `render -o` naming a folder says what to give instead; `export` onto an
/// existing file is refused unless `--overwrite`, in the command line's words.
#[test]
fn render_into_a_folder_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(code(&inkboard(dir.path(), &["new", "plan.inkboard"])), 0);
    fs::create_dir(dir.path().join("pictures")).unwrap();
    let out = inkboard(dir.path(), &["render", "plan.inkboard", "-o", "pictures"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("is a folder: give a file's path after -o, such as pictures/plan.png"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        code(&inkboard(
            dir.path(),
            &["render", "plan.inkboard", "-o", "pictures/plan.png"]
        )),
        0
    );

    fs::write(dir.path().join("old.svg"), "precious").unwrap();
    let out = inkboard(dir.path(), &["export", "plan.inkboard", "-o", "old.svg"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("pass --overwrite to replace it"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("old.svg")).unwrap(),
        "precious"
    );
    let out = inkboard(
        dir.path(),
        &["export", "plan.inkboard", "-o", "old.svg", "--overwrite"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(fs::read_to_string(dir.path().join("old.svg"))
        .unwrap()
        .starts_with("<svg"));
}

/// `--theme dark` paints an export or a render as the dark editor shows the board
/// (the page 7% grey); light is the default; an unknown theme is refused in words.
#[test]
fn export_and_render_take_a_theme() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(code(&inkboard(dir.path(), &["new", "plan.inkboard"])), 0);
    let svg = |name: &str| fs::read_to_string(dir.path().join(name)).unwrap();
    let out = inkboard(
        dir.path(),
        &[
            "export",
            "plan.inkboard",
            "-o",
            "dark.svg",
            "--theme",
            "dark",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(svg("dark.svg").contains(r##"data-type="background" "##));
    assert!(svg("dark.svg").contains(r##"fill="#121212""##));
    let out = inkboard(dir.path(), &["export", "plan.inkboard", "-o", "light.svg"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!svg("light.svg").contains(r##"fill="#121212""##));
    let out = inkboard(
        dir.path(),
        &[
            "render",
            "plan.inkboard",
            "-o",
            "dark.png",
            "--theme",
            "dark",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = inkboard(
        dir.path(),
        &["export", "plan.inkboard", "-o", "x.png", "--theme", "sepia"],
    );
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("unknown theme \"sepia\": use one of light, dark"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path().join("x.png").exists());
}

/// `inkboard import` runs the `import` tool: the tool's JSON on stdout, what the
/// board could not keep on stderr, one line per kind; an existing board is
/// replaced only with `--overwrite`; a file that is no diagram is refused.
#[test]
fn import_a_drawio_file() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../inkboard-interop/tests/corpus");
    fs::copy(
        corpus.join("made-features.drawio"),
        dir.path().join("features.drawio"),
    )
    .unwrap();
    let out = inkboard(
        dir.path(),
        &["import", "features.drawio", "-o", "features.inkboard"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let answer = json_out(&out);
    assert_eq!(answer["format"], "draw.io");
    let lost = answer["lost"].as_array().expect("lost");
    assert!(!lost.is_empty(), "{answer}");
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), lost.len(), "{err}");
    for (line, entry) in lines.iter().zip(lost) {
        assert_eq!(
            *line,
            format!(
                "inkboard import: not kept: {}",
                entry["message"].as_str().unwrap()
            )
        );
    }
    assert!(
        stderr(&out)
            .contains("1 stencil shape drawn as a rectangle: \"mxgraph.aws4.resourceIcon\""),
        "{}",
        stderr(&out)
    );
    let path = dir.path().join("features.inkboard");
    let board = inkboard_format::file::load(&path)
        .expect("the board loads")
        .board;
    assert_eq!(
        board.object_count() as u64,
        answer["objects"].as_u64().unwrap()
    );

    // An existing board is never replaced by accident.
    let before = fs::read(&path).unwrap();
    let out = inkboard(
        dir.path(),
        &["import", "features.drawio", "-o", "features.inkboard"],
    );
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("already exists") && stderr(&out).contains("--overwrite"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read(&path).unwrap(), before);
    let out = inkboard(
        dir.path(),
        &[
            "import",
            "features.drawio",
            "-o",
            "features.inkboard",
            "--overwrite",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    // Not a diagram: refused, nothing written.
    fs::write(dir.path().join("notes.txt"), "just words").unwrap();
    let out = inkboard(dir.path(), &["import", "notes.txt", "-o", "notes.inkboard"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("is not a draw.io or Excalidraw file"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path().join("notes.inkboard").exists());
}

/// Text from a file never reaches the terminal raw (issue 29): an Excalidraw
/// file whose element type is a string of escape sequences (set the window's
/// title, clear the screen, an 8-bit CSI, a carriage return, a right-to-left
/// override) is imported, and a board whose page has such a name is rendered.
/// Nothing printed holds them, and the JSON still reads back to the same text.
#[test]
fn text_from_files_reaches_the_terminal_escaped() {
    let nasty = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m\u{202e}evil";
    let raw = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes);
        text.chars()
            .find(|c| matches!(c, '\u{1b}' | '\u{7}' | '\u{9b}' | '\r' | '\u{202e}'))
    };
    let dir = tempfile::tempdir().unwrap();
    let scene = json!({"type": "excalidraw", "elements": [
        {"id": "a", "type": nasty, "x": 0, "y": 0, "width": 10, "height": 10}
    ]});
    fs::write(dir.path().join("scene.excalidraw"), scene.to_string()).unwrap();
    let out = inkboard(
        dir.path(),
        &["import", "scene.excalidraw", "-o", "scene.inkboard"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(raw(&out.stdout), None, "{}", stdout(&out));
    assert_eq!(raw(&out.stderr), None, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{9b}31m"),
        "{}",
        stderr(&out)
    );
    let answer = json_out(&out);
    assert_eq!(answer["lost"][0]["examples"][0], nasty, "{answer}");

    let mut board: Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("scene.inkboard")).unwrap())
            .unwrap();
    let name = format!("{nasty}\roverwritten");
    board["pages"][0]["name"] = json!(name);
    fs::write(dir.path().join("named.inkboard"), board.to_string()).unwrap();
    let out = inkboard(dir.path(), &["render", "named.inkboard"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(raw(&out.stdout), None, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("\\u{202e}evil\\u{d}overwritten"),
        "{}",
        stdout(&out)
    );
    let out = inkboard(
        dir.path(),
        &[
            "call",
            "read_board",
            &json!({"path": "named.inkboard"}).to_string(),
        ],
    );
    assert_eq!(raw(&out.stdout), None, "{}", stdout(&out));
    assert_eq!(json_out(&out)["pages"][0]["name"], name);
}
