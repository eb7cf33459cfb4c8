"""The inbox of Telegram updates (storage table ``inbox``).

An update is stored before Telegram is told we have it -- before the next getUpdates
offset (bot/polling.py), before the webhook's 200 (bot/webhook.py) -- and marked handled
once its handler finished (``InboxProcessor``). A crash in between loses nothing: the
next start hands the stored update over again. An update id stored before (Telegram
re-sends a batch it was never told we got, or a webhook retry reaches another worker) is
dropped, so each update is handled once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import Application, SimpleUpdateProcessor

log = logging.getLogger(__name__)

# Webhook workers share the inbox: an update one of them took and has not handled after
# this long is taken to have died with its worker, and another one handles it.
RETAKE_AFTER_S = 120.0
MAX_ATTEMPTS = 3  # an update whose handling killed its process this often is given up


class Inbox:
    def __init__(self) -> None:
        self.app: Application | None = None
        self.repo: Any = None
        self._pending: set[int] = set()  # stored by this process, not handled yet
        # webhook mode: look for updates of dead workers every so often (polling has one
        # process, which takes them all at start-up)
        self.sweeping = False

    def attach(self, app: Application, repo: Any) -> None:
        self.app, self.repo = app, repo

    async def store(self, updates: list[dict]) -> list[dict]:
        """Store the updates; return those stored now, in order (the rest were re-sent)."""
        rows = [(int(u["update_id"]), json.dumps(u, ensure_ascii=False, separators=(",", ":"))) for u in updates]
        stored = set(await self.repo.store_updates(rows))
        self._pending |= stored
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
        if rows:
            log.info("handling %d update(s) stored before a restart", len(rows))
            self._pending |= {update_id for update_id, _ in rows}
            await self.hand_over([json.loads(payload) for _, payload in rows])
        return len(rows)

    async def handled(self, update: object) -> None:
        update_id = getattr(update, "update_id", None)
        if update_id not in self._pending:
            return  # not from the inbox (tests hand updates over directly)
        self._pending.discard(update_id)
        try:
            await self.repo.mark_updates_handled([update_id])
        except Exception as error:  # the worst case: handled again after a restart
            log.warning("could not mark update %s handled: %s", update_id, error)

    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(RETAKE_AFTER_S / 4)
            try:
                await self.take_over(time.time() - RETAKE_AFTER_S)
            except Exception as error:
                log.warning("could not look for unhandled updates: %s", error)


class InboxProcessor(SimpleUpdateProcessor):
    """PTB's concurrent update processing, marking each inbox update handled after its
    handlers ran (also when they failed: a failing update is not retried forever). An
    update cut short by a stop stays unhandled, for the next start."""

    def __init__(self, max_concurrent_updates: int, inbox: Inbox) -> None:
        super().__init__(max_concurrent_updates)
        self.inbox = inbox

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        try:
            await coroutine
        except asyncio.CancelledError:
            raise
        except BaseException:
            await self.inbox.handled(update)
            raise
        await self.inbox.handled(update)
