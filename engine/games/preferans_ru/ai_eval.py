"""Hand evaluation for the computer player: quick estimates and sampled double-dummy checks.

- ``estimate``: the declarer's likely tricks with a trump (or без козыря), from the top
  cards and the trump length — a player's count of "sure tricks", in microseconds;
- ``with_talon``: that estimate averaged over every talon the unseen cards allow (the 231
  pairs of 22 cards), so the auction values the прикуп it would take (§5.2);
- ``misere_danger``: how far each suit is from a safe мизер holding (7; 7-9; 7-9-J; ...);
- ``misere_safe``: the share of sampled layouts where no play of the catchers, seeing all
  the cards, forces the declarer to take a trick (the first hand leads, §5.4);
- ``declarer_tricks``: sampled double-dummy trick counts for a declarer's ten cards.
Every search is bounded by solver nodes, never by the clock: a decision is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from engine.cards import RANK_VALUE as RV
from engine.ddplay.sampler import sample_hands

from engine.deadline import NEVER, Deadline

from .ai_dd import OutOfNodes, Position

SUITS = "SCDH"
STRAINS = ("S", "C", "D", "H", "NT")
HIGH_LEVEL = 9  # from here a declarer holds his contract in sure tricks (``sure_tricks``): he bid it so


def by_suit(hand: Sequence[str]) -> dict[str, list[int]]:
    """Rank values (7..14) per suit, highest first."""
    out: dict[str, list[int]] = {s: [] for s in SUITS}
    for c in hand:
        out[c[1]].append(RV[c[0]])
    for s in out:
        out[s].sort(reverse=True)
    return out


def top_run(ranks: list[int]) -> int:
    """How many of the suit's cards run from the ace down without a gap (ranks highest first)."""
    run = 0
    for want, have in zip(range(14, 6, -1), ranks):
        if want != have:
            break
        run += 1
    return run


def _top_tricks(ranks: list[int], trump_suit: bool) -> float:
    """Tricks a suit brings from the top: A, A-K, A-K-Q…, half for a guarded king."""
    if not ranks:
        return 0.0
    run = top_run(ranks)
    t = float(run)
    if run == 0 and ranks[0] == 13 and len(ranks) >= 2:
        t += 0.5 if not trump_suit else 1.0 if len(ranks) >= 3 else 0.5
    elif run == 0 and ranks[0] == 12 and len(ranks) >= 3 and trump_suit:
        t += 0.5
    # a long suit's small cards win once its top is gone (8 cards a suit: 5+ is long)
    if len(ranks) >= 5 and run >= 2:
        t = float(len(ranks)) if trump_suit or run >= 3 else t + (len(ranks) - 4) * 0.5
    elif trump_suit:
        t = max(t, len(ranks) - 3.0 + min(run, 2))
    return min(t, float(len(ranks)))


def estimate(hand: Sequence[str], trump: str | None) -> float:
    """The declarer's likely tricks with ``trump`` (None: без козыря)."""
    suits = by_suit(hand)
    total = 0.0
    trumps = len(suits[trump]) if trump else 0
    for s, ranks in suits.items():
        total += _top_tricks(ranks, s == trump)
        if trump and s != trump and trumps >= 4 and len(ranks) <= 1:
            total += 0.5 * (2 - len(ranks))  # a void or singleton to ruff in
    if trump is None:
        # без козыря: a suit without its ace may be run by the defenders
        total -= 0.5 * sum(1 for ranks in suits.values() if ranks and ranks[0] < 13)
    return max(0.0, min(total, 10.0))


def sure_tricks(hand: Sequence[str], trump: str | None) -> int:
    """The tricks the declarer takes from the top whatever the layout, leading first: a
    suit whose top run is at least as long as the cards the others hold in it runs in
    full, else only its run; while the defenders may still hold a trump, a side suit
    gives its ace at most (the second round may be ruffed). The count a nine or a ten
    is bid on."""
    suits = by_suit(hand)

    def solid(ranks: list[int]) -> bool:
        """The top run outlasts the others' cards of the suit."""
        return top_run(ranks) >= 8 - len(ranks)

    total = 0
    drawn = trump is None or solid(suits[trump])
    for s, ranks in suits.items():
        tricks = len(ranks) if solid(ranks) else top_run(ranks)
        total += tricks if (s == trump or drawn) else min(tricks, 1)
    return min(total, 10)


