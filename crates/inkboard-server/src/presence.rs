//! Who is on a board, live: each editor window's person (their cursor, their
//! selection, the rectangle they look at) and each agent while it works, told
//! to every other window on the board on every process, and never stored.
//!
//! A window's `here` (checked by `inkboard_app::here::Here`) becomes a [`Note`]
//! in the person's name and colour, sent as a store signal
//! ([`inkboard_store::Store::signal`]: a PostgreSQL `NOTIFY` on
//! `inkboard_presence`, or in-process on SQLite) by one [`Publisher`] thread per
//! process. Each process's [`crate::Held`] reads the signals of the boards it
//! holds back into notes, as hostile as any client's message, and passes them to
//! its windows, which send them to their pages as `presence` messages.
//!
//! Nothing says goodbye for a process killed: every window says where it is
//! again every [`HEARTBEAT`], and a page forgets anyone it has not heard of for
//! [`EXPIRY`] (docs/live-protocol.md). A window closed says `gone` at once.
//!
//! Rates: a window's notes go out at most one per [`MIN_GAP`]; one sooner is
//! not queued but kept as the latest, sent at the next tick. The publisher's
//! queue is bounded: past [`QUEUE`] notes waiting, new ones are dropped.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::mpsc::{sync_channel, SyncSender, TrySendError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use inkboard_app::here::Here;
use inkboard_store::{BoardId, Store, StoreError, UserId, MAX_SIGNAL_BYTES};
use serde::{Deserialize, Serialize};

/// The shortest time between two notes of one window (its page sends at most
/// one `here` per 50 ms).
pub const MIN_GAP: Duration = Duration::from_millis(40);
/// How often a window's presence is said again, unchanged.
pub const HEARTBEAT: Duration = Duration::from_millis(1500);
/// How long a page keeps someone it has not heard of (written in the page,
/// `web/sync/presence.js`; here for the documentation and the tests).
pub const EXPIRY: Duration = Duration::from_secs(5);
/// How long an agent's note stands for its work: it is said at most this often.
pub const AGENT_GAP: Duration = Duration::from_millis(1000);
/// How many notes may wait for the publisher.
pub const QUEUE: usize = 256;
/// The longest name a note carries (the store's names are shorter).
const MAX_NAME_BYTES: usize = 400;
/// The longest note id: a process tag, a dash, a window number.
const MAX_ID_BYTES: usize = 48;

/// The colours people are shown in: mid tones that stay legible on the light
/// theme's white and the dark theme's near-black, with white text on them.
pub const PALETTE: [&str; 8] = [
    "#e03131", "#1971c2", "#2f9e44", "#d9480f", "#9c36b5", "#0c8599", "#c2255c", "#5f3dc4",
];

/// A person's colour: the same for them everywhere, from their name (names are
/// unique among a server's people), their agent's too.
pub fn color_of(name: &str) -> &'static str {
    // FNV-1a: a fixed hash, the same in every process and every version.
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    PALETTE[(h % PALETTE.len() as u32) as usize]
}

/// Always `"presence"`: a note is the `presence` message a page receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tag {
    Presence,
}

/// One window's (or agent's) presence on a board, as it travels between
/// processes and to the pages.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Note {
    pub t: Tag,
    /// The window (`PROCESS-N`) or agent (`agent-USER`) it is about.
    pub id: String,
    /// The window closed: forget it now.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gone: bool,
    /// The person's name (for an agent, the person whose token it called with).
    #[serde(default)]
    pub person: String,
    #[serde(default)]
    pub color: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub agent: bool,
    #[serde(default)]
    pub page: u32,
    #[serde(default)]
    pub cursor: Option<[f64; 2]>,
    #[serde(default)]
    pub sel: Vec<String>,
    #[serde(default)]
    pub view: Option<[f64; 4]>,
}

impl Note {
    /// A window's note: its person, where they are.
    pub fn window(id: &str, person: &str, here: &Here) -> Note {
        Note {
            t: Tag::Presence,
            id: id.to_string(),
            gone: false,
            person: person.to_string(),
            color: color_of(person).to_string(),
            agent: false,
            page: here.page,
            cursor: here.cursor,
            sel: here.sel.clone(),
            view: here.view,
        }
    }

    /// An agent at work for `person`.
    pub fn agent(user: UserId, person: &str) -> Note {
        Note {
            t: Tag::Presence,
            id: format!("agent-{}", user.0),
            gone: false,
            person: person.to_string(),
            color: color_of(person).to_string(),
            agent: true,
            page: 0,
            cursor: None,
            sel: Vec::new(),
            view: None,
        }
    }

    /// A window closed.
    pub fn gone(id: &str) -> Note {
        Note {
            t: Tag::Presence,
            id: id.to_string(),
            gone: true,
            person: String::new(),
            color: String::new(),
            agent: false,
            page: 0,
            cursor: None,
            sel: Vec::new(),
            view: None,
        }
    }

    /// Reads a signal's body as hostile: what the page would show wrongly is
    /// left out (`Here`'s rules), a note without a known colour takes the
    /// person's, and one that names nothing is `None`.
    pub fn read(body: &str) -> Option<Note> {
        let note: Note = serde_json::from_str(body).ok()?;
        let id_ok = !note.id.is_empty()
            && note.id.len() <= MAX_ID_BYTES
            && note
                .id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if !id_ok || note.person.len() > MAX_NAME_BYTES || note.person.chars().any(char::is_control)
        {
            return None;
        }
        let here = Here::new(
            Some(u64::from(note.page)),
            note.cursor,
            Some(note.sel),
            note.view,
        );
        let color = match PALETTE.iter().find(|c| **c == note.color) {
            Some(c) => c.to_string(),
            None => color_of(&note.person).to_string(),
        };
        Some(Note {
            color,
            page: here.page,
            cursor: here.cursor,
            sel: here.sel,
            view: here.view,
            ..note
        })
    }

