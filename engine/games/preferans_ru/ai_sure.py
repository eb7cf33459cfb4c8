"""Can the defence ever take a trick? The whister's exact check (issue 31).

A defender must not whist a contract that every layout consistent with his view lets the
declarer make with no trick for the defence: he would only write the shortfall. What a
defender sees when he decides (docs/rules/preferans_ru.md §5.2-5.3): his ten cards, the
turned talon (the declarer's: in his hand or his discards) and the contract. Every other
card is the partner's or the declarer's, and the declarer discarded two of his twelve.
From a nine up the auction says more: a nine or a ten is bid on sure tricks
(``ai_eval.sure_tricks``, the promise the normal and strong whisters' samples already
assume; a declarer who bids a ten on hope is not modelled), so the consistent declarer
hands are those holding the contract in sure tricks. When no hand can (my cards stop
it), or below a nine, only the cards count: the partner may then hold any ten of the
twenty cards I do not see (the top trump among them), and the check forbids nothing.

The check never forbids a whist that some consistent layout rewards; for a ten it is
exact, and cheap: the declarer's possible hands are enumerated suit by suit as *shapes*
(length, uncounted cards, the talon cards left out, the cards the partner may still
get), never card by card:
- a hand with one card outside its sure tricks (a nine's tenth card) counts as a chance
  for the defence (it may lose that card; not proven layout by layout, so a nine is
  forbidden only when every consistent hand is a ten in sure tricks);
- a hand of ten sure tricks takes every trick when the declarer leads first (trumps
  drawn by their top run, then every card a winner); when a defender leads, only the
  first trick can beat it: a lead the other defender ruffs while the declarer must follow
  with his ace; a lead into the declarer's void when his trumps are just A-K-Q-J and one
  defender holds the other four (the ruff leaves three to draw four; with a lower trump
  to ruff, or the other defender forced to trump too, his run still draws theirs);
  without trumps, a lead into his void.
Every decision level calls this one function before its own whist estimate.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from engine.cards import RANK_VALUE as RV

from .ai_eval import HIGH_LEVEL, SUITS
from .ai_view import DECK, Seen


@dataclass(frozen=True)
class Shape:
    """What the check needs of the declarer's holding in one suit."""

    length: int  # cards he keeps in the suit
    uncounted: int  # of them, cards outside his sure tricks (0 or 1)
    talon_out: int  # talon cards of the suit he does not keep (so he discarded them)
    partner_may: int  # cards of the suit the partner may hold (the unseen rest)
    run: int  # his top run from the ace


def _shapes(suit: str, pool: list[str], talon: list[str], trump: str | None) -> set[Shape]:
    """Every holding the declarer may keep in ``suit`` while his hand stays within one
    uncounted card of all sure tricks, as ``sure_tricks`` counts them: a top run ``r``
    plus lower cards ``e`` count in full when solid (``2r + e >= 8``: the run outlasts
    the others' cards) or when ``e = 0``; a trump suit must be solid."""
    mine = sorted((c for c in pool + talon if c[1] == suit), key=lambda c: -RV[c[0]])
    ranks = {RV[c[0]] for c in mine}
    in_talon = [c for c in talon if c[1] == suit]
    in_pool = [c for c in pool if c[1] == suit]
    out: set[Shape] = set()

    def add(cards: tuple[str, ...], run: int, uncounted: int) -> None:
        kept = set(cards)
        out.add(
            Shape(
                length=len(cards),
                uncounted=uncounted,
                talon_out=sum(c not in kept for c in in_talon),
                partner_may=sum(c not in kept for c in in_pool),
                run=run,
            )
        )

    if suit != trump:
        add((), 0, 0)
        for c in mine:  # a single card without the ace: one uncounted card
            if RV[c[0]] != 14:
                add((c,), 0, 1)
    for run in range(1, 9):
        if 15 - run not in ranks:
            break  # the run's next card is not one the declarer may hold
        top = tuple(c for c in mine if RV[c[0]] > 14 - run)
        lower = [c for c in mine if RV[c[0]] < 14 - run]  # the run's next rank stays out
        for extra in range(len(lower) + 1):
            solid = 2 * run + extra >= 8
            if suit == trump and not solid:
                continue
            if extra == 0 or solid:
                uncounted = 0
            elif extra == 1:
                uncounted = 1
            else:
                continue
            for more in combinations(lower, extra):
                add(top + more, run, uncounted)
    return out


