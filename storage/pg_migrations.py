"""Versioned schema migrations for the PostgreSQL store.

``MIGRATIONS`` is an append-only list of ``(version, sql_script)`` like
``storage.migrations`` (SQLite). Never edit a migration that has shipped: add a new one
with the next version number. ``migrate()`` runs each pending migration in its own
transaction together with the row that records it in ``schema_version``, after taking
``pg_advisory_xact_lock(MIGRATION_LOCK_KEY)`` -- so two workers starting at once
apply each migration exactly once (the second waits, then sees it applied).

Everything lives in the connection's current schema (the first entry of
``search_path``), which ``migrate()`` creates if the URL names one that is missing.

Conventions: ids, chat ids, user ids, message ids, versions and seqs are BIGINT
(Telegram ids exceed 32 bits); times are UNIX seconds (DOUBLE PRECISION); flags are
BOOLEAN; JSON columns are ``json`` (stored verbatim, so key order round-trips exactly
like SQLite's TEXT).
"""

from __future__ import annotations

import time

import asyncpg

from storage.repository import StorageError

V1 = """
CREATE TABLE users (
    user_id     BIGINT  PRIMARY KEY,
    name        TEXT    NOT NULL DEFAULT '',
    username    TEXT,
    lang        TEXT,
    dm_open     BOOLEAN NOT NULL DEFAULT FALSE,
    created_at  DOUBLE PRECISION NOT NULL,
    updated_at  DOUBLE PRECISION NOT NULL
);

CREATE TABLE chat_settings (
    chat_id     BIGINT  PRIMARY KEY,
    lang        TEXT,
    updated_at  DOUBLE PRECISION NOT NULL
);

CREATE TABLE tables (
    id                BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    chat_id           BIGINT  NOT NULL,
    thread_id         BIGINT  NOT NULL DEFAULT 0,
    game              TEXT    NOT NULL,
    options           JSON    NOT NULL DEFAULT '{}',
    status            TEXT    NOT NULL
                      CHECK (status IN ('lobby', 'playing', 'between', 'closed')),
    opener_id         BIGINT  NOT NULL,
    version           BIGINT  NOT NULL DEFAULT 0,
    game_no           INTEGER NOT NULL DEFAULT 0,
    group_message_id  BIGINT,
    lang              TEXT    NOT NULL,
    settings          JSON    NOT NULL DEFAULT '{}',
    created_at        DOUBLE PRECISION NOT NULL,
    updated_at        DOUBLE PRECISION NOT NULL
);
-- At most one table that is not closed per chat / forum topic (-> TableExists).
CREATE UNIQUE INDEX ux_tables_open_per_thread
    ON tables (chat_id, thread_id) WHERE status <> 'closed';
CREATE INDEX ix_tables_status ON tables (status);

CREATE TABLE seats (
    table_id          BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat              INTEGER NOT NULL,
    user_id           BIGINT  NOT NULL,
    name              TEXT    NOT NULL DEFAULT '',
    is_computer       BOOLEAN NOT NULL DEFAULT FALSE,
    dm_message_id     BIGINT,
    ping_message_id   BIGINT,
    keyboard          TEXT    NOT NULL DEFAULT 'normal',
    keyboard_version  BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX ix_seats_user ON seats (user_id);

-- The action log: append only. seq is strictly increasing per table (it may skip
-- numbers taken by versioned lobby edits, see storage.sqlite).
CREATE TABLE actions (
    table_id    BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq         BIGINT  NOT NULL,
    game_no     INTEGER NOT NULL,
    seat        INTEGER,
    action      TEXT    NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'actions are append-only';
END;
$$;
CREATE TRIGGER tr_actions_append_only BEFORE UPDATE ON actions
    FOR EACH ROW EXECUTE FUNCTION actions_append_only();

CREATE TABLE snapshots (
    table_id    BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq         BIGINT  NOT NULL,
    state       JSON    NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE game_results (
    table_id    BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    game_no     INTEGER NOT NULL,
    result      JSON    NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, game_no)
);

-- No foreign key on table_id: outbox rows may concern no table (notices) and must
-- survive whatever happens to the table until they are sent.
CREATE TABLE outbox (
    id          BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    table_id    BIGINT,
    chat_id     BIGINT  NOT NULL,
    kind        TEXT    NOT NULL,
    target      BIGINT,
    payload     JSON    NOT NULL DEFAULT '{}',
    created_at  DOUBLE PRECISION NOT NULL,
    done_at     DOUBLE PRECISION
);
CREATE INDEX ix_outbox_pending ON outbox (id) WHERE done_at IS NULL;
CREATE INDEX ix_outbox_pending_chat ON outbox (chat_id) WHERE done_at IS NULL;

CREATE TABLE timers (
    table_id    BIGINT  PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    version     BIGINT  NOT NULL,
    remind_at   DOUBLE PRECISION,
    expire_at   DOUBLE PRECISION NOT NULL,
    reminded    BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX ix_timers_expire ON timers (expire_at);
CREATE INDEX ix_timers_remind ON timers (remind_at) WHERE NOT reminded;

-- Telegram update ids already handled (claim_update: webhook retries run once).
CREATE TABLE processed_updates (
    update_id   BIGINT  PRIMARY KEY,
    seen_at     DOUBLE PRECISION NOT NULL
);
CREATE INDEX ix_processed_updates_seen ON processed_updates (seen_at);
"""

