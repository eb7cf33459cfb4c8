"""Play: a player's move, the DM keyboard switch, and the computers' answers (each its
own commit; a computer thinks outside the table lock)."""

from __future__ import annotations

import asyncio
import logging

from engine.base import get_game
from engine.errors import EngineError
from storage.models import PLAYING, OutboxItem, TableRow
from storage.repository import StorageError, VersionConflict
from bot import trick_view
from bot.game_registry import ui_for
from bot.press import EngineRefusal, PressPlace, StaleButton, UserError
from bot.screens import MOVE_KEY_LENGTH, MOVE_KEY_PREFIX, computer_level, move_key
from bot.table_core import Loaded, TableCore, person_seat

log = logging.getLogger(__name__)

STORAGE_RETRY_S = 1.0  # the database lost: the computers try again this often
MAX_COMPUTER_STEPS = 2000  # a safety bound; a durak game never needs this many moves in a row
STALE_SCAN_LIMIT = 64  # buttons drawn more moves ago than this are simply outdated


class Play(TableCore):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._computer_tasks: dict[int, asyncio.Task] = {}  # table id -> computers answering
        self._computers_again: set[int] = set()

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
            table, seats = await self._load(table_id)
            ui = ui_for(table.game)
            if ui.group_controls:
                place.require_table_chat(table)
            else:
                place.require_own_dm(user_id)
            mine = person_seat(seats, user_id)
            if mine is None:
                raise UserError("err.not_seated")
            if table.status != PLAYING:
                raise UserError("err.not_running")
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
            action = _chosen(legal, move, is_key)
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
            await self.run_computers(table_id, loaded=(table, seats))
        return "ok.move"

    async def _untouched_since(self, table: TableRow, seat: int, version: int) -> bool:
        """Has only the other seats played since ``version``? A move of this seat (its
        own earlier press, a timeout move) or of the system (a new deal, a forfeit) means
        buttons drawn at ``version`` answer a situation that is gone."""
        if not 0 < version < table.version or table.version - version > STALE_SCAN_LIMIT:
            return False
        since = await self.repo.load_actions(table.id, after_seq=version)
        return all(row.seat is not None and row.seat != seat for row in since)

    async def switch_keyboard(
        self, table_id: int, version: int, user_id: int, mode: str, place: PressPlace | None = None
    ) -> str:
        """The DM toggle between ordinary actions and blind covers, or between the hand and
        the deal's tricks (``bot.trick_view``); changes no game state."""
        (place or PressPlace(user_id, private=True)).require_own_dm(user_id)
        table, seats = await self._load(table_id)
        mine = person_seat(seats, user_id)
        if mine is None:
            raise UserError("err.not_seated")
        if not mode.isalnum() or len(mode) > 16:
            raise UserError("err.bad_button")
        # "📜 Tricks" and "↩ Back" only look: they work whatever moved on since the hand
        # message was drawn (the computers play on without redrawing it)
        looking = mode in (trick_view.TRICKS, "normal")
        if version != table.version and not looking:  # the toast says the message is refreshed: so it is
            await self._enqueue([OutboxItem("hand", user_id, table_id, target=mine.seat)])
            raise StaleButton()
        if mode == trick_view.TRICKS:
            if table.status != PLAYING:
                raise UserError("err.not_running")
            view = get_game(table.game).view(await self.state_of(table), mine.seat)
            if not trick_view.offered(trick_view.tricks_of(table, view)):
                raise UserError("tricks.err.none")
        await self.repo.set_seat_keyboard(table_id, mine.seat, mode, table.version)
        await self._enqueue([OutboxItem("hand", user_id, table_id, target=mine.seat)])
        return "ok.move"

    # ------------------------------------------------------------------ computers
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
                except StorageError:  # the database is lost (logged once): again when it is back
                    await asyncio.sleep(STORAGE_RETRY_S)
                    self._computers_again.add(table_id)
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

    async def run_computers(self, table_id: int, loaded: Loaded | None = None) -> None:
        """Automatic moves while the game waits for them, one committed action each: the
        system's (the shuffle of the next deal in a match) and the computer players'.
        ``loaded``: the table and seats as this process just wrote them (its own press),
        so they need not be read again. Another worker may be doing the same: a version
        conflict just means it got there first, so read the table again and look again."""
        for _ in range(MAX_COMPUTER_STEPS):
            try:
                loaded = await self._one_automatic_move(table_id, loaded)
                if loaded is None:
                    return
            except VersionConflict:
                loaded = None
                continue
        log.error("table %s: automatic moves did not stop after %s", table_id, MAX_COMPUTER_STEPS)

    async def _one_automatic_move(self, table_id: int, loaded: Loaded | None) -> Loaded | None:
        """Commit the next system or computer action; None when there is none, else the
        table as written. A computer thinks outside the table lock (humans at the table
        may press meanwhile): its answer is committed expecting the version it thought
        about, so a table that moved on meanwhile drops it (a version conflict)."""
        async with self.lock(table_id):
            if loaded is None:
                table = await self.repo.get_table(table_id)
                if table is None:
                    return None
                seats = sorted(await self.repo.get_seats(table_id), key=lambda s: s.seat)
            else:
                table, seats = loaded
            if table.status != PLAYING:
                return None
            game = get_game(table.game)
            state = await self.state_of(table)
            system_action = getattr(game, "system_action", None)
            action = system_action(state, self.rng) if system_action else None
            if action is not None:
                after, events = game.apply(state, None, action)
                await self._commit(
                    table, seats, state, after, [(None, action)], events, snapshot=action.startswith("deal")
                )
                return table, seats
            movers = [s for s in game.to_act(state) if seats[s].is_computer]
            if not movers:
                return None
            seat = movers[0]
            view, legal = game.view(state, seat), game.legal_actions(state, seat)
        action = await self._think(table, seat, view, legal)
        async with self.lock(table_id):
            after, events = game.apply(state, seat, action)
            await self._commit(table, seats, state, after, [(seat, action)], events)
            return table, seats

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


def _chosen(legal: list[str], move: str, is_key: bool) -> str | None:
    if is_key:
        return next((a for a in legal if move_key(a) == move), None)
    if move.isascii() and move.isdigit() and len(move) < 6 and int(move) < len(legal):
        return legal[int(move)]
    return None
