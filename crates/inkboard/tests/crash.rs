//! Crash safety, shown by killing the real processes: `inkboard batch`,
//! `inkboard mcp` and `inkboard open` are stopped with SIGKILL at random moments
//! while they save, hundreds of times. After every kill the board file must load
//! with the real loader and be exactly one of the boards that was saved (the one
//! before or the one after, never a mix or half of one); whatever the dead process
//! left beside it (a temporary file, a stale discovery file) must
//! never pass for a board, and the next process must work in that folder.
//!
//! The temporary files of killed saves are removed by a later save, once they are
//! older than [`file::STALE_TEMP_AGE`] and no process has their pid (see
//! `inkboard-format`'s `file/temp.rs` for why both): after the kills, a save keeps
//! every leftover (they are young), and once they are made to look that old, the
//! next save removes all whose pid is dead.
//!
//! After every kill of `inkboard open`, the application is started again on the
//! same board: it replaces the stale discovery file, its page loads with its
//! one-time code, a path-less `inkboard call` from another process reaches it,
//! and its window shows what the file holds. The application keeps no journal:
//! the changes it had not yet autosaved die with it (counted as `changes_lost`),
//! and there is nothing to offer back on reopening.
//!
//! Each test prints one parseable line of figures, `crash-stats <what>: key=value
//! ...`, for RELIABILITY.md. `INKBOARD_CRASH_RUNS` sets the kills per test for
//! `batch` and `mcp` (default 200), `INKBOARD_CRASH_APP_RUNS` those of `open`
//! (default 30), and `INKBOARD_CRASH_SEED` replays the random delays of a run
//! (each test prints its seed).

mod common;

use std::fs::{self, File};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use common::app::{file_objects, App, SignedIn};
use common::BIN;
use inkboard_format::{file, FileKind};
use serde_json::{json, Value};
use tempfile::TempDir;

/// The shapes already on the boards the batch and MCP tests save: enough for a
/// file of about a megabyte, whose save takes a few milliseconds.
const BIG: usize = 2000;

/// The shapes on the board the application starts with (fewer: the window opened
/// after every restart draws them all).
const LIVE_SEED: usize = 500;

/// The shapes each killed batch adds.
const ADDED: usize = 20;

// ---- the batch ----

#[test]
fn batch_killed_during_saves() {
    let runs = runs("INKBOARD_CRASH_RUNS", 200);
    let mut rng = Rng::seeded("batch");
    let folder = Folder::new("big.inkboard", BIG, true);
    let ops = folder.ops(BIG, ADDED, true);
    let (new, time) = folder.completed(|| {
        let started = Instant::now();
        let mut child = folder.batch(&ops).spawn().expect("inkboard batch starts");
        let watch = folder.watch(child.id(), started);
        assert!(
            child.wait().expect("wait").success(),
            "inkboard batch failed"
        );
        watch.join(started.elapsed())
    });
    let mut tally = Tally::default();
    for run in 0..runs {
        folder.restore();
        let started = Instant::now();
        let mut child = folder.batch(&ops).spawn().expect("inkboard batch starts");
        time.wait_to_kill(&mut rng, run, &folder, child.id(), started);
        let finished = child.try_wait().expect("try_wait").is_some();
        if !finished {
            let _ = child.kill();
        }
        let _ = child.wait();
        tally.record(&folder, child.id(), &new, finished, run % 2 == 1);
    }
    let cleaned = folder.finish_with_leftovers(&new, || {
        let out = folder.batch(&ops).output().expect("inkboard batch runs");
        assert!(
            out.status.success(),
            "inkboard batch among leftovers: {out:?}"
        );
    });
    tally.print("batch", runs, &time, folder.old.len(), cleaned);
}

// ---- the MCP server ----

