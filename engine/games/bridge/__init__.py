"""Rubber bridge (Бридж): rules spec in docs/rules/bridge.md, notation in docs/bridge.md.

``engine.base.get_game("bridge")`` returns :data:`GAME` (one match = one rubber);
``get_game("bridge_score")`` the score-only sheet for games played with real cards.
"""

from engine.base import register

from .errors import ERROR_CODES
from .game import GAME, BridgeGame
from .options import PRESETS, BridgeOptions, parse_options, scoring_table
from .score_game import SCORE_GAME
from .scoring import Contract, Sheet, parse_contract
from .state import State

register(GAME)
register(SCORE_GAME)

__all__ = [
    "GAME",
    "SCORE_GAME",
    "BridgeGame",
    "BridgeOptions",
    "Contract",
    "ERROR_CODES",
    "PRESETS",
    "Sheet",
    "State",
    "parse_contract",
    "parse_options",
    "scoring_table",
]
