//! People, tokens, sign-in links and sessions: names checked at the boundary,
//! tokens that name their person until revoked, links that work once and expire,
//! sessions that end, and secrets that never reach the database in plain text.

use std::time::Duration;

use inkboard_store::{Clock, Operator, Options, SecretKind, StoreError, Time, UserName};

use crate::common::{add, both, name};

/// A store on a clock that moves only when told.
fn manual(fx: &crate::common::Fixture) -> (inkboard_store::Store, Clock) {
    let clock = Clock::manual(Time(1_700_000_000_000));
    let store = fx.open_with(Options {
        clock: clock.clone(),
        ..Options::default()
    });
    (store, clock)
}

/// Names: each input and what the check answers, one case a line, in
/// `tests/expect/names.txt`.
#[test]
fn names_are_checked() {
    let cases = [
        "Ana",
        "Ana Lima",
        "李雷",
        "o'Brien-2",
        "",
        " Ana",
        "Ana ",
        "Ana\nLima",
        "A\u{202E}na",
        "zero\u{200B}width",
        &"x".repeat(64),
        &"x".repeat(65),
    ];
    let mut out = String::new();
    for case in cases {
        let answer = match UserName::parse(case) {
            Ok(n) => format!("ok {n}"),
            Err(e) => format!("refused: {e}"),
        };
        out.push_str(&format!("{case:?} -> {answer}\n"));
    }
    crate::common::expect("names.txt", &out);
}

