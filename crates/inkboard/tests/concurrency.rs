//! Many writers at once on one board file, with the real processes: several
//! `inkboard mcp` servers (each a real MCP client session over stdio, with two
//! calls in flight at a time), several `inkboard` CLI processes one after
//! another, the application with a person editing in a window, and a plain
//! program that rewrites the file behind inkboard's back.
//!
//! Every writer labels what it adds uniquely and remembers what each answer said,
//! so the final file can be held against the answers: every write that reported
//! success is on the board exactly once (with the id its answer gave), a write
//! that failed left nothing, renamed objects carry their new label and deleted
//! ones are gone, the shared shape that every batch moves by one unit sits
//! exactly as far as the successful batches moved it (a lost update would show as
//! a shortfall), ids are unique, the file loads, and its revision counts the
//! successful writes. Failures other than the deliberate ones (a batch doomed by a
//! missing object) must be refusals that say what to do, and their wording is
//! checked.
//!
//! Each test prints one line of figures, `race-stats <what>: key=value ...`, for
//! RELIABILITY.md. `INKBOARD_RACE_ROUNDS` sets the rounds per writer (default 3; a
//! round is six writes; the test with the outside program, whose rounds are three
//! writes and whose writers are fewer, runs four times as many) and
//! `INKBOARD_RACE_STRIKES` the outside writes aimed at inkboard's saves (default
//! 30).

mod common;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::app::{file_objects, App, Window};
use common::{Era, Session, BIN};
use inkboard_format::file;
use serde_json::{json, Value};
use tempfile::TempDir;

/// Who writes at once (the person aside).
#[derive(Clone, Copy)]
struct Cast {
    /// `inkboard mcp` servers...
    servers: usize,
    /// ...with this many calls in flight each (a writer per lane).
    lanes: usize,
    /// Writers running `inkboard` CLI processes, one after another.
    cli: usize,
}

const FULL_CAST: Cast = Cast {
    servers: 4,
    lanes: 2,
    cli: 4,
};

/// Fewer writers beside the outside program, so that inkboard's saves leave it
/// room to write.
const OUTSIDE_CAST: Cast = Cast {
    servers: 2,
    lanes: 1,
    cli: 2,
};

/// An id no board here ever reaches: the object a doomed batch names.
const MISSING: &str = "s999999999";

/// The refusal of a save whose file changed under it three times running.
const CHANGED_ON_DISK: &str =
    "changed on disk since it was read, so it was not overwritten: read it again and redo the change";
/// The refusal of a call that waited too long for the file's lock.
const LOCKED: [&str; 2] = [
    "is locked by another inkboard process for more than",
    ": wait for it to finish, or stop it if it hangs",
];

// ---- inkboard writers only, no application ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_writers_on_one_file() {
    let rounds = setting("INKBOARD_RACE_ROUNDS", 3);
    let board = Board::new();
    let started = Instant::now();
    let writers = board.race(rounds, &FULL_CYCLE, FULL_CAST, None).await;
    let figures = board.check(&writers, Refusals::LockOnly);
    figures.print("file", rounds, started);
}

// ---- with the application open on the file ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_writers_through_the_application() {
    let rounds = setting("INKBOARD_RACE_ROUNDS", 3);
    let mut board = Board::new();
    // The application holds the board's folder from now on, and gives it back
    // when it stops.
    let dir = std::mem::replace(&mut board.dir, tempfile::tempdir().expect("a folder"));
    let app = App::start_in(dir, board.runtime.clone(), board.path.clone());
    let open = app.discovery()["paths"].clone();
    assert_eq!(
        open,
        json!([board.path]),
        "the application has the board open"
    );
    let cookie = app.sign_in();
    let window = app.window(&cookie).await;
    let started = Instant::now();
    let writers = board
        .race(rounds, &FULL_CYCLE, FULL_CAST, Some(window))
        .await;
    // Every success was answered by the application; SIGTERM makes it save.
    let (_dir, _) = tokio::task::spawn_blocking(move || app.stop())
        .await
        .expect("the application stops");
    let figures = board.check(&writers, Refusals::LockOnly);
    assert!(
        writers
            .iter()
            .any(|w| w.name == "person" && w.tally.successes > 0),
        "the person's edits went through"
    );
    figures.print("app", rounds, started);
}

// ---- a plain program rewriting the file meanwhile ----

