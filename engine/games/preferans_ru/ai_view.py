"""What one seat knows, read from its own view — the only module that reads view keys.

``Seen.of(view)`` gathers the seat's cards, the cards lying face up (the talon once turned,
open whisters' and misère catchers' hands, played tricks) and the auction; ``Seen.sample``
deals the cards it cannot see to the hands holding them, consistently with what it saw
(docs/rules/preferans_ru.md §5.4: a player who did not follow suit is void in it, and in
trumps too if he did not trump; the turned talon went to the declarer, who discarded 2).
Everything else in the computer player works on ``Seen``, never on the view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.ddplay.sampler import Misfit, sample_fitting, sample_hands

DECK = tuple(r + s for s in "SCDH" for r in "789TJQKA")
PILE = 99  # the holder of the two cards nobody plays: the discards, an unused talon


def _seat_map(raw: Any) -> dict[int, Any]:
    """A per-seat value given either as a list indexed by seat or as {seat: value}."""
    if isinstance(raw, dict):
        return {int(k): v for k, v in raw.items()}
    if isinstance(raw, list):
        return dict(enumerate(raw))
    return {}


def _plays(raw: Any) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for entry in raw or []:
        seat, card = entry[0], entry[1]
        if seat is None or not isinstance(seat, int) or seat < 0:
            continue  # a turned talon card in a распасы trick: not a player's card
        out.append((seat, str(card)))
    return out


def parse_level(contract: str | None) -> int | None:
    """6..10 for "6S".."10NT", None for мизер or no contract."""
    if not contract or contract.upper().startswith("MIS"):
        return None
    return int(contract[:-2] if contract.endswith("NT") else contract[:-1])


def parse_trump(contract: str | None) -> str | None:
    if not contract or contract.upper().startswith("MIS") or contract.endswith("NT"):
        return None
    return contract[-1]


@dataclass
class Seen:
    seat: int  # who decides (a lone open whister also plays his partner's cards)
    phase: str
    hand: list[str]
    active: list[int]  # the three seats that play this deal, clockwise from the first hand
    declarer: int | None = None
    contract: str | None = None  # "7S", "10NT", "MISERE"; None on распасы / before the talon
    bid: str | None = None  # the declarer's winning bid ("7S", "MISERE"), known before the contract
    raspasy: bool = False
    talon: list[str] = field(default_factory=list)  # talon cards this seat has seen
    discards: list[str] = field(default_factory=list)  # the declarer's own discards
    open_hands: dict[int, list[str]] = field(default_factory=dict)
    trick: list[tuple[int, str]] = field(default_factory=list)
    played: list[list[tuple[int, str]]] = field(default_factory=list)
    turned: list[str] = field(default_factory=list)  # распасы talon cards turned so far
    won: dict[int, int] = field(default_factory=dict)
    counts: dict[int, int] = field(default_factory=dict)  # cards each active seat holds now
    whist: dict[int, str] = field(default_factory=dict)
    calls: list[tuple[int, str]] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    turn: int | None = None  # whose hand is to play (may be the partner's, in open whisting)

    @classmethod
    def of(cls, view: dict[str, Any]) -> Seen:
        seat = int(view["seat"])
        players = int(view.get("players") or len(view.get("hand_counts") or [0, 0, 0]))
        first = view.get("first_hand")
        dealer = view.get("dealer")
        if first is None:
            first = (int(dealer) + 1) % players if dealer is not None else 0
        order = [(int(first) + i) % players for i in range(players)]
        if players == 4 and dealer is not None:
            order = [s for s in order if s != int(dealer)]
        active = [int(s) for s in view.get("active") or order][:3]
        # the first hand leads and speaks first: keep the clockwise order from him
        if int(first) in active:
            i = active.index(int(first))
            active = active[i:] + active[:i]
        counts_raw = _seat_map(view.get("hand_counts"))
        hand = [str(c) for c in view.get("hand") or []]
        counts = {s: int(counts_raw.get(s, len(hand))) for s in active}
        counts[seat] = len(hand)
        declarer = view.get("declarer")
        contract = view.get("contract")
        return cls(
            seat=seat,
            phase=str(view.get("phase") or ""),
            hand=hand,
            active=active,
            declarer=int(declarer) if declarer is not None else None,
            contract=str(contract) if contract else None,
            bid=str(view["bid"]) if view.get("bid") else None,
            raspasy=bool(view.get("raspasy")),
            talon=[str(c) for c in view.get("talon") or []],
            discards=[str(c) for c in view.get("my_discards") or []],
            open_hands={s: [str(c) for c in h] for s, h in _seat_map(view.get("open_hands")).items() if s != seat},
            trick=_plays(view.get("trick")),
            played=[_plays(t) for t in view.get("played") or []],
            turned=[str(c) for c in view.get("turned") or []],
            won={s: int(n) for s, n in _seat_map(view.get("won")).items()},
            counts=counts,
            whist={s: str(v) for s, v in _seat_map(view.get("whist")).items() if v},
            calls=[(int(s), str(c)) for s, c in view.get("calls") or []],
            options=dict(view.get("options") or {}),
            turn=int(view["turn"]) if view.get("turn") is not None else None,
        )

    # ------------------------------------------------------------------ the deal
    @property
    def first_hand(self) -> int:
        return self.active[0]

    @property
    def level(self) -> int | None:
        return parse_level(self.contract)

    @property
    def trump(self) -> str | None:
        return None if self.raspasy else parse_trump(self.contract)

    @property
    def misere(self) -> bool:
        """A мизер deal (the bid says so already while the declarer discards)."""
        named = self.contract or self.bid
        return bool(named) and str(named).upper().startswith("MIS")

    def next_of(self, seat: int) -> int:
        return self.active[(self.active.index(seat) + 1) % 3]

    def defenders(self) -> list[int]:
        """The declarer's opponents in whist order (his left neighbour first)."""
        if self.declarer is None:
            return []
        first = self.next_of(self.declarer)
        return [first, self.next_of(first)]

    def tricks_of(self, seat: int) -> int:
        return self.won.get(seat, 0)

    # ------------------------------------------------------------------ hidden cards
    def known_hands(self) -> dict[int, list[str]]:
        """Hands this seat sees: its own and those lying face up."""
        out = {s: list(h) for s, h in self.open_hands.items() if s in self.active}
        out[self.seat] = list(self.hand)
        return out

    def gone(self) -> set[str]:
        out = {c for t in self.played for _, c in t} | {c for _, c in self.trick}
        return out | set(self.turned)

    def unseen(self) -> list[str]:
        known = self.gone() | {c for h in self.known_hands().values() for c in h}
        known |= set(self.discards)
        if self.seat == self.declarer:
            known |= set(self.talon)  # he holds them or discarded them
        return [c for c in DECK if c not in known]

    def voids(self) -> dict[int, set[str]]:
        """Suits each seat showed out of (and trumps, when he did not trump)."""
        out: dict[int, set[str]] = {s: set() for s in self.active}
        trump = self.trump
        for t in [*self.played, self.trick]:
            if not t:
                continue
            led = t[0][1][1]
            for seat, card in t[1:]:
                if card[1] != led and seat in out:
                    out[seat].add(led)
                    if trump and card[1] != trump:
                        out[seat].add(trump)
        return out

    def hidden_counts(self) -> dict[int, int]:
        """How many unseen cards each holder has (PILE: the cards out of play)."""
        known = self.known_hands()
        need = {s: self.counts.get(s, 0) for s in self.active if s not in known}
        pile = len(self.unseen()) - sum(need.values())
        if pile > 0:
            need[PILE] = pile
        return need

    def sample(
        self, rng: random.Random, misfit: Mapping[int, Misfit] | None = None, improve: int = 0
    ) -> dict[int, list[str]]:
        """One layout of every active hand: the known ones and a random deal of the rest.
        ``misfit``: per seat, how far a dealt hand is from what the auction promised (0:
        it fits); such hands are redrawn a bounded number of times, never forced
        (engine/ddplay/sampler.py ``sample_fitting``)."""
        need = self.hidden_counts()
        talon: dict[int, set[str]] = {}
        if self.talon and self.declarer is not None and self.seat != self.declarer:
            # everyone saw the turned talon go to the declarer: it is in his hand or his
            # discards, never another defender's (a hard constraint, never dropped)
            taken = set(self.talon)
            talon = {s: taken for s in need if s not in (self.declarer, PILE)}
        voids = {s: v for s, v in self.voids().items() if s in need}
        wanted = {s: f for s, f in (misfit or {}).items() if s in need}
        if not need:
            dealt: dict[int, list[str]] = {}
        elif wanted:
            dealt = sample_fitting(self.unseen(), need, voids, rng, wanted, improve=improve, hard_bans=talon)
        else:
            dealt = sample_hands(self.unseen(), need, voids, rng, hard_bans=talon)
        hands = self.known_hands()
        for s in self.active:
            if s not in hands:
                hands[s] = list(dealt.get(s, []))
        return hands

    def all_known(self) -> bool:
        return all(s in self.known_hands() for s in self.active)
