"""What the auction tells about each hand (stub: the bidding branch provides the real one).

The strong card player (``play_ai``) samples the hidden hands within these ranges, as
soft constraints: a range a hand does not fit is dropped after a bounded number of tries.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class HandRange:
    hcp: tuple[int, int] = (0, 37)
    length: dict[str, tuple[int, int]] = field(default_factory=lambda: {s: (0, 13) for s in "SHDC"})


def auction_inferences(calls: list[str], dealer: int) -> dict[int, HandRange]:
    """What each seat's calls promise about its hand (seats 0..3 as in the engine)."""
    return {}   # stub; the bidding branch fills it
