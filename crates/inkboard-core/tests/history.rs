//! Undo and redo: each is a new commit that brings the board back to the state
//! before (or after) the commit it takes back; a new commit clears redo; the limit
//! bounds how far back undo goes.

mod common;

use common::*;
use inkboard_core::{Actor, Board, Commit, History, IdKind, Kind, ModelError, Transaction};

/// Makes `n` commits of varied kinds on the sample board and records each; returns
/// the board after each (the first is the start).
fn commits(s: &mut Sample, history: &mut History, n: usize) -> Vec<Board> {
    let mut states = vec![s.board.clone()];
    for i in 0..n {
        let mut tx = Transaction::begin(&mut s.board);
        match i % 5 {
            0 => {
                let id = tx.new_id(IdKind::Shape);
                tx.insert(s.p1, Some(1), shape(&id, &format!("n{i}")))
                    .unwrap();
            }
            1 => {
                tx.edit(&s.c, |o| {
                    if let Kind::Shape(sh) = &mut o.kind {
                        sh.text = format!("c{i}");
                    }
                })
                .unwrap();
                tx.reorder(&s.c, 0).unwrap();
            }
            2 => {
                let p = tx.add_page(&format!("page {i}"), Some(0)).unwrap();
                tx.rename_page(s.p2, &format!("two {i}")).unwrap();
                let id = tx.new_id(IdKind::Shape);
                tx.insert(p, None, shape(&id, "on new page")).unwrap();
            }
            3 => {
                tx.set_title(&format!("title {i}")).unwrap();
                let last = tx.board().pages().first().unwrap().id;
                tx.remove_page(last).unwrap();
            }
            _ => {
                tx.remove(&s.link).unwrap();
                let id = tx.new_id(IdKind::Connector);
                tx.insert(s.p1, Some(0), connector(&id, &s.b, &s.a))
                    .unwrap();
                let link = id.clone();
                s.link = link;
            }
        }
        let commit = tx.commit(Actor::User).unwrap().unwrap();
        history.record(&commit);
        states.push(s.board.clone());
    }
    states
}

#[test]
fn undo_and_redo_walk_back_and_forth_through_the_states() {
    let mut s = sample();
    let mut history = History::new(100);
    let states = commits(&mut s, &mut history, 10);
    let mut revision = s.board.revision();
    for state in states.iter().rev().skip(1) {
        let commit = history.undo(&mut s.board, Actor::User).unwrap().unwrap();
        revision += 1;
        assert_eq!(commit.revision, revision, "undo is a new commit");
        assert_eq!(s.board.revision(), revision);
        assert_eq!(&s.board, state);
        assert_consistent(&s.board);
    }
    assert!(!history.can_undo());
    assert_eq!(history.undo(&mut s.board, Actor::User), Ok(None));
    assert_eq!(s.board.revision(), revision, "no undo, no revision");
    for state in states.iter().skip(1) {
        history.redo(&mut s.board, Actor::User).unwrap().unwrap();
        assert_eq!(&s.board, state);
        assert_consistent(&s.board);
    }
    assert!(!history.can_redo());
    assert_eq!(history.redo(&mut s.board, Actor::User), Ok(None));
}

#[test]
fn undo_commit_is_the_inverse_of_the_commit() {
    let mut s = sample();
    let mut history = History::new(10);
    let mut tx = Transaction::begin(&mut s.board);
    tx.set_title("x").unwrap();
    tx.remove(&s.c).unwrap();
    let commit = tx.commit(Actor::Agent).unwrap().unwrap();
    history.record(&commit);
    let undo = history.undo(&mut s.board, Actor::User).unwrap().unwrap();
    assert_eq!(undo.by, Actor::User);
    assert_eq!(undo.steps, commit.inverse_steps());
    let redo = history.redo(&mut s.board, Actor::Agent).unwrap().unwrap();
    assert_eq!(redo.steps, commit.steps);
}

#[test]
fn a_new_commit_clears_redo() {
    let mut s = sample();
    let mut history = History::new(100);
    commits(&mut s, &mut history, 3);
    history.undo(&mut s.board, Actor::User).unwrap().unwrap();
    assert!(history.can_redo());
    let mut tx = Transaction::begin(&mut s.board);
    tx.set_title("new branch").unwrap();
    history.record(&tx.commit(Actor::User).unwrap().unwrap());
    assert!(!history.can_redo());
    assert_eq!(history.redo(&mut s.board, Actor::User), Ok(None));
    assert_eq!(s.board.title(), "new branch");
}

#[test]
fn the_limit_bounds_how_far_undo_goes() {
    let mut s = sample();
    let mut history = History::new(3);
    let states = commits(&mut s, &mut history, 6);
    for _ in 0..3 {
        history.undo(&mut s.board, Actor::User).unwrap().unwrap();
    }
    assert!(!history.can_undo());
    assert_eq!(history.undo(&mut s.board, Actor::User), Ok(None));
    assert_eq!(s.board, states[3]);
}

