"""Double-dummy scores of every card in one position, through DDS (``endplay._dds``).

We call ``SolveBoard`` directly with a binary deal (bit masks per hand and suit) rather
than going through ``endplay.types.Deal``: building the structure ourselves is several
times cheaper than parsing PBN, and the strong players call this thousands of times per
deal. ``SolveBoard`` runs in the calling thread (thread index 0): no threads of ours.
"""
from __future__ import annotations

from typing import Sequence

import endplay._dds as _dds

RANKS = "23456789TJQKA"
SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}   # DDS denominations; 4 = no trump
SUIT_OF = "SHDC"
_BIT = {r + s: (SUIT_INDEX[s], 1 << (i + 2)) for i, r in enumerate(RANKS) for s in SUIT_OF}
NO_TRUMP = 4


def solve(hands: Sequence[Sequence[str]], leader: int, trump: str | None,
          trick: Sequence[str] = ()) -> dict[str, int]:
    """For the seat on play — ``leader`` plus ``len(trick)`` — each card it may play and
    the tricks its side then takes from here on (the trick in progress included), with
    best play by all four hands. ``hands`` are the cards still held by seats 0..3
    (N, E, S, W as in the engines); ``trick`` the cards already on the table, in order."""
    dl = _dds.deal()
    dl.trump = SUIT_INDEX[trump] if trump else NO_TRUMP
    dl.first = leader
    for i in range(3):
        dl.currentTrickSuit[i] = 0
        dl.currentTrickRank[i] = 0
    for i, card in enumerate(trick):
        dl.currentTrickSuit[i] = SUIT_INDEX[card[1]]
        dl.currentTrickRank[i] = RANKS.index(card[0]) + 2
    remain = dl.remainCards
    for seat in range(4):
        row = remain[seat]
        masks = [0, 0, 0, 0]
        for card in hands[seat]:
            suit, bit = _BIT[card]
            masks[suit] |= bit
        for suit in range(4):
            row[suit] = masks[suit]
    fut = _dds.futureTricks()
    # target -1, solutions 3: the score of every card; mode 1: always search
    _dds.SolveBoard(dl, -1, 3, 1, fut, 0)
    out: dict[str, int] = {}
    for i in range(fut.cards):
        holding = (1 << fut.rank[i]) | fut.equals[i]
        suit = SUIT_OF[fut.suit[i]]
        for r in range(2, 15):
            if holding >> r & 1:
                out[RANKS[r - 2] + suit] = fut.score[i]
    return out
