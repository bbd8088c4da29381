//! Board files on disk: which names are board files, loading with a [`Stamp`] of
//! what was read, and saving that never loses anything.
//!
//! A save is atomic: the text is made first, written to a hidden temporary file in
//! the same folder, flushed to disk, then renamed over the target, so a reader sees
//! the old file or the new one, never half of one; a temporary file left by a
//! killed save is removed by a later save once its writer is gone (`file/temp.rs`).
//! It is also checked: it writes only when the file on disk is still the one that
//! was read (same [`Stamp`]), so an edit made meanwhile by a person or another
//! program is never overwritten. The check and the write are one step only under
//! a [`FileLock`], which every inkboard process takes around a load → change → save
//! (a lock on the board file itself, which each save passes on to its new file).
//!
//! Two records of a file's state serve two purposes. A [`Stamp`] (a hash of the
//! content) is the proof a save relies on: the bytes on disk are read and hashed
//! right before every write. A [`Stat`] (inode, size, times) is only a hint, cheap
//! to get, that lets a caller skip reading a file it has already seen when nothing
//! about it moved; it never decides whether a save may go ahead.

mod export;
mod lock;
mod settle;
mod swap;
mod temp;

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use inkboard_core::limits::{Limit, MAX_FILE_BYTES};
use inkboard_core::Board;
use xxhash_rust::xxh3::xxh3_128;

use crate::json::{board_from_json, to_pretty_string};
use crate::FormatError;

pub use export::{export_target, normalize, Existing};
pub use lock::{FileLock, LOCK_TIMEOUT};
pub use settle::{MOST_WAIT, SETTLING};
pub use temp::STALE_TEMP_AGE;

/// The kinds of board file, by extension. All hold the same JSON document; the
/// other names are accepted so that files named for other tools open as they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `.inkboard`
    Inkboard,
    /// `.inkboard.json`
    InkboardJson,
    /// `.tableau.json`
    TableauJson,
}

impl FileKind {
    /// The kind of file `path` names, from its extension (case-insensitive).
    pub fn from_path(path: &Path) -> Result<FileKind, FormatError> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        // The longer names first: ".inkboard.json" also ends in ".json".
        [
            FileKind::InkboardJson,
            FileKind::TableauJson,
            FileKind::Inkboard,
        ]
        .into_iter()
        .find(|kind| name.len() > kind.extension().len() && name.ends_with(kind.extension()))
        .ok_or_else(|| FormatError::UnknownExtension {
            path: path.to_path_buf(),
        })
    }

    /// The file name of `path` without its board extension:
    /// `plans/Q3 roadmap.inkboard.json` → `Q3 roadmap`. Other names come back whole.
    pub fn stem(path: &Path) -> String {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match FileKind::from_path(path) {
            Ok(kind) => name[..name.len() - kind.extension().len()].to_string(),
            Err(_) => name,
        }
    }

    /// The extension, with its dot.
    pub fn extension(self) -> &'static str {
        match self {
            FileKind::Inkboard => ".inkboard",
            FileKind::InkboardJson => ".inkboard.json",
            FileKind::TableauJson => ".tableau.json",
        }
    }
}

/// What a file held when it was read or written: a 128-bit hash of its bytes (XXH3)
/// and their count. Two stamps are equal exactly when the contents are (a touch that
/// changes nothing is no change; a same-size edit within the same second still is).
///
/// Stamps are only compared, to notice an edit made by someone else; they guard
/// against accidents, not against an adversary (who could write the file anyway),
/// so a fast non-cryptographic hash is enough: two different contents share a
/// 128-bit hash by chance with a probability of about 2^-128. Reading and hashing
/// a 1.7 MB file takes about 0.08 ms, where it took 0.85 ms with SHA-256.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    len: u64,
    hash: u128,
}

impl Stamp {
    /// The stamp of these bytes.
    pub fn of(bytes: &[u8]) -> Stamp {
        Stamp {
            len: bytes.len() as u64,
            hash: xxh3_128(bytes),
        }
    }