#[test]
fn mcp_killed_during_saves() {
    let runs = runs("INKBOARD_CRASH_RUNS", 200);
    let mut rng = Rng::seeded("mcp");
    let folder = Folder::new("big.inkboard", BIG, true);
    let call = folder.batch_call(BIG, ADDED, true);
    // Timed from the call, the server already running.
    let (new, time) = folder.completed(|| {
        let mut mcp = Mcp::start(&folder);
        let started = Instant::now();
        let watch = folder.watch(mcp.child.id(), started);
        mcp.send(&call);
        let answer = mcp.read();
        let timeline = watch.join(started.elapsed());
        assert_eq!(answer["id"], 2, "{answer}");
        assert_eq!(answer["result"]["isError"], false, "{answer}");
        mcp.kill();
        timeline
    });
    let mut tally = Tally::default();
    for run in 0..runs {
        folder.restore();
        let mut mcp = Mcp::start(&folder);
        let pid = mcp.child.id();
        let started = Instant::now();
        mcp.send(&call);
        time.wait_to_kill(&mut rng, run, &folder, pid, started);
        mcp.kill();
        tally.record(&folder, pid, &new, false, run % 2 == 1);
    }
    let cleaned = folder.finish_with_leftovers(&new, || {
        let mut mcp = Mcp::start(&folder);
        mcp.send(&call);
        let answer = mcp.read();
        assert_eq!(answer["result"]["isError"], false, "{answer}");
        mcp.kill();
    });
    tally.print("mcp", runs, &time, folder.old.len(), cleaned);
}

/// A save's temporary file is named after the process and a count of its saves;
/// a crash leaves one behind, and pids come round again (every 32,768 processes
/// on many Linux systems), so a later process may meet a leftover with the very
/// name it is about to use. Its save must still go through.
#[test]
fn a_leftover_temp_file_with_the_same_name_is_no_obstacle() {
    let folder = Folder::new("b.inkboard", 0, false);
    let mut mcp = Mcp::start(&folder);
    for n in 0..4 {
        // What a dead process of the same pid would have left at its n-th save.
        fs::write(
            folder
                .dir
                .path()
                .join(format!(".b.inkboard.{}.{n}.tmp", mcp.child.id())),
            "{\"half\": ",
        )
        .expect("write a leftover");
    }
    mcp.send(&folder.batch_call(0, 1, false));
    let answer = mcp.read();
    mcp.kill();
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    let loaded = file::load(&folder.board).expect("the board loads");
    assert_eq!(loaded.board.object_count(), 1);
}

