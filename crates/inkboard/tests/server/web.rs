//! What a person's browser meets, over plain HTTP: a one-time sign-in link that
//! sets the session cookie (HttpOnly, SameSite=Lax; not Secure on loopback), the
//! list of their boards, a board page, sharing by its owner (the people page's
//! form and the editor's dialog, each act in the audit log), another site's form
//! and a foreign Host refused, a board they hold no role on answered as a
//! missing one, and the editor's rich text for signed-in people only, its body
//! capped.

use inkboard_app::MAX_RICH_BODY;
use serde_json::json;

use crate::harness::{Mcp, Place, Serve};

fn browser() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into()
}

struct Page {
    status: u16,
    cookie: Option<String>,
    body: String,
}

fn get(url: &str, cookie: Option<&str>) -> Page {
    let mut r = browser().get(url);
    if let Some(c) = cookie {
        r = r.header("Cookie", c);
    }
    let mut answer = r.call().expect("GET");
    Page {
        status: answer.status().as_u16(),
        cookie: answer
            .headers()
            .get("set-cookie")
            .map(|v| v.to_str().unwrap_or_default().to_string()),
        body: answer.body_mut().read_to_string().unwrap_or_default(),
    }
}

fn post(url: &str, cookie: &str, origin: &str, form: &str) -> u16 {
    browser()
        .post(url)
        .header("Cookie", cookie)
        .header("Origin", origin)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .send(form.to_string())
        .expect("POST")
        .status()
        .as_u16()
}

/// POSTs JSON `body` from `origin`, signed in with `cookie` if given: the status
/// and the answer.
fn post_json(url: &str, cookie: Option<&str>, origin: &str, body: String) -> (u16, String) {
    let mut r = browser()
        .post(url)
        .header("Origin", origin)
        .header("Content-Type", "application/json");
    if let Some(c) = cookie {
        r = r.header("Cookie", c);
    }
    let mut answer = r.send(body).expect("POST");
    let text = answer.body_mut().read_to_string().unwrap_or_default();
    (answer.status().as_u16(), text)
}

/// Signs `name` in through a new link; answers the cookie to send.
pub fn sign_in(place: &Place, serve: &Serve, name: &str) -> String {
    let (path, cookie) = follow_link(place, serve, name);
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    assert!(!cookie.contains("Secure"), "no https on loopback: {cookie}");
    // Once only.
    let again = get(&format!("{}{path}", serve.url), None);
    assert_eq!(again.status, 403);
    assert!(again.cookie.is_none());
    cookie.split(';').next().expect("name=value").to_string()
}

/// Signs `name` in on `serve` with a new link, once (the benchmarks' way: a
/// link tried again counts as a failed sign-in, and those are rate limited);
/// answers the `name=value` of the session cookie. Used by
/// `benches/together.rs`, which includes this file.
#[allow(dead_code)]
pub fn session_of(place: &Place, serve: &Serve, name: &str) -> String {
    let (_, cookie) = follow_link(place, serve, name);
    cookie.split(';').next().expect("name=value").to_string()
}

/// A new sign-in link for `name`, followed: its path and the `Set-Cookie`.
fn follow_link(place: &Place, serve: &Serve, name: &str) -> (String, String) {
    let path = place.admin(&["link", name]);
    assert!(path.starts_with("/s/inkl_"), "{path}");
    let first = get(&format!("{}{path}", serve.url), None);
    assert_eq!(first.status, 303, "{}", first.body);
    (path, first.cookie.expect("a session cookie"))
}

