//! Sharing a board: who holds which role on it (`GET /b/BOARD/shares`, JSON,
//! for anyone with a role), and an owner's share and unshare (`POST
//! /b/BOARD/share` with the form fields `name` and `role`, `POST
//! /b/BOARD/unshare` with `name`). The people page's forms post them and are
//! sent back to that page; the editor's Share dialog (`web/ui/share.js`) posts the
//! same forms asking for JSON (`Accept: application/json`) and is answered with
//! the board's people, or `{"error"}` and the status.
//!
//! The store checks the roles inside its writing transaction and writes every
//! share and unshare to the audit log, in the person's name. A person with no
//! role on the board gets the 404 of a missing board; a lesser role gets a 403
//! naming the role it takes (they may see the board, so the role is no secret);
//! anyone may leave a board (unshare themselves) but its last owner.

use std::sync::Arc;

use axum::extract::{Form, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use inkboard_store::{BoardId, Operator, Role, Share, StoreError, UserName};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::guard::SignedIn;
use crate::keeper::Member;
use crate::pages::{blocking, esc, not_found, not_signed_in, page, server_error};
use crate::Shared;

pub fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/b/{board}/shares", get(list))
        .route("/b/{board}/share", post(share))
        .route("/b/{board}/unshare", post(unshare))
}

/// The share form: a person's name and the role to give them.
#[derive(Deserialize)]
struct ShareForm {
    name: String,
    role: String,
}

/// The unshare form: whose role to take away.
#[derive(Deserialize)]
struct UnshareForm {
    name: String,
}

/// Who asked, and how they want the answer.
struct Asker {
    who: Member,
    board: BoardId,
    /// The editor's dialog: JSON answers; the people page's form: a redirect,
    /// or a page saying what was wrong.
    json: bool,
}

/// The signed-in person and the board of the address, or the answer for
/// someone signed out or an address that names no board.
async fn asker(signed: SignedIn, headers: &HeaderMap, board: &str) -> Result<Asker, Response> {
    let json = wants_json(headers);
    let Some(who) = signed.0 else {
        return Err(if json {
            refused(
                StatusCode::UNAUTHORIZED,
                "you are signed out: open a new sign-in link",
            )
        } else {
            not_signed_in()
        });
    };
    let Ok(board) = BoardId::parse(board) else {
        return Err(missing(json));
    };
    Ok(Asker { who, board, json })
}

fn wants_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"))
}

/// A JSON refusal: `{"error": "one sentence"}`.
fn refused(status: StatusCode, error: &str) -> Response {
    (status, Json(json!({ "error": error }))).into_response()
}

/// The board not found, as a missing board's answer, in the asker's form.
fn missing(json: bool) -> Response {
    if json {
        refused(
            StatusCode::NOT_FOUND,
            "board not found: ask its owner to share it with you",
        )
    } else {
        not_found()
    }
}

/// `{"role": the asker's role or null, "people": [{"name", "role"}]}`.
fn people_json(role: Option<Role>, shares: &[Share]) -> Value {
    let people: Vec<Value> = shares
        .iter()
        .map(|s| json!({"name": s.name.as_str(), "role": s.role.as_str()}))
        .collect();
    json!({ "role": role.map(Role::as_str), "people": people })
}

async fn list(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Extension(signed): Extension<SignedIn>,
    Path(board): Path<String>,
) -> Response {
    let Asker { who, board, .. } = match asker(signed, &headers, &board).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let store = shared.store().clone();
    let looked = blocking(move || {
        let shares = store.shares(&board, Operator::Person(who.id))?;
        let role = shares.iter().find(|s| s.user == who.id).map(|s| s.role);
        Ok::<_, StoreError>(people_json(role, &shares))
    })
    .await;
    match looked {
        Ok(Ok(v)) => Json(v).into_response(),
        Ok(Err(e)) => failed(e, true, ""),
        Err(r) => r,
    }
}

async fn share(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Extension(signed): Extension<SignedIn>,
    Path(board): Path<String>,
    Form(form): Form<ShareForm>,
) -> Response {
    let asker = match asker(signed, &headers, &board).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    change(&shared, asker, move |store, board, by| {
        let name = UserName::parse(form.name.trim())?;
        let role = Role::parse(form.role.trim())?;
        store.share(board, &name, role, by).map(|_| ())
    })
    .await
}

async fn unshare(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Extension(signed): Extension<SignedIn>,
    Path(board): Path<String>,
    Form(form): Form<UnshareForm>,
) -> Response {
    let asker = match asker(signed, &headers, &board).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    change(&shared, asker, move |store, board, by| {
        let name = UserName::parse(form.name.trim())?;
        store.unshare(board, &name, by).map(|_| ())
    })
    .await
}

/// Makes a change of roles as the asker, and answers with the board's people
/// (JSON) or the people page (a form).
async fn change(
    shared: &Arc<Shared>,
    asker: Asker,
    act: impl FnOnce(&inkboard_store::Store, &BoardId, Operator) -> Result<(), StoreError>
        + Send
        + 'static,
) -> Response {
    let Asker { who, board, json } = asker;
    let store = shared.store().clone();
    let id = board.clone();
    let done = blocking(move || {
        act(&store, &id, Operator::Person(who.id))?;
        // Someone who left the board may no longer list its people.
        match store.shares(&id, Operator::Person(who.id)) {
            Ok(shares) => {
                let role = shares.iter().find(|s| s.user == who.id).map(|s| s.role);
                Ok(people_json(role, &shares))
            }
            Err(StoreError::BoardNotFound(_)) => Ok(people_json(None, &[])),
            Err(e) => Err(e),
        }
    })
    .await;
    match done {
        Ok(Ok(v)) if json => Json(v).into_response(),
        Ok(Ok(_)) => Redirect::to(&format!("/b/{}/people", board.as_str())).into_response(),
        Ok(Err(e)) => failed(e, json, board.as_str()),
        Err(r) => r,
    }
}

/// A refused or failed change of roles: 404 for a board the person may not
/// see, 403 for a role too small, 400 for what the person can fix (a name, a
/// role, the last owner), 503 for the database.
fn failed(e: StoreError, json: bool, board: &str) -> Response {
    let status = match &e {
        StoreError::BoardNotFound(_) => return missing(json),
        StoreError::Forbidden { .. } => StatusCode::FORBIDDEN,
        StoreError::Invalid { .. } | StoreError::UserNotFound(_) | StoreError::LastOwner { .. } => {
            StatusCode::BAD_REQUEST
        }
        _ => return server_error(e),
    };
    if json {
        return refused(status, &e.to_string());
    }
    (
        status,
        page(
            "Not changed",
            &format!(
                "<p>{}</p><p><a href=\"/b/{}/people\">Back</a></p>",
                esc(&e.to_string()),
                esc(board)
            ),
        ),
    )
        .into_response()
}
