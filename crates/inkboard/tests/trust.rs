//! Trust under attack: another local user and a process-list snooper against
//! `inkboard open`, the discovery file and the token, with the real binary.
//!
//! The two-user tests run the user and the stranger as two accounts the test
//! makes (`useradd`, then each process started through `setpriv`), so they need
//! root; where they cannot run they pass with a note on stderr saying so. The
//! stranger's server is a small Node listener (Node is needed by the browser
//! tests anyway) that writes down every connection it gets: the tests check it
//! got none.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::{chown, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::accounts::{
    file_of, folder_of, run_as, shared_bin, shared_scratch, text, two_accounts,
};
use common::app::App;
use common::BIN;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// The stranger's server, and processes to name
// ---------------------------------------------------------------------------

/// A listener on 127.0.0.1 that appends a line to a log for every connection
/// and what it received, then answers an empty JSON object.
struct Listener {
    child: Child,
    port: u16,
    log: PathBuf,
}

const LISTENER: &str = r#"
const net = require("net"), fs = require("fs");
const log = process.argv[1];
const server = net.createServer((c) => {
  let done = false;
  const note = (data) => {
    if (done) return;
    done = true;
    fs.appendFileSync(log, "connection: " + data.toString("latin1").slice(0, 200) + "\n");
    c.end("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
  };
  c.on("data", note);
  c.on("error", () => {});
  setTimeout(() => note(Buffer.alloc(0)), 2000);
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
"#;

impl Listener {
    /// Started by `cmd` (node, as some account); its log is `log`.
    fn start(mut cmd: Command, log: PathBuf) -> Listener {
        let mut child = cmd
            .args(["-e", LISTENER])
            .arg(&log)
            .stdout(Stdio::piped())
            .spawn()
            .expect("node runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the port");
        let port = line
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("a port: {line:?}"));
        Listener { child, port, log }
    }

    /// What it got (nothing, in a passing test).
    fn got(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A process that lives until dropped: a pid to name in a discovery file.
struct Sleeper(Child);

impl Sleeper {
    fn start(mut cmd: Command) -> Sleeper {
        Sleeper(cmd.arg("600").spawn().expect("sleep runs"))
    }
    fn pid(&self) -> u32 {
        self.0.id()
    }
}

impl Drop for Sleeper {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

// ---------------------------------------------------------------------------
// Another user's discovery file, or another user's server
// ---------------------------------------------------------------------------

/// Without `XDG_RUNTIME_DIR` the runtime folder used to be the predictable
/// `/tmp/inkboard-UID`. A stranger who makes it first, with an `app.json` naming
/// their own server and a live process of the user (pids are public), must get
/// nothing: no forwarded call, no `open`.
#[test]
fn a_discovery_file_planted_by_another_user_gets_nothing() {
    let Some((user, stranger)) = two_accounts() else {
        return;
    };
    let scratch = shared_scratch();
    let bin = shared_bin();
    let logs = folder_of(scratch.path(), "stranger", &stranger, 0o755);
    let server = Listener::start(run_as(&stranger, Path::new("node"), &[]), logs.join("log"));
    let victim = Sleeper::start(run_as(&user, Path::new("sleep"), &[]));
    let home = folder_of(scratch.path(), "user", &user, 0o700);
    let board = home.join("plan.inkboard");
    let made = run_as(&user, &bin, &[])
        .arg("new")
        .arg(&board)
        .output()
        .expect("new");
    assert!(made.status.success(), "{}", text(&made));

    // The folder the user's processes used to pick, planted as another would.
    // The temp folder of a process without TMPDIR, as the user's are run.
    let planted = PathBuf::from(format!("/tmp/inkboard-{}", user.uid));
    let _ = std::fs::remove_dir_all(&planted);
    struct Gone(PathBuf);
    impl Drop for Gone {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    let _cleanup = Gone(planted.clone());
    std::fs::create_dir(&planted).expect("plant the folder");
    chown(&planted, Some(stranger.uid), Some(stranger.gid)).expect("chown");
    std::fs::set_permissions(&planted, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let info = json!({"pid": victim.pid(), "port": server.port, "token": "0".repeat(32), "paths": [board]});
    file_of(
        &planted.join("app.json"),
        &info.to_string(),
        &stranger,
        0o644,
    );

    // With HOME (the state folder) and without (the temp folder fallback).
    for home_env in [true, false] {
        let as_user = |args: &[&str]| {
            let mut cmd = run_as(&user, &bin, &[]);
            if !home_env {
                cmd.env_remove("HOME");
            }
            cmd.args(args)
                .current_dir(&home)
                .output()
                .expect("inkboard runs")
        };
        let pathless = as_user(&["call", "read_board"]);
        assert!(
            !pathless.status.success(),
            "HOME {home_env}: {}",
            text(&pathless)
        );
        let edit = json!({"path": board, "text": "mine"}).to_string();
        let direct = as_user(&["call", "add_shape", &edit]);
        assert!(
            direct.status.success(),
            "HOME {home_env}: {}",
            text(&direct)
        );
        if !home_env {
            let open = as_user(&[
                "open",
                "--no-browser",
                "--port",
                "0",
                board.to_str().unwrap(),
            ]);
            assert!(!open.status.success(), "{}", text(&open));
            assert!(
                text(&open).contains("belongs to another user"),
                "{}",
                text(&open)
            );
        }
    }
    let shapes = std::fs::read_to_string(&board).expect("the board");
    assert_eq!(
        shapes.matches("\"mine\"").count(),
        2,
        "both direct edits are on the board"
    );
    assert_eq!(server.got(), "", "the stranger's server was contacted");
}

/// A discovery file of the user's own, left by a crash: its pid now names
/// another of the user's processes, and a stranger listens on its port. Nothing
/// may be sent there, and a call with a path edits the file itself.
#[test]
fn a_stale_discovery_file_whose_port_a_stranger_took_gets_nothing() {
    let Some((user, stranger)) = two_accounts() else {
        return;
    };
    let scratch = shared_scratch();
    let bin = shared_bin();
    let logs = folder_of(scratch.path(), "stranger", &stranger, 0o755);
    let server = Listener::start(run_as(&stranger, Path::new("node"), &[]), logs.join("log"));
    let reused = Sleeper::start(run_as(&user, Path::new("sleep"), &[]));
    let home = folder_of(scratch.path(), "user", &user, 0o700);
    let runtime = folder_of(&home, "run", &user, 0o700);
    let board = home.join("plan.inkboard");
    let runtime_env = [("INKBOARD_RUNTIME_DIR", runtime.to_str().unwrap())];
    let made = run_as(&user, &bin, &runtime_env)
        .arg("new")
        .arg(&board)
        .output()
        .expect("new");
    assert!(made.status.success(), "{}", text(&made));
    let info = json!({"pid": reused.pid(), "port": server.port, "token": "0".repeat(32), "paths": [board]});
    file_of(&runtime.join("app.json"), &info.to_string(), &user, 0o600);

    let as_user = |args: &[&str]| {
        run_as(&user, &bin, &runtime_env)
            .args(args)
            .output()
            .expect("inkboard runs")
    };
    let pathless = as_user(&["call", "read_board"]);
    assert!(!pathless.status.success(), "{}", text(&pathless));
    let edit = json!({"path": board, "text": "mine"}).to_string();
    let direct = as_user(&["call", "add_shape", &edit]);
    assert!(direct.status.success(), "{}", text(&direct));
    assert!(std::fs::read_to_string(&board)
        .expect("board")
        .contains("\"mine\""));
    assert_eq!(server.got(), "", "the stranger's server was contacted");
}

/// The sign-in page `inkboard open` hands the browser cannot be read by another
/// user (its folder is closed to them).
#[test]
fn another_user_cannot_read_the_sign_in_page() {
    let Some((user, stranger)) = two_accounts() else {
        return;
    };
    let scratch = shared_scratch();
    let bin = shared_bin();
    let home = folder_of(scratch.path(), "user", &user, 0o755);
    let runtime = home.join("run");
    let opened = folder_of(scratch.path(), "opened", &user, 0o777).join("args");
    let fake = fake_opener(scratch.path(), &opened);
    let board = home.join("plan.inkboard");
    let path = format!("{}:/usr/bin:/bin", fake.display());
    let env = [
        ("INKBOARD_RUNTIME_DIR", runtime.to_str().unwrap()),
        ("PATH", path.as_str()),
    ];
    let mut app = run_as(&user, &bin, &env)
        .args(["open", "--port", "0"])
        .arg(&board)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("inkboard open");
    let _stop = Stopper(app.id());
    let mut url = String::new();
    BufReader::new(app.stdout.take().expect("stdout"))
        .read_line(&mut url)
        .expect("the address");
    let page = wait_for_opened(&opened);
    let peek = run_as(&stranger, Path::new("cat"), &[])
        .arg(&page)
        .output()
        .expect("cat");
    assert!(
        !peek.status.success(),
        "the stranger read the page: {}",
        text(&peek)
    );
    assert!(!text(&peek).contains("code="), "{}", text(&peek));
    let own = run_as(&user, Path::new("cat"), &[])
        .arg(&page)
        .output()
        .expect("cat");
    assert!(text(&own).contains(url.trim()), "{}", text(&own));
    let _ = app.kill();
    let _ = app.wait();
}

/// Kills a process when dropped (an application a failed assertion left).
struct Stopper(u32);

impl Drop for Stopper {
    fn drop(&mut self) {
        // SAFETY: kill has no memory-safety preconditions.
        unsafe { libc::kill(self.0 as libc::pid_t, libc::SIGKILL) };
    }
}

// ---------------------------------------------------------------------------
// One user: stale files and the runtime folder
// ---------------------------------------------------------------------------

/// A stale discovery file whose pid was given to another process (and whose port
/// another process of the user's listens on) must block neither a call with a
/// path nor `inkboard open`, and nothing may be sent to that port.
#[test]
fn a_stale_discovery_file_with_a_reused_pid_blocks_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let runtime = dir.path().join("runtime");
    common::private_dir(&runtime);
    let board = dir.path().join("plan.inkboard");
    let quiet = |args: &[&str]| {
        Command::new(BIN)
            .args(args)
            .env("INKBOARD_RUNTIME_DIR", &runtime)
            .output()
            .expect("inkboard runs")
    };
    assert!(quiet(&["new", board.to_str().unwrap()]).status.success());
    // Another process of ours listens on the port; the test counts connections.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = listener.local_addr().expect("address").port();
    let contacted = Arc::new(AtomicBool::new(false));
    let seen = contacted.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            seen.store(true, Ordering::Relaxed);
            drop(stream);
        }
    });
    let reused = Sleeper::start(Command::new("sleep"));
    let stale =
        json!({"pid": reused.pid(), "port": port, "token": "0".repeat(32), "paths": [board]});
    let file = runtime.join("app.json");
    std::fs::write(&file, stale.to_string()).expect("write");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).expect("chmod");

    let edit = json!({"path": board, "text": "direct"}).to_string();
    let out = quiet(&["call", "add_shape", &edit]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(std::fs::read_to_string(&board)
        .expect("board")
        .contains("\"direct\""));

    let scratch = tempfile::tempdir().expect("dir");
    let app = App::start_in(scratch, runtime.clone(), board.clone());
    assert_eq!(
        app.discovery()["pid"],
        app.pid(),
        "the stale file was replaced"
    );
    drop(app);
    assert!(
        !contacted.load(Ordering::Relaxed),
        "a call went to the stale file's port"
    );
}

/// A runtime folder the user owns is never changed: one that others may enter
/// (a shared 1777 folder, a 0755 one) is refused with what to do, and keeps its
/// mode.
#[test]
fn a_runtime_folder_is_never_changed() {
    for mode in [0o1777, 0o755, 0o711] {
        let dir = tempfile::tempdir().expect("dir");
        let runtime = dir.path().join("shared");
        std::fs::create_dir(&runtime).expect("mkdir");
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(mode)).expect("chmod");
        let board = dir.path().join("plan.inkboard");
        let out = Command::new(BIN)
            .args(["open", "--no-browser", "--port", "0"])
            .arg(&board)
            .env("INKBOARD_RUNTIME_DIR", &runtime)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .expect("inkboard open");
        let said = text(&out);
        assert!(!out.status.success(), "{mode:o}: {said}");
        assert!(
            said.contains("can be entered by other users") && said.contains("INKBOARD_RUNTIME_DIR"),
            "{mode:o}: {said}"
        );
        let now = std::fs::metadata(&runtime).expect("stat").mode() & 0o7777;
        assert_eq!(now, mode, "the folder's mode was changed");
        assert!(!runtime.join("app.json").exists());
    }
}

// ---------------------------------------------------------------------------
// The one-time sign-in code and the process list
// ---------------------------------------------------------------------------

/// A fake `xdg-open` (and `open`) in a new folder: writes its arguments to
/// `record` and stays alive two seconds, so a snooper has time to see it.
fn fake_opener(parent: &Path, record: &Path) -> PathBuf {
    let bin = parent.join("fake-bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let script = format!(
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{0}.part'\nmv '{0}.part' '{0}'\nsleep 2\n",
        record.display()
    );
    for name in ["xdg-open", "open"] {
        let path = bin.join(name);
        std::fs::write(&path, &script).expect("write the fake");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    bin
}

/// The one argument the fake opener got, once it ran.
fn wait_for_opened(record: &Path) -> PathBuf {
    let start = Instant::now();
    loop {
        if let Ok(args) = std::fs::read_to_string(record) {
            let args: Vec<&str> = args.lines().collect();
            assert_eq!(args.len(), 1, "the opener got {args:?}");
            return PathBuf::from(args[0]);
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the browser was never opened"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Every process's command line, read again and again until stopped, as any
/// local user can (`/proc/PID/cmdline`).
struct Snooper {
    stop: Arc<AtomicBool>,
    seen: Arc<Mutex<Vec<String>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Snooper {
    fn start() -> Snooper {
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (halt, lines) = (stop.clone(), seen.clone());
        let thread = std::thread::spawn(move || {
            while !halt.load(Ordering::Relaxed) {
                let Ok(procs) = std::fs::read_dir("/proc") else {
                    return;
                };
                for entry in procs.flatten() {
                    let mut bytes = Vec::new();
                    let read = std::fs::File::open(entry.path().join("cmdline"))
                        .and_then(|mut f| f.read_to_end(&mut bytes));
                    if read.is_ok() && !bytes.is_empty() {
                        let line = String::from_utf8_lossy(&bytes).replace('\0', " ");
                        let mut lines = lines.lock().unwrap();
                        if !lines.contains(&line) {
                            lines.push(line);
                        }
                    }
                }
            }
        });
        Snooper {
            stop,
            seen,
            thread: Some(thread),
        }
    }

    /// Every distinct command line seen.
    fn finish(mut self) -> Vec<String> {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        self.seen.lock().unwrap().clone()
    }
}

/// `inkboard open` gives the browser the sign-in page's path, never the URL with
/// its one-time code: a snooper reading every process's command line meanwhile
/// never sees the code, whether the application starts or is already running.
/// The page is private (0600 in a 0700 folder) and leads to the URL.
#[test]
fn the_sign_in_code_never_shows_in_the_process_list() {
    let dir = tempfile::tempdir().expect("dir");
    let runtime = dir.path().join("runtime");
    let snooper = Snooper::start();
    let mut codes = Vec::new();
    let mut pages = Vec::new();
    let mut first = None;
    for (round, name) in ["one.inkboard", "two.inkboard"].iter().enumerate() {
        let record = dir.path().join(format!("opened-{round}"));
        let fake = fake_opener(&dir.path().join(format!("f{round}")), &record);
        let path = format!(
            "{}:{}",
            fake.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut open = Command::new(BIN)
            .args(["open", "--port", "0"])
            .arg(dir.path().join(name))
            .env("INKBOARD_RUNTIME_DIR", &runtime)
            .env("PATH", path)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("inkboard open");
        let mut url = String::new();
        BufReader::new(open.stdout.take().expect("stdout"))
            .read_line(&mut url)
            .expect("the address");
        let url = url.trim().to_string();
        let code = url.split("code=").nth(1).expect("a code").to_string();
        let page = wait_for_opened(&record);
        // The fake opener lives two seconds more: the snooper sees it.
        std::thread::sleep(Duration::from_millis(500));
        let html = std::fs::read_to_string(&page).expect("the page");
        assert!(html.contains(&url), "the page leads to the URL: {html}");
        let mode = |p: &Path| std::fs::metadata(p).expect("stat").mode() & 0o777;
        assert_eq!(mode(&page), 0o600, "{}", page.display());
        assert_eq!(mode(page.parent().expect("folder")), 0o700);
        codes.push(code);
        pages.push(page);
        match round {
            // The first starts the application and keeps running.
            0 => first = Some(Stopper(open.id())),
            // The second asks it to open the board, and ends.
            _ => assert!(open.wait().expect("wait").success()),
        }
    }
    let seen = snooper.finish();
    drop(first);
    for page in &pages {
        let shown = page.display().to_string();
        assert!(
            seen.iter()
                .any(|line| line.contains("xdg-open") && line.contains(&shown)),
            "the snooper did not see the opener: it proves nothing ({} lines)",
            seen.len()
        );
    }
    for code in &codes {
        let leaks: Vec<&String> = seen
            .iter()
            .filter(|line| line.contains(code.as_str()))
            .collect();
        assert!(
            leaks.is_empty(),
            "the code was in the process list: {leaks:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// The user's token
// ---------------------------------------------------------------------------

fn get_with_token(app: &App, token: &str) -> common::app::Answer {
    app.get("/api/none", &format!("Authorization: Bearer {token}"))
}

/// The token is kept 0600 in the config folder and stays the same from one launch
/// to the next; `inkboard token rotate` replaces it, and the running application
/// refuses the old one within seconds, answers `WWW-Authenticate: Bearer` with its
/// 401, and forwarded calls go on working with the new one.
#[test]
fn the_token_outlives_a_launch_and_rotates() {
    let config = tempfile::tempdir().expect("config");
    let env = [("XDG_CONFIG_HOME", config.path())];
    let start = || {
        let dir = tempfile::tempdir().expect("dir");
        let runtime = dir.path().join("runtime");
        let board = dir.path().join("plan.inkboard");
        App::start_with(dir, runtime, board, &env)
    };
    let file = config.path().join("inkboard/token");
    let app = start();
    let token = app.token();
    assert_eq!(
        std::fs::read_to_string(&file)
            .expect("the token file")
            .trim(),
        token
    );
    assert_eq!(
        std::fs::metadata(&file).expect("stat").mode() & 0o777,
        0o600
    );
    drop(app);
    let app = start();
    assert_eq!(app.token(), token, "a second launch has the same token");

    let inkboard = |args: &[&str]| {
        Command::new(BIN)
            .args(args)
            .env("XDG_CONFIG_HOME", config.path())
            .env("INKBOARD_RUNTIME_DIR", &app.runtime)
            .output()
            .expect("inkboard runs")
    };
    let shown = inkboard(&["token"]);
    assert_eq!(
        String::from_utf8_lossy(&shown.stdout).trim(),
        file.display().to_string()
    );
    let rotated = inkboard(&["token", "rotate"]);
    assert!(rotated.status.success(), "{}", text(&rotated));
    let new = std::fs::read_to_string(&file)
        .expect("the token file")
        .trim()
        .to_string();
    assert_ne!(new, token);
    assert_eq!(
        std::fs::metadata(&file).expect("stat").mode() & 0o777,
        0o600
    );

    let start = Instant::now();
    while get_with_token(&app, &token).status != 401 {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the old token still works"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let refused = get_with_token(&app, &token);
    let challenge = refused
        .head
        .lines()
        .find_map(|l| l.strip_prefix("www-authenticate: "))
        .unwrap_or_default();
    assert!(challenge.starts_with("Bearer"), "{}", refused.head);
    assert_ne!(get_with_token(&app, &new).status, 401);
    while app.token() != new {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the discovery file kept the old token"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let forwarded = inkboard(&["call", "add_shape", r#"{"text": "after rotation"}"#]);
    assert!(forwarded.status.success(), "{}", text(&forwarded));
    let answer: Value = serde_json::from_slice(&forwarded.stdout).expect("JSON");
    assert!(answer["id"].is_string(), "{answer}");
}

/// A token file others can read stops the application, with what to do.
#[test]
fn a_token_file_others_can_read_is_refused() {
    let config = tempfile::tempdir().expect("config");
    let file = config.path().join("inkboard/token");
    std::fs::create_dir_all(file.parent().unwrap()).expect("mkdir");
    std::fs::write(&file, "0123456789abcdef0123456789abcdef\n").expect("write");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let dir = tempfile::tempdir().expect("dir");
    let out = Command::new(BIN)
        .args(["open", "--no-browser", "--port", "0"])
        .arg(dir.path().join("plan.inkboard"))
        .env("XDG_CONFIG_HOME", config.path())
        .env("INKBOARD_RUNTIME_DIR", dir.path().join("runtime"))
        .stdout(Stdio::null())
        .output()
        .expect("inkboard open");
    assert!(!out.status.success());
    assert!(
        text(&out).contains("inkboard token rotate"),
        "{}",
        text(&out)
    );
    assert_eq!(
        std::fs::metadata(&file).expect("stat").mode() & 0o777,
        0o644,
        "left as it was"
    );
}
