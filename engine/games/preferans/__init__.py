"""Balkan preferans: rules in docs/rules/preferans.md, notation in docs/preferans.md.

Registers two games: ``preferans`` (played at the table) and ``preferans_score``
(the score-only sheet for people playing with real cards)."""

from engine.base import register

from .errors import ERROR_CODES
from .game import GAME, PreferansGame
from .options import PreferansOptions, parse_options
from .score_game import SCORE_GAME
from .state import State

register(GAME)
register(SCORE_GAME)

__all__ = ["GAME", "SCORE_GAME", "ERROR_CODES", "PreferansGame", "PreferansOptions", "State", "parse_options"]
