//! The HTTP routes: the guard every request passes, the page and its assets (the
//! files of `web/`, compiled into the binary), the WebSocket, downloads, and the
//! endpoints tools use (`/api/call` for forwarded tool calls, `/api/open` for
//! `inkboard open` when the application is already running), and `/api/rich`, the
//! text editor's rich text between Markdown and the HTML it edits.
//!
//! Whatever may take long (parsing a body of megabytes, a tool call, a drawing,
//! an import, rich text) runs on a blocking thread ([`off_the_workers`]), never
//! on the async workers: two such requests on the two workers once left even
//! `/` unanswered. Each body is held to what its route needs.

use std::path::PathBuf;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use inkboard_core::{Actor, Vocabulary};
use inkboard_render::Theme;
use inkboard_tools::live::reply_to_wire;
use inkboard_tools::{Background, Caller, Canceller, Control, Look, Picture, DRAWING_DEADLINE};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::auth::{Refusal, Signed};
use crate::AppState;

/// The largest request body accepted: images arrive as data URLs inside tool calls.
pub const MAX_BODY: usize = 32 * 1024 * 1024;

/// The largest `/api/open` body: a path (at most 4 KiB on Linux, each byte
/// perhaps escaped as six in JSON) and the JSON around it.
pub const MAX_OPEN_BODY: usize = 64 * 1024;

/// The most bytes of text `/api/rich` takes in one field: HTML says each
/// character of a longest text in a few more (tags and entities around it).
const RICH_TEXT_BYTES: usize = 16 * inkboard_core::limits::MAX_TEXT_CHARS;

/// The largest `/api/rich` body: two texts at their limit (the HTML and the
/// Markdown it was made from) and the JSON around them, which escapes little of
/// what the editor sends. Far below [`MAX_BODY`]: a text past its limit is never
/// read whole to be refused.
pub const MAX_RICH_BODY: usize = 2 * RICH_TEXT_BYTES + 64 * 1024;

/// The editor's files, compiled in.
const ASSETS: &[(&str, &str, &str)] = &include!(concat!(env!("OUT_DIR"), "/assets.rs"));
/// A hash of the editor's files (`build.rs`): `index.html` names them under
/// `/assets/VERSION/`, so browsers may keep them for good.
const ASSET_VERSION: &str = include!(concat!(env!("OUT_DIR"), "/version.rs"));

/// The routes of the application (the binary adds `/mcp`), unguarded: wrap them
/// with [`guard`].
pub fn routes(app: Arc<AppState>) -> Router {
    // Where a board is read or changed (the WebSocket, downloads) and the
    // session check, a browser needs the page key besides the cookie. The page
    // and its files do not: they hold nothing of a board.
    let boards = Router::new()
        .route("/ws", get(websocket))
        .route("/export", get(export))
        .route("/api/session", get(session))
        .route(
            "/api/rich",
            post(rich).layer(DefaultBodyLimit::max(MAX_RICH_BODY)),
        )
        .route_layer(axum::middleware::from_fn_with_state(app.clone(), page_key));
    Router::new()
        .route("/", get(index))
        .route("/assets/{name}", get(asset))
        // A file in a subfolder of `web/` is named by its path from there
        // (`canvas/canvas.js`): the modules import each other by relative paths
        // under the version the page named.
        .route("/assets/{version}/{*name}", get(versioned_asset))
        .route("/api/call", post(call))
        .route(
            "/api/open",
            post(open).layer(DefaultBodyLimit::max(MAX_OPEN_BODY)),
        )
        .merge(boards)
        .with_state(app)
}

/// Lets a browser (signed in by cookie, see [`guard`]) through only with the
/// page key; tools, signed in by token, need none.
async fn page_key(State(app): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let browser = request.extensions().get::<Signed>() == Some(&Signed::Cookie);
    if browser && !app.gate.has_page_key(request.headers()) {
        return unauthorized(Refusal::NoPageKey.message());
    }
    next.run(request).await
}