    /// The note as text, within a signal's size (a selection too long for it
    /// is left out: the cursor still shows).
    pub fn text(&self) -> String {
        let text = serde_json::to_string(self).unwrap_or_default();
        if text.len() <= MAX_SIGNAL_BYTES {
            return text;
        }
        let lighter = Note {
            sel: Vec::new(),
            ..self.clone()
        };
        serde_json::to_string(&lighter).unwrap_or_default()
    }
}

/// A note heard on a board: whose it is, and the `presence` message to send.
#[derive(Debug)]
pub struct Heard {
    pub id: String,
    pub text: std::sync::Arc<str>,
}

/// This process's sender of notes: one thread, a bounded queue, and the tag
/// that makes its windows' ids unique among processes.
pub struct Publisher {
    queue: SyncSender<(BoardId, String)>,
    tag: String,
    windows: std::sync::atomic::AtomicU64,
    /// When each agent's note last went out, per board.
    agents: Mutex<HashMap<(BoardId, i64), Instant>>,
}

impl Publisher {
    /// Starts the thread that sends notes through `store`.
    pub fn start(store: Store) -> Result<Publisher, StoreError> {
        let (queue, notes) = sync_channel::<(BoardId, String)>(QUEUE);
        std::thread::Builder::new()
            .name("inkboard-presence".into())
            .spawn(move || {
                for (board, text) in notes {
                    if let Err(e) = store.signal(&board, &text) {
                        tracing::debug!(%board, "presence not sent: {e}");
                    }
                }
            })
            .map_err(|e| StoreError::Io {
                path: "the presence thread".into(),
                source: e,
            })?;
        // Random per process (the standard library's keyed hasher), so that two
        // processes started at once still tell their windows apart.
        let tag = std::collections::hash_map::RandomState::new()
            .hash_one((std::process::id(), std::time::SystemTime::now()));
        Ok(Publisher {
            queue,
            tag: format!("{:012x}", tag & 0xffff_ffff_ffff),
            windows: Default::default(),
            agents: Mutex::new(HashMap::new()),
        })
    }

    /// A new window's id, unique among every process's.
    pub fn window_id(&self) -> String {
        let n = self
            .windows
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        format!("{}-{n}", self.tag)
    }

    /// Sends `note` about `board`, unless too many wait already (then it is
    /// dropped: the next one says as much). Answers whether it was queued.
    pub fn send(&self, board: &BoardId, note: &Note) -> bool {
        match self.queue.try_send((board.clone(), note.text())) {
            Ok(()) => true,
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => false,
        }
    }

    /// An agent of `person` works on `board`: said at most once per
    /// [`AGENT_GAP`], which pages show for [`EXPIRY`].
    pub fn agent(&self, board: &BoardId, user: UserId, person: &str) {
        let now = Instant::now();
        {
            let mut agents = self.agents.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(last) = agents.get(&(board.clone(), user.0)) {
                if now.duration_since(*last) < AGENT_GAP {
                    return;
                }
            }
            if agents.len() > 10_000 {
                agents.retain(|_, last| now.duration_since(*last) < EXPIRY);
            }
            agents.insert((board.clone(), user.0), now);
        }
        self.send(board, &Note::agent(user, person));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_stable_and_from_the_palette() {
        assert_eq!(color_of("ann"), color_of("ann"));
        let used: std::collections::HashSet<_> = [
            "ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo",
        ]
        .iter()
        .map(|n| color_of(n))
        .collect();
        assert!(used.len() >= 4, "names spread over the palette: {used:?}");
        assert!(used.iter().all(|c| PALETTE.contains(c)));
    }

    #[test]
    fn a_note_reads_back_and_hostile_ones_show_less() {
        let here = Here::new(Some(2), Some([1.0, 2.0]), Some(vec!["s1".into()]), None);
        let note = Note::window("abc-1", "Ann", &here);
        assert_eq!(Note::read(&note.text()), Some(note.clone()));
        assert!(!note.text().contains("gone"), "{}", note.text());
        // A bad colour takes the person's; bad numbers and ids go.
        let hostile = r#"{"t":"presence","id":"x-1","person":"Ann","color":"url(javascript:1)","page":0,
            "cursor":[1e300,0],"sel":["s1","<img>"],"view":[0,0,0,0]}"#;
        let read = Note::read(hostile).unwrap();
        assert_eq!(read.color, color_of("Ann"));
        assert_eq!((read.page, read.cursor, read.view), (1, None, None));
        assert_eq!(read.sel, vec!["s1".to_string()]);
        for bad in [
            r#"{"t":"presence","id":"","person":"A"}"#,
            r#"{"t":"presence","id":"a b","person":"A"}"#,
            r#"{"t":"other","id":"a","person":"A"}"#,
            r#"{"t":"presence","id":"a","person":"A\u0007"}"#,
            "not json",
        ] {
            assert_eq!(Note::read(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_note_stays_within_a_signal() {
        let here = Here {
            page: 1,
            cursor: Some([1.0, 1.0]),
            sel: (0..2000).map(|i| format!("s{i:020}")).collect(),
            view: None,
        };
        let text = Note::window("abc-1", "Ann", &here).text();
        assert!(text.len() <= MAX_SIGNAL_BYTES);
        assert!(text.contains("\"cursor\":[1.0,1.0]"), "{text}");
    }
}
