//! File I/O with real files in a temporary folder: atomic saves, change detection,
//! the three file names, permissions. The lock has its own file, `lock.rs`.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

mod common;

use common::add_shape;
use inkboard_core::{Actor, Board, IdKind, Transaction};
use inkboard_format::{load, save, save_overwrite, stamp_of, stat_of, FileKind, FormatError};

fn board(title: &str) -> Board {
    let mut board = Board::new(title, &["One".to_string(), "Two".to_string()]);
    add_shape(&mut board, "hello");
    board
}

/// The board saved to `path` and read back, as the next call of another process
/// would see it.
fn reloaded(board: &Board, path: &Path) -> Board {
    save_overwrite(path, board).unwrap();
    load(path).unwrap().board
}

#[test]
fn deleted_ids_stay_dead_after_a_save_and_a_reload() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ids.inkboard");
    let mut board = board("ids");
    // The last page and the last object go: nothing on the board names them now.
    let (p2, s1) = (board.pages()[1].id, board.pages()[0].objects[0].id.clone());
    let mut tx = Transaction::begin(&mut board);
    tx.remove_page(p2).unwrap();
    tx.remove(&s1).unwrap();
    tx.commit(Actor::Agent).unwrap();

    let mut board = reloaded(&board, &path);
    let mut tx = Transaction::begin(&mut board);
    let page = tx.add_page("Again", None).unwrap();
    let object = tx.new_id(IdKind::Shape);
    tx.commit(Actor::Agent).unwrap();
    assert_ne!(page, p2, "a deleted page's id came back");
    assert_ne!(object, s1, "a deleted object's id came back");

    // And again from a file that holds the counters: they are read, not derived.
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"next_page\": 3"), "{text}");
    let board = reloaded(&board, &path);
    assert_eq!(board.next_page(), 4);
}

#[test]
fn a_file_without_a_page_counter_counts_on_from_its_largest_page_id() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.inkboard");
    let old = r#"{"format": "inkboard", "version": 1, "title": "t", "pages": [
        {"id": "p4", "name": "A", "objects": []}, {"id": "p2", "name": "B", "objects": []}]}"#;
    fs::write(&path, old).unwrap();
    let board = load(&path).unwrap().board;
    assert_eq!(board.next_page(), 5);
    // Nothing to say beyond what the pages say: the field is left out, so files
    // that never lost their last page keep the text earlier versions wrote.
    save_overwrite(&path, &board).unwrap();
    assert!(!fs::read_to_string(&path).unwrap().contains("next_page"));
}

/// The names in a folder, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn save_then_load_round_trips_for_every_extension() {
    let dir = tempfile::tempdir().unwrap();
    for (name, kind) in [
        ("a.inkboard", FileKind::Inkboard),
        ("b.inkboard.json", FileKind::InkboardJson),
        ("c.tableau.json", FileKind::TableauJson),
        ("D.INKBOARD", FileKind::Inkboard),
    ] {
        let path = dir.path().join(name);
        assert_eq!(FileKind::from_path(&path).unwrap(), kind, "{name}");
        let original = board(name);
        let saved = save(&path, &original, None).unwrap();
        let text = fs::read(&path).unwrap();
        assert_eq!(saved.bytes, text.len());
        assert_eq!(stamp_of(&path).unwrap().as_ref(), Some(&saved.stamp));

        let loaded = load(&path).unwrap();
        assert_eq!(loaded.board, original, "{name}");
        assert_eq!(loaded.board.revision(), original.revision());
        assert_eq!(loaded.stamp, saved.stamp);
        assert_eq!(loaded.bytes, text.len());

        // Saving what was loaded writes the same bytes.
        save(&path, &loaded.board, Some(&loaded.stamp)).unwrap();
        assert_eq!(fs::read(&path).unwrap(), text, "{name}");
    }
}

