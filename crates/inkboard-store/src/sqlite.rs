//! The embedded back end: one SQLite file through `rusqlite` (SQLite compiled in).
//!
//! Each pooled connection opens the file in WAL mode, so readers never wait for
//! the writer and one writer at a time takes the write lock (`BEGIN IMMEDIATE`),
//! waiting up to the busy timeout for it, across threads and processes alike.
//! `synchronous=FULL` makes every commit wait for its WAL frames to reach the disk:
//! an acknowledged change survives the process being killed and the machine
//! losing power (`NORMAL` would survive the first only).

use std::fs::OpenOptions;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::Duration;

use rusqlite::types::{Null, ValueRef};
use rusqlite::{Connection, OpenFlags};

use crate::db::{Cell, Db, Dialect, Row, Val};
use crate::StoreError;

pub(crate) struct SqliteConn {
    conn: Connection,
}

impl SqliteConn {
    /// Opens (or creates) the database file. A new file is created readable by
    /// its owner alone before SQLite opens it, because SQLite gives its WAL and
    /// shared-memory files the database file's permissions.
    pub(crate) fn open(path: &Path, busy: Duration) -> Result<SqliteConn, StoreError> {
        let io = |source| StoreError::Io {
            path: path.to_path_buf(),
            source,
        };
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)
            .map_err(io)?;
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)?;
        conn.busy_timeout(busy)?;
        let mode = wal_mode(&conn, busy)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::corrupt(format!(
                "SQLite refused WAL mode (journal mode {mode})"
            )));
        }
        conn.execute_batch("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")?;
        Ok(SqliteConn { conn })
    }
}

/// Switches the file to WAL mode, trying again while another connection holds
/// a lock, up to the busy timeout. SQLite does not call the busy handler for
/// this switch when the connection would have to raise a read lock it already
/// holds (that could deadlock), so several processes opening one new file at
/// once get "database is locked" at once instead of waiting.
fn wal_mode(conn: &Connection, busy: Duration) -> Result<String, StoreError> {
    let deadline = std::time::Instant::now() + busy;
    let mut pause = Duration::from_millis(1);
    loop {
        match conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get::<_, String>(0)) {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy
                    && std::time::Instant::now() + pause < deadline =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            other => return Ok(other?),
        }
    }
}

impl Db for SqliteConn {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn execute(&mut self, sql: &'static str, params: &[Val<'_>]) -> Result<u64, StoreError> {
        let mut stmt = self.conn.prepare_cached(sql)?;
        bind(&mut stmt, params)?;
        Ok(stmt.raw_execute()? as u64)
    }

    fn query(&mut self, sql: &'static str, params: &[Val<'_>]) -> Result<Vec<Row>, StoreError> {
        let mut stmt = self.conn.prepare_cached(sql)?;
        bind(&mut stmt, params)?;
        let columns = stmt.column_count();
        let mut rows = stmt.raw_query();
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            let mut cells = Vec::with_capacity(columns);
            for i in 0..columns {
                cells.push(match row.get_ref(i)? {
                    ValueRef::Null => Cell::Null,
                    ValueRef::Integer(v) => Cell::Int(v),
                    ValueRef::Text(t) => Cell::Text(
                        String::from_utf8(t.to_vec())
                            .map_err(|_| StoreError::corrupt("text that is not UTF-8"))?,
                    ),
                    ValueRef::Blob(b) => Cell::Bytes(b.to_vec()),
                    ValueRef::Real(v) => {
                        return Err(StoreError::corrupt(format!("a real number {v}")))
                    }
                });
            }
            out.push(Row(cells));
        }
        Ok(out)
    }

    fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        Ok(self.conn.execute_batch(sql)?)
    }

    fn begin(&mut self, write: bool) -> Result<(), StoreError> {
        Ok(self
            .conn
            .execute_batch(if write { "BEGIN IMMEDIATE" } else { "BEGIN" })?)
    }

    fn commit(&mut self) -> Result<(), StoreError> {
        Ok(self.conn.execute_batch("COMMIT")?)
    }

    fn rollback(&mut self) -> Result<(), StoreError> {
        Ok(self.conn.execute_batch("ROLLBACK")?)
    }

    fn reusable(&mut self) -> bool {
        self.conn.is_autocommit()
    }
}

/// Binds `params` to the statement's `$N` parameters by number. SQLite numbers
/// named parameters in the order they first appear, so `$2` before `$1` in the
/// text would otherwise take the first value.
fn bind(stmt: &mut rusqlite::CachedStatement<'_>, params: &[Val<'_>]) -> Result<(), StoreError> {
    for index in 1..=stmt.parameter_count() {
        let number = stmt
            .parameter_name(index)
            .and_then(|name| name.strip_prefix('$'))
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| (1..=params.len()).contains(n))
            .ok_or(rusqlite::Error::InvalidParameterCount(index, params.len()))?;
        match params[number - 1] {
            Val::Int(v) => stmt.raw_bind_parameter(index, v)?,
            Val::Text(v) => stmt.raw_bind_parameter(index, v)?,
            Val::Bytes(v) => stmt.raw_bind_parameter(index, v)?,
            Val::Null => stmt.raw_bind_parameter(index, Null)?,
        }
    }
    Ok(())
}
