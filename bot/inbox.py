"""The inbox of Telegram updates (storage table ``inbox``).

An update is stored before Telegram is told we have it -- before the next getUpdates
offset (bot/polling.py), before the webhook's 200 (bot/webhook.py) -- and finished once
its handler ran (``InboxProcessor``). A crash in between loses nothing: the stored
update is handed over again (at the next start; with webhook workers, by a live worker
within ``LEASE_S`` + ``SWEEP_EVERY_S``).

Effects once: what a handler sends as its own new message -- a command's answer, a
file, a chooser's edit (``CHAT_KINDS`` outbox rows) -- is held while the handler runs and
written in ONE transaction with the update's "handled" mark (``finish_update``, a
claim). Handled twice (a crash before the mark, a worker taken for dead), the update
still answers once: the second finish finds it handled and writes nothing. A move is
safe on its own: it is written under the table's version, so a second run is refused.

Heartbeat: a webhook worker renews its updates' ``taken_at`` every ``HEARTBEAT_S``
while their handlers run, so another worker takes an update over only once its worker
stopped renewing it (died) for ``LEASE_S``.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

from telegram import Update
from telegram.ext import Application, SimpleUpdateProcessor

from storage.models import OutboxItem
from storage.repository import StorageError

log = logging.getLogger(__name__)

HEARTBEAT_S = 2.0  # a webhook worker renews the updates it is handling this often
LEASE_S = 6.0  # an update not renewed this long is its dead worker's: another takes it
SWEEP_EVERY_S = 2.0  # a webhook worker looks for such updates this often
MAX_ATTEMPTS = 3  # an update whose handling killed its process this often is given up
FINISH_RETRY_S = 1.0  # the database was lost at the finish: tried again this often
# rows that are a handler's own new message (no table redraw): sent once per update
HELD_KINDS = ("reply", "file", "edit")


@dataclass
class Effects:
    """The rows one update's handler queued, written when it finishes."""

    rows: list[OutboxItem] = field(default_factory=list)
    open: bool = True  # closed once written: a task the handler left behind writes its own


_effects: contextvars.ContextVar[Effects | None] = contextvars.ContextVar("update_effects", default=None)


def hold_effects(items: list[OutboxItem]) -> list[OutboxItem]:
    """The repository's ``outbox_diverter``: inside a handler of a stored update, its
    own messages wait for the update's finish; everything else is written now."""
    effects = _effects.get()
    if effects is None or not effects.open:
        return items
    effects.rows += [item for item in items if item.kind in HELD_KINDS]
    return [item for item in items if item.kind not in HELD_KINDS]


class Inbox:
    def __init__(self) -> None:
        self.app: Application | None = None
        self.repo: Any = None
        self._pending: set[int] = set()  # stored by this process, not finished yet
        # webhook mode: renew our updates and look for updates of dead workers (polling
        # has one process, which takes them all at start-up)
        self.sweeping = False
        self._retries: set[asyncio.Task] = set()

    def attach(self, app: Application, repo: Any) -> None:
        self.app, self.repo = app, repo
        repo.outbox_diverter = hold_effects

    async def store(self, updates: list[dict]) -> list[dict]:
        """Store the updates; return those stored now, in order (the rest were re-sent)."""
        rows = [(int(u["update_id"]), json.dumps(u, ensure_ascii=False, separators=(",", ":"))) for u in updates]
        stored = set(await self.repo.store_updates(rows))
        self._pending |= stored
        again = [row[0] for row in rows if row[0] not in stored]
        if again and self.sweeping:
            # Telegram sent it again: its first worker may have died before answering.
            # Taken over now if that worker stopped renewing it; else that worker has it.
            log.info("update(s) %s stored before: handled by the worker that has them", again)
            await self.take_over(time.time() - LEASE_S)
        return [u for u in updates if int(u["update_id"]) in stored]

    async def hand_over(self, updates: list[dict]) -> None:
        """To the application's queue, in order (``concurrent_updates`` applies)."""
        assert self.app is not None
        for data in updates:
            try:
                update = Update.de_json(data, self.app.bot)
            except Exception as error:  # cannot be read now, nor after a restart
                log.warning("dropped update %s: %s", data.get("update_id"), error)
                self._pending.discard(data.get("update_id"))
                await self.repo.mark_updates_handled([data["update_id"]])
                continue
            await self.app.update_queue.put(update)

    async def take_over(self, taken_before: float) -> int:
        """Hand over what was stored and not handled (its process died); returns how many."""
        rows = await self.repo.take_unhandled_updates(taken_before, MAX_ATTEMPTS)
        # this process's own (its heartbeat came late): it is handling them already
        rows = [row for row in rows if row[0] not in self._pending]
        if rows:
            log.info("handling %d update(s) stored before a restart", len(rows))
            self._pending |= {update_id for update_id, _ in rows}
            await self.hand_over([json.loads(payload) for _, payload in rows])
        return len(rows)

    def is_stored(self, update: object) -> bool:
        return getattr(update, "update_id", None) in self._pending

    async def finish(self, update: object, effects: Effects) -> None:
        """The update's handler ended: its held rows and its "handled" mark, together.
        With the database lost meanwhile it is tried again until it works (or the process
        ends: then the update is handled again at the next start, its rows unwritten)."""
        update_id = getattr(update, "update_id", None)
        if update_id not in self._pending:
            return
        try:
            await self._finish(update_id, effects.rows)
        except StorageError:  # the outage was logged once (storage.health)
            task = asyncio.create_task(self._finish_later(update_id, effects.rows))
            self._retries.add(task)
            task.add_done_callback(self._retries.discard)

    async def _finish(self, update_id: int, rows: list[OutboxItem]) -> None:
        if not await self.repo.finish_update(update_id, rows):
            log.info("update %s was handled by another worker meanwhile; its answer is theirs", update_id)
        self._pending.discard(update_id)

    async def _finish_later(self, update_id: int, rows: list[OutboxItem]) -> None:
        while True:
            await asyncio.sleep(FINISH_RETRY_S)
            try:
                await self._finish(update_id, rows)
                return
            except StorageError:
                continue

    async def sweep_forever(self) -> None:
        """Webhook workers: renew this worker's updates, take over dead workers' ones."""
        while True:
            await asyncio.sleep(min(HEARTBEAT_S, SWEEP_EVERY_S))
            try:
                await self.repo.renew_updates(sorted(self._pending))
                await self.take_over(time.time() - LEASE_S)
            except StorageError:
                pass  # logged once an outage (storage.health); tried again next round
            except Exception as error:
                log.warning("could not look for unhandled updates: %s", error)


class InboxProcessor(SimpleUpdateProcessor):
    """PTB's concurrent update processing, finishing each inbox update after its handlers
    ran (also when they failed: a failing update is not retried forever). An update cut
    short by a stop stays unhandled, for the next start, its held rows unwritten."""

    def __init__(self, max_concurrent_updates: int, inbox: Inbox) -> None:
        super().__init__(max_concurrent_updates)
        self.inbox = inbox

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        if not self.inbox.is_stored(update):  # tests hand updates over directly
            await coroutine
            return
        effects = Effects()
        token = _effects.set(effects)
        try:
            await coroutine
        except asyncio.CancelledError:
            raise
        except BaseException:
            effects.open = False
            await self.inbox.finish(update, effects)
            raise
        finally:
            effects.open = False
            _effects.reset(token)
        await self.inbox.finish(update, effects)
