"""Double-dummy tables for the auction bench, through DDS (``endplay``).

Every deal is checked before DDS sees it: DDS answers an inconsistent deal (a hand of 14
cards, a card twice) with an error code AND by writing ``dump.txt`` into the current
directory; that is how a dump of a 14/12-card deal got committed once. ``check_deal``
raises a clear ``ValueError`` instead, and nothing reaches DDS unchecked.
"""

from __future__ import annotations

from typing import Any, Sequence

RANKS = "23456789TJQKA"
SUITS = "SHDC"
DENOMS = ("S", "H", "D", "C", "NT")  # endplay's table rows; columns are N, E, S, W
_CARDS = {r + s for r in RANKS for s in SUITS}


def check_deal(hands: Sequence[Sequence[str]]) -> None:
    """Four hands of thirteen distinct cards each (``"AS"``, ``"TD"``), or ValueError."""
    if len(hands) != 4:
        raise ValueError(f"a deal has four hands, not {len(hands)}")
    seen: set[str] = set()
    for seat, hand in enumerate(hands):
        if len(hand) != 13:
            raise ValueError(f"seat {'NESW'[seat]} holds {len(hand)} cards, not 13: {' '.join(hand)}")
        for card in hand:
            if card not in _CARDS:
                raise ValueError(f"not a card: {card!r} (seat {'NESW'[seat]})")
            if card in seen:
                raise ValueError(f"card {card} dealt twice")
            seen.add(card)


def pbn(hands: Sequence[Sequence[str]]) -> str:
    """``N:`` PBN of four hands (seats N, E, S, W)."""

    def holding(hand: Sequence[str], suit: str) -> str:
        return "".join(sorted((c[0] for c in hand if c[1] == suit), key=lambda r: -RANKS.index(r)))

    return "N:" + " ".join(".".join(holding(h, s) for s in SUITS) for h in hands)


def calc_table(hands: Sequence[Sequence[str]]) -> Any:  # endplay ships no types
    """endplay's ``DDTable`` of a checked deal (for ``endplay.dds.par``)."""
    from endplay.dds import calc_dd_table
    from endplay.types import Deal

    check_deal(hands)
    return calc_dd_table(Deal.from_pbn(pbn(hands)))
