//! The dependency policy (`docs/dependencies.md`), the part a machine without
//! network can check: every package comes from crates.io or from this workspace,
//! every license is one of the allowed ones, and the set of dependencies is the
//! reviewed list in `tests/golden/dependencies.txt`, so that adding one shows up as
//! a change to review. Advisories (`cargo audit`) need the RustSec database from
//! GitHub and are checked by hand when online, as the policy says.
//!
//! The packages come from `cargo metadata --locked`, resolved for one platform
//! ([`PLATFORM`], where CI runs), so the list is the same on every machine; the
//! source rule is also checked on `Cargo.lock`, which holds every platform's.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The platform the dependency graph is resolved for: CI's. Resolving for the
/// machine running the test would make the reviewed list differ between machines.
const PLATFORM: &str = "x86_64-unknown-linux-gnu";

/// crates.io, as `cargo metadata` and `Cargo.lock` name it (git index or sparse).
const CRATES_IO: [&str; 2] = [
    "registry+https://github.com/rust-lang/crates.io-index",
    "sparse+https://index.crates.io/",
];

/// The licenses a dependency may be used under (SPDX ids): permissive ones only.
const LICENSES: &[&str] = &[
    "0BSD",
    "Apache-2.0",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "BSL-1.0",
    "CC0-1.0",
    "ISC",
    "MIT",
    "MIT-0",
    "Unicode-3.0",
    "Unlicense",
    "Zlib",
];

/// License exceptions (`LICENSE WITH EXCEPTION`) that only grant more.
const EXCEPTIONS: &[&str] = &["LLVM-exception"];

/// The reviewed list, relative to this crate.
const GOLDEN: &str = "tests/golden/dependencies.txt";

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/inkboard sits two folders below the workspace root")
        .to_path_buf()
}

/// `cargo metadata` for [`PLATFORM`] with the lockfile as it is: offline first, and
/// online only when the local registry cache lacks a package.
fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let run = |offline: bool| {
        let mut command = Command::new(&cargo);
        command
            .current_dir(workspace_root())
            .args(["metadata", "--locked", "--format-version", "1"])
            .args(["--filter-platform", PLATFORM]);
        if offline {
            command.arg("--offline");
        }
        command.output().expect("cargo runs")
    };
    let mut output = run(true);
    if !output.status.success() {
        output = run(false);
    }
    assert!(
        output.status.success(),
        "cargo metadata --locked failed (is Cargo.lock up to date? run `cargo update --workspace`):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

/// The packages of the graph that are not workspace members.
fn dependencies(metadata: &Value) -> Vec<&Value> {
    let members = members(metadata);
    metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter(|p| !members.contains(p["id"].as_str().unwrap_or_default()))
        .collect()
}

fn members(metadata: &Value) -> BTreeSet<&str> {
    metadata["workspace_members"]
        .as_array()
        .expect("workspace members")
        .iter()
        .filter_map(Value::as_str)
        .collect()
}

fn describe(package: &Value) -> String {
    format!(
        "{} {}",
        package["name"].as_str().unwrap_or("?"),
        package["version"].as_str().unwrap_or("?")
    )
}

#[test]
fn every_package_comes_from_crates_io_or_the_workspace() {
    let metadata = metadata();
    let root = metadata["workspace_root"]
        .as_str()
        .expect("a workspace root");
    let mut wrong = Vec::new();
    for package in dependencies(&metadata) {
        match package["source"].as_str() {
            Some(source) if CRATES_IO.contains(&source) => {}
            Some(source) => wrong.push(format!("{}: from {source}", describe(package))),
            None => wrong.push(format!(
                "{}: a path dependency outside the workspace ({})",
                describe(package),
                package["manifest_path"].as_str().unwrap_or("?")
            )),
        }
    }
    // Workspace members live inside the workspace (no `path = "../elsewhere"`).
    for package in metadata["packages"].as_array().expect("packages") {
        let manifest = package["manifest_path"].as_str().unwrap_or_default();
        if package["source"].is_null() && !Path::new(manifest).starts_with(root) {
            wrong.push(format!("{}: at {manifest}", describe(package)));
        }
    }
    // Cargo.lock also holds the packages of other platforms (Windows, macOS).
    let names: BTreeSet<&str> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter(|p| p["source"].is_null())
        .filter_map(|p| p["name"].as_str())
        .collect();
    let lock = std::fs::read_to_string(workspace_root().join("Cargo.lock")).expect("Cargo.lock");
    for (name, source) in locked_packages(&lock) {
        match source {
            Some(source) if CRATES_IO.contains(&source) => {}
            None if names.contains(name) => {}
            Some(source) => wrong.push(format!("{name} (Cargo.lock): from {source}")),
            None => wrong.push(format!("{name} (Cargo.lock): not from crates.io")),
        }
    }
    assert!(
        wrong.is_empty(),
        "dependencies must come from crates.io (docs/dependencies.md); replace these:\n{}",
        wrong.join("\n")
    );
}

/// The value of `key = "value"` on `line`, if that is the line's key.
fn lock_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(key)?.trim_start().strip_prefix('=')?;
    Some(rest.trim().trim_matches('"'))
}

/// `(name, source)` of each `[[package]]` of a lockfile.
fn locked_packages(lock: &str) -> Vec<(&str, Option<&str>)> {
    let mut packages: Vec<(&str, Option<&str>)> = Vec::new();
    for block in lock.split("[[package]]").skip(1) {
        let name = block.lines().find_map(|l| lock_value(l, "name"));
        let source = block.lines().find_map(|l| lock_value(l, "source"));
        packages.push((name.expect("a package has a name"), source));
    }
    assert!(!packages.is_empty(), "Cargo.lock lists packages");
    packages
}

