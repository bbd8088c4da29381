//! Property tests with proptest over random boards and random edits (the strategies
//! of `inkboard_core::arbitrary`): a transaction dropped or refused leaves the board
//! as it was; a rollback to any savepoint gives the board at that savepoint; undo
//! after any commit gives the board before it and redo the board after it, all the
//! way back and forth; every commit's inverse is exact; `diff_boards` names
//! exactly the records that differ; and `rewrite_to` reaches any board undoably.
//!
//! Each property runs 96 cases (`PROPTEST_CASES` overrides); a failure is shrunk to
//! a short list of plans and saved beside this file, to be replayed first next time.

mod common;

use std::collections::{BTreeMap, HashMap};

use common::{assert_consistent, assert_indexed, snapshot};
use inkboard_core::arbitrary::{board, config, op, Op};
use inkboard_core::{
    diff_boards, Actor, Board, Change, Commit, History, Object, ObjectId, PageId, Transaction,
};
use proptest::collection::vec;
use proptest::prelude::*;

/// Applies each plan, tidily or not; the ones that fail are part of the test.
fn apply_all(tx: &mut Transaction<'_>, ops: &[Op], tidy: bool) {
    for op in ops {
        let _ = op.apply(tx, tidy);
    }
}

/// Commits each list of tidy plans as one transaction, recording each commit, and
/// returns the commits with the board before and after each.
fn commit_all(board: &mut Board, plans: &[Vec<Op>]) -> Vec<(Board, Commit, Board)> {
    let mut out = Vec::new();
    for ops in plans {
        let before = board.clone();
        let mut tx = Transaction::begin(board);
        for op in ops {
            op.apply(&mut tx, true)
                .unwrap_or_else(|e| panic!("tidy plan failed: {e} ({op:?})"));
        }
        if let Some(commit) = tx.commit(Actor::Agent).expect("tidy plans commit") {
            assert_eq!(commit.revision, before.revision() + 1);
            out.push((before, commit, board.clone()));
        } else {
            assert_eq!(*board, before, "an empty commit changed the board");
        }
        assert_consistent(board);
    }
    out
}

/// A change as a key (kind, page, id, page name) and the object after it, so that
/// lists of changes compare whatever their order.
type Keyed = BTreeMap<(&'static str, PageId, Option<ObjectId>, Option<String>), Option<Object>>;

fn keyed<'a>(changes: impl IntoIterator<Item = &'a Change>) -> Keyed {
    let mut out = Keyed::new();
    for c in changes {
        let key = (c.kind.name(), c.page, c.id.clone(), c.page_name.clone());
        assert!(
            out.insert(key, c.object.clone()).is_none(),
            "a record is named twice: {c:?}"
        );
    }
    out
}

/// What differs between two boards, worked out record by record: an object only in
/// `new` is added (on its page), one only in `old` removed (from its old page), one
/// in both updated when its content or its page changed; a page only in `new` is
/// added, one only in `old` removed, one in both with another name updated.
fn expected_diff(old: &Board, new: &Board) -> Keyed {
    let places = |b: &Board| -> HashMap<ObjectId, (PageId, Object)> {
        b.pages()
            .iter()
            .flat_map(|p| p.objects.iter().map(|o| (o.id.clone(), (p.id, o.clone()))))
            .collect()
    };
    let (was, is) = (places(old), places(new));
    let mut out = Keyed::new();
    for (id, (page, object)) in &is {
        match was.get(id) {
            None => {
                out.insert(
                    ("added", *page, Some(id.clone()), None),
                    Some(object.clone()),
                );
            }
            Some((p, o)) if p != page || o != object => {
                out.insert(
                    ("updated", *page, Some(id.clone()), None),
                    Some(object.clone()),
                );
            }
            Some(_) => {}
        }
    }
    for (id, (page, _)) in &was {
        if !is.contains_key(id) {
            out.insert(("removed", *page, Some(id.clone()), None), None);
        }
    }
    for page in new.pages() {
        match old.page(page.id) {
            None => {
                out.insert(("added", page.id, None, Some(page.name.clone())), None);
            }
            Some(p) if p.name != page.name || p.extra != page.extra => {
                out.insert(("updated", page.id, None, Some(page.name.clone())), None);
            }
            Some(_) => {}
        }
    }
    for page in old.pages() {
        if new.page(page.id).is_none() {
            out.insert(("removed", page.id, None, Some(page.name.clone())), None);
        }
    }
    out
}

