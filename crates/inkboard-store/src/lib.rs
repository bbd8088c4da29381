//! inkboard's server store: boards, their changes and snapshots, people, roles,
//! API tokens, sign-in links, sessions and the audit log, kept in an embedded
//! SQLite file or in PostgreSQL, behind one synchronous [`Store`].
//!
//! The API is blocking, for the blocking threads the tool engine already runs on
//! (every MCP call is an `Engine::call` there); never call it from an async task.
//! A `Store` is cheap to clone and shared by all threads: each call takes a
//! connection from a small pool for the length of one transaction. Every operation
//! is written once, in SQL both databases read ([`db`](crate::db) is the seam); the
//! two differ only where the module docs of `sqlite.rs` and `pg.rs` say.
//!
//! What a board and a change are is not this crate's business: a snapshot is the
//! format crate's board document and a change is its committer's JSON value, both
//! kept as text ([`Json`]). Loading a board answers its latest snapshot and the
//! changes after it; the caller applies them. This crate knows nothing of MCP or
//! HTTP: its callers make a token or a cookie into a person, and a
//! [`StoreError`] into an answer.
//!
//! **Invariant: a board's revisions have no gaps and no repeats. Revision N+1 is
//! written only by a transaction that found the board at N, with the board's row
//! locked (PostgreSQL `FOR UPDATE`, SQLite's single writer), and the primary key
//! (board, revision) admits one change per revision; anything else is a
//! [`StoreError::Conflict`] naming the current revision.**
//!
//! **Invariant: an acknowledged commit is on disk. `commit` returns only after the
//! database committed durably (SQLite in WAL mode with `synchronous=FULL`;
//! PostgreSQL's default `synchronous_commit`), so a process killed at any moment
//! loses nothing it acknowledged.**
//!
//! **Invariant: every operation is one transaction; an error leaves nothing
//! behind.** The checks that guard a write (the author's role, the board's
//! revision, a board keeping an owner) are made inside the transaction that writes.
//!
//! **Invariant: a board the caller has no role on is answered exactly as a board
//! that does not exist ([`StoreError::BoardNotFound`]).**
//!
//! **Invariant: tokens, sign-in links and sessions are stored only as the SHA-256
//! of 256-bit random secrets; a secret leaves the store once, in the answer of the
//! call that made it.**
//!
//! **Invariant: every board has an owner at all times.** The last owner cannot be
//! unshared, demoted or removed.
//!
//! **Invariant: every share, unshare and revoke (and every person added or
//! removed, token or link made, sign-in, board made or deleted) writes an audit
//! entry in the same transaction.**
//!
//! **Invariant: `load` gives the latest snapshot and every change after it, read
//! from one consistent view of the database; applying those changes in order gives
//! the board at its revision.**
//!
//! **Invariant: with PostgreSQL, a commit's `NOTIFY` is sent in its transaction,
//! so every listening process hears of exactly the commits that happened.**

mod boards;
mod clock;
mod db;
mod error;
mod json;
mod migrate;
mod model;
mod notify;
mod people;
mod pg;
mod pool;
mod secret;
mod shares;
mod sqlite;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub use boards::{NewBoard, NewChange};
pub use clock::{Clock, Time};
pub use error::StoreError;
pub use json::Json;
pub use migrate::{listed as migrations, SCHEMA_VERSION};
pub use model::*;
pub use notify::{BoardMoved, Event, Signal, Subscription, MAX_SIGNAL_BYTES};
pub use secret::{Secret, SecretKind};

use db::{transaction, Db};
use notify::Hub;
use pg::PgConn;
use pool::Pool;
use sqlite::SqliteConn;

/// Where the store keeps its data.
#[derive(Clone, PartialEq, Eq)]
pub enum Location {
    /// An SQLite database file (made, with its folder, if missing).
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://USER:PASSWORD@HOST:PORT/DB`) or
    /// `key=value` string.
    Postgres(String),
}

impl Location {
    /// The name of the SQLite file in a data folder.
    pub const SQLITE_FILE: &'static str = "inkboard.db";

