//! The temporary files of saves: every save writes a hidden `.NAME.PID.N.tmp`
//! beside its target (the pid of the writer, the count of its saves) and renames
//! it over the target. This module names and creates them, removes the one a
//! failed save leaves, and clears away those that killed saves left behind.
//!
//! A process killed during a save (SIGKILL, the OOM killer, a power cut) cannot
//! remove its temporary file. Such a leftover never passes for the board (it is
//! hidden and has no board extension), but nothing else would ever remove it, so
//! every successful save of a file also removes that file's leftovers whose writer
//! is gone: [`remove_stale`]. It removes a file only when all of these hold:
//!
//! - its name is exactly the temporary name of this target: `.NAME.` then two
//!   numbers as [`create`] writes them, then `.tmp`. Since the numbers hold no
//!   dot, no other file's temporary name can read that way, so another board's
//!   files (its own leftovers) are never touched;
//! - it is a regular file (not a folder, not a link);
//! - no process has its pid (`kill(pid, 0)` says there is no such process). A pid
//!   is used by one process for its whole life, so a dead pid means the writer
//!   is gone, whereas a live pid proves nothing either way (it may be the writer,
//!   or a later process that was given the same pid): such files are kept, and go
//!   at the first save after that process ends;
//! - it was last written at least [`STALE_TEMP_AGE`] ago. The pid check alone is
//!   not enough: a pid means something only in its own pid namespace on its own
//!   machine, and a board folder may be shared with a container or another
//!   machine (a bind mount, a network drive) whose live writers have pids unknown
//!   here. A save writes its temporary file and renames it within milliseconds to
//!   seconds (a slow disk's fsync), so a file nobody has written to for ten
//!   minutes is not a save still going on; and the guard costs nothing but a
//!   later cleanup, since leftovers are rare and harmless meanwhile.
//!
//! Limitations: the checks and the removal are not one atomic step. A leftover
//! could in theory be removed by another process between our checks and our
//! removal, and a new writer that happens to have the same pid and save count
//! create the same name in that gap (microseconds), whose file we would then
//! remove; its rename would fail and its save report an error (nothing is lost,
//! the board stays as it was). On systems other than Unix no pid can be checked,
//! so nothing is removed.

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use crate::FormatError;

/// How long a temporary file must have gone unwritten, its writer's pid dead,
/// before a save removes it (see the module documentation for why both).
pub const STALE_TEMP_AGE: Duration = Duration::from_secs(10 * 60);

/// A temporary file that removes itself unless it was moved into place.
pub(super) struct Temp {
    pub(super) path: PathBuf,
    /// Set once the file is renamed over the target: its name is gone then.
    pub(super) placed: bool,
}

