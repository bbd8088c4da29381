//! The shape of the house, held by a test (issue 30; `ARCHITECTURE.md` and the
//! style guide's table): no source file over [`MAX_LINES`] lines, no folder of
//! more than [`MAX_FILES`] source files side by side, and no crate depending on
//! one above it. A new edge in the crate graph must be added to [`ALLOWED`] here,
//! where a reviewer sees it beside the rule it has to follow.
//!
//! Tests are left out of the size rules: `tests.rs` files and `tests/` folders
//! hold fixtures and cases that grow with the behaviour they pin, and splitting
//! them by size would scatter one story. The crate graph is read from
//! `cargo metadata --no-deps` (the workspace's own manifests, no network).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The most lines a source file may have.
const MAX_LINES: usize = 900;

/// The most source files one folder may hold side by side (its subfolders'
/// files are theirs).
const MAX_FILES: usize = 20;

/// Files over [`MAX_LINES`] that another branch is splitting right now, each
/// with that work; the list is to be empty once it lands. Nothing else may be
/// added here: a file over the limit is split by noun.
const OVER_FOR_NOW: &[&str] = &[];

/// Folders over [`MAX_FILES`] that other work is regrouping right now. Empty, as
/// [`OVER_FOR_NOW`] is, and nothing is to be added here: a crowded folder is
/// grouped into subfolders by concern.
const CROWDED_FOR_NOW: &[&str] = &[];

/// Which workspace crates each crate may depend on (normal and build
/// dependencies), by the style guide's table: each crate only on crates below
/// it, none on a transport, the binary on nothing's list.
const ALLOWED: &[(&str, &[&str])] = &[
    // Plane geometry, under everything that measures.
    ("inkboard-geom", &[]),
    // The icon set: names, tags and drawings, knowing nothing else.
    ("inkboard-icons", &[]),
    ("inkboard-core", &["inkboard-geom"]),
    ("inkboard-layout", &["inkboard-geom"]),
    ("inkboard-format", &["inkboard-core"]),
    (
        "inkboard-render",
        &[
            "inkboard-geom",
            "inkboard-core",
            "inkboard-layout",
            "inkboard-icons",
        ],
    ),
    ("inkboard-interop", &["inkboard-core"]),
    (
        "inkboard-arrange",
        &[
            "inkboard-geom",
            "inkboard-core",
            "inkboard-layout",
            "inkboard-render",
        ],
    ),
    ("inkboard-store", &["inkboard-core", "inkboard-format"]),
    (
        "inkboard-tools",
        &[
            "inkboard-geom",
            "inkboard-core",
            "inkboard-format",
            "inkboard-layout",
            "inkboard-render",
            "inkboard-interop",
            "inkboard-arrange",
            "inkboard-icons",
        ],
    ),
    // The web editor, and the team server (`inkboard serve`'s HTTP side) over
    // it: the server mounts the same editor on a stored board through the app's
    // `Desk` seam; the app never knows the server.
    ("inkboard-app", UNDER_THE_FRONTS),
    ("inkboard-server", UNDER_THE_SERVER),
    // The binary sits on top of the house: it may use any crate ([`TOP`]).
    ("inkboard", &[]),
];

/// What the application and the team server may use: everything under them.
const UNDER_THE_FRONTS: &[&str] = &[
    "inkboard-geom",
    "inkboard-icons",
    "inkboard-core",
    "inkboard-format",
    "inkboard-render",
    "inkboard-interop",
    "inkboard-arrange",
    "inkboard-tools",
    "inkboard-store",
];

/// What the team server may use: the editor's crate too.
const UNDER_THE_SERVER: &[&str] = &[
    "inkboard-geom",
    "inkboard-icons",
    "inkboard-core",
    "inkboard-format",
    "inkboard-render",
    "inkboard-interop",
    "inkboard-arrange",
    "inkboard-tools",
    "inkboard-store",
    "inkboard-app",
];

