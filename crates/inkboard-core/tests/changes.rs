//! The change log: a commit summed up per record (first before, last after), and
//! the same summary between two boards.

mod common;

use common::*;
use inkboard_core::{
    diff_boards, Actor, Change, ChangeKind, Commit, IdKind, Kind, ObjectId, PageId, Transaction,
};

/// The change log entries as (kind, page, object id or page name), easy to compare.
fn summary(changes: &[Change]) -> Vec<(ChangeKind, PageId, String)> {
    changes
        .iter()
        .map(|c| {
            let what = match (&c.id, &c.page_name) {
                (Some(id), _) => id.to_string(),
                (None, Some(name)) => format!("page {name}"),
                (None, None) => panic!("a change names neither object nor page: {c:?}"),
            };
            (c.kind, c.page, what)
        })
        .collect()
}

fn commit(s: &mut Sample, f: impl FnOnce(&mut Transaction<'_>, &Sample)) -> Commit {
    let copy = s.clone();
    let mut tx = Transaction::begin(&mut s.board);
    f(&mut tx, &copy);
    tx.commit(Actor::Agent).unwrap().unwrap()
}

fn set_text(tx: &mut Transaction<'_>, id: &ObjectId, text: &str) {
    tx.edit(id, |o| {
        if let Kind::Shape(sh) = &mut o.kind {
            sh.text = text.to_string();
        }
    })
    .unwrap();
}

#[test]
fn added_then_updated_is_added_with_the_last_version() {
    let mut s = sample();
    let mut new = None;
    let commit = commit(&mut s, |tx, s| {
        let id = tx.new_id(IdKind::Shape);
        tx.insert(s.p1, None, shape(&id, "first")).unwrap();
        set_text(tx, &id, "second");
        new = Some(id);
    });
    let id = new.unwrap();
    let changes = commit.changes();
    assert_eq!(
        summary(&changes),
        [(ChangeKind::Added, s.p1, id.to_string())]
    );
    assert_eq!(changes[0].object, s.board.object(&id).cloned());
    assert_eq!(changes[0].revision, commit.revision);
    assert_eq!(changes[0].by, Actor::Agent);
}

#[test]
fn added_then_removed_is_nothing() {
    let mut s = sample();
    let commit = commit(&mut s, |tx, s| {
        let id = tx.new_id(IdKind::Shape);
        tx.insert(s.p1, Some(0), shape(&id, "brief")).unwrap();
        set_text(tx, &id, "briefer");
        tx.remove(&id).unwrap();
        // Something must remain for the commit to exist.
        tx.set_title("t").unwrap();
    });
    assert_eq!(commit.changes(), []);
}

#[test]
fn updated_back_to_the_original_is_nothing() {
    let mut s = sample();
    let commit = commit(&mut s, |tx, s| {
        set_text(tx, &s.c, "changed");
        set_text(tx, &s.c, "c");
        // Something must remain for the commit to exist.
        set_text(tx, &s.a, "a1");
    });
    assert_eq!(commit.steps.len(), 3);
    assert_eq!(
        summary(&commit.changes()),
        [(ChangeKind::Updated, s.p1, s.a.to_string())]
    );
}

/// Runs `f` in a transaction and commits it: `None` when it changed nothing.
fn try_commit(s: &mut Sample, f: impl FnOnce(&mut Transaction<'_>, &Sample)) -> Option<Commit> {
    let copy = s.clone();
    let mut tx = Transaction::begin(&mut s.board);
    f(&mut tx, &copy);
    tx.commit(Actor::Agent).unwrap()
}

#[test]
fn steps_that_cancel_out_commit_nothing_and_keep_the_revision() {
    type Edit = fn(&mut Transaction<'_>, &Sample);
    let cases: [(&str, Edit); 6] = [
        ("a page added and deleted", |tx, _| {
            let p = tx.add_page("Brief", None).unwrap();
            tx.remove_page(p).unwrap();
        }),
        ("a page renamed and renamed back", |tx, s| {
            tx.rename_page(s.p1, "Other").unwrap();
            tx.rename_page(s.p1, "One").unwrap();
        }),
        ("a page deleted and put back", |tx, s| {
            let page = tx.remove_page(s.p2).unwrap();
            tx.apply_steps(&[inkboard_core::Step::InsertPage { index: 1, page }])
                .unwrap();
        }),
        ("an object updated and back", |tx, s| {
            set_text(tx, &s.c, "changed");
            set_text(tx, &s.c, "c");
        }),
        ("an object brought to the front and back", |tx, s| {
            tx.reorder(&s.a, 4).unwrap();
            tx.reorder(&s.a, 0).unwrap();
        }),
        ("a title changed and back", |tx, _| {
            tx.set_title("Other").unwrap();
            tx.set_title("Sample").unwrap();
        }),
    ];
    for (what, edit) in cases {
        let mut s = sample();
        let (before, revision) = (s.board.clone(), s.board.revision());
        assert_eq!(try_commit(&mut s, edit), None, "{what}");
        assert_eq!(s.board, before, "{what}");
        assert_eq!(
            s.board.revision(),
            revision,
            "{what}: no revision is used up"
        );
    }
}

#[test]
fn a_change_of_z_order_alone_names_the_object_moved() {
    let mut s = sample();
    // Page 1 holds a, b, c, link, grp (bottom first).
    let to_front = commit(&mut s, |tx, s| tx.reorder(&s.a, 4).unwrap());
    let changes = to_front.changes();
    assert_eq!(
        summary(&changes),
        [(ChangeKind::Updated, s.p1, s.a.to_string())]
    );
    assert_eq!(changes[0].object, s.board.object(&s.a).cloned());
    let to_back = commit(&mut s, |tx, s| tx.reorder(&s.grp, 0).unwrap());
    assert_eq!(
        summary(&to_back.changes()),
        [(ChangeKind::Updated, s.p1, s.grp.to_string())]
    );
    // An object edited and moved is one update.
    let both = commit(&mut s, |tx, s| {
        set_text(tx, &s.c, "edited");
        tx.reorder(&s.c, 0).unwrap();
    });
    assert_eq!(
        summary(&both.changes()),
        [(ChangeKind::Updated, s.p1, s.c.to_string())]
    );
}

#[test]
fn a_change_of_page_order_or_of_a_page_s_unknown_fields_names_the_page() {
    let mut s = sample();
    // Page Two first: another version of the board, as a file would bring it.
    let mut other = s.board.clone();
    let mut tx = Transaction::begin(&mut other);
    let two = tx.remove_page(s.p2).unwrap();
    tx.apply_steps(&[inkboard_core::Step::InsertPage {
        index: 0,
        page: two,
    }])
    .unwrap();
    tx.commit(Actor::User).unwrap();
    let old = s.board.clone();
    let moved = commit(&mut s, |tx, _| tx.rewrite_to(&other).unwrap());
    assert_eq!(
        summary(&moved.changes()),
        [(ChangeKind::Updated, s.p2, "page Two".to_string())],
        "of two pages swapped, one is named"
    );
    assert_eq!(
        summary(&diff_boards(&old, &s.board, 9, Actor::User)),
        summary(&moved.changes()),
    );

    let mut tagged = s.board.clone();
    let mut page = tagged.pages()[1].clone();
    page.extra.insert("tag".into(), "\"x\"".into());
    let mut tx = Transaction::begin(&mut tagged);
    let index = 1;
    let removed = tx.remove_page(page.id).unwrap();
    page.objects = removed.objects;
    tx.apply_steps(&[inkboard_core::Step::InsertPage { index, page }])
        .unwrap();
    tx.commit(Actor::User).unwrap();
    let old = s.board.clone();
    let tagging = commit(&mut s, |tx, _| tx.rewrite_to(&tagged).unwrap());
    assert_eq!(
        summary(&tagging.changes()),
        [(ChangeKind::Updated, s.p1, "page One".to_string())]
    );
    assert_eq!(
        summary(&diff_boards(&old, &s.board, 9, Actor::User)),
        summary(&tagging.changes()),
    );
}

#[test]
fn updated_twice_is_one_update_with_the_last_version() {
    let mut s = sample();
    let commit = commit(&mut s, |tx, s| {
        set_text(tx, &s.c, "one");
        set_text(tx, &s.a, "a1");
        set_text(tx, &s.c, "two");
    });
    let changes = commit.changes();
    assert_eq!(
        summary(&changes),
        [
            (ChangeKind::Updated, s.p1, s.c.to_string()),
            (ChangeKind::Updated, s.p1, s.a.to_string()),
        ],
        "in the order first touched"
    );
    assert_eq!(changes[0].object, s.board.object(&s.c).cloned());
}

#[test]
fn removed_carries_no_object() {
    let mut s = sample();
    let commit = commit(&mut s, |tx, s| {
        set_text(tx, &s.c, "edited before it goes");
        tx.remove(&s.c).unwrap();
    });
    let changes = commit.changes();
    assert_eq!(
        summary(&changes),
        [(ChangeKind::Removed, s.p1, s.c.to_string())]
    );
    assert_eq!(changes[0].object, None);
}

#[test]
fn a_move_to_another_page_is_an_update_on_the_new_page() {
    let mut s = sample();
    let commit = commit(&mut s, |tx, s| {
        let o = tx.remove(&s.c).unwrap();
        tx.insert(s.p2, None, o).unwrap();
    });
    assert_eq!(
        summary(&commit.changes()),
        [(ChangeKind::Updated, s.p2, s.c.to_string())]
    );
}

#[test]
fn pages_added_renamed_and_removed_are_reported_with_their_names() {
    let mut s = sample();
    let mut added = None;
    let commit = commit(&mut s, |tx, s| {
        added = Some(tx.add_page("Fresh", None).unwrap());
        tx.rename_page(s.p1, "First").unwrap();
        tx.remove_page(s.p2).unwrap();
    });
    let added = added.unwrap();
    assert_eq!(
        summary(&commit.changes()),
        [
            (ChangeKind::Added, added, "page Fresh".to_string()),
            (ChangeKind::Updated, s.p1, "page First".to_string()),
            (ChangeKind::Removed, s.p2, "page Two".to_string()),
            // The objects of a removed page go with it.
            (ChangeKind::Removed, s.p2, s.d.to_string()),
        ]
    );
}

#[test]
fn a_title_change_is_not_an_entry() {
    let mut s = sample();
    let commit = commit(&mut s, |tx, _| tx.set_title("Other").unwrap());
    assert_eq!(commit.changes(), []);
}

#[test]
fn undoing_a_page_removal_reports_its_objects_added_again() {
    let mut s = sample();
    let removal = commit(&mut s, |tx, s| {
        tx.remove_page(s.p2).unwrap();
    });
    let mut tx = Transaction::begin(&mut s.board);
    tx.apply_steps(&removal.inverse_steps()).unwrap();
    let undo = tx.commit(Actor::User).unwrap().unwrap();
    assert_eq!(
        summary(&undo.changes()),
        [
            (ChangeKind::Added, s.p2, "page Two".to_string()),
            (ChangeKind::Added, s.p2, s.d.to_string()),
        ]
    );
}

#[test]
fn diff_boards_finds_objects_and_pages_added_updated_and_removed() {
    let mut s = sample();
    let old = s.board.clone();
    let mut fresh = None;
    let mut page = None;
    commit(&mut s, |tx, s| {
        let id = tx.new_id(IdKind::Shape);
        tx.insert(s.p2, Some(0), shape(&id, "new")).unwrap();
        fresh = Some(id);
        set_text(tx, &s.c, "changed");
        tx.remove(&s.link).unwrap();
        tx.reorder(&s.a, 3).unwrap();
        tx.rename_page(s.p2, "Second").unwrap();
        let p = tx.add_page("Third", None).unwrap();
        page = Some(p);
    });
    let (fresh, page) = (fresh.unwrap(), page.unwrap());
    let changes = diff_boards(&old, &s.board, 7, Actor::User);
    let mut got = summary(&changes);
    got.sort_by(|a, b| a.2.cmp(&b.2));
    let mut want = vec![
        (ChangeKind::Updated, s.p1, s.c.to_string()),
        (ChangeKind::Removed, s.p1, s.link.to_string()),
        // Brought to the front.
        (ChangeKind::Updated, s.p1, s.a.to_string()),
        (ChangeKind::Updated, s.p2, "page Second".to_string()),
        (ChangeKind::Added, s.p2, fresh.to_string()),
        (ChangeKind::Added, page, "page Third".to_string()),
    ];
    want.sort_by(|a, b| a.2.cmp(&b.2));
    assert_eq!(got, want);
    assert!(changes
        .iter()
        .all(|c| c.revision == 7 && c.by == Actor::User));
    let added = changes.iter().find(|c| c.id.as_ref() == Some(&fresh));
    assert_eq!(added.unwrap().object, s.board.object(&fresh).cloned());

    // And the other way round.
    let back = diff_boards(&s.board, &old, 8, Actor::User);
    let mut got = summary(&back);
    got.sort_by(|a, b| a.2.cmp(&b.2));
    let mut want = vec![
        (ChangeKind::Updated, s.p1, s.c.to_string()),
        (ChangeKind::Added, s.p1, s.link.to_string()),
        (ChangeKind::Updated, s.p1, s.a.to_string()),
        (ChangeKind::Updated, s.p2, "page Two".to_string()),
        (ChangeKind::Removed, s.p2, fresh.to_string()),
        (ChangeKind::Removed, page, "page Third".to_string()),
    ];
    want.sort_by(|a, b| a.2.cmp(&b.2));
    assert_eq!(got, want);
}

#[test]
fn diff_boards_reports_a_removed_page_with_its_objects_and_a_move() {
    let mut s = sample();
    let old = s.board.clone();
    commit(&mut s, |tx, s| {
        let o = tx.remove(&s.c).unwrap();
        tx.insert(s.p2, None, o).unwrap();
        tx.remove_page(s.p2).unwrap();
    });
    let mut got = summary(&diff_boards(&old, &s.board, 1, Actor::User));
    got.sort_by(|a, b| a.2.cmp(&b.2));
    assert_eq!(
        got,
        [
            (ChangeKind::Removed, s.p2, "page Two".to_string()),
            (ChangeKind::Removed, s.p1, s.c.to_string()),
            (ChangeKind::Removed, s.p2, s.d.to_string()),
        ]
    );
    assert_eq!(diff_boards(&old, &old, 1, Actor::User), []);
}

#[test]
fn diff_boards_and_commit_changes_agree_on_objects() {
    // Commit::changes and diff_boards are two ways to the same summary; on random
    // commits, their object entries must agree.
    for seed in 0..200 {
        let mut rng = Rng::new(seed);
        let mut board = random_board(&mut rng);
        let old = board.clone();
        let mut tx = Transaction::begin(&mut board);
        for _ in 0..1 + rng.below(8) {
            random_edit(&mut tx, &mut rng, true).unwrap();
        }
        let Some(commit) = tx.commit(Actor::User).unwrap() else {
            continue;
        };
        let objects = |changes: Vec<Change>| {
            let mut v: Vec<_> = changes
                .into_iter()
                .filter(|c| c.id.is_some())
                .map(|c| (c.id, c.kind, c.page, c.object))
                .collect();
            v.sort_by(|a, b| a.0.cmp(&b.0));
            v
        };
        assert_eq!(
            objects(commit.changes()),
            objects(diff_boards(&old, &board, commit.revision, Actor::User)),
            "seed {seed}"
        );
    }
}
