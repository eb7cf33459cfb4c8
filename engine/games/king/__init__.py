"""King (Кинг), F. Fikhman's version: rules spec in docs/rules/king.md,
notation and decisions in docs/king.md.

``engine.base.get_game("king")`` returns :data:`GAME`. The whole 12-deal game is one
match: ``system_action`` deals the next deal after each scored one.
"""

from engine.base import register

from .errors import ERROR_CODES
from .game import GAME, KingGame
from .options import KingOptions, parse_options
from .scoring import CONTRACTS, deal_score, places, queens_score
from .state import State

register(GAME)

__all__ = [
    "GAME",
    "KingGame",
    "KingOptions",
    "ERROR_CODES",
    "CONTRACTS",
    "State",
    "deal_score",
    "parse_options",
    "places",
    "queens_score",
]
