"""The SQL both backends run, written once: ``SqlRepository`` implements the storage
protocol (``storage.repository.Repository``) on top of three things a backend gives it
-- a connection for reads, a write, and a transaction -- and its ``Dialect``
(``storage.dialect``: how queries are written and rendered). ``storage.sqlite`` and
``storage.postgres`` are thin adapters: connection handling, transactions, the dialect,
and what only one database can do (PostgreSQL's sender lock and LISTEN/NOTIFY).

A new query is added here, once, and runs on both backends: write it with ``:name``
parameters (and the other marks of ``storage.dialect``), run it on ``self._read()``
(a read), in ``async with self._write()`` (one writing statement) or in
``async with self._transaction()`` (several, all or nothing), and add its test to
tests/test_storage.py, which runs every case on SQLite and on PostgreSQL.

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
back -- is a ``VersionConflict`` too. Claims (``mark_reminded``, ``store_updates``,
``take_unhandled_updates``) are conditional writes whose row count says who won.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, contextmanager
from types import EllipsisType
from typing import Any, Protocol, Self

from storage.common import (
    action_row,
    changed_settings,
    check_commit,
    check_seats,
    conflict_message,
    dumps,
    encode_fields,
    finished_row,
    loads,
    outbox_row,
    rating_row,
    seat_row,
    seat_values,
    spectator_row,
    table_row,
    timer_row,
    user_row,
)
from storage.dialect import Dialect
from storage.models import (
    ActionRow,
    FinishedGame,
    OutboxItem,
    RatingRow,
    SeatRow,
    SpectatorRow,
    TableRow,
    TimerRow,
    UserRow,
)
from storage.repository import SETTINGS_CHANGES, RateFn, StorageError, TableExists, VersionConflict

Row = Any  # sqlite3.Row or asyncpg.Record: both indexable by column name

PURGE_BATCH = 500  # rows a housekeeping transaction deletes at most


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

    async def fetchrow(self, query: str, **params: Any) -> Any:
        """The first row, or None."""
        rows = await self.executor.fetch(*self.dialect.render(query, params))
        return rows[0] if rows else None

    async def fetchval(self, query: str, **params: Any) -> Any:
        """The first column of the first row, or None."""
        rows = await self.executor.fetch(*self.dialect.render(query, params))
        return rows[0][0] if rows else None

    async def execute(self, query: str, **params: Any) -> int:
        return await self.executor.execute(*self.dialect.render(query, params))

    async def executemany(self, query: str, rows: Sequence[Mapping[str, Any]]) -> None:
        if rows:
            sql = self.dialect.render(query, rows[0])[0]
            await self.executor.executemany(sql, [self.dialect.render(query, row)[1] for row in rows])


def marks(columns: str) -> str:
    """``"a, b"`` -> ``":a, :b"``: the parameters that fill those columns."""
    return ", ".join(f":{c.strip()}" for c in columns.split(","))


def assignments(columns: Iterable[str]) -> str:
    """``["a", "b"]`` -> ``"a = :a, b = :b"``."""
    return ", ".join(f"{c} = :{c}" for c in columns)


TABLE_COLS = (
    "id, chat_id, thread_id, game, options, status, opener_id, version, "
    "game_no, group_message_id, lang, settings, created_at"
)
SEAT_COLS = "table_id, seat, user_id, name, is_computer, dm_message_id, ping_message_id, keyboard, keyboard_version"
OUTBOX_COLS = "table_id, chat_id, kind, target, payload, created_at"
ACTION_COLS = "table_id, seq, game_no, seat, action, created_at"
TIMER_COLS = "table_id, version, remind_at, expire_at, reminded"
FINISHED_COLS = "chat_id, thread_id, table_id, game_no, game, options, players, result, rated, finished_at"
RATING_COLS = "chat_id, game, player, user_id, name, mu, sigma, games, wins, last_played"


class SqlRepository:
    """``Repository`` in SQL. A backend sets ``dialect`` and implements ``open``,
    ``close``, the four methods after them, ``try_lead_sender`` and ``listen_outbox``."""

    dialect: Dialect

    async def open(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _read(self) -> Session:
        """Reads outside a transaction."""
        raise NotImplementedError

    def _write(self) -> AbstractAsyncContextManager[Session]:
        """A write of one statement (or of one a chunk, see ``Dialect.chunks``): SQLite
        still takes its write transaction, PostgreSQL runs it on a pooled connection."""
        raise NotImplementedError

    def _transaction(self) -> AbstractAsyncContextManager[Session]:
        """A transaction: all or nothing, rolled back on any error."""
        raise NotImplementedError

    def _is_unique_violation(self, exc: BaseException) -> bool:
        raise NotImplementedError

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
    async def upsert_user(self, user_id: int, name: str, username: str | None, lang: str | None) -> UserRow:
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
                user_id=user_id,
                name=name,
                username=username,
                lang=lang,
                now=time.time(),
            )
        return user_row(row)

    async def get_user(self, user_id: int) -> UserRow | None:
        row = await self._read().fetchrow("SELECT * FROM users WHERE user_id = :user_id", user_id=user_id)
        return user_row(row) if row else None

    async def set_dm_open(self, user_id: int, is_open: bool) -> None:
        """Creates a bare user row if the user is unknown, so the flag is never lost."""
        async with self._write() as db:
            await db.execute(
                """INSERT INTO users (user_id, dm_open, created_at, updated_at)
                   VALUES (:user_id, :dm_open, :now, :now)
                   ON CONFLICT (user_id) DO UPDATE SET dm_open = excluded.dm_open,
                       updated_at = excluded.updated_at""",
                user_id=user_id,
                dm_open=bool(is_open),
                now=time.time(),
            )

    async def get_chat_lang(self, chat_id: int) -> str | None:
        lang: str | None = await self._read().fetchval(
            "SELECT lang FROM chat_settings WHERE chat_id = :chat_id", chat_id=chat_id
        )
        return lang

    async def set_chat_lang(self, chat_id: int, lang: str) -> None:
        async with self._write() as db:
            await db.execute(
                """INSERT INTO chat_settings (chat_id, lang, updated_at)
                   VALUES (:chat_id, :lang, :now)
                   ON CONFLICT (chat_id) DO UPDATE SET lang = excluded.lang,
                       updated_at = excluded.updated_at""",
                chat_id=chat_id,
                lang=lang,
                now=time.time(),
            )

    async def get_chat_sheets(self, chat_id: int) -> str | None:
        mode = await self._read().fetchval("SELECT sheets FROM chat_settings WHERE chat_id = :chat_id", chat_id=chat_id)
        return None if mode is None else str(mode)

    async def set_chat_sheets(self, chat_id: int, mode: str) -> None:
        async with self._write() as db:
            await db.execute(
                """INSERT INTO chat_settings (chat_id, sheets, updated_at)
                   VALUES (:chat_id, :sheets, :now)
                   ON CONFLICT (chat_id) DO UPDATE SET sheets = excluded.sheets,
                       updated_at = excluded.updated_at""",
                chat_id=chat_id,
                sheets=mode,
                now=time.time(),
            )

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
                    "UPDATE tables SET chat_id = :new, updated_at = :now WHERE chat_id = :old", **ids, now=time.time()
                )
            # The SELECT needs its WHERE: SQLite reads "FROM t ON CONFLICT" as a join.
            await db.execute(
                """INSERT INTO chat_settings (chat_id, lang, sheets, updated_at)
                   SELECT CAST(:new AS BIGINT), lang, sheets, updated_at FROM chat_settings
                   WHERE chat_id = :old
                   ON CONFLICT (chat_id) DO NOTHING""",
                **ids,
            )
            await db.execute("DELETE FROM chat_settings WHERE chat_id = :old", **ids)
            await db.execute("UPDATE finished_games SET chat_id = :new WHERE chat_id = :old", **ids)
            await db.execute("UPDATE ratings SET chat_id = :new WHERE chat_id = :old", **ids)
            await db.execute("UPDATE outbox SET chat_id = :new WHERE chat_id = :old AND done_at IS NULL", **ids)

    # --- tables and seats ----------------------------------------------------
    async def create_table(
        self,
        chat_id: int,
        thread_id: int,
        game: str,
        options: dict[str, Any],
        opener_id: int,
        lang: str,
        settings: dict[str, Any],
    ) -> TableRow:
        taken = TableExists(f"chat {chat_id} topic {thread_id} already has an open table")
        async with self._write() as db:
            with self._unique_means(taken):
                row = await db.fetchrow(
                    f"""INSERT INTO tables (chat_id, thread_id, game, options, status,
                            opener_id, version, game_no, group_message_id, lang, settings,
                            created_at, updated_at)
                        VALUES (:chat_id, :thread_id, :game, :options, 'lobby', :opener_id,
                            0, 0, NULL, :lang, :settings, :now, :now)
                        RETURNING {TABLE_COLS}""",
                    chat_id=chat_id,
                    thread_id=thread_id or 0,
                    game=game,
                    options=dumps(options or {}),
                    opener_id=opener_id,
                    lang=lang,
                    settings=dumps(settings or {}),
                    now=time.time(),
                )
        return table_row(row)

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self._read().fetchrow(f"SELECT {TABLE_COLS} FROM tables WHERE id = :table_id", table_id=table_id)
        return table_row(row) if row else None

    async def find_open_table(self, chat_id: int, thread_id: int) -> TableRow | None:
        row = await self._read().fetchrow(
            f"""SELECT {TABLE_COLS} FROM tables
                WHERE chat_id = :chat_id AND thread_id = :thread_id AND status <> 'closed'""",
            chat_id=chat_id,
            thread_id=thread_id or 0,
        )
        return table_row(row) if row else None

    async def last_table_of(self, chat_id: int, games: list[str]) -> TableRow | None:
        """The chat's newest table (any status, any topic) of one of ``games``."""
        row = await self._read().fetchrow(
            f"""SELECT {TABLE_COLS} FROM tables WHERE chat_id = :chat_id AND game = ANY(:games)
                ORDER BY id DESC LIMIT 1""",
            chat_id=chat_id,
            games=list(games),
        )
        return table_row(row) if row else None

    async def tables_with_status(self, *statuses: str) -> list[TableRow]:
        """Tables in any of ``statuses``, by id; with no statuses, all tables."""
        if statuses:
            rows = await self._read().fetch(
                f"SELECT {TABLE_COLS} FROM tables WHERE status = ANY(:statuses) ORDER BY id", statuses=list(statuses)
            )
        else:
            rows = await self._read().fetch(f"SELECT {TABLE_COLS} FROM tables ORDER BY id")
        return [table_row(r) for r in rows]

    async def update_table(
        self, table_id: int, expected_version: int | None = None, *, seats: list[SeatRow] | None = None, **fields: Any
    ) -> TableRow:
        """See the protocol. With ``expected_version`` the version becomes
        ``expected_version + 1`` (no action row is written). Raises ``ValueError`` for
        fields outside the whitelist or bad ``seats``, ``TableExists`` when re-opening a
        closed table whose chat/topic has another open one, ``StorageError`` for an
        unknown table."""
        encoded = encode_fields(fields)
        if seats is not None:
            seats = check_seats(table_id, seats)
        now = time.time()
        async with self._transaction() as db:
            stored = await self._locked_version(db, table_id)
            new_version = None
            if expected_version is not None:
                if stored != expected_version:
                    raise VersionConflict(conflict_message(table_id, stored, expected_version))
                new_version = expected_version + 1
            if encoded or new_version is not None:
                await self._set_table_fields(db, table_id, encoded, new_version, now)
            if seats is not None:
                await self._replace_seats_in_tx(db, table_id, seats)
            return table_row(
                await db.fetchrow(f"SELECT {TABLE_COLS} FROM tables WHERE id = :table_id", table_id=table_id)
            )

    @staticmethod
    async def _locked_version(db: Session, table_id: int) -> int:
        """The table's version, its row locked until the transaction ends."""
        version = await db.fetchval("SELECT version FROM tables WHERE id = :table_id {for_update}", table_id=table_id)
        if version is None:
            raise StorageError(f"table {table_id} does not exist")
        return int(version)

    async def _set_table_fields(
        self, db: Session, table_id: int, encoded: dict[str, Any], version: int | None, now: float
    ) -> int:
        """Update whitelisted columns (+ version, updated_at); return the game_no. The
        caller holds the table's row lock (``_locked_version``), so ``settings_changes``
        are applied to the settings as stored, never to a stale copy."""
        cols = dict(encoded)
        changes = cols.pop(SETTINGS_CHANGES, None)
        if changes:
            stored = await db.fetchval("SELECT settings FROM tables WHERE id = :table_id", table_id=table_id)
            cols["settings"] = changed_settings(stored, changes)
        if version is not None:
            cols["version"] = version
        cols["updated_at"] = now
        with self._unique_means(TableExists("the chat/topic already has an open table")):
            return int(
                await db.fetchval(
                    f"UPDATE tables SET {assignments(cols)} WHERE id = :table_id RETURNING game_no",
                    **cols,
                    table_id=table_id,
                )
            )

    async def get_seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._read().fetch(
            f"SELECT {SEAT_COLS} FROM seats WHERE table_id = :table_id ORDER BY seat", table_id=table_id
        )
        return [seat_row(r) for r in rows]

    async def replace_seats(self, table_id: int, seats: list[SeatRow]) -> None:
        seats = check_seats(table_id, seats)
        async with self._transaction() as db:
            await self._replace_seats_in_tx(db, table_id, seats)

    @staticmethod
    async def _replace_seats_in_tx(db: Session, table_id: int, seats: list[SeatRow]) -> None:
        await db.execute("DELETE FROM seats WHERE table_id = :table_id", table_id=table_id)
        await db.executemany(
            f"INSERT INTO seats ({SEAT_COLS}) VALUES ({marks(SEAT_COLS)})", seat_values(table_id, seats)
        )

    async def set_seat_messages(
        self,
        table_id: int,
        seat: int,
        *,
        dm_message_id: int | None | EllipsisType = ...,
        ping_message_id: int | None | EllipsisType = ...,
    ) -> None:
        cols: dict[str, Any] = {}
        if dm_message_id is not ...:
            cols["dm_message_id"] = dm_message_id
        if ping_message_id is not ...:
            cols["ping_message_id"] = ping_message_id
        if not cols:
            return
        async with self._write() as db:
            await db.execute(
                f"UPDATE seats SET {assignments(cols)} WHERE table_id = :table_id AND seat = :seat",
                **cols,
                table_id=table_id,
                seat=seat,
            )

    async def set_seat_keyboard(self, table_id: int, seat: int, mode: str, version: int) -> None:
        async with self._write() as db:
            await db.execute(
                """UPDATE seats SET keyboard = :mode, keyboard_version = :version
                   WHERE table_id = :table_id AND seat = :seat""",
                mode=mode,
                version=version,
                table_id=table_id,
                seat=seat,
            )

    async def tables_of_user(self, user_id: int) -> list[TableRow]:
        cols = ", ".join(f"t.{c.strip()}" for c in TABLE_COLS.split(","))
        rows = await self._read().fetch(
            f"""SELECT {cols} FROM tables t
                WHERE t.status <> 'closed' AND EXISTS
                    (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.user_id = :user_id)
                ORDER BY t.id""",
            user_id=user_id,
        )
        return [table_row(r) for r in rows]

    # --- spectators ------------------------------------------------------------
    async def add_spectator(self, table_id: int, user_id: int) -> bool:
        """True if the user was not watching the table yet (a new row, no DM message)."""
        async with self._write() as db:
            added = await db.execute(
                """INSERT INTO spectators (table_id, user_id, dm_message_id, created_at)
                   VALUES (:table_id, :user_id, NULL, :now)
                   ON CONFLICT (table_id, user_id) DO NOTHING""",
                table_id=table_id,
                user_id=user_id,
                now=time.time(),
            )
        return added == 1

    async def remove_spectator(self, table_id: int, user_id: int) -> SpectatorRow | None:
        """The removed row (its DM message id included), or None if they were not watching."""
        async with self._write() as db:
            row = await db.fetchrow(
                """DELETE FROM spectators WHERE table_id = :table_id AND user_id = :user_id
                   RETURNING table_id, user_id, dm_message_id""",
                table_id=table_id,
                user_id=user_id,
            )
        return spectator_row(row) if row else None

    async def get_spectators(self, table_id: int) -> list[SpectatorRow]:
        rows = await self._read().fetch(
            """SELECT table_id, user_id, dm_message_id FROM spectators
               WHERE table_id = :table_id ORDER BY created_at, user_id""",
            table_id=table_id,
        )
        return [spectator_row(r) for r in rows]

    async def set_spectator_message(self, table_id: int, user_id: int, dm_message_id: int | None) -> None:
        async with self._write() as db:
            await db.execute(
                """UPDATE spectators SET dm_message_id = :dm_message_id
                   WHERE table_id = :table_id AND user_id = :user_id""",
                dm_message_id=dm_message_id,
                table_id=table_id,
                user_id=user_id,
            )

    # --- deal analyses -----------------------------------------------------------
    async def get_deal_analysis(self, table_id: int, seq: int) -> dict[str, Any] | None:
        row = await self._read().fetchrow(
            "SELECT analysis FROM deal_analyses WHERE table_id = :table_id AND seq = :seq",
            table_id=table_id,
            seq=seq,
        )
        return loads(row["analysis"]) if row else None

    async def put_deal_analysis(self, table_id: int, seq: int, analysis: dict[str, Any]) -> None:
        async with self._write() as db:
            await db.execute(
                """INSERT INTO deal_analyses (table_id, seq, analysis, created_at)
                   VALUES (:table_id, :seq, :analysis, :now)
                   ON CONFLICT (table_id, seq) DO NOTHING""",
                table_id=table_id,
                seq=seq,
                analysis=dumps(analysis),
                now=time.time(),
            )

    # --- the action log ------------------------------------------------------
    async def commit_actions(
        self,
        table_id: int,
        expected_version: int,
        actions: list[ActionRow],
        *,
        outbox: Sequence[OutboxItem] = (),
        table_fields: dict[str, Any] | None = None,
        snapshot: dict[str, Any] | None = None,
        result: dict[str, Any] | None = None,
        timer: TimerRow | None | EllipsisType = ...,
        finished: FinishedGame | None = None,
        rate: RateFn | None = None,
    ) -> int:
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

        async with self._transaction() as db:
            stored = await self._locked_version(db, table_id)
            if stored != expected_version:
                raise VersionConflict(conflict_message(table_id, stored, expected_version))
            seq_taken = VersionConflict(f"table {table_id}: action seq already taken")
            with self._unique_means(seq_taken):
                await db.executemany(
                    f"INSERT INTO actions ({ACTION_COLS}) VALUES ({marks(ACTION_COLS)})",
                    [
                        {
                            "table_id": table_id,
                            "seq": a.seq,
                            "game_no": a.game_no,
                            "seat": a.seat,
                            "action": a.action,
                            "created_at": a.created_at or now,
                        }
                        for a in actions
                    ],
                )
            game_no = await self._set_table_fields(db, table_id, encoded, new_version if actions else None, now)
            if snapshot_json is not None:
                await db.execute(
                    """INSERT INTO snapshots (table_id, seq, state, created_at)
                       VALUES (:table_id, :seq, :state, :now)
                       ON CONFLICT (table_id, seq) DO UPDATE SET state = excluded.state,
                           created_at = excluded.created_at""",
                    table_id=table_id,
                    seq=new_version,
                    state=snapshot_json,
                    now=now,
                )
            if result_json is not None:
                await db.execute(
                    """INSERT INTO game_results (table_id, game_no, result, created_at)
                       VALUES (:table_id, :game_no, :result, :now)
                       ON CONFLICT (table_id, game_no) DO UPDATE SET result = excluded.result,
                           created_at = excluded.created_at""",
                    table_id=table_id,
                    game_no=game_no,
                    result=result_json,
                    now=now,
                )
            if finished is not None:
                await self._store_finished(db, finished, rate, now)
            await self._insert_outbox(db, outbox, now)
            if timer is None:
                await db.execute("DELETE FROM timers WHERE table_id = :table_id", table_id=table_id)
            elif isinstance(timer, TimerRow):
                await self._upsert_timer(db, timer)
        return new_version

    async def load_actions(self, table_id: int, after_seq: int = 0) -> list[ActionRow]:
        rows = await self._read().fetch(
            """SELECT * FROM actions WHERE table_id = :table_id AND seq > :after_seq
               ORDER BY seq""",
            table_id=table_id,
            after_seq=after_seq,
        )
        return [action_row(r) for r in rows]

    async def latest_snapshot(self, table_id: int) -> tuple[int, dict[str, Any]] | None:
        row = await self._read().fetchrow(
            """SELECT seq, state FROM snapshots WHERE table_id = :table_id
               ORDER BY seq DESC LIMIT 1""",
            table_id=table_id,
        )
        return (row["seq"], loads(row["state"])) if row else None

    async def game_results(self, table_id: int) -> list[dict[str, Any]]:
        rows = await self._read().fetch(
            "SELECT result FROM game_results WHERE table_id = :table_id ORDER BY game_no", table_id=table_id
        )
        return [loads(r["result"]) for r in rows]

    # --- history and ratings ------------------------------------------------
    async def _store_finished(self, db: Session, game: FinishedGame, rate: RateFn | None, now: float) -> None:
        """The game joins the group's history; the first time only, its players are
        rated. Rows of the players are created first and then read locked, in one order:
        two games ending at once for one player wait for each other, never lose an update."""
        stored = await db.fetchval(
            f"""INSERT INTO finished_games ({FINISHED_COLS}) VALUES ({marks(FINISHED_COLS)})
                ON CONFLICT (table_id, game_no) DO NOTHING RETURNING id""",
            chat_id=game.chat_id,
            thread_id=game.thread_id or 0,
            table_id=game.table_id,
            game_no=game.game_no,
            game=game.game,
            options=dumps(game.options or {}),
            players=dumps(game.players),
            result=dumps(game.result),
            rated=bool(game.rated and rate is not None),
            finished_at=game.finished_at or now,
        )
        if stored is None or rate is None or not game.rated:
            return
        user_ids = sorted({int(p["user_id"]) for p in game.players if p.get("user_id") is not None})
        opted_out: set[int] = set()
        if user_ids:
            rows = await db.fetch("SELECT user_id FROM rating_opt_out WHERE user_id = ANY(:ids)", ids=user_ids)
            opted_out = {int(r["user_id"]) for r in rows}
        seats = {p["player"]: p for p in game.players if p.get("user_id") not in opted_out}
        keys = sorted(seats)
        if not keys:
            return
        where = {"chat_id": game.chat_id, "game": game.game}
        await db.executemany(
            f"""INSERT INTO ratings ({RATING_COLS}) VALUES ({marks(RATING_COLS)})
                ON CONFLICT (chat_id, game, player) DO NOTHING""",
            [
                {**where, "player": k, "user_id": seats[k].get("user_id"), "name": seats[k].get("name", "")}
                | {"mu": 0.0, "sigma": 0.0, "games": 0, "wins": 0, "last_played": now}
                for k in keys
            ],
        )
        rows = await db.fetch(
            """SELECT * FROM ratings WHERE chat_id = :chat_id AND game = :game AND player = ANY(:keys)
               ORDER BY player {for_update}""",
            **where,
            keys=keys,
        )
        current = {r["player"]: rating_row(r) for r in rows if r["games"] > 0}  # games 0: just created
        for row in rate(current, opted_out):
            await db.execute(
                f"""UPDATE ratings SET {assignments(["user_id", "name", "mu", "sigma", "games", "wins", "last_played"])}
                    WHERE chat_id = :chat_id AND game = :game AND player = :player""",
                chat_id=row.chat_id,
                game=row.game,
                player=row.player,
                user_id=row.user_id,
                name=row.name,
                mu=float(row.mu),
                sigma=float(row.sigma),
                games=row.games,
                wins=row.wins,
                last_played=row.last_played,
            )

    async def finished_games(self, chat_id: int, limit: int = 10) -> list[FinishedGame]:
        rows = await self._read().fetch(
            "SELECT * FROM finished_games WHERE chat_id = :chat_id ORDER BY id DESC LIMIT :limit",
            chat_id=chat_id,
            limit=limit,
        )
        return [finished_row(r) for r in rows]

    async def finished_game(self, game_id: int) -> FinishedGame | None:
        row = await self._read().fetchrow("SELECT * FROM finished_games WHERE id = :id", id=game_id)
        return finished_row(row) if row else None

    async def top_ratings(self, chat_id: int, game: str, limit: int = 10) -> list[RatingRow]:
        rows = await self._read().fetch(
            """SELECT * FROM ratings WHERE chat_id = :chat_id AND game = :game AND games > 0
               ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT :limit""",
            chat_id=chat_id,
            game=game,
            limit=limit,
        )
        return [rating_row(r) for r in rows]

    async def rated_games(self, chat_id: int) -> list[str]:
        rows = await self._read().fetch(
            "SELECT DISTINCT game FROM ratings WHERE chat_id = :chat_id AND games > 0 ORDER BY game", chat_id=chat_id
        )
        return [r["game"] for r in rows]

    async def ratings_of_user(self, user_id: int) -> list[RatingRow]:
        rows = await self._read().fetch(
            """SELECT * FROM ratings WHERE user_id = :user_id AND games > 0
               ORDER BY last_played DESC, chat_id, game""",
            user_id=user_id,
        )
        return [rating_row(r) for r in rows]

    async def set_rating_opt_out(self, user_id: int, opted_out: bool) -> None:
        async with self._transaction() as db:
            if opted_out:
                await db.execute(
                    """INSERT INTO rating_opt_out (user_id, since) VALUES (:user_id, :now)
                       ON CONFLICT (user_id) DO NOTHING""",
                    user_id=user_id,
                    now=time.time(),
                )
                await db.execute("DELETE FROM ratings WHERE user_id = :user_id", user_id=user_id)
            else:
                await db.execute("DELETE FROM rating_opt_out WHERE user_id = :user_id", user_id=user_id)

    async def rating_opted_out(self, user_id: int) -> bool:
        found = await self._read().fetchval("SELECT 1 FROM rating_opt_out WHERE user_id = :user_id", user_id=user_id)
        return found is not None

    async def forget_chat(self, chat_id: int) -> int:
        async with self._transaction() as db:
            erased = await db.execute("DELETE FROM finished_games WHERE chat_id = :chat_id", chat_id=chat_id)
            await db.execute("DELETE FROM ratings WHERE chat_id = :chat_id", chat_id=chat_id)
            # the action logs of the group's closed tables go with them (ON DELETE CASCADE)
            await db.execute("DELETE FROM tables WHERE chat_id = :chat_id AND status = 'closed'", chat_id=chat_id)
        return erased

    # --- outbox --------------------------------------------------------------
    # Rows a caller wants written later, with something else (bot.inbox: a command's answer
    # goes with its update's "handled" mark, ``finish_update``): given the rows, it keeps
    # what it takes and returns the rows to write now.
    outbox_diverter: Callable[[list[OutboxItem]], list[OutboxItem]] | None = None

    async def enqueue(self, items: list[OutboxItem]) -> None:
        items = list(items)
        if self.outbox_diverter is not None:
            items = self.outbox_diverter(items)
        if not items:
            return
        async with self._transaction() as db:
            await self._insert_outbox(db, items, time.time())

    async def _insert_outbox(self, db: Session, items: list[OutboxItem], now: float) -> None:
        """Queue rows and wake the senders (PostgreSQL notifies when the transaction
        commits)."""
        if not items:
            return
        await db.executemany(
            f"INSERT INTO outbox ({OUTBOX_COLS}) VALUES ({marks(OUTBOX_COLS)})",
            [
                {
                    "table_id": it.table_id,
                    "chat_id": it.chat_id,
                    "kind": it.kind,
                    "target": it.target,
                    "payload": dumps(it.payload or {}),
                    "created_at": it.created_at or now,
                }
                for it in items
            ],
        )
        if self.dialect.notify_outbox:
            await db.execute(self.dialect.notify_outbox)

    async def pending_outbox(self, limit: int = 100) -> list[OutboxItem]:
        rows = await self._read().fetch(
            "SELECT * FROM outbox WHERE done_at IS NULL ORDER BY id LIMIT :limit", limit=limit
        )
        return [outbox_row(r) for r in rows]

    async def mark_done(self, ids: list[int]) -> None:
        ids = [int(i) for i in ids]
        if not ids:
            return
        now = time.time()
        async with self._write() as db:
            for chunk in self.dialect.chunks(ids):
                await db.execute(
                    """UPDATE outbox SET done_at = :now
                       WHERE id = ANY(:ids) AND done_at IS NULL""",
                    now=now,
                    ids=chunk,
                )

    async def outbox_refused(self, ids: list[int]) -> None:
        ids = [int(i) for i in ids]
        if not ids:
            return
        async with self._write() as db:
            for chunk in self.dialect.chunks(ids):
                await db.execute("UPDATE outbox SET attempts = attempts + 1 WHERE id = ANY(:ids)", ids=chunk)

    # --- housekeeping (bot/housekeeping.py): what may go, in short transactions ------
    async def _delete_in_batches(self, query: str, batch: int, **params: Any) -> int:
        """Run ``query`` (a DELETE of at most ``:batch`` rows) until it deletes fewer:
        each batch is its own short transaction, so a purge never holds SQLite's write
        lock (or PostgreSQL's row locks) for long. Returns the rows deleted."""
        deleted = 0
        while True:
            async with self._write() as db:
                count = await db.execute(query, batch=batch, **params)
            deleted += count
            if count < batch:
                return deleted

    async def purge_outbox(self, done_before: float, batch: int = PURGE_BATCH) -> int:
        """Delete outbox rows delivered (``done_at``) before ``done_before``; a pending row
        is never deleted (the sender reads pending rows only)."""
        return await self._delete_in_batches(
            """DELETE FROM outbox WHERE id IN (SELECT id FROM outbox
                   WHERE done_at IS NOT NULL AND done_at < :before LIMIT :batch)""",
            batch,
            before=done_before,
        )

    async def purge_inbox(self, handled_before: float, batch: int = PURGE_BATCH) -> int:
        """Forget the ids of updates handled before ``handled_before`` (kept until then
        against Telegram re-sending them); an update not handled yet stays."""
        return await self._delete_in_batches(
            """DELETE FROM inbox WHERE update_id IN (SELECT update_id FROM inbox
                   WHERE handled_at IS NOT NULL AND handled_at < :before LIMIT :batch)""",
            batch,
            before=handled_before,
        )

    async def purge_deal_analyses(self, created_before: float, batch: int = PURGE_BATCH) -> int:
        """Delete the deal analyses computed before ``created_before``: a cache, since a
        press of an old 🔍 button computes its analysis again from the action log."""
        return await self._delete_in_batches(
            """DELETE FROM deal_analyses WHERE (table_id, seq) IN (SELECT table_id, seq FROM deal_analyses
                   WHERE created_at < :before LIMIT :batch)""",
            batch,
            before=created_before,
        )

    async def purge_old_snapshots(self, batch: int = PURGE_BATCH) -> int:
        """Delete every snapshot but the newest of its table: a table is replayed from its
        latest snapshot and the actions after it, and nothing reads an older one. (A
        commit adding a newer snapshot meanwhile only makes more of them old.)"""
        return await self._delete_in_batches(
            """DELETE FROM snapshots WHERE (table_id, seq) IN (SELECT s.table_id, s.seq FROM snapshots s
                   WHERE s.seq < (SELECT MAX(n.seq) FROM snapshots n WHERE n.table_id = s.table_id)
                   LIMIT :batch)""",
            batch,
        )

    # --- timers --------------------------------------------------------------
    async def set_timer(self, timer: TimerRow) -> None:
        """Replace a table's timer outside ``commit_actions`` (not in the protocol)."""
        async with self._write() as db:
            await self._upsert_timer(db, timer)

    @staticmethod
    async def _upsert_timer(db: Session, t: TimerRow) -> None:
        await db.execute(
            f"""INSERT INTO timers ({TIMER_COLS}) VALUES ({marks(TIMER_COLS)})
                ON CONFLICT (table_id) DO UPDATE SET version = excluded.version,
                    remind_at = excluded.remind_at, expire_at = excluded.expire_at,
                    reminded = excluded.reminded""",
            table_id=t.table_id,
            version=t.version,
            remind_at=t.remind_at,
            expire_at=t.expire_at,
            reminded=bool(t.reminded),
        )

    async def due_timers(self, now: float) -> list[TimerRow]:
        rows = await self._read().fetch(
            """SELECT * FROM timers
               WHERE (reminded = {false} AND remind_at IS NOT NULL AND remind_at <= :now)
                  OR expire_at <= :now
               ORDER BY {least}(expire_at, COALESCE(remind_at, expire_at)), table_id""",
            now=now,
        )
        return [timer_row(r) for r in rows]

    async def mark_reminded(self, table_id: int, version: int) -> bool:
        """The claim of the protocol: True only if this call set ``reminded``."""
        async with self._write() as db:
            return (
                await db.execute(
                    """UPDATE timers SET reminded = {true}
                   WHERE table_id = :table_id AND version = :version
                     AND reminded = {false}""",
                    table_id=table_id,
                    version=version,
                )
                == 1
            )

    async def clear_timer(self, table_id: int, version: int | None = None) -> None:
        """Delete the table's timer; with ``version``, only if it still belongs to it."""
        async with self._write() as db:
            if version is None:
                await db.execute("DELETE FROM timers WHERE table_id = :table_id", table_id=table_id)
            else:
                await db.execute(
                    "DELETE FROM timers WHERE table_id = :table_id AND version = :version",
                    table_id=table_id,
                    version=version,
                )

    async def all_timers(self) -> list[TimerRow]:
        rows = await self._read().fetch("SELECT * FROM timers ORDER BY expire_at, table_id")
        return [timer_row(r) for r in rows]

    # --- the inbox of Telegram updates ------------------------------------------------
    async def store_updates(self, updates: Sequence[tuple[int, str]]) -> list[int]:
        now = time.time()
        stored: list[int] = []
        async with self._transaction() as db:
            for update_id, payload in updates:
                if await db.execute(
                    """INSERT INTO inbox (update_id, payload, stored_at, taken_at)
                       VALUES (:update_id, :payload, :now, :now) ON CONFLICT (update_id) DO NOTHING""",
                    update_id=int(update_id),
                    payload=payload,
                    now=now,
                ):
                    stored.append(int(update_id))
        # handled ids are forgotten after a day by the housekeeping's batched purge
        # (bot/housekeeping.py), never in this transaction, which every update waits for
        return stored

    async def mark_updates_handled(self, update_ids: Sequence[int]) -> None:
        # the payload is not needed any more: only the id is kept, against re-sending
        await self._set_unhandled(update_ids, "handled_at = :now, payload = NULL")

    async def _set_unhandled(self, update_ids: Sequence[int], assignments: str) -> None:
        """``UPDATE inbox SET <assignments>`` (``:now`` is the time) on those of the
        updates not handled yet."""
        ids = [int(i) for i in update_ids]
        if not ids:
            return
        async with self._write() as db:
            for chunk in self.dialect.chunks(ids):
                await db.execute(
                    f"UPDATE inbox SET {assignments} WHERE update_id = ANY(:ids) AND handled_at IS NULL",
                    now=time.time(),
                    ids=chunk,
                )

    async def finish_update(self, update_id: int, outbox: Sequence[OutboxItem] = ()) -> bool:
        """The claim of the protocol: mark the update handled and queue ``outbox`` in one
        transaction, only if it was not handled yet (True); else nothing is written."""
        now = time.time()
        async with self._transaction() as db:
            claimed = await db.execute(
                """UPDATE inbox SET handled_at = :now, payload = NULL
                   WHERE update_id = :update_id AND handled_at IS NULL""",
                now=now,
                update_id=int(update_id),
            )
            if claimed:
                await self._insert_outbox(db, list(outbox), now)
        return bool(claimed)

    async def renew_updates(self, update_ids: Sequence[int]) -> None:
        await self._set_unhandled(update_ids, "taken_at = :now")

    async def take_unhandled_updates(self, taken_before: float, max_attempts: int) -> list[tuple[int, str]]:
        now = time.time()
        async with self._transaction() as db:
            # given up: taken this often already (a handler that kills its process)
            await db.execute(
                """UPDATE inbox SET handled_at = :now, payload = NULL
                   WHERE handled_at IS NULL AND taken_at <= :before AND attempts >= :max_attempts""",
                now=now,
                before=taken_before,
                max_attempts=max_attempts,
            )
            rows = await db.fetch(
                """UPDATE inbox SET taken_at = :now, attempts = attempts + 1
                   WHERE handled_at IS NULL AND taken_at <= :before
                   RETURNING update_id, payload""",
                now=now,
                before=taken_before,
            )
        return sorted((int(r["update_id"]), r["payload"]) for r in rows)
