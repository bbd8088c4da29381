//! The advisory lock that inkboard processes take around a read-modify-write of a
//! board file, so that two of them changing the same file at once lose nothing.
//!
//! The lock is an `flock` on a sidecar file, `.<name>.lock` beside the board. The
//! board itself cannot carry the lock: every save replaces it by rename, so a process
//! waiting on the old file would get a lock on a file nobody uses any more. The
//! folder could carry it, but then every board in a folder would share one lock, and
//! a process holding one board's lock while it writes another board of the same
//! folder (a "save as") would wait for itself. A sidecar is one small, hidden, empty
//! file per board, never replaced, so its lock always means this board.
//!
//! The sidecar is never deleted: deleting it while another process waits on it
//! would let a third process lock a new sidecar while the second gets the old one,
//! and both would believe they hold the lock.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::FormatError;

/// How long [`FileLock::acquire`] waits for another process.
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(10);

/// An exclusive lock on a board file, held until dropped.
///
/// Limitations: the lock is advisory (programs other than inkboard ignore it, which
/// is why saves also compare [`Stamp`](super::Stamp)s), it is not reentrant (taking
/// it twice for one file in one process waits for the timeout), and on systems
/// without `flock` (not Unix) it does nothing.
#[derive(Debug)]
pub struct FileLock {
    /// Closing the file releases the lock.
    _file: File,
    path: PathBuf,
}

impl FileLock {
    /// Takes the lock of the board file at `path`, waiting up to
    /// [`LOCK_TIMEOUT`] for another holder to let go.
    pub fn acquire(path: &Path) -> Result<FileLock, FormatError> {
        Self::acquire_within(path, LOCK_TIMEOUT)
    }

    /// Like [`acquire`](Self::acquire), with another timeout.
    pub fn acquire_within(path: &Path, timeout: Duration) -> Result<FileLock, FormatError> {
        let sidecar = sidecar(path);
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&sidecar)
            .map_err(|e| FormatError::io("create the lock file beside", path, e))?;
        let start = Instant::now();
        let mut pause = Duration::from_millis(2);
        loop {
            match try_lock(&file) {
                Ok(true) => {
                    return Ok(FileLock {
                        _file: file,
                        path: path.to_path_buf(),
                    })
                }
                Ok(false) if start.elapsed() < timeout => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                Ok(false) => {
                    return Err(FormatError::LockTimeout {
                        path: path.to_path_buf(),
                        seconds: timeout.as_secs().max(1),
                    })
                }
                Err(e) => return Err(FormatError::io("lock", path, e)),
            }
        }
    }

    /// The board file this lock is for.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// `.<name>.lock` beside the board (beside the file, for a link to one).
fn sidecar(path: &Path) -> PathBuf {
    // The lock is the file's, whichever link it is reached through.
    let path = super::follow_links(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.lock"))
}

/// Tries once to take the lock: `Ok(false)` when someone else holds it. Polling
/// rather than a blocking `flock` is what lets the wait have a timeout.
#[cfg(unix)]
fn try_lock(file: &File) -> std::io::Result<bool> {
    use std::os::unix::io::AsRawFd;
    loop {
        // SAFETY: flock only reads the descriptor, which `file` keeps open for the
        // duration of the call.
        let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if rc == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EWOULDBLOCK) => return Ok(false),
            Some(libc::EINTR) => continue,
            _ => return Err(e),
        }
    }
}

#[cfg(not(unix))]
fn try_lock(_file: &File) -> std::io::Result<bool> {
    Ok(true)
}
