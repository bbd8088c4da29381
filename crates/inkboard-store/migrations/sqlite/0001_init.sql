-- inkboard's server store, first schema (SQLite). Times are milliseconds since
-- the Unix epoch; secrets are kept only as their SHA-256; JSON is kept as text.
-- migrations/postgres/0001_init.sql is the same schema for PostgreSQL.

CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created INTEGER NOT NULL,
    removed INTEGER
);
-- A removed person's name may be given to someone new.
CREATE UNIQUE INDEX users_current_name ON users (name) WHERE removed IS NULL;

CREATE TABLE tokens (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    label TEXT NOT NULL,
    hash BLOB NOT NULL UNIQUE,
    created INTEGER NOT NULL,
    last_used INTEGER,
    revoked INTEGER
);
CREATE INDEX tokens_user ON tokens (user_id);

CREATE TABLE signin_links (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    hash BLOB NOT NULL UNIQUE,
    created INTEGER NOT NULL,
    expires INTEGER NOT NULL,
    used INTEGER,
    revoked INTEGER
);
CREATE INDEX signin_links_user ON signin_links (user_id);

CREATE TABLE sessions (
    hash BLOB PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    created INTEGER NOT NULL,
    expires INTEGER NOT NULL,
    ended INTEGER
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE boards (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    created_by INTEGER NOT NULL REFERENCES users (id),
    created INTEGER NOT NULL,
    revision INTEGER NOT NULL CHECK (revision >= 0),
    -- The revision of the latest row of `snapshots` for the board.
    snapshot_revision INTEGER NOT NULL CHECK (snapshot_revision <= revision)
);

-- Snapshots live apart from `boards`, whose row every commit updates: SQLite
-- rewrites a whole row on update, so a snapshot kept in it would be copied by
-- every commit.
CREATE TABLE snapshots (
    board TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    revision INTEGER NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (board, revision)
);

-- The primary key is the arbiter of the revision order: one row per revision.
CREATE TABLE changes (
    board TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    revision INTEGER NOT NULL,
    author INTEGER NOT NULL REFERENCES users (id),
    author_kind TEXT NOT NULL CHECK (author_kind IN ('person', 'agent')),
    at INTEGER NOT NULL,
    change TEXT NOT NULL,
    PRIMARY KEY (board, revision)
);

CREATE TABLE shares (
    board TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id),
    role TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'owner')),
    PRIMARY KEY (board, user_id)
);
CREATE INDEX shares_user ON shares (user_id);

-- `board` is not a reference: the log outlives a deleted board.
CREATE TABLE audit (
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    actor INTEGER REFERENCES users (id),
    action TEXT NOT NULL,
    board TEXT,
    subject INTEGER REFERENCES users (id),
    role TEXT,
    detail TEXT
);