    /// The embedded database in the data folder `dir`.
    pub fn in_data_dir(dir: &Path) -> Location {
        Location::Sqlite(dir.join(Self::SQLITE_FILE))
    }

    /// A `--database` value: a `postgres://` or `postgresql://` URL.
    pub fn parse(database: &str) -> Result<Location, StoreError> {
        if database.starts_with("postgres://") || database.starts_with("postgresql://") {
            Ok(Location::Postgres(database.to_string()))
        } else {
            Err(StoreError::invalid(
                "database",
                "give a postgres://USER:PASSWORD@HOST:PORT/DATABASE URL (without --database, boards are kept in SQLite in the data folder)",
            ))
        }
    }
}

impl fmt::Debug for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Sqlite(path) => write!(f, "Sqlite({path:?})"),
            // A URL may carry a password: it is never printed.
            Location::Postgres(_) => f.write_str("Postgres(…)"),
        }
    }
}

/// How the store behaves; [`Options::default`] suits a server.
#[derive(Clone, Debug)]
pub struct Options {
    /// The most connections open at once (writers to one SQLite file still take
    /// turns; more connections let readers go on meanwhile).
    pub pool_size: usize,
    /// How long a call waits for a free connection before failing.
    pub pool_wait: Duration,
    /// How long an SQLite writer waits for another (thread or process) to finish.
    pub busy_timeout: Duration,
    /// How long connecting to PostgreSQL may take.
    pub connect_timeout: Duration,
    /// A commit asks for a new snapshot once the latest is this many changes old.
    pub snapshot_every: u64,
    /// How long a session lasts after sign-in.
    pub session_ttl: Duration,
    /// Where the time comes from.
    pub clock: Clock,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            pool_size: 8,
            pool_wait: Duration::from_secs(30),
            busy_timeout: Duration::from_secs(10),
            connect_timeout: Duration::from_secs(10),
            snapshot_every: 100,
            session_ttl: Duration::from_secs(30 * 24 * 3600),
            clock: Clock::System,
        }
    }
}

/// The store. See the crate documentation.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    backend: Backend,
    hub: Arc<Hub>,
    options: Options,
    /// Whether the PostgreSQL listening thread runs.
    listening: Mutex<bool>,
}

