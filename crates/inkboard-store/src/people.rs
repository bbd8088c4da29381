//! People and how they prove who they are: adding and removing people, API tokens
//! for their agents, one-time sign-in links, and the browser sessions a link
//! starts. Secrets are made and hashed by `secret.rs`; here they are stored,
//! found by hash, used up and revoked.

use std::time::Duration;

use crate::db::{Db, Row, Val};
use crate::model::{
    check_text, AuditAction, LinkInfo, Operator, Session, TokenInfo, User, UserId, UserName,
    MAX_LABEL_CHARS,
};
use crate::secret::{presented, Secret, SecretKind};
use crate::shares::{lock_board, owners, record, stored_board, stored_name, stored_role, Audit};
use crate::{Store, StoreError, Time};

/// The longest a sign-in link may stay valid.
pub const MAX_LINK_TTL: Duration = Duration::from_secs(7 * 24 * 3600);

/// A token's last use is written at most this often (ms), so checking a token is a
/// read and not a write on every call.
const LAST_USED_EVERY_MS: i64 = 60_000;

impl Store {
    /// Adds a person.
    pub fn add_user(&self, name: &UserName, by: Operator) -> Result<User, StoreError> {
        let now = self.now();
        let added = self.write(|db| {
            if current_user(db, name)?.is_some() {
                return Err(StoreError::UserExists(name.clone()));
            }
            let id = db
                .query_opt(
                    "INSERT INTO users (name, created) VALUES ($1, $2) RETURNING id",
                    &[Val::Text(name.as_str()), Val::Int(now.0)],
                )?
                .ok_or_else(|| StoreError::corrupt("INSERT … RETURNING gave no row"))?
                .int(0)?;
            record(
                db,
                now,
                Audit::new(AuditAction::UserAdded, by).subject(UserId(id)),
            )?;
            Ok(User {
                id: UserId(id),
                name: name.clone(),
                created: now,
                removed: None,
            })
        });
        // Two processes adding one name at once: the unique index refuses the
        // second, which is the same answer as finding the name taken.
        match added {
            Err(e) if crate::db::is_unique_violation(&e) => {
                Err(StoreError::UserExists(name.clone()))
            }
            other => other,
        }
    }

    /// Everyone, current and removed, by name.
    pub fn users(&self) -> Result<Vec<User>, StoreError> {
        self.with_db(|db| {
            db.query(
                "SELECT id, name, created, removed FROM users ORDER BY name, id",
                &[],
            )?
            .iter()
            .map(user_from)
            .collect()
        })
    }

    /// The current person of this name.
    pub fn user(&self, name: &UserName) -> Result<User, StoreError> {
        self.with_db(|db| current_user(db, name))?
            .ok_or_else(|| StoreError::UserNotFound(name.to_string()))
    }

    /// A person by id, current or removed.
    pub fn user_by_id(&self, id: UserId) -> Result<Option<User>, StoreError> {
        self.with_db(|db| {
            db.query_opt(
                "SELECT id, name, created, removed FROM users WHERE id = $1",
                &[Val::Int(id.0)],
            )?
            .as_ref()
            .map(user_from)
            .transpose()
        })
    }

