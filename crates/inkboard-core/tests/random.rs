//! Property tests over random edits, from a deterministic generator so that a
//! failure names the seed that replays it: dropped and refused transactions leave no
//! trace, savepoints roll back exactly, and undoing every commit returns to the start.

mod common;

use common::*;
use inkboard_core::{Actor, History, Transaction};

const SEEDS: u64 = 300;

#[test]
fn dropped_transactions_of_random_edits_leave_no_trace() {
    for seed in 0..SEEDS {
        let mut rng = Rng::new(seed);
        let mut board = random_board(&mut rng);
        let before = snapshot(&board);
        {
            let mut tx = Transaction::begin(&mut board);
            for _ in 0..1 + rng.below(25) {
                // Untidy edits are welcome: nothing is committed.
                let _ = random_edit(&mut tx, &mut rng, false);
            }
            assert_indexed(tx.board());
        }
        assert_eq!(snapshot(&board), before, "seed {seed}");
        assert_consistent(&board);
    }
}

#[test]
fn rollback_to_a_random_savepoint_restores_it_exactly() {
    for seed in 0..SEEDS {
        let mut rng = Rng::new(seed);
        let mut board = random_board(&mut rng);
        let mut tx = Transaction::begin(&mut board);
        for _ in 0..rng.below(10) {
            let _ = random_edit(&mut tx, &mut rng, false);
        }
        let at = snapshot(tx.board());
        let point = tx.savepoint();
        for _ in 0..1 + rng.below(10) {
            let _ = random_edit(&mut tx, &mut rng, false);
        }
        tx.rollback_to(point);
        assert_eq!(snapshot(tx.board()), at, "seed {seed}");
        assert_indexed(tx.board());
    }
}

#[test]
fn refused_commits_of_random_edits_leave_no_trace() {
    let mut refused = 0;
    for seed in 0..SEEDS {
        let mut rng = Rng::new(seed);
        let mut board = random_board(&mut rng);
        let before = snapshot(&board);
        let mut tx = Transaction::begin(&mut board);
        for _ in 0..1 + rng.below(15) {
            let _ = random_edit(&mut tx, &mut rng, false);
        }
        match tx.commit(Actor::Agent) {
            Ok(Some(commit)) => {
                assert_eq!(commit.revision, before.revision + 1);
                assert_consistent(&board);
            }
            Ok(None) => assert_eq!(board, before.board, "seed {seed}"),
            Err(_) => {
                refused += 1;
                assert_eq!(snapshot(&board), before, "seed {seed}");
                assert_consistent(&board);
            }
        }
    }
    // The generator must produce refusals for this test to mean anything.
    assert!(refused > SEEDS / 10, "only {refused} refusals");
}

#[test]
fn undoing_every_random_commit_returns_to_the_start_and_redo_to_the_end() {
    for seed in 0..SEEDS {
        let mut rng = Rng::new(seed);
        let mut board = random_board(&mut rng);
        let mut history = History::new(1000);
        let mut states = vec![board.clone()];
        for _ in 0..1 + rng.below(12) {
            let revision = board.revision();
            let mut tx = Transaction::begin(&mut board);
            for _ in 0..1 + rng.below(6) {
                random_edit(&mut tx, &mut rng, true).unwrap();
            }
            if let Some(commit) = tx.commit(Actor::Agent).unwrap() {
                assert_eq!(commit.revision, revision + 1, "seed {seed}");
                history.record(&commit);
                states.push(board.clone());
            }
            assert_consistent(&board);
        }
        for (i, state) in states.iter().enumerate().rev().skip(1) {
            history.undo(&mut board, Actor::User).unwrap().unwrap();
            assert_eq!(&board, state, "seed {seed}, undo to state {i}");
            assert_consistent(&board);
        }
        assert!(!history.can_undo());
        for (i, state) in states.iter().enumerate().skip(1) {
            history.redo(&mut board, Actor::User).unwrap().unwrap();
            assert_eq!(&board, state, "seed {seed}, redo to state {i}");
            assert_consistent(&board);
        }
    }
}
