//! The application's guard, tried against the real `inkboard open` server with
//! requests written by hand: every route against every way a stranger might try to
//! get in (no credentials, near-miss credentials, credentials in the wrong place,
//! a foreign or rebinding `Host`, a foreign `Origin`, a cross-site WebSocket), the
//! one-time code and its cookie, paths outside the editor's files, and bodies over
//! the size cap. Each refusal is checked next to the same request with the right
//! credentials succeeding, so a guard that refused everything would fail too.
//!
//! The expected statuses are tables ([`CASES`], [`TRAVERSALS`], [`CAPS`]) to read
//! at a glance; a sweep reports every cell that differs, not just the first.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::app::{Answer, App, SignedIn};
use futures_util::{SinkExt, StreamExt};
use inkboard_app::{MAX_OPEN_BODY, MAX_RICH_BODY};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

/// The body cap of every route (`MAX_BODY` in inkboard-app's `http.rs`), `/mcp`
/// too (whose own default was 4 MiB: an image that worked over stdio failed).
const MAX_BODY: usize = 32 * 1024 * 1024;

// ---- the routes ----

/// One route of the application and a request that succeeds on it when signed in.
struct Route {
    method: &'static str,
    path: &'static str,
    /// Headers the request needs to be a good one (besides Host and credentials).
    headers: &'static str,
    body: fn(&App) -> String,
}

fn no_body(_: &App) -> String {
    String::new()
}

/// Every route: those of inkboard-app's `http.rs` `routes`, `/mcp` (mounted by the
/// binary, `mcp.rs`), and a path that is no route, to show the guard runs first.
/// The columns of [`CASES`] follow this order.
#[rustfmt::skip]
const ROUTES: [Route; 10] = [
    Route { method: "GET", path: "/", headers: "", body: no_body },
    Route { method: "GET", path: "/assets/main.js", headers: "", body: no_body },
    Route { method: "GET", path: "/assets/fonts.css", headers: "", body: no_body },
    Route {
        method: "GET",
        path: "/ws",
        headers: "Upgrade: websocket\nConnection: Upgrade\nSec-WebSocket-Version: 13\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        body: no_body,
    },
    Route { method: "GET", path: "/export?format=svg", headers: "", body: no_body },
    Route {
        method: "POST",
        path: "/api/rich",
        headers: "Content-Type: application/json",
        body: |_| json!({"markdown": "**a**"}).to_string(),
    },
    Route {
        method: "POST",
        path: "/api/call",
        headers: "Content-Type: application/json",
        body: |_| json!({"tool": "read_board", "args": {}}).to_string(),
    },
    Route {
        method: "POST",
        path: "/api/open",
        headers: "Content-Type: application/json",
        body: |app| json!({"path": app.board}).to_string(),
    },
    Route {
        method: "POST",
        path: "/mcp",
        headers: "Content-Type: application/json\nAccept: application/json, text/event-stream",
        body: |_| {
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "security", "version": "1"}}})
            .to_string()
        },
    },
    Route { method: "GET", path: "/no-such-route", headers: "", body: no_body },
];

// ---- who asks ----

/// What a case knows: the application's port and its two secrets.
struct Keys {
    port: u16,
    token: String,
    /// The session cookie's value (what `Set-Cookie` gave the browser).
    session: String,
    /// The page key (what the sign-in redirect's fragment gave the page).
    page_key: String,
}

/// How a case sends the route's good request.
struct Ask {
    version: &'static str,
    /// `Host` headers: none, the application's own, or several.
    hosts: Vec<String>,
    /// Other headers: credentials, `Origin`.
    headers: Vec<String>,
    /// Appended to the route's query string.
    query: Option<String>,
}

impl Ask {
    /// At the application's own address, with `headers`.
    fn with(keys: &Keys, headers: &[String]) -> Ask {
        Ask::at(&format!("127.0.0.1:{}", keys.port), headers)
    }

    fn at(host: &str, headers: &[String]) -> Ask {
        Ask {
            version: "HTTP/1.1",
            hosts: vec![host.to_string()],
            headers: headers.to_vec(),
            query: None,
        }
    }
}

