"""The lobby and the table's life around its games: opening a table, the lobby's
buttons (join, leave, computers, options, start, cancel), Rematch / Close after a game,
and /cancel."""

from __future__ import annotations

from typing import Any

from engine.ai_levels import LEVELS
from engine.base import get_game
from storage.models import BETWEEN, CLOSED, LOBBY, OutboxItem, SeatRow, TableRow
from storage.repository import TableExists, VersionConflict
from bot.game_registry import ui_for
from bot.computers import Computers
from bot.press import AdminCheck, Person, PressPlace, StaleButton, UserError, button_number
from bot.render.common import computer_name, display_name
from bot.screens import TIMER_CHOICES, computer_level, lobby_stamp
from bot.table_core import Loaded, TableCore, closed_hands, person_seat

LOBBY_TRIES = 5  # a lobby press that meets another worker's write looks again this often
HOST_COMMANDS = ("timer", "computers", "on_timeout", "start", "cancel")  # and every "o:<option>"
STAMPED_COMMANDS = ("timer", "computers", "on_timeout")  # they cycle a value, as "o:<option>" does


class Lobby:
    def __init__(self, core: TableCore, computers: Computers) -> None:
        self.core = core
        self.computers = computers

    async def open_table(
        self,
        chat_id: int,
        thread_id: int,
        game_name: str,
        opener: Person,
        lang: str,
        title: str,
        options: dict | None = None,
        answers: int | None = None,
    ) -> TableRow:
        """A new lobby; ``options`` (e.g. ``/score sochi``'s preset) over the game's defaults.
        ``answers``: the message id of the command it answers (the sender answers a group's
        commands in the order they came)."""
        game = get_game(game_name)
        await self.core.remember_user(opener)
        try:
            table = await self.core.repo.create_table(
                chat_id,
                thread_id,
                game_name,
                game.Options.model_validate(options or {}).model_dump(),
                opener.id,
                lang,
                {"timer": 0, "on_timeout": "lose", "title": title, "computers": self.core.computer_level},
            )
        except TableExists:
            raise UserError("err.table_exists") from None
        await self.core.repo.replace_seats(table.id, [SeatRow(table.id, 0, opener.id, opener.name)])
        await self.core.enqueue(
            [OutboxItem("group", chat_id, table.id, payload={"answers": answers} if answers else {})]
        )
        return table

    async def press(
        self, table_id: int, stamp: int, person: Person, command: str, is_admin: AdminCheck, place: PressPlace
    ) -> str:
        """A lobby button pressed at ``place``, drawn with ``stamp`` (``screens.lobby_stamp``).
        Returns the catalog key of the toast to show."""
        toast, started = await self._lobby_press(table_id, stamp, person, command, is_admin, place)
        if started is not None:  # a computer may have the first move
            self.computers.start(table_id, started)
        return toast

    async def _lobby_press(
        self, table_id: int, stamp: int, person: Person, command: str, is_admin: AdminCheck, place: PressPlace
    ) -> tuple[str, Loaded | None]:
        """A press is checked against what it names (a free seat, the person's own seat, a
        gathering table), never against the lobby's version: a crowd pressing Join at once
        all get in. Only the buttons that cycle a value carry the options' ``stamp``.
        The table is read once; the write expects that version, so a press that meets
        another's write (this process's or another worker's) reads it again and retries."""
        table, seats = await self.core.load(table_id)
        loaded: Loaded | None = (table, seats)
        place.require_table_chat(table)
        if table.status != LOBBY:
            raise UserError("err.game_started")
        # Host-ness is settled before the lock: an admin lookup may wait on Telegram.
        host = await self._lobby_host(table, seats, person, command, is_admin)
        for _ in range(LOBBY_TRIES):
            lock = self.core.lock(table_id)
            if lock.locked():  # another press holds the table: what it writes must be read
                loaded = None
            async with lock:
                if loaded is None:
                    loaded = await self.core.load(table_id)
                table, seats = loaded
                loaded = None  # a retry reads the table again
                place.require_table_chat(table)
                if table.status != LOBBY:
                    raise UserError("err.game_started")
                try:
                    return await self._lobby_change(table, seats, stamp, person, command, host)
                except VersionConflict:  # another press changed the lobby first: look again
                    continue
        raise StaleButton()

    async def _lobby_host(
        self, table: TableRow, seats: list[SeatRow], person: Person, command: str, is_admin: AdminCheck
    ) -> bool:
        """May this person use the host's buttons? Asked of the admin list only for a
        button that needs it (a seated player adds and removes computers themselves)."""
        if person.id == table.opener_id:
            return True
        if command in ("cpu+", "cpu-"):
            if person_seat(seats, person.id) is not None:
                return False
        elif not (command in HOST_COMMANDS or command.startswith("o:")):
            return False
        return await is_admin(table.chat_id)

    async def _lobby_change(
        self, table: TableRow, seats: list[SeatRow], stamp: int, person: Person, command: str, host: bool
    ) -> tuple[str, Loaded | None]:
        """One lobby press on the table as read; the write expects that version. The toast's
        catalog key, and after Start the table and its seats as the first deal wrote them."""
        seats = list(seats)
        mine = person_seat(seats, person.id)
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
                await self.core.enqueue([OutboxItem("group", table.chat_id, table.id)])
                raise StaleButton()
        if command == "join" or command.startswith("join:"):
            if mine and not (ui.seat_names and command.startswith("join:")):
                raise UserError("err.already_seated")
            free_seat = _free_place(seats, hi, ui.seat_names, command, mine.seat if mine else None)
            await self.core.remember_user(person)
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
            free_seat = _free_place(seats, hi, ui.seat_names, "join")
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
            fields["options"] = _next_option(table, command[2:])
        elif command == "timer":
            current = table.settings.get("timer", 0)
            nxt = (
                TIMER_CHOICES[(TIMER_CHOICES.index(current) + 1) % len(TIMER_CHOICES)]
                if current in TIMER_CHOICES
                else 0
            )
            fields["settings_changes"] = {"timer": nxt}
        elif command == "computers":
            level = computer_level(table)
            fields["settings_changes"] = {"computers": LEVELS[(LEVELS.index(level) + 1) % len(LEVELS)]}
        elif command == "on_timeout":
            mode = "auto" if table.settings.get("on_timeout", "lose") == "lose" else "lose"
            fields["settings_changes"] = {"on_timeout": mode}
        elif command == "start":
            require_host()
            return await self._start_from_lobby(table, seats)
        elif command == "cancel":
            require_host()
            await self.core.repo.update_table(table.id, expected_version=table.version, status=CLOSED)
            await self.core.enqueue([OutboxItem("group", table.chat_id, table.id)])
            return "ok.cancelled", None
        else:
            raise UserError("err.bad_button")

        seats_changed = command in ("join", "leave", "cpu+", "cpu-") or command.startswith("join:")
        if seats_changed and not any(not s.is_computer for s in seats):
            fields["status"] = CLOSED  # the last person left: the table closes
        if seats_changed and not ui.seat_names:  # seats in joining order, without holes
            for i, s in enumerate(sorted(seats, key=lambda s: s.seat)):
                s.seat = i
        # One transaction: the version check, the fields and the seats.
        await self.core.repo.update_table(
            table.id, expected_version=table.version, seats=seats if seats_changed else None, **fields
        )
        await self.core.enqueue([OutboxItem("group", table.chat_id, table.id)])
        return toast, None

    async def _missing_dms(self, table: TableRow, seats: list[SeatRow]) -> list[str]:
        """The people at the table the bot cannot reach in private yet (their hands go there)."""
        if ui_for(table.game).group_controls:
            return []
        missing = []
        for s in seats:
            if not s.is_computer and not ((user := await self.core.repo.get_user(s.user_id)) and user.dm_open):
                missing.append(display_name(s.name))
        return missing

    async def _start_from_lobby(self, table: TableRow, seats: list[SeatRow]) -> tuple[str, Loaded]:
        game = get_game(table.game)
        lo, hi = game.seat_range(game.Options(**table.options))
        if not lo <= len(seats) <= hi or sorted(s.seat for s in seats) != list(range(len(seats))):
            raise UserError("err.players_exact", n=lo) if lo == hi else UserError("err.players_range", lo=lo, hi=hi)
        seats = sorted(seats, key=lambda s: s.seat)
        if missing := await self._missing_dms(table, seats):
            raise UserError("err.dm_needed", names=", ".join(missing))
        await self.core.start_game(table, seats)
        return "ok.started", (table, seats)

    async def after_game_press(
        self, table_id: int, version: int, person: Person, command: str, is_admin: AdminCheck, place: PressPlace
    ) -> str:
        """Rematch (same seats, next game of the series) or close, after a game ended.
        The table is read once; the write expects the version the buttons were drawn at."""
        table, seats = await self.core.load(table_id)
        place.require_table_chat(table)
        # settled before the lock: an admin lookup may wait on Telegram
        allowed = person_seat(seats, person.id) is not None or person.id == table.opener_id
        allowed = allowed or await is_admin(table.chat_id)
        async with self.core.lock(table_id):
            if table.status != BETWEEN or version != table.version:
                raise StaleButton()
            if not allowed:
                raise UserError("err.not_seated")
            try:
                if command == "rematch":
                    if missing := await self._missing_dms(table, seats):
                        raise UserError("err.dm_needed", names=", ".join(missing))
                    await self.core.start_game(table, seats)  # the seats in seat order, as read
                elif command == "close":
                    await self.core.repo.update_table(table.id, expected_version=version, status=CLOSED)
                    await self.core.enqueue([OutboxItem("group", table.chat_id, table.id)])
                    return "ok.closed"
                else:
                    raise UserError("err.bad_button")
            except VersionConflict:  # pressed twice, or by two people: the first one counts
                raise StaleButton() from None
        self.computers.start(table_id, (table, seats))
        return "ok.started"

    async def cancel(self, chat_id: int, thread_id: int, person: Person, is_admin: AdminCheck) -> str:
        for _ in range(5):  # another worker may move the table on meanwhile: look again
            table = await self.core.repo.find_open_table(chat_id, thread_id)
            if table is None:
                raise UserError("err.no_table")
            # settled before the lock: an admin lookup may wait on Telegram
            if person.id != table.opener_id and not await is_admin(table.chat_id):
                raise UserError("err.host_only")
            async with self.core.lock(table.id):
                table, seats = await self.core.load(table.id)
                try:
                    await self.core.repo.update_table(table.id, expected_version=table.version, status=CLOSED)
                except VersionConflict:
                    continue
                await self.core.repo.clear_timer(table.id)
                await self.core.enqueue([OutboxItem("group", table.chat_id, table.id), *closed_hands(table, seats)])
                return "ok.cancelled"
        raise StaleButton()


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


def _next_option(table: TableRow, name: str) -> dict:
    try:
        opts = ui_for(table.game).next_option(dict(table.options), name)
    except KeyError:
        raise UserError("err.bad_button") from None
    get_game(table.game).Options(**opts)  # validates the combination
    return opts
