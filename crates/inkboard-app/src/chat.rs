//! The board inside a chat: the chat view (`ui://inkboard/board`) as one
//! self-contained HTML document, built once from the editor's own files. The
//! editor's modules (`web/**/*.js`) are bundled with the chat view's entry
//! (`web/chat/chat.js`) into one inline script, `web/chat/bridge.js` standing in
//! for `sync/sync.js` (the editor's WebSocket): the chat view reaches the server only
//! through its host, as tool calls. `app.css` and `web/chat/chat.css` are inlined
//! too, so the document loads nothing, which is what a host's sandbox allows.
//!
//! The bundling is small on purpose, for the editor's plain modules: named
//! imports (`import { a, b as c } from './x.js'`, `import * as x from ...`) and
//! declarations marked `export`; each module runs once, in import order, in its
//! own function scope (so an exported `let` is read once, when imported: the
//! editor exports none). Anything else (default exports, `export { … }`, dynamic
//! imports, an import cycle) is refused by [`bundle`] with a [`BundleError`], and
//! the tests build the chat view, so such a change to the editor fails there first.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::OnceLock;

/// The chat view's resource URI.
pub const CHAT_URI: &str = "ui://inkboard/board";

/// The chat view's page, its entry module and its own files (`web/chat/`).
const PAGE: &str = include_str!("../web/chat/chat.html");
const CHAT_FILES: [(&str, &str); 4] = [
    ("chat/chat.js", include_str!("../web/chat/chat.js")),
    ("chat/bridge.js", include_str!("../web/chat/bridge.js")),
    ("chat/context.js", include_str!("../web/chat/context.js")),
    ("chat/chat.css", include_str!("../web/chat/chat.css")),
];
/// Module replaced in the chat view: the editor's WebSocket, by the host bridge.
const REPLACED: [(&str, &str); 1] = [("sync/sync.js", "chat/bridge.js")];

/// Why the editor's files could not be made into the chat view.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BundleError {
    /// A module imports a file that is not among the editor's files.
    #[error("{from} imports {name}, which is not among the editor's files")]
    Missing { from: String, name: String },
    /// Modules import each other in a circle (named from the first).
    #[error("the editor's modules import each other in a circle: {0}")]
    Cycle(String),
    /// A statement this small bundler does not take, at `file:line`.
    #[error("{file}:{line}: {what} is not taken by the chat view's bundler: use named imports and `export` on declarations")]
    Unsupported {
        file: String,
        line: usize,
        what: &'static str,
    },
    /// Text that would close the inline `<script>` or `<style>` early.
    #[error("{0} holds text that would end its inline element early")]
    Closes(String),
}

/// The chat view document, built on first use.
pub fn chat_document() -> Result<&'static str, BundleError> {
    static DOC: OnceLock<Result<String, BundleError>> = OnceLock::new();
    DOC.get_or_init(build)
        .as_ref()
        .map(String::as_str)
        .map_err(Clone::clone)
}

impl Clone for BundleError {
    fn clone(&self) -> Self {
        match self {
            BundleError::Missing { from, name } => BundleError::Missing {
                from: from.clone(),
                name: name.clone(),
            },
            BundleError::Cycle(s) => BundleError::Cycle(s.clone()),
            BundleError::Unsupported { file, line, what } => BundleError::Unsupported {
                file: file.clone(),
                line: *line,
                what,
            },
            BundleError::Closes(s) => BundleError::Closes(s.clone()),
        }
    }
}

fn build() -> Result<String, BundleError> {
    let mut files: HashMap<&str, &str> = crate::http::assets()
        .filter(|(name, _)| name.ends_with(".js") || name.ends_with(".css"))
        .collect();
    files.extend(CHAT_FILES);
    let script = bundle(&files, "chat/chat.js", &REPLACED)?.replace("</script", "<\\/script");
    let styles = format!(
        "{}\n{}",
        files.get("app.css").copied().unwrap_or_default(),
        files.get("chat/chat.css").copied().unwrap_or_default()
    );
    if styles.to_ascii_lowercase().contains("</style") {
        return Err(BundleError::Closes("the editor's styles".into()));
    }
    Ok(PAGE
        .replacen("/*STYLES*/", &styles, 1)
        .replacen("/*FONTS*/", &faces_json(), 1)
        .replacen("/*SCRIPT*/", &script, 1))
}

/// The fonts the chat view draws board text in: Inter, both weights, cut to Basic
/// Latin and typographic punctuation (`inkboard_render::latin_faces`), since the chat
/// view's document is built once and shows text it does not know yet. About 60 KB
/// in base64; Latin-1, or the serif, mono and hand faces, would pass the document's
/// 448 KiB budget (`crates/inkboard/tests/chat.rs`), so their text draws in the
/// system's faces. A JSON array of
/// `{family, weight, data}`, `data` in base64, which `chat.js` hands to the FontFace
/// API.
fn faces_json() -> String {
    use base64::Engine;
    let faces = inkboard_render::latin_faces(&[inkboard_core::Font::Sans]);
    let list: Vec<serde_json::Value> = faces
        .iter()
        .map(|f| {
            serde_json::json!({
                "family": f.family,
                "weight": f.weight,
                "data": base64::engine::general_purpose::STANDARD.encode(&f.data),
            })
        })
        .collect();
    // Base64 and the names hold no `<`: the JSON cannot end its `<script>` early.
    serde_json::Value::Array(list).to_string()
}