    /// Removes a person: their roles are taken away, their tokens and unused links
    /// revoked and their sessions ended, all in one transaction. Refused while
    /// they are the only owner of a board.
    pub fn remove_user(&self, name: &UserName, by: Operator) -> Result<User, StoreError> {
        let now = self.now();
        self.write(|db| {
            let user = current_user(db, name)?
                .ok_or_else(|| StoreError::UserNotFound(name.to_string()))?;
            let id = Val::Int(user.id.0);
            let held = db.query(
                "SELECT board, role FROM shares WHERE user_id = $1 ORDER BY board",
                &[id],
            )?;
            let mut sole = Vec::new();
            let mut shares = Vec::new();
            for row in &held {
                let board = stored_board(&row.text(0)?)?;
                let role = stored_role(&row.text(1)?)?;
                // Locked in id order, as every writer locks boards, before the
                // owners are counted.
                lock_board(db, &board)?;
                if role == crate::Role::Owner && owners(db, &board)? == 1 {
                    sole.push(board.clone());
                }
                shares.push((board, role));
            }
            if !sole.is_empty() {
                return Err(StoreError::SoleOwner {
                    user: user.name,
                    boards: sole,
                });
            }
            db.execute("DELETE FROM shares WHERE user_id = $1", &[id])?;
            for (board, role) in &shares {
                let entry = Audit::new(AuditAction::Unshared, by)
                    .board(board)
                    .subject(user.id)
                    .role(*role);
                record(db, now, entry)?;
            }
            let at = Val::Int(now.0);
            let tokens = db.execute(
                "UPDATE tokens SET revoked = $2 WHERE user_id = $1 AND revoked IS NULL",
                &[id, at],
            )?;
            let links = db.execute(
                "UPDATE signin_links SET revoked = $2 \
                 WHERE user_id = $1 AND revoked IS NULL AND used IS NULL",
                &[id, at],
            )?;
            let sessions = db.execute(
                "UPDATE sessions SET ended = $2 WHERE user_id = $1 AND ended IS NULL",
                &[id, at],
            )?;
            db.execute("UPDATE users SET removed = $2 WHERE id = $1", &[id, at])?;
            let detail = format!(
                "{tokens} token(s) revoked, {links} link(s) revoked, {sessions} session(s) ended"
            );
            let entry = Audit::new(AuditAction::UserRemoved, by)
                .subject(user.id)
                .detail(detail);
            record(db, now, entry)?;
            Ok(User {
                removed: Some(now),
                ..user
            })
        })
    }

    /// A new API token for `name`'s agents. The secret is in the answer and
    /// nowhere else: show it once.
    pub fn create_token(
        &self,
        name: &UserName,
        label: &str,
        by: Operator,
    ) -> Result<(TokenInfo, Secret), StoreError> {
        check_text("label", label, MAX_LABEL_CHARS)?;
        let now = self.now();
        let secret = Secret::generate(SecretKind::Token);
        self.write(|db| {
            let user = acting_for(db, name, by)?;
            let id = db
                .query_opt(
                    "INSERT INTO tokens (user_id, label, hash, created) VALUES ($1, $2, $3, $4) \
                     RETURNING id",
                    &[
                        Val::Int(user.id.0),
                        Val::Text(label),
                        Val::Bytes(&secret.hash()),
                        Val::Int(now.0),
                    ],
                )?
                .ok_or_else(|| StoreError::corrupt("INSERT … RETURNING gave no row"))?
                .int(0)?;
            let entry = Audit::new(AuditAction::TokenCreated, by)
                .subject(user.id)
                .detail(format!("token {id}"));
            record(db, now, entry)?;
            let info = TokenInfo {
                id,
                user: user.name,
                label: label.to_string(),
                created: now,
                last_used: None,
                revoked: None,
            };
            Ok((info, secret))
        })
    }

    /// Tokens, all or one person's, oldest first.
    pub fn tokens(&self, name: Option<&UserName>) -> Result<Vec<TokenInfo>, StoreError> {
        self.with_db(|db| {
            let rows = match name {
                None => db.query(
                    "SELECT t.id, u.name, t.label, t.created, t.last_used, t.revoked \
                     FROM tokens t JOIN users u ON u.id = t.user_id ORDER BY t.id",
                    &[],
                )?,
                Some(name) => db.query(
                    "SELECT t.id, u.name, t.label, t.created, t.last_used, t.revoked \
                     FROM tokens t JOIN users u ON u.id = t.user_id \
                     WHERE u.name = $1 AND u.removed IS NULL ORDER BY t.id",
                    &[Val::Text(name.as_str())],
                )?,
            };
            rows.iter().map(token_from).collect()
        })
    }

