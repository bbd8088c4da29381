//! What a person's browser is shown: `GET /s/LINK` uses a one-time sign-in link
//! and sets the session cookie (HttpOnly, SameSite=Lax, Secure behind https); `/`
//! lists their boards and makes one; `/b/BOARD/people` shows a board's people,
//! who changed it, and to its owners the sharing forms (posted to
//! [`crate::sharing`]); `/b/BOARD/page.svg` draws a page. The board itself, `/b/BOARD`, is the live editor ([`crate::window`]). Every
//! form is a POST whose Origin the guard has checked, from a page whose
//! cookie is SameSite. Sign-in failures are rate limited per client address.

use std::sync::Arc;

use axum::extract::{Form, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Extension;
use axum::Router;
use base64::Engine as _;
use inkboard_store::{BoardId, Operator, Role};
use inkboard_tools::{Caller, Engine, Reply};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::guard::{client_key, session_cookie, SignedIn, COOKIE};
use crate::keeper::{Access, Member};
use crate::Shared;

pub fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/", get(home))
        .route("/s/{secret}", get(sign_in))
        .route("/signout", post(sign_out))
        .route("/boards", post(create))
        .route("/b/{board}/people", get(board_page))
        .route("/b/{board}/page.svg", get(page_svg))
}

/// Text made safe inside HTML.
pub(crate) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn page(title: &str, body: &str) -> Html<String> {
    Html(format!(
        "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content=\"width=device-width\">\
         <title>{} · inkboard</title><style>body{{font:16px system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}}\
         li{{margin:.3rem 0}} img{{max-width:100%;border:1px solid #ddd}} form{{margin:1rem 0}} .muted{{color:#666}}</style>\
         <body>{body}</body></html>",
        esc(title)
    ))
}

pub(crate) fn not_signed_in() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        page(
            "Sign in",
            "<h1>inkboard</h1><p>Open the sign-in link your administrator gave you (<code>inkboard admin link NAME</code>).</p>",
        ),
    )
        .into_response()
}

/// The board not found, whether it is missing or hidden from this person.
pub(crate) fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        page("Not found", "<h1>Board not found</h1><p>Check the address, or ask the board's owner to share it with you.</p><p><a href=\"/\">Your boards</a></p>"),
    )
        .into_response()
}

pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Response> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

pub(crate) fn server_error(e: impl std::fmt::Display) -> Response {
    tracing::error!("page: {e}");
    (
        StatusCode::SERVICE_UNAVAILABLE,
        page("Error", "<p>The server could not answer: try again.</p>"),
    )
        .into_response()
}

async fn sign_in(
    State(shared): State<Arc<Shared>>,
    Path(secret): Path<String>,
    request: Request,
) -> Response {
    let ip = client_key(&request, &shared.config);
    if !shared.limiter.allows(&[&ip]) {
        return crate::guard::too_many();
    }
    let store = shared.store().clone();
    let redeemed = match blocking(move || store.redeem_link(&secret)).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let (session, secret) = match redeemed {
        Ok(done) => done,
        Err(inkboard_store::StoreError::InvalidLink) => {
            shared.limiter.failed(&[&ip]);
            return (
                StatusCode::FORBIDDEN,
                page("Sign in", "<h1>This sign-in link is not valid</h1><p>Links work once and expire: ask for a new one.</p>"),
            )
                .into_response();
        }
        Err(e) => return server_error(e),
    };
    let max_age = session.expires.0.saturating_sub(now_ms()) / 1000;
    let secure = if shared.config.secure_cookies() {
        "; Secure"
    } else {
        ""
    };
    let cookie = format!(
        "{COOKIE}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}",
        secret.expose()
    );
    let mut r = Redirect::to("/").into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

async fn sign_out(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    if let Some(secret) = session_cookie(&headers) {
        let store = shared.store().clone();
        let _ = blocking(move || store.end_session(&secret)).await;
    }
    let mut r = Redirect::to("/").into_response();
    r.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("inkboard_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"),
    );
    r
}

async fn home(
    State(shared): State<Arc<Shared>>,
    Extension(SignedIn(who)): Extension<SignedIn>,
) -> Response {
    let Some(who) = who else {
        return not_signed_in();
    };
    let store = shared.store().clone();
    let id = who.id;
    let boards = match blocking(move || store.boards_for(id)).await {
        Ok(Ok(b)) => b,
        Ok(Err(e)) => return server_error(e),
        Err(r) => return r,
    };
    let mut body = format!("<h1>{}'s boards</h1><ul id=boards>", esc(who.name.as_str()));
    for (info, role) in &boards {
        body.push_str(&format!(
            "<li><a href=\"/b/{}\">{}</a> <span class=muted>{}</span></li>",
            esc(info.id.as_str()),
            esc(&info.title),
            role
        ));
    }
    if boards.is_empty() {
        body.push_str("<li class=muted>No boards yet.</li>");
    }
    body.push_str(
        "</ul><form method=post action=/boards><input name=title required placeholder=\"New board's title\" maxlength=200> \
         <button>Create board</button></form><form method=post action=/signout><button>Sign out</button></form>",
    );
    page("Your boards", &body).into_response()
}

#[derive(Deserialize)]
struct CreateForm {
    title: String,
}

