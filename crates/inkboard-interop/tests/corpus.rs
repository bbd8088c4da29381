//! The corpus: real draw.io and Excalidraw files (`tests/corpus/`, sources and
//! licences in `SOURCES.md`) and files made for these tests. Each must import;
//! its summary (counts of objects, texts and connections per page, one line per
//! object, and the report of what was lost) is golden, in `NAME.expect` beside
//! it. Refresh with `UPDATE_EXPECT=1 cargo test -p inkboard-interop --test corpus`.

mod common;

use std::path::PathBuf;

fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(common::corpus_dir())
        .expect("the corpus folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            !name.ends_with(".expect") && name != "SOURCES.md"
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_file_imports_as_expected() {
    let files = corpus_files();
    assert!(files.len() >= 10, "the corpus is missing");
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().and_then(|n| n.to_str()).expect("a name");
        let bytes = std::fs::read(path).expect("read a corpus file");
        let imported = match inkboard_interop::import(&bytes, Some(name)) {
            Ok(i) => i,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let expect_path = path.with_file_name(format!("{name}.expect"));
        let actual = common::summary(&imported);
        if std::panic::catch_unwind(|| common::expect(&expect_path, &actual)).is_err() {
            failures.push(format!("{name}: summary differs"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_corpus_file_is_listed_in_sources() {
    let sources =
        std::fs::read_to_string(common::corpus_dir().join("SOURCES.md")).expect("SOURCES.md");
    for path in corpus_files() {
        let name = path.file_name().and_then(|n| n.to_str()).expect("a name");
        assert!(
            sources.contains(&format!("`{name}`")),
            "{name} is not in SOURCES.md"
        );
    }
}
