"""SQLite implementation of ``storage.repository.Repository`` on aiosqlite: the
connection, its transactions and the SQLite dialect; the queries themselves, and the
rules for versions and sequence numbers, are in ``storage.core``.

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

One process
-----------
SQLite serves one bot process: ``try_lead_sender`` is always True and ``listen_outbox``
is a no-op. The claims (``mark_reminded``, ``store_updates``) and the version checks
still run inside ``BEGIN IMMEDIATE`` transactions, so they also hold for a second
repository on the same file. ``storage.postgres`` is the multi-process backend.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager, nullcontext
from typing import Any

import aiosqlite

from storage import migrations
from storage.core import Session, SqlRepository
from storage.dialect import SQLITE
from storage.health import Health
from storage.repository import StorageError

# SQLite's words for "cannot be read or written now": the disk is full, the file is
# read-only, the disk failed, the file is gone, another process holds the write lock past
# busy_timeout. A retry later may work; nothing of the statement was written.
_UNAVAILABLE = (
    "database or disk is full",
    "readonly database",
    "disk i/o error",
    "unable to open database file",
    "database is locked",
)


def is_unavailable(error: BaseException) -> bool:
    return isinstance(error, sqlite3.OperationalError) and any(w in str(error).lower() for w in _UNAVAILABLE)


_MEMORY_PATHS = ("", ":memory:")


class _Executor:
    """Statements on the repository's connection. ``locking``: each statement takes the
    repository's lock (reads outside a transaction); otherwise the caller holds it."""

    def __init__(self, repo: SqliteRepository, locking: bool) -> None:
        self._repo = repo
        self._guard = repo._lock if locking else nullcontext()

    async def fetch(self, sql: str, args: Sequence[Any]) -> list[sqlite3.Row]:
        async with self._guard, self._repo.checked():
            return list(await self._repo.db.execute_fetchall(sql, args))

    async def execute(self, sql: str, args: Sequence[Any]) -> int:
        async with self._guard, self._repo.checked():
            # The statement has run to its end; closing the cursor would cost one more
            # hop to aiosqlite's thread, and the garbage collector closes it anyway.
            return (await self._repo.db.execute(sql, args)).rowcount

    async def executemany(self, sql: str, rows: list[list[Any]]) -> None:
        async with self._guard, self._repo.checked():
            await self._repo.db.executemany(sql, rows)


class SqliteRepository(SqlRepository):
    """``Repository`` on SQLite. ``SqliteRepository(":memory:")`` for tests."""

    dialect = SQLITE

    def __init__(self, path: str, *, busy_timeout_ms: int = 5000) -> None:
        self.path = str(path)
        self.busy_timeout_ms = int(busy_timeout_ms)
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self.health = Health(f"the SQLite database {os.path.basename(self.path) or self.path}")

    # --- lifecycle -----------------------------------------------------------
    @property
    def is_memory(self) -> bool:
        return self.path in _MEMORY_PATHS or "mode=memory" in self.path

    async def open(self) -> None:
        if self._db is not None:
            return
        if not self.is_memory and not self.path.startswith("file:"):
            _check_writable(self.path)
            _create_private(self.path)
        try:
            db = await aiosqlite.connect(self.path, isolation_level=None, uri=self.path.startswith("file:"))
        except sqlite3.Error as error:
            raise StorageError(f"cannot open the SQLite database {self.path}: {error}") from None
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {self.busy_timeout_ms}")
            if not self.is_memory:
                async with db.execute("PRAGMA journal_mode = WAL") as cur:
                    row = await cur.fetchone()
                assert row is not None, "a PRAGMA query returns one row"
                mode = row[0]
                if str(mode).lower() != "wal":
                    raise StorageError(f"could not enable WAL mode (got {mode!r})")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await migrations.migrate(db)
            version = await migrations.current_version(db)
            if version > migrations.latest_version():
                raise StorageError(
                    f"database schema version {version} is newer than this code "
                    f"({migrations.latest_version()}); refusing to run"
                )
            await _probe_write(db)
        except sqlite3.OperationalError as error:
            await db.close()
            raise StorageError(_not_writable(self.path, error)) from None
        except BaseException:
            await db.close()
            raise
        self._db = db

    async def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            async with self._lock:
                await db.close()

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
                row = await cur.fetchone()
        assert row is not None, "a PRAGMA query returns one row"
        return str(row[0]).lower()

    # --- what storage.core runs on ---------------------------------------------
    def _read(self) -> Session:
        return Session(_Executor(self, locking=True), self.dialect)

    @asynccontextmanager
    async def checked(self) -> AsyncIterator[None]:
        """SQLite's "cannot write now" errors as ``StorageUnavailable`` (storage.health)."""
        try:
            yield
        except sqlite3.OperationalError as error:
            if is_unavailable(error):
                raise self.health.unavailable(error) from error
            raise
        self.health.ok()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Session]:
        """BEGIN IMMEDIATE ... COMMIT under the lock, ROLLBACK on any error."""
        async with self._lock:
            db = self.db
            try:
                async with self.checked():
                    await db.execute("BEGIN IMMEDIATE")
                yield Session(_Executor(self, locking=False), self.dialect)
                async with self.checked():
                    await db.execute("COMMIT")
            except BaseException:
                await self._rollback(db)
                raise

    # Even one statement takes the write lock first, so that another process's writer
    # is waited for (busy_timeout) at BEGIN, before anything is read or written.
    _write = _transaction

    def _is_unique_violation(self, exc: BaseException) -> bool:
        text = str(exc).upper()
        return isinstance(exc, sqlite3.IntegrityError) and ("UNIQUE" in text or "PRIMARY KEY" in text)

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

    # --- one process: leadership and wake-ups are trivial --------------------------
    async def try_lead_sender(self) -> bool:
        return True

    async def listen_outbox(self, callback: Callable[[], None]) -> None:
        return None


def _check_writable(path: str) -> None:
    """A database the bot could read but not write would start and then lose every move:
    refuse it at once, naming what is read-only."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise StorageError(f"the SQLite database {path} is read-only: the bot must be able to write it")
    if os.path.isdir(folder) and not os.access(folder, os.W_OK | os.X_OK):
        raise StorageError(
            f"the folder of the SQLite database {path} is read-only: SQLite writes its -wal and -shm files there"
        )


async def _probe_write(db: aiosqlite.Connection) -> None:
    """A real write, rolled back: what the permission bits do not tell (a read-only
    mount, a read-only URI, another user's file when running as root)."""
    await db.execute("BEGIN IMMEDIATE")
    try:
        await db.execute("CREATE TABLE write_probe (x INTEGER)")
    finally:
        await db.rollback()


def _not_writable(path: str, error: sqlite3.OperationalError) -> str:
    text = str(error)
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return (
            f"the SQLite database {path} cannot be written ({text}): check the permissions of the file and its folder"
        )
    return f"the SQLite database {path} failed at start: {text}"


def _create_private(path: str) -> None:
    """The database holds every hand: a new file is readable by its owner only (SQLite
    gives its -wal and -shm companions the database file's mode)."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        pass
    except OSError as error:
        raise StorageError(f"cannot create the SQLite database {path}: {error.strerror or error}") from None