// ---- the application ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_killed_while_it_autosaves() {
    let runs = runs("INKBOARD_CRASH_APP_RUNS", 30);
    let mut rng = Rng::seeded("open");
    let folder = Folder::new("live.inkboard", LIVE_SEED, false);
    let Folder {
        dir,
        board,
        runtime,
        ..
    } = folder;
    let watched = dir.path().to_path_buf();
    // The board holds shapes "0".."count-1", in order: each change adds the next.
    let mut count = LIVE_SEED;
    let mut app = App::start_in(dir, runtime, board.clone());
    let (mut at_save, mut mid_write, mut sent_total, mut lost_total) = (0, 0, 0, 0);
    let mut stale = None;
    let started = Instant::now();
    for run in 0..runs {
        let cookie = serves(&app, count, stale.as_ref())
            .unwrap_or_else(|e| panic!("run {run}: after the restart, {e}"));
        let mut window = app.window(&cookie).await;
        window.until_count(count).await;

        // Changes, one after another, until the kill: every other run at a random
        // moment, the others right when a save has begun (its temporary file is
        // there), a random moment later.
        let sent = Arc::new(AtomicUsize::new(0));
        let changes = {
            let sent = sent.clone();
            async move {
                loop {
                    let n = count + sent.fetch_add(1, Ordering::SeqCst);
                    let (x, y) = grid(n);
                    let reply = window
                        .call(
                            "add_shape",
                            json!({"page": 1, "text": n.to_string(), "x": x, "y": y, "w": 60, "h": 30}),
                        )
                        .await;
                    assert_eq!(reply["ok"], true, "{reply}");
                }
            }
        };
        let targeted = run % 2 == 1;
        let pid = app.pid();
        let name = board_name(&board);
        let dir = watched.clone();
        let delay = if targeted {
            rng.below(Duration::from_millis(3))
        } else {
            rng.below(Duration::from_millis(1200))
        };
        let trigger = tokio::task::spawn_blocking(move || {
            let seen = targeted && wait_for_temp(&dir, &name, pid, Duration::from_secs(5));
            spin_until(Instant::now() + delay);
            seen
        });
        let seen = tokio::select! {
            _ = changes => unreachable!("the changes never end"),
            seen = trigger => seen.expect("the trigger"),
        };
        at_save += usize::from(seen);
        let (dir, runtime) = app.crash();

        // The file is one of the saved boards: shapes 0..k, with k at least what
        // the application loaded and at most what was sent.
        let sent = sent.load(Ordering::SeqCst);
        let k = prefix_state(&board);
        assert!(
            count <= k && k <= count + sent,
            "run {run}: the file holds {k} shapes, the application started with {count} and was sent {sent} more"
        );
        sent_total += sent;
        lost_total += count + sent - k;
        let temps = leftovers(dir.path(), &board);
        mid_write += temps
            .iter()
            .filter(|t| temp_pid(t, &board) == Some(pid))
            .count();

        // The discovery file is still there, naming the dead process.
        let left: Value = serde_json::from_str(
            &fs::read_to_string(runtime.join("app.json")).expect("the discovery file is left"),
        )
        .expect("the discovery file is JSON");
        assert_eq!(left["pid"], pid, "run {run}");
        assert!(!alive(pid), "run {run}: pid {pid} still lives");
        stale = Some(left);

        count = k;
        app = App::start_in(dir, runtime, board.clone());
    }
    // The last restart serves every shape the file holds.
    let cookie = serves(&app, count, stale.as_ref())
        .unwrap_or_else(|e| panic!("after the last restart, {e}"));
    let mut window = app.window(&cookie).await;
    window.until_count(count).await;
    let mut texts: Vec<usize> = window
        .objects
        .values()
        .filter_map(|o| o["text"].as_str()?.parse().ok())
        .collect();
    texts.sort_unstable();
    assert!(
        texts.into_iter().eq(0..count),
        "the window shows shapes 0..{count}"
    );

    // The leftovers of the killed autosaves, made old, go with the next autosave.
    let left = leftovers(&watched, &board);
    set_written(&left, long_ago());
    let survey = Survey::take(&watched, &board);
    let (x, y) = grid(count);
    let reply = window
        .call(
            "add_shape",
            json!({"page": 1, "text": count.to_string(), "x": x, "y": y, "w": 60, "h": 30}),
        )
        .await;
    assert_eq!(reply["ok"], true, "{reply}");
    // Stopped, so that every save it began has ended (it saves what is left on the way out).
    drop(window);
    let (dir, _runtime) = app.stop();
    assert_eq!(prefix_state(&board), count + 1, "the last change was saved");
    let (removed, kept) = survey.check_after_save(&watched, &board);
    drop(dir);
    eprintln!(
        "crash-stats open: runs={runs} at_save={at_save} mid_write={mid_write} changes_sent={sent_total} changes_lost={lost_total} shapes={count} leftovers={} removed={removed} kept_live={kept} seconds={:.1}",
        left.len(),
        started.elapsed().as_secs_f64()
    );
}

/// Checks that `app`, just started on a board of `count` shapes (after the kill of
/// the application that left `stale`, its discovery file, if any), serves it: its
/// discovery file names it and this board, the page loads with its one-time code,
/// and a path-less `inkboard call` from another process (which finds the
/// application through that file) reads the board through it. Gives what the
/// signed-in browser holds, or what went wrong.
fn serves(app: &App, count: usize, stale: Option<&Value>) -> Result<SignedIn, String> {
    let info = app.discovery();
    let board = app.board.display().to_string();
    if info["pid"] != app.pid() || info["port"] != app.port || info["paths"] != json!([board]) {
        return Err(format!(
            "the discovery file does not name pid {}, port {} and {board}: {info}",
            app.pid(),
            app.port
        ));
    }
    // The token is the user's and outlives a launch: the stale file is told by its
    // pid, not its token.
    if stale.is_some_and(|stale| stale["pid"] == info["pid"]) {
        return Err("the discovery file still names the killed application".into());
    }
    let cookie = app.sign_in();
    let page = app.get("/", &format!("Cookie: {}", cookie.cookie));
    if page.status != 200 || !page.body.contains("/main.js\"></script>") {
        return Err(format!(
            "the page does not load with the session cookie: {page:?}"
        ));
    }
    let out = Command::new(BIN)
        .args(["call", "read_board", "{}"])
        .current_dir(app.dir.path())
        .env("INKBOARD_RUNTIME_DIR", &app.runtime)
        .env_remove("INKBOARD_LOG")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("inkboard call does not run: {e}"))?;
    let read: Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "a path-less read_board answers no JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })?;
    let shown = read["page"]["objects"].as_array().map(Vec::len);
    if !out.status.success() || shown != Some(count) {
        return Err(format!(
            "a path-less read_board through the application shows {shown:?} objects, not {count}"
        ));
    }
    Ok(cookie)
}

