//! The seam between the store's logic and its two databases: [`Db`], one checked-out
//! connection that runs parameterised SQL and transactions, with the few values the
//! schema uses ([`Val`] in, [`Cell`] out). Every operation of the store is written
//! once, against this trait, in SQL both SQLite and PostgreSQL read (`$1` style
//! parameters, `RETURNING`, `ON CONFLICT`); where they differ (taking a row's lock,
//! sending a notification) the operation asks [`Db::dialect`].

use crate::StoreError;

/// Which database a connection speaks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Sqlite,
    Postgres,
}

/// A statement parameter. Integers are 64-bit everywhere in the schema.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Val<'a> {
    Int(i64),
    Text(&'a str),
    Bytes(&'a [u8]),
    Null,
}

impl<'a> Val<'a> {
    pub(crate) fn opt_text(text: Option<&'a str>) -> Val<'a> {
        text.map_or(Val::Null, Val::Text)
    }
}

/// A value read from a row.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cell {
    Int(i64),
    Text(String),
    Bytes(Vec<u8>),
    Null,
}

/// One row of a query's answer.
#[derive(Debug)]
pub(crate) struct Row(pub(crate) Vec<Cell>);

impl Row {
    fn cell(&self, i: usize) -> Result<&Cell, StoreError> {
        self.0
            .get(i)
            .ok_or_else(|| StoreError::corrupt(format!("a row without column {i}")))
    }

    pub(crate) fn int(&self, i: usize) -> Result<i64, StoreError> {
        self.opt_int(i)?
            .ok_or_else(|| StoreError::corrupt(format!("NULL in column {i}")))
    }

    pub(crate) fn opt_int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        match self.cell(i)? {
            Cell::Int(v) => Ok(Some(*v)),
            Cell::Null => Ok(None),
            other => Err(StoreError::corrupt(format!(
                "{other:?} where a number belongs (column {i})"
            ))),
        }
    }

    /// A revision: a non-negative integer.
    pub(crate) fn revision(&self, i: usize) -> Result<u64, StoreError> {
        let v = self.int(i)?;
        u64::try_from(v).map_err(|_| StoreError::corrupt(format!("revision {v}")))
    }

    pub(crate) fn text(&self, i: usize) -> Result<String, StoreError> {
        self.opt_text(i)?
            .ok_or_else(|| StoreError::corrupt(format!("NULL in column {i}")))
    }

    pub(crate) fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        match self.cell(i)? {
            Cell::Text(v) => Ok(Some(v.clone())),
            Cell::Null => Ok(None),
            other => Err(StoreError::corrupt(format!(
                "{other:?} where text belongs (column {i})"
            ))),
        }
    }

    pub(crate) fn bytes(&self, i: usize) -> Result<Vec<u8>, StoreError> {
        match self.cell(i)? {
            Cell::Bytes(v) => Ok(v.clone()),
            other => Err(StoreError::corrupt(format!(
                "{other:?} where bytes belong (column {i})"
            ))),
        }
    }
}

/// One database connection, checked out of the pool for one operation.
pub(crate) trait Db {
    fn dialect(&self) -> Dialect;

    /// Runs one statement; answers how many rows it changed.
    fn execute(&mut self, sql: &'static str, params: &[Val<'_>]) -> Result<u64, StoreError>;

    /// Runs one statement; answers its rows.
    fn query(&mut self, sql: &'static str, params: &[Val<'_>]) -> Result<Vec<Row>, StoreError>;

    /// Runs several statements without parameters (a migration).
    fn batch(&mut self, sql: &str) -> Result<(), StoreError>;

    /// Starts a transaction. A writing one takes the database's write lock at
    /// once in SQLite (`BEGIN IMMEDIATE`), so it never fails half-way for a lock
    /// another writer took after it read; a reading one sees one consistent state
    /// throughout (a WAL read transaction; PostgreSQL's `REPEATABLE READ`).
    fn begin(&mut self, write: bool) -> Result<(), StoreError>;

    fn commit(&mut self) -> Result<(), StoreError>;

    fn rollback(&mut self) -> Result<(), StoreError>;

    /// Whether the connection may go back to the pool: open, and not inside a
    /// transaction that could not be ended.
    fn reusable(&mut self) -> bool;

    /// The first row, if any.
    fn query_opt(
        &mut self,
        sql: &'static str,
        params: &[Val<'_>],
    ) -> Result<Option<Row>, StoreError> {
        Ok(self.query(sql, params)?.into_iter().next())
    }
}

/// Runs `f` in one transaction: committed if it answers `Ok`, rolled back if it
/// answers `Err` (the error is passed on; a failed rollback leaves the connection
/// unusable, and the pool drops it).
pub(crate) fn transaction<R>(
    db: &mut dyn Db,
    write: bool,
    f: impl FnOnce(&mut dyn Db) -> Result<R, StoreError>,
) -> Result<R, StoreError> {
    db.begin(write)?;
    match f(db) {
        Ok(r) => {
            if let Err(e) = db.commit() {
                // A failed COMMIT in SQLite leaves the transaction open.
                let _ = db.rollback();
                return Err(e);
            }
            Ok(r)
        }
        Err(e) => {
            let _ = db.rollback();
            Err(e)
        }
    }
}

/// Whether the error is a unique constraint that refused a row (a name taken, a
/// random id drawn twice, a revision already committed).
pub(crate) fn is_unique_violation(e: &StoreError) -> bool {
    match e {
        StoreError::Sqlite(rusqlite::Error::SqliteFailure(f, _)) => matches!(
            f.extended_code,
            rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE | rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
        ),
        StoreError::Postgres(e) => e.code() == Some(&postgres::error::SqlState::UNIQUE_VIOLATION),
        _ => false,
    }
}

/// A revision as the database's 64-bit signed integer.
pub(crate) fn rev(revision: u64) -> Result<i64, StoreError> {
    i64::try_from(revision).map_err(|_| StoreError::RevisionRange(revision))
}