/// A program that knows nothing of inkboard's lock rewrites the file (read, add
/// one shape, write a temporary file, rename it over the board, as editors do)
/// again and again while inkboard writers run. Nothing it wrote may be lost:
/// inkboard must notice the new content and run its call again on it, or refuse
/// with the "changed on disk" error. The program itself is careful (it renames
/// only if the file is still what it read) but not perfect, so an inkboard write
/// it drops in the instant between its check and its rename is told apart, by
/// what that rewrite was based on, and counted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outside_program_rewrites_the_file_meanwhile() {
    // Fewer writers, with shorter rounds: four times as many.
    let rounds = 4 * setting("INKBOARD_RACE_ROUNDS", 3);
    let board = Board::new();
    let stop = Arc::new(AtomicBool::new(false));
    let outside = {
        let (path, stop) = (board.path.clone(), stop.clone());
        std::thread::spawn(move || outside_rewrites(&path, &stop))
    };
    let started = Instant::now();
    let writers = board.race(rounds, &ADD_CYCLE, OUTSIDE_CAST, None).await;
    stop.store(true, Ordering::SeqCst);
    let rewrites = outside.join().expect("the outside program");
    assert!(!rewrites.is_empty(), "the outside program wrote nothing");

    file::load(&board.path).unwrap_or_else(|e| panic!("the board does not load: {e}"));
    let seen = Seen::read(&board.path);
    // What the outside program wrote is all there: inkboard overwrote none of it.
    for rewrite in &rewrites {
        assert_eq!(
            seen.count(&rewrite.label),
            1,
            "the outside program's {} is not on the board exactly once: inkboard overwrote it",
            rewrite.label
        );
    }
    // inkboard's successes are there too, but for those the outside program
    // dropped itself: a rewrite after the write began, based on a file without it.
    let mut dropped = 0;
    for writer in &writers {
        for (label, began) in &writer.added {
            if !writer.live.values().any(|l| l == label) {
                continue;
            }
            match seen.count(label) {
                1 => {}
                0 if rewrites
                    .iter()
                    .any(|r| r.renamed > *began && !r.basis.contains(label)) =>
                {
                    dropped += 1
                }
                n => panic!(
                    "{label} (a success of {}) is on the board {n} times, and no rewrite of the outside program explains it",
                    writer.name
                ),
            }
        }
        for label in &writer.gone {
            assert_eq!(seen.count(label), 0, "{label} failed but is on the board");
        }
    }
    let refused = check_refusals(&writers, Refusals::ChangedOrLock);
    let ids = seen.ids.len();
    let (writes, successes, failures) = totals(&writers);
    eprintln!(
        "race-stats outside: writers={} rounds={rounds} writes={writes} successes={successes} failures={failures} refused={refused} outside_rewrites={} outside_retries={} dropped_by_outside={dropped} objects={ids} seconds={:.1}",
        writers.len(),
        rewrites.len(),
        rewrites.iter().map(|r| r.retries).sum::<usize>(),
        started.elapsed().as_secs_f64()
    );
}

