//! Undo and redo over committed transactions. Undoing a commit applies its inverse
//! steps as a new commit, so the revision only ever grows and the change log sees
//! undo and redo like any other change.

use crate::{Actor, Board, Commit, ModelError, Transaction};

/// The undo and redo stacks of one board.
///
/// Limitations: history is linear (a new commit clears redo) and bounded by
/// `limit` entries; it lives in memory only and is not saved with the board. An
/// undo or redo fails (and stays on its stack) when the records it would touch were
/// changed by commits not recorded here.
#[derive(Debug, Clone)]
pub struct History {
    done: Vec<Commit>,
    undone: Vec<Commit>,
    limit: usize,
}

impl Default for History {
    fn default() -> Self {
        History::new(History::DEFAULT_LIMIT)
    }
}

impl History {
    /// How many commits a default history can undo.
    pub const DEFAULT_LIMIT: usize = 100;

    pub fn new(limit: usize) -> Self {
        History {
            done: Vec::new(),
            undone: Vec::new(),
            limit: limit.max(1),
        }
    }

    /// Records a commit as one undo step and forgets what could be redone.
    pub fn record(&mut self, commit: &Commit) {
        self.done.push(commit.clone());
        if self.done.len() > self.limit {
            self.done.remove(0);
        }
        self.undone.clear();
    }

    pub fn can_undo(&self) -> bool {
        !self.done.is_empty()
    }
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Takes back the last step. Returns the commit that did it, or `None` when
    /// there is nothing to undo.
    pub fn undo(&mut self, board: &mut Board, by: Actor) -> Result<Option<Commit>, ModelError> {
        let Some(last) = self.done.pop() else {
            return Ok(None);
        };
        let mut tx = Transaction::begin(board);
        let result = tx
            .apply_steps(&last.inverse_steps())
            .and_then(|_| tx.commit(by));
        match result {
            Ok(commit) => {
                self.undone.push(last);
                Ok(commit)
            }
            Err(e) => {
                self.done.push(last);
                Err(e)
            }
        }
    }

    /// Whether `whose` made a step that [`History::undo_own`] could take back.
    pub fn can_undo_own(&self, whose: Actor) -> bool {
        self.done.iter().any(|c| c.by == whose)
    }

    /// Whether a step of `whose` was undone and could be done again.
    pub fn can_redo_own(&self, whose: Actor) -> bool {
        self.undone.iter().any(|c| c.by == whose)
    }

    /// Takes back the last step that `by` made, leaving the later steps of
    /// others in place: the person's undo on a board an agent edits too takes
    /// back the person's own work, never the agent's. Its inverse applies only
    /// to records still as it left them, so a later step that changed them makes
    /// it fail ([`ModelError::Stale`]), changing nothing. `None` when `by` made
    /// no step to undo.
    pub fn undo_own(&mut self, board: &mut Board, by: Actor) -> Result<Option<Commit>, ModelError> {
        let Some(at) = self.done.iter().rposition(|c| c.by == by) else {
            return Ok(None);
        };
        let step = self.done.remove(at);
        let mut tx = Transaction::begin(board);
        let result = tx
            .apply_steps(&step.inverse_steps())
            .and_then(|_| tx.commit(by));
        match result {
            Ok(commit) => {
                self.undone.push(step);
                Ok(commit)
            }
            Err(e) => {
                self.done.insert(at, step);
                Err(e)
            }
        }
    }

    /// Does again the last step of `by` that was undone, as [`History::undo_own`]
    /// takes one back.
    pub fn redo_own(&mut self, board: &mut Board, by: Actor) -> Result<Option<Commit>, ModelError> {
        let Some(at) = self.undone.iter().rposition(|c| c.by == by) else {
            return Ok(None);
        };
        let step = self.undone.remove(at);
        let mut tx = Transaction::begin(board);
        let result = tx.apply_steps(&step.steps).and_then(|_| tx.commit(by));
        match result {
            Ok(commit) => {
                self.done.push(step);
                Ok(commit)
            }
            Err(e) => {
                self.undone.insert(at, step);
                Err(e)
            }
        }
    }

    /// Does again the last undone step.
    pub fn redo(&mut self, board: &mut Board, by: Actor) -> Result<Option<Commit>, ModelError> {
        let Some(next) = self.undone.pop() else {
            return Ok(None);
        };
        let mut tx = Transaction::begin(board);
        let result = tx.apply_steps(&next.steps).and_then(|_| tx.commit(by));
        match result {
            Ok(commit) => {
                self.done.push(next);
                Ok(commit)
            }
            Err(e) => {
                self.undone.push(next);
                Err(e)
            }
        }
    }
}