def with_talon(hand: Sequence[str], unseen: Sequence[str], trump: str | None) -> float:
    """``estimate`` of the twelve cards after taking the talon, averaged over every pair
    of ``unseen`` cards the talon may be (two losers are then discarded)."""
    pairs = list(combinations(sorted(unseen), 2))
    if not pairs:
        return estimate(hand, trump)
    base = list(hand)
    return sum(estimate(base + [a, b], trump) for a, b in pairs) / len(pairs)


def best_strains(hand: Sequence[str], unseen: Sequence[str]) -> list[tuple[float, str]]:
    """(expected tricks with the talon, strain), best first."""
    scored = [(with_talon(hand, unseen, None if s == "NT" else s), s) for s in STRAINS]
    return sorted(scored, key=lambda x: (-x[0], STRAINS.index(x[1])))


# ---------------------------------------------------------------------- мизер
def misere_danger(hand: Sequence[str]) -> int:
    """0 for a hand every suit of which is a safe мизер holding: its k-th lowest card at
    most the (2k+1)-th rank (7, 9, J, K — the others must always hold a card under it)."""
    danger = 0
    for ranks in by_suit(hand).values():
        for k, r in enumerate(sorted(ranks)):
            danger += max(0, (r - 7) - 2 * k)
    return danger


def misere_discard(hand12: Sequence[str]) -> tuple[str, str]:
    """The two cards whose removal leaves the least dangerous мизер hand."""
    best: tuple[str, str] | None = None
    best_key: tuple[int, int] | None = None
    for pair in combinations(sorted(hand12), 2):
        rest = [c for c in hand12 if c not in pair]
        key = (misere_danger(rest), -sum(RV[c[0]] for c in pair))
        if best_key is None or key < best_key:
            best, best_key = pair, key
    assert best is not None
    return best


def misere_safe(
    hand: Sequence[str],
    me: int,
    seats: Sequence[int],
    unseen: Sequence[str],
    rng: random.Random,
    samples: int,
    nodes: int,
    talon: bool = False,
    deadline: Deadline = NEVER,
) -> float:
    """The share of sampled layouts (the other two hands from ``unseen``, the rest out of
    play) in which the catchers, even seeing every card, cannot force a trick on ``me``.
    With ``talon`` the layout also deals the two talon cards to ``me``, who then discards
    the two most dangerous of his twelve (``misere_discard``). The first of ``seats``
    (the first hand) leads."""
    others = [s for s in seats if s != me]
    need = {s: 10 for s in others}
    if talon:
        need[me] = 2
    pile = len(unseen) - sum(need.values())
    if pile > 0:
        need[-1] = pile
    pos = Position(seats, me, None, avoid=True, limit=nodes, deadline=deadline)
    safe = done = 0
    for _ in range(samples):
        dealt = sample_hands(unseen, need, {}, rng)
        mine = list(hand)
        if talon:
            twelve = mine + dealt[me]
            dropped = misere_discard(twelve)
            mine = [c for c in twelve if c not in dropped]
        hands = {me: mine, **{s: dealt[s] for s in others}}
        try:
            taken = pos.takes_any(hands, seats[0])
        except OutOfNodes:
            break
        safe += not taken
        done += 1
    if done == 0:
        return 1.0 if misere_danger(hand) == 0 else 0.0
    return safe / done


# ---------------------------------------------------------------------- games
def declarer_tricks(
    hand: Sequence[str],
    me: int,
    seats: Sequence[int],
    unseen: Sequence[str],
    trump: str | None,
    rng: random.Random,
    samples: int,
    nodes: int,
    deadline: Deadline = NEVER,
) -> list[int]:
    """Double-dummy tricks of ``me`` holding ``hand`` over sampled layouts of the other two
    hands (the first of ``seats`` leads); fewer than ``samples`` when the nodes run out."""
    others = [s for s in seats if s != me]
    need = {s: len(hand) for s in others}
    pile = len(unseen) - sum(need.values())
    if pile > 0:
        need[-1] = pile
    pos = Position(seats, me, trump, avoid=False, limit=nodes, deadline=deadline)
    out: list[int] = []
    for _ in range(samples):
        dealt = sample_hands(unseen, need, {}, rng)
        hands = {me: list(hand), **{s: dealt[s] for s in others}}
        try:
            out.append(pos.tricks(hands, seats[0]))
        except OutOfNodes:
            break
    return out