/// Reads `board` with the real loader and checks it holds shapes "0".."k-1" in
/// that order; gives k.
fn prefix_state(board: &Path) -> usize {
    let loaded = file::load(board)
        .unwrap_or_else(|e| panic!("{} does not load after the kill: {e}", board.display()));
    let value: Value = serde_json::from_str(&fs::read_to_string(board).expect("read the board"))
        .expect("the board is JSON");
    let objects = file_objects(&value);
    assert_eq!(loaded.board.object_count(), objects.len());
    for (i, object) in objects.iter().enumerate() {
        assert_eq!(
            object["text"].as_str(),
            Some(i.to_string().as_str()),
            "shape {i} of {}: the file is not a state the board went through",
            objects.len()
        );
    }
    objects.len()
}

/// Waits (polling) until a save of process `pid` has its temporary file beside
/// `name` in `dir`; false if none appeared within `limit`.
fn wait_for_temp(dir: &Path, name: &str, pid: u32, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if has_temp(dir, name, pid) {
            return true;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    false
}

/// Whether process `pid` exists.
fn alive(pid: u32) -> bool {
    // SAFETY: kill with signal 0 only checks that the process exists.
    unsafe { libc::kill(pid as libc::pid_t, 0) == 0 }
}

// ---- the folder under test ----

/// A scratch folder with a board, what it held before the kills, and an empty
/// runtime folder (so no running application is ever found).
struct Folder {
    dir: TempDir,
    board: PathBuf,
    runtime: PathBuf,
    /// The board every killed process starts from.
    old: Vec<u8>,
}

impl Folder {
    /// A board `name` holding `shapes` shapes, made with the real binary; `long`
    /// gives them a paragraph of text each (see [`label`]).
    fn new(name: &str, shapes: usize, long: bool) -> Folder {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let runtime = dir.path().join("runtime");
        common::private_dir(&runtime);
        let board = dir.path().join(name);
        let mut folder = Folder {
            dir,
            board,
            runtime,
            old: Vec::new(),
        };
        let made = folder
            .command()
            .arg("new")
            .arg(&folder.board)
            .output()
            .expect("inkboard new runs");
        assert!(made.status.success(), "inkboard new: {made:?}");
        for from in (0..shapes).step_by(200) {
            let ops = folder.ops(from, (shapes - from).min(200), long);
            let out = folder.batch(&ops).output().expect("inkboard batch runs");
            assert!(out.status.success(), "inkboard batch: {out:?}");
        }
        folder.old = fs::read(&folder.board).expect("read the board");
        folder
    }

    /// `inkboard` in the folder, with its own runtime folder, quiet.
    fn command(&self) -> Command {
        common::quiet_inkboard(self.dir.path(), &self.runtime)
    }

    /// `inkboard batch BOARD OPS`.
    fn batch(&self, ops: &Path) -> Command {
        let mut cmd = self.command();
        cmd.arg("batch").arg(&self.board).arg(ops);
        cmd
    }

    /// The operations adding shapes `from..from + n`.
    fn operations(from: usize, n: usize, long: bool) -> Value {
        (from..from + n)
            .map(|i| {
                let (x, y) = grid(i);
                json!({"tool": "add_shape", "args": {"text": label(i, long), "x": x, "y": y, "w": 60, "h": 30}})
            })
            .collect()
    }

    /// Writes [`operations`](Self::operations) to a file (outside the board's
    /// folder, which holds only what inkboard writes); gives its path.
    fn ops(&self, from: usize, n: usize, long: bool) -> PathBuf {
        let path = self.runtime.join(format!("ops-{from}-{n}.json"));
        fs::write(&path, Folder::operations(from, n, long).to_string())
            .expect("write the operations");
        path
    }

    /// The same as a `tools/call` of `batch`.
    fn batch_call(&self, from: usize, n: usize, long: bool) -> Value {
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "batch",
            "arguments": {"path": self.board, "operations": Folder::operations(from, n, long)},
        }})
    }

    /// Watches a save by process `pid` begun at `started`: when its temporary
    /// file appears and when the board is replaced (a new inode).
    fn watch(&self, pid: u32, started: Instant) -> Watch {
        let (dir, board) = (self.dir.path().to_path_buf(), self.board.clone());
        let old = inode(&board);
        Watch(std::thread::spawn(move || {
            let name = board_name(&board);
            let mut temp = None;
            while started.elapsed() < Duration::from_secs(20) {
                if temp.is_none() && has_temp(&dir, &name, pid) {
                    temp = Some(started.elapsed());
                }
                if inode(&board) != old {
                    let renamed = started.elapsed();
                    return (temp.unwrap_or(renamed), renamed);
                }
                std::thread::sleep(Duration::from_micros(50));
            }
            panic!("pid {pid} never replaced {}", board.display());
        }))
    }

    /// Copies the board as the kill of `pid` left it, the old and the new board
    /// to a folder that outlives the test, for a failure to show; gives the folder.
    fn keep(&self, pid: u32, new: &[u8]) -> PathBuf {
        let kept = std::env::temp_dir().join(format!("inkboard-crash-{pid}"));
        let _ = fs::create_dir_all(&kept);
        let _ = fs::copy(&self.board, kept.join("left.inkboard"));
        let _ = fs::write(kept.join("old.inkboard"), &self.old);
        let _ = fs::write(kept.join("new.inkboard"), new);
        kept
    }

    /// Puts the old board back.
    fn restore(&self) {
        fs::write(&self.board, &self.old).expect("restore the board");
    }

    /// Runs `complete` (a save that is not killed) three times from the old board;
    /// gives the board it saved, the same every time, and when to kill.
    fn completed(&self, complete: impl Fn() -> Timeline) -> (Vec<u8>, Aim) {
        let mut times = Vec::new();
        let mut new: Option<Vec<u8>> = None;
        for _ in 0..3 {
            self.restore();
            times.push(complete());
            let saved = fs::read(&self.board).expect("read the board");
            assert!(saved != self.old, "the save changed nothing");
            if let Some(new) = &new {
                assert!(
                    new == &saved,
                    "two runs of the same save wrote different boards"
                );
            }
            new = Some(saved);
        }
        self.restore();
        let mut lives: Vec<Duration> = times.iter().map(|t| t.done).collect();
        lives.sort();
        // The shortest write: a busy machine only ever makes them longer.
        let write = times
            .iter()
            .map(|t| t.renamed.saturating_sub(t.temp))
            .min()
            .unwrap_or_default()
            .clamp(Duration::from_micros(500), Duration::from_millis(3));
        let aim = Aim {
            life: lives[1],
            write,
        };
        (new.expect("a board"), aim)
    }

    /// After the kills, with every leftover still there: one more save (`again`)
    /// goes through, writes the new board and keeps the leftovers, which are
    /// young; once they are made older than [`file::STALE_TEMP_AGE`], the same
    /// save removes them (as [`Survey`] checks); the CLI then reads the board, not
    /// a leftover.
    fn finish_with_leftovers(&self, new: &[u8], again: impl Fn()) -> Cleaned {
        let (dir, board) = (self.dir.path(), &self.board);
        let save = || {
            let survey = Survey::take(dir, board);
            self.restore();
            again();
            assert!(
                fs::read(board).expect("read") == new,
                "the save among the leftovers wrote another board"
            );
            survey.check_after_save(dir, board)
        };
        let left = leftovers(dir, board);
        save();
        set_written(&left, long_ago());
        let (removed, kept) = save();
        let out = self
            .command()
            .stdout(Stdio::piped())
            .args(["call", "read_board"])
            .arg(json!({"path": self.board}).to_string())
            .output()
            .expect("inkboard call runs");
        assert!(out.status.success(), "read_board: {out:?}");
        let read: Value = serde_json::from_slice(&out.stdout).expect("read_board answers JSON");
        let want = file::load(&self.board).expect("loads").board.object_count();
        assert_eq!(
            read["page"]["objects"].as_array().map(Vec::len),
            Some(want),
            "read_board sees the board, not a leftover"
        );
        Cleaned {
            leftovers: left.len(),
            removed,
            kept,
        }
    }
}

