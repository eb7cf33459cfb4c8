"""Card play of the computer: sampled layouts, each solved double-dummy.

For each layout of the cards this seat cannot see (``Seen.sample``) the solver gives,
for every legal card, how many tricks the counted player (the declarer; on распасы the
player himself) ends with after it; each outcome is scored by what it is worth to the
side on play (``utility``) and the card with the best total is played; ties go to the
lower card. When every hand is known (open whisting, the catchers of a мизер seeing each
other after the lead, the declarer facing two open hands) one layout is the exact answer.

The two распасы tricks led by a turned talon card (§5.4, ``raspasy_talon = lead_suit``)
are played by a rule (the highest card that stays under the trick, else the top card):
the second talon card is still unknown then, so there is no single position to solve.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import RANK_VALUE as RV
from engine.tricks import winning_index

from engine.ddplay.sampler import Misfit

from engine.deadline import NEVER, Deadline

from .ai_dd import OutOfNodes, Position
from .ai_eval import estimate, misere_danger
from .ai_view import Seen

MISERE_SLACK = 4  # a мизер bidder's hand may be this far from a safe one (he hoped for the talon)


@dataclass(frozen=True)
class PlayBudget:
    nodes: int  # solver nodes for one card (layouts stop when the next would overrun)
    least: int  # layouts solved at least (unless one alone exhausts the nodes)
    most: int  # and at most
    deadline: Deadline = field(default=NEVER, compare=False)  # the caller's: then the layouts so far decide


def utility(seen: Seen, target_tricks: int) -> float:
    """What the counted player's final trick count is worth to the seat on play."""
    if seen.raspasy:
        return -float(target_tricks)  # the counted player is me
    mine = seen.seat == seen.declarer
    if seen.misere:
        value = (10.0 if target_tricks == 0 else 0.0) - target_tricks
        return value if mine else -value
    level = seen.level or 6
    made = target_tricks >= level
    # making the contract dominates, then every trick (whists for the defenders)
    value = 10.0 * made + target_tricks
    return value if mine else -value


def mover(seen: Seen) -> int:
    return seen.turn if seen.turn is not None else seen.seat


def talon_trick_card(seen: Seen, cards: Sequence[str]) -> str | None:
    """On распасы, the card for a trick led by a turned talon card (None: not such a trick)."""
    if not seen.raspasy or len(seen.played) >= len(seen.turned):
        return None
    led = seen.turned[len(seen.played)]
    return duck(cards, [led] + [c for _, c in seen.trick], led[1])


def duck(cards: Sequence[str], table: Sequence[str], led_suit: str | None) -> str:
    """The highest card that loses to the table (no trumps), else the highest card: when
    the trick cannot be avoided, it is taken with the card most dangerous to keep."""
    following = [c for c in cards if c[1] == led_suit]
    if following:
        top = max((RV[c[0]] for c in table if c[1] == led_suit), default=0)
        under = [c for c in following if RV[c[0]] < top]
        return max(under or following, key=lambda c: RV[c[0]])
    # a void: throw the highest card of a suit where it is alone or nearly
    return max(cards, key=lambda c: (RV[c[0]], -sum(1 for x in cards if x[1] == c[1])))


def choose_card(seen: Seen, cards: list[str], rng: random.Random, budget: PlayBudget) -> str:
    """The best of the legal ``cards`` for the hand on play."""
    if len(cards) == 1:
        return cards[0]
    by_rule = talon_trick_card(seen, cards)
    if by_rule is not None:
        return by_rule
    turn = mover(seen)
    target = seen.seat if seen.raspasy else seen.declarer
    if target is None:
        return simple_card(seen, cards)
    avoid = seen.raspasy or seen.misere
    pos = Position(seen.active, target, seen.trump, avoid, limit=budget.nodes * 4, deadline=budget.deadline)
    before = seen.tricks_of(target)
    score = {c: 0.0 for c in cards}
    exact = seen.all_known()
    solved = 0
    while solved < (1 if exact else budget.most):
        if solved >= budget.least and pos.nodes + pos.nodes / max(solved, 1) > budget.nodes:
            break
        hands = seen.sample(rng, promised(seen))
        try:
            values = pos.card_values(hands, turn, seen.trick, cards)
        except OutOfNodes:
            break
        for c in cards:
            score[c] += utility(seen, before + values[c])
        solved += 1
    if solved == 0:
        return simple_card(seen, cards)
    return max(cards, key=lambda c: (round(score[c], 6), -RV[c[0]], c[1] != seen.trump))


def promised(seen: Seen) -> dict[int, Misfit]:
    """What the declarer's hidden cards should look like to his opponents: a hand that
    estimates his contract, or a мизер hand (with the cards he has played back in it)."""
    decl = seen.declarer
    if decl is None or decl == seen.seat or decl in seen.open_hands or seen.raspasy:
        return {}
    shown = [c for t in seen.played for s, c in t if s == decl] + [c for s, c in seen.trick if s == decl]
    if seen.misere:
        return {decl: lambda cards: max(0, misere_danger(cards + shown) - MISERE_SLACK)}
    level, trump = seen.level or 6, seen.trump
    return {decl: lambda cards: max(0, round(10 * (level - estimate(cards + shown, trump))))}


def simple_card(seen: Seen, cards: list[str]) -> str:
    """The easy player's card: on распасы and мизер keep out of tricks (the catchers
    lead and follow low too, hoping the declarer must overtake); in a game win the trick
    cheaply when the partner is not winning it, else play low."""
    by_rule = talon_trick_card(seen, cards)
    if by_rule is not None:
        return by_rule
    table = [c for _, c in seen.trick]
    led = table[0][1] if table else None
    low = min(cards, key=lambda c: (RV[c[0]], c))
    if seen.raspasy or (seen.misere and seen.seat == seen.declarer):
        if not table:
            return low
        return duck(cards, table, led)
    if seen.misere or not table:
        # leading: the top of the longest strong suit (the declarer), else a low card
        if not table and seen.seat == seen.declarer and not seen.misere:
            return max(cards, key=lambda c: (RV[c[0]], sum(1 for x in cards if x[1] == c[1])))
        return low
    trump = seen.trump
    winner = seen.trick[winning_index(table, trump)][0]
    me = mover(seen)
    same_side = (winner == seen.declarer) == (me == seen.declarer)
    if same_side:
        return low
    beating = [c for c in cards if winning_index(table + [c], trump) == len(table)]
    return min(beating, key=lambda c: (RV[c[0]], c)) if beating else low
