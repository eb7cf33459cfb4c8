"""The bridge ``engine.base.Game``: a thin facade over ``rules``. One match = one rubber."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.facade import RulesFacade
from engine.jsondata import JsonDict
from engine.standings import Standings, partnerships

from . import record, rules
from .ai import computer_action as _computer_action
from .options import BridgeOptions
from .state import State


class BridgeGame(RulesFacade, rules=rules):
    name = "bridge"
    rules_version = 1
    Options = BridgeOptions
    State = State
    record = record  # the score-only record (engine.score)
    computer_action = staticmethod(_computer_action)

    def seat_range(self, options: Any) -> tuple[int, int]:
        return 4, 4

    def standings(self, result: JsonDict, players: int) -> Standings:
        """The partnerships, by the rubber's winner, else by the amounts (exact: ints or "a/b")."""
        winner = result.get("winner")
        if winner in ("NS", "EW"):
            return partnerships(winner == "NS", winner == "EW")
        amounts = result.get("amounts") or [0, 0]
        return partnerships(float(Fraction(amounts[0])), float(Fraction(amounts[1])))


GAME = BridgeGame()
