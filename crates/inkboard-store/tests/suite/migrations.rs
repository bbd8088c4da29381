//! Migrations: from an empty database, again on an up-to-date one, by two
//! processes at once, and refused on a database from a newer or altered build.

use inkboard_store::{migrations, Location, Store, StoreError, SCHEMA_VERSION};

use crate::common::both;

both! {
    fn from_empty_and_again(fx) {
        let store = fx.open();
        let all: Vec<i64> = (1..=SCHEMA_VERSION).collect();
        assert_eq!(store.schema_versions().unwrap(), all);
        drop(store);
        // Opening again applies nothing and changes nothing.
        let store = fx.open();
        assert_eq!(store.schema_versions().unwrap(), all);
        assert!(store.users().unwrap().is_empty());
    }

    fn opened_by_many_at_once(fx) {
        open_together(&fx.location());
    }

    fn a_newer_schema_is_refused(fx) {
        drop(fx.open());
        fx.sql("INSERT INTO schema_migrations (version, name, checksum, applied) VALUES (999, 'future', 'x', 0)");
        match inkboard_store::Store::open(&fx.location(), Default::default()) {
            Err(StoreError::SchemaTooNew { found: 999, known }) => assert_eq!(known, SCHEMA_VERSION),
            other => panic!("expected SchemaTooNew, got {:?}", other.map(|_| ())),
        }
    }

    fn an_altered_migration_is_refused(fx) {
        drop(fx.open());
        fx.sql(if fx.sqlite_path().is_some() {
            "UPDATE schema_migrations SET checksum = X'00' WHERE version = 1"
        } else {
            "UPDATE schema_migrations SET checksum = '\\x00' WHERE version = 1"
        });
        match inkboard_store::Store::open(&fx.location(), Default::default()) {
            Err(StoreError::MigrationChanged { version: 1, .. }) => {}
            other => panic!("expected MigrationChanged, got {:?}", other.map(|_| ())),
        }
    }
}

/// Eight stores opening one empty database together: one migrates, the others
/// wait for its lock and find the schema there.
fn open_together(location: &Location) {
    let opened: Vec<Result<Store, StoreError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|_| s.spawn(|| Store::open(location, Default::default())))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for store in opened {
        let store = store.expect("every store opens");
        assert_eq!(
            store.schema_versions().unwrap().len() as i64,
            SCHEMA_VERSION
        );
    }
}

/// A new SQLite file opened by many at once: switching it to WAL mode meets
/// the others' locks without SQLite's busy handler, which once failed about
/// one such race in fifteen ("database is locked"), so it is run on many files.
#[test]
fn a_new_sqlite_file_opened_by_many_at_once_again_and_again() {
    for _ in 0..40 {
        open_together(&crate::common::Fixture::sqlite().location());
    }
}

/// Every file in `migrations/` is compiled in, in order, for both back ends.
#[test]
fn every_migration_file_is_listed() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    for (backend, index) in [("sqlite", 2usize), ("postgres", 3usize)] {
        let mut files: Vec<String> = std::fs::read_dir(root.join(backend))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        files.sort();
        let listed = migrations();
        assert_eq!(files.len(), listed.len(), "{backend}: {files:?}");
        for (file, m) in files.iter().zip(&listed) {
            assert_eq!(file, &format!("{:04}_{}.sql", m.0, m.1));
            let text = std::fs::read_to_string(root.join(backend).join(file)).unwrap();
            let compiled = if index == 2 { m.2 } else { m.3 };
            assert_eq!(text, compiled, "{backend}/{file}");
        }
    }
}
