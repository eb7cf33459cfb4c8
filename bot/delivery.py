"""Each outbox row drawn and sent: the group's table (edited in place, or sent anew
below the posts), a player's hand, a spectator's view, pings, notices, score-sheet
posts, files, command answers. What a row shows is read now (the row only says what to
refresh), from the storage and the shared state cache, never from the table service.
The sender (``bot.sender``) decides when a row may go and what a failure means."""

from __future__ import annotations

import asyncio
import base64
import collections
import logging
from typing import Mapping

from telegram import Bot, LinkPreviewOptions, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError

from bot import screens
from bot.i18n import t
from bot.pacing import ChatPacing, GroupBudget
from bot.render import pictures
from bot.render.common import fit_message, keyboard
from bot.table_states import TableStates, keyboard_mode
from bot.telegram_errors import refused, short
from engine.base import get_game
from storage.models import BETWEEN, LOBBY, PLAYING, OutboxItem
from storage.repository import Repository

log = logging.getLogger(__name__)

RENDER_MEMORY = 20_000  # messages whose last content is remembered
# How Telegram refuses an edit of a message that is no longer there: a person deleted it
# ("message to edit not found", or MESSAGE_ID_INVALID in some chats), or it is too old
GONE = ("not found", "can't be edited", "message_id_invalid")
CAPTION_LIMIT = 1024  # Telegram's limit on a photo's caption, in UTF-16 units after parsing


