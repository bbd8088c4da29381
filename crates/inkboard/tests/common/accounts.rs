//! Local accounts for the two-user tests (`trust.rs`, `safety.rs`): the user and
//! a stranger, made with `useradd` and run through `setpriv`, so these tests need
//! root; where they cannot run they pass with a note on stderr saying so.

use std::os::unix::fs::{chown, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;

use super::BIN;

/// A local account the test made.
pub struct Account {
    pub name: &'static str,
    pub uid: u32,
    pub gid: u32,
    pub home: PathBuf,
}

/// The account `name`, made if missing; `None` (with a note) where accounts
/// cannot be made: not root, or no `useradd`/`setpriv`.
pub fn account(name: &'static str) -> Option<Account> {
    static MAKING: Mutex<()> = Mutex::new(());
    let _one = MAKING.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: getuid cannot fail.
    if unsafe { libc::getuid() } != 0 {
        super::skip("the two-user test needs root to make accounts");
        return None;
    }
    let has = |tool: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !has("useradd") || !has("setpriv") {
        super::skip("the two-user test needs useradd and setpriv");
        return None;
    }
    let entry = || {
        let out = Command::new("getent")
            .args(["passwd", name])
            .output()
            .ok()?;
        let line = String::from_utf8(out.stdout).ok()?;
        let fields: Vec<&str> = line.trim().split(':').collect();
        Some((
            fields.get(2)?.parse().ok()?,
            fields.get(3)?.parse().ok()?,
            PathBuf::from(fields.get(5)?),
        ))
    };
    if entry().is_none() {
        let made = Command::new("useradd")
            .args(["--create-home", "--user-group", "--shell", "/bin/sh", name])
            .output()
            .expect("useradd runs");
        assert!(made.status.success(), "useradd {name}: {made:?}");
    }
    let (uid, gid, home) = entry().expect("the account exists");
    std::fs::create_dir_all(&home).expect("home");
    chown(&home, Some(uid), Some(gid)).expect("chown home");
    Some(Account {
        name,
        uid,
        gid,
        home,
    })
}

/// Both accounts, or `None` with a note.
pub fn two_accounts() -> Option<(Account, Account)> {
    Some((account("inkboard-user")?, account("inkboard-stranger")?))
}

/// The binary, where every account can run it: the build's own if every folder
/// above it lets others through (the usual case), else a copy in a shared folder.
pub fn shared_bin() -> PathBuf {
    static COPY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    COPY.get_or_init(|| {
        let open_to_all = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.mode() & 0o001 != 0);
        let bin = PathBuf::from(BIN);
        if bin.ancestors().all(open_to_all) {
            return bin;
        }
        let dir = tempfile::Builder::new()
            .prefix("inkboard-trust-bin")
            .tempdir()
            .expect("a folder")
            .keep();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let copy = dir.join("inkboard");
        std::fs::copy(BIN, &copy).expect("copy the binary");
        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        copy
    })
    .clone()
}

/// `program` run as `account`, with only HOME, PATH and USER in its environment
/// (no runtime or config folder inherited from the test), plus `env`.
pub fn run_as(account: &Account, program: &Path, env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new("setpriv");
    cmd.arg(format!("--reuid={}", account.uid))
        .arg(format!("--regid={}", account.gid))
        .arg("--clear-groups")
        .arg("--")
        .arg(program)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("USER", account.name)
        .env("HOME", &account.home)
        .envs(env.iter().copied())
        .stdin(Stdio::null());
    cmd
}

/// A scratch folder every account can enter (0755), removed at the end.
pub fn shared_scratch() -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("inkboard-trust")
        .tempdir()
        .expect("a folder");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    dir
}

/// A folder in `parent` made for `account` with `mode`.
pub fn folder_of(parent: &Path, name: &str, account: &Account, mode: u32) -> PathBuf {
    let dir = parent.join(name);
    std::fs::create_dir_all(&dir).expect("mkdir");
    chown(&dir, Some(account.uid), Some(account.gid)).expect("chown");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(mode)).expect("chmod");
    dir
}

/// A file written for `account` with `mode`.
pub fn file_of(path: &Path, text: &str, account: &Account, mode: u32) {
    std::fs::write(path, text).expect("write");
    chown(path, Some(account.uid), Some(account.gid)).expect("chown");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// What a process printed, stdout then stderr.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
