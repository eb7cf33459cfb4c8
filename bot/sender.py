"""The sender drains the outbox: it renders the *current* state for each row and sends
or edits the message. Rows are refresh markers, so many moves in a row collapse into
one edit (coalescing), and a crash before sending just leaves the rows for next time.

Group budget: Telegram allows about 20 messages (sends + edits) a minute in a group.
The sender keeps every group under ``per_minute`` in any 60 s window, its first
``pacing.BURST`` messages of a minute at least a second apart and the rest
``min_interval`` seconds apart; what must wait stays in the outbox and is coalesced
further. A group's answers to commands go in the order the commands came.

Several workers: only one process drains the outbox at a time (``try_lead_sender``, a
PostgreSQL advisory lock held by a connection of that process), so the per-group budget
and the "send the group message once, then edit it" rule hold bot-wide. The others stand
by and take over within ``STANDBY_POLL`` seconds when the leader's connection goes away.

Failures (bot.telegram_errors): a flood wait or a failure of Telegram (5xx, timeout, no
connection) makes the chat rest and keeps its rows in order; a call Telegram refuses (a
4xx) is tried ``REFUSED_TRIES`` times, ``REFUSED_RETRY`` seconds apart and longer, then
given up with one warning line, and never holds up the chat's other rows meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Awaitable, Callable, Mapping

from telegram import Bot
from telegram.error import Forbidden, RetryAfter, TelegramError

from bot.delivery import RENDER_MEMORY, Delivery
from bot.pacing import ChatPacing, GroupBudget
from bot.table_states import TableStates
from bot.telegram_errors import refused, short
from storage.models import OutboxItem
from storage.repository import Repository, StorageError

__all__ = ["ChatPacing", "GroupBudget", "Sender"]

log = logging.getLogger(__name__)

STANDBY_POLL = 5.0  # seconds between a standby worker's attempts to become the sender
IDLE_POLL = 30.0  # seconds between drains when nothing wakes the sender
STORAGE_RETRY = 1.0  # seconds between drains while the database is lost
PAGE = 1000  # outbox rows read per drain
CONCURRENT_CHATS = 32  # chats served at the same time in one drain
REFUSED_TRIES = 3  # a row Telegram refuses (a 4xx) is tried this often in all, then given up
REFUSED_RETRY = 10.0  # seconds before it is tried again, four times longer after each refusal
REFRESH_KINDS = ("group", "hand", "watch", "restack")  # rows that redraw a message: many collapse into one
NEW_MESSAGE_KINDS = ("post", "ping", "notice", "file", "reply", "restack")  # rows that send a new message: each once
OWN_ROW_KINDS = ("post", "file", "reply", "edit")  # each row its own message or edit, never collapsed
# rows that need no table: what to send is all in the row (a command's answer, a chooser closed)
CHAT_KINDS = ("file", "reply", "edit")
# "restack": the group's table sent anew below the posts before it (the old message goes),
# so the live table is never buried under score sheets
GROUP_KINDS = ("group", "post", "restack")  # rows that cost a message of the group's budget


def _sooner(a: float | None, b: float | None) -> float | None:
    """The earlier of two optional waits."""
    return b if a is None else a if b is None else min(a, b)


def _what(item: OutboxItem) -> str:
    """A row in a log line: its kind, its table or file, its chat."""
    if item.kind == "file":
        return f"the file {item.payload.get('file_name')!r} for chat {item.chat_id}"
    return f"the {item.kind} message of table {item.table_id} in chat {item.chat_id}"


def _command_of(item: OutboxItem) -> int | None:
    """The message id of the group command a row answers (a reply quotes it; a table opened
    by a command names it), or None for any other row."""
    if item.chat_id >= 0 or not isinstance(item.payload, dict):
        return None
    command = item.payload.get("answers") or item.payload.get("reply_to")
    return command if isinstance(command, int) else None


def in_arrival_order(groups: dict[tuple, list[OutboxItem]]) -> dict[tuple, list[OutboxItem]]:
    """A chat's rows with its answers to commands in the order the commands came (their
    message ids), not the order their handlers got to the outbox (opening a table takes
    longer than /help); every other row keeps its place."""
    keys = list(groups)
    places = [i for i, key in enumerate(keys) if _command_of(groups[key][0]) is not None]
    ordered = sorted((keys[i] for i in places), key=lambda key: _command_of(groups[key][0]) or 0)
    for place, key in zip(places, ordered):
        keys[place] = key
    return {key: groups[key] for key in keys}


def _ids(rows: list[OutboxItem]) -> list[int]:
    """The ids of outbox rows read back from the database (a stored row has its id)."""
    ids: list[int] = []
    for row in rows:
        assert row.id is not None, "a stored outbox row has its id"
        ids.append(row.id)
    return ids


class Sender:
    """The outbox's one reader. It is given what it needs to draw the rows, never the
    table service: the storage, the shared state cache, this process's thinking
    registry, and what to do when a group is lost (its tables close)."""

    def __init__(
        self,
        bot: Bot,
        repo: Repository,
        *,
        states: TableStates,
        thinking: Mapping[int, int],
        chat_lost: Callable[[int], Awaitable[None]],
        clock: Callable[[], float] = time.monotonic,
        per_minute: int = 19,
        min_interval: float = 3.0,
    ) -> None:
        self.bot = bot
        self.repo = repo
        self.chat_lost = chat_lost
        self.clock = clock
        self.budget = GroupBudget(clock, per_minute, min_interval)
        self.pacing = ChatPacing(clock)
        self.delivery = Delivery(bot, repo, states, thinking, self.budget, self.pacing)
        self.wakeup = asyncio.Event()  # the service's listeners set it when the outbox gets rows
        self._refused_until: dict[int, float] = {}  # refused row's id -> when to try it again
        self._sent_unmarked: set[int] = set()  # new messages sent while the database was lost

    # ------------------------------------------------------------------ loop
    async def run_forever(self) -> None:
        leading = listening = False
        while True:
            try:
                if not listening:  # rows written by other workers wake us too
                    await self.repo.listen_outbox(self.wakeup.set)
                    listening = True
                if await self.repo.try_lead_sender():
                    if not leading:
                        log.info("this worker sends the outbox now")
                        leading = True
                    wait = await self.drain()
                else:  # another worker sends; wake-ups are not ours to act on
                    leading = False
                    await asyncio.sleep(STANDBY_POLL)
                    continue
            except asyncio.CancelledError:
                raise
            except StorageError:  # the database is lost (logged once): the rows wait for it
                wait = STORAGE_RETRY
            except Exception:  # keep the loop alive; the rows stay pending
                log.exception("sender drain failed")
                wait = 5.0
            try:
                await asyncio.wait_for(self.wakeup.wait(), timeout=wait if wait is not None else IDLE_POLL)
            except TimeoutError:
                pass
            self.wakeup.clear()

    async def drain(self) -> float | None:
        """Send everything that may go now. Returns seconds until throttled rows may go
        (None when nothing is left waiting). Chats are served side by side (a slow
        Telegram call for one chat holds up no other); within a chat, rows go in order."""
        if self._sent_unmarked:  # sent while the database was lost: recorded now
            await self.repo.mark_done(sorted(self._sent_unmarked))
            self._sent_unmarked.clear()
        items = await self.repo.pending_outbox(limit=PAGE)
        chats: dict[int, dict[tuple, list[OutboxItem]]] = {}
        for item in items:
            # a post or a file is its own; a table's repeated rows of one kind collapse
            key = (item.kind, item.id) if item.kind in OWN_ROW_KINDS else (item.kind, item.table_id, item.target)
            chats.setdefault(item.chat_id, {}).setdefault(key, []).append(item)
        done: list[int] = []  # refresh rows: redoing one after a crash is harmless
        for groups in chats.values():  # a table sent anew shows all that its edits would
            for key in [key for key in groups if key[0] == "restack"]:
                done += _ids(groups.pop(("group", key[1], None), []))
        tables: dict[int, asyncio.Future] = {}  # one read of a table and its seats per drain
        slots = asyncio.Semaphore(CONCURRENT_CHATS)

        async def serve(chat_id: int, groups: dict[tuple, list[OutboxItem]]) -> float | None:
            async with slots:
                return await self._drain_chat(chat_id, in_arrival_order(groups), tables, done)

        waits = [w for w in await asyncio.gather(*(serve(c, g) for c, g in chats.items())) if w is not None]
        await self.repo.mark_done(done)
        if len(items) == PAGE or self.delivery.queued_more:  # more rows than one page, or new ones: go on
            self.delivery.queued_more = False
            return 0.0
        if not waits:
            return None
        return max(min(waits), 0.05)

    async def _drain_chat(
        self, chat_id: int, groups: dict[tuple, list[OutboxItem]], tables: dict[int, asyncio.Future], done: list[int]
    ) -> float | None:
        """One chat's rows, in order; returns when its held-back rows may go (or None).
        A refused row waiting for its next try is passed over: the rows after it go."""
        wait: float | None = None
        later: float | None = None  # when the first refused row passed over may be tried
        resting = self.pacing.wait_for(chat_id)
        if resting > 0:  # flood wait or DM pace: nothing goes to this chat yet
            for rows in groups.values():
                if rows[0].kind in REFRESH_KINDS:  # one waiting refresh marker is enough
                    done += _ids(rows[:-1])
            return resting
        for rows in groups.values():
            first = rows[0]
            assert first.id is not None, "a stored outbox row has its id"
            again = self._refused_until.get(first.id, 0.0) - self.clock()
            if again > 0:
                later = _sooner(later, again)
                continue
            is_group_message = first.kind in GROUP_KINDS or (first.kind in CHAT_KINDS and chat_id < 0)
            if not is_group_message and wait is None and self.pacing.wait_for(chat_id) > 0:
                return _sooner(self.pacing.wait_for(chat_id), later)  # the DM's burst is used up
            if is_group_message and wait is None:
                delay = self.budget.wait_for(chat_id)
                wait = delay if delay > 0 else None  # over the group's budget from here on
            if is_group_message and wait is not None:  # wait, keeping the group's order
                if first.kind == "group":  # one waiting refresh marker is enough
                    done += _ids(rows[:-1])
                continue
            try:
                sent = await self.delivery.deliver(first, tables)
            except RetryAfter as error:
                asked = error.retry_after  # seconds, or a timedelta with PTB_TIMEDELTA set
                retry = asked.total_seconds() if hasattr(asked, "total_seconds") else float(asked)
                self.pacing.flood(chat_id, retry)
                log.warning("flood wait: Telegram asks to wait %.0f s before calling chat %s again", retry, chat_id)
                return _sooner(_sooner(wait, retry), later)
            except Forbidden as error:
                sent = False
                if chat_id < 0:  # removed from the group: its tables close, no retries
                    log.warning("cannot write in chat %s (%s); closing its tables", chat_id, error)
                    await self.chat_lost(chat_id)
                else:  # blocked the bot: their DM waits until they /start it again
                    log.warning("cannot write to user %s (%s); their hand waits for /start", chat_id, error)
                    await self.repo.set_dm_open(chat_id, False)
                    if first.kind == "watch" and first.table_id:  # a spectator stops watching
                        await self.repo.remove_spectator(first.table_id, chat_id)
            except TelegramError as error:
                if refused(error):  # the same call again would be refused again: a few tries
                    retry = self._refused(rows, error)
                    if retry is not None:
                        later = _sooner(later, retry)
                        await self.repo.outbox_refused(_ids(rows))
                        continue
                    sent = False
                else:  # Telegram failed (5xx, timeout, no connection): the rows stay, the chat rests
                    delay = self.pacing.failed(chat_id)
                    log.warning("Telegram failed %s (%s); again in %.0f s", _what(first), short(error), delay)
                    return _sooner(_sooner(wait, delay), later)
            except StorageError:  # the database is lost (logged once): the rows stay, the chat waits
                return _sooner(_sooner(wait, STORAGE_RETRY), later)
            except Exception as error:  # a bug drawing the row: a few tries, like a refusal
                retry = self._refused(rows, error)
                if retry is not None:
                    later = _sooner(later, retry)
                    await self.repo.outbox_refused(_ids(rows))
                    continue
                sent = False
            self._refused_until.pop(first.id, None)
            if sent and is_group_message:
                self.budget.spend(chat_id)
            if sent:
                self.pacing.spend(chat_id)
            if first.kind in NEW_MESSAGE_KINDS:  # new messages: never send one twice,
                await self._mark_sent(_ids(rows))  # so done at once, not after the drain
            else:
                done += _ids(rows)
        return _sooner(wait, later)

    async def _mark_sent(self, ids: list[int]) -> None:
        """New messages Telegram took: done now. With the database lost they are kept
        as sent in this process (never sent again) and recorded at its return."""
        try:
            await self.repo.mark_done(ids)
        except StorageError:
            self._sent_unmarked.update(ids)

    def _refused(self, rows: list[OutboxItem], error: Exception) -> float | None:
        """Telegram refused the rows' call once more (or drawing them failed: a bug):
        seconds until they are tried again, or None when that was their last try (given up
        with one line in the log). The tries are counted in the rows, so a restart does not
        start the count again."""
        first, tries = rows[0], max(row.attempts for row in rows) + 1
        if tries >= REFUSED_TRIES:
            if isinstance(error, TelegramError):
                log.warning("Telegram refused %s %d times (%s); given up", _what(first), tries, short(error))
            else:
                log.error("could not draw %s (%d tries); given up", _what(first), tries, exc_info=error)
            return None
        delay = REFUSED_RETRY * 4 ** (tries - 1)
        assert first.id is not None
        if len(self._refused_until) > RENDER_MEMORY:  # forget the oldest: they are tried at once
            for key in list(self._refused_until)[: len(self._refused_until) // 2]:
                del self._refused_until[key]
        self._refused_until[first.id] = self.clock() + delay
        if isinstance(error, TelegramError):
            log.info("Telegram refused %s (%s); tried again in %.0f s", _what(first), short(error), delay)
        else:
            log.warning("could not draw %s (%s); tried again in %.0f s", _what(first), error, delay)
        return delay
