//! Where an export may write. An export names a file the caller chose, possibly in
//! a folder other people can write (a shared folder, `/tmp`), so it is held to
//! stricter rules than a save of a board the user opened:
//!
//! - the path is normalized first (the folder resolved by the system, `a/../b`
//!   becomes `b`), so that two names of one file compare equal;
//! - a symbolic link is followed only while it stays in the folder it was named
//!   in. A link planted in a shared folder (`board.png` → `~/.bashrc`) would
//!   otherwise let its planter choose which of the user's files an export
//!   replaces; following links ourselves (as saves do, to keep the link) also
//!   bypasses the kernel's `protected_symlinks`, so we must refuse them ourselves;
//! - only a regular file is ever replaced: a folder, a pipe, a socket or a device
//!   at the output is refused (a save's rename would put a file in its place);
//! - an existing file is replaced only when the caller says so ([`Existing`]),
//!   and then not if it is read-only (see [`super::write_atomic`]).
//!
//! Limitations: the checks look at the path before the write; a link swapped in
//! afterwards is not followed (the final rename replaces the name itself, link or
//! not), so a race can only put a file where the link was, never write elsewhere.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::FormatError;

/// What an export does with a file already at its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Refuse it ([`FormatError::OutputExists`]); the check and the write are one
    /// step (the new file is linked into place, which fails if one appeared).
    Refuse,
    /// Replace it (if it is a regular, writable file).
    Replace,
}

/// `path` with its folder resolved by the system (links, `.` and `..` among the
/// folders): the name two paths of one file share. A path whose folder does not
/// exist comes back made absolute, as it is.
pub fn normalize(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (absolute.parent(), absolute.file_name()) {
        (Some(folder), Some(name)) => fs::canonicalize(folder)
            .map(|folder| folder.join(name))
            .unwrap_or(absolute),
        _ => absolute,
    }
}

/// The file an export to `path` writes, by the rules of the module documentation:
/// `path` normalized, a link followed while it stays in its folder; refused when it
/// leaves the folder, loops, or ends at something that is not a regular file.
pub fn export_target(path: &Path) -> Result<PathBuf, FormatError> {
    let absolute =
        std::path::absolute(path).map_err(|e| FormatError::io("write", path.to_path_buf(), e))?;
    let (Some(folder), Some(name)) = (absolute.parent(), absolute.file_name()) else {
        return Err(FormatError::NotAFile {
            path: path.to_path_buf(),
            what: "a folder",
        });
    };
    // `a/..` as the last part: the file name is `..`, a folder.
    if name == ".." || name == "." {
        return Err(FormatError::NotAFile {
            path: path.to_path_buf(),
            what: "a folder",
        });
    }
    let folder = fs::canonicalize(folder).map_err(|e| FormatError::io("write", path, e))?;
    let mut at = folder.join(name);
    for _ in 0..40 {
        let meta = match fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(at),
            Err(e) => return Err(FormatError::io("write", path, e)),
        };
        let kind = meta.file_type();
        if kind.is_file() {
            return Ok(at);
        }
        if kind.is_dir() {
            return Err(FormatError::NotAFile {
                path: path.to_path_buf(),
                what: "a folder",
            });
        }
        if !kind.is_symlink() {
            return Err(FormatError::NotAFile {
                path: path.to_path_buf(),
                what: "a pipe, a socket or a device",
            });
        }
        let link = fs::read_link(&at).map_err(|e| FormatError::io("write", path, e))?;
        let next = folder.join(&link);
        let outside = || FormatError::LinkOutside {
            path: path.to_path_buf(),
            target: next.clone(),
        };
        let (Some(next_folder), Some(next_name)) = (next.parent(), next.file_name()) else {
            return Err(outside());
        };
        // The link's folder as the system sees it; a missing one is nowhere to write.
        match fs::canonicalize(next_folder) {
            Ok(resolved) if resolved == folder && next_name != ".." && next_name != "." => {
                at = folder.join(next_name)
            }
            _ => return Err(outside()),
        }
    }
    Err(FormatError::io(
        "write",
        path,
        io::Error::from_raw_os_error(libc::ELOOP),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn links_are_followed_only_within_their_folder() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let root = fs::canonicalize(dir.path()).expect("canonical");
        let at = |name: &str| root.join(name);
        fs::create_dir(at("sub")).expect("sub");
        fs::write(at("real.png"), "x").expect("file");
        fs::write(at("sub/other.png"), "x").expect("file");
        symlink("real.png", at("rel.png")).expect("link");
        symlink(at("real.png"), at("abs.png")).expect("link");
        symlink("rel.png", at("chain.png")).expect("link");
        symlink("new.png", at("dangling.png")).expect("link");
        symlink("sub/other.png", at("down.png")).expect("link");
        symlink("../real.png", at("sub/up.png")).expect("link");
        symlink("sub/../real.png", at("around.png")).expect("link");
        symlink("loop.png", at("loop.png")).expect("link");
        for (name, want) in [
            ("real.png", Ok(at("real.png"))),
            ("rel.png", Ok(at("real.png"))),
            ("abs.png", Ok(at("real.png"))),
            ("chain.png", Ok(at("real.png"))),
            ("dangling.png", Ok(at("new.png"))),
            ("around.png", Ok(at("real.png"))),
            ("sub/../real.png", Ok(at("real.png"))),
            ("down.png", Err("outside its folder")),
            ("sub/up.png", Err("outside its folder")),
            ("loop.png", Err("loop")),
            ("sub", Err("is a folder")),
            ("sub/..", Err("is a folder")),
        ] {
            let got = export_target(&at(name)).map_err(|e| e.to_string());
            match (got, want) {
                (Ok(got), Ok(want)) => assert_eq!(got, want, "{name}"),
                (Err(got), Err(want)) => assert!(got.contains(want), "{name}: {got}"),
                (got, want) => panic!("{name}: got {got:?}, want {want:?}"),
            }
        }
    }
}