/// The outside program strikes while inkboard saves: as soon as the temporary
/// file of an `inkboard batch` appears (the save has begun: content made, file
/// checked), it renames its own version over the board. Each strike must end one
/// of the allowed ways, asserted one by one: inkboard ran the call again on the
/// new content (both changes on the board), or refused with the "changed on disk"
/// error (only the outside change on the board), or the strike came after
/// inkboard's save was complete (the outside version, made from the board as it
/// was before, is the file; that loss is the outside program's doing). The
/// outside change is never gone.
#[test]
fn an_outside_write_during_a_save() {
    let strikes = setting("INKBOARD_RACE_STRIKES", 30);
    let board = Board::new();
    // Shapes enough that writing and syncing a save takes a moment.
    for from in (0..800).step_by(200) {
        let ops: Vec<Value> = (from..from + 200)
            .map(|i| json!({"tool": "add_shape", "args": {"text": format!("filler {i} with some words"), "x": (i % 40) * 90, "y": 200 + (i / 40) * 50, "w": 80, "h": 40}}))
            .collect();
        let out = board
            .batch_command(&ops, "filler")
            .output()
            .expect("inkboard batch");
        assert!(out.status.success(), "seeding: {out:?}");
    }
    let baseline = fs::read(&board.path).expect("read the board");
    let name = board.file_name();
    let mut counts = BTreeMap::<&str, usize>::new();
    let started = Instant::now();
    for strike in 0..strikes {
        // The board as it was, put back whole, as a new file (so every process
        // sees that it changed).
        replace(&board.path, &baseline);
        let ours = format!("outside-{strike}");
        let theirs = format!("inkboard-{strike}");
        let prepared = board.path.with_file_name(format!(".outside-{strike}.tmp"));
        fs::write(&prepared, with_outside_shape(&baseline, &ours, strike)).expect("prepare");

        let ops = [
            json!({"tool": "add_shape", "args": {"text": theirs, "x": 0, "y": -300, "w": 80, "h": 40}}),
        ];
        let child = board
            .batch_command(&ops, &format!("strike-{strike}"))
            .spawn()
            .expect("inkboard batch starts");
        let pid = child.id();
        let done = Arc::new(AtomicBool::new(false));
        let striker = {
            let (dir, name, done) = (board.dir.path().to_path_buf(), name.clone(), done.clone());
            let (prepared, path) = (prepared.clone(), board.path.clone());
            std::thread::spawn(move || {
                let seen = wait_for_temp(&dir, &name, pid, &done);
                if seen {
                    fs::rename(&prepared, &path).expect("the outside rename");
                }
                seen
            })
        };
        let output = child.wait_with_output().expect("wait for inkboard batch");
        done.store(true, Ordering::SeqCst);
        let struck = striker.join().expect("the striker");
        let _ = fs::remove_file(&prepared);
        let status = output.status;
        let out = String::from_utf8_lossy(&output.stdout);
        let err = String::from_utf8_lossy(&output.stderr);

        let seen = Seen::read(&board.path);
        let outcome = if !struck {
            // The save was over before the striker saw it: nothing to judge.
            assert!(status.success(), "strike {strike}: {err}");
            assert_eq!(seen.count(&theirs), 1, "strike {strike}");
            "missed"
        } else {
            assert_eq!(
                seen.count(&ours),
                1,
                "strike {strike}: the outside change is gone: inkboard overwrote it (inkboard said: {out}{err})"
            );
            match (status.success(), seen.count(&theirs)) {
                (true, 1) => "merged",
                (true, 0) if fs::read(&board.path).ok().as_deref()
                    == Some(&with_outside_shape(&baseline, &ours, strike)[..]) =>
                {
                    "outside_last"
                }
                (false, 0) => {
                    assert_eq!(status.code(), Some(1), "strike {strike}: {err}");
                    assert!(
                        err.contains(CHANGED_ON_DISK),
                        "strike {strike}: a refusal that does not say what to do: {err}"
                    );
                    "refused"
                }
                (ok, n) => panic!(
                    "strike {strike}: inkboard answered {} ({out}{err}) and its shape is on the board {n} times",
                    if ok { "success" } else { "failure" }
                ),
            }
        };
        *counts.entry(outcome).or_default() += 1;
    }
    let landed =
        counts.get("merged").copied().unwrap_or(0) + counts.get("refused").copied().unwrap_or(0);
    let figures: Vec<String> = counts.iter().map(|(k, v)| format!("{k}={v}")).collect();
    eprintln!(
        "race-stats strike: strikes={strikes} {} board_bytes={} seconds={:.1}",
        figures.join(" "),
        baseline.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        landed > 0,
        "no strike landed inside a save ({figures:?}): the test did not test anything"
    );
}

// ---- the board under test ----

/// A scratch folder holding the board, with one shared shape on it (that every
/// batch moves), and an empty runtime folder.
struct Board {
    dir: TempDir,
    path: PathBuf,
    runtime: PathBuf,
    /// The shared shape's id.
    shared: String,
    /// The revision before the race.
    revision: u64,
}

/// Where the shared shape starts.
const SHARED_X: f64 = 0.0;

impl Board {
    fn new() -> Board {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let runtime = dir.path().join("runtime");
        common::private_dir(&runtime);
        let path = dir.path().join("race.inkboard");
        let mut board = Board {
            dir,
            path,
            runtime,
            shared: String::new(),
            revision: 0,
        };
        let made = board
            .command()
            .arg("new")
            .arg(&board.path)
            .output()
            .expect("inkboard new");
        assert!(made.status.success(), "inkboard new: {made:?}");
        let out = board
            .batch_command(
                &[json!({"tool": "add_shape", "args": {"text": "shared", "x": SHARED_X, "y": -200, "w": 60, "h": 30}})],
                "seed",
            )
            .output()
            .expect("inkboard batch");
        assert!(out.status.success(), "seeding: {out:?}");
        let answer: Value = serde_json::from_slice(&out.stdout).expect("a JSON answer");
        board.shared = answer["results"][0]["id"]
            .as_str()
            .expect("an id")
            .to_string();
        board.revision = Seen::read(&board.path).revision;
        board
    }

    fn file_name(&self) -> String {
        self.path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned()
    }

    /// `inkboard` in the folder, with its own runtime folder, quiet.
    fn command(&self) -> Command {
        common::quiet_inkboard(self.dir.path(), &self.runtime)
    }

