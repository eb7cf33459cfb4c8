"""The preferans ``engine.base.Game``: a thin facade over ``rules`` (one match = one pulka)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.facade import RulesFacade
from engine.jsondata import JsonDict
from engine.standings import Standings, by_scores

from . import record, rules
from .ai import computer_action as _computer_action
from .options import PreferansOptions, parse_options
from .state import State


class PreferansGame(RulesFacade, rules=rules):
    name = "preferans"
    rules_version = 1
    Options = PreferansOptions
    State = State
    record = record  # the score-only record (engine.score)
    computer_action = staticmethod(_computer_action)

    def seat_range(self, options: Any) -> tuple[int, int]:
        parse_options(options)
        return 3, 3

    def standings(self, result: JsonDict, players: int) -> Standings:
        """By the settlement, higher is better (exact: ints or "a/b" strings)."""
        return by_scores([float(Fraction(x)) for x in result["settlement"]])


GAME = PreferansGame()
