"""Тысяча: the table's Telegram UI (`ui`), its score-only sheet (`score`). Importing the
package registers both with `bot.game_registry`."""

from . import score, ui

__all__ = ["score", "ui"]
