"""PostgreSQL implementation of ``storage.repository.Repository`` on asyncpg: the
pool, its transactions and the PostgreSQL dialect, plus what only PostgreSQL does (the
sender lock, LISTEN/NOTIFY); the queries themselves are in ``storage.core``.

Several bot processes share one database, so every guarantee lives in PostgreSQL,
never in process memory:

* Optimistic locking: ``commit_actions`` and ``update_table(expected_version=...)``
  read the table row with ``SELECT ... FOR UPDATE`` inside their transaction. A second
  writer of the same table waits for that row lock, then (READ COMMITTED re-reads the
  locked row) sees the version the first one committed and gets ``VersionConflict``.
  A unique violation on ``actions (table_id, seq)`` -- the version moved behind our
  back -- is a ``VersionConflict`` too. Versions, seqs, snapshots and results follow
  the rules in ``storage.core``'s docstring, as on SQLite.
* Claims (``mark_reminded``, ``store_updates``) are single conditional writes whose row
  count says who won: PostgreSQL lets exactly one of two racing statements change
  the row.
* One outbox sender: ``try_lead_sender`` holds a session advisory lock on a dedicated
  connection outside the pool, so the lock lives exactly as long as that connection.
* Wake-ups: writes that queue outbox rows also ``pg_notify`` in their transaction
  (``POSTGRES.notify_outbox``, delivered at commit); ``listen_outbox`` LISTENs on a
  dedicated connection.

The URL may carry ``?search_path=<schema>`` (asyncpg sends unknown query parameters as
server settings): all tables live in that schema, which ``open()`` creates if missing.
The advisory-lock key and the notification payload include the schema, so
deployments (or tests) in different schemas of one database do not interfere.
JSON columns hold ``storage.common.dumps`` text in ``json`` columns, decoded by the
same helpers as SQLite, so both backends return identical dicts.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

import asyncpg

from storage import pg_migrations
from storage.core import Session, SqlRepository
from storage.dialect import OUTBOX_CHANNEL, POSTGRES
from storage.health import Health
from storage.repository import StorageError

log = logging.getLogger(__name__)
T = TypeVar("T")

# What a lost dedicated connection (lead lock, listener) may raise on use or reconnect.
# InternalClientError: a connection the server cut in the middle of a query is left in a
# state asyncpg refuses to go on from ("another operation is in progress"); it is as dead
_CONNECTION_ERRORS = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
)
_CLOSE_TIMEOUT_S = 10.0
# the listener is back within this long of the server: a worker's wake-ups wait for it
_RELISTEN_MAX_DELAY_S = 1.0


def is_unavailable(error: BaseException) -> bool:
    """Does ``error`` mean the server cannot be reached or written now (stopped,
    restarting, out of disk or connections, a standby), rather than a bad query?"""
    if isinstance(error, asyncpg.QueryCanceledError):  # a statement timeout: the query's
        return False
    if isinstance(error, asyncpg.InterfaceError):  # also raised for misuse: only a lost connection
        return "closed" in str(error).lower()
    return isinstance(
        error,
        (
            OSError,
            asyncio.TimeoutError,
            asyncpg.PostgresConnectionError,
            asyncpg.InternalClientError,
            asyncpg.exceptions.OperatorInterventionError,  # shutting down, starting up
            asyncpg.exceptions.InsufficientResourcesError,  # disk full, too many connections
            asyncpg.exceptions.ReadOnlySQLTransactionError,  # a standby
        ),
    )


def schema_from_url(url: str) -> str | None:
    """The first schema of the URL's ``search_path`` parameter, if it names one
    (folded to lower case unless double-quoted, as PostgreSQL reads identifiers)."""
    values = parse_qs(urlsplit(url).query).get("search_path")
    if not values:
        return None
    first = values[0].split(",")[0].strip()
    if len(first) >= 2 and first[0] == first[-1] == '"':
        first = first[1:-1].replace('""', '"')
    else:
        first = first.lower()
    return first if first and first != "$user" else None


def lock_key(name: str) -> int:
    """A stable signed 64-bit advisory-lock key for ``name``."""
    digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def _count(status: str) -> int:
    """Rows touched, from a command status such as ``UPDATE 1`` or ``INSERT 0 1``."""
    return int(status.rsplit(" ", 1)[-1])


class _Executor:
    """Statements on one connection, or on the pool (a connection a statement)."""

    def __init__(self, conn: asyncpg.Connection | asyncpg.Pool, repo: PostgresRepository) -> None:
        self._conn = conn
        self._repo = repo
        # a read on the pool is tried once more when its connection was lost: after a
        # server restart the pool's idle connections are dead
        self._read_tries = 2 if isinstance(conn, asyncpg.Pool) else 1

    async def fetch(self, sql: str, args: Sequence[Any]) -> list[asyncpg.Record]:
        rows: list[asyncpg.Record] = await self._repo.checked(lambda: self._conn.fetch(sql, *args), self._read_tries)
        return rows

    async def execute(self, sql: str, args: Sequence[Any]) -> int:
        return _count(await self._repo.checked(lambda: self._conn.execute(sql, *args)))

    async def executemany(self, sql: str, rows: list[list[Any]]) -> None:
        await self._repo.checked(lambda: self._conn.executemany(sql, rows))


class PostgresRepository(SqlRepository):
    """``Repository`` on PostgreSQL: ``PostgresRepository("postgresql://...")``."""

    dialect = POSTGRES

    def __init__(self, url: str, *, min_size: int = 0, max_size: int = 10) -> None:
        self.url = url
        self.min_size = min_size
        self.max_size = max_size
        self._pool: asyncpg.Pool | None = None
        self._schema: str | None = None
        self._closing = False
        self.health = Health("PostgreSQL")
        # try_lead_sender
        self._lead_conn: asyncpg.Connection | None = None
        self._lead_guard = asyncio.Lock()
        self._is_lead = False
        # listen_outbox
        self._listen_conn: asyncpg.Connection | None = None
        self._listen_guard = asyncio.Lock()
        self._callbacks: list[Callable[[], None]] = []
        self._relisten_task: asyncio.Task[None] | None = None

    # --- lifecycle -----------------------------------------------------------
    async def open(self) -> None:
        """Connect, create the ``search_path`` schema if missing, run migrations
        (under an advisory lock) and start the pool."""
        if self._pool is not None:
            return
        conn = await asyncpg.connect(self.url)
        try:
            await pg_migrations.migrate(conn, schema_from_url(self.url))
            self._schema = await conn.fetchval("SELECT current_schema()")
        finally:
            await conn.close()
        self._pool = await asyncpg.create_pool(self.url, min_size=self.min_size, max_size=self.max_size)
        self._closing = False

    async def close(self) -> None:
        """Release the sender lock, stop listening and close the pool."""
        self._closing = True
        task, self._relisten_task = self._relisten_task, None
        if task is not None:
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task
        for conn in (self._listen_conn, self._lead_conn):
            if conn is not None:
                await self._close_quietly(conn)
        self._listen_conn = self._lead_conn = None
        self._is_lead = False
        self._callbacks.clear()
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                await asyncio.wait_for(pool.close(), _CLOSE_TIMEOUT_S)
            except asyncio.TimeoutError:
                pool.terminate()

    @staticmethod
    async def _close_quietly(conn: asyncpg.Connection) -> None:
        try:
            await asyncio.wait_for(conn.close(), _CLOSE_TIMEOUT_S)
        except Exception:
            conn.terminate()

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StorageError("repository is not open")
        return self._pool

    @property
    def schema(self) -> str | None:
        """The schema the tables live in (known after ``open()``)."""
        return self._schema

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            return await pg_migrations.current_version(conn)

    # --- what storage.core runs on ---------------------------------------------
    def _read(self) -> Session:
        return Session(_Executor(self.pool, self), self.dialect)

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Session]:
        """One statement needs no transaction: it runs on any pooled connection."""
        yield Session(_Executor(self.pool, self), self.dialect)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Session]:
        """A pooled connection inside a transaction (rolled back on any error). A
        connection found dead at BEGIN (nothing run yet) is replaced once."""
        pool = self.pool
        conn: asyncpg.Connection = await self.checked(pool.acquire, tries=2)
        try:
            transaction = conn.transaction()
            try:
                await self.checked(transaction.start)
            except StorageError:
                await pool.release(conn)
                conn = await self.checked(pool.acquire, tries=2)
                transaction = conn.transaction()
                await self.checked(transaction.start)
            try:
                yield Session(_Executor(conn, self), self.dialect)
            except BaseException:
                with suppress(Exception):
                    await transaction.rollback()
                raise
            await self.checked(transaction.commit)
        finally:
            await pool.release(conn)

    async def checked(self, call: Callable[[], Awaitable[T]], tries: int = 1) -> T:
        """``await call()``, its "server unavailable" errors as ``StorageUnavailable``
        (storage.health); tried up to ``tries`` times for those errors."""
        for left in range(tries - 1, -1, -1):
            try:
                result = await call()
            except Exception as error:
                if not is_unavailable(error):
                    raise
                if self._pool is not None:  # the pool's other connections are as dead
                    await self._pool.expire_connections()
                if left:
                    continue
                raise self.health.unavailable(error) from error
            self.health.ok()
            return result
        raise AssertionError("tries must be at least 1")

    def _is_unique_violation(self, exc: BaseException) -> bool:
        return isinstance(exc, asyncpg.UniqueViolationError)

    # --- one outbox sender, woken by NOTIFY -------------------------------------
    async def try_lead_sender(self) -> bool:
        """See the protocol. The lock is keyed by schema. While held, each call checks
        the connection with a round trip; if it died, the lock died with it, so a new
        connection tries again. Returns False (logging why) if the database cannot be
        reached."""
        _ = self.pool  # raises if not open
        async with self._lead_guard:
            if self._is_lead:
                assert self._lead_conn is not None, "the lead holds its lock on this connection"
                try:
                    await self._lead_conn.fetchval("SELECT 1")
                    return True
                except _CONNECTION_ERRORS as exc:
                    log.info("outbox sender lock connection lost (%s); trying again", exc)
                    self._drop_lead_conn()
            elif self._lead_conn is not None and self._lead_conn.is_closed():
                self._drop_lead_conn()
            try:
                if self._lead_conn is None:
                    self._lead_conn = await asyncpg.connect(self.url)
                self._is_lead = bool(
                    await self._lead_conn.fetchval("SELECT pg_try_advisory_lock($1)", self._sender_key())
                )
            except _CONNECTION_ERRORS as exc:
                self.health.unavailable(exc)  # logged once an outage, not once a try
                self._drop_lead_conn()
            return self._is_lead

    def _drop_lead_conn(self) -> None:
        conn, self._lead_conn, self._is_lead = self._lead_conn, None, False
        if conn is not None:
            conn.terminate()  # the server releases a session lock with its connection

    def _sender_key(self) -> int:
        return lock_key(f"cardbot:outbox-sender:{self._schema}")

    async def listen_outbox(self, callback: Callable[[], None]) -> None:
        """See the protocol. Once this returns, commits in any process call
        ``callback``. If the listening connection drops it is re-established in the
        background, and the callbacks are called once then (wake-ups may have been
        missed meanwhile)."""
        _ = self.pool  # raises if not open
        async with self._listen_guard:  # one listening connection, however many callers
            if self._listen_conn is None and self._relisten_task is None:
                await self.checked(self._connect_listener)  # may raise: then nothing is registered
            if callback not in self._callbacks:  # calling again after a failure is fine
                self._callbacks.append(callback)

    async def _connect_listener(self) -> None:
        conn = await asyncpg.connect(self.url)
        try:
            await conn.add_listener(OUTBOX_CHANNEL, self._on_notify)
        except BaseException:
            conn.terminate()
            raise
        conn.add_termination_listener(self._on_listener_lost)
        self._listen_conn = conn

    def _on_notify(self, conn: object, pid: int, channel: str, payload: str) -> None:
        if payload == self._schema:
            self._wake()

    def _wake(self) -> None:
        for callback in list(self._callbacks):
            try:
                callback()
            except Exception:
                log.exception("outbox listener callback failed")

    def _on_listener_lost(self, conn: object) -> None:
        if self._closing or conn is not self._listen_conn:
            return
        log.info("outbox LISTEN connection lost; reconnecting")
        self._listen_conn = None
        self._relisten_task = asyncio.get_running_loop().create_task(self._relisten())

    async def _relisten(self) -> None:
        delay = 0.2
        while not self._closing:
            try:
                await self._connect_listener()
            except _CONNECTION_ERRORS as exc:
                self.health.unavailable(exc)  # logged once an outage, not once a try
                await asyncio.sleep(delay)
                delay = min(delay * 2, _RELISTEN_MAX_DELAY_S)
                continue
            self._relisten_task = None
            self._wake()
            return