/// What the save after the kills did with their leftovers.
#[derive(Clone, Copy, Debug)]
struct Cleaned {
    /// The temporary files the kills left.
    leftovers: usize,
    /// Those the save removed, once they were old.
    removed: usize,
    /// Those it kept because a live process had their pid (pids come round again).
    kept: usize,
}

/// The leftovers beside a board before a save, with what the save must do with
/// each: keep those younger than [`file::STALE_TEMP_AGE`], remove the older ones
/// whose pid no process has. Either is right within half a minute of that age,
/// or for a pid that a live process has been given meanwhile (pids come round
/// again, every 32,768 processes on many Linux systems, and a long run starts many).
struct Survey(Vec<Left>);

/// A leftover as a [`Survey`] found it.
struct Left {
    path: PathBuf,
    /// How long ago it was last written.
    age: Duration,
    /// Its writer's, from its name.
    pid: u32,
    /// Whether a process had that pid.
    pid_alive: bool,
}

impl Survey {
    fn take(dir: &Path, board: &Path) -> Survey {
        let now = SystemTime::now();
        Survey(
            leftovers(dir, board)
                .into_iter()
                .map(|path| {
                    let written = fs::metadata(&path)
                        .and_then(|m| m.modified())
                        .expect("a leftover's time");
                    let age = now.duration_since(written).unwrap_or_default();
                    let pid = temp_pid(&path, board).expect("a leftover's pid");
                    Left {
                        path,
                        age,
                        pid,
                        pid_alive: alive(pid),
                    }
                })
                .collect(),
        )
    }

