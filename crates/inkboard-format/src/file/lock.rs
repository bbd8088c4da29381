//! The advisory lock that inkboard processes take around a read-modify-write of a
//! board file, so that two of them never write the same board at once and lose
//! nothing. It leaves nothing on disk: the lock is an `flock` on the board file
//! itself (on its folder while the board does not exist yet).
//!
//! Why on the board. A lock must be found by every process that may write the
//! board, and the board's own file is what they all reach: the same user in
//! another session, another user sharing the folder, a container or a machine
//! mounting it, a process that names the board through a link or another mount
//! point. A lock file kept elsewhere, such as the user's runtime folder keyed by
//! the board's path, is found only by processes of the same user that chose the
//! same runtime folder (one started by cron or over ssh, without
//! `XDG_RUNTIME_DIR`, picks another) and that spelled the path the same way; the
//! others would each hold "the" lock at once. A hidden `.NAME.lock` file beside
//! the board, what this module used to do, works but stays for ever (it cannot be
//! deleted while someone may be waiting on it), in every folder of boards and in
//! `git status`.
//!
//! Why `flock` rather than an open-file-description `fcntl` lock: both belong to
//! the open file, not to the process (so two threads, or two `FileLock`s, exclude
//! each other too), but an exclusive `fcntl` lock needs the file opened for
//! writing, which a read-only board is not, and closing a file opened for writing
//! tells file watchers (inotify's `IN_CLOSE_WRITE`) that it was written: the
//! application and editors watching the folder would look for a change at every
//! lock. `flock` takes an exclusive lock through a read-only descriptor.
//!
//! What makes it hold although every save replaces the file (a new file renamed
//! over the old one, `file.rs`), which would leave a lock on a file nobody uses:
//!
//! 1. **A waiter checks what it got.** Once it has the lock, the file it locked
//!    must still be the one at the board's name (same device and inode); if a
//!    save replaced it meanwhile, it locks the new file (waiting again if need be).
//! 2. **A save under the lock locks its new file before putting it in place**
//!    ([`adopt`], called by every save), so the board is never, not for an
//!    instant, a file nobody holds: a process opening the new board waits for the
//!    holder as it would have waited on the old one. The holder keeps both until
//!    it lets go. The process finds the lock a save belongs to by the board's
//!    place (its folder, canonical, and its name), whichever way the path was
//!    spelled.
//! 3. **A holder follows a replacement by another program.** A program that
//!    ignores the lock (an editor, a script) may rename a new file over the board
//!    while it is locked; that file is nobody's, and the next inkboard process to
//!    open the board takes it at once. A holder that finds the board changed on
//!    disk and goes on (the engine runs the call again) first takes the lock of
//!    the file now in place ([`FileLock::follow`]), waiting for that process if
//!    need be, so the two take turns again instead of both writing.
//!
//! A board that does not exist yet has no file to lock, so its folder is locked
//! instead (every process creating a board in that folder takes it, and rule 1
//! applies: once locked, the board must still be missing, else its own lock is
//! taken). A save that creates the board locks the new file first, by rule 2.
//!
//! Limitations: the lock is advisory (programs other than inkboard ignore it,
//! which is why saves also compare [`Stamp`](super::Stamp)s). It is not reentrant:
//! taking it twice for one board in one process waits for the timeout; so does
//! taking a second missing board's lock in the folder of a first one, which
//! inkboard never does (it never holds two boards' locks at once), and processes
//! creating different boards in one folder take turns. A board that another
//! program replaces or removes while it is locked is not covered from that
//! instant until the holder follows it (rule 3) or lets go: another inkboard
//! process may start on it meanwhile, and one of the two then finds it changed on
//! disk (the saves' stamps never overwrite what they did not read). Under an
//! outside program rewriting the board without pause, that costs some more
//! refusals than a lock kept apart from the board would (`RELIABILITY.md` §2). When there is nothing
//! this user can open to lock (a board it may not read, a folder that is missing
//! or unreadable), the lock holds nothing: no inkboard process of this user can
//! read or change that board either, and the call then fails with its own reason.
//! On systems without `flock` (not Unix) it does nothing.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use crate::FormatError;

/// How long [`FileLock::acquire`] waits for another process.
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(10);

/// An exclusive lock on a board file, held until dropped.
///
/// Limitations: see the module documentation (advisory, not reentrant, a board
/// replaced by another program is not covered).
#[derive(Debug)]
pub struct FileLock {
    held: Arc<Held>,
    path: PathBuf,
}

/// What one lock holds: the open files whose `flock` it is (the board or its
/// folder, then each file a save under it put in the board's place). Closing
/// them releases the lock.
#[derive(Debug)]
struct Held {
    place: PathBuf,
    files: Mutex<Vec<File>>,
}

