//! No edit is ever lost after a failed autosave (issue 12), with the real binary:
//! a file changed on disk by another program is loaded live as an undoable
//! revision; with unsaved changes it is a conflict that keeps both versions (a
//! recovery copy, the banner's three choices); a save that fails (the file
//! replaced by a folder, standing in for a full disk; the file deleted) is tried
//! again once the cause is gone; and stopping with unsaved changes keeps them in a
//! recovery copy whose path is printed and which the next `inkboard open` offers
//! (or, for a board that never had a file, names).

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use common::app::{file_objects, wait_for_file, App, Window};
use common::{Era, Session};
use serde_json::{json, Value};

/// Writes `board` over `path` as a text editor does: a new file renamed over.
fn write_like_an_editor(path: &Path, board: &Value) {
    let temp = path.with_extension("editor-tmp");
    fs::write(&temp, serde_json::to_string_pretty(board).expect("JSON")).expect("write");
    fs::rename(&temp, path).expect("rename over the board");
}

/// Puts a folder where the board file was, so every save fails (as on a full
/// disk: the bytes cannot go there); answers where the file went.
fn break_the_file(board: &Path) -> PathBuf {
    let away = board.with_extension("away");
    fs::rename(board, &away).expect("move the file away");
    fs::create_dir(board).expect("a folder in its place");
    away
}

/// The texts of the objects a window shows, sorted.
fn texts(window: &Window) -> Vec<String> {
    let mut out: Vec<String> = window
        .objects
        .values()
        .filter_map(|o| o["text"].as_str().map(str::to_string))
        .collect();
    out.sort();
    out
}

/// The texts of a board file's first page, sorted.
fn file_texts(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = file_objects(v)
        .iter()
        .filter_map(|o| o["text"].as_str().map(str::to_string))
        .collect();
    out.sort();
    out
}

/// Reads messages until the window shows exactly these texts.
async fn until_texts(window: &mut Window, want: &[&str]) {
    for _ in 0..200 {
        if texts(window) == want {
            return;
        }
        let _ = tokio::time::timeout(
            std::time::Duration::from_millis(100),
            window.until(|m| m["t"] == "scene"),
        )
        .await;
    }
    panic!("the window shows {:?}, not {want:?}", texts(window));
}

/// Adds a shape as the person; the reply must be a success.
/// Breaks the board's file so saves fail, then adds "two" in the window, which
/// the window shows as not saved; gives where the file went.
async fn unsaved_two(app: &App, window: &mut Window) -> PathBuf {
    let away = break_the_file(&app.board);
    add(window, "two").await;
    window
        .until(|m| m["t"] == "board" && m["save"] == "error")
        .await;
    away
}

async fn add(window: &mut Window, text: &str) {
    let reply = window
        .call("add_shape", json!({"text": text, "page": 1}))
        .await;
    assert_eq!(reply["ok"], true, "{reply}");
}

/// The person's choice in the banner; the reply.
async fn choose(window: &mut Window, choice: &str, seq: u64) -> Value {
    window
        .send(json!({"t": "resolve", "seq": seq, "choice": choice}))
        .await;
    window.until(|m| m["t"] == "reply" && m["seq"] == seq).await
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).expect("exists").permissions().mode() & 0o777
}

/// An app on a board holding "one", saved; a window on it.
async fn started() -> (App, Window) {
    let app = App::start("plan.inkboard");
    let cookie = app.sign_in();
    let mut window = app.window(&cookie).await;
    add(&mut window, "one").await;
    app.file_until("the first save", |v| file_texts(v) == ["one"]);
    (app, window)
}

/// The id of the object a window shows with `text`.
fn id_of(window: &Window, text: &str) -> String {
    window
        .objects
        .iter()
        .find(|(_, o)| o["text"] == text)
        .map(|(id, _)| id.clone())
        .unwrap_or_else(|| panic!("no object {text:?}"))
}