    /// Checks what a save that has ended did with the leftovers; gives how many it
    /// removed and how many old ones it kept (their pid taken by a live process).
    fn check_after_save(self, dir: &Path, board: &Path) -> (usize, usize) {
        let margin = Duration::from_secs(30);
        let after = leftovers(dir, board);
        let (mut removed, mut kept) = (0, 0);
        for Left {
            path,
            age,
            pid,
            pid_alive,
        } in &self.0
        {
            let file = path.file_name().expect("a name").to_string_lossy();
            let there = after.contains(path);
            removed += usize::from(!there);
            if *age + margin < file::STALE_TEMP_AGE {
                assert!(
                    there,
                    "the save removed {file}, written {age:?} ago: its writer may still be at it"
                );
            } else if *age > file::STALE_TEMP_AGE + margin && there {
                assert!(
                    *pid_alive || alive(*pid),
                    "the save kept {file}, written {age:?} ago by pid {pid}, which no process has"
                );
                kept += 1;
            }
        }
        let before: Vec<&PathBuf> = self.0.iter().map(|left| &left.path).collect();
        assert!(
            after.iter().all(|path| before.contains(&path)),
            "the save left a temporary file of its own: {after:?}"
        );
        (removed, kept)
    }
}

/// A moment before [`file::STALE_TEMP_AGE`] ago, with a minute to spare.
fn long_ago() -> SystemTime {
    SystemTime::now() - file::STALE_TEMP_AGE - Duration::from_secs(60)
}

/// Sets the time the files at `paths` were last written.
fn set_written(paths: &[PathBuf], when: SystemTime) {
    for path in paths {
        File::options()
            .write(true)
            .open(path)
            .and_then(|f| f.set_modified(when))
            .unwrap_or_else(|e| panic!("set the time of {}: {e}", path.display()));
    }
}

/// The text of shape `i`: its number, and with `long` a paragraph after it, so
/// that 2,000 shapes make a file of about a megabyte.
fn label(i: usize, long: bool) -> String {
    if long {
        format!(
            "{i}: {}",
            "All work and no play makes a board a dull board. ".repeat(5)
        )
    } else {
        i.to_string()
    }
}

/// The moments of a save, from the start of the process or call.
#[derive(Clone, Copy, Debug)]
struct Timeline {
    /// Its temporary file was first seen.
    temp: Duration,
    /// The board was replaced.
    renamed: Duration,
    /// The process exited, or the call was answered.
    done: Duration,
}

/// When to kill, from three saves that were not killed.
#[derive(Clone, Copy, Debug)]
struct Aim {
    /// The median time from the start of the process (or call) to its end.
    life: Duration,
    /// The shortest time from the temporary file's creation to the rename.
    write: Duration,
}

