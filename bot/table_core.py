"""The core every part of the table service holds (``bot.service``): the storage, the
per-table lock, the game state cache, the users, the outbox and the one commit that
writes a move with all it causes (``bot.consequences`` says what; this module only reads
what that needs and writes it in one storage transaction)."""

from __future__ import annotations

import asyncio
import collections
import random
import time
from typing import Any, Callable

from engine.ai_levels import DEFAULT_LEVEL
from engine.base import get_game
from storage.models import CLOSED, PLAYING, ActionRow, OutboxItem, SeatRow, TableRow
from storage.repository import SETTINGS_CHANGES, Repository
from bot.consequences import Actions, consequences
from bot.press import Person, UserError
from bot.sheet_mode import DEFAULT_MODE
from bot.table_states import STATE_CACHE_SIZE, TableStates
from bot.thinking import Thinker

Loaded = tuple[TableRow, list[SeatRow]]  # a table as read, with its seats in seat order


class TableCore:
    """Shared by the service's parts, each holding it: what they read and write through."""

    def __init__(
        self,
        repo: Repository,
        *,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        thinker: Thinker | None = None,
        computer_level: str = DEFAULT_LEVEL,
    ) -> None:
        self.repo = repo
        self.rng = rng or random.SystemRandom()
        self.thinker = thinker or Thinker(workers=0)
        self.computer_level = computer_level  # what a new table's computers play at
        # table id -> seat of a computer whose decision is taking long: the group table
        # says "🤖 thinking…" meanwhile (this process's sender reads it)
        self.thinking: dict[int, int] = {}
        self.clock = clock
        # Per-table locks only spare this process needless conflicts. Correctness across
        # processes comes from the storage: every write checks the table version.
        self._locks: dict[int, asyncio.Lock] = {}
        self.states = TableStates(repo)  # shared with the sender
        # (table id, seat) -> when that seat last pressed (or got a new hand message), in this
        # process: whether it gets a "your turn" ping (another worker that does not know pings)
        self._last_press: collections.OrderedDict[tuple[int, int], float] = collections.OrderedDict()
        # (table id, game no) -> results of the games before it: fixed while that game runs
        self._histories: dict[tuple[int, int], list[dict]] = {}
        self.listeners: list[Callable[[], None]] = []  # woken when the outbox gets rows

    # ------------------------------------------------------------------ plumbing
    def lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            if len(self._locks) > STATE_CACHE_SIZE:  # drop idle locks of finished tables
                for key in [k for k, v in self._locks.items() if not v.locked()]:
                    del self._locks[key]
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    def wake(self) -> None:
        """Rows were written to the outbox: this process's sender looks now."""
        for listener in self.listeners:
            listener()

    async def enqueue(self, items: list[OutboxItem]) -> None:
        if items:
            await self.repo.enqueue(items)
            self.wake()

    async def load(self, table_id: int) -> Loaded:
        """The open table and its seats: the one read a press makes of them."""
        table = await self.repo.get_table(table_id)
        if table is None or table.status == CLOSED:
            raise UserError("err.table_gone")
        return table, sorted(await self.repo.get_seats(table_id), key=lambda s: s.seat)

    async def state_of(self, table: TableRow) -> Any | None:
        """The current game state (``bot.table_states``)."""
        return await self.states.state_of(table)

    async def seat_of(self, table_id: int, user_id: int) -> tuple[list[SeatRow], SeatRow | None]:
        seats = sorted(await self.repo.get_seats(table_id), key=lambda s: s.seat)
        return seats, person_seat(seats, user_id)

    async def remember_user(self, person: Person) -> None:
        await self.repo.upsert_user(person.id, person.name, person.username, person.lang)

    # ------------------------------------------------------------------ the commit
    async def commit(
        self,
        table: TableRow,
        seats: list[SeatRow],
        before: Any,
        after: Any,
        actions: Actions,
        events: list[dict],
        *,
        table_fields: dict | None = None,
        snapshot: bool = False,
    ) -> None:
        """Persist ``actions`` (already applied to get ``after``) with everything they cause
        (``bot.consequences``): the message refreshes, pings, posts (score sheets), the turn
        timer, the result, in one storage transaction."""
        now = self.clock()
        last_press = {s.seat: t for s in seats if (t := self._last_press.get((table.id, s.seat))) is not None}
        step = consequences(
            table,
            seats,
            before,
            after,
            actions,
            events,
            history=await self._history(table),
            now=now,
            last_press=last_press,
            table_fields=table_fields,
            snapshot=snapshot,
        )
        self._pressed(table.id, step.pressed, now)
        # the group's /sheets mode is read only when there is a sheet picture to send
        mode = (
            (await self.repo.get_chat_sheets(table.chat_id) or DEFAULT_MODE) if step.needs_sheet_mode else DEFAULT_MODE
        )
        rows = [
            ActionRow(table.id, table.version + i + 1, table.game_no, seat, action, now)
            for i, (seat, action) in enumerate(actions)
        ]
        await self.repo.commit_actions(
            table.id,
            table.version,
            rows,
            outbox=step.outbox(mode),
            table_fields=step.table_fields or None,
            snapshot=step.snapshot,
            result=step.result,
            timer=step.timer,
            finished=step.finished,
            rate=step.rate,
        )
        table.version = step.version
        for key, value in step.table_fields.items():
            if key == SETTINGS_CHANGES:  # what the stored settings became (other keys as read)
                table.settings = {k: v for k, v in {**table.settings, **value}.items() if v is not None}
            else:
                setattr(table, key, value)
        self.states.remember(table.id, step.version, after)
        self.wake()

    def _pressed(self, table_id: int, seats: set[int], now: float) -> None:
        for seat in seats:
            self._last_press[(table_id, seat)] = now
            self._last_press.move_to_end((table_id, seat))
        while len(self._last_press) > 4 * STATE_CACHE_SIZE:
            self._last_press.popitem(last=False)

    async def _history(self, table: TableRow) -> list[dict]:
        """Results of the series' finished games before the current one (cached: they
        cannot change while the current game runs)."""
        key = (table.id, table.game_no)
        if key not in self._histories:
            self._remember_history(table, await self.repo.game_results(table.id))
        return list(self._histories[key])

    def _remember_history(self, table: TableRow, results: list[dict]) -> None:
        if len(self._histories) > STATE_CACHE_SIZE:
            self._histories.clear()
        self._histories[(table.id, table.game_no)] = list(results)

    async def start_game(self, table: TableRow, seats: list[SeatRow]) -> None:
        """Deal a new game of the series (the lock is held by the caller)."""
        game = get_game(table.game)
        options = game.Options(**table.options)
        history = await self.repo.game_results(table.id)
        deal = game.new_deal(options, len(seats), self.rng, history)
        state, events = game.apply(game.initial_state(options, len(seats)), None, deal)
        fields: dict[str, Any] = {"status": PLAYING, "game_no": table.game_no + 1}
        if table.game_no:
            # A rematch: the old table message keeps the last game's end; the new game
            # gets a fresh message below the game-over post. Game 1 takes over the lobby message.
            fields["group_message_id"] = None
        table.game_no += 1
        self._remember_history(table, history)  # the new game's posts read it: no second read
        await self.commit(table, seats, None, state, [(None, deal)], events, table_fields=fields, snapshot=True)


def person_seat(seats: list[SeatRow], user_id: int) -> SeatRow | None:
    """The seat this person holds (a computer's seat is nobody's)."""
    return next((s for s in seats if s.user_id == user_id and not s.is_computer), None)


def closed_hands(table: TableRow, seats: list[SeatRow]) -> list[OutboxItem]:
    """The hand messages of a table that just closed, redrawn without buttons."""
    if table.game_no == 0:  # closed in the lobby: nobody has a hand message
        return []
    return [OutboxItem("hand", s.user_id, table.id, target=s.seat) for s in seats if not s.is_computer]
