//! The engine's store for one caller ([`Access`]: a person, directly or through
//! their agent): which boards they may open, and their commits, made in their
//! name against the revision they were made on.

use std::sync::Arc;

use inkboard_core::{Board, Commit};
use inkboard_format::json::{board_to_json, commit_to_json};
use inkboard_store::{
    Author, AuthorKind, BoardId, Json, NewBoard, NewChange, StoreError, UserId, UserName,
};
use inkboard_tools::stored::{Keeper, Listed, Refused, StoredBoard, StoredCell};
use inkboard_tools::ToolError;

use crate::error::{not_found, tool_error};
use crate::held::{display_name, Held};

/// Who calls: a person, or their agent (a call made with one of their tokens).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub id: UserId,
    pub name: UserName,
    pub kind: AuthorKind,
}

impl Member {
    /// How their changes are shown: "Ann", or "Ann's agent".
    pub fn display(&self) -> String {
        display_name(self.name.as_str(), self.kind)
    }
}

/// The store as one member sees it: the engine's [`Keeper`] for their calls.
pub struct Access {
    pub held: Arc<Held>,
    pub who: Member,
}

impl Access {
    fn board_id(&self, id: &str) -> Result<BoardId, ToolError> {
        BoardId::parse(id).map_err(|_| not_found(id))
    }
}

impl Keeper for Access {
    fn board(&self, id: &str) -> Result<Arc<StoredCell>, ToolError> {
        let board = self.board_id(id)?;
        match self
            .held
            .store()
            .role(&board, self.who.id)
            .map_err(tool_error)?
        {
            Some(_) => {
                // An agent's call on the board: the people there see it work.
                if self.who.kind == AuthorKind::Agent {
                    self.held
                        .presence()
                        .agent(&board, self.who.id, self.who.name.as_str());
                }
                self.held.cell(&board)
            }
            None => Err(not_found(id)),
        }
    }

    fn catch_up(&self, cell: &StoredCell, copy: &mut StoredBoard) -> Result<(), ToolError> {
        self.held.catch_up(cell, copy)
    }

    fn commit(
        &self,
        cell: &StoredCell,
        copy: &mut StoredBoard,
        commit: &Commit,
    ) -> Result<(), Refused> {
        let board = self.board_id(&cell.id).map_err(Refused::Failed)?;
        let change = Json::from_value(&commit_to_json(commit, &copy.board));
        let title = commit
            .changes_title()
            .then(|| copy.board.title().to_string());
        let done = self.held.store().commit(NewChange {
            board: &board,
            base: commit.revision.saturating_sub(1),
            author: Author {
                user: self.who.id,
                kind: self.who.kind,
            },
            change: &change,
            title: title.as_deref(),
        });
        match done {
            Ok(done) => {
                copy.authors.insert(commit.revision, self.who.display());
                if self.who.kind == AuthorKind::Agent {
                    self.held
                        .presence()
                        .agent(&board, self.who.id, self.who.name.as_str());
                }
                if done.snapshot_due {
                    self.held.snapshot_later(&board, copy);
                }
                self.held.moved(&board, done.revision);
                Ok(())
            }
            Err(StoreError::Conflict { .. }) => Err(Refused::Moved),
            Err(e) => Err(Refused::Failed(tool_error(e))),
        }
    }

    fn create(&self, board: &Board) -> Result<String, ToolError> {
        let snapshot = Json::from_value(&board_to_json(board));
        let info = self
            .held
            .store()
            .create_board(NewBoard {
                title: board.title(),
                owner: self.who.id,
                revision: board.revision(),
                snapshot: &snapshot,
            })
            .map_err(tool_error)?;
        Ok(info.id.to_string())
    }

    fn list(&self) -> Result<Vec<Listed>, ToolError> {
        Ok(self
            .held
            .store()
            .boards_for(self.who.id)
            .map_err(tool_error)?
            .into_iter()
            .map(|(info, role)| Listed {
                id: info.id.to_string(),
                title: info.title,
                role: role.as_str().to_string(),
                revision: info.revision,
            })
            .collect())
    }
}