fn bearer(token: &str) -> String {
    format!("Authorization: Bearer {token}")
}

fn cookie(value: &str) -> String {
    format!("Cookie: inkboard_session={value}")
}

fn key(value: &str) -> String {
    format!("X-Inkboard-Key: {value}")
}

fn origin(value: &str) -> String {
    format!("Origin: {value}")
}

/// `secret` with the lowest bit of its last hex digit flipped: right length, one
/// bit off.
fn one_bit_off(secret: &str) -> String {
    let (head, last) = secret.split_at(secret.len() - 1);
    let digit = u8::from_str_radix(last, 16).expect("a hex secret");
    format!("{head}{:x}", digit ^ 1)
}

/// With the token, at `host`.
fn token_at(keys: &Keys, host: &str) -> Ask {
    Ask::at(host, &[bearer(&keys.token)])
}

/// With the token and `Origin: value`.
fn token_from(keys: &Keys, value: &str) -> Ask {
    Ask::with(keys, &[bearer(&keys.token), origin(value)])
}

/// With the token in the query string as `name`, and no credentials in headers.
fn token_in_query(keys: &Keys, name: &str) -> Ask {
    Ask {
        query: Some(format!("{name}={}", keys.token)),
        ..Ask::with(keys, &[])
    }
}

/// Each route's status with the right credentials (columns as in [`ROUTES`]).
#[rustfmt::skip]
//                     /    main.js fonts ws  export rich call open mcp  no route
const OK: [u16; 10] =      [200, 200, 200, 101, 200, 200, 200, 200, 200, 404];
/// The session cookie with the page key opens the editor, but not the endpoints
/// for tools.
#[rustfmt::skip]
const BROWSER: [u16; 10] = [200, 200, 200, 101, 200, 200, 403, 403, 403, 404];
/// The cookie alone (which servers on other ports of 127.0.0.1 receive too)
/// loads the page, but reads and changes no board: no WebSocket, no download.
#[rustfmt::skip]
const COOKIE_ONLY: [u16; 10] = [200, 200, 200, 401, 401, 401, 403, 403, 403, 404];
const UNAUTHORIZED: [u16; 10] = [401; 10];
const FORBIDDEN: [u16; 10] = [403; 10];