    /// The size of the file, in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True for an empty file.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// What the file system says of a file: which file it is (device and inode), its
/// size, and when its content and its record last changed, to the nanosecond.
///
/// A file whose stat is the same as when it was read (or written) is taken to hold
/// the same bytes, which spares reading and hashing it again. That is a hint, not
/// proof: timestamps move in steps of the kernel's clock tick (a few milliseconds),
/// so a program that rewrites the file in place, to the same size, within the tick
/// of the last write can leave every field as it was. Such a change is missed only
/// by callers that trust the stat; [`save`] never does, it compares [`Stamp`]s. A
/// write by replacement (a new file renamed over, as editors and inkboard do) gets
/// a new inode and is always seen.
///
/// `None` where it is taken on a system that does not give these fields (not Unix):
/// there every file is read again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    device: u64,
    inode: u64,
    len: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

impl Stat {
    #[cfg(unix)]
    fn of(meta: &fs::Metadata) -> Option<Stat> {
        use std::os::unix::fs::MetadataExt;
        Some(Stat {
            device: meta.dev(),
            inode: meta.ino(),
            len: meta.len(),
            modified: (meta.mtime(), meta.mtime_nsec()),
            changed: (meta.ctime(), meta.ctime_nsec()),
        })
    }

    #[cfg(not(unix))]
    fn of(_meta: &fs::Metadata) -> Option<Stat> {
        None
    }
}

/// A board read from a file.
#[derive(Debug)]
pub struct Loaded {
    pub board: Board,
    /// What was on disk: pass it to [`save`] to write back only if nobody changed it.
    pub stamp: Stamp,
    /// The file's stat, taken just before its bytes were read: any change made to
    /// the file after that moves it (within the limits told on [`Stat`]).
    pub stat: Option<Stat>,
    /// The size of the file.
    pub bytes: usize,
}

/// A board written to a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// What is on disk now: the `expected` stamp of the next save.
    pub stamp: Stamp,
    /// The stat of the file written, taken once it was in place.
    pub stat: Option<Stat>,
    /// The size of the file.
    pub bytes: usize,
}

/// Reads a board file. A missing file is [`FormatError::NotFound`]; a file that does
/// not read is the reason, with the file named ([`FormatError::InFile`]). A file
/// found empty or cut short while another program rewrites it in place is read
/// again once that program is done, within half a second (`file/settle.rs`).
pub fn load(path: &Path) -> Result<Loaded, FormatError> {
    FileKind::from_path(path)?;
    let mut settle = settle::Settle::new();
    loop {
        let (bytes, meta) = read_board_file(path)?;
        match board_from_bytes(&bytes) {
            Ok(board) => {
                return Ok(Loaded {
                    board,
                    stamp: Stamp::of(&bytes),
                    stat: Stat::of(&meta),
                    bytes: bytes.len(),
                })
            }
            Err(e) if settle.read_again(path, &meta, &bytes) => drop(e),
            Err(e) => return Err(e.in_file(path)),
        }
    }
}

/// The bytes of the board file at `path`, and its metadata taken just before they
/// were read (so that any change made after it moves its [`Stat`]).
fn read_board_file(path: &Path) -> Result<(Vec<u8>, fs::Metadata), FormatError> {
    let file = match open_to_read(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(FormatError::NotFound {
                path: path.to_path_buf(),
            })
        }
        Err(e) => return Err(FormatError::io("read", path, e)),
    };
    // The metadata of the very file opened, before its bytes are read.
    let meta = file
        .metadata()
        .map_err(|e| FormatError::io("read", path, e))?;
    readable_kind(&meta).map_err(|e| FormatError::io("read", path, e))?;
    // A file over the limit is refused from its size alone, before a byte is read;
    // and no more than a byte past the limit is read whatever the size said (a
    // file growing meanwhile), so the text's own check refuses it too.
    FormatError::over(Limit::FileBytes, "the file", meta.len()).map_err(|e| e.in_file(path))?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| FormatError::io("read", path, e))?;
    Ok((bytes, meta))
}

/// Opens `path` for reading without waiting: opening a named pipe blocks until
/// another program opens its other end, which would hold a call (and the lock) for
/// ever; non-blocking, the open returns and [`load`] refuses it by its type.
fn open_to_read(path: &Path) -> io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Refuses what is neither a file nor a folder (a folder fails on its own, with its
/// own message): a pipe or a device would never end, or never start, when read.
fn readable_kind(meta: &fs::Metadata) -> io::Result<()> {
    if meta.is_file() || meta.is_dir() {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        "it is a pipe, a socket or a device, not a file",
    ))
}

