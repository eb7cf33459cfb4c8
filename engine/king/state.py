"""King's game state: plain lists, dicts and ints, cheap to clone and to dump.

Seats 0..3 are N, E, S, W clockwise (seat ``i + 1`` sits on seat ``i``'s left).
The whole 12-deal game is one state; ``sheet`` keeps one entry per scored deal.
Lists held by a state are never changed in place once the state has been returned
from ``apply``: ``clone`` copies every list that a handler may change.
"""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict, copy_json

from .options import KingOptions, parse_options

PHASES = ("deal", "choose", "play", "count", "domino", "over")


class State:
    __slots__ = (
        "options",
        "n",
        "phase",
        "deal_no",
        "first_dealer",
        "dealer",
        "deck",
        "hands",
        "trump",
        "trump_mode",
        "trump_asked",
        "turned",
        "leader",
        "plays",
        "winners",
        "won",
        "last_trick",
        "turn",
        "pile",
        "total",
        "awards",
        "rows",
        "passed",
        "out",
        "sheet",
        "result",
    )

    def __init__(self, options: KingOptions, n: int = 4) -> None:
        self.options = options
        self.n = n
        self.phase = "deal"
        self.deal_no = 0  # the current (or last scored) deal, 1..12
        self.first_dealer: int | None = None  # dealer of deal 1
        self.dealer: int | None = None
        self.deck: list[str] = []  # a trump deal's deck, during the trump choice only
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.trump: str | None = None
        self.trump_mode: str | None = None  # "name" | "until" | "highest"
        self.trump_asked: str | None = None  # the suit named or asked for
        self.turned: list[str] = []  # cards turned face up for the chooser (public)
        self.leader: int | None = None  # who leads the current trick
        self.plays: list[list[Any]] = []  # the current trick: [seat, card] in play order (JSON pairs)
        self.winners: list[int] = []  # winner of each finished trick of this deal
        self.won: list[list[str]] = [[] for _ in range(n)]  # cards each seat took this deal
        self.last_trick: JsonDict | None = None  # {"no", "plays", "winner"}
        self.turn: int | None = None  # whose turn in deals 7 and 8
        self.pile: list[list[Any]] = []  # deal 7: [seat, card] laid so far (JSON pairs)
        self.total = 0  # deal 7: the running total
        self.awards: list[int | None] = []  # deal 7: seat that crossed each threshold
        self.rows: dict[str, list[str]] = {}  # deal 8: suit -> [lowest rank, highest rank]
        self.passed: list[int] = []  # deal 8: seats that passed since the last card
        self.out: list[int] = []  # deal 8: seats out of cards, in order
        self.sheet: list[JsonDict] = []  # one entry per scored deal
        self.result: JsonDict | None = None

    @property
    def first(self) -> int | None:
        """F, the dealer's left neighbour: leads, lays or chooses first."""
        return None if self.dealer is None else (self.dealer + 1) % self.n

    def clone(self) -> "State":
        s = State.__new__(State)
        s.options = self.options
        s.n = self.n
        s.phase = self.phase
        s.deal_no = self.deal_no
        s.first_dealer = self.first_dealer
        s.dealer = self.dealer
        s.deck = self.deck  # replaced, never mutated
        s.hands = [h[:] for h in self.hands]
        s.trump = self.trump
        s.trump_mode = self.trump_mode
        s.trump_asked = self.trump_asked
        s.turned = self.turned  # replaced, never mutated
        s.leader = self.leader
        s.plays = self.plays[:]
        s.winners = self.winners[:]
        s.won = [w[:] for w in self.won]
        s.last_trick = self.last_trick
        s.turn = self.turn
        s.pile = self.pile[:]
        s.total = self.total
        s.awards = self.awards[:]
        s.rows = {k: v[:] for k, v in self.rows.items()}
        s.passed = self.passed[:]
        s.out = self.out[:]
        s.sheet = self.sheet[:]
        s.result = self.result
        return s

    # ---- serialisation -------------------------------------------------------------
    def dump(self) -> dict[str, Any]:
        return {
            "game": "king",
            "rules_version": 1,
            "players": self.n,
            "options": copy_json(options_json(self.options)),
            "phase": self.phase,
            "deal_no": self.deal_no,
            "first_dealer": self.first_dealer,
            "dealer": self.dealer,
            "deck": list(self.deck),
            "hands": [list(h) for h in self.hands],
            "trump": self.trump,
            "trump_mode": self.trump_mode,
            "trump_asked": self.trump_asked,
            "turned": list(self.turned),
            "leader": self.leader,
            "plays": [list(p) for p in self.plays],
            "winners": list(self.winners),
            "won": [list(w) for w in self.won],
            "last_trick": copy_json(self.last_trick),
            "turn": self.turn,
            "pile": [list(p) for p in self.pile],
            "total": self.total,
            "awards": list(self.awards),
            "rows": {k: list(v) for k, v in self.rows.items()},
            "passed": list(self.passed),
            "out": list(self.out),
            "sheet": [copy_json(e) for e in self.sheet],
            "result": copy_json(self.result),
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> "State":
        s = cls(parse_options(data["options"]), int(data["players"]))
        s.phase = data["phase"]
        if s.phase not in PHASES:
            raise ValueError(f"unknown phase {s.phase!r}")
        s.deal_no = data["deal_no"]
        s.first_dealer = data["first_dealer"]
        s.dealer = data["dealer"]
        s.deck = list(data["deck"])
        s.hands = [list(h) for h in data["hands"]]
        s.trump = data["trump"]
        s.trump_mode = data["trump_mode"]
        s.trump_asked = data["trump_asked"]
        s.turned = list(data["turned"])
        s.leader = data["leader"]
        s.plays = [list(p) for p in data["plays"]]
        s.winners = list(data["winners"])
        s.won = [list(w) for w in data["won"]]
        s.last_trick = copy_json(data["last_trick"])
        s.turn = data["turn"]
        s.pile = [list(p) for p in data["pile"]]
        s.total = data["total"]
        s.awards = list(data["awards"])
        s.rows = {k: list(v) for k, v in data["rows"].items()}
        s.passed = list(data["passed"])
        s.out = list(data["out"])
        s.sheet = [copy_json(e) for e in data["sheet"]]
        s.result = copy_json(data["result"])
        return s


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
