//! Many people on one board (issue 34 item 7): 50 editors, each the editor's
//! WebSocket spoken by hand as a browser window speaks it (`docs/live-protocol.md`),
//! and 5 agents (MCP over HTTP with their person's token), all on one board,
//! across two `inkboard serve` processes on one PostgreSQL database.
//!
//! - change fan-out: an agent's `add_shape` sent → the shape in each window's
//!   scene, p50 and p99 over every (shape, window);
//! - cursor fan-out: a window's `here` sent → the presence note at each other
//!   window, p99 (10 windows move their pointer 20 times a second; notes the
//!   server thins to one per 40 ms are not counted);
//! - each process's CPU (share of one core over the load) and resident memory.
//!
//! Without PostgreSQL it runs on SQLite with one process and says so.
//! `cargo bench -p inkboard --bench together`.

#[allow(dead_code)]
#[path = "../tests/server/editor.rs"]
mod editor;
#[allow(dead_code)]
#[path = "../tests/server/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "../../inkboard-store/tests/suite/pg.rs"]
mod pg;
#[allow(dead_code)]
#[path = "../tests/server/web.rs"]
mod web;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use editor::Window;
use harness::{Mcp, Place, Serve};
use serde_json::json;

const AGENTS: usize = 5;
const CALLS: usize = 20;
/// Windows that move their pointer during the load (`INKBOARD_MOVERS` sets
/// another number).
fn movers() -> usize {
    number("INKBOARD_MOVERS", 10)
}

/// Editor windows on the board (`INKBOARD_EDITORS` sets another number).
fn editors() -> usize {
    number("INKBOARD_EDITORS", 50)
}

fn number(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// A process's CPU time so far (user + system) and resident memory in KiB.
fn usage(serve: &Serve) -> (Duration, u64) {
    let pid = serve.child.id();
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command's closing parenthesis: utime and stime are the
    // 12th and 13th of them, in clock ticks.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let cpu = Duration::from_secs_f64((ticks(11) + ticks(12)) as f64 / hz);
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0);
    (cpu, rss)
}

/// What the windows heard: when each object first reached each window, and how
/// long each pointer note took.
#[derive(Default)]
struct Heard {
    shapes: Vec<(String, Instant)>,
    cursors: Vec<Duration>,
}

