//! Boards and their changes: making a board, listing what a person may see,
//! committing a change against the revision it was made on, loading a board as
//! its latest snapshot plus the changes after it, and keeping snapshots fresh.

use crate::db::{is_unique_violation, rev, Db, Dialect, Row, Val};
use crate::model::{
    AuditAction, Author, AuthorKind, BoardId, BoardInfo, Committed, Loaded, Operator, Role,
    StoredChange, UserId, MAX_TITLE_CHARS,
};
use crate::notify::{payload, BoardMoved};
use crate::pg::CHANNEL;
use crate::shares::{
    board_exists, lock_board, record, require, role_of, stored_board, stored_name, stored_role,
    Audit,
};
use crate::{Json, Store, StoreError, Time};

/// A board to make.
#[derive(Clone, Debug)]
pub struct NewBoard<'a> {
    pub title: &'a str,
    /// The person who makes it, and its first owner.
    pub owner: UserId,
    /// The revision the snapshot is of (0 for a new board; a pushed file's own).
    pub revision: u64,
    /// The board as the format crate's document.
    pub snapshot: &'a Json,
}

/// A change to commit.
#[derive(Clone, Debug)]
pub struct NewChange<'a> {
    pub board: &'a BoardId,
    /// The revision the change was made on: it commits only if the board is still
    /// there, as revision `base + 1`.
    pub base: u64,
    pub author: Author,
    /// The change as its committer's JSON value, kept as given. For the engine:
    /// the committed transaction's steps, each with its before and after in the
    /// format crate's object JSON, so that a loader replays it on the snapshot
    /// and an undo inverts it without the board it was made on.
    pub change: &'a Json,
    /// The board's title after the change, when the change renamed it (kept in
    /// the listing, which does not read snapshots).
    pub title: Option<&'a str>,
}

impl Store {
    /// Makes a board owned by `new.owner`, at `new.revision`, with its snapshot.
    pub fn create_board(&self, new: NewBoard<'_>) -> Result<BoardInfo, StoreError> {
        check_title(new.title)?;
        let revision = rev(new.revision)?;
        let now = self.now();
        self.write(|db| {
            let owner = db.query_opt(
                "SELECT 1 FROM users WHERE id = $1 AND removed IS NULL",
                &[Val::Int(new.owner.0)],
            )?;
            if owner.is_none() {
                return Err(StoreError::UserNotFound(format!("#{}", new.owner.0)));
            }
            // 82 random bits: a second draw is as good as never needed, but costs
            // one look-up to be sure.
            let id = loop {
                let id = BoardId::random();
                if !board_exists(db, &id)? {
                    break id;
                }
            };
            db.execute(
                "INSERT INTO boards (id, title, created_by, created, revision, snapshot_revision) \
                 VALUES ($1, $2, $3, $4, $5, $5)",
                &[
                    Val::Text(id.as_str()),
                    Val::Text(new.title),
                    Val::Int(new.owner.0),
                    Val::Int(now.0),
                    Val::Int(revision),
                ],
            )?;
            db.execute(
                "INSERT INTO snapshots (board, revision, doc) VALUES ($1, $2, $3)",
                &[
                    Val::Text(id.as_str()),
                    Val::Int(revision),
                    Val::Text(new.snapshot.as_str()),
                ],
            )?;
            db.execute(
                "INSERT INTO shares (board, user_id, role) VALUES ($1, $2, 'owner')",
                &[Val::Text(id.as_str()), Val::Int(new.owner.0)],
            )?;
            let entry = Audit::new(AuditAction::BoardCreated, Operator::Person(new.owner))
                .board(&id)
                .subject(new.owner)
                .role(Role::Owner);
            record(db, now, entry)?;
            Ok(BoardInfo {
                id: id.clone(),
                title: new.title.to_string(),
                created_by: new.owner,
                created: now,
                revision: new.revision,
            })
        })
    }

    /// A board's listing facts and the caller's role on it; a board the caller has
    /// no role on is [`StoreError::BoardNotFound`], as a missing one.
    pub fn board(&self, board: &BoardId, user: UserId) -> Result<(BoardInfo, Role), StoreError> {
        self.read(|db| {
            let role = role_of(db, board, user)?
                .ok_or_else(|| StoreError::BoardNotFound(board.clone()))?;
            let info =
                board_info(db, board)?.ok_or_else(|| StoreError::BoardNotFound(board.clone()))?;
            Ok((info, role))
        })
    }

    /// The boards `user` holds a role on, with it, by title.
    pub fn boards_for(&self, user: UserId) -> Result<Vec<(BoardInfo, Role)>, StoreError> {
        self.with_db(|db| {
            db.query(
                "SELECT b.id, b.title, b.created_by, b.created, b.revision, s.role \
                 FROM boards b JOIN shares s ON s.board = b.id JOIN users u ON u.id = s.user_id \
                 WHERE s.user_id = $1 AND u.removed IS NULL ORDER BY b.title, b.id",
                &[Val::Int(user.0)],
            )?
            .iter()
            .map(|r| Ok((info_from(r)?, stored_role(&r.text(5)?)?)))
            .collect()
        })
    }

