//! The documents a newcomer reads, held to the repository: every relative link in
//! its Markdown leads to a file (and a heading) that exists, the tool reference's
//! generated part says what the server's `tools/list` says, and `docs/spec/` is the
//! project's contract word for word.
//!
//! Links are read with pulldown-cmark, so a link inside code is not one, and
//! headings become anchors by GitHub's rule. Links to the web are not followed:
//! the test runs without a network.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};
use serde_json::Value;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Whether `UPDATE_EXPECT=1` asks for generated text to be written back.
fn updating() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v != "0")
}

/// Folders that hold no documents of ours: build output, installed npm packages,
/// version control, and hidden folders in general.
fn skipped(name: &str) -> bool {
    name.starts_with('.') || name == "target" || name == "node_modules"
}

/// Every Markdown file of the repository, relative to its root, sorted.
fn markdown_files() -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![PathBuf::new()];
    while let Some(rel) = folders.pop() {
        let entries = fs::read_dir(root().join(&rel)).expect("a readable folder");
        for entry in entries {
            let entry = entry.expect("a folder entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            let kind = entry.file_type().expect("a file type");
            if kind.is_dir() && !skipped(&name) {
                folders.push(rel.join(&name));
            } else if kind.is_file() && name.ends_with(".md") {
                found.push(rel.join(&name));
            }
        }
    }
    found.sort();
    found
}

/// What one Markdown file offers and asks for: its headings' anchors and the
/// destinations of its links and images within the repository.
struct Document {
    anchors: BTreeSet<String>,
    links: Vec<String>,
}

/// GitHub's anchor for a heading: lower case, letters, digits, `-` and `_` kept,
/// spaces made `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn read_document(text: &str) -> Document {
    let mut anchors = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut links = Vec::new();
    let mut heading: Option<String> = None;
    for event in Parser::new_ext(text, Options::all()) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => {
                let base = slug(&heading.take().unwrap_or_default());
                // A repeated heading gets `-1`, `-2`... as on GitHub.
                let count = seen.entry(base.clone()).or_insert(0);
                let anchor = match *count {
                    0 => base.clone(),
                    n => format!("{base}-{n}"),
                };
                *count += 1;
                anchors.insert(anchor);
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            // Links to the web and mail addresses are not followed.
            Event::Start(
                Tag::Link {
                    link_type,
                    dest_url,
                    ..
                }
                | Tag::Image {
                    link_type,
                    dest_url,
                    ..
                },
            ) if link_type != LinkType::Email && !external(&dest_url) => {
                links.push(dest_url.into_string());
            }
            _ => {}
        }
    }
    Document { anchors, links }
}

/// A link that leaves the repository (the web, mail): not checked here.
fn external(link: &str) -> bool {
    link.contains("://") || link.starts_with("mailto:")
}

