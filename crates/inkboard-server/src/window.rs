//! The live editor on a stored board: `GET /b/BOARD` is the editor of
//! `inkboard-app` (its `web/`), whose WebSocket `/b/BOARD/ws` speaks the live
//! protocol of `docs/live-protocol.md` at a [`BoardDesk`]: one signed-in person
//! on one board. Their edits are tool calls through the one engine over the
//! store ([`Access`]), committed in their name; what anyone else commits, on this
//! process or another, reaches the window through the board's broadcast in
//! [`Held`] (fed by the store's events). A viewer's window reads, and each edit
//! is refused by the store with the role it needs; a board the person holds no
//! role on is the same 404 as a missing one.
//!
//! Drawings of a page are shared by the windows of this process that show it
//! ([`Windows`]: one number and one cache entry per board while a window is
//! open).
//!
//! Each window is present on its board (`presence.rs`): its `here` goes out as
//! a note at most once per [`MIN_GAP`] and again every [`HEARTBEAT`], `gone`
//! when it closes, and everyone else's notes come to it while its person holds
//! a role on the board (asked again at every heartbeat).

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use base64::Engine as _;
use inkboard_app::desk::{Desk, Header};
use inkboard_app::here::Here;
use inkboard_app::{Event, ViewCache};
use inkboard_core::{Actor, Board};
use inkboard_store::{BoardId, Role};
use inkboard_tools::stored::{StoredBoard, StoredCell, Undone};
use inkboard_tools::{Caller, ChangeLog, Engine, Reply, ToolError};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use tokio::sync::{broadcast, oneshot};

use crate::guard::SignedIn;
use crate::keeper::{whose, Access, Member};
use crate::pages::{blocking, not_found, not_signed_in};
use crate::presence::{color_of, Note, HEARTBEAT, MIN_GAP};
use crate::{Held, Shared};

/// The most notes of others' presence a window's page may be behind by.
const NOTES_BEHIND: usize = 16;

pub fn routes() -> Router<Arc<Shared>> {
    // The editor's rich text is work done on request: for signed-in people only.
    let rich =
        inkboard_app::editor::rich_text().route_layer(axum::middleware::from_fn(people_only));
    Router::new()
        .route("/b/{board}", get(editor))
        .route("/b/{board}/ws", get(socket))
        .route("/b/{board}/export", get(export))
        .route("/api/session", get(session))
        .merge(inkboard_app::editor::files())
        .merge(rich)
}

/// Lets through only a request whose session cookie signs a person in.
async fn people_only(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    match request.extensions().get::<SignedIn>() {
        Some(SignedIn(Some(_))) => next.run(request).await,
        _ => not_signed_in(),
    }
}

/// The windows this process serves: a number for each board shown (the live
/// protocol names boards by number) and the drawings they share.
#[derive(Default)]
pub struct Windows {
    open: Mutex<Shown>,
    cache: ViewCache,
}

/// The boards windows show: each one's number and how many windows show it,
/// and the last number given.
#[derive(Default)]
struct Shown {
    boards: HashMap<BoardId, (u32, usize)>,
    last: u32,
}

impl Windows {
    /// A window opens on `board`: its number.
    fn open(&self, board: &BoardId) -> u32 {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let Shown { boards, last } = &mut *open;
        let entry = boards.entry(board.clone()).or_insert_with(|| {
            *last = last.wrapping_add(1).max(1);
            (*last, 0)
        });
        entry.1 += 1;
        entry.0
    }

    /// A window on `board` closed; the last one lets its drawings go.
    fn close(&self, board: &BoardId) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((key, count)) = open.boards.get_mut(board) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.cache.forget(*key);
                open.boards.remove(board);
            }
        }
    }
}

/// One window: a person at one stored board.
pub struct BoardDesk {
    shared: Arc<Shared>,
    board: BoardId,
    key: u32,
    who: Member,
    cell: Arc<StoredCell>,
    events: broadcast::Sender<Event>,
    /// This window's presence.
    presence: Arc<Mine>,
    /// Others' notes, passed on by the window's task.
    notes: broadcast::Sender<Arc<str>>,
    /// Dropped with the window: ends the task that passes the board's moves on.
    _stop: oneshot::Sender<()>,
}

/// A window's own presence: its id among every process's, and where it is.
struct Mine {
    id: String,
    board: BoardId,
    person: String,
    /// Whether the person holds a role on the board (asked at each heartbeat).
    allowed: AtomicBool,
    state: Mutex<MineState>,
}

#[derive(Default)]
struct MineState {
    latest: Option<Here>,
    /// The latest was not sent yet (it came sooner than [`MIN_GAP`]).
    dirty: bool,
    sent: Option<Instant>,
}

