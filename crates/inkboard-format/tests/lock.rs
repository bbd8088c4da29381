//! The board lock (`file/lock.rs`) with real files: it excludes other holders
//! (threads and processes), waits and times out, holds across the saves that
//! replace the board's file and across the save that creates it, is found
//! whichever way the path is spelled, and leaves nothing in the board's folder.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

mod common;

use common::add_shape;
use inkboard_core::Board;
use inkboard_format::{load, save, save_overwrite, FileLock, FormatError};

/// Long enough for a free lock to be taken at once, short enough to wait for a
/// held one many times.
const SHORT: Duration = Duration::from_millis(100);

/// The names in a folder, sorted, hidden ones included.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Whether someone else holds the lock of `path` now.
fn is_held(path: &Path) -> bool {
    match FileLock::acquire_within(path, SHORT) {
        Ok(_) => false,
        Err(FormatError::LockTimeout { .. }) => true,
        Err(e) => panic!("taking the lock failed: {e}"),
    }
}

#[test]
fn the_lock_waits_and_times_out() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.inkboard");
    save(&path, &Board::new("b", &[]), None).unwrap();
    let held = FileLock::acquire(&path).unwrap();
    assert_eq!(held.path(), path);
    let err = FileLock::acquire_within(&path, SHORT).unwrap_err();
    assert!(matches!(err, FormatError::LockTimeout { .. }), "{err}");
    assert!(err.to_string().contains("board.inkboard"), "{err}");
    // Another board in the same folder has its own lock.
    let other = dir.path().join("other.inkboard");
    save(&other, &Board::new("o", &[]), None).unwrap();
    FileLock::acquire_within(&other, SHORT).unwrap();
    drop(held);
    FileLock::acquire_within(&path, SHORT).unwrap();
    assert_eq!(listing(dir.path()), ["board.inkboard", "other.inkboard"]);
}

#[test]
fn the_lock_holds_across_the_saves_that_replace_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.inkboard");
    let mut stamp = save(&path, &Board::new("b", &[]), None).unwrap().stamp;
    let held = FileLock::acquire(&path).unwrap();
    // A waiter already waiting on the file the saves replace.
    let (tx, rx) = mpsc::channel();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let waiter = {
        let path = path.clone();
        std::thread::spawn(move || {
            let lock = FileLock::acquire(&path).unwrap();
            tx.send(()).unwrap();
            release_rx.recv().unwrap();
            drop(lock);
        })
    };
    let mut board = load(&path).unwrap().board;
    for i in 0..3 {
        add_shape(&mut board, &format!("shape {i}"));
        stamp = save(&path, &board, Some(&stamp)).unwrap().stamp;
        // The new file is the board: it is locked from its first instant.
        assert!(
            is_held(&path),
            "after save {i}, the new board is not locked"
        );
    }
    save_overwrite(&path, &board).unwrap();
    assert!(
        is_held(&path),
        "after an overwrite, the board is not locked"
    );
    assert!(
        rx.recv_timeout(SHORT).is_err(),
        "the waiter got a lock while it was held"
    );
    drop(held);
    rx.recv_timeout(Duration::from_secs(10))
        .expect("the waiter gets the lock once it is let go");
    // What the waiter holds is the board now, not the file it first waited on.
    assert!(
        is_held(&path),
        "the waiter locked a file that is not the board"
    );
    release_tx.send(()).unwrap();
    waiter.join().unwrap();
    assert!(!is_held(&path));
    assert_eq!(listing(dir.path()), ["b.inkboard"]);
}

#[test]
fn a_missing_board_is_locked_and_stays_locked_once_created() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.inkboard");
    let held = FileLock::acquire(&path).unwrap();
    assert!(
        is_held(&path),
        "a board that does not exist yet is not locked"
    );
    save(&path, &Board::new("new", &[]), None).unwrap();
    assert!(
        is_held(&path),
        "the board created under the lock is not locked"
    );
    drop(held);
    assert!(!is_held(&path));
    assert_eq!(listing(dir.path()), ["new.inkboard"]);
}

