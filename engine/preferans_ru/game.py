"""The Russian preferans ``engine.base.Game``: a thin facade over ``rules`` (one match =
one pulka). ``computer_action`` is the computer player's choice from a seat's own view."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.facade import RulesFacade
from engine.jsondata import JsonDict
from engine.standings import Standings, by_scores

from . import record, rules
from .ai import computer_action
from .options import PreferansRuOptions, parse_options
from .state import State


class PreferansRuGame(RulesFacade, rules=rules):
    name = "preferans_ru"
    rules_version = 1
    Options = PreferansRuOptions
    State = State
    record = record  # the score-only record (engine.score)
    computer_action = staticmethod(computer_action)

    def seat_range(self, options: Any) -> tuple[int, int]:
        parse_options(options)
        return 3, 4

    def standings(self, result: JsonDict, players: int) -> Standings:
        """By the settlement, higher is better (exact: ints or "a/b" strings)."""
        return by_scores([float(Fraction(x)) for x in result["settlement"]])


GAME = PreferansRuGame()
