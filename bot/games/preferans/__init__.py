"""preferans: the table's Telegram UI (`ui`), its score-only sheet (`score`) and its sheet picture (`picture`). Importing the
package registers both with `bot.game_registry`."""

from . import score, ui

__all__ = ["score", "ui"]