#[cfg(unix)]
#[test]
fn the_lock_is_found_however_the_path_is_spelled() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.inkboard");
    let stamp = save(&path, &Board::new("b", &[]), None).unwrap().stamp;
    let link = dir.path().join("link.inkboard");
    std::os::unix::fs::symlink(&path, &link).unwrap();
    // Taken through a link and a roundabout folder, saved through the path.
    let held = FileLock::acquire(&link).unwrap();
    assert!(is_held(&path));
    let roundabout = dir.path().join(".").join("b.inkboard");
    save(&roundabout, &Board::new("again", &[]), Some(&stamp)).unwrap();
    assert!(
        is_held(&path),
        "the save through another path lost the lock"
    );
    assert!(is_held(&link));
    drop(held);
    assert!(!is_held(&path));
    assert_eq!(listing(dir.path()), ["b.inkboard", "link.inkboard"]);
}

/// A read-only board (which the lock may not open to write) is locked all the
/// same.
#[cfg(unix)]
#[test]
fn a_read_only_board_is_locked() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ro.inkboard");
    save(&path, &Board::new("ro", &[]), None).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
    let held = FileLock::acquire(&path).unwrap();
    assert!(is_held(&path));
    drop(held);
    assert_eq!(listing(dir.path()), ["ro.inkboard"]);
}

/// Set for the child processes of [`two_processes_lose_no_update`].
const CHILD_ENV: &str = "INKBOARD_FORMAT_LOCK_CHILD";
const ROUNDS: usize = 50;

/// lock → load → add → save, `ROUNDS` times.
fn hammer(path: &Path, tag: &str) {
    for i in 0..ROUNDS {
        let _lock = FileLock::acquire(path).unwrap();
        let loaded = load(path).unwrap();
        let mut b = loaded.board;
        add_shape(&mut b, &format!("{tag} {i}"));
        save(path, &b, Some(&loaded.stamp)).unwrap();
    }
}

/// Not a test of its own: the body of each child process of
/// [`two_processes_lose_no_update`], which runs this test binary filtered to it.
#[test]
fn lock_child() {
    if let Some(path) = std::env::var_os(CHILD_ENV) {
        let tag = std::env::var("INKBOARD_FORMAT_LOCK_TAG").unwrap_or_default();
        hammer(&PathBuf::from(path), &tag);
    }
}

/// Two processes and a thread, each saving 50 times under the lock: every save
/// replaces the board's file, which the others are waiting on. A save refused as
/// "changed on disk" (the `unwrap` in [`hammer`]) would mean two of them held the
/// lock at once.
#[test]
fn two_processes_lose_no_update() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.inkboard");
    save(&path, &Board::new("shared", &[]), None).unwrap();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = ["a", "b"]
        .into_iter()
        .map(|tag| {
            Command::new(&exe)
                .args(["--exact", "lock_child", "--test-threads=1"])
                // Their own "test result" lines would read as this run's.
                .stdout(Stdio::null())
                .env(CHILD_ENV, &path)
                .env("INKBOARD_FORMAT_LOCK_TAG", tag)
                .spawn()
                .unwrap()
        })
        .collect();
    // A thread of this process joins in too.
    hammer(&path, "c");
    for mut child in children {
        assert!(child.wait().unwrap().success(), "a child process failed");
    }
    let board = load(&path).unwrap().board;
    assert_eq!(board.object_count(), 3 * ROUNDS, "no update lost");
    assert_eq!(board.revision(), 3 * ROUNDS as u64);
    for tag in ["a", "b", "c"] {
        let n = board.pages()[0]
            .objects
            .iter()
            .filter(|o| o.text().is_some_and(|t| t.starts_with(&format!("{tag} "))))
            .count();
        assert_eq!(n, ROUNDS, "every update of {tag}");
    }
    assert_eq!(listing(dir.path()), ["shared.inkboard"]);
}
