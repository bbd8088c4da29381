//! The one error type of this crate. Every message names what was wrong (the file,
//! or the place in the document such as `pages[0].objects[3].geom`) and ends with
//! how to put it right, because these messages reach people and AI agents verbatim.

use std::io;
use std::path::PathBuf;

use inkboard_core::echo::echo_path;
use inkboard_core::limits::Limit;

use crate::json::FORMAT_VERSION;

/// Why a board could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The text is not JSON at all (or is cut short).
    #[error("not valid JSON at line {line}, column {column}: {reason}: repair the file by hand or restore a backup")]
    NotJson {
        line: usize,
        column: usize,
        reason: String,
    },

    /// The text is JSON but not an inkboard document (no or another `"format"`).
    #[error("this is not an inkboard file ({found}): open a file saved by inkboard")]
    NotInkboard {
        /// What was found instead, already phrased, e.g. `its "format" is "drawio"`.
        found: String,
    },

    /// The document has a format version this build does not know.
    #[error("this board was written by a newer inkboard (file format version {version}; this one reads up to {}): upgrade inkboard to open it", FORMAT_VERSION)]
    TooNew { version: u64 },

    /// A field is missing, has the wrong type or a value out of range, or the
    /// records contradict each other (duplicate ids, dangling references). `at` is
    /// the place in the document, empty for the document itself.
    #[error("{}{message}", if at.is_empty() { String::new() } else { format!("{at}: ") })]
    Invalid { at: String, message: String },

    /// A file or document over one of the limits of [`inkboard_core::limits`]
    /// (its size, its nesting): `what` names it, `got` is how much it holds. Found
    /// before the document is read, or, for a save, before anything is written.
    #[error("{}", limit.explain(what, *got))]
    TooLarge {
        limit: Limit,
        what: String,
        got: u64,
    },

    /// A content error ([`NotJson`](Self::NotJson), [`Invalid`](Self::Invalid)...)
    /// in a file: the same error with the file named in front.
    #[error("{}: {error}", echo_path(path))]
    InFile {
        path: PathBuf,
        error: Box<FormatError>,
    },

    /// The board file does not exist.
    #[error(
        "{} does not exist: check the path, or make a new board there with create_board",
        echo_path(path)
    )]
    NotFound { path: PathBuf },

    /// A new board was to be saved where a file already is.
    #[error("{} already exists: choose another path, or overwrite it explicitly (create_board with overwrite: true)", echo_path(path))]
    AlreadyExists { path: PathBuf },

    /// The file changed on disk (or went away) since it was read, so saving would
    /// throw away someone else's edit. Nothing was written.
    #[error("{} changed on disk since it was read, so it was not overwritten: read it again and redo the change", echo_path(path))]
    ChangedOnDisk { path: PathBuf },

    /// A file that is read-only (no write permission for anyone, or none for this
    /// user) was to be replaced. The shell refuses `>` on it; so does inkboard.
    #[error("{} is read-only, so it was not replaced: make it writable (chmod u+w) if it should be, or write to another file", echo_path(path))]
    ReadOnly { path: PathBuf },

    /// An export's output already exists and the call did not ask to replace it.
    #[error(
        "{} already exists: choose another path, or pass overwrite: true to replace it",
        echo_path(path)
    )]
    OutputExists { path: PathBuf },

    /// An export's output is not a regular file (a folder, a pipe, a socket, a
    /// device): such a thing is never replaced. `what` names it.
    #[error("{} is {what}, not a file: give the path of a file", echo_path(path))]
    NotAFile { path: PathBuf, what: &'static str },

    /// An export's output is a symbolic link to a file in another folder: writing
    /// through it could replace any file the user can write (a link planted in a
    /// shared folder), so it is refused.
    #[error("{} is a symbolic link to {}, outside its folder, so it was not written through: give the file's own path", echo_path(path), echo_path(target))]
    LinkOutside { path: PathBuf, target: PathBuf },

    /// A file name without one of the board extensions.
    #[error("{} is not a board file name: use a name ending in .inkboard, .inkboard.json or .tableau.json", echo_path(path))]
    UnknownExtension { path: PathBuf },

    /// Another process held the board's lock for too long.
    #[error("{} is locked by another inkboard process for more than {seconds} s: wait for it to finish, or stop it if it hangs", echo_path(path))]
    LockTimeout { path: PathBuf, seconds: u64 },

    /// The operating system refused a file operation.
    #[error(
        "could not {action} {}: {source}: {}",
        echo_path(path),
        io_hint(source)
    )]
    Io {
        /// What was being done, e.g. "read", "write a temporary file beside".
        action: &'static str,
        path: PathBuf,
        source: io::Error,
    },
}

impl FormatError {
    /// An [`Invalid`](Self::Invalid) error at `at`.
    pub(crate) fn invalid(at: impl Into<String>, message: impl Into<String>) -> Self {
        FormatError::Invalid {
            at: at.into(),
            message: message.into(),
        }
    }

    /// Refuses `got` over `limit` as [`TooLarge`](Self::TooLarge).
    pub(crate) fn over(limit: Limit, what: impl Into<String>, got: u64) -> Result<(), Self> {
        if got <= limit.value() {
            return Ok(());
        }
        Err(FormatError::TooLarge {
            limit,
            what: what.into(),
            got,
        })
    }

    /// An [`Io`](Self::Io) error.
    pub(crate) fn io(action: &'static str, path: impl Into<PathBuf>, source: io::Error) -> Self {
        FormatError::Io {
            action,
            path: path.into(),
            source,
        }
    }

    /// Names the file in front of a content error. File errors already name theirs.
    pub(crate) fn in_file(self, path: impl Into<PathBuf>) -> Self {
        match self {
            FormatError::NotJson { .. }
            | FormatError::NotInkboard { .. }
            | FormatError::TooNew { .. }
            | FormatError::Invalid { .. }
            | FormatError::TooLarge { .. } => FormatError::InFile {
                path: path.into(),
                error: Box::new(self),
            },
            other => other,
        }
    }
}

/// The one-sentence fix for an I/O failure, by its kind.
fn io_hint(error: &io::Error) -> &'static str {
    match error.kind() {
        io::ErrorKind::PermissionDenied => "check the permissions of the file and its folder",
        io::ErrorKind::NotFound => "check that the folder exists",
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => {
            "free some disk space and try again"
        }
        io::ErrorKind::ReadOnlyFilesystem => "save to a writable place",
        io::ErrorKind::IsADirectory => "give the path of a file, not a folder",
        io::ErrorKind::NotADirectory => {
            "a part of the path is a file, not a folder: check the path"
        }
        io::ErrorKind::InvalidFilename => "use a shorter file name",
        io::ErrorKind::InvalidInput => "give the path of a board file",
        _ if error.raw_os_error() == Some(libc::ELOOP) => {
            "a symbolic link on the path leads back to itself (a loop): fix or remove the link"
        }
        _ => "check the path and the disk, then try again",
    }
}