/// One parsed module: what it imports, its body, what it exports.
struct Module {
    /// (binding statement's left side, the imported module's key).
    imports: Vec<(String, String)>,
    body: String,
    exports: Vec<String>,
}

/// Bundles the module `entry` of `files` (name → source; names are paths from the
/// editor's folder) and everything it imports into one script. An import of a
/// module named in `replaced` gets its replacement instead.
pub fn bundle(
    files: &HashMap<&str, &str>,
    entry: &str,
    replaced: &[(&str, &str)],
) -> Result<String, BundleError> {
    let mut order = Vec::new();
    let mut modules = HashMap::new();
    visit(
        files,
        entry,
        replaced,
        &mut Vec::new(),
        &mut order,
        &mut modules,
    )?;
    let mut out = String::from("const __modules = Object.create(null);\n");
    for key in &order {
        let m = &modules[key];
        let _ = writeln!(out, "__modules[{key:?}] = (() => {{");
        for (binding, from) in &m.imports {
            let _ = writeln!(out, "const {binding} = __modules[{from:?}];");
        }
        out.push_str(&m.body);
        let _ = writeln!(out, "return {{ {} }};\n}})();", m.exports.join(", "));
    }
    Ok(out)
}

fn visit(
    files: &HashMap<&str, &str>,
    key: &str,
    replaced: &[(&str, &str)],
    path: &mut Vec<String>,
    order: &mut Vec<String>,
    modules: &mut HashMap<String, Module>,
) -> Result<(), BundleError> {
    if modules.contains_key(key) {
        return Ok(());
    }
    if path.iter().any(|p| p == key) {
        path.push(key.to_string());
        return Err(BundleError::Cycle(path.join(" → ")));
    }
    let source = files.get(key).ok_or_else(|| BundleError::Missing {
        from: path
            .last()
            .cloned()
            .unwrap_or_else(|| "the chat view".into()),
        name: key.to_string(),
    })?;
    let module = parse(key, source, replaced)?;
    path.push(key.to_string());
    for (_, from) in &module.imports {
        visit(files, from, replaced, path, order, modules)?;
    }
    path.pop();
    order.push(key.to_string());
    modules.insert(key.to_string(), module);
    Ok(())
}

/// The module `key`'s imports and exports taken out of `source`.
fn parse(key: &str, source: &str, replaced: &[(&str, &str)]) -> Result<Module, BundleError> {
    let unsupported = |line: usize, what| BundleError::Unsupported {
        file: key.to_string(),
        line,
        what,
    };
    let mut module = Module {
        imports: Vec::new(),
        body: String::with_capacity(source.len()),
        exports: Vec::new(),
    };
    let mut statement: Option<(usize, String)> = None;
    for (n, line) in source.lines().enumerate() {
        let n = n + 1;
        if line.contains("import(") || line.contains("import.meta") {
            return Err(unsupported(n, "a dynamic import or import.meta"));
        }
        if let Some((start, text)) = &mut statement {
            text.push(' ');
            text.push_str(line.trim());
            if line.trim_end().ends_with(';') {
                let (binding, from) =
                    import(key, text, replaced).ok_or(unsupported(*start, "this import"))?;
                module.imports.push((binding, from));
                statement = None;
            }
            module.body.push('\n');
            continue;
        }
        if line.starts_with("import ") {
            if line.trim_end().ends_with(';') {
                let (binding, from) =
                    import(key, line, replaced).ok_or(unsupported(n, "this import"))?;
                module.imports.push((binding, from));
            } else {
                statement = Some((n, line.to_string()));
            }
            // Lines are kept, empty, so a browser's message names the right line
            // of the module within its block.
            module.body.push('\n');
            continue;
        }
        if let Some(rest) = line.strip_prefix("export ") {
            let name = ["async function ", "function ", "const ", "let ", "class "]
                .iter()
                .find_map(|kw| rest.strip_prefix(kw))
                .map(|r| {
                    r.trim_start_matches('*')
                        .trim_start()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                        .collect::<String>()
                })
                .filter(|name| !name.is_empty())
                .ok_or(unsupported(n, "this export"))?;
            module.exports.push(name);
            module.body.push_str(rest);
            module.body.push('\n');
            continue;
        }
        module.body.push_str(line);
        module.body.push('\n');
    }
    if let Some((start, _)) = statement {
        return Err(unsupported(start, "an import without its end"));
    }
    Ok(module)
}

