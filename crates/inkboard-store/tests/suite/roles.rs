//! Roles: a board one has no role on is the same answer as a missing board; a
//! viewer cannot commit, an editor cannot share; a board never loses its last
//! owner; and every act is in the audit log (`tests/expect/audit.txt`, the same
//! for both back ends).

use std::collections::HashMap;
use std::time::Duration;

use inkboard_store::{
    Author, AuthorKind, BoardId, Clock, Json, NewChange, Operator, Options, Role, Store,
    StoreError, Time,
};
use serde_json::json;

use crate::common::{add, board, both, expect, name};

fn change(
    store: &Store,
    board: &BoardId,
    base: u64,
    user: inkboard_store::UserId,
) -> Result<u64, StoreError> {
    let doc = Json::from_value(&json!({ "push": 1 }));
    store
        .commit(NewChange {
            board,
            base,
            author: Author {
                user,
                kind: AuthorKind::Person,
            },
            change: &doc,
            title: None,
        })
        .map(|c| c.revision)
}

both! {
    fn no_role_is_not_found(fx) {
        let store = fx.open();
        let ana = add(&store, "Ana");
        let eve = add(&store, "Eve");
        let id = board(&store, &ana);
        assert_eq!(store.role(&id, ana.id).unwrap(), Some(Role::Owner));
        assert_eq!(store.role(&id, eve.id).unwrap(), None);

        // Every caller-scoped way in answers a stranger as a missing board...
        let stranger = [
            store.board(&id, eve.id).err().map(|e| e.to_string()),
            store.load_for(&id, eve.id).err().map(|e| e.to_string()),
            store.shares(&id, Operator::Person(eve.id)).err().map(|e| e.to_string()),
            change(&store, &id, 0, eve.id).err().map(|e| e.to_string()),
            store.share(&id, &name("Eve"), Role::Owner, Operator::Person(eve.id)).err().map(|e| e.to_string()),
            store.delete_board(&id, Operator::Person(eve.id)).err().map(|e| e.to_string()),
            store.unshare(&id, &name("Eve"), Operator::Person(eve.id)).err().map(|e| e.to_string()),
        ];
        assert!(store.boards_for(eve.id).unwrap().is_empty());
        // ...word for word as the same calls on a board that is gone.
        store.delete_board(&id, Operator::Person(ana.id)).unwrap();
        let missing = [
            store.board(&id, ana.id).err().map(|e| e.to_string()),
            store.load_for(&id, ana.id).err().map(|e| e.to_string()),
            store.shares(&id, Operator::Person(ana.id)).err().map(|e| e.to_string()),
            change(&store, &id, 0, ana.id).err().map(|e| e.to_string()),
            store.share(&id, &name("Eve"), Role::Owner, Operator::Person(ana.id)).err().map(|e| e.to_string()),
            store.delete_board(&id, Operator::Person(ana.id)).err().map(|e| e.to_string()),
            store.unshare(&id, &name("Ana"), Operator::Person(ana.id)).err().map(|e| e.to_string()),
        ];
        assert_eq!(stranger, missing);
        assert!(stranger.iter().all(|e| e.as_deref() == Some(&*format!(
            "no board {id}: check the id, or ask its owner to share it with you"
        ))));
        assert!(matches!(store.load(&id), Err(StoreError::BoardNotFound(_))));
    }

    fn roles_decide_who_does_what(fx) {
        let store = fx.open();
        let ana = add(&store, "Ana");
        let bo = add(&store, "Bo");
        let cy = add(&store, "Cy");
        let id = board(&store, &ana);
        store.share(&id, &name("Bo"), Role::Viewer, Operator::Person(ana.id)).unwrap();
        store.share(&id, &name("Cy"), Role::Editor, Operator::Admin).unwrap();

        match change(&store, &id, 0, bo.id) {
            Err(StoreError::Forbidden { needed: Role::Editor, have: Role::Viewer, .. }) => {}
            other => panic!("a viewer's commit: {other:?}"),
        }
        assert_eq!(change(&store, &id, 0, cy.id).unwrap(), 1);
        assert_eq!(change(&store, &id, 1, ana.id).unwrap(), 2);
        match store.share(&id, &name("Bo"), Role::Editor, Operator::Person(cy.id)) {
            Err(e @ StoreError::Forbidden { needed: Role::Owner, have: Role::Editor, .. }) => {
                assert!(e.to_string().contains("needs the owner role"), "{e}");
            }
            other => panic!("an editor sharing: {other:?}"),
        }
        // A viewer reads, and sees who else is there.
        let (loaded, role) = store.load_for(&id, bo.id).unwrap();
        assert_eq!((loaded.info.revision, role), (2, Role::Viewer));
        let shares: Vec<(String, Role)> = store
            .shares(&id, Operator::Person(bo.id))
            .unwrap()
            .into_iter()
            .map(|s| (s.name.to_string(), s.role))
            .collect();
        assert_eq!(shares, [("Ana".into(), Role::Owner), ("Bo".into(), Role::Viewer), ("Cy".into(), Role::Editor)]);
        let listed: Vec<_> = store.boards_for(cy.id).unwrap().into_iter().map(|(b, r)| (b.id, r)).collect();
        assert_eq!(listed, [(id.clone(), Role::Editor)]);

        // Unshared, Bo is a stranger again; anyone may leave.
        assert!(store.unshare(&id, &name("Bo"), Operator::Person(ana.id)).unwrap());
        assert!(!store.unshare(&id, &name("Bo"), Operator::Person(ana.id)).unwrap());
        assert!(matches!(store.board(&id, bo.id), Err(StoreError::BoardNotFound(_))));
        assert!(store.unshare(&id, &name("Cy"), Operator::Person(cy.id)).unwrap());
        assert!(matches!(change(&store, &id, 2, cy.id), Err(StoreError::BoardNotFound(_))));
        assert!(matches!(
            store.share(&id, &name("Nobody"), Role::Viewer, Operator::Admin),
            Err(StoreError::UserNotFound(_))
        ));
    }

    fn a_board_keeps_an_owner(fx) {
        let store = fx.open();
        let ana = add(&store, "Ana");
        add(&store, "Bo");
        let id = board(&store, &ana);
        let last = |r: Result<_, StoreError>| matches!(r, Err(StoreError::LastOwner { .. }));
        assert!(last(store.unshare(&id, &name("Ana"), Operator::Person(ana.id)).map(|_| ())));
        assert!(last(store.share(&id, &name("Ana"), Role::Editor, Operator::Admin).map(|_| ())));
        match store.remove_user(&name("Ana"), Operator::Admin) {
            Err(StoreError::SoleOwner { boards, .. }) => assert_eq!(boards, std::slice::from_ref(&id)),
            other => panic!("removing the sole owner: {other:?}"),
        }
        // With a second owner, the first may go.
        store.share(&id, &name("Bo"), Role::Owner, Operator::Person(ana.id)).unwrap();
        store.share(&id, &name("Ana"), Role::Viewer, Operator::Admin).unwrap();
        store.remove_user(&name("Ana"), Operator::Admin).unwrap();
        assert_eq!(store.role(&id, ana.id).unwrap(), None);
    }

    fn every_act_is_audited(fx) {
        let clock = Clock::manual(Time(1_700_000_000_000));
        let store = fx.open_with(Options { clock: clock.clone(), ..Options::default() });
        let tick = || clock.advance(Duration::from_secs(1));
        let ana = add(&store, "Ana");
        tick();
        add(&store, "Bo");
        tick();
        let id = board(&store, &ana);
        tick();
        store.share(&id, &name("Bo"), Role::Editor, Operator::Person(ana.id)).unwrap();
        // Sharing the role one already has changes nothing and says nothing.
        store.share(&id, &name("Bo"), Role::Editor, Operator::Person(ana.id)).unwrap();
        tick();
        let (token, _) = store.create_token(&name("Bo"), "agent", Operator::Admin).unwrap();
        store.revoke_token(token.id, Operator::Admin).unwrap();
        store.revoke_token(token.id, Operator::Admin).unwrap();
        tick();
        let (link, _) = store.create_link(&name("Bo"), Duration::from_secs(60), Operator::Admin).unwrap();
        store.revoke_link(link.id, Operator::Admin).unwrap();
        let (_, used) = store.create_link(&name("Bo"), Duration::from_secs(60), Operator::Admin).unwrap();
        store.redeem_link(used.expose()).unwrap();
        tick();
        store.unshare(&id, &name("Bo"), Operator::Admin).unwrap();
        store.share(&id, &name("Bo"), Role::Viewer, Operator::Admin).unwrap();
        store.create_token(&name("Bo"), "second", Operator::Admin).unwrap();
        store.remove_user(&name("Bo"), Operator::Admin).unwrap();
        store.delete_board(&id, Operator::Person(ana.id)).unwrap();

        // Board ids are random: each is written as the order it first appears in.
        let mut boards: HashMap<String, String> = HashMap::new();
        let mut out = String::new();
        let start = 1_700_000_000_000;
        for e in store.audit(100).unwrap().into_iter().rev() {
            let board = e.board.map(|b| {
                let n = boards.len() + 1;
                boards.entry(b.to_string()).or_insert_with(|| format!("board{n}")).clone()
            });
            out.push_str(&format!(
                "+{}s {} {} board={} subject={} role={} detail={}\n",
                (e.time.0 - start) / 1000,
                e.actor.map_or("admin".to_string(), |a| a.to_string()),
                e.action.as_str(),
                board.unwrap_or_default(),
                e.subject.map(|s| s.to_string()).unwrap_or_default(),
                e.role.map(|r| r.as_str()).unwrap_or_default(),
                e.detail.unwrap_or_default(),
            ));
        }
        expect("audit.txt", &out);
    }
}
