"""Deal the unseen cards to the hidden hands, consistently with what a seat has seen.

Hard constraints: every hidden hand gets exactly the number of cards it holds, and no
card of ``hard_bans`` (cards everyone saw go elsewhere, such as Russian preferans' turned
talon, taken by the declarer) ever goes to a seat that bans it. No card of a suit its
player showed out of is kept whenever a deal fits it. Inferred cards a player does not hold
(``cheapest_of_equals``, ``bans``) are kept the same way but dropped first when no deal
fits. Soft constraints (the auction's promises, whatever the caller's ``accept`` checks)
are tried for a bounded number of deals and then dropped, so a wrong bid never breaks the
sampler.
"""

from __future__ import annotations

import random
from typing import Callable, Mapping, Sequence

Hands = dict[int, list[str]]
RANKS = "23456789TJQKA"

SOFT_TRIES = 40  # deals tried per sample for the soft constraints before giving up on them
HARD_TRIES = 200  # deals tried for the voids; beyond that the view did not add up: ignore them


def voids(tricks: list[list[tuple[int, str]]]) -> dict[int, set[str]]:
    """Suits each seat showed out of: it did not follow the suit led."""
    out: dict[int, set[str]] = {s: set() for s in range(4)}
    for trick in tricks:
        if not trick:
            continue
        led = trick[0][1][1]
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


def _deal_once(
    pool: list[str],
    need: Mapping[int, int],
    voids: Mapping[int, set[str]],
    rng: random.Random,
    bans: Mapping[int, set[str]] | None = None,
) -> Hands | None:
    cards = pool[:]
    rng.shuffle(cards)
    # the most constrained hand first: it takes the first cards it may hold
    order = sorted(need, key=lambda s: (-len(voids.get(s, ())), s))
    out: Hands = {}
    bans = bans or {}
    for seat in order[:-1]:
        banned = voids.get(seat, set())
        cards_banned = bans.get(seat, set())
        mine: list[str] = []
        rest: list[str] = []
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


def _merge(*maps: Mapping[int, set[str]] | None) -> dict[int, set[str]]:
    """Per seat, the union of the cards each map bans."""
    out: dict[int, set[str]] = {}
    for m in maps:
        for seat, cards in (m or {}).items():
            if cards:
                out[seat] = out.get(seat, set()) | set(cards)
    return out


def _deal_around(pool: list[str], need: Mapping[int, int], hard: Mapping[int, set[str]], rng: random.Random) -> Hands:
    """A deal that keeps only the hard bans (the last resort): the cards fewest seats may
    hold are placed first, each on a random seat with room that may hold it."""
    room = dict(need)
    out: Hands = {s: [] for s in need}
    cards = pool[:]
    rng.shuffle(cards)
    cards.sort(key=lambda c: -sum(c in hard.get(s, ()) for s in need))
    for card in cards:
        seats = [s for s in need if room[s] > 0 and card not in hard.get(s, ())]
        if not seats:
            raise ValueError(f"no hidden hand may hold {card}: the view does not add up")
        seat = rng.choice(seats)
        out[seat].append(card)
        room[seat] -= 1
    return out


def dealable_pool(pool: Sequence[str], need: Mapping[int, int], rng: random.Random) -> list[str]:
    """The unseen cards in a fixed order (the order of the caller's set must not change
    the result), exactly as many as the hidden hands hold."""
    pool = sorted(pool)
    extra = len(pool) - sum(need.values())
    if extra > 0:  # the view missed some played cards (an old snapshot): drop a few
        rng.shuffle(pool)
        pool = sorted(pool[extra:])
    elif extra < 0:
        raise ValueError("fewer unseen cards than hidden cards")
    return pool