    /// `inkboard batch BOARD OPS`, the operations written to the runtime folder
    /// (the board's folder holds only what inkboard writes) under `tag`.
    fn batch_command(&self, ops: &[Value], tag: &str) -> Command {
        let file = self.runtime.join(format!("ops-{tag}.json"));
        fs::write(&file, Value::from(ops.to_vec()).to_string()).expect("write the operations");
        let mut cmd = self.command();
        cmd.arg("batch")
            .arg(&self.path)
            .arg(file)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    /// Runs the writers of `cast` at once, and the person in `window` if there
    /// is one, each for `rounds` rounds of `cycle`; gives them back when all are
    /// done. They look for the application in the board's runtime folder.
    async fn race(
        &self,
        rounds: usize,
        cycle: &'static [Kind],
        cast: Cast,
        window: Option<Window>,
    ) -> Vec<Writer> {
        // The servers are all up before anyone writes, so that they overlap.
        let mut sessions = Vec::new();
        for i in 0..cast.servers {
            let era = if i % 2 == 0 {
                Era::Handshake
            } else {
                Era::Stateless
            };
            let dir = tempfile::tempdir().expect("a scratch folder");
            sessions.push(Arc::new(Session::start_with(era, dir, &self.runtime).await));
        }
        let mut vias = Vec::new();
        for (i, session) in sessions.iter().enumerate() {
            for lane in 0..cast.lanes {
                vias.push((
                    format!("mcp{i}{}", (b'a' + lane as u8) as char),
                    Via::Mcp(session.clone()),
                ));
            }
        }
        for i in 0..cast.cli {
            vias.push((
                format!("cli{i}"),
                Via::Cli {
                    runtime: self.runtime.clone(),
                },
            ));
        }
        if let Some(window) = window {
            vias.push(("person".to_string(), Via::Window(Box::new(window))));
        }
        let tasks: Vec<_> = vias
            .into_iter()
            .map(|(name, via)| {
                let writer = Writer::new(name, self.shared.clone(), cycle);
                tokio::spawn(writer.run(via, self.path.clone(), rounds))
            })
            .collect();
        let mut writers = Vec::new();
        for task in tasks {
            writers.push(task.await.expect("a writer"));
        }
        for session in sessions {
            let session = Arc::into_inner(session).expect("the writers are done with it");
            let stderr = session.close().await;
            assert!(
                !stderr.contains("panicked"),
                "an MCP server panicked:\n{stderr}"
            );
        }
        writers
    }

    /// Holds the file against every writer's answers (see the module docs).
    fn check(&self, writers: &[Writer], refusals: Refusals) -> Figures {
        let loaded = file::load(&self.path)
            .unwrap_or_else(|e| panic!("the board does not load after the race: {e}"));
        let seen = Seen::read(&self.path);
        assert_eq!(loaded.board.object_count(), seen.ids.len());

        let mut expected: BTreeMap<&str, &str> = BTreeMap::new();
        for writer in writers {
            for (id, label) in &writer.live {
                assert!(
                    expected.insert(id, label).is_none(),
                    "{id} was given to two writers"
                );
                assert_eq!(
                    seen.text_of(id),
                    Some(label.as_str()),
                    "{}'s {label} ({id}) is not on the board as answered",
                    writer.name
                );
                assert_eq!(
                    seen.count(label),
                    1,
                    "{label} is on the board more than once"
                );
            }
            for label in &writer.gone {
                assert_eq!(
                    seen.count(label),
                    0,
                    "{label} ({}: failed, renamed or deleted) is on the board",
                    writer.name
                );
            }
        }
        assert_eq!(
            seen.ids.len(),
            expected.len() + 1,
            "the board holds objects no success accounts for: {:?}",
            seen.ids
                .iter()
                .filter(|(id, _)| !expected.contains_key(id.as_str()) && **id != self.shared)
                .collect::<Vec<_>>()
        );
        let moves: usize = writers.iter().map(|w| w.tally.moves).sum();
        assert_eq!(
            seen.x_of(&self.shared),
            Some(SHARED_X + moves as f64),
            "the shared shape was moved by {moves} successful batches"
        );
        let (writes, successes, failures) = totals(writers);
        assert_eq!(
            seen.revision,
            self.revision + successes as u64,
            "the revision counts the {successes} successful writes"
        );
        let refused = check_refusals(writers, refusals);
        Figures {
            writers: writers.len(),
            writes,
            successes,
            failures,
            refused,
            objects: seen.ids.len(),
            revision: seen.revision,
            slowest: writers
                .iter()
                .map(|w| w.tally.slowest)
                .max()
                .unwrap_or_default(),
        }
    }
}

/// Which refusals a race may meet (the deliberate failures aside).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Refusals {
    /// Only inkboard writes: the lock keeps them apart, so a "changed on disk"
    /// would mean it failed; only a lock timeout is allowed.
    LockOnly,
    /// Another program writes too: "changed on disk" as well.
    ChangedOrLock,
}