#[test]
fn other_extensions_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["board.json", "board.txt", "board", ".inkboard", "inkboard"] {
        let path = dir.path().join(name);
        let err = save(&path, &board("x"), None).unwrap_err();
        assert!(
            matches!(err, FormatError::UnknownExtension { .. }),
            "{name}: {err}"
        );
        assert!(
            err.to_string()
                .ends_with("use a name ending in .inkboard, .inkboard.json or .tableau.json"),
            "{err}"
        );
        assert!(matches!(
            load(&path).unwrap_err(),
            FormatError::UnknownExtension { .. }
        ));
    }
    assert!(listing(dir.path()).is_empty(), "nothing written");
}

#[test]
fn a_missing_file_is_not_found_and_suggests_create_board() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nope.inkboard");
    let err = load(&path).unwrap_err();
    assert!(matches!(err, FormatError::NotFound { .. }));
    let message = err.to_string();
    assert!(
        message.contains("nope.inkboard") && message.contains("create_board"),
        "{message}"
    );
    assert_eq!(stamp_of(&path).unwrap(), None);
}

#[test]
fn a_bad_file_names_itself_and_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.inkboard");
    fs::write(&path, r#"{"format": "inkboard", "version": 1, "title": "t", "pages": [{"id": "p1", "name": "P", "objects": [{"id": "s1", "type": "shape", "geom": "circle", "x": 0, "y": 0, "w": 1, "h": 1}]}]}"#).unwrap();
    let message = load(&path).unwrap_err().to_string();
    assert!(
        message.starts_with(&format!(
            "{}: pages[0].objects[0].geom: unknown geom \"circle\"",
            path.display()
        )),
        "{message}"
    );
    fs::write(&path, b"\xff\xfe not utf-8").unwrap();
    let message = load(&path).unwrap_err().to_string();
    assert!(message.contains("not UTF-8"), "{message}");
}

/// The stat a load or a save reports is the one the file has afterwards while
/// nobody touches it (so a caller may skip re-reading it), and any rewrite moves it;
/// a save still checks the content whatever the stat says.
#[cfg(unix)]
#[test]
fn stats_match_while_the_file_is_untouched_and_move_when_it_is_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.inkboard");
    let created = save(&path, &board("t"), None).unwrap();
    assert!(created.stat.is_some());
    assert_eq!(stat_of(&path).unwrap(), created.stat);
    let loaded = load(&path).unwrap();
    assert_eq!(loaded.stat, created.stat);
    let saved = save(&path, &loaded.board, Some(&loaded.stamp)).unwrap();
    assert_eq!(stat_of(&path).unwrap(), saved.stat);
    assert_ne!(saved.stat, created.stat, "a save is a new file");

    // The same bytes written in place: a new stat, the same content stamp.
    let text = fs::read(&path).unwrap();
    fs::write(&path, &text).unwrap();
    assert_ne!(stat_of(&path).unwrap(), saved.stat);
    assert_eq!(stamp_of(&path).unwrap(), Some(saved.stamp.clone()));

    // Other bytes of the same length, with the old modification time put back: the
    // save is refused all the same, because it compares content.
    let mut other = text.clone();
    let at = other.iter().position(|&b| b == b'h').unwrap();
    other[at] = b'H';
    let modified = fs::metadata(&path).unwrap().modified().unwrap();
    fs::write(&path, &other).unwrap();
    fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    let err = save(&path, &loaded.board, Some(&saved.stamp)).unwrap_err();
    assert!(matches!(err, FormatError::ChangedOnDisk { .. }), "{err}");
    assert_eq!(fs::read(&path).unwrap(), other, "nothing written");
    assert_eq!(stat_of(&dir.path().join("none.inkboard")).unwrap(), None);
}

#[test]
fn saving_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.inkboard");
    let mut b = board("t");
    let mut saved = save(&path, &b, None).unwrap();
    for i in 0..5 {
        add_shape(&mut b, &format!("more {i}"));
        saved = save(&path, &b, Some(&saved.stamp)).unwrap();
    }
    save_overwrite(&path, &b).unwrap();
    assert_eq!(listing(dir.path()), ["board.inkboard"]);
    assert_eq!(load(&path).unwrap().board, b);
}

