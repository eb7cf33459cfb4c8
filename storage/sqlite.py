"""SQLite implementation of ``storage.repository.Repository`` on aiosqlite.

Connection and transactions
---------------------------
* One aiosqlite connection per repository, opened in autocommit mode
  (``isolation_level=None``); every write is an explicit ``BEGIN IMMEDIATE`` ...
  ``COMMIT`` (``ROLLBACK`` on any error, including cancellation), so
  ``commit_actions`` is all or nothing.
* Every operation -- reads included -- holds one ``asyncio.Lock``. With a single
  connection a read issued while another coroutine is in the middle of a write
  transaction would otherwise see that transaction's uncommitted rows.
* File databases run in WAL mode with ``synchronous=NORMAL``, ``foreign_keys=ON`` and a
  ``busy_timeout``, so another process (or a second repository on the same file, e.g.
  the old and new bot during a restart) waits for the write lock instead of failing.
  ``":memory:"`` works for tests (no WAL there).

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

One process
-----------
SQLite serves one bot process: ``try_lead_sender`` is always True and ``listen_outbox``
is a no-op. The claims (``mark_reminded``, ``claim_update``) and the version checks
still run inside ``BEGIN IMMEDIATE`` transactions, so they also hold for a second
repository on the same file. ``storage.postgres`` is the multi-process backend.
"""
from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, nullcontext
from typing import Any

import aiosqlite

from storage import migrations
from storage.core import Session, SqlRepository
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
from storage.dialect import SQLITE
from storage.models import ActionRow, OutboxItem, SeatRow, TableRow, TimerRow, UserRow
from storage.repository import StorageError, TableExists, VersionConflict

_MEMORY_PATHS = ("", ":memory:")
_CHUNK = 500  # stay well below SQLite's host-parameter limit


def _chunks(ids: list[int]) -> Iterable[list[int]]:
    for i in range(0, len(ids), _CHUNK):
        yield ids[i:i + _CHUNK]


def _is_unique_violation(exc: sqlite3.IntegrityError) -> bool:
    return "UNIQUE" in str(exc).upper() or "PRIMARY KEY" in str(exc).upper()


class _Executor:
    """Statements on the repository's connection. ``locking``: each statement takes the
    repository's lock (reads outside a transaction); otherwise the caller holds it."""

    def __init__(self, repo: SqliteRepository, locking: bool) -> None:
        self._repo = repo
        self._guard = repo._lock if locking else nullcontext()

    async def fetch(self, sql: str, args: Sequence[Any]) -> list[sqlite3.Row]:
        async with self._guard:
            return list(await self._repo.db.execute_fetchall(sql, args))

    async def execute(self, sql: str, args: Sequence[Any]) -> int:
        async with self._guard:
            cur = await self._repo.db.execute(sql, args)
            count = cur.rowcount
            await cur.close()
            return count

    async def executemany(self, sql: str, rows: list[list[Any]]) -> None:
        async with self._guard:
            await self._repo.db.executemany(sql, rows)


