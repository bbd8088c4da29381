//! The inkboard application: the local web editor (served from `web/`), the HTTP
//! and WebSocket server behind it, and the live boards that people and agents edit
//! together.
//!
//! The server is the authority. Browsers send intents over a WebSocket ([`ws`]);
//! agents' tool calls arrive forwarded by `inkboard mcp` (`POST /api/call`) or over
//! HTTP MCP (mounted by the binary at `/mcp`). Both run on one [`Engine`] hosted by
//! [`Boards`], so every change is one transaction on the same board, one undo step,
//! broadcast to every window ([`view`] draws pages with the one renderer) and saved
//! by the autosaver, which never loses a change: a file changed on disk is loaded
//! or becomes a conflict the person settles ([`outside`]), a failed save is tried
//! again, and what cannot be saved is kept in a [`recovery`] copy. [`auth`] guards
//! every request.

pub mod auth;
mod autosave;
pub mod boards;
mod browser_secrets;
pub mod chat;
pub mod desk;
pub mod editor;
pub mod here;
mod http;
pub mod imported;
mod newfile;
pub mod outside;
pub mod recovery;
mod server;
#[cfg(test)]
mod testing;
pub mod token;
pub mod view;
mod watch;
mod ws;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use inkboard_core::{Board, PageId};
use inkboard_tools::Engine;

pub use boards::{Boards, Event, Offer, OfferKind, SaveState};
pub use desk::{Desk, Header};
pub use http::{MAX_BODY, MAX_OPEN_BODY, MAX_RICH_BODY};
pub use outside::Choice;
pub use server::{router, serve, AppError, Options, Running};

use crate::auth::Gate;
use crate::view::PageView;

/// Everything the request handlers share.
pub struct AppState {
    pub boards: Arc<Boards>,
    pub engine: Arc<Engine>,
    pub gate: Gate,
    pub cache: Arc<ViewCache>,
}

/// The last drawing of each page shown, so that windows on the same page share one
/// drawing per revision.
#[derive(Default)]
pub struct ViewCache {
    views: Mutex<HashMap<(u32, PageId), Arc<PageView>>>,
}

impl ViewCache {
    /// The drawing of `page` of board `key` at `revision`, if it is drawn already.
    pub fn get(&self, key: u32, page: PageId, revision: u64) -> Option<Arc<PageView>> {
        let views = self.views.lock().unwrap_or_else(|e| e.into_inner());
        views
            .get(&(key, page))
            .filter(|view| view.revision == revision)
            .cloned()
    }

    /// Lets go of every drawing of board `key` (no window shows it any more).
    pub fn forget(&self, key: u32) {
        let mut views = self.views.lock().unwrap_or_else(|e| e.into_inner());
        views.retain(|(k, _), _| *k != key);
    }

    /// The drawing of `page` of board `key` as `board` is now. Windows on the same
    /// page wait for one drawing; callers should not hold the board's own lock
    /// meanwhile (drawing a large page routes every connector: hundreds of ms).
    pub fn view(&self, key: u32, page: PageId, board: &Board) -> Arc<PageView> {
        let mut views = self.views.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(view) = views.get(&(key, page)) {
            if view.revision == board.revision() {
                return view.clone();
            }
        }
        let view = Arc::new(view::draw(board, page));
        views.insert((key, page), view.clone());
        view
    }
}
