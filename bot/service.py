"""TableService: every change to a table goes through here.

One path for every move: per-table lock → load the table and its seats (once per
press, the computers' check after it included) → check the seat, the turn and the
version → ``engine.apply`` → ``bot.consequences`` says what follows → the action, the new
version, the outbox rows and the turn timer are written in ONE storage transaction.
Nothing is sent from here: the sender drains the outbox, so a crash between "accepted"
and "sent" loses nothing. Telegram objects never reach the service; handlers pass plain
values (``bot.press``).

The service is made of parts with one job each, every part holding the shared core
(``bot.table_core``: the storage, the lock, the state cache, the commit) and the other
parts it needs; ``TableService`` builds them and names them:

- ``service.play`` (``bot.play``): a player's move, the keyboard switch;
- ``service.computers`` (``bot.computers``): the system's and the computers' moves that
  follow, in the background after a press;
- ``service.lobby`` (``bot.lobby``): opening a table, the lobby's buttons, Rematch /
  Close, /cancel;
- ``service.timers`` (``bot.timers``): reminders, timeouts, resuming after a restart;
- ``service.chat_admin`` (``bot.chat_admin``): DMs opened, the chat's language, files and
  replies, a chat lost or migrated, the series for /export.
"""

from __future__ import annotations

import random
import time
from typing import Callable

from engine.ai_levels import DEFAULT_LEVEL
from storage.repository import Repository
from bot.chat_admin import ChatAdmin
from bot.computers import Computers
from bot.lobby import Lobby
from bot.play import Play
from bot.press import AdminCheck, EngineRefusal, Person, PressPlace, StaleButton, UserError, button_number
from bot.table_core import TableCore
from bot.thinking import Thinker
from bot.timers import Timers

__all__ = [
    "AdminCheck",
    "EngineRefusal",
    "Person",
    "PressPlace",
    "StaleButton",
    "TableService",
    "UserError",
    "button_number",
]


class TableService:
    """The table service the handlers, the runtime and the tests use: its parts."""

    def __init__(
        self,
        repo: Repository,
        *,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        thinker: Thinker | None = None,
        computer_level: str = DEFAULT_LEVEL,
    ) -> None:
        self.core = TableCore(repo, rng=rng, clock=clock, thinker=thinker, computer_level=computer_level)
        self.computers = Computers(self.core)
        self.play = Play(self.core, self.computers)
        self.lobby = Lobby(self.core, self.computers)
        self.timers = Timers(self.core, self.computers)
        self.chat_admin = ChatAdmin(self.core)
