"""What-if patches for the benchmarks, to measure a proposed fix before it is made.
They change nothing in bot/ or storage/: they patch one running instance.

* ``sync_sqlite(repo)``: the SQLite repository runs its statements on the event loop's
  own thread through a plain ``sqlite3`` connection instead of aiosqlite's worker thread
  (each aiosqlite statement is a hop to that thread and back, ~0.1-0.3 ms on this machine
  under load, and the hops of all tables queue behind one connection lock). Same file,
  same pragmas, same SQL. Models "one hop per repository call or none".
* ``concurrent_updates(app, n)``: PTB processes ``n`` updates at once (production: 1, so
  one slow update holds up every other chat's buttons).
"""

from __future__ import annotations

import sqlite3
from typing import Any


class _Cursor:
    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    async def fetchall(self) -> list:
        return self._cursor.fetchall()

    async def close(self) -> None:
        self._cursor.close()


class _Result:
    """What ``aiosqlite.Connection.execute`` returns: awaitable and an async context manager."""

    def __init__(self, run) -> None:
        self._run = run
        self._cursor: _Cursor | None = None

    def __await__(self):
        async def get() -> _Cursor:
            return _Cursor(self._run())

        return get().__await__()

    async def __aenter__(self) -> _Cursor:
        self._cursor = _Cursor(self._run())
        return self._cursor

    async def __aexit__(self, *exc: object) -> None:
        if self._cursor is not None:
            await self._cursor.close()


class SyncConnection:
    """The part of ``aiosqlite.Connection`` that storage/sqlite.py uses, run inline."""

    def __init__(self, path: str, busy_timeout_ms: int) -> None:
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
        self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.execute("PRAGMA synchronous = NORMAL")
        self._conn.execute("PRAGMA foreign_keys = ON")

    @property
    def row_factory(self):
        return self._conn.row_factory

    @row_factory.setter
    def row_factory(self, value) -> None:
        self._conn.row_factory = value

    def execute(self, sql: str, parameters: Any = ()) -> _Result:
        return _Result(lambda: self._conn.execute(sql, parameters))

    def executemany(self, sql: str, rows: Any) -> _Result:
        return _Result(lambda: self._conn.executemany(sql, rows))

    async def execute_fetchall(self, sql: str, parameters: Any = ()) -> list:
        return self._conn.execute(sql, parameters).fetchall()

    async def executescript(self, script: str) -> None:
        self._conn.executescript(script)

    async def commit(self) -> None:
        self._conn.commit()

    async def rollback(self) -> None:
        self._conn.rollback()

    async def close(self) -> None:
        self._conn.close()


async def sync_sqlite(repo) -> None:
    """Swap an open SqliteRepository's aiosqlite connection for an inline one."""
    old = repo._db
    repo._db = SyncConnection(repo.path, getattr(repo, "busy_timeout_ms", 5000))
    if old is not None:
        await old.close()


def concurrent_updates(app, n: int) -> None:
    from telegram.ext import SimpleUpdateProcessor

    app._update_processor = SimpleUpdateProcessor(n)
