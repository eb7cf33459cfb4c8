"""The state of one rubber of bridge: plain lists, dicts and ints, cheap to clone and dump.

Lists shared between states are never changed in place once a state has been returned
from ``apply`` (engine/state.py): ``clone`` copies what a move may change (hands, calls, the trick, the
counters); the sheet, the finished tricks and the board records are replaced, not mutated.
"""

from __future__ import annotations

import json
from typing import Any

from engine.jsondata import JsonDict
from engine.state import DICT, LIST, LISTS, GameState, game_state, state_field
from engine.tricks import Trick

from .options import BridgeOptions, parse_options, scoring_table
from .scoring import Contract, Sheet

PHASES = ("deal", "auction", "play", "claim", "over")


def _copy_trick(trick: Trick | None) -> Trick | None:
    return trick.copy() if trick is not None else None


def _copy_claim(claim: JsonDict | None) -> JsonDict | None:
    return {"tricks": claim["tricks"], "answers": dict(claim["answers"])} if claim is not None else None


def _dump_tricks(tricks: list[JsonDict]) -> list[JsonDict]:
    return [{"leader": t["leader"], "plays": [list(p) for p in t["plays"]], "winner": t["winner"]} for t in tricks]


def _load_tricks(tricks: list[JsonDict], s: Any) -> list[JsonDict]:
    return [{"leader": t["leader"], "plays": [tuple(p) for p in t["plays"]], "winner": t["winner"]} for t in tricks]


def _json_copy(value: Any) -> Any:
    """A deep copy of plain JSON data (tuples become lists, as JSON would make them)."""
    if value is None:
        return None
    return json.loads(json.dumps(value))


def _load_json_copy(value: Any, s: Any) -> Any:
    return _json_copy(value)


@game_state
class State(GameState):
    HEADER = {"game": "bridge", "rules_version": 1}
    PHASES = PHASES

    options: BridgeOptions = state_field(dump=lambda o: o.model_dump(), load=lambda v, s: parse_options(v))
    table: JsonDict = state_field(init=False, dumped=False)  # from the options
    phase: str = state_field(default="deal")
    board: int | None = state_field(default=None)  # board number of the current deal
    next_board: int = state_field(default=1)
    dealer: int | None = state_field(default=None)  # dealer of the current deal
    next_dealer: int | None = state_field(default=None)  # None: the first deal of the match (any dealer)
    hands: list[list[str]] = state_field(default_factory=lambda: [[], [], [], []], copy=LISTS)
    # the hands as dealt (honours, PBN)
    dealt: list[list[str]] = state_field(default_factory=lambda: [[], [], [], []])
    vul: dict[str, bool] = state_field(default_factory=lambda: {"NS": False, "EW": False})  # fixed at the deal
    calls: list[str] = state_field(default_factory=list, copy=LIST)
    contract: Contract | None = state_field(
        default=None,
        dump=lambda c: c.to_dict() if c else None,
        load=lambda v, s: Contract.from_dict(v) if v else None,
    )
    declarer: int | None = state_field(default=None)
    trick: Trick | None = state_field(
        default=None,
        copy=_copy_trick,
        dump=lambda t: t.to_dict() if t is not None else None,
        load=lambda v, s: Trick.from_dict(v) if v is not None else None,
    )
    # finished tricks: {"leader", "plays", "winner"}
    tricks: list[JsonDict] = state_field(default_factory=list, copy=LIST, dump=_dump_tricks, load=_load_tricks)
    won: dict[str, int] = state_field(default_factory=lambda: {"NS": 0, "EW": 0}, copy=DICT)
    dummy_open: bool = state_field(default=False)
    # {"tricks": k, "answers": {"1": true, ...}}
    claim: JsonDict | None = state_field(default=None, copy=_copy_claim)
    claim_shown: bool = state_field(default=False)  # the declarer's hand was shown for a claim
    # replaced by a clone before it is written to
    sheet: Sheet = state_field(init=False, dump=lambda sh: sh.dump(), load=lambda v, s: Sheet.load(v, s.table))
    boards: list[JsonDict] = state_field(
        default_factory=list, dump=_json_copy, load=_load_json_copy
    )  # records of the finished deals (PBN)
    last: JsonDict | None = state_field(
        default=None, dump=_json_copy, load=_load_json_copy
    )  # summary of the last finished deal
    result: JsonDict | None = state_field(default=None, dump=_json_copy, load=_load_json_copy)

    def __post_init__(self) -> None:
        self.table = scoring_table(self.options)
        self.sheet = Sheet(self.table)

    @property
    def dummy(self) -> int | None:
        return None if self.declarer is None else (self.declarer + 2) % 4
