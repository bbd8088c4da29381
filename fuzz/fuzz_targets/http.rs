//! `http`: any request, to the application's HTTP routes (`inkboard_app::router`,
//! what `inkboard open` serves, every layer included: the guard, the page key,
//! the body caps, the security headers), driven in-process with
//! `tower::ServiceExt::oneshot` on a fresh application holding the golden board.
//!
//! The input is a request written as on the wire after one byte of flags:
//! `METHOD TARGET` on the first line, then `Name: value` lines, a blank line,
//! and the body. `$HOST`, `$COOKIE` (the session cookie's value), `$KEY` (the
//! page key) and `$TOKEN` in the head stand for the application's own. The
//! flags add what a well-behaved client sends, so that the routes behind the
//! guard are reached: bit 0 the application's `Host`, bit 1 the session cookie
//! and the page key (a signed-in browser), bit 2 the token. The token reaches
//! tools with file access, so it is only added (and `$TOKEN` only filled in) for
//! a `/api/call` whose tool a window may run (`window_calls::check`: its own
//! board, no file); it never goes with `/api/open`.
//!
//! Must hold: no panic (libFuzzer's hook aborts on one, even on a blocking
//! thread), no 500, every answer carries the security headers, and a request
//! that carries neither secret gets no answer but a refusal (no success, no
//! cookie).

#![no_main]

use std::sync::{Arc, OnceLock};

use axum::body::Body;
use axum::http::{HeaderName, HeaderValue, Method, Request, StatusCode, Uri};
use inkboard_app::auth::Gate;
use inkboard_app::{AppState, Boards, ViewCache};
use inkboard_core::Board;
use inkboard_tools::Engine;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tower::ServiceExt;

const PORT: u16 = 4321;
const TOKEN: &str = "0123456789abcdef0123456789abcdef";
const SESSION: &str = "fedcba9876543210fedcba9876543210";
const KEY: &str = "00112233445566778899aabbccddeeff";

/// What every input shares: the runtime and the board the application starts
/// with, made once.
struct Shared {
    runtime: tokio::runtime::Runtime,
    board: Board,
}

fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| {
        // The application keeps recovery copies of boards without a file before
        // risky work: in a scratch folder, never the person's.
        let scratch =
            std::env::temp_dir().join(format!("inkboard-fuzz-http-{}", std::process::id()));
        std::fs::create_dir_all(&scratch).expect("a scratch folder");
        std::env::set_var("INKBOARD_STATE_DIR", scratch.join("state"));
        std::env::set_var("INKBOARD_RUNTIME_DIR", scratch.join("run"));
        let golden = include_bytes!("../../crates/inkboard-format/tests/golden/v1.inkboard");
        Shared {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime"),
            board: inkboard_format::board_from_bytes(golden).expect("the golden board loads"),
        }
    })
}

/// A fresh application on the golden board, so no input depends on the ones
/// before it.
fn app() -> axum::Router {
    let boards = Boards::new();
    boards.open_new(shared().board.clone());
    let state = Arc::new(AppState {
        engine: Arc::new(Engine::hosted(boards.clone())),
        boards,
        gate: Gate::fixed(PORT, TOKEN, SESSION, KEY),
        cache: Arc::new(ViewCache::default()),
    });
    // The binary mounts its MCP server at `/mcp`; a stand-in that answers
    // anything lets the fuzzer reach the token-only layer in front of it (an
    // empty router cannot take that layer: axum panics).
    let mcp = axum::Router::new().route("/mcp", axum::routing::any(|| async { "mcp" }));
    inkboard_app::router(state, mcp)
}

/// Whether the token may go with this request: a `/api/call` of a tool a window
/// may run (see the module documentation).
fn token_is_safe(path: &str, body: &[u8]) -> bool {
    if path.split('?').next() != Some("/api/call") {
        return false;
    }
    let Ok(call) = serde_json::from_slice::<Value>(body) else {
        return false;
    };
    let args = call.get("args").cloned().unwrap_or(Value::Null);
    match call.get("tool").and_then(Value::as_str) {
        Some(tool) => inkboard_tools::window_calls::check(tool, &args).is_ok(),
        None => false,
    }
}

/// The request the input describes, or `None` when it is not one.
fn request(data: &[u8]) -> Option<(Request<Body>, bool)> {
    let (&flags, rest) = data.split_first()?;
    let split = rest
        .windows(2)
        .position(|w| w == b"\n\n")
        .map_or((rest, &[][..]), |at| (&rest[..at], &rest[at + 2..]));
    let (head, body) = split;
    let head = String::from_utf8_lossy(head).replace('\r', "");
    let mut lines = head.lines();
    let first = lines.next()?;
    let (method, target) = first.split_once(' ').unwrap_or((first, "/"));
    let safe = token_is_safe(target, body);
    let fill = |text: &str| {
        let text = text
            .replace("$HOST", &format!("127.0.0.1:{PORT}"))
            .replace("$COOKIE", SESSION)
            .replace("$KEY", KEY);
        if safe {
            text.replace("$TOKEN", TOKEN)
        } else {
            text
        }
    };
    let method = Method::from_bytes(method.as_bytes()).ok()?;
    let uri: Uri = fill(target).parse().ok()?;
    let mut builder = Request::builder().method(method).uri(uri);
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.trim().as_bytes()),
            HeaderValue::from_str(fill(value.trim()).as_str()),
        ) else {
            continue;
        };
        builder = builder.header(name, value);
    }
    if flags & 1 != 0 {
        builder = builder.header("host", format!("127.0.0.1:{PORT}"));
    }
    if flags & 2 != 0 {
        builder = builder
            .header("cookie", format!("inkboard_session={SESSION}"))
            .header("x-inkboard-key", KEY);
    }
    if flags & 4 != 0 && safe {
        builder = builder.header("authorization", format!("Bearer {TOKEN}"));
    }
    let request = builder.body(Body::from(body.to_vec())).ok()?;
    // A secret the fuzzer wrote out itself (it may learn one from a comparison)
    // counts as carried, in a header or in the target.
    let holds = |v: &[u8]| {
        [TOKEN, SESSION]
            .iter()
            .any(|s| v.windows(s.len()).any(|w| w == s.as_bytes()))
    };
    let carries_secret = request.headers().values().any(|v| holds(v.as_bytes()))
        || holds(request.uri().to_string().as_bytes());
    Some((request, carries_secret))
}

fuzz_target!(|data: &[u8]| {
    let Some((request, carries_secret)) = request(data) else {
        return;
    };
    let shared = shared();
    let (status, headers) = shared.runtime.block_on(async {
        let response = app().oneshot(request).await.expect("the router answers");
        let (parts, body) = response.into_parts();
        // The body is read whole: answers stream too.
        let _ = axum::body::to_bytes(body, 256 << 20).await;
        (parts.status, parts.headers)
    });
    assert_ne!(
        status,
        StatusCode::INTERNAL_SERVER_ERROR,
        "a request hit a bug"
    );
    for header in [
        "content-security-policy",
        "x-frame-options",
        "cross-origin-resource-policy",
    ] {
        assert!(
            headers.contains_key(header),
            "an answer ({status}) without {header}"
        );
    }
    if !carries_secret {
        // The one-time code's exchange (`/?code=`) passes the guard to be
        // judged by its handler, so a malformed one may be a 400 or a 405;
        // what must never happen is an answer or a cookie.
        assert!(
            !status.is_success() && !headers.contains_key("set-cookie"),
            "a request without a secret was answered {status}"
        );
    }
});
