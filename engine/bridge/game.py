"""The bridge ``engine.base.Game``: a thin facade over ``rules``. One match = one rubber."""

from __future__ import annotations

from typing import Any

from engine.facade import RulesFacade

from . import rules
from .ai import computer_action as _computer_action
from .options import BridgeOptions
from .state import State


class BridgeGame(RulesFacade, rules=rules):
    name = "bridge"
    rules_version = 1
    Options = BridgeOptions
    State = State
    computer_action = staticmethod(_computer_action)

    def seat_range(self, options: Any) -> tuple[int, int]:
        return 4, 4


GAME = BridgeGame()
