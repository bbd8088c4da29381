//! One browser window's WebSocket: the live protocol of `docs/live-protocol.md`.
//! The window sends intents (tool calls, previews, undo, redo); this session runs
//! them on the shared engine as the person, and sends the window what changed on
//! its page, whoever changed it. Whatever waits for a board's lock (which a long
//! call may hold) or grows with the page runs on a blocking thread, as all long
//! work in the application does (`http.rs`), so one window never holds up the
//! others.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use inkboard_core::Actor;
use inkboard_tools::{Caller, Reply};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use crate::boards::Event;
use crate::view::{draw, fragments, PageView, Shown};
use crate::AppState;
use inkboard_tools::window_calls;

/// A message from the window.
#[derive(Deserialize)]
#[serde(tag = "t", rename_all = "lowercase")]
enum Intent {
    Hello {
        board: Option<u32>,
        page: Option<usize>,
        /// The file of the board the window showed: after a restart of the
        /// application, board numbers are new, so the file decides.
        path: Option<std::path::PathBuf>,
    },
    View {
        page: usize,
    },
    Focus,
    Call {
        seq: u64,
        tool: String,
        #[serde(default)]
        args: Value,
    },
    Preview {
        seq: u64,
        tool: String,
        #[serde(default)]
        args: Value,
    },
    Draw {
        seq: u64,
        ids: Vec<String>,
    },
    Undo,
    Redo,
    Save,
    /// The person's choice in the banner: `mine`, `theirs` or `both`.
    Resolve {
        seq: u64,
        choice: String,
    },
    /// The person's yes in the banner to saving an imported board as the board
    /// file offered (`imported.save_to` of the `board` message).
    KeepImport {
        seq: u64,
    },
}

/// What the window is looking at.
struct Session {
    app: Arc<AppState>,
    board: u32,
    /// Page number, from 1.
    page: usize,
    shown: Shown,
    /// The revision the window was last brought up to.
    revision: u64,
    /// This window's number, for focus and as the client `board_changes` knows.
    window: u64,
    /// The title and pages in the last `board` message, as JSON text.
    pages_sent: String,
}

static WINDOWS: AtomicU64 = AtomicU64::new(1);

/// Serves one window until it goes away.
pub async fn serve(mut socket: WebSocket, app: Arc<AppState>) {
    let mut events = app.boards.subscribe();
    let window = WINDOWS.fetch_add(1, Ordering::Relaxed);
    let board = app.boards.displayed();
    let mut session = Session {
        app,
        board,
        page: 1,
        shown: Shown::default(),
        revision: 0,
        window,
        pages_sent: String::new(),
    };
    loop {
        tokio::select! {
            message = socket.recv() => {
                let text = match message {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => continue,
                };
                let out = match read_intent(text).await {
                    Ok(intent) => session.handle(intent).await,
                    Err(e) => vec![json!({"t": "error", "error": format!("unreadable message: {e}")}).to_string()],
                };
                for message in out {
                    if send(&mut socket, message).await.is_err() {
                        return;
                    }
                }
            }
            event = events.recv() => {
                let out = match event {
                    Ok(Event::Changed { board }) if board == session.board => {
                        let mut out = session.refresh(false).await;
                        // Pages added, renamed, deleted or moved by someone else:
                        // the window's tabs follow at once, not at the next save.
                        if session.pages_changed().await {
                            out.push(session.meta().await);
                        }
                        out
                    }
                    Ok(Event::Meta { board }) if board == session.board => vec![session.meta().await],
                    Ok(Event::Opened { board, window: to, from }) if to == Some(window) || (to.is_none() && session.board == from) => {
                        vec![json!({"t": "switch", "board": board}).to_string()]
                    }
                    Ok(Event::Closing) => {
                        let _ = socket.send(Message::Close(None)).await;
                        return;
                    }
                    Ok(_) => Vec::new(),
                    // Missed events: bring the window up to date whole.
                    Err(RecvError::Lagged(_)) => {
                        let mut out = vec![session.meta().await];
                        out.extend(session.refresh(true).await);
                        out
                    }
                    Err(RecvError::Closed) => return,
                };
                for message in out {
                    if send(&mut socket, message).await.is_err() {
                        return;
                    }
                }
            }
        }
    }
}

