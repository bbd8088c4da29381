//! The browser's two secrets, kept in the private runtime folder (`browser.json`,
//! 0600) from one launch of the application to the next, so that a tab left open
//! signs in again by itself when the application comes back (after a restart, an
//! update, a crash) instead of staying offline until a new link is opened.
//!
//! - The **session cookie** is what a browser sends with every request. Cookies
//!   ignore ports, so any other server on 127.0.0.1 that the browser visits
//!   receives it too: it is not enough alone for anything that reads or changes a
//!   board.
//! - The **page key** is handed to the page once, in the fragment of the redirect
//!   that trades the sign-in code (`/#key=…`, never sent to a server), and kept by
//!   the page in its origin's storage, which another port cannot read. The
//!   WebSocket (as a subprotocol), downloads and the session check send it along.
//!   A server on another port that stole the cookie cannot get it: the page
//!   itself (`/`) does not carry it.
//!
//! The last port is kept too: the application takes it again when it is free, as
//! a tab's address names the port. The runtime folder is emptied at logout, which
//! ends these sessions; a new link signs in again.

use std::io;

use serde::{Deserialize, Serialize};

/// The file's name in the runtime folder.
const FILE: &str = "browser.json";

/// The browser's secrets, and the port tabs know the application by.
#[derive(Clone, Serialize, Deserialize)]
pub struct BrowserSecrets {
    /// The session cookie's value (hex, 128 bits).
    pub cookie: String,
    /// The page key (hex, 128 bits).
    pub key: String,
    /// The port the application last listened on; 0 for none yet.
    #[serde(default)]
    pub port: u16,
}

impl BrowserSecrets {
    /// The kept secrets, or new ones (kept for the next launch when the runtime
    /// folder can be written; else this launch's own, as before they were kept).
    pub fn load_or_make() -> io::Result<BrowserSecrets> {
        if let Some(kept) = Self::load() {
            return Ok(kept);
        }
        let made = BrowserSecrets {
            cookie: crate::auth::random_hex()?,
            key: crate::auth::random_hex()?,
            port: 0,
        };
        made.keep();
        Ok(made)
    }

    /// Remembers `port` as the one tabs know, if it changed.
    pub fn remember_port(&mut self, port: u16) {
        if self.port != port {
            self.port = port;
            self.keep();
        }
    }

    fn load() -> Option<BrowserSecrets> {
        let bytes = inkboard_tools::read_private_file(FILE, 4096).ok()?;
        let kept: BrowserSecrets = serde_json::from_slice(&bytes).ok()?;
        let secret = |s: &str| s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit());
        (secret(&kept.cookie) && secret(&kept.key)).then_some(kept)
    }

    fn keep(&self) {
        let bytes = serde_json::to_vec(self).unwrap_or_default();
        if let Err(e) = inkboard_tools::write_private(FILE, &bytes) {
            tracing::warn!("cannot keep the browser's session for the next launch: {e}");
        }
    }
}
