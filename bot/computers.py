"""Computers: the automatic moves while a game waits for them, each its own commit: the
system's (the shuffle of the next deal in a match) and the computer players' (a
computer thinks outside the table lock, in the thinker's processes). Run in the
background after a press (one task per table), after a timer, and at start-up."""

from __future__ import annotations

import asyncio
import logging

from engine.base import get_game
from storage.models import PLAYING, OutboxItem, TableRow
from storage.repository import StorageError, VersionConflict
from bot.screens import computer_level
from bot.table_core import Loaded, TableCore

log = logging.getLogger(__name__)

STORAGE_RETRY_S = 1.0  # the database lost: the computers try again this often
MAX_COMPUTER_STEPS = 2000  # a safety bound; a durak game never needs this many moves in a row


class Computers:
    def __init__(self, core: TableCore) -> None:
        self.core = core
        self._tasks: dict[int, asyncio.Task] = {}  # table id -> computers answering
        self._again: set[int] = set()

    def start(self, table_id: int, written: Loaded | None = None) -> None:
        """Let the computers answer in the background. A press handler must not wait for
        them: while it waits it holds one of the update slots every chat shares, and with
        strong computers thinking at many tables the slots fill up and presses elsewhere
        wait seconds for their answer. One task per table; a second call while it runs
        makes it look once more when it is done. ``written``: the table and its seats as
        the press just wrote them, so the first look reads nothing (see ``run``)."""
        task = self._tasks.get(table_id)
        if task is not None and not task.done():
            self._again.add(table_id)  # the look again reads the table: it moved on since
            return
        self._tasks[table_id] = asyncio.create_task(
            self._in_background(table_id, written), name=f"computers:{table_id}"
        )

    async def _in_background(self, table_id: int, written: Loaded | None) -> None:
        try:
            while True:
                self._again.discard(table_id)
                try:
                    await self.run(table_id, written)
                except StorageError:  # the database is lost (logged once): again when it is back
                    await asyncio.sleep(STORAGE_RETRY_S)
                    self._again.add(table_id)
                except Exception:  # the moves stay due: the next press, timer or restart runs them
                    log.exception("table %s: computers' moves failed", table_id)
                written = None
                if table_id not in self._again:
                    return
        finally:
            self._tasks.pop(table_id, None)

    async def idle(self) -> None:
        """Wait until no computer is thinking (tests, and a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def stop(self) -> None:
        """Cancel the computers' background moves and wait until they are gone (a clean
        shutdown). Their moves stay due: ``Timers.resume`` runs them at the next start."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def run(self, table_id: int, written: Loaded | None = None) -> None:
        """Automatic moves while the game waits for them, one committed action each.
        ``written``: the table and seats as this process just wrote them (its own press),
        so they are not read again: a press costs one read of them, the computers' check
        included. A table that moved on meanwhile makes the commit fail (its version is
        checked), and so does another worker doing the same: a version conflict just
        means the table is read again and looked at again."""
        loaded = written
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
        core = self.core
        async with core.lock(table_id):
            if loaded is None:
                table = await core.repo.get_table(table_id)
                if table is None:
                    return None
                seats = sorted(await core.repo.get_seats(table_id), key=lambda s: s.seat)
            else:
                table, seats = loaded
            if table.status != PLAYING:
                return None
            game = get_game(table.game)
            state = await core.state_of(table)
            system_action = getattr(game, "system_action", None)
            action = system_action(state, core.rng) if system_action else None
            if action is not None:
                after, events = game.apply(state, None, action)
                await core.commit(
                    table, seats, state, after, [(None, action)], events, snapshot=action.startswith("deal")
                )
                return table, seats
            movers = [s for s in game.to_act(state) if seats[s].is_computer]
            if not movers:
                return None
            seat = movers[0]
            view, legal = game.view(state, seat), game.legal_actions(state, seat)
        action = await self.think(table, seat, view, legal)
        async with core.lock(table_id):
            after, events = game.apply(state, seat, action)
            await core.commit(table, seats, state, after, [(seat, action)], events)
            return table, seats

    async def think(self, table: TableRow, seat: int, view: dict, legal: list[str]) -> str:
        """A computer's decision at the table's level, off the event loop; the group
        table says "🤖 thinking…" while a decision takes longer than a second."""
        core = self.core

        async def show_thinking() -> None:
            core.thinking[table.id] = seat
            await core.enqueue([OutboxItem("group", table.chat_id, table.id)])

        try:
            return await core.thinker.decide(
                table.game, view, legal, core.rng.getrandbits(64), computer_level(table), on_slow=show_thinking
            )
        finally:
            if core.thinking.pop(table.id, None) is not None:
                await core.enqueue([OutboxItem("group", table.chat_id, table.id)])