class Delivery:
    def __init__(
        self,
        bot: Bot,
        repo: Repository,
        states: TableStates,
        thinking: Mapping[int, int],
        budget: GroupBudget,
        pacing: ChatPacing,
    ) -> None:
        self.bot = bot
        self.repo = repo
        self.states = states  # the current game state of a table, shared with the service
        self.thinking = thinking  # table id -> seat of a computer thinking long (this process's)
        self.budget = budget
        self.pacing = pacing
        # (chat, message) -> what it shows, to skip identical edits; bounded, oldest out first
        self._last_render: collections.OrderedDict[tuple[int, int], tuple] = collections.OrderedDict()
        self.queued_more = False  # rows queued while delivering (spectators' refreshes)
        # private chat -> the newest answer sent there (e.g. a "🔍 The deal" analysis); a
        # hand message above it is buried, and comes back below on its player's turn
        self._dm_answers: collections.OrderedDict[int, int] = collections.OrderedDict()

    async def deliver(self, item: OutboxItem, tables: dict[int, asyncio.Future]) -> bool:
        """Do what the row asks. Returns True when a Telegram message was sent or edited."""
        if item.kind == "file":  # needs no table: the file is in the row
            return await self._file(item)
        if item.kind == "reply":
            sent = await self._reply(item)
            if item.chat_id > 0 and item.table_id:  # a private chat: is a hand buried now?
                await self._unbury_hand(item.chat_id, item.table_id, tables)
            return sent
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
            state = await self.states.state_of(table)
            if state is None:  # closed straight from the lobby
                screen = screens.Screen(t(table.lang, "table.closed"))
            else:
                screen = screens.group_table(table, seats, state, self.thinking.get(table.id))
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
            deal_seq = posted[2] if len(posted) > 2 else None  # the deal's 🔍 stays
            markup = screens.post_keyboard(table, deal_seq, rematch=False)
            await self.bot.edit_message_reply_markup(table.chat_id, posted[1], reply_markup=markup)
        except BadRequest:
            pass  # deleted, or without buttons already
        self.budget.spend(table.chat_id)
        await self._set_setting(table, "rematch_post", None)

    async def _set_setting(self, table, key: str, value) -> None:
        """One key of the table's settings (None: removed), changed in the stored settings
        under the table's lock: a move writing another key at the same time keeps it."""
        stored = await self.repo.update_table(table.id, settings_changes={key: value})
        table.settings = stored.settings

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
        state = await self.states.state_of(table)
        if state is None:
            return False
        if item.kind == "unwatch":
            screen = screens.spectator_screen(table, seats, state, leaving=True)
            return await self._show(item.chat_id, item.payload.get("message_id"), screen) is not None
        spectator = next((s for s in await self.repo.get_spectators(table.id) if s.user_id == item.chat_id), None)
        if spectator is None:  # left meanwhile
            return False
        screen = screens.spectator_screen(table, seats, state)
        message_id = await self._show(item.chat_id, spectator.dm_message_id, screen)
        if table.status != PLAYING:  # the final state was shown once: watching ends here
            await self.repo.remove_spectator(table.id, item.chat_id)
        elif message_id is not None and message_id != spectator.dm_message_id:
            await self.repo.set_spectator_message(table.id, item.chat_id, message_id)
        return message_id is not None

    async def _refresh_hand(self, table, seats, seat_no: int) -> bool:
        seat = seats[seat_no]
        state = await self.states.state_of(table)
        screen = screens.hand(table, seats, state, seat_no, mode=keyboard_mode(table, seat))
        old = seat.dm_message_id
        buried = old is not None and self._dm_answers.get(seat.user_id, 0) > old
        anew = buried and table.status == PLAYING and seat_no in get_game(table.game).to_act(state)
        message_id = await self._show(seat.user_id, None if anew else old, screen)
        if message_id is not None and message_id != old:
            await self.repo.set_seat_messages(table.id, seat_no, dm_message_id=message_id)
            seat.dm_message_id = message_id
            if anew:  # the hand lives below the answer now; its old message goes
                try:
                    await self.bot.delete_message(seat.user_id, old)
                except (BadRequest, Forbidden):
                    pass  # already gone, or too old to delete: its buttons are refused anyway
        return message_id is not None

    async def _unbury_hand(self, user_id: int, table_id: int, tables: dict[int, asyncio.Future]) -> None:
        """After an answer in a player's private chat, the hand comes back below it at once
        when it is their turn (else on their turn, by ``_refresh_hand``)."""
        if table_id not in tables:  # the drain's own copy: later rows see the new message id
            tables[table_id] = asyncio.ensure_future(self._load(table_id))
        loaded = await tables[table_id]
        if loaded is None:
            return
        table, seats = loaded
        if table.status != PLAYING:
            return
        for seat in seats:
            if not seat.is_computer and seat.user_id == user_id:
                state = await self.states.state_of(table)
                if seat.seat in get_game(table.game).to_act(state):
                    await self._refresh_hand(table, seats, seat.seat)

    async def _ping(self, table, seats, seat_no: int, reminder: bool) -> bool:
        seat = seats[seat_no]
        state = await self.states.state_of(table)
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
        state = await self.states.state_of(table)
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
        message = await self.bot.send_message(
            item.chat_id,
            fit_message(payload["text"]),
            parse_mode=ParseMode.HTML,
            reply_markup=keyboard([[(label, data) for label, data in row] for row in payload.get("rows", [])]),
            message_thread_id=item.target or None,
            reply_parameters=ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None,
            link_preview_options=LinkPreviewOptions(is_disabled=True) if payload.get("no_preview") else None,
        )
        if item.chat_id > 0:  # a private chat: remember what may bury a hand message there
            self._dm_answers[item.chat_id] = message.message_id
            self._dm_answers.move_to_end(item.chat_id)
            while len(self._dm_answers) > RENDER_MEMORY:
                self._dm_answers.popitem(last=False)
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
        deal_seq = payload.get("deal_seq")
        markup = screens.post_keyboard(table, deal_seq, rematch=bool(waiting))
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
                    await self._remember_rematch(table, bool(waiting), message.message_id, deal_seq)
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
        await self._remember_rematch(table, bool(waiting), message.message_id, deal_seq)
        return True

    async def _remember_rematch(self, table, waiting: bool, message_id: int, deal_seq: int | None) -> None:
        """Which message carries the Rematch buttons (and its deal's 🔍, which stays), so
        they can be taken away later."""
        if waiting:
            await self._set_setting(table, "rematch_post", [table.game_no, message_id, deal_seq])

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