#[test]
fn a_failed_save_removes_its_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    // A folder where the board should be: the rename over it fails.
    let path = dir.path().join("taken.inkboard");
    fs::create_dir(&path).unwrap();
    let err = save_overwrite(&path, &board("t")).unwrap_err();
    assert!(matches!(err, FormatError::Io { .. }), "{err}");
    assert!(err.to_string().contains("taken.inkboard"), "{err}");
    assert_eq!(listing(dir.path()), ["taken.inkboard"]);
}

#[test]
fn a_file_changed_on_disk_is_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.inkboard");
    save(&path, &board("mine"), None).unwrap();
    let loaded = load(&path).unwrap();

    // Someone else saves meanwhile.
    let mut theirs = loaded.board.clone();
    add_shape(&mut theirs, "theirs");
    save_overwrite(&path, &theirs).unwrap();
    let on_disk = fs::read(&path).unwrap();

    let mut mine = loaded.board.clone();
    add_shape(&mut mine, "mine");
    let err = save(&path, &mine, Some(&loaded.stamp)).unwrap_err();
    assert!(matches!(err, FormatError::ChangedOnDisk { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("read it again and redo the change"),
        "{err}"
    );
    assert_eq!(fs::read(&path).unwrap(), on_disk, "their file is untouched");
    assert_eq!(listing(dir.path()), ["board.inkboard"]);

    // A file that went away has changed too.
    fs::remove_file(&path).unwrap();
    let err = save(&path, &mine, Some(&loaded.stamp)).unwrap_err();
    assert!(matches!(err, FormatError::ChangedOnDisk { .. }), "{err}");
    assert!(!path.exists());
}

#[test]
fn a_touch_that_changes_nothing_is_no_change() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.inkboard");
    save(&path, &board("t"), None).unwrap();
    let loaded = load(&path).unwrap();
    let same = fs::read(&path).unwrap();
    fs::write(&path, same).unwrap();
    save(&path, &loaded.board, Some(&loaded.stamp)).unwrap();
}

#[test]
fn creating_over_an_existing_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.inkboard");
    fs::write(&path, "precious").unwrap();
    let err = save(&path, &board("new"), None).unwrap_err();
    assert!(matches!(err, FormatError::AlreadyExists { .. }), "{err}");
    assert!(err.to_string().contains("overwrite"), "{err}");
    assert_eq!(fs::read_to_string(&path).unwrap(), "precious");
    assert_eq!(listing(dir.path()), ["board.inkboard"]);

    // Overwriting is an explicit decision.
    save_overwrite(&path, &board("new")).unwrap();
    assert_eq!(load(&path).unwrap().board.title(), "new");
}

#[cfg(unix)]
#[test]
fn a_replaced_file_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.inkboard");
    let saved = save(&path, &board("t"), None).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    let mut b = load(&path).unwrap().board;
    add_shape(&mut b, "again");
    save(&path, &b, Some(&saved.stamp)).unwrap();
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o640
    );
    save_overwrite(&path, &b).unwrap();
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o640
    );
}

#[cfg(unix)]
#[test]
fn saving_through_a_symlink_updates_the_file_it_points_to() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.inkboard");
    let link = dir.path().join("link.inkboard");
    let saved = save(&real, &board("t"), None).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let mut b = load(&link).unwrap().board;
    add_shape(&mut b, "via link");
    save(&link, &b, Some(&saved.stamp)).unwrap();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(load(&real).unwrap().board, b);
}

#[test]
fn a_named_pipe_is_refused_at_once_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pipe.inkboard");
    let status = Command::new("mkfifo").arg(&path).status().unwrap();
    assert!(status.success());
    // Run in a thread: before the fix, opening the pipe blocked for ever.
    let (tx, rx) = std::sync::mpsc::channel();
    let p = path.clone();
    std::thread::spawn(move || tx.send(load(&p).map(|_| ()).unwrap_err().to_string()));
    let message = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("loading a named pipe answers at once");
    assert!(
        message.contains("not a file") && message.contains("give the path of a board file"),
        "{message}"
    );
}

