"""The Russian preferans game state: one whole pulka (many deals) as plain values.

Seats 0..n-1 clockwise (n = 3, or 4 with the dealer sitting out of his deal, §3.1).
Everything but ``options`` and ``sheet`` is JSON-able as it is; ``clone`` (engine/state.py)
copies the lists a handler may change.
"""

from __future__ import annotations

from typing import Any

from engine.state import LIST, LISTS, GameState, game_state, state_field

from .options import PreferansRuOptions, parse_options
from .scoring import Sheet

PHASES = ("deal", "auction", "discard", "contract", "whist", "open_choice", "play", "over")
SEAT_NAMES = "ABCD"


@game_state
class State(GameState):
    HEADER = {"game": "preferans_ru", "rules_version": 1}
    PHASES = PHASES

    options: PreferansRuOptions = state_field(dump=lambda o: o.model_dump(), load=lambda v, s: parse_options(v))
    players: int = state_field(load=lambda v, s: int(v))
    phase: str = state_field(default="deal")
    hand_no: int = state_field(default=0)
    dealer: int | None = state_field(default=None)
    dealer_repeats: int = state_field(default=0)  # deals in a row by this dealer after распасы (option)
    next_dealer: int | None = state_field(default=None)  # who deals next (None: the first deal)
    hands: list[list[str]] = state_field(copy=LISTS, init=False)
    talon: list[str] = state_field(default_factory=list, copy=LIST)
    talon_public: bool = state_field(default=False)  # turned face up for everyone (§5.2.1)
    discards: list[str] = state_field(default_factory=list, copy=LIST)
    # auction §5.1
    calls: list[list[Any]] = state_field(default_factory=list, copy=LISTS)  # [seat, call], e.g. [0, "bid 6S"]
    high: str | None = state_field(default=None)  # the highest bid so far, e.g. "7H", "MISERE"
    holder: int | None = state_field(default=None)
    passed: list[bool] = state_field(copy=LIST, init=False)
    called: list[bool] = state_field(copy=LIST, init=False)
    misere_bidder: int | None = state_field(default=None)
    turn: int | None = state_field(default=None)  # whose hand is to move (the controller may differ, §5.3)
    # contract §5.2
    declarer: int | None = state_field(default=None)
    bid: str | None = state_field(default=None)  # the winning bid
    contract: str | None = state_field(default=None)  # "6S".."10NT" or "MISERE"
    raspasy: bool = state_field(default=False)
    # whist §5.3
    whist: list[str | None] = state_field(copy=LIST, init=False)  # each defender's standing decision
    whist_calls: list[list[Any]] = state_field(default_factory=list, copy=LISTS)  # [seat, "whist"|"pass"|"half"]
    whist_stage: str | None = state_field(default=None)  # "first" | "second" | "first_again"
    lone: int | None = state_field(default=None)  # the lone whister (one whister, §5.3)
    open: bool | None = state_field(default=None)  # his choice: в светлую / втёмную
    # open hands: which seats lie face up, when they open, whether they have
    open_seats: list[int] = state_field(default_factory=list, copy=LIST)  # hands that lie (or will lie) face up
    open_at: str | None = state_field(default=None)  # "lead" | "trick" while they wait to open
    opened: bool = state_field(default=False)
    # play §5.4
    trick_leader: int | None = state_field(default=None)
    trick: list[list[Any]] = state_field(default_factory=list, copy=LISTS)  # [seat, card] plays of the current trick
    won: list[int] = state_field(copy=LIST, init=False)
    tricks_played: int = state_field(default=0)
    played: list[list[list[Any]]] = state_field(default_factory=list, copy=LISTS)  # finished tricks of this deal
    turned: list[str] = state_field(default_factory=list, copy=LIST)  # распасы talon cards turned so far (§5.4)
    # sheet
    series: int = state_field(default=0)  # consecutive распасы ending with the last deal (§5.5)
    # every scored deal in the §9 record shape (each record is never changed)
    record_hands: list[dict[str, Any]] = state_field(default_factory=list, copy=LIST)
    sheet: Sheet = state_field(init=False, dump=lambda sh: sh.to_json(), load=lambda v, s: Sheet.from_json(v))
    last_row: dict[str, Any] | None = state_field(default=None)
    result: dict[str, Any] | None = state_field(default=None)

    def __post_init__(self) -> None:
        n = self.players
        self.hands = [[] for _ in range(n)]
        self.passed = [False] * n
        self.called = [False] * n
        self.whist = [None] * n
        self.won = [0] * n
        self.sheet = Sheet.new(tuple(SEAT_NAMES[:n]))

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
