//! Board files as other programs leave them (`file/settle.rs`, and the byte order
//! mark in `json/board.rs`): a file with a UTF-8 byte order mark loads, and is
//! saved without it; a file another program truncates and then writes is read
//! once it is whole, not reported as damaged; a file really cut short is still
//! reported, at once when it was damaged long ago.

use std::fs::{self, File};
use std::io::Write;
use std::path::Path;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use inkboard_core::Board;
use inkboard_format::file::{MOST_WAIT, SETTLING};
use inkboard_format::{load, save, to_pretty_string, FormatError};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A board file at `dir/b.inkboard` holding a board titled `title`.
fn board_file(dir: &Path, title: &str) -> std::path::PathBuf {
    let path = dir.join("b.inkboard");
    save(&path, &Board::new(title, &["One".to_string()]), None).unwrap();
    path
}

#[test]
fn a_byte_order_mark_is_read_and_not_written_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = board_file(dir.path(), "marked");
    let text = fs::read(&path).unwrap();
    fs::write(&path, [BOM, &text].concat()).unwrap();
    let loaded = load(&path).expect("a board with a byte order mark loads");
    assert_eq!(loaded.board.title(), "marked");
    save(&path, &loaded.board, Some(&loaded.stamp)).expect("saved over what was read");
    assert_eq!(fs::read(&path).unwrap(), text, "saved without the mark");
    // Errors count lines and columns as an editor shows them, without the mark.
    fs::write(&path, [BOM, b"{\"format\": }"].concat()).unwrap();
    let err = load(&path).unwrap_err().to_string();
    assert!(err.contains("line 1, column 12"), "{err}");
}

/// Rewrites the board at `path` in place with `text`, as `>` in a shell does:
/// truncates it, says so, waits `pause`, then writes `text` in two halves with
/// another `pause` between them.
fn rewrite_in_place(path: &Path, text: Vec<u8>, pause: Duration) -> mpsc::Receiver<()> {
    let (truncated, rx) = mpsc::channel();
    let path = path.to_path_buf();
    thread::spawn(move || {
        let mut file = File::create(&path).unwrap();
        truncated.send(()).unwrap();
        thread::sleep(pause);
        let half = text.len() / 2;
        file.write_all(&text[..half]).unwrap();
        file.flush().unwrap();
        thread::sleep(pause);
        file.write_all(&text[half..]).unwrap();
    });
    rx
}

#[test]
fn a_board_rewritten_in_place_is_read_once_it_is_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = board_file(dir.path(), "old");
    let new = to_pretty_string(&Board::new("new", &["One".to_string()]));
    for pause in [Duration::from_millis(5), Duration::from_millis(100)] {
        let truncated = rewrite_in_place(&path, new.clone().into_bytes(), pause);
        truncated.recv().unwrap();
        // The file is empty now, then half written: the reader waits for it.
        let loaded = load(&path).unwrap_or_else(|e| panic!("with a {pause:?} pause: {e}"));
        assert_eq!(loaded.board.title(), "new", "with a {pause:?} pause");
        assert_eq!(fs::read(&path).unwrap(), new.as_bytes());
        board_file_again(&path);
    }
}

/// Puts the old board back (by rename, as a save does).
fn board_file_again(path: &Path) {
    let temp = path.with_extension("tmp");
    fs::write(
        &temp,
        to_pretty_string(&Board::new("old", &["One".to_string()])),
    )
    .unwrap();
    fs::rename(&temp, path).unwrap();
}

#[test]
fn a_file_cut_short_long_ago_is_reported_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = board_file(dir.path(), "cut");
    let text = fs::read(&path).unwrap();
    fs::write(&path, &text[..text.len() / 2]).unwrap();
    File::options()
        .write(true)
        .open(&path)
        .and_then(|f| f.set_modified(SystemTime::now() - Duration::from_secs(3600)))
        .unwrap();
    let started = Instant::now();
    let err = load(&path).unwrap_err();
    assert!(
        started.elapsed() < SETTLING,
        "waited {:?}",
        started.elapsed()
    );
    assert!(
        matches!(&err, FormatError::InFile { error, .. } if matches!(**error, FormatError::NotJson { .. })),
        "{err}"
    );
}

#[test]
fn a_file_cut_short_that_stays_so_is_reported_after_the_wait() {
    let dir = tempfile::tempdir().unwrap();
    let path = board_file(dir.path(), "cut");
    let text = fs::read(&path).unwrap();
    fs::write(&path, &text[..text.len() / 2]).unwrap();
    let started = Instant::now();
    let err = load(&path).unwrap_err().to_string();
    let waited = started.elapsed();
    assert!(err.contains("is the file cut short?"), "{err}");
    assert!(
        waited < MOST_WAIT + Duration::from_millis(200),
        "waited {waited:?}"
    );
}

#[test]
fn a_whole_file_that_is_not_a_board_is_reported_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.inkboard");
    fs::write(&path, "{\"format\": \"drawio\"}").unwrap();
    let started = Instant::now();
    let err = load(&path).unwrap_err().to_string();
    assert!(err.contains("not an inkboard file"), "{err}");
    assert!(
        started.elapsed() < SETTLING,
        "waited {:?}",
        started.elapsed()
    );
}