/// Brings the app into a conflict: saves fail (a folder in the file's place)
/// while the person adds "two" and moves "one", then another program puts its
/// own version of the file back (titled "Theirs", with "one" changed to "one,
/// edited": the same object). Answers the `board` message that offers the choice.
async fn into_conflict(app: &App, window: &mut Window) -> Value {
    let away = break_the_file(&app.board);
    add(window, "two").await;
    let one = id_of(window, "one");
    let moved = window
        .call("update", json!({"id": one, "x": 600, "page": 1}))
        .await;
    assert_eq!(moved["ok"], true, "{moved}");
    let failed = window
        .until(|m| {
            m["t"] == "board"
                && m["save"] == "error"
                && m["save_error"]
                    .as_str()
                    .is_some_and(|w| w.contains("is now a folder"))
        })
        .await;
    let words = failed["save_error"].as_str().expect("words");
    assert!(words.contains("kept here"), "{words}");
    let mut theirs: Value =
        serde_json::from_str(&fs::read_to_string(&away).expect("the old file")).expect("JSON");
    theirs["title"] = json!("Theirs");
    theirs["pages"][0]["objects"][0]["text"] = json!("one, edited");
    fs::remove_dir(&app.board).expect("remove the folder");
    write_like_an_editor(&app.board, &theirs);
    let offered = window
        .until(|m| m["t"] == "board" && m["save"] == "conflict")
        .await;
    assert_eq!(offered["offer"]["kind"], "changed", "{offered}");
    offered
}

// ---- an outside change with nothing unsaved ----

#[tokio::test]
async fn an_outside_edit_is_loaded_live_and_can_be_undone() {
    let (app, mut window) = started().await;
    let agent = Session::start_with(
        Era::Handshake,
        tempfile::tempdir().expect("dir"),
        &app.runtime,
    )
    .await;
    let before = window.revision;
    let mut theirs: Value =
        serde_json::from_str(&fs::read_to_string(&app.board).expect("read")).expect("JSON");
    theirs["pages"][0]["objects"][0]["text"] = json!("from the editor");
    write_like_an_editor(&app.board, &theirs);

    // On screen without a reload, and the file is left as the editor wrote it.
    until_texts(&mut window, &["from the editor"]).await;
    assert_eq!(
        file_texts(
            &serde_json::from_str(&fs::read_to_string(&app.board).expect("read")).expect("JSON")
        ),
        ["from the editor"]
    );
    // board_changes lists it, as the person's (another program is a person's tool).
    let changes = agent.ok("board_changes", json!({"since": before})).await;
    let listed = changes["changes"].as_array().expect("changes");
    assert!(
        listed.iter().any(|c| c["kind"] == "updated"
            && c["by"] == "user"
            && c["object"]["text"] == "from the editor"),
        "{changes}"
    );
    // Ctrl+Z takes it back, and that is saved like any change.
    window.undo(false).await;
    until_texts(&mut window, &["one"]).await;
    app.file_until("the undo saved", |v| file_texts(v) == ["one"]);
    // And an agent's edit after it lands in the file with it.
    agent.ok("add_shape", json!({"text": "agent"})).await;
    app.file_until("the agent's edit saved", |v| {
        file_texts(v) == ["agent", "one"]
    });
    agent.close().await;
}

// ---- unsaved changes and an outside change to other records: merged ----