pub fn people(place: &Place, servers: &[Serve]) {
    let (a, b) = (&servers[0], &servers[servers.len() - 1]);
    let token = place.person("jo");
    place.admin(&["add-user", "kim"]);
    let board = Mcp::connect(a, &token)
        .call("create_board", json!({"title": "Jo's <plan>"}))
        .expect("create")["board"]
        .as_str()
        .expect("id")
        .to_string();
    let jo = sign_in(place, a, "jo");
    let kim = sign_in(place, b, "kim");

    // Signed out: asked to sign in; signed in: their boards, escaped.
    assert_eq!(get(&format!("{}/", a.url), None).status, 401);
    let home = get(&format!("{}/", a.url), Some(&jo));
    assert_eq!(home.status, 200);
    assert!(home.body.contains("Jo&#39;s &lt;plan&gt;"), "{}", home.body);
    assert!(home.body.contains(&format!("/b/{board}")));

    // Kim has no role: the board is not found, as a missing one, on both.
    let hidden = get(&format!("{}/b/{board}", b.url), Some(&kim));
    let missing = get(&format!("{}/b/nosuchboard0000", b.url), Some(&kim));
    assert_eq!((hidden.status, missing.status), (404, 404));
    assert_eq!(hidden.body, missing.body);

    // The board is the live editor; the owner shares from its people's page;
    // another site's form cannot.
    let editor = get(&format!("{}/b/{board}", a.url), Some(&jo));
    assert_eq!(editor.status, 200);
    assert!(
        editor.body.contains(&format!(
            "<meta name=\"inkboard-base\" content=\"/b/{board}/\">"
        )),
        "{}",
        editor.body
    );
    // Every file the editor's page names loads, those in the editor's
    // subfolders too (`canvas/canvas.js`): a module that does not stops the page.
    let files: Vec<&str> = editor
        .body
        .split("\"/assets/")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert!(
        files.iter().any(|f| f.matches('/').count() >= 2),
        "a module in a subfolder among {files:?}"
    );
    for file in files {
        let answer = get(&format!("{}/assets/{file}", a.url), Some(&jo));
        assert_eq!(answer.status, 200, "/assets/{file}");
    }
    // The editor's download takes the dialog's choices: only the selection,
    // on a transparent background.
    let mut mcp = Mcp::connect(a, &token);
    let mut shape = |text: &str, x: i32| {
        mcp.call(
            "add_shape",
            json!({"board": board, "page": 1, "text": text, "x": x, "y": 0}),
        )
        .expect("a shape")["id"]
            .as_str()
            .expect("id")
            .to_string()
    };
    let (kept, _) = (shape("Kept", 0), shape("Other", 300));
    let export = |query: &str| get(&format!("{}/b/{board}/export?{query}", a.url), Some(&jo));
    let whole = export("format=svg&embed=false");
    let picked = export(&format!(
        "format=svg&embed=false&ids={kept}&background=transparent"
    ));
    assert_eq!((whole.status, picked.status), (200, 200), "{}", picked.body);
    assert!(whole.body.contains("Other") && whole.body.contains("Kept"));
    assert!(
        picked.body.contains("Kept") && !picked.body.contains("Other"),
        "only the selection: {}",
        picked.body
    );
    assert_ne!(whole.body, picked.body);

    // A form is read before its sender is known: a big one is refused unread.
    let big = format!("name={}&role=viewer", "x".repeat(64 * 1024));
    assert_eq!(
        post(&format!("{}/b/{board}/share", a.url), "", &a.url, &big),
        413
    );
    let page = get(&format!("{}/b/{board}/people", a.url), Some(&jo));
    assert!(page.body.contains("id=share"), "{}", page.body);
    let share = format!("{}/b/{board}/share", a.url);
    assert_eq!(
        post(&share, &jo, "http://evil.example", "name=kim&role=editor"),
        403
    );
    assert_eq!(post(&share, &jo, &a.url, "name=kim&role=viewer"), 303);
    let seen = get(&format!("{}/b/{board}/people", b.url), Some(&kim));
    assert_eq!(seen.status, 200, "{}", seen.body);
    assert!(!seen.body.contains("id=share"), "a viewer does not share");
    let drawing = get(&format!("{}/b/{board}/page.svg", b.url), Some(&kim));
    assert_eq!(drawing.status, 200);
    assert!(drawing.body.contains("<svg"));
    // A viewer's share is refused with the role it takes.
    let kim_share = format!("{}/b/{board}/share", b.url);
    assert_eq!(post(&kim_share, &kim, &b.url, "name=kim&role=owner"), 403);
    sharing_from_the_editor(place, a, b, &board, &jo, &kim);

    // The editor's rich text: for signed-in people, its body held to its cap.
    let rich = format!("{}/api/rich", a.url);
    let text = json!({"markdown": "**a**"}).to_string();
    assert_eq!(post_json(&rich, None, &a.url, text.clone()).0, 401);
    let (status, body) = post_json(&rich, Some(&jo), &a.url, text);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("<b>a</b>"), "{body}");
    let bare = json!({"markdown": "a", "pad": ""}).to_string().len();
    let over = json!({"markdown": "a", "pad": "x".repeat(MAX_RICH_BODY + 1 - bare)}).to_string();
    assert_eq!(over.len(), MAX_RICH_BODY + 1);
    assert_eq!(post_json(&rich, Some(&jo), &a.url, over).0, 413);

    // A name this server does not answer to (DNS rebinding) is refused.
    let rebound = browser()
        .get(&format!("{}/", a.url))
        .header("Host", "rebound.example")
        .call()
        .expect("GET");
    assert_eq!(rebound.status().as_u16(), 421);
}

/// Sends `form` to a sharing route as the editor's Share dialog does (asking
/// for JSON), or GETs it without a form: the status and the JSON answer.
fn dialog(url: &str, cookie: &str, origin: &str, form: Option<&str>) -> (u16, serde_json::Value) {
    let mut answer = match form {
        Some(form) => browser()
            .post(url)
            .header("Cookie", cookie)
            .header("Origin", origin)
            .header("Accept", "application/json")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .send(form.to_string()),
        None => browser()
            .get(url)
            .header("Cookie", cookie)
            .header("Accept", "application/json")
            .call(),
    }
    .expect("a sharing route");
    let text = answer.body_mut().read_to_string().unwrap_or_default();
    let value = serde_json::from_str(&text).unwrap_or_else(|_| json!({ "text": text }));
    (answer.status().as_u16(), value)
}

