"""The Russian preferans ``engine.base.Game``: a thin facade over ``rules`` (one match =
one pulka). ``computer_action`` is the computer player's choice from a seat's own view."""

from __future__ import annotations

from typing import Any

from engine.facade import RulesFacade

from . import rules
from .ai import computer_action
from .options import PreferansRuOptions, parse_options
from .state import State


class PreferansRuGame(RulesFacade, rules=rules):
    name = "preferans_ru"
    rules_version = 1
    Options = PreferansRuOptions
    State = State
    computer_action = staticmethod(computer_action)

    def seat_range(self, options: Any) -> tuple[int, int]:
        parse_options(options)
        return 3, 4


GAME = PreferansRuGame()
