-- inkboard's server store, first schema (PostgreSQL). Times are milliseconds since
-- the Unix epoch; secrets are kept only as their SHA-256; JSON is kept as text.
-- migrations/sqlite/0001_init.sql is the same schema for SQLite.

CREATE TABLE users (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL,
    created BIGINT NOT NULL,
    removed BIGINT
);
-- A removed person's name may be given to someone new.
CREATE UNIQUE INDEX users_current_name ON users (name) WHERE removed IS NULL;

CREATE TABLE tokens (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id),
    label TEXT NOT NULL,
    hash BYTEA NOT NULL UNIQUE,
    created BIGINT NOT NULL,
    last_used BIGINT,
    revoked BIGINT
);
CREATE INDEX tokens_user ON tokens (user_id);

CREATE TABLE signin_links (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id),
    hash BYTEA NOT NULL UNIQUE,
    created BIGINT NOT NULL,
    expires BIGINT NOT NULL,
    used BIGINT,
    revoked BIGINT
);
CREATE INDEX signin_links_user ON signin_links (user_id);

CREATE TABLE sessions (
    hash BYTEA PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id),
    created BIGINT NOT NULL,
    expires BIGINT NOT NULL,
    ended BIGINT
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE boards (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    created_by BIGINT NOT NULL REFERENCES users (id),
    created BIGINT NOT NULL,
    revision BIGINT NOT NULL CHECK (revision >= 0),
    -- The revision of the latest row of `snapshots` for the board.
    snapshot_revision BIGINT NOT NULL CHECK (snapshot_revision <= revision)
);

-- Snapshots live apart from `boards`, whose row every commit updates (as in the
-- SQLite schema, where that matters more).
CREATE TABLE snapshots (
    board TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    revision BIGINT NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (board, revision)
);

-- The primary key is the arbiter of the revision order: one row per revision.
CREATE TABLE changes (
    board TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    revision BIGINT NOT NULL,
    author BIGINT NOT NULL REFERENCES users (id),
    author_kind TEXT NOT NULL CHECK (author_kind IN ('person', 'agent')),
    at BIGINT NOT NULL,
    change TEXT NOT NULL,
    PRIMARY KEY (board, revision)
);

CREATE TABLE shares (
    board TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id),
    role TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'owner')),
    PRIMARY KEY (board, user_id)
);
CREATE INDEX shares_user ON shares (user_id);

-- `board` is not a reference: the log outlives a deleted board.
CREATE TABLE audit (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at BIGINT NOT NULL,
    actor BIGINT REFERENCES users (id),
    action TEXT NOT NULL,
    board TEXT,
    subject BIGINT REFERENCES users (id),
    role TEXT,
    detail TEXT
);
