//! The shared back end: PostgreSQL through the synchronous `postgres` client, so
//! any number of `serve` processes share one database.
//!
//! Each pooled connection prepares a statement once and keeps it, so a statement
//! costs one round trip after its first use. A commit locks its board's row
//! (`SELECT … FOR UPDATE`) before reading the revision, so two processes
//! committing to one board take turns there, and the primary key on
//! `(board, revision)` refuses a second row for one revision should anything else
//! slip. Its `NOTIFY` is sent inside the transaction, so PostgreSQL delivers it
//! when, and only if, the change commits.

use std::collections::HashMap;
use std::error::Error;
use std::str::FromStr;
use std::time::Duration;

use bytes::BytesMut;
use postgres::types::{IsNull, ToSql, Type};
use postgres::{Client, Config, NoTls, Statement};

use crate::db::{Cell, Db, Dialect, Row, Val};
use crate::StoreError;

/// The notification channel: its payload is `BOARD:REVISION`.
pub(crate) const CHANNEL: &str = "inkboard_board";
/// The presence channel: its payload is `BOARD:BODY` (`notify.rs`).
pub(crate) const PRESENCE_CHANNEL: &str = "inkboard_presence";

pub(crate) struct PgConn {
    client: Client,
    statements: HashMap<&'static str, Statement>,
    in_transaction: bool,
}

/// Parses a `postgres://` URL (or a `key=value` connection string) and fills in
/// what inkboard wants by default: a connect timeout, its application name.
pub(crate) fn config(url: &str, connect_timeout: Duration) -> Result<Config, StoreError> {
    let mut config = Config::from_str(url)?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(connect_timeout);
    }
    if config.get_application_name().is_none() {
        config.application_name("inkboard");
    }
    Ok(config)
}

impl PgConn {
    pub(crate) fn connect(config: &Config) -> Result<PgConn, StoreError> {
        Ok(PgConn {
            client: config.connect(NoTls)?,
            statements: HashMap::new(),
            in_transaction: false,
        })
    }

    fn statement(&mut self, sql: &'static str) -> Result<Statement, StoreError> {
        if let Some(s) = self.statements.get(sql) {
            return Ok(s.clone());
        }
        let s = self.client.prepare(sql)?;
        self.statements.insert(sql, s.clone());
        Ok(s)
    }

    fn end(&mut self, sql: &str) -> Result<(), StoreError> {
        self.client.batch_execute(sql)?;
        self.in_transaction = false;
        Ok(())
    }
}

impl Db for PgConn {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn execute(&mut self, sql: &'static str, params: &[Val<'_>]) -> Result<u64, StoreError> {
        let stmt = self.statement(sql)?;
        let params: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as _).collect();
        Ok(self.client.execute(&stmt, &params)?)
    }

    fn query(&mut self, sql: &'static str, params: &[Val<'_>]) -> Result<Vec<Row>, StoreError> {
        let stmt = self.statement(sql)?;
        let params: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as _).collect();
        let rows = self.client.query(&stmt, &params)?;
        rows.iter().map(decode).collect()
    }

    fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        Ok(self.client.batch_execute(sql)?)
    }

    fn begin(&mut self, write: bool) -> Result<(), StoreError> {
        self.in_transaction = true;
        // READ COMMITTED suits writers, which lock the rows they decide on; a
        // reader sees one snapshot for all its statements (a board, its snapshot
        // and the changes after it, consistent with each other).
        self.client.batch_execute(if write {
            "BEGIN"
        } else {
            "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        })?;
        Ok(())
    }

    fn commit(&mut self) -> Result<(), StoreError> {
        self.end("COMMIT")
    }

    fn rollback(&mut self) -> Result<(), StoreError> {
        self.end("ROLLBACK")
    }

    fn reusable(&mut self) -> bool {
        !self.in_transaction && !self.client.is_closed()
    }
}

fn decode(row: &postgres::Row) -> Result<Row, StoreError> {
    let mut cells = Vec::with_capacity(row.len());
    for (i, column) in row.columns().iter().enumerate() {
        let ty = column.type_();
        let cell = if *ty == Type::INT8 {
            row.try_get::<_, Option<i64>>(i)?.map(Cell::Int)
        } else if *ty == Type::INT4 {
            row.try_get::<_, Option<i32>>(i)?
                .map(|v| Cell::Int(i64::from(v)))
        } else if *ty == Type::BYTEA {
            row.try_get::<_, Option<Vec<u8>>>(i)?.map(Cell::Bytes)
        } else if *ty == Type::TEXT || *ty == Type::VARCHAR || *ty == Type::NAME {
            row.try_get::<_, Option<String>>(i)?.map(Cell::Text)
        } else {
            return Err(StoreError::corrupt(format!(
                "a column of type {ty} ({})",
                column.name()
            )));
        };
        cells.push(cell.unwrap_or(Cell::Null));
    }
    Ok(Row(cells))
}

impl ToSql for Val<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        match self {
            Val::Int(v) if *ty == Type::INT8 => v.to_sql(ty, out),
            Val::Int(v) if *ty == Type::INT4 => i32::try_from(*v)?.to_sql(ty, out),
            Val::Int(_) => Err(format!("an integer where {ty} belongs").into()),
            Val::Text(v) if <&str as ToSql>::accepts(ty) => v.to_sql(ty, out),
            Val::Text(_) => Err(format!("text where {ty} belongs").into()),
            Val::Bytes(v) if <&[u8] as ToSql>::accepts(ty) => v.to_sql(ty, out),
            Val::Bytes(_) => Err(format!("bytes where {ty} belongs").into()),
            Val::Null => Ok(IsNull::Yes),
        }
    }

    // Each arm above checks the column's type itself, so one value type serves
    // every column, NULL included.
    fn accepts(_: &Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}
