"""What one seat knows about the cards, and random layouts of the cards it cannot see.

From a seat's ``view`` only: its own hand, the finished tricks of this hand (``played``),
the current trick, the talon when it was shown (or, for the declarer, picked up) and the
declarer's own discards. Every other card is *unknown*; it lies with one of the other
players or in the *pile* (the two discarded cards, or the untouched talon of an igra).
A player who did not follow suit is void in it (and in trumps too, if he did not trump).

``sample`` deals the unknown cards to their possible holders at random, respecting the
counts each holder has, the voids, and that a shown talon card can only be with the
declarer or in his discards. The strong player solves each such layout double-dummy.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.jsondata import JsonDict

from .rules import DECK

PILE = 3  # holder index of the discards / untouched talon
Layout = dict[int, list[str]]  # seat (or PILE) -> its cards


@dataclass
class Knowledge:
    seat: int
    hand: list[str]
    counts: dict[int, int]  # holder -> how many unknown cards he holds
    allowed: dict[str, tuple[int, ...]]  # unknown card -> its possible holders
    voids: dict[int, set[str]] = field(default_factory=dict)


def voids_from(view: JsonDict) -> dict[int, set[str]]:
    """Suits each seat has shown out of in this hand's tricks (and the current one)."""
    trump = view.get("trump")
    voids: dict[int, set[str]] = {0: set(), 1: set(), 2: set()}
    tricks = [t for t in view.get("played") or []]
    if view.get("trick"):
        tricks.append(view["trick"])
    for t in tricks:
        led = t[0][1][1]
        for seat, card in t[1:]:
            if card[1] != led:
                voids[seat].add(led)
                if trump and card[1] != trump:
                    voids[seat].add(trump)
    return voids


def knowledge(view: JsonDict) -> Knowledge:
    """The unknown cards and where they may lie, once the declarer is known (after the
    auction). Before that, see ``auction_knowledge``."""
    me = view["seat"]
    hand = list(view["hand"])
    decl = view["declarer"]
    known = set(hand)
    for t in view.get("played") or []:
        known.update(c for _, c in t)
    known.update(c for _, c in view.get("trick") or [])
    counts = {x: view["hand_counts"][x] for x in range(3) if x != me}
    talon = view.get("talon") or []
    if me == decl:
        known.update(talon)
        known.update(view.get("my_discards") or [])
        pile_count = 0 if not view.get("igra") else 2
        if view.get("phase") == "discard":  # the declarer still holds the talon
            pile_count = 0
    else:
        pile_count = 2 if (view.get("igra") or view.get("phase") != "discard") else 0
    counts[PILE] = pile_count
    voids = voids_from(view)
    holders = [x for x in counts if counts[x] > 0]
    allowed = {}
    for c in DECK:
        if c in known:
            continue
        ok = [x for x in holders if x == PILE or c[1] not in voids.get(x, ())]
        if c in talon and me != decl and not view.get("igra"):
            ok = [x for x in ok if x in (decl, PILE)]  # the shown talon went to him
        allowed[c] = tuple(ok)
    return Knowledge(me, hand, counts, allowed, voids)


def auction_knowledge(view: JsonDict) -> Knowledge:
    """Before anybody has the talon: the other two hold 10 each, the talon 2."""
    me = view["seat"]
    hand = list(view["hand"])
    counts = {x: 10 for x in range(3) if x != me}
    counts[PILE] = 2
    allowed = {c: tuple(counts) for c in DECK if c not in hand}
    return Knowledge(me, hand, counts, allowed)


def sample(k: Knowledge, rng: random.Random, tries: int = 30) -> dict[int, list[str]]:
    """One random layout: holder -> his unknown cards. The most constrained cards are
    placed first; a dead end starts over (after ``tries``, the voids are dropped)."""
    cards = sorted(k.allowed)
    for attempt in range(tries + 1):
        relax = attempt == tries
        rng.shuffle(cards)
        order = sorted(cards, key=lambda c: len(k.allowed[c])) if not relax else cards
        cap = dict(k.counts)
        out: dict[int, list[str]] = {x: [] for x in cap}
        for c in order:
            ok = [x for x in (k.allowed[c] if not relax else cap) if cap[x] > 0]
            if not ok:
                break
            r = rng.randrange(sum(cap[x] for x in ok))
            for x in ok:
                r -= cap[x]
                if r < 0:
                    break
            out[x].append(c)
            cap[x] -= 1
        else:
            return out
    raise AssertionError("the unknown cards do not fit the hand sizes")  # pragma: no cover