# Spectators: people who watch a table's public view in their DM (the "👁 Watch"
# button); dm_message_id is the message there that the bot keeps editing.
V2 = """
CREATE TABLE spectators (
    table_id       BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id        BIGINT  NOT NULL,
    dm_message_id  BIGINT,
    created_at     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
"""

# Finished games (the group's history, /history) and the ratings they drive (/top,
# /stats), both written by commit_actions in the transaction that ends the game.
V3 = """
CREATE TABLE finished_games (
    id           BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    chat_id      BIGINT  NOT NULL,
    thread_id    BIGINT  NOT NULL DEFAULT 0,
    table_id     BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    game_no      INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    options      JSON    NOT NULL DEFAULT '{}',
    players      JSON    NOT NULL DEFAULT '[]',
    result       JSON    NOT NULL,
    rated        BOOLEAN NOT NULL DEFAULT FALSE,
    finished_at  DOUBLE PRECISION NOT NULL,
    UNIQUE (table_id, game_no)
);
CREATE INDEX ix_finished_games_chat ON finished_games (chat_id, id);

-- One row per group, game and player: a person ("u<user id>") or a computer level
-- ("cpu:<level>", user_id NULL). mu and sigma are OpenSkill's (engine/ratings.py).
CREATE TABLE ratings (
    chat_id      BIGINT  NOT NULL,
    game         TEXT    NOT NULL,
    player       TEXT    NOT NULL,
    user_id      BIGINT,
    name         TEXT    NOT NULL DEFAULT '',
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    games        INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    last_played  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (chat_id, game, player)
);
CREATE INDEX ix_ratings_user ON ratings (user_id);

-- People who said /stats off: not rated, not listed.
CREATE TABLE rating_opt_out (
    user_id      BIGINT  PRIMARY KEY,
    since        DOUBLE PRECISION NOT NULL
);
"""

# How the group wants its score sheets: "text", "picture" or "both" (NULL: text, and a
# picture at the end of a game). Set with /sheets.
V4 = """
ALTER TABLE chat_settings ADD COLUMN sheets TEXT;
"""

# How often Telegram refused an outbox row (a permanent error): the sender gives it up
# after a few, also across restarts.
V5 = """
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
"""

# The inbox: every Telegram update is stored (its JSON in payload) before Telegram is told
# we have it, and marked handled once its handler finished, so a crash in between loses
# nothing and a re-sent update id is handled once. It takes over processed_updates (whose
# rows are handled ids). taken_at/attempts: when and how often a process took it to handle.
V6 = """
CREATE TABLE inbox (
    update_id   BIGINT  PRIMARY KEY,
    payload     TEXT,
    stored_at   DOUBLE PRECISION NOT NULL,
    taken_at    DOUBLE PRECISION NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 1,
    handled_at  DOUBLE PRECISION
);
CREATE INDEX ix_inbox_unhandled ON inbox (taken_at) WHERE handled_at IS NULL;
CREATE INDEX ix_inbox_handled ON inbox (handled_at);
INSERT INTO inbox (update_id, stored_at, taken_at, handled_at)
    SELECT update_id, seen_at, seen_at, seen_at FROM processed_updates;
DROP TABLE processed_updates;
"""

# The "🔍 The deal" analyses, computed once per finished deal: ``seq`` is the action that
# ended the deal (or one a little after it), ``analysis`` the JSON of engine.<game>.analysis.
V7 = """
CREATE TABLE deal_analyses (
    table_id    BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    analysis    TEXT    NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL,
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
]

# pg_advisory_xact_lock key serialising migrations (b"cardbot" as a number). One key for
# the whole database: migrations are rare and short, and it also covers CREATE SCHEMA.
MIGRATION_LOCK_KEY = int.from_bytes(b"cardbot", "big")

SCHEMA_VERSION_DDL = """
CREATE TABLE IF NOT EXISTS schema_version (
    version     INTEGER PRIMARY KEY,
    applied_at  DOUBLE PRECISION NOT NULL
)
"""


def latest_version(migrations: list[tuple[int, str]] | None = None) -> int:
    migrations = MIGRATIONS if migrations is None else migrations
    return migrations[-1][0] if migrations else 0


def quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


async def current_version(conn: asyncpg.Connection) -> int:
    """0 when the schema (or its ``schema_version`` table) does not exist yet."""
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def migrate(
    conn: asyncpg.Connection, schema: str | None = None, migrations: list[tuple[int, str]] | None = None
) -> list[int]:
    """Create ``schema`` if given and missing, apply pending migrations in order and
    return the versions applied. Raises ``StorageError`` (applying nothing) when the
    database is at a version newer than the code knows."""
    migrations = MIGRATIONS if migrations is None else migrations
    versions = [v for v, _ in migrations]
    if versions != sorted(set(versions)) or any(v <= 0 for v in versions):
        raise ValueError("migration versions must be positive and strictly increasing")

    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK_KEY)
        if schema:
            await conn.execute(f"CREATE SCHEMA IF NOT EXISTS {quote_ident(schema)}")
        await conn.execute(SCHEMA_VERSION_DDL)
        found = await current_version(conn)
    if found > latest_version(migrations):
        raise StorageError(
            f"database schema version {found} is newer than this code ({latest_version(migrations)}); refusing to run"
        )

    applied: list[int] = []
    for version, script in migrations:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK_KEY)
            if await current_version(conn) >= version:
                continue
            await conn.execute(script)  # simple query protocol: many statements at once
            await conn.execute("INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)", version, time.time())
        applied.append(version)
    return applied