/// The entries of `changes` (between `old` and `new`) but those for a change of
/// place alone, which are checked here: with the records updated in place, they
/// must explain the difference of order (on each page and among the pages), and
/// be no more than the fewest records that do (worked out the slow way,
/// independently of the code under test).
fn records(old: &Board, new: &Board, changes: &Keyed) -> Keyed {
    let mut out = Keyed::new();
    let mut moved_pages: Vec<PageId> = Vec::new();
    let mut moved_objects: HashMap<PageId, Vec<ObjectId>> = HashMap::new();
    let (mut updated_pages, mut updated_objects) = (Vec::new(), Vec::new());
    for (key, object) in changes {
        let (kind, page, id, _) = key;
        let place_only = *kind == "updated"
            && match id {
                Some(id) => {
                    old.locate(id).map(|l| l.0) == Some(*page) && old.object(id) == new.object(id)
                }
                None => match (old.page(*page), new.page(*page)) {
                    (Some(a), Some(b)) => a.name == b.name && a.extra == b.extra,
                    _ => false,
                },
            };
        match (place_only, id) {
            (false, _) => {
                // An update of content may move the record too.
                if *kind == "updated" {
                    match id {
                        Some(id) => updated_objects.push(id.clone()),
                        None => updated_pages.push(*page),
                    }
                }
                out.insert(key.clone(), object.clone());
            }
            (true, Some(id)) => moved_objects.entry(*page).or_default().push(id.clone()),
            (true, None) => moved_pages.push(*page),
        }
    }
    let pages = |b: &Board| b.pages().iter().map(|p| p.id).collect::<Vec<_>>();
    assert_fewest_moved(&pages(old), &pages(new), &moved_pages, &updated_pages);
    for page in new.pages() {
        let ids =
            |p: &inkboard_core::Page| p.objects.iter().map(|o| o.id.clone()).collect::<Vec<_>>();
        let before = old.page(page.id).map(ids).unwrap_or_default();
        let moved = moved_objects.remove(&page.id).unwrap_or_default();
        assert_fewest_moved(&before, &ids(page), &moved, &updated_objects);
    }
    assert!(
        moved_objects.is_empty(),
        "moved on a page gone: {moved_objects:?}"
    );
    out
}

/// Leaving out `moved` and `updated`, the two lists keep the rest in one order,
/// and `moved` are no more than the fewest items that it takes.
fn assert_fewest_moved<T: Clone + PartialEq + std::fmt::Debug>(
    before: &[T],
    after: &[T],
    moved: &[T],
    updated: &[T],
) {
    let common = |list: &[T], other: &[T]| -> Vec<T> {
        list.iter().filter(|t| other.contains(t)).cloned().collect()
    };
    let (a, b) = (common(before, after), common(after, before));
    let keep = |list: &[T]| -> Vec<T> {
        list.iter()
            .filter(|t| !moved.contains(t) && !updated.contains(t))
            .cloned()
            .collect()
    };
    assert_eq!(
        keep(&a),
        keep(&b),
        "what is left of the order differs: moved {moved:?}"
    );
    // The longest common subsequence of the two orders, the slow way.
    let mut best = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in 0..a.len() {
        for j in 0..b.len() {
            best[i + 1][j + 1] = if a[i] == b[j] {
                best[i][j] + 1
            } else {
                best[i][j + 1].max(best[i + 1][j])
            };
        }
    }
    assert!(
        moved.len() <= a.len() - best[a.len()][b.len()],
        "more than the fewest: {moved:?}"
    );
}

/// Only the entries about objects.
fn objects_only(changes: Keyed) -> Keyed {
    changes.into_iter().filter(|(k, _)| k.2.is_some()).collect()
}

