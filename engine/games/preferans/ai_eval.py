"""How likely a contract is to make, from one seat's knowledge: sampled layouts of the
unseen cards, each solved double-dummy (``dd``) with both defenders playing.

Used by the strong player's decisions before the play (``ai_decide``). The search is
bounded by a count of solver nodes, so results are reproducible for a random seed.
"""

from __future__ import annotations

import random
from itertools import combinations

from engine.cards import RANK_VALUE as RV

from . import ai_easy
from .ai_sample import PILE, Knowledge, Layout, sample
from .ai_settle import modelled_defence, worth
from engine.deadline import NEVER, Deadline
from engine.preferans_family.dd import OutOfNodes, Solver, mask_of

SUIT_OF = {2: "S", 3: "D", 4: "H", 5: "C", 6: None, 7: None}
BETTEL, SANS = 6, 7


def first_leader(fh: int, declarer: int, number: int, parts: tuple[int, ...] = (0, 1, 2)) -> int:
    """§6.1: the first participant clockwise from first hand leads; in Sans not the
    declarer (then the next participant after him)."""

    def after(x: int) -> int:
        for step in range(1, 4):
            if (x + step) % 3 in parts:
                return (x + step) % 3
        raise AssertionError("no participant")  # pragma: no cover

    leader = fh if fh in parts else after(fh)
    if number == SANS and leader == declarer:
        leader = after(declarer)
    return leader


def more(samples: int, nodes: int, least: int, most: int, budget: int) -> bool:
    """Start another layout? At least ``least``, at most ``most``, and only while one
    more layout of the average size so far still fits the node budget."""
    if samples >= most:
        return False
    if samples < least:
        return True
    return nodes + nodes / samples <= budget


def makes(solver: Solver, hands: dict[int, int], leader: int, number: int) -> bool:
    """Does the declarer make the contract in this layout, double-dummy?"""
    h = solver._tuple(hands)
    if number == BETTEL:
        return not solver._ge(h, leader, (), 1)
    return solver._ge(h, leader, (), 6)


def keep_score(hand: list[str], number: int) -> float:
    """A quick guess of how good ``hand`` (10 cards) is for contract ``number``."""
    if number == BETTEL:
        return 7.0 if ai_easy.bettel_ok(hand) else -_bettel_danger(hand)
    return ai_easy.estimate(hand, SUIT_OF[number])


def _bettel_danger(hand: list[str]) -> float:
    """How far a hand is from a safe Bettel (high cards without small cards under them)."""
    return sum(RV[c[0]] - 9 for c in hand if RV[c[0]] > 10)


def best_discard(hand12: list[str], number: int) -> tuple[str, str]:
    """The two cards to drop for ``number``: the pair whose remaining ten score best
    (ties: drop the lower cards). 66 pairs, scored by the quick guess."""
    best, best_key = None, None
    for pair in combinations(sorted(hand12), 2):
        rest = [c for c in hand12 if c not in pair]
        key = (keep_score(rest, number), -sum(RV[c[0]] for c in pair))
        if best_key is None or key > best_key:
            best, best_key = pair, key
    return best  # type: ignore[return-value]


def guess_chance(cards: list[str], number: int, talon: bool = False) -> float:
    """A rough P(make) from the quick guess alone (when the search ran out); before the
    talon is taken, hope for about a trick from it."""
    return min(1.0, max(0.0, (keep_score(cards, number) + (1.0 if talon else 0.0) - 4.5) / 3))


def plausible_declarer(cards: list[str], number: int) -> bool:
    """Would a player have declared ``number`` with these ten cards? (Rejects layouts
    that contradict the auction.)"""
    if number == BETTEL:
        return _bettel_danger(cards) <= 4
    return ai_easy.estimate(cards, SUIT_OF[number]) >= 5.5


