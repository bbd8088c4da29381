//! Reading a board that another program is rewriting in place. inkboard and most
//! editors save by renaming a finished file over the board, which a reader sees
//! whole or not at all; but some programs (`>` in a shell, many scripts, some
//! editors' "safe write" turned off) truncate the board and then write it, and a
//! reader coming in between sees an empty file, or a document cut short. Reported
//! as it is, that would tell a person to "repair the file by hand" a moment before
//! the file is whole again.
//!
//! So when [`load`](super::load) reads a file that is empty or whose text stops
//! short (JSON that ends too early, or in the middle of a character), and the
//! file was changed less than [`SETTLING`] ago, it waits for the file to change
//! again, looking every few milliseconds, and reads it again when it does; it
//! gives up when the file has been left alone for [`SETTLING`] (a writer would
//! have gone on by then) or after [`MOST_WAIT`] in all, and the error of the last
//! read is reported. A file damaged long ago is reported at once, without a wait;
//! any other error (a file that is whole but not a board) too.
//!
//! Limitations: a writer that pauses for longer than [`SETTLING`] between its
//! truncation and its write, or writes for longer than [`MOST_WAIT`], still gets
//! its half-written file reported (the application, which watches the file, reads
//! it again once the write is done). A file whose modification time is in the
//! future (a clock set wrong, a network drive) counts as just changed, so a damaged
//! one costs the whole [`MOST_WAIT`] to report.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use super::Stat;

/// How long after its last change a file may still be being written.
pub const SETTLING: Duration = Duration::from_millis(300);

/// The longest [`load`](super::load) waits in all for a file to be whole.
pub const MOST_WAIT: Duration = Duration::from_millis(500);

/// How often a file being written is looked at.
const LOOK_EVERY: Duration = Duration::from_millis(10);

/// The waits of one [`load`](super::load).
pub(super) struct Settle {
    /// When the first unfinished read was seen.
    since: Option<Instant>,
}

impl Settle {
    pub(super) fn new() -> Settle {
        Settle { since: None }
    }

    /// After a read of `bytes` (taken from the file whose metadata, just before,
    /// was `read`) did not give a board: waits until the file at `path` changes
    /// and says to read it again (true), or says to report the error (false), by
    /// the rules of the module documentation.
    pub(super) fn read_again(&mut self, path: &Path, read: &fs::Metadata, bytes: &[u8]) -> bool {
        if !unfinished(bytes) {
            return false;
        }
        let since = *self.since.get_or_insert_with(Instant::now);
        loop {
            let Ok(now) = fs::metadata(path) else {
                // Gone (a rename under way) or unreadable: the next read says which.
                return true;
            };
            if moved(read, &now) {
                return true;
            }
            if !recent(&now) || since.elapsed() >= MOST_WAIT {
                return false;
            }
            std::thread::sleep(LOOK_EVERY);
        }
    }
}

/// Whether `bytes` look like a board file cut short: empty (or only white space
/// and a byte order mark), text ending in the middle of a character, or JSON
/// ending before its document does.
fn unfinished(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(super::BOM).unwrap_or(bytes);
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        // `error_len` is `None` only for a character cut off by the end.
        Err(e) => return e.error_len().is_none(),
    };
    if text.trim().is_empty() {
        return true;
    }
    serde_json::from_str::<serde_json::Value>(text).is_err_and(|e| e.is_eof())
}

/// Whether the file described by `now` differs from the one read as `then`: a
/// different file, size or modification time.
fn moved(then: &fs::Metadata, now: &fs::Metadata) -> bool {
    match (Stat::of(then), Stat::of(now)) {
        (Some(then), Some(now)) => {
            (then.device, then.inode, then.len, then.modified)
                != (now.device, now.inode, now.len, now.modified)
        }
        _ => then.len() != now.len() || then.modified().ok() != now.modified().ok(),
    }
}

/// Whether the file was changed less than [`SETTLING`] ago (or, its time being
/// in the future or unknown, may have been).
fn recent(meta: &fs::Metadata) -> bool {
    let Ok(changed) = meta.modified() else {
        return true;
    };
    SystemTime::now()
        .duration_since(changed)
        .map_or(true, |age| age < SETTLING)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_text_cut_short_is_unfinished() {
        for (bytes, cut) in [
            (&b""[..], true),
            (b"  \n", true),
            (b"\xEF\xBB\xBF", true),
            (b"{\"format\": \"inkb", true),
            (b"{\"pages\": [", true),
            // The first two bytes of "é".
            (b"{\"title\": \"\xC3", true),
            (b"{}", false),
            (b"{\"a\": }", false),
            (b"not json", false),
            (b"\xFF\xFE{", false),
        ] {
            assert_eq!(
                unfinished(bytes),
                cut,
                "{:?}",
                String::from_utf8_lossy(bytes)
            );
        }
    }
}