/// Runs a tool as `who` on a blocking thread.
async fn call(
    shared: &Arc<Shared>,
    who: Member,
    tool: &'static str,
    args: Value,
) -> Result<Result<Reply, inkboard_tools::ToolError>, Response> {
    let held = shared.held.clone();
    blocking(move || {
        let engine = Engine::stored(Arc::new(Access { held, who }));
        engine.call_as(tool, args, &Caller::agent("editor").as_person())
    })
    .await
}

async fn create(
    State(shared): State<Arc<Shared>>,
    Extension(SignedIn(who)): Extension<SignedIn>,
    Form(form): Form<CreateForm>,
) -> Response {
    let Some(who) = who else {
        return not_signed_in();
    };
    match call(&shared, who, "create_board", json!({"title": form.title})).await {
        Ok(Ok(Reply::Json(v))) => {
            Redirect::to(&format!("/b/{}", v["board"].as_str().unwrap_or(""))).into_response()
        }
        Ok(Ok(_)) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        Ok(Err(e)) => (
            StatusCode::BAD_REQUEST,
            page(
                "Not created",
                &format!("<p>{}</p><p><a href=/>Back</a></p>", esc(&e.to_string())),
            ),
        )
            .into_response(),
        Err(r) => r,
    }
}

#[derive(Deserialize)]
struct PageQuery {
    page: Option<usize>,
}

async fn board_page(
    State(shared): State<Arc<Shared>>,
    Extension(SignedIn(who)): Extension<SignedIn>,
    Path(board): Path<String>,
) -> Response {
    let Some(who) = who else {
        return not_signed_in();
    };
    let Ok(id) = BoardId::parse(&board) else {
        return not_found();
    };
    let store = shared.store().clone();
    let user = who.id;
    let looked = blocking(move || {
        let (info, role) = store.board(&id, user)?;
        let shares = store.shares(&id, Operator::Person(user))?;
        let changes = store.changes_after(&id, info.revision.saturating_sub(20), 20)?;
        Ok::<_, inkboard_store::StoreError>((info, role, shares, changes))
    })
    .await;
    let (info, role, shares, changes) = match looked {
        Ok(Ok(found)) => found,
        Ok(Err(inkboard_store::StoreError::BoardNotFound(_))) => return not_found(),
        Ok(Err(e)) => return server_error(e),
        Err(r) => return r,
    };
    let mut body = format!(
        "<p><a href=/>Your boards</a> · <a id=open href=\"/b/{}\">Open the board</a></p><h1 id=title>{}</h1><p class=muted>You are {} of this board · revision <span id=revision>{}</span></p>\
         <img id=drawing alt=\"the board's first page\" src=\"/b/{}/page.svg?r={}\">",
        esc(info.id.as_str()),
        esc(&info.title),
        match role { Role::Owner => "an owner", Role::Editor => "an editor", Role::Viewer => "a viewer" },
        info.revision,
        esc(info.id.as_str()),
        info.revision,
    );
    body.push_str("<h2>Latest changes</h2><ol id=changes>");
    for c in changes.iter().rev() {
        body.push_str(&format!(
            "<li>revision {} by <b>{}</b></li>",
            c.revision,
            esc(&crate::held::display_name(
                c.author_name.as_str(),
                c.author.kind
            ))
        ));
    }
    body.push_str("</ol><h2>People</h2><ul id=people>");
    for s in &shares {
        // An owner may take anyone's role away (the store keeps the last owner).
        let remove = if role == Role::Owner {
            format!(
                " <form class=unshare method=post action=\"/b/{}/unshare\" style=\"display:inline\">\
                 <input type=hidden name=name value=\"{}\"><button>Remove</button></form>",
                esc(info.id.as_str()),
                esc(s.name.as_str())
            )
        } else {
            String::new()
        };
        body.push_str(&format!(
            "<li>{} <span class=muted>{}</span>{remove}</li>",
            esc(s.name.as_str()),
            s.role
        ));
    }
    body.push_str("</ul>");
    if role == Role::Owner {
        body.push_str(&format!(
            "<form id=share method=post action=\"/b/{}/share\"><input name=name required placeholder=\"Person's name\"> \
             <select name=role><option value=viewer>viewer</option><option value=editor selected>editor</option><option value=owner>owner</option></select> \
             <button>Share</button></form>",
            esc(info.id.as_str())
        ));
    }
    page(&info.title, &body).into_response()
}

async fn page_svg(
    State(shared): State<Arc<Shared>>,
    Extension(SignedIn(who)): Extension<SignedIn>,
    Path(board): Path<String>,
    Query(q): Query<PageQuery>,
) -> Response {
    let Some(who) = who else {
        return not_signed_in();
    };
    let args =
        json!({"board": board, "format": "svg", "embed": false, "page": q.page.unwrap_or(1)});
    match call(&shared, who, "export", args).await {
        Ok(Ok(Reply::Json(v))) => {
            let svg = v["data"]
                .as_str()
                .and_then(|d| base64::engine::general_purpose::STANDARD.decode(d).ok())
                .unwrap_or_default();
            (
                [
                    (header::CONTENT_TYPE, "image/svg+xml"),
                    (header::CACHE_CONTROL, "no-store"),
                ],
                svg,
            )
                .into_response()
        }
        Ok(Err(e)) if e.to_string().contains("not found") => not_found(),
        Ok(Err(e)) => (StatusCode::BAD_REQUEST, e.to_string()).into_response(),
        Ok(Ok(_)) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        Err(r) => r,
    }
}
