//! `export` against what may already be at its output: existing files (refused
//! without `overwrite`), things that are not files (always refused), symbolic
//! links (followed only within their folder, so that a link planted in a shared
//! folder cannot pick which of the user's files is replaced), read-only files,
//! and other names of the board itself. Each case sets up a scratch folder, calls
//! `export` once, and checks the answer and what every file holds afterwards.

mod common;

use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;
use std::sync::Once;

use inkboard_tools::Engine;
use serde_json::{json, Value};

fn no_application() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let runtime = tempfile::tempdir().expect("runtime dir").keep();
        // SAFETY: every test of this file calls this before it builds an engine, and
        // `Once` makes the others wait until it is set, so no thread reads it meanwhile.
        unsafe { std::env::set_var("INKBOARD_RUNTIME_DIR", runtime) };
    });
}

/// What a case expects of the call.
enum Want {
    /// Success; then these files hold a new export (not their old text).
    Wrote(&'static [&'static str]),
    /// An error containing this text.
    Refused(&'static str),
}

struct Case {
    name: &'static str,
    /// Makes what is in the folder `d` (`d/board.inkboard` exists) and `d/elsewhere`.
    setup: fn(&Path),
    output: &'static str,
    /// Extra arguments.
    args: fn() -> Value,
    want: Want,
}

fn none() -> Value {
    json!({})
}
fn overwrite() -> Value {
    json!({"overwrite": true})
}
fn overwrite_all_pages() -> Value {
    json!({"overwrite": true, "all_pages": true})
}
fn all_pages() -> Value {
    json!({"all_pages": true})
}

/// The text every file made by a setup starts with, so a test can tell it was
/// left alone.
const OLD: &str = "old, precious";

fn old(path: &Path) {
    fs::write(path, OLD).expect("write an old file");
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(status.success());
}