/// Reads a window's message. One of megabytes (an image inline) is parsed on a
/// blocking thread, as every long task is.
async fn read_intent(text: Utf8Bytes) -> Result<Intent, String> {
    let small = text.len() <= 64 * 1024;
    let read = move || serde_json::from_str::<Intent>(&text).map_err(|e| e.to_string());
    if small {
        return read();
    }
    off_the_workers(read)
        .await
        .unwrap_or_else(|| Err("inkboard hit a bug while reading it".into()))
}

async fn send(socket: &mut WebSocket, message: String) -> Result<(), axum::Error> {
    socket.send(Message::Text(Utf8Bytes::from(message))).await
}

impl Session {
    async fn handle(&mut self, intent: Intent) -> Vec<String> {
        match intent {
            Intent::Hello { board, page, path } => {
                // A window whose file is not open here shows the board on screen.
                let boards = self.app.boards.clone();
                // Off the workers: finding the file's board waits for each
                // board's lock, which a long call may hold.
                let chosen = off_the_workers(move || match path {
                    Some(path) => boards.key_at(&path),
                    None => board.filter(|b| boards.entry(*b).is_some()),
                })
                .await
                .flatten();
                if let Some(board) = chosen {
                    self.board = board;
                }
                self.page = page.unwrap_or(1).max(1);
                self.shown = Shown::default();
                let mut out = vec![self.meta().await];
                out.extend(self.refresh(true).await);
                out
            }
            Intent::View { page } => {
                self.page = page.max(1);
                let mut out = vec![self.meta().await];
                out.extend(self.refresh(true).await);
                out
            }
            Intent::Draw { seq, ids } => match self.drawing(None).await {
                Some((view, _, _)) => off_the_workers(move || vec![fragments(seq, &view, &ids)])
                    .await
                    .unwrap_or_default(),
                None => Vec::new(),
            },
            Intent::Focus => {
                self.app.boards.focus(self.board, self.window);
                Vec::new()
            }
            Intent::Call { seq, tool, args } => {
                if let Err(refusal) = window_calls::check(&tool, &args) {
                    return vec![
                        json!({"t": "reply", "seq": seq, "ok": false, "error": refusal})
                            .to_string(),
                    ];
                }
                let engine = self.app.engine.clone();
                let caller = Caller {
                    actor: Actor::User,
                    client: format!("window-{}", self.window),
                    board: Some(self.board),
                    control: Default::default(),
                    committed: Default::default(),
                    chat: false,
                };
                let result =
                    tokio::task::spawn_blocking(move || engine.call_as(&tool, args, &caller))
                        .await
                        .unwrap_or_else(|e| {
                            Err(inkboard_tools::ToolError::Io(format!(
                                "the call stopped: {e}"
                            )))
                        });
                // The change first, then the answer, so the window never sees an
                // answer about an object it has not been sent.
                let mut out = self.refresh(false).await;
                out.push(self.meta().await);
                out.push(
                    match result {
                        Ok(Reply::Json(result)) => {
                            json!({"t": "reply", "seq": seq, "ok": true, "result": result})
                        }
                        Ok(Reply::Image { text, .. }) => {
                            json!({"t": "reply", "seq": seq, "ok": true, "result": {"text": text}})
                        }
                        Err(e) => {
                            json!({"t": "reply", "seq": seq, "ok": false, "error": e.to_string()})
                        }
                    }
                    .to_string(),
                );
                out
            }
            Intent::Preview { seq, tool, args } => vec![self.preview(seq, tool, args).await],
            Intent::Undo | Intent::Redo => {
                let redo = matches!(intent, Intent::Redo);
                let boards = self.app.boards.clone();
                let board = self.board;
                let result = tokio::task::spawn_blocking(move || boards.undo(board, redo)).await;
                let mut out = self.refresh(false).await;
                out.push(self.meta().await);
                if let Ok(Err(e)) = result {
                    out.push(json!({"t": "error", "error": e.to_string()}).to_string());
                }
                out
            }
            Intent::Save => {
                let boards = self.app.boards.clone();
                let board = self.board;
                let _ = tokio::task::spawn_blocking(move || {
                    if let Some(entry) = boards.entry(board) {
                        let _ = boards.save_explicit(&entry);
                    }
                })
                .await;
                vec![self.meta().await]
            }
            Intent::Resolve { seq, choice } => {
                let Some(choice) = crate::outside::Choice::parse(&choice) else {
                    return vec![json!({"t": "reply", "seq": seq, "ok": false, "error": "choose mine, theirs or both"}).to_string()];
                };
                let boards = self.app.boards.clone();
                let board = self.board;
                let result = tokio::task::spawn_blocking(move || boards.resolve(board, choice))
                    .await
                    .unwrap_or_else(|e| {
                        Err(inkboard_tools::ToolError::Io(format!(
                            "the choice stopped: {e}"
                        )))
                    });
                let mut out = self.refresh(false).await;
                out.push(self.meta().await);
                out.push(
                    match result {
                        Ok(opened) => json!({"t": "reply", "seq": seq, "ok": true, "result": {"opened": opened}}),
                        Err(e) => json!({"t": "reply", "seq": seq, "ok": false, "error": e.to_string()}),
                    }
                    .to_string(),
                );
                out
            }
            Intent::KeepImport { seq } => {
                let boards = self.app.boards.clone();
                let board = self.board;
                let result = tokio::task::spawn_blocking(move || boards.keep_import(board))
                    .await
                    .unwrap_or_else(|e| {
                        Err(inkboard_tools::ToolError::Io(format!(
                            "the save stopped: {e}"
                        )))
                    });
                let reply = match result {
                    Ok(path) => {
                        json!({"t": "reply", "seq": seq, "ok": true, "result": {"path": path}})
                    }
                    Err(e) => {
                        json!({"t": "reply", "seq": seq, "ok": false, "error": e.to_string()})
                    }
                };
                vec![self.meta().await, reply.to_string()]
            }
        }
    }

