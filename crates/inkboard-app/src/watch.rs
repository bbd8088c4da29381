//! Watching the open boards' files (the `notify` crate: inotify on Linux, FSEvents
//! on macOS): a change to a file, or to the folder it is in, makes the autosaver
//! look at that file soon (`outside.rs`) and try a waiting save again.
//!
//! Folders are watched rather than files, because editors and inkboard itself
//! save by writing a new file and renaming it over the old one: a watch on the
//! old file would end with it. A folder that is gone is watched again once it is
//! back (the autosaver's retries call [`Boards::follow_folders`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Weak};

use notify::{RecursiveMode, Watcher};

use crate::boards::{Boards, SaveState};

/// The watcher and the folders it watches.
pub struct Watch {
    watcher: notify::RecommendedWatcher,
    folders: BTreeSet<PathBuf>,
}

impl Boards {
    /// Starts watching the folders of the open files (and of every file opened
    /// later). Without a watcher (the system refused one), changes are still
    /// found when a save is refused, and failed saves are still tried again.
    pub fn watch_files(self: &Arc<Self>) {
        let boards: Weak<Boards> = Arc::downgrade(self);
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let (Ok(event), Some(boards)) = (event, boards.upgrade()) else {
                return;
            };
            for path in &event.paths {
                boards.disk_event(path);
            }
        });
        match watcher {
            Ok(watcher) => {
                *self.watch.lock().unwrap_or_else(|e| e.into_inner()) = Some(Watch {
                    watcher,
                    folders: BTreeSet::new(),
                });
                self.follow_folders();
            }
            Err(e) => tracing::warn!("cannot watch the boards' files: {e}"),
        }
    }

    /// Watches exactly the folders of the open files that exist now.
    pub(crate) fn follow_folders(&self) {
        let want: BTreeSet<PathBuf> = self
            .paths()
            .iter()
            .filter_map(|p| p.parent().map(Path::to_path_buf))
            .collect();
        let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
        let Some(watch) = watch.as_mut() else { return };
        // A folder removed since took its watch with it.
        let stale: Vec<PathBuf> = watch
            .folders
            .iter()
            .filter(|f| !want.contains(*f) || !f.is_dir())
            .cloned()
            .collect();
        for folder in stale {
            let _ = watch.watcher.unwatch(&folder);
            watch.folders.remove(&folder);
        }
        for folder in want {
            if !watch.folders.contains(&folder)
                && watch
                    .watcher
                    .watch(&folder, RecursiveMode::NonRecursive)
                    .is_ok()
            {
                watch.folders.insert(folder);
            }
        }
    }

    /// Something happened at `path`: if it is an open board's file or its folder,
    /// the autosaver looks at that file; anything in the folder of a board whose
    /// save failed tries that save again (space freed, the folder writable).
    fn disk_event(&self, path: &Path) {
        let mut any = false;
        for entry in self.entries() {
            let Some(file) = entry.path() else { continue };
            let folder = file.parent();
            let failing = || matches!(entry.save_state(), SaveState::Failed(_));
            if file == path || folder == Some(path) || (folder == path.parent() && failing()) {
                entry.file_state().look = true;
                any = true;
            }
        }
        if any {
            self.wake_autosaver();
        }
    }
}
