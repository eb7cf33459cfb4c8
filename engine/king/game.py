"""The King ``engine.base.Game``: a thin facade over ``rules``."""

from __future__ import annotations

from typing import Any

from engine.facade import RulesFacade

from . import rules
from .ai import computer_action as _computer_action
from .options import PLAYERS, KingOptions, parse_options
from .state import State


class KingGame(RulesFacade, rules=rules):
    name = "king"
    rules_version = 1
    Options = KingOptions
    State = State
    computer_action = staticmethod(_computer_action)

    def seat_range(self, options: Any) -> tuple[int, int]:
        parse_options(options)
        return PLAYERS, PLAYERS


GAME = KingGame()
