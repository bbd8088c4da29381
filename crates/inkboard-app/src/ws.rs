//! One browser window's WebSocket: the live protocol of `docs/live-protocol.md`.
//! The window sends intents (tool calls, previews, undo, redo); this session runs
//! them at its [`Desk`] as the person (the application's boards, or one stored
//! board of the team server), and sends the window what changed on its page,
//! whoever changed it. Whatever waits for a board's lock (which a long call may
//! hold) or the store, or grows with the page, runs on a blocking thread, as all
//! long work in the application does (`http.rs`), so one window never holds up
//! the others.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use inkboard_core::Actor;
use inkboard_tools::{Engine, Reply, ToolError};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast::{self, error::RecvError};

use crate::boards::Event;
use crate::desk::{Desk, Header};
use crate::here::Here;
use crate::view::{draw, fragments, PageView, Shown};
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
    /// Where the person is (a team server's presence; `here.rs` checks it).
    Here {
        page: Option<u64>,
        cursor: Option<[f64; 2]>,
        sel: Option<Vec<String>>,
        view: Option<[f64; 4]>,
    },
}

/// What the window is looking at.
struct Session {
    desk: Arc<dyn Desk>,
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

/// Serves one window at `desk` until it goes away.
pub async fn serve(mut socket: WebSocket, desk: Arc<dyn Desk>) {
    let mut events = desk.events();
    let mut presence = desk.presence();
    let window = WINDOWS.fetch_add(1, Ordering::Relaxed);
    let board = desk.first();
    let mut session = Session {
        desk,
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
            note = next_note(&mut presence) => match note {
                Some(note) => {
                    if send(&mut socket, note.to_string()).await.is_err() {
                        return;
                    }
                }
                None => presence = None,
            },
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

/// The next note of others' presence; never, without any. Notes missed (the
/// window was slow) are skipped: the next heartbeat says them again. `None`
/// once the desk's presence is gone.
async fn next_note(presence: &mut Option<broadcast::Receiver<Arc<str>>>) -> Option<Arc<str>> {
    let Some(rx) = presence else {
        return std::future::pending().await;
    };
    loop {
        match rx.recv().await {
            Ok(note) => return Some(note),
            Err(RecvError::Lagged(_)) => continue,
            Err(RecvError::Closed) => return None,
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
    blocking(read)
        .await
        .unwrap_or_else(|_| Err("inkboard hit a bug while reading it".into()))
}

async fn send(socket: &mut WebSocket, message: String) -> Result<(), axum::Error> {
    socket.send(Message::Text(Utf8Bytes::from(message))).await
}

/// Runs blocking work of a window (a lock, the store) off the async workers.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, String> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| format!("the call stopped: {e}"))
}

/// The engine previews run on: a dry run reads nothing but the board it is
/// given, so one engine serves every desk.
fn preview_engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(Engine::new)
}

/// A page's drawing now, the ids an agent changed in it, who made those
/// changes (names, where the desk knows them) and the page number.
struct Drawing {
    view: Arc<PageView>,
    agent: Vec<String>,
    by: Vec<String>,
    page: usize,
    /// Others' changes by author, with their colour (a team server): the
    /// scene's `marks`.
    marks: Value,
}

/// Others' changes grouped by author, as the scene's `marks`:
/// `[{"name","color","ids"}]`, from `(revision, id)` pairs and the desk's
/// `(revision, name, colour)`.
fn group_marks(changed: &[(u64, String)], authors: &[(u64, String, String)]) -> Value {
    let mut marks: Vec<(String, String, Vec<String>)> = Vec::new();
    for (revision, name, color) in authors {
        let ids = changed
            .iter()
            .filter(|(r, _)| r == revision)
            .map(|(_, id)| id.clone());
        match marks.iter_mut().find(|(n, _, _)| n == name) {
            Some((_, _, known)) => {
                for id in ids {
                    if !known.contains(&id) {
                        known.push(id);
                    }
                }
            }
            None => marks.push((name.clone(), color.clone(), ids.collect())),
        }
    }
    marks.retain(|(_, _, ids)| !ids.is_empty());
    Value::Array(
        marks
            .into_iter()
            .map(|(name, color, ids)| json!({"name": name, "color": color, "ids": ids}))
            .collect(),
    )
}

/// A `scene` message with `agent_by`, the names of who made the agent's
/// changes in it ("Ann's agent"), when there are any: the scene is written as
/// text and ends with its closing brace. Without names it is left as it was, so
/// the application's scenes are unchanged.
fn with_authors(mut scene: String, by: &[String], marks: &Value) -> String {
    let no_marks = marks.as_array().is_none_or(|m| m.is_empty());
    if (by.is_empty() && no_marks) || !scene.ends_with('}') {
        return scene;
    }
    scene.pop();
    if !by.is_empty() {
        scene.push_str(",\"agent_by\":");
        scene.push_str(&serde_json::to_string(by).unwrap_or_else(|_| "[]".into()));
    }
    if !no_marks {
        scene.push_str(",\"marks\":");
        scene.push_str(&marks.to_string());
    }
    scene.push('}');
    scene
}

fn reply(seq: u64, result: Result<Value, String>) -> String {
    match result {
        Ok(result) => json!({"t": "reply", "seq": seq, "ok": true, "result": result}),
        Err(error) => json!({"t": "reply", "seq": seq, "ok": false, "error": error}),
    }
    .to_string()
}

impl Session {
    async fn handle(&mut self, intent: Intent) -> Vec<String> {
        match intent {
            Intent::Hello { board, page, path } => {
                let desk = self.desk.clone();
                if let Ok(Some(board)) = blocking(move || desk.choose(board, path.as_deref())).await
                {
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
                Some(Drawing { view, .. }) => blocking(move || vec![fragments(seq, &view, &ids)])
                    .await
                    .unwrap_or_default(),
                None => Vec::new(),
            },
            Intent::Focus => {
                let (desk, board, window) = (self.desk.clone(), self.board, self.window);
                let _ = blocking(move || desk.focus(board, window)).await;
                Vec::new()
            }
            Intent::Call { seq, tool, args } => {
                if let Err(refusal) = window_calls::check(&tool, &args) {
                    return vec![reply(seq, Err(refusal))];
                }
                let (desk, board, window) = (self.desk.clone(), self.board, self.window);
                let result = blocking(move || desk.call(board, window, &tool, args))
                    .await
                    .unwrap_or_else(|e| Err(ToolError::Io(e)));
                // The change first, then the answer, so the window never sees an
                // answer about an object it has not been sent.
                let mut out = self.refresh(false).await;
                out.push(self.meta().await);
                out.push(reply(
                    seq,
                    match result {
                        Ok(Reply::Json(result)) => Ok(result),
                        Ok(Reply::Image { text, .. }) => Ok(json!({"text": text})),
                        Err(e) => Err(e.to_string()),
                    },
                ));
                out
            }
            Intent::Preview { seq, tool, args } => vec![self.preview(seq, tool, args).await],
            Intent::Undo | Intent::Redo => {
                let redo = matches!(intent, Intent::Redo);
                let (desk, board, window) = (self.desk.clone(), self.board, self.window);
                let result = blocking(move || desk.undo(board, window, redo)).await;
                let mut out = self.refresh(false).await;
                out.push(self.meta().await);
                if let Ok(Err(e)) = result {
                    out.push(json!({"t": "error", "error": e.to_string()}).to_string());
                }
                out
            }
            Intent::Save => {
                let (desk, board) = (self.desk.clone(), self.board);
                let _ = blocking(move || desk.save(board)).await;
                vec![self.meta().await]
            }
            Intent::Resolve { seq, choice } => {
                let Some(choice) = crate::outside::Choice::parse(&choice) else {
                    return vec![reply(seq, Err("choose mine, theirs or both".into()))];
                };
                let (desk, board) = (self.desk.clone(), self.board);
                let result = blocking(move || desk.resolve(board, choice))
                    .await
                    .unwrap_or_else(|e| Err(ToolError::Io(e)));
                let mut out = self.refresh(false).await;
                out.push(self.meta().await);
                out.push(reply(
                    seq,
                    result
                        .map(|opened| json!({"opened": opened}))
                        .map_err(|e| e.to_string()),
                ));
                out
            }
            Intent::Here {
                page,
                cursor,
                sel,
                view,
            } => {
                self.desk.here(Here::new(page, cursor, sel, view));
                Vec::new()
            }
            Intent::KeepImport { seq } => {
                let (desk, board) = (self.desk.clone(), self.board);
                let result = blocking(move || desk.keep_import(board))
                    .await
                    .unwrap_or_else(|e| Err(ToolError::Io(e)));
                let answer = reply(
                    seq,
                    result
                        .map(|path| json!({"path": path}))
                        .map_err(|e| e.to_string()),
                );
                vec![self.meta().await, answer]
            }
        }
    }

    /// The header of the window's board, read off the async workers.
    async fn header(&self) -> Option<Header> {
        let (desk, board) = (self.desk.clone(), self.board);
        blocking(move || desk.header(board)).await.ok().flatten()
    }

    /// Whether the board's title or pages differ from the last `board` message.
    async fn pages_changed(&self) -> bool {
        self.header()
            .await
            .is_some_and(|h| pages_text(&h) != self.pages_sent)
    }

    /// The `board` message: what the window's header shows.
    async fn meta(&mut self) -> String {
        let Some(header) = self.header().await else {
            return json!({"t": "error", "error": "this board is no longer open"}).to_string();
        };
        self.pages_sent = pages_text(&header);
        let pages: Vec<Value> = header
            .pages
            .iter()
            .enumerate()
            .map(|(i, name)| json!({"number": i + 1, "name": name}))
            .collect();
        let mut message = json!({
            "t": "board",
            "board": self.board,
            "title": header.title,
            "path": header.path,
            "pages": pages,
            "page": self.page.min(pages.len().max(1)),
            "revision": header.revision,
            "undo": header.undo,
            "redo": header.redo,
            "save": header.save,
            "save_error": header.save_error,
            "offer": header.offer,
            "imported": header.imported,
        });
        if let Value::Object(fields) = &mut message {
            for (k, v) in header.extra {
                fields.entry(k).or_insert(v);
            }
        }
        message.to_string()
    }

    /// Brings the window's page up to date: a `scene` message, if anything differs.
    async fn refresh(&mut self, full: bool) -> Vec<String> {
        let since = if full { None } else { Some(self.revision) };
        let Some(Drawing {
            view,
            agent,
            by,
            page,
            marks,
        }) = self.drawing(since).await
        else {
            return Vec::new();
        };
        self.page = page;
        self.revision = view.revision;
        // What the window holds travels to the blocking thread and back; lost
        // to a bug there, the window is sent its page whole next time.
        let mut shown = std::mem::take(&mut self.shown);
        let diffed = blocking(move || {
            let message = shown
                .diff(page, &view, full, agent)
                .map(|scene| with_authors(scene, &by, &marks));
            (shown, message)
        })
        .await;
        let Ok((shown, message)) = diffed else {
            return Vec::new();
        };
        self.shown = shown;
        message.into_iter().collect()
    }

    /// The drawing of the window's page now, the agent's changes in it since
    /// revision `since` and who made them (where the desk knows), and the page
    /// number; `None` if the board is gone or, with `since`, nothing changed
    /// after it.
    async fn drawing(&self, since: Option<u64>) -> Option<Drawing> {
        let full = since.is_none();
        let since = since.unwrap_or(self.revision);
        let (desk, key, page) = (self.desk.clone(), self.board, self.page);
        // Drawing a large page takes a while: off the async threads, and from a copy
        // of the board, so that tool calls on it need not wait for the drawing.
        let drawn = blocking(move || {
            let mut found = None;
            desk.look(key, &mut |board, log| {
                let pages = board.pages();
                if pages.is_empty() || (!full && board.revision() == since) {
                    return;
                }
                let page = page.clamp(1, pages.len());
                let id = pages[page - 1].id;
                let mut revisions = Vec::new();
                let changes = log.changes_since(since).unwrap_or_default();
                let agent: Vec<String> = changes
                    .iter()
                    .filter(|c| c.by == Actor::Agent && c.page == id)
                    .filter_map(|c| {
                        if revisions.last() != Some(&c.revision) {
                            revisions.push(c.revision);
                        }
                        c.id.as_ref().map(|id| id.to_string())
                    })
                    .collect();
                // Every change on the page since, whoever made it: a desk that
                // knows authors marks others' in their colour.
                let changed: Vec<(u64, String)> = if full {
                    Vec::new()
                } else {
                    changes
                        .iter()
                        .filter(|c| c.page == id)
                        .filter_map(|c| Some((c.revision, c.id.as_ref()?.to_string())))
                        .collect()
                };
                let view = desk.cache().get(key, id, board.revision());
                let copy = view.is_none().then(|| board.clone());
                found = Some((view, copy, id, agent, revisions, changed, page));
            });
            let (view, copy, id, agent, revisions, changed, page) = found?;
            // Asked after the look, whose closure holds the board's lock.
            let by = if agent.is_empty() {
                Vec::new()
            } else {
                desk.authors(key, &revisions)
            };
            let marks = if changed.is_empty() {
                Value::Null
            } else {
                let mut all: Vec<u64> = changed.iter().map(|(r, _)| *r).collect();
                all.dedup();
                group_marks(&changed, &desk.marks(key, &all))
            };
            let view = match (view, copy) {
                (Some(view), _) => view,
                (None, Some(board)) => desk.cache().view(key, id, &board),
                (None, None) => return None,
            };
            Some(Drawing {
                view,
                agent,
                by,
                page,
                marks,
            })
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
        let (desk, key, page_number) = (self.desk.clone(), self.board, self.page);
        let drawn = blocking(move || {
            let mut args = Some(args);
            let mut drawn = None;
            let found = desk.look_mut(key, &mut |board| {
                let page = board.pages().get(page_number - 1).map(|p| p.id);
                let args = args.take().unwrap_or_default();
                drawn = Some(
                    preview_engine()
                        .dry_run(board, &tool, args, |draft| page.map(|p| draw(draft, p))),
                );
            });
            match drawn {
                Some(drawn) => drawn,
                None if found => Ok(None),
                None => Err(ToolError::Arguments("this board is no longer open".into())),
            }
        })
        .await;
        let (items, error) = match drawn {
            Ok(Ok(Some(view))) => {
                let shown = std::mem::take(&mut self.shown);
                let previewed = blocking(move || {
                    let items = shown.preview(&view);
                    (shown, items)
                })
                .await;
                match previewed {
                    Ok((shown, items)) => {
                        self.shown = shown;
                        (items, Value::Null)
                    }
                    Err(_) => ("{}".to_string(), Value::Null),
                }
            }
            Ok(Ok(None)) => ("{}".to_string(), Value::Null),
            Ok(Err(e)) => ("{}".to_string(), Value::String(e.to_string())),
            Err(e) => ("{}".to_string(), Value::String(e)),
        };
        format!("{{\"t\":\"preview\",\"seq\":{seq},\"items\":{items},\"error\":{error}}}")
    }
}

/// The title and page names of a board, as JSON text, to tell whether a window's
/// header is still right.
fn pages_text(header: &Header) -> String {
    json!([header.title, header.pages]).to_string()
}
