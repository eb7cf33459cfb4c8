"""The sender drains the outbox: it renders the *current* state for each row and sends
or edits the message. Rows are refresh markers, so many moves in a row collapse into
one edit (coalescing), and a crash before sending just leaves the rows for next time.

Group budget: Telegram allows about 20 messages (sends + edits) a minute in a group.
The sender keeps every group under ``per_minute`` in any 60 s window and at least
``min_interval`` seconds between two of them; what must wait stays in the outbox and
is coalesced further.

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
import base64
import collections
import logging
import time
from typing import Callable

from telegram import Bot, LinkPreviewOptions, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError

from bot import screens, watching
from bot.i18n import t
from bot.render import pictures
from bot.render.common import fit_message, keyboard
from bot.service import TableService
from bot.telegram_errors import refused, short
from engine.base import get_game
from storage.models import BETWEEN, LOBBY, PLAYING, OutboxItem

log = logging.getLogger(__name__)

RENDER_MEMORY = 20_000  # messages whose last content the sender remembers
STANDBY_POLL = 5.0  # seconds between a standby worker's attempts to become the sender
IDLE_POLL = 30.0  # seconds between drains when nothing wakes the sender
PAGE = 1000  # outbox rows read per drain
CONCURRENT_CHATS = 32  # chats served at the same time in one drain
GLOBAL_FLOOD_CHATS = 3  # this many chats told to wait within a second: the whole bot waits
FIRST_RETRY = 2.0  # seconds before a chat is called again after Telegram failed (5xx, timeout)
LAST_RETRY = 60.0  # ... doubling while it keeps failing, up to this
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


def _ids(rows: list[OutboxItem]) -> list[int]:
    """The ids of outbox rows read back from the database (a stored row has its id)."""
    ids: list[int] = []
    for row in rows:
        assert row.id is not None, "a stored outbox row has its id"
        ids.append(row.id)
    return ids


# How Telegram refuses an edit of a message that is no longer there: a person deleted it
# ("message to edit not found", or MESSAGE_ID_INVALID in some chats), or it is too old
GONE = ("not found", "can't be edited", "message_id_invalid")
CAPTION_LIMIT = 1024  # Telegram's limit on a photo's caption, in UTF-16 units after parsing


class GroupBudget:
    def __init__(self, clock: Callable[[], float], per_minute: int, min_interval: float) -> None:
        self.clock = clock
        self.per_minute = per_minute
        self.min_interval = min_interval
        self.sent: dict[int, collections.deque[float]] = collections.defaultdict(collections.deque)

    def wait_for(self, chat_id: int) -> float:
        """Seconds until this group may get another message (0 = now)."""
        now = self.clock()
        window = self.sent[chat_id]
        while window and window[0] <= now - 60:
            window.popleft()
        wait = 0.0
        if window:
            wait = max(wait, window[-1] + self.min_interval - now)
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
            if len(self.dm_tokens) > RENDER_MEMORY:  # forget the chats idle longest
                for key in list(self.dm_tokens)[: len(self.dm_tokens) // 2]:
                    del self.dm_tokens[key]

    def failed(self, chat_id: int) -> float:
        """Telegram failed a call to this chat (a 5xx, a timeout): rest before the next
        one, twice as long each time it fails again (2 s, 4 s, ... 60 s). Many chats failing
        at once means Telegram is unreachable: then the whole bot rests, as in a flood."""
        count = self.failures[chat_id] = self.failures.get(chat_id, 0) + 1
        if len(self.failures) > RENDER_MEMORY:
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


class Sender:
    def __init__(
        self,
        bot: Bot,
        service: TableService,
        *,
        clock: Callable[[], float] = time.monotonic,
        per_minute: int = 19,
        min_interval: float = 3.0,
    ) -> None:
        self.bot = bot
        self.service = service
        self.repo = service.repo
        self.clock = clock
        self.budget = GroupBudget(clock, per_minute, min_interval)
        self.pacing = ChatPacing(clock)
        # (chat, message) -> what it shows, to skip identical edits; bounded, oldest out first
        self._last_render: collections.OrderedDict[tuple[int, int], tuple] = collections.OrderedDict()
        self.wakeup = asyncio.Event()
        self.queued_more = False  # this drain queued rows of its own (spectators' refreshes)
        self._refused_until: dict[int, float] = {}  # refused row's id -> when to try it again
        service.listeners.append(self.wakeup.set)

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
                return await self._drain_chat(chat_id, groups, tables, done)

        waits = [w for w in await asyncio.gather(*(serve(c, g) for c, g in chats.items())) if w is not None]
        await self.repo.mark_done(done)
        if len(items) == PAGE or self.queued_more:  # more rows than one page, or new ones: go on
            self.queued_more = False
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
                sent = await self._deliver(first, tables)
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
                    await self.service.chat_lost(chat_id)
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
            except Exception:
                log.exception("could not deliver %s; dropped", first)
                sent = False
            self._refused_until.pop(first.id, None)
            if sent and is_group_message:
                self.budget.spend(chat_id)
            if sent:
                self.pacing.spend(chat_id)
            if first.kind in NEW_MESSAGE_KINDS:  # new messages: never send one twice,
                await self.repo.mark_done(_ids(rows))  # so done at once, not after the drain
            else:
                done += _ids(rows)
        return _sooner(wait, later)

    def _refused(self, rows: list[OutboxItem], error: TelegramError) -> float | None:
        """Telegram refused the rows' call once more: seconds until they are tried again,
        or None when that was their last try (given up with one warning line). The tries
        are counted in the rows, so a restart does not start the count again."""
        first, tries = rows[0], max(row.attempts for row in rows) + 1
        if tries >= REFUSED_TRIES:
            log.warning("Telegram refused %s %d times (%s); given up", _what(first), tries, short(error))
            return None
        delay = REFUSED_RETRY * 4 ** (tries - 1)
        assert first.id is not None
        if len(self._refused_until) > RENDER_MEMORY:  # forget the oldest: they are tried at once
            for key in list(self._refused_until)[: len(self._refused_until) // 2]:
                del self._refused_until[key]
        self._refused_until[first.id] = self.clock() + delay
        log.info("Telegram refused %s (%s); tried again in %.0f s", _what(first), short(error), delay)
        return delay

    # ------------------------------------------------------------------ one row
    async def _deliver(self, item: OutboxItem, tables: dict[int, asyncio.Future]) -> bool:
        """Do what the row asks. Returns True when a Telegram message was sent or edited."""
        if item.kind == "file":  # needs no table: the file is in the row
            return await self._file(item)
        if item.kind == "reply":
            return await self._reply(item)
        if item.kind == "edit":
            return await self._edit(item)
        if not item.table_id:
            return False
        if item.table_id not in tables:
            tables[item.table_id] = asyncio.ensure_future(self._load(item.table_id))
        loaded = await tables[item.table_id]
        if loaded is None:
            return False
        table, seats = loaded
        if item.kind in ("group", "restack"):
            shown = await self._refresh_group(table, seats, anew=item.kind == "restack")
            await self._tell_spectators(table)
            return shown
        if item.kind in ("watch", "unwatch"):
            return await self._refresh_spectator(table, seats, item)
        if item.kind == "post":
            return await self._post(table, seats, item)
        if item.kind == "notice":
            return await self._notice(table, item)
        if table.game_no == 0 or item.target is None or item.target >= len(seats):
            return False
        seat = seats[item.target]
        if seat.is_computer or seat.user_id != item.chat_id:
            return False  # the seats changed since the row was written
        if item.kind == "hand":
            return await self._refresh_hand(table, seats, item.target)
        if item.kind == "ping":
            return await self._ping(table, seats, item.target, item.payload.get("reminder", False))
        if item.kind == "unping":
            return await self._unping(table, seats, item.target)
        return False

    async def _load(self, table_id: int):
        table = await self.repo.get_table(table_id)
        if table is None:
            return None
        return table, sorted(await self.repo.get_seats(table_id), key=lambda s: s.seat)

    async def _refresh_group(self, table, seats, anew: bool = False) -> bool:
        """Redraw the group's table message; ``anew``: send it as a new message below the
        posts that came after it, and delete the old one."""
        await self._close_rematch(table)
        if table.status == LOBBY:
            dm = {}
            for s in seats:
                if not s.is_computer:
                    user = await self.repo.get_user(s.user_id)
                    dm[s.user_id] = bool(user and user.dm_open)
            screen = screens.lobby(table, seats, dm, self.bot.username or "")
        else:
            state = await self.service.state_of(table)
            if state is None:  # closed straight from the lobby
                screen = screens.Screen(t(table.lang, "table.closed"))
            else:
                screen = screens.group_table(table, seats, state, self.service.thinking.get(table.id))
        old = table.group_message_id
        if anew and table.status == PLAYING:
            message_id = await self._show(table.chat_id, None, screen, thread_id=table.thread_id)
        else:
            message_id = await self._show(table.chat_id, old, screen, thread_id=table.thread_id)
        if message_id is None:
            return False
        if message_id != old:
            await self.repo.update_table(table.id, group_message_id=message_id)
            table.group_message_id = message_id
            if anew and old is not None:
                await self._retire(table, old)
        return True

    async def _retire(self, table, message_id: int) -> None:
        """The table's old message, now above the posts: deleted, or (when the bot may not
        delete it) reduced to one line without buttons."""
        self._last_render.pop((table.chat_id, message_id), None)
        try:
            try:
                await self.bot.delete_message(table.chat_id, message_id)
                return
            except BadRequest as error:
                if "not found" in str(error).lower():
                    return  # someone deleted it already
            try:
                await self.bot.edit_message_text(
                    t(table.lang, "table.moved"),
                    chat_id=table.chat_id,
                    message_id=message_id,
                    parse_mode=ParseMode.HTML,
                )
            except BadRequest:
                pass  # gone or not editable
        except RetryAfter as error:  # the new table is out and recorded: the old one just stays
            asked = error.retry_after
            self.pacing.flood(table.chat_id, asked.total_seconds() if hasattr(asked, "total_seconds") else float(asked))
            log.warning("flood wait: table %s's old message %s stays in chat %s", table.id, message_id, table.chat_id)
        except TelegramError as error:  # a courtesy: the new table is out and recorded
            log.warning("table %s's old message %s stays in chat %s (%s)", table.id, message_id, table.chat_id, error)

    async def _close_rematch(self, table) -> None:
        """The Rematch / Close buttons under a game's last post go once that game is no
        longer the one waiting for them (a rematch started, the table closed)."""
        posted = table.settings.get("rematch_post")
        if not posted or (table.status == BETWEEN and table.game_no == posted[0]):
            return
        try:
            await self.bot.edit_message_reply_markup(table.chat_id, posted[1], reply_markup=None)
        except BadRequest:
            pass  # deleted, or without buttons already
        self.budget.spend(table.chat_id)
        await self._set_setting(table, "rematch_post", None)

    async def _set_setting(self, table, key: str, value) -> None:
        """One key of the table's settings (read again: the sender's copy may be older)."""
        current = await self.repo.get_table(table.id)
        settings = dict((current or table).settings)
        if value is None:
            settings.pop(key, None)
        else:
            settings[key] = value
        await self.repo.update_table(table.id, settings=settings)
        table.settings = settings

    async def _tell_spectators(self, table) -> None:
        """The group message was just refreshed: so are the spectators' DMs (each one more
        DM edit, at the group message's pace, coalesced like it)."""
        if table.status == LOBBY or table.game_no == 0:
            return
        spectators = await self.repo.get_spectators(table.id)
        if spectators:
            await self.repo.enqueue([OutboxItem("watch", s.user_id, table.id) for s in spectators])
            self.queued_more = True

    async def _refresh_spectator(self, table, seats, item: OutboxItem) -> bool:
        """A spectator's DM: the public view (bot.watching). When the game is over it is
        shown once more and the spectator stops watching; after "Leave" (``unwatch``) the
        message keeps the table without buttons."""
        state = await self.service.state_of(table)
        if state is None:
            return False
        if item.kind == "unwatch":
            screen = watching.spectator_screen(table, seats, state, leaving=True)
            return await self._show(item.chat_id, item.payload.get("message_id"), screen) is not None
        spectator = next((s for s in await self.repo.get_spectators(table.id) if s.user_id == item.chat_id), None)
        if spectator is None:  # left meanwhile
            return False
        screen = watching.spectator_screen(table, seats, state)
        message_id = await self._show(item.chat_id, spectator.dm_message_id, screen)
        if table.status != PLAYING:  # the final state was shown once: watching ends here
            await self.repo.remove_spectator(table.id, item.chat_id)
        elif message_id is not None and message_id != spectator.dm_message_id:
            await self.repo.set_spectator_message(table.id, item.chat_id, message_id)
        return message_id is not None

    async def _refresh_hand(self, table, seats, seat_no: int) -> bool:
        seat = seats[seat_no]
        state = await self.service.state_of(table)
        screen = screens.hand(table, seats, state, seat_no, mode=self.service.keyboard_mode(table, seat))
        message_id = await self._show(seat.user_id, seat.dm_message_id, screen)
        if message_id is not None and message_id != seat.dm_message_id:
            await self.repo.set_seat_messages(table.id, seat_no, dm_message_id=message_id)
            seat.dm_message_id = message_id
        return message_id is not None

    async def _ping(self, table, seats, seat_no: int, reminder: bool) -> bool:
        seat = seats[seat_no]
        state = await self.service.state_of(table)
        if seat_no not in get_game(table.game).to_act(state):
            return False  # no longer their turn: a stale ping would only confuse
        if seat.ping_message_id:
            try:
                await self.bot.delete_message(seat.user_id, seat.ping_message_id)
            except (BadRequest, Forbidden):
                pass
        message = await self.bot.send_message(
            seat.user_id, fit_message(screens.ping(table, reminder)), parse_mode=ParseMode.HTML
        )
        await self.repo.set_seat_messages(table.id, seat_no, ping_message_id=message.message_id)
        seat.ping_message_id = message.message_id
        return True

    async def _notice(self, table, item: OutboxItem) -> bool:
        """A one-off message to a player's DM about their table (e.g. it was closed)."""
        await self.bot.send_message(item.chat_id, screens.notice(table, item.payload["key"]), parse_mode=ParseMode.HTML)
        return False

    async def _unping(self, table, seats, seat_no: int) -> bool:
        """Delete the "your turn" ping once the turn has passed, so a DM keeps only the hand."""
        seat = seats[seat_no]
        state = await self.service.state_of(table)
        if not seat.ping_message_id or seat_no in get_game(table.game).to_act(state):
            return False
        try:
            await self.bot.delete_message(seat.user_id, seat.ping_message_id)
        except (BadRequest, Forbidden):
            pass  # already gone
        await self.repo.set_seat_messages(table.id, seat_no, ping_message_id=None)
        seat.ping_message_id = None
        return False

    async def _file(self, item: OutboxItem) -> bool:
        payload = item.payload
        await self.bot.send_document(
            item.chat_id,
            document=base64.b64decode(payload["base64"]),
            filename=payload["file_name"],
            caption=payload.get("caption") or None,
            message_thread_id=item.target or None,
        )
        return True

    async def _reply(self, item: OutboxItem) -> bool:
        """A command's answer, quoting the command (when it is still there) in a group."""
        payload = item.payload
        reply_to = payload.get("reply_to")
        await self.bot.send_message(
            item.chat_id,
            fit_message(payload["text"]),
            parse_mode=ParseMode.HTML,
            reply_markup=keyboard([[(label, data) for label, data in row] for row in payload.get("rows", [])]),
            message_thread_id=item.target or None,
            reply_parameters=ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None,
            link_preview_options=LinkPreviewOptions(is_disabled=True) if payload.get("no_preview") else None,
        )
        return True

    async def _edit(self, item: OutboxItem) -> bool:
        """A message's new text without its buttons (a used chooser). One already showing
        it, or gone meanwhile, needs nothing more."""
        try:
            await self.bot.edit_message_text(
                fit_message(item.payload["text"]),
                chat_id=item.chat_id,
                message_id=item.payload["message_id"],
                parse_mode=ParseMode.HTML,
            )
        except BadRequest as error:
            reason = str(error).lower()
            if "not modified" in reason or "not found" in reason or "can't be edited" in reason:
                return False
            raise
        return True

    async def _post(self, table, seats, item: OutboxItem) -> bool:
        """A new message in the group (a score sheet). After a game's last post, the
        Rematch / Close buttons, while the table still waits after that game."""
        payload = item.payload
        waiting = payload.get("game_over") and table.status == BETWEEN and payload.get("game_no") == table.game_no
        markup = screens.rematch_keyboard(table.id, table.version, table.lang) if waiting else None
        text = payload["text"]
        if "picture" in payload and not item.attempts:  # refused before: the text only
            try:  # drawing takes tens of milliseconds: off the event loop
                png = await asyncio.to_thread(pictures.draw, payload["picture"])
            except Exception as error:  # whatever breaks the drawing, the sheet still goes out as text
                log.warning(
                    "table %s: sheet picture not drawn (%s: %s), text sent", table.id, type(error).__name__, error
                )
                text = payload.get("fallback") or text
            else:
                try:
                    message = await self.bot.send_photo(
                        table.chat_id,
                        photo=png,
                        caption=fit_message(text, CAPTION_LIMIT) if text else None,
                        parse_mode=ParseMode.HTML,
                        reply_markup=markup,
                        message_thread_id=table.thread_id or None,
                    )
                    await self._remember_rematch(table, markup, message.message_id)
                    return True
                except TelegramError as error:
                    if isinstance(error, Forbidden) or not refused(error):  # the text would fare no better
                        raise
                    log.warning("table %s: Telegram refused the sheet picture (%s), text sent", table.id, short(error))
                    text = payload.get("fallback") or text
        message = await self.bot.send_message(
            table.chat_id,
            fit_message(text),
            parse_mode=ParseMode.HTML,
            reply_markup=markup,
            message_thread_id=table.thread_id or None,
        )
        await self._remember_rematch(table, markup, message.message_id)
        return True

    async def _remember_rematch(self, table, markup, message_id: int) -> None:
        """Which message carries the Rematch buttons, so they can be taken away later."""
        if markup is not None:
            await self._set_setting(table, "rematch_post", [table.game_no, message_id])

    def _remember(self, chat_id: int, message_id: int, shown: tuple) -> None:
        self._last_render[(chat_id, message_id)] = shown
        self._last_render.move_to_end((chat_id, message_id))
        while len(self._last_render) > RENDER_MEMORY:
            self._last_render.popitem(last=False)

    async def _show(
        self, chat_id: int, message_id: int | None, screen: screens.Screen, thread_id: int = 0
    ) -> int | None:
        """Edit the message in place, or send it when there is none (or it is gone)."""
        screen = screens.Screen(fit_message(screen.text), screen.markup)
        shown = (screen.text, screen.markup.to_json() if screen.markup else None)
        if message_id is not None:
            if self._last_render.get((chat_id, message_id)) == shown:
                return message_id
            try:
                await self.bot.edit_message_text(
                    screen.text,
                    chat_id=chat_id,
                    message_id=message_id,
                    parse_mode=ParseMode.HTML,
                    reply_markup=screen.markup,
                )
                self._remember(chat_id, message_id, shown)
                return message_id
            except BadRequest as error:
                if "not modified" in str(error).lower():
                    self._remember(chat_id, message_id, shown)
                    return message_id
                if not any(gone in str(error).lower() for gone in GONE):
                    raise
                log.info("message %s in chat %s is gone (%s); sending it anew", message_id, chat_id, error)
        message = await self.bot.send_message(
            chat_id,
            screen.text,
            parse_mode=ParseMode.HTML,
            reply_markup=screen.markup,
            message_thread_id=thread_id or None,
        )
        self._remember(chat_id, message.message_id, shown)
        return message.message_id
