//! What a commit costs (plain `std::time`, like the other benches of the house):
//! 8 writer threads committing ~600-byte changes through one store, to one board
//! (every writer racing for the next revision: a conflict is retried on the
//! revision it names, and its latency counts from the first try) and to a board
//! each, on SQLite (a temporary file, `synchronous=FULL`) and on PostgreSQL (a
//! throwaway cluster with PostgreSQL's durable defaults, skipped with a note when
//! PostgreSQL is not installed). A snapshot of ~60 KB is saved whenever a commit
//! asks for one (every 100 changes). Prints commits per second and the p50 and
//! p99 latency of a commit.
//!
//! Run with `cargo bench -p inkboard-store --bench commit`;
//! `INKBOARD_BENCH_COMMITS=N` sets the commits per writer (default 200).

#[allow(dead_code)]
#[path = "../tests/suite/pg.rs"]
mod pg;

use std::time::{Duration, Instant};

use inkboard_store::{
    Author, AuthorKind, BoardId, Json, Location, NewBoard, NewChange, Operator, Options, Store,
    StoreError, User, UserName,
};
use serde_json::json;

const WRITERS: usize = 8;

fn main() {
    let per_writer: usize = std::env::var("INKBOARD_BENCH_COMMITS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    println!(
        "{:<11} {:<13} {:>8} {:>9} {:>10} {:>9} {:>9} {:>10}",
        "back end", "boards", "commits", "seconds", "commits/s", "p50 ms", "p99 ms", "conflicts"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let sqlite = Location::in_data_dir(dir.path());
    run("SQLite", &sqlite, per_writer);
    match pg::start(true) {
        Ok(cluster) => {
            let url = cluster.new_database();
            run("PostgreSQL", &Location::Postgres(url), per_writer);
        }
        Err(why) => println!("PostgreSQL  SKIPPED: {why}"),
    }
}

fn run(name: &str, location: &Location, per_writer: usize) {
    let store = Store::open(location, Options::default()).expect("open");
    let user = store
        .add_user(
            &UserName::parse(&format!("bench{}", store.users().unwrap().len())).unwrap(),
            Operator::Admin,
        )
        .expect("user");
    let shared = new_board(&store, &user);
    let one: Vec<BoardId> = vec![shared; WRITERS];
    report(
        name,
        "one, shared",
        &measure(&store, &user, &one, per_writer),
    );
    let own: Vec<BoardId> = (0..WRITERS).map(|_| new_board(&store, &user)).collect();
    report(name, "one each", &measure(&store, &user, &own, per_writer));
}

struct Run {
    elapsed: Duration,
    latencies: Vec<Duration>,
    conflicts: usize,
}

fn measure(store: &Store, user: &User, boards: &[BoardId], per_writer: usize) -> Run {
    let started = Instant::now();
    let results: Vec<(Vec<Duration>, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = boards
            .iter()
            .enumerate()
            .map(|(w, board)| s.spawn(move || writer(store, user, board, w, per_writer)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("writer"))
            .collect()
    });
    let elapsed = started.elapsed();
    let mut latencies: Vec<Duration> = results.iter().flat_map(|r| r.0.clone()).collect();
    latencies.sort();
    Run {
        elapsed,
        latencies,
        conflicts: results.iter().map(|r| r.1).sum(),
    }
}

/// One writer: `n` commits, each retried on conflicts until it lands.
fn writer(
    store: &Store,
    user: &User,
    board: &BoardId,
    w: usize,
    n: usize,
) -> (Vec<Duration>, usize) {
    let snapshot = Json::from_value(&document(300));
    let mut latencies = Vec::with_capacity(n);
    let mut conflicts = 0;
    let mut base = store.revision(board).expect("revision").expect("board");
    for i in 0..n {
        let change = Json::from_value(&change(w, i));
        let started = Instant::now();
        let done = loop {
            let c = NewChange {
                board,
                base,
                author: Author {
                    user: user.id,
                    kind: AuthorKind::Agent,
                },
                change: &change,
                title: None,
            };
            match store.commit(c) {
                Ok(done) => break done,
                Err(StoreError::Conflict { current, .. }) => {
                    conflicts += 1;
                    base = current;
                }
                Err(e) => panic!("commit: {e}"),
            }
        };
        latencies.push(started.elapsed());
        base = done.revision;
        if done.snapshot_due {
            store
                .save_snapshot(board, done.revision, &snapshot)
                .expect("snapshot");
        }
    }
    (latencies, conflicts)
}

fn new_board(store: &Store, user: &User) -> BoardId {
    let doc = Json::from_value(&document(300));
    store
        .create_board(NewBoard {
            title: "bench",
            owner: user.id,
            revision: 0,
            snapshot: &doc,
        })
        .expect("board")
        .id
}

/// A change as the engine will commit one: an object's before and after.
fn change(w: usize, i: usize) -> serde_json::Value {
    let object = |x: usize| {
        json!({"id": format!("s{w}_{i}"), "type": "shape", "geom": "rounded",
               "x": x, "y": 40, "w": 160, "h": 80, "text": "A step of the plan",
               "style": {"fill": "light-blue", "stroke": "blue", "font_size": 16}})
    };
    json!({"steps": [{"op": "replace", "page": "p1", "index": i % 300,
                      "before": object(i), "after": object(i + 10)}]})
}

/// A board document of `n` shapes (about 200 bytes each).
fn document(n: usize) -> serde_json::Value {
    let objects: Vec<_> = (0..n)
        .map(|i| {
            json!({"id": format!("s{i}"), "type": "shape", "geom": "rect",
                         "x": (i % 20) * 200, "y": (i / 20) * 150, "w": 160, "h": 80,
                         "text": format!("Step {i}"), "style": {"fill": "light-yellow"}})
        })
        .collect();
    json!({"format": "inkboard", "version": 3, "title": "bench", "revision": 0,
           "next_id": n + 1, "pages": [{"id": "p1", "name": "Page 1", "objects": objects}]})
}

fn report(backend: &str, boards: &str, run: &Run) {
    let n = run.latencies.len();
    let at = |q: f64| run.latencies[((n as f64 * q) as usize).min(n - 1)].as_secs_f64() * 1000.0;
    println!(
        "{:<11} {:<13} {:>8} {:>9.2} {:>10.0} {:>9.2} {:>9.2} {:>10}",
        backend,
        boards,
        n,
        run.elapsed.as_secs_f64(),
        n as f64 / run.elapsed.as_secs_f64(),
        at(0.50),
        at(0.99),
        run.conflicts
    );
}
