"""Deal the unseen cards to the hidden hands, consistently with what a seat has seen.

Hard constraints (always kept when they can be): every hidden hand gets exactly the
number of cards it holds, and no card of a suit its player showed out of. Inferred
cards a player does not hold (``cheapest_of_equals``) are kept the same way but dropped
first when no deal fits. Soft constraints (the auction's promises, whatever the caller's
``accept`` checks) are tried for a bounded number of deals and then dropped, so a wrong
bid never breaks the sampler.
"""
from __future__ import annotations

import random
from typing import Callable, Mapping, Sequence

Hands = dict[int, list[str]]
RANKS = "23456789TJQKA"

SOFT_TRIES = 40    # deals tried per sample for the soft constraints before giving up on them
HARD_TRIES = 200   # deals tried for the voids; beyond that the view did not add up: ignore them


def voids(tricks: list[list[tuple[int, str]]]) -> dict[int, set[str]]:
    """Suits each seat showed out of: it did not follow the suit led."""
    out: dict[int, set[str]] = {s: set() for s in range(4)}
    for trick in tricks:
        led = trick[0][1][1] if trick else None
        for seat, card in trick[1:]:
            if card[1] != led:
                out[seat].add(led)
    return out


def cheapest_of_equals(tricks: list[list[tuple[int, str]]]) -> dict[int, set[str]]:
    """Cards a player who followed suit cannot hold: the next lower card of that suit
    still in play, when nothing on the table lay between. With it he held two equal cards
    and would have played the cheaper one (our players always do, and so do people
    playing second, third or fourth hand). Leads are left alone: people lead the top of
    a sequence."""
    out: dict[int, set[str]] = {s: set() for s in range(4)}
    gone: set[str] = set()
    for trick in tricks:
        table = {c for _, c in trick}
        led = trick[0][1][1] if trick else None
        for seat, card in trick[1:]:
            if card[1] != led:
                continue
            rank = RANKS.index(card[0])
            below = next((r + led for r in reversed(RANKS[:rank]) if r + led not in gone), None)
            if below is not None and below not in table:
                out[seat].add(below)
        gone |= table
    return out


def _deal_once(pool: list[str], need: Mapping[int, int], voids: Mapping[int, set[str]],
               rng: random.Random, bans: Mapping[int, set[str]] | None = None) -> Hands | None:
    cards = pool[:]
    rng.shuffle(cards)
    # the most constrained hand first: it takes the first cards it may hold
    order = sorted(need, key=lambda s: (-len(voids.get(s, ())), s))
    out: Hands = {}
    bans = bans or {}
    for seat in order[:-1]:
        banned = voids.get(seat, set())
        cards_banned = bans.get(seat, set())
        mine, rest = [], []
        for card in cards:
            if len(mine) < need[seat] and card[1] not in banned and card not in cards_banned:
                mine.append(card)
            else:
                rest.append(card)
        if len(mine) < need[seat]:
            return None
        out[seat], cards = mine, rest
    last = order[-1]
    if any(card[1] in voids.get(last, ()) or card in bans.get(last, ()) for card in cards):
        return None
    out[last] = cards
    return out


def sample_hands(pool: Sequence[str], need: Mapping[int, int], voids: Mapping[int, set[str]],
                 rng: random.Random, accept: Callable[[Hands], bool] | None = None,
                 bans: Mapping[int, set[str]] | None = None) -> Hands:
    """One deal of ``pool`` to the seats of ``need`` (seat -> cards it holds); ``bans``:
    cards a seat is inferred not to hold."""
    pool = sorted(pool)  # the order of the caller's set must not change the result
    if not need:
        return {}
    extra = len(pool) - sum(need.values())
    if extra > 0:  # the view missed some played cards (an old snapshot): drop a few
        rng.shuffle(pool)
        pool = sorted(pool[extra:])
    elif extra < 0:
        raise ValueError("fewer unseen cards than hidden cards")
    fallback = None
    for attempt in range(HARD_TRIES):
        # the inferences are dropped halfway: a person may not play the cheapest card
        hands = _deal_once(pool, need, voids, rng, bans if attempt < HARD_TRIES // 2 else None)
        if hands is None:
            continue
        if accept is None or accept(hands):
            return hands
        fallback = fallback or hands
        if attempt + 1 >= SOFT_TRIES:
            return fallback
    return fallback or _deal_once(pool, need, {}, rng)
