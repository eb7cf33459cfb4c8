"""One answer to a repeated command.

Every command is answered (the answer goes through the sender's outbox, so answering
holds no handler slot while a group's budget or a flood wait delays it), except a
repeat: the same person sending the same command again within a few seconds (an
impatient double tap), or anyone in the chat repeating a command whose answer is the
same for everyone (/help, /rules king, /start in a group): the answer already on its
way serves them all. Another person's command, or another command, is never held up.
Buttons are not gated (each press is checked and answered by the service, and a toast
costs no chat message).
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
MEMORY = 10_000  # commands remembered (oldest out first)


class CommandGate:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.recent: collections.OrderedDict[tuple[int, int, int, str], float] = collections.OrderedDict()

    def admit(self, chat_id: int, thread_id: int, user_id: int, command: str) -> bool:
        """Is this command to be answered, or is it a repeat of one answered just now?"""
        now = self.clock()
        shared = command.split()[0].split("@")[0] in SHARED_ANSWERS
        key = (chat_id, thread_id, 0 if shared else user_id, command)
        last = self.recent.get(key)
        if last is not None and now - last < REPEAT_WINDOW:
            return False
        self.recent[key] = now
        self.recent.move_to_end(key)
        while len(self.recent) > MEMORY:
            self.recent.popitem(last=False)
        return True


def _command_of(update: Update) -> tuple[int, int, int, str] | None:
    message = update.message  # a new message only: edits are not commands
    if message is None or not message.text or not message.text.startswith("/"):
        return None
    thread = message.message_thread_id if message.is_topic_message else 0
    user = message.from_user.id if message.from_user else 0
    return message.chat_id, thread or 0, user, " ".join(message.text.lower().split())[:64]


def install(app: Application, gate: CommandGate) -> None:
    """Check every command before the handlers (group -1)."""

    async def check(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        command = _command_of(update)
        if command is not None and not gate.admit(*command):
            raise ApplicationHandlerStop

    app.add_handler(TypeHandler(Update, check), group=-1)