/// Checks Host and Origin on every request, and that it is signed in (the
/// one-time code exchange at `/?code=` excepted); records how it signed in.
pub async fn guard(State(app): State<Arc<AppState>>, mut request: Request, next: Next) -> Response {
    let headers = request.headers();
    if let Err(refusal) = app.gate.check_site(headers) {
        return refuse(StatusCode::FORBIDDEN, refusal.message());
    }
    let code_exchange = request.uri().path() == "/"
        && request
            .uri()
            .query()
            .is_some_and(|q| q.starts_with("code=") || q.contains("&code="));
    if code_exchange {
        return next.run(request).await;
    }
    match app.gate.check_signed_in(headers) {
        Ok(_) if declared_length(headers).is_some_and(|n| n > MAX_BODY as u64) => {
            // Refused before reading: the body limit of the extractors would
            // first take in MAX_BODY bytes of a body already known to be too big.
            let message = format!(
                "the request body is over the {} MiB limit: give a large image by file path (add_image `source`) instead of inline",
                MAX_BODY >> 20
            );
            refuse(StatusCode::PAYLOAD_TOO_LARGE, &message)
        }
        Ok(signed) => {
            request.extensions_mut().insert(signed);
            next.run(request).await
        }
        Err(refusal) => unauthorized(refusal.message()),
    }
}

/// A 401, with the `WWW-Authenticate` challenge HTTP requires of it: a client
/// learns it is to send a Bearer token.
fn unauthorized(message: &str) -> Response {
    let mut response = refuse(StatusCode::UNAUTHORIZED, message);
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"inkboard\""),
    );
    response
}

/// The body length a request announces (`Content-Length`), if it is a number.
fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Lets through only requests signed in with the token: routes for tools (MCP
/// over HTTP), which a browser's session cookie must not reach.
pub async fn token_only(request: Request, next: Next) -> Response {
    if request.extensions().get::<Signed>() == Some(&Signed::Token) {
        next.run(request).await
    } else {
        refuse(
            StatusCode::FORBIDDEN,
            "this endpoint is for tools: send the token (the file `inkboard token` names) as a Bearer token",
        )
    }
}

/// The content security policy of every answer: the editor runs only its own
/// scripts (no inline or evaluated code), talks only to this server, and is never
/// framed. Styles may be inline: the drawn fragments and the editor set them.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Headers on every answer, refusals included. Cookies ignore ports, so a page
/// served from another port of 127.0.0.1 gets the session cookie sent along: it
/// must not be able to frame the editor (`frame-ancestors`, `X-Frame-Options`)
/// nor load an answer as a resource, such as `/export` as an image, whose size
/// would tell it about the board (`Cross-Origin-Resource-Policy`).
pub async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

fn refuse(status: StatusCode, message: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        message.to_string(),
    )
        .into_response()
}

#[derive(Deserialize)]
struct IndexQuery {
    code: Option<String>,
}

/// The page; with `?code=`, trades the one-time code for the session cookie first.
async fn index(
    State(app): State<Arc<AppState>>,
    Query(q): Query<IndexQuery>,
    headers: HeaderMap,
) -> Response {
    if let Some(code) = q.code {
        // The page key rides in the fragment, which the browser keeps and never
        // sends; a used or wrong code gives none, even to a request that carries
        // the cookie (which other ports may have seen), but a browser already
        // signed in just goes on with the key it keeps.
        let target = match app.gate.redeem(&code) {
            Some(key) => format!("/#key={key}"),
            None if app.gate.check_signed_in(&headers).is_ok() => "/".to_string(),
            None => {
                return unauthorized(
                    "this link was already used: run `inkboard open` again for a new one",
                )
            }
        };
        let mut response = Redirect::to(&target).into_response();
        if let Ok(cookie) = HeaderValue::from_str(&app.gate.cookie()) {
            response.headers_mut().insert(header::SET_COOKIE, cookie);
        }
        return response;
    }
    asset_response("index.html", "no-cache")
}

pub(crate) async fn asset(axum::extract::Path(name): axum::extract::Path<String>) -> Response {
    if name == "fonts.css" {
        return (
            [
                (header::CONTENT_TYPE, "text/css; charset=utf-8"),
                (header::CACHE_CONTROL, "max-age=86400"),
            ],
            inkboard_render::font_face_css(),
        )
            .into_response();
    }
    asset_response(&name, "no-cache")
}

/// A file of this build's editor, which never changes under its version.
pub(crate) async fn versioned_asset(
    axum::extract::Path((version, name)): axum::extract::Path<(String, String)>,
) -> Response {
    if version != ASSET_VERSION {
        return refuse(
            StatusCode::NOT_FOUND,
            "no such file in this version of inkboard: reload the page",
        );
    }
    asset_response(&name, "max-age=31536000, immutable")
}

