//! Hostile input, everywhere: a sweep generated from the catalogue's own JSON
//! schemas, so every tool and every argument is covered, and a tool added later is
//! covered without touching this file.
//!
//! For each tool, each property (and, one level at a time, each property of an
//! object argument and each item of a list argument) gets a value of every JSON
//! type, null, empty strings, lists and objects, huge and out-of-range numbers, a
//! 1 MB string and odd Unicode; each required argument is left out in turn; unknown
//! keys are added; the arguments are not an object at all; the arguments that
//! name files (`live::PATH_ARGS`) point at a folder, a missing folder, a place
//! under a regular file (the tests run as root, so permissions stop nothing), a
//! read-only file system (/proc), a symbolic link and a dangling one. Then real
//! boards are truncated and damaged and every tool is called on them, and `batch`
//! gets malformed operations and bad `$N.key` references, atomic and not.
//!
//! Every case runs through the real engine on a real board file in a temp folder.
//! For each: no panic (and no "hit a bug" error: that is a panic the engine
//! contained); an error is one sentence (one line, not too long) naming the
//! argument at fault; after an error the board file is byte-identical and nothing
//! was left in the folder; a success is written down as such, and a board it
//! changed must load again. Every answer is kept in `tests/hostile/`, so that a
//! reviewer reads every message and a changed message fails the test;
//! `UPDATE_EXPECT=1 cargo test -p inkboard-tools --test hostile` rewrites them.

mod common;

use std::collections::BTreeSet;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::Once;

use inkboard_tools::{catalog, live::PATH_ARGS, Engine, Reply, ToolDef};
use serde_json::{json, Map, Value};

/// The longest error message that still reads as one sentence.
const MAX_MESSAGE: usize = 400;

/// A small picture as a data URL, for `add_image`.
const SVG: &str = "data:image/svg+xml,%3Csvg width=%2240%22 height=%2220%22%3E%3C/svg%3E";

/// How much of an answer the expected files keep (a message that echoes a huge
/// value fails the length check; the file stays readable).
const SHOWN: usize = 600;

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// No application runs for these tests: calls without a path must say so, and a
/// developer's running application must never be found.
fn no_application() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let runtime = tempfile::tempdir().expect("runtime dir").keep();
        // SAFETY: every test of this file calls this before it builds an engine, and
        // `Once` makes the others wait until it is set, so no thread reads it meanwhile.
        unsafe { std::env::set_var("INKBOARD_RUNTIME_DIR", runtime) };
    });
}

// ---------------------------------------------------------------------------
// The values
// ---------------------------------------------------------------------------

/// Every hostile value, with the label the expected files show.
fn values() -> Vec<(&'static str, Value)> {
    let megabyte = "word ".repeat(200 * 1024);
    vec![
        ("null", Value::Null),
        ("true", json!(true)),
        ("false", json!(false)),
        ("0", json!(0)),
        ("-1", json!(-1)),
        ("0.5", json!(0.5)),
        ("1e308", json!(1e308)),
        ("-1e308", json!(-1e308)),
        ("5e-324", json!(5e-324)),
        ("1e20", json!(1e20)),
        ("u64::MAX", json!(u64::MAX)),
        ("i64::MIN", json!(i64::MIN)),
        ("\"\"", json!("")),
        ("\"   \"", json!("   ")),
        ("\"x\"", json!("x")),
        ("\"NaN\"", json!("NaN")),
        ("\"-Infinity\"", json!("-Infinity")),
        ("1 MB string", json!(megabyte)),
        ("NUL", json!("a\u{0}b")),
        ("RTL override", json!("\u{202E}txt.exe")),
        ("zero-width joiner", json!("\u{1F469}\u{200D}\u{1F4BB}")),
        (
            "combining marks",
            json!("e\u{301}\u{302}\u{303}\u{304}\u{305}"),
        ),
        ("emoji", json!("\u{1F980}\u{1F389}")),
        ("U+FFFF", json!("\u{FFFF}")),
        ("[]", json!([])),
        ("[null]", json!([null])),
        ("{}", json!({})),
        ("{\"x\": 1}", json!({"x": 1})),
    ]
}

