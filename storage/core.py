"""The SQL both backends run, written once: ``SqlRepository`` implements the storage
protocol (``storage.repository.Repository``) on top of three things a backend gives it
-- a connection for reads, a write, and a transaction -- and its ``Dialect``
(``storage.dialect``: how queries are written and rendered). ``storage.sqlite`` and
``storage.postgres`` are thin adapters: connection handling, transactions, the dialect,
and what only one database can do (PostgreSQL's sender lock and LISTEN/NOTIFY).

A new query is added here, once, and runs on both backends.

Versions and sequence numbers
-----------------------------
``tables.version`` is the optimistic-lock version of a table. It moves forward on
  * ``commit_actions``: the version becomes the ``seq`` of the last action written;
  * ``update_table(..., expected_version=v)``: a versioned lobby edit sets it to ``v + 1``
    WITHOUT writing an action row.
So the version is *not* the number of action rows. The next action's ``seq`` is always
``current version + 1``: ``actions.seq`` is strictly increasing per table but may have
gaps where lobby edits took a number. ``commit_actions(table, expected_version, actions)``
requires ``actions[i].seq == expected_version + 1 + i`` (``ValueError`` otherwise),
and raises ``VersionConflict`` when the stored version is not ``expected_version``.
Replaying a table means: latest snapshot ``(seq, state)``, then
``load_actions(table, after_seq=seq)`` in seq order -- never rely on seq being gapless.

A snapshot is stored under ``seq = the new version`` (the state after the last action of
that commit). A result is stored under the table's ``game_no`` *after* ``table_fields``
have been applied.

Both writers of one table serialise on the table: SQLite because ``BEGIN IMMEDIATE``
takes the database's write lock, PostgreSQL because the version is read ``FOR UPDATE``.
A unique violation on ``actions (table_id, seq)`` -- the version moved behind our
back -- is a ``VersionConflict`` too. Claims (``mark_reminded``, ``claim_update``) are
single conditional writes whose row count says who won.
"""
from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, contextmanager
from typing import Any, Protocol

from storage.common import (
    SEAT_COLS,
    TABLE_COLS,
    UPDATE_PURGE_EVERY,
    UPDATE_RETENTION_S,
    action_row,
    check_commit,
    check_seats,
    conflict_message,
    dumps,
    encode_fields,
    loads,
    outbox_row,
    seat_row,
    seat_values,
    table_row,
    timer_row,
    user_row,
)
from storage.dialect import Dialect
from storage.models import ActionRow, OutboxItem, SeatRow, TableRow, TimerRow, UserRow
from storage.repository import StorageError, TableExists, VersionConflict

Row = Any  # sqlite3.Row or asyncpg.Record: both indexable by column name


class Executor(Protocol):
    """What a backend runs rendered SQL on: one connection (or a pool)."""

    async def fetch(self, sql: str, args: Sequence[Any]) -> list[Row]: ...

    async def execute(self, sql: str, args: Sequence[Any]) -> int:
        """Run one statement; return the number of rows it touched."""

    async def executemany(self, sql: str, rows: list[list[Any]]) -> None: ...


class Session:
    """Queries with named parameters (``storage.dialect``) on one ``Executor``."""

    def __init__(self, executor: Executor, dialect: Dialect) -> None:
        self.executor = executor
        self.dialect = dialect

    async def fetch(self, query: str, **params: Any) -> list[Row]:
        return await self.executor.fetch(*self.dialect.render(query, params))

    async def fetchrow(self, query: str, **params: Any) -> Row | None:
        rows = await self.fetch(query, **params)
        return rows[0] if rows else None

    async def fetchval(self, query: str, **params: Any) -> Any:
        row = await self.fetchrow(query, **params)
        return row[0] if row is not None else None

    async def execute(self, query: str, **params: Any) -> int:
        return await self.executor.execute(*self.dialect.render(query, params))

    async def executemany(self, query: str, rows: Sequence[Mapping[str, Any]]) -> None:
        if rows:
            sql = self.dialect.render(query, rows[0])[0]
            await self.executor.executemany(
                sql, [self.dialect.render(query, row)[1] for row in rows])


def marks(columns: str) -> str:
    """``"a, b"`` -> ``":a, :b"``: the parameters that fill those columns."""
    return ", ".join(f":{c.strip()}" for c in columns.split(","))


def assignments(columns: Iterator[str] | Sequence[str]) -> str:
    return ", ".join(f"{c} = :{c}" for c in columns)


