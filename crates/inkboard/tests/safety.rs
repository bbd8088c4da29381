//! Issue 29, the application's side: no request stalls it, one failure never
//! takes it down or loses what it holds, and a folder another user planted never
//! holds a person's work. Against the real binary.
//!
//! - `/api/rich` turns a text of megabytes on a blocking thread: while two such
//!   requests run (they once held both async workers for over 30 s), `/` answers
//!   about as fast as at rest.
//! - A board without a file (an import not yet kept) is in a recovery copy
//!   before risky work runs (another import, a drawing, an agent's call), so a
//!   crash in that work loses nothing; a diagram that cannot be read is an error
//!   for the one who asked, and the application goes on.
//! - Without a home, recovery copies went to a shared `$TMPDIR/inkboard`, which
//!   another user can make first; the recovery folder is now checked like the
//!   runtime folder, a planted one is never used nor read from, and the work is
//!   kept in a new private folder instead.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::accounts::{folder_of, run_as, shared_bin, shared_scratch, text, two_accounts};
use common::app::App;
use serde_json::{json, Value};

/// The longest text `/api/rich` takes: 16 bytes for each character of the
/// longest shape text (`inkboard_core::limits::MAX_TEXT_CHARS`).
const RICH_TEXT_BYTES: usize = 16 * 100_000;

/// How long `GET /` takes, the best of `n`.
fn best_get(app: &App, headers: &str, n: usize) -> Duration {
    (0..n)
        .map(|_| {
            let started = Instant::now();
            let answer = app.get("/", headers);
            assert_eq!(answer.status, 200, "{}", answer.head);
            started.elapsed()
        })
        .min()
        .expect("at least one")
}

/// Sends a `/api/rich` request with `body` on a thread; the thread answers the
/// status once the answer came (or 0). `sent` hears when the whole body is out.
fn rich_in_background(
    app: &App,
    headers: &str,
    body: String,
    sent: std::sync::mpsc::Sender<()>,
) -> std::thread::JoinHandle<u16> {
    let head = format!(
        "POST /api/rich HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        app.port,
        headers.replace('\n', "\r\n"),
        body.len()
    );
    let port = app.port;
    std::thread::spawn(move || {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        stream.write_all(head.as_bytes()).expect("send the head");
        stream.write_all(body.as_bytes()).expect("send the body");
        let _ = sent.send(());
        stream.set_read_timeout(Some(Duration::from_secs(120))).ok();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        common::app::Answer::parse(&answer).status
    })
}

/// Two requests of the longest rich text, 1.6 MB of `[` and of `<`, were once
/// turned on the async workers: for over 30 s each, and with both workers held
/// even `/` went unanswered. They run on blocking threads now: meanwhile `/`
/// answers within a hundred times its time at rest (at least a second; before,
/// it did not answer at all until they were done).
#[test]
fn heavy_rich_text_never_stalls_the_application() {
    let app = App::start("plan.inkboard");
    let signed = app.sign_in();
    let headers = format!("Cookie: {}\nX-Inkboard-Key: {}", signed.cookie, signed.key);
    let at_rest = best_get(&app, &headers, 5);

    let (sent, heard) = std::sync::mpsc::channel();
    let bodies = [
        json!({"markdown": "[".repeat(RICH_TEXT_BYTES)}),
        json!({"html": "<".repeat(RICH_TEXT_BYTES), "before": ""}),
    ];
    let heavy: Vec<_> = bodies
        .into_iter()
        .map(|body| rich_in_background(&app, &headers, body.to_string(), sent.clone()))
        .collect();
    for _ in &heavy {
        heard
            .recv_timeout(Duration::from_secs(60))
            .expect("the heavy request went out");
    }
    // The server has read both bodies and is turning them.
    std::thread::sleep(Duration::from_millis(300));
    let busy = best_get(&app, &headers, 3);
    let bound = 100 * at_rest.max(Duration::from_millis(10));
    assert!(
        busy <= bound,
        "`/` took {busy:?} while rich text was turned ({at_rest:?} at rest, {bound:?} allowed)"
    );
    // The heavy requests are answered in their turn (the other half of the
    // issue, making rich text itself linear, is core's), or the app stops first.
    drop(heavy);
    app.stop();
}

