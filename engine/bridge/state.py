"""The state of one rubber of bridge: plain lists, dicts and ints, cheap to clone and dump.

Lists shared between states are never changed in place once a state has been returned
from ``apply``: ``clone`` copies what a move may change (hands, calls, the trick, the
counters); the sheet, the finished tricks and the board records are replaced, not mutated.
"""

from __future__ import annotations

import json
from typing import Any

from engine.jsondata import JsonDict
from engine.tricks import Trick

from .options import BridgeOptions, parse_options, scoring_table
from .scoring import Contract, Sheet

PHASES = ("deal", "auction", "play", "claim", "over")


class State:
    __slots__ = (
        "options",
        "table",
        "phase",
        "board",
        "next_board",
        "dealer",
        "next_dealer",
        "hands",
        "dealt",
        "vul",
        "calls",
        "contract",
        "declarer",
        "trick",
        "tricks",
        "won",
        "dummy_open",
        "claim",
        "claim_shown",
        "sheet",
        "boards",
        "last",
        "result",
    )

    def __init__(self, options: BridgeOptions) -> None:
        self.options = options
        self.table = scoring_table(options)
        self.phase = "deal"
        self.board: int | None = None  # board number of the current deal
        self.next_board = 1
        self.dealer: int | None = None  # dealer of the current deal
        self.next_dealer: int | None = None  # None: the first deal of the match (any dealer)
        self.hands: list[list[str]] = [[], [], [], []]
        self.dealt: list[list[str]] = [[], [], [], []]  # the hands as dealt (honours, PBN)
        self.vul = {"NS": False, "EW": False}  # fixed at the start of the deal
        self.calls: list[str] = []
        self.contract: Contract | None = None
        self.declarer: int | None = None
        self.trick: Trick | None = None
        self.tricks: list[JsonDict] = []  # finished tricks: {"leader", "plays", "winner"}
        self.won = {"NS": 0, "EW": 0}
        self.dummy_open = False
        self.claim: JsonDict | None = None  # {"tricks": k, "answers": {"1": true, ...}}
        self.claim_shown = False  # the declarer's hand was shown for a claim
        self.sheet = Sheet(self.table)
        self.boards: list[JsonDict] = []  # records of the finished deals (PBN export)
        self.last: JsonDict | None = None  # summary of the last finished deal
        self.result: JsonDict | None = None

    @property
    def dummy(self) -> int | None:
        return None if self.declarer is None else (self.declarer + 2) % 4

    def clone(self) -> "State":
        s = State.__new__(State)
        s.options = self.options
        s.table = self.table
        s.phase = self.phase
        s.board = self.board
        s.next_board = self.next_board
        s.dealer = self.dealer
        s.next_dealer = self.next_dealer
        s.hands = [h[:] for h in self.hands]
        s.dealt = self.dealt
        s.vul = self.vul
        s.calls = self.calls[:]
        s.contract = self.contract
        s.declarer = self.declarer
        s.trick = Trick(self.trick.leader, self.trick.plays[:]) if self.trick is not None else None
        s.tricks = self.tricks[:]
        s.won = dict(self.won)
        s.dummy_open = self.dummy_open
        s.claim = (
            {"tricks": self.claim["tricks"], "answers": dict(self.claim["answers"])} if self.claim is not None else None
        )
        s.claim_shown = self.claim_shown
        s.sheet = self.sheet  # replaced by a clone before it is written to
        s.boards = self.boards  # replaced, never appended to
        s.last = self.last
        s.result = self.result
        return s

    # ---- serialisation -------------------------------------------------------------
    def dump(self) -> dict[str, Any]:
        return {
            "game": "bridge",
            "rules_version": 1,
            "options": self.options.model_dump(),
            "phase": self.phase,
            "board": self.board,
            "next_board": self.next_board,
            "dealer": self.dealer,
            "next_dealer": self.next_dealer,
            "hands": [list(h) for h in self.hands],
            "dealt": [list(h) for h in self.dealt],
            "vul": dict(self.vul),
            "calls": list(self.calls),
            "contract": self.contract.to_dict() if self.contract else None,
            "declarer": self.declarer,
            "trick": self.trick.to_dict() if self.trick is not None else None,
            "tricks": [
                {"leader": t["leader"], "plays": [list(p) for p in t["plays"]], "winner": t["winner"]}
                for t in self.tricks
            ],
            "won": dict(self.won),
            "dummy_open": self.dummy_open,
            "claim": {"tricks": self.claim["tricks"], "answers": dict(self.claim["answers"])}
            if self.claim is not None
            else None,
            "claim_shown": self.claim_shown,
            "sheet": self.sheet.dump(),
            "boards": _json_copy(self.boards),
            "last": _json_copy(self.last),
            "result": _json_copy(self.result),
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> "State":
        s = cls(parse_options(data["options"]))
        s.phase = data["phase"]
        if s.phase not in PHASES:
            raise ValueError(f"unknown phase {s.phase!r}")
        s.board = data["board"]
        s.next_board = data["next_board"]
        s.dealer = data["dealer"]
        s.next_dealer = data["next_dealer"]
        s.hands = [list(h) for h in data["hands"]]
        s.dealt = [list(h) for h in data["dealt"]]
        s.vul = dict(data["vul"])
        s.calls = list(data["calls"])
        s.contract = Contract.from_dict(data["contract"]) if data["contract"] else None
        s.declarer = data["declarer"]
        s.trick = Trick.from_dict(data["trick"]) if data["trick"] is not None else None
        s.tricks = [
            {"leader": t["leader"], "plays": [tuple(p) for p in t["plays"]], "winner": t["winner"]}
            for t in data["tricks"]
        ]
        s.won = dict(data["won"])
        s.dummy_open = data["dummy_open"]
        s.claim = (
            {"tricks": data["claim"]["tricks"], "answers": dict(data["claim"]["answers"])}
            if data["claim"] is not None
            else None
        )
        s.claim_shown = data["claim_shown"]
        s.sheet = Sheet.load(data["sheet"], s.table)
        s.boards = _json_copy(data["boards"])
        s.last = _json_copy(data["last"])
        s.result = _json_copy(data["result"])
        return s


def _json_copy(value: Any) -> Any:
    """A deep copy of plain JSON data (tuples become lists, as JSON would make them)."""
    if value is None:
        return None
    return json.loads(json.dumps(value))
