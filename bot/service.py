"""TableService: every change to a table goes through here.

One path for every move: per-table lock → load the table and its state → check the
seat, the turn and the version → ``engine.apply`` → write the action, the new version,
the outbox rows and the turn timer in ONE storage transaction. Nothing is sent from
here: the sender drains the outbox, so a crash between "accepted" and "sent" loses
nothing. Telegram objects never reach this module; handlers pass plain values.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import logging
import random
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from engine.ai_levels import DEFAULT_LEVEL, LEVELS
from engine.base import get_game
from engine.errors import EngineError
from storage.models import BETWEEN, CLOSED, LOBBY, PLAYING, ActionRow, OutboxItem, SeatRow, TableRow, TimerRow
from storage.models import FinishedGame
from storage.repository import Repository, TableExists, VersionConflict
from storage.repository import RateFn
from bot.games import ui_for
from bot.ratings import ending
from bot.render.common import computer_name, display_name
from bot.sheet_mode import DEFAULT_MODE, sheet_payloads
from bot.screens import MOVE_KEY_LENGTH, MOVE_KEY_PREFIX, TIMER_CHOICES, computer_level, lobby_stamp, move_key
from bot.screens import seat_names
from bot.thinking import Thinker

log = logging.getLogger(__name__)

MAX_COMPUTER_STEPS = 2000  # a safety bound; a durak game never needs this many moves in a row
REMIND_AT = 0.75  # remind when this share of the turn time has passed
STATE_CACHE_SIZE = 5000  # game states kept in memory (least recently used go first)
STALE_SCAN_LIMIT = 64  # buttons drawn more moves ago than this are simply outdated
ACTIVE_PLAYER_WINDOW = 45.0  # seconds: a player who pressed this recently gets no "your turn" ping
LOBBY_TRIES = 5  # a lobby press that meets another worker's write looks again this often
HOST_COMMANDS = ("timer", "computers", "on_timeout", "start", "cancel")  # and every "o:<option>"
STAMPED_COMMANDS = ("timer", "computers", "on_timeout")  # they cycle a value, as "o:<option>" does


class UserError(Exception):
    """A refusal shown to the user as a toast: a catalog key plus parameters."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def button_number(text: str, digits: int = 18) -> int:
    """A number in callback data: ASCII digits only (``int`` would take "١" or "１" and
    ``str.isdigit`` even "²"), short enough for a 64-bit database column."""
    if not (text.isascii() and text.isdigit() and len(text) <= digits):
        raise UserError("err.bad_button")
    return int(text)


class StaleButton(UserError):
    def __init__(self) -> None:
        super().__init__("err.stale")


class EngineRefusal(UserError):
    """The engine said no; ``error`` carries the code and English reason."""

    def __init__(self, error: EngineError) -> None:
        super().__init__(f"engine.{error.code}", **error.params)
        self.error = error


@dataclass
class Person:
    id: int
    name: str
    username: str | None = None
    lang: str | None = None


# Is this person an administrator of the chat with this id? Always asked about the
# table's own chat, never the chat a button happened to be pressed in.
AdminCheck = Callable[[int], Awaitable[bool]]


@dataclass(frozen=True)
class PressPlace:
    """Where a button was pressed: the chat (and forum topic) of the message under which
    it sits. Callback data can be forged and messages forwarded, so every table button
    is checked against the table's own chat before it may act."""

    chat_id: int
    thread_id: int = 0
    private: bool = False

    def require_table_chat(self, table: TableRow) -> None:
        """A lobby, after-game or score-sheet button acts only under the table's group."""
        if self.private or (self.chat_id, self.thread_id) != (table.chat_id, table.thread_id):
            raise UserError("err.other_chat")

    def require_own_dm(self, user_id: int) -> None:
        """A hand button acts only in the presser's own private chat with the bot."""
        if not self.private or self.chat_id != user_id:
            raise UserError("err.other_chat")


def _own_cards(game: Any, state: Any, seat: int) -> list | None:
    """The cards a seat holds, as its own view shows them (None before the deal)."""
    return None if state is None else game.view(state, seat).get("hand")


