//! Finding the running application. The application writes a discovery file
//! (`app.json`, mode 0600, in a folder of mode 0700, replaced atomically) into the
//! runtime folder; tool calls without `path` read it to find the board on screen.
//!
//! The folder is `$INKBOARD_RUNTIME_DIR` if set, else `$XDG_RUNTIME_DIR/inkboard`,
//! else `inkboard/run` in the user's state folder (`$XDG_STATE_HOME`, or
//! `~/.local/state`): a folder in the user's home, which no other user can create
//! first (a predictable name in the shared temp folder could be made by anyone,
//! with a discovery file naming their own server). Only without a home does it
//! fall back to `inkboard-UID` in the temp folder, checked like any other.
//!
//! Everything read here is checked before anything is sent to it: the folder and
//! the file must belong to this user and be private (0700, 0600: no access for
//! group or others), neither may be a symbolic link ([`check_private_folder`],
//! which the application's recovery folder is held to as well), the file must be
//! a plain file, and the process it names must
//! be alive, run as this user and hold the listening socket of the port it names
//! (`discovery/listener.rs`). A file that fails is ignored: left by a crash (its
//! pid dead, or given to another process), it is replaced by the next application;
//! planted by someone else, nothing is sent to it. A folder the user owns is never
//! changed: one others can enter is refused with an error saying what to do.

mod listener;

use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use listener::{listening, Listening};

/// What the application says about itself in its discovery file.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct AppInfo {
    pub pid: u32,
    pub port: u16,
    /// The bearer token every request must carry (the user's token file's).
    pub token: String,
    /// The board files open in the application (absolute paths).
    #[serde(default)]
    pub paths: Vec<PathBuf>,
}

/// The discovery file's name in [`runtime_dir`].
pub const DISCOVERY_FILE: &str = "app.json";

/// The largest discovery file read (it holds a few paths).
const MAX_DISCOVERY_BYTES: u64 = 1024 * 1024;

/// The folder that holds the discovery file.
pub fn runtime_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("INKBOARD_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    if let Some(dir) = env_dir("XDG_RUNTIME_DIR") {
        return dir.join("inkboard");
    }
    if let Some(state) = env_dir("XDG_STATE_HOME").or_else(|| Some(home()?.join(".local/state"))) {
        return state.join("inkboard").join("run");
    }
    std::env::temp_dir().join(format!("inkboard-{}", uid()))
}

/// The folder an environment variable names, if it is set to an absolute path
/// (the XDG rule: a relative one is ignored).
fn env_dir(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
}

/// The user's home folder, from `HOME`.
pub(crate) fn home() -> Option<PathBuf> {
    env_dir("HOME")
}

/// This process's user id.
pub(crate) fn uid() -> u32 {
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { libc::getuid() }
}

/// The running application, if its discovery file passes every check of the
/// module documentation.
pub fn find_app() -> Option<AppInfo> {
    let dir = runtime_dir();
    check_private(&dir, true).ok()?;
    let info = read_private(&dir.join(DISCOVERY_FILE)).ok()?;
    match listening(info.pid, info.port, uid()) {
        Listening::Yes | Listening::Unknown => Some(info),
        Listening::No => None,
    }
}

/// Reads the discovery file at `path` (checked as [`read_private_file`] says).
fn read_private(path: &Path) -> io::Result<AppInfo> {
    let bytes = read_checked(path, MAX_DISCOVERY_BYTES)?;
    serde_json::from_slice(&bytes).map_err(io::Error::other)
}

/// Reads the file `name` of the runtime folder, at most `max` bytes: only if the
/// folder is private and the file is a plain file (a link is not followed), this
/// user's and private, as everything this module reads.
pub fn read_private_file(name: &str, max: u64) -> io::Result<Vec<u8>> {
    let dir = runtime_dir();
    check_private(&dir, true)?;
    read_checked(&dir.join(name), max)
}

