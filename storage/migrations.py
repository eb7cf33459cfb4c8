"""Versioned schema migrations for the SQLite store.

``MIGRATIONS`` is an append-only list of ``(version, sql_script)``. Never edit a
migration that has shipped: add a new one with the next version number. At
``SqliteRepository.open()`` every pending migration runs in order, each in its own
``BEGIN IMMEDIATE`` transaction together with the row that records it in
``schema_version`` -- so a crash leaves the schema at a known version, and two
processes starting at once cannot apply the same migration twice.

Conventions: times are UNIX seconds (REAL), JSON columns are TEXT holding a JSON
document, booleans are INTEGER 0/1.
"""

from __future__ import annotations

import sqlite3
import time

import aiosqlite

V1 = """
CREATE TABLE users (
    user_id     INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL DEFAULT '',
    username    TEXT,
    lang        TEXT,
    dm_open     INTEGER NOT NULL DEFAULT 0,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);

CREATE TABLE chat_settings (
    chat_id     INTEGER PRIMARY KEY,
    lang        TEXT,
    updated_at  REAL    NOT NULL
);

CREATE TABLE tables (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id           INTEGER NOT NULL,
    thread_id         INTEGER NOT NULL DEFAULT 0,
    game              TEXT    NOT NULL,
    options           TEXT    NOT NULL DEFAULT '{}',
    status            TEXT    NOT NULL
                      CHECK (status IN ('lobby', 'playing', 'between', 'closed')),
    opener_id         INTEGER NOT NULL,
    version           INTEGER NOT NULL DEFAULT 0,
    game_no           INTEGER NOT NULL DEFAULT 0,
    group_message_id  INTEGER,
    lang              TEXT    NOT NULL,
    settings          TEXT    NOT NULL DEFAULT '{}',
    created_at        REAL    NOT NULL,
    updated_at        REAL    NOT NULL
);
-- At most one table that is not closed per chat / forum topic (-> TableExists).
CREATE UNIQUE INDEX ux_tables_open_per_thread
    ON tables (chat_id, thread_id) WHERE status != 'closed';
CREATE INDEX ix_tables_status ON tables (status);

CREATE TABLE seats (
    table_id         INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat             INTEGER NOT NULL,
    user_id          INTEGER NOT NULL,
    name             TEXT    NOT NULL DEFAULT '',
    is_computer      INTEGER NOT NULL DEFAULT 0,
    dm_message_id    INTEGER,
    ping_message_id  INTEGER,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX ix_seats_user ON seats (user_id);

-- The action log: append only. seq is strictly increasing per table (it may skip
-- numbers taken by versioned lobby edits, see storage.sqlite).
CREATE TABLE actions (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    game_no     INTEGER NOT NULL,
    seat        INTEGER,
    action      TEXT    NOT NULL,
    created_at  REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TRIGGER tr_actions_append_only BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

CREATE TABLE snapshots (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    state       TEXT    NOT NULL,
    created_at  REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE game_results (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    game_no     INTEGER NOT NULL,
    result      TEXT    NOT NULL,
    created_at  REAL    NOT NULL,
    PRIMARY KEY (table_id, game_no)
);

-- No foreign key on table_id: outbox rows may concern no table (notices) and must
-- survive whatever happens to the table until they are sent.
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id    INTEGER,
    chat_id     INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    target      INTEGER,
    payload     TEXT    NOT NULL DEFAULT '{}',
    created_at  REAL    NOT NULL,
    done_at     REAL
);
CREATE INDEX ix_outbox_pending ON outbox (id) WHERE done_at IS NULL;
CREATE INDEX ix_outbox_pending_chat ON outbox (chat_id) WHERE done_at IS NULL;

CREATE TABLE timers (
    table_id    INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    remind_at   REAL,
    expire_at   REAL    NOT NULL,
    reminded    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ix_timers_expire ON timers (expire_at);
CREATE INDEX ix_timers_remind ON timers (remind_at) WHERE reminded = 0;
"""

# Seat keyboard mode (valid while the table version equals keyboard_version) and the
# update ids already handled (claim_update: webhook retries are processed once).
V2 = """
ALTER TABLE seats ADD COLUMN keyboard TEXT NOT NULL DEFAULT 'normal';
ALTER TABLE seats ADD COLUMN keyboard_version INTEGER NOT NULL DEFAULT 0;

CREATE TABLE processed_updates (
    update_id   INTEGER PRIMARY KEY,
    seen_at     REAL    NOT NULL
);
CREATE INDEX ix_processed_updates_seen ON processed_updates (seen_at);
"""

# Spectators: people who watch a table's public view in their DM (the "👁 Watch"
# button); dm_message_id is the message there that the bot keeps editing.
V3 = """
CREATE TABLE spectators (
    table_id       INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    dm_message_id  INTEGER,
    created_at     REAL    NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
"""

