"""Turn timers: the reminder at three quarters of the turn time, then the timeout (a
forfeit, or a computer's move for the idle player), fired exactly once even when
several workers poll; and the start-up resumption of interrupted computer moves."""

from __future__ import annotations

from engine.base import get_game
from storage.models import PLAYING, OutboxItem, TimerRow
from storage.repository import VersionConflict
from bot.computers import Computers
from bot.table_core import TableCore


class Timers:
    def __init__(self, core: TableCore, computers: Computers) -> None:
        self.core = core
        self.computers = computers

    async def fire(self) -> None:
        """Reminders and timeouts that are due: a reminder is claimed in the storage first,
        and a timeout is an ordinary commit with the timer's version as the expected version."""
        now = self.core.clock()
        for timer in await self.core.repo.due_timers(now):
            try:
                await self._fire_timer(timer, now)
            except VersionConflict:
                continue  # the table moved on (a move, or another worker fired it)
            await self.computers.run(timer.table_id)

    async def _fire_timer(self, timer: TimerRow, now: float) -> None:
        core = self.core
        async with core.lock(timer.table_id):
            table = await core.repo.get_table(timer.table_id)
            if table is None or table.status != PLAYING or table.version != timer.version:
                await core.repo.clear_timer(timer.table_id, timer.version)
                return
            seats = sorted(await core.repo.get_seats(table.id), key=lambda s: s.seat)
            game = get_game(table.game)
            state = await core.state_of(table)
            idle = [s for s in game.to_act(state) if not seats[s].is_computer]
            if timer.expire_at > now:
                if await core.repo.mark_reminded(table.id, timer.version):
                    await core.enqueue(
                        [
                            OutboxItem("ping", seats[s].user_id, table.id, target=s, payload={"reminder": True})
                            for s in idle
                        ]
                    )
                return
            if not idle:
                await core.repo.clear_timer(table.id, timer.version)
                return
            seat = idle[0]
            if table.settings.get("on_timeout", "lose") == "auto":
                action = await self.computers.think(
                    table, seat, game.view(state, seat), game.legal_actions(state, seat)
                )
                after, events = game.apply(state, seat, action)
                await core.commit(table, seats, state, after, [(seat, action)], events)
            else:
                action = f"forfeit {seat}"
                after, events = game.apply(state, None, action)
                await core.commit(table, seats, state, after, [(None, action)], events)

    async def resume(self) -> None:
        """At start-up: let computers finish moves that a crash interrupted, redraw messages."""
        for table in await self.core.repo.tables_with_status(PLAYING):
            await self.computers.run(table.id)
