"""What each seat's calls show, as the computers read them: the explanations a bridge
player gets from robots online ("1NT: 15–17, balanced"), so a person sitting with
computers knows what they bid and how they took his own calls.

It is ``inference.auction_inferences`` (the one reading of the auction, shared with the
computers' bidding and card play) cut down to what a player would say aloud: the points,
the suits of four or more cards, "balanced", and the name of the seat's last call when
it is conventional ("Stayman", "transfer to hearts", "takeout"). Public: it reads the
calls only, never a hand, so every seat gets the same text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .bidding import slam
from .inference import SUITS, auction_inferences, last_meaning, normalize

MAX_HCP = 37
# the answers to Blackwood's 4NT (bidding/slam.py): they count aces and show no suit
BLACKWOOD_ANSWERS = {"5C": "0 or 4 aces", "5D": "1 ace", "5H": "2 aces", "5S": "3 aces"}


@dataclass(frozen=True)
class Shown:
    seat: int
    hcp: tuple[int, int] | None  # None: no points shown
    suits: tuple[tuple[str, int, int], ...]  # (suit, at least, at most) for four cards or more
    balanced: bool
    note: str  # the system's name for the seat's last call, "" if none
    forcing: bool  # that call is forcing


def explain(auction: list[Any], dealer: int) -> list[Shown]:
    """One entry per seat that has made a call other than pass, in the order of their
    first such call."""
    calls = normalize(auction)
    ranges = auction_inferences(calls, dealer)
    order: list[int] = []
    last: dict[int, int] = {}
    for i, call in enumerate(calls):
        seat = (dealer + i) % 4
        if call != "P":
            if seat not in order:
                order.append(seat)
            last[seat] = i
    out = []
    for seat in order:
        shown = ranges[seat]
        meaning = last_meaning(calls, dealer, last[seat])
        hcp = None if shown.hcp == (0, MAX_HCP) else shown.hcp
        suits = tuple((s, lo, hi) for s in SUITS for lo, hi in [shown.length[s]] if lo >= 4)
        balanced = all(shown.length[s][0] >= 2 and shown.length[s][1] <= 5 for s in SUITS)
        note, forcing = (meaning.note, meaning.forcing) if meaning else ("", False)
        role = slam.role(calls, dealer, last[seat])
        if role == "ask":
            note, forcing = "Blackwood", True
        elif role == "answer":
            note, forcing = BLACKWOOD_ANSWERS[calls[last[seat]]], False
        out.append(Shown(seat, hcp, suits, balanced, note, forcing))
    return out