def sample_hands(
    pool: Sequence[str],
    need: Mapping[int, int],
    voids: Mapping[int, set[str]],
    rng: random.Random,
    accept: Callable[[Hands], bool] | None = None,
    bans: Mapping[int, set[str]] | None = None,
    hard_bans: Mapping[int, set[str]] | None = None,
) -> Hands:
    """One deal of ``pool`` to the seats of ``need`` (seat -> cards it holds); ``bans``:
    cards a seat is inferred not to hold; ``hard_bans``: cards a seat cannot hold (never
    dropped)."""
    if not need:
        return {}
    pool = dealable_pool(pool, need, rng)
    hard = _merge(hard_bans)
    both = _merge(hard_bans, bans)
    fallback = None
    for attempt in range(HARD_TRIES):
        # the inferences are dropped halfway: a person may not play the cheapest card
        hands = _deal_once(pool, need, voids, rng, both if attempt < HARD_TRIES // 2 else hard)
        if hands is None:
            continue
        if accept is None or accept(hands):
            return hands
        fallback = fallback or hands
        if attempt + 1 >= SOFT_TRIES:
            return fallback
    # the voids did not add up: keep only what cannot be otherwise
    return fallback or _deal_once(pool, need, {}, rng, hard) or _deal_around(pool, need, hard, rng)


Misfit = Callable[[list[str]], int]


def _draw_seats(
    pool: list[str],
    need: Mapping[int, int],
    voids: Mapping[int, set[str]],
    bans: Mapping[int, set[str]],
    misfit: Mapping[int, Misfit],
    order: list[int],
    rng: random.Random,
    per_seat: int,
    improve: int = 0,
) -> tuple[Hands | None, int, int]:
    """One deal drawn seat by seat in ``order``, each hand redrawn (up to ``per_seat``
    times) until it fits, then (``improve`` > 0) mended by up to that many swaps of one
    card with one of the pool, each kept when it misfits no more. (hands or None, total
    misfit, draws spent)."""
    cards = pool[:]
    out: Hands = {}
    miss = spent = 0
    for seat in order[:-1]:
        banned, cards_banned = voids.get(seat, set()), bans.get(seat, set())
        allowed = [c for c in cards if c[1] not in banned and c not in cards_banned]
        if len(allowed) < need[seat]:
            return None, 0, spent + 1
        best: list[str] = []
        best_miss: int | None = None
        for _ in range(per_seat if seat in misfit else 1):
            spent += 1
            hand = rng.sample(allowed, need[seat])
            m = misfit[seat](hand) if seat in misfit else 0
            if best_miss is None or m < best_miss:
                best, best_miss = hand, m
                if m == 0:
                    break
        assert best_miss is not None, "each seat draws at least once"
        if best_miss and improve:
            best, best_miss = _mend(
                best, [c for c in allowed if c not in set(best)], misfit[seat], best_miss, rng, improve
            )
            spent += improve
        out[seat] = best
        miss += best_miss
        taken = set(best)
        cards = [c for c in cards if c not in taken]
    last = order[-1]
    if any(c[1] in voids.get(last, ()) or c in bans.get(last, ()) for c in cards):
        return None, 0, spent + 1
    out[last] = cards
    if last in misfit:
        miss += misfit[last](cards)
    return out, miss, spent + 1


def _mend(
    hand: list[str], rest: list[str], misfit: Misfit, miss: int, rng: random.Random, swaps: int
) -> tuple[list[str], int]:
    """A hand that misfits, brought closer by random swaps (a rare fit such as a ten's
    declarer — nearly every trump and the side aces — is one draw in thousands, but a
    few dozen swaps away from most hands)."""
    hand, rest = hand[:], rest[:]
    if not rest:
        return hand, miss
    for _ in range(swaps):
        i, j = rng.randrange(len(hand)), rng.randrange(len(rest))
        hand[i], rest[j] = rest[j], hand[i]
        m = misfit(hand)
        if m <= miss:
            miss = m
            if miss == 0:
                break
        else:
            hand[i], rest[j] = rest[j], hand[i]
    return hand, miss


def sample_fitting(
    pool: Sequence[str],
    need: Mapping[int, int],
    voids: Mapping[int, set[str]],
    rng: random.Random,
    misfit: Mapping[int, Misfit],
    bans: Mapping[int, set[str]] | None = None,
    tries: int = 400,
    improve: int = 0,
    hard_bans: Mapping[int, set[str]] | None = None,
) -> Hands:
    """One deal like ``sample_hands`` that also tries to give each seat of ``misfit`` a
    hand it scores 0 (``misfit(cards)``: how far the cards are from what the seat showed,
    0 when they fit).

    Hands are drawn seat by seat, the seats with a ``misfit`` first, and a seat's hand is
    redrawn until it fits: a seat that fits one hand in 50 costs 50 draws, not 50 times
    the other seats' odds (whole-deal rejection, ``sample_hands``, gives up long before
    that when two seats are limited). When ``tries`` draws find no deal where every seat
    fits, the deal that missed least is kept: a wrong bid bends the sample, never breaks
    it. The inferred ``bans`` are dropped for the second half of the draws, the
    ``hard_bans`` never. ``improve``:
    swaps that mend the best draw of a seat that found no fit (``_mend``)."""
    if not need:
        return {}
    pool = dealable_pool(pool, need, rng)
    # the seat dealt last takes what is left: let it be one without a misfit if there is one
    order = sorted(need, key=lambda s: (s not in misfit, -len(voids.get(s, ())), s))
    per_seat = max(1, tries // 4)
    hard = _merge(hard_bans)
    both = _merge(hard_bans, bans)
    best, best_miss, spent = None, None, 0
    while spent < tries:
        hands, miss, cost = _draw_seats(
            pool, need, voids, both if spent < tries // 2 else hard, misfit, order, rng, per_seat, improve
        )
        spent += cost
        if hands is not None and (best_miss is None or miss < best_miss):
            best, best_miss = hands, miss
            if miss == 0:
                break
    # no deal kept the voids in ``tries`` draws: fall back on the constructive dealer
    return best if best is not None else sample_hands(pool, need, voids, rng, None, bans, hard_bans)
