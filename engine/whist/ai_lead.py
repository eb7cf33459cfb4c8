"""Lead conventions of the strong whist computer, used only to break near ties.

Double-dummy sampling values each lead over the deals it drew; at the opening lead it
draws few (a 13-card solve is the dearest), and several leads come out within the
sampling noise of each other. Among those, ``ai_sample.choose_card`` plays the one the
convention prefers. Measured on the benchmark's opening leads (bench/strength/whist.py):
the top of a sequence of honours lost fewer double-dummy tricks than the noisy best;
the same tie-break on later leads, where the budget draws many more deals, did not help,
nor did leading from length, partner's suit or trumps — so only this one is used.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import RANK_VALUE as RV


def heads_a_sequence(card: str, hand: Sequence[str]) -> bool:
    """``card`` is the top of two or more touching cards of its suit, the top a ten or
    higher, and nothing higher in the suit in ``hand`` (``KQ``x, ``QJ``, ``AK``, ``T9``)."""
    ranks = sorted((RV[c[0]] for c in hand if c[1] == card[1]), reverse=True)
    return len(ranks) >= 2 and ranks[0] == RV[card[0]] >= RV["T"] and ranks[1] == ranks[0] - 1
