"""The computer's decisions before the play: auction, discard, contract, whist, open.

docs/rules/preferans_ru.md sections: the bid order and values §4, the auction §5.1, the
talon and the contract §5.2, the whist decisions and quotas §5.3, the scores §6.2.

- auction: the best strain's expected tricks with the talon (``ai_eval.with_talon``)
  give the highest contract this hand may bid; мизер only with a hand the sampled
  double-dummy check (``ai_eval.misere_safe``, talon included) finds safe often enough;
- discard and contract (the declarer, 12 cards then 10): for the most promising strains
  the two discards that keep the most tricks, then the contract whose expected score
  over sampled double-dummy layouts is best, never below the bid;
- whist: never against a contract no layout consistent with the whister's view lets the
  defence take a trick against (``ai_sure.no_defence_trick``, every level); else the
  expected whists of whisting (tricks × value) against the shortfall risk (missing quota
  tricks × the penalty), over sampled layouts of the unseen cards; полвиста rather than
  a pass whenever it is open; open whisting (в светлую) always.
The easy level takes the same decisions from quick estimates only (``Budget.samples``
= 0): no search.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations

from engine.cards import RANK_VALUE as RV
from engine.deadline import NEVER, Deadline

from .ai_eval import (
    HIGH_LEVEL,
    best_strains,
    by_suit,
    declarer_tricks,
    estimate,
    misere_danger,
    misere_safe,
    sure_tricks,
    top_run,
)
from .ai_view import DECK, Seen, parse_level, parse_trump
from .ai_dd import OutOfNodes, Position
from .ai_sure import no_defence_trick

STRAINS = ("S", "C", "D", "H", "NT")
VALUE = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}
QUOTA = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}
QUOTA_SPLIT = {6: (2, 2), 7: (1, 1), 8: (0, 1), 9: (0, 1), 10: (0, 1)}
MISERE_RANK = 15  # between 8NT (14) and 9S (16), §4
MOUNTAIN = 20 / 3  # whists a mountain point costs its owner at a three-player settlement (§6.5)
WHIST_EDGE = 12.0  # whists the expected value of whisting must exceed: the samples overrate the
# defence against declarers who underbid (measured against passing on the same deals)
RAISE_BY = 2  # tricks above the lowest contract by the quick count that make the easy player raise
MISERE_PAIRS = 4  # мизер discards checked by sampled solving
DECLARER_SLACK = 0.0  # a declarer's sampled hand must estimate at least his contract (he chose it)
MEND_SWAPS = 300  # a sampled declarer's hand that must hold sure tricks (HIGH_LEVEL) and fits no
# draw is mended by swaps (such fits are rare)


@dataclass(frozen=True)
class Budget:
    samples: int  # layouts per double-dummy estimate (0: quick estimates only)
    nodes: int  # solver nodes per estimate
    reach: float  # tricks the auction bids above its estimate (of a six; half a trick less higher up)
    misere_safe: float  # the share of safe layouts a мизер needs
    deadline: Deadline = field(default=NEVER, compare=False)  # the caller's: then the layouts so far decide


def bid_rank(bid: str) -> int:
    """Position in the bid order of §4 (6S = 0 … 8NT = 14, мизер 15, 9S = 16 … 10NT = 25)."""
    bid = bid.upper()
    if bid.startswith("MIS"):
        return MISERE_RANK
    level = parse_level(bid) or 6
    strain = "NT" if bid.endswith("NT") else bid[-1]
    rank = (level - 6) * 5 + STRAINS.index(strain)
    return rank + 1 if rank >= MISERE_RANK else rank


def bid_of(action: str) -> str:
    return action.split()[-1]


# ---------------------------------------------------------------------- auction
def max_bid(seen: Seen, budget: Budget) -> int:
    """The rank of the highest game this hand should bid (-1: none)."""
    unseen = [c for c in DECK if c not in seen.hand]
    best = -1
    for tricks, strain in best_strains(seen.hand, unseen):
        # measured: an estimate of 5.25-6 makes a six about 2 times in 3 (double-dummy),
        # and a hand that passes into распасы with tricks pays for them (§6.3)
        level = int(tricks + budget.reach)
        if level >= 7:
            level = max(6, int(tricks + budget.reach - 0.5))
        if level >= 6:
            best = max(best, bid_rank(f"{min(level, 10)}{strain}"))
    return best


def misere_ok(seen: Seen, rng: random.Random, budget: Budget) -> bool:
    danger = misere_danger(seen.hand)
    if budget.samples == 0:
        return danger == 0
    if danger > 6:  # far from a мизер hand: no search
        return False
    unseen = [c for c in DECK if c not in seen.hand]
    chance = misere_safe(
        seen.hand, seen.seat, seen.active, unseen, rng, budget.samples, budget.nodes, True, budget.deadline
    )
    return chance >= budget.misere_safe


def auction(seen: Seen, legal: list[str], rng: random.Random, budget: Budget) -> str:
    top = max_bid(seen, budget)
    if "bid MISERE" in legal and top < bid_rank("8S") and misere_ok(seen, rng, budget):
        return "bid MISERE"
    games = sorted((a for a in legal if a.startswith("bid ") and "MIS" not in a), key=lambda a: bid_rank(bid_of(a)))
    if "here" in legal and games and bid_rank(bid_of(games[0])) - 1 <= top:
        return "here"  # hold the current bid: we would have bid it
    for action in games:
        if bid_rank(bid_of(action)) <= top:
            return action
        break  # the lowest bid allowed is already too high
    return "pass" if "pass" in legal else legal[0]


# ---------------------------------------------------------------------- talon
def game_discard(hand12: list[str], strain: str) -> tuple[str, str]:
    """The two cards whose removal keeps the most tricks in ``strain`` (ties: drop the
    lowest cards of the shortest side suits, to ruff sooner)."""
    trump = None if strain == "NT" else strain
    suits = by_suit(hand12)
    best: tuple[str, str] | None = None
    best_key: tuple[float, int, int] | None = None
    for pair in combinations(sorted(hand12), 2):
        rest = [c for c in hand12 if c not in pair]
        shortness = -sum(len(suits[c[1]]) for c in pair if c[1] != trump)
        key = (estimate(rest, trump), -sum(RV[c[0]] for c in pair), shortness)
        if best_key is None or key > best_key:
            best, best_key = pair, key
    assert best is not None
    return best


def score_game(level: int, tricks: int) -> float:
    """A contract's worth in whists to the declarer (§6.2, §6.5 with three players): a
    made game's pool points, a failed one's mountain and the consolation, less the
    whists the defenders write for their tricks (they whist about half the time)."""
    v = VALUE[level]
    whisted = 0.5 * v * (10 - tricks)
    if tricks >= level:
        return 20 / 3 * v - whisted
    down = level - tricks
    return -(20 / 3 + 2) * v * down - whisted


def plans(seen: Seen, hand: list[str], budget: Budget) -> list[str]:
    """Strains worth checking for ``hand``: the best two by the quick estimate."""
    ranked = sorted(STRAINS, key=lambda s: -estimate(hand, None if s == "NT" else s))
    return ranked[: 2 if budget.samples else 1]


def discard_pair(seen: Seen, hand12: list[str], rng: random.Random, budget: Budget) -> tuple[str, str]:
    if seen.misere:
        return misere_pair(seen, hand12, rng, budget)
    choices = [(s, game_discard(hand12, s)) for s in plans(seen, hand12, budget)]
    if budget.samples == 0 or len(choices) == 1:
        return choices[0][1]
    unseen = [c for c in DECK if c not in hand12]
    least = parse_level(seen.contract) or parse_level(seen.bid) or bid_level(seen)
    best, best_value = choices[0][1], None
    for strain, pair in choices:
        rest = [c for c in hand12 if c not in pair]
        trump = None if strain == "NT" else strain
        got = declarer_tricks(
            rest, seen.seat, seen.active, unseen, trump, rng, budget.samples, budget.nodes, budget.deadline
        )
        if not got:
            continue
        value = max(sum(score_game(lv, t) for t in got) / len(got) for lv in range(least, 11))
        if best_value is None or value > best_value:
            best, best_value = pair, value
    return best


def misere_pair(seen: Seen, hand12: list[str], rng: random.Random, budget: Budget) -> tuple[str, str]:
    """The мизер discard: the safest pairs by the quick measure, the best of them by the
    share of sampled layouts the catchers cannot catch (ties: the quick measure's order)."""
    pairs = sorted(
        combinations(sorted(hand12), 2),
        key=lambda p: (misere_danger([c for c in hand12 if c not in p]), -sum(RV[c[0]] for c in p)),
    )
    if budget.samples == 0 or misere_danger([c for c in hand12 if c not in pairs[0]]) == 0:
        return pairs[0]
    unseen = [c for c in DECK if c not in hand12]
    best, best_safe = pairs[0], -1.0
    seed = rng.random()  # the same layouts for every pair: the comparison is fair
    for pair in pairs[:MISERE_PAIRS]:
        rest = [c for c in hand12 if c not in pair]
        safe = misere_safe(
            rest,
            seen.seat,
            seen.active,
            unseen,
            random.Random(seed),
            budget.samples,
            budget.nodes,
            deadline=budget.deadline,
        )
        if safe > best_safe:
            best, best_safe = pair, safe
    return best


def bid_level(seen: Seen) -> int:
    """The declarer's winning bid level (6 when he has not bid a game)."""
    mine = [bid_of(c) for s, c in seen.calls if s == seen.seat and c.startswith("bid")]
    levels = [parse_level(b) for b in mine if not b.upper().startswith("MIS")]
    return max([lv for lv in levels if lv is not None], default=6)


def discard(seen: Seen, legal: list[str], rng: random.Random, budget: Budget) -> str:
    """The engine takes the two discards one card at a time. The pair is chosen on the
    twelve cards with a random source seeded by them, so the second call (eleven cards
    and the first discard) finds the same pair and gives its other card."""
    hand12 = list(seen.hand) + list(seen.discards)
    pair = discard_pair(seen, hand12, random.Random(" ".join(sorted(hand12))), budget)
    if len(seen.hand) == 12:
        choice = pair[0]
    elif set(seen.discards) <= set(pair):
        choice = next(c for c in pair if c not in seen.discards)
    else:
        choice = second_discard(seen)
    for action in legal:
        if action.split()[1:2] == [choice]:
            return action
    return legal[0]


def second_discard(seen: Seen) -> str:
    hand = list(seen.hand)
    if seen.misere:
        return min(hand, key=lambda c: (misere_danger([x for x in hand if x != c]), -RV[c[0]]))
    strain = plans(seen, hand + seen.discards, Budget(0, 0, 0.5, 1.0))[0]
    trump = None if strain == "NT" else strain
    return max(hand, key=lambda c: (estimate([x for x in hand if x != c], trump), -RV[c[0]]))


def contract(seen: Seen, legal: list[str], rng: random.Random, budget: Budget) -> str:
    options = [a for a in legal if a.startswith("contract ")]
    if not options:
        return legal[0]
    if any("MIS" in a for a in options):
        return next(a for a in options if "MIS" in a)
    lowest = min(options, key=lambda a: bid_rank(bid_of(a)))
    strains = plans(seen, seen.hand, budget)
    if budget.samples == 0:
        # the lowest allowed contract in the best strain, raised when the hand counts
        # RAISE_BY tricks more (one trick of the count kept as a margin)
        fit = [a for a in options if (bid_of(a).endswith("NT") and strains[0] == "NT") or bid_of(a)[-1] == strains[0]]
        lowest_fit = min(fit or options, key=lambda a: bid_rank(bid_of(a)))
        count = int(estimate(seen.hand, None if strains[0] == "NT" else strains[0]))
        if fit and count >= (parse_level(bid_of(lowest_fit)) or 6) + RAISE_BY:
            worth = [a for a in fit if (parse_level(bid_of(a)) or 6) <= count - 1]
            return max(worth, key=lambda a: bid_rank(bid_of(a)), default=lowest_fit)
        return lowest_fit
    unseen = [c for c in DECK if c not in seen.hand and c not in seen.discards and c not in seen.talon]
    unseen += [c for c in seen.talon if c not in seen.hand and c not in seen.discards]
    best, best_value = lowest, None
    for strain in strains:
        trump = None if strain == "NT" else strain
        got = declarer_tricks(
            seen.hand, seen.seat, seen.active, unseen, trump, rng, budget.samples, budget.nodes, budget.deadline
        )
        if not got:
            continue
        for action in options:
            name = bid_of(action)
            if parse_trump(name) != trump or (trump is None and not name.endswith("NT")):
                continue
            level = parse_level(name) or 6
            value = sum(score_game(level, t) for t in got) / len(got)
            if best_value is None or value > best_value:
                best, best_value = action, value
    return best


# ---------------------------------------------------------------------- whist
def defender_estimate(hand: list[str], trump: str | None) -> float:
    """Tricks this hand takes against a declarer in ``trump``: aces, guarded kings, the
    trump honours. Against a trump a side ace counts half in a suit of five or more (the
    declarer may be void and ruff it); without trumps nobody ruffs: the ace and the run
    under it are tricks, the whole suit once the run outlasts the others' cards of it
    (as the declarer's ``sure_tricks`` counts)."""
    total = 0.0
    for suit, ranks in by_suit(hand).items():
        if not ranks:
            continue
        if suit == trump:
            total += sum(1.0 for i, r in enumerate(ranks) if r >= 14 - i - (len(ranks) >= 3))
            continue
        if ranks[0] == 14 and trump is None:
            run = top_run(ranks)
            total += len(ranks) if run >= 8 - len(ranks) else run
        elif ranks[0] == 14:
            total += 1.0 if len(ranks) <= 4 else 0.5
            if len(ranks) >= 2 and ranks[1] == 13 and len(ranks) <= 3:
                total += 0.7
        elif ranks[0] == 13 and len(ranks) >= 2:
            total += 0.5
    return total


def whist_layout(seen: Seen, rng: random.Random) -> dict[int, list[str]]:
    """One layout of the hands as a defender deciding to whist samples it: the declarer's
    hidden cards drawn to hold his contract."""
    assert seen.declarer is not None
    trump, level = seen.trump, seen.level or 6

    def promised(cards: list[str]) -> int:
        """How far (in tenths of a trick) the declarer's hand is from his contract. A nine
        or a ten is counted in sure tricks: the quick estimate lends such a declarer
        tricks he would never bid on, and the samples then hand the defence tricks it
        cannot have (both defenders whisting a solid ten)."""
        count = sure_tricks(cards, trump) if level >= HIGH_LEVEL else estimate(cards, trump)
        return max(0, round(10 * (level - DECLARER_SLACK - count)))

    return seen.sample(rng, {seen.declarer: promised}, improve=MEND_SWAPS if level >= HIGH_LEVEL else 0)


def defence_tricks(seen: Seen, rng: random.Random, budget: Budget) -> list[int]:
    """The defenders' double-dummy tricks over sampled layouts (the first hand leads)."""
    assert seen.declarer is not None
    declarer, trump = seen.declarer, seen.trump
    pos = Position(seen.active, declarer, trump, avoid=False, limit=budget.nodes, deadline=budget.deadline)
    out: list[int] = []
    for _ in range(budget.samples):
        hands = whist_layout(seen, rng)
        if any(len(hands[s]) != 10 for s in seen.active):
            break
        try:
            out.append(10 - pos.tricks(hands, seen.first_hand))
        except OutOfNodes:
            break
    return out


def whist_value(level: int, side: int, mine: float, quota: int, wv: int, pen: float) -> float:
    """What whisting is worth to me in whists (§6.2, §6.5 with three players) when the
    defence takes ``side`` tricks and I count ``mine``: the whists written, less the
    shortfall penalty (mountain points, each ten whists shared with two others); when the
    declarer fails, his mountain and the consolation."""
    down = max(0, side - (10 - level))
    short = max(0.0, quota - mine)
    return wv * mine - MOUNTAIN * pen * short + (wv + MOUNTAIN / 2 * VALUE[level]) * down


def whist(seen: Seen, legal: list[str], rng: random.Random, budget: Budget) -> str:
    if no_defence_trick(seen):  # every level: no whist the defence cannot take a trick against
        return "half" if "half" in legal else "pass" if "pass" in legal else legal[0]
    level = seen.level or 6
    v = VALUE[level]
    wv = v * int(seen.options.get("whist_factor", 1))
    full = seen.options.get("whist_responsibility", "full") == "full"
    pen = float(v) if full else wv / 2
    quota = QUOTA[level]
    first, second = seen.defenders()
    partner = second if seen.seat == first else first
    both = seen.whist.get(partner) == "whist" and seen.seat == second
    if both:
        quota = QUOTA_SPLIT[level][1]
    got = defence_tricks(seen, rng, budget) if budget.samples else []
    if not got:  # the quick estimate: the partner's cards are hoped to match ours
        mine = defender_estimate(seen.hand, seen.trump)
        got = [round(mine if both else 2 * mine)]
    share = 0.5 if both else 1.0  # two whisters: each takes about half the side's tricks
    ev = sum(whist_value(level, d, d * share, quota, wv, pen) for d in got) / len(got)
    half_value = QUOTA[level] / 2 * wv
    if "half" in legal and ev < half_value:
        return "half"
    if "whist" in legal and ev > WHIST_EDGE:
        return "whist"
    if "half" in legal:
        return "half"  # whists written for no play: never worse than a pass
    return "pass" if "pass" in legal else legal[0]


def open_choice(legal: list[str]) -> str:
    """The lone whister plays in the light: both defenders' cards then play as one side."""
    for action in legal:
        if action.startswith("open"):
            return action
    return legal[0]