/// A valid value for the argument `name` described by `schema`: what the other
/// arguments hold while one is made hostile, so the error is about that one.
fn valid(name: &str, schema: &Value, dir: &Path) -> Value {
    let at = |file: &str| json!(dir.join(file).display().to_string());
    if let Some(Value::Array(words)) = schema.get("enum") {
        return words[0].clone();
    }
    // One type, or the types of an `anyOf`'s choices in order.
    let types: Vec<&str> = match (schema.get("type"), schema.get("anyOf")) {
        (Some(Value::String(t)), _) => vec![t.as_str()],
        (_, Some(Value::Array(choices))) => choices
            .iter()
            .filter_map(|c| c.get("type").and_then(Value::as_str))
            .collect(),
        _ => vec![],
    };
    match name {
        "path" => return at("board.inkboard"),
        "as" => return at("copy.inkboard"),
        "output" => return at("out.svg"),
        "source" => return at("red-4x2.png"),
        "ids" => return json!(["s2", "s3"]),
        "id" => return json!("g7"),
        "from" => return json!("s2"),
        "to" if types.contains(&"string") => return json!("s3"),
        "tool" => return json!("find"),
        "text" => return json!("flowchart TD\n  A --> B"),
        "name" => return json!("Renamed"),
        "page" => return json!(1),
        "points" => return json!([[0, 0], [40, 10]]),
        _ => {}
    }
    match types.first().copied() {
        Some("boolean") => json!(false),
        Some("integer") => json!(20),
        Some("number") => json!(10),
        Some("string") => json!("x"),
        Some("array") => {
            let item = valid(name, schema.get("items").unwrap_or(&Value::Null), dir);
            let n = schema.get("minItems").and_then(Value::as_u64).unwrap_or(1);
            Value::Array(vec![item; n.max(1) as usize])
        }
        Some("object") => {
            let mut obj = Map::new();
            for key in required(schema) {
                obj.insert(key.clone(), valid(&key, &schema["properties"][&key], dir));
            }
            Value::Object(obj)
        }
        _ => json!("x"),
    }
}

