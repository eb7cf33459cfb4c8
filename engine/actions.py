"""The checks that open every game's ``apply``, in one place.

Every game's actions are of two kinds: the system's (``deal``, ``forfeit``: applied with
``seat=None``, logged like any other) and the players' (applied with a seat number). Before
a game looks at its own rules, :meth:`Preamble.check` reads the action with the game's
parser and refuses, with the game's own error codes, what no rule could accept:

1. an action the parser cannot read: ``bad_syntax`` (raised by the parser);
2. any action once the game is over: ``game_over``;
3. a system verb from a seat: ``system_only``;
4. a player's verb from no seat: ``players_only`` for a game that has that code, else
   ``not_your_turn`` from the game's turn check (no seat ever has the turn);
5. a seat number outside the table: ``bad_syntax``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.errors import Builder

SYSTEM_VERBS = frozenset({"deal", "forfeit"})

Parser = Callable[[Any], tuple[str, list[str]]]
"""An action text -> (verb, its arguments); raises ``bad_syntax``."""


@dataclass(frozen=True, slots=True)
class Preamble:
    """One game's opening checks: its parser and its error builder."""

    parse: Parser
    error: Builder
    system_verbs: frozenset[str] = SYSTEM_VERBS
    # the game has a "players_only" code for a player's verb sent by the system
    players_only: bool = False

    def check(self, over: bool, seat: int | None, action: Any, players: int) -> tuple[str, list[str]]:
        """The parsed action, or the error that refuses it before any rule is read.
        ``over``: the game has ended; ``players``: the seats at the table."""
        verb, args = self.parse(action)
        if over:
            raise self.error("game_over")
        if verb in self.system_verbs:
            if seat is not None:
                raise self.error("system_only", verb=verb)
        elif seat is None:
            if self.players_only:
                raise self.error("players_only", verb=verb)
        elif type(seat) is not int or not 0 <= seat < players:
            raise self.error("bad_syntax", action=action, detail=f"no seat {seat!r}")
        return verb, args
