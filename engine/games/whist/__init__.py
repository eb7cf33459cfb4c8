"""Whist (Вист, seed 002): rules spec in docs/rules/whist.md, notation in
docs/whist.md. Registers two games: ``whist`` (played at the table) and
``whist_score`` (the score sheet of a game played with real cards)."""

from engine.base import register

from .errors import ERROR_CODES
from .game import GAME, WhistGame
from .options import PRESETS, WhistOptions, parse_options
from .scoring import Sheet
from .state import State
from . import score_game  # noqa: F401  (registers whist_score)

register(GAME)

__all__ = ["GAME", "ERROR_CODES", "PRESETS", "Sheet", "State", "WhistGame", "WhistOptions", "parse_options"]
