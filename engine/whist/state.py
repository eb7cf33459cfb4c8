"""Whist's game state: plain lists and ints, cheap to clone and to dump.

Seats 0..3 = N, E, S, W, clockwise; N–S and E–W are partners (side index = seat % 2).
Lists held by a state are never changed in place once the state has left ``apply``:
``clone`` copies the hands and the trick, and the won-trick piles and the sheet are
replaced, never mutated, so they can be shared between states.
"""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict, copy_json

from .options import WhistOptions, parse_options
from .scoring import Sheet

PHASES = ("deal", "trump", "play", "vote", "over")
SEAT_LETTERS = "NESW"


class State:
    __slots__ = (
        "options",
        "options_json",
        "phase",
        "deal_no",
        "dealer",
        "next_dealer",
        "hands",
        "trump",
        "turn_up",
        "dealer_played",
        "chooser",
        "delegated",
        "leader",
        "plays",
        "won",
        "last_trick",
        "played",
        "held",
        "sheet",
        "votes",
        "result",
    )

    def __init__(self, options: WhistOptions) -> None:
        self.options = options
        self.options_json = options.dump()  # shared by every state of the match; read-only
        self.phase = "deal"
        self.deal_no = 0  # deals dealt in this match
        self.dealer: int | None = None
        self.next_dealer = options.first_dealer_seat
        self.hands: list[list[str]] = [[], [], [], []]
        self.trump: str | None = None
        self.turn_up: str | None = None  # the dealer's 52nd card (turn_up method)
        self.dealer_played = False  # the turned-up card is public until then
        self.chooser: int | None = None  # dealer_names: who names the trump now
        self.delegated = False
        self.leader: int | None = None  # who led the trick in progress
        self.plays: list[tuple[int, str]] = []  # the trick in progress
        self.won: list[list[str]] = [[], []]  # cards of the tricks won, per side (NS, EW)
        self.last_trick: JsonDict | None = None  # {"leader", "plays", "winner"}
        self.played: list[list[Any]] = []  # [seat, card] of this deal's finished tricks, in order (JSON pairs)
        self.held: list[int] = [0, 0]  # trump honours held as dealt, per side
        self.sheet = Sheet(options)
        self.votes: list[int] = []  # seats that want another rubber (no limit)
        self.result: JsonDict | None = None

    @property
    def tricks(self) -> list[int]:
        return [len(self.won[0]) // 4, len(self.won[1]) // 4]

    def to_play(self) -> int:
        assert self.leader is not None, "asked only while a trick is played"
        return (self.leader + len(self.plays)) % 4

    def clone(self) -> "State":
        s = State.__new__(State)
        for name in self.__slots__:
            setattr(s, name, getattr(self, name))
        s.hands = [h[:] for h in self.hands]
        s.plays = self.plays[:]
        s.won = self.won[:]
        s.held = self.held[:]
        s.votes = self.votes[:]
        return s

    # ---- serialisation -------------------------------------------------------------
    def dump(self) -> dict[str, Any]:
        return {
            "game": "whist",
            "rules_version": 1,
            "players": 4,
            "options": self.options.dump(),
            "phase": self.phase,
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "next_dealer": self.next_dealer,
            "hands": [list(h) for h in self.hands],
            "trump": self.trump,
            "turn_up": self.turn_up,
            "dealer_played": self.dealer_played,
            "chooser": self.chooser,
            "delegated": self.delegated,
            "leader": self.leader,
            "plays": [[s, c] for s, c in self.plays],
            "won": [list(w) for w in self.won],
            "last_trick": _copy_trick(self.last_trick),
            "played": [[p, c] for p, c in self.played],
            "held": list(self.held),
            "entries": [_copy_entry(e) for e in self.sheet.entries],
            "votes": list(self.votes),
            "result": copy_json(self.result),
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> "State":
        s = cls(parse_options(data["options"]))
        if data["phase"] not in PHASES:
            raise ValueError(f"unknown phase {data['phase']!r}")
        s.phase = data["phase"]
        s.deal_no = data["deal_no"]
        s.dealer = data["dealer"]
        s.next_dealer = data["next_dealer"]
        s.hands = [list(h) for h in data["hands"]]
        s.trump = data["trump"]
        s.turn_up = data["turn_up"]
        s.dealer_played = data["dealer_played"]
        s.chooser = data["chooser"]
        s.delegated = data["delegated"]
        s.leader = data["leader"]
        s.plays = [(int(p[0]), p[1]) for p in data["plays"]]
        s.won = [list(w) for w in data["won"]]
        s.last_trick = _copy_trick(data["last_trick"])
        # snapshots from before "played" existed: only the last trick is known
        s.played = [[int(p), c] for p, c in data.get("played", [])]
        s.held = list(data["held"])
        s.sheet = Sheet.replay(s.options, data["entries"])
        s.votes = list(data["votes"])
        s.result = copy_json(data["result"])
        return s


def _copy_trick(trick: JsonDict | None) -> JsonDict | None:
    if trick is None:
        return None
    return {"leader": trick["leader"], "plays": [[s, c] for s, c in trick["plays"]], "winner": trick["winner"]}


def _copy_entry(entry: JsonDict) -> JsonDict:
    return {"tricks": dict(entry["tricks"]), "honours": dict(entry["honours"])}


def initial_state(options: Any, players: int) -> State:
    from .options import check_players

    opts = parse_options(options)
    check_players(players)
    return State(opts)
