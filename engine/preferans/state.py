"""The preferans game state: one whole pulka (many hands) as plain values.

Seats 0, 1, 2 = A, B, C, clockwise. ``clone`` copies everything a handler may change;
the sheet (``Pull``) is immutable and shared.
"""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict

from .options import PreferansOptions, parse_options
from .scoring import Pull

# fields added after the first release, with their value for an old snapshot
OPTIONAL_FIELDS = {"played": list}

PHASES = ("deal", "auction", "naming", "discard", "contract", "defence", "kontra", "play", "over")


class State:
    __slots__ = (
        "options",
        "phase",
        "hand_no",
        "dealer",
        "hands",
        "talon",
        "discards",
        "talon_public",
        # auction
        "calls",
        "high",
        "holder",
        "passed",
        "called",
        "igra_said",
        "turn",
        # igra naming
        "callers",
        "conceded",
        "named",
        "named_by",
        # contract
        "declarer",
        "bid",
        "igra",
        "number",
        # defence and kontra
        "defence",
        "kontra",
        "level",
        "kstage",
        "kqueue",
        "kindex",
        # play
        "trick_leader",
        "trick",
        "last_trick",
        "won",
        "tricks_played",
        "played",
        # sheet and results
        "pull",
        "last_row",
        "result",
    )

    def __init__(self, options: PreferansOptions) -> None:
        self.options = options
        self.phase = "deal"
        self.hand_no = 0
        self.dealer: int | None = None
        self.hands: list[list[str]] = [[], [], []]
        self.talon: list[str] = []
        self.discards: list[str] = []
        self.talon_public = False
        self.calls: list[list[Any]] = []  # [seat, call] in order, e.g. [0, "bid 2"]
        self.high: int | None = None
        self.holder: int | None = None
        self.passed = [False, False, False]
        self.called = [False, False, False]
        self.igra_said = [False, False, False]
        self.turn: int | None = None  # whose call / decision / card it is
        self.callers: list[int] = []  # igra naming: callers in priority order
        self.conceded: list[int] = []
        self.named: int | None = None  # the igra contract number named or held last
        self.named_by: int | None = None
        self.declarer: int | None = None
        self.bid: int | None = None  # winning number (None after igra)
        self.igra = False
        self.number: int | None = None  # the contract
        self.defence: dict[int, str] = {}  # defender -> play | pass | invite | invited
        self.kontra: list[int] = []  # K
        self.level = 0
        self.kstage: str | None = None  # "round" | "decl" | "def"
        self.kqueue: list[int] = []
        self.kindex = 0
        self.trick_leader: int | None = None
        self.trick: list[list[Any]] = []  # [seat, card] plays of the current trick
        self.last_trick: list[list[Any]] = []
        self.won = [0, 0, 0]
        self.tricks_played = 0
        self.played: list[list[list[Any]]] = []  # this hand's finished tricks, [[seat, card], ...] each (public)
        self.pull = Pull.start(options.bula)
        self.last_row: JsonDict | None = None  # what the last finished hand wrote (public)
        self.result: JsonDict | None = None

    def clone(self) -> "State":
        s = State.__new__(State)
        for name in self.__slots__:
            setattr(s, name, getattr(self, name))
        s.hands = [h[:] for h in self.hands]
        s.talon = self.talon[:]
        s.discards = self.discards[:]
        s.calls = self.calls[:]
        s.passed = self.passed[:]
        s.called = self.called[:]
        s.igra_said = self.igra_said[:]
        s.callers = self.callers[:]
        s.conceded = self.conceded[:]
        s.defence = dict(self.defence)
        s.kontra = self.kontra[:]
        s.kqueue = self.kqueue[:]
        s.trick = self.trick[:]
        s.last_trick = self.last_trick[:]
        s.won = self.won[:]
        s.played = self.played[:]
        return s

    @property
    def fh(self) -> int:
        assert self.dealer is not None, "asked only after the deal"
        return (self.dealer + 1) % 3

    def priority(self, seat: int) -> int:
        """0 for first hand, 1 second hand, 2 the dealer."""
        assert self.dealer is not None, "asked only after the deal"
        return (seat - self.dealer - 1) % 3

    def dump(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": "preferans", "rules_version": 1, "options": self.options.model_dump()}
        for name in self.__slots__:
            if name == "options":
                continue
            value = getattr(self, name)
            if name == "pull":
                value = value.to_json()
            elif name == "defence":
                value = {str(k): v for k, v in value.items()}
            elif name == "played":
                value = [[list(p) for p in t] for t in value]
            elif isinstance(value, list):
                value = [list(x) if isinstance(x, (list, tuple)) else x for x in value]
            out[name] = value
        return out

    @classmethod
    def load(cls, data: dict[str, Any]) -> "State":
        s = cls(parse_options(data["options"]))
        for name in cls.__slots__:
            if name == "options":
                continue
            value: Any  # a field's JSON, converted below
            if name in OPTIONAL_FIELDS and name not in data:
                value = OPTIONAL_FIELDS[name]()  # a dump from before the field existed
            else:
                value = data[name]
            if name == "pull":
                value = Pull.from_json(value)
            elif name == "defence":
                value = {int(k): v for k, v in value.items()}
            elif name == "played":
                value = [[list(p) for p in t] for t in value]
            elif isinstance(value, list):
                value = [list(x) if isinstance(x, list) else x for x in value]
            setattr(s, name, value)
        if s.phase not in PHASES:
            raise ValueError(f"unknown phase {s.phase!r}")
        return s