fn read_checked(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let mut file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() || meta.uid() != uid() || meta.mode() & 0o077 != 0 {
        return Err(io::Error::other(format!(
            "{} is not this user's private file",
            path.display()
        )));
    }
    let mut bytes = Vec::new();
    (&mut file).take(max).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Writes the discovery file for `info`: the folder is made private (0700) if new,
/// and refused if another user owns it or others can enter it; the file is written
/// to a private temporary file, synced and renamed over the old one, so a reader
/// never sees half a file and nobody else can read the token.
pub fn publish(info: &AppInfo) -> io::Result<PathBuf> {
    let bytes = serde_json::to_vec_pretty(info).unwrap_or_default();
    write_private(DISCOVERY_FILE, &bytes)
}

/// Writes `bytes` to the file `name` of the runtime folder, atomically and private
/// (0600 from its creation, in a folder checked as [`publish`] says).
pub fn write_private(name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    let dir = private_runtime_dir()?;
    let target = dir.join(name);
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| {
        let _ = fs::remove_file(&temp);
        let mut f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&temp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&temp, &target)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written.map(|()| target)
}

/// The runtime folder, made (0700) if missing, and checked to be private.
pub fn private_runtime_dir() -> io::Result<PathBuf> {
    let dir = runtime_dir();
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)?;
    check_private(&dir, false)?;
    Ok(dir)
}

/// Removes the files named `prefix…` in the runtime folder last written over
/// `age` ago (the sign-in pages `inkboard open` leaves for browsers).
pub fn remove_old(prefix: &str, age: Duration) {
    let dir = runtime_dir();
    if check_private(&dir, true).is_err() {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .ok()
            .and_then(|m| m.modified().ok())
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|elapsed| elapsed > age);
        if old && entry.file_name().to_string_lossy().starts_with(prefix) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Removes the discovery file if it is still ours (names this process).
pub fn withdraw() {
    let path = runtime_dir().join(DISCOVERY_FILE);
    if read_private(&path).is_ok_and(|info| info.pid == std::process::id()) {
        let _ = fs::remove_file(path);
    }
}

/// Whether an application other than this process is running (a live discovery
/// file that is not ours).
pub fn other_app() -> Option<AppInfo> {
    find_app().filter(|a| a.pid != std::process::id())
}

/// Refuses a runtime folder that is not this user's, or that others could enter
/// (read the token, or replace files in it): [`check_private_folder`].
/// `quiet` readers get a short error; the application's is the one people see.
fn check_private(dir: &Path, quiet: bool) -> io::Result<()> {
    let checked = check_private_folder(
        dir,
        "runtime folder",
        "INKBOARD_RUNTIME_DIR",
        "who could read the token",
    );
    match checked {
        Err(_) if quiet => Err(io::Error::other("the runtime folder is not private")),
        checked => checked,
    }
}

/// Refuses `dir` unless it is this user's own private folder: a folder itself,
/// not a symbolic link (which whoever planted it could turn elsewhere at any
/// time), owned by this user, with no access at all for group or others. It is
/// never changed: a folder the user made open on purpose (a shared 1777 or 0755
/// folder) stays as it is. The error names the folder as `what` (the runtime
/// folder, the recovery folder), says who could harm it (`risk`), and how to
/// choose another (the environment variable `var`).
pub fn check_private_folder(dir: &Path, what: &str, var: &str, risk: &str) -> io::Result<()> {
    let meta = fs::symlink_metadata(dir)?;
    if meta.file_type().is_symlink() {
        return Err(io::Error::other(format!(
            "the {what} {} is a symbolic link, which could be turned to another folder: remove it, or set {var} to a private folder of yours (mode 0700)",
            dir.display()
        )));
    }
    if !meta.is_dir() {
        return Err(io::Error::other(format!(
            "the {what} {} is not a folder: remove it, or set {var} to a private folder",
            dir.display()
        )));
    }
    if meta.uid() != uid() {
        return Err(io::Error::other(format!(
            "the {what} {} belongs to another user (uid {}): set {var} to a private folder of yours (mode 0700)",
            dir.display(),
            meta.uid()
        )));
    }
    if meta.mode() & 0o077 != 0 {
        return Err(io::Error::other(format!(
            "the {what} {} can be entered by other users (mode {:04o}), {risk}: make it private (chmod 700), or set {var} to a private folder (mode 0700)",
            dir.display(),
            meta.mode() & 0o7777
        )));
    }
    Ok(())
}