impl Mine {
    /// Sends the latest state if it is due: `dirty` ones at the gap, all of
    /// them at the heartbeat.
    fn flush(&self, held: &Held, heartbeat: bool) {
        if !self.allowed.load(Ordering::Relaxed) {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let due = state.sent.is_none_or(|t| t.elapsed() >= MIN_GAP);
        if !(heartbeat || (state.dirty && due)) {
            return;
        }
        if let Some(here) = &state.latest {
            held.presence()
                .send(&self.board, &Note::window(&self.id, &self.person, here));
            state.sent = Some(Instant::now());
            state.dirty = false;
        }
    }

    /// A new `here`: sent now if the last went out [`MIN_GAP`] ago, else kept
    /// as the latest for the next tick (never queued).
    fn update(&self, held: &Held, here: Here) {
        {
            let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
            if state.latest.as_ref() == Some(&here) {
                return;
            }
            state.latest = Some(here);
            state.dirty = true;
        }
        self.flush(held, false);
    }
}

impl BoardDesk {
    /// The desk of `who` at `board`, whose role the caller has checked. Loads the
    /// board if this process does not hold it: call it off the async workers,
    /// inside a Tokio runtime.
    pub fn open(shared: Arc<Shared>, board: BoardId, who: Member) -> Result<Self, ToolError> {
        let cell = shared.held.cell(&board)?;
        let mut moved = shared.held.watch(&board)?;
        let mut heard = shared.held.notes(&board)?;
        let key = shared.windows.open(&board);
        let (events, _) = broadcast::channel(64);
        // Short: a window that falls behind skips to the latest notes (each
        // says all of where its window is, and heartbeats say it again) rather
        // than showing pointers seconds late.
        let (notes, _) = broadcast::channel(NOTES_BEHIND);
        let (stop, mut stopped) = oneshot::channel::<()>();
        let tell = events.clone();
        let pass = notes.clone();
        let presence = Arc::new(Mine {
            id: shared.held.presence().window_id(),
            board: board.clone(),
            person: who.name.as_str().to_string(),
            allowed: AtomicBool::new(true),
            state: Mutex::default(),
        });
        let (mine, held, user) = (presence.clone(), shared.held.clone(), who.id);
        tokio::runtime::Handle::current().spawn(async move {
            let mut tick = tokio::time::interval(MIN_GAP * 2);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            let mut beat = Instant::now();
            loop {
                tokio::select! {
                    _ = &mut stopped => return,
                    m = moved.recv() => match m {
                        // Missed moves, or a move: the window looks at the revision.
                        Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {
                            let _ = tell.send(Event::Changed { board: key });
                        }
                        Err(broadcast::error::RecvError::Closed) => return,
                    },
                    h = heard.recv() => match h {
                        Ok(h) => {
                            if h.id != mine.id && mine.allowed.load(Ordering::Relaxed) {
                                let _ = pass.send(h.text.clone());
                            }
                        }
                        // Missed notes: their windows say them again soon.
                        Err(broadcast::error::RecvError::Lagged(_)) => {}
                        Err(broadcast::error::RecvError::Closed) => return,
                    },
                    _ = tick.tick() => {
                        let heartbeat = beat.elapsed() >= HEARTBEAT;
                        if heartbeat {
                            beat = Instant::now();
                            // A person whose role was taken away is no longer
                            // present, and sees no one.
                            let (store, board) = (held.store().clone(), mine.board.clone());
                            let role = tokio::task::spawn_blocking(move || store.role(&board, user)).await;
                            let allowed = !matches!(role, Ok(Ok(None)));
                            mine.allowed.store(allowed, Ordering::Relaxed);
                        }
                        mine.flush(&held, heartbeat);
                    }
                }
            }
        });
        Ok(BoardDesk {
            shared,
            board,
            key,
            who,
            cell,
            events,
            presence,
            notes,
            _stop: stop,
        })
    }

    fn held(&self) -> &Arc<Held> {
        &self.shared.held
    }

    /// The person's role on the board now, from the store: none once it was
    /// taken away.
    fn role(&self) -> Option<Role> {
        self.held()
            .store()
            .role(&self.board, self.who.id)
            .ok()
            .flatten()
    }

    /// The board's copy, brought to the store's revision first.
    fn caught_up(&self) -> std::sync::MutexGuard<'_, StoredBoard> {
        let mut copy = self.cell.lock();
        if let Err(e) = self.held().catch_up(&self.cell, &mut copy) {
            tracing::warn!(board = %self.board, "editor: not caught up: {e}");
        }
        copy
    }