/// The editor's compiled-in files: name and text.
pub(crate) fn assets() -> impl Iterator<Item = (&'static str, &'static str)> {
    ASSETS.iter().map(|(name, _, text)| (*name, *text))
}

/// One of the compiled-in files by name; anything else (traversal included) is
/// simply not there.
fn asset_response(name: &str, cache: &'static str) -> Response {
    if name == ICONS_JSON {
        return (
            [
                (header::CONTENT_TYPE, "application/json"),
                (header::CACHE_CONTROL, cache),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            icons_json(),
        )
            .into_response();
    }
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, mime, body)) => (
            [
                (header::CONTENT_TYPE, *mime),
                (header::CACHE_CONTROL, cache),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            *body,
        )
            .into_response(),
        None => refuse(StatusCode::NOT_FOUND, "no such file"),
    }
}

/// The file the editor's icon picker reads the icon set from, beside its own.
const ICONS_JSON: &str = "icons.json";

/// The icon set as the editor's picker reads it, made once from
/// `inkboard_icons::all()` (the set the renderer draws, so the picker offers
/// exactly what `update` takes): `{"source", "version", "icons": [[name, tags,
/// path], ...]}`, tags joined by commas, in name order.
pub(crate) fn icons_json() -> &'static str {
    static JSON: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    JSON.get_or_init(|| {
        let (source, version) = inkboard_icons::source();
        let icons: Vec<serde_json::Value> = inkboard_icons::all()
            .map(|i| serde_json::json!([i.name(), i.tags().join(","), i.path()]))
            .collect();
        serde_json::json!({ "source": source, "version": version, "icons": icons }).to_string()
    })
}

/// A browser that signed in (cookie and page key, checked by [`guard`]) asks
/// whether it still is: a tab that lost its WebSocket tells "inkboard is not
/// running" (no answer) from "signed out" (401) by it.
async fn session() -> StatusCode {
    StatusCode::NO_CONTENT
}

async fn websocket(State(app): State<Arc<AppState>>, ws: WebSocketUpgrade) -> Response {
    // The page offers `inkboard` and its key as subprotocols; a browser requires
    // the answer to name one it offered.
    ws.protocols(["inkboard"])
        .max_message_size(MAX_BODY)
        .max_frame_size(MAX_BODY)
        .on_upgrade(move |socket| crate::ws::serve(socket, app))
}

#[derive(Deserialize)]
struct ExportQuery {
    board: Option<u32>,
    page: Option<usize>,
    format: String,
    /// Whether an SVG or PNG carries the board, to be opened again (default yes).
    embed: Option<bool>,
    /// PNG pixels per board unit, as the `export` tool's `scale` (default 2: sharp
    /// on most screens); the editor's dialog offers 1, 2 and 3.
    scale: Option<f64>,
    /// `light` (the board's own colours, the default) or `dark`, as `export`'s `theme`.
    theme: Option<String>,
    /// `transparent` or `solid` (the default), as `export`'s `background`.
    background: Option<String>,
    /// Only these objects, comma-separated, as `export`'s `ids`.
    ids: Option<String>,
}

/// The largest PNG scale a download may ask for: a page is drawn that many times
/// its size, so the bound keeps a picture within memory on any board.
const MAX_EXPORT_SCALE: f64 = 4.0;