proptest! {
    #![proptest_config(config(96))]

    /// (1) Whatever a transaction did, tidy or not, dropping it without a commit
    /// leaves the board, its id counters and its revision as they were: the same
    /// edits made next on it and on a copy taken before give the same boards, new
    /// object and page ids included.
    #[test]
    fn a_dropped_transaction_leaves_the_board_equal(
        start in board(),
        ops in vec(op(), 1..30),
        tidy in any::<bool>(),
        next in vec(op(), 1..8),
    ) {
        let mut board = start;
        let mut copy = board.clone();
        let before = snapshot(&board);
        {
            let mut tx = Transaction::begin(&mut board);
            for op in &ops {
                let _ = op.apply(&mut tx, tidy);
                assert_indexed(tx.board());
            }
        }
        prop_assert_eq!(snapshot(&board), before);
        assert_consistent(&board);
        for b in [&mut board, &mut copy] {
            let mut tx = Transaction::begin(b);
            apply_all(&mut tx, &next, true);
            tx.commit(Actor::Agent).expect("tidy plans commit");
        }
        prop_assert_eq!(snapshot(&board), snapshot(&copy));
    }

    /// (1) A commit refused at its check (references left dangling, a group
    /// holding itself) leaves no trace either; one that goes through is consistent.
    /// Most edits are tidy, so that the one untidy edit is often what is refused.
    #[test]
    fn a_refused_commit_leaves_the_board_equal(
        start in board(),
        ops in vec((op(), proptest::bool::weighted(0.8)), 1..30),
    ) {
        let mut board = start;
        let before = snapshot(&board);
        let mut tx = Transaction::begin(&mut board);
        for (op, tidy) in &ops {
            let _ = op.apply(&mut tx, *tidy);
        }
        match tx.commit(Actor::Agent) {
            Ok(Some(commit)) => prop_assert_eq!(commit.revision, before.revision + 1),
            Ok(None) => prop_assert_eq!(&board, &before.board),
            Err(_) => prop_assert_eq!(snapshot(&board), before),
        }
        assert_consistent(&board);
    }

    /// (2) With a savepoint taken after every edit, rolling back to any one of them
    /// gives exactly the board at that savepoint: first a jump back over several,
    /// then one at a time down to the start, then new edits that commit.
    #[test]
    fn rollback_to_any_savepoint_gives_the_board_at_it(
        start in board(),
        ops in vec(op(), 1..25),
        tidy in any::<bool>(),
        jump in any::<proptest::sample::Index>(),
        more in vec(op(), 0..5),
    ) {
        let mut board = start;
        let mut tx = Transaction::begin(&mut board);
        let mut points = vec![(tx.savepoint(), snapshot(tx.board()))];
        for op in &ops {
            let _ = op.apply(&mut tx, tidy);
            points.push((tx.savepoint(), snapshot(tx.board())));
        }
        let k = jump.index(points.len());
        points.truncate(k + 1);
        while let Some((point, at)) = points.pop() {
            tx.rollback_to(point);
            prop_assert_eq!(snapshot(tx.board()), at);
            assert_indexed(tx.board());
        }
        // Back at the start, the transaction is as good as new.
        apply_all(&mut tx, &more, true);
        tx.commit(Actor::Agent).expect("tidy plans after a rollback commit");
        assert_consistent(&board);
    }

    /// (3) After every commit, undo gives the board before it and redo the board
    /// after it; then undo all the way back to the start and redo all the way to
    /// the end, each step one new revision.
    #[test]
    fn undo_and_redo_give_the_boards_before_and_after(
        start in board(),
        plans in vec(vec(op(), 1..8), 1..8),
    ) {
        let mut board = start;
        let mut history = History::new(1000);
        let mut states = vec![board.clone()];
        for ops in &plans {
            let before = board.clone();
            let mut tx = Transaction::begin(&mut board);
            apply_all(&mut tx, ops, true);
            let Some(commit) = tx.commit(Actor::Agent).expect("tidy plans commit") else {
                continue;
            };
            history.record(&commit);
            let after = board.clone();
            let undo = history.undo(&mut board, Actor::User).expect("undo").expect("a commit");
            prop_assert_eq!(undo.revision, commit.revision + 1);
            prop_assert_eq!(&board, &before);
            let redo = history.redo(&mut board, Actor::User).expect("redo").expect("a commit");
            prop_assert_eq!(redo.revision, commit.revision + 2);
            prop_assert_eq!(&board, &after);
            assert_consistent(&board);
            states.push(after);
        }
        for state in states.iter().rev().skip(1) {
            let revision = board.revision();
            history.undo(&mut board, Actor::User).expect("undo").expect("a commit");
            prop_assert_eq!(&board, state);
            prop_assert_eq!(board.revision(), revision + 1);
            assert_consistent(&board);
        }
        prop_assert!(!history.can_undo());
        prop_assert!(history.undo(&mut board, Actor::User).expect("nothing to undo").is_none());
        for state in states.iter().skip(1) {
            history.redo(&mut board, Actor::User).expect("redo").expect("a commit");
            prop_assert_eq!(&board, state);
            assert_consistent(&board);
        }
        prop_assert!(!history.can_redo());
    }

    /// (4) Every commit's inverse is exact: `Board::revert` gives the board before,
    /// revision included; its inverse steps, applied as a transaction, give the
    /// board before and its steps again the board after; inverting a step twice
    /// gives the step; and the inverse's change log is the commit's, mirrored.
    #[test]
    fn every_commit_inverse_is_exact(
        start in board(),
        plans in vec(vec(op(), 1..10), 1..6),
    ) {
        let mut board = start;
        for (before, commit, after) in commit_all(&mut board, &plans) {
            let mut reverted = after.clone();
            reverted.revert(&commit).expect("revert the last commit");
            prop_assert_eq!(&reverted, &before);
            prop_assert_eq!(reverted.revision(), before.revision());
            assert_consistent(&reverted);

            let mut there_and_back = after.clone();
            let mut tx = Transaction::begin(&mut there_and_back);
            tx.apply_steps(&commit.inverse_steps()).expect("inverse steps apply");
            let inverse = tx
                .commit(Actor::User)
                .expect("the inverse commits")
                .expect("the inverse changes the board back");
            prop_assert_eq!(&there_and_back, &before);
            let mut tx = Transaction::begin(&mut there_and_back);
            tx.apply_steps(&commit.steps).expect("the steps apply again");
            tx.commit(Actor::User).expect("the steps commit again");
            prop_assert_eq!(&there_and_back, &after);

            for step in &commit.steps {
                prop_assert_eq!(&step.inverse().inverse(), step);
            }
            // The inverse's change log is the commit's mirrored: what was added is
            // removed, what was removed is added back, and the updates go back to
            // the objects (and pages) as they were before.
            let mirrored = keyed(&inverse.changes());
            prop_assert_eq!(
                objects_only(records(&after, &before, &mirrored)),
                objects_only(expected_diff(&after, &before))
            );
        }
    }

    /// (5) `diff_boards` between the boards before and after any commit names
    /// exactly the objects and pages that differ, each with its object after; and
    /// the commit's own change log names the same objects.
    #[test]
    fn diff_boards_names_exactly_what_a_commit_changed(
        start in board(),
        plans in vec(vec(op(), 1..10), 1..6),
    ) {
        let mut board = start;
        for (before, commit, after) in commit_all(&mut board, &plans) {
            let diff = diff_boards(&before, &after, commit.revision, Actor::User);
            prop_assert!(diff
                .iter()
                .all(|c| c.revision == commit.revision && c.by == Actor::User));
            let diff = keyed(&diff);
            prop_assert_eq!(&records(&before, &after, &diff), &expected_diff(&before, &after));
            prop_assert_eq!(objects_only(keyed(&commit.changes())), objects_only(diff));
        }
    }

    /// (5) The same between two unrelated boards, whose ids overlap by chance (both
    /// count from 1): every kind of difference, pages included.
    #[test]
    fn diff_boards_names_exactly_what_differs_between_any_two_boards(
        old in board(),
        new in board(),
    ) {
        let diff = diff_boards(&old, &new, 7, Actor::Agent);
        prop_assert!(diff.iter().all(|c| c.revision == 7 && c.by == Actor::Agent));
        let diff = keyed(&diff);
        prop_assert_eq!(records(&old, &new, &diff), expected_diff(&old, &new));
        prop_assert!(diff_boards(&new, &new, 1, Actor::User).is_empty());
    }

    /// (6) `rewrite_to` makes any board into any other as one commit whose inverse
    /// gives the first board back exactly (how an outside version of a file
    /// becomes an undoable revision).
    #[test]
    fn turn_into_reaches_any_board_and_its_inverse_comes_back(
        old in board(),
        new in board(),
    ) {
        let mut board = old.clone();
        let mut tx = Transaction::begin(&mut board);
        tx.rewrite_to(&new).expect("steps to a valid board apply");
        let commit = tx.commit(Actor::User).expect("a valid board commits");
        prop_assert_eq!(&board, &new);
        assert_consistent(&board);
        match commit {
            None => prop_assert_eq!(&old, &new),
            Some(commit) => {
                let mut tx = Transaction::begin(&mut board);
                tx.apply_steps(&commit.inverse_steps()).expect("the inverse applies");
                tx.commit(Actor::User).expect("the inverse commits");
                prop_assert_eq!(&board, &old);
            }
        }
    }

    /// (7) `merge_from` of two versions edited apart from one base either refuses
    /// (an overlap, or a commit the two together break) and changes nothing, or
    /// keeps every object each side changed and everything else as it was.
    #[test]
    fn merge_from_keeps_what_each_side_changed(
        start in board(),
        mine_plans in vec(vec(op(), 1..6), 1..3),
        theirs_plans in vec(vec(op(), 1..6), 1..3),
    ) {
        let base = start.clone();
        let mut mine = start.clone();
        commit_all(&mut mine, &mine_plans);
        let mut theirs = start;
        commit_all(&mut theirs, &theirs_plans);
        let before = mine.clone();
        let committed = {
            let mut tx = Transaction::begin(&mut mine);
            match tx.merge_from(&base, &theirs) {
                Ok(()) => tx.commit(Actor::User).ok(),
                Err(_) => None,
            }
        };
        if committed.is_none() {
            prop_assert_eq!(&mine, &before);
            return Ok(());
        }
        assert_consistent(&mine);
        for page in base.pages().iter().chain(theirs.pages()).chain(before.pages()) {
            for object in &page.objects {
                let id = &object.id;
                let (b, t, m) = (base.object(id), theirs.object(id), before.object(id));
                let want = if t != b { t } else { m };
                prop_assert_eq!(mine.object(id), want, "object {}", id);
            }
        }
    }
}
