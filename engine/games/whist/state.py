"""Whist's game state: plain lists and ints, cheap to clone and to dump.

Seats 0..3 = N, E, S, W, clockwise; N–S and E–W are partners (side index = seat % 2).
Lists held by a state are never changed in place once the state has left ``apply``
(engine/state.py): ``clone`` copies the hands and the trick, and the won-trick piles and the sheet are
replaced, never mutated, so they can be shared between states.
"""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict
from engine.state import LISTS, LIST, GameState, game_state, state_field

from .options import WhistOptions, parse_options
from .scoring import Sheet

PHASES = ("deal", "trump", "play", "vote", "over")
SEAT_LETTERS = "NESW"


def _copy_trick(trick: JsonDict | None) -> JsonDict | None:
    if trick is None:
        return None
    return {"leader": trick["leader"], "plays": [[s, c] for s, c in trick["plays"]], "winner": trick["winner"]}


def _copy_entry(entry: JsonDict) -> JsonDict:
    return {"tricks": dict(entry["tricks"]), "honours": dict(entry["honours"])}


def _dump_pairs(pairs: list[Any]) -> list[list[Any]]:
    return [[p, c] for p, c in pairs]


@game_state
class State(GameState):
    HEADER = {"game": "whist", "rules_version": 1, "players": 4}
    PHASES = PHASES
    # snapshots from before "played" existed: only the last trick is known
    OLD_DUMP_DEFAULTS = {"played": lambda data: []}

    options: WhistOptions = state_field(dump=lambda o: o.dump(), load=lambda v, s: parse_options(v))
    options_json: JsonDict = state_field(init=False, dumped=False)  # shared by every state of the match; read-only
    phase: str = state_field(default="deal")
    deal_no: int = state_field(default=0)  # deals dealt in this match
    dealer: int | None = state_field(default=None)
    next_dealer: int = state_field(init=False)
    hands: list[list[str]] = state_field(default_factory=lambda: [[], [], [], []], copy=LISTS)
    trump: str | None = state_field(default=None)
    turn_up: str | None = state_field(default=None)  # the dealer's 52nd card (turn_up method)
    dealer_played: bool = state_field(default=False)  # the turned-up card is public until then
    chooser: int | None = state_field(default=None)  # dealer_names: who names the trump now
    delegated: bool = state_field(default=False)
    leader: int | None = state_field(default=None)  # who led the trick in progress
    plays: list[tuple[int, str]] = state_field(
        default_factory=list, copy=LIST, dump=_dump_pairs, load=lambda v, s: [(int(p[0]), p[1]) for p in v]
    )  # the trick in progress
    # cards of the tricks won, per side (NS, EW); each pile is replaced, never changed
    won: list[list[str]] = state_field(default_factory=lambda: [[], []], copy=LIST)
    last_trick: JsonDict | None = state_field(
        default=None, dump=_copy_trick, load=lambda v, s: _copy_trick(v)
    )  # {"leader", "plays", "winner"}
    # [seat, card] of this deal's finished tricks, in order (JSON pairs)
    played: list[list[Any]] = state_field(
        default_factory=list, dump=_dump_pairs, load=lambda v, s: [[int(p), c] for p, c in v]
    )
    held: list[int] = state_field(default_factory=lambda: [0, 0], copy=LIST)  # trump honours held as dealt, per side
    sheet: Sheet = state_field(
        init=False,
        key="entries",
        dump=lambda sh: [_copy_entry(e) for e in sh.entries],
        load=lambda v, s: Sheet.replay(s.options, v),
    )
    votes: list[int] = state_field(default_factory=list, copy=LIST)  # seats that want another rubber (no limit)
    result: JsonDict | None = state_field(default=None)

    def __post_init__(self) -> None:
        self.options_json = self.options.dump()
        self.next_dealer = self.options.first_dealer_seat
        self.sheet = Sheet(self.options)

    @property
    def tricks(self) -> list[int]:
        return [len(self.won[0]) // 4, len(self.won[1]) // 4]

    def to_play(self) -> int:
        assert self.leader is not None, "asked only while a trick is played"
        return (self.leader + len(self.plays)) % 4


def initial_state(options: Any, players: int) -> State:
    from .options import check_players

    opts = parse_options(options)
    check_players(players)
    return State(opts)
