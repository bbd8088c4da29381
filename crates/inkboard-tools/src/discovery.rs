//! Finding the running application. The application writes a discovery file
//! (`app.json`, mode 0600) into the runtime folder; tool calls without `path` read
//! it to find the board on screen. The folder is `$INKBOARD_RUNTIME_DIR` if set,
//! else `$XDG_RUNTIME_DIR/inkboard`, else a per-user folder under the temp folder.

use std::path::PathBuf;

use serde::Deserialize;

/// What the application says about itself in its discovery file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct AppInfo {
    pub pid: u32,
    pub port: u16,
    pub token: String,
    #[serde(default)]
    pub path: Option<PathBuf>,
}

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
pub(crate) fn find_app() -> Option<AppInfo> {
    let text = std::fs::read_to_string(runtime_dir().join("app.json")).ok()?;
    let info: AppInfo = serde_json::from_str(&text).ok()?;
    // A discovery file left behind by a crashed application names a dead process.
    // SAFETY: kill with signal 0 only checks that the process exists.
    let alive = unsafe { libc::kill(info.pid as libc::pid_t, 0) } == 0;
    alive.then_some(info)
}
