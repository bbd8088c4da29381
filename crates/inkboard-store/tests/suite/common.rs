//! What every case of the suite stands on: a [`Fixture`] is one empty database,
//! an SQLite file in a temporary folder or a new database in the throwaway
//! PostgreSQL cluster, that cases open stores on (one store per "process"), poke
//! with raw SQL, and dump whole to look for secrets. [`both!`] writes each case
//! once and runs it on both back ends.

use std::path::PathBuf;

use inkboard_store::{
    Author, AuthorKind, BoardId, Json, Location, NewBoard, NewChange, Operator, Options, Store,
    StoreError, User, UserName,
};
use serde_json::json;

use crate::pg;

pub enum Kind {
    Sqlite(tempfile::TempDir),
    Postgres(String),
}

pub struct Fixture {
    pub kind: Kind,
}

impl Fixture {
    pub fn sqlite() -> Fixture {
        Fixture {
            kind: Kind::Sqlite(tempfile::tempdir().expect("temp dir")),
        }
    }

    /// A fresh PostgreSQL database, or `None` (skipped) without PostgreSQL.
    pub fn postgres() -> Option<Fixture> {
        let cluster = pg::cluster()?;
        Some(Fixture {
            kind: Kind::Postgres(cluster.new_database()),
        })
    }

    pub fn location(&self) -> Location {
        match &self.kind {
            Kind::Sqlite(dir) => Location::in_data_dir(dir.path()),
            Kind::Postgres(url) => Location::Postgres(url.clone()),
        }
    }

    pub fn sqlite_path(&self) -> Option<PathBuf> {
        match self.location() {
            Location::Sqlite(p) => Some(p),
            Location::Postgres(_) => None,
        }
    }

    pub fn open(&self) -> Store {
        self.open_with(Options::default())
    }

    pub fn open_with(&self, options: Options) -> Store {
        Store::open(&self.location(), options).expect("open the store")
    }

    /// Runs raw SQL on the database, outside the store (to tamper with it).
    pub fn sql(&self, statements: &str) {
        match &self.kind {
            Kind::Sqlite(_) => {
                let path = self.sqlite_path().expect("sqlite");
                rusqlite::Connection::open(path)
                    .expect("open")
                    .execute_batch(statements)
                    .expect("sql");
            }
            Kind::Postgres(url) => {
                postgres::Client::connect(url, postgres::NoTls)
                    .expect("connect")
                    .batch_execute(statements)
                    .expect("sql");
            }
        }
    }

    /// Everything the database keeps that a secret could hide in, as text (bytes
    /// that are not UTF-8 replaced, which keeps every ASCII run whole): SQLite's
    /// file with its WAL; every row of every table of the PostgreSQL database as
    /// JSON, and the files of that database and of the cluster's WAL.
    pub fn dump(&self) -> String {
        let mut out = Vec::new();
        match &self.kind {
            Kind::Sqlite(dir) => {
                for entry in std::fs::read_dir(dir.path()).expect("read dir") {
                    out.extend(std::fs::read(entry.expect("entry").path()).expect("read"));
                }
            }
            Kind::Postgres(url) => {
                let mut client = postgres::Client::connect(url, postgres::NoTls).expect("connect");
                let tables = client
                    .query(
                        "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
                        &[],
                    )
                    .expect("tables");
                for t in tables {
                    let name: String = t.get(0);
                    let rows = client
                        .query(&format!("SELECT row_to_json(t)::text FROM {name} t"), &[])
                        .expect("rows");
                    for r in rows {
                        out.extend(r.get::<_, String>(0).into_bytes());
                    }
                }
                // Checkpoint so the rows reach the table files too.
                client.batch_execute("CHECKPOINT").expect("checkpoint");
                let oid: u32 = client
                    .query_one(
                        "SELECT oid FROM pg_database WHERE datname = current_database()",
                        &[],
                    )
                    .expect("oid")
                    .get(0);
                let data = pg::cluster().expect("cluster").data_dir();
                read_tree(&data.join("base").join(oid.to_string()), &mut out);
                read_tree(&data.join("pg_wal"), &mut out);
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }
}

fn read_tree(dir: &std::path::Path, out: &mut Vec<u8>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            read_tree(&path, out);
        } else if let Ok(bytes) = std::fs::read(&path) {
            out.extend(bytes);
        }
    }
}

pub fn name(text: &str) -> UserName {
    UserName::parse(text).expect("a valid name")
}

pub fn add(store: &Store, text: &str) -> User {
    store
        .add_user(&name(text), Operator::Admin)
        .expect("add user")
}

/// A new board owned by `owner`, its snapshot a toy document `{"items": []}`.
pub fn board(store: &Store, owner: &User) -> BoardId {
    let doc = Json::from_value(&json!({ "items": [] }));
    store
        .create_board(NewBoard {
            title: "Plan",
            owner: owner.id,
            revision: 0,
            snapshot: &doc,
        })
        .expect("create board")
        .id
}

/// Commits `change` as `user` on whatever revision the board is at, again on
/// each conflict; answers the revision it got.
pub fn commit_retrying(
    store: &Store,
    board: &BoardId,
    user: &User,
    change: &serde_json::Value,
) -> u64 {
    let change = Json::from_value(change);
    let mut base = store.revision(board).expect("revision").expect("board");
    loop {
        let c = NewChange {
            board,
            base,
            author: Author {
                user: user.id,
                kind: AuthorKind::Agent,
            },
            change: &change,
            title: None,
        };
        match store.commit(c) {
            Ok(done) => return done.revision,
            Err(StoreError::Conflict { current, .. }) => base = current,
            Err(e) => panic!("commit: {e}"),
        }
    }
}

/// Writes each case once for SQLite and once for PostgreSQL: `both! { fn
/// case(fx) { … } }` makes `sqlite::case` and `postgres::case`, `fx` a
/// `&Fixture` on a fresh database.
macro_rules! both {
    ($(fn $name:ident($fx:ident) $body:block)*) => {
        mod sqlite {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[test]
                fn $name() {
                    let fixture = $crate::common::Fixture::sqlite();
                    let $fx = &fixture;
                    $body
                }
            )*
        }
        mod postgres {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[test]
                fn $name() {
                    let Some(fixture) = $crate::common::Fixture::postgres() else {
                        return;
                    };
                    let $fx = &fixture;
                    $body
                }
            )*
        }
    };
}
pub(crate) use both;

/// Compares `actual` with `tests/expect/NAME`, or rewrites the file when
/// `UPDATE_EXPECT=1`.
pub fn expect(file: &str, actual: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/expect")
        .join(file);
    if std::env::var("UPDATE_EXPECT").as_deref() == Ok("1") {
        std::fs::write(&path, actual).expect("write expected output");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        expected == actual,
        "{} differs (UPDATE_EXPECT=1 rewrites it):\n--- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
}
