"""The preferans ``engine.base.Game``: a thin facade over ``rules`` (one match = one pulka)."""

from __future__ import annotations

from typing import Any

from engine.facade import RulesFacade

from . import rules
from .ai import computer_action as _computer_action
from .options import PreferansOptions, parse_options
from .state import State


class PreferansGame(RulesFacade, rules=rules):
    name = "preferans"
    rules_version = 1
    Options = PreferansOptions
    State = State
    computer_action = staticmethod(_computer_action)

    def seat_range(self, options: Any) -> tuple[int, int]:
        parse_options(options)
        return 3, 3


GAME = PreferansGame()
