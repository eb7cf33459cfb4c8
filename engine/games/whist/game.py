"""The whist ``engine.base.Game``: a thin facade over ``rules``."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.facade import RulesFacade
from engine.jsondata import JsonDict
from engine.standings import Standings, partnerships

from . import record, rules
from .ai import computer_action as _computer_action
from .options import WhistOptions
from .state import State


class WhistGame(RulesFacade, rules=rules):
    name = "whist"
    rules_version = 1
    Options = WhistOptions
    State = State
    record = record  # the score-only record (engine.score)
    computer_action = staticmethod(_computer_action)

    def seat_range(self, options: Any) -> tuple[int, int]:
        return 4, 4

    def standings(self, result: JsonDict, players: int) -> Standings:
        """The partnerships, by the match's winner, else by the balance (exact: ints or "a/b")."""
        winner = result.get("winner")
        if winner in ("NS", "EW"):
            return partnerships(winner == "NS", winner == "EW")
        balance = result.get("balance") or {}
        return partnerships(float(Fraction(balance.get("NS", 0))), float(Fraction(balance.get("EW", 0))))


GAME = WhistGame()
