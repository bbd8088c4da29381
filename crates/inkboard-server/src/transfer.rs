//! Boards moved whole between a file and the server, history aside: `inkboard
//! push FILE --server URL` sends the file's board (`POST /api/boards`, the board
//! file's text) and gets the new board's id; `inkboard pull BOARD --server URL -o
//! FILE` gets the board as a board file (`GET /api/boards/BOARD`). Both behind
//! an API token ([`crate::guard::agents_only`]); pulling needs a role on the
//! board, and a board without one is not found.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use inkboard_tools::{Engine, ToolError};
use serde_json::json;

use crate::keeper::{Access, Member};
use crate::Shared;

pub fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/boards", post(push))
        .route("/api/boards/{board}", get(pull))
}

fn failed(e: ToolError) -> Response {
    let status = if e.to_string().contains("not found") {
        StatusCode::NOT_FOUND
    } else {
        StatusCode::BAD_REQUEST
    };
    (status, Json(json!({"error": e.to_string()}))).into_response()
}

/// A call of one tool as `who`, on a blocking thread.
async fn call(
    shared: &Arc<Shared>,
    who: Member,
    tool: &'static str,
    args: serde_json::Value,
) -> Result<serde_json::Value, Response> {
    let held = shared.held.clone();
    let done = tokio::task::spawn_blocking(move || {
        let engine = Engine::stored(Arc::new(Access { held, who }));
        engine.call_as(tool, args, &inkboard_tools::Caller::agent("transfer"))
    })
    .await
    .map_err(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())?;
    match done {
        Ok(inkboard_tools::Reply::Json(v)) => Ok(v),
        Ok(_) => Err(StatusCode::INTERNAL_SERVER_ERROR.into_response()),
        Err(e) => Err(failed(e)),
    }
}

async fn push(
    State(shared): State<Arc<Shared>>,
    Extension(who): Extension<Member>,
    body: String,
) -> Response {
    let args = json!({"content": body, "name": "pushed.inkboard"});
    match call(&shared, who, "import", args).await {
        Ok(v) => (
            StatusCode::CREATED,
            Json(json!({"board": v["board"], "pages": v["pages"]})),
        )
            .into_response(),
        Err(r) => r,
    }
}

async fn pull(
    State(shared): State<Arc<Shared>>,
    Extension(who): Extension<Member>,
    Path(board): Path<String>,
) -> Response {
    let args = json!({"board": board, "format": "inkboard"});
    let v = match call(&shared, who, "export", args).await {
        Ok(v) => v,
        Err(r) => return r,
    };
    use base64::Engine as _;
    let bytes = v["data"]
        .as_str()
        .and_then(|d| base64::engine::general_purpose::STANDARD.decode(d).ok())
        .unwrap_or_default();
    ([(header::CONTENT_TYPE, "application/json")], bytes).into_response()
}
