"""Тысяча's state: plain lists and ints. Seats 0..n-1 clockwise; with four players the
dealer sits the deal out (``active`` are the three dealt in). Lists are replaced, never
changed in place once a state has left ``apply``, except those ``clone`` copies."""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict
from engine.state import LIST, LISTS, GameState, game_state, state_field

from .options import ThousandOptions, check_players, parse_options

PHASES = ("deal", "bid", "give", "raise", "play", "over")


@game_state
class State(GameState):
    HEADER = {"game": "thousand", "rules_version": 1}
    PHASES = PHASES

    options: ThousandOptions = state_field(dump=lambda o: o.dump(), load=lambda v, s: parse_options(v))
    players: int = state_field()
    phase: str = state_field(default="deal")
    deal_no: int = state_field(default=0)
    dealer: int | None = state_field(default=None)
    next_dealer: int = state_field(default=0)
    active: list[int] = state_field(default_factory=list)
    hands: list[list[str]] = state_field(default_factory=list, copy=LISTS)
    talon: list[str] = state_field(default_factory=list)  # the прикуп, public once the auction ends
    # auction (§2)
    turn: int | None = state_field(default=None)
    high: int | None = state_field(default=None)
    declarer: int | None = state_field(default=None)
    passed: list[int] = state_field(default_factory=list)
    opened: bool = state_field(default=False)  # the forehand has made its compulsory first bid
    blind: bool = state_field(default=False)  # §6.5: the forehand has not looked at its cards
    dark: bool = state_field(default=False)
    # the declarer's gifts (§2.5), [to, card]: seen by giver and receiver only
    gifts: list[list[Any]] = state_field(default_factory=list)
    # play (§3, §4)
    trump: str | None = state_field(default=None)
    leader: int | None = state_field(default=None)
    plays: list[list[Any]] = state_field(default_factory=list, copy=LIST)  # [seat, card] of the trick on the table
    played: list[list[Any]] = state_field(default_factory=list)  # [seat, card] of the finished tricks
    taken: list[int] = state_field(default_factory=list, copy=LIST)  # card points won, per seat
    tricks: list[int] = state_field(default_factory=list, copy=LIST)
    married: list[int] = state_field(default_factory=list, copy=LIST)  # marriage points announced
    marriages: list[list[Any]] = state_field(default_factory=list)  # [seat, suit] in order
    last_trick: JsonDict | None = state_field(default=None)
    # the sheet (§5, §6)
    totals: list[int] = state_field(default_factory=list)
    bolts: list[int] = state_field(default_factory=list)
    barrel: list[int | None] = state_field(default_factory=list)
    entries: list[JsonDict] = state_field(default_factory=list)
    result: JsonDict | None = state_field(default=None)

    def __post_init__(self) -> None:
        if not self.totals:
            self.totals = [0] * self.players
            self.bolts = [0] * self.players
            self.barrel = [None] * self.players

    def next_active(self, seat: int) -> int:
        i = self.active.index(seat)
        return self.active[(i + 1) % len(self.active)]

    def to_play(self) -> int:
        assert self.leader is not None
        seat = self.leader
        for _ in self.plays:
            seat = self.next_active(seat)
        return seat


def initial_state(options: Any, players: int) -> State:
    return State(parse_options(options), check_players(players))