impl Aim {
    /// Waits for the moment to kill process `pid`, whose save began at `started`.
    /// Even runs kill at any moment of the save's life (start-up included, and a
    /// bit past its end), evenly; odd runs aim at the write, which is short next
    /// to the rest and would be hit only now and then: they wait until the
    /// temporary file appears, then kill at an even moment of the write's usual
    /// length (and a bit past it).
    fn wait_to_kill(&self, rng: &mut Rng, run: usize, folder: &Folder, pid: u32, started: Instant) {
        if run.is_multiple_of(2) {
            spin_until(started + rng.below(self.life.mul_f64(1.2)));
            return;
        }
        let delay = rng.below(self.write.mul_f64(1.3));
        let name = board_name(&folder.board);
        let old = inode(&folder.board);
        // On a busy machine a save can take many times its usual length.
        let give_up = started + Duration::from_secs(10);
        while !has_temp(folder.dir.path(), &name, pid)
            && inode(&folder.board) == old
            && Instant::now() < give_up
        {
            std::thread::sleep(Duration::from_micros(50));
        }
        spin_until(Instant::now() + delay);
    }
}

/// A [`Folder::watch`] going on.
struct Watch(std::thread::JoinHandle<(Duration, Duration)>);

impl Watch {
    /// The timeline of a save that ended `done` after it began.
    fn join(self, done: Duration) -> Timeline {
        let (temp, renamed) = self.0.join().expect("the watcher");
        Timeline {
            temp,
            renamed,
            done,
        }
    }
}

/// The inode of the file at `path`: a save replaces it by another.
fn inode(path: &Path) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(path).map(|m| m.ino()).ok()
}

/// Whether a save of process `pid` has its temporary file beside `name` in `dir`.
fn has_temp(dir: &Path, name: &str, pid: u32) -> bool {
    let prefix = format!(".{name}.{pid}.");
    fs::read_dir(dir).into_iter().flatten().flatten().any(|e| {
        let n = e.file_name().to_string_lossy().into_owned();
        n.starts_with(&prefix) && n.ends_with(".tmp")
    })
}

/// Where shape `i` goes: a grid, so nothing overlaps and no placement is needed.
fn grid(i: usize) -> (f64, f64) {
    ((i % 50) as f64 * 80.0, (i / 50) as f64 * 50.0)
}

fn board_name(board: &Path) -> String {
    board
        .file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned()
}

/// Everything in `dir` besides the board, each checked to be a save's temporary
/// file that no one could take for a board.
fn leftovers(dir: &Path, board: &Path) -> Vec<PathBuf> {
    let name = board_name(board);
    let mut temps = Vec::new();
    for entry in fs::read_dir(dir).expect("list the folder") {
        let path = entry.expect("an entry").path();
        let file = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        if file == name || file == "runtime" {
            continue;
        }
        assert!(
            temp_pid(&path, board).is_some(),
            "{file} was left beside {name}: not a save's temporary file"
        );
        assert!(
            FileKind::from_path(&path).is_err(),
            "{file} has a board's name"
        );
        assert!(
            file::load(&path).is_err(),
            "the loader takes {file} for a board"
        );
        temps.push(path);
    }
    temps.sort();
    temps
}

/// The pid in the name of a save's temporary file for `board`
/// (`.NAME.PID.N.tmp`), if that is what `path` is.
fn temp_pid(path: &Path, board: &Path) -> Option<u32> {
    let file = path.file_name()?.to_string_lossy().into_owned();
    let rest = file
        .strip_prefix(&format!(".{}.", board_name(board)))?
        .strip_suffix(".tmp")?;
    let (pid, n) = rest.split_once('.')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok()
}

/// Where the kills landed, told by what they left: for the kills at any moment
/// and for those aimed at the write.
#[derive(Default)]
struct Tally {
    any: Landed,
    aimed: Landed,
    /// Of the kills at any moment, those that came after the process had exited.
    finished: usize,
}

/// Counts of kills by where they landed.
#[derive(Default)]
struct Landed {
    /// The old board, no temporary file: before the write began.
    before: usize,
    /// The old board and the dead process's temporary file: during the write.
    during: usize,
    /// The new board: after the rename.
    after: usize,
    /// Of `after`: the old board still under the temporary name it was swapped to.
    swapped_out: usize,
}