/// Downloads a page as PNG, SVG or PDF, drawn by the one renderer; an SVG or PNG
/// carries the board, as `export`'s do.
async fn export(State(app): State<Arc<AppState>>, Query(q): Query<ExportQuery>) -> Response {
    let key = q.board.unwrap_or_else(|| app.boards.displayed());
    let Some(entry) = app.boards.entry(key) else {
        return refuse(StatusCode::NOT_FOUND, "no such board");
    };
    let Some(picture) = Picture::from_name(&q.format) else {
        return refuse(StatusCode::BAD_REQUEST, "format must be png, svg or pdf");
    };
    let scale = q.scale.unwrap_or(2.0);
    if !(scale > 0.0 && scale <= MAX_EXPORT_SCALE) {
        return refuse(
            StatusCode::BAD_REQUEST,
            &format!("scale must be more than 0 and at most {MAX_EXPORT_SCALE}"),
        );
    }
    let theme = match q.theme.as_deref().map(Theme::parse) {
        None => Theme::Light,
        Some(Ok(theme)) => theme,
        Some(Err(e)) => return refuse(StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let mut look = Look::new(scale, theme);
    match q.background.as_deref().map(Background::parse) {
        None => {}
        Some(Ok(background)) => look.background = background,
        Some(Err(e)) => return refuse(StatusCode::BAD_REQUEST, &e.to_string()),
    }
    let ids: Option<Vec<String>> = q
        .ids
        .as_deref()
        .map(|ids| ids.split(',').map(|id| id.trim().to_string()).collect());
    // A download that the browser gave up on (the tab closed, the app stopping)
    // stops drawing at the next stage: the guard cancels it when this handler
    // is dropped. A drawing past its deadline stops as the tools' do.
    let control = Control::default().within(DRAWING_DEADLINE);
    let _stop_when_gone = CancelOnDrop(control.canceller());
    let boards = app.boards.clone();
    let result = tokio::task::spawn_blocking(move || {
        // Drawing is risky work (a bug, a page that exhausts memory): the
        // boards without a file are kept first.
        boards.secure_unfiled();
        let board = entry.cell.lock().board.clone();
        let number = q.page.unwrap_or(1).clamp(1, board.pages().len().max(1));
        let page = board.pages().get(number - 1).map(|p| p.id);
        let page = page.ok_or_else(|| "the board has no page".to_string())?;
        if let Some(ids) = &ids {
            let (_, only) =
                inkboard_tools::selection(&board, ids, Some(page)).map_err(|e| e.to_string())?;
            look.only = Some(only);
        }
        // PNG downloads at twice the board's size unless asked, for sharp
        // screens, in the board's own colours unless dark is asked for (whatever
        // the editor shows), as `export`'s default.
        let mut bytes = picture
            .draw(&board, &[page], &look, &control)
            .map_err(|e| e.to_string())?;
        // As `export` does: the download opens again as this board.
        if q.embed.unwrap_or(true) {
            bytes = picture.carrying(&board, bytes);
        }
        let name = format!(
            "{}-page{number}.{}",
            safe_name(board.title()),
            picture.name()
        );
        Ok::<_, String>((bytes, name))
    })
    .await;
    match result {
        Ok(Ok((bytes, name))) => (
            [
                (header::CONTENT_TYPE, picture.media_type().to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{name}\""),
                ),
            ],
            Body::from(bytes),
        )
            .into_response(),
        Ok(Err(message)) => refuse(StatusCode::BAD_REQUEST, &message),
        Err(_) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "the export stopped"),
    }
}

/// Cancels a call when dropped: when the request that runs it goes away.
struct CancelOnDrop(Canceller);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// A title made safe as a file name.
fn safe_name(title: &str) -> String {
    let name: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if name.trim_matches('-').is_empty() {
        "board".into()
    } else {
        name
    }
}

#[derive(Deserialize)]
struct CallRequest {
    tool: String,
    #[serde(default)]
    args: Value,
    #[serde(default)]
    client: String,
    /// The call comes from the chat view of a client that declared the
    /// extension (`Caller::chat`), forwarded by `inkboard mcp`. On the wire it
    /// keeps its first name, `view`, which other inkboard versions send.
    #[serde(default, rename = "view")]
    chat: bool,
}

/// A tool call forwarded by another inkboard process (token only). The body (up
/// to [`MAX_BODY`]) is parsed, the call run and its answer written on a
/// blocking thread.
async fn call(
    State(app): State<Arc<AppState>>,
    signed: axum::Extension<Signed>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if *signed != Signed::Token {
        return refuse(StatusCode::FORBIDDEN, "tool calls need the token");
    }
    if !is_json(&headers) {
        return not_json();
    }
    let engine = app.engine.clone();
    off_the_workers(move || {
        let request = match Json::<CallRequest>::from_bytes(&body) {
            Ok(Json(request)) => request,
            Err(rejection) => return rejection.into_response(),
        };
        let caller = Caller {
            actor: Actor::Agent,
            client: format!("agent:{}", request.client),
            board: None,
            control: Default::default(),
            committed: Default::default(),
            chat: request.chat,
        };
        let reply = engine.call_as(&request.tool, request.args, &caller);
        json_answer(&reply_to_wire(&reply))
    })
    .await
}