fn required(schema: &Value) -> Vec<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// The hostile variants of one argument: `(label, value)`, where the label names
/// the place (`region.x`, `points[0]`) and the value.
fn variants(place: &str, name: &str, schema: &Value, dir: &Path) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = values()
        .into_iter()
        .map(|(label, v)| (format!("{place} = {label}"), v))
        .collect();
    // A batch operation's `args` lists every argument of every tool it may
    // run; each is swept on its own tool, so here `args` is swept whole.
    let props = schema.get("properties").filter(|_| name != "args");
    if let Some(Value::Object(props)) = props {
        let base = valid(name, schema, dir);
        for (key, sub) in props {
            let with = |v: Option<Value>| {
                let mut obj = base.clone();
                match v {
                    Some(v) => obj[key] = v,
                    None => {
                        obj.as_object_mut().map(|o| o.remove(key));
                    }
                }
                obj
            };
            for (label, v) in variants(&format!("{place}.{key}"), key, sub, dir) {
                out.push((label, with(Some(v))));
            }
            if required(schema).contains(key) {
                out.push((format!("{place}.{key} missing"), with(None)));
            }
        }
        let mut extra = base.clone();
        extra["colour"] = json!("red");
        out.push((format!("{place} with an unknown key"), extra));
    }
    if let Some(items) = schema.get("items") {
        let base = valid(name, schema, dir);
        for (label, v) in variants(&format!("{place}[0]"), name, items, dir) {
            let mut list = base.clone();
            list[0] = v;
            out.push((label, list));
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The sweep: one folder, one engine, one board, many calls
// ---------------------------------------------------------------------------

/// A temp folder holding a real board and the files the path cases point at, an
/// engine, and what the cases answered.
struct Sweep {
    engine: Engine,
    dir: tempfile::TempDir,
    board: PathBuf,
    original: Vec<u8>,
    /// What the folder held before the first case (recursively, with kinds).
    listing: BTreeSet<String>,
    /// One line per case, for the expected file.
    lines: Vec<String>,
    /// What broke a rule, one line each.
    failures: Vec<String>,
    cases: usize,
}

impl Sweep {
    /// A sweep on a copy of `tests/boards/diagram.inkboard` (two pages, every kind
    /// of object).
    fn new() -> Sweep {
        no_application();
        let dir = tempfile::tempdir().expect("temp dir");
        let board = dir.path().join("board.inkboard");
        std::fs::copy(tests_dir().join("boards/diagram.inkboard"), &board).expect("board");
        furnish(dir.path());
        let engine = Engine::new();
        // The folder as a first call leaves it (which is as it was: nothing is
        // left beside a board).
        engine
            .call("read_board", json!({"path": board.display().to_string()}))
            .expect("the starting board reads");
        let original = std::fs::read(&board).expect("board bytes");
        let listing = listing(dir.path());
        Sweep {
            engine,
            dir,
            board,
            original,
            listing,
            lines: Vec::new(),
            failures: Vec::new(),
            cases: 0,
        }
    }

    fn dir_str(&self) -> String {
        self.dir.path().display().to_string()
    }

    /// Runs one case and writes its line: `tool` with `args`, labelled `label`;
    /// `names` are the argument names an error must mention (any one of them, or
    /// its singular), empty for none.
    fn case(&mut self, label: &str, tool: &str, args: Value, names: &[&str]) {
        let answer = self.answer(label, tool, args, names);
        self.lines.push(format!("{label} => {answer}"));
    }

    /// Runs one case, checks it, puts the folder back, and says what it answered.
    fn answer(&mut self, label: &str, tool: &str, args: Value, names: &[&str]) -> String {
        self.cases += 1;
        // The view's own tools answer only the view (`Caller::view`).
        let caller = inkboard_tools::Caller::default().in_view();
        let answer = std::panic::catch_unwind(AssertUnwindSafe(|| {
            self.engine.call_as(tool, args, &caller)
        }));
        let dir = self.dir_str();
        let scrub = |s: &str| s.replace(&dir, "$DIR");
        let after = std::fs::read(&self.board).ok();
        let changed = after.as_deref() != Some(&self.original[..]);
        let now = listing(self.dir.path());
        let added: Vec<&String> = now.difference(&self.listing).collect();
        let removed: Vec<&String> = self.listing.difference(&now).collect();
        let mut shown = match &answer {
            Err(_) => "PANIC".to_string(),
            Ok(Err(e)) => format!("error: {}", scrub(&e.to_string())),
            Ok(Ok(Reply::Image { .. })) => "ok, an image".to_string(),
            // A batch that is not atomic answers its failure as a result.
            Ok(Ok(Reply::Json(v))) => match v.get("failed") {
                Some(failed) => format!(
                    "ok, applied {}, failed at {}: {}",
                    v["applied"],
                    failed["index"],
                    scrub(failed["error"].as_str().unwrap_or_default())
                ),
                None => "ok".to_string(),
            },
        };
        if changed {
            shown.push_str(", board changed");
        }
        for a in &added {
            shown.push_str(&format!(", left {}", scrub(a)));
        }
        for r in &removed {
            shown.push_str(&format!(", removed {}", scrub(r)));
        }
        let shown = clip(&shown);
        let fail = |why: &str| format!("{tool} {label}: {why}: {shown}");
        match &answer {
            Err(_) => self.failures.push(fail("panicked")),
            Ok(Err(e)) => {
                let message = e.to_string();
                for problem in sentence_problems(&message, names) {
                    self.failures.push(fail(&problem));
                }
                if changed {
                    self.failures
                        .push(fail("the board changed although the call failed"));
                }
                if !removed.is_empty() || !added.is_empty() {
                    self.failures
                        .push(fail("the folder changed although the call failed"));
                }
            }
            Ok(Ok(reply)) => {
                if let Reply::Json(Value::Object(v)) = reply {
                    if let Some(error) = v.get("failed").and_then(|f| f["error"].as_str()) {
                        for problem in sentence_problems(error, names) {
                            self.failures.push(fail(&problem));
                        }
                    }
                }
                if changed {
                    if let Err(e) = inkboard_format::file::load(&self.board) {
                        self.failures
                            .push(fail(&format!("the board written does not load: {e}")));
                    }
                }
            }
        }
        self.restore(changed, &added);
        shown
    }

    /// Puts the board and the folder back as they were before the case: the board
    /// by rename (a new inode, so the engine notices), what the case added removed,
    /// what it replaced or removed made again.
    fn restore(&self, changed: bool, added: &[&String]) {
        for a in added.iter().rev() {
            let rel = a.trim_end_matches(" (dir)").trim_end_matches(" (link)");
            let path = self.dir.path().join(rel);
            let _ = std::fs::remove_file(&path).or_else(|_| std::fs::remove_dir_all(&path));
        }
        let link = std::fs::symlink_metadata(&self.board);
        if changed || !link.is_ok_and(|m| m.file_type().is_file()) {
            let _ = std::fs::remove_file(&self.board);
            let temp = self.dir.path().join("restore.tmp");
            std::fs::write(&temp, &self.original).expect("restore the board");
            std::fs::rename(&temp, &self.board).expect("restore the board");
        }
        furnish(self.dir.path());
    }

    /// Makes the board file hold `bytes` from now on (by rename: a new file, as
    /// another program's save would make).
    fn set_board(&mut self, bytes: &[u8]) {
        let temp = self.dir.path().join("restore.tmp");
        std::fs::write(&temp, bytes).expect("write the board");
        std::fs::rename(&temp, &self.board).expect("replace the board");
        self.original = bytes.to_vec();
    }

    /// Compares the lines with `tests/hostile/NAME.txt`; the failures as one list.
    fn finish(self, name: &str) -> Vec<String> {
        let mut failures = self.failures;
        let text = self.lines.join("\n") + "\n";
        let path = tests_dir().join("hostile").join(format!("{name}.txt"));
        failures.extend(common::expect_file(&path, &text, name));
        eprintln!("hostile {name}: {} cases", self.cases);
        failures
    }
}

/// Puts in `dir` what the path cases point at (what is missing of it): an image, a
/// folder and a file per extension, a file to go under, symbolic links to the
/// board, the image and a file, and dangling ones.
fn furnish(d: &Path) {
    let image = d.join("red-4x2.png");
    if !image.exists() {
        std::fs::copy(tests_dir().join("boards/red-4x2.png"), &image).expect("image");
    }
    // A draw.io picture with its diagram inside, for `import`.
    let diagram = d.join("flow.drawio.png");
    if !diagram.exists() {
        let corpus = tests_dir().join("../../inkboard-interop/tests/corpus");
        std::fs::copy(corpus.join("made-flow.drawio.png"), &diagram).expect("diagram");
    }
    let absent = |p: &Path| std::fs::symlink_metadata(p).is_err();
    for ext in [".inkboard", ".png", ".svg"] {
        let folder = d.join(format!("folder{ext}"));
        if absent(&folder) {
            std::fs::create_dir(&folder).expect("a folder");
        }
        let target = d.join(format!("target{ext}"));
        if absent(&target) {
            std::fs::write(&target, b"not this one").expect("a file");
        }
        let dangling = d.join(format!("dangling{ext}"));
        if !std::fs::symlink_metadata(&dangling).is_ok_and(|m| m.file_type().is_symlink()) {
            let _ = std::fs::remove_file(&dangling);
            std::os::unix::fs::symlink(d.join(format!("nowhere{ext}")), &dangling)
                .expect("dangling symlink");
        }
    }
    if absent(&d.join("afile")) {
        std::fs::write(d.join("afile"), b"a regular file").expect("afile");
    }
    for (link, to) in [
        ("link.inkboard", "board.inkboard"),
        ("link.png", "red-4x2.png"),
        ("link.svg", "target.svg"),
    ] {
        let link = d.join(link);
        if !std::fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()) {
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(d.join(to), &link).expect("symlink");
        }
    }
}

/// Each file and folder under `dir`, by relative path, with `(link)`/`(dir)`.
fn listing(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).into_iter().flatten().flatten() {
            let path = entry.path();
            let rel = path
                .strip_prefix(dir)
                .unwrap_or(&path)
                .display()
                .to_string();
            let kind = entry.file_type().expect("file type");
            if kind.is_dir() {
                stack.push(path);
                out.insert(format!("{rel} (dir)"));
            } else if kind.is_symlink() {
                out.insert(format!("{rel} (link)"));
            } else {
                out.insert(rel);
            }
        }
    }
    out
}

