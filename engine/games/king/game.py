"""The King ``engine.base.Game``: a thin facade over ``rules``."""

from __future__ import annotations

from typing import Any

from engine.facade import RulesFacade
from engine.jsondata import JsonDict
from engine.standings import Standings, each_alone

from . import rules
from .ai import computer_action as _computer_action
from .options import PLAYERS, KingOptions, parse_options
from .state import State


class KingGame(RulesFacade, rules=rules):
    name = "king"
    rules_version = 1
    Options = KingOptions
    State = State
    computer_action = staticmethod(_computer_action)

    def seat_range(self, options: Any) -> tuple[int, int]:
        parse_options(options)
        return PLAYERS, PLAYERS

    def standings(self, result: JsonDict, players: int) -> Standings:
        """The game's own places (docs/rules/king.md)."""
        return each_alone([int(p) for p in result["places"]])


GAME = KingGame()
