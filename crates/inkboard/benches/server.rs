//! The team server under load, with the real parts: two `inkboard serve`
//! processes on one PostgreSQL database (the store's throwaway cluster, durable
//! settings), agents speaking MCP over HTTP with their tokens.
//!
//! - 8 agents writing 5-operation batches to one board, 4 through each process:
//!   commits per second, p50/p99 of a call's latency (the commit with its
//!   conflicts retried inside), and how many ran again;
//! - a board of 300 revisions read cold (the first read in a fresh process:
//!   snapshot plus changes replayed) and warm;
//! - memory per idle board: a process's resident memory before and after it
//!   opened 200 boards of 20 shapes each.
//!
//! Without PostgreSQL it runs on SQLite with one process and says so.
//! `cargo bench -p inkboard --bench server`.

#[allow(dead_code)]
#[path = "../tests/server/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "../../inkboard-store/tests/suite/pg.rs"]
mod pg;

use std::time::{Duration, Instant};

use harness::{Mcp, Place, Serve};
use serde_json::json;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn rss_kib(serve: &Serve) -> u64 {
    let status =
        std::fs::read_to_string(format!("/proc/{}/status", serve.child.id())).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let (place, processes, what) = match Place::postgres() {
        Some(p) => (p, 2, "PostgreSQL, 2 processes"),
        None => (Place::sqlite(), 1, "SQLite, 1 process (no PostgreSQL here)"),
    };
    println!(
        "inkboard server bench: {what}, debug={}",
        cfg!(debug_assertions)
    );
    let servers: Vec<Serve> = (0..processes).map(|_| Serve::start(&place)).collect();
    let token = place.person("bench");

    // 8 agents, one board.
    const AGENTS: usize = 8;
    const BATCHES: usize = 25;
    let board = Mcp::connect(&servers[0], &token)
        .call("create_board", json!({"title": "Load"}))
        .expect("create")["board"]
        .as_str()
        .expect("id")
        .to_string();
    let started = Instant::now();
    let mut latencies: Vec<Duration> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..AGENTS)
            .map(|a| {
                let (serve, token, board) = (&servers[a % servers.len()], &token, &board);
                s.spawn(move || {
                    let mut mcp = Mcp::connect(serve, token);
                    let mut took = Vec::with_capacity(BATCHES);
                    for b in 0..BATCHES {
                        let ops: Vec<_> = (0..5)
                            .map(|i| json!({"tool": "add_shape", "args": {"text": format!("{a}.{b}.{i}"), "x": i * 150, "y": (a * BATCHES + b) * 80}}))
                            .collect();
                        let t = Instant::now();
                        mcp.call("batch", json!({"board": board, "operations": ops}))
                            .expect("batch");
                        took.push(t.elapsed());
                    }
                    took
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("agent"))
            .collect()
    });
    let wall = started.elapsed();
    latencies.sort();
    let commits = latencies.len();
    println!(
        "{AGENTS} agents x {BATCHES} batches of 5 on one board: {commits} commits in {:.2} s = {:.0} commits/s; call p50 {}, p99 {}, max {}",
        wall.as_secs_f64(),
        commits as f64 / wall.as_secs_f64(),
        ms(percentile(&latencies, 0.5)),
        ms(percentile(&latencies, 0.99)),
        ms(*latencies.last().expect("some"))
    );

    // Read cold and warm: a fresh process's first read replays from the snapshot.
    let fresh = Serve::start(&place);
    let mut reader = Mcp::connect(&fresh, &token);
    let t = Instant::now();
    reader
        .call("read_board", json!({"board": board}))
        .expect("read");
    let cold = t.elapsed();
    let mut warm: Vec<Duration> = (0..20)
        .map(|_| {
            let t = Instant::now();
            reader
                .call("read_board", json!({"board": board}))
                .expect("read");
            t.elapsed()
        })
        .collect();
    warm.sort();
    println!(
        "read_board of a board at revision {commits} ({} objects): cold {}, warm p50 {}",
        commits * 5,
        ms(cold),
        ms(percentile(&warm, 0.5))
    );

    // Memory per idle board.
    const BOARDS: usize = 200;
    let mut maker = Mcp::connect(&servers[0], &token);
    let ids: Vec<String> = (0..BOARDS)
        .map(|i| {
            let id = maker
                .call("create_board", json!({"title": format!("Idle {i}")}))
                .expect("create")["board"]
                .as_str()
                .expect("id")
                .to_string();
            let ops: Vec<_> = (0..20)
                .map(|j| json!({"tool": "add_shape", "args": {"text": format!("note {j}")}}))
                .collect();
            maker
                .call("batch", json!({"board": id, "operations": ops}))
                .expect("batch");
            id
        })
        .collect();
    let idle = Serve::start(&place);
    let mut opener = Mcp::connect(&idle, &token);
    opener.call("list_boards", json!({})).expect("warm up");
    let before = rss_kib(&idle);
    for id in &ids {
        opener
            .call("read_board", json!({"board": id}))
            .expect("read");
    }
    std::thread::sleep(Duration::from_millis(200));
    let after = rss_kib(&idle);
    println!(
        "memory: {BOARDS} idle boards of 20 shapes held by one process: {} KiB -> {} KiB, {:.1} KiB a board",
        before,
        after,
        after.saturating_sub(before) as f64 / BOARDS as f64
    );
}