const CASES: &[Case] = &[
    Case {
        name: "a new file",
        setup: |_| {},
        output: "out.svg",
        args: none,
        want: Want::Wrote(&["out.svg"]),
    },
    Case {
        name: "an existing SVG",
        setup: |d| old(&d.join("out.svg")),
        output: "out.svg",
        args: none,
        want: Want::Refused("already exists: choose another path, or pass overwrite: true"),
    },
    Case {
        name: "an existing PDF",
        setup: |d| old(&d.join("out.pdf")),
        output: "out.pdf",
        args: none,
        want: Want::Refused("already exists"),
    },
    Case {
        name: "an existing PNG",
        setup: |d| old(&d.join("out.png")),
        output: "out.png",
        args: none,
        want: Want::Refused("already exists"),
    },
    Case {
        name: "another board",
        setup: |d| old(&d.join("other.inkboard")),
        output: "other.inkboard",
        args: none,
        want: Want::Refused("already exists"),
    },
    Case {
        name: "an existing SVG, overwrite",
        setup: |d| old(&d.join("out.svg")),
        output: "out.svg",
        args: overwrite,
        want: Want::Wrote(&["out.svg"]),
    },
    Case {
        name: "another board, overwrite",
        setup: |d| old(&d.join("other.inkboard")),
        output: "other.inkboard",
        args: overwrite,
        want: Want::Wrote(&["other.inkboard"]),
    },
    Case {
        name: "a read-only SVG, overwrite",
        setup: |d| {
            old(&d.join("out.svg"));
            fs::set_permissions(d.join("out.svg"), fs::Permissions::from_mode(0o444)).unwrap()
        },
        output: "out.svg",
        args: overwrite,
        want: Want::Refused("is read-only"),
    },
    Case {
        name: "a pipe, overwrite",
        setup: |d| mkfifo(&d.join("pipe.svg")),
        output: "pipe.svg",
        args: overwrite,
        want: Want::Refused("is a pipe, a socket or a device, not a file"),
    },
    Case {
        name: "a folder, overwrite",
        setup: |d| fs::create_dir(d.join("dir.svg")).unwrap(),
        output: "dir.svg",
        args: overwrite,
        want: Want::Refused("is a folder, not a file"),
    },
    Case {
        name: "a link to a device, overwrite",
        setup: |d| symlink("/dev/null", d.join("null.svg")).unwrap(),
        output: "null.svg",
        args: overwrite,
        want: Want::Refused("outside its folder"),
    },
    Case {
        name: "a link to a pipe beside it, overwrite",
        setup: |d| {
            mkfifo(&d.join("pipe"));
            symlink("pipe", d.join("pipe.png")).unwrap()
        },
        output: "pipe.png",
        args: overwrite,
        want: Want::Refused("is a pipe"),
    },
    Case {
        name: "a link out of the folder (~/.bashrc)",
        setup: |d| {
            old(&d.join("elsewhere/.bashrc"));
            symlink(d.join("elsewhere/.bashrc"), d.join("board.png")).unwrap()
        },
        output: "board.png",
        args: overwrite,
        want: Want::Refused("outside its folder, so it was not written through"),
    },
    Case {
        name: "a relative link out of the folder",
        setup: |d| {
            old(&d.join("elsewhere/x.svg"));
            symlink("elsewhere/x.svg", d.join("x.svg")).unwrap()
        },
        output: "x.svg",
        args: overwrite,
        want: Want::Refused("outside its folder"),
    },
    Case {
        name: "a dangling link out of the folder",
        setup: |d| symlink(d.join("elsewhere/new.svg"), d.join("new.svg")).unwrap(),
        output: "new.svg",
        args: none,
        want: Want::Refused("outside its folder"),
    },
    Case {
        name: "a link within the folder, overwrite",
        setup: |d| {
            old(&d.join("real.svg"));
            symlink("real.svg", d.join("shown.svg")).unwrap()
        },
        output: "shown.svg",
        args: overwrite,
        want: Want::Wrote(&["real.svg"]),
    },
    Case {
        name: "a link within the folder",
        setup: |d| {
            old(&d.join("real.svg"));
            symlink("real.svg", d.join("shown.svg")).unwrap()
        },
        output: "shown.svg",
        args: none,
        want: Want::Refused("already exists"),
    },
    Case {
        name: "the board by a/../",
        setup: |d| fs::create_dir(d.join("a")).unwrap(),
        output: "a/../board.inkboard",
        args: overwrite,
        want: Want::Refused("is the board itself"),
    },
    Case {
        name: "the board by ./",
        setup: |_| {},
        output: "./board.inkboard",
        args: overwrite,
        want: Want::Refused("is the board itself"),
    },
    Case {
        name: "the board by a link beside it",
        setup: |d| symlink("board.inkboard", d.join("copy.inkboard")).unwrap(),
        output: "copy.inkboard",
        args: overwrite,
        want: Want::Refused("is the board itself"),
    },
    Case {
        name: "a loop of links",
        setup: |d| symlink("loop.svg", d.join("loop.svg")).unwrap(),
        output: "loop.svg",
        args: overwrite,
        want: Want::Refused("loop"),
    },
    Case {
        name: "all pages, the second exists",
        setup: |d| old(&d.join("page-2.svg")),
        output: "page.svg",
        args: all_pages,
        want: Want::Refused("page-2.svg already exists"),
    },
    Case {
        name: "all pages, the second exists, overwrite",
        setup: |d| old(&d.join("page-2.svg")),
        output: "page.svg",
        args: overwrite_all_pages,
        want: Want::Wrote(&["page-1.svg", "page-2.svg"]),
    },
];

/// Every file under `dir` (links not followed) with what it is and holds.
fn snapshot(dir: &Path) -> Vec<(String, String)> {
    let mut all = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in fs::read_dir(&at).expect("list").flatten() {
            let path = entry.path();
            let name = path.strip_prefix(dir).unwrap().display().to_string();
            let kind = entry.file_type().expect("type");
            let what = if kind.is_symlink() {
                format!("link to {}", fs::read_link(&path).unwrap().display())
            } else if kind.is_dir() {
                stack.push(path.clone());
                "folder".into()
            } else if kind.is_file() {
                let bytes = fs::read(&path).unwrap();
                let mode = entry.metadata().unwrap().permissions().mode() & 0o777;
                format!(
                    "{mode:o} {}",
                    String::from_utf8_lossy(&bytes[..bytes.len().min(40)])
                )
            } else {
                "special".into()
            };
            all.push((name, what));
        }
    }
    all.sort();
    all
}