impl Drop for Temp {
    fn drop(&mut self) {
        if !self.placed {
            // Nothing more can be done about a temp file that will not go; the error
            // that brought us here is the one worth reporting.
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// A hidden name beside the target, unique for this process and call, so that
/// concurrent saves never write into each other's temporary file.
fn temp_path(target: &Path) -> PathBuf {
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    target.with_file_name(format!(".{name}.{}.{call}.tmp", std::process::id()))
}

/// Creates a new temporary file beside `target`. Its name may be taken: a leftover
/// of a killed save is kept for a while (see [`remove_stale`]), and pids come
/// round again (every 32,768 processes on many Linux systems), so a later process
/// can meet a leftover with the very name it would use. A taken name is skipped
/// for the next.
///
/// `mode` (Unix permission bits) is the mode the file will have in place, that of
/// the file it replaces; `None` for the system's default. The file is created with
/// it, so it is never more open than the file it replaces, not even for an instant
/// (the umask can only take bits away; they are put back once it is ours, before a
/// byte is written).
pub(super) fn create(
    shown: &Path,
    target: &Path,
    mode: Option<u32>,
) -> Result<(File, Temp), FormatError> {
    let mut taken = 0;
    loop {
        let path = temp_path(target);
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        if let Some(mode) = mode {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(mode & 0o777);
        }
        match options.open(&path) {
            Ok(file) => {
                let temp = Temp {
                    path,
                    placed: false,
                };
                #[cfg(unix)]
                if let Some(mode) = mode {
                    use std::os::unix::fs::PermissionsExt;
                    file.set_permissions(fs::Permissions::from_mode(mode))
                        .map_err(|e| FormatError::io("keep the permissions of", shown, e))?;
                }
                return Ok((file, temp));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && taken < 64 => taken += 1,
            Err(e) => return Err(FormatError::io("write a temporary file for", shown, e)),
        }
    }
}

/// Removes the temporary files of `target` left by saves whose writer is gone,
/// by the rules of the module documentation; gives how many it removed. Best
/// effort: it runs after a save succeeded, which a failure here must not undo.
pub(super) fn remove_stale(target: &Path) -> usize {
    // A name that is not UTF-8 is written lossily into temporary names, and two
    // such names may read the same: their leftovers could not be told apart.
    let Some(name) = target.file_name().and_then(OsStr::to_str) else {
        return 0;
    };
    let Ok(entries) = fs::read_dir(super::folder(target)) else {
        return 0;
    };
    let now = SystemTime::now();
    let mut removed = 0;
    for entry in entries.flatten() {
        let Some(pid) = leftover_pid(&entry.file_name(), name) else {
            continue;
        };
        // Not followed: a link or a folder with such a name is nothing a save made.
        let Ok(meta) = entry.metadata() else { continue };
        let old = meta
            .modified()
            .ok()
            .and_then(|written| now.duration_since(written).ok())
            .is_some_and(|age| age >= STALE_TEMP_AGE);
        if meta.is_file() && old && gone(pid) && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The writer's pid, if `file` is a temporary name of the file called `target`:
/// exactly `.TARGET.PID.N.tmp`, both numbers as [`temp_path`] writes them (digits
/// only, no leading zero, no sign).
fn leftover_pid(file: &OsStr, target: &str) -> Option<u32> {
    let numbers = file
        .to_str()?
        .strip_suffix(".tmp")?
        .strip_prefix('.')?
        .strip_prefix(target)?
        .strip_prefix('.')?;
    let (pid, call) = numbers.split_once('.')?;
    let canonical = |s: &str| {
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'))
    };
    if !canonical(pid) || !canonical(call) {
        return None;
    }
    call.parse::<u64>().ok()?;
    pid.parse().ok().filter(|&pid| pid != 0)
}

/// Whether no process has pid `pid` here (false when that cannot be known).
#[cfg(unix)]
fn gone(pid: u32) -> bool {
    // Zero and negative pids name process groups, not a process.
    match libc::pid_t::try_from(pid) {
        Ok(pid) if pid > 0 => {
            // SAFETY: kill with signal 0 sends nothing; it only checks the pid.
            let found = unsafe { libc::kill(pid, 0) } == 0;
            // EPERM: the process exists, owned by another user.
            !found && io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
        }
        _ => false,
    }
}

#[cfg(not(unix))]
fn gone(_pid: u32) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file::{save, save_overwrite};
    use inkboard_core::Board;
    use std::process::{Child, Command};

    fn board(title: &str) -> Board {
        Board::new(title, &["One".to_string()])
    }

    #[test]
    fn only_this_targets_temporary_names_are_read_as_leftovers() {
        let target = "b.inkboard";
        for (name, pid) in [
            (".b.inkboard.4242.0.tmp", Some(4242)),
            (".b.inkboard.4242.17.tmp", Some(4242)),
            // Another board whose name begins with this one's, and its leftover.
            (".b.inkboard.4242.inkboard.1.0.tmp", None),
            (".b.inkboard.x.4242.0.tmp", None),
            (".other.inkboard.4242.0.tmp", None),
            ("b.inkboard.4242.0.tmp", None),
            (".b.inkboard.lock", None),
            (".b.inkboard.4242.tmp", None),
            (".b.inkboard.4242.0.1.tmp", None),
            (".b.inkboard.4242.0.tmp.bak", None),
            (".b.inkboard.+4242.0.tmp", None),
            (".b.inkboard.04242.0.tmp", None),
            (".b.inkboard.4242.00.tmp", None),
            (".b.inkboard.0.0.tmp", None),
            (".b.inkboard.99999999999.0.tmp", None),
            (".b.inkboard..0.tmp", None),
        ] {
            assert_eq!(leftover_pid(OsStr::new(name), target), pid, "{name}");
        }
    }

    /// A process that has ended and been reaped: no process has its pid (Linux
    /// hands pids out in turn, so none is given it again during the test).
    fn dead_pid() -> u32 {
        let mut child = Command::new("true").spawn().expect("run true");
        child.wait().expect("wait for true");
        child.id()
    }

    /// A process that lives until it is dropped.
    struct Live(Child);

    impl Live {
        fn start() -> Live {
            Live(Command::new("sleep").arg("600").spawn().expect("run sleep"))
        }
    }

    impl Drop for Live {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    /// Writes `name` in `dir`, last written `age` ago.
    fn leftover(dir: &Path, name: &str, age: Duration) {
        let path = dir.join(name);
        fs::write(&path, "{\"half\": ").expect("write a leftover");
        File::options()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_modified(SystemTime::now() - age))
            .expect("age the leftover");
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_save_removes_only_old_leftovers_of_gone_writers_of_its_own_file() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let path = dir.path().join("b.inkboard");
        let saved = save(&path, &board("b"), None).expect("create");
        let old = STALE_TEMP_AGE + Duration::from_secs(60);
        let young = STALE_TEMP_AGE - Duration::from_secs(60);
        let (dead, writer) = (dead_pid(), Live::start());
        let alive = writer.0.id();
        let me = std::process::id();
        let gone = [
            format!(".b.inkboard.{dead}.0.tmp"),
            format!(".b.inkboard.{dead}.7.tmp"),
        ];
        for name in &gone {
            leftover(dir.path(), name, old);
        }
        let kept = [
            // The writer may still be at it: too young, or its pid lives.
            (format!(".b.inkboard.{dead}.1.tmp"), young),
            (format!(".b.inkboard.{alive}.0.tmp"), old),
            (format!(".b.inkboard.{me}.123456.tmp"), old),
            // Not this board's.
            (format!(".other.inkboard.{dead}.0.tmp"), old),
            (format!(".b.inkboard.x.inkboard.{dead}.0.tmp"), old),
            (format!(".b.inkboard.{dead}.0.tmp.bak"), old),
            (format!("b.inkboard.{dead}.0.tmp"), old),
        ];
        for (name, age) in &kept {
            leftover(dir.path(), name, *age);
        }
        // A folder with a temporary name is nothing a save made.
        fs::create_dir(dir.path().join(format!(".b.inkboard.{dead}.2.tmp"))).expect("mkdir");

        save(&path, &board("b2"), Some(&saved.stamp)).expect("save");

        let mut want: Vec<String> = kept.iter().map(|(name, _)| name.clone()).collect();
        want.push(format!(".b.inkboard.{dead}.2.tmp"));
        want.push("b.inkboard".to_string());
        want.sort();
        assert_eq!(listing(dir.path()), want);

        // Once its writer is gone, the next save removes its leftover too.
        drop(writer);
        save_overwrite(&path, &board("b3")).expect("save");
        want.retain(|name| *name != format!(".b.inkboard.{alive}.0.tmp"));
        assert_eq!(listing(dir.path()), want);
    }
}
