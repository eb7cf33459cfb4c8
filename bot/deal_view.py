""" "🔍 The deal": after a deal of bridge, whist, King or either preferans, a button under
its score sheet sends the presser, in their private chat, one message with the hands as
dealt, the bidding, the play trick by trick and the double-dummy figures
(``engine.games.<game>.analysis``, drawn by ``bot/games/<game>/deal_record.py``).

Nothing hidden can come out this way. The button names the action that ended the deal
(``d:<table>:<seq>``, the table's version after it); a ``seq`` that is not the last action
of a finished deal (a forged one, in the middle of a deal) is refused. It is honoured under
the table's own group message (whoever sees the sheet there is a member of the group) or in
the private chat of a person seated at the table; anywhere else it is refused.

Cost: one analysis per deal, ever. It is kept in ``deal_analyses`` under the deal's last
action, so no other ``seq`` can start a second one; in this process a crowd pressing at
once (double clicks, several people) waits for one computation, and with several workers
on PostgreSQL a second worker may compute it too but stores nothing new. The analysis runs
in the thinker's analysis lane (bot/thinking.py), where it cannot delay the computers'
moves. The press is answered at once: the deal when it is stored, else "it is being
prepared", and the message follows in the private chat when it is ready, one per asking
person. A person's repeated presses within ``RESEND_AFTER`` get the toast only.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.consequences import shows_deals
from bot.game_registry import ui_for
from bot.press import PressPlace, UserError
from bot.screens import seat_names
from engine.analysis_core import analyse_last_finished_deal, deals_of
from engine.records import RecordError, make_record
from storage.models import ActionRow, OutboxItem, TableRow
from bot.table_core import TableCore

log = logging.getLogger(__name__)

RESEND_AFTER = 60.0  # seconds: the same deal is not sent to the same person twice sooner
REMEMBERED = 5000  # (person, deal) pairs kept for RESEND_AFTER


def _starts_a_deal(action: ActionRow) -> bool:
    return action.seat is None and action.action.split()[:1] == ["deal"]


def game_log(actions: list[ActionRow], seq: int) -> list[tuple[int | None, str]] | None:
    """The actions of the game of action ``seq`` up to it (None: no such action)."""
    at = next((a for a in actions if a.seq == seq), None)
    if at is None:
        return None
    return [(a.seat, a.action) for a in actions if a.game_no == at.game_no and a.seq <= seq]


def ends_a_deal(table: TableRow, players: int, actions: list[ActionRow], seq: int) -> bool:
    """Action ``seq`` is the last of a finished deal: the next action of its game deals
    again, or (the game's or the log's last action) the replay says the deal is over."""
    at = next((i for i, a in enumerate(actions) if a.seq == seq), None)
    if at is None:
        return False
    following = actions[at + 1] if at + 1 < len(actions) else None
    if following is not None and following.game_no == actions[at].game_no:
        return _starts_a_deal(following)
    log_ = game_log(actions, seq)
    assert log_ is not None
    try:  # the last action of a game (or of the log): only a replay knows (one game's log: ms)
        _, deals = deals_of(make_record(table.game, players, table.options, log_))
    except RecordError:
        log.exception("table %s: the log up to %s does not replay for the deal view", table.id, seq)
        return False
    return bool(deals) and deals[-1].finished and len(deals[-1].steps) > 1


class DealViews:
    """The presses of one process: the analyses being computed, each with the people
    waiting for it, and who was sent what, when."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        # (table, deal's last seq) -> the people waiting for the analysis being computed
        self._waiting: dict[tuple[int, int], set[int]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._sent: dict[tuple[int, int, int], float] = {}

    async def press(self, table_id: int, seq: int, user_id: int, place: PressPlace) -> str:
        """Send the deal to the presser's DM, now or when its analysis is ready; the
        toast's catalog key. Refusals raise ``UserError`` and send nothing."""
        core, repo = self.core, self.core.repo
        table = await repo.get_table(table_id)
        if table is None or not shows_deals(table.game):
            raise UserError("err.bad_button")
        seats, mine = await core.seat_of(table_id, user_id)
        in_group = not place.private and (place.chat_id, place.thread_id) == (table.chat_id, table.thread_id)
        own_dm = place.private and place.chat_id == user_id and mine is not None
        if not (in_group or own_dm):
            raise UserError("deal_view.err.not_here")
        user = await repo.get_user(user_id)
        if not (user and user.dm_open):  # the bot may not write first
            raise UserError("watch.err.start_bot")
        deal = (table_id, seq)
        if deal in self._waiting:  # being prepared (so checked): the presser joins the wait
            self._waiting[deal].add(user_id)
            return "deal_view.ok.preparing"
        now = core.clock()
        key = (user_id, table_id, seq)
        if now - self._sent.get(key, -RESEND_AFTER) < RESEND_AFTER:
            return "deal_view.ok.sent_already"
        stored = await repo.get_deal_analysis(table_id, seq)
        if stored is None:
            if not ends_a_deal(table, len(seats), await repo.load_actions(table_id), seq):
                raise UserError("deal_view.err.not_over")
            stored = await repo.get_deal_analysis(table_id, seq)  # stored meanwhile?
        if stored is not None:
            self._remember(key, now)
            await self._send(table, [user_id], stored)
            return "deal_view.ok.sent"
        if deal in self._waiting:  # another press started it while this one read
            self._waiting[deal].add(user_id)
        else:
            self._waiting[deal] = {user_id}
            task = asyncio.ensure_future(self._prepare(table, seq))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return "deal_view.ok.preparing"

    async def _prepare(self, table: TableRow, seq: int) -> None:
        """Compute and store the deal's analysis, then send it to everyone who asked."""
        deal = (table.id, seq)
        try:
            analysis = await self._analysis(table, seq)
        except Exception:
            log.exception("table %s: the deal ended by action %s could not be analysed", table.id, seq)
            analysis = None
        finally:
            people = self._waiting.pop(deal, set())
        if analysis is None or not people:
            return
        now = self.core.clock()
        for user_id in people:
            self._remember((user_id, table.id, seq), now)
        await self._send(table, sorted(people), analysis)

    async def _analysis(self, table: TableRow, seq: int) -> dict[str, Any] | None:
        """The deal ended by action ``seq``: stored by another worker meanwhile, or computed
        in the analysis lane and stored (a second worker's row changes nothing)."""
        repo = self.core.repo
        actions = await repo.load_actions(table.id)
        log_ = game_log(actions, seq)
        if log_ is None:
            return None
        record = make_record(table.game, len(await repo.get_seats(table.id)), table.options, log_)
        analysis = await self.core.thinker.analyse(analyse_last_finished_deal, record)
        if analysis is not None:
            await repo.put_deal_analysis(table.id, seq, analysis)
            analysis = await repo.get_deal_analysis(table.id, seq) or analysis  # the first one stored
        return analysis

    async def _send(self, table: TableRow, people: list[int], analysis: dict[str, Any]) -> None:
        draw = ui_for(table.game).deal_record_text
        assert draw is not None, "shows_deals checked it"
        seats = sorted(await self.core.repo.get_seats(table.id), key=lambda s: s.seat)
        text = draw(analysis, seat_names(seats), table.lang)
        rows = [OutboxItem("reply", user_id, table.id, payload={"text": text}) for user_id in people]
        await self.core.enqueue(rows)  # and wakes this process's sender

    async def idle(self) -> None:
        """Wait until every analysis asked for is sent (tests, and a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """The bot is stopping: the analyses being prepared are dropped (pressed again
        after the start, they are computed then)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _remember(self, key: tuple[int, int, int], now: float) -> None:
        if len(self._sent) > REMEMBERED:
            self._sent = {k: at for k, at in self._sent.items() if now - at < RESEND_AFTER}
        self._sent[key] = now