    /// Revokes a token (a person may revoke their own). Revoking a revoked token
    /// changes nothing and answers it as it is.
    pub fn revoke_token(&self, id: i64, by: Operator) -> Result<TokenInfo, StoreError> {
        let now = self.now();
        self.write(|db| {
            let sql = "SELECT t.id, u.name, t.label, t.created, t.last_used, t.revoked, u.id \
                       FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.id = $1";
            let row = db
                .query_opt(sql, &[Val::Int(id)])?
                .ok_or(StoreError::TokenNotFound(id))?;
            let owner = UserId(row.int(6)?);
            if matches!(by, Operator::Person(p) if p != owner) {
                return Err(StoreError::TokenNotFound(id));
            }
            let mut info = token_from(&row)?;
            if info.revoked.is_some() {
                return Ok(info);
            }
            db.execute(
                "UPDATE tokens SET revoked = $2 WHERE id = $1",
                &[Val::Int(id), Val::Int(now.0)],
            )?;
            let entry = Audit::new(AuditAction::TokenRevoked, by)
                .subject(owner)
                .detail(format!("token {id}"));
            record(db, now, entry)?;
            info.revoked = Some(now);
            Ok(info)
        })
    }

    /// The person whose agent presents this token, if it is a current token of a
    /// current person. Anything else (garbage, revoked, unknown) is `None`.
    pub fn check_token(&self, token: &str) -> Result<Option<User>, StoreError> {
        let Some(hash) = presented(SecretKind::Token, token) else {
            return Ok(None);
        };
        let now = self.now();
        let found = self.with_db(|db| {
            db.query_opt(
                "SELECT t.id, t.last_used, u.id, u.name, u.created FROM tokens t \
                 JOIN users u ON u.id = t.user_id \
                 WHERE t.hash = $1 AND t.revoked IS NULL AND u.removed IS NULL",
                &[Val::Bytes(&hash)],
            )
        })?;
        let Some(row) = found else {
            return Ok(None);
        };
        let stale = row
            .opt_int(1)?
            .is_none_or(|t| now.0 - t >= LAST_USED_EVERY_MS);
        if stale {
            let token = row.int(0)?;
            // Bookkeeping for the token list: the token is good whether or not
            // this is written, so a failure here (a busy database) does not turn
            // a valid token away; the next check a minute on tries again.
            let _ = self.write(|db| {
                db.execute(
                    "UPDATE tokens SET last_used = $2 \
                     WHERE id = $1 AND (last_used IS NULL OR last_used < $2)",
                    &[Val::Int(token), Val::Int(now.0)],
                )
            });
        }
        Ok(Some(User {
            id: UserId(row.int(2)?),
            name: stored_name(row.text(3)?)?,
            created: Time(row.int(4)?),
            removed: None,
        }))
    }

    /// A one-time sign-in link for `name`, valid for `ttl` (at most a week). The
    /// secret is in the answer and nowhere else.
    pub fn create_link(
        &self,
        name: &UserName,
        ttl: Duration,
        by: Operator,
    ) -> Result<(LinkInfo, Secret), StoreError> {
        if ttl.is_zero() || ttl > MAX_LINK_TTL {
            return Err(StoreError::invalid(
                "expiry",
                "a sign-in link lasts more than nothing and at most 7 days",
            ));
        }
        let now = self.now();
        let expires = now.plus(ttl);
        let secret = Secret::generate(SecretKind::Link);
        self.write(|db| {
            let user = acting_for(db, name, by)?;
            let id = db
                .query_opt(
                    "INSERT INTO signin_links (user_id, hash, created, expires) \
                     VALUES ($1, $2, $3, $4) RETURNING id",
                    &[
                        Val::Int(user.id.0),
                        Val::Bytes(&secret.hash()),
                        Val::Int(now.0),
                        Val::Int(expires.0),
                    ],
                )?
                .ok_or_else(|| StoreError::corrupt("INSERT … RETURNING gave no row"))?
                .int(0)?;
            let entry = Audit::new(AuditAction::LinkCreated, by)
                .subject(user.id)
                .detail(format!("link {id}"));
            record(db, now, entry)?;
            let info = LinkInfo {
                id,
                user: user.name,
                created: now,
                expires,
                used: None,
                revoked: None,
            };
            Ok((info, secret))
        })
    }

