"""Per-game Telegram presentation: one module per game, each registering a ``GameUI``, the
game's manifest (``bot.games.base``). The shared modules reach a game only through the
registry (``bot.games.registry``); everything a game shows, offers or exports lives in
its module here."""

from __future__ import annotations

from bot.games.base import GameUI
from bot.games.registry import all_uis, playable, register_ui, ui_for

__all__ = ["GameUI", "all_uis", "playable", "register_ui", "ui_for"]
