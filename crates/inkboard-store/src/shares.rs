//! Roles on boards and the audit log: who may do what on a board, the checks made
//! inside writing transactions ([`require`], [`lock_board`]), sharing and
//! unsharing (never leaving a board without an owner), and the audit entries every
//! administrative act writes.

use crate::db::{Db, Dialect, Val};
use crate::model::{AuditAction, AuditEntry, BoardId, Operator, Role, Share, UserId, UserName};
use crate::people::current_user;
use crate::{Store, StoreError, Time};

impl Store {
    /// The role `user` holds on `board`, if any (none for a removed person).
    pub fn role(&self, board: &BoardId, user: UserId) -> Result<Option<Role>, StoreError> {
        self.with_db(|db| role_of(db, board, user))
    }

    /// Gives `name` the role `role` on `board` (or changes theirs). An operator
    /// who is a person must be an owner of the board.
    pub fn share(
        &self,
        board: &BoardId,
        name: &UserName,
        role: Role,
        by: Operator,
    ) -> Result<Share, StoreError> {
        let now = self.now();
        self.write(|db| {
            lock_board(db, board)?.ok_or_else(|| StoreError::BoardNotFound(board.clone()))?;
            require(db, board, by, Role::Owner)?;
            let user = current_user(db, name)?
                .ok_or_else(|| StoreError::UserNotFound(name.to_string()))?;
            let before = role_of(db, board, user.id)?;
            let share = Share {
                user: user.id,
                name: user.name.clone(),
                role,
            };
            if before == Some(role) {
                return Ok(share);
            }
            if before == Some(Role::Owner) && owners(db, board)? == 1 {
                return Err(StoreError::LastOwner {
                    board: board.clone(),
                    user: user.name,
                });
            }
            db.execute(
                "INSERT INTO shares (board, user_id, role) VALUES ($1, $2, $3) \
                 ON CONFLICT (board, user_id) DO UPDATE SET role = excluded.role",
                &[
                    Val::Text(board.as_str()),
                    Val::Int(user.id.0),
                    Val::Text(role.as_str()),
                ],
            )?;
            let entry = Audit::new(AuditAction::Shared, by)
                .board(board)
                .subject(user.id)
                .role(role);
            record(db, now, entry)?;
            Ok(share)
        })
    }

    /// Takes away `name`'s role on `board`; answers whether they had one. An
    /// operator who is a person must be an owner of the board, or `name` itself:
    /// anyone may leave a board (except its last owner), and leaving one without
    /// a role is [`StoreError::BoardNotFound`], as for a stranger.
    pub fn unshare(
        &self,
        board: &BoardId,
        name: &UserName,
        by: Operator,
    ) -> Result<bool, StoreError> {
        let now = self.now();
        self.write(|db| {
            lock_board(db, board)?.ok_or_else(|| StoreError::BoardNotFound(board.clone()))?;
            let user = current_user(db, name)?
                .ok_or_else(|| StoreError::UserNotFound(name.to_string()))?;
            let leaving = by == Operator::Person(user.id);
            if !leaving {
                require(db, board, by, Role::Owner)?;
            }
            let Some(before) = role_of(db, board, user.id)? else {
                // Someone leaving a board they have no role on learns no more
                // than a stranger does.
                return if leaving {
                    Err(StoreError::BoardNotFound(board.clone()))
                } else {
                    Ok(false)
                };
            };
            if before == Role::Owner && owners(db, board)? == 1 {
                return Err(StoreError::LastOwner {
                    board: board.clone(),
                    user: user.name,
                });
            }
            db.execute(
                "DELETE FROM shares WHERE board = $1 AND user_id = $2",
                &[Val::Text(board.as_str()), Val::Int(user.id.0)],
            )?;
            let entry = Audit::new(AuditAction::Unshared, by)
                .board(board)
                .subject(user.id)
                .role(before);
            record(db, now, entry)?;
            Ok(true)
        })
    }

    /// Who holds which role on `board`, by name. A person asking needs a role on
    /// the board themselves.
    pub fn shares(&self, board: &BoardId, by: Operator) -> Result<Vec<Share>, StoreError> {
        self.read(|db| {
            if !board_exists(db, board)? {
                return Err(StoreError::BoardNotFound(board.clone()));
            }
            require(db, board, by, Role::Viewer)?;
            db.query(
                "SELECT u.id, u.name, s.role FROM shares s JOIN users u ON u.id = s.user_id \
                 WHERE s.board = $1 AND u.removed IS NULL ORDER BY u.name, u.id",
                &[Val::Text(board.as_str())],
            )?
            .iter()
            .map(|r| {
                Ok(Share {
                    user: UserId(r.int(0)?),
                    name: stored_name(r.text(1)?)?,
                    role: stored_role(&r.text(2)?)?,
                })
            })
            .collect()
        })
    }

    /// The latest `limit` entries of the audit log, newest first.
    pub fn audit(&self, limit: usize) -> Result<Vec<AuditEntry>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.with_db(|db| {
            db.query(
                "SELECT a.id, a.at, ua.name, a.action, a.board, us.name, a.role, a.detail \
                 FROM audit a LEFT JOIN users ua ON ua.id = a.actor \
                 LEFT JOIN users us ON us.id = a.subject ORDER BY a.id DESC LIMIT $1",
                &[Val::Int(limit)],
            )?
            .iter()
            .map(|r| {
                Ok(AuditEntry {
                    id: r.int(0)?,
                    time: Time(r.int(1)?),
                    actor: r.opt_text(2)?.map(stored_name).transpose()?,
                    action: AuditAction::parse(&r.text(3)?)?,
                    board: r.opt_text(4)?.map(|b| stored_board(&b)).transpose()?,
                    subject: r.opt_text(5)?.map(stored_name).transpose()?,
                    role: r.opt_text(6)?.map(|t| stored_role(&t)).transpose()?,
                    detail: r.opt_text(7)?,
                })
            })
            .collect()
        })
    }
}

