"""durak: the table's Telegram UI (`ui`). Importing the package registers it with
`bot.games.registry`."""

from . import ui

__all__ = ["ui"]