/// The crate on top of the house, which may depend on every other one.
const TOP: &str = "inkboard";

/// Dev-dependencies beyond [`ALLOWED`]: a crate's tests may use a crate beside
/// it to make their fixtures, never one above it.
const DEV_ALLOWED: &[(&str, &str)] = &[
    // The renderer's tests lay graphs out to draw them.
    ("inkboard-render", "inkboard-layout"),
    // Interop's tests read inkboard files to compare with.
    ("inkboard-interop", "inkboard-format"),
];

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Whether `path` (relative to the root) is a test: a `tests.rs` file or
/// anything in a `tests/` folder.
fn is_test(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "tests.rs")
        || path.components().any(|c| c.as_os_str() == "tests")
}

/// Whether `name` is a source file the folder rule counts: Rust, and the
/// editor's JavaScript.
fn is_source(name: &str) -> bool {
    name.ends_with(".rs") || name.ends_with(".js")
}

/// Every folder under `crates/*/src` and the app's `web/`, relative to the root,
/// with the source files it holds directly.
fn source_folders() -> Vec<(PathBuf, Vec<PathBuf>)> {
    let mut starts: Vec<PathBuf> = Vec::new();
    for krate in fs::read_dir(root().join("crates")).expect("crates/") {
        let krate = PathBuf::from("crates").join(krate.expect("an entry").file_name());
        for sub in ["src", "web"] {
            if root().join(&krate).join(sub).is_dir() {
                starts.push(krate.join(sub));
            }
        }
    }
    let mut out = Vec::new();
    while let Some(folder) = starts.pop() {
        let mut files = Vec::new();
        for entry in fs::read_dir(root().join(&folder)).expect("a readable folder") {
            let entry = entry.expect("an entry");
            let name = entry.file_name().to_string_lossy().to_string();
            let rel = folder.join(&name);
            if entry.file_type().expect("a file type").is_dir() {
                if !name.starts_with('.') && name != "node_modules" {
                    starts.push(rel);
                }
            } else if is_source(&name) {
                files.push(rel);
            }
        }
        files.sort();
        out.push((folder, files));
    }
    out.sort();
    out
}

