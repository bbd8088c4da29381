//! Recovery copies: a board's unsaved version, kept in a private folder when it
//! cannot go to its own file, so that nothing a person or an agent was told had
//! succeeded is ever dropped.
//!
//! Two moments write one. When the file changed on disk while the board had
//! unsaved changes (a conflict), the board's version is kept here, and rewritten
//! after every change until the person chooses (keep mine, take theirs, open both).
//! When the application stops with changes it could not save (the disk full, the
//! file gone, a conflict still open, a board that never had a file), each such
//! board is kept here and its path printed. `inkboard open FILE` finds the copies
//! kept for FILE and offers them ([`pending`]).
//!
//! The folder is `$INKBOARD_STATE_DIR/recovery` if that is set, else
//! `$XDG_STATE_HOME/inkboard/recovery`, else `~/.local/state/inkboard/recovery`,
//! and only without a home `inkboard-UID/recovery` in the temp folder: private
//! (0700, files 0600), and never beside the boards, so that a conflict leaves no
//! litter in the person's folders. A copy is a plain board file
//! (`NAME.WHY-YYYYMMDD-HHMMSS.inkboard`, openable as is) with a small sidecar
//! (`.json`) naming the file it belongs to and when it was kept.
//!
//! The folder is checked as the runtime folder is (`check_private_folder`: this
//! user's, 0700, not a symbolic link), and so is the folder it lies in (this
//! user's or root's, not a link, writable by no one else unless sticky, so
//! nobody can swap the recovery folder for their own). A name in the shared temp folder can be made
//! first by anyone; a folder that fails is never used nor read from (a planted
//! "copy" is never offered), and the copies of this run go instead to a new
//! private folder of a name nobody can guess, whose path is printed with each
//! copy: the work is kept either way.

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use inkboard_core::Board;
use inkboard_format::{file, FileKind, FormatError};
use serde::{Deserialize, Serialize};

/// Why a copy was kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Why {
    /// The file changed on disk while the board had unsaved changes.
    Conflict,
    /// The application stopped with changes it could not save.
    Unsaved,
}

impl Why {
    fn word(self) -> &'static str {
        match self {
            Why::Conflict => "conflict",
            Why::Unsaved => "unsaved",
        }
    }
}

/// What the sidecar of a copy says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Sidecar {
    /// The board file the copy belongs to; `None` for a board that had no file.
    file: Option<PathBuf>,
    /// When it was kept, for people: `2026-12-01 15:20:31 UTC`.
    saved: String,
    why: Why,
}

/// One kept copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recovery {
    /// The copy: a board file.
    pub copy: PathBuf,
    /// The board file it belongs to; `None` for a board that had no file.
    pub file: Option<PathBuf>,
    /// When it was kept, for people.
    pub saved: String,
    pub why: Why,
}

