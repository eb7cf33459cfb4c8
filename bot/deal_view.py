""" "🔍 The deal": after a deal of bridge, whist, King or either preferans, a button under
its score sheet sends the presser, in their private chat, one message with the hands as
dealt, the bidding, the play trick by trick and the double-dummy figures
(``engine.<game>.analysis``, drawn by ``bot/games/<game>/deal_record.py``).

Nothing hidden can come out this way. The button names the action after which the
deal's sheet was posted (``d:<table>:<seq>``); the press replays the table's log up to
that action and shows only a deal that came to its end there (a forged ``seq`` in the
middle of a deal shows the deal before it, or nothing). It is honoured under the table's
own group message (whoever sees the sheet there is a member of the group) or in the
private chat of a person seated at the table; anywhere else it is refused.

Cost: the analysis runs once per deal, in the computers' worker processes, and is kept
in ``deal_analyses``; every press is one message to the presser and a toast, never a
message to the group. A person's repeated presses within ``RESEND_AFTER`` get the toast
only.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from bot.games import ui_for
from bot.press import PressPlace, UserError
from bot.screens import seat_names
from engine.analysis_core import analyse_last_finished_deal, has_deal_analysis
from engine.records import RecordError, make_record
from storage.models import OutboxItem, TableRow

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger(__name__)

RESEND_AFTER = 60.0  # seconds: the same deal is not sent to the same person twice sooner
REMEMBERED = 5000  # (person, deal) pairs kept for RESEND_AFTER


def shows_deals(game: str) -> bool:
    """Whether this game's sheets carry the button: a played game with a deal analysis."""
    ui = ui_for(game)
    return not ui.group_controls and ui.deal_record_text is not None and has_deal_analysis(game)


def ends_shown_deal(game: str, events: list[dict]) -> bool:
    """These events end a deal whose sheet gets the button."""
    return any(e.get("type") == "deal_scored" for e in events) and shows_deals(game)


class DealViews:
    """The presses of one process: the analyses being computed (a crowd pressing one
    button at once waits for one computation) and who was sent what, when."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._running: dict[tuple[int, int], asyncio.Future[dict[str, Any] | None]] = {}
        self._sent: dict[tuple[int, int, int], float] = {}

    async def press(self, table_id: int, seq: int, user_id: int, place: PressPlace) -> str:
        """Send the deal to the presser's DM; the toast's catalog key. Refusals raise
        ``UserError`` and send nothing."""
        service, repo = self.service, self.service.repo
        table = await repo.get_table(table_id)
        if table is None or not shows_deals(table.game):
            raise UserError("err.bad_button")
        seats, mine = await service.seat_of(table_id, user_id)
        in_group = not place.private and (place.chat_id, place.thread_id) == (table.chat_id, table.thread_id)
        own_dm = place.private and place.chat_id == user_id and mine is not None
        if not (in_group or own_dm):
            raise UserError("deal_view.err.not_here")
        user = await repo.get_user(user_id)
        if not (user and user.dm_open):  # the bot may not write first
            raise UserError("watch.err.start_bot")
        now = service.clock()
        key = (user_id, table_id, seq)
        if now - self._sent.get(key, -RESEND_AFTER) < RESEND_AFTER:
            return "deal_view.ok.sent_already"
        self._remember(key, now)  # before the wait: a second press meanwhile gets the toast
        try:
            deal = await self.analysis(table, seq, len(seats))
        except BaseException:
            self._sent.pop(key, None)
            raise
        if deal is None:
            self._sent.pop(key, None)
            raise UserError("deal_view.err.not_over")
        draw = ui_for(table.game).deal_record_text
        assert draw is not None, "shows_deals checked it"
        text = draw(deal, seat_names(seats), table.lang)
        await repo.enqueue([OutboxItem("reply", user_id, table_id, payload={"text": text})])
        for listener in service.listeners:  # wake this process's sender
            listener()
        return "deal_view.ok.sent"

    async def analysis(self, table: TableRow, seq: int, players: int) -> dict[str, Any] | None:
        """The last deal finished by action ``seq``: stored, or computed once."""
        stored = await self.service.repo.get_deal_analysis(table.id, seq)
        if stored is not None:
            return stored
        key = (table.id, seq)
        running = self._running.get(key)
        if running is None:
            running = asyncio.ensure_future(self._compute(table, seq, players))
            self._running[key] = running
            running.add_done_callback(lambda _: self._running.pop(key, None))
        return await asyncio.shield(running)

    async def _compute(self, table: TableRow, seq: int, players: int) -> dict[str, Any] | None:
        actions = await self.service.repo.load_actions(table.id)
        at = next((a for a in actions if a.seq == seq), None)
        if at is None:
            return None  # no such action: a forged button
        log_ = [(a.seat, a.action) for a in actions if a.game_no == at.game_no and a.seq <= seq]
        record = make_record(table.game, players, table.options, log_)
        try:
            deal = await self.service.thinker.run(analyse_last_finished_deal, record)
        except RecordError:
            log.exception("table %s: the log up to %s does not replay for the deal view", table.id, seq)
            return None
        if deal is not None:
            await self.service.repo.put_deal_analysis(table.id, seq, deal)
        return deal

    def _remember(self, key: tuple[int, int, int], now: float) -> None:
        if len(self._sent) > REMEMBERED:
            self._sent = {k: at for k, at in self._sent.items() if now - at < RESEND_AFTER}
        self._sent[key] = now
