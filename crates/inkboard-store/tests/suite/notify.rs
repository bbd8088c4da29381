//! Moved boards reach subscribers: with SQLite from the store that committed; with
//! PostgreSQL from any store on the database, through `LISTEN`/`NOTIFY`, and again
//! after the listening connection is cut (with a `Reconnected` first). Presence
//! signals reach subscribers the same ways, and are never stored.

use std::time::{Duration, Instant};

use inkboard_store::{BoardMoved, Event, Signal, StoreError, Subscription, MAX_SIGNAL_BYTES};
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

/// The next `Signal` event: anything else first fails.
fn next_signal(sub: &Subscription) -> Signal {
    match sub.recv_timeout(WAIT) {
        Some(Event::Signal(s)) => s,
        other => panic!("expected a presence signal, got {other:?}"),
    }
}

both! {
    fn a_signal_is_heard_and_not_stored(fx) {
        let store = fx.open();
        let ana = add(&store, "Ana");
        let id = board(&store, &ana);
        let sub = store.subscribe().unwrap();
        let body = r#"{"t":"presence","id":"w1","cursor":[1.5,2]}"#;
        store.signal(&id, body).unwrap();
        assert_eq!(next_signal(&sub), Signal { board: id.clone(), body: body.into() });
        // The longest body goes; one byte more is refused before it is sent.
        let longest = "x".repeat(MAX_SIGNAL_BYTES);
        store.signal(&id, &longest).unwrap();
        assert_eq!(next_signal(&sub).body.len(), MAX_SIGNAL_BYTES);
        assert!(matches!(
            store.signal(&id, &format!("{longest}x")),
            Err(StoreError::Invalid { .. })
        ));
        // A signal is no revision.
        assert_eq!(store.changes_after(&id, 0, 10).unwrap().len(), 0);
        assert_eq!(sub.recv_timeout(Duration::from_millis(300)), None);
    }

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

        // A presence signal goes from one process to the other the same way.
        here.signal(&id, "{}").unwrap();
        assert_eq!(
            next_signal(&sub),
            Signal {
                board: id.clone(),
                body: "{}".into()
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