    /// Every board (for the administrator), oldest first.
    pub fn all_boards(&self) -> Result<Vec<BoardInfo>, StoreError> {
        self.with_db(|db| {
            db.query(
                "SELECT b.id, b.title, b.created_by, b.created, b.revision FROM boards b \
                 ORDER BY b.created, b.id",
                &[],
            )?
            .iter()
            .map(info_from)
            .collect()
        })
    }

    /// A board's current revision, or `None` if there is no such board (for a
    /// holder that may have missed events, see [`crate::Event::Reconnected`]).
    pub fn revision(&self, board: &BoardId) -> Result<Option<u64>, StoreError> {
        self.with_db(|db| Ok(board_info(db, board)?.map(|i| i.revision)))
    }

    /// A board whole: its latest snapshot and every change after it, from one
    /// consistent view. For a caller that has checked the role already (or the
    /// administrator); [`Store::load_for`] checks it.
    pub fn load(&self, board: &BoardId) -> Result<Loaded, StoreError> {
        self.read(|db| load(db, board))
    }

    /// [`Store::load`] for a person, with their role; a board they have no role on
    /// is [`StoreError::BoardNotFound`].
    pub fn load_for(&self, board: &BoardId, user: UserId) -> Result<(Loaded, Role), StoreError> {
        self.read(|db| {
            let role = role_of(db, board, user)?
                .ok_or_else(|| StoreError::BoardNotFound(board.clone()))?;
            Ok((load(db, board)?, role))
        })
    }

    /// The changes after revision `after`, at most `limit`, in order (for a holder
    /// catching up from a cached state, and for the history).
    pub fn changes_after(
        &self,
        board: &BoardId,
        after: u64,
        limit: usize,
    ) -> Result<Vec<StoredChange>, StoreError> {
        let after = rev(after)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(|db| {
            if !board_exists(db, board)? {
                return Err(StoreError::BoardNotFound(board.clone()));
            }
            changes(db, board, after, limit)
        })
    }

    /// Commits a change as revision `base + 1` if the board is still at `base` and
    /// the author may edit it; else [`StoreError::Conflict`] with the current
    /// revision (nothing written), [`StoreError::Forbidden`] for a viewer, or
    /// [`StoreError::BoardNotFound`] for someone without a role.
    pub fn commit(&self, c: NewChange<'_>) -> Result<Committed, StoreError> {
        if let Some(title) = c.title {
            check_title(title)?;
        }
        let next_u = c
            .base
            .checked_add(1)
            .ok_or(StoreError::RevisionRange(c.base))?;
        let (base, next) = (rev(c.base)?, rev(next_u)?);
        let every = self.options().snapshot_every.max(1);
        let now = self.now();
        let done = self.write(|db| {
            let (current, snapshot) = lock_board(db, c.board)?
                .ok_or_else(|| StoreError::BoardNotFound(c.board.clone()))?;
            require(db, c.board, Operator::Person(c.author.user), Role::Editor)?;
            if current != c.base {
                return Err(StoreError::Conflict {
                    expected: c.base,
                    current,
                });
            }
            let inserted = db.execute(
                "INSERT INTO changes (board, revision, author, author_kind, at, change) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[
                    Val::Text(c.board.as_str()),
                    Val::Int(next),
                    Val::Int(c.author.user.0),
                    Val::Text(c.author.kind.as_str()),
                    Val::Int(now.0),
                    Val::Text(c.change.as_str()),
                ],
            );
            // The row lock makes this unreachable; were it reached, the primary
            // key has refused a second change for one revision, which is a conflict.
            if let Err(e) = inserted {
                return Err(if is_unique_violation(&e) {
                    StoreError::Conflict {
                        expected: c.base,
                        current: next_u,
                    }
                } else {
                    e
                });
            }
            db.execute(
                "UPDATE boards SET revision = $2, title = COALESCE($3, title) \
                 WHERE id = $1 AND revision = $4",
                &[
                    Val::Text(c.board.as_str()),
                    Val::Int(next),
                    Val::opt_text(c.title),
                    Val::Int(base),
                ],
            )?;
            if db.dialect() == Dialect::Postgres {
                let note = payload(c.board, next_u);
                db.execute(
                    "SELECT pg_notify($1, $2)",
                    &[Val::Text(CHANNEL), Val::Text(&note)],
                )?;
            }
            Ok(Committed {
                revision: next_u,
                snapshot_due: next_u - snapshot >= every,
            })
        })?;
        self.moved_here(BoardMoved {
            board: c.board.clone(),
            revision: done.revision,
        });
        Ok(done)
    }

    /// Keeps `doc`, the board at `revision`, as its snapshot, if it is newer than
    /// the one kept; older snapshots go. Answers whether it was kept.
    pub fn save_snapshot(
        &self,
        board: &BoardId,
        revision: u64,
        doc: &Json,
    ) -> Result<bool, StoreError> {
        let r = rev(revision)?;
        self.write(|db| {
            let (current, kept) =
                lock_board(db, board)?.ok_or_else(|| StoreError::BoardNotFound(board.clone()))?;
            if revision > current {
                return Err(StoreError::invalid(
                    "snapshot",
                    format!("revision {revision} is past the board's ({current})"),
                ));
            }
            if revision <= kept {
                return Ok(false);
            }
            let id = Val::Text(board.as_str());
            db.execute(
                "INSERT INTO snapshots (board, revision, doc) VALUES ($1, $2, $3)",
                &[id, Val::Int(r), Val::Text(doc.as_str())],
            )?;
            db.execute(
                "UPDATE boards SET snapshot_revision = $2 WHERE id = $1",
                &[id, Val::Int(r)],
            )?;
            db.execute(
                "DELETE FROM snapshots WHERE board = $1 AND revision < $2",
                &[id, Val::Int(r)],
            )?;
            Ok(true)
        })
    }

    /// Deletes a board with its changes, snapshots and roles (an owner, or the
    /// administrator). The audit log keeps its id.
    pub fn delete_board(&self, board: &BoardId, by: Operator) -> Result<(), StoreError> {
        let now = self.now();
        self.write(|db| {
            lock_board(db, board)?.ok_or_else(|| StoreError::BoardNotFound(board.clone()))?;
            require(db, board, by, Role::Owner)?;
            let id = Val::Text(board.as_str());
            // The references cascade; deleting the dependents first, explicitly,
            // keeps that true should a foreign key be declared without it.
            db.execute("DELETE FROM changes WHERE board = $1", &[id])?;
            db.execute("DELETE FROM snapshots WHERE board = $1", &[id])?;
            db.execute("DELETE FROM shares WHERE board = $1", &[id])?;
            db.execute("DELETE FROM boards WHERE id = $1", &[id])?;
            record(
                db,
                now,
                Audit::new(AuditAction::BoardDeleted, by).board(board),
            )
        })
    }
}

