"""At most one answer to a burst of commands in a chat.

A reply to a group waits for that group's Telegram budget (about 20 messages a minute),
and while it waits it holds one of the handler slots every chat shares: 60 `/rules king`
in one group used to hold them all and delay another person's DM `/start` by 74 s. So a
chat has at most one command being answered at a time, and the same command repeated within
a few seconds is answered once (by the same person; /help and /rules by anyone in the chat). Buttons are not gated (each press is
checked and answered by the service, and a toast costs no chat message).
"""

from __future__ import annotations

import collections
import time
from typing import Callable

from telegram import Update
from telegram.ext import Application, ApplicationHandlerStop, ContextTypes, TypeHandler

REPEAT_WINDOW = 5.0  # seconds: the same command again within this is not answered
# commands whose answer is the same for everyone: repeated by anyone in the chat, the
# answer already there serves; any other command is a repeat only from the same person
SHARED_ANSWERS = ("/help", "/rules", "/start")
BUSY_TIMEOUT = 30.0  # seconds: a command still "being answered" after this no longer blocks
MEMORY = 10_000  # chats and commands remembered (oldest out first)


class CommandGate:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.busy: collections.OrderedDict[int, float] = collections.OrderedDict()
        self.recent: collections.OrderedDict[tuple[int, int, int, str], float] = collections.OrderedDict()

    def admit(self, chat_id: int, thread_id: int, user_id: int, command: str) -> bool:
        """May this command be answered now? If so the chat is busy until ``done``."""
        now = self.clock()
        started = self.busy.get(chat_id)
        if started is not None and now - started < BUSY_TIMEOUT:
            return False
        shared = command.split()[0].split("@")[0] in SHARED_ANSWERS
        key = (chat_id, thread_id, 0 if shared else user_id, command)
        last = self.recent.get(key)
        if last is not None and now - last < REPEAT_WINDOW:
            return False
        self._remember(self.recent, key, now)
        self._remember(self.busy, chat_id, now)
        return True

    def done(self, chat_id: int) -> None:
        self.busy.pop(chat_id, None)

    @staticmethod
    def _remember(memory: collections.OrderedDict, key, value: float) -> None:
        memory[key] = value
        memory.move_to_end(key)
        while len(memory) > MEMORY:
            memory.popitem(last=False)


def _command_of(update: Update) -> tuple[int, int, int, str] | None:
    message = update.message  # a new message only: edits are not commands
    if message is None or not message.text or not message.text.startswith("/"):
        return None
    thread = message.message_thread_id if message.is_topic_message else 0
    user = message.from_user.id if message.from_user else 0
    return message.chat_id, thread or 0, user, " ".join(message.text.lower().split())[:64]


def install(app: Application, gate: CommandGate) -> None:
    """Check every command before the handlers (group -1), free its chat after (group 1)."""

    async def check(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        command = _command_of(update)
        if command is not None and not gate.admit(*command):
            raise ApplicationHandlerStop

    async def release(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        command = _command_of(update)
        if command is not None:
            gate.done(command[0])

    app.add_handler(TypeHandler(Update, check), group=-1)
    app.add_handler(TypeHandler(Update, release), group=1)
