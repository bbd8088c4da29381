//! Moved boards reach subscribers: with SQLite from the store that committed; with
//! PostgreSQL from any store on the database, through `LISTEN`/`NOTIFY`, and again
//! after the listening connection is cut (with a `Reconnected` first).

use std::time::{Duration, Instant};

use inkboard_store::{BoardMoved, Event, Subscription};
use serde_json::json;

use crate::common::{add, board, both, commit_retrying, Fixture};

const WAIT: Duration = Duration::from_secs(10);

/// The next `Moved` event, skipping none: anything else first fails.
fn next_moved(sub: &Subscription) -> BoardMoved {
    match sub.recv_timeout(WAIT) {
        Some(Event::Moved(m)) => m,
        other => panic!("expected a moved board, got {other:?}"),
    }
}

both! {
    fn a_commit_is_heard(fx) {
        let store = fx.open();
        let ana = add(&store, "Ana");
        let id = board(&store, &ana);
        let sub = store.subscribe().unwrap();
        let second = store.subscribe().unwrap();
        let revision = commit_retrying(&store, &id, &ana, &json!({ "push": 1 }));
        let moved = BoardMoved { board: id.clone(), revision };
        assert_eq!(next_moved(&sub), moved);
        assert_eq!(next_moved(&second), moved);
        // A dropped subscription does not stop the others.
        drop(second);
        let revision = commit_retrying(&store, &id, &ana, &json!({ "push": 2 }));
        assert_eq!(next_moved(&sub), BoardMoved { board: id, revision });
        assert_eq!(sub.try_recv(), None);
    }
}

mod postgres_only {
    use super::*;

    #[test]
    fn another_process_hears_a_commit() {
        let Some(fx) = Fixture::postgres() else {
            return;
        };
        // Two stores stand for two `serve` processes: separate pools, separate
        // listening connections.
        let (here, there) = (fx.open(), fx.open());
        let ana = add(&here, "Ana");
        let id = board(&here, &ana);
        let sub = there.subscribe().unwrap();
        let revision = commit_retrying(&here, &id, &ana, &json!({ "push": 1 }));
        assert_eq!(
            next_moved(&sub),
            BoardMoved {
                board: id.clone(),
                revision
            }
        );

        // Cut the listening connection from the server side, as a restart or a
        // network failure would: the listener comes back and says so.
        let url = match &fx.kind {
            crate::common::Kind::Postgres(url) => url.clone(),
            crate::common::Kind::Sqlite(_) => unreachable!(),
        };
        let mut admin = ::postgres::Client::connect(&url, ::postgres::NoTls).unwrap();
        let cut = admin
            .query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE datname = current_database() AND query LIKE 'LISTEN%'",
                &[],
            )
            .unwrap();
        assert_eq!(cut.len(), 1, "one listening connection");
        let started = Instant::now();
        match sub.recv_timeout(WAIT) {
            Some(Event::Reconnected) => {}
            other => panic!("expected Reconnected, got {other:?}"),
        }
        assert!(started.elapsed() < WAIT);
        let revision = commit_retrying(&here, &id, &ana, &json!({ "push": 2 }));
        assert_eq!(
            next_moved(&sub),
            BoardMoved {
                board: id,
                revision
            }
        );
    }
}