/// Why a copy could not be kept.
#[derive(Debug, thiserror::Error)]
pub enum RecoveryError {
    /// The private folder could not be made.
    #[error("cannot make the private recovery folder {}: {source}", path.display())]
    Folder { path: PathBuf, source: io::Error },
    /// The copy could not be written.
    #[error("cannot write the recovery copy: {0}")]
    Write(#[from] FormatError),
    /// The sidecar could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Sidecar { path: PathBuf, source: io::Error },
}

/// The private recovery folder (not created), by the rule of the module
/// documentation.
pub fn folder() -> PathBuf {
    folder_from(|name| std::env::var_os(name))
}

/// The recovery folder, with `var` reading the environment.
fn folder_from(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> PathBuf {
    if let Some(dir) = var("INKBOARD_STATE_DIR").filter(|v| !v.is_empty()) {
        return PathBuf::from(dir).join("recovery");
    }
    // The XDG rule: a relative path is ignored.
    let var = |name| var(name).map(PathBuf::from).filter(|v| v.is_absolute());
    let state = var("XDG_STATE_HOME").or_else(|| var("HOME").map(|h| h.join(".local/state")));
    match state {
        Some(state) => state.join("inkboard").join("recovery"),
        None => {
            // SAFETY: getuid has no preconditions and cannot fail.
            let uid = unsafe { libc::getuid() };
            std::env::temp_dir()
                .join(format!("inkboard-{uid}"))
                .join("recovery")
        }
    }
}

/// Checks `dir` as the recovery folder (see the module documentation): private
/// and this user's, in a folder no one else may swap it in: this user's (or
/// root's), not a link, and writable by no one else unless sticky.
pub fn check_folder(dir: &Path) -> io::Result<()> {
    inkboard_tools::check_private_folder(
        dir,
        "recovery folder",
        "INKBOARD_STATE_DIR",
        "who could read your unsaved boards",
    )?;
    let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) else {
        return Ok(());
    };
    let meta = fs::symlink_metadata(parent)?;
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    // Others may rename what is in a folder they may write, unless it is sticky
    // (as the temp folder is) and they own neither the folder nor the entry.
    let owner = meta.uid() == uid || meta.uid() == 0;
    let shut = meta.mode() & 0o022 == 0 || meta.mode() & 0o1000 != 0;
    if meta.file_type().is_symlink() || !owner || !shut {
        return Err(io::Error::other(format!(
            "the folder {} that holds the recovery folder is a link, another user's, or open to others, who could swap the recovery folder: set INKBOARD_STATE_DIR to a private folder of yours (mode 0700)",
            parent.display()
        )));
    }
    Ok(())
}

/// The recovery folder to write in: the usual one, made private (0700) if
/// missing and checked; if it fails the check, a new private folder of this
/// process in the temp folder, named at random (made once, then used for every
/// copy of this run).
fn private_folder() -> Result<PathBuf, RecoveryError> {
    let path = folder();
    let made = fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&path)
        .and_then(|_| check_folder(&path));
    let Err(refused) = made else {
        return Ok(path);
    };
    static SPARE: Mutex<Option<PathBuf>> = Mutex::new(None);
    let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(dir) = spare.as_ref().filter(|d| check_folder(d).is_ok()) {
        return Ok(dir.clone());
    }
    let made = spare_folder().map_err(|_| RecoveryError::Folder {
        path: path.clone(),
        source: io::Error::other(refused.to_string()),
    })?;
    tracing::warn!(
        "{refused}; the recovery copies of this run are kept in {} instead",
        made.display()
    );
    *spare = Some(made.clone());
    Ok(made)
}

/// A new private folder in the temp folder, of a name nobody can guess (128
/// random bits): made by this call (`mkdir` fails on anything already there),
/// so it is this user's and 0700 from its creation.
fn spare_folder() -> io::Result<PathBuf> {
    let dir =
        std::env::temp_dir().join(format!("inkboard-recovery-{}", crate::auth::random_hex()?));
    fs::DirBuilder::new().mode(0o700).create(&dir)?;
    check_folder(&dir)?;
    Ok(dir)
}

/// Keeps `board` as a new copy for `file` (`None`: a board without a file).
pub fn keep(board: &Board, file: Option<&Path>, why: Why) -> Result<Recovery, RecoveryError> {
    let dir = private_folder()?;
    let stem = match file {
        Some(file) => FileKind::stem(file),
        None => "untitled".to_string(),
    };
    let (compact, saved) = now();
    let name = |n: u32| {
        let suffix = if n == 0 {
            String::new()
        } else {
            format!("-{n}")
        };
        dir.join(format!("{stem}.{}-{compact}{suffix}.inkboard", why.word()))
    };
    let copy = (0..)
        .map(name)
        .find(|p| !p.exists() && !sidecar_of(p).exists())
        .unwrap_or_else(|| name(u32::MAX));
    let recovery = Recovery {
        copy,
        file: file.map(Path::to_path_buf),
        saved,
        why,
    };
    update(&recovery, board)?;
    let sidecar = Sidecar {
        file: recovery.file.clone(),
        saved: recovery.saved.clone(),
        why,
    };
    let path = sidecar_of(&recovery.copy);
    let text = serde_json::to_string_pretty(&sidecar).unwrap_or_default();
    fs::write(&path, text)
        .and_then(|_| fs::set_permissions(&path, fs::Permissions::from_mode(0o600)))
        .map_err(|source| RecoveryError::Sidecar { path, source })?;
    Ok(recovery)
}

/// Rewrites the copy with the board as it is now (atomically, like every save).
pub fn update(recovery: &Recovery, board: &Board) -> Result<(), RecoveryError> {
    file::save_overwrite(&recovery.copy, board)?;
    let _ = fs::set_permissions(&recovery.copy, fs::Permissions::from_mode(0o600));
    Ok(())
}