impl Held {
    fn files(&self) -> MutexGuard<'_, Vec<File>> {
        self.files.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The locks this process holds, for [`adopt`] to find by a board's place.
static HELD: Mutex<Vec<Weak<Held>>> = Mutex::new(Vec::new());

fn registry() -> MutexGuard<'static, Vec<Weak<Held>>> {
    HELD.lock().unwrap_or_else(|e| e.into_inner())
}

impl FileLock {
    /// Takes the lock of the board file at `path`, waiting up to
    /// [`LOCK_TIMEOUT`] for another holder to let go.
    pub fn acquire(path: &Path) -> Result<FileLock, FormatError> {
        Self::acquire_within(path, LOCK_TIMEOUT)
    }

    /// Like [`acquire`](Self::acquire), with another timeout.
    pub fn acquire_within(path: &Path, timeout: Duration) -> Result<FileLock, FormatError> {
        // The lock is the file's, whichever link it is reached through.
        let board = super::follow_links(path);
        let deadline = Instant::now() + timeout;
        let timed_out = || FormatError::LockTimeout {
            path: path.to_path_buf(),
            seconds: timeout.as_secs().max(1),
        };
        let file = loop {
            let Some((file, spot)) = lockable(&board) else {
                // Gone or changed between the look and the open: look again.
                if Instant::now() >= deadline {
                    return Err(timed_out());
                }
                continue;
            };
            let Some(file) = file else {
                break None;
            };
            let file = match wait_for(file, spot, &board, deadline)
                .map_err(|e| FormatError::io("lock", path, e))?
            {
                Some(file) => file,
                None => return Err(timed_out()),
            };
            // Rule 1: a save may have replaced the board while we waited.
            if Spot::of_locked(&file, spot) == Some(Spot::now(&board)) {
                break Some(file);
            }
            if Instant::now() >= deadline {
                return Err(timed_out());
            }
        };
        let held = Arc::new(Held {
            place: place(&board),
            files: Mutex::new(file.into_iter().collect()),
        });
        let mut all = registry();
        all.retain(|h| h.strong_count() > 0);
        all.push(Arc::downgrade(&held));
        drop(all);
        Ok(FileLock {
            held,
            path: path.to_path_buf(),
        })
    }

    /// The board file this lock is for.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Rule 3 of the module documentation: if another program has replaced the
    /// board since the lock was taken, takes the lock of the file now in its place
    /// too, waiting for it as [`acquire`](Self::acquire) does (another inkboard
    /// process may have taken it meanwhile). Callers that go on after finding the
    /// board changed on disk (the engine's retries) call it first.
    pub fn follow(&self) -> Result<(), FormatError> {
        let board = super::follow_links(&self.path);
        let deadline = Instant::now() + LOCK_TIMEOUT;
        loop {
            if self.covers(Spot::now(&board)) {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(FormatError::LockTimeout {
                    path: self.path.clone(),
                    seconds: LOCK_TIMEOUT.as_secs(),
                });
            }
            let Some((file, spot)) = lockable(&board) else {
                continue;
            };
            let Some(file) = file else {
                return Ok(());
            };
            // A short wait, then a new look: the file waited on may stop being
            // the board meanwhile, and waiting on it then would be for nothing.
            let slice = deadline.min(Instant::now() + Duration::from_millis(50));
            if let Some(file) = wait_for(file, spot, &board, slice)
                .map_err(|e| FormatError::io("lock", &self.path, e))?
            {
                self.held.files().push(file);
            }
        }
    }

    /// Whether one of the files this lock holds is `spot`.
    fn covers(&self, spot: Spot) -> bool {
        self.held.files().iter().any(|file| {
            file.metadata().is_ok_and(|meta| match spot {
                Spot::Board(..) => meta.is_file() && Spot::board(&meta) == spot,
                Spot::Folder => meta.is_dir(),
            })
        })
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        // The files close (and the lock goes) when `held` drops, just after.
        registry().retain(|h| h.strong_count() > 0 && !std::ptr::eq(h.as_ptr(), &*self.held));
    }
}

/// Rule 2 of the module documentation: `new`, a save's new file for the board at
/// `target`, not yet in place, joins the lock this process holds on that board
/// (if it holds one), so that the board is locked from its first instant in
/// place. Nobody else can have locked `new`: it has just been made, under a
/// name nobody else uses.
pub(super) fn adopt(target: &Path, new: &File) {
    let place = place(target);
    let holder = registry()
        .iter()
        .filter_map(Weak::upgrade)
        .find(|h| h.place == place);
    let Some(holder) = holder else { return };
    if let Ok(file) = new.try_clone() {
        if matches!(try_lock(&file), Ok(true)) {
            holder.files().push(file);
        }
    }
}

