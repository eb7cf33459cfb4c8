"""Who administers a group: one ``getChatAdministrators`` per chat, kept a few minutes.

A host-only lobby button pressed by a crowd must not cost a Bot API call per press:
the admins of a chat are looked up once (concurrent askers share the one lookup) and
kept ``ttl`` seconds, for at most ``size`` chats. A failed lookup makes nobody an admin
for ``retry_after_failure`` seconds and logs one warning line.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from typing import Any, Callable

from telegram.error import TelegramError

log = logging.getLogger(__name__)

ADMIN_STATUSES = ("creator", "administrator")


class AdminCache:
    def __init__(
        self,
        bot: Any,
        clock: Callable[[], float] = time.monotonic,
        *,
        ttl: float = 300.0,
        retry_after_failure: float = 15.0,
        size: int = 2048,
    ) -> None:
        self.bot, self.clock = bot, clock
        self.ttl, self.retry_after_failure, self.size = ttl, retry_after_failure, size
        # chat id -> (valid until, the admins' user ids), least recently used first
        self._known: collections.OrderedDict[int, tuple[float, frozenset[int]]] = collections.OrderedDict()
        self._pending: dict[int, asyncio.Future[frozenset[int]]] = {}

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        if chat_id > 0:  # a private chat has no administrators
            return False
        return user_id in await self.admins(chat_id)

    async def admins(self, chat_id: int) -> frozenset[int]:
        known = self._known.get(chat_id)
        if known is not None and known[0] > self.clock():
            self._known.move_to_end(chat_id)
            return known[1]
        pending = self._pending.get(chat_id)
        if pending is None:
            pending = self._pending[chat_id] = asyncio.ensure_future(self._look_up(chat_id))
            pending.add_done_callback(lambda _: self._pending.pop(chat_id, None))
        return await asyncio.shield(pending)  # one asker cancelled does not cancel the others

    async def _look_up(self, chat_id: int) -> frozenset[int]:
        try:
            members = await self.bot.get_chat_administrators(chat_id)
        except TelegramError as error:
            log.warning("could not look up the admins of chat %s: %s: %s", chat_id, type(error).__name__, error)
            self._remember(chat_id, frozenset(), self.retry_after_failure)
            return frozenset()
        admins = frozenset(m.user.id for m in members if m.status in ADMIN_STATUSES)
        self._remember(chat_id, admins, self.ttl)
        return admins

    def _remember(self, chat_id: int, admins: frozenset[int], seconds: float) -> None:
        self._known[chat_id] = (self.clock() + seconds, admins)
        self._known.move_to_end(chat_id)
        while len(self._known) > self.size:
            self._known.popitem(last=False)
