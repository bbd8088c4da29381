//! Compiles the editor's files (`web/`) into the binary: writes a table of
//! `(name, media type, contents)` for `http.rs` to serve, and their version (a
//! hash of them all). `index.html` names the files under `/assets/VERSION/`, which
//! browsers may keep for good (a new build has a new version), and gets a
//! `modulepreload` link for every module, so the browser fetches them all at once
//! instead of discovering the imports one level at a time.

use std::fmt::Write;
use std::path::Path;

fn main() {
    // Read when the script runs, not baked in when it is compiled: Cargo reuses a
    // compiled build script for a checkout of the same crate elsewhere (another
    // worktree sharing the target folder), which would then read that web/.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("web");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    // FNV-1a over every file's name and bytes: any change gives a new version.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for path in &names {
        let bytes = std::fs::read(path).expect("web/ files are readable");
        for b in path
            .file_name()
            .unwrap_or_default()
            .as_encoded_bytes()
            .iter()
            .chain(&bytes)
        {
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
        .filter_map(|p| p.file_name()?.to_str())
        .filter(|n| n.ends_with(".js"))
        .map(|n| format!("  <link rel=\"modulepreload\" href=\"/assets/{version}/{n}\">\n"))
        .collect();
    let mut table = String::from("[\n");
    for path in names {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
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
        let mut path = path.clone();
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
