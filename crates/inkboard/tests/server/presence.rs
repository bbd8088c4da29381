//! Presence at the editor's WebSocket (`docs/live-protocol.md`, "Presence"): a
//! window's `here` reaches the other windows on the board, on this process or
//! the other (on PostgreSQL: `NOTIFY inkboard_presence`), in the person's name
//! and colour; a viewer is present too; hostile numbers and selections show
//! less; a burst is thinned to the latest, and said again at each heartbeat; an
//! agent's call shows as "NAME's agent"; a closed window says `gone`; an
//! unshared person hears no one; others' changes come marked in their author's
//! colour, one's own unmarked.

use std::time::Duration;

use serde_json::{json, Value};

use crate::editor::Window;
use crate::harness::{Mcp, Place, Serve};
use crate::web::sign_in;

/// The colours a person can be shown in (`inkboard-server/src/presence.rs`).
const PALETTE: [&str; 8] = [
    "#e03131", "#1971c2", "#2f9e44", "#d9480f", "#9c36b5", "#0c8599", "#c2255c", "#5f3dc4",
];

fn is_presence_of(m: &Value, person: &str) -> bool {
    m["t"] == "presence" && m["person"] == person && m["gone"].is_null()
}

fn here(cursor: Value, sel: Value) -> Value {
    json!({"t": "here", "page": 1, "cursor": cursor, "sel": sel, "view": [0, 0, 800, 600]})
}

pub fn present(place: &Place, servers: &[Serve]) {
    let (a, b) = (&servers[0], &servers[servers.len() - 1]);
    let token = place.person("pia");
    place.admin(&["add-user", "quin"]);
    let mut agent = Mcp::connect(a, &token);
    let board = agent
        .call("create_board", json!({"title": "Together"}))
        .expect("create")["board"]
        .as_str()
        .expect("id")
        .to_string();
    let shape = agent
        .call("add_shape", json!({"board": board, "page": 1, "text": "S"}))
        .expect("shape")["id"]
        .as_str()
        .expect("id")
        .to_string();
    place.admin(&["share", &board, "quin", "viewer"]);

    // Pia on one process, Quin (a viewer) on the other.
    let pia_cookie = sign_in(place, a, "pia");
    let mut pia = Window::open(a, &board, &pia_cookie).expect("pia's window");
    pia.hello();
    let quin_cookie = sign_in(place, b, "quin");
    let mut quin = Window::open(b, &board, &quin_cookie).expect("quin's window");
    quin.hello();

    pia.send(here(json!([10.5, 20]), json!([shape])));
    let seen = quin.until("pia's presence", |m| is_presence_of(m, "pia"));
    assert_eq!(seen["cursor"], json!([10.5, 20.0]), "{seen}");
    assert_eq!(seen["sel"], json!([shape]), "{seen}");
    assert_eq!(seen["view"], json!([0.0, 0.0, 800.0, 600.0]), "{seen}");
    assert_eq!(seen["page"], 1);
    let color = seen["color"].as_str().expect("a colour").to_string();
    assert!(PALETTE.contains(&color.as_str()), "{color}");
    let pia_id = seen["id"].as_str().expect("id").to_string();

    // A viewer is present too.
    quin.send(here(json!([1, 2]), json!([])));
    let back = pia.until("quin's presence", |m| is_presence_of(m, "quin"));
    assert_eq!(back["cursor"], json!([1.0, 2.0]));

    // Heartbeat: said again with nothing new.
    let again = quin.heard_for(Duration::from_millis(2500));
    assert!(
        again.iter().any(|m| is_presence_of(m, "pia")),
        "no heartbeat in 2.5 s: {again:?}"
    );

    // Hostile: numbers out of bounds and a selection past the cap show less.
    let many: Vec<String> = (0..400).map(|i| format!("s{i}")).collect();
    pia.send(
        json!({"t": "here", "page": 1, "cursor": [1e300, 5], "sel": many,
        "view": [0, 0, -1, 600]}),
    );
    let hostile = quin.until("the capped presence", |m| {
        is_presence_of(m, "pia") && m["cursor"].is_null()
    });
    assert_eq!(
        hostile["sel"].as_array().map(Vec::len),
        Some(100),
        "{hostile}"
    );
    assert!(hostile["view"].is_null(), "{hostile}");
    // Not JSON of a `here`: refused as unreadable, the connection kept.
    pia.send(json!({"t": "here", "cursor": "x"}));
    pia.until("the refusal", |m| m["t"] == "error");

    // A burst of 60 moves is thinned, not queued; the last one arrives.
    quin.heard_for(Duration::from_millis(300));
    for i in 0..60 {
        pia.send(here(json!([i, 0]), json!([])));
    }
    let burst: Vec<Value> = quin
        .heard_for(Duration::from_millis(1200))
        .into_iter()
        .filter(|m| is_presence_of(m, "pia"))
        .collect();
    assert!(
        burst.len() < 20,
        "{} notes for 60 moves in a burst",
        burst.len()
    );
    assert_eq!(
        burst.last().map(|m| m["cursor"].clone()),
        Some(json!([59.0, 0.0])),
        "{burst:?}"
    );

    // An agent's call shows as the person's agent, to everyone on the board.
    agent
        .call(
            "add_shape",
            json!({"board": board, "page": 1, "text": "T", "x": 300}),
        )
        .expect("the agent's shape");
    let working = quin.until("pia's agent", |m| {
        m["t"] == "presence" && m["agent"] == true
    });
    assert_eq!(working["person"], "pia", "{working}");
    assert_eq!(working["color"], color.as_str(), "the person's colour");

    // Others' changes come marked in their author's colour; one's own do not.
    let reply = pia.call(
        1,
        "add_shape",
        json!({"x": 0, "y": 300, "text": "P", "page": 1}),
    );
    assert_eq!(reply["ok"], true, "{reply}");
    let made = reply["result"]["id"].as_str().expect("id").to_string();
    let marked = quin.until("pia's marked change", |m| {
        m["t"] == "scene" && m["items"].get(&made).is_some()
    });
    assert_eq!(
        marked["marks"],
        json!([{"name": "pia", "color": color, "ids": [made]}]),
        "{marked}"
    );

    // A second window of Pia's: her own changes from the first come unmarked.
    let mut pia2 = Window::open(b, &board, &pia_cookie).expect("pia's second window");
    pia2.hello();
    let reply = pia.call(
        2,
        "add_shape",
        json!({"x": 0, "y": 500, "text": "Q", "page": 1}),
    );
    let made = reply["result"]["id"].as_str().expect("id").to_string();
    let own = pia2.until("pia's own change", |m| {
        m["t"] == "scene" && m["items"].get(&made).is_some()
    });
    assert!(own["marks"].is_null(), "{own}");

    // A window closed says so at once.
    drop(pia2);
    drop(pia);
    quin.until("pia's window gone", |m| {
        m["t"] == "presence" && m["gone"] == true && m["id"] == pia_id.as_str()
    });

    // An unshared person hears no one any more (from their next heartbeat).
    place.admin(&["unshare", &board, "quin"]);
    std::thread::sleep(Duration::from_millis(2000));
    quin.heard_for(Duration::from_millis(200));
    let mut pia = Window::open(a, &board, &pia_cookie).expect("pia again");
    pia.hello();
    pia.send(here(json!([5, 5]), json!([])));
    let heard = quin.heard_for(Duration::from_millis(2500));
    assert!(
        !heard.iter().any(|m| m["t"] == "presence"),
        "an unshared window still hears presence: {heard:?}"
    );
}