impl Tally {
    /// Checks the folder after process `pid` died and counts where it died.
    fn record(&mut self, folder: &Folder, pid: u32, new: &[u8], finished: bool, aimed: bool) {
        let now = fs::read(&folder.board).expect("the board is still there");
        file::load(&folder.board).unwrap_or_else(|e| {
            panic!(
                "after killing pid {pid}, the board does not load: {e} (kept in {})",
                folder.keep(pid, new).display()
            )
        });
        let mine: Vec<PathBuf> = leftovers(folder.dir.path(), &folder.board)
            .into_iter()
            .filter(|t| temp_pid(t, &folder.board) == Some(pid))
            .collect();
        let ours = !mine.is_empty();
        let landed = if aimed {
            &mut self.aimed
        } else {
            &mut self.any
        };
        if now == folder.old {
            assert!(!finished, "pid {pid} exited without saving");
            if ours {
                landed.during += 1;
            } else {
                landed.before += 1;
            }
        } else if now == new {
            // On Linux the new file trades places with the board (file/swap.rs): a
            // kill right after the swap leaves the OLD board under the temporary
            // name, for the next save to remove. Anything else left is a bug.
            for t in &mine {
                let left = fs::read(t).unwrap_or_default();
                assert!(
                    left == folder.old,
                    "pid {pid} put the new board in place yet left a temporary file that is not the old board: {}",
                    t.display()
                );
            }
            landed.swapped_out += usize::from(ours);
            landed.after += 1;
            self.finished += usize::from(finished);
        } else {
            panic!(
                "after killing pid {pid}, the board ({} bytes) is neither the old board ({} bytes) nor the new one ({} bytes) (all three kept in {})",
                now.len(),
                folder.old.len(),
                new.len(),
                folder.keep(pid, new).display()
            );
        }
    }

    fn print(&self, what: &str, runs: usize, time: &Aim, bytes: usize, cleaned: Cleaned) {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        eprintln!(
            "crash-stats {what}: runs={runs} before={} during={} after={} any_before={} any_during={} any_after={} exited_first={} aimed_before={} aimed_during={} aimed_after={} swapped_out={} life_ms={:.1} write_ms={:.1} file_bytes={bytes} leftovers={} removed={} kept_live={}",
            self.any.before + self.aimed.before,
            self.any.during + self.aimed.during,
            self.any.after + self.aimed.after,
            self.any.before,
            self.any.during,
            self.any.after,
            self.finished,
            self.aimed.before,
            self.aimed.during,
            self.aimed.after,
            self.any.swapped_out + self.aimed.swapped_out,
            ms(time.life),
            ms(time.write),
            cleaned.leftovers,
            cleaned.removed,
            cleaned.kept,
        );
    }
}

// ---- an MCP client by hand ----

/// `inkboard mcp` after the handshake, spoken to line by line.
struct Mcp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Mcp {
    fn start(folder: &Folder) -> Mcp {
        let mut child = folder
            .command()
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("inkboard mcp starts");
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut mcp = Mcp {
            child,
            stdin,
            stdout,
        };
        mcp.send(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "crash", "version": "1"},
            }}),
        );
        let answer = mcp.read();
        assert!(answer["result"]["serverInfo"].is_object(), "{answer}");
        mcp.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        mcp
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").expect("write to inkboard mcp");
        self.stdin.flush().expect("flush");
    }

    fn read(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("read inkboard mcp");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON-RPC ({e}): {line:?}"))
    }

    /// SIGKILL, and reap.
    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---- time and chance ----

/// `name` from the environment, else `default`.
fn runs(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Sleeps until `end`, precisely: the last stretch spins, since a kill a
/// millisecond late would miss the write it aimed at.
fn spin_until(end: Instant) {
    let now = Instant::now();
    if end > now + Duration::from_millis(2) {
        std::thread::sleep(end - now - Duration::from_millis(1));
    }
    while Instant::now() < end {
        std::hint::spin_loop();
    }
}

/// SplitMix64: enough chance for delays, and no dependency.
struct Rng(u64);

impl Rng {
    /// Seeded from `INKBOARD_CRASH_SEED` or the clock; says which.
    fn seeded(what: &str) -> Rng {
        let seed = std::env::var("INKBOARD_CRASH_SEED")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64)
                    .unwrap_or(1)
            });
        eprintln!("crash {what}: INKBOARD_CRASH_SEED={seed}");
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A duration from zero to `max`, evenly.
    fn below(&mut self, max: Duration) -> Duration {
        let nanos = max.as_nanos() as u64;
        Duration::from_nanos(self.next() % (nanos + 1))
    }
}
