"""The preferans game state: one whole pulka (many hands) as plain values.

Seats 0, 1, 2 = A, B, C, clockwise. ``clone`` (engine/state.py) copies everything a
handler may change; the sheet (``Pull``) is immutable and shared.
"""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict
from engine.state import DICT, LIST, LISTS, GameState, game_state, state_field

from .options import PreferansOptions, parse_options
from .scoring import Pull

PHASES = ("deal", "auction", "naming", "discard", "contract", "defence", "kontra", "play", "over")


@game_state
class State(GameState):
    HEADER = {"game": "preferans", "rules_version": 1}
    PHASES = PHASES
    # fields added after the first release, with their value in an old snapshot
    OLD_DUMP_DEFAULTS = {"played": lambda data: []}

    options: PreferansOptions = state_field(dump=lambda o: o.model_dump(), load=lambda v, s: parse_options(v))
    phase: str = state_field(default="deal")
    hand_no: int = state_field(default=0)
    dealer: int | None = state_field(default=None)
    hands: list[list[str]] = state_field(default_factory=lambda: [[], [], []], copy=LISTS)
    talon: list[str] = state_field(default_factory=list, copy=LIST)
    discards: list[str] = state_field(default_factory=list, copy=LIST)
    talon_public: bool = state_field(default=False)
    # auction
    calls: list[list[Any]] = state_field(default_factory=list, copy=LIST)  # [seat, call] in order, e.g. [0, "bid 2"]
    high: int | None = state_field(default=None)
    holder: int | None = state_field(default=None)
    passed: list[bool] = state_field(default_factory=lambda: [False, False, False], copy=LIST)
    called: list[bool] = state_field(default_factory=lambda: [False, False, False], copy=LIST)
    igra_said: list[bool] = state_field(default_factory=lambda: [False, False, False], copy=LIST)
    turn: int | None = state_field(default=None)  # whose call / decision / card it is
    # igra naming
    callers: list[int] = state_field(default_factory=list, copy=LIST)  # callers in priority order
    conceded: list[int] = state_field(default_factory=list, copy=LIST)
    named: int | None = state_field(default=None)  # the igra contract number named or held last
    named_by: int | None = state_field(default=None)
    # contract
    declarer: int | None = state_field(default=None)
    bid: int | None = state_field(default=None)  # winning number (None after igra)
    igra: bool = state_field(default=False)
    number: int | None = state_field(default=None)  # the contract
    # defence and kontra
    defence: dict[int, str] = state_field(  # defender -> play | pass | invite | invited
        default_factory=dict,
        copy=DICT,
        dump=lambda d: {str(k): v for k, v in d.items()},
        load=lambda v, s: {int(k): x for k, x in v.items()},
    )
    kontra: list[int] = state_field(default_factory=list, copy=LIST)  # K
    level: int = state_field(default=0)
    kstage: str | None = state_field(default=None)  # "round" | "decl" | "def"
    kqueue: list[int] = state_field(default_factory=list, copy=LIST)
    kindex: int = state_field(default=0)
    # play
    trick_leader: int | None = state_field(default=None)
    trick: list[list[Any]] = state_field(default_factory=list, copy=LIST)  # [seat, card] plays of the current trick
    last_trick: list[list[Any]] = state_field(default_factory=list, copy=LIST)
    won: list[int] = state_field(default_factory=lambda: [0, 0, 0], copy=LIST)
    tricks_played: int = state_field(default=0)
    # this hand's finished tricks, [[seat, card], ...] each (public)
    played: list[list[list[Any]]] = state_field(default_factory=list, copy=LIST)
    # sheet and results: the sheet is immutable, shared by the states
    pull: Pull = state_field(init=False, dump=lambda p: p.to_json(), load=lambda v, s: Pull.from_json(v))
    last_row: JsonDict | None = state_field(default=None)  # what the last finished hand wrote (public)
    result: JsonDict | None = state_field(default=None)

    def __post_init__(self) -> None:
        self.pull = Pull.start(self.options.bula)

    @property
    def fh(self) -> int:
        assert self.dealer is not None, "asked only after the deal"
        return (self.dealer + 1) % 3

    def priority(self, seat: int) -> int:
        """0 for first hand, 1 second hand, 2 the dealer."""
        assert self.dealer is not None, "asked only after the deal"
        return (seat - self.dealer - 1) % 3