/// Locks the board's row until the transaction ends, so the checks made on it
/// hold until the write (PostgreSQL; SQLite's writer already holds the database),
/// and answers its revision and its snapshot's.
pub(crate) fn lock_board(
    db: &mut dyn Db,
    board: &BoardId,
) -> Result<Option<(u64, u64)>, StoreError> {
    let sql = match db.dialect() {
        Dialect::Postgres => {
            "SELECT revision, snapshot_revision FROM boards WHERE id = $1 FOR UPDATE"
        }
        Dialect::Sqlite => "SELECT revision, snapshot_revision FROM boards WHERE id = $1",
    };
    db.query_opt(sql, &[Val::Text(board.as_str())])?
        .map(|r| Ok((r.revision(0)?, r.revision(1)?)))
        .transpose()
}

pub(crate) fn board_exists(db: &mut dyn Db, board: &BoardId) -> Result<bool, StoreError> {
    Ok(db
        .query_opt(
            "SELECT 1 FROM boards WHERE id = $1",
            &[Val::Text(board.as_str())],
        )?
        .is_some())
}

/// The role of a current person on a board.
pub(crate) fn role_of(
    db: &mut dyn Db,
    board: &BoardId,
    user: UserId,
) -> Result<Option<Role>, StoreError> {
    db.query_opt(
        "SELECT s.role FROM shares s JOIN users u ON u.id = s.user_id \
         WHERE s.board = $1 AND s.user_id = $2 AND u.removed IS NULL",
        &[Val::Text(board.as_str()), Val::Int(user.0)],
    )?
    .map(|r| stored_role(&r.text(0)?))
    .transpose()
}

/// Checks that the operator may act on an existing board with the `needed` role:
/// the administrator always may; a person without a role is told the board does
/// not exist, one with a lesser role which role it takes.
pub(crate) fn require(
    db: &mut dyn Db,
    board: &BoardId,
    by: Operator,
    needed: Role,
) -> Result<Role, StoreError> {
    let Operator::Person(user) = by else {
        return Ok(Role::Owner);
    };
    match role_of(db, board, user)? {
        None => Err(StoreError::BoardNotFound(board.clone())),
        Some(have) if have < needed => Err(StoreError::Forbidden {
            board: board.clone(),
            needed,
            have,
        }),
        Some(have) => Ok(have),
    }
}

/// How many current owners a board has.
pub(crate) fn owners(db: &mut dyn Db, board: &BoardId) -> Result<i64, StoreError> {
    db.query_opt(
        "SELECT COUNT(*) FROM shares s JOIN users u ON u.id = s.user_id \
         WHERE s.board = $1 AND s.role = 'owner' AND u.removed IS NULL",
        &[Val::Text(board.as_str())],
    )?
    .map_or(Ok(0), |r| r.int(0))
}

/// One audit entry being made.
pub(crate) struct Audit<'a> {
    action: AuditAction,
    by: Operator,
    board: Option<&'a BoardId>,
    subject: Option<UserId>,
    role: Option<Role>,
    detail: Option<String>,
}

impl<'a> Audit<'a> {
    pub(crate) fn new(action: AuditAction, by: Operator) -> Audit<'a> {
        Audit {
            action,
            by,
            board: None,
            subject: None,
            role: None,
            detail: None,
        }
    }

    pub(crate) fn board(mut self, board: &'a BoardId) -> Self {
        self.board = Some(board);
        self
    }

    pub(crate) fn subject(mut self, user: UserId) -> Self {
        self.subject = Some(user);
        self
    }

    pub(crate) fn role(mut self, role: Role) -> Self {
        self.role = Some(role);
        self
    }

    pub(crate) fn detail(mut self, detail: String) -> Self {
        self.detail = Some(detail);
        self
    }
}

/// Writes an audit entry, in the caller's transaction.
pub(crate) fn record(db: &mut dyn Db, now: Time, a: Audit<'_>) -> Result<(), StoreError> {
    let actor = match a.by {
        Operator::Admin => Val::Null,
        Operator::Person(u) => Val::Int(u.0),
    };
    db.execute(
        "INSERT INTO audit (at, actor, action, board, subject, role, detail) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        &[
            Val::Int(now.0),
            actor,
            Val::Text(a.action.as_str()),
            Val::opt_text(a.board.map(BoardId::as_str)),
            a.subject.map_or(Val::Null, |u| Val::Int(u.0)),
            Val::opt_text(a.role.map(Role::as_str)),
            Val::opt_text(a.detail.as_deref()),
        ],
    )?;
    Ok(())
}

pub(crate) fn stored_role(text: &str) -> Result<Role, StoreError> {
    Role::parse(text).map_err(|_| StoreError::corrupt(format!("role {text:?}")))
}

pub(crate) fn stored_name(text: String) -> Result<UserName, StoreError> {
    UserName::parse(&text).map_err(|_| StoreError::corrupt(format!("name {text:?}")))
}

pub(crate) fn stored_board(text: &str) -> Result<BoardId, StoreError> {
    BoardId::parse(text).map_err(|_| StoreError::corrupt(format!("board id {text:?}")))
}