#[test]
fn export_writes_only_where_it_is_meant_to() {
    no_application();
    let mut failures = Vec::new();
    for case in CASES {
        let scratch = tempfile::tempdir().expect("scratch");
        let d = fs::canonicalize(scratch.path()).unwrap();
        fs::create_dir(d.join("elsewhere")).unwrap();
        let engine = Engine::new();
        let board = d.join("board.inkboard");
        common::call(
            &engine,
            "create_board",
            json!({"path": board, "pages": ["One", "Two"]}),
        )
        .expect("create");
        (case.setup)(&d);
        let before = snapshot(&d);
        let mut args = json!({"path": board, "output": d.join(case.output)});
        for (k, v) in (case.args)().as_object().unwrap() {
            args[k] = v.clone();
        }
        let answer = common::call(&engine, "export", args);
        let after = snapshot(&d);
        let problem = match (&case.want, answer) {
            (Want::Refused(text), Err(e)) if e.to_string().contains(text) => (before != after)
                .then(|| format!("refused, but files changed:\n  {before:?}\n  {after:?}")),
            (Want::Refused(text), other) => {
                Some(format!("wanted an error with {text:?}, got {other:?}"))
            }
            (Want::Wrote(files), Ok(_)) => files
                .iter()
                .find(|f| {
                    !fs::read(d.join(f))
                        .is_ok_and(|b| b.len() > 40 && !b.starts_with(OLD.as_bytes()))
                })
                .map(|f| format!("{f} was not written")),
            (Want::Wrote(_), Err(e)) => Some(format!("wanted success, got {e}")),
        };
        // Whatever the answer, nothing outside the folder of the output changed.
        let untouched = fs::read_dir(d.join("elsewhere"))
            .unwrap()
            .flatten()
            .all(|f| fs::read_to_string(f.path()).is_ok_and(|t| t == OLD));
        if let Some(problem) = problem {
            failures.push(format!("{}: {problem}", case.name));
        } else if !untouched {
            failures.push(format!("{}: a file outside the folder changed", case.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The catalogue tells clients that `export` may replace a file.
#[test]
fn export_is_annotated_as_possibly_destructive() {
    let tool = inkboard_tools::catalog()
        .iter()
        .find(|t| t.name == "export")
        .expect("export is in the catalogue");
    assert!(tool.hints.destructive && !tool.hints.read_only);
}

/// A PDF of every page carries the board's title and one bookmark per page, in
/// order (`inkboard-render`'s `tests/outputs.rs` parses them; here the export
/// call is seen to pass them on).
#[test]
fn pdf_export_carries_the_title_and_the_page_names() {
    no_application();
    let scratch = tempfile::tempdir().expect("scratch");
    let d = fs::canonicalize(scratch.path()).unwrap();
    let engine = Engine::new();
    let board = d.join("board.inkboard");
    let pages = ["Overview", "Plan", "Risks"];
    common::call(
        &engine,
        "create_board",
        json!({"path": board, "title": "Roadmap Q3", "pages": pages}),
    )
    .expect("create");
    for page in pages {
        common::call(
            &engine,
            "add_shape",
            json!({"path": board, "page": page, "text": page}),
        )
        .expect("a shape");
    }
    let output = d.join("out.pdf");
    common::call(
        &engine,
        "export",
        json!({"path": board, "output": output, "all_pages": true}),
    )
    .expect("export");
    let pdf = String::from_utf8_lossy(&fs::read(&output).expect("the PDF")).into_owned();
    assert!(pdf.contains("<dc:title>"), "XMP metadata with a title");
    assert!(pdf.contains("Roadmap Q3"));
    // Outline titles are literal strings, as krilla writes them: `/Title(Overview)`,
    // in page order.
    let at: Vec<usize> = pages
        .iter()
        .map(|p| pdf.find(&format!("/Title({p})")).expect(p))
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
}