    /// Whether the board's title or pages differ from the last `board` message.
    async fn pages_changed(&self) -> bool {
        let (app, board, sent) = (self.app.clone(), self.board, self.pages_sent.clone());
        off_the_workers(move || {
            app.boards
                .entry(board)
                .is_some_and(|entry| pages_text(&entry.cell.lock().board) != sent)
        })
        .await
        .unwrap_or(false)
    }

    /// The `board` message: what the window's header shows. Made on a blocking
    /// thread: it waits for the board's lock, which a long call may hold.
    async fn meta(&mut self) -> String {
        let (app, board, page) = (self.app.clone(), self.board, self.page);
        match off_the_workers(move || board_message(&app, board, page)).await {
            Some((message, pages)) => {
                self.pages_sent = pages;
                message
            }
            None => {
                json!({"t": "error", "error": "the board's header could not be made"}).to_string()
            }
        }
    }

    /// Brings the window's page up to date: a `scene` message, if anything differs.
    async fn refresh(&mut self, full: bool) -> Vec<String> {
        let since = if full { None } else { Some(self.revision) };
        let Some((view, agent, page)) = self.drawing(since).await else {
            return Vec::new();
        };
        self.page = page;
        self.revision = view.revision;
        // What the window holds travels to the blocking thread and back; lost
        // to a bug there, the window is sent its page whole next time.
        let mut shown = std::mem::take(&mut self.shown);
        let diffed = off_the_workers(move || {
            let message = shown.diff(page, &view, full, agent);
            (shown, message)
        })
        .await;
        let Some((shown, message)) = diffed else {
            return Vec::new();
        };
        self.shown = shown;
        message.into_iter().collect()
    }

    /// The drawing of the window's page now, the agent's changes in it since
    /// revision `since`, and the page number; `None` if the board is gone or, with
    /// `since`, nothing changed after it.
    async fn drawing(&self, since: Option<u64>) -> Option<(Arc<PageView>, Vec<String>, usize)> {
        let entry = self.app.boards.entry(self.board)?;
        let full = since.is_none();
        let since = since.unwrap_or(self.revision);
        let cache = self.app.cache.clone();
        let page = self.page;
        // Drawing a large page takes a while: off the async threads, and from a copy
        // of the board, so that tool calls on it need not wait for the drawing.
        let drawn = tokio::task::spawn_blocking(move || {
            let live = entry.cell.lock();
            let pages = live.board.pages();
            if pages.is_empty() || (!full && live.board.revision() == since) {
                return None;
            }
            let page = page.clamp(1, pages.len());
            let id = pages[page - 1].id;
            let agent: Vec<String> = live
                .log
                .changes_since(since)
                .unwrap_or_default()
                .into_iter()
                .filter(|c| c.by == Actor::Agent && c.page == id)
                .filter_map(|c| c.id.map(|id| id.to_string()))
                .collect();
            let key = entry.cell.key;
            let view = match cache.get(key, id, live.board.revision()) {
                Some(view) => view,
                None => {
                    let board = live.board.clone();
                    drop(live);
                    cache.view(key, id, &board)
                }
            };
            Some((view, agent, page))
        })
        .await;
        drawn.ok().flatten()
    }

