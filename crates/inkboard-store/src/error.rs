//! The one error type of this crate. Domain errors (a conflict, a board not found, a
//! role missing) are variants a caller matches on and answers in its own words; the
//! database's own failures are carried whole, with the back end named, because they
//! reach an administrator's log rather than a client.

use crate::model::{BoardId, Role, UserName};

/// Why a store operation did not happen. Nothing was changed when one is returned:
/// every write runs in one database transaction, rolled back on any error.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The board was not at the revision the change was made on: someone else
    /// committed first. Load the board again (or apply the changes after your
    /// revision) and redo the change on revision `current`.
    #[error("the board moved to revision {current} while this change was made on revision {expected}: apply the change again on the new revision")]
    Conflict { expected: u64, current: u64 },

    /// No board with this id, or one the caller has no role on: the two are one
    /// answer on purpose, so a board's existence is never revealed to a stranger.
    #[error("no board {0}: check the id, or ask its owner to share it with you")]
    BoardNotFound(BoardId),

    /// The caller has a role on the board, but a lesser one than the operation
    /// needs (a viewer committing, an editor sharing).
    #[error("this needs the {needed} role on board {board}, and you are a {have}: ask an owner of the board to make you one")]
    Forbidden {
        board: BoardId,
        needed: Role,
        have: Role,
    },

    /// Unsharing or demoting the board's last owner would leave it with none.
    #[error("{user} is the last owner of board {board}: make someone else an owner first")]
    LastOwner { board: BoardId, user: UserName },

    /// Removing a person who is the only owner of boards would leave them ownerless.
    #[error(
        "{user} is the only owner of board(s) {}: share them with another owner first",
        list(boards)
    )]
    SoleOwner {
        user: UserName,
        boards: Vec<BoardId>,
    },

    /// No current (not removed) person has this name.
    #[error(
        "no person named {0:?}: list people with `admin users`, or add one with `admin add-user`"
    )]
    UserNotFound(String),

    /// A current person already has this name.
    #[error("a person named {0} already exists: choose another name")]
    UserExists(UserName),

    /// No API token with this id.
    #[error("no token {0}: list tokens with `admin tokens`")]
    TokenNotFound(i64),

    /// No sign-in link with this id.
    #[error("no sign-in link {0}: list links with `admin links`")]
    LinkNotFound(i64),

    /// A sign-in link that is unknown, already used, revoked or expired: one answer
    /// for all four, so a guesser learns nothing.
    #[error("this sign-in link is not valid (links work once and expire): ask for a new one")]
    InvalidLink,

    /// Text from outside did not pass a check (a name, an id, a label, a length of
    /// time). `what` names the argument, `why` says what it must be.
    #[error("{what}: {why}")]
    Invalid { what: &'static str, why: String },

    /// A revision past what the database holds (2^63 − 1).
    #[error("revision {0} is too large (at most 9223372036854775807)")]
    RevisionRange(u64),

    /// The database was made or upgraded by a newer inkboard, whose schema this
    /// one does not know.
    #[error("the database's schema is at version {found}, newer than this inkboard knows ({known}): upgrade inkboard")]
    SchemaTooNew { found: i64, known: i64 },

    /// A migration already applied to the database differs from the one this build
    /// carries: the database and the program disagree about the schema.
    #[error("migration {version} ({name}) applied to this database differs from this inkboard's copy: the schema was changed by hand or by another build; restore a backup or use the build that made it")]
    MigrationChanged { version: i64, name: String },

    /// The database holds a value this store did not write (a column of the wrong
    /// type, text that is not JSON): a bug, or a database edited by hand.
    #[error("the database holds an unexpected value ({0}): was it edited by hand?")]
    Corrupt(String),

    /// Every pooled connection stayed busy for the whole wait.
    #[error("no database connection came free within {0:?}: the database is overloaded or a transaction is stuck")]
    PoolTimeout(std::time::Duration),

    /// The SQLite database file or its folder could not be prepared.
    #[error("cannot prepare the database at {path}: {source}")]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },

    /// SQLite failed (the file is locked for longer than the busy timeout, the disk
    /// is full, the file is not a database...).
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),

    /// PostgreSQL failed (cannot connect, the connection broke, a statement failed).
    #[error("PostgreSQL: {0}")]
    Postgres(#[from] postgres::Error),
}

fn list(boards: &[BoardId]) -> String {
    boards
        .iter()
        .map(BoardId::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

impl StoreError {
    pub(crate) fn corrupt(what: impl Into<String>) -> Self {
        StoreError::Corrupt(what.into())
    }

    pub(crate) fn invalid(what: &'static str, why: impl Into<String>) -> Self {
        StoreError::Invalid {
            what,
            why: why.into(),
        }
    }
}