#[test]
fn a_history_keeps_at_least_one_step() {
    for mut history in [History::new(0), History::default()] {
        let mut s = sample();
        let before = s.board.clone();
        let mut tx = Transaction::begin(&mut s.board);
        tx.set_title("once").unwrap();
        history.record(&tx.commit(Actor::User).unwrap().unwrap());
        assert!(history.can_undo());
        history.undo(&mut s.board, Actor::User).unwrap().unwrap();
        assert_eq!(s.board, before);
    }
}

#[test]
fn an_undo_that_no_longer_fits_fails_cleanly_and_stays_undoable() {
    let mut s = sample();
    let mut history = History::new(10);
    let mut tx = Transaction::begin(&mut s.board);
    tx.edit(&s.c, |o| {
        if let Kind::Shape(sh) = &mut o.kind {
            sh.text = "mine".into();
        }
    })
    .unwrap();
    history.record(&tx.commit(Actor::User).unwrap().unwrap());

    // Someone else (not in this history) edits the same record, and moves another.
    let mut tx = Transaction::begin(&mut s.board);
    tx.edit(&s.c, |o| {
        if let Kind::Shape(sh) = &mut o.kind {
            sh.text = "theirs".into();
        }
    })
    .unwrap();
    tx.commit(Actor::Agent).unwrap().unwrap();

    let before = snapshot(&s.board);
    let err = history.undo(&mut s.board, Actor::User).unwrap_err();
    assert!(matches!(err, ModelError::Stale(_)), "{err:?}");
    assert!(err.to_string().contains(s.c.as_str()), "{err}");
    assert_eq!(snapshot(&s.board), before, "their edit survives");
    assert!(history.can_undo(), "the failed undo is kept");
    assert!(!history.can_redo());
}

#[test]
fn undo_of_a_removal_puts_things_back_where_they_were() {
    let mut s = sample();
    let before = s.board.clone();
    let mut history = History::new(10);
    let mut tx = Transaction::begin(&mut s.board);
    tx.remove(&s.link).unwrap();
    tx.remove(&s.grp).unwrap();
    tx.remove(&s.a).unwrap();
    tx.remove_page(s.p2).unwrap();
    let commit: Commit = tx.commit(Actor::Agent).unwrap().unwrap();
    history.record(&commit);
    history.undo(&mut s.board, Actor::User).unwrap().unwrap();
    assert_eq!(s.board, before);
    assert_eq!(s.board.locate(&s.a), Some((s.p1, 0)));
    assert_eq!(s.board.locate(&s.d), Some((s.p2, 0)));
    assert_consistent(&s.board);
}

/// Commits `f` on the sample board as `by` and records it.
fn step(s: &mut Sample, history: &mut History, by: Actor, f: impl FnOnce(&mut Transaction)) {
    let mut tx = Transaction::begin(&mut s.board);
    f(&mut tx);
    let commit = tx.commit(by).unwrap().unwrap();
    history.record(&commit);
}

/// The person's own undo (the MCP App view's): it takes back the person's last
/// step, never an agent's, which stays on the board; a person's step whose
/// records an agent changed since is refused, and nothing changes.
#[test]
fn the_persons_own_undo_leaves_the_agents_steps_in_place() {
    let mut s = sample();
    let mut history = History::new(100);
    let (p1, p2) = (s.p1, s.p2);
    let name = |b: &Board, p| b.page(p).unwrap().name.clone();
    assert!(!history.can_undo_own(Actor::User));
    step(&mut s, &mut history, Actor::User, |tx| {
        tx.rename_page(p1, "mine").unwrap()
    });
    step(&mut s, &mut history, Actor::Agent, |tx| {
        tx.rename_page(p2, "theirs").unwrap()
    });
    assert!(history.can_undo_own(Actor::User));

    let undone = history.undo_own(&mut s.board, Actor::User).unwrap();
    assert!(undone.is_some_and(|c| c.by == Actor::User));
    assert_ne!(name(&s.board, p1), "mine");
    assert_eq!(name(&s.board, p2), "theirs", "the agent's step stays");
    // Nothing more of the person's to undo; the agent's step is not one.
    assert!(!history.can_undo_own(Actor::User));
    assert_eq!(history.undo_own(&mut s.board, Actor::User).unwrap(), None);
    assert_eq!(name(&s.board, p2), "theirs");

    assert!(history.can_redo_own(Actor::User));
    history.redo_own(&mut s.board, Actor::User).unwrap();
    assert_eq!(name(&s.board, p1), "mine");
    assert_eq!(name(&s.board, p2), "theirs");

    // The agent renames the person's page again: the person's step no longer
    // fits, and undoing it changes nothing.
    step(&mut s, &mut history, Actor::Agent, |tx| {
        tx.rename_page(p1, "theirs too").unwrap()
    });
    let before = s.board.clone();
    let refused = history.undo_own(&mut s.board, Actor::User);
    assert!(matches!(refused, Err(ModelError::Stale(_))), "{refused:?}");
    assert_eq!(s.board, before);
    assert!(history.can_undo_own(Actor::User), "the step is kept");
}