/// An answer as the expected files show it: at most [`SHOWN`] characters, and
/// the characters that would garble a line of text (NUL, bidirectional overrides)
/// escaped, so the files stay plain, readable text.
fn clip(s: &str) -> String {
    let visible = |s: &str| inkboard_core::echo::echo_within(s, usize::MAX).into_owned();
    if s.chars().count() <= SHOWN {
        return visible(s);
    }
    let head: String = s.chars().take(SHOWN).collect();
    format!("{}… ({} chars in all)", visible(&head), s.chars().count())
}

/// What is wrong with an error message as a one-sentence answer naming one of
/// `names`.
fn sentence_problems(message: &str, names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    if message.trim().is_empty() {
        out.push("the message is empty".to_string());
    }
    if message.contains('\n') {
        out.push("the message has a line break".to_string());
    }
    if message.chars().count() > MAX_MESSAGE {
        out.push(format!(
            "the message is longer than {MAX_MESSAGE} characters"
        ));
    }
    if message.contains("hit a bug") {
        out.push("a panic was contained".to_string());
    }
    let named = |n: &&str| message.contains(n) || message.contains(n.trim_end_matches('s'));
    if !names.is_empty() && !names.iter().any(named) {
        out.push(format!("the message names none of {names:?}"));
    }
    out
}

/// The arguments of `tool` that are valid on the sweep's board, `path` included.
///
/// Most tools need only their required arguments; the few whose schema cannot say
/// that one of two arguments is needed get it here. A new tool needs an entry only
/// if its "valid arguments" line in its expected file shows an error: the sweep
/// covers it either way.
fn baseline(def: &ToolDef, dir: &Path) -> Map<String, Value> {
    let schema = Value::Object(def.input_schema.clone());
    let mut args = Map::new();
    for key in required(&schema) {
        args.insert(key.clone(), valid(&key, &schema["properties"][&key], dir));
    }
    let extra = match def.name {
        "update" => json!({"id": "s2", "text": "updated"}),
        "add_image" => json!({"data": SVG}),
        "move" => json!({"dx": 10}),
        "distribute" => json!({"gap": 10}),
        "import" => json!({"source": dir.join("flow.drawio.png").display().to_string()}),
        // The MCP App view's edit: a move, as a drag makes it.
        "view_edit" => json!({"tool": "move", "args": {"ids": ["s2"], "dx": 10}}),
        _ => json!({}),
    };
    if let Value::Object(extra) = extra {
        args.extend(extra);
    }
    // create_board and import make a new file; every other tool works on the board.
    let path = if ["create_board", "import"].contains(&def.name) {
        dir.join("new.inkboard")
    } else {
        dir.join("board.inkboard")
    };
    args.insert("path".into(), json!(path.display().to_string()));
    args
}

