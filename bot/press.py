"""What a press brings to the table service, and how it is refused: plain values only
(Telegram objects never get past the handlers)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from engine.errors import EngineError
from storage.models import TableRow


class UserError(Exception):
    """A refusal shown to the user as a toast: a catalog key plus parameters."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def button_number(text: str, digits: int = 18) -> int:
    """A number in callback data: ASCII digits only (``int`` would take "١" or "１" and
    ``str.isdigit`` even "²"), short enough for a 64-bit database column."""
    if not (text.isascii() and text.isdigit() and len(text) <= digits):
        raise UserError("err.bad_button")
    return int(text)


class StaleButton(UserError):
    def __init__(self) -> None:
        super().__init__("err.stale")


class EngineRefusal(UserError):
    """The engine said no; ``error`` carries the code and English reason."""

    def __init__(self, error: EngineError) -> None:
        super().__init__(f"engine.{error.code}", **error.params)
        self.error = error


@dataclass
class Person:
    id: int
    name: str
    username: str | None = None
    lang: str | None = None


# Is this person an administrator of the chat with this id? Always asked about the
# table's own chat, never the chat a button happened to be pressed in.
AdminCheck = Callable[[int], Awaitable[bool]]


@dataclass(frozen=True)
class PressPlace:
    """Where a button was pressed: the chat (and forum topic) of the message under which
    it sits. Callback data can be forged and messages forwarded, so every table button
    is checked against the table's own chat before it may act."""

    chat_id: int
    thread_id: int = 0
    private: bool = False

    def require_table_chat(self, table: TableRow) -> None:
        """A lobby, after-game or score-sheet button acts only under the table's group."""
        if self.private or (self.chat_id, self.thread_id) != (table.chat_id, table.thread_id):
            raise UserError("err.other_chat")

    def require_own_dm(self, user_id: int) -> None:
        """A hand button acts only in the presser's own private chat with the bot."""
        if not self.private or self.chat_id != user_id:
            raise UserError("err.other_chat")