/// The editor's Share dialog's routes: the board's people for whoever holds a
/// role, an owner's unshare, the refusals in words, and the audit rows they
/// write (jo owns `board` and made kim a viewer through the people page).
fn sharing_from_the_editor(place: &Place, a: &Serve, b: &Serve, board: &str, jo: &str, kim: &str) {
    let shares = format!("{}/b/{board}/shares", a.url);
    let (status, people) = dialog(&shares, jo, &a.url, None);
    assert_eq!(status, 200, "{people}");
    assert_eq!(
        people,
        json!({"role": "owner", "people": [{"name": "jo", "role": "owner"}, {"name": "kim", "role": "viewer"}]})
    );
    let (status, seen) = dialog(&format!("{}/b/{board}/shares", b.url), kim, &b.url, None);
    assert_eq!((status, &seen["role"]), (200, &json!("viewer")), "{seen}");

    // Refusals: a name nobody has, the last owner, another site, a viewer.
    let share = format!("{}/b/{board}/share", a.url);
    let unshare = format!("{}/b/{board}/unshare", a.url);
    let (status, nobody) = dialog(&share, jo, &a.url, Some("name=nobody&role=viewer"));
    assert_eq!(status, 400);
    assert!(
        nobody["error"]
            .as_str()
            .unwrap_or_default()
            .contains("no person named"),
        "{nobody}"
    );
    let (status, last) = dialog(&unshare, jo, &a.url, Some("name=jo"));
    assert_eq!(status, 400);
    assert!(
        last["error"]
            .as_str()
            .unwrap_or_default()
            .contains("last owner"),
        "{last}"
    );
    assert_eq!(post(&unshare, jo, "http://evil.example", "name=kim"), 403);
    let (status, refused) = dialog(
        &format!("{}/b/{board}/unshare", b.url),
        kim,
        &b.url,
        Some("name=jo"),
    );
    assert_eq!(status, 403, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap_or_default()
            .contains("owner role"),
        "{refused}"
    );

    // The owner takes kim's role away: kim no longer finds the board.
    let (status, after) = dialog(&unshare, jo, &a.url, Some("name=kim"));
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["people"], json!([{"name": "jo", "role": "owner"}]));
    let (status, hidden) = dialog(&format!("{}/b/{board}/shares", b.url), kim, &b.url, None);
    let (_, missing) = dialog(
        &format!("{}/b/nosuchboard0000/shares", b.url),
        kim,
        &b.url,
        None,
    );
    assert_eq!(status, 404);
    assert_eq!(hidden, missing);
    let (status, _) = dialog(
        &format!("{}/b/{board}/unshare", b.url),
        kim,
        &b.url,
        Some("name=kim"),
    );
    assert_eq!(status, 404, "leaving a board one has no role on: not found");

    // The audit log holds the share (the people page's form) and the unshare,
    // in jo's name, and nothing of the refusals.
    let audit = place.admin_all(&["audit", "--limit", "2"]);
    let rows: Vec<&str> = audit
        .lines()
        .map(|l| l.split_once('\t').map_or(l, |(_time, rest)| rest))
        .collect();
    assert_eq!(
        rows,
        [
            format!("jo\tunshare\tboard {board}\tfor kim\tas viewer"),
            format!("jo\tshare\tboard {board}\tfor kim\tas viewer"),
        ],
        "{audit}"
    );
}

/// Made-up session cookies are rate limited as bad tokens are: each one that
/// signs no one in counts against the client's address, and past a hundred (a
/// browser keeps sending a cookie whose session ended) the address is answered 429 (with when to try again) before the database is asked, a real
/// session from it too, until the bucket refills. A server of its own, so the
/// other tests' address keeps its allowance.
#[allow(dead_code)]
pub fn made_up_cookies_are_limited() {
    let place = Place::sqlite();
    place.admin(&["add-user", "jo"]);
    let place = &place;
    let serve = Serve::start(place);
    let real = session_of(place, &serve, "jo");
    assert_eq!(get(&format!("{}/", serve.url), Some(&real)).status, 200);
    for i in 0..inkboard_server::limit::COOKIE_BURST as usize {
        let made_up = format!("inkboard_session=inks_madeup{i:040}");
        let page = get(&format!("{}/", serve.url), Some(&made_up));
        assert_eq!(page.status, 401, "made-up cookie {i}: {}", page.body);
    }
    let flood = get(
        &format!("{}/", serve.url),
        Some("inkboard_session=inks_one_more"),
    );
    assert_eq!(flood.status, 429, "{}", flood.body);
    assert_eq!(get(&format!("{}/", serve.url), Some(&real)).status, 429);
    // No cookie at all asks nothing of the database: signed out, as ever.
    assert_eq!(get(&format!("{}/", serve.url), None).status, 401);
}