def _hands(seen: Seen, pool: list[str], level: int) -> Iterator[dict[str, Shape]]:
    """The declarer's ten-card hands, as one shape a suit, that hold ``level`` tricks in
    sure tricks and leave at most two talon cards to his discards."""
    trump = seen.trump
    per_suit = {s: sorted(_shapes(s, pool, seen.talon, trump), key=repr) for s in SUITS}
    slack = 10 - level  # uncounted cards allowed

    def walk(i: int, chosen: dict[str, Shape], length: int, uncounted: int, out: int) -> Iterator[dict[str, Shape]]:
        if i == len(SUITS):
            if length == 10:
                yield dict(chosen)
            return
        suit = SUITS[i]
        for shape in per_suit[suit]:
            if length + shape.length <= 10 and uncounted + shape.uncounted <= slack and out + shape.talon_out <= 2:
                chosen[suit] = shape
                yield from walk(
                    i + 1, chosen, length + shape.length, uncounted + shape.uncounted, out + shape.talon_out
                )
                del chosen[suit]

    yield from walk(0, {}, 0, 0, 0)


def _beaten_at_trick_one(seen: Seen, hand: dict[str, Shape], free: int) -> bool:
    """Whether some layout with this ten-sure-tricks hand lets the defender on lead beat
    it, which only the first trick can do. ``free``: the declarer's discards that are not
    talon cards (the partner's unseen cards of a suit may lie there)."""
    assert seen.declarer is not None
    leader = seen.first_hand
    other = next(s for s in seen.active if s not in (seen.declarer, leader))
    mine = {s: sum(c[1] == s for c in seen.hand) for s in SUITS}
    trump = seen.trump

    def may_hold(seat: int, suit: str) -> bool:
        return mine[suit] > 0 if seat == seen.seat else hand[suit].partner_may > 0

    def may_be_void(seat: int, suit: str) -> bool:
        return mine[suit] == 0 if seat == seen.seat else hand[suit].partner_may <= free

    def holds_four_trumps(seat: int) -> bool:
        assert trump is not None
        return mine[trump] == 4 if seat == seen.seat else mine[trump] == 0 and hand[trump].partner_may == 4

    if trump is None:  # a lead into his void: the defence wins the trick
        return any(hand[s].length == 0 and may_hold(leader, s) for s in SUITS)
    trumps = hand[trump]
    for suit in SUITS:
        if suit == trump or not may_hold(leader, suit):
            continue
        if hand[suit].length:
            # he must follow with his ace, the other defender void in the suit must trump it
            if may_be_void(other, suit) and may_hold(other, trump):
                return True
        elif trumps.length == trumps.run == 4:
            # he ruffs with a trump of his run (he has no lower one): three left for four
            if holds_four_trumps(leader) or (holds_four_trumps(other) and may_hold(other, suit)):
                return True
    return False


def no_defence_trick(seen: Seen) -> bool:
    """True when, in every layout consistent with what this defender sees (the model in
    the module's docstring), the declarer takes all ten tricks."""
    level = seen.level
    if seen.declarer is None or level is None or level < HIGH_LEVEL or seen.played or seen.trick:
        return False
    pool = [c for c in DECK if c not in seen.hand and c not in seen.talon]
    if len(seen.talon) not in (0, 2) or len(pool) + len(seen.talon) != 22:
        return False  # not the whist decision's view: the check is made for it alone
    any_hand = False
    for hand in _hands(seen, pool, level):
        if any(shape.uncounted for shape in hand.values()):
            return False  # his one uncounted card may lose a trick
        any_hand = True
        free = 2 - sum(shape.talon_out for shape in hand.values())
        if seen.first_hand != seen.declarer and _beaten_at_trick_one(seen, hand, free):
            return False
    return any_hand