class TableService:
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
        # says "🤖 thinking…" meanwhile (this process's sender draws it)
        self.thinking: dict[int, int] = {}
        self.clock = clock
        # Per-table locks only spare this process needless conflicts. Correctness across
        # processes comes from the storage: every write checks the table version.
        self._locks: dict[int, asyncio.Lock] = {}
        # table id -> (version, state): a cache only, trusted while the version matches
        self._states: collections.OrderedDict[int, tuple[int, Any]] = collections.OrderedDict()
        # (table id, seat) -> when that seat last pressed (or got a new hand message), in this
        # process: whether it gets a "your turn" ping (another worker that does not know pings)
        self._last_press: collections.OrderedDict[tuple[int, int], float] = collections.OrderedDict()
        # (table id, game no) -> results of the games before it: fixed while that game runs
        self._histories: dict[tuple[int, int], list[dict]] = {}
        self.listeners: list[Callable[[], None]] = []  # woken when the outbox gets rows
        self._computer_tasks: dict[int, asyncio.Task] = {}  # table id -> computers answering
        self._computers_again: set[int] = set()

    # ------------------------------------------------------------------ plumbing
    def lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            if len(self._locks) > STATE_CACHE_SIZE:  # drop idle locks of finished tables
                for key in [k for k, v in self._locks.items() if not v.locked()]:
                    del self._locks[key]
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    def _cache(self, table_id: int, version: int, state: Any) -> None:
        self._states[table_id] = (version, state)
        self._states.move_to_end(table_id)
        while len(self._states) > STATE_CACHE_SIZE:
            self._states.popitem(last=False)

    def _wake(self) -> None:
        for listener in self.listeners:
            listener()

    async def _table(self, table_id: int) -> TableRow:
        table = await self.repo.get_table(table_id)
        if table is None or table.status == CLOSED:
            raise UserError("err.table_gone")
        return table

    async def state_of(self, table: TableRow) -> Any | None:
        """The current game state: cache, or the newest snapshot plus the actions after it."""
        if table.game_no == 0:
            return None
        cached = self._states.get(table.id)
        if cached and cached[0] == table.version:
            self._states.move_to_end(table.id)
            return cached[1]
        game = get_game(table.game)
        snap = await self.repo.latest_snapshot(table.id)
        if snap is None:  # cannot happen: every deal is stored with a snapshot
            raise RuntimeError(f"table {table.id} has no snapshot")
        seq, data = snap
        state = game.load(data)
        for row in await self.repo.load_actions(table.id, after_seq=seq):
            state, _ = game.apply(state, row.seat, row.action)
        self._cache(table.id, table.version, state)
        return state

    async def seat_of(self, table_id: int, user_id: int) -> tuple[list[SeatRow], SeatRow | None]:
        seats = sorted(await self.repo.get_seats(table_id), key=lambda s: s.seat)
        return seats, next((s for s in seats if s.user_id == user_id and not s.is_computer), None)

    # ------------------------------------------------------------------ users
    async def remember_user(self, person: Person) -> None:
        await self.repo.upsert_user(person.id, person.name, person.username, person.lang)

    async def dm_opened(self, person: Person) -> None:
        """The user started the bot in private: hands can reach them now."""
        await self.remember_user(person)
        await self.repo.set_dm_open(person.id, True)
        items = []
        for table in await self.repo.tables_of_user(person.id):
            items.append(OutboxItem("group", table.chat_id, table.id))  # the lobby shows ✅ now
            if table.status in (PLAYING, BETWEEN):
                seats, seat = await self.seat_of(table.id, person.id)
                if seat:
                    await self.repo.set_seat_messages(table.id, seat.seat, dm_message_id=None)
                    items.append(OutboxItem("hand", person.id, table.id, target=seat.seat))
        await self._enqueue(items)

    async def _enqueue(self, items: list[OutboxItem]) -> None:
        if items:
            await self.repo.enqueue(items)
            self._wake()

    # ------------------------------------------------------------------ lobby
    async def open_table(
        self,
        chat_id: int,
        thread_id: int,
        game_name: str,
        opener: Person,
        lang: str,
        title: str,
        options: dict | None = None,
    ) -> TableRow:
        """A new lobby; ``options`` (e.g. ``/score sochi``'s preset) over the game's defaults."""
        game = get_game(game_name)
        await self.remember_user(opener)
        try:
            table = await self.repo.create_table(
                chat_id,
                thread_id,
                game_name,
                game.Options.model_validate(options or {}).model_dump(),
                opener.id,
                lang,
                {"timer": 0, "on_timeout": "lose", "title": title, "computers": self.computer_level},
            )
        except TableExists:
            raise UserError("err.table_exists") from None
        await self.repo.replace_seats(table.id, [SeatRow(table.id, 0, opener.id, opener.name)])
        await self._enqueue([OutboxItem("group", chat_id, table.id)])
        return table

    async def lobby_press(
        self, table_id: int, stamp: int, person: Person, command: str, is_admin: AdminCheck, place: PressPlace
    ) -> str:
        """A lobby button pressed at ``place``, drawn with ``stamp`` (``screens.lobby_stamp``).
        Returns the catalog key of the toast to show."""
        toast = await self._lobby_press(table_id, stamp, person, command, is_admin, place)
        if toast == "ok.started":
            self.start_computers(table_id)  # a computer may have the first move
        return toast

    async def _lobby_press(
        self, table_id: int, stamp: int, person: Person, command: str, is_admin: AdminCheck, place: PressPlace
    ) -> str:
        """A press is checked against what it names (a free seat, the person's own seat, a
        gathering table), never against the lobby's version: a crowd pressing Join at once
        all get in. Only the buttons that cycle a value carry the options' ``stamp``."""
        table = await self._table(table_id)
        place.require_table_chat(table)
        if table.status != LOBBY:
            raise UserError("err.game_started")
        # Host-ness is settled before the lock: an admin lookup may wait on Telegram.
        host = await self._lobby_host(table, person, command, is_admin)
        for _ in range(LOBBY_TRIES):
            async with self.lock(table_id):
                table = await self._table(table_id)
                place.require_table_chat(table)
                if table.status != LOBBY:
                    raise UserError("err.game_started")
                try:
                    return await self._lobby_change(table, stamp, person, command, host)
                except VersionConflict:  # another worker changed the lobby first: look again
                    continue
        raise StaleButton()

    async def _lobby_host(self, table: TableRow, person: Person, command: str, is_admin: AdminCheck) -> bool:
        """May this person use the host's buttons? Asked of the admin list only for a
        button that needs it (a seated player adds and removes computers themselves)."""
        if person.id == table.opener_id:
            return True
        if command in ("cpu+", "cpu-"):
            _, mine = await self.seat_of(table.id, person.id)
            if mine is not None:
                return False
        elif not (command in HOST_COMMANDS or command.startswith("o:")):
            return False
        return await is_admin(table.chat_id)

    async def _lobby_change(self, table: TableRow, stamp: int, person: Person, command: str, host: bool) -> str:
        """One lobby press on the table as just read; the write expects that version."""
        seats, mine = await self.seat_of(table.id, person.id)
        game = get_game(table.game)

        def require_host() -> None:
            if not host:
                raise UserError("err.host_only")

        fields: dict[str, Any] = {}
        toast = "ok.done"
        ui = ui_for(table.game)
        _, hi = game.seat_range(game.Options(**table.options))
        if command in STAMPED_COMMANDS or command.startswith("o:"):
            require_host()
            if stamp != lobby_stamp(table):  # drawn before the value changed: not cycled twice
                await self._enqueue([OutboxItem("group", table.chat_id, table.id)])
                raise StaleButton()
        if command == "join" or command.startswith("join:"):
            if mine and not (ui.seat_names and command.startswith("join:")):
                raise UserError("err.already_seated")
            free_seat = self._free_place(seats, hi, ui.seat_names, command, mine.seat if mine else None)
            await self.remember_user(person)
            if mine:  # moving to another seat at a fixed-seat table
                seats.remove(mine)
            seats.append(SeatRow(table.id, free_seat, person.id, person.name))
            toast = "ok.joined"
        elif command == "leave":
            if not mine:
                raise UserError("err.not_seated")
            seats.remove(mine)
            toast = "ok.left"
        elif command == "cpu+":
            if not mine:
                require_host()
            free_seat = self._free_place(seats, hi, ui.seat_names, "join")
            used = {s.user_id for s in seats}
            number = next(k for k in range(1, 100) if -k not in used)
            name = computer_name(table.lang, [s.name for s in seats])  # distinct from every seat's
            seats.append(SeatRow(table.id, free_seat, -number, name, is_computer=True))
        elif command == "cpu-":
            if not mine:
                require_host()
            cpus = sorted((s for s in seats if s.is_computer), key=lambda s: s.seat)
            if not cpus:
                raise UserError("err.no_computers")
            seats.remove(cpus[-1])
        elif command.startswith("o:"):
            fields["options"] = self._next_option(table, command[2:], len(seats))
        elif command == "timer":
            current = table.settings.get("timer", 0)
            nxt = (
                TIMER_CHOICES[(TIMER_CHOICES.index(current) + 1) % len(TIMER_CHOICES)]
                if current in TIMER_CHOICES
                else 0
            )
            fields["settings"] = {**table.settings, "timer": nxt}
        elif command == "computers":
            level = computer_level(table)
            fields["settings"] = {**table.settings, "computers": LEVELS[(LEVELS.index(level) + 1) % len(LEVELS)]}
        elif command == "on_timeout":
            mode = "auto" if table.settings.get("on_timeout", "lose") == "lose" else "lose"
            fields["settings"] = {**table.settings, "on_timeout": mode}
        elif command == "start":
            require_host()
            return await self._start_from_lobby(table, seats)
        elif command == "cancel":
            require_host()
            await self.repo.update_table(table.id, expected_version=table.version, status=CLOSED)
            await self._enqueue([OutboxItem("group", table.chat_id, table.id)])
            return "ok.cancelled"
        else:
            raise UserError("err.bad_button")

        seats_changed = command in ("join", "leave", "cpu+", "cpu-") or command.startswith("join:")
        if seats_changed and not any(not s.is_computer for s in seats):
            fields["status"] = CLOSED  # the last person left: the table closes
        if seats_changed and not ui.seat_names:  # seats in joining order, without holes
            for i, s in enumerate(sorted(seats, key=lambda s: s.seat)):
                s.seat = i
        # One transaction: the version check, the fields and the seats.
        await self.repo.update_table(
            table.id, expected_version=table.version, seats=seats if seats_changed else None, **fields
        )
        await self._enqueue([OutboxItem("group", table.chat_id, table.id)])
        return toast

    @staticmethod
    def _free_place(seats: list[SeatRow], most: int, seat_names, command: str, mine: int | None = None) -> int:
        """The seat a join takes: the one asked for at a fixed-seat table, else the next.
        ``mine`` is the seat the presser holds already."""
        taken = {s.seat for s in seats}
        if command.startswith("join:"):
            place = button_number(command[5:], digits=2)
            if not seat_names or not 0 <= place < len(seat_names):
                raise UserError("err.bad_button")
            if place == mine:
                raise UserError("err.already_seated")
            if place in taken:
                raise UserError("err.seat_taken")
            return place
        free = [p for p in range(most) if p not in taken]
        if not free:
            raise UserError("err.table_full", n=most)
        return free[0]

    def _next_option(self, table: TableRow, name: str, players: int) -> dict:
        try:
            opts = ui_for(table.game).next_option(dict(table.options), name)
        except KeyError:
            raise UserError("err.bad_button") from None
        get_game(table.game).Options(**opts)  # validates the combination
        return opts

    async def _start_from_lobby(self, table: TableRow, seats: list[SeatRow]) -> str:
        game = get_game(table.game)
        lo, hi = game.seat_range(game.Options(**table.options))
        if not lo <= len(seats) <= hi or sorted(s.seat for s in seats) != list(range(len(seats))):
            raise UserError("err.players_exact", n=lo) if lo == hi else UserError("err.players_range", lo=lo, hi=hi)
        missing = []
        for s in seats:
            if not s.is_computer and not ui_for(table.game).group_controls:
                user = await self.repo.get_user(s.user_id)
                if not (user and user.dm_open):
                    missing.append(display_name(s.name))
        if missing:
            raise UserError("err.dm_needed", names=", ".join(missing))
        await self._start_game(table, seats)
        return "ok.started"

    # ------------------------------------------------------------------ games
    async def _start_game(self, table: TableRow, seats: list[SeatRow]) -> None:
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
        await self._commit(table, seats, None, state, [(None, deal)], events, table_fields=fields, snapshot=True)

    async def _commit(
        self,
        table: TableRow,
        seats: list[SeatRow],
        before: Any,
        after: Any,
        actions: list[tuple[int | None, str]],
        events: list[dict],
        *,
        table_fields: dict | None = None,
        snapshot: bool = False,
    ) -> None:
        """Persist ``actions`` (already applied to get ``after``) with everything they cause:
        the message refreshes, pings, posts (score sheets), the turn timer, the result."""
        game, ui = get_game(table.game), ui_for(table.game)
        fields = dict(table_fields or {})
        outbox: list[OutboxItem] = []
        if not ui.group_controls:
            outbox += self._dm_rows(table, seats, before, after, actions, events)
        version = table.version + len(actions)
        result = None
        timer: TimerRow | None = None
        history = await self._history(table)
        finished: FinishedGame | None = None
        rate: RateFn | None = None
        if game.is_over(after):
            result = game.result(after)
            assert result is not None, "a game that is over has a result"
            history = history + [result]
            fields["status"] = BETWEEN
            snapshot = True
            finished, rate = self._ending(table, seats, result or {})
        else:
            timer = self._timer_for(table, version, after, seats)
        names = seat_names(seats)
        view = game.view(after, None)
        texts = ui.posts(events, view, names, table.lang, history)
        if self._next_deal(ui, before, events):
            # the previous deal's sheet was posted below the table: the table follows it
            outbox.insert(0, OutboxItem("restack", table.chat_id, table.id))
        elif ui.group_controls and texts and result is None:
            pass  # a score-only table's buttons follow the sheet just posted (below)
        elif before is None or table_fields or ui.refreshes_group(events, len(texts), result is not None):
            outbox.insert(0, OutboxItem("group", table.chat_id, table.id))
        payloads = await self._post_payloads(table, ui, events, view, names, texts, result is not None)
        for i, payload in enumerate(payloads):
            last = i == len(payloads) - 1  # the Rematch buttons go under the game's last post
            outbox.append(
                OutboxItem(
                    "post",
                    table.chat_id,
                    table.id,
                    payload={**payload, "game_no": table.game_no, "game_over": result is not None and last},
                )
            )
        if ui.group_controls and texts and result is None:
            # the keyboard to enter the next deal sits under the group message: keep it last
            outbox.append(OutboxItem("restack", table.chat_id, table.id))
        rows = [
            ActionRow(table.id, table.version + i + 1, table.game_no, seat, action, self.clock())
            for i, (seat, action) in enumerate(actions)
        ]
        await self.repo.commit_actions(
            table.id,
            table.version,
            rows,
            outbox=outbox,
            table_fields=fields or None,
            snapshot=game.dump(after) if snapshot else None,
            result=result,
            timer=timer,
            finished=finished,
            rate=rate,
        )
        table.version = version
        for key, value in fields.items():
            setattr(table, key, value)
        self._cache(table.id, version, after)
        self._wake()

    @staticmethod
    def _next_deal(ui: Any, before: Any, events: list[dict]) -> bool:
        """A deal of a game that had one before: every deal ends with its score sheet."""
        return before is not None and not ui.group_controls and any(e.get("type") == "deal" for e in events)

    def _ending(self, table: TableRow, seats: list[SeatRow], result: dict) -> tuple[FinishedGame, RateFn | None]:
        """The game joins the group's history and its players' ratings: both are written
        in the transaction of its last move (``bot.ratings``)."""
        return ending(table, seats, result, self.clock())

    async def _post_payloads(
        self, table: TableRow, ui: Any, events: list[dict], view: dict, names: list[str], texts: list[str], over: bool
    ) -> list[dict]:
        """The posts as outbox payloads, with the sheet's picture where the group's
        ``/sheets`` mode wants it (read only when there is a sheet to draw)."""
        picture = ui.picture(events, view, names, table.lang) if texts else None
        mode = (await self.repo.get_chat_sheets(table.chat_id) or DEFAULT_MODE) if picture else DEFAULT_MODE
        return sheet_payloads(texts, picture, mode, over, table.lang)

    def _dm_rows(
        self,
        table: TableRow,
        seats: list[SeatRow],
        before: Any,
        after: Any,
        actions: list[tuple[int | None, str]],
        events: list[dict],
    ) -> list[OutboxItem]:
        """What the players' DMs need after these actions. Every Bot API call counts
        against Telegram's limits, so a hand message is redrawn only when its reader needs
        it: they acted, their turn began or ended, they must act now (their buttons must be
        right), their own cards changed, or a milestone passed (a trick or bout ended, a
        deal began or ended) — not for every card someone else plays. A "your turn" ping
        (a new message: it notifies) goes only to a player who has not pressed for a while:
        someone playing right now sees the redrawn hand in the open chat anyway."""
        game, ui = get_game(table.game), ui_for(table.game)
        now = self.clock()
        acted = {seat for seat, _ in actions if seat is not None}
        # a game's first hand message is a new message: it notifies like a ping would
        for seat in acted | ({s.seat for s in seats} if before is None else set()):
            self._last_press[(table.id, seat)] = now
            self._last_press.move_to_end((table.id, seat))
        while len(self._last_press) > 4 * STATE_CACHE_SIZE:
            self._last_press.popitem(last=False)
        was_waiting = set(game.to_act(before)) if before is not None else set()
        now_waiting = set(game.to_act(after))
        everyone = (
            before is None
            or None in (seat for seat, _ in actions)
            or game.is_over(after)
            or ui.refreshes_group(events, 0, False)
        )
        rows: list[OutboxItem] = []
        # nobody to act and not over: the system deals the next deal at once, and that
        # redraws every hand; drawing the finished deal in between would be wasted
        dealing_next = not now_waiting and not game.is_over(after)
        for s in seats:
            if s.is_computer or dealing_next:
                continue
            needs = (
                everyone
                or s.seat in acted
                or s.seat in was_waiting
                or s.seat in now_waiting
                or _own_cards(game, before, s.seat) != _own_cards(game, after, s.seat)
            )
            if needs:
                rows.append(OutboxItem("hand", s.user_id, table.id, target=s.seat))
        for seat in sorted(now_waiting - was_waiting):
            recently = now - self._last_press.get((table.id, seat), float("-inf")) < ACTIVE_PLAYER_WINDOW
            if not seats[seat].is_computer and not recently:
                rows.append(OutboxItem("ping", seats[seat].user_id, table.id, target=seat))
        for seat in sorted(was_waiting - now_waiting):  # their turn is over: the ping goes
            if not seats[seat].is_computer:
                rows.append(OutboxItem("unping", seats[seat].user_id, table.id, target=seat))
        return rows

    async def _history(self, table: TableRow) -> list[dict]:
        """Results of the series' finished games before the current one (cached: they
        cannot change while the current game runs)."""
        key = (table.id, table.game_no)
        if key not in self._histories:
            if len(self._histories) > STATE_CACHE_SIZE:
                self._histories.clear()
            self._histories[key] = await self.repo.game_results(table.id)
        return list(self._histories[key])

    def _timer_for(self, table: TableRow, version: int, state: Any, seats: list[SeatRow]) -> TimerRow | None:
        seconds = table.settings.get("timer", 0)
        waiting = get_game(table.game).to_act(state)
        if not seconds or not any(not seats[s].is_computer for s in waiting):
            return None
        now = self.clock()
        return TimerRow(table.id, version, now + seconds * REMIND_AT, now + seconds)

    async def act(
        self,
        table_id: int,
        version: int,
        user_id: int,
        move: str,
        message_id: int | None,
        place: PressPlace | None = None,
        computers: bool = True,
    ) -> str:
        """A player's action button, drawn at table ``version``: ``move`` is the action's
        key (``screens.move_key``), or the index of a legal action in buttons drawn before
        keys existed. Pressed in their DM (or under the group message of a score-only
        table); ``place`` None means their own DM. Then the computers' answers, unless
        ``computers`` is False (the caller runs them later).

        Other seats' moves do not make a DM button stale: the press is applied when its
        move is still legal for this seat now and this seat has not acted since the
        buttons were drawn (so a double click still applies once)."""
        place = place or PressPlace(user_id, private=True)
        is_key = move.startswith(MOVE_KEY_PREFIX) and len(move) == MOVE_KEY_LENGTH
        if not is_key and not (move.isascii() and move.isdigit()):
            raise UserError("err.bad_button")
        async with self.lock(table_id):
            table = await self._table(table_id)
            if ui_for(table.game).group_controls:
                place.require_table_chat(table)
            else:
                place.require_own_dm(user_id)
            seats, mine = await self.seat_of(table_id, user_id)
            if mine is None:
                raise UserError("err.not_seated")
            if table.status != PLAYING:
                raise UserError("err.not_running")
            ui = ui_for(table.game)
            expected_message = table.group_message_id if ui.group_controls else mine.dm_message_id
            if message_id is not None and expected_message not in (None, message_id):
                raise UserError("err.old_message")
            current = version == table.version
            if not current and (
                ui.group_controls or not is_key or not await self._untouched_since(table, mine.seat, version)
            ):
                await self._enqueue(
                    [
                        OutboxItem("group", table.chat_id, table.id)
                        if ui.group_controls
                        else OutboxItem("hand", user_id, table.id, target=mine.seat)
                    ]
                )
                raise StaleButton()
            game = get_game(table.game)
            state = await self.state_of(table)
            legal = game.legal_actions(state, mine.seat)
            if not legal:
                raise StaleButton() if not current else UserError("err.not_your_turn")
            action = self._chosen(legal, move, is_key)
            if action is None:  # a forged key, or a move that is no longer legal
                raise StaleButton() if not current else UserError("err.bad_button")
            try:
                after, events = game.apply(state, mine.seat, action)
            except EngineError as error:  # legal_actions promised otherwise: a bug, but refuse cleanly
                log.error("engine refused its own legal action %r: %s", action, error)
                raise EngineRefusal(error) from error
            try:
                await self._commit(table, seats, state, after, [(mine.seat, action)], events)
            except VersionConflict:  # another worker committed a move on this table first
                raise StaleButton() from None
        if computers:
            await self.run_computers(table_id)
        return "ok.move"

    @staticmethod
    def _chosen(legal: list[str], move: str, is_key: bool) -> str | None:
        if is_key:
            return next((a for a in legal if move_key(a) == move), None)
        if move.isascii() and move.isdigit() and len(move) < 6 and int(move) < len(legal):
            return legal[int(move)]
        return None

    async def _untouched_since(self, table: TableRow, seat: int, version: int) -> bool:
        """Has only the other seats played since ``version``? A move of this seat (its
        own earlier press, a timeout move) or of the system (a new deal, a forfeit) means
        buttons drawn at ``version`` answer a situation that is gone."""
        if not 0 < version < table.version or table.version - version > STALE_SCAN_LIMIT:
            return False
        since = await self.repo.load_actions(table.id, after_seq=version)
        return all(row.seat is not None and row.seat != seat for row in since)

    @staticmethod
    def keyboard_mode(table: TableRow, seat: SeatRow) -> str:
        """The DM keyboard a seat looks at; a switch lasts until the table moves on."""
        return seat.keyboard if seat.keyboard_version == table.version else "normal"

    async def switch_keyboard(
        self, table_id: int, version: int, user_id: int, mode: str, place: PressPlace | None = None
    ) -> str:
        """The DM toggle between ordinary actions and blind covers; changes no game state."""
        (place or PressPlace(user_id, private=True)).require_own_dm(user_id)
        table = await self._table(table_id)
        _, mine = await self.seat_of(table_id, user_id)
        if mine is None or not mode.isalnum() or len(mode) > 16:
            raise UserError("err.bad_button")
        if version != table.version:
            raise StaleButton()
        await self.repo.set_seat_keyboard(table_id, mine.seat, mode, version)
        await self._enqueue([OutboxItem("hand", user_id, table_id, target=mine.seat)])
        return "ok.move"

    def start_computers(self, table_id: int) -> None:
        """Let the computers answer in the background. A press handler must not wait for
        them: while it waits it holds one of the update slots every chat shares, and with
        strong computers thinking at many tables the slots fill up and presses elsewhere
        wait seconds for their answer. One task per table; a second call while it runs
        makes it look once more when it is done."""
        task = self._computer_tasks.get(table_id)
        if task is not None and not task.done():
            self._computers_again.add(table_id)
            return
        self._computer_tasks[table_id] = asyncio.create_task(
            self._computers_in_background(table_id), name=f"computers:{table_id}"
        )

    async def _computers_in_background(self, table_id: int) -> None:
        try:
            while True:
                self._computers_again.discard(table_id)
                try:
                    await self.run_computers(table_id)
                except Exception:  # the moves stay due: the next press, timer or restart runs them
                    log.exception("table %s: computers' moves failed", table_id)
                if table_id not in self._computers_again:
                    return
        finally:
            self._computer_tasks.pop(table_id, None)

    async def idle(self) -> None:
        """Wait until no computer is thinking (tests, and a clean shutdown)."""
        while self._computer_tasks:
            await asyncio.gather(*list(self._computer_tasks.values()), return_exceptions=True)

    async def stop_computers(self) -> None:
        """Cancel the computers' background moves and wait until they are gone (a clean
        shutdown). Their moves stay due: resume() runs them at the next start."""
        tasks = list(self._computer_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def run_computers(self, table_id: int) -> None:
        """Automatic moves while the game waits for them, one committed action each: the
        system's (the shuffle of the next deal in a match) and the computer players'.
        Another worker may be doing the same: a version conflict just means it got there
        first, so look again."""
        for _ in range(MAX_COMPUTER_STEPS):
            try:
                if not await self._one_automatic_move(table_id):
                    return
            except VersionConflict:
                continue
        log.error("table %s: automatic moves did not stop after %s", table_id, MAX_COMPUTER_STEPS)

    async def _one_automatic_move(self, table_id: int) -> bool:
        """Commit the next system or computer action; False when there is none. A
        computer thinks outside the table lock (humans at the table may press meanwhile);
        if the table moved on while it thought, its answer is dropped and it looks again."""
        async with self.lock(table_id):
            table = await self.repo.get_table(table_id)
            if table is None or table.status != PLAYING:
                return False
            seats = sorted(await self.repo.get_seats(table_id), key=lambda s: s.seat)
            game = get_game(table.game)
            state = await self.state_of(table)
            system_action = getattr(game, "system_action", None)
            action = system_action(state, self.rng) if system_action else None
            if action is not None:
                after, events = game.apply(state, None, action)
                await self._commit(
                    table, seats, state, after, [(None, action)], events, snapshot=action.startswith("deal")
                )
                return True
            movers = [s for s in game.to_act(state) if seats[s].is_computer]
            if not movers:
                return False
            seat, version = movers[0], table.version
            view, legal = game.view(state, seat), game.legal_actions(state, seat)
        action = await self._think(table, seat, view, legal)
        async with self.lock(table_id):
            table = await self.repo.get_table(table_id)
            if table is None or table.status != PLAYING or table.version != version:
                return True  # someone moved meanwhile: look again
            state = await self.state_of(table)
            after, events = game.apply(state, seat, action)
            await self._commit(table, seats, state, after, [(seat, action)], events)
            return True

    async def _think(self, table: TableRow, seat: int, view: dict, legal: list[str]) -> str:
        """A computer's decision at the table's level, off the event loop; the group
        table says "🤖 thinking…" while a decision takes longer than a second."""

        async def show_thinking() -> None:
            self.thinking[table.id] = seat
            await self._enqueue([OutboxItem("group", table.chat_id, table.id)])

        try:
            return await self.thinker.decide(
                table.game, view, legal, self.rng.getrandbits(64), computer_level(table), on_slow=show_thinking
            )
        finally:
            if self.thinking.pop(table.id, None) is not None:
                await self._enqueue([OutboxItem("group", table.chat_id, table.id)])

    async def after_game_press(
        self, table_id: int, version: int, person: Person, command: str, is_admin: AdminCheck, place: PressPlace
    ) -> str:
        """Rematch (same seats, next game of the series) or close, after a game ended."""
        table = await self._table(table_id)
        place.require_table_chat(table)
        _, mine = await self.seat_of(table_id, person.id)
        # settled before the lock: an admin lookup may wait on Telegram
        allowed = mine is not None or person.id == table.opener_id or await is_admin(table.chat_id)
        async with self.lock(table_id):
            table = await self._table(table_id)
            place.require_table_chat(table)
            if table.status != BETWEEN or version != table.version:
                raise StaleButton()
            seats, _ = await self.seat_of(table_id, person.id)
            if not allowed:
                raise UserError("err.not_seated")
            if command == "rematch":
                missing = [
                    display_name(s.name)
                    for s in seats
                    if not s.is_computer
                    and not ui_for(table.game).group_controls
                    and not ((u := await self.repo.get_user(s.user_id)) and u.dm_open)
                ]
                if missing:
                    raise UserError("err.dm_needed", names=", ".join(missing))
                await self._start_game(table, seats)
                result = "ok.started"
            elif command == "close":
                await self.repo.update_table(table.id, expected_version=version, status=CLOSED)
                await self._enqueue([OutboxItem("group", table.chat_id, table.id)])
                return "ok.closed"
            else:
                raise UserError("err.bad_button")
        self.start_computers(table_id)
        return result

    async def cancel(self, chat_id: int, thread_id: int, person: Person, is_admin: AdminCheck) -> str:
        for _ in range(5):  # another worker may move the table on meanwhile: look again
            table = await self.repo.find_open_table(chat_id, thread_id)
            if table is None:
                raise UserError("err.no_table")
            # settled before the lock: an admin lookup may wait on Telegram
            if person.id != table.opener_id and not await is_admin(table.chat_id):
                raise UserError("err.host_only")
            async with self.lock(table.id):
                table = await self._table(table.id)
                try:
                    await self.repo.update_table(table.id, expected_version=table.version, status=CLOSED)
                except VersionConflict:
                    continue
                await self.repo.clear_timer(table.id)
                seats = await self.repo.get_seats(table.id)
                await self._enqueue([OutboxItem("group", table.chat_id, table.id), *self._closed_hands(table, seats)])
                return "ok.cancelled"
        raise StaleButton()

    @staticmethod
    def _closed_hands(table: TableRow, seats: list[SeatRow]) -> list[OutboxItem]:
        """The hand messages of a table that just closed, redrawn without buttons."""
        if table.game_no == 0:  # closed in the lobby: nobody has a hand message
            return []
        return [OutboxItem("hand", s.user_id, table.id, target=s.seat) for s in seats if not s.is_computer]

    # ------------------------------------------------------------------ timers
    async def fire_timers(self) -> None:
        """Reminders and timeouts that are due, fired exactly once even when several workers
        poll: a reminder is claimed in the storage first, and a timeout is an ordinary commit
        with the timer's version as the expected version."""
        now = self.clock()
        for timer in await self.repo.due_timers(now):
            try:
                await self._fire_timer(timer, now)
            except VersionConflict:
                continue  # the table moved on (a move, or another worker fired it)
            await self.run_computers(timer.table_id)

    async def _fire_timer(self, timer: TimerRow, now: float) -> None:
        async with self.lock(timer.table_id):
            table = await self.repo.get_table(timer.table_id)
            if table is None or table.status != PLAYING or table.version != timer.version:
                await self.repo.clear_timer(timer.table_id, timer.version)
                return
            seats = sorted(await self.repo.get_seats(table.id), key=lambda s: s.seat)
            game = get_game(table.game)
            state = await self.state_of(table)
            idle = [s for s in game.to_act(state) if not seats[s].is_computer]
            if timer.expire_at > now:
                if await self.repo.mark_reminded(table.id, timer.version):
                    await self._enqueue(
                        [
                            OutboxItem("ping", seats[s].user_id, table.id, target=s, payload={"reminder": True})
                            for s in idle
                        ]
                    )
                return
            if not idle:
                await self.repo.clear_timer(table.id, timer.version)
                return
            seat = idle[0]
            if table.settings.get("on_timeout", "lose") == "auto":
                action = await self._think(table, seat, game.view(state, seat), game.legal_actions(state, seat))
                after, events = game.apply(state, seat, action)
                await self._commit(table, seats, state, after, [(seat, action)], events)
            else:
                action = f"forfeit {seat}"
                after, events = game.apply(state, None, action)
                await self._commit(table, seats, state, after, [(None, action)], events)

    async def resume(self) -> None:
        """At start-up: let computers finish moves that a crash interrupted, redraw messages."""
        for table in await self.repo.tables_with_status(PLAYING):
            await self.run_computers(table.id)

    async def match_states(self, table: TableRow) -> list[Any]:
        """The state of every game of the table's series, in order, rebuilt from the log
        (the last one may be in progress): what ``/export`` writes out."""
        game = get_game(table.game)
        options = game.Options(**table.options)
        players = len(await self.repo.get_seats(table.id))
        states: dict[int, Any] = {}
        for row in await self.repo.load_actions(table.id):
            state = states.get(row.game_no) or game.initial_state(options, players)
            states[row.game_no], _ = game.apply(state, row.seat, row.action)
        return [states[number] for number in sorted(states)]

    # ------------------------------------------------------------------ chat settings
    async def set_language(self, chat_id: int, thread_id: int, lang: str) -> None:
        await self.repo.set_chat_lang(chat_id, lang)
        table = await self.repo.find_open_table(chat_id, thread_id)
        if table:
            async with self.lock(table.id):
                await self.repo.update_table(table.id, lang=lang)
                seats = await self.repo.get_seats(table.id)
                items = [OutboxItem("group", chat_id, table.id)]
                if table.status != LOBBY:
                    items += [
                        OutboxItem("hand", s.user_id, table.id, target=s.seat) for s in seats if not s.is_computer
                    ]
                await self._enqueue(items)

    async def send_files(
        self, chat_id: int, table_id: int, files: list[tuple[str, bytes]], thread_id: int = 0, caption: str = ""
    ) -> None:
        """Files for a chat (a game's record, a PBN export), sent by the sender: paced with
        the chat's other messages and retried through a flood wait, so none is lost."""
        items = [
            OutboxItem(
                "file",
                chat_id,
                table_id,
                target=thread_id or None,
                payload={"file_name": name, "base64": base64.b64encode(content).decode("ascii"), "caption": caption},
            )
            for name, content in files
        ]
        await self.repo.enqueue(items)
        self._wake()

    async def send_reply(
        self,
        chat_id: int,
        text: str,
        rows: list[list[tuple[str, str]]] | None = None,
        *,
        thread_id: int = 0,
        reply_to: int | None = None,
        preview: bool = True,
    ) -> None:
        """A command's answer (HTML; buttons as rows of (label, callback data | "url:<link>")),
        sent by the sender in order with the chat's other messages: in the group's budget and
        retried through a flood wait, so it may come late but is never lost."""
        payload: dict = {"text": text, "rows": [[[label, data] for label, data in row] for row in rows or []]}
        if reply_to:
            payload["reply_to"] = reply_to
        if not preview:
            payload["no_preview"] = True
        await self._enqueue([OutboxItem("reply", chat_id, None, target=thread_id or None, payload=payload)])

    async def edit_message(self, chat_id: int, message_id: int, text: str) -> None:
        """Replace a message's text and take its buttons away (a used chooser becomes its
        one-line outcome), through the sender like a reply."""
        await self._enqueue([OutboxItem("edit", chat_id, None, payload={"message_id": message_id, "text": text})])

    async def chat_lost(self, chat_id: int) -> None:
        """The bot was removed from a group (or may no longer write there): its open
        tables close, and the seated people hear it in their DMs. A rare event, so the
        open tables are scanned rather than indexed by chat."""
        for table in await self.repo.tables_with_status(LOBBY, PLAYING, BETWEEN):
            if table.chat_id != chat_id:
                continue
            async with self.lock(table.id):
                for _ in range(5):  # another worker may move the table meanwhile
                    current = await self.repo.get_table(table.id)
                    if current is None or current.status == CLOSED:
                        break
                    try:
                        await self.repo.update_table(table.id, expected_version=current.version, status=CLOSED)
                    except VersionConflict:
                        continue
                    seats = await self.repo.get_seats(table.id)
                    spectators = await self.repo.get_spectators(table.id)
                    await self._enqueue(
                        self._closed_hands(current, seats)
                        + [
                            OutboxItem("notice", s.user_id, table.id, payload={"key": "table.closed_removed"})
                            for s in seats
                            if not s.is_computer
                        ]
                        # spectators see the table closed, once (no group message to follow now)
                        + [OutboxItem("watch", s.user_id, table.id) for s in spectators]
                    )
                    log.warning("table %s closed: the bot cannot write in chat %s any more", table.id, chat_id)
                    break

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        await self.repo.migrate_chat(old_chat_id, new_chat_id)
        self._wake()
