"""Тысяча (1000): rules spec in docs/rules/thousand.md. Registers two games: ``thousand``
(played at the table) and ``thousand_score`` (the sheet of a game played with real cards)."""

from engine.base import register

from .errors import ERROR_CODES
from .game import GAME, ThousandGame
from .options import ThousandOptions, parse_options
from .score_game import SCORE_GAME
from .state import State

register(GAME)
register(SCORE_GAME)

__all__ = ["GAME", "ERROR_CODES", "State", "ThousandGame", "ThousandOptions", "parse_options"]
