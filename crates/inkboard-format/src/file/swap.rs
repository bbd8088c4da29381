//! The last step of a checked save: the new file goes in place only if the board
//! on disk is still the one the save checked.
//!
//! A rename cannot be made conditional, and it never tells what it replaced: a
//! program that ignores inkboard's lock (an editor saving, a script) and replaces
//! the board in the instant between a save's last look and its rename would be
//! overwritten without a trace. Under load that instant is hit: a few
//! microseconds per save, against saves made back to back. On Linux, `renameat2`
//! with `RENAME_EXCHANGE` swaps the two names in one step instead, so the file that
//! comes out under the temporary name is exactly what was replaced. If it is the
//! file that was checked, the save is done and that old file goes; if it is not,
//! the swap is undone at once, the other program's file is back in place, and the
//! save is refused as "changed on disk" (the engine then runs the call again on
//! the new content).
//!
//! Limitations: between the swap and its undoing (microseconds), a reader may see
//! the refused version. A file that a third program puts in place within those
//! same microseconds comes out of the undoing under the temporary name; it is then
//! left there rather than deleted (a later save's cleanup removes it once it is
//! stale, see `temp.rs`). Elsewhere than Linux, and on file systems that cannot
//! swap, the save renames after its last look, and the instant remains.

use std::fs::File;
use std::io;
use std::path::Path;

use super::temp::Temp;
use super::Stat;

/// How a swap went.
pub(super) enum Swap {
    /// The new file is in place; the checked one is gone.
    Placed,
    /// Another file had replaced the checked one: it is back in place, and the
    /// new file is not.
    Refused,
    /// This system or file system cannot swap: nothing was done.
    Unsupported,
}

impl Stat {
    /// Whether `self` (taken now) is the file `checked` was taken of, with the
    /// same content as far as a stat tells. The change time is left out: the swap
    /// itself moves it.
    fn same_file(&self, checked: &Stat) -> bool {
        (self.device, self.inode, self.len, self.modified)
            == (checked.device, checked.inode, checked.len, checked.modified)
    }
}

/// Swaps `temp` (the new file, open as `ours`) with `target` if `target` is still
/// the file `checked`; see the module documentation.
pub(super) fn place_if_unchanged(
    temp: &mut Temp,
    target: &Path,
    checked: &Stat,
    ours: &File,
) -> io::Result<Swap> {
    match exchange(&temp.path, target) {
        Ok(()) => {}
        Err(e) if unsupported(&e) => return Ok(Swap::Unsupported),
        // The board went away since the last look.
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Swap::Refused),
        Err(e) => return Err(e),
    }
    // The temporary name now holds what was in place: whatever goes wrong from
    // here, it is not deleted unless it is known to be disposable.
    temp.placed = true;
    if stat_at(&temp.path)?.is_some_and(|out| out.same_file(checked)) {
        // The checked board: it goes with the temporary name.
        temp.placed = false;
        return Ok(Swap::Placed);
    }
    exchange(&temp.path, target)?;
    let ours = Stat::of(&ours.metadata()?);
    let out = stat_at(&temp.path)?;
    let ours_came_out = matches!(
        (out, ours),
        (Some(out), Some(ours)) if (out.device, out.inode) == (ours.device, ours.inode)
    );
    // Anything else is a file put in place meanwhile by someone else: kept (see
    // the limitations).
    temp.placed = !ours_came_out;
    Ok(Swap::Refused)
}

/// The stat of the file at `path`, links not followed.
fn stat_at(path: &Path) -> io::Result<Option<Stat>> {
    Ok(Stat::of(&std::fs::symlink_metadata(path)?))
}

/// Errors that say the swap cannot be done here (an old kernel, a file system
/// without it), rather than that it failed.
fn unsupported(e: &io::Error) -> bool {
    #[cfg(target_os = "linux")]
    {
        matches!(
            e.raw_os_error(),
            Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP)
        )
    }
    #[cfg(not(target_os = "linux"))]
    {
        e.kind() == io::ErrorKind::Unsupported
    }
}

/// Swaps the files named `a` and `b` in one step.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let a = CString::new(a.as_os_str().as_bytes())?;
    let b = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both paths are NUL-terminated strings that outlive the call.
    let rc = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_a: &Path, _b: &Path) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::io::Write;
    use std::path::PathBuf;

    use super::*;
    use crate::file::temp;

    /// A folder with `b.inkboard` holding "old", that file's stat, and a
    /// temporary file holding "new".
    fn setup() -> (tempfile::TempDir, PathBuf, Stat, File, Temp) {
        let dir = tempfile::tempdir().expect("a folder");
        let target = dir.path().join("b.inkboard");
        fs::write(&target, "old").expect("write");
        let checked = stat_at(&target).expect("stat").expect("a stat");
        let (mut file, temp) = temp::create(&target, &target, None).expect("a temporary file");
        file.write_all(b"new").expect("write");
        (dir, target, checked, file, temp)
    }

    /// What the folder holds besides the board: the temporary names left.
    fn others(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n != "b.inkboard")
            .collect();
        names.sort();
        names
    }

    #[test]
    fn an_unchanged_board_is_replaced_and_the_old_one_goes() {
        let (dir, target, checked, file, mut temp) = setup();
        let swap = place_if_unchanged(&mut temp, &target, &checked, &file).expect("swap");
        assert!(matches!(swap, Swap::Placed), "this file system swaps");
        drop(temp);
        assert_eq!(fs::read_to_string(&target).expect("read"), "new");
        assert_eq!(others(dir.path()), Vec::<String>::new());
    }

    #[test]
    fn a_board_replaced_after_the_check_is_put_back_and_kept() {
        let (dir, target, checked, file, mut temp) = setup();
        // Another program saves the way editors do, after the save's check.
        let theirs = dir.path().join("theirs.tmp");
        fs::write(&theirs, "theirs").expect("write");
        fs::rename(&theirs, &target).expect("rename");
        let swap = place_if_unchanged(&mut temp, &target, &checked, &file).expect("swap");
        assert!(matches!(swap, Swap::Refused));
        drop(temp);
        assert_eq!(fs::read_to_string(&target).expect("read"), "theirs");
        assert_eq!(
            others(dir.path()),
            Vec::<String>::new(),
            "the refused file goes"
        );
    }

    #[test]
    fn a_board_gone_after_the_check_is_not_recreated() {
        let (dir, target, checked, file, mut temp) = setup();
        fs::remove_file(&target).expect("remove");
        let swap = place_if_unchanged(&mut temp, &target, &checked, &file).expect("swap");
        assert!(matches!(swap, Swap::Refused));
        drop(temp);
        assert!(!target.exists());
        assert_eq!(others(dir.path()), Vec::<String>::new());
    }
}
