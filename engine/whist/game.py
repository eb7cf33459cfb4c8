"""The whist ``engine.base.Game``: a thin facade over ``rules``."""

from __future__ import annotations

from typing import Any

from engine.facade import RulesFacade

from . import rules
from .ai import computer_action as _computer_action
from .options import WhistOptions
from .state import State


class WhistGame(RulesFacade, rules=rules):
    name = "whist"
    rules_version = 1
    Options = WhistOptions
    State = State
    computer_action = staticmethod(_computer_action)

    def seat_range(self, options: Any) -> tuple[int, int]:
        return 4, 4


GAME = WhistGame()