/// A path as the lists name it: relative to the root, with forward slashes.
fn shown(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// Fails on every `(path, what)` in `over` but those of `exceptions`, and on
/// every exception that is not in `over` any more (take it off the list).
fn judge(over: Vec<(String, String)>, exceptions: &[&str], rule: &str) {
    let unexpected: Vec<String> = over
        .iter()
        .filter(|(path, _)| !exceptions.contains(&path.as_str()))
        .map(|(path, what)| format!("{path}: {what}"))
        .collect();
    assert!(unexpected.is_empty(), "{rule}:\n{}", unexpected.join("\n"));
    let done: Vec<&&str> = exceptions
        .iter()
        .filter(|e| !over.iter().any(|(path, _)| path == **e))
        .collect();
    assert!(
        done.is_empty(),
        "take these off the exceptions: they keep the rule now, or are gone: {done:?}"
    );
}

#[test]
fn no_source_file_is_over_the_limit() {
    let mut over = Vec::new();
    for (_, files) in source_folders() {
        for file in files.iter().filter(|f| !is_test(f)) {
            let text = fs::read_to_string(root().join(file)).expect("a readable file");
            let lines = text.lines().count();
            if lines > MAX_LINES {
                over.push((shown(file), format!("{lines} lines")));
            }
        }
    }
    judge(
        over,
        OVER_FOR_NOW,
        &format!("source files over {MAX_LINES} lines (split them by noun)"),
    );
}

#[test]
fn no_folder_holds_too_many_source_files() {
    let crowded: Vec<(String, String)> = source_folders()
        .into_iter()
        .filter(|(folder, files)| !is_test(folder) && files.len() > MAX_FILES)
        .map(|(folder, files)| (shown(&folder), format!("{} files", files.len())))
        .collect();
    judge(
        crowded,
        CROWDED_FOR_NOW,
        &format!("folders with more than {MAX_FILES} source files side by side (group them into subfolders by subsystem)"),
    );
}

/// The workspace's own manifests, as `cargo metadata --no-deps` reads them.
fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(root())
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo metadata failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

/// Every dependency of a workspace crate on another: (from, to, kind), kind
/// being `normal`, `dev` or `build`.
fn edges(metadata: &Value) -> Vec<(String, String, String)> {
    let packages = metadata["packages"].as_array().expect("packages");
    let ours: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut out = Vec::new();
    for p in packages {
        let from = p["name"].as_str().expect("a name");
        for d in p["dependencies"].as_array().expect("dependencies") {
            let to = d["name"].as_str().expect("a name");
            if ours.contains(to) {
                let kind = d["kind"].as_str().unwrap_or("normal");
                out.push((from.to_string(), to.to_string(), kind.to_string()));
            }
        }
    }
    out
}

/// Whether `from` may depend on `to` in the way `kind` says.
fn allowed(from: &str, to: &str, kind: &str) -> bool {
    let listed = ALLOWED
        .iter()
        .find(|(name, _)| *name == from)
        .is_some_and(|(_, below)| below.contains(&to))
        || (from == TOP && to != TOP);
    // A crate's tests may turn on its own features.
    let dev = kind == "dev" && (from == to || DEV_ALLOWED.contains(&(from, to)));
    listed || dev
}

#[test]
fn no_crate_reaches_up() {
    let metadata = metadata();
    let unlisted: Vec<String> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter_map(|p| p["name"].as_str())
        .filter(|name| !ALLOWED.iter().any(|(n, _)| n == name))
        .map(str::to_string)
        .collect();
    assert!(
        unlisted.is_empty(),
        "crates with no place in the house (add them to ALLOWED, by the style guide's table): {unlisted:?}"
    );
    let wrong: Vec<String> = edges(&metadata)
        .into_iter()
        .filter(|(from, to, kind)| !allowed(from, to, kind))
        .map(|(from, to, kind)| format!("{from} -> {to} ({kind})"))
        .collect();
    assert!(
        wrong.is_empty(),
        "dependencies the house does not allow (a crate depends only on crates below it):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_rules_catch_what_they_are_for() {
    // The graph rule: reaching up, or sideways to a transport, is refused.
    assert!(!allowed("inkboard-core", "inkboard-format", "normal"));
    assert!(!allowed("inkboard-layout", "inkboard-core", "normal"));
    assert!(!allowed("inkboard-render", "inkboard-tools", "normal"));
    assert!(!allowed("inkboard-arrange", "inkboard-tools", "normal"));
    assert!(!allowed("inkboard-tools", "inkboard-app", "dev"));
    assert!(!allowed("inkboard-app", "inkboard", "normal"));
    assert!(!allowed("inkboard-app", "inkboard-server", "normal"));
    assert!(allowed("inkboard-server", "inkboard-app", "normal"));
    assert!(!allowed("inkboard-geom", "inkboard-core", "normal"));
    assert!(!allowed("inkboard-store", "inkboard-tools", "normal"));
    assert!(allowed("inkboard-tools", "inkboard-arrange", "normal"));
    assert!(allowed("inkboard-core", "inkboard-core", "dev"));
    assert!(allowed("inkboard", "inkboard-app", "normal"));
    assert!(!allowed("inkboard", "inkboard", "normal"));
    // The size rules leave tests out, and only tests.
    assert!(is_test(Path::new(
        "crates/inkboard-arrange/src/layout/tests.rs"
    )));
    assert!(is_test(Path::new("crates/inkboard-tools/tests/hostile.rs")));
    assert!(!is_test(Path::new(
        "crates/inkboard-render/src/route/connectors.rs"
    )));
    assert!(is_source("web/canvas/canvas.js") && is_source("src/lib.rs"));
    assert!(!is_source("web/app.css"));
}