/// The copy's board.
pub fn load(recovery: &Recovery) -> Result<Board, FormatError> {
    file::load(&recovery.copy).map(|loaded| loaded.board)
}

/// Removes a copy and its sidecar: the person chose, or it was saved.
pub fn discard(recovery: &Recovery) {
    let _ = fs::remove_file(&recovery.copy);
    let _ = fs::remove_file(sidecar_of(&recovery.copy));
}

/// The copies kept for `file`, newest first, without those holding exactly
/// `on_disk` (the file already has them: they are removed, nothing is lost).
pub fn pending(file: &Path, on_disk: Option<&Board>) -> Vec<Recovery> {
    let mut found: Vec<Recovery> = all()
        .into_iter()
        .filter(|r| r.file.as_deref() == Some(file))
        .filter(|r| match (on_disk, load(r)) {
            (Some(board), Ok(kept)) if kept == *board => {
                discard(r);
                false
            }
            _ => true,
        })
        .collect();
    found.sort_by(|a, b| {
        let key = |r: &Recovery| (r.saved.clone(), sequence(&r.copy), r.copy.clone());
        key(b).cmp(&key(a))
    });
    found
}

/// The number [`keep`] put after the time in a copy's name to tell it from
/// copies kept earlier in the same second (`NAME.WHY-YYYYMMDD-HHMMSS-N`), 0 for
/// none. The names alone do not sort by it: `-1.inkboard` comes before
/// `.inkboard`, and `-10` before `-2`.
fn sequence(copy: &Path) -> u32 {
    let stem = copy.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let digits = |s: &str, n: usize| {
        s.len() >= n && s.as_bytes()[s.len() - n..].iter().all(u8::is_ascii_digit)
    };
    let mut parts = stem.rsplit('-');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(n), Some(time), Some(date))
            if time.len() == 6 && digits(time, 6) && digits(date, 8) =>
        {
            n.parse().unwrap_or(0)
        }
        _ => 0,
    }
}

/// Every copy in the folder whose sidecar reads; none if the folder fails its
/// check (what another user planted there is never offered).
pub fn all() -> Vec<Recovery> {
    let dir = folder();
    if check_folder(&dir).is_err() {
        return Vec::new();
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "inkboard"))
        .filter_map(|copy| {
            let text = fs::read_to_string(sidecar_of(&copy)).ok()?;
            let sidecar: Sidecar = serde_json::from_str(&text).ok()?;
            Some(Recovery {
                copy,
                file: sidecar.file,
                saved: sidecar.saved,
                why: sidecar.why,
            })
        })
        .collect()
}

/// A free name beside `file` for a version the person asked to keep as its own
/// board ("open both"): `NAME.WHAT-YYYYMMDD-HHMMSS.inkboard` in the file's folder.
pub fn beside(file: &Path, what: &str) -> PathBuf {
    let dir = file.parent().unwrap_or(Path::new("."));
    let stem = FileKind::stem(file);
    let (compact, _) = now();
    (0..)
        .map(|n: u32| {
            let suffix = if n == 0 {
                String::new()
            } else {
                format!("-{n}")
            };
            dir.join(format!("{stem}.{what}-{compact}{suffix}.inkboard"))
        })
        .find(|p| !crate::newfile::taken(p))
        .unwrap_or_else(|| dir.join(format!("{stem}.{what}.inkboard")))
}

fn sidecar_of(copy: &Path) -> PathBuf {
    copy.with_extension("json")
}

/// The time now in UTC, for names (`20261201-152031`) and for people
/// (`2026-12-01 15:20:31 UTC`).
fn now() -> (String, String) {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let (hh, mm, ss) = (secs % 86_400 / 3600, secs % 3600 / 60, secs % 60);
    (
        format!("{y:04}{m:02}{d:02}-{hh:02}{mm:02}{ss:02}"),
        format!("{y:04}-{m:02}-{d:02} {hh:02}:{mm:02}:{ss:02} UTC"),
    )
}

