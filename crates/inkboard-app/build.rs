//! Compiles the editor's files (`web/` and its subfolders, named by their path
//! from there, such as `canvas/canvas.js`) into the binary: writes a table of
//! `(name, media type, contents)` for `http.rs` to serve, and their version (a
//! hash of them all). The chat view's own files (`web/chat/`) are not the
//! editor's: `src/chat.rs` takes them in itself. `index.html` names the files under `/assets/VERSION/`, which
//! browsers may keep for good (a new build has a new version), and gets a
//! `modulepreload` link for every module, so the browser fetches them all at once
//! instead of discovering the imports one level at a time.

use std::fmt::Write;
use std::path::{Path, PathBuf};

fn main() {
    // Read when the script runs, not baked in when it is compiled: Cargo reuses a
    // compiled build script for a checkout of the same crate elsewhere (another
    // worktree sharing the target folder), which would then read that web/.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("web");
    let mut names = Vec::new();
    files(&dir, &dir, &mut names);
    names.sort();
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    // FNV-1a over every file's name and bytes: any change gives a new version.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (name, path) in &names {
        let bytes = std::fs::read(path).expect("web/ files are readable");
        for b in name.as_bytes().iter().chain(&bytes) {
            hash = (hash ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    let version = format!("{hash:016x}");
    std::fs::write(
        Path::new(&out_dir).join("version.rs"),
        format!("{version:?}"),
    )
    .expect("OUT_DIR is writable");
    let modules: String = names
        .iter()
        .map(|(name, _)| name)
        .filter(|n| n.ends_with(".js"))
        .map(|n| format!("  <link rel=\"modulepreload\" href=\"/assets/{version}/{n}\">\n"))
        .collect();
    let mut table = String::from("[\n");
    for (name, path) in names {
        let mime = match path.extension().and_then(|e| e.to_str()) {
            Some("html") => "text/html; charset=utf-8",
            Some("js") => "text/javascript; charset=utf-8",
            Some("css") => "text/css; charset=utf-8",
            Some("svg") => "image/svg+xml",
            Some("json") => "application/json",
            // Notes and anything else are not served.
            _ => continue,
        };
        println!("cargo:rerun-if-changed={}", path.display());
        let mut path = path;
        if name == "index.html" {
            let page = std::fs::read_to_string(&path).expect("web/index.html is readable");
            let page = page
                .replace(
                    "\"/assets/app.css\"",
                    &format!("\"/assets/{version}/app.css\""),
                )
                .replace(
                    "\"/assets/main.js\"",
                    &format!("\"/assets/{version}/main.js\""),
                );
            let page = page.replacen(
                "  <script type=\"module\"",
                &format!("{modules}  <script type=\"module\""),
                1,
            );
            path = Path::new(&out_dir).join("index.html");
            std::fs::write(&path, page).expect("OUT_DIR is writable");
        }
        let _ = writeln!(
            table,
            "    ({name:?}, {mime:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    table.push(']');
    let out = Path::new(&out_dir).join("assets.rs");
    std::fs::write(out, table).expect("OUT_DIR is writable");
}

/// Every file under `folder` (but the chat view's `chat/` and hidden entries) as
/// its name from `root`, with `/` between folders, and its path. A folder is
/// watched too, so a file added to it rebuilds the table.
fn files(root: &Path, folder: &Path, out: &mut Vec<(String, PathBuf)>) {
    println!("cargo:rerun-if-changed={}", folder.display());
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for path in entries.filter_map(|e| e.ok()).map(|e| e.path()) {
        let Some(rel) = path.strip_prefix(root).ok().and_then(|p| p.to_str()) else {
            continue;
        };
        let name = rel.replace('\\', "/");
        if name == "chat" || name.starts_with('.') || name.contains("/.") {
            continue;
        }
        if path.is_dir() {
            files(root, &path, out);
        } else if path.is_file() {
            out.push((name, path));
        }
    }
}