# Finished games (the group's history, /history) and the ratings they drive (/top,
# /stats), both written by commit_actions in the transaction that ends the game.
V4 = """
CREATE TABLE finished_games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id      INTEGER NOT NULL,
    thread_id    INTEGER NOT NULL DEFAULT 0,
    table_id     INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    game_no      INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    options      TEXT    NOT NULL DEFAULT '{}',
    players      TEXT    NOT NULL DEFAULT '[]',
    result       TEXT    NOT NULL,
    rated        INTEGER NOT NULL DEFAULT 0,
    finished_at  REAL    NOT NULL,
    UNIQUE (table_id, game_no)
);
CREATE INDEX ix_finished_games_chat ON finished_games (chat_id, id);

-- One row per group, game and player: a person ("u<user id>") or a computer level
-- ("cpu:<level>", user_id NULL). mu and sigma are OpenSkill's (engine/ratings.py).
CREATE TABLE ratings (
    chat_id      INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    player       TEXT    NOT NULL,
    user_id      INTEGER,
    name         TEXT    NOT NULL DEFAULT '',
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    games        INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    last_played  REAL    NOT NULL,
    PRIMARY KEY (chat_id, game, player)
);
CREATE INDEX ix_ratings_user ON ratings (user_id);

-- People who said /stats off: not rated, not listed.
CREATE TABLE rating_opt_out (
    user_id      INTEGER PRIMARY KEY,
    since        REAL    NOT NULL
);
"""

# How the group wants its score sheets: "text", "picture" or "both" (NULL: text, and a
# picture at the end of a game). Set with /sheets.
V5 = """
ALTER TABLE chat_settings ADD COLUMN sheets TEXT;
"""

# How often Telegram refused an outbox row (a permanent error): the sender gives it up
# after a few, also across restarts.
V6 = """
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
"""

# The inbox: every Telegram update is stored (its JSON in payload) before Telegram is told
# we have it, and marked handled once its handler finished, so a crash in between loses
# nothing and a re-sent update id is handled once. It takes over processed_updates (whose
# rows are handled ids). taken_at/attempts: when and how often a process took it to handle.
V7 = """
CREATE TABLE inbox (
    update_id   INTEGER PRIMARY KEY,
    payload     TEXT,
    stored_at   REAL    NOT NULL,
    taken_at    REAL    NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 1,
    handled_at  REAL
);
CREATE INDEX ix_inbox_unhandled ON inbox (taken_at) WHERE handled_at IS NULL;
CREATE INDEX ix_inbox_handled ON inbox (handled_at);
INSERT INTO inbox (update_id, stored_at, taken_at, handled_at)
    SELECT update_id, seen_at, seen_at, seen_at FROM processed_updates;
DROP TABLE processed_updates;
"""

# The "🔍 The deal" analyses, computed once per finished deal: ``seq`` is the action that
# ended the deal (or one a little after it), ``analysis`` the JSON of engine.<game>.analysis.
V8 = """
CREATE TABLE deal_analyses (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    analysis    TEXT    NOT NULL,
    created_at  REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""

# Append new migrations at the end; versions must be strictly increasing.
MIGRATIONS: list[tuple[int, str]] = [
    (1, V1),
    (2, V2),
    (3, V3),
    (4, V4),
    (5, V5),
    (6, V6),
    (7, V7),
    (8, V8),
]

SCHEMA_VERSION_DDL = """
CREATE TABLE IF NOT EXISTS schema_version (
    version     INTEGER PRIMARY KEY,
    applied_at  REAL NOT NULL
)
"""


def split_statements(script: str) -> list[str]:
    """Split an SQL script into complete statements (trigger bodies stay whole)."""
    statements: list[str] = []
    buf = ""
    for piece in script.split(";"):
        buf += piece + ";"
        if sqlite3.complete_statement(buf):
            stmt = buf.strip()
            if stmt.rstrip(";").strip() and not _only_comments(stmt):
                statements.append(stmt)
            buf = ""
    if buf.rstrip(";").strip() and not _only_comments(buf):
        raise ValueError(f"incomplete SQL statement at the end of a migration: {buf!r}")
    return statements


def _only_comments(stmt: str) -> bool:
    lines = [ln.strip() for ln in stmt.rstrip(";").splitlines()]
    return all(not ln or ln.startswith("--") for ln in lines)


def latest_version() -> int:
    return MIGRATIONS[-1][0] if MIGRATIONS else 0


async def current_version(db: aiosqlite.Connection) -> int:
    async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version") as cur:
        row = await cur.fetchone()
    assert row is not None, "an aggregate query returns one row"
    return int(row[0])


async def migrate(db: aiosqlite.Connection, migrations: list[tuple[int, str]] | None = None) -> list[int]:
    """Apply pending migrations in order; return the versions applied.

    ``db`` must be in autocommit mode (``isolation_level=None``) and not inside a
    transaction. Each migration runs in its own ``BEGIN IMMEDIATE`` transaction; the
    current version is read inside that transaction, so concurrent starters are safe.
    """
    migrations = MIGRATIONS if migrations is None else migrations
    versions = [v for v, _ in migrations]
    if versions != sorted(set(versions)) or any(v <= 0 for v in versions):
        raise ValueError("migration versions must be positive and strictly increasing")

    await db.execute(SCHEMA_VERSION_DDL)
    applied: list[int] = []
    for version, script in migrations:
        statements = split_statements(script)
        await db.execute("BEGIN IMMEDIATE")
        try:
            if await current_version(db) >= version:
                await db.execute("ROLLBACK")
                continue
            for stmt in statements:
                await db.execute(stmt)
            await db.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)", (version, time.time()))
            await db.execute("COMMIT")
        except BaseException:
            await _rollback_quietly(db)
            raise
        applied.append(version)
    return applied


async def _rollback_quietly(db: aiosqlite.Connection) -> None:
    try:
        await db.rollback()  # no-op outside a transaction
    except Exception:  # the original error matters more
        pass