/// The UTF-8 byte order mark, which some editors (Notepad, Excel's exports, some
/// Windows tools) put at the start of a text file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Reads the bytes of a board file, whatever its kind (every [`FileKind`] holds the
/// same JSON document): [`load`] reads files with it, so it is also what the fuzz
/// target `board_file` drives. Errors name no file; [`load`] adds it. A byte order
/// mark at the start is skipped ([`board_from_json`] says why).
pub fn board_from_bytes(bytes: &[u8]) -> Result<Board, FormatError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        FormatError::invalid(
            "",
            format!(
                "the file is not UTF-8 text (bad byte at offset {}): it is not a board, or it is damaged",
                e.valid_up_to()
            ),
        )
    })?;
    board_from_json(text)
}

/// The stat of the file at `path` now; `None` when there is no file (or no stat on
/// this system). Cheap: it does not read the file.
pub fn stat_of(path: &Path) -> Result<Option<Stat>, FormatError> {
    match fs::metadata(path) {
        Ok(meta) => Ok(Stat::of(&meta)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(FormatError::io("read", path, e)),
    }
}

/// The stamp of what is on disk now; `None` when there is no file.
pub fn stamp_of(path: &Path) -> Result<Option<Stamp>, FormatError> {
    let read = || -> io::Result<Vec<u8>> {
        let mut file = open_to_read(path)?;
        readable_kind(&file.metadata()?)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        Ok(bytes)
    };
    match read() {
        Ok(bytes) => Ok(Some(Stamp::of(&bytes))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(FormatError::io("read", path, e)),
    }
}

/// Saves a board, atomically, only over what the caller has seen.
///
/// - `expected: Some(stamp)`: the file must still be as it was when read (or last
///   saved); if it changed or went away, [`FormatError::ChangedOnDisk`] and nothing
///   is written.
/// - `expected: None`: the board is new; if a file is already there,
///   [`FormatError::AlreadyExists`] and nothing is written. (Overwriting is the
///   caller's explicit decision: [`save_overwrite`].)
///
/// The check reads and hashes what is on disk right before the write: it never
/// trusts a [`Stat`] to skip it. The file's stat, taken with it, is compared once
/// more after the slow part (writing and syncing the temporary file), so that a
/// program ignoring the lock that replaces or rewrites the file meanwhile is
/// noticed too, and on Linux the new file is swapped in only if that stat still
/// holds (`file/swap.rs`); elsewhere, the instant between the last look and the
/// rename remains (on systems without [`Stat`], the whole write). The check and the write are atomic together
/// only against callers holding the file's [`FileLock`]. Creating (`None`) is atomic even without it: the new file is linked
/// into place, which fails if a file appeared meanwhile.
pub fn save(path: &Path, board: &Board, expected: Option<&Stamp>) -> Result<Saved, FormatError> {
    FileKind::from_path(path)?;
    let text = file_text(path, board)?;
    let target = resolve(path);
    // Taken before the bytes are read, so a change after it moves it.
    let checked = stat_of(&target)?;
    match (expected, stamp_of(&target)?) {
        (None, Some(_)) => Err(FormatError::AlreadyExists {
            path: path.to_path_buf(),
        }),
        (Some(_), None) => Err(FormatError::ChangedOnDisk {
            path: path.to_path_buf(),
        }),
        (Some(want), Some(now)) if *want != now => Err(FormatError::ChangedOnDisk {
            path: path.to_path_buf(),
        }),
        (None, None) => write_atomic(path, &target, text.as_bytes(), Mode::Create),
        (Some(_), Some(_)) => write_atomic(
            path,
            &target,
            text.as_bytes(),
            Mode::ReplaceUnchanged(checked),
        ),
    }
}

/// Saves a board whatever is on disk: the caller has decided to overwrite (or the
/// file is new). Atomic like [`save`].
pub fn save_overwrite(path: &Path, board: &Board) -> Result<Saved, FormatError> {
    FileKind::from_path(path)?;
    let text = file_text(path, board)?;
    let target = resolve(path);
    write_atomic(path, &target, text.as_bytes(), Mode::Replace)
}

/// The file text of a board, refused before anything is written when it is over
/// the size a file may have: it could not be loaded again.
fn file_text(path: &Path, board: &Board) -> Result<String, FormatError> {
    let text = to_pretty_string(board);
    FormatError::over(
        Limit::FileBytes,
        "the board was not saved: it",
        text.len() as u64,
    )
    .map_err(|e| e.in_file(path))?;
    Ok(text)
}

/// Writes an export (SVG, PNG, PDF bytes) to `path` atomically, with the same
/// temp-file, fsync and rename as a board save, by the stricter rules of exports
/// (`file/export.rs`): links only within their folder, regular files only, and an
/// existing file replaced only with [`Existing::Replace`].
pub fn write_export(path: &Path, bytes: &[u8], existing: Existing) -> Result<usize, FormatError> {
    let target = export_target(path)?;
    exported(path, existing, || {
        write_atomic(path, &target, bytes, export_mode(existing))
    })
    .map(|saved| saved.bytes)
}

/// Writes a board as an export (a copy in a board file) to `path`: the rules of
/// [`write_export`], the file text of [`save`]. The caller holds the target's lock.
pub fn save_export(path: &Path, board: &Board, existing: Existing) -> Result<Saved, FormatError> {
    FileKind::from_path(path)?;
    let text = file_text(path, board)?;
    let target = export_target(path)?;
    exported(path, existing, || {
        write_atomic(path, &target, text.as_bytes(), export_mode(existing))
    })
}

/// Runs an export's `write`, refusing first an output that exists when it may not
/// be replaced (the write itself refuses one that appears meanwhile), in the
/// words of exports.
fn exported(
    path: &Path,
    existing: Existing,
    write: impl FnOnce() -> Result<Saved, FormatError>,
) -> Result<Saved, FormatError> {
    let exists = || FormatError::OutputExists {
        path: path.to_path_buf(),
    };
    if existing == Existing::Refuse && export_target(path)?.exists() {
        return Err(exists());
    }
    write().map_err(|e| match e {
        FormatError::AlreadyExists { .. } => exists(),
        other => other,
    })
}

/// An export's way of writing: creating refuses a file that is there, atomically.
fn export_mode(existing: Existing) -> Mode {
    match existing {
        Existing::Refuse => Mode::Create,
        Existing::Replace => Mode::Replace,
    }
}

/// The file a save really writes: the target of a symbolic link (see
/// [`follow_links`]), so that saving through a link updates the file it points to
/// instead of replacing the link.
fn resolve(path: &Path) -> PathBuf {
    follow_links(path)
}

/// The file `path` names once symbolic links are followed: `path` itself unless it
/// is a link; a link's target (relative to the link's folder), followed again while
/// that is a link too. A dangling link gives the file it points to, which a save
/// then creates, so the link starts to work instead of being replaced by a file.
/// Only the last component is followed (links among the folders are left to the
/// system), and a loop of links ends after 40 steps, as the system's own lookup
/// does, with the path reached; the system then reports the loop.
pub fn follow_links(path: &Path) -> PathBuf {
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        let Ok(target) = fs::read_link(&at) else {
            break;
        };
        at = match at.parent() {
            Some(folder) if target.is_relative() => folder.join(target),
            _ => target,
        };
    }
    at
}

/// The permissions of the file at `target` that a save replaces (`None` when there
/// is none), refused with [`FormatError::ReadOnly`] when it is read-only: nobody
/// may write it (mode 0444 was set on purpose, so even root, whom the system lets
/// write anything, is refused), or this user may not. The shell's `>` refuses such
/// a file; a rename only needs the folder to be writable and would replace it
/// silently, so this check stands in for the one the rename skips.
fn writable_mode(shown: &Path, target: &Path) -> Result<Option<u32>, FormatError> {
    let meta = match fs::metadata(target) {
        Ok(meta) => meta,
        Err(_) => return Ok(None),
    };
    if meta.is_file() && (meta.permissions().readonly() || !may_write(target)) {
        return Err(FormatError::ReadOnly {
            path: shown.to_path_buf(),
        });
    }
    Ok(mode_bits(&meta))
}

/// Whether this user may write the file at `path` (the system's own answer,
/// `access(W_OK)`); true when the system says something else than "no".
#[cfg(unix)]
fn may_write(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c_path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return true;
    };
    // SAFETY: a valid NUL-terminated path, which access only reads.
    let denied = unsafe { libc::access(c_path.as_ptr(), libc::W_OK) } != 0;
    !(denied && io::Error::last_os_error().raw_os_error() == Some(libc::EACCES))
}

