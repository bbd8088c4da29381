//! Commits: checked against the revision inside the transaction (a stale one is a
//! conflict naming the current revision, and writes nothing), raced by threads on
//! one store and on two (every acknowledged commit present once, no revision
//! twice), and loaded back through snapshots as replaying every change gives.

use std::collections::HashSet;

use inkboard_store::{
    Author, AuthorKind, BoardId, Json, Loaded, NewChange, Options, Store, StoreError, User,
};
use serde_json::{json, Value};

use crate::common::{add, board, both, commit_retrying};

/// The toy board of these tests: `{"items": [...]}`, and a change `{"push": x}`
/// appends x. The store never reads either; only the tests replay them.
fn replay(snapshot: &Json, changes: &[inkboard_store::StoredChange]) -> Value {
    let mut doc = snapshot.to_value().unwrap();
    for c in changes {
        let pushed = c.change.to_value().unwrap()["push"].clone();
        doc["items"].as_array_mut().unwrap().push(pushed);
    }
    doc
}

fn push(
    store: &Store,
    board: &BoardId,
    user: &User,
    base: u64,
    x: Value,
) -> Result<u64, StoreError> {
    let change = Json::from_value(&json!({ "push": x }));
    store
        .commit(NewChange {
            board,
            base,
            author: Author {
                user: user.id,
                kind: AuthorKind::Person,
            },
            change: &change,
            title: None,
        })
        .map(|c| c.revision)
}

/// Every revision from 1 to `n` once, in order, and each change's payload once.
fn check_history(loaded: &Loaded, n: u64) {
    let revisions: Vec<u64> = loaded.changes.iter().map(|c| c.revision).collect();
    assert_eq!(revisions, (1..=n).collect::<Vec<_>>());
    let payloads: HashSet<String> = loaded
        .changes
        .iter()
        .map(|c| c.change.as_str().to_string())
        .collect();
    assert_eq!(payloads.len() as u64, n, "a change committed twice");
    assert_eq!(loaded.info.revision, n);
}

both! {
    fn a_stale_commit_is_a_conflict(fx) {
        let store = fx.open();
        let ana = add(&store, "Ana");
        let id = board(&store, &ana);
        assert_eq!(push(&store, &id, &ana, 0, json!("a")).unwrap(), 1);
        match push(&store, &id, &ana, 0, json!("b")) {
            Err(e @ StoreError::Conflict { expected: 0, current: 1 }) => {
                assert!(e.to_string().contains("revision 1"), "{e}");
            }
            other => panic!("expected a conflict, got {other:?}"),
        }
        // Ahead of the board is a conflict too.
        assert!(matches!(push(&store, &id, &ana, 5, json!("c")), Err(StoreError::Conflict { current: 1, .. })));
        assert_eq!(push(&store, &id, &ana, 1, json!("d")).unwrap(), 2);
        let loaded = store.load(&id).unwrap();
        assert_eq!(replay(&loaded.snapshot, &loaded.changes), json!({ "items": ["a", "d"] }));
        let first = &loaded.changes[0];
        assert_eq!((first.author.user, first.author.kind, first.author_name.as_str()), (ana.id, AuthorKind::Person, "Ana"));
        // A change renaming the board renames its listing.
        let change = Json::from_value(&json!({ "title": "Roadmap" }));
        store.commit(NewChange { board: &id, base: 2, author: Author { user: ana.id, kind: AuthorKind::Agent }, change: &change, title: Some("Roadmap") }).unwrap();
        assert_eq!(store.board(&id, ana.id).unwrap().0.title, "Roadmap");
        assert!(matches!(push(&store, &id, &ana, u64::MAX, json!("e")), Err(StoreError::RevisionRange(_))));
    }

    fn threads_racing_on_one_board(fx) {
        // Eight threads on one store, eight on a second store (its own pool, as
        // another process would have): 16 writers, 20 commits each.
        let stores = [fx.open(), fx.open()];
        let ana = add(&stores[0], "Ana");
        let id = board(&stores[0], &ana);
        let acks: Vec<(u64, String)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..16)
                .map(|w| {
                    let (store, id, ana) = (&stores[w % 2], &id, &ana);
                    s.spawn(move || {
                        (0..20)
                            .map(|i| {
                                let x = format!("{w}:{i}");
                                (commit_retrying(store, id, ana, &json!({ "push": x })), x)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
        });
        let loaded = stores[1].load(&id).unwrap();
        check_history(&loaded, 320);
        for (revision, x) in acks {
            let c = &loaded.changes[revision as usize - 1];
            assert_eq!(c.change.to_value().unwrap()["push"], json!(x), "ack {revision}");
        }
    }

    fn snapshots_load_as_replaying_everything(fx) {
        let store = fx.open_with(Options { snapshot_every: 5, ..Options::default() });
        let ana = add(&store, "Ana");
        let id = board(&store, &ana);
        let mut doc = json!({ "items": [] });
        let mut snapshots = 0;
        for i in 0..23u64 {
            let change = Json::from_value(&json!({ "push": i }));
            let done = store
                .commit(NewChange { board: &id, base: i, author: Author { user: ana.id, kind: AuthorKind::Agent }, change: &change, title: None })
                .unwrap();
            doc["items"].as_array_mut().unwrap().push(json!(i));
            assert_eq!(done.snapshot_due, done.revision.is_multiple_of(5), "revision {}", done.revision);
            if done.snapshot_due {
                assert!(store.save_snapshot(&id, done.revision, &Json::from_value(&doc)).unwrap());
                snapshots += 1;
            }
        }
        assert_eq!(snapshots, 4);
        let loaded = store.load(&id).unwrap();
        assert_eq!(loaded.snapshot_revision, 20);
        assert_eq!(loaded.changes.iter().map(|c| c.revision).collect::<Vec<_>>(), [21, 22, 23]);
        let all = store.changes_after(&id, 0, usize::MAX).unwrap();
        assert_eq!(all.len(), 23);
        let from_scratch = replay(&Json::from_value(&json!({ "items": [] })), &all);
        assert_eq!(replay(&loaded.snapshot, &loaded.changes), from_scratch);
        assert_eq!(from_scratch, doc);
        // An older snapshot is not kept; one past the board is refused.
        assert!(!store.save_snapshot(&id, 10, &Json::from_value(&doc)).unwrap());
        assert!(matches!(store.save_snapshot(&id, 24, &Json::from_value(&doc)), Err(StoreError::Invalid { .. })));
        // A page of the history.
        let page = store.changes_after(&id, 3, 2).unwrap();
        assert_eq!(page.iter().map(|c| c.revision).collect::<Vec<_>>(), [4, 5]);
    }
}