/// Checks every failure that was not deliberate against `allowed`; their count.
fn check_refusals(writers: &[Writer], allowed: Refusals) -> usize {
    let mut refused = 0;
    for writer in writers {
        for message in &writer.refusals {
            let lock = LOCKED.iter().all(|part| message.contains(part));
            let changed = message.contains(CHANGED_ON_DISK);
            assert!(
                lock || (changed && allowed == Refusals::ChangedOrLock),
                "{}: a write failed with an error that is not an allowed refusal that says what to do: {message}",
                writer.name
            );
            refused += 1;
        }
    }
    refused
}

fn totals(writers: &[Writer]) -> (usize, usize, usize) {
    writers.iter().fold((0, 0, 0), |(w, s, f), x| {
        (
            w + x.tally.writes,
            s + x.tally.successes,
            f + x.tally.writes - x.tally.successes,
        )
    })
}

/// A race's figures.
struct Figures {
    writers: usize,
    writes: usize,
    successes: usize,
    failures: usize,
    refused: usize,
    objects: usize,
    revision: u64,
    slowest: Duration,
}

impl Figures {
    fn print(&self, what: &str, rounds: usize, started: Instant) {
        eprintln!(
            "race-stats {what}: writers={} rounds={rounds} writes={} successes={} failures={} (doomed={} refused={}) objects={} revision={} slowest_ms={} seconds={:.1}",
            self.writers,
            self.writes,
            self.successes,
            self.failures,
            self.failures - self.refused,
            self.refused,
            self.objects,
            self.revision,
            self.slowest.as_millis(),
            started.elapsed().as_secs_f64()
        );
    }
}

/// What a board file holds, read as plain JSON.
struct Seen {
    /// Object id → the object, first page.
    ids: BTreeMap<String, Value>,
    texts: HashMap<String, usize>,
    revision: u64,
}

impl Seen {
    fn read(path: &Path) -> Seen {
        let value: Value = serde_json::from_str(&fs::read_to_string(path).expect("read the board"))
            .expect("the board is JSON");
        let mut ids = BTreeMap::new();
        let mut texts = HashMap::new();
        for object in file_objects(&value) {
            let id = object["id"].as_str().expect("an id").to_string();
            if let Some(text) = object["text"].as_str() {
                *texts.entry(text.to_string()).or_default() += 1;
            }
            assert!(
                ids.insert(id.clone(), object).is_none(),
                "the id {id} is used twice"
            );
        }
        Seen {
            ids,
            texts,
            revision: value["revision"].as_u64().unwrap_or(0),
        }
    }

    fn count(&self, label: &str) -> usize {
        self.texts.get(label).copied().unwrap_or(0)
    }

    fn text_of(&self, id: &str) -> Option<&str> {
        self.ids.get(id)?["text"].as_str()
    }

    fn x_of(&self, id: &str) -> Option<f64> {
        self.ids.get(id)?["x"].as_f64()
    }
}

// ---- the writers ----

/// The kinds of write a writer makes, in turn.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// One `add_shape`, placed by the engine.
    Add,
    /// A batch: two shapes, a connector between them, and the shared shape
    /// moved one unit to the right.
    Pair,
    /// `update` of one of the writer's shapes to a new label.
    Rename,
    /// A batch that adds a shape and then fails on a missing object: it must
    /// leave nothing.
    Doomed,
    /// `delete` of one of the writer's shapes.
    Delete,
}

const FULL_CYCLE: [Kind; 6] = [
    Kind::Add,
    Kind::Pair,
    Kind::Rename,
    Kind::Add,
    Kind::Doomed,
    Kind::Delete,
];

/// Only additions (and the doomed batch, which adds nothing): what a test can
/// still account for when another program may drop inkboard's writes.
const ADD_CYCLE: [Kind; 3] = [Kind::Add, Kind::Doomed, Kind::Add];

/// One write: the tool and its arguments (without `path`), and what it leaves
/// on the board if it succeeds.
struct Write {
    tool: &'static str,
    args: Value,
    plan: Plan,
}

enum Plan {
    Add {
        label: String,
    },
    Pair {
        labels: [String; 3],
    },
    Rename {
        id: String,
        from: String,
        to: String,
    },
    Doomed {
        label: String,
    },
    Delete {
        id: String,
        label: String,
    },
}