#[test]
fn the_stem_is_the_name_without_its_board_extension() {
    use inkboard_format::FileKind;
    for (path, stem) in [
        ("plans/Q3 roadmap.inkboard", "Q3 roadmap"),
        ("a.b.inkboard.json", "a.b"),
        ("X.TABLEAU.JSON", "X"),
        ("notes.json", "notes.json"),
    ] {
        assert_eq!(FileKind::stem(std::path::Path::new(path)), stem, "{path}");
    }
}

/// A read-only file is refused, as the shell's `>` refuses it, by every way of
/// replacing it (a save over what was read, an overwrite, an export), and left as
/// it was, with nothing beside it. Even root is refused a file nobody may write.
#[cfg(unix)]
#[test]
fn a_read_only_file_is_never_replaced() {
    use inkboard_format::{write_export, Existing};
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.inkboard");
    let saved = save(&path, &board("t"), None).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
    let before = fs::read(&path).unwrap();
    let picture = dir.path().join("picture.svg");
    fs::write(&picture, "<svg/>").unwrap();
    fs::set_permissions(&picture, fs::Permissions::from_mode(0o444)).unwrap();

    let refusals = [
        save(&path, &board("again"), Some(&saved.stamp)).unwrap_err(),
        save_overwrite(&path, &board("over")).unwrap_err(),
        write_export(&picture, b"<svg>new</svg>", Existing::Replace).unwrap_err(),
    ];
    for err in refusals {
        assert!(matches!(err, FormatError::ReadOnly { .. }), "{err}");
        assert!(
            err.to_string().contains("read-only") && err.to_string().contains("chmod u+w"),
            "{err}"
        );
    }
    assert_eq!(fs::read(&path).unwrap(), before);
    assert_eq!(fs::read_to_string(&picture).unwrap(), "<svg/>");
    assert_eq!(listing(dir.path()), ["board.inkboard", "picture.svg"]);
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o444
    );
}

/// A save's temporary file has the mode of the file it replaces from the moment
/// it exists: a private board's copy is never readable by others, not even while
/// it is being written (a save killed then would leave it so for good). Saves of
/// a large private board run while the folder is watched; every temporary file
/// seen must be 0600 (the umask is the usual 022, which used to leave them 0644).
#[cfg(unix)]
#[test]
fn a_temporary_file_is_never_more_open_than_its_board() {
    use std::os::unix::fs::PermissionsExt;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    // SAFETY: umask only sets this process's file creation mask.
    unsafe { libc::umask(0o022) };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("private.inkboard");
    let mut big = board("private");
    for i in 0..3000 {
        add_shape(&mut big, &format!("a secret line of text, number {i}"));
    }
    save(&path, &big, None).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();

    let done = Arc::new(AtomicBool::new(false));
    let saver = {
        let (path, done) = (path.clone(), done.clone());
        std::thread::spawn(move || {
            for _ in 0..400 {
                if done.load(Ordering::Relaxed) {
                    break;
                }
                save_overwrite(&path, &big).unwrap();
            }
            done.store(true, Ordering::Relaxed);
        })
    };
    let mut seen = Vec::new();
    while !done.load(Ordering::Relaxed) {
        for entry in fs::read_dir(dir.path()).unwrap().flatten() {
            if entry.file_name().to_string_lossy().ends_with(".tmp") {
                if let Ok(meta) = fs::symlink_metadata(entry.path()) {
                    seen.push(meta.permissions().mode() & 0o777);
                }
            }
        }
        if seen.len() >= 20 {
            done.store(true, Ordering::Relaxed);
        }
    }
    saver.join().unwrap();
    eprintln!("temporary files seen while written: {}", seen.len());
    assert!(!seen.is_empty(), "no temporary file was seen in 400 saves");
    assert!(
        seen.iter().all(|&mode| mode == 0o600),
        "temporary files seen with modes {:?}",
        seen.iter().map(|m| format!("{m:o}")).collect::<Vec<_>>()
    );
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o600
    );
}
