"""Pick a card by double-dummy sampling (the method of GIB and its followers).

For each sampled deal DDS scores every card of the hand on play; the card with the best
total over the samples is played. Ties go to the lowest card (keep the high ones: they
may matter in a deal the samples did not foresee), trumps kept before side suits.

Cards that nothing can separate (``QJ`` with no card between them in another hand or
on the table)
are the same card double dummy; when every legal card is one such run, or there is one
legal card, no search is needed.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from engine.cards import RANK_VALUE as RV
from engine.deadline import NEVER, Deadline, OutOfTime, Pace

from .sampler import Hands
from .solver import solve_counted


# Deals solved per decision by cards still in the four hands. A 13-card DDS solve costs
# ~0.1 s, a 12-card one ~20 ms, an 11-card one ~7 ms and from 8 cards on under 1 ms
# (measured on this machine): few deals in the first tricks, many later, where more
# deals still cut the sampling noise of the choice.
Budget = tuple[tuple[int, int], ...]  # (cards left above, deals to solve), first match wins
STRONG_BUDGET: Budget = ((48, 4), (44, 8), (40, 16), (36, 40), (28, 80), (0, 128))
NORMAL_BUDGET: Budget = ((48, 2), (44, 2), (36, 4), (0, 6))


def samples_for(cards_left: int, budget: Budget = STRONG_BUDGET) -> int:
    return next(n for floor, n in budget if cards_left > floor or floor == 0)


def lowest_first(card: str, trump: str | None) -> tuple[bool, int, str]:
    """Tie order: the cheapest card to give up first."""
    return (card[1] == trump, RV[card[0]], card[1])


def all_equivalent(cards: Sequence[str], live: set[str]) -> bool:
    """Every card in ``cards`` is of one suit with no ``live`` card (one still held by
    another hand, or on the table) of that suit ranked between them."""
    if len({c[1] for c in cards}) != 1:
        return False
    ranks = sorted(RV[c[0]] for c in cards)
    suit = cards[0][1]
    return not any(c[1] == suit and ranks[0] < RV[c[0]] < ranks[-1] for c in live)


def best_card(legal: Sequence[str], totals: dict[str, int], trump: str | None) -> str:
    top = max(totals[c] for c in legal)
    return min((c for c in legal if totals[c] == top), key=lambda c: lowest_first(c, trump))


def choose_card(
    legal: Sequence[str],
    known: Hands,
    sample: Callable[[random.Random], Hands],
    samples: int,
    leader: int,
    trump: str | None,
    trick: Sequence[str],
    rng: random.Random,
    nodes: int = 0,
    most: int = 0,
    deadline: Deadline = NEVER,
) -> str:
    """The DD-sampling choice among ``legal`` cards. ``known``: the hands this seat sees
    (its own, dummy); ``sample(rng)`` deals the others; ``samples`` deals are solved, and
    then more, up to ``most`` deals, while the DDS search nodes spent stay within
    ``nodes`` (a budget of work, not of time: the same on a busy machine). At the
    ``deadline`` the deals solved so far decide; ``OutOfTime`` if there are none."""
    if len(legal) == 1:
        return legal[0]
    # cards on the table separate ours too (``Q9`` over a led ``T``)
    live = {c for hand in known.values() for c in hand if c not in legal} | set(trick)
    hidden = sample(rng)
    live |= {c for hand in hidden.values() for c in hand}
    if all_equivalent(legal, live):
        return min(legal, key=lambda c: lowest_first(c, trump))
    totals = {c: 0 for c in legal}
    spent = solved = 0
    pace = Pace(deadline)
    while solved < samples or solved < most and spent + spent / solved <= nodes:
        if not pace.room_for_another():
            if not solved:
                raise OutOfTime
            break
        hands = {**known, **(hidden if solved == 0 else sample(rng))}
        scores, cost = solve_counted([hands[s] for s in range(4)], leader, trump, trick)
        for c in legal:
            totals[c] += scores.get(c, 0)
        spent += cost
        solved += 1
    return best_card(legal, totals, trump)
