"""TableService: every change to a table goes through here.

One path for every move: per-table lock → load the table and its seats (once per
press) → check the seat, the turn and the version → ``engine.apply`` →
``bot.consequences`` says what follows → the action, the new version, the outbox rows
and the turn timer are written in ONE storage transaction. Nothing is sent from here:
the sender drains the outbox, so a crash between "accepted" and "sent" loses nothing.
Telegram objects never reach the service; handlers pass plain values (``bot.press``).

The service is one object made of its concerns, each in its own module on the shared
core (``bot.table_core``: the lock, the state cache, the commit):

- ``bot.lobby``: opening a table, the lobby's buttons, Rematch / Close, /cancel;
- ``bot.play``: a player's move, the keyboard switch, the computers' answers;
- ``bot.timers``: reminders, timeouts, resuming after a restart;
- ``bot.chat_admin``: DMs opened, the chat's language, files and replies, a chat lost
  or migrated, the series for /export.
"""

from __future__ import annotations

from bot.chat_admin import ChatAdmin
from bot.lobby import Lobby
from bot.press import AdminCheck, EngineRefusal, Person, PressPlace, StaleButton, UserError, button_number
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


class TableService(Lobby, Timers, ChatAdmin):
    """The table service the handlers, the runtime and the tests use."""