#[tokio::test]
async fn an_outside_edit_of_other_objects_is_merged_with_unsaved_changes() {
    let (app, mut window) = started().await;
    let away = unsaved_two(&app, &mut window).await;
    // Another program changes the title and "one"; the person only added "two".
    let mut theirs: Value =
        serde_json::from_str(&fs::read_to_string(&away).expect("the old file")).expect("JSON");
    theirs["title"] = json!("Theirs");
    theirs["pages"][0]["objects"][0]["text"] = json!("one, edited");
    fs::remove_dir(&app.board).expect("remove the folder");
    write_like_an_editor(&app.board, &theirs);
    until_texts(&mut window, &["one, edited", "two"]).await;
    let saved = app.file_until("the merged board saved", |v| {
        file_texts(v) == ["one, edited", "two"]
    });
    assert_eq!(saved["title"], "Theirs");
    let kept = fs::read_dir(app.state.join("recovery"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(kept, 0, "no conflict, no copy");
    // One Ctrl+Z takes the other program's changes out again.
    window.undo(false).await;
    until_texts(&mut window, &["one", "two"]).await;
}

// ---- a conflict ----

#[tokio::test]
async fn a_conflict_keeps_both_versions_and_the_copy_stays_current() {
    let (app, mut window) = started().await;
    let offered = into_conflict(&app, &mut window).await;
    let copy = PathBuf::from(offered["offer"]["copy"].as_str().expect("a copy"));
    // The person's version, in the private recovery folder, not beside the board.
    assert!(copy.starts_with(app.state.join("recovery")), "{copy:?}");
    assert_eq!(mode(&copy), 0o600);
    assert_eq!(mode(copy.parent().expect("folder")), 0o700);
    wait_for_file(&copy, "the copy", |v| file_texts(v) == ["one", "two"]);
    // The file is theirs, untouched.
    let on_disk: Value =
        serde_json::from_str(&fs::read_to_string(&app.board).expect("read")).expect("JSON");
    assert_eq!(on_disk["title"], "Theirs");
    assert_eq!(file_texts(&on_disk), ["one, edited"]);
    assert!(
        app.stderr().contains(&copy.display().to_string()),
        "{}",
        app.stderr()
    );

    // Edits go on landing (the reply is a success), and the copy follows them.
    add(&mut window, "three").await;
    wait_for_file(&copy, "the copy updated", |v| {
        file_texts(v) == ["one", "three", "two"]
    });
    let on_disk: Value =
        serde_json::from_str(&fs::read_to_string(&app.board).expect("read")).expect("JSON");
    assert_eq!(file_texts(&on_disk), ["one, edited"], "still theirs");
    // Nothing else was put beside the board.
    let beside: Vec<String> = fs::read_dir(app.dir.path())
        .expect("list")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && n != "runtime" && n != "plan.away")
        .collect();
    assert_eq!(beside, ["plan.inkboard"], "{beside:?}");
}

#[tokio::test]
async fn keep_mine_writes_the_persons_version() {
    let (app, mut window) = started().await;
    let offered = into_conflict(&app, &mut window).await;
    let copy = PathBuf::from(offered["offer"]["copy"].as_str().expect("a copy"));
    let reply = choose(&mut window, "mine", 901).await;
    assert_eq!(reply["ok"], true, "{reply}");
    let saved = app.file_until("mine saved", |v| file_texts(v) == ["one", "two"]);
    assert_ne!(saved["title"], "Theirs");
    window
        .until(|m| m["t"] == "board" && m["save"] == "saved" && m["offer"].is_null())
        .await;
    assert!(!copy.exists(), "the copy goes once the choice is made");
    // Saving works again.
    add(&mut window, "after").await;
    app.file_until("saved after", |v| file_texts(v) == ["after", "one", "two"]);
}

#[tokio::test]
async fn take_theirs_loads_the_file_and_ctrl_z_brings_mine_back() {
    let (app, mut window) = started().await;
    into_conflict(&app, &mut window).await;
    let reply = choose(&mut window, "theirs", 902).await;
    assert_eq!(reply["ok"], true, "{reply}");
    until_texts(&mut window, &["one, edited"]).await;
    let on_disk: Value =
        serde_json::from_str(&fs::read_to_string(&app.board).expect("read")).expect("JSON");
    assert_eq!(on_disk["title"], "Theirs");
    // Mine is one Ctrl+Z away, and then saved.
    window.undo(false).await;
    until_texts(&mut window, &["one", "two"]).await;
    app.file_until("mine back", |v| file_texts(v) == ["one", "two"]);
}

#[tokio::test]
async fn open_both_keeps_theirs_here_and_mine_as_a_new_board_beside() {
    let (app, mut window) = started().await;
    into_conflict(&app, &mut window).await;
    let reply = choose(&mut window, "both", 903).await;
    assert_eq!(reply["ok"], true, "{reply}");
    let opened = reply["result"]["opened"].as_u64().expect("a board opened");
    until_texts(&mut window, &["one, edited"]).await;
    // Mine, saved beside the file under a name that says what it is.
    let mine: Vec<PathBuf> = fs::read_dir(app.dir.path())
        .expect("list")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("plan.conflict-"))
        })
        .collect();
    assert_eq!(mine.len(), 1, "{mine:?}");
    let kept: Value =
        serde_json::from_str(&fs::read_to_string(&mine[0]).expect("read")).expect("JSON");
    assert_eq!(file_texts(&kept), ["one", "two"]);
    // It is open in the app, and a window can show it.
    window.send(json!({"t": "hello", "board": opened})).await;
    let shown = window
        .until(|m| m["t"] == "board" && m["board"] == opened)
        .await;
    assert_eq!(shown["path"], mine[0].display().to_string());
    until_texts(&mut window, &["one", "two"]).await;
}

// ---- failed saves are tried again ----

#[tokio::test]
async fn a_failed_save_is_retried_once_the_cause_is_gone() {
    let (app, mut window) = started().await;
    let away = break_the_file(&app.board);
    add(&mut window, "two").await;
    let failed = window
        .until(|m| m["t"] == "board" && m["save"] == "error")
        .await;
    let words = failed["save_error"].as_str().expect("words");
    assert!(!words.contains("save_board"), "words for a person: {words}");
    // An agent's edit meanwhile is answered as a success, and must not be lost.
    let agent = Session::start_with(
        Era::Handshake,
        tempfile::tempdir().expect("dir"),
        &app.runtime,
    )
    .await;
    agent.ok("add_shape", json!({"text": "agent"})).await;
    // The folder goes, the file comes back as it was: the save goes through.
    fs::remove_dir(&app.board).expect("remove the folder");
    fs::rename(&away, &app.board).expect("put the file back");
    app.file_until("the retried save", |v| {
        file_texts(v) == ["agent", "one", "two"]
    });
    window
        .until(|m| m["t"] == "board" && m["save"] == "saved")
        .await;
    agent.close().await;
}