/// What a failed write said.
#[derive(Debug)]
struct Failure {
    message: String,
    /// The structured payload of a failed batch.
    data: Option<Value>,
}

/// How a writer reaches the board.
enum Via {
    /// A lane of an `inkboard mcp` server (the path is given on every call).
    Mcp(Arc<Session>),
    /// `inkboard call` and `inkboard batch`, one process per write.
    Cli { runtime: PathBuf },
    /// The person, in the application's window (the board on screen).
    Window(Box<Window>),
}

impl Via {
    async fn send(
        &mut self,
        board: &Path,
        who: &str,
        n: usize,
        write: &Write,
    ) -> Result<Value, Failure> {
        match self {
            Via::Mcp(session) => {
                let mut args = write.args.clone();
                args["path"] = json!(board);
                let result = session
                    .try_call(write.tool, args)
                    .await
                    .unwrap_or_else(|e| {
                        panic!(
                            "{who}: tools/call {} failed as a protocol error: {e}",
                            write.tool
                        )
                    });
                if result.is_error == Some(true) {
                    let data = result.structured_content.clone();
                    let message = match &data {
                        Some(d) => d["error"].as_str().unwrap_or_default().to_string(),
                        None => common::only_text(&result),
                    };
                    Err(Failure { message, data })
                } else {
                    Ok(result.structured_content.expect("a structured answer"))
                }
            }
            Via::Cli { runtime } => {
                let mut cmd = tokio::process::Command::new(BIN);
                cmd.env("INKBOARD_RUNTIME_DIR", &*runtime)
                    .env_remove("INKBOARD_LOG")
                    .stdin(Stdio::null());
                if write.tool == "batch" {
                    // Beside the runtime folder's discovery file, not the board.
                    let ops = runtime.join(format!("{who}-{n}.json"));
                    fs::write(&ops, write.args["operations"].to_string())
                        .expect("write the operations");
                    cmd.arg("batch").arg(board).arg(ops);
                } else {
                    let mut args = write.args.clone();
                    args["path"] = json!(board);
                    cmd.args(["call", write.tool, &args.to_string()]);
                }
                let out = cmd.output().await.expect("inkboard runs");
                let stdout = String::from_utf8_lossy(&out.stdout);
                let stderr = String::from_utf8_lossy(&out.stderr);
                if out.status.success() {
                    return Ok(serde_json::from_str(&stdout).unwrap_or_else(|e| {
                        panic!("{who}: the answer is not JSON ({e}): {stdout}")
                    }));
                }
                assert_eq!(
                    out.status.code(),
                    Some(1),
                    "{who}: inkboard ended badly: {stderr}"
                );
                // A failed batch prints its payload; any other error, one line on stderr.
                match serde_json::from_str::<Value>(&stdout) {
                    Ok(data) => Err(Failure {
                        message: data["error"].as_str().unwrap_or_default().to_string(),
                        data: Some(data),
                    }),
                    Err(_) => Err(Failure {
                        message: stderr.trim().to_string(),
                        data: None,
                    }),
                }
            }
            Via::Window(window) => {
                let reply = window.call(write.tool, write.args.clone()).await;
                if reply["ok"] == true {
                    Ok(reply["result"].clone())
                } else {
                    Err(Failure {
                        message: reply["error"].as_str().unwrap_or_default().to_string(),
                        data: None,
                    })
                }
            }
        }
    }
}

/// A writer: what it has done, and what its successes left on the board.
struct Writer {
    name: String,
    shared: String,
    cycle: &'static [Kind],
    made: usize,
    /// Id → label of every object its successes left.
    live: BTreeMap<String, String>,
    /// Its shapes without connectors, newest last: what it renames and deletes.
    plain: Vec<String>,
    /// Labels that must not be on the board: of failed writes, and of objects
    /// renamed or deleted since.
    gone: Vec<String>,
    /// Every label a success added, with when its write began.
    added: Vec<(String, Instant)>,
    /// The messages of failures that were not deliberate.
    refusals: Vec<String>,
    tally: Tally,
}

#[derive(Default)]
struct Tally {
    writes: usize,
    successes: usize,
    /// Successful batches, each of which moved the shared shape.
    moves: usize,
    /// The longest a write took to be answered.
    slowest: Duration,
}

impl Writer {
    fn new(name: String, shared: String, cycle: &'static [Kind]) -> Writer {
        Writer {
            name,
            shared,
            cycle,
            made: 0,
            live: BTreeMap::new(),
            plain: Vec::new(),
            gone: Vec::new(),
            added: Vec::new(),
            refusals: Vec::new(),
            tally: Tally::default(),
        }
    }