    /// Sign-in links, all or one person's, oldest first.
    pub fn links(&self, name: Option<&UserName>) -> Result<Vec<LinkInfo>, StoreError> {
        self.with_db(|db| {
            let rows = match name {
                None => db.query(
                    "SELECT l.id, u.name, l.created, l.expires, l.used, l.revoked \
                     FROM signin_links l JOIN users u ON u.id = l.user_id ORDER BY l.id",
                    &[],
                )?,
                Some(name) => db.query(
                    "SELECT l.id, u.name, l.created, l.expires, l.used, l.revoked \
                     FROM signin_links l JOIN users u ON u.id = l.user_id \
                     WHERE u.name = $1 AND u.removed IS NULL ORDER BY l.id",
                    &[Val::Text(name.as_str())],
                )?,
            };
            rows.iter().map(link_from).collect()
        })
    }

    /// Revokes a sign-in link that was not used yet (a used or revoked one is
    /// answered as it is).
    pub fn revoke_link(&self, id: i64, by: Operator) -> Result<LinkInfo, StoreError> {
        let now = self.now();
        self.write(|db| {
            let row = db
                .query_opt(
                    "SELECT l.id, u.name, l.created, l.expires, l.used, l.revoked, u.id \
                     FROM signin_links l JOIN users u ON u.id = l.user_id WHERE l.id = $1",
                    &[Val::Int(id)],
                )?
                .ok_or(StoreError::LinkNotFound(id))?;
            let owner = UserId(row.int(6)?);
            if matches!(by, Operator::Person(p) if p != owner) {
                return Err(StoreError::LinkNotFound(id));
            }
            let mut info = link_from(&row)?;
            if info.revoked.is_some() || info.used.is_some() {
                return Ok(info);
            }
            db.execute(
                "UPDATE signin_links SET revoked = $2 WHERE id = $1",
                &[Val::Int(id), Val::Int(now.0)],
            )?;
            let entry = Audit::new(AuditAction::LinkRevoked, by)
                .subject(owner)
                .detail(format!("link {id}"));
            record(db, now, entry)?;
            info.revoked = Some(now);
            Ok(info)
        })
    }

    /// Uses a sign-in link: once, before it expires, if not revoked, for a current
    /// person. Answers the new session and its secret (the cookie's value).
    pub fn redeem_link(&self, link: &str) -> Result<(Session, Secret), StoreError> {
        let hash = presented(SecretKind::Link, link).ok_or(StoreError::InvalidLink)?;
        let now = self.now();
        let expires = now.plus(self.options().session_ttl);
        let secret = Secret::generate(SecretKind::Session);
        self.write(|db| {
            // One statement finds and uses the link: of two redeeming it at once,
            // the second finds it used (PostgreSQL re-reads the row it waited for).
            let row = db
                .query_opt(
                    "UPDATE signin_links SET used = $2 \
                     WHERE hash = $1 AND used IS NULL AND revoked IS NULL AND expires > $2 \
                     RETURNING id, user_id",
                    &[Val::Bytes(&hash), Val::Int(now.0)],
                )?
                .ok_or(StoreError::InvalidLink)?;
            let link = row.int(0)?;
            let user = db
                .query_opt(
                    "SELECT id, name, created, removed FROM users \
                     WHERE id = $1 AND removed IS NULL",
                    &[Val::Int(row.int(1)?)],
                )?
                .as_ref()
                .map(user_from)
                .transpose()?
                .ok_or(StoreError::InvalidLink)?;
            db.execute(
                "INSERT INTO sessions (hash, user_id, created, expires) VALUES ($1, $2, $3, $4)",
                &[
                    Val::Bytes(&secret.hash()),
                    Val::Int(user.id.0),
                    Val::Int(now.0),
                    Val::Int(expires.0),
                ],
            )?;
            let entry = Audit::new(AuditAction::SignedIn, Operator::Person(user.id))
                .subject(user.id)
                .detail(format!("link {link}"));
            record(db, now, entry)?;
            Ok((Session { user, expires }, secret))
        })
    }