    fn engine(&self) -> Engine {
        Engine::stored(Arc::new(Access {
            held: self.held().clone(),
            who: self.who.clone(),
        }))
    }

    fn caller(&self, window: u64) -> Caller {
        Caller {
            actor: Actor::User,
            client: format!("window-{window}"),
            board: None,
            control: Default::default(),
            committed: Default::default(),
            chat: false,
        }
    }
}

impl Drop for BoardDesk {
    fn drop(&mut self) {
        self.shared.windows.close(&self.board);
        self.shared
            .held
            .presence()
            .send(&self.board, &Note::gone(&self.presence.id));
    }
}

impl Desk for BoardDesk {
    fn events(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    fn first(&self) -> u32 {
        self.key
    }

    fn choose(&self, _board: Option<u32>, _path: Option<&Path>) -> Option<u32> {
        // A window here shows the board of its address, whatever it showed before.
        None
    }

    fn header(&self, _board: u32) -> Option<Header> {
        // Read again each time: a person whose role was taken away sees no more.
        let role = self.role()?;
        let copy = self.caught_up();
        let mut extra = Map::new();
        extra.insert("role".into(), json!(role.as_str()));
        extra.insert("who".into(), json!(self.who.display()));
        Some(Header {
            title: copy.board.title().to_string(),
            path: None,
            pages: copy.board.pages().iter().map(|p| p.name.clone()).collect(),
            revision: copy.board.revision(),
            undo: role != Role::Viewer && copy.own.can_undo(&whose(self.who.id)),
            redo: role != Role::Viewer && copy.own.can_redo(&whose(self.who.id)),
            // Every change is in the store as it is made.
            save: "saved",
            save_error: None,
            offer: Value::Null,
            imported: Value::Null,
            extra,
        })
    }

    fn look(&self, _board: u32, f: &mut dyn FnMut(&Board, &ChangeLog)) -> bool {
        // Asked again each time, as the header is: a window whose person lost
        // their role on the board is drawn nothing more.
        if self.role().is_none() {
            return false;
        }
        let copy = self.caught_up();
        f(&copy.board, &copy.log);
        true
    }

    fn look_mut(&self, _board: u32, f: &mut dyn FnMut(&mut Board)) -> bool {
        // A preview is of an edit: a viewer makes none. It runs on a copy, so
        // the board's lock (which every commit here takes) is not held while a
        // window tries a layout out.
        if !matches!(self.role(), Some(Role::Editor | Role::Owner)) {
            return false;
        }
        let mut board = self.caught_up().board.clone();
        f(&mut board);
        true
    }

    fn cache(&self) -> &ViewCache {
        &self.shared.windows.cache
    }

    fn authors(&self, _board: u32, revisions: &[u64]) -> Vec<String> {
        let copy = self.cell.lock();
        let mut names: Vec<String> = Vec::new();
        for who in revisions.iter().filter_map(|r| copy.authors.get(r)) {
            if !names.contains(who) {
                names.push(who.clone());
            }
        }
        names
    }

    fn marks(&self, _board: u32, revisions: &[u64]) -> Vec<(u64, String, String)> {
        let me = self.who.display();
        let copy = self.cell.lock();
        revisions
            .iter()
            .filter_map(|r| {
                let who = copy.authors.get(r)?;
                // A person's agent is marked in the person's colour.
                let person = who.strip_suffix("'s agent").unwrap_or(who);
                (*who != me).then(|| (*r, who.clone(), color_of(person).to_string()))
            })
            .collect()
    }

    fn here(&self, here: Here) {
        self.presence.update(self.held(), here);
    }

    fn presence(&self) -> Option<broadcast::Receiver<Arc<str>>> {
        Some(self.notes.subscribe())
    }

    fn call(&self, _board: u32, window: u64, tool: &str, args: Value) -> Result<Reply, ToolError> {
        let mut args = match args {
            Value::Object(map) => map,
            Value::Null => Map::new(),
            _ => {
                return Err(ToolError::Arguments(format!(
                    "{tool}: arguments must be a JSON object"
                )))
            }
        };
        // The window's board is the one of its address (the window's rules
        // refused any `path` it sent).
        args.insert("board".into(), json!(self.board.as_str()));
        self.engine()
            .call_as(tool, Value::Object(args), &self.caller(window))
    }

    fn undo(&self, _board: u32, window: u64, redo: bool) -> Result<Undone, ToolError> {
        self.engine()
            .undo_stored(self.board.as_str(), &self.caller(window), redo)
    }
}

/// The board of an address, if the signed-in person holds a role on it; the
/// same answer for a board that is missing or hidden.
async fn reach(shared: &Arc<Shared>, signed: SignedIn, board: &str) -> Result<Member, Response> {
    let Some(who) = signed.0 else {
        return Err(not_signed_in());
    };
    let Ok(id) = BoardId::parse(board) else {
        return Err(not_found());
    };
    let store = shared.store().clone();
    let user = who.id;
    match blocking(move || store.role(&id, user)).await? {
        Ok(Some(_)) => Ok(who),
        Ok(None) => Err(not_found()),
        Err(e) => Err(crate::pages::server_error(e)),
    }
}

/// The editor's page, live over `/b/BOARD/ws`.
async fn editor(
    State(shared): State<Arc<Shared>>,
    Extension(signed): Extension<SignedIn>,
    UrlPath(board): UrlPath<String>,
) -> Response {
    if let Err(r) = reach(&shared, signed.clone(), &board).await {
        return r;
    }
    let base = format!("/b/{board}/");
    let people = format!("/b/{board}/people");
    let html = inkboard_app::editor::page(
        &base,
        &[("/", "Your boards"), (&people, "People and history")],
    );
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        html,
    )
        .into_response()
}

