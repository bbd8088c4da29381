//! The schema's migrations, kept as SQL files in `migrations/sqlite/` and
//! `migrations/postgres/` (one file per version and back end, compiled in), run
//! when a store opens.
//!
//! All of it runs in one transaction that first takes a lock only one process can
//! hold (PostgreSQL: a transaction-scoped advisory lock; SQLite: the write lock),
//! so `serve` processes started together migrate once and the others find it
//! done. Each applied version is recorded in `schema_migrations` with the SHA-256
//! of its text: a database whose applied migration differs from this build's copy,
//! or that holds a version this build does not know, is refused rather than used
//! with a schema the code was not written for.
//!
//! Our own runner rather than `refinery`: it is this page, it takes that lock
//! (refinery leaves concurrent starts to the caller), and it brings no second copy
//! of `rusqlite` or `postgres` to keep in step.

use sha2::{Digest, Sha256};

use crate::clock::Time;
use crate::db::{transaction, Db, Dialect, Val};
use crate::StoreError;

/// One version of the schema, in each back end's SQL.
struct Migration {
    version: i64,
    name: &'static str,
    sqlite: &'static str,
    postgres: &'static str,
}

/// Every migration, in order. A new one is a new pair of files and a line here;
/// an applied one is never edited (its checksum would no longer match).
const MIGRATIONS: &[Migration] = &[Migration {
    version: 1,
    name: "init",
    sqlite: include_str!("../migrations/sqlite/0001_init.sql"),
    postgres: include_str!("../migrations/postgres/0001_init.sql"),
}];

/// The newest schema version this build knows.
pub const SCHEMA_VERSION: i64 = 1;

/// The advisory lock's key: "inkboard" in ASCII, as a 64-bit integer.
const LOCK_KEY: i64 = 0x696e_6b62_6f61_7264;

/// The files a migration comes from, for the test that checks every file in
/// `migrations/` is listed: (version, file name, SQLite text, PostgreSQL text).
pub fn listed() -> Vec<(i64, &'static str, &'static str, &'static str)> {
    MIGRATIONS
        .iter()
        .map(|m| (m.version, m.name, m.sqlite, m.postgres))
        .collect()
}

/// Brings the schema up to [`SCHEMA_VERSION`]; answers the versions it applied
/// (none when the database was up to date).
pub(crate) fn migrate(db: &mut dyn Db, now: Time) -> Result<Vec<i64>, StoreError> {
    let dialect = db.dialect();
    transaction(db, true, |db| {
        let table = match dialect {
            Dialect::Postgres => {
                db.batch(&format!("SELECT pg_advisory_xact_lock({LOCK_KEY})"))?;
                "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, \
                 name TEXT NOT NULL, checksum BYTEA NOT NULL, applied BIGINT NOT NULL)"
            }
            Dialect::Sqlite => {
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, \
                 name TEXT NOT NULL, checksum BLOB NOT NULL, applied INTEGER NOT NULL)"
            }
        };
        db.batch(table)?;
        let rows = db.query(
            "SELECT version, name, checksum FROM schema_migrations ORDER BY version",
            &[],
        )?;
        let mut done = Vec::new();
        for row in rows {
            let version = row.int(0)?;
            let Some(m) = MIGRATIONS.iter().find(|m| m.version == version) else {
                return Err(StoreError::SchemaTooNew {
                    found: version,
                    known: SCHEMA_VERSION,
                });
            };
            if row.bytes(2)? != checksum(m.text(dialect)) {
                return Err(StoreError::MigrationChanged {
                    version,
                    name: row.text(1)?,
                });
            }
            done.push(version);
        }
        let mut applied = Vec::new();
        for m in MIGRATIONS.iter().filter(|m| !done.contains(&m.version)) {
            db.batch(m.text(dialect))?;
            db.execute(
                "INSERT INTO schema_migrations (version, name, checksum, applied) \
                 VALUES ($1, $2, $3, $4)",
                &[
                    Val::Int(m.version),
                    Val::Text(m.name),
                    Val::Bytes(&checksum(m.text(dialect))),
                    Val::Int(now.0),
                ],
            )?;
            applied.push(m.version);
        }
        Ok(applied)
    })
}

impl Migration {
    fn text(&self, dialect: Dialect) -> &'static str {
        match dialect {
            Dialect::Sqlite => self.sqlite,
            Dialect::Postgres => self.postgres,
        }
    }
}

/// The SHA-256 of a migration's text, its line ends made `\n` so that a checkout
/// that made them into `\r\n` does not look like an edit.
fn checksum(text: &str) -> Vec<u8> {
    Sha256::digest(text.replace("\r\n", "\n").as_bytes()).to_vec()
}
