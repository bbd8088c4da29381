//! The store's test suite, run whole on SQLite (a temporary file) and on
//! PostgreSQL (a throwaway cluster, `pg.rs`): every case is written once and made
//! twice by `common::both!`, so the two back ends answer alike by construction of
//! the tests. Expected outputs that are more than a value live in `tests/expect/`
//! (`UPDATE_EXPECT=1` rewrites them).

mod common;
mod pg;

mod commits;
mod migrations;
mod notify;
mod people;
mod processes;
mod roles;