    async fn run(mut self, mut via: Via, board: PathBuf, rounds: usize) -> Writer {
        for step in 0..rounds * self.cycle.len() {
            let write = self.next(self.cycle[step % self.cycle.len()]);
            let began = Instant::now();
            let outcome = via.send(&board, &self.name, step, &write).await;
            self.tally.slowest = self.tally.slowest.max(began.elapsed());
            self.record(write, outcome, began);
        }
        self
    }

    /// A new unique label.
    fn label(&mut self) -> String {
        self.made += 1;
        format!("{}-{}", self.name, self.made)
    }

    fn next(&mut self, kind: Kind) -> Write {
        let target = self.plain.last().cloned();
        match (kind, target) {
            (Kind::Pair, _) => {
                let labels = [self.label(), self.label(), self.label()];
                let (x, y) = (
                    self.made as i64 * 7 % 1500,
                    400 + self.made as i64 * 3 % 900,
                );
                let operations = json!([
                    {"tool": "add_shape", "args": {"text": labels[0], "x": x, "y": y, "w": 80, "h": 40}},
                    {"tool": "add_shape", "args": {"text": labels[1], "right_of": "$0.id"}},
                    {"tool": "add_connector", "args": {"from": "$0.id", "to": "$1.id", "text": labels[2]}},
                    {"tool": "move", "args": {"ids": [self.shared], "dx": 1}},
                ]);
                Write {
                    tool: "batch",
                    args: json!({"operations": operations}),
                    plan: Plan::Pair { labels },
                }
            }
            (Kind::Rename, Some(id)) => {
                let to = self.label();
                Write {
                    tool: "update",
                    args: json!({"id": id, "text": to}),
                    plan: Plan::Rename {
                        from: self.live[&id].clone(),
                        id,
                        to,
                    },
                }
            }
            (Kind::Delete, Some(id)) => Write {
                tool: "delete",
                args: json!({"ids": [id]}),
                plan: Plan::Delete {
                    label: self.live[&id].clone(),
                    id,
                },
            },
            (Kind::Doomed, _) => {
                let label = self.label();
                let operations = json!([
                    {"tool": "add_shape", "args": {"text": label}},
                    {"tool": "update", "args": {"id": MISSING, "text": "never"}},
                ]);
                Write {
                    tool: "batch",
                    args: json!({"operations": operations}),
                    plan: Plan::Doomed { label },
                }
            }
            // An add, or a rename or delete with nothing of its own left to act on.
            (Kind::Add | Kind::Rename | Kind::Delete, _) => {
                let label = self.label();
                Write {
                    tool: "add_shape",
                    args: json!({"text": label}),
                    plan: Plan::Add { label },
                }
            }
        }
    }

    fn record(&mut self, write: Write, outcome: Result<Value, Failure>, began: Instant) {
        self.tally.writes += 1;
        let who = &self.name;
        match (write.plan, outcome) {
            (Plan::Doomed { label }, Err(failure)) => {
                let expected =
                    format!("operation 1 (update): 'id' refers to no object: \"{MISSING}\"");
                assert!(
                    failure.message.contains(&expected),
                    "{who}: the doomed batch failed for another reason: {failure:?}"
                );
                if let Some(data) = failure.data {
                    assert_eq!(data["index"], 1, "{who}: {data}");
                }
                self.gone.push(label);
            }
            (Plan::Doomed { label }, Ok(answer)) => {
                panic!("{who}: the batch adding {label} should have failed on {MISSING}, but answered {answer}")
            }
            (plan, Err(failure)) => {
                self.refusals.push(failure.message);
                match plan {
                    Plan::Add { label } => self.gone.push(label),
                    Plan::Pair { labels } => self.gone.extend(labels),
                    Plan::Rename { to, .. } => self.gone.push(to),
                    Plan::Delete { .. } | Plan::Doomed { .. } => {}
                }
            }
            (plan, Ok(answer)) => {
                self.tally.successes += 1;
                match plan {
                    Plan::Add { label } => {
                        let id = id_in(&answer, who);
                        self.plain.push(id.clone());
                        self.live.insert(id, label.clone());
                        self.added.push((label, began));
                    }
                    Plan::Pair { labels } => {
                        self.tally.moves += 1;
                        assert_eq!(answer["applied"], 4, "{who}: {answer}");
                        for (i, label) in labels.into_iter().enumerate() {
                            self.live
                                .insert(id_in(&answer["results"][i], who), label.clone());
                            self.added.push((label, began));
                        }
                    }
                    Plan::Rename { id, from, to } => {
                        assert_eq!(answer["ids"], json!([id]), "{who}: {answer}");
                        self.live.insert(id, to.clone());
                        self.gone.push(from);
                        self.added.push((to, began));
                    }
                    Plan::Delete { id, label } => {
                        assert_eq!(answer["ids"], json!([id]), "{who}: {answer}");
                        self.live.remove(&id);
                        self.plain.retain(|p| *p != id);
                        self.gone.push(label);
                    }
                    Plan::Doomed { .. } => unreachable!("handled above"),
                }
            }
        }
    }
}

