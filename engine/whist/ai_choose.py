"""Whist's double-dummy sampling choice with a sample budget that adapts to the position.

Adapted from engine/ddplay/chooser.py (shared with bridge, owned elsewhere): the same
scores and tie order, but the deals are solved in rounds. After the first round we stop
as soon as the best card is clearly ahead of every other (paired over the same deals),
and go on up to the position's ceiling while two cards are close. Whist has no dummy,
so its early leads are guesses that more deals sharpen; most positions are settled by a
few deals, and the time saved there pays for the close ones.
"""
from __future__ import annotations

import math
import random
from typing import Callable, Sequence

from engine.ddplay.chooser import all_equivalent, lowest_first
from engine.ddplay.sampler import Hands
from engine.ddplay.solver import solve

# (cards left above, deals in the first round, most deals) for the position. A 13-card
# DDS solve costs ~35 ms on average (up to ~0.15 s), a 12-card one ~16 ms, an 11-card one
# ~10 ms, a 10-card one ~3 ms and from 9 cards on ~1 ms (CPU, measured on this machine).
# The ceilings keep a decision's CPU time under ~1 s at its worst.
BUDGET = ((48, 6, 14), (44, 8, 28), (40, 16, 48), (36, 32, 96), (28, 64, 160), (0, 96, 192))
ROUND = 8          # deals solved between two checks
CLEAR = 2.0        # the best card's lead over another, in standard errors, that settles it


def budget_for(cards_left: int, budget=BUDGET) -> tuple[int, int]:
    return next((first, most) for floor, first, most in budget if cards_left > floor or floor == 0)


def settled(legal: Sequence[str], scores: dict[str, list[int]], best: str) -> bool:
    """Every other card is clearly worse than ``best`` on the deals solved, or scored the
    same on every one of them."""
    n = len(scores[best])
    for card in legal:
        if card == best:
            continue
        diffs = [b - c for b, c in zip(scores[best], scores[card])]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
        if var == 0 and mean == 0:
            continue
        if mean <= CLEAR * math.sqrt(var / n):
            return False
    return True


def best_card(legal: Sequence[str], scores: dict[str, list[int]], trump: str | None) -> str:
    totals = {c: sum(scores[c]) for c in legal}
    top = max(totals.values())
    return min((c for c in legal if totals[c] == top), key=lambda c: lowest_first(c, trump))


def choose_card(legal: Sequence[str], known: Hands, sample: Callable[[random.Random], Hands],
                budget: tuple[int, int], leader: int, trump: str | None, trick: Sequence[str],
                rng: random.Random) -> str:
    """The DD-sampling choice among ``legal`` cards. ``known``: this seat's hand;
    ``sample(rng)`` deals the others; ``budget``: (deals in the first round, most deals)."""
    if len(legal) == 1:
        return legal[0]
    first, most = budget
    live = {c for hand in known.values() for c in hand if c not in legal} | set(trick)
    hidden = sample(rng)
    live |= {c for hand in hidden.values() for c in hand}
    if all_equivalent(legal, live):
        return min(legal, key=lambda c: lowest_first(c, trump))
    scores: dict[str, list[int]] = {c: [] for c in legal}
    solved, target = 0, first
    while True:
        while solved < target:
            hands = {**known, **(hidden if solved == 0 else sample(rng))}
            result = solve([hands[s] for s in range(4)], leader, trump, trick)
            for c in legal:
                scores[c].append(result.get(c, 0))
            solved += 1
        best = best_card(legal, scores, trump)
        if solved >= most or settled(legal, scores, best):
            return best
        target = min(most, solved + ROUND)
