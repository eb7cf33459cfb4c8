"""Play: a player's move and the DM keyboard switch; after a move the computers answer
(``bot.computers``), given the table as the move wrote it."""

from __future__ import annotations

import logging

from engine.base import get_game
from engine.errors import EngineError
from storage.models import PLAYING, OutboxItem, TableRow
from storage.repository import VersionConflict
from bot import trick_view
from bot.computers import Computers
from bot.game_registry import ui_for
from bot.press import EngineRefusal, PressPlace, StaleButton, UserError
from bot.screens import MOVE_KEY_LENGTH, MOVE_KEY_PREFIX, move_key
from bot.table_core import Loaded, TableCore, person_seat

log = logging.getLogger(__name__)

STALE_SCAN_LIMIT = 64  # buttons drawn more moves ago than this are simply outdated


class Play:
    def __init__(self, core: TableCore, computers: Computers) -> None:
        self.core = core
        self.computers = computers

    async def act(
        self,
        table_id: int,
        version: int,
        user_id: int,
        move: str,
        message_id: int | None,
        place: PressPlace | None = None,
    ) -> str:
        """``move`` and then the computers' answers, waited for (tests, benches)."""
        toast, written = await self.move(table_id, version, user_id, move, message_id, place)
        await self.computers.run(table_id, written)
        return toast

    async def move(
        self,
        table_id: int,
        version: int,
        user_id: int,
        move: str,
        message_id: int | None,
        place: PressPlace | None = None,
    ) -> tuple[str, Loaded]:
        """A player's action button, drawn at table ``version``: ``move`` is the action's
        key (``screens.move_key``), or the index of a legal action in buttons drawn before
        keys existed. Pressed in their DM (or under the group message of a score-only
        table); ``place`` None means their own DM. Returns the toast's catalog key and the
        table and its seats as written, for the computers' answers that the caller starts
        (``Computers.start``) without reading them again.

        Other seats' moves do not make a DM button stale: the press is applied when its
        move is still legal for this seat now and this seat has not acted since the
        buttons were drawn (so a double click still applies once)."""
        place = place or PressPlace(user_id, private=True)
        is_key = move.startswith(MOVE_KEY_PREFIX) and len(move) == MOVE_KEY_LENGTH
        if not is_key and not (move.isascii() and move.isdigit()):
            raise UserError("err.bad_button")
        core = self.core
        async with core.lock(table_id):
            table, seats = await core.load(table_id)
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
                await core.enqueue(
                    [
                        OutboxItem("group", table.chat_id, table.id)
                        if ui.group_controls
                        else OutboxItem("hand", user_id, table.id, target=mine.seat)
                    ]
                )
                raise StaleButton()
            game = get_game(table.game)
            state = await core.state_of(table)
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
                await core.commit(table, seats, state, after, [(mine.seat, action)], events)
            except VersionConflict:  # another worker committed a move on this table first
                raise StaleButton() from None
        return "ok.move", (table, seats)

    async def _untouched_since(self, table: TableRow, seat: int, version: int) -> bool:
        """Has only the other seats played since ``version``? A move of this seat (its
        own earlier press, a timeout move) or of the system (a new deal, a forfeit) means
        buttons drawn at ``version`` answer a situation that is gone."""
        if not 0 < version < table.version or table.version - version > STALE_SCAN_LIMIT:
            return False
        since = await self.core.repo.load_actions(table.id, after_seq=version)
        return all(row.seat is not None and row.seat != seat for row in since)

    async def switch_keyboard(
        self, table_id: int, version: int, user_id: int, mode: str, place: PressPlace | None = None
    ) -> str:
        """The DM toggle between ordinary actions and blind covers, or between the hand and
        the deal's tricks (``bot.trick_view``); changes no game state."""
        (place or PressPlace(user_id, private=True)).require_own_dm(user_id)
        core = self.core
        table, seats = await core.load(table_id)
        mine = person_seat(seats, user_id)
        if mine is None:
            raise UserError("err.not_seated")
        if not mode.isalnum() or len(mode) > 16:
            raise UserError("err.bad_button")
        # "📜 Tricks" and "↩ Back" only look: they work whatever moved on since the hand
        # message was drawn (the computers play on without redrawing it)
        looking = mode in (trick_view.TRICKS, "normal")
        if version != table.version and not looking:  # the toast says the message is refreshed: so it is
            await core.enqueue([OutboxItem("hand", user_id, table_id, target=mine.seat)])
            raise StaleButton()
        if mode == trick_view.TRICKS:
            if table.status != PLAYING:
                raise UserError("err.not_running")
            view = get_game(table.game).view(await core.state_of(table), mine.seat)
            if not trick_view.offered(trick_view.tricks_of(table, view)):
                raise UserError("tricks.err.none")
        await core.repo.set_seat_keyboard(table_id, mine.seat, mode, table.version)
        await core.enqueue([OutboxItem("hand", user_id, table_id, target=mine.seat)])
        return "ok.move"


def _chosen(legal: list[str], move: str, is_key: bool) -> str | None:
    if is_key:
        return next((a for a in legal if move_key(a) == move), None)
    if move.isascii() and move.isdigit() and len(move) < 6 and int(move) < len(legal):
        return legal[int(move)]
    return None
