"""The ``engine.base.Game`` facades both preferans games write the same way: the played
game (one match is one pulka, standings by the settlement) and the score-only sheet, a
data-entry wizard for people who play with real cards."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, ClassVar, Protocol

from engine.errors import common_error
from engine.facade import RulesFacade
from engine.deadline import NEVER, Deadline
from engine.jsondata import JsonDict
from engine.standings import Standings, by_scores


class PreferansFacade(RulesFacade):
    """What the played game and the sheet share: the seat range, by the game's options."""

    seats: ClassVar[tuple[int, int]]  # the fewest and the most players

    @staticmethod
    def parse_options(options: Any) -> Any:
        """The game's options; ``bad_options`` for options it cannot play."""
        raise NotImplementedError

    def seat_range(self, options: Any) -> tuple[int, int]:
        self.parse_options(options)
        return self.seats


class VariantGame(PreferansFacade):
    """A preferans game played at the table; the subclass passes its rules module
    (``class PreferansGame(VariantGame, rules=rules)``)."""

    def standings(self, result: JsonDict, players: int) -> Standings:
        """By the settlement, higher is better (exact: ints or "a/b" strings)."""
        return by_scores([float(Fraction(x)) for x in result["settlement"]])


class Sheet(Protocol):
    """The state of a score-only sheet."""

    players: int
    started: bool
    result: JsonDict | None

    def clone(self) -> Any: ...


class SheetGame(PreferansFacade):
    """A score-only sheet: the system's ``start`` opens it and ``forfeit <seat>`` ends it;
    in between every seat may enter the next wizard step (``steps``), and nobody plays."""

    step_verbs: ClassVar[frozenset[str]]  # every step's first word, for the bad_syntax / wrong_phase choice

    def steps(self, s: Any) -> list[str]:
        """The wizard steps that can still make a valid hand."""
        raise NotImplementedError

    def step(self, s: Any, verb: str, arg: str | None, events: list[JsonDict]) -> Any:
        """The state after the legal step ``verb arg``."""
        raise NotImplementedError

    def forfeit(self, t: Any, seat: int, events: list[JsonDict]) -> None:
        """End the sheet ``t`` (a clone) because ``seat`` left."""
        raise NotImplementedError

    def new_deal(self, options: Any, players: int, rng: random.Random, history: list[JsonDict]) -> str:
        return "start"

    def to_act(self, s: Sheet) -> list[int]:
        return list(range(s.players)) if s.started and s.result is None else []

    def legal_actions(self, s: Sheet, seat: int) -> list[str]:
        return self.steps(s) if seat in self.to_act(s) else []

    def apply(self, s: Sheet, seat: int | None, action: str) -> tuple[Any, list[JsonDict]]:
        if not isinstance(action, str) or not action.split():
            raise common_error("bad_syntax", action=action, detail="the action is empty")
        parts = action.split()
        verb = parts[0]
        events: list[JsonDict] = []
        if s.result is not None:
            raise common_error("game_over")
        if verb in ("start", "forfeit"):
            if seat is not None:
                raise common_error("system_only", verb=verb)
            if verb == "start":
                if s.started or len(parts) != 1:
                    raise common_error("wrong_phase", verb="start")
                t = s.clone()
                t.started = True
                events.append({"type": "sheet_started"})
                return t, events
            if len(parts) != 2 or parts[1] not in [str(x) for x in range(s.players)]:
                raise common_error("bad_syntax", action=action, detail=f"expected 'forfeit <seat 0-{s.players - 1}>'")
            t = s.clone()
            self.forfeit(t, int(parts[1]), events)
            return t, events
        if seat not in self.to_act(s):
            raise common_error("not_your_turn", waiting="the start" if not s.started else "nobody")
        if action.strip() not in self.steps(s):
            if verb not in self.step_verbs:
                raise common_error("bad_syntax", action=action, detail=f"unknown step {verb!r}")
            raise common_error("wrong_phase", verb=action.strip())
        t = self.step(s, verb, parts[1] if len(parts) > 1 else None, events)
        events.append({"type": "step", "seat": seat, "action": action.strip()})
        return t, events

    def is_over(self, s: Any) -> bool:  # a sheet has no phase: over once it has a result
        return s.result is not None

    def computer_action(
        self, view: JsonDict, legal: list[str], rng: random.Random, level: str = "", deadline: Deadline = NEVER
    ) -> str:
        """Nobody plays a score sheet; a timer's "computer moves" cancels the pending entry."""
        # level: every game takes one (engine.base.Game); no computer plays a score sheet
        return "cancel" if "cancel" in legal else legal[0]
