"""A FakeTelegram for load: it forgets what a test would inspect (old message versions,
the call log), counts calls, notices which DM shows action buttons, and timestamps the
calls each button press causes, so the benchmarks can measure latencies."""

from __future__ import annotations

import asyncio
import collections
import time
from dataclasses import dataclass
from typing import Callable

from telegram import Update

from bot.emulator.telegram_fake import FakeTelegram, FakeUser

EDITS = ("editMessageText", "editMessageReplyMarkup")
GROUP_METHODS = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "sendDocument")


@dataclass
class Press:
    """One button press and the Bot API calls it caused."""

    qid: str
    kind: str  # "a" (a move in a DM) or "r" (rematch in the group)
    user_id: int
    group_id: int
    hand_message: int | None  # the DM message the press came from
    t0: float  # perf_counter() when the update was handed to the bot
    t_answer: float | None = None
    answer_text: str | None = None
    t_hand: float | None = None  # the first edit of that DM message after the press
    t_group: float | None = None  # the first group send/edit after the press
    answered: "asyncio.Future | None" = None  # done when the callback answer arrives

    @property
    def accepted(self) -> bool:
        return self.t_answer is not None and self.answer_text is None  # "ok.move": no toast

    @property
    def last_call(self) -> float | None:
        """Latency to the last of the answer and the DM hand edit (None: no answer yet)."""
        if self.t_answer is None:
            return None
        return max(self.t_answer, self.t_hand or 0.0) - self.t0


class LoadTelegram(FakeTelegram):
    def __init__(self, *, clock: Callable[[], float] = time.monotonic, keep_log: bool = False) -> None:
        super().__init__(raise_handler_errors=False, clock=clock)
        self.keep_log = keep_log
        self.counts: collections.Counter[str] = collections.Counter()
        self.by_chat: dict[int, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        self.group_stamps: dict[int, list[float]] = collections.defaultdict(list)  # clock() values
        self.failed: collections.Counter[str] = collections.Counter()
        # user -> (message id, action callback data) of the DM message showing move buttons
        self.actionable: dict[int, tuple[int, list[str]]] = {}
        # group -> (message id, rematch callback data) of the newest game-over post
        self.rematch: dict[int, tuple[int, str]] = {}
        self.watchers: dict[int, asyncio.Event] = {}  # chat -> event set on any change there
        self.pending: dict[str, Press] = {}
        self.awaiting_hand: dict[int, Press] = {}
        self.awaiting_group: dict[int, list[Press]] = collections.defaultdict(list)

    # ---------------------------------------------------------------- the API side
    def handle(self, method: str, params: dict) -> tuple[int, dict]:
        status, body = super().handle(method, params)
        now = time.perf_counter()
        if not self.keep_log:
            self.log.clear()
        chat = params.get("chat_id")
        self.counts[method] += 1
        if isinstance(chat, int):
            self.by_chat[chat][method] += 1
        if status != 200:
            self.failed[f"{method}: {body.get('description', '')[:60]}"] += 1
            return status, body
        if method == "answerCallbackQuery":
            press = self.pending.pop(params.get("callback_query_id"), None)
            if press is not None:
                press.t_answer, press.answer_text = now, params.get("text")
                if press.answered is not None and not press.answered.done():
                    press.answered.set_result(None)
            return status, body
        if not isinstance(chat, int) or method not in GROUP_METHODS:
            return status, body
        message_id = params.get("message_id") or body["result"].get("message_id")
        if method in EDITS:  # keep only the current version of an edited message
            message = self.msgs[chat][message_id]
            del message.history[:-1]
        buttons = [
            b.get("callback_data") or ""
            for row in ((params.get("reply_markup") or {}).get("inline_keyboard") or [])
            for b in row
        ]
        if chat > 0:
            moves = [d for d in buttons if d.startswith("a:")]
            if moves:
                self.actionable[chat] = (message_id, moves)
            elif self.actionable.get(chat, (None,))[0] == message_id:
                del self.actionable[chat]
            press = self.awaiting_hand.get(chat)
            if press is not None and method in EDITS and message_id == press.hand_message:
                press.t_hand = now
                del self.awaiting_hand[chat]
        else:
            self.group_stamps[chat].append(self.clock())
            rematch = [d for d in buttons if d.startswith("r:") and d.endswith(":rematch")]
            if rematch:
                self.rematch[chat] = (message_id, rematch[0])
            for press in self.awaiting_group.pop(chat, ()):
                press.t_group = now
        event = self.watchers.get(chat)
        if event is not None:
            event.set()
        return status, body

    # ---------------------------------------------------------------- the users' side
    def press_update(
        self, app, user: FakeUser, chat_id: int, message_id: int, data: str, group_id: int
    ) -> tuple[Press, Update]:
        """A callback query for ``data`` on the message, as an Update ready for the bot,
        and the Press that will collect its timings (t0 is set by the caller)."""
        message = self.msgs[chat_id][message_id]
        qid = str(next(self._ids) * 1000 + user.id % 1000)
        self.queries[qid] = user.id
        raw = self._next_update(
            callback_query={
                "id": qid,
                "from": user.to_api(),
                "chat_instance": f"ci{chat_id}",
                "message": message.to_api(),
                "data": data,
            }
        )
        press = Press(qid, data[0], user.id, group_id, message_id if chat_id > 0 else None, 0.0)
        return press, Update.de_json(raw, app.bot)

    def track(self, press: Press) -> None:
        self.pending[press.qid] = press
        if press.hand_message is not None:
            self.awaiting_hand[press.user_id] = press
        self.awaiting_group[press.group_id].append(press)
