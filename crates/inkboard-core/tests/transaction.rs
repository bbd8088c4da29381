//! Transactions: all-or-nothing. A transaction dropped without commit, or refused at
//! commit, leaves the board (id counter included) as it was; savepoints roll back
//! part of one; commits number the board's revisions one by one.

mod common;

use common::*;
use inkboard_core::{
    Actor, Board, End, IdKind, Kind, ModelError, ObjectId, Page, PageId, Point, Step, Transaction,
};

type Edit = fn(&mut Transaction<'_>, &Sample);

/// Every kind of step, alone and together, named for failure messages.
fn edits() -> Vec<(&'static str, Edit)> {
    vec![
        ("insert on top", |tx, s| {
            let id = tx.new_id(IdKind::Shape);
            tx.insert(s.p1, None, shape(&id, "new")).unwrap();
        }),
        ("insert in the middle", |tx, s| {
            let id = tx.new_id(IdKind::Shape);
            tx.insert(s.p1, Some(1), shape(&id, "new")).unwrap();
        }),
        ("insert at the back", |tx, s| {
            let id = tx.new_id(IdKind::Shape);
            tx.insert(s.p1, Some(0), shape(&id, "new")).unwrap();
        }),
        ("insert past the end", |tx, s| {
            let id = tx.new_id(IdKind::Shape);
            tx.insert(s.p2, Some(99), shape(&id, "new")).unwrap();
        }),
        ("remove from the middle", |tx, s| {
            tx.remove(&s.c).unwrap();
        }),
        ("remove the top", |tx, s| {
            tx.remove(&s.grp).unwrap();
        }),
        ("remove leaving a dangling connector", |tx, s| {
            tx.remove(&s.a).unwrap();
        }),
        ("replace", |tx, s| {
            tx.replace(shape(&s.c, "replaced")).unwrap();
        }),
        ("edit", |tx, s| {
            tx.edit(&s.a, |o| {
                if let Kind::Shape(sh) = &mut o.kind {
                    sh.text = "edited".into();
                    sh.bounds.x += 10.0;
                }
                o.extra.insert("k".into(), "v".into());
            })
            .unwrap();
        }),
        ("reorder to the back", |tx, s| {
            tx.reorder(&s.grp, 0).unwrap();
        }),
        ("reorder to the top", |tx, s| {
            tx.reorder(&s.a, 10).unwrap();
        }),
        ("move to another page", |tx, s| {
            let o = tx.remove(&s.c).unwrap();
            tx.insert(s.p2, Some(0), o).unwrap();
        }),
        ("add a page in the middle", |tx, _| {
            tx.add_page("Middle", Some(1)).unwrap();
        }),
        ("add a page at the end", |tx, _| {
            tx.add_page("Last", None).unwrap();
        }),
        ("rename a page", |tx, s| {
            tx.rename_page(s.p2, "Renamed").unwrap();
        }),
        ("remove a page with objects", |tx, s| {
            tx.remove_page(s.p1).unwrap();
        }),
        ("set the title", |tx, _| {
            tx.set_title("New title").unwrap();
        }),
        ("everything at once", |tx, s| {
            tx.set_title("New title").unwrap();
            let p = tx.add_page("Extra", Some(0)).unwrap();
            let id = tx.new_id(IdKind::Shape);
            tx.insert(p, None, shape(&id, "on extra")).unwrap();
            tx.edit(&s.b, |o| {
                o.extra.insert("x".into(), "1".into());
            })
            .unwrap();
            tx.reorder(&s.c, 0).unwrap();
            tx.remove(&s.link).unwrap();
            tx.rename_page(s.p1, "First").unwrap();
            tx.remove_page(s.p2).unwrap();
            tx.remove(&s.grp).unwrap();
            tx.remove(&s.a).unwrap();
        }),
    ]
}

#[test]
fn a_dropped_transaction_leaves_no_trace() {
    for (name, edit) in edits() {
        let s = sample();
        let before = snapshot(&s.board);
        let mut board = s.board.clone();
        {
            let mut tx = Transaction::begin(&mut board);
            edit(&mut tx, &s);
            assert!(!tx.is_empty(), "{name}: recorded no step");
            assert_ne!(*tx.board(), before.board, "{name}: changed nothing");
            assert_indexed(tx.board());
        }
        assert_eq!(snapshot(&board), before, "{name}");
        assert_consistent(&board);
        // The counters are back too: the next page and object get the ids they would
        // have had without the dropped transaction.
        let mut tx = Transaction::begin(&mut board);
        assert_eq!(
            tx.new_id(IdKind::Shape).counter(),
            Some(before.next_object),
            "{name}"
        );
        assert_eq!(tx.add_page("again", None).unwrap(), PageId(3), "{name}");
    }
}

#[test]
fn a_transaction_refused_at_commit_leaves_no_trace() {
    let mut s = sample();
    let before = snapshot(&s.board);
    let mut tx = Transaction::begin(&mut s.board);
    tx.set_title("Changed").unwrap();
    tx.add_page("More", None).unwrap();
    let id = tx.new_id(IdKind::Shape);
    tx.insert(s.p1, Some(0), shape(&id, "x")).unwrap();
    // The connector and the group still refer to `a`.
    tx.remove(&s.a).unwrap();
    let err = tx.commit(Actor::Agent).unwrap_err();
    assert!(
        matches!(
            err,
            ModelError::DanglingConnector { .. } | ModelError::DanglingMember { .. }
        ),
        "{err:?}"
    );
    assert_eq!(snapshot(&s.board), before);
    assert_consistent(&s.board);
}

#[test]
fn commit_names_the_dangling_connector_and_its_missing_end() {
    let mut s = sample();
    let before = snapshot(&s.board);
    let mut tx = Transaction::begin(&mut s.board);
    tx.remove(&s.grp).unwrap();
    tx.remove(&s.b).unwrap();
    assert_eq!(
        tx.commit(Actor::Agent),
        Err(ModelError::DanglingConnector {
            connector: s.link.clone(),
            end: s.b.clone()
        })
    );
    assert_eq!(snapshot(&s.board), before);
}

#[test]
fn commit_names_the_dangling_group_member() {
    let mut s = sample();
    let before = snapshot(&s.board);
    let mut tx = Transaction::begin(&mut s.board);
    tx.remove(&s.link).unwrap();
    tx.remove(&s.a).unwrap();
    assert_eq!(
        tx.commit(Actor::Agent),
        Err(ModelError::DanglingMember {
            group: s.grp.clone(),
            member: s.a.clone()
        })
    );
    assert_eq!(snapshot(&s.board), before);
}

#[test]
fn commit_accepts_a_removal_that_takes_its_references_along() {
    let mut s = sample();
    let mut tx = Transaction::begin(&mut s.board);
    tx.remove(&s.link).unwrap();
    tx.edit(&s.grp, |o| {
        if let Kind::Group(g) = &mut o.kind {
            g.members.retain(|m| *m != s.a);
        }
    })
    .unwrap();
    tx.remove(&s.a).unwrap();
    tx.commit(Actor::Agent).unwrap().unwrap();
    assert_eq!(s.board.object(&s.a), None);
    assert_consistent(&s.board);
}

#[test]
fn commit_refuses_references_to_missing_or_other_page_objects() {
    // Each case writes one record whose reference does not resolve on its page.
    type Case = fn(&mut Transaction<'_>, &Sample) -> ObjectId;
    let cases: [(&str, Case); 6] = [
        ("connector to another page", |tx, s| {
            let id = tx.new_id(IdKind::Connector);
            tx.insert(s.p1, None, connector(&id, &s.a, &s.d)).unwrap();
            id
        }),
        ("connector to nothing", |tx, s| {
            let id = tx.new_id(IdKind::Connector);
            tx.insert(s.p2, None, connector(&id, &s.d, &oid("nope")))
                .unwrap();
            id
        }),
        ("group with a member on another page", |tx, s| {
            let id = tx.new_id(IdKind::Group);
            tx.insert(s.p2, None, group(&id, &[&s.d, &s.c])).unwrap();
            id
        }),
        ("connector edited to point at nothing", |tx, s| {
            tx.edit(&s.link, |o| {
                if let Kind::Connector(c) = &mut o.kind {
                    c.to = End::Object(oid("gone"));
                }
            })
            .unwrap();
            s.link.clone()
        }),
        ("connector moved to another page", |tx, s| {
            let o = tx.remove(&s.link).unwrap();
            tx.insert(s.p2, None, o).unwrap();
            s.link.clone()
        }),
        ("end moved to another page", |tx, s| {
            tx.remove(&s.grp).unwrap();
            let o = tx.remove(&s.b).unwrap();
            tx.insert(s.p2, None, o).unwrap();
            s.link.clone()
        }),
    ];
    for (name, case) in cases {
        let mut s = sample();
        let before = snapshot(&s.board);
        let ids = s.clone();
        let mut tx = Transaction::begin(&mut s.board);
        let culprit = case(&mut tx, &ids);
        let err = tx.commit(Actor::Agent).unwrap_err();
        match &err {
            ModelError::DanglingConnector { connector, .. } => {
                assert_eq!(*connector, culprit, "{name}")
            }
            ModelError::DanglingMember { group, .. } => assert_eq!(*group, culprit, "{name}"),
            other => panic!("{name}: {other:?}"),
        }
        assert_eq!(snapshot(&s.board), before, "{name}");
        assert_consistent(&s.board);
    }
}

#[test]
fn commit_refuses_a_group_that_holds_itself() {
    let mut s = sample();
    let before = snapshot(&s.board);
    let mut tx = Transaction::begin(&mut s.board);
    let grp = s.grp.clone();
    tx.edit(&s.grp, |o| {
        if let Kind::Group(g) = &mut o.kind {
            g.members.push(grp);
        }
    })
    .unwrap();
    assert_eq!(
        tx.commit(Actor::Agent),
        Err(ModelError::GroupCycle(s.grp.clone()))
    );
    assert_eq!(snapshot(&s.board), before);

    // Through another group: `outer` holds `grp`, then `grp` is made to hold `outer`.
    let mut tx = Transaction::begin(&mut s.board);
    let outer = tx.new_id(IdKind::Group);
    tx.insert(s.p1, None, group(&outer, &[&s.grp, &s.c]))
        .unwrap();
    tx.commit(Actor::Agent).unwrap().unwrap();
    let before = snapshot(&s.board);
    let mut tx = Transaction::begin(&mut s.board);
    let o = outer.clone();
    tx.edit(&s.grp, |g| {
        if let Kind::Group(g) = &mut g.kind {
            g.members.push(o);
        }
    })
    .unwrap();
    let err = tx.commit(Actor::Agent).unwrap_err();
    assert!(matches!(err, ModelError::GroupCycle(_)), "{err:?}");
    assert_eq!(snapshot(&s.board), before);
}

#[test]
fn rollback_to_a_savepoint_keeps_the_steps_before_it() {
    let mut s = sample();
    let mut tx = Transaction::begin(&mut s.board);
    tx.set_title("Kept").unwrap();
    let kept = tx.new_id(IdKind::Shape);
    tx.insert(s.p1, Some(1), shape(&kept, "kept")).unwrap();
    let at_savepoint = snapshot(tx.board());
    let point = tx.savepoint();

    let gone = tx.new_id(IdKind::Shape);
    tx.insert(s.p1, Some(0), shape(&gone, "gone")).unwrap();
    tx.remove(&s.c).unwrap();
    tx.rename_page(s.p1, "Gone").unwrap();
    tx.remove_page(s.p2).unwrap();
    tx.add_page("Gone", Some(0)).unwrap();
    tx.set_title("Gone").unwrap();
    tx.rollback_to(point);
    assert_eq!(snapshot(tx.board()), at_savepoint);
    assert_consistent(tx.board());

    // The id handed out after the savepoint is handed out again.
    assert_eq!(tx.new_id(IdKind::Shape), gone);
    let commit = tx.commit(Actor::User).unwrap().unwrap();
    assert_eq!(commit.steps.len(), 2);
    assert!(matches!(commit.steps[0], Step::SetTitle { .. }));
    assert_eq!(s.board.title(), "Kept");
    assert_eq!(s.board.locate(&kept), Some((s.p1, 1)));
}

#[test]
fn nested_savepoints_roll_back_in_turn() {
    let mut s = sample();
    let start = snapshot(&s.board);
    let mut tx = Transaction::begin(&mut s.board);
    let outer = tx.savepoint();
    tx.set_title("one").unwrap();
    let after_one = snapshot(tx.board());
    let inner = tx.savepoint();
    tx.set_title("two").unwrap();
    tx.remove(&s.c).unwrap();
    tx.rollback_to(inner);
    assert_eq!(snapshot(tx.board()), after_one);
    // Rolling back to the same savepoint twice is harmless.
    tx.rollback_to(inner);
    assert_eq!(snapshot(tx.board()), after_one);
    tx.rollback_to(outer);
    assert_eq!(snapshot(tx.board()), start);
    assert!(tx.is_empty());
    assert_eq!(tx.commit(Actor::User), Ok(None));
    assert_eq!(snapshot(&s.board), start);
}

#[test]
fn a_commit_without_steps_returns_none_and_keeps_the_revision() {
    let mut s = sample();
    let revision = s.board.revision();
    assert_eq!(
        Transaction::begin(&mut s.board).commit(Actor::User),
        Ok(None)
    );

    // Edits that change nothing record nothing.
    let mut tx = Transaction::begin(&mut s.board);
    tx.set_title("Sample").unwrap();
    tx.rename_page(s.p1, "One").unwrap();
    tx.edit(&s.a, |_| {}).unwrap();
    let same = tx.board().object(&s.b).unwrap().clone();
    tx.replace(same).unwrap();
    tx.reorder(&s.c, 2).unwrap();
    assert!(tx.is_empty());
    assert_eq!(tx.commit(Actor::User), Ok(None));
    assert_eq!(s.board.revision(), revision);
}

#[test]
fn revisions_go_up_by_one_per_commit() {
    let mut board = Board::new("Counting", &[]);
    assert_eq!(board.revision(), 0);
    let page = board.pages()[0].id;
    for n in 1..=5u64 {
        let mut tx = Transaction::begin(&mut board);
        for _ in 0..n {
            let id = tx.new_id(IdKind::Shape);
            tx.insert(page, None, shape(&id, "x")).unwrap();
        }
        let commit = tx.commit(Actor::Agent).unwrap().unwrap();
        assert_eq!(commit.revision, n);
        assert_eq!(commit.by, Actor::Agent);
        assert_eq!(commit.steps.len() as u64, n);
        assert_eq!(board.revision(), n);
    }
    // A refused commit uses no revision.
    let mut tx = Transaction::begin(&mut board);
    let id = tx.new_id(IdKind::Connector);
    tx.insert(page, None, connector(&id, &oid("s1"), &oid("nope")))
        .unwrap();
    assert!(tx.commit(Actor::Agent).is_err());
    assert_eq!(board.revision(), 5);
}

#[test]
fn revert_takes_back_the_last_commit_and_its_revision() {
    let mut s = sample();
    let before = snapshot(&s.board);
    let mut tx = Transaction::begin(&mut s.board);
    tx.set_title("Reverted").unwrap();
    tx.remove(&s.link).unwrap();
    tx.reorder(&s.c, 0).unwrap();
    tx.remove_page(s.p2).unwrap();
    let p = tx.add_page("New", Some(0)).unwrap();
    let id = tx.new_id(IdKind::Shape);
    tx.insert(p, None, shape(&id, "x")).unwrap();
    let commit = tx.commit(Actor::Agent).unwrap().unwrap();
    s.board.revert(&commit).unwrap();
    assert_eq!(s.board, before.board);
    assert_eq!(s.board.revision(), before.revision);
    assert_consistent(&s.board);
    // The ids the reverted commit used are not handed out again.
    assert!(s.board.next_object() > id.counter().unwrap());
}

#[test]
fn revert_of_a_commit_that_no_longer_fits_changes_nothing() {
    let mut s = sample();
    let mut tx = Transaction::begin(&mut s.board);
    tx.set_title("first").unwrap();
    tx.remove(&s.c).unwrap();
    let first = tx.commit(Actor::Agent).unwrap().unwrap();
    let mut tx = Transaction::begin(&mut s.board);
    tx.set_title("second").unwrap();
    tx.commit(Actor::Agent).unwrap().unwrap();
    // `first` is not the last commit: putting `c` back would work, but taking back
    // its title would clobber the second commit's, so the revert is refused whole.
    let before = snapshot(&s.board);
    assert!(s.board.revert(&first).is_err());
    assert_eq!(snapshot(&s.board), before);
    assert_consistent(&s.board);
}

#[test]
fn ids_are_never_reused() {
    let mut s = sample();
    let mut seen: Vec<ObjectId> = s
        .board
        .pages()
        .iter()
        .flat_map(|p| p.objects.iter().map(|o| o.id.clone()))
        .collect();
    let page = s.p2;
    for _ in 0..5 {
        let mut tx = Transaction::begin(&mut s.board);
        let id = tx.new_id(IdKind::Shape);
        assert!(!seen.contains(&id), "{id} handed out twice");
        seen.push(id.clone());
        tx.insert(page, None, shape(&id, "x")).unwrap();
        tx.commit(Actor::User).unwrap();
        let mut tx = Transaction::begin(&mut s.board);
        tx.remove(&id).unwrap();
        tx.commit(Actor::User).unwrap();
    }
    // Every kind shares one counter, so `s7` and `c7` never both exist.
    let mut tx = Transaction::begin(&mut s.board);
    let a = tx.new_id(IdKind::Connector);
    let b = tx.new_id(IdKind::Ink);
    assert_ne!(a.counter(), b.counter());
}

#[test]
fn new_ids_skip_ids_already_on_the_board() {
    // A hand-written file may use an id its saved counter has not reached yet.
    let mut page = Page::new(PageId(1), "One");
    page.objects.push(shape(&oid("s1"), "taken"));
    let mut board = Board::from_parts("t".into(), vec![page], 1, 0, Default::default()).unwrap();
    let mut tx = Transaction::begin(&mut board);
    assert_ne!(tx.new_id(IdKind::Shape), oid("s1"));
}

#[test]
fn refusals_name_what_is_wrong_and_change_nothing() {
    let mut s = sample();
    let before = snapshot(&s.board);
    let mut tx = Transaction::begin(&mut s.board);
    assert_eq!(
        tx.insert(s.p1, None, shape(&s.d, "dup")),
        Err(ModelError::DuplicateId(s.d.clone()))
    );
    assert_eq!(
        tx.insert(PageId(99), None, shape(&oid("fresh"), "x")),
        Err(ModelError::NoSuchPage(PageId(99)))
    );
    assert_eq!(
        tx.remove(&oid("nope")),
        Err(ModelError::NoSuchObject(oid("nope")))
    );
    assert_eq!(
        tx.edit(&oid("nope"), |_| {}),
        Err(ModelError::NoSuchObject(oid("nope")))
    );
    assert_eq!(
        tx.replace(shape(&oid("nope"), "x")),
        Err(ModelError::NoSuchObject(oid("nope")))
    );
    assert_eq!(
        tx.reorder(&oid("nope"), 0),
        Err(ModelError::NoSuchObject(oid("nope")))
    );
    assert_eq!(
        tx.rename_page(PageId(99), "x"),
        Err(ModelError::NoSuchPage(PageId(99)))
    );
    assert_eq!(
        tx.remove_page(PageId(99)).unwrap_err(),
        ModelError::NoSuchPage(PageId(99))
    );
    tx.remove_page(s.p2).unwrap();
    assert_eq!(tx.remove_page(s.p1).unwrap_err(), ModelError::LastPage);
    assert!(tx.board().page(s.p1).is_some());
    drop(tx);
    assert_eq!(snapshot(&s.board), before);
}

#[test]
fn edit_keeps_the_id() {
    let mut s = sample();
    let mut tx = Transaction::begin(&mut s.board);
    tx.edit(&s.c, |o| o.id = oid("renamed")).unwrap();
    assert!(tx.is_empty(), "an edit of the id alone is no change");
    assert!(tx.board().object(&s.c).is_some());
    assert!(tx.board().object(&oid("renamed")).is_none());
}

#[test]
fn apply_steps_refuses_steps_that_do_not_fit_and_leaves_no_trace() {
    let s = sample();
    let object = s.board.object(&s.c).unwrap().clone();
    let other = s.board.object(&s.a).unwrap().clone();
    let page = s.board.page(s.p2).unwrap().clone();
    let cases: Vec<(&str, Step)> = vec![
        (
            "insert past the end",
            Step::Insert {
                page: s.p2,
                index: 5,
                object: shape(&oid("z1"), "z"),
            },
        ),
        (
            "remove past the end",
            Step::Remove {
                page: s.p1,
                index: 40,
                object: object.clone(),
            },
        ),
        (
            "remove of something else",
            Step::Remove {
                page: s.p1,
                index: 0,
                object: object.clone(),
            },
        ),
        (
            "replace of something else",
            Step::Replace {
                page: s.p1,
                index: 0,
                before: object.clone(),
                after: shape(&s.c, "x"),
            },
        ),
        (
            "replace of an edited record",
            Step::Replace {
                page: s.p1,
                index: 0,
                before: shape(&s.a, "not what it is"),
                after: other.clone(),
            },
        ),
        (
            "insert of a page whose id is taken",
            Step::InsertPage {
                index: 0,
                page: Page::new(s.p1, "twin"),
            },
        ),
        (
            "insert of a page past the end",
            Step::InsertPage {
                index: 7,
                page: Page::new(PageId(9), "far"),
            },
        ),
        (
            "insert of a page holding ids in use",
            Step::InsertPage {
                index: 0,
                page: Page {
                    objects: vec![shape(&s.a, "twin")],
                    ..Page::new(PageId(9), "twins")
                },
            },
        ),
        (
            "remove of a page past the end",
            Step::RemovePage {
                index: 9,
                page: page.clone(),
            },
        ),
        (
            "remove of another page",
            Step::RemovePage {
                index: 0,
                page: page.clone(),
            },
        ),
        (
            "rename from a name it does not have",
            Step::RenamePage {
                page: s.p1,
                before: "Not one".into(),
                after: "x".into(),
            },
        ),
        (
            "title from a title it does not have",
            Step::SetTitle {
                before: "Not it".into(),
                after: "x".into(),
            },
        ),
    ];
    for (name, step) in cases {
        let mut board = s.board.clone();
        let before = snapshot(&board);
        let mut tx = Transaction::begin(&mut board);
        tx.set_title("first").unwrap();
        assert!(tx.apply_steps(&[step]).is_err(), "{name}");
        drop(tx);
        assert_eq!(snapshot(&board), before, "{name}");
        assert_consistent(&board);
    }
}

#[test]
fn apply_steps_of_a_page_removal_refuses_the_last_page() {
    let mut board = Board::new("One page", &[]);
    let page = board.pages()[0].clone();
    let mut tx = Transaction::begin(&mut board);
    assert_eq!(
        tx.apply_steps(&[Step::RemovePage { index: 0, page }]),
        Err(ModelError::LastPage)
    );
    drop(tx);
    assert_eq!(board.pages().len(), 1);
}

#[test]
fn a_replacement_under_another_id_keeps_the_index_right() {
    let s = sample();
    let mut board = s.board.clone();
    let before = board.object(&s.c).unwrap().clone();
    let mut tx = Transaction::begin(&mut board);
    tx.apply_steps(&[Step::Replace {
        page: s.p1,
        index: 2,
        before,
        after: shape(&oid("fresh"), "fresh"),
    }])
    .unwrap();
    assert_indexed(tx.board());
    assert_eq!(tx.board().locate(&oid("fresh")), Some((s.p1, 2)));
    drop(tx);
    assert_eq!(board, s.board);
    assert_consistent(&board);
}

#[test]
fn points_and_connectors_between_connectors_commit() {
    // A connector may end on a free point or on another connector.
    let mut s = sample();
    let mut tx = Transaction::begin(&mut s.board);
    let id = tx.new_id(IdKind::Connector);
    let mut o = connector(&id, &s.link, &s.c);
    if let Kind::Connector(c) = &mut o.kind {
        c.from = End::Point(Point { x: 1.0, y: 2.0 });
        c.to = End::Object(s.link.clone());
    }
    tx.insert(s.p1, None, o).unwrap();
    tx.commit(Actor::Agent).unwrap().unwrap();
    // ...and then the connector it ends on cannot go alone.
    let mut tx = Transaction::begin(&mut s.board);
    tx.remove(&s.link).unwrap();
    assert!(matches!(
        tx.commit(Actor::Agent),
        Err(ModelError::DanglingConnector { connector, .. }) if connector == id
    ));
}