/// The baseline without the argument that excludes `name` (`source` or `data`,
/// `id` or `ids`), so that `name`'s own errors are the ones that show.
fn alone(tool: &str, name: &str, base: &Map<String, Value>) -> Map<String, Value> {
    let mut base = base.clone();
    match (tool, name) {
        ("add_image", "source") => base.remove("data"),
        ("update", "ids") => base.remove("id"),
        _ => None,
    };
    base
}

fn properties(def: &ToolDef) -> Vec<(String, Value)> {
    match def.input_schema.get("properties") {
        Some(Value::Object(props)) => props.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        _ => Vec::new(),
    }
}

/// The file-system places a path argument is pointed at; `ext` is its extension.
fn places(dir: &Path, ext: &str) -> Vec<(&'static str, String)> {
    let at = |rel: String| dir.join(rel).display().to_string();
    vec![
        ("a folder", at(format!("folder{ext}"))),
        ("the temp folder itself", dir.display().to_string()),
        ("in a missing folder", at(format!("missing/x{ext}"))),
        ("under a regular file", at(format!("afile/x{ext}"))),
        ("read-only /proc", format!("/proc/x{ext}")),
        ("a symlink", at(format!("link{ext}"))),
        ("a dangling symlink", at(format!("dangling{ext}"))),
        ("a NUL byte", at(format!("a\u{0}b{ext}"))),
        ("a 300-byte name", at(format!("{}{ext}", "n".repeat(300)))),
        ("no extension", at("board".into())),
        ("a wrong extension", at("board.txt".into())),
        ("only the extension", at(ext.to_string())),
        ("a trailing slash", at(format!("board{ext}/"))),
        ("through a file with ..", at(format!("afile/../board{ext}"))),
    ]
}

