"""Turn timers: the reminder at three quarters of the turn time, then the timeout (a
forfeit, or a computer's move for the idle player), fired exactly once even when
several workers poll; and the start-up resumption of interrupted computer moves."""

from __future__ import annotations

from engine.base import get_game
from storage.models import PLAYING, OutboxItem, TimerRow
from storage.repository import VersionConflict
from bot.play import Play


class Timers(Play):
    async def fire_timers(self) -> None:
        """Reminders and timeouts that are due: a reminder is claimed in the storage first,
        and a timeout is an ordinary commit with the timer's version as the expected version."""
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