/// The names of the recovery copies (`.inkboard`) in `folder`.
fn copies(folder: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "inkboard"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// An imported board not yet kept has no file: a crash loses it unless it is in
/// a recovery copy before risky work runs. Here the risky work is opening another
/// diagram, which fails (the app answers the error and goes on); the first
/// board, with the person's edit, is in a copy before it runs, so a crash right
/// then (SIGKILL) loses nothing, and the next `inkboard open` names the copy.
#[tokio::test]
async fn unkept_imported_work_is_kept_before_a_risky_step_and_survives_a_crash() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let runtime = dir.path().join("runtime");
    let source = dir.path().join("flow.drawio");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../inkboard-interop/tests/corpus/drawio-template-aws_3.xml");
    std::fs::copy(corpus, &source).expect("copy the diagram");
    let broken = dir.path().join("broken.drawio");
    std::fs::write(&broken, "<mxfile><diagram>not a diagram").expect("write");
    let app = App::start_in(dir, runtime, source);
    let signed = app.sign_in();
    let mut window = app.window(&signed).await;
    let reply = window
        .call("add_shape", json!({"page": 1, "text": "mine", "y": -300}))
        .await;
    assert_eq!(reply["ok"], true, "{reply}");
    let recovery = app.state.join("recovery");
    assert!(copies(&recovery).is_empty(), "no copy before a risky step");

    let open = json!({"path": broken}).to_string();
    let head = format!(
        "POST /api/open HTTP/1.1\nHost: 127.0.0.1:{}\nAuthorization: Bearer {}\nContent-Type: application/json",
        app.port,
        app.token()
    );
    let answer = app.raw(&head, open.as_bytes());
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert!(answer.body.contains("broken.drawio"), "{}", answer.body);
    // The application goes on.
    let reply = window
        .call("add_shape", json!({"page": 1, "text": "later", "y": -500}))
        .await;
    assert_eq!(reply["ok"], true, "{reply}");

    let kept = copies(&recovery);
    assert_eq!(kept.len(), 1, "{kept:?}");
    let copy = std::fs::read_to_string(&kept[0]).expect("the copy");
    assert!(copy.contains("\"mine\""), "the copy holds the edit");
    let (_dir, runtime) = app.crash();

    let copy = std::fs::read_to_string(&kept[0]).expect("the copy outlives the crash");
    let board: Value = serde_json::from_str(&copy).expect("a board file");
    assert!(common::app::file_objects(&board)
        .iter()
        .any(|o| o["text"] == "mine"));
    // The next `inkboard open` without a file names it.
    let mut next = std::process::Command::new(common::BIN)
        .args(["open", "--no-browser", "--port", "0"])
        .env("INKBOARD_RUNTIME_DIR", &runtime)
        .env("INKBOARD_STATE_DIR", runtime.join("state"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("inkboard open");
    let mut told = String::new();
    BufReader::new(next.stderr.take().expect("stderr"))
        .read_line(&mut told)
        .expect("a line");
    let _ = next.kill();
    let _ = next.wait();
    assert!(
        told.contains(&kept[0].display().to_string()),
        "the next open names the copy: {told}"
    );
}

/// Without HOME or an XDG state folder, recovery copies went to `$TMPDIR/inkboard`,
/// which another user can make first: then the copy at exit failed and the work
/// was lost. A stranger plants that folder and the new predictable one
/// (`inkboard-UID`), each with a "copy" of their own; the user's application
/// must offer neither, put nothing in them, and keep the work at exit in a
/// private folder of the user's (0700, not a link), printed.
#[test]
fn a_recovery_folder_planted_by_another_user_is_never_used() {
    let Some((user, stranger)) = two_accounts() else {
        return;
    };
    let scratch = shared_scratch();
    let bin = shared_bin();
    // A shared temp folder, as /tmp is: anyone may make a folder in it.
    let tmp = scratch.path().join("tmp");
    std::fs::create_dir(&tmp).expect("tmp");
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o1777)).expect("chmod");
    let planted: Vec<PathBuf> = ["inkboard".to_string(), format!("inkboard-{}", user.uid)]
        .into_iter()
        .map(|name| {
            let top = folder_of(&tmp, &name, &stranger, 0o777);
            let recovery = folder_of(&top, "recovery", &stranger, 0o777);
            let copy = recovery.join("untitled.unsaved-20260101-000000.inkboard");
            let board = r#"{"format":"inkboard","version":3,"title":"Run curl | sh","revision":1,"pages":[{"id":"p1","name":"Page 1","objects":[]}]}"#;
            std::fs::write(&copy, board).expect("plant a copy");
            let sidecar = r#"{"file":null,"saved":"2026-01-01 00:00:00 UTC","why":"unsaved"}"#;
            std::fs::write(copy.with_extension("json"), sidecar).expect("plant a sidecar");
            for planted in [copy.clone(), copy.with_extension("json")] {
                std::os::unix::fs::chown(&planted, Some(stranger.uid), Some(stranger.gid))
                    .expect("chown");
            }
            recovery
        })
        .collect();
    let before: Vec<Vec<PathBuf>> = planted.iter().map(|p| listing(p)).collect();

    let runtime = folder_of(scratch.path(), "run", &user, 0o700);
    let env = [
        ("INKBOARD_RUNTIME_DIR", runtime.to_str().expect("UTF-8")),
        ("TMPDIR", tmp.to_str().expect("UTF-8")),
    ];
    let log = scratch.path().join("open.log");
    let mut open = run_as(&user, &bin, &env);
    open.env_remove("HOME")
        .args(["open", "--no-browser", "--port", "0"])
        .current_dir(&runtime)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).expect("a log"));
    let mut app = open.spawn().expect("inkboard open");
    let mut url = String::new();
    BufReader::new(app.stdout.take().expect("stdout"))
        .read_line(&mut url)
        .expect("the address");
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");

    let mut call = run_as(&user, &bin, &env);
    let edit = call
        .env_remove("HOME")
        .args(["call", "add_shape", r#"{"text": "mine"}"#])
        .current_dir(&runtime)
        .output()
        .expect("inkboard call");
    assert!(edit.status.success(), "{}", text(&edit));
    // SAFETY: kill has no memory-safety preconditions.
    unsafe { libc::kill(app.id() as libc::pid_t, libc::SIGTERM) };
    let _ = app.wait();
    let told = std::fs::read_to_string(&log).expect("the log");

    assert!(
        !told.contains("earlier session"),
        "a planted copy was offered: {told}"
    );
    let kept = told
        .lines()
        .find_map(|l| l.split(" was kept in ").nth(1))
        .and_then(|rest| rest.split("; open it").next())
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("the work was not kept: {told}"));
    for recovery in &planted {
        let top = recovery.parent().expect("the planted top folder");
        assert!(
            !kept.starts_with(top),
            "the copy went into a planted folder: {}",
            kept.display()
        );
    }
    let folder = kept.parent().expect("a folder");
    let meta = std::fs::symlink_metadata(folder).expect("the folder");
    assert!(meta.is_dir() && !meta.file_type().is_symlink());
    assert_eq!((meta.uid(), meta.mode() & 0o777), (user.uid, 0o700));
    let meta = std::fs::symlink_metadata(&kept).expect("the copy");
    assert_eq!((meta.uid(), meta.mode() & 0o777), (user.uid, 0o600));
    let board = std::fs::read_to_string(&kept).expect("read");
    assert!(board.contains("\"mine\""), "{board}");
    let after: Vec<Vec<PathBuf>> = planted.iter().map(|p| listing(p)).collect();
    assert_eq!(before, after, "nothing was put in a planted folder");
}

/// The entries of `folder`, sorted.
fn listing(folder: &Path) -> Vec<PathBuf> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(folder)
        .expect("a folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    names.sort();
    names
}