fn main() {
    let editors = editors();
    let (place, processes, what) = match Place::postgres() {
        Some(p) => (p, 2, "PostgreSQL, 2 processes"),
        None => (Place::sqlite(), 1, "SQLite, 1 process (no PostgreSQL here)"),
    };
    println!(
        "inkboard together bench: {editors} editors and {AGENTS} agents on one board, {what}, debug={}",
        cfg!(debug_assertions)
    );
    let servers: Vec<Serve> = (0..processes).map(|_| Serve::start(&place)).collect();
    let owner = place.person("owner");
    let board = Mcp::connect(&servers[0], &owner)
        .call("create_board", json!({"title": "Together"}))
        .expect("create")["board"]
        .as_str()
        .expect("id")
        .to_string();
    let tokens: Vec<String> = (0..AGENTS)
        .map(|a| {
            let token = place.person(&format!("agent{a}"));
            place.admin(&["share", &board, &format!("agent{a}"), "editor"]);
            token
        })
        .collect();
    let mut windows: Vec<Window> = (0..editors)
        .map(|e| {
            let name = format!("editor{e}");
            place.admin(&["add-user", &name]);
            place.admin(&["share", &board, &name, "editor"]);
            let serve = &servers[e % servers.len()];
            let cookie = web::session_of(&place, serve, &name);
            let mut window = Window::open(serve, &board, &cookie).expect("a window");
            window.hello();
            window
        })
        .collect();
    println!("# {editors} windows open");

    // When each pointer note was sent, by (window, number).
    let sent_here: Mutex<HashMap<(usize, u64), Instant>> = Mutex::default();
    let sent_shape: Mutex<HashMap<String, Instant>> = Mutex::default();
    let stop = AtomicBool::new(false);
    let movers = movers();
    let before: Vec<(Duration, u64)> = servers.iter().map(usage).collect();
    let started = Instant::now();
    let heard: Vec<Heard> = std::thread::scope(|s| {
        let listening: Vec<_> = windows
            .iter_mut()
            .enumerate()
            .map(|(w, window)| {
                let (stop, sent_here) = (&stop, &sent_here);
                s.spawn(move || {
                    let mut heard = Heard::default();
                    let mut next_move = Instant::now();
                    let mut moves = 0u64;
                    let mut first_heard = std::collections::HashSet::new();
                    while !stop.load(Ordering::Relaxed) {
                        if w < movers && Instant::now() >= next_move {
                            moves += 1;
                            sent_here
                                .lock()
                                .expect("lock")
                                .insert((w, moves), Instant::now());
                            window.send(json!({"t": "here", "page": 1,
                                "cursor": [w as f64, moves as f64], "sel": [], "view": [0, 0, 800, 600]}));
                            next_move += Duration::from_millis(50);
                        }
                        // A mover wakes in time for its next move; the others
                        // only to see the stop.
                        let wait = if w < movers { 10 } else { 100 };
                        let Some(Some(m)) = window.next(Duration::from_millis(wait)) else {
                            continue;
                        };
                        let at = Instant::now();
                        match m["t"].as_str() {
                            Some("scene") => {
                                if let Some(items) = m["items"].as_object() {
                                    heard.shapes.extend(items.keys().map(|id| (id.clone(), at)));
                                }
                            }
                            Some("presence") => {
                                let cursor = &m["cursor"];
                                let key = (
                                    cursor[0].as_f64().unwrap_or(-1.0) as usize,
                                    cursor[1].as_f64().unwrap_or(0.0) as u64,
                                );
                                // A heartbeat says a pointer again: only its
                                // first arrival counts.
                                if !first_heard.insert(key) {
                                    continue;
                                }
                                if let Some(sent) = sent_here.lock().expect("lock").get(&key) {
                                    heard.cursors.push(at - *sent);
                                }
                            }
                            _ => {}
                        }
                    }
                    heard
                })
            })
            .collect();
        let agents: Vec<_> = tokens
            .iter()
            .enumerate()
            .map(|(a, token)| {
                let (serve, board, sent_shape) = (&servers[a % servers.len()], &board, &sent_shape);
                s.spawn(move || {
                    let mut mcp = Mcp::connect(serve, token);
                    for i in 0..CALLS {
                        let sent = Instant::now();
                        let made = mcp
                            .call(
                                "add_shape",
                                json!({"board": board, "page": 1, "text": format!("{a}.{i}"),
                                    "x": i * 140, "y": a * 100}),
                            )
                            .expect("add_shape");
                        let id = made["id"].as_str().expect("id").to_string();
                        sent_shape.lock().expect("lock").insert(id, sent);
                        std::thread::sleep(Duration::from_millis(100));
                    }
                })
            })
            .collect();
        for agent in agents {
            agent.join().expect("agent");
        }
        // The last shapes reach the windows.
        std::thread::sleep(Duration::from_secs(2));
        stop.store(true, Ordering::Relaxed);
        listening
            .into_iter()
            .map(|h| h.join().expect("window"))
            .collect()
    });
    let wall = started.elapsed();
    let after: Vec<(Duration, u64)> = servers.iter().map(usage).collect();

    let sent_shape = sent_shape.into_inner().expect("lock");
    let mut fan_out: Vec<Duration> = Vec::new();
    let mut missed = 0usize;
    for window in &heard {
        let mut first: HashMap<&str, Instant> = HashMap::new();
        for (id, at) in &window.shapes {
            first.entry(id.as_str()).or_insert(*at);
        }
        for (id, sent) in &sent_shape {
            match first.get(id.as_str()) {
                Some(at) => fan_out.push(at.saturating_duration_since(*sent)),
                None => missed += 1,
            }
        }
    }
    fan_out.sort();
    let mut cursors: Vec<Duration> = heard.iter().flat_map(|h| h.cursors.clone()).collect();
    cursors.sort();
    println!(
        "change fan-out ({} shapes x {editors} windows, agent's call sent -> in the window's scene): p50 {}, p99 {}, max {}; never arrived: {missed}",
        sent_shape.len(),
        ms(percentile(&fan_out, 0.5)),
        ms(percentile(&fan_out, 0.99)),
        ms(*fan_out.last().expect("some")),
    );
    println!(
        "cursor fan-out ({} notes heard from {movers} moving pointers at 20 Hz): p50 {}, p99 {}",
        cursors.len(),
        ms(percentile(&cursors, 0.5)),
        ms(percentile(&cursors, 0.99)),
    );
    for (i, (b, a)) in before.iter().zip(&after).enumerate() {
        let cpu = (a.0.saturating_sub(b.0)).as_secs_f64() / wall.as_secs_f64();
        println!(
            "process {}: CPU {:.0}% of a core over {:.1} s, resident {:.1} MiB",
            i + 1,
            cpu * 100.0,
            wall.as_secs_f64(),
            a.1 as f64 / 1024.0
        );
    }
    assert_eq!(missed, 0, "every shape reaches every window");
}