/// A board's place, the same however its path is spelled: its folder made
/// canonical (absolute, links resolved), and its name.
fn place(board: &Path) -> PathBuf {
    let name = board.file_name().unwrap_or_default();
    match fs::canonicalize(super::folder(board)) {
        Ok(folder) => folder.join(name),
        Err(_) => board.to_path_buf(),
    }
}

/// What a lock is taken on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spot {
    /// The board, a regular file: its device and inode.
    Board(u64, u64),
    /// The folder, while there is no board (or something else than a file
    /// stands at its name: nothing a save could replace).
    Folder,
}

impl Spot {
    fn board(meta: &fs::Metadata) -> Spot {
        let (device, inode) = id(meta);
        Spot::Board(device, inode)
    }

    /// What a lock on the board at `board` is taken on now.
    fn now(board: &Path) -> Spot {
        match fs::metadata(board) {
            Ok(meta) if meta.is_file() => Spot::board(&meta),
            _ => Spot::Folder,
        }
    }

    /// What `file`, opened as `spot`, is: the board's file may have been another
    /// by the time it was opened.
    fn of_locked(file: &File, spot: Spot) -> Option<Spot> {
        match spot {
            Spot::Board(..) => file.metadata().ok().map(|meta| Spot::board(&meta)),
            Spot::Folder => Some(Spot::Folder),
        }
    }
}

/// The file to lock for `board` now, and what it is: `Some((None, _))` when there
/// is nothing this user can open (see the module documentation); `None` when the
/// board went away between the look and the open.
fn lockable(board: &Path) -> Option<(Option<File>, Spot)> {
    let spot = Spot::now(board);
    let opened = match spot {
        Spot::Board(..) => open_board(board, false),
        Spot::Folder => File::open(super::folder(board)),
    };
    match opened {
        Ok(file) => Some((Some(file), spot)),
        Err(e) if e.kind() == io::ErrorKind::NotFound && spot != Spot::Folder => None,
        Err(_) => Some((None, spot)),
    }
}

/// Waits for the lock on `file`, opened as `spot` of `board`, until `deadline`;
/// gives the file locked, `None` at the deadline. On NFS, `flock` is emulated with
/// a byte-range lock, which can be exclusive only on a file opened for writing
/// (`EBADF` otherwise): there the board is opened again, to read and write.
fn wait_for(file: File, spot: Spot, board: &Path, deadline: Instant) -> io::Result<Option<File>> {
    match wait(&file, deadline) {
        Ok(got) => Ok(got.then_some(file)),
        Err(e) if needs_write(&e) && spot != Spot::Folder => {
            let file = open_board(board, true)?;
            wait(&file, deadline).map(|got| got.then_some(file))
        }
        Err(e) => Err(e),
    }
}

#[cfg(unix)]
fn needs_write(e: &io::Error) -> bool {
    e.raw_os_error() == Some(libc::EBADF)
}

#[cfg(not(unix))]
fn needs_write(_e: &io::Error) -> bool {
    false
}

/// Opens the board at `path` to read (and to write, with `write`), without
/// waiting and without taking a terminal: only regular files are opened, but one
/// may have been swapped for a pipe or a device since it was looked at.
fn open_board(path: &Path, write: bool) -> io::Result<File> {
    let mut options = File::options();
    options.read(true).write(write);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// A file's device and inode.
#[cfg(unix)]
fn id(meta: &fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn id(_meta: &fs::Metadata) -> (u64, u64) {
    (0, 0)
}

/// Waits until `file` is locked (true) or `deadline` passes (false). Polling
/// rather than a blocking `flock` is what lets the wait have a timeout.
fn wait(file: &File, deadline: Instant) -> io::Result<bool> {
    let mut pause = Duration::from_millis(2);
    loop {
        if try_lock(file)? {
            return Ok(true);
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(false);
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// Tries once to take the lock: `Ok(false)` when someone else holds it.
#[cfg(unix)]
fn try_lock(file: &File) -> io::Result<bool> {
    use std::os::unix::io::AsRawFd;
    loop {
        // SAFETY: flock only reads the descriptor, which `file` keeps open for the
        // duration of the call.
        let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if rc == 0 {
            return Ok(true);
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EWOULDBLOCK) => return Ok(false),
            Some(libc::EINTR) => continue,
            _ => return Err(e),
        }
    }
}

#[cfg(not(unix))]
fn try_lock(_file: &File) -> io::Result<bool> {
    Ok(true)
}
