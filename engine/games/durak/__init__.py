"""Durak (Дурак): rules spec in docs/rules/durak.md, notation in docs/notation.md.

``engine.base.get_game("durak")`` returns :data:`GAME`.
"""

from engine.base import register

from .errors import ERROR_CODES
from .game import GAME, DurakGame
from .options import DurakOptions, parse_options
from .rules import beats
from .state import State
from .tally import tally

register(GAME)

__all__ = ["GAME", "DurakGame", "DurakOptions", "ERROR_CODES", "State", "beats", "parse_options", "tally"]
