"""What concerns a chat rather than one move: a user opening their DM, the chat's
language, files and command answers sent through the outbox, a group the bot lost or
that migrated, and the series rebuilt for ``/export``."""

from __future__ import annotations

import base64
import logging
from typing import Any

from engine.base import get_game
from storage.models import BETWEEN, CLOSED, LOBBY, PLAYING, OutboxItem, TableRow
from storage.repository import VersionConflict
from bot.press import Person
from bot.table_core import TableCore, closed_hands, person_seat

log = logging.getLogger(__name__)


class ChatAdmin:
    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def dm_opened(self, person: Person) -> None:
        """The user started the bot in private: hands can reach them now."""
        await self.core.remember_user(person)
        await self.core.repo.set_dm_open(person.id, True)
        items = []
        for table in await self.core.repo.tables_of_user(person.id):
            items.append(OutboxItem("group", table.chat_id, table.id))  # the lobby shows ✅ now
            if table.status in (PLAYING, BETWEEN):
                seat = person_seat(await self.core.repo.get_seats(table.id), person.id)
                if seat:
                    await self.core.repo.set_seat_messages(table.id, seat.seat, dm_message_id=None)
                    items.append(OutboxItem("hand", person.id, table.id, target=seat.seat))
        await self.core.enqueue(items)

    async def set_language(self, chat_id: int, thread_id: int, lang: str) -> None:
        await self.core.repo.set_chat_lang(chat_id, lang)
        table = await self.core.repo.find_open_table(chat_id, thread_id)
        if table:
            async with self.core.lock(table.id):
                await self.core.repo.update_table(table.id, lang=lang)
                seats = await self.core.repo.get_seats(table.id)
                items = [OutboxItem("group", chat_id, table.id)]
                if table.status != LOBBY:
                    items += [
                        OutboxItem("hand", s.user_id, table.id, target=s.seat) for s in seats if not s.is_computer
                    ]
                await self.core.enqueue(items)

    async def match_states(self, table: TableRow) -> tuple[list[Any], list[list[float]]]:
        """The state of every game of the table's series, in order, rebuilt from the log
        (the last one may be in progress), and when each of its deals was dealt (the
        times of its ``deal …`` system actions): what ``/export`` writes out."""
        game = get_game(table.game)
        options = game.Options(**table.options)
        players = len(await self.core.repo.get_seats(table.id))
        states: dict[int, Any] = {}
        dealt: dict[int, list[float]] = {}
        for row in await self.core.repo.load_actions(table.id):
            state = states.get(row.game_no) or game.initial_state(options, players)
            states[row.game_no], _ = game.apply(state, row.seat, row.action)
            if row.seat is None and row.action.startswith("deal "):
                dealt.setdefault(row.game_no, []).append(row.created_at)
        numbers = sorted(states)
        return [states[n] for n in numbers], [dealt.get(n, []) for n in numbers]

    async def send_files(
        self, chat_id: int, table_id: int, files: list[tuple[str, bytes]], thread_id: int = 0, caption: str = ""
    ) -> None:
        """Files for a chat (a game's record, a PBN export), sent by the sender: paced with
        the chat's other messages and retried through a flood wait, so none is lost."""
        items = [
            OutboxItem(
                "file",
                chat_id,
                table_id,
                target=thread_id or None,
                payload={"file_name": name, "base64": base64.b64encode(content).decode("ascii"), "caption": caption},
            )
            for name, content in files
        ]
        await self.core.enqueue(items)

    async def send_reply(
        self,
        chat_id: int,
        text: str,
        rows: list[list[tuple[str, str]]] | None = None,
        *,
        thread_id: int = 0,
        reply_to: int | None = None,
        preview: bool = True,
    ) -> None:
        """A command's answer (HTML; buttons as rows of (label, callback data | "url:<link>")),
        sent by the sender in order with the chat's other messages: in the group's budget and
        retried through a flood wait, so it may come late but is never lost."""
        payload: dict = {"text": text, "rows": [[[label, data] for label, data in row] for row in rows or []]}
        if reply_to:
            payload["reply_to"] = reply_to
        if not preview:
            payload["no_preview"] = True
        await self.core.enqueue([OutboxItem("reply", chat_id, None, target=thread_id or None, payload=payload)])

    async def edit_message(self, chat_id: int, message_id: int, text: str) -> None:
        """Replace a message's text and take its buttons away (a used chooser becomes its
        one-line outcome), through the sender like a reply."""
        await self.core.enqueue([OutboxItem("edit", chat_id, None, payload={"message_id": message_id, "text": text})])

    async def chat_lost(self, chat_id: int) -> None:
        """The bot was removed from a group (or may no longer write there): its open
        tables close, and the seated people hear it in their DMs. A rare event, so the
        open tables are scanned rather than indexed by chat."""
        for table in await self.core.repo.tables_with_status(LOBBY, PLAYING, BETWEEN):
            if table.chat_id != chat_id:
                continue
            async with self.core.lock(table.id):
                for _ in range(5):  # another worker may move the table meanwhile
                    current = await self.core.repo.get_table(table.id)
                    if current is None or current.status == CLOSED:
                        break
                    try:
                        await self.core.repo.update_table(table.id, expected_version=current.version, status=CLOSED)
                    except VersionConflict:
                        continue
                    seats = await self.core.repo.get_seats(table.id)
                    spectators = await self.core.repo.get_spectators(table.id)
                    await self.core.enqueue(
                        closed_hands(current, seats)
                        + [
                            OutboxItem("notice", s.user_id, table.id, payload={"key": "table.closed_removed"})
                            for s in seats
                            if not s.is_computer
                        ]
                        # spectators see the table closed, once (no group message to follow now)
                        + [OutboxItem("watch", s.user_id, table.id) for s in spectators]
                    )
                    log.warning("table %s closed: the bot cannot write in chat %s any more", table.id, chat_id)
                    break

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        await self.core.repo.migrate_chat(old_chat_id, new_chat_id)
        self.core.wake()
