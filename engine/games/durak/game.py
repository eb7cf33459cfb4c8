"""The durak ``engine.base.Game``: a thin facade over ``rules`` (one deal, no ``system_action``)."""

from __future__ import annotations

from typing import Any

from engine.facade import RulesFacade
from engine.jsondata import JsonDict
from engine.standings import Standings, dense, each_alone

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

    def standings(self, result: JsonDict, players: int) -> Standings:
        """The durak is last (§7.4); the others place in the order they went out
        (``result["out"]``: the seats that went out on one action share a place), those
        still holding cards (a forfeit) behind them. A result without the order (stored
        before it was kept) places everyone but the durak first. A draw ties everyone."""
        if result.get("draw"):
            return each_alone([1] * players)
        durak = int(result["durak"])
        rank = dict.fromkeys(range(players), 0)
        place = 1
        for group in result.get("out") or ():
            for seat in group:
                if seat != durak and rank[seat] == 0:
                    rank[seat] = place
            place += 1
        for seat in rank:
            if rank[seat] == 0 and seat != durak:
                rank[seat] = place
        rank[durak] = max(rank.values()) + 1
        return each_alone(dense([rank[s] for s in range(players)]))


GAME = DurakGame()