type Case = (&'static str, fn(&Keys) -> Ask, [u16; 10]);

/// Every way of asking, and the status each route must answer (columns as in
/// [`ROUTES`]). Site checks run with the token, so a 403 there is the site check
/// refusing, not a missing credential.
#[rustfmt::skip]
const CASES: &[Case] = &[
    // -- credentials --
    ("no token, no cookie", |k| Ask::with(k, &[]), UNAUTHORIZED),
    ("a wrong token", |k| Ask::with(k, &[bearer(&"5".repeat(32))]), UNAUTHORIZED),
    ("the token one bit off", |k| Ask::with(k, &[bearer(&one_bit_off(&k.token))]), UNAUTHORIZED),
    ("the token one digit short", |k| Ask::with(k, &[bearer(&k.token[1..])]), UNAUTHORIZED),
    ("the token and a digit more", |k| Ask::with(k, &[bearer(&format!("{}0", k.token))]), UNAUTHORIZED),
    ("the token without `Bearer`", |k| Ask::with(k, &[format!("Authorization: {}", k.token)]), UNAUTHORIZED),
    ("the token in the query (token=)", |k| token_in_query(k, "token"), UNAUTHORIZED),
    ("the token in the query (access_token=)", |k| token_in_query(k, "access_token"), UNAUTHORIZED),
    ("the token as the session cookie", |k| Ask::with(k, &[cookie(&k.token)]), UNAUTHORIZED),
    ("the cookie's value as the token", |k| Ask::with(k, &[bearer(&k.session)]), UNAUTHORIZED),
    ("the cookie one bit off", |k| Ask::with(k, &[cookie(&one_bit_off(&k.session))]), UNAUTHORIZED),
    ("the cookie's value under another name", |k| Ask::with(k, &[format!("Cookie: inkboard_sessions={}", k.session)]), UNAUTHORIZED),
    ("the token", |k| Ask::with(k, &[bearer(&k.token)]), OK),
    ("the cookie alone", |k| Ask::with(k, &[cookie(&k.session)]), COOKIE_ONLY),
    ("the cookie and the page key", |k| Ask::with(k, &[cookie(&k.session), key(&k.page_key)]), BROWSER),
    ("the cookie and the page key as a subprotocol", |k| Ask::with(k, &[cookie(&k.session), format!("Sec-WebSocket-Protocol: inkboard, inkboard.key.{}", k.page_key)]), BROWSER),
    ("the cookie and the page key one bit off", |k| Ask::with(k, &[cookie(&k.session), key(&one_bit_off(&k.page_key))]), COOKIE_ONLY),
    ("the page key alone", |k| Ask::with(k, &[key(&k.page_key)]), UNAUTHORIZED),
    ("the page key as the token", |k| Ask::with(k, &[bearer(&k.page_key)]), UNAUTHORIZED),
    ("the token at localhost", |k| token_at(k, &format!("localhost:{}", k.port)), OK),
    ("the token, own Origin", |k| token_from(k, &format!("http://127.0.0.1:{}", k.port)), OK),
    ("the cookie and key, own Origin (the editor)", |k| Ask::with(k, &[cookie(&k.session), key(&k.page_key), origin(&format!("http://127.0.0.1:{}", k.port))]), BROWSER),
    ("the cookie and key, Origin localhost", |k| Ask::with(k, &[cookie(&k.session), key(&k.page_key), origin(&format!("http://localhost:{}", k.port))]), BROWSER),
    // -- Host: DNS rebinding and other names, even with the token --
    ("Host evil.example:PORT", |k| token_at(k, &format!("evil.example:{}", k.port)), FORBIDDEN),
    ("Host 127.0.0.1.evil.example:PORT", |k| token_at(k, &format!("127.0.0.1.evil.example:{}", k.port)), FORBIDDEN),
    ("Host localhost.evil.example:PORT", |k| token_at(k, &format!("localhost.evil.example:{}", k.port)), FORBIDDEN),
    ("Host 127.0.0.1:PORT.evil.example", |k| token_at(k, &format!("127.0.0.1:{}.evil.example", k.port)), FORBIDDEN),
    ("Host 127.0.0.1 on another port", |k| token_at(k, &format!("127.0.0.1:{}", k.port.wrapping_add(1))), FORBIDDEN),
    ("Host 127.0.0.1 without a port", |k| token_at(k, "127.0.0.1"), FORBIDDEN),
    ("Host [::1]:PORT", |k| token_at(k, &format!("[::1]:{}", k.port)), FORBIDDEN),
    ("no Host (HTTP/1.1)", |k| Ask { hosts: vec![], ..token_at(k, "") }, FORBIDDEN),
    ("no Host (HTTP/1.0)", |k| Ask { version: "HTTP/1.0", hosts: vec![], ..token_at(k, "") }, FORBIDDEN),
    ("Host twice, own first", |k| Ask { hosts: vec![format!("127.0.0.1:{}", k.port), "evil.example".into()], ..token_at(k, "") }, FORBIDDEN),
    ("Host twice, foreign first", |k| Ask { hosts: vec!["evil.example".into(), format!("127.0.0.1:{}", k.port)], ..token_at(k, "") }, FORBIDDEN),
    // -- Origin, even with the token --
    ("Origin http://evil.example", |k| token_from(k, "http://evil.example"), FORBIDDEN),
    ("Origin null", |k| token_from(k, "null"), FORBIDDEN),
    ("Origin on another port", |k| token_from(k, &format!("http://127.0.0.1:{}", k.port.wrapping_add(1))), FORBIDDEN),
    ("Origin https://127.0.0.1:PORT", |k| token_from(k, &format!("https://127.0.0.1:{}", k.port)), FORBIDDEN),
    ("Origin http://127.0.0.1:PORT.evil.example", |k| token_from(k, &format!("http://127.0.0.1:{}.evil.example", k.port)), FORBIDDEN),
    ("Origin http://localhost.evil.example:PORT", |k| token_from(k, &format!("http://localhost.evil.example:{}", k.port)), FORBIDDEN),
    ("Origin twice, own first", |k| Ask::with(k, &[bearer(&k.token), origin(&format!("http://127.0.0.1:{}", k.port)), origin("http://evil.example")]), FORBIDDEN),
    // A page elsewhere using the browser's cookie: cross-site requests, and
    // (column ws) the cross-site WebSocket.
    ("the cookie from another site", |k| Ask::with(k, &[cookie(&k.session), key(&k.page_key), origin("http://evil.example")]), FORBIDDEN),
];

/// Sends `head` (request line and headers, `\n`-separated, no blank line) and
/// `body`; reads the answer until it is complete: its `Content-Length` read, the
/// connection closed, or, for a WebSocket upgrade (`101`), its head alone (the
/// server keeps such connections open, refused upgrades included). Status 0: no
/// answer within `wait`.
fn exchange(port: u16, head: &str, body: &[u8], wait: Duration) -> Answer {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream.set_read_timeout(Some(wait)).expect("a timeout");
    let mut request = head.replace('\n', "\r\n");
    if !head.contains("\nConnection:") {
        request.push_str("\r\nConnection: close");
    }
    if !head.contains("\nContent-Length:") && !head.contains("\nTransfer-Encoding:") {
        request.push_str(&format!("\r\nContent-Length: {}", body.len()));
    }
    request.push_str("\r\n\r\n");
    stream.write_all(request.as_bytes()).expect("send the head");
    // The server may answer and close before reading a body it refuses.
    let _ = stream.write_all(body);
    let deadline = Instant::now() + wait;
    let mut received = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        let done = match stream.read(&mut chunk) {
            Ok(0) | Err(_) => true,
            Ok(n) => {
                received.extend_from_slice(&chunk[..n]);
                Instant::now() > deadline
            }
        };
        let answer = Answer::parse(&received);
        let body_bytes = received
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map_or(0, |end| received.len() - end - 4);
        let complete = match header(&answer, "content-length") {
            _ if answer.status == 101 => true,
            Some(length) => length.parse().is_ok_and(|n: usize| body_bytes >= n),
            None => false,
        };
        if done || complete {
            return answer;
        }
    }
}