fn check_title(title: &str) -> Result<(), StoreError> {
    if title.chars().count() > MAX_TITLE_CHARS {
        return Err(StoreError::invalid(
            "title",
            format!("at most {MAX_TITLE_CHARS} characters"),
        ));
    }
    Ok(())
}

fn board_info(db: &mut dyn Db, board: &BoardId) -> Result<Option<BoardInfo>, StoreError> {
    db.query_opt(
        "SELECT b.id, b.title, b.created_by, b.created, b.revision FROM boards b WHERE b.id = $1",
        &[Val::Text(board.as_str())],
    )?
    .as_ref()
    .map(info_from)
    .transpose()
}

fn info_from(r: &Row) -> Result<BoardInfo, StoreError> {
    Ok(BoardInfo {
        id: stored_board(&r.text(0)?)?,
        title: r.text(1)?,
        created_by: UserId(r.int(2)?),
        created: Time(r.int(3)?),
        revision: r.revision(4)?,
    })
}

fn load(db: &mut dyn Db, board: &BoardId) -> Result<Loaded, StoreError> {
    let info = board_info(db, board)?.ok_or_else(|| StoreError::BoardNotFound(board.clone()))?;
    let snap = db
        .query_opt(
            "SELECT revision, doc FROM snapshots WHERE board = $1 ORDER BY revision DESC LIMIT 1",
            &[Val::Text(board.as_str())],
        )?
        .ok_or_else(|| StoreError::corrupt(format!("board {board} without a snapshot")))?;
    let snapshot_revision = snap.revision(0)?;
    let changes = changes(db, board, rev(snapshot_revision)?, i64::MAX)?;
    Ok(Loaded {
        info,
        snapshot: Json::stored(snap.text(1)?),
        snapshot_revision,
        changes,
    })
}

fn changes(
    db: &mut dyn Db,
    board: &BoardId,
    after: i64,
    limit: i64,
) -> Result<Vec<StoredChange>, StoreError> {
    db.query(
        "SELECT c.revision, c.author, c.author_kind, u.name, c.at, c.change \
         FROM changes c JOIN users u ON u.id = c.author \
         WHERE c.board = $1 AND c.revision > $2 ORDER BY c.revision LIMIT $3",
        &[Val::Text(board.as_str()), Val::Int(after), Val::Int(limit)],
    )?
    .iter()
    .map(|r| {
        Ok(StoredChange {
            revision: r.revision(0)?,
            author: Author {
                user: UserId(r.int(1)?),
                kind: AuthorKind::parse(&r.text(2)?)?,
            },
            author_name: stored_name(r.text(3)?)?,
            time: Time(r.int(4)?),
            change: Json::stored(r.text(5)?),
        })
    })
    .collect()
}
