"""bridge: the table's Telegram UI (`ui`, with its small texts in `texts` and the sheet's
posts in `sheet_posts`), its score-only sheet (`score`) and its sheet picture (`picture`).
Importing the package registers both UIs with `bot.game_registry`."""

from . import score, ui

__all__ = ["score", "ui"]