OUTBOX_COLS = "table_id, chat_id, kind, target, payload, created_at"
ACTION_COLS = "table_id, seq, game_no, seat, action, created_at"
TIMER_COLS = "table_id, version, remind_at, expire_at, reminded"


class SqlRepository:
    """``Repository`` in SQL. A backend sets ``dialect`` and implements the four
    methods below the line."""

    dialect: Dialect

    def _read(self) -> Session:
        """Reads outside a transaction."""
        raise NotImplementedError

    def _write(self) -> AbstractAsyncContextManager[Session]:
        """A write that is one statement (or one statement a chunk of a list): SQLite
        still takes its write transaction, PostgreSQL runs it as it comes."""
        raise NotImplementedError

    def _transaction(self) -> AbstractAsyncContextManager[Session]:
        """A transaction: all or nothing, rolled back on any error."""
        raise NotImplementedError

    def _is_unique_violation(self, exc: BaseException) -> bool:
        raise NotImplementedError

    # ---------------------------------------------------------------------------

    @contextmanager
    def _unique_means(self, error: StorageError) -> Iterator[None]:
        """Raise ``error`` for a unique violation in the block (a lost race)."""
        try:
            yield
        except Exception as exc:
            if not self._is_unique_violation(exc):
                raise
            raise error from exc

    # --- users and chats -----------------------------------------------------
    async def upsert_user(self, user_id: int, name: str, username: str | None,
                          lang: str | None) -> UserRow:
        """Insert or refresh name/username; ``lang=None`` keeps a stored language."""
        async with self._write() as db:
            row = await db.fetchrow(
                """INSERT INTO users (user_id, name, username, lang, created_at, updated_at)
                   VALUES (:user_id, :name, :username, :lang, :now, :now)
                   ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,
                       username = excluded.username,
                       lang = COALESCE(excluded.lang, users.lang),
                       updated_at = excluded.updated_at
                   RETURNING *""",
                user_id=user_id, name=name, username=username, lang=lang, now=time.time())
        return user_row(row)

    async def get_user(self, user_id: int) -> UserRow | None:
        row = await self._read().fetchrow("SELECT * FROM users WHERE user_id = :user_id",
                                          user_id=user_id)
        return user_row(row) if row else None

    async def set_dm_open(self, user_id: int, is_open: bool) -> None:
        """Creates a bare user row if the user is unknown, so the flag is never lost."""
        async with self._write() as db:
            await db.execute(
                """INSERT INTO users (user_id, dm_open, created_at, updated_at)
                   VALUES (:user_id, :dm_open, :now, :now)
                   ON CONFLICT (user_id) DO UPDATE SET dm_open = excluded.dm_open,
                       updated_at = excluded.updated_at""",
                user_id=user_id, dm_open=bool(is_open), now=time.time())

    async def get_chat_lang(self, chat_id: int) -> str | None:
        return await self._read().fetchval(
            "SELECT lang FROM chat_settings WHERE chat_id = :chat_id", chat_id=chat_id)

    async def set_chat_lang(self, chat_id: int, lang: str) -> None:
        async with self._write() as db:
            await db.execute(
                """INSERT INTO chat_settings (chat_id, lang, updated_at)
                   VALUES (:chat_id, :lang, :now)
                   ON CONFLICT (chat_id) DO UPDATE SET lang = excluded.lang,
                       updated_at = excluded.updated_at""",
                chat_id=chat_id, lang=lang, now=time.time())

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Move tables, chat settings and pending outbox rows to the new chat id.

        Settings already stored for the new id win. Raises ``TableExists`` (and moves
        nothing) if the new chat already has an open table in the same topic."""
        if old_chat_id == new_chat_id:
            return
        ids = {"old": old_chat_id, "new": new_chat_id}
        async with self._transaction() as db:
            with self._unique_means(TableExists("the new chat already has an open table")):
                await db.execute(
                    "UPDATE tables SET chat_id = :new, updated_at = :now WHERE chat_id = :old",
                    **ids, now=time.time())
            # The SELECT needs its WHERE: SQLite reads "FROM t ON CONFLICT" as a join.
            await db.execute(
                """INSERT INTO chat_settings (chat_id, lang, updated_at)
                   SELECT CAST(:new AS BIGINT), lang, updated_at FROM chat_settings
                   WHERE chat_id = :old
                   ON CONFLICT (chat_id) DO NOTHING""", **ids)
            await db.execute("DELETE FROM chat_settings WHERE chat_id = :old", **ids)
            await db.execute(
                "UPDATE outbox SET chat_id = :new WHERE chat_id = :old AND done_at IS NULL",
                **ids)
