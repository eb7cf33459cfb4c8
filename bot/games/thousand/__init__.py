"""Тысяча: the table's Telegram UI (`ui`). Importing the package registers it with
`bot.game_registry`."""

from . import ui

__all__ = ["ui"]
