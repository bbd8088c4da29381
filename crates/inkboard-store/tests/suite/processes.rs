//! Two operating-system processes writing one board: this test binary run again
//! as a writer (`child_writer`, which does nothing unless started so). Each writer
//! commits `{"push": "TAG:i"}` and prints `ack REVISION TAG:i` once the store
//! acknowledged it. The board must then hold every acknowledged change, once, at
//! the revision acknowledged, with no revision twice; and so it must after one
//! writer is killed with SIGKILL in the middle of its writes.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdout, Command, Stdio};

use inkboard_store::{BoardId, Location, Store};
use serde_json::json;

use crate::common::{add, board, both, commit_retrying, name, Fixture};

/// The writer, when this binary was started as one (see `spawn`).
#[test]
fn child_writer() {
    let Ok(location) = std::env::var("INKBOARD_STORE_CHILD") else {
        return;
    };
    let var = |k: &str| std::env::var(k).expect(k);
    let location = match location.split_once(':') {
        Some(("sqlite", path)) => Location::Sqlite(path.into()),
        Some(("postgres", url)) => Location::Postgres(url.into()),
        _ => panic!("bad location {location}"),
    };
    let store = Store::open(&location, Default::default()).expect("open");
    let board = BoardId::parse(&var("INKBOARD_STORE_BOARD")).unwrap();
    let user = store.user(&name("Ana")).unwrap();
    let tag = var("INKBOARD_STORE_TAG");
    let count: u64 = var("INKBOARD_STORE_COUNT").parse().unwrap();
    let mut out = std::io::stdout().lock();
    let mut i = 0;
    while count == 0 || i < count {
        let x = format!("{tag}:{i}");
        let revision = commit_retrying(&store, &board, &user, &json!({ "push": x }));
        writeln!(out, "ack {revision} {x}").unwrap();
        out.flush().unwrap();
        i += 1;
    }
}

fn spawn(fx: &Fixture, board: &BoardId, tag: &str, count: u64) -> Child {
    let location = match fx.location() {
        Location::Sqlite(path) => format!("sqlite:{}", path.display()),
        Location::Postgres(url) => format!("postgres:{url}"),
    };
    Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "processes::child_writer",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("INKBOARD_STORE_CHILD", location)
        .env("INKBOARD_STORE_BOARD", board.as_str())
        .env("INKBOARD_STORE_TAG", tag)
        .env("INKBOARD_STORE_COUNT", count.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start a writer process")
}

/// Reads `ack` lines: until `limit` of them (if given), or to the end.
fn read_acks(
    out: &mut BufReader<ChildStdout>,
    limit: Option<usize>,
    acks: &mut Vec<(u64, String)>,
) {
    let mut line = String::new();
    let mut read = 0;
    while limit.is_none_or(|l| read < l) {
        line.clear();
        if out.read_line(&mut line).unwrap() == 0 {
            return;
        }
        // The test harness prints `test … ` before the first line, on the same one.
        if let Some(rest) = line.trim_end().split_once("ack ").map(|(_, r)| r) {
            let (rev, x) = rest.split_once(' ').unwrap();
            acks.push((rev.parse().unwrap(), x.to_string()));
            read += 1;
        }
    }
}

/// Every acknowledged change at its revision, revisions 1..=n once each, no
/// payload twice.
fn check(fx: &Fixture, board: &BoardId, acks: &[(u64, String)]) {
    let store = fx.open();
    let loaded = store.load(board).unwrap();
    let revisions: Vec<u64> = loaded.changes.iter().map(|c| c.revision).collect();
    assert_eq!(revisions, (1..=loaded.info.revision).collect::<Vec<_>>());
    let payloads: Vec<String> = loaded
        .changes
        .iter()
        .map(|c| {
            c.change.to_value().unwrap()["push"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        payloads.iter().collect::<HashSet<_>>().len(),
        payloads.len(),
        "a change twice"
    );
    for (revision, x) in acks {
        assert_eq!(
            &payloads[*revision as usize - 1],
            x,
            "acknowledged revision {revision}"
        );
    }
}

both! {
    fn two_processes_commit_to_one_board(fx) {
        let store = fx.open();
        let ana = add(&store, "Ana");
        let id = board(&store, &ana);
        let mut children: Vec<Child> = ["a", "b"].iter().map(|t| spawn(fx, &id, t, 40)).collect();
        let mut acks = Vec::new();
        for child in &mut children {
            let mut out = BufReader::new(child.stdout.take().unwrap());
            read_acks(&mut out, None, &mut acks);
            assert!(child.wait().unwrap().success());
        }
        assert_eq!(acks.len(), 80);
        check(fx, &id, &acks);
        assert_eq!(store.revision(&id).unwrap(), Some(80));
    }

    fn a_killed_writer_loses_nothing_acknowledged(fx) {
        let store = fx.open();
        let ana = add(&store, "Ana");
        let id = board(&store, &ana);
        let mut victim = spawn(fx, &id, "killed", 0);
        let mut survivor = spawn(fx, &id, "survivor", 40);
        let mut acks = Vec::new();
        let mut out = BufReader::new(victim.stdout.take().unwrap());
        read_acks(&mut out, Some(25), &mut acks);
        // SIGKILL, while it is writing: it commits in a loop without pause.
        victim.kill().unwrap();
        victim.wait().unwrap();
        // What it printed before dying was acknowledged too.
        read_acks(&mut out, None, &mut acks);
        let mut out = BufReader::new(survivor.stdout.take().unwrap());
        read_acks(&mut out, None, &mut acks);
        assert!(survivor.wait().unwrap().success());
        assert!(acks.len() >= 65, "{} acks", acks.len());
        check(fx, &id, &acks);
    }
}
