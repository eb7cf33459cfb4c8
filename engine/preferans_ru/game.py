"""The Russian preferans ``engine.base.Game``: a thin facade over ``rules`` (one match =
one pulka). ``computer_action`` is the computer player's choice from a seat's own view."""

from __future__ import annotations

from fractions import Fraction
import random
from typing import Any

from engine.facade import RulesFacade
from engine.jsondata import JsonDict
from engine.standings import Standings, by_scores

from . import record, rules
from .ai import computer_action
from .options import PreferansRuOptions, parse_options
from .state import State


def simple_computer_action(view: dict[str, Any], legal: list[str], rng: random.Random, level: str = "normal") -> str:
    """A plain legal choice, used until a real computer player is plugged in: bid the
    lowest game with a strong-looking hand, never whist, play the lowest legal card."""
    hand: list[str] = view.get("hand") or []
    phase = view.get("phase")
    if phase == "auction":
        bids = [a for a in legal if a.startswith("bid ") and not a.endswith("MISERE") and "NOTALON" not in a]
        honours = sum(1 for c in hand if c[0] in "AK")
        if bids and honours >= 4 and view.get("high") is None:
            return bids[0]
        return "pass"
    if phase == "whist":
        return "pass" if "pass" in legal else legal[0]
    if phase == "open_choice":
        return "open"
    if phase == "discard":
        return min(legal, key=lambda a: "789TJQKA".index(a.split()[1][0]))
    if phase == "play":
        return min(legal, key=lambda a: "789TJQKA".index(a.split()[1][0]))
    return legal[0]


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