def chances(
    know: Knowledge,
    me: int,
    declarer: int,
    fh: int,
    numbers: list[int],
    rng: random.Random,
    node_budget: int,
    max_samples: int,
    my_cards: list[str] | None = None,
    pick_talon: bool = False,
    decl_filter: int | None = None,
    deadline: Deadline = NEVER,
) -> dict[int, float]:
    """P(make) of each contract in ``numbers`` for ``declarer`` over sampled layouts.

    ``pick_talon``: the declarer is me before the talon (the auction): each layout's
    talon joins my hand and I drop the best two cards for each contract.
    ``decl_filter``: the declarer is somebody else and declared this contract:
    layouts where his hand would not have done so are redrawn (a few times)."""
    made = {n: 0 for n in numbers}
    cap = 2 * node_budget // max(1, len(numbers))
    solvers = {n: Solver(declarer, [0, 1, 2], SUIT_OF[n], n == BETTEL, limit=cap, deadline=deadline) for n in numbers}
    samples = 0
    nodes = 0
    mine = list(my_cards if my_cards is not None else know.hand)
    while more(samples, nodes, 2, max_samples, node_budget):
        layout = sample(know, rng)
        if decl_filter is not None:
            for _ in range(12):
                if plausible_declarer(layout[declarer], decl_filter):
                    break
                layout = sample(know, rng)
        outcome = {}
        try:
            for n in numbers:
                hands = {x: mask_of(layout[x]) for x in range(3) if x != me}
                hands[me] = _my_hand_mask(mine, layout, n, pick_talon)
                s = solvers[n]
                before = s.nodes
                outcome[n] = makes(s, hands, first_leader(fh, declarer, n), n)
                nodes += s.nodes - before
        except OutOfNodes:  # cut off: keep the layouts solved so far
            break
        for n in numbers:
            made[n] += outcome[n]
        samples += 1
    if samples == 0:  # no layout could be solved in the budget: the quick guess
        return {n: guess_chance(mine, n, pick_talon) for n in numbers}
    return {n: made[n] / samples for n in numbers}


def _my_hand_mask(mine: list[str], layout: Layout, number: int, pick_talon: bool) -> int:
    """My ten cards for contract ``number``: my hand, or with ``pick_talon`` my twelve
    (hand + this layout's talon) less the best discard for that contract."""
    if not pick_talon:
        return mask_of(mine)
    twelve = mine + layout[PILE]
    drop = best_discard(twelve, number)
    return mask_of([c for c in twelve if c not in drop])


# How many tricks better than double-dummy the declarer does at the table, as a chance
# of one more trick: the solver's defenders see every card, real ones do not.
DECL_EDGE = 0.5  # calibrated on seed 1 (0.25: +8.2, 0.5: +9.1 whists per hand)


def declarer_worth(
    know: Knowledge,
    me: int,
    fh: int,
    numbers: list[int],
    rng: random.Random,
    node_budget: int,
    max_samples: int,
    two_needs_kontra: bool,
    my_cards: list[str] | None = None,
    pick_talon: bool = False,
    deadline: Deadline = NEVER,
) -> dict[int, float]:
    """The expected worth (``ai_settle.worth``, units of v) of declaring each contract in
    ``numbers`` myself, over sampled layouts: the defence the other two would put up
    (``ai_settle.modelled_defence``), then the declarer's tricks double-dummy (with
    ``DECL_EDGE``). ``pick_talon`` as in ``chances``."""
    total = {n: 0.0 for n in numbers}
    cap = 2 * node_budget // max(1, len(numbers))
    solvers = {n: Solver(me, [0, 1, 2], SUIT_OF[n], n == BETTEL, limit=cap, deadline=deadline) for n in numbers}
    samples = nodes = 0
    mine = list(my_cards if my_cards is not None else know.hand)
    others = [x for x in range(3) if x != me]
    while more(samples, nodes, 2, max_samples, node_budget):
        layout = sample(know, rng)
        outcome = {}
        try:
            for n in numbers:
                defence = modelled_defence(layout, me, n, two_needs_kontra and n == 2)
                if not defence.players:
                    outcome[n] = 10.0
                    continue
                hands = {x: mask_of(layout[x]) for x in others}
                hands[me] = _my_hand_mask(mine, layout, n, pick_talon)
                s = solvers[n]
                before = s.nodes
                lead = first_leader(fh, me, n)
                if n == BETTEL:  # only whether I take a trick (play stops there)
                    t = int(s._ge(s._tuple(hands), lead, (), 1))
                else:
                    t = s.tricks(hands, lead)
                nodes += s.nodes - before
                if n == BETTEL:
                    outcome[n] = worth(defence, n, t, me)
                else:
                    outcome[n] = (1 - DECL_EDGE) * worth(defence, n, t, me) + DECL_EDGE * worth(
                        defence, n, min(10, t + 1), me
                    )
        except OutOfNodes:  # cut off: keep the layouts solved so far
            break
        for n in numbers:
            total[n] += outcome[n]
        samples += 1
    if samples == 0:  # no layout could be solved in the budget: the quick guess
        return {n: 27.5 * guess_chance(mine, n, pick_talon) - 17.5 for n in numbers}
    return {n: total[n] / samples for n in numbers}