enum Backend {
    /// The pool, and the lock this process's writers take turns on (see
    /// [`Store::write`]).
    Sqlite(Pool<SqliteConn>, Mutex<()>),
    Postgres {
        pool: Pool<PgConn>,
        /// For the listening connection (boxed: it is large, and read once).
        config: Box<postgres::Config>,
    },
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.hub
            .stop
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Store {
    /// Opens the store and brings its schema up to date (see `migrate.rs`).
    pub fn open(location: &Location, options: Options) -> Result<Store, StoreError> {
        let backend = match location {
            Location::Sqlite(path) => {
                let (path, busy) = (path.clone(), options.busy_timeout);
                Backend::Sqlite(
                    Pool::new(
                        options.pool_size,
                        options.pool_wait,
                        Box::new(move || SqliteConn::open(&path, busy)),
                    ),
                    Mutex::new(()),
                )
            }
            Location::Postgres(url) => {
                let config = pg::config(url, options.connect_timeout)?;
                let connect = config.clone();
                Backend::Postgres {
                    pool: Pool::new(
                        options.pool_size,
                        options.pool_wait,
                        Box::new(move || PgConn::connect(&connect)),
                    ),
                    config: Box::new(config),
                }
            }
        };
        let store = Store {
            inner: Arc::new(Inner {
                backend,
                hub: Arc::new(Hub::default()),
                options,
                listening: Mutex::new(false),
            }),
        };
        let now = store.now();
        store.with_db(|db| migrate::migrate(db, now))?;
        Ok(store)
    }

    /// The schema versions recorded in the database, in order.
    pub fn schema_versions(&self) -> Result<Vec<i64>, StoreError> {
        self.with_db(|db| {
            db.query(
                "SELECT version FROM schema_migrations ORDER BY version",
                &[],
            )?
            .iter()
            .map(|r| r.int(0))
            .collect()
        })
    }

    /// Whether this store keeps its data in PostgreSQL (shared by processes).
    pub fn is_shared(&self) -> bool {
        matches!(self.inner.backend, Backend::Postgres { .. })
    }

    /// Events for every board that moves from now on (see `notify.rs`).
    pub fn subscribe(&self) -> Result<Subscription, StoreError> {
        if let Backend::Postgres { config, .. } = &self.inner.backend {
            let mut listening = self
                .inner
                .listening
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            if !*listening {
                notify::start_listener((**config).clone(), self.inner.hub.clone())?;
                *listening = true;
            }
        }
        Ok(self.inner.hub.subscribe())
    }

    /// Tells every subscriber, on every process sharing the database, a note
    /// about who is on `board` (`body`: at most [`MAX_SIGNAL_BYTES`], else
    /// [`StoreError::Invalid`]). Nothing is stored: with PostgreSQL it is a
    /// `NOTIFY` on `inkboard_presence` outside any transaction, which a process
    /// not listening at that moment never hears; with SQLite it goes to this
    /// process's subscribers only.
    pub fn signal(&self, board: &BoardId, body: &str) -> Result<(), StoreError> {
        if body.len() > MAX_SIGNAL_BYTES {
            return Err(StoreError::invalid(
                "signal",
                format!("a presence note has at most {MAX_SIGNAL_BYTES} bytes"),
            ));
        }
        match &self.inner.backend {
            Backend::Sqlite(..) => {
                self.inner.hub.publish(Event::Signal(notify::Signal {
                    board: board.clone(),
                    body: body.to_string(),
                }));
                Ok(())
            }
            Backend::Postgres { pool, .. } => {
                let payload = notify::signal_payload(board, body);
                pool.get()?.execute(
                    "SELECT pg_notify('inkboard_presence', $1)",
                    &[db::Val::Text(&payload)],
                )?;
                Ok(())
            }
        }
    }

    pub(crate) fn options(&self) -> &Options {
        &self.inner.options
    }

    pub(crate) fn now(&self) -> Time {
        self.inner.options.clock.now()
    }

    /// Runs `f` on a pooled connection, outside any transaction.
    pub(crate) fn with_db<R>(
        &self,
        f: impl FnOnce(&mut dyn Db) -> Result<R, StoreError>,
    ) -> Result<R, StoreError> {
        match &self.inner.backend {
            Backend::Sqlite(pool, _) => f(&mut *pool.get()?),
            Backend::Postgres { pool, .. } => f(&mut *pool.get()?),
        }
    }

    /// Runs `f` in one writing transaction.
    ///
    /// SQLite has one writer at a time, and makes the others poll for the lock,
    /// sleeping up to 100 ms between tries: under contention most writers sleep
    /// while the lock is free, and the slowest wait a second. So this process's
    /// writers queue on a mutex of their own first and meet SQLite's lock free;
    /// the busy timeout is left to other processes (an `inkboard admin` command).
    pub(crate) fn write<R>(
        &self,
        f: impl FnOnce(&mut dyn Db) -> Result<R, StoreError>,
    ) -> Result<R, StoreError> {
        let _turn = match &self.inner.backend {
            Backend::Sqlite(_, writers) => Some(writers.lock().unwrap_or_else(|p| p.into_inner())),
            Backend::Postgres { .. } => None,
        };
        self.with_db(|db| transaction(db, true, f))
    }

    /// Runs `f` in one reading transaction (one consistent view).
    pub(crate) fn read<R>(
        &self,
        f: impl FnOnce(&mut dyn Db) -> Result<R, StoreError>,
    ) -> Result<R, StoreError> {
        self.with_db(|db| transaction(db, false, f))
    }

    /// Tells this process's subscribers that a board moved, where the database
    /// does not (SQLite).
    pub(crate) fn moved_here(&self, moved: BoardMoved) {
        if !self.is_shared() {
            self.inner.hub.publish(Event::Moved(moved));
        }
    }
}