/// Every argument of every tool (the model's and the MCP App view's), made
/// hostile in turn.
#[test]
fn every_argument_of_every_tool() {
    let mut failures = Vec::new();
    let mut total = 0;
    for def in catalog().iter().chain(inkboard_tools::app_catalog()) {
        let mut sweep = Sweep::new();
        let dir = sweep.dir.path().to_path_buf();
        let base = baseline(def, &dir);
        sweep.case(
            "valid arguments",
            def.name,
            Value::Object(base.clone()),
            &[],
        );
        for (name, schema) in properties(def) {
            let base = alone(def.name, &name, &base);
            for (label, v) in variants(&name, &name, &schema, &dir) {
                let mut args = base.clone();
                args.insert(name.clone(), v);
                sweep.case(&label, def.name, Value::Object(args), &[&name]);
            }
            if base.contains_key(&name) && name != "path" {
                let mut args = base.clone();
                args.remove(&name);
                sweep.case(
                    &format!("{name} missing"),
                    def.name,
                    Value::Object(args),
                    &[&name],
                );
            }
            if PATH_ARGS.contains(&name.as_str()) {
                // The baseline's own file where it has one (import's diagram).
                let valid = base
                    .get(&name)
                    .cloned()
                    .unwrap_or_else(|| valid(&name, &schema, &dir));
                let valid = valid.as_str().unwrap_or_default();
                let ext = valid.rfind('.').map_or("", |i| &valid[i..]);
                for (what, place) in places(&dir, ext) {
                    let mut args = base.clone();
                    args.insert(name.clone(), json!(place));
                    // An error about a place names the place or the argument.
                    // (Its end: messages shorten a long path in the middle.)
                    let end: String = place.chars().rev().take(12).collect();
                    let end: String = end.chars().rev().collect();
                    let names = [name.as_str(), end.as_str()];
                    sweep.case(
                        &format!("{name} = {what}"),
                        def.name,
                        Value::Object(args),
                        &names,
                    );
                }
            }
        }
        for (label, key) in [
            ("an unknown key", "colour"),
            ("an empty key", ""),
            ("a key with odd Unicode", "\u{202E}x\u{0}"),
        ] {
            let mut args = base.clone();
            args.insert(key.to_string(), json!("red"));
            sweep.case(label, def.name, Value::Object(args), &[]);
        }
        let mut args = base.clone();
        args.insert("k".repeat(1 << 20), json!(1));
        sweep.case("a 1 MB key", def.name, Value::Object(args), &[]);
        for (label, args) in [
            ("arguments = []", json!([])),
            ("arguments = \"x\"", json!("x")),
            ("arguments = 1", json!(1)),
            ("arguments = true", json!(true)),
            ("arguments = null", Value::Null),
        ] {
            sweep.case(label, def.name, args, &[]);
        }
        total += sweep.cases;
        failures.extend(sweep.finish(&format!("args/{}", def.name)));
    }
    eprintln!(
        "hostile: {total} argument cases over {} tools",
        catalog().len()
    );
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Real boards cut short and damaged, byte by byte and in meaning, with every
/// tool called on each: the answer is the reason the file does not read (or a
/// success, for damage that leaves a valid board), and the file is never touched
/// by a failed call.
#[test]
fn damaged_board_files() {
    let mut sweep = Sweep::new();
    let good = std::fs::read(tests_dir().join("boards/diagram.inkboard")).expect("board");
    let mut damaged: Vec<(String, Vec<u8>)> = Vec::new();
    let cuts = [0, 1, 2, 10]
        .into_iter()
        .chain((40..good.len()).step_by(97));
    for at in cuts.chain([good.len() - 2, good.len() - 1]) {
        damaged.push((format!("cut to {at} bytes"), good[..at].to_vec()));
    }
    for at in (5..good.len()).step_by(151) {
        // 0x80 makes the byte invalid UTF-8; 0x01 keeps it ASCII (a letter, a
        // digit or a quote changed), which may or may not still read.
        for flip in [0x80u8, 0x01] {
            let mut bytes = good.clone();
            bytes[at] ^= flip;
            damaged.push((format!("byte {at} xor {flip:#04x}"), bytes));
        }
    }
    for (what, bytes) in meaning_damage(&good) {
        damaged.push((what.to_string(), bytes));
    }
    let dir = sweep.dir.path().to_path_buf();
    for (what, bytes) in damaged {
        sweep.set_board(&bytes);
        // The tools that answer alike are written on one line.
        let mut answers: Vec<(String, Vec<&str>)> = Vec::new();
        for def in catalog() {
            let mut args = baseline(def, &dir);
            args.insert("path".into(), json!(sweep.board.display().to_string()));
            let answer = sweep.answer(&what, def.name, Value::Object(args), &[]);
            match answers.iter_mut().find(|(a, _)| *a == answer) {
                Some((_, tools)) => tools.push(def.name),
                None => answers.push((answer, vec![def.name])),
            }
        }
        sweep.lines.push(format!("{what}:"));
        for (answer, tools) in answers {
            let tools = if tools.len() > catalog().len() / 2 {
                "every other tool".to_string()
            } else {
                tools.join(", ")
            };
            sweep.lines.push(format!("  {tools} => {answer}"));
        }
    }
    let failures = sweep.finish("damaged");
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Boards that are valid JSON but not valid boards, or odd encodings of one.
fn meaning_damage(good: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let board: Value = serde_json::from_slice(good).expect("the good board is JSON");
    // Objects of page 1: s1 frame, s2, s3, c4 (s2 to s3), s5, s6, g7 (s5, s6), c8,
    // k9 (ink), i10 (image).
    let with = |f: &dyn Fn(&mut Value)| {
        let mut b = board.clone();
        f(&mut b);
        serde_json::to_vec_pretty(&b).expect("JSON")
    };
    let mut utf16 = vec![0xff, 0xfe];
    for unit in String::from_utf8_lossy(good).encode_utf16() {
        utf16.extend(unit.to_le_bytes());
    }
    vec![
        ("an empty object", b"{}".to_vec()),
        ("a list", b"[]".to_vec()),
        ("null", b"null".to_vec()),
        (
            "a byte order mark first",
            [&[0xef, 0xbb, 0xbf][..], good].concat(),
        ),
        ("UTF-16", utf16),
        ("100000 nested lists", "[".repeat(100_000).into_bytes()),
        ("another format", with(&|b| b["format"] = json!("drawio"))),
        ("a newer version", with(&|b| b["version"] = json!(999))),
        (
            "a version that is text",
            with(&|b| b["version"] = json!("1")),
        ),
        ("no pages", with(&|b| b["pages"] = json!([]))),
        (
            "pages that are not a list",
            with(&|b| b["pages"] = json!({})),
        ),
        (
            "two objects with one id",
            with(&|b| b["pages"][0]["objects"][2]["id"] = json!("s2")),
        ),
        (
            "two pages with one id",
            with(&|b| b["pages"][1]["id"] = json!("p1")),
        ),
        (
            "a connector to nothing",
            with(&|b| b["pages"][0]["objects"][3]["to"] = json!("s99")),
        ),
        (
            "a connector to itself",
            with(&|b| b["pages"][0]["objects"][3]["to"] = json!("c4")),
        ),
        (
            "a group of itself",
            with(&|b| b["pages"][0]["objects"][6]["ids"] = json!(["g7"])),
        ),
        (
            "a group across pages",
            with(&|b| b["pages"][0]["objects"][6]["ids"] = json!(["s5", "s11"])),
        ),
        ("next_id below the ids", with(&|b| b["next_id"] = json!(1))),
        (
            "a negative width",
            with(&|b| b["pages"][0]["objects"][1]["w"] = json!(-120)),
        ),
        (
            "a huge coordinate",
            with(&|b| b["pages"][0]["objects"][1]["x"] = json!(1e300)),
        ),
        (
            "a coordinate that is text",
            with(&|b| b["pages"][0]["objects"][1]["x"] = json!("NaN")),
        ),
        (
            "an unknown geom",
            with(&|b| b["pages"][0]["objects"][1]["geom"] = json!("blob")),
        ),
        (
            "an unknown object type",
            with(&|b| b["pages"][0]["objects"][1]["type"] = json!("blob")),
        ),
        (
            "an image that is not one",
            with(&|b| b["pages"][0]["objects"][9]["data"] = json!("data:image/png;base64,AAAA")),
        ),
        (
            "ink of one point",
            with(&|b| b["pages"][0]["objects"][8]["points"] = json!([[1, 2]])),
        ),
        (
            "a colour that is not one",
            with(&|b| b["pages"][0]["objects"][2]["fill"] = json!("#zzz")),
        ),
        (
            "a NUL in a text",
            with(&|b| b["pages"][0]["objects"][1]["text"] = json!("a\u{0}b")),
        ),
        (
            "a huge revision",
            with(&|b| b["revision"] = json!(u64::MAX)),
        ),
        ("a huge next_id", with(&|b| b["next_id"] = json!(u64::MAX))),
        (
            "a revision past 2^53",
            with(&|b| b["revision"] = json!(1u64 << 53)),
        ),
    ]
}

/// `batch` with malformed operations and bad `$N.key` references, atomic and
/// not. Operation 0 is a read (`find`) where a reference needs an earlier result,
/// so that a batch failing later has nothing to roll back but the read, and the
/// board stays byte-identical either way; the cases where an edit came first say
/// so, and show what atomic: false keeps.
#[test]
fn malformed_batches() {
    let mut sweep = Sweep::new();
    let path = sweep.board.display().to_string();
    let find = json!({"tool": "find"});
    let read = json!({"tool": "read_board"});
    let op = |tool: &str, args: Value| json!({"tool": tool, "args": args});
    let mut cases: Vec<(String, Value)> = vec![
        (
            "201 operations".into(),
            Value::Array(vec![find.clone(); 201]),
        ),
        (
            "an operation that is a number, after a good one".into(),
            json!([find, 1]),
        ),
        ("no tool".into(), json!([{"args": {}}])),
        (
            "a tool that is not text".into(),
            json!([{"tool": ["find"]}]),
        ),
        ("an unknown tool".into(), json!([{"tool": "nope"}])),
        ("a tool name in capitals".into(), json!([{"tool": "FIND"}])),
        (
            "an unknown key beside tool".into(),
            json!([{"tool": "find", "atomic": true}]),
        ),
        (
            "batch inside batch".into(),
            json!([op("batch", json!({"operations": [find]}))]),
        ),
        (
            "path inside an operation".into(),
            json!([op("find", json!({"path": path}))]),
        ),
        (
            "output inside an operation".into(),
            json!([op("export", json!({"output": "x.svg"}))]),
        ),
        (
            "source inside an operation".into(),
            json!([op("add_image", json!({"source": "x.png"}))]),
        ),
        (
            "a forward reference".into(),
            json!([op("find", json!({"text": "$1.ids"})), find]),
        ),
        (
            "a reference to itself".into(),
            json!([op("find", json!({"text": "$0.ids"}))]),
        ),
        (
            "a reference to a later operation".into(),
            json!([find, op("find", json!({"text": "$5.ids"}))]),
        ),
        (
            "a reference past any index".into(),
            json!([
                find,
                op("find", json!({"text": "$99999999999999999999999.ids"}))
            ]),
        ),
        (
            "a reference to a key that is not there".into(),
            json!([find, op("update", json!({"id": "$0.nope", "text": "t"}))]),
        ),
        (
            "a reference past the end of a list".into(),
            json!([find, op("update", json!({"id": "$0.ids.99", "text": "t"}))]),
        ),
        (
            "a reference with a word for an index".into(),
            json!([find, op("update", json!({"id": "$0.ids.x", "text": "t"}))]),
        ),
        (
            "a reference with a negative index".into(),
            json!([find, op("update", json!({"id": "$0.ids.-1", "text": "t"}))]),
        ),
        (
            "a reference into a string".into(),
            json!([read, op("update", json!({"id": "$0.title.x", "text": "t"}))]),
        ),
        (
            "a reference to a list where an id goes".into(),
            json!([find, op("update", json!({"id": "$0.ids", "text": "t"}))]),
        ),
        (
            "a reference to text where a number goes".into(),
            json!([read, op("add_shape", json!({"x": "$0.title"}))]),
        ),
        (
            "a reference to an object where a page goes".into(),
            json!([read, op("find", json!({"page": "$0.page"}))]),
        ),
        (
            "a reference deep in a list".into(),
            json!([find, op("group", json!({"ids": ["s2", "$0.ids.99"]}))]),
        ),
        (
            "a 1 MB reference".into(),
            json!([
                find,
                op(
                    "find",
                    json!({"text": format!("$0.{}", "k".repeat(1 << 20))})
                )
            ]),
        ),
        (
            "a page that is not there".into(),
            json!([op("find", json!({"page": 99}))]),
        ),
        (
            "a page of the wrong type".into(),
            json!([op("find", json!({"page": {"n": 1}}))]),
        ),
        (
            "a good edit, then a bad one".into(),
            json!([
                op("add_shape", json!({"text": "kept?"})),
                op("update", json!({"id": "s99", "text": "t"}))
            ]),
        ),
        (
            "a good edit, then an unknown tool".into(),
            json!([op("add_shape", json!({"text": "kept?"})), {"tool": "nope"}]),
        ),
        (
            "a page deleted, then used".into(),
            json!([
                op("delete_page", json!({"page": 1})),
                op("add_shape", json!({}))
            ]),
        ),
    ];
    // Every tool that may not run in a batch, from the catalogue.
    for def in catalog().iter().filter(|d| !d.in_batch()) {
        cases.push((
            format!("{} inside batch", def.name),
            json!([{"tool": def.name}]),
        ));
    }
    for (label, operations) in cases {
        for atomic in [true, false] {
            let args = json!({"path": path, "operations": operations, "atomic": atomic});
            sweep.case(
                &format!("{label}, atomic {atomic}"),
                "batch",
                args,
                &["operation"],
            );
        }
    }
    for (label, page) in [
        ("batch page 0", json!(0)),
        ("batch page \"nope\"", json!("nope")),
    ] {
        let args = json!({"path": path, "operations": [find], "page": page});
        sweep.case(label, "batch", args, &["page"]);
    }
    let failures = sweep.finish("batch");
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Symbolic links are followed and kept, as an editor does: a board reached
/// through a link is the file it points to (read, locked and written there), the
/// link stays a link, a dangling link's file is created, and a loop of links is an
/// error naming the path.
#[test]
fn symbolic_links_are_followed_and_kept() {
    no_application();
    let dir = tempfile::tempdir().expect("temp dir");
    let at = |name: &str| dir.path().join(name);
    let arg = |name: &str| at(name).display().to_string();
    let is_link =
        |name: &str| std::fs::symlink_metadata(at(name)).is_ok_and(|m| m.file_type().is_symlink());
    let engine = Engine::new();
    let call = |tool: &str, args: Value| common::call(&engine, tool, args);
    call("create_board", json!({"path": arg("real.inkboard")})).expect("create");
    // A relative link, as `ln -s real.inkboard link.inkboard` makes.
    std::os::unix::fs::symlink("real.inkboard", at("link.inkboard")).expect("link");
    call(
        "add_shape",
        json!({"path": arg("link.inkboard"), "text": "through"}),
    )
    .expect("edit");
    assert!(is_link("link.inkboard"), "the link was replaced by a file");
    let real = std::fs::read_to_string(at("real.inkboard")).expect("real");
    assert!(real.contains("through"), "{real}");
    let read = call("read_board", json!({"path": arg("real.inkboard")})).expect("read");
    assert_eq!(read["page"]["objects"].as_array().map(Vec::len), Some(1));
    // The lock is on the file itself (whichever name reaches it): nothing beside.
    assert!(!at(".link.inkboard.lock").exists());
    assert!(!at(".real.inkboard.lock").exists());

    std::os::unix::fs::symlink(at("later.inkboard"), at("dangling.inkboard")).expect("link");
    let made = call("create_board", json!({"path": arg("dangling.inkboard")})).expect("create");
    assert_eq!(
        made["path"],
        arg("later.inkboard"),
        "the answer names the file made"
    );
    assert!(is_link("dangling.inkboard") && at("later.inkboard").is_file());

    std::fs::write(at("picture.svg"), "old").expect("picture");
    std::os::unix::fs::symlink(at("picture.svg"), at("shown.svg")).expect("link");
    call(
        "export",
        json!({"path": arg("real.inkboard"), "output": arg("shown.svg"), "overwrite": true}),
    )
    .expect("export");
    assert!(is_link("shown.svg"));
    assert!(std::fs::read_to_string(at("picture.svg"))
        .expect("svg")
        .starts_with("<svg"));

    std::os::unix::fs::symlink(at("copy-target.inkboard"), at("copy.inkboard")).expect("link");
    call(
        "save_board",
        json!({"path": arg("link.inkboard"), "as": arg("copy.inkboard")}),
    )
    .expect("save as");
    assert!(is_link("copy.inkboard") && at("copy-target.inkboard").is_file());

    // Exporting to a link to the board itself is exporting onto the board.
    let onto = call(
        "export",
        json!({"path": arg("real.inkboard"), "output": arg("link.inkboard")}),
    );
    assert!(onto
        .unwrap_err()
        .to_string()
        .contains("is the board itself"));

    std::os::unix::fs::symlink("loop.inkboard", at("loop.inkboard")).expect("a loop");
    let error = call("read_board", json!({"path": arg("loop.inkboard")})).unwrap_err();
    assert!(error.to_string().contains("loop.inkboard"), "{error}");
    // A loop is a loop, not a missing file (which would send one to create it).
    assert!(
        error.to_string().contains("a loop") && !error.to_string().contains("does not exist"),
        "{error}"
    );
    assert!(is_link("loop.inkboard"));
}