/// The head of `route`'s good request as `ask` sends it.
fn request_head(route: &Route, ask: &Ask) -> String {
    let mut path = route.path.to_string();
    if let Some(query) = &ask.query {
        path.push(if path.contains('?') { '&' } else { '?' });
        path.push_str(query);
    }
    let mut lines = vec![format!("{} {path} {}", route.method, ask.version)];
    lines.extend(ask.hosts.iter().map(|h| format!("Host: {h}")));
    lines.extend(route.headers.lines().map(str::to_string));
    lines.extend(ask.headers.iter().cloned());
    lines.join("\n")
}

/// The first line of a body, cut short: enough to say why a cell differs.
fn short(body: &str) -> String {
    body.trim()
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(100)
        .collect()
}

/// The header `name` (lowercase) of an answer's head, if there.
fn header<'a>(answer: &'a Answer, name: &str) -> Option<&'a str> {
    answer.head.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

fn signed_in(app: &App) -> Keys {
    let signed = app.sign_in();
    Keys {
        port: app.port,
        token: app.token(),
        page_key: signed.key,
        session: signed
            .cookie
            .strip_prefix("inkboard_session=")
            .expect("the session cookie")
            .to_string(),
    }
}

/// Whether the application still answers a plain signed-in request.
fn still_answers(app: &App, keys: &Keys) -> bool {
    let head = format!(
        "GET / HTTP/1.1\nHost: 127.0.0.1:{}\n{}",
        keys.port,
        bearer(&keys.token)
    );
    exchange(app.port, &head, b"", Duration::from_secs(10)).status == 200
}