#[tokio::test]
async fn a_deleted_file_is_said_in_words_and_ctrl_s_writes_it_again() {
    let (app, mut window) = started().await;
    fs::remove_file(&app.board).expect("delete the file");
    add(&mut window, "two").await;
    let failed = window
        .until(|m| m["t"] == "board" && m["save"] == "error")
        .await;
    let words = failed["save_error"].as_str().expect("words");
    assert!(
        words.contains("is gone") && words.contains("Ctrl+S"),
        "{words}"
    );
    assert!(!app.board.exists(), "not written back without being asked");
    window.send(json!({"t": "save"})).await;
    app.file_until("written again", |v| file_texts(v) == ["one", "two"]);
}

// ---- stopping with unsaved changes ----

#[tokio::test]
async fn stopping_with_unsaved_changes_keeps_them_and_open_offers_them() {
    let (app, mut window) = started().await;
    let away = unsaved_two(&app, &mut window).await;
    drop(window);
    let board = app.board.clone();
    let state = app.state.clone();
    let (dir, runtime, told) = app.stop_told();
    // The path is printed, the copy is private and holds the changes.
    let line = told
        .lines()
        .find(|l| l.contains("were kept in"))
        .unwrap_or_else(|| panic!("no word of the kept changes: {told}"));
    let copy = PathBuf::from(
        line.split("were kept in ")
            .nth(1)
            .and_then(|rest| rest.split("; ").next())
            .expect("a path"),
    );
    assert!(copy.starts_with(state.join("recovery")), "{line}");
    assert_eq!(mode(&copy), 0o600);
    let kept: Value =
        serde_json::from_str(&fs::read_to_string(&copy).expect("read")).expect("JSON");
    assert_eq!(file_texts(&kept), ["one", "two"]);

    // The file comes back as it was; the next `inkboard open` offers the copy,
    // on the terminal and on the page.
    fs::remove_dir(&board).expect("remove the folder");
    fs::rename(&away, &board).expect("put the file back");
    let app = App::start_in(dir, runtime, board);
    let cookie = app.sign_in();
    let mut window = app.window(&cookie).await;
    // The `board` message of the window's first hello was read on the way in.
    window.send(json!({"t": "hello"})).await;
    let shown = window.until(|m| m["t"] == "board").await;
    assert_eq!(shown["offer"]["kind"], "recovered", "{shown}");
    assert_eq!(shown["offer"]["copy"], copy.display().to_string());
    let said = app.stderr();
    assert!(said.contains(&copy.display().to_string()), "{said}");
    assert_eq!(
        texts(&window),
        ["one"],
        "the file as it is, until the person chooses"
    );
    // Restoring puts them on the board and in the file; the copy goes.
    let reply = choose(&mut window, "mine", 904).await;
    assert_eq!(reply["ok"], true, "{reply}");
    until_texts(&mut window, &["one", "two"]).await;
    app.file_until("restored", |v| file_texts(v) == ["one", "two"]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while copy.exists() {
        assert!(std::time::Instant::now() < deadline, "the copy stays");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[tokio::test]
async fn stopping_with_everything_saved_keeps_nothing() {
    let (app, window) = started().await;
    drop(window);
    let state = app.state.clone();
    let (_dir, _runtime, told) = app.stop_told();
    assert!(!told.contains("kept in"), "{told}");
    let kept = fs::read_dir(state.join("recovery"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(kept, 0);
}

/// `inkboard open` without a file, in `runtime`; its stderr goes to `stderr`.
fn open_untitled(dir: &Path, runtime: &Path, stderr: &Path) -> std::process::Child {
    use std::io::BufRead;
    let mut child = std::process::Command::new(common::BIN)
        .args(["open", "--no-browser", "--port", "0"])
        .current_dir(dir)
        .env("INKBOARD_RUNTIME_DIR", runtime)
        .env("INKBOARD_STATE_DIR", runtime.join("state"))
        .env_remove("INKBOARD_LOG")
        .stdout(std::process::Stdio::piped())
        .stderr(fs::File::create(stderr).expect("a stderr file"))
        .spawn()
        .expect("spawn inkboard open");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("inkboard open prints its address");
    child
}

fn terminate(child: &mut std::process::Child) {
    // SAFETY: kill has no memory-safety preconditions.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    let _ = child.wait();
}

#[test]
fn an_untitled_board_with_changes_is_kept_at_exit_and_named_next_time() {
    let dir = tempfile::tempdir().expect("dir");
    let runtime = dir.path().join("runtime");
    common::private_dir(&runtime);
    let first = runtime.join("stderr-1.txt");
    let mut app = open_untitled(dir.path(), &runtime, &first);
    // An agent's call without a path goes to the board on screen, and succeeds.
    let added = std::process::Command::new(common::BIN)
        .args(["call", "add_shape", r#"{"text": "untitled work"}"#])
        .current_dir(dir.path())
        .env("INKBOARD_RUNTIME_DIR", &runtime)
        .env_remove("INKBOARD_LOG")
        .output()
        .expect("inkboard call runs");
    assert!(added.status.success(), "{added:?}");
    terminate(&mut app);
    let told = fs::read_to_string(&first).expect("stderr");
    let copy = told
        .lines()
        .find_map(|l| l.split("was kept in ").nth(1))
        .and_then(|rest| rest.split("; ").next())
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("no word of the kept board: {told}"));
    assert!(copy.starts_with(runtime.join("state/recovery")), "{told}");
    assert_eq!(mode(&copy), 0o600);
    let kept: Value =
        serde_json::from_str(&fs::read_to_string(&copy).expect("read")).expect("JSON");
    assert_eq!(file_texts(&kept), ["untitled work"]);
    // The next `inkboard open` without a file says where it is.
    let second = runtime.join("stderr-2.txt");
    let mut app = open_untitled(dir.path(), &runtime, &second);
    terminate(&mut app);
    let told = fs::read_to_string(&second).expect("stderr");
    assert!(told.contains(&copy.display().to_string()), "{told}");
    assert!(
        !told.contains("was kept in"),
        "an unchanged board is not kept: {told}"
    );
}

/// A small tmpfs mounted for one test, unmounted when dropped.
struct SmallDisk(PathBuf);

impl SmallDisk {
    /// Mounts `size` of tmpfs at `at`; `None` where this machine may not mount.
    fn mount(at: &Path, size: &str) -> Option<SmallDisk> {
        fs::create_dir_all(at).ok()?;
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .stderr(std::process::Stdio::null())
            .status()
            .ok()?;
        mounted.success().then(|| SmallDisk(at.to_path_buf()))
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

#[tokio::test]
async fn a_full_disk_is_said_in_words_and_the_save_goes_through_once_space_is_freed() {
    let dir = tempfile::tempdir().expect("dir");
    let runtime = dir.path().join("runtime");
    let Some(disk) = SmallDisk::mount(&dir.path().join("disk"), "512k") else {
        // Mounting needs root (or a user namespace): CI's containers allow it.
        common::skip("this machine cannot mount a tmpfs");
        return;
    };
    let board = disk.0.join("plan.inkboard");
    let made = std::process::Command::new(common::BIN)
        .arg("new")
        .arg(&board)
        .env("INKBOARD_RUNTIME_DIR", &runtime)
        .output()
        .expect("inkboard new");
    assert!(made.status.success(), "{made:?}");
    let app = App::start_in(dir, runtime, board.clone());
    let cookie = app.sign_in();
    let mut window = app.window(&cookie).await;
    add(&mut window, "one").await;
    app.file_until("the first save", |v| file_texts(v) == ["one"]);
    // Fill the disk to the last byte.
    let filler = disk.0.join("filler");
    {
        use std::io::Write;
        let mut f = fs::File::create(&filler).expect("filler");
        let block = vec![b'x'; 4096];
        while f.write_all(&block).is_ok() {}
        let _ = f.write_all(b"x");
    }
    let long = "a change that needs room on the disk ".repeat(40);
    add(&mut window, &long).await;
    let failed = window
        .until(|m| m["t"] == "board" && m["save"] == "error")
        .await;
    let words = failed["save_error"].as_str().expect("words");
    assert!(words.contains("The disk is full"), "{words}");
    assert!(words.contains("free some space"), "{words}");
    // Space is freed: the save goes through on its own.
    fs::remove_file(&filler).expect("free the space");
    let saved = app.file_until("the save once space is back", |v| {
        file_objects(v).len() == 2
    });
    assert!(file_texts(&saved).contains(&long));
    window
        .until(|m| m["t"] == "board" && m["save"] == "saved")
        .await;
    drop(window);
    drop(app);
}
