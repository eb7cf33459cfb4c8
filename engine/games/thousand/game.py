"""The Тысяча ``engine.base.Game``: a thin facade over ``rules``."""

from __future__ import annotations

from typing import Any

from engine.facade import RulesFacade
from engine.jsondata import JsonDict
from engine.standings import Standings, by_scores, last

from . import record, rules
from .ai import computer_action as _computer_action
from .options import ThousandOptions
from .state import State


class ThousandGame(RulesFacade, rules=rules):
    name = "thousand"
    rules_version = 1
    Options = ThousandOptions
    State = State
    computer_action = staticmethod(_computer_action)
    record = record  # the score-only record (engine.score)

    def seat_range(self, options: Any) -> tuple[int, int]:
        return 3, 4

    def standings(self, result: JsonDict, players: int) -> Standings:
        """Each seat alone, by its total; a forfeiting seat last."""
        found = by_scores(result["totals"][:players])
        forfeit = result.get("forfeit")
        return last(found, forfeit) if isinstance(forfeit, int) else found


GAME = ThousandGame()