#[cfg(not(unix))]
fn may_write(_path: &Path) -> bool {
    true
}

/// The permission bits of a file (setuid, setgid and sticky included).
#[cfg(unix)]
fn mode_bits(meta: &fs::Metadata) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    Some(meta.permissions().mode() & 0o7777)
}

#[cfg(not(unix))]
fn mode_bits(_meta: &fs::Metadata) -> Option<u32> {
    None
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Fail if a file appears at the target.
    Create,
    /// Replace what is at the target.
    Replace,
    /// Replace what is at the target only if its stat is still this one (`None`:
    /// no stat on this system).
    ReplaceUnchanged(Option<Stat>),
}

/// The folder a file is in ("." for a bare file name).
fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes `bytes` to `target` atomically; `shown` is the path as the caller gave it,
/// for messages.
fn write_atomic(
    shown: &Path,
    target: &Path,
    bytes: &[u8],
    mode: Mode,
) -> Result<Saved, FormatError> {
    // A replaced file keeps its permissions, and the temporary file has them from
    // its first instant: a copy of a private board is never readable by others,
    // even for the moment before a rename (or for good, if the save is killed).
    let keep = match mode {
        Mode::Create => None,
        Mode::Replace | Mode::ReplaceUnchanged(_) => writable_mode(shown, target)?,
    };
    let (mut file, mut temp) = temp::create(shown, target, keep)?;
    file.write_all(bytes)
        .and_then(|_| file.sync_all())
        .map_err(|e| FormatError::io("write a temporary file for", shown, e))?;
    // Locked before it is the board, if this process holds the board's lock, so
    // the lock holds across the replacement (`file/lock.rs`, rule 2).
    lock::adopt(target, &file);
    // `file` stays open so that its stat can be taken once it is in place.
    match mode {
        Mode::Replace | Mode::ReplaceUnchanged(_) => {
            // The last look (see `save`): the file checked before the temporary
            // file was written must still be the one there, up to the swap that
            // puts the new one in place only if it is (`file/swap.rs`).
            let changed = || FormatError::ChangedOnDisk {
                path: shown.to_path_buf(),
            };
            let mut swapped = false;
            if let Mode::ReplaceUnchanged(checked) = mode {
                if stat_of(target)? != checked {
                    return Err(changed());
                }
                if let Some(checked) = checked {
                    match swap::place_if_unchanged(&mut temp, target, &checked, &file)
                        .map_err(|e| FormatError::io("replace", shown, e))?
                    {
                        swap::Swap::Placed => swapped = true,
                        swap::Swap::Refused => return Err(changed()),
                        swap::Swap::Unsupported => {}
                    }
                }
            }
            if !swapped {
                fs::rename(&temp.path, target).map_err(|e| FormatError::io("replace", shown, e))?;
                temp.placed = true;
            }
        }
        Mode::Create => {
            // A hard link fails if the target exists, so a file that appeared since
            // the check is never clobbered. The temp name is then removed by `Temp`.
            match fs::hard_link(&temp.path, target) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    return Err(FormatError::AlreadyExists {
                        path: shown.to_path_buf(),
                    })
                }
                // Some file systems (FAT, some network mounts) have no hard links;
                // there the check made by the caller has to do.
                Err(_) => {
                    fs::rename(&temp.path, target)
                        .map_err(|e| FormatError::io("create", shown, e))?;
                    temp.placed = true;
                }
            }
        }
    }
    drop(temp);
    // Taken through the open file, so it is the stat of what was written even if
    // the path was replaced meanwhile; and after the rename or link and the removal
    // of the temporary name, which all change the file's record (its ctime).
    let stat = file.metadata().ok().and_then(|meta| Stat::of(&meta));
    drop(file);
    // This save is in place: what killed saves left beside it can go, and the
    // folder's sync below makes those removals durable with the rename.
    temp::remove_stale(target);
    // Makes the rename itself durable. It has happened and is visible, so a failure
    // here (some file systems refuse to sync a folder) must not report the save as
    // failed: the caller would think the old file is still there.
    if let Ok(dir) = File::open(folder(target)) {
        let _ = dir.sync_all();
    }
    Ok(Saved {
        stamp: Stamp::of(bytes),
        stat,
        bytes: bytes.len(),
    })
}