    /// The person signed in by this session secret, if it is current.
    pub fn check_session(&self, session: &str) -> Result<Option<Session>, StoreError> {
        let Some(hash) = presented(SecretKind::Session, session) else {
            return Ok(None);
        };
        let now = self.now();
        self.with_db(|db| {
            let Some(row) = db.query_opt(
                "SELECT s.expires, u.id, u.name, u.created FROM sessions s \
                 JOIN users u ON u.id = s.user_id WHERE s.hash = $1 AND s.ended IS NULL \
                 AND s.expires > $2 AND u.removed IS NULL",
                &[Val::Bytes(&hash), Val::Int(now.0)],
            )?
            else {
                return Ok(None);
            };
            Ok(Some(Session {
                expires: Time(row.int(0)?),
                user: User {
                    id: UserId(row.int(1)?),
                    name: stored_name(row.text(2)?)?,
                    created: Time(row.int(3)?),
                    removed: None,
                },
            }))
        })
    }

    /// Ends a session (signing out); answers whether it was current.
    pub fn end_session(&self, session: &str) -> Result<bool, StoreError> {
        let Some(hash) = presented(SecretKind::Session, session) else {
            return Ok(false);
        };
        let now = self.now();
        self.write(|db| {
            Ok(db.execute(
                "UPDATE sessions SET ended = $2 WHERE hash = $1 AND ended IS NULL",
                &[Val::Bytes(&hash), Val::Int(now.0)],
            )? > 0)
        })
    }
}

/// The current person of this name, in the caller's transaction.
pub(crate) fn current_user(db: &mut dyn Db, name: &UserName) -> Result<Option<User>, StoreError> {
    db.query_opt(
        "SELECT id, name, created, removed FROM users WHERE name = $1 AND removed IS NULL",
        &[Val::Text(name.as_str())],
    )?
    .as_ref()
    .map(user_from)
    .transpose()
}

/// The current person `name`, if the operator may manage their tokens and links:
/// the administrator, or the person themselves.
fn acting_for(db: &mut dyn Db, name: &UserName, by: Operator) -> Result<User, StoreError> {
    let user = current_user(db, name)?.ok_or_else(|| StoreError::UserNotFound(name.to_string()))?;
    match by {
        Operator::Person(p) if p != user.id => Err(StoreError::invalid(
            "person",
            "only the administrator or the person themselves may make their tokens and links",
        )),
        _ => Ok(user),
    }
}

fn user_from(row: &Row) -> Result<User, StoreError> {
    Ok(User {
        id: UserId(row.int(0)?),
        name: stored_name(row.text(1)?)?,
        created: Time(row.int(2)?),
        removed: row.opt_int(3)?.map(Time),
    })
}

fn token_from(row: &Row) -> Result<TokenInfo, StoreError> {
    Ok(TokenInfo {
        id: row.int(0)?,
        user: stored_name(row.text(1)?)?,
        label: row.text(2)?,
        created: Time(row.int(3)?),
        last_used: row.opt_int(4)?.map(Time),
        revoked: row.opt_int(5)?.map(Time),
    })
}

fn link_from(row: &Row) -> Result<LinkInfo, StoreError> {
    Ok(LinkInfo {
        id: row.int(0)?,
        user: stored_name(row.text(1)?)?,
        created: Time(row.int(2)?),
        expires: Time(row.int(3)?),
        used: row.opt_int(4)?.map(Time),
        revoked: row.opt_int(5)?.map(Time),
    })
}