/// One import statement as a binding (`{ a, b: c }` or `x`) and the key of the
/// module it names, resolved from `key`'s folder.
fn import(key: &str, statement: &str, replaced: &[(&str, &str)]) -> Option<(String, String)> {
    let rest = statement
        .trim()
        .strip_prefix("import ")?
        .trim_end_matches(';');
    let at = rest.rfind(" from ")?;
    let (clause, spec) = (rest[..at].trim(), rest[at + 6..].trim());
    let spec = spec
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .or_else(|| spec.strip_prefix('"').and_then(|s| s.strip_suffix('"')))?;
    let binding = if let Some(name) = clause.strip_prefix("* as ") {
        name.trim().to_string()
    } else {
        let names = clause.strip_prefix('{')?.strip_suffix('}')?;
        let names: Vec<String> = names
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(|n| match n.split_once(" as ") {
                Some((a, b)) => format!("{}: {}", a.trim(), b.trim()),
                None => n.to_string(),
            })
            .collect();
        format!("{{ {} }}", names.join(", "))
    };
    let from = resolve(key, spec)?;
    let from = replaced
        .iter()
        .find(|(name, _)| *name == from)
        .map_or(from.clone(), |(_, by)| (*by).to_string());
    Some((binding, from))
}

/// A relative module specifier (`./x.js`, `../x.js`) from module `key`'s folder.
fn resolve(key: &str, spec: &str) -> Option<String> {
    let mut parts: Vec<&str> = key.split('/').collect();
    parts.pop();
    for part in spec.split('/') {
        match part {
            "." => {}
            ".." => {
                parts.pop()?;
            }
            name => parts.push(name),
        }
    }
    (spec.starts_with("./") || spec.starts_with("../")).then(|| parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files<'a>(list: &[(&'a str, &'a str)]) -> HashMap<&'a str, &'a str> {
        list.iter().copied().collect()
    }

    #[test]
    fn the_view_is_built_from_the_editor_and_loads_nothing() {
        let doc = chat_document().expect("the chat view builds");
        assert!(doc.starts_with("<!doctype html>"), "{}", &doc[..40]);
        assert!(!doc.contains("/*SCRIPT*/") && !doc.contains("/*STYLES*/"));
        // The editor's drawing code is in it, once, and the WebSocket is not.
        assert_eq!(doc.matches("__modules[\"canvas/canvas.js\"] =").count(), 1);
        assert!(!doc.contains("__modules[\"sync/sync.js\"]"));
        assert!(!doc.contains("new WebSocket"));
        // Nothing is fetched: no import left, no source or link to a file.
        for needle in [
            "\nimport ",
            " src=",
            "<link",
            "@import",
            "url(http",
            "fetch(",
            "XMLHttpRequest",
        ] {
            assert!(!doc.contains(needle), "the chat view holds {needle:?}");
        }
        // One script runs; the other holds the fonts as data (JSON).
        assert_eq!(doc.matches("<script").count(), 2);
        assert_eq!(doc.matches("<script type=\"module\">").count(), 1);
        assert_eq!(
            doc.matches("<script type=\"application/json\" id=\"inkboard-fonts\">")
                .count(),
            1
        );
        assert!(doc.contains("connect-src 'none'"));
    }

    #[test]
    fn imports_become_bindings_in_import_order() {
        let f = files(&[
            (
                "main.js",
                "import { a, b as c } from './x.js';\nimport * as s from './sync/sync.js';\nexport function go() { return a + c + s.n; }\n",
            ),
            ("x.js", "export const a = 1;\nexport let b = 2;\n"),
            ("chat/bridge.js", "export const n = 3;\n"),
        ]);
        let out = bundle(&f, "main.js", &REPLACED).expect("bundles");
        let x = out.find("__modules[\"x.js\"]").expect("x");
        let bridge = out.find("__modules[\"chat/bridge.js\"]").expect("bridge");
        let main = out.find("__modules[\"main.js\"]").expect("main");
        assert!(x < main && bridge < main, "{out}");
        assert!(
            out.contains("const { a, b: c } = __modules[\"x.js\"];"),
            "{out}"
        );
        assert!(
            out.contains("const s = __modules[\"chat/bridge.js\"];"),
            "{out}"
        );
        assert!(out.contains("return { go };"), "{out}");
    }

    #[test]
    fn what_the_bundler_does_not_take_is_refused() {
        for (source, expected) in [
            (
                "import x from './x.js';\n",
                BundleError::Unsupported {
                    file: "m.js".into(),
                    line: 1,
                    what: "this import",
                },
            ),
            (
                "export default 1;\n",
                BundleError::Unsupported {
                    file: "m.js".into(),
                    line: 1,
                    what: "this export",
                },
            ),
            (
                "const m = await import('./x.js');\n",
                BundleError::Unsupported {
                    file: "m.js".into(),
                    line: 1,
                    what: "a dynamic import or import.meta",
                },
            ),
            (
                "import { a } from './gone.js';\n",
                BundleError::Missing {
                    from: "m.js".into(),
                    name: "gone.js".into(),
                },
            ),
            (
                "import { a } from './n.js';\n",
                BundleError::Cycle("m.js → n.js → m.js".into()),
            ),
        ] {
            let f = files(&[
                ("m.js", source),
                ("x.js", "export const x = 1;\n"),
                ("n.js", "import { b } from './m.js';\nexport const a = 1;\n"),
            ]);
            assert_eq!(bundle(&f, "m.js", &[]), Err(expected), "{source}");
        }
    }
}
