"""How often the bot may call each chat: a group's budget of messages a minute, and the
pacing of private chats, flood waits and Telegram's failures (``bot.sender`` asks both
before every call)."""

from __future__ import annotations

import collections
from typing import Callable

MEMORY = 20_000  # chats whose pacing is remembered (the idle ones are forgotten first)
GLOBAL_FLOOD_CHATS = 3  # this many chats told to wait within a second: the whole bot waits
FIRST_RETRY = 2.0  # seconds before a chat is called again after Telegram failed (5xx, timeout)
LAST_RETRY = 60.0  # ... doubling while it keeps failing, up to this
# A group may get about 20 messages a minute, in a burst too; Telegram asks for no more
# than about one a second in one chat. So the first BURST messages of a minute go as soon
# as a second apart (ten people's commands are answered in ten seconds, not thirty), and
# the rest of the minute's budget ``min_interval`` apart, leaving room for the table.
BURST = 10
BURST_INTERVAL = 1.0  # seconds between two messages of a burst


class GroupBudget:
    def __init__(
        self,
        clock: Callable[[], float],
        per_minute: int,
        min_interval: float,
        burst: int = BURST,
        burst_interval: float = BURST_INTERVAL,
    ) -> None:
        self.clock = clock
        self.per_minute = per_minute
        self.min_interval = min_interval
        self.burst, self.burst_interval = burst, burst_interval
        self.sent: dict[int, collections.deque[float]] = collections.defaultdict(collections.deque)

    def wait_for(self, chat_id: int) -> float:
        """Seconds until this group may get another message (0 = now)."""
        now = self.clock()
        window = self.sent[chat_id]
        while window and window[0] <= now - 60:
            window.popleft()
        wait = 0.0
        if window:
            gap = self.burst_interval if len(window) < self.burst else self.min_interval
            wait = max(wait, window[-1] + gap - now)
        if len(window) >= self.per_minute:
            wait = max(wait, window[0] + 60 - now)
        return max(wait, 0.0)

    def spend(self, chat_id: int) -> None:
        self.sent[chat_id].append(self.clock())


class ChatPacing:
    """Who may be called when. Telegram answers a flood with 429 and ``retry_after``; the
    chat must then rest that long (calling sooner earns longer bans), and when several
    chats are told so at once the whole bot is over its limit and everyone waits. Private
    chats are also paced ahead of time: about one message a second, in small bursts."""

    def __init__(self, clock: Callable[[], float], dm_per_second: float = 1.0, dm_burst: int = 3) -> None:
        self.clock = clock
        self.not_before: dict[int, float] = {}
        self.everyone_not_before = 0.0
        self.recent_floods: collections.deque[tuple[float, int]] = collections.deque()
        self.dm_rate, self.dm_burst = dm_per_second, dm_burst
        self.dm_tokens: dict[int, tuple[float, float]] = {}  # chat -> (tokens, at)
        self.failures: dict[int, int] = {}  # chat -> Telegram failures in a row

    def wait_for(self, chat_id: int) -> float:
        now = self.clock()
        wait = max(self.not_before.get(chat_id, 0.0), self.everyone_not_before) - now
        if chat_id > 0:  # a private chat
            tokens, _ = self._tokens(chat_id, now)
            if tokens < 1:
                wait = max(wait, (1 - tokens) / self.dm_rate)
        return max(wait, 0.0)

    def _tokens(self, chat_id: int, now: float) -> tuple[float, float]:
        tokens, at = self.dm_tokens.get(chat_id, (float(self.dm_burst), now))
        return min(self.dm_burst, tokens + (now - at) * self.dm_rate), now

    def spend(self, chat_id: int) -> None:
        self.failures.pop(chat_id, None)
        if chat_id > 0:
            tokens, now = self._tokens(chat_id, self.clock())
            self.dm_tokens[chat_id] = (tokens - 1, now)
            if len(self.dm_tokens) > MEMORY:  # forget the chats idle longest
                for key in list(self.dm_tokens)[: len(self.dm_tokens) // 2]:
                    del self.dm_tokens[key]

    def failed(self, chat_id: int) -> float:
        """Telegram failed a call to this chat (a 5xx, a timeout): rest before the next
        one, twice as long each time it fails again (2 s, 4 s, ... 60 s). Many chats failing
        at once means Telegram is unreachable: then the whole bot rests, as in a flood."""
        count = self.failures[chat_id] = self.failures.get(chat_id, 0) + 1
        if len(self.failures) > MEMORY:
            self.failures.clear()
        seconds = min(FIRST_RETRY * 2 ** (count - 1), LAST_RETRY)
        self.flood(chat_id, seconds)
        return seconds

    def flood(self, chat_id: int, seconds: float) -> None:
        now = self.clock()
        self.not_before[chat_id] = max(self.not_before.get(chat_id, 0.0), now + seconds)
        self.recent_floods.append((now, chat_id))
        while self.recent_floods and self.recent_floods[0][0] < now - 1.0:
            self.recent_floods.popleft()
        if len({chat for _, chat in self.recent_floods}) >= GLOBAL_FLOOD_CHATS:
            self.everyone_not_before = max(self.everyone_not_before, now + seconds)
        for chat in [c for c, until in self.not_before.items() if until < now]:
            del self.not_before[chat]
