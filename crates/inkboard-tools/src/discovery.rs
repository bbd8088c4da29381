//! Finding the running application. The application writes a discovery file
//! (`app.json`, mode 0600, in a folder of mode 0700, replaced atomically) into the
//! runtime folder; tool calls without `path` read it to find the board on screen.
//! The folder is `$INKBOARD_RUNTIME_DIR` if set, else `$XDG_RUNTIME_DIR/inkboard`,
//! else a per-user folder under the temp folder. A file naming a dead process is
//! left by a crash: it is ignored, and replaced by the next application.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// What the application says about itself in its discovery file.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct AppInfo {
    pub pid: u32,
    pub port: u16,
    /// 128 random bits, hex: the bearer token every request must carry.
    pub token: String,
    /// The board files open in the application (absolute paths).
    #[serde(default)]
    pub paths: Vec<PathBuf>,
}

/// The discovery file's name in [`runtime_dir`].
pub const DISCOVERY_FILE: &str = "app.json";

/// The folder that holds the discovery file.
pub fn runtime_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("INKBOARD_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir).join("inkboard");
    }
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    std::env::temp_dir().join(format!("inkboard-{uid}"))
}

/// The running application, if its discovery file exists and its process lives.
pub fn find_app() -> Option<AppInfo> {
    let text = std::fs::read_to_string(runtime_dir().join(DISCOVERY_FILE)).ok()?;
    let info: AppInfo = serde_json::from_str(&text).ok()?;
    // A discovery file left behind by a crashed application names a dead process.
    // SAFETY: kill with signal 0 only checks that the process exists.
    let alive = unsafe { libc::kill(info.pid as libc::pid_t, 0) } == 0;
    alive.then_some(info)
}

/// Writes the discovery file for `info`: the folder is made private (0700) if new
/// and refused if another user owns it or others can enter it; the file is written
/// to a private temporary file, synced and renamed over the old one, so a reader
/// never sees half a file and nobody else can read the token.
pub fn publish(info: &AppInfo) -> std::io::Result<PathBuf> {
    let dir = runtime_dir();
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)?;
    check_private(&dir)?;
    let target = dir.join(DISCOVERY_FILE);
    let temp = dir.join(format!(".{DISCOVERY_FILE}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&temp)?;
        f.write_all(&serde_json::to_vec_pretty(info).unwrap_or_default())?;
        f.sync_all()?;
        std::fs::rename(&temp, &target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written.map(|()| target)
}

/// Removes the discovery file if it is still ours (names this process).
pub fn withdraw() {
    let path = runtime_dir().join(DISCOVERY_FILE);
    let ours = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str::<AppInfo>(&t).ok())
        .is_some_and(|info| info.pid == std::process::id());
    if ours {
        let _ = std::fs::remove_file(path);
    }
}

/// Whether an application other than this process is running (a live discovery
/// file that is not ours).
pub fn other_app() -> Option<AppInfo> {
    find_app().filter(|a| a.pid != std::process::id())
}

/// Refuses a runtime folder that others could read or replace files in.
fn check_private(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(dir)?;
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    if meta.uid() != uid {
        return Err(std::io::Error::other(format!(
            "the runtime folder {} belongs to another user: set INKBOARD_RUNTIME_DIR to a private folder",
            dir.display()
        )));
    }
    if meta.permissions().mode() & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}