/// Runs `work` on a blocking thread and answers what it answers. Whatever may
/// take long (parsing a body of megabytes, a tool call, a drawing, an import,
/// rich text) runs there, never on the async workers, which must stay free to
/// answer every other request meanwhile: two slow requests on the two workers
/// would leave even `/` unanswered. A panic in `work` is a 500 in words; the
/// application goes on.
async fn off_the_workers(work: impl FnOnce() -> Response + Send + 'static) -> Response {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|_| {
            refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                "inkboard hit a bug while answering this request; the application goes on. Please report the bug",
            )
        })
}

/// A JSON answer, written where it is called (on a blocking thread: a tool's
/// answer may hold a picture of megabytes).
fn json_answer(value: &Value) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        serde_json::to_vec(value).unwrap_or_default(),
    )
        .into_response()
}

/// Whether the request says its body is JSON (as axum's `Json` wants it).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.split(';').next())
        .map(|mime| mime.trim().to_ascii_lowercase())
        .is_some_and(|mime| {
            mime == "application/json"
                || (mime.starts_with("application/") && mime.ends_with("+json"))
        })
}

fn not_json() -> Response {
    refuse(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "Expected request with `Content-Type: application/json`",
    )
}

/// What the text editor asks `/api/rich`: a shape's Markdown as the editor's HTML
/// (`{"markdown"}`), or the editor's HTML back as Markdown (`{"html", "before"}`,
/// `before` the source the editing began with, kept when nothing shown changed).
#[derive(Deserialize)]
struct RichRequest {
    markdown: Option<String>,
    html: Option<String>,
    #[serde(default)]
    before: String,
}

/// Turns rich text between the Markdown the model holds and the HTML the editor
/// shows it in (`inkboard_core::rich::html`): the one grammar, in Rust. The body
/// is held to [`MAX_RICH_BODY`], and parsed and turned on a blocking thread.
pub(crate) async fn rich(headers: HeaderMap, body: Bytes) -> Response {
    use inkboard_core::rich::html::{from_html, to_html};
    if !is_json(&headers) {
        return not_json();
    }
    off_the_workers(move || {
        let request = match Json::<RichRequest>::from_bytes(&body) {
            Ok(Json(request)) => request,
            Err(rejection) => return rejection.into_response(),
        };
        let too_long = |t: &str| t.len() > RICH_TEXT_BYTES;
        match (request.markdown, request.html) {
            (Some(md), None) if !too_long(&md) => json_answer(&json!({"html": to_html(&md)})),
            (None, Some(html)) if !too_long(&html) && !too_long(&request.before) => {
                json_answer(&json!({"markdown": from_html(&html, &request.before)}))
            }
            (Some(_), None) | (None, Some(_)) => {
                refuse(StatusCode::PAYLOAD_TOO_LARGE, "the text is too long")
            }
            _ => refuse(StatusCode::BAD_REQUEST, "send either `markdown` or `html`"),
        }
    })
    .await
}

#[derive(Deserialize)]
struct OpenRequest {
    /// An absolute board path; absent for a new board.
    path: Option<PathBuf>,
}

/// Opens a board in the running application (token only); answers the URL, with a
/// fresh one-time code, that shows it.
async fn open(
    State(app): State<Arc<AppState>>,
    signed: axum::Extension<Signed>,
    Json(request): Json<OpenRequest>,
) -> Response {
    if *signed != Signed::Token {
        return refuse(StatusCode::FORBIDDEN, "opening boards needs the token");
    }
    let boards = app.boards.clone();
    // Importing a stranger's diagram is risky work: what cannot be got back is
    // kept first (`open_file` does), and a bug it hits is this request's error.
    let opened = tokio::task::spawn_blocking(move || match request.path {
        Some(path) => boards.open_file(&path).map_err(|e| e.to_string()),
        None => Ok(boards.open_untitled().cell.key),
    })
    .await;
    match opened {
        Ok(Ok(key)) => {
            app.boards.opened(key);
            match app.gate.new_code() {
                Ok(code) => Json(json!({"board": key, "code": code})).into_response(),
                Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
            }
        }
        Ok(Err(message)) => refuse(StatusCode::BAD_REQUEST, &message),
        Err(_) => refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "inkboard hit a bug while opening this file; the application and its other boards go on. Please report the bug",
        ),
    }
}