#[test]
fn every_license_is_allowed() {
    let metadata = metadata();
    let mut wrong = Vec::new();
    for package in dependencies(&metadata) {
        match package["license"].as_str() {
            Some(expression) => match allowed(expression) {
                Ok(true) => {}
                Ok(false) => wrong.push(format!("{}: {expression}", describe(package))),
                Err(problem) => wrong.push(format!(
                    "{}: {expression:?} is not an SPDX expression ({problem})",
                    describe(package)
                )),
            },
            None => wrong.push(format!(
                "{}: no SPDX license, only a license file",
                describe(package)
            )),
        }
    }
    assert!(
        wrong.is_empty(),
        "these licenses are outside the allowed set of docs/dependencies.md; drop the crate or review the license there:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_dependencies_are_the_reviewed_list() {
    let metadata = metadata();
    let actual: BTreeSet<&str> = dependencies(&metadata)
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v != "0") {
        let mut text = format!(
            "# The reviewed dependencies of the workspace (crates.io packages, resolved for\n\
             # {PLATFORM}: normal, build and dev). See docs/dependencies.md; rewritten by\n\
             # UPDATE_EXPECT=1 cargo test -p inkboard --test dependencies.\n"
        );
        for name in &actual {
            text.push_str(name);
            text.push('\n');
        }
        std::fs::write(&path, text).expect("write the reviewed list");
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let reviewed: BTreeSet<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let added: Vec<&str> = actual.difference(&reviewed).copied().collect();
    let gone: Vec<&str> = reviewed.difference(&actual).copied().collect();
    assert!(
        added.is_empty() && gone.is_empty(),
        "the dependencies differ from {GOLDEN}:\n  new: {added:?}\n  gone: {gone:?}\n\
         review the new ones as docs/dependencies.md says, then run with UPDATE_EXPECT=1 and commit the list"
    );
}

// ---- SPDX license expressions ----

/// Whether `expression` can be satisfied with [`LICENSES`] and [`EXCEPTIONS`]
/// only: one allowed side of each `OR`, both sides of each `AND`. The old `/`
/// separator (`MIT/Apache-2.0`) counts as `OR`.
fn allowed(expression: &str) -> Result<bool, String> {
    let spaced = expression
        .replace('/', " OR ")
        .replace('(', " ( ")
        .replace(')', " ) ");
    let tokens: Vec<&str> = spaced.split_whitespace().collect();
    let mut at = 0;
    let ok = any_of(&tokens, &mut at)?;
    match tokens.get(at) {
        None => Ok(ok),
        Some(extra) => Err(format!("unexpected {extra:?}")),
    }
}

/// `all_of ("OR" all_of)*`
fn any_of(tokens: &[&str], at: &mut usize) -> Result<bool, String> {
    let mut ok = all_of(tokens, at)?;
    while tokens.get(*at) == Some(&"OR") {
        *at += 1;
        ok |= all_of(tokens, at)?;
    }
    Ok(ok)
}

/// `one ("AND" one)*`
fn all_of(tokens: &[&str], at: &mut usize) -> Result<bool, String> {
    let mut ok = one(tokens, at)?;
    while tokens.get(*at) == Some(&"AND") {
        *at += 1;
        ok &= one(tokens, at)?;
    }
    Ok(ok)
}

/// `"(" any_of ")"`, or `LICENSE`, or `LICENSE "WITH" EXCEPTION`.
fn one(tokens: &[&str], at: &mut usize) -> Result<bool, String> {
    let token = *tokens.get(*at).ok_or("it ends too soon")?;
    *at += 1;
    if token == "(" {
        let ok = any_of(tokens, at)?;
        if tokens.get(*at) != Some(&")") {
            return Err("a `(` is not closed".into());
        }
        *at += 1;
        return Ok(ok);
    }
    if matches!(token, ")" | "AND" | "OR" | "WITH") {
        return Err(format!("unexpected {token:?}"));
    }
    let mut ok = LICENSES.contains(&token);
    if tokens.get(*at) == Some(&"WITH") {
        let exception = *tokens.get(*at + 1).ok_or("`WITH` names no exception")?;
        *at += 2;
        ok &= EXCEPTIONS.contains(&exception);
    }
    Ok(ok)
}

#[test]
fn license_expressions_are_read_as_spdx_says() {
    for (expression, ok) in [
        ("MIT", true),
        ("MIT OR Apache-2.0", true),
        ("MIT/Apache-2.0", true),
        ("GPL-3.0-only", false),
        ("GPL-3.0-only OR MIT", true),
        ("GPL-3.0-only AND MIT", false),
        ("(MIT OR Apache-2.0) AND Unicode-3.0", true),
        (
            "(MIT OR GPL-2.0-only) AND (LGPL-2.1-only OR BSD-3-Clause)",
            true,
        ),
        ("(GPL-2.0-only OR LGPL-2.1-only) AND MIT", false),
        ("Apache-2.0 WITH LLVM-exception OR GPL-2.0-only", true),
        ("GPL-2.0-only WITH Classpath-exception-2.0", false),
        ("Apache-2.0 WITH Some-other-exception", false),
        ("MPL-2.0", false),
    ] {
        assert_eq!(allowed(expression), Ok(ok), "{expression}");
    }
    for broken in ["", "MIT OR", "(MIT", "MIT)", "AND MIT", "MIT WITH"] {
        assert!(allowed(broken).is_err(), "{broken:?} is not an expression");
    }
}
