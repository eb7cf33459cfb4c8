"""What one seat knows, and engine states consistent with it (determinization).

From the seat's own view only: its hand, the table, the turned trump card, the public
memory (cards discarded face up, cards seen going into each hand) and the counts. The
cards nobody at the table has seen are the *unseen* ones; a sampled world deals them at
random into the other hands (after the cards known to be there), the stock (above the
turned trump card) and the face-down discards. Every world is a legal engine state, so
the pure engine can play it out.
"""

from __future__ import annotations

import random

from engine.cards import make_deck
from engine.jsondata import JsonDict

from .options import parse_options
from .state import State


class Knowledge:
    """The view boiled down; built once per decision."""

    __slots__ = (
        "view",
        "options",
        "n",
        "me",
        "trump",
        "hand",
        "unseen",
        "slots",
        "hidden_discard",
        "stock_free",
        "perfect",
    )

    def __init__(self, view: JsonDict) -> None:
        self.view = view
        self.options = parse_options(view["options"])
        self.n = view["players"]
        self.me = view["seat"]
        self.trump = view["trump"]
        self.hand = list(view["hand"])
        seen = set(self.hand) | set(view["gone"])
        for e in view["table"]:
            seen.add(e["attack"])
            if e["cover"] is not None:
                seen.add(e["cover"])
        for k in view["known"]:
            seen.update(k)
        if view["trump_card"] is not None:
            seen.add(view["trump_card"])
        o = self.options
        deck = make_deck(o.deck_size, 2 if o.two_decks else 1)
        self.unseen = [c for c in deck if c not in seen]
        # how many unseen cards each place holds
        counts = view["hand_counts"]
        self.slots = [0 if x == self.me else counts[x] - len(view["known"][x]) for x in range(self.n)]
        self.hidden_discard = view["discard"] - len(view["gone"])
        self.stock_free = view["stock"] - (1 if view["trump_in_stock"] else 0)
        # hidden covers of other seats on the table hold unseen cards too
        hidden_table = sum(1 for e in view["table"] if e["hidden"] and e["cover"] is None)
        self.perfect = (
            self.hidden_discard == 0
            and self.stock_free == 0
            and hidden_table == 0
            and sum(self.slots) == len(self.unseen)
        )
        # nothing is hidden when the unseen cards all sit in one other hand
        if self.perfect and sum(1 for s in self.slots if s) > 1:
            self.perfect = False

    def sample(self, rng: random.Random) -> State:
        """One engine state consistent with this seat's knowledge."""
        v = self.view
        pool = self.unseen[:]
        rng.shuffle(pool)
        s = State(self.options, self.n)
        s.phase = v["phase"]
        s.dealer = v["dealer"]
        s.lead = "rule"
        s.trump = self.trump
        s.trump_card = v["trump_card"]
        s.hands = [list(k) for k in v["known"]]
        s.hands[self.me] = self.hand[:]
        i = 0
        for x in range(self.n):
            k = self.slots[x]
            if k > 0:
                s.hands[x].extend(pool[i : i + k])
                i += k
        table = []
        for e in v["table"]:
            cover = e["cover"]
            if e["hidden"] and cover is None:  # somebody else's blind cover
                cover = pool[i] if i < len(pool) else None
                i += 1
            by_cover = v["defender"] if cover is not None else None
            table.append((e["attack"], e["by"], cover, e["hidden"], by_cover))
        s.table = table
        stock = pool[i : i + max(self.stock_free, 0)]
        i += len(stock)
        if v["trump_in_stock"]:
            stock.append(v["trump_card"])
        s.stock = stock
        s.discard = list(v["gone"]) + pool[i : i + max(self.hidden_discard, 0)]
        s.gone = list(v["gone"])
        s.known = [list(k) for k in v["known"]]
        s.attacker = v["attacker"]
        s.defender = v["defender"]
        s.bout = v["bout"]
        s.taking = v["taking"]
        s.finished = list(v["finished"])
        if s.phase in ("throw", "final"):
            s.cands, s.ci = _candidates(s, self.me), 0
            s.ci = s.cands.index(self.me) if self.me in s.cands else 0
        return s


def _candidates(s: State, me: int) -> list[int]:
    """The throw-in order of the round (rules._start_round), me included."""
    m, d, n = s.attacker, s.defender, s.n
    assert m is not None and d is not None, "a round belongs to a bout"
    cands = [m]
    if s.rules.throw_all:
        for i in range(1, n):
            x = (d + i) % n
            if x != m and x != d and (s.hands[x] or s.stock):
                cands.append(x)
    return cands
