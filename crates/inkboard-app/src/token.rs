//! The user's token: the bearer secret that tools send to `/api/*` and `/mcp`.
//! It is kept in a file, `inkboard/token` in the user's config folder
//! (`$XDG_CONFIG_HOME`, or `~/.config`), mode 0600, made on first use; so it stays
//! the same from one launch of the application to the next, and an HTTP MCP client
//! can be configured with it once. `inkboard token rotate` replaces it; a running
//! application notices within a second ([`TokenFile::refresh`]) and from then on
//! refuses the old one.
//!
//! A token file others can read is refused, not repaired: the secret may have
//! leaked already, and the message says to rotate it. Without a config folder (no
//! `HOME`), each launch makes a token of its own, as before there was a file.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::RwLock;

/// The token file's path, if the user has a config folder.
pub fn token_path() -> Option<PathBuf> {
    token_path_from(|name| std::env::var_os(name))
}

/// The token file's path, with `var` reading the environment.
fn token_path_from(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let absolute = |name: &str| var(name).map(PathBuf::from).filter(|p| p.is_absolute());
    let config = absolute("XDG_CONFIG_HOME").or_else(|| Some(absolute("HOME")?.join(".config")))?;
    Some(config.join("inkboard").join("token"))
}

/// The token in the file at `path`, made there first if there is none. Refused if
/// the file is not this user's plain file of mode 0600 (or stricter).
pub fn load_or_create(path: &Path) -> io::Result<String> {
    match read(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        other => return other,
    }
    let token = crate::auth::random_hex()?;
    // Linked into place, which fails if another process made it meanwhile: then
    // both use that one.
    let temp = write_temp(path, &token)?;
    let linked = fs::hard_link(&temp, path);
    let _ = fs::remove_file(&temp);
    match linked {
        Ok(()) => Ok(token),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => read(path),
        Err(e) => Err(e),
    }
}

/// Replaces the token at `path` with a new one; gives the new one.
pub fn rotate(path: &Path) -> io::Result<String> {
    let token = crate::auth::random_hex()?;
    let temp = write_temp(path, &token)?;
    fs::rename(&temp, path).inspect_err(|_| {
        let _ = fs::remove_file(&temp);
    })?;
    if let Some(folder) = path.parent() {
        if let Ok(dir) = fs::File::open(folder) {
            let _ = dir.sync_all();
        }
    }
    Ok(token)
}

/// A new token written to a private temporary file beside `path` (its folder made
/// 0700 if missing).
fn write_temp(path: &Path, token: &str) -> io::Result<PathBuf> {
    let folder = path.parent().unwrap_or(Path::new("."));
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(folder)?;
    let temp = folder.join(format!(".token.{}.tmp", std::process::id()));
    let _ = fs::remove_file(&temp);
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&temp)?;
    file.write_all(format!("{token}\n").as_bytes())
        .and_then(|()| file.sync_all())
        .inspect_err(|_| {
            let _ = fs::remove_file(&temp);
        })?;
    Ok(temp)
}

/// The token in the file at `path`, checked.
fn read(path: &Path) -> io::Result<String> {
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    if !meta.is_file() || meta.uid() != uid {
        return Err(io::Error::other(format!(
            "the token file {} is not a file of yours: remove it, then run `inkboard token rotate`",
            path.display()
        )));
    }
    if meta.mode() & 0o077 != 0 {
        return Err(io::Error::other(format!(
            "the token file {} can be read by other users (mode {:04o}): run `inkboard token rotate` (the token may have leaked), then `chmod 600` it",
            path.display(),
            meta.mode() & 0o7777
        )));
    }
    let text = io::read_to_string(io::Read::take(file, 1024))?;
    let token = text.trim();
    if token.len() < 32 || !token.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(io::Error::other(format!(
            "the token file {} does not hold a token: run `inkboard token rotate`",
            path.display()
        )));
    }
    Ok(token.to_string())
}