#[test]
fn every_route_refuses_strangers_and_serves_the_right_credentials() {
    let app = App::start("plan.inkboard");
    let keys = signed_in(&app);
    let mut wrong = Vec::new();
    for (what, ask, expected) in CASES {
        let ask = ask(&keys);
        for (route, &want) in ROUTES.iter().zip(expected) {
            let head = request_head(route, &ask);
            let answer = exchange(
                app.port,
                &head,
                (route.body)(&app).as_bytes(),
                Duration::from_secs(30),
            );
            let cell = format!("{what} × {} {}", route.method, route.path);
            if answer.status != want {
                wrong.push(format!(
                    "{cell}: {} (expected {want}) {}",
                    answer.status,
                    short(&answer.body)
                ));
            }
            // The application does no CORS: no answer may let another site read it.
            if let Some(cors) = header(&answer, "access-control-allow-origin") {
                wrong.push(format!("{cell}: Access-Control-Allow-Origin: {cors}"));
            }
            if want >= 400 && header(&answer, "set-cookie").is_some() {
                wrong.push(format!("{cell}: a refusal that sets a cookie"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cells differ:\n{}",
        wrong.len(),
        CASES.len() * ROUTES.len(),
        wrong.join("\n")
    );
}

// ---- the one-time code ----

#[test]
fn the_one_time_code_gives_a_strict_cookie_once() {
    let app = App::start("plan.inkboard");
    let port = app.port;
    let exchange_code = |host: &str, code: &str| {
        exchange(
            port,
            &format!("GET /?code={code} HTTP/1.1\nHost: {host}"),
            b"",
            Duration::from_secs(10),
        )
    };
    let own = format!("127.0.0.1:{port}");
    // A rebinding page cannot spend the code (and so cannot lock the person out).
    let rebound = exchange_code(&format!("evil.example:{port}"), &app.code());
    assert_eq!(rebound.status, 403, "{rebound:?}");
    let wrong = exchange_code(&own, &one_bit_off(&app.code()));
    assert_eq!(wrong.status, 401, "a wrong code: {wrong:?}");
    assert!(header(&wrong, "set-cookie").is_none());

    let first = exchange_code(&own, &app.code());
    assert_eq!(first.status, 303, "{first:?}");
    // The code leaves the address bar; the page key comes in the fragment,
    // which the browser never sends to any server.
    let key = header(&first, "location")
        .and_then(|l| l.strip_prefix("/#key="))
        .expect("the page key in the redirect's fragment");
    assert!(
        key.len() == 32 && key.bytes().all(|b| b.is_ascii_hexdigit()),
        "128 bits in hex: {key}"
    );
    let set_cookie = header(&first, "set-cookie").expect("a cookie");
    let mut parts = set_cookie.split(';').map(str::trim);
    let value = parts.next().expect("name=value").to_string();
    let flags: Vec<&str> = parts.collect();
    assert_eq!(
        flags,
        ["HttpOnly", "SameSite=Strict", "Path=/"],
        "{set_cookie}"
    );
    let session = value
        .strip_prefix("inkboard_session=")
        .expect("the session cookie");
    assert_eq!(session.len(), 32, "128 bits in hex");
    assert_ne!(session, app.token(), "the cookie is not the token");

    let again = exchange_code(&own, &app.code());
    assert_eq!(again.status, 401, "a code works once: {again:?}");
    let page = exchange(
        port,
        &format!("GET / HTTP/1.1\nHost: {own}\nCookie: {value}"),
        b"",
        Duration::from_secs(10),
    );
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<script"), "the editor page");
    // The cookie alone (a server on another port received it) gets the page,
    // but not the key: the page does not carry it, and a spent or made-up code
    // redirects without it.
    assert!(!page.body.contains(key), "the page does not carry the key");
    let used = exchange(
        port,
        &format!(
            "GET /?code={} HTTP/1.1\nHost: {own}\nCookie: {value}",
            app.code()
        ),
        b"",
        Duration::from_secs(10),
    );
    assert_eq!(header(&used, "location"), Some("/"), "{used:?}");
    assert!(!used.body.contains(key) && !used.head.contains(key));
}

// ---- paths outside the editor's files ----

/// Asset paths that try to leave the compiled-in files, and the status each gets
/// (with the token). 404: no route or no such file; 400: a path the server cannot
/// even decode.
const TRAVERSALS: &[(&str, u16)] = &[
    ("/assets/../Cargo.toml", 404),
    ("/assets/../../Cargo.toml", 404),
    ("/assets/%2e%2e/Cargo.toml", 404),
    ("/assets/%2E%2E%2FCargo.toml", 404),
    ("/assets/..%2fCargo.toml", 404),
    ("/assets/..%2f..%2f..%2f..%2fetc%2fpasswd", 404),
    ("/assets/%252e%252e%252fCargo.toml", 404),
    ("/assets/....//....//etc/passwd", 404),
    ("/assets//etc/passwd", 404),
    ("/assets/%2fetc%2fpasswd", 404),
    ("/assets/..\\..\\Cargo.toml", 404),
    ("/assets/..%5c..%5cCargo.toml", 404),
    ("/assets/main.js%00", 404),
    ("/assets/main.js%00.png", 404),
    ("/assets/main.js\0", 400),
    ("/assets/%c0%ae%c0%ae%2fCargo.toml", 400),
    ("/assets/main.js/..", 404),
    ("/assets/", 404),
    ("/assets/index.html/../../Cargo.toml", 404),
    ("/..%2f..%2fCargo.toml", 404),
    ("/etc/passwd", 404),
    ("/Cargo.toml", 404),
    ("/build.rs", 404),
];

/// `GET path` with the token.
fn get_with_token(app: &App, token: &str, path: &str) -> Answer {
    let head = format!(
        "GET {path} HTTP/1.1\nHost: 127.0.0.1:{}\n{}",
        app.port,
        bearer(token)
    );
    exchange(app.port, &head, b"", Duration::from_secs(10))
}

#[test]
fn asset_paths_outside_the_editor_files_are_not_found() {
    let app = App::start("plan.inkboard");
    let token = app.token();
    let get = |path: &str| get_with_token(&app, &token, path);
    let control = get("/assets/main.js");
    assert_eq!(control.status, 200, "an editor file is served: {control:?}");
    assert!(
        control.body.contains("import"),
        "{}",
        &control.body[..control.body.len().min(200)]
    );
    let mut wrong = Vec::new();
    for &(path, want) in TRAVERSALS {
        let answer = get(path);
        if answer.status != want {
            wrong.push(format!(
                "{path:?}: {} (expected {want}) {}",
                answer.status,
                short(&answer.body)
            ));
        }
        if ["[package]", "root:", "fn main"]
            .iter()
            .any(|s| answer.body.contains(s))
        {
            wrong.push(format!("{path:?}: served a file from disk"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_page_names_its_files_under_this_builds_version_only() {
    let app = App::start("plan.inkboard");
    let token = app.token();
    let get = |path: &str| get_with_token(&app, &token, path);
    let page = get("/");
    assert_eq!(page.status, 200);
    let version = page
        .body
        .split("src=\"/assets/")
        .nth(1)
        .and_then(|rest| rest.split_once("/main.js\""))
        .map(|(v, _)| v.to_string())
        .unwrap_or_else(|| panic!("the page loads main.js under a version: {}", page.body));
    assert!(version.len() == 16 && version.bytes().all(|b| b.is_ascii_hexdigit()));
    let main = get(&format!("/assets/{version}/main.js"));
    assert_eq!(main.status, 200);
    assert!(
        main.head
            .to_ascii_lowercase()
            .contains("cache-control: max-age=31536000, immutable"),
        "{}",
        main.head
    );
    assert!(
        page.head
            .to_ascii_lowercase()
            .contains("cache-control: no-cache"),
        "{}",
        page.head
    );
    let mut wrong = Vec::new();
    for path in [
        "/assets/0000000000000000/main.js".to_string(),
        format!("/assets/{version}/../../Cargo.toml"),
        format!("/assets/{version}/..%2f..%2fCargo.toml"),
        format!("/assets/{version}/nothing.js"),
        format!("/assets/{version}/fonts.css/x"),
    ] {
        let answer = get(&path);
        if answer.status != 404 {
            wrong.push(format!("{path}: {} {}", answer.status, short(&answer.body)));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// ---- oversized bodies ----

#[test]
fn a_body_declared_over_the_cap_is_refused_before_it_is_read() {
    let app = App::start("plan.inkboard");
    let keys = signed_in(&app);
    let mut wrong = Vec::new();
    let token = [bearer(&keys.token)];
    for (who, credentials, want) in [("the token", &token[..], 413), ("no one", &[], 401)] {
        for route in &ROUTES {
            let ask = Ask::with(&keys, credentials);
            let head = format!(
                "{}\nContent-Length: {}",
                request_head(route, &ask),
                MAX_BODY + 1
            );
            // Only the first bytes are sent: an answer proves the server did not
            // wait for the rest.
            let started = Instant::now();
            let answer = exchange(app.port, &head, b"{\"tool\":", Duration::from_secs(10));
            if answer.status != want {
                wrong.push(format!(
                    "{who} × {} {}: {} after {:?} (expected {want})",
                    route.method,
                    route.path,
                    answer.status,
                    started.elapsed()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(still_answers(&app, &keys));
}

/// The POST routes, each with its cap and a good body of a given length: a
/// chunked body (no length announced, so it must be counted while read) at the
/// cap is taken, one byte more is refused. `None`: the body at the cap is not
/// tried.
type Cap = (&'static str, usize, Option<u16>, fn(usize) -> Vec<u8>);
const CAPS: &[Cap] = &[
    ("/api/call", MAX_BODY, Some(200), call_body),
    ("/api/open", MAX_OPEN_BODY, None, call_body),
    ("/api/rich", MAX_RICH_BODY, Some(200), rich_body),
    ("/mcp", MAX_BODY, Some(200), initialize_body),
];

/// A `/api/rich` body of exactly `len` bytes: a short text, padded in a field
/// the endpoint ignores, so that only the body's size can refuse it.
fn rich_body(len: usize) -> Vec<u8> {
    let bare = json!({"markdown": "**a**", "pad": ""}).to_string();
    json!({"markdown": "**a**", "pad": "x".repeat(len - bare.len())})
        .to_string()
        .into_bytes()
}

/// An MCP `initialize` request of exactly `len` bytes (padded in the client's
/// name).
fn initialize_body(len: usize) -> Vec<u8> {
    let with = |name: &str| {
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": name, "version": "1"}}})
        .to_string()
    };
    let bare = with("").len();
    with(&"x".repeat(len - bare)).into_bytes()
}

/// A `/api/call` body of exactly `len` bytes (padded in its `client` name).
fn call_body(len: usize) -> Vec<u8> {
    let bare = json!({"tool": "read_board", "args": {}, "client": ""}).to_string();
    let padding = "x".repeat(len - bare.len());
    json!({"tool": "read_board", "args": {}, "client": padding})
        .to_string()
        .into_bytes()
}

/// `body` in chunked transfer encoding, 64 KiB a chunk.
fn chunked(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + body.len() / 8192 + 16);
    for chunk in body.chunks(64 * 1024) {
        out.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        out.extend_from_slice(chunk);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

#[test]
fn a_body_streamed_past_the_cap_is_refused_at_the_cap() {
    let app = App::start("plan.inkboard");
    let keys = signed_in(&app);
    for &(path, cap, at_cap, body) in CAPS {
        let route = ROUTES.iter().find(|r| r.path == path).expect("a route");
        let ask = Ask::with(&keys, &[bearer(&keys.token)]);
        let head = format!("{}\nTransfer-Encoding: chunked", request_head(route, &ask));
        if let Some(want) = at_cap {
            let answer = exchange(
                app.port,
                &head,
                &chunked(&body(cap)),
                Duration::from_secs(60),
            );
            assert_eq!(
                answer.status, want,
                "{path}, a body of exactly {cap} bytes: {}",
                answer.body
            );
        }
        let over = exchange(
            app.port,
            &head,
            &chunked(&body(cap + 1)),
            Duration::from_secs(60),
        );
        assert_eq!(
            over.status,
            413,
            "{path}, a body of {} bytes: {:?}",
            cap + 1,
            over.head
        );
        assert!(still_answers(&app, &keys), "after {path}");
    }
}

#[tokio::test]
async fn a_websocket_message_over_the_cap_closes_only_that_window() {
    let app = App::start("plan.inkboard");
    let keys = signed_in(&app);
    let signed = SignedIn {
        cookie: format!("inkboard_session={}", keys.session),
        key: keys.page_key.clone(),
    };
    let mut window = app.window(&signed).await;
    let mut other = app.window(&signed).await;
    let huge = format!(
        "{{\"t\":\"call\",\"seq\":1,\"tool\":\"read_board\",\"args\":{{\"x\":\"{}\"}}}}",
        "x".repeat(MAX_BODY)
    );
    // The server may close before the whole message is written.
    let _ = window.socket.send(Message::Text(huge.into())).await;
    let ended = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            match window.socket.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(
        ended.is_ok(),
        "the window with the oversized message is closed"
    );
    let reply = other.call("read_board", json!({})).await;
    assert_eq!(reply["ok"], true, "another window goes on: {reply}");
    assert!(still_answers(&app, &keys));
}

/// Every answer, a refusal included, forbids framing and loading as a resource
/// from another origin (another port of 127.0.0.1 receives the cookie too), and
/// the page's policy allows only its own scripts.
#[test]
fn every_answer_forbids_framing_and_cross_origin_loads() {
    let app = App::start("headers.inkboard");
    let keys = signed_in(&app);
    let page = app.get("/", &cookie(&keys.session));
    let export = get_with_token(&app, &keys.token, "/export?format=png");
    let refused = app.get("/", "");
    for (what, answer) in [("page", &page), ("export", &export), ("refusal", &refused)] {
        assert_eq!(
            header(answer, "x-frame-options"),
            Some("DENY"),
            "{what}: {answer:?}"
        );
        assert_eq!(
            header(answer, "cross-origin-resource-policy"),
            Some("same-origin"),
            "{what}"
        );
        let csp = header(answer, "content-security-policy").unwrap_or_default();
        for rule in [
            "frame-ancestors 'none'",
            "script-src 'self'",
            "object-src 'none'",
        ] {
            assert!(csp.contains(rule), "{what}: {csp}");
        }
        assert!(!csp.contains("unsafe-eval"), "{what}: {csp}");
    }
    assert_eq!(page.status, 200, "{page:?}");
    assert_eq!(refused.status, 401, "{refused:?}");
}

/// A window (the session cookie) edits the board it shows and nothing else: no
/// export, save, other board or file read through its WebSocket, whole or inside
/// a batch. Before, its `call` ran every tool, `export` to any path included.
#[tokio::test]
async fn a_window_edits_its_board_and_reaches_no_file() {
    let app = App::start("window.inkboard");
    let cookie = app.sign_in();
    let mut window = app.window(&cookie).await;
    let elsewhere = app.dir.path().join("elsewhere.png");
    let secret = app.dir.path().join("secret.inkboard");
    std::fs::write(&secret, "{}").expect("a file");
    let refused = [
        ("export", serde_json::json!({"output": elsewhere})),
        ("save_board", serde_json::json!({"as": secret})),
        ("read_board", serde_json::json!({"path": secret})),
        ("create_board", serde_json::json!({})),
        ("add_image", serde_json::json!({"source": secret})),
        (
            "batch",
            serde_json::json!({"operations": [{"tool": "add_image", "args": {"source": secret}}]}),
        ),
    ];
    for (tool, args) in refused {
        let reply = window.call(tool, args.clone()).await;
        assert_eq!(reply["ok"], false, "{tool} {args}: {reply}");
    }
    assert!(!elsewhere.exists(), "the window exported a file");
    let reply = window
        .call("add_shape", serde_json::json!({"text": "mine"}))
        .await;
    assert_eq!(reply["ok"], true, "{reply}");
}
