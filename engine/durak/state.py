"""Durak's game state: plain lists, tuples and ints, cheap to clone and to dump.

Seats are numbered 0..n-1 clockwise (seat ``i + 1`` sits on seat ``i``'s left).
Lists held by a state are never changed in place once the state has been returned
from ``apply``: ``clone`` copies the per-seat lists and the table, while the stock
and the discard pile are replaced (never mutated), so they can be shared.
"""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict

from .options import DurakOptions, parse_options

# One pair on the table: (attack card, its owner, cover or None, face-down?, who covered).
Pair = tuple[str, int, str | None, bool, int | None]

PHASES = ("deal", "open", "defend", "verdict", "throw", "final", "over")


class Rules:
    """The options boiled down to what the hot paths read."""

    __slots__ = (
        "throw_all",
        "transfer",
        "trumps",
        "two_decks",
        "loss_at",
        "blind",
        "limit",
        "first_limit",
        "high_from",
        "leader_left",
        "deck_size",
        "copies",
    )

    def __init__(self, o: DurakOptions) -> None:
        self.throw_all = o.base_game != "prostoy"
        self.transfer = {"perevodnoy": 1, "perevodnoy_after_beating": 2}.get(o.base_game, 0)
        self.trumps = o.trumps
        self.two_decks = o.two_decks
        self.loss_at = o.two_deck_loss_at
        self.blind = o.blind_beating
        self.limit = o.max_attack_cards
        self.first_limit = min(5, o.max_attack_cards) if o.first_bout_five else o.max_attack_cards
        self.high_from = o.high_trump_from
        self.leader_left = o.next_game_leader == "dealer_left"
        self.deck_size = o.deck_size
        self.copies = 2 if o.two_decks else 1


_RULES_CACHE: dict[DurakOptions, Rules] = {}


def rules_for(options: DurakOptions) -> Rules:
    r = _RULES_CACHE.get(options)
    if r is None:
        if len(_RULES_CACHE) > 256:
            _RULES_CACHE.clear()
        r = _RULES_CACHE[options] = Rules(options)
    return r


class State:
    __slots__ = (
        "options",
        "rules",
        "n",
        "phase",
        "dealer",
        "lead",
        "trump",
        "trump_card",
        "stock",
        "discard",
        "hands",
        "table",
        "attacker",
        "defender",
        "bout",
        "cands",
        "ci",
        "taking",
        "verdict",
        "decider",
        "finished",
        "out",
        "result",
        "gone",
        "known",
    )

    def __init__(self, options: DurakOptions, n: int) -> None:
        self.options = options
        self.rules = rules_for(options)
        self.n = n
        self.phase = "deal"
        self.dealer: int | None = None
        self.lead: str | None = None  # "rule" | "left", from the deal action
        self.trump: str | None = None  # trump suit
        self.trump_card: str | None = None  # the turned card (public all game)
        self.stock: list[str] = []  # top first; the trump card is last
        self.discard: list[str] = []
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.table: list[Pair] = []
        self.attacker: int | None = None  # M
        self.defender: int | None = None  # D
        self.bout = 0
        self.cands: list[int] = []  # throw-in candidates of the current round
        self.ci = 0  # index of the candidate to act
        self.taking = False  # D said TAKE (FINAL round)
        self.verdict: int | None = None  # index of the blind pair awaiting a verdict
        self.decider: int | None = None
        self.finished = [False] * n
        # who went out, in order; the seats that went out on one action share a group.
        # None: unknown (a dump from before the order was kept, taken after someone went out)
        self.out: list[list[int]] | None = []
        self.result: JsonDict | None = None
        # Public memory (what every player at the table saw, so a player may remember it):
        self.gone: list[str] = []  # cards discarded face up (never the blind covers)
        self.known: list[list[str]] = [[] for _ in range(n)]  # cards seen going into each hand

    def clone(self) -> "State":
        s = State.__new__(State)
        s.options = self.options
        s.rules = self.rules
        s.n = self.n
        s.phase = self.phase
        s.dealer = self.dealer
        s.lead = self.lead
        s.trump = self.trump
        s.trump_card = self.trump_card
        s.stock = self.stock
        s.discard = self.discard
        s.hands = [h[:] for h in self.hands]
        s.table = self.table[:]
        s.attacker = self.attacker
        s.defender = self.defender
        s.bout = self.bout
        s.cands = self.cands
        s.ci = self.ci
        s.taking = self.taking
        s.verdict = self.verdict
        s.decider = self.decider
        s.finished = self.finished[:]
        s.out = self.out  # replaced, never changed in place
        s.result = self.result
        s.gone = self.gone
        s.known = [k[:] for k in self.known]
        return s

    # ---- serialisation -------------------------------------------------------------
    def dump(self) -> dict[str, Any]:
        return {
            "game": "durak",
            "rules_version": 1,
            "players": self.n,
            "options": self.options.model_dump(),
            "phase": self.phase,
            "dealer": self.dealer,
            "lead": self.lead,
            "trump": self.trump,
            "trump_card": self.trump_card,
            "stock": list(self.stock),
            "discard": list(self.discard),
            "hands": [list(h) for h in self.hands],
            "table": [list(p) for p in self.table],
            "attacker": self.attacker,
            "defender": self.defender,
            "bout": self.bout,
            "cands": list(self.cands),
            "ci": self.ci,
            "taking": self.taking,
            "verdict": self.verdict,
            "decider": self.decider,
            "finished": list(self.finished),
            "out": [list(g) for g in self.out] if self.out is not None else None,
            "result": dict(self.result) if self.result is not None else None,
            "gone": list(self.gone),
            "known": [list(k) for k in self.known],
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> "State":
        s = cls(parse_options(data["options"]), int(data["players"]))
        s.phase = data["phase"]
        if s.phase not in PHASES:
            raise ValueError(f"unknown phase {s.phase!r}")
        s.dealer = data["dealer"]
        s.lead = data["lead"]
        s.trump = data["trump"]
        s.trump_card = data["trump_card"]
        s.stock = list(data["stock"])
        s.discard = list(data["discard"])
        s.hands = [list(h) for h in data["hands"]]
        s.table = [tuple(p) for p in data["table"]]
        s.attacker = data["attacker"]
        s.defender = data["defender"]
        s.bout = data["bout"]
        s.cands = list(data["cands"])
        s.ci = data["ci"]
        s.taking = data["taking"]
        s.verdict = data["verdict"]
        s.decider = data["decider"]
        s.finished = list(data["finished"])
        # an older dump has no order: exact while nobody is out (the bot's snapshots are
        # taken at the deal and at the end), unknown otherwise
        out = data.get("out", None if any(s.finished) else [])
        s.out = [[int(x) for x in g] for g in out] if out is not None else None
        s.result = dict(data["result"]) if data["result"] is not None else None
        # dumps from before the public memory: without blind covers every discard was
        # face up; who picked up what is lost (an empty memory is only less informed)
        gone = data.get("gone")
        if gone is None:
            gone = [] if s.rules.blind else data["discard"]
        s.gone = list(gone)
        s.known = [list(k) for k in data.get("known") or [[] for _ in range(s.n)]]
        return s