both! {
    fn people_are_added_listed_and_removed(fx) {
        let store = fx.open();
        let ana = add(&store, "Ana");
        add(&store, "Bo");
        assert!(matches!(
            store.add_user(&name("Ana"), Operator::Admin),
            Err(StoreError::UserExists(_))
        ));
        let names: Vec<String> = store.users().unwrap().iter().map(|u| u.name.to_string()).collect();
        assert_eq!(names, ["Ana", "Bo"]);
        assert_eq!(store.user(&name("Ana")).unwrap(), ana);

        let removed = store.remove_user(&name("Ana"), Operator::Admin).unwrap();
        assert!(removed.removed.is_some());
        assert!(matches!(store.user(&name("Ana")), Err(StoreError::UserNotFound(_))));
        assert!(matches!(
            store.remove_user(&name("Ana"), Operator::Admin),
            Err(StoreError::UserNotFound(_))
        ));
        // The name is free again, for someone new.
        let again = add(&store, "Ana");
        assert_ne!(again.id, ana.id);
        assert_eq!(store.users().unwrap().len(), 3);
        assert!(store.user_by_id(ana.id).unwrap().unwrap().removed.is_some());
    }

    fn tokens_name_their_person_until_revoked(fx) {
        let (store, clock) = manual(fx);
        let ana = add(&store, "Ana");
        let bo = add(&store, "Bo");
        let (info, secret) = store.create_token(&name("Ana"), "laptop agent", Operator::Admin).unwrap();
        let token = secret.expose().to_string();
        assert!(token.starts_with(SecretKind::Token.prefix()), "{token}");
        assert_eq!(token.len(), 4 + 43);
        assert!(!format!("{secret:?}").contains(&token[4..]), "Debug hides the secret");

        assert_eq!(store.check_token(&token).unwrap().map(|u| u.id), Some(ana.id));
        // Another token of the same shape, a cut one, garbage: nobody.
        let mut forged = token.clone();
        forged.pop();
        forged.push(if token.ends_with('A') { 'B' } else { 'A' });
        for wrong in [forged.as_str(), &token[..20], "", "Bearer x", &token[4..]] {
            assert_eq!(store.check_token(wrong).unwrap(), None, "{wrong:?}");
        }

        // Its last use is noted, at most once a minute.
        let listed = store.tokens(Some(&name("Ana"))).unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].last_used, Some(clock.now()));
        let first = clock.now();
        clock.advance(Duration::from_secs(30));
        store.check_token(&token).unwrap();
        assert_eq!(store.tokens(None).unwrap()[0].last_used, Some(first));
        clock.advance(Duration::from_secs(31));
        store.check_token(&token).unwrap();
        assert_eq!(store.tokens(None).unwrap()[0].last_used, Some(clock.now()));

        // Only its person or the administrator revokes it.
        assert!(matches!(
            store.revoke_token(info.id, Operator::Person(bo.id)),
            Err(StoreError::TokenNotFound(_))
        ));
        assert_eq!(store.check_token(&token).unwrap().map(|u| u.id), Some(ana.id));
        let revoked = store.revoke_token(info.id, Operator::Person(ana.id)).unwrap();
        assert!(revoked.revoked.is_some());
        assert_eq!(store.check_token(&token).unwrap(), None);
        // Again: nothing more happens.
        assert_eq!(store.revoke_token(info.id, Operator::Admin).unwrap().revoked, revoked.revoked);
        assert!(matches!(store.revoke_token(999, Operator::Admin), Err(StoreError::TokenNotFound(999))));

        // A removed person's tokens stop working.
        let (_, second) = store.create_token(&name("Bo"), "", Operator::Admin).unwrap();
        assert!(store.check_token(second.expose()).unwrap().is_some());
        store.remove_user(&name("Bo"), Operator::Admin).unwrap();
        assert_eq!(store.check_token(second.expose()).unwrap(), None);
        assert!(store.tokens(None).unwrap().iter().all(|t| t.revoked.is_some()));
    }

    fn links_work_once_and_expire(fx) {
        let (store, clock) = manual(fx);
        let ana = add(&store, "Ana");
        let ttl = Duration::from_secs(15 * 60);

        let (info, link) = store.create_link(&name("Ana"), ttl, Operator::Admin).unwrap();
        assert!(link.expose().starts_with("inkl_"));
        assert_eq!(info.expires, clock.now().plus(ttl));
        let (session, cookie) = store.redeem_link(link.expose()).unwrap();
        assert_eq!(session.user.id, ana.id);
        assert!(matches!(store.redeem_link(link.expose()), Err(StoreError::InvalidLink)));
        assert!(store.links(None).unwrap()[0].used.is_some());
        assert_eq!(store.check_session(cookie.expose()).unwrap().unwrap().user.id, ana.id);

        // Expired: refused the same way, a millisecond past its time.
        let (_, late) = store.create_link(&name("Ana"), ttl, Operator::Admin).unwrap();
        clock.advance(ttl);
        assert!(matches!(store.redeem_link(late.expose()), Err(StoreError::InvalidLink)));

        // Revoked.
        let (info, revoked) = store.create_link(&name("Ana"), ttl, Operator::Admin).unwrap();
        store.revoke_link(info.id, Operator::Admin).unwrap();
        assert!(matches!(store.redeem_link(revoked.expose()), Err(StoreError::InvalidLink)));

        // A token is not a link, nor is garbage.
        let (_, token) = store.create_token(&name("Ana"), "", Operator::Admin).unwrap();
        for wrong in [token.expose(), "", "inkl_x"] {
            assert!(matches!(store.redeem_link(wrong), Err(StoreError::InvalidLink)));
        }
        for ttl in [Duration::ZERO, Duration::from_secs(8 * 24 * 3600)] {
            assert!(matches!(
                store.create_link(&name("Ana"), ttl, Operator::Admin),
                Err(StoreError::Invalid { .. })
            ));
        }
    }

    fn a_link_redeemed_twice_at_once_signs_in_once(fx) {
        let store = fx.open();
        add(&store, "Ana");
        for _ in 0..5 {
            let (_, link) = store
                .create_link(&name("Ana"), Duration::from_secs(60), Operator::Admin)
                .unwrap();
            let results: Vec<bool> = std::thread::scope(|s| {
                let hs: Vec<_> = (0..4)
                    .map(|_| s.spawn(|| store.redeem_link(link.expose()).is_ok()))
                    .collect();
                hs.into_iter().map(|h| h.join().unwrap()).collect()
            });
            assert_eq!(results.iter().filter(|ok| **ok).count(), 1, "{results:?}");
        }
    }

    fn sessions_end_and_expire(fx) {
        let (store, clock) = manual(fx);
        add(&store, "Ana");
        let ttl = store_session_ttl();
        let mut sessions = Vec::new();
        for _ in 0..2 {
            let (_, link) = store.create_link(&name("Ana"), Duration::from_secs(60), Operator::Admin).unwrap();
            sessions.push(store.redeem_link(link.expose()).unwrap().1);
        }
        let (ended, expiring) = (&sessions[0], &sessions[1]);
        assert!(store.end_session(ended.expose()).unwrap());
        assert!(!store.end_session(ended.expose()).unwrap());
        assert_eq!(store.check_session(ended.expose()).unwrap(), None);
        assert!(store.check_session(expiring.expose()).unwrap().is_some());
        assert_eq!(store.check_session("inks_nonsense").unwrap(), None);
        clock.advance(ttl);
        assert_eq!(store.check_session(expiring.expose()).unwrap(), None);
        // A removed person's sessions end with them.
        let (_, link) = store.create_link(&name("Ana"), Duration::from_secs(60), Operator::Admin).unwrap();
        let (_, fresh) = store.redeem_link(link.expose()).unwrap();
        store.remove_user(&name("Ana"), Operator::Admin).unwrap();
        assert_eq!(store.check_session(fresh.expose()).unwrap(), None);
    }

    fn secrets_are_stored_hashed(fx) {
        let store = fx.open();
        add(&store, "Ana");
        let (_, token) = store.create_token(&name("Ana"), "agent", Operator::Admin).unwrap();
        let (_, link) = store.create_link(&name("Ana"), Duration::from_secs(60), Operator::Admin).unwrap();
        let (_, unused) = store.create_link(&name("Ana"), Duration::from_secs(60), Operator::Admin).unwrap();
        let (_, session) = store.redeem_link(link.expose()).unwrap();
        assert!(store.check_token(token.expose()).unwrap().is_some());
        let dump = fx.dump();
        // The dump is real: the label and the name are in it.
        assert!(dump.contains("agent") && dump.contains("Ana"));
        for secret in [&token, &link, &unused, &session] {
            let text = secret.expose();
            let body = &text[text.find('_').unwrap() + 1..];
            assert!(!dump.contains(text), "{secret:?} stored in plain text");
            assert!(!dump.contains(body), "{secret:?}'s random part stored in plain text");
        }
    }
}

fn store_session_ttl() -> Duration {
    Options::default().session_ttl
}
