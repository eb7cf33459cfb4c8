"""The Russian preferans game state: one whole pulka (many deals) as plain values.

Seats 0..n-1 clockwise (n = 3, or 4 with the dealer sitting out of his deal, §3.1).
Everything but ``options`` and ``sheet`` is JSON-able as it is, so ``dump``/``load``
are generic; ``clone`` copies the lists a handler may change.
"""

from __future__ import annotations

import copy
from typing import Any

from .options import PreferansRuOptions, parse_options
from .scoring import Sheet

PHASES = ("deal", "auction", "discard", "contract", "whist", "open_choice", "play", "over")
SEAT_NAMES = "ABCD"

# lists copied by ``clone`` (the rest are immutable values or replaced wholesale)
_LISTS = (
    "hands",
    "talon",
    "discards",
    "calls",
    "passed",
    "called",
    "whist",
    "whist_calls",
    "open_seats",
    "trick",
    "won",
    "played",
    "turned",
    "record_hands",
)


class State:
    __slots__ = (
        "options",
        "players",
        "phase",
        "hand_no",
        "dealer",
        "dealer_repeats",
        "next_dealer",
        "hands",
        "talon",
        "talon_public",
        "discards",
        # auction §5.1
        "calls",
        "high",
        "holder",
        "passed",
        "called",
        "misere_bidder",
        "turn",
        # contract §5.2
        "declarer",
        "bid",
        "contract",
        "raspasy",
        # whist §5.3
        "whist",
        "whist_calls",
        "whist_stage",
        "lone",
        "open",
        # open hands: which seats lie face up, when they open, whether they have
        "open_seats",
        "open_at",
        "opened",
        # play §5.4
        "trick_leader",
        "trick",
        "won",
        "tricks_played",
        "played",
        "turned",
        # sheet
        "series",
        "record_hands",
        "sheet",
        "last_row",
        "result",
    )

    def __init__(self, options: PreferansRuOptions, players: int) -> None:
        self.options = options
        self.players = players
        self.phase = "deal"
        self.hand_no = 0
        self.dealer: int | None = None
        self.dealer_repeats = 0  # deals in a row by this dealer after распасы (option)
        self.next_dealer: int | None = None  # who deals next (None: the first deal)
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.talon: list[str] = []
        self.talon_public = False  # turned face up for everyone (§5.2.1)
        self.discards: list[str] = []
        self.calls: list[list[Any]] = []  # [seat, call] of the auction, e.g. [0, "bid 6S"]
        self.high: str | None = None  # the highest bid so far, e.g. "7H", "MISERE"
        self.holder: int | None = None
        self.passed = [False] * players
        self.called = [False] * players
        self.misere_bidder: int | None = None
        self.turn: int | None = None  # whose hand is to move (the controller may differ, §5.3)
        self.declarer: int | None = None
        self.bid: str | None = None  # the winning bid
        self.contract: str | None = None  # "6S".."10NT" or "MISERE"
        self.raspasy = False
        self.whist: list[str | None] = [None] * players  # each defender's standing decision
        self.whist_calls: list[list[Any]] = []  # [seat, "whist"|"pass"|"half"] as said
        self.whist_stage: str | None = None  # "first" | "second" | "first_again"
        self.lone: int | None = None  # the lone whister (one whister, §5.3)
        self.open: bool | None = None  # his choice: в светлую / втёмную
        self.open_seats: list[int] = []  # hands that lie (or will lie) face up
        self.open_at: str | None = None  # "lead" | "trick" while they wait to open
        self.opened = False
        self.trick_leader: int | None = None
        self.trick: list[list[Any]] = []  # [seat, card] plays of the current trick
        self.won = [0] * players
        self.tricks_played = 0
        self.played: list[list[list[Any]]] = []  # finished tricks of this deal (public)
        self.turned: list[str] = []  # распасы talon cards turned so far (§5.4)
        self.series = 0  # consecutive распасы ending with the last deal (§5.5)
        self.record_hands: list[dict[str, Any]] = []  # every scored deal in the §9 record shape
        self.sheet = Sheet.new(tuple(SEAT_NAMES[:players]))
        self.last_row: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None

    def clone(self) -> State:
        s = State.__new__(State)
        for name in self.__slots__:
            setattr(s, name, getattr(self, name))
        for name in _LISTS:
            value = getattr(self, name)
            setattr(s, name, [x[:] if isinstance(x, list) else x for x in value])
        return s

    # ------------------------------------------------------------------ seats
    @property
    def active(self) -> list[int]:
        """The three seats that play this deal, clockwise from the first hand (§3.1)."""
        d = self.dealer if self.dealer is not None else self.players - 1
        seats = [(d + 1 + i) % self.players for i in range(self.players)]
        return seats[:3]

    @property
    def fh(self) -> int:
        return self.active[0]

    def next_active(self, seat: int) -> int:
        act = self.active
        return act[(act.index(seat) + 1) % 3]

    def priority(self, seat: int) -> int:
        """0 first hand, 1 second, 2 third (§5.1 «здесь»)."""
        return self.active.index(seat)

    def defenders(self) -> tuple[int, int]:
        """First and second defender: the declarer's left neighbour first (§4)."""
        assert self.declarer is not None
        d1 = self.next_active(self.declarer)
        return d1, self.next_active(d1)

    # ------------------------------------------------------------------ dump / load
    def dump(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": "preferans_ru", "rules_version": 1, "options": self.options.model_dump()}
        for name in self.__slots__:
            if name == "options":
                continue
            value = getattr(self, name)
            out[name] = value.to_json() if name == "sheet" else copy.deepcopy(value)
        return out

    @classmethod
    def load(cls, data: dict[str, Any]) -> State:
        s = cls(parse_options(data["options"]), int(data["players"]))
        for name in cls.__slots__:
            if name == "options":
                continue
            value = data[name]
            setattr(s, name, Sheet.from_json(value) if name == "sheet" else value)
        if s.phase not in PHASES:
            raise ValueError(f"unknown phase {s.phase!r}")
        return s
