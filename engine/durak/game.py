"""The durak ``engine.base.Game``: a thin facade over ``rules`` (one deal, no ``system_action``)."""

from __future__ import annotations

from typing import Any

from engine.facade import RulesFacade

from . import rules
from .ai import computer_action as _computer_action
from .options import DurakOptions, parse_options
from .state import State


class DurakGame(RulesFacade, rules=rules):
    name = "durak"
    rules_version = 1
    Options = DurakOptions
    State = State
    computer_action = staticmethod(_computer_action)

    def seat_range(self, options: Any) -> tuple[int, int]:
        return 2, parse_options(options).max_players


GAME = DurakGame()