/// `base/../x/./y` → `x/y`, without touching the disk (so a dead link is named as
/// written, not as the file system resolves it).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The links among `documents` that lead nowhere: to a path `exists` denies, or
/// to a heading a Markdown file does not have. Each is named with its file.
fn dead_links(
    documents: &BTreeMap<PathBuf, Document>,
    exists: &dyn Fn(&Path) -> bool,
) -> Vec<String> {
    let mut dead = Vec::new();
    for (file, document) in documents {
        for link in &document.links {
            let (target, anchor) = match link.split_once('#') {
                Some((t, a)) => (t, Some(a)),
                None => (link.as_str(), None),
            };
            let target = if target.is_empty() {
                file.clone()
            } else {
                let folder = file.parent().unwrap_or(Path::new(""));
                normalize(&folder.join(target))
            };
            if !exists(&target) {
                dead.push(format!(
                    "{}: {link} (no {})",
                    file.display(),
                    target.display()
                ));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            match documents.get(&target) {
                Some(d) if d.anchors.contains(anchor) => {}
                Some(_) => dead.push(format!(
                    "{}: {link} (no heading #{anchor} in {})",
                    file.display(),
                    target.display()
                )),
                // An anchor into a file that is not Markdown (a line of source) is
                // left to the reader.
                None => {}
            }
        }
    }
    dead
}

#[test]
fn every_relative_link_leads_somewhere() {
    let files = markdown_files();
    assert!(
        files.iter().any(|f| f == Path::new("docs/README.md")),
        "the documents were not found under {}",
        root().display()
    );
    let documents: BTreeMap<PathBuf, Document> = files
        .iter()
        .map(|f| {
            let text = fs::read_to_string(root().join(f)).expect("a UTF-8 document");
            (f.clone(), read_document(&text))
        })
        .collect();
    let dead = dead_links(&documents, &|p| root().join(p).exists());
    assert!(
        dead.is_empty(),
        "dead links in the documents:\n  {}",
        dead.join("\n  ")
    );
}

#[test]
fn the_link_checker_sees_what_github_shows() {
    // Headings become anchors by GitHub's rule; links in code are not links.
    let doc = read_document(
        "# A worked `batch`\n\n## Sides and buses\n\n## Sides and buses\n\n\
         [x](a.md#b) `[not](a link)` <https://example.com>\n\n```\n[nor](this)\n```\n\n\
         ![pic](flow.png)\n",
    );
    let anchors: Vec<&str> = doc.anchors.iter().map(String::as_str).collect();
    assert_eq!(
        anchors,
        ["a-worked-batch", "sides-and-buses", "sides-and-buses-1"]
    );
    assert_eq!(doc.links, ["a.md#b", "flow.png"]);
    assert_eq!(slug("`add_shape`: Add shape"), "add_shape-add-shape");
    assert_eq!(
        normalize(Path::new("docs/../tests/./quality/README.md")),
        Path::new("tests/quality/README.md")
    );

    // A missing file and a missing heading are dead; a heading that is there, a
    // file that is there and a line anchor into source are not.
    let documents: BTreeMap<PathBuf, Document> = [
        (
            "README.md",
            "# inkboard\n\n[ok](docs/tools.md#the-server) [gone](docs/gone.md) \
             [top](#inkboard) [src](crates/cli.rs#L10)\n",
        ),
        (
            "docs/tools.md",
            "# Tools\n\n## The server\n\n[up](../README.md#nowhere)\n",
        ),
    ]
    .into_iter()
    .map(|(f, text)| (PathBuf::from(f), read_document(text)))
    .collect();
    let there = ["README.md", "docs/tools.md", "crates/cli.rs"];
    let dead = dead_links(&documents, &|p| there.iter().any(|t| Path::new(t) == p));
    assert_eq!(
        dead,
        [
            "README.md: docs/gone.md (no docs/gone.md)",
            "docs/tools.md: ../README.md#nowhere (no heading #nowhere in README.md)",
        ]
    );
}

/// Where the generated part of the tool reference starts and ends.
const BEGIN: &str = "<!-- generated: the reference below is written by crates/inkboard/tests/docs.rs from crates/inkboard/tests/golden/tools_list.json; `UPDATE_EXPECT=1 cargo test -p inkboard --test docs` rewrites it -->";
const END: &str = "<!-- end of the generated reference -->";

/// A JSON Schema as a reader wants its type: `string`, `"a" \| "b"`, `list of
/// string`, `{x, y}`, `[number, number]`.
fn type_of(schema: &Value) -> String {
    if let Some(values) = schema["enum"].as_array() {
        return values
            .iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(" \\| ");
    }
    if let Some(any) = schema["anyOf"].as_array() {
        return any.iter().map(type_of).collect::<Vec<_>>().join(" or ");
    }
    match schema["type"].as_str() {
        Some("array") => {
            let item = type_of(&schema["items"]);
            match (schema["minItems"].as_u64(), schema["maxItems"].as_u64()) {
                (Some(n), Some(m)) if n == m && n <= 4 => {
                    format!("[{}]", vec![item; n as usize].join(", "))
                }
                _ => format!("list of {item}"),
            }
        }
        Some("object") => match schema["properties"].as_object() {
            Some(props) if !props.is_empty() => {
                format!(
                    "{{{}}}",
                    props.keys().cloned().collect::<Vec<_>>().join(", ")
                )
            }
            _ => "object".to_string(),
        },
        Some(t) => t.to_string(),
        None => "any".to_string(),
    }
}

/// The server's words as Markdown shows them literally: `[text](url)` or
/// `**bold**` in a description is an example to read, not a link or markup.
fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '[' | ']' | '<' | '|' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Text fit for one cell of a Markdown table: one line, shown literally.
fn cell(text: &str) -> String {
    literal(&text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The reference of every tool, from the server's `tools/list` answer.
fn reference(tools: &[Value]) -> String {
    let in_batch: BTreeSet<&str> = tools
        .iter()
        .find(|t| t["name"] == "batch")
        .and_then(|b| {
            b["inputSchema"]["properties"]["operations"]["items"]["properties"]["tool"]["enum"]
                .as_array()
        })
        .expect("batch names the tools its operations take")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let mut out = String::new();
    for tool in tools {
        let name = tool["name"].as_str().expect("a tool's name");
        let title = tool["title"].as_str().unwrap_or(name);
        out.push_str(&format!("\n### `{name}`: {title}\n\n"));
        out.push_str(&literal(tool["description"].as_str().unwrap_or("").trim()));
        out.push_str("\n\n");
        let hints: Vec<&str> = [
            ("readOnlyHint", "reads only"),
            ("destructiveHint", "destructive"),
            ("idempotentHint", "idempotent"),
            ("openWorldHint", "open world"),
        ]
        .into_iter()
        .filter(|(key, _)| tool["annotations"][key] == Value::Bool(true))
        .map(|(_, said)| said)
        .collect();
        out.push_str(&format!(
            "In a `batch`: {}. Hints: {}.\n\n",
            if in_batch.contains(name) { "yes" } else { "no" },
            if hints.is_empty() {
                "none".to_string()
            } else {
                hints.join(", ")
            }
        ));
        let input = &tool["inputSchema"];
        let required: BTreeSet<&str> = input["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(props) = input["properties"].as_object().filter(|p| !p.is_empty()) {
            out.push_str("| argument | type | required | description |\n|---|---|---|---|\n");
            for (arg, schema) in props {
                out.push_str(&format!(
                    "| `{arg}` | {} | {} | {} |\n",
                    type_of(schema),
                    if required.contains(arg.as_str()) {
                        "yes"
                    } else {
                        ""
                    },
                    cell(schema["description"].as_str().unwrap_or(""))
                ));
            }
            out.push('\n');
        }
        match tool["outputSchema"]["properties"].as_object() {
            Some(props) => {
                let keys: Vec<String> = props.keys().map(|k| format!("`{k}`")).collect();
                out.push_str(&format!("Result keys: {}.\n", keys.join(", ")));
            }
            None => out.push_str("Result: text.\n"),
        }
    }
    out
}

#[test]
fn the_tool_reference_is_the_servers_tool_list() {
    let list = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/tools_list.json"),
    )
    .expect("tests/golden/tools_list.json");
    let tools: Vec<Value> = serde_json::from_str(&list).expect("a JSON list of tools");
    let generated = reference(&tools);
    let path = root().join("docs/tools.md");
    let text = fs::read_to_string(&path).expect("docs/tools.md");
    let (before, rest) = text
        .split_once(&format!("{BEGIN}\n"))
        .expect("docs/tools.md has the generated reference's first marker");
    let (current, after) = rest
        .split_once(&format!("{END}\n"))
        .expect("docs/tools.md has the generated reference's end marker");
    if current == generated {
        return;
    }
    if updating() {
        fs::write(&path, format!("{before}{BEGIN}\n{generated}{END}\n{after}"))
            .expect("write docs/tools.md");
        return;
    }
    let line = current
        .lines()
        .zip(generated.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| current.lines().count().min(generated.lines().count()));
    panic!(
        "docs/tools.md's generated reference differs from tools_list.json at its line {}:\n  \
         written:   {:?}\n  generated: {:?}\n(run with UPDATE_EXPECT=1 and review the diff)",
        line + 1,
        current.lines().nth(line).unwrap_or("<end>"),
        generated.lines().nth(line).unwrap_or("<end>"),
    );
}

const ICONS_BEGIN: &str = "<!-- generated: the icon list below is written by crates/inkboard/tests/docs.rs from inkboard_icons::all(); `UPDATE_EXPECT=1 cargo test -p inkboard --test docs` rewrites it -->";
const ICONS_END: &str = "<!-- end of the icon list -->";

/// The icon names as docs/tools.md lists them: in name order, a few to a line,
/// an alias with the icon it draws.
fn icon_list() -> String {
    let names: Vec<String> = inkboard_icons::all()
        .map(|i| match i.draws() == i.name() {
            true => format!("`{}`", i.name()),
            false => format!("`{}` → `{}`", i.name(), i.draws()),
        })
        .collect();
    let mut out = String::new();
    for line in names.chunks(8) {
        out.push_str(&line.join(", "));
        out.push_str(
            ",
",
        );
    }
    if out.ends_with(",\n") {
        out.truncate(out.len() - 2);
        out.push_str(".\n");
    }
    out
}

#[test]
fn the_icon_list_is_the_sets() {
    let path = root().join("docs/tools.md");
    let text = fs::read_to_string(&path).expect("docs/tools.md");
    let (before, rest) = text
        .split_once(&format!("{ICONS_BEGIN}\n"))
        .expect("docs/tools.md has the icon list's first marker");
    let (current, after) = rest
        .split_once(&format!("{ICONS_END}\n"))
        .expect("docs/tools.md has the icon list's end marker");
    let generated = icon_list();
    if current == generated {
        return;
    }
    assert!(
        updating(),
        "docs/tools.md's icon list is not the set's (run with UPDATE_EXPECT=1)"
    );
    fs::write(
        &path,
        format!("{before}{ICONS_BEGIN}\n{generated}{ICONS_END}\n{after}"),
    )
    .expect("write docs/tools.md");
}

/// The project's own contract, where it sits beside the repository (the project's
/// `shared/spec/`); a clone on its own has only the copy, which is then what counts.
fn project_spec(name: &str) -> Option<String> {
    fs::read_to_string(root().join("../shared/spec").join(name)).ok()
}

#[test]
fn the_spec_is_the_projects_word_for_word() {
    // batch.md opens with one line saying it is a copy; the rest is the text.
    let path = root().join("docs/spec/batch.md");
    let copy = fs::read_to_string(&path).expect("docs/spec/batch.md");
    let (note, body) = copy
        .split_once("\n\n")
        .expect("docs/spec/batch.md opens with its note, then the text");
    assert!(
        note.contains("verbatim copy") && !note.contains('\n'),
        "docs/spec/batch.md's first line says it is a verbatim copy: {note:?}"
    );
    assert!(
        body.starts_with("# The `batch` tool"),
        "docs/spec/batch.md: {body:.60}"
    );
    let mut changed = Vec::new();
    if let Some(spec) = project_spec("batch.md").filter(|s| *s != body) {
        if updating() {
            fs::write(&path, format!("{note}\n\n{spec}")).expect("write docs/spec/batch.md");
        }
        changed.push("batch.md");
    }
    let tools_path = root().join("docs/spec/tools.md");
    let tools = fs::read_to_string(&tools_path).expect("docs/spec/tools.md");
    if let Some(spec) = project_spec("tools.md").filter(|s| *s != tools) {
        if updating() {
            fs::write(&tools_path, spec).expect("write docs/spec/tools.md");
        }
        changed.push("tools.md");
    }
    assert!(
        changed.is_empty() || updating(),
        "docs/spec/ differs from the project's shared/spec/ in {changed:?} \
         (run with UPDATE_EXPECT=1 to copy it)"
    );
}

#[test]
fn the_readme_stays_a_front_page() {
    // What inkboard is, a picture, the two commands, the client table and links:
    // the manual lives in docs/ (issue 30), and a README that grows past this
    // has become a manual again.
    let readme = fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 250,
        "README.md has {lines} lines, more than 250: move the detail into docs/"
    );
    for must in [
        "scripts/demo",
        "scripts/test",
        "docs/flow.png",
        "mcp-name: ",
    ] {
        assert!(readme.contains(must), "README.md lacks {must:?}");
    }
}

/// The commands `inkboard HELP_ARGS --help` lists, without `help` itself.
fn commands(args: &[&str]) -> Vec<String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_inkboard"))
        .args(args)
        .arg("--help")
        .output()
        .expect("inkboard --help");
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn the_cli_guide_names_every_command() {
    // docs/cli.md is written by hand; a command added to the binary (or to
    // `admin`) without a line there is a command nobody can find.
    let guide = fs::read_to_string(root().join("docs/cli.md")).expect("docs/cli.md");
    let top = commands(&[]);
    assert!(top.iter().any(|c| c == "serve"), "{top:?}");
    let missing: Vec<&String> = top
        .iter()
        .filter(|c| !guide.contains(&format!("inkboard {c}")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/cli.md lacks `inkboard {missing:?}`"
    );
    let admin = commands(&["admin"]);
    assert!(admin.iter().any(|c| c == "add-user"), "{admin:?}");
    let missing: Vec<&String> = admin
        .iter()
        // The command as a whole word: "`link`" or "`link NAME`", which
        // "`links`" does not stand for.
        .filter(|c| !guide.contains(&format!("`{c}`")) && !guide.contains(&format!("`{c} ")))
        .collect();
    assert!(missing.is_empty(), "docs/cli.md lacks admin's {missing:?}");
}
