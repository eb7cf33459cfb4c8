"""king: the table's Telegram UI (`ui`) and its sheet picture (`picture`). Importing the package registers it with
`bot.games.registry`."""

from . import ui

__all__ = ["ui"]