/// The token of a running application, and the file it follows.
pub struct TokenFile {
    path: Option<PathBuf>,
    /// The token, and what the file's stat was when it was read.
    current: RwLock<(String, Option<FileId>)>,
}

impl TokenFile {
    /// The user's token (made on first use); a token of this launch's own when
    /// there is no config folder.
    pub fn open() -> io::Result<TokenFile> {
        let Some(path) = token_path() else {
            return Ok(TokenFile {
                path: None,
                current: RwLock::new((crate::auth::random_hex()?, None)),
            });
        };
        let token = match load_or_create(&path) {
            Ok(token) => token,
            // A token file that is wrong (others can read it, not the user's) stops
            // the start, with what to do; a config folder that cannot be written
            // (a read-only home) only costs the token's staying the same.
            Err(e) if e.kind() == io::ErrorKind::Other => return Err(e),
            Err(e) => {
                tracing::warn!(
                    "cannot keep the token in {}: {e}; this launch has a token of its own",
                    path.display()
                );
                return Ok(TokenFile {
                    path: None,
                    current: RwLock::new((crate::auth::random_hex()?, None)),
                });
            }
        };
        let stat = stat(&path);
        Ok(TokenFile {
            path: Some(path),
            current: RwLock::new((token, stat)),
        })
    }

    /// `token`, followed in no file.
    pub fn fixed(token: &str) -> TokenFile {
        TokenFile {
            path: None,
            current: RwLock::new((token.to_string(), None)),
        }
    }

    /// The token requests must carry now.
    pub fn get(&self) -> String {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .0
            .clone()
    }

    /// Reads the file again if it changed (rotated); true when the token did. A
    /// file that went away or became unreadable keeps the last good token.
    pub fn refresh(&self) -> bool {
        let Some(path) = &self.path else {
            return false;
        };
        let now = stat(path);
        let mut current = self.current.write().unwrap_or_else(|e| e.into_inner());
        if now.is_none() || now == current.1 {
            return false;
        }
        match read(path) {
            Ok(token) => {
                let changed = token != current.0;
                *current = (token, now);
                changed
            }
            Err(e) => {
                tracing::warn!("cannot read the token file: {e}");
                false
            }
        }
    }
}

/// What tells a rotated token file from the one read: device, inode, change time.
type FileId = (u64, u64, i64, i64);

fn stat(path: &Path) -> Option<FileId> {
    let meta = fs::symlink_metadata(path).ok()?;
    Some((meta.dev(), meta.ino(), meta.ctime(), meta.ctime_nsec()))
}

#[cfg(test)]
mod tests {
    //! The token file on a real folder: made private, refused when others can
    //! read it or it is not a plain file holding a token, rotated, and followed
    //! by a running application.

    use std::collections::HashMap;
    use std::ffi::OsString;
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    fn set_mode(path: &Path, mode: u32) {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }

    /// A token file path in a config folder that does not exist yet.
    fn fresh() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config").join("inkboard").join("token");
        (dir, path)
    }

    fn leftovers(path: &Path) -> Vec<String> {
        fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != "token")
            .collect()
    }

    /// Environment variables, names and values.
    type Env<'a> = &'a [(&'a str, &'a str)];

    #[test]
    fn the_path_is_in_the_absolute_xdg_config_home_else_in_home() {
        let cases: [(Env, Option<&str>); 5] = [
            (
                &[("XDG_CONFIG_HOME", "/x"), ("HOME", "/h")],
                Some("/x/inkboard/token"),
            ),
            (
                &[("XDG_CONFIG_HOME", "rel"), ("HOME", "/h")],
                Some("/h/.config/inkboard/token"),
            ),
            (&[("HOME", "/h")], Some("/h/.config/inkboard/token")),
            (&[("HOME", "rel")], None),
            (&[], None),
        ];
        for (vars, want) in cases {
            let vars: HashMap<&str, OsString> =
                vars.iter().map(|(k, v)| (*k, OsString::from(v))).collect();
            let got = token_path_from(|name| vars.get(name).cloned());
            assert_eq!(got, want.map(PathBuf::from), "{vars:?}");
        }
    }

    #[test]
    fn a_token_is_made_private_on_first_use_and_stays_the_same() {
        let (_dir, path) = fresh();
        let token = load_or_create(&path).unwrap();
        assert_eq!(token.len(), 32);
        assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        assert_eq!(load_or_create(&path).unwrap(), token);
        assert_eq!(leftovers(&path), Vec::<String>::new());
    }

    #[test]
    fn a_token_file_others_can_read_is_refused_not_repaired() {
        let (_dir, path) = fresh();
        load_or_create(&path).unwrap();
        set_mode(&path, 0o644);
        let error = load_or_create(&path).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::Other);
        assert!(
            error.to_string().contains("inkboard token rotate"),
            "{error}"
        );
        assert_eq!(
            mode(&path),
            0o644,
            "left as it is: the secret may have leaked"
        );
    }

    #[test]
    fn a_file_that_holds_no_token_is_refused() {
        let (_dir, path) = fresh();
        load_or_create(&path).unwrap();
        for text in ["short\n", "", &"!".repeat(40)] {
            fs::write(&path, text).unwrap();
            let error = read(&path).unwrap_err();
            assert!(
                error.to_string().contains("does not hold a token"),
                "{text:?}: {error}"
            );
        }
        fs::write(&path, format!("  {}  \n", "ab12".repeat(8))).unwrap();
        assert_eq!(
            read(&path).unwrap(),
            "ab12".repeat(8),
            "spaces around it are fine"
        );
    }

    #[test]
    fn a_link_or_a_folder_in_place_of_the_token_file_is_refused() {
        let (dir, path) = fresh();
        let real = dir.path().join("elsewhere");
        load_or_create(&real).unwrap();
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&real, &path).unwrap();
        assert!(load_or_create(&path).is_err(), "a link is not followed");
        fs::remove_file(&path).unwrap();
        fs::create_dir(&path).unwrap();
        let error = load_or_create(&path).unwrap_err();
        assert!(error.to_string().contains("not a file of yours"), "{error}");
    }

    #[test]
    fn rotating_replaces_the_token_and_leaves_nothing_beside_it() {
        let (_dir, path) = fresh();
        let old = load_or_create(&path).unwrap();
        let new = rotate(&path).unwrap();
        assert_ne!(new, old);
        assert_eq!(read(&path).unwrap(), new);
        assert_eq!(mode(&path), 0o600);
        assert_eq!(leftovers(&path), Vec::<String>::new());
    }

    #[test]
    fn a_running_application_follows_a_rotation_and_keeps_the_last_good_token() {
        let (_dir, path) = fresh();
        let first = load_or_create(&path).unwrap();
        let file = TokenFile {
            path: Some(path.clone()),
            current: RwLock::new((first.clone(), stat(&path))),
        };
        assert!(!file.refresh(), "nothing changed");
        assert_eq!(file.get(), first);
        let second = rotate(&path).unwrap();
        assert!(file.refresh());
        assert_eq!(file.get(), second);
        fs::remove_file(&path).unwrap();
        assert!(!file.refresh());
        assert_eq!(file.get(), second, "a file gone keeps the last token");
        fs::write(&path, "garbage").unwrap();
        set_mode(&path, 0o600);
        assert!(!file.refresh());
        assert_eq!(file.get(), second, "a file that does not read keeps it too");
    }

    #[test]
    fn without_a_file_a_launch_has_a_token_of_its_own() {
        let file = TokenFile {
            path: None,
            current: RwLock::new(("a".repeat(32), None)),
        };
        assert!(!file.refresh());
        assert_eq!(file.get(), "a".repeat(32));
    }

    #[test]
    fn the_users_token_is_the_same_from_one_launch_to_the_next() {
        let root = crate::testing::isolate();
        let one = TokenFile::open().unwrap();
        let two = TokenFile::open().unwrap();
        assert_eq!(one.get(), two.get());
        assert_eq!(one.path, Some(root.join("config/inkboard/token")));
    }
}