    /// Runs a tool on a draft of the board and answers the fragments that would
    /// change.
    async fn preview(&mut self, seq: u64, tool: String, args: Value) -> String {
        if let Err(refusal) = window_calls::check(&tool, &args) {
            return json!({"t": "preview", "seq": seq, "items": {}, "error": refusal}).to_string();
        }
        let Some(entry) = self.app.boards.entry(self.board) else {
            return json!({"t": "preview", "seq": seq, "items": {}, "error": "this board is no longer open"}).to_string();
        };
        let engine = self.app.engine.clone();
        let page_number = self.page;
        let drawn = tokio::task::spawn_blocking(move || {
            let mut live = entry.cell.lock();
            let board = &mut live.board;
            let page = board.pages().get(page_number - 1).map(|p| p.id);
            engine.dry_run(board, &tool, args, |draft| page.map(|p| draw(draft, p)))
        })
        .await;
        let (items, error) = match drawn {
            Ok(Ok(Some(view))) => {
                let shown = std::mem::take(&mut self.shown);
                let previewed = off_the_workers(move || {
                    let items = shown.preview(&view);
                    (shown, items)
                })
                .await;
                match previewed {
                    Some((shown, items)) => {
                        self.shown = shown;
                        (items, Value::Null)
                    }
                    None => ("{}".to_string(), Value::Null),
                }
            }
            Ok(Ok(None)) => ("{}".to_string(), Value::Null),
            Ok(Err(e)) => ("{}".to_string(), Value::String(e.to_string())),
            Err(e) => ("{}".to_string(), Value::String(e.to_string())),
        };
        format!("{{\"t\":\"preview\",\"seq\":{seq},\"items\":{items},\"error\":{error}}}")
    }
}

/// The title and page names of a board, as JSON text, to tell whether a window's
/// header is still right.
fn pages_text(board: &inkboard_core::Board) -> String {
    let names: Vec<&str> = board.pages().iter().map(|p| p.name.as_str()).collect();
    json!([board.title(), names]).to_string()
}

/// The `board` message of board `board` shown at page `page`, and the title and
/// page names in it (`pages_text`).
fn board_message(app: &AppState, board: u32, page: usize) -> (String, String) {
    let Some(entry) = app.boards.entry(board) else {
        let gone = json!({"t": "error", "error": "this board is no longer open"});
        return (gone.to_string(), String::new());
    };
    let state = entry.save_state();
    let live = entry.cell.lock();
    let sent = pages_text(&live.board);
    let pages: Vec<Value> = live
        .board
        .pages()
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"number": i + 1, "name": p.name}))
        .collect();
    let error = match &state {
        crate::boards::SaveState::Failed(message) => Value::String(message.clone()),
        _ => Value::Null,
    };
    let offer = match entry.offer() {
        Some(offer) => json!({
            "kind": offer.kind.name(),
            "copy": offer.recovery.copy.display().to_string(),
            "saved": offer.recovery.saved,
        }),
        None => Value::Null,
    };
    let imported = match entry.imported() {
        Some(origin) => json!({
            "source": origin.source.display().to_string(),
            "format": origin.format,
            "save_to": origin.save_to().display().to_string(),
            "lost": inkboard_tools::import_note(&live.board).map(|(_, lost)| lost).unwrap_or_default(),
        }),
        None => Value::Null,
    };
    let message = json!({
        "t": "board",
        "board": board,
        "title": live.board.title(),
        "path": live.path.as_ref().map(|p| p.display().to_string()),
        "pages": pages,
        "page": page.min(pages.len().max(1)),
        "revision": live.board.revision(),
        "undo": live.history.can_undo(),
        "redo": live.history.can_redo(),
        "save": state.name(),
        "save_error": error,
        "offer": offer,
        "imported": imported,
    });
    (message.to_string(), sent)
}

/// Runs `work` on a blocking thread: whatever waits for a board's lock or grows
/// with a page (a header, a page's differences, a long message read) stays off
/// the async workers, which every other window and request needs. `None` if it
/// hit a bug.
async fn off_the_workers<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    tokio::task::spawn_blocking(work).await.ok()
}