/// The calendar date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`), so that names need no date crate; also how `inkboard
/// admin` writes the store's times.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::ffi::OsString;

    use super::*;
    use crate::testing::{board_of, folder as temp_folder, texts, write_new};
    use std::fs;
    use std::os::unix::fs::{symlink, PermissionsExt};

    /// The recovery folder is held to the runtime folder's rule (and the folder
    /// it lies in to one nobody else can swap it in): a link, a folder others
    /// may enter, or one in a folder others may write and not sticky, is
    /// refused; a private folder of ours, in ours or in a sticky shared folder,
    /// passes. (Another user's folder: `tests/safety.rs`, two accounts.)
    #[test]
    fn a_recovery_folder_must_be_private_and_nobody_elses_to_swap() {
        let scratch = tempfile::tempdir().expect("a scratch folder");
        let at = |name: &str| scratch.path().join(name);
        let made = |name: &str, mode: u32| {
            fs::create_dir_all(at(name)).expect("mkdir");
            fs::set_permissions(at(name), fs::Permissions::from_mode(mode)).expect("chmod");
            at(name)
        };
        made("home", 0o700);
        made("home/recovery", 0o700);
        made("home/open", 0o755);
        made("shared", 0o777);
        made("shared/recovery", 0o700);
        made("tmp", 0o1777);
        made("tmp/recovery", 0o700);
        symlink(at("home/recovery"), at("home/link")).expect("link");
        for (name, fine) in [
            ("home/recovery", true),
            ("tmp/recovery", true),
            ("home/open", false),
            ("home/link", false),
            ("shared/recovery", false),
            ("home/missing", false),
        ] {
            let checked = check_folder(&at(name));
            assert_eq!(checked.is_ok(), fine, "{name}: {checked:?}");
        }
        let link = check_folder(&at("home/link")).expect_err("a link");
        assert!(link.to_string().contains("symbolic link"), "{link}");
        let open = check_folder(&at("home/open")).expect_err("open");
        assert!(open.to_string().contains("chmod 700"), "{open}");
    }

    #[test]
    fn dates_are_the_calendars() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_423), (2025, 12, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn the_folder_is_the_state_dir_then_xdg_state_then_home_then_temp() {
        let cases: [(&[(&str, &str)], PathBuf); 6] = [
            (
                &[
                    ("INKBOARD_STATE_DIR", "/s"),
                    ("XDG_STATE_HOME", "/x"),
                    ("HOME", "/h"),
                ],
                "/s/recovery".into(),
            ),
            (
                &[
                    ("INKBOARD_STATE_DIR", ""),
                    ("XDG_STATE_HOME", "/x"),
                    ("HOME", "/h"),
                ],
                "/x/inkboard/recovery".into(),
            ),
            (
                &[("HOME", "/h")],
                "/h/.local/state/inkboard/recovery".into(),
            ),
            (
                &[("XDG_STATE_HOME", ""), ("HOME", "/h")],
                "/h/.local/state/inkboard/recovery".into(),
            ),
            (
                &[("XDG_STATE_HOME", "relative"), ("HOME", "/h")],
                "/h/.local/state/inkboard/recovery".into(),
            ),
            (
                &[],
                std::env::temp_dir()
                    .join(format!("inkboard-{}", unsafe { libc::getuid() }))
                    .join("recovery"),
            ),
        ];
        for (vars, want) in cases {
            let vars: HashMap<&str, OsString> =
                vars.iter().map(|(k, v)| (*k, OsString::from(v))).collect();
            assert_eq!(
                folder_from(|name| vars.get(name).cloned()),
                want,
                "{vars:?}"
            );
        }
    }

    #[test]
    fn a_kept_copy_is_a_private_board_file_with_a_sidecar() {
        let dir = temp_folder();
        let file = dir.path().join("private.inkboard");
        let kept = keep(&board_of(&["mine"]), Some(&file), Why::Conflict).unwrap();
        assert_eq!(kept.copy.parent(), Some(folder().as_path()));
        let name = kept
            .copy
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(name.starts_with("private.conflict-"), "{name}");
        assert_eq!(mode(&folder()), 0o700);
        assert_eq!(mode(&kept.copy), 0o600);
        assert_eq!(mode(&sidecar_of(&kept.copy)), 0o600);
        assert_eq!(texts(&load(&kept).unwrap()), ["mine"]);
        let listed: Vec<Recovery> = all().into_iter().filter(|r| r.copy == kept.copy).collect();
        assert_eq!(
            listed,
            std::slice::from_ref(&kept),
            "the sidecar reads back"
        );
        update(&kept, &board_of(&["mine", "more"])).unwrap();
        assert_eq!(texts(&load(&kept).unwrap()), ["mine", "more"]);
        assert_eq!(mode(&kept.copy), 0o600, "still private once rewritten");
        discard(&kept);
        assert!(!kept.copy.exists());
        assert!(!sidecar_of(&kept.copy).exists());
    }

    #[test]
    fn a_board_without_a_file_is_kept_as_untitled() {
        let _untitled = crate::testing::untitled();
        let kept = keep(&board_of(&["draft"]), None, Why::Unsaved).unwrap();
        let name = kept
            .copy
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(name.starts_with("untitled.unsaved-"), "{name}");
        assert_eq!(kept.file, None);
        discard(&kept);
    }

    #[test]
    fn copies_kept_in_the_same_second_get_names_of_their_own() {
        let dir = temp_folder();
        let file = dir.path().join("fast.inkboard");
        let kept: Vec<Recovery> = (0..3)
            .map(|i| keep(&board_of(&[&i.to_string()]), Some(&file), Why::Unsaved).unwrap())
            .collect();
        let mut names: Vec<&PathBuf> = kept.iter().map(|k| &k.copy).collect();
        names.dedup();
        assert_eq!(names.len(), 3);
        for (i, k) in kept.iter().enumerate() {
            assert_eq!(
                texts(&load(k).unwrap()),
                [i.to_string()],
                "none overwritten"
            );
            discard(k);
        }
    }

    #[test]
    fn pending_lists_the_files_own_copies_and_drops_those_it_holds() {
        let dir = temp_folder();
        let file = write_new(dir.path(), "p.inkboard", &board_of(&["on disk"]));
        let other = dir.path().join("other.inkboard");
        let mine = keep(&board_of(&["mine"]), Some(&file), Why::Unsaved).unwrap();
        let held = keep(&board_of(&["on disk"]), Some(&file), Why::Conflict).unwrap();
        let elsewhere = keep(&board_of(&["x"]), Some(&other), Why::Unsaved).unwrap();
        let on_disk = inkboard_format::file::load(&file).unwrap().board;
        assert_eq!(pending(&file, Some(&on_disk)), std::slice::from_ref(&mine));
        assert!(!held.copy.exists(), "the file holds it already: removed");
        assert_eq!(pending(&other, None), std::slice::from_ref(&elsewhere));
        discard(&mine);
        discard(&elsewhere);
        assert!(pending(&file, None).is_empty());
    }

    #[test]
    fn pending_offers_the_newest_copy_first_within_one_second_too() {
        let dir = temp_folder();
        let file = dir.path().join("order.inkboard");
        // Three copies in well under a second: at least two share a second, and
        // so a name but for the number keep adds.
        let kept: Vec<Recovery> = ["first", "second", "third"]
            .iter()
            .map(|t| keep(&board_of(&[t]), Some(&file), Why::Unsaved).unwrap())
            .collect();
        let order: Vec<Vec<String>> = pending(&file, None)
            .iter()
            .map(|r| texts(&load(r).unwrap()))
            .collect();
        assert_eq!(order, [["third"], ["second"], ["first"]]);
        kept.iter().for_each(discard);
        let number = |name: &str| sequence(Path::new(name));
        assert_eq!(number("plan.unsaved-20261201-152031.inkboard"), 0);
        assert_eq!(number("plan.unsaved-20261201-152031-2.inkboard"), 2);
        assert_eq!(number("plan.unsaved-20261201-152031-10.inkboard"), 10);
        assert_eq!(number("x-7.conflict-20261201-152031.inkboard"), 0);
    }

    #[test]
    fn a_copy_without_its_sidecar_is_not_offered() {
        let dir = temp_folder();
        let file = dir.path().join("lone.inkboard");
        let kept = keep(&board_of(&["a"]), Some(&file), Why::Unsaved).unwrap();
        fs::remove_file(sidecar_of(&kept.copy)).unwrap();
        assert!(all().iter().all(|r| r.copy != kept.copy));
        assert!(pending(&file, None).is_empty());
        discard(&kept);
    }

    #[test]
    fn beside_names_a_free_file_next_to_the_board() {
        let dir = temp_folder();
        let file = dir.path().join("plan.inkboard");
        let first = beside(&file, "conflict");
        assert_eq!(first.parent(), Some(dir.path()));
        let name = first.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with("plan.conflict-") && name.ends_with(".inkboard"),
            "{name}"
        );
        fs::write(&first, "taken").unwrap();
        let second = beside(&file, "conflict");
        assert_ne!(second, first);
        assert!(!second.exists());
    }
}
