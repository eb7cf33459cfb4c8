"""King's game state: plain lists, dicts and ints, cheap to clone and to dump.

Seats 0..3 are N, E, S, W clockwise (seat ``i + 1`` sits on seat ``i``'s left).
The whole 12-deal game is one state; ``sheet`` keeps one entry per scored deal.
Lists held by a state are never changed in place once the state has been returned
from ``apply`` (engine/state.py): ``clone`` copies every list that a handler may change;
the trump deal's deck and the turned cards are replaced, never changed, so they are shared.
"""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict, copy_json
from engine.state import DICT_LISTS, LIST, LISTS, GameState, game_state, state_field

from .options import KingOptions, parse_options

PHASES = ("deal", "choose", "play", "count", "domino", "over")


@game_state
class State(GameState):
    HEADER = {"game": "king", "rules_version": 1}
    PHASES = PHASES

    options: KingOptions = state_field(dump=lambda o: copy_json(options_json(o)), load=lambda v, s: parse_options(v))
    n: int = state_field(key="players", load=lambda v, s: int(v))
    phase: str = state_field(default="deal")
    deal_no: int = state_field(default=0)  # the current (or last scored) deal, 1..12
    first_dealer: int | None = state_field(default=None)  # dealer of deal 1
    dealer: int | None = state_field(default=None)
    deck: list[str] = state_field(default_factory=list)  # a trump deal's deck, during the trump choice only
    hands: list[list[str]] = state_field(copy=LISTS, init=False)
    trump: str | None = state_field(default=None)
    trump_mode: str | None = state_field(default=None)  # "name" | "until" | "highest"
    trump_asked: str | None = state_field(default=None)  # the suit named or asked for
    turned: list[str] = state_field(default_factory=list)  # cards turned face up for the chooser (public)
    leader: int | None = state_field(default=None)  # who leads the current trick
    # the current trick: [seat, card] in play order (JSON pairs)
    plays: list[list[Any]] = state_field(default_factory=list, copy=LIST)
    winners: list[int] = state_field(default_factory=list, copy=LIST)  # winner of each finished trick of this deal
    won: list[list[str]] = state_field(copy=LISTS, init=False)  # cards each seat took this deal
    last_trick: JsonDict | None = state_field(default=None)  # {"no", "plays", "winner"}
    turn: int | None = state_field(default=None)  # whose turn in deals 7 and 8
    pile: list[list[Any]] = state_field(default_factory=list, copy=LIST)  # deal 7: [seat, card] laid so far
    total: int = state_field(default=0)  # deal 7: the running total
    awards: list[int | None] = state_field(default_factory=list, copy=LIST)  # deal 7: who crossed each threshold
    # deal 8: suit -> [lowest rank, highest rank]
    rows: dict[str, list[str]] = state_field(default_factory=dict, copy=DICT_LISTS)
    passed: list[int] = state_field(default_factory=list, copy=LIST)  # deal 8: seats that passed since the last card
    out: list[int] = state_field(default_factory=list, copy=LIST)  # deal 8: seats out of cards, in order
    sheet: list[JsonDict] = state_field(default_factory=list, copy=LIST)  # one entry per scored deal
    result: JsonDict | None = state_field(default=None)

    def __post_init__(self) -> None:
        self.hands = [[] for _ in range(self.n)]
        self.won = [[] for _ in range(self.n)]

    @property
    def first(self) -> int | None:
        """F, the dealer's left neighbour: leads, lays or chooses first."""
        return None if self.dealer is None else (self.dealer + 1) % self.n


_OPTIONS_JSON: dict[int, tuple[Any, JsonDict]] = {}


def options_json(options: Any) -> JsonDict:
    """``options.model_dump(mode="json")``, cached per options object (views and dumps are
    hot). Callers copy it before handing it out."""
    hit = _OPTIONS_JSON.get(id(options))
    if hit is None or hit[0] is not options:
        if len(_OPTIONS_JSON) > 256:
            _OPTIONS_JSON.clear()
        hit = _OPTIONS_JSON[id(options)] = (options, options.model_dump(mode="json"))
    return hit[1]