class SqliteRepository(SqlRepository):
    """``Repository`` on SQLite. ``SqliteRepository(":memory:")`` for tests."""

    dialect = SQLITE

    def __init__(self, path: str, *, busy_timeout_ms: int = 5000) -> None:
        self.path = str(path)
        self.busy_timeout_ms = int(busy_timeout_ms)
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # --- lifecycle -----------------------------------------------------------
    @property
    def is_memory(self) -> bool:
        return self.path in _MEMORY_PATHS or "mode=memory" in self.path

    async def open(self) -> None:
        if self._db is not None:
            return
        if not self.is_memory and not self.path.startswith("file:"):
            _create_private(self.path)
        db = await aiosqlite.connect(self.path, isolation_level=None,
                                     uri=self.path.startswith("file:"))
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {self.busy_timeout_ms}")
            if not self.is_memory:
                async with db.execute("PRAGMA journal_mode = WAL") as cur:
                    mode = (await cur.fetchone())[0]
                if str(mode).lower() != "wal":
                    raise StorageError(f"could not enable WAL mode (got {mode!r})")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await migrations.migrate(db)
            version = await migrations.current_version(db)
            if version > migrations.latest_version():
                raise StorageError(
                    f"database schema version {version} is newer than this code "
                    f"({migrations.latest_version()}); refusing to run")
        except BaseException:
            await db.close()
            raise
        self._db = db

    async def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            async with self._lock:
                await db.close()

    async def __aenter__(self) -> SqliteRepository:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StorageError("repository is not open")
        return self._db

    async def schema_version(self) -> int:
        async with self._lock:
            return await migrations.current_version(self.db)

    async def journal_mode(self) -> str:
        async with self._lock:
            async with self.db.execute("PRAGMA journal_mode") as cur:
                return str((await cur.fetchone())[0]).lower()

    # --- what storage.core runs on ---------------------------------------------
    def _read(self) -> Session:
        return Session(_Executor(self, locking=True), SQLITE)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Session]:
        async with self._tx():
            yield Session(_Executor(self, locking=False), SQLITE)

    _write = _transaction  # one process: even a single statement takes the write lock

    def _is_unique_violation(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.IntegrityError) and _is_unique_violation(exc)

    # --- helpers -------------------------------------------------------------
    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: BEGIN IMMEDIATE ... COMMIT, ROLLBACK on any error."""
        async with self._lock:
            db = self.db
            try:
                await db.execute("BEGIN IMMEDIATE")
                yield db
                await db.execute("COMMIT")
            except BaseException:
                await self._rollback(db)
                raise

    @staticmethod
    async def _rollback(db: aiosqlite.Connection) -> None:
        # sqlite3's rollback() is a no-op outside a transaction. It is queued behind
        # anything still running on the connection's thread (e.g. a statement whose
        # await was cancelled), so it undoes that too -- even if this await is itself
        # cancelled, the rollback still runs before the next operation.
        try:
            await db.rollback()
        except Exception:
            pass  # the original error is the one to report

    async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        async with self._lock:
            return list(await self.db.execute_fetchall(sql, tuple(params)))

    async def _fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        rows = await self._fetchall(sql, params)
        return rows[0] if rows else None

    @staticmethod
    async def _one(db: aiosqlite.Connection, sql: str,
                   params: Iterable[Any] = ()) -> sqlite3.Row | None:
        async with db.execute(sql, tuple(params)) as cur:
            return await cur.fetchone()

    @staticmethod
    async def _set_table_fields_raw(db: aiosqlite.Connection, table_id: int,
                                encoded: dict[str, Any], version: int | None,
                                now: float) -> None:
        cols = dict(encoded)
        if version is not None:
            cols["version"] = version
        cols["updated_at"] = now
        assignments = ", ".join(f"{c} = ?" for c in cols)
        try:
            await db.execute(f"UPDATE tables SET {assignments} WHERE id = ?",
                             (*cols.values(), table_id))
        except sqlite3.IntegrityError as exc:
            if _is_unique_violation(exc):
                raise TableExists("the chat/topic already has an open table") from exc
            raise

    @staticmethod
    async def _insert_outbox(db: aiosqlite.Connection, items: Iterable[OutboxItem],
                             now: float) -> None:
        rows = [(it.table_id, it.chat_id, it.kind, it.target, dumps(it.payload or {}),
                 it.created_at or now) for it in items]
        if rows:
            await db.executemany(
                "INSERT INTO outbox (table_id, chat_id, kind, target, payload, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)", rows)

    @staticmethod
    async def _upsert_timer(db: aiosqlite.Connection, t: TimerRow) -> None:
        await db.execute(
            "INSERT INTO timers (table_id, version, remind_at, expire_at, reminded)"
            " VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id) DO UPDATE SET version = excluded.version,"
            " remind_at = excluded.remind_at, expire_at = excluded.expire_at,"
            " reminded = excluded.reminded",
            (t.table_id, t.version, t.remind_at, t.expire_at, int(t.reminded)))

    # --- the action log ------------------------------------------------------
    async def commit_actions(self, table_id: int, expected_version: int,
                             actions: list[ActionRow], *,
                             outbox: list[OutboxItem] = (),
                             table_fields: dict[str, Any] | None = None,
                             snapshot: dict | None = None,
                             result: dict | None = None,
                             timer: TimerRow | None | type[...] = ...) -> int:
        """See the protocol and the module docstring. Returns the new version.

        ``actions[i].seq`` must be ``expected_version + 1 + i`` and ``actions[i].table_id``
        (and ``timer.table_id``) must be ``table_id`` -- ``ValueError`` otherwise, before
        anything is written. ``actions`` may be empty (then the version is unchanged and
        only the other parts are written, still under the version check)."""
        actions = list(actions)
        new_version = check_commit(table_id, expected_version, actions, timer)
        encoded = encode_fields(table_fields or {})
        snapshot_json = dumps(snapshot) if snapshot is not None else None
        result_json = dumps(result) if result is not None else None
        outbox = list(outbox)
        now = time.time()

        async with self._tx() as db:
            row = await self._one(db, "SELECT version FROM tables WHERE id = ?", (table_id,))
            if row is None:
                raise StorageError(f"table {table_id} does not exist")
            if row["version"] != expected_version:
                raise VersionConflict(
                    conflict_message(table_id, row["version"], expected_version))
            if actions:
                try:
                    await db.executemany(
                        "INSERT INTO actions (table_id, seq, game_no, seat, action,"
                        " created_at) VALUES (?, ?, ?, ?, ?, ?)",
                        [(table_id, a.seq, a.game_no, a.seat, a.action, a.created_at or now)
                         for a in actions])
                except sqlite3.IntegrityError as exc:
                    if _is_unique_violation(exc):
                        raise VersionConflict(
                            f"table {table_id}: action seq already taken") from exc
                    raise
            await self._set_table_fields_raw(
                db, table_id, encoded, new_version if actions else None, now)
            if snapshot_json is not None:
                await db.execute(
                    "INSERT INTO snapshots (table_id, seq, state, created_at)"
                    " VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (table_id, seq) DO UPDATE SET state = excluded.state,"
                    " created_at = excluded.created_at",
                    (table_id, new_version, snapshot_json, now))
            if result_json is not None:
                game_row = await self._one(db, "SELECT game_no FROM tables WHERE id = ?",
                                           (table_id,))
                await db.execute(
                    "INSERT INTO game_results (table_id, game_no, result, created_at)"
                    " VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (table_id, game_no) DO UPDATE SET result = excluded.result,"
                    " created_at = excluded.created_at",
                    (table_id, game_row["game_no"], result_json, now))
            await self._insert_outbox(db, outbox, now)
            if timer is None:
                await db.execute("DELETE FROM timers WHERE table_id = ?", (table_id,))
            elif isinstance(timer, TimerRow):
                await self._upsert_timer(db, timer)
        return new_version

    async def load_actions(self, table_id: int, after_seq: int = 0) -> list[ActionRow]:
        rows = await self._fetchall(
            "SELECT * FROM actions WHERE table_id = ? AND seq > ? ORDER BY seq",
            (table_id, after_seq))
        return [action_row(r) for r in rows]

    async def latest_snapshot(self, table_id: int) -> tuple[int, dict] | None:
        row = await self._fetchone(
            "SELECT seq, state FROM snapshots WHERE table_id = ? ORDER BY seq DESC LIMIT 1",
            (table_id,))
        return (row["seq"], loads(row["state"])) if row else None

    async def game_results(self, table_id: int) -> list[dict]:
        rows = await self._fetchall(
            "SELECT result FROM game_results WHERE table_id = ? ORDER BY game_no",
            (table_id,))
        return [loads(r["result"]) for r in rows]

    # --- outbox --------------------------------------------------------------
    async def enqueue(self, items: list[OutboxItem]) -> None:
        items = list(items)
        if not items:
            return
        async with self._tx() as db:
            await self._insert_outbox(db, items, time.time())

    async def pending_outbox(self, limit: int = 100) -> list[OutboxItem]:
        rows = await self._fetchall(
            "SELECT * FROM outbox WHERE done_at IS NULL ORDER BY id LIMIT ?", (limit,))
        return [outbox_row(r) for r in rows]

    async def mark_done(self, ids: list[int]) -> None:
        ids = [int(i) for i in ids]
        if not ids:
            return
        now = time.time()
        async with self._tx() as db:
            for chunk in _chunks(ids):
                marks = ", ".join("?" for _ in chunk)
                await db.execute(
                    f"UPDATE outbox SET done_at = ? WHERE id IN ({marks})"
                    " AND done_at IS NULL", (now, *chunk))

    async def purge_outbox(self, done_before: float) -> int:
        """Housekeeping (not in the protocol): delete rows done before ``done_before``."""
        async with self._tx() as db:
            cur = await db.execute(
                "DELETE FROM outbox WHERE done_at IS NOT NULL AND done_at < ?",
                (done_before,))
            n = cur.rowcount
            await cur.close()
        return n

    # --- timers --------------------------------------------------------------
    async def set_timer(self, timer: TimerRow) -> None:
        """Replace a table's timer outside ``commit_actions`` (not in the protocol)."""
        async with self._tx() as db:
            await self._upsert_timer(db, timer)

    async def due_timers(self, now: float) -> list[TimerRow]:
        rows = await self._fetchall(
            "SELECT * FROM timers"
            " WHERE (reminded = 0 AND remind_at IS NOT NULL AND remind_at <= ?)"
            " OR expire_at <= ?"
            " ORDER BY MIN(expire_at, COALESCE(remind_at, expire_at)), table_id",
            (now, now))
        return [timer_row(r) for r in rows]

    async def mark_reminded(self, table_id: int, version: int) -> bool:
        """The claim of the protocol: True only if this call set ``reminded``."""
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE timers SET reminded = 1"
                " WHERE table_id = ? AND version = ? AND reminded = 0", (table_id, version))
            claimed = cur.rowcount == 1
            await cur.close()
        return claimed

    async def clear_timer(self, table_id: int, version: int | None = None) -> None:
        """Delete the table's timer; with ``version``, only if it still belongs to it."""
        async with self._tx() as db:
            if version is None:
                await db.execute("DELETE FROM timers WHERE table_id = ?", (table_id,))
            else:
                await db.execute("DELETE FROM timers WHERE table_id = ? AND version = ?",
                                 (table_id, version))

    async def all_timers(self) -> list[TimerRow]:
        rows = await self._fetchall("SELECT * FROM timers ORDER BY expire_at, table_id")
        return [timer_row(r) for r in rows]

    # --- one process: leadership and wake-ups are trivial --------------------------
    async def try_lead_sender(self) -> bool:
        return True

    async def listen_outbox(self, callback: Callable[[], None]) -> None:
        return None

    # --- webhook idempotency -------------------------------------------------------
    async def claim_update(self, update_id: int) -> bool:
        now = time.time()
        async with self._tx() as db:
            cur = await db.execute(
                "INSERT INTO processed_updates (update_id, seen_at) VALUES (?, ?)"
                " ON CONFLICT (update_id) DO NOTHING", (update_id, now))
            claimed = cur.rowcount == 1
            await cur.close()
            if claimed and update_id % UPDATE_PURGE_EVERY == 0:
                await db.execute("DELETE FROM processed_updates WHERE seen_at < ?",
                                 (now - UPDATE_RETENTION_S,))
        return claimed


def _create_private(path: str) -> None:
    """The database holds every hand: a new file is readable by its owner only (SQLite
    gives its -wal and -shm companions the database file's mode)."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        pass
