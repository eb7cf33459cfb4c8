"""What one seat knows about the hidden cards, read from its own view only, and random
deals of the unseen cards that agree with it (determinizations for ai_strong.py).

Known facts a player at the table has:
- his own hand; every card played this deal (``played``, ``trick``, deal 7's ``pile``,
  deal 8's ``rows``); the turned trump cards still held by the chooser;
- voids: a player who did not follow the led suit has none of it; in a trump deal with
  ``trump_must_ruff`` one who neither followed nor trumped has no trump either;
- deal 2 (and 6 with ``deal6_no_heart_lead``): whoever led a heart held hearts only;
- deal 6 with ``deal6_must_discard_kh``: whoever discarded another card had no KH;
- deal 8: a seat that passed since the last card holds nothing that fits the rows.
Everything else is sampled uniformly among the deals that agree with these facts.
"""

from __future__ import annotations

import random

from engine.cards import SUITS
from engine.jsondata import JsonDict

from .scoring import DECK

ORDER = "789TJQKA"


class World:
    """The hidden-card knowledge of ``view['seat']`` in the current deal."""

    def __init__(self, view: JsonDict) -> None:
        self.me: int = view["seat"]
        self.hand: list[str] = list(view.get("hand", []))
        self.counts: list[int] = list(view["hand_counts"])
        self.forbidden: list[set[str]] = [set() for _ in self.counts]
        self.fixed: list[list[str]] = [[] for _ in self.counts]
        seen = set(self.hand)
        phase = view["phase"]
        if phase == "play":
            seen |= self._read_tricks(view)
        elif phase == "count":
            seen |= {c for _, c in view.get("pile", [])}
        elif phase == "domino":
            seen |= self._read_rows(view)
        self.unseen: list[str] = [c for c in DECK if c not in seen]  # DECK order: deterministic

    # ---- facts from the tricks ------------------------------------------------------
    def _read_tricks(self, view: JsonDict) -> set[str]:
        o = view.get("options") or {}
        no, trump = view["deal_no"], view.get("trump")
        must_ruff = o.get("trump_must_ruff", True)
        no_heart_lead = (no == 2 and o.get("deal2_no_heart_lead", True)) or (
            no == 6 and o.get("deal6_no_heart_lead", False)
        )
        must_kh = no == 6 and o.get("deal6_must_discard_kh", False)
        tricks = [t["plays"] for t in view.get("played", [])]
        if view.get("trick"):
            tricks.append(view["trick"])
        seen: set[str] = set()
        for plays in tricks:
            led = plays[0][1][1]
            if no_heart_lead and led == "H":  # a heart lead: he held nothing else
                self._void(plays[0][0], "SDC")
            for seat, card in plays:
                seen.add(card)
                if card[1] != led:
                    self._void(seat, led)
                    if trump and must_ruff and card[1] != trump:
                        self._void(seat, trump)
                    if must_kh and card != "KH":
                        self.forbidden[seat].add("KH")
        chooser = view.get("first")
        if chooser is not None and chooser != self.me:  # turned cards he has not played yet
            self.fixed[chooser] = [c for c in view.get("turned", []) if c not in seen]
        return seen

    def _read_rows(self, view: JsonDict) -> set[str]:
        seen = set()
        fitting = []
        for suit, (lo, hi) in view.get("rows", {}).items():
            a, b = ORDER.index(lo), ORDER.index(hi)
            seen |= {ORDER[i] + suit for i in range(a, b + 1)}
            if a > 0:
                fitting.append(ORDER[a - 1] + suit)
            if b < 7:
                fitting.append(ORDER[b + 1] + suit)
        fitting += ["J" + s for s in SUITS if s not in view.get("rows", {})]
        for seat in view.get("passed", []):  # no legal play when he passed
            self.forbidden[seat].update(fitting)
        return seen

    def _void(self, seat: int, suits: str) -> None:
        self.forbidden[seat].update(r + s for s in suits for r in ORDER)

    # ---- sampling -----------------------------------------------------------------
    def sample(self, rng: random.Random) -> list[list[str]]:
        """Four hands: this seat's own, the others drawn from the unseen cards at random,
        agreeing with every known fact (falling back to ignoring the voids if a few
        random tries cannot satisfy them, which only happens with contradictory input)."""
        for _ in range(20):
            hands = self._try(rng, strict=True)
            if hands is not None:
                return hands
        hands = self._try(rng, strict=False)
        assert hands is not None, "a try that may ignore the voids always deals"
        return hands

    def _try(self, rng: random.Random, strict: bool) -> list[list[str]] | None:
        n = len(self.counts)
        hands = [list(f) for f in self.fixed]
        hands[self.me] = list(self.hand)
        need = [0 if s == self.me else self.counts[s] - len(hands[s]) for s in range(n)]
        pool = [c for c in self.unseen if not any(c in f for f in self.fixed)]
        rng.shuffle(pool)
        if strict:  # the most constrained cards first, so few tries dead-end
            pool.sort(key=lambda c: sum(1 for s in range(n) if need[s] and c not in self.forbidden[s]))
        for card in pool:
            seats = [s for s in range(n) if need[s] > 0 and not (strict and card in self.forbidden[s])]
            if not seats:
                if strict:
                    return None
                break
            # weight by the room left, so every agreeing deal is about equally likely
            pick = rng.randrange(sum(need[s] for s in seats))
            for s in seats:
                pick -= need[s]
                if pick < 0:
                    break
            hands[s].append(card)
            need[s] -= 1
        return hands