fn id_in(answer: &Value, who: &str) -> String {
    answer["id"]
        .as_str()
        .unwrap_or_else(|| panic!("{who}: an answer without an id: {answer}"))
        .to_string()
}

// ---- the outside program ----

/// One rewrite by the outside program.
struct Rewrite {
    label: String,
    /// The labels on the board it read and wrote back.
    basis: HashSet<String>,
    /// When its rename was done.
    renamed: Instant,
    /// How many times it found the file changed before it could rename.
    retries: usize,
}

/// Rewrites `path` every few milliseconds until `stop`, adding one shape each
/// time, the way a careful editor saves: read, change, write a temporary file,
/// check that the file is still what was read, rename.
fn outside_rewrites(path: &Path, stop: &AtomicBool) -> Vec<Rewrite> {
    let temp = path.with_file_name(".race.inkboard.outside.tmp");
    let mut rewrites = Vec::new();
    while !stop.load(Ordering::SeqCst) {
        let label = format!("outside-{}", rewrites.len());
        let mut retries = 0;
        let basis = loop {
            let read = fs::read(path).expect("the outside program reads the board");
            // A board is read whole; inkboard replaces it by rename, so never half.
            let mut value: Value = serde_json::from_slice(&read).expect("the board is JSON");
            let basis = file_objects(&value)
                .iter()
                .filter_map(|o| o["text"].as_str().map(str::to_string))
                .collect();
            add_outside_shape(&mut value, &label, rewrites.len());
            fs::write(&temp, serde_json::to_string_pretty(&value).expect("JSON")).expect("write");
            if fs::read(path).expect("read again") == read {
                fs::rename(&temp, path).expect("the outside rename");
                break basis;
            }
            retries += 1;
        };
        rewrites.push(Rewrite {
            label,
            basis,
            renamed: Instant::now(),
            retries,
        });
        std::thread::sleep(Duration::from_millis(3 + (rewrites.len() as u64 * 7) % 11));
    }
    rewrites
}

/// Adds a shape labelled `label` to a board's JSON, with the next free id, as a
/// program that knows the file format would.
fn add_outside_shape(board: &mut Value, label: &str, n: usize) {
    let next = board["next_id"].as_u64().expect("next_id");
    board["next_id"] = json!(next + 1);
    board["pages"][0]["objects"]
        .as_array_mut()
        .expect("objects")
        .push(json!({"id": format!("s{next}"), "type": "shape", "x": -500 - (n % 20) as i64 * 50, "y": (n / 20) as i64 * 40, "w": 40, "h": 20, "text": label}));
}

/// `board` (the bytes of a board file) with one outside shape added.
fn with_outside_shape(board: &[u8], label: &str, n: usize) -> Vec<u8> {
    let mut value: Value = serde_json::from_slice(board).expect("the board is JSON");
    add_outside_shape(&mut value, label, n);
    serde_json::to_vec_pretty(&value).expect("JSON")
}

/// Writes `bytes` to `path` by renaming a new file over it.
fn replace(path: &Path, bytes: &[u8]) {
    let temp = path.with_file_name(".race.inkboard.restore.tmp");
    fs::write(&temp, bytes).expect("write");
    fs::rename(&temp, path).expect("rename");
}

/// Waits until a save of process `pid` has its temporary file beside `name` in
/// `dir`, or `done`; whether it appeared.
fn wait_for_temp(dir: &Path, name: &str, pid: u32, done: &AtomicBool) -> bool {
    let prefix = format!(".{name}.{pid}.");
    while !done.load(Ordering::SeqCst) {
        let found = fs::read_dir(dir).into_iter().flatten().flatten().any(|e| {
            let n = e.file_name();
            let n = n.to_string_lossy();
            n.starts_with(&prefix) && n.ends_with(".tmp")
        });
        if found {
            return true;
        }
        std::thread::yield_now();
    }
    false
}

/// A count from the environment, or `default`.
fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
