"""king: the table's Telegram UI (`ui`) and its sheet picture (`picture`). Importing the package registers it with
`bot.game_registry`."""

from . import ui

__all__ = ["ui"]