/// A window's WebSocket on the board.
async fn socket(
    State(shared): State<Arc<Shared>>,
    Extension(signed): Extension<SignedIn>,
    UrlPath(board): UrlPath<String>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let who = match reach(&shared, signed.clone(), &board).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    let Ok(id) = BoardId::parse(&board) else {
        return not_found();
    };
    let handle = tokio::runtime::Handle::current();
    let opened = {
        let shared = shared.clone();
        blocking(move || {
            let _runtime = handle.enter();
            BoardDesk::open(shared, id, who)
        })
        .await
    };
    match opened {
        Ok(Ok(desk)) => inkboard_app::editor::window(upgrade, Arc::new(desk)),
        Ok(Err(e)) => crate::pages::server_error(e),
        Err(r) => r,
    }
}

#[derive(Deserialize)]
struct ExportQuery {
    page: Option<usize>,
    format: String,
    embed: Option<bool>,
    scale: Option<f64>,
    theme: Option<String>,
    /// `transparent` or `solid`, as `export`'s `background`.
    background: Option<String>,
    /// Only these objects, comma-separated, as `export`'s `ids`.
    ids: Option<String>,
}

/// The editor's downloads: the `export` tool, run as the person.
async fn export(
    State(shared): State<Arc<Shared>>,
    Extension(signed): Extension<SignedIn>,
    UrlPath(board): UrlPath<String>,
    Query(q): Query<ExportQuery>,
) -> Response {
    let who = match reach(&shared, signed.clone(), &board).await {
        Ok(who) => who,
        Err(r) => return r,
    };
    let mut args = json!({"board": board, "format": q.format, "page": q.page.unwrap_or(1)});
    for (key, value) in [
        ("embed", q.embed.map(Value::from)),
        ("scale", q.scale.map(Value::from)),
        ("theme", q.theme.map(Value::from)),
        ("background", q.background.map(Value::from)),
        (
            "ids",
            q.ids.map(|ids| {
                ids.split(',')
                    .map(|id| id.trim())
                    .collect::<Vec<_>>()
                    .into()
            }),
        ),
    ] {
        if let Some(value) = value {
            args[key] = value;
        }
    }
    let held = shared.held.clone();
    let done = blocking(move || {
        let engine = Engine::stored(Arc::new(Access { held, who }));
        engine.call_as("export", args, &Caller::agent("editor").as_person())
    })
    .await;
    match done {
        Ok(Ok(Reply::Json(v))) => {
            let bytes = v["data"]
                .as_str()
                .and_then(|d| base64::engine::general_purpose::STANDARD.decode(d).ok())
                .unwrap_or_default();
            let mime = v["mime_type"]
                .as_str()
                .unwrap_or("application/octet-stream")
                .to_string();
            (
                [
                    (header::CONTENT_TYPE, mime),
                    (header::CACHE_CONTROL, "no-store".to_string()),
                    (header::CONTENT_DISPOSITION, "attachment".to_string()),
                ],
                bytes,
            )
                .into_response()
        }
        Ok(Err(e)) => (StatusCode::BAD_REQUEST, e.to_string()).into_response(),
        Ok(Ok(_)) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        Err(r) => r,
    }
}

/// Whether the browser is still signed in (the editor asks when its socket
/// closed: 401 says "signed out", no answer "the server is down").
async fn session(Extension(SignedIn(who)): Extension<SignedIn>) -> StatusCode {
    match who {
        Some(_) => StatusCode::NO_CONTENT,
        None => StatusCode::UNAUTHORIZED,
    }
}
