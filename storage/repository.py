"""The storage protocol the bot service talks to. ``storage.sqlite`` implements it on
aiosqlite (WAL, one bot process); ``storage.postgres`` on asyncpg, for several bot
processes sharing one database. ``storage.factory.repository_for(url)`` picks one.
Both behave identically; every guarantee below holds across processes (it lives in the
database, never in process memory).

Every write that belongs to one accepted move happens in ONE transaction
(``commit_actions``): the actions, the table's new version/status, the snapshot,
the game result, the outbox rows and the turn timer. ``expected_version`` makes
it an optimistic lock: if another writer got there first, ``VersionConflict`` is
raised and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import EllipsisType
from typing import Any, Protocol

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

# The rating update of a finished game, run inside the transaction that stores it: given
# the current rows of its players (by player key; a player never rated has none) and the
# user ids of those who opted out (/stats off), the rows to write.
RateFn = Callable[[dict[str, RatingRow], set[int]], list[RatingRow]]

# The table field (``update_table``, ``commit_actions``'s ``table_fields``) that sets some
# keys of ``settings`` -- a value None removes its key -- in the settings as stored, under
# the table's row lock: writers of different keys never lose each other's writes, as two
# writers of the whole dict from copies read earlier would.
SETTINGS_CHANGES = "settings_changes"


class StorageError(Exception):
    pass


class StorageUnavailable(StorageError):
    """The database cannot be reached or written now (PostgreSQL stopped or restarting, a
    dropped connection, SQLite's disk full or a read-only file): nothing of the call was
    written, and the same call may succeed later. Logged once per outage
    (``storage.health``), so callers wait for it quietly."""


class VersionConflict(StorageError):
    """The table moved on since it was loaded; reload and retry (or report stale)."""


class TableExists(StorageError):
    """The chat (or forum topic) already has an open table."""


class Repository(Protocol):
    async def open(self) -> None:
        """Connect and run pending schema migrations."""

    async def close(self) -> None: ...

    # --- users and chats -------------------------------------------------
    async def upsert_user(self, user_id: int, name: str, username: str | None, lang: str | None) -> UserRow: ...
    async def get_user(self, user_id: int) -> UserRow | None: ...
    async def set_dm_open(self, user_id: int, is_open: bool) -> None: ...
    async def get_chat_lang(self, chat_id: int) -> str | None: ...
    async def set_chat_lang(self, chat_id: int, lang: str) -> None: ...
    # the group's score sheet mode ("text", "picture", "both"); None: never set
    async def get_chat_sheets(self, chat_id: int) -> str | None: ...
    async def set_chat_sheets(self, chat_id: int, mode: str) -> None: ...
    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Group upgraded to supergroup: move tables, settings and pending outbox rows."""

    # --- tables and seats ------------------------------------------------
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
        """Raises ``TableExists`` if the chat/topic has a table that is not closed."""

    async def get_table(self, table_id: int) -> TableRow | None: ...
    async def find_open_table(self, chat_id: int, thread_id: int) -> TableRow | None: ...
    async def last_table_of(self, chat_id: int, games: list[str]) -> TableRow | None:
        """The chat's newest table (any status) of one of ``games`` (e.g. /preferans's choice)."""

    async def tables_with_status(self, *statuses: str) -> list[TableRow]: ...
    async def update_table(
        self, table_id: int, expected_version: int | None = None, *, seats: list[SeatRow] | None = None, **fields: Any
    ) -> TableRow:
        """Change lobby fields (options, settings, status, group_message_id, lang, game_no).
        ``settings_changes={key: value}`` sets (None: removes) only those keys of the
        settings as stored, under the table's row lock: concurrent writers of different
        keys never lose each other's writes (``commit_actions``'s ``table_fields`` too).
        Writing the whole ``settings`` from a copy read earlier would.
        With ``expected_version`` it bumps the version by one (lobby edits are versioned too,
        so stale lobby buttons are detected) and raises ``VersionConflict`` on mismatch.
        With ``seats`` the table's seats are replaced (as ``replace_seats``) in the same
        transaction, so a lobby join is atomic with its version bump."""

    async def get_seats(self, table_id: int) -> list[SeatRow]: ...
    async def replace_seats(self, table_id: int, seats: list[SeatRow]) -> None:
        """Seats must belong to ``table_id`` with distinct seat numbers (``ValueError``)."""

    async def set_seat_messages(
        self,
        table_id: int,
        seat: int,
        *,
        dm_message_id: int | None | EllipsisType = ...,
        ping_message_id: int | None | EllipsisType = ...,
    ) -> None:
        """Update only the ids passed (``...`` = leave as is)."""

    async def set_seat_keyboard(self, table_id: int, seat: int, mode: str, version: int) -> None:
        """Store the seat's keyboard ``mode`` and the table ``version`` it was chosen at
        (``SeatRow.keyboard`` / ``keyboard_version``); the bot treats the mode as valid
        only while the table is still at that version."""

    async def tables_of_user(self, user_id: int) -> list[TableRow]:
        """Tables (not closed) where the user holds a seat."""

    # --- spectators (people watching a table's public view in their DM) ------
    async def add_spectator(self, table_id: int, user_id: int) -> bool:
        """True if the user was not watching the table yet; False (no change) if they were."""

    async def remove_spectator(self, table_id: int, user_id: int) -> SpectatorRow | None:
        """Stop watching: the removed row, or None if the user was not watching."""

    async def get_spectators(self, table_id: int) -> list[SpectatorRow]:
        """The table's spectators, in the order they started watching."""

    async def set_spectator_message(self, table_id: int, user_id: int, dm_message_id: int | None) -> None:
        """The spectator's DM message the bot edits (no-op if they stopped watching)."""

    # --- deal analyses ("🔍 The deal", computed once per finished deal) ------
    async def get_deal_analysis(self, table_id: int, seq: int) -> dict[str, Any] | None:
        """The analysis stored for the deal ended at action ``seq``, or None."""

    async def put_deal_analysis(self, table_id: int, seq: int, analysis: dict[str, Any]) -> None:
        """Store it; a second process that computed it too changes nothing."""

    # --- the action log ----------------------------------------------------
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
        """Append ``actions`` (their ``seq`` must run on from ``expected_version``),
        set the version to the last seq, apply ``table_fields``, store ``snapshot``
        (the state after the last action) and ``result`` (for the current game_no),
        queue ``outbox``, and replace the table's timer (None clears it, ``...`` keeps it).
        A game that ends stores ``finished`` in the group's history and, the first time
        only (one row per table and game_no), writes the ratings ``rate`` returns.
        All or nothing. Raises ``VersionConflict``."""

    async def load_actions(self, table_id: int, after_seq: int = 0) -> list[ActionRow]: ...
    async def latest_snapshot(self, table_id: int) -> tuple[int, dict[str, Any]] | None:
        """(seq, state dict) of the newest snapshot, or None."""

    async def game_results(self, table_id: int) -> list[dict[str, Any]]:
        """Results of the finished games of the series, ordered by game_no."""

    # --- history and ratings ------------------------------------------------
    async def finished_games(self, chat_id: int, limit: int = 10) -> list[FinishedGame]:
        """The group's last finished games, newest first."""

    async def finished_game(self, game_id: int) -> FinishedGame | None: ...
    async def top_ratings(self, chat_id: int, game: str, limit: int = 10) -> list[RatingRow]:
        """The group's table for ``game``, best conservative rating (mu - 3 sigma) first."""

    async def rated_games(self, chat_id: int) -> list[str]:
        """Games the group has ratings in, by name."""

    async def ratings_of_user(self, user_id: int) -> list[RatingRow]:
        """A person's ratings in every group and game."""

    async def set_rating_opt_out(self, user_id: int, opted_out: bool) -> None:
        """/stats off (True): the person's ratings are deleted and no game rates them
        again; /stats on (False): rated from the next game on."""

    async def rating_opted_out(self, user_id: int) -> bool: ...
    async def forget_chat(self, chat_id: int) -> int:
        """Erase the group's finished games, its ratings and its closed tables (with
        their action logs); open tables are left alone. Returns the games erased."""

    # --- outbox --------------------------------------------------------------
    async def enqueue(self, items: list[OutboxItem]) -> None:
        """Outbox rows that do not belong to an action (lobby edits, notices)."""

    async def pending_outbox(self, limit: int = 100) -> list[OutboxItem]: ...
    async def mark_done(self, ids: list[int]) -> None: ...
    async def outbox_refused(self, ids: list[int]) -> None:
        """Telegram refused these rows once more: add one to their ``attempts``."""

    async def try_lead_sender(self) -> bool:
        """One process at a time drains the outbox. True while this repository is the
        sender (idempotent), False while another process is. PostgreSQL: a session
        advisory lock on a dedicated connection, held until ``close()`` or until that
        connection dies (then the next call reconnects and tries again). SQLite: True."""

    async def listen_outbox(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` (in this process's event loop) after any process commits
        outbox rows (``commit_actions``/``enqueue``), so the sender wakes up. PostgreSQL:
        LISTEN/NOTIFY; the notification is sent by the writing transaction, i.e. after
        it commits. SQLite: a no-op (one process; the sender is woken in-process)."""

    # --- timers --------------------------------------------------------------
    async def due_timers(self, now: float) -> list[TimerRow]:
        """Timers whose remind_at (not yet reminded) or expire_at has passed."""

    async def mark_reminded(self, table_id: int, version: int) -> bool:
        """A claim: True only for the one call that turned the timer of ``version`` from
        not reminded to reminded; False if already reminded, gone or of another version."""

    async def clear_timer(self, table_id: int, version: int | None = None) -> None: ...
    async def all_timers(self) -> list[TimerRow]: ...

    # --- housekeeping (bot/housekeeping.py says how long each kind is kept) ----------
    # Each deletes in batches of at most ``batch`` rows, one short transaction a batch,
    # and returns the rows deleted; running two at once (two workers) is harmless.
    async def purge_outbox(self, done_before: float, batch: int = ...) -> int:
        """Outbox rows delivered before ``done_before``; never a pending row."""

    async def purge_inbox(self, handled_before: float, batch: int = ...) -> int:
        """The ids of updates handled before ``handled_before``; never an unhandled one."""

    async def purge_deal_analyses(self, created_before: float, batch: int = ...) -> int:
        """Deal analyses stored before ``created_before`` (computed again if asked for)."""

    async def purge_old_snapshots(self, batch: int = ...) -> int:
        """Every snapshot but the newest of its table."""

    # --- the inbox of Telegram updates ------------------------------------------------
    async def store_updates(self, updates: Sequence[tuple[int, str]]) -> list[int]:
        """Store Telegram updates (update id, JSON) before Telegram is told we have them.
        Returns the ids stored by this call, in order; an id stored before (Telegram
        re-sent it, maybe to another process) is left out, so each update is handled by
        one process once. Handled ids older than a day may be forgotten."""

    async def mark_updates_handled(self, update_ids: Sequence[int]) -> None:
        """Their handlers finished: never handed over again (their JSON is dropped)."""

    async def finish_update(self, update_id: int, outbox: Sequence[OutboxItem] = ()) -> bool:
        """The update's handler finished: mark it handled and queue the ``outbox`` rows it
        caused (its answer, its files) in ONE transaction, so a crash leaves both or
        neither. A claim: only the call that marked it writes (True); an update already
        handled (by another worker that took it over) writes nothing (False)."""

    async def renew_updates(self, update_ids: Sequence[int]) -> None:
        """This process is still handling these updates: their ``taken_at`` is now, so no
        other worker takes them over (a heartbeat)."""

    async def take_unhandled_updates(self, taken_before: float, max_attempts: int) -> list[tuple[int, str]]:
        """A claim of the stored updates not handled yet and last taken before
        ``taken_before`` (their process died): (update id, JSON) by update id, taken
        again now, so a concurrent caller gets none of them. An update already taken
        ``max_attempts`` times is given up (marked handled) instead."""
