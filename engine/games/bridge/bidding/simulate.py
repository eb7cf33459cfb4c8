"""Simulation of the captain's decisions (issue 31): GIB-style, over sampled layouts.

When placement (``placement.place``) makes a call after partner has spoken — the
contract-placing choice (pass / invite / game / slam / strain) or, against the opponents'
contract at the 2-5 level, pass / compete / double — a few candidate calls are tried
besides the rule call:

1. the other three hands are dealt many times from the unseen cards, each seat's hand
   redrawn until it fits what its calls showed (``inference.auction_inferences``, the
   sampler the card player uses: ``engine/ddplay/sampler.sample_fitting``);
2. on each layout every candidate is made and the rest of the auction is bid out by the
   rule bidder at all four seats (``decide``), and the contract reached is scored at its
   double-dummy tricks (one DDS solve per distinct contract and declarer; a layout where
   every candidate reaches the same contract needs none and counts 0). Our contract two
   down where the opponents bid, and our double of theirs that makes, are scored as a
   good opponent would punish them (doubled, redoubled: ``punished``), which the rule
   bidder at their seats rarely does;
3. each candidate's IMPs against the rule call's, layout by layout (paired: the same
   layouts for every candidate), are averaged; the best candidate replaces the rule call
   only when its mean gain is at least ``MARGIN`` IMPs and ``Z`` standard errors, so
   sampling noise does not override the system.

Only the seat's own view is used (its hand and the public auction). Deterministic: the
layouts come from a generator seeded by the view, and the work is bounded by counts
(layouts, DDS solves), never by a clock; a ``Deadline`` stops it early, and with fewer than
``MIN_LAYOUTS`` layouts done the rule call stands. Under a deadline a DDS solve starts only
while one as slow as the slowest so far still fits (a solve cannot be cut).
"""

from __future__ import annotations

import math
import random
import statistics
import zlib
from typing import TYPE_CHECKING

from engine.games.bridge import auction as A
from engine.deadline import Deadline, Pace

from .hand import SUITS, Hand
from .placement import GAME, choose_strain, partner_estimate, their_suits
from .system import cheapest

if TYPE_CHECKING:
    from engine.games.bridge.inference import HandRange

LAYOUTS = 16  # layouts dealt per decision
MIN_LAYOUTS = 8  # fewer done by the deadline: keep the rule call
MAX_SOLVES = 24  # DDS solves per decision (13-card deals, ~0.05 s each on a free core)
MARGIN = 1.0  # IMPs a layout an alternative must gain on average over the rule call ...
Z = 1.0  # ... and this many standard errors of that mean
FIT_TRIES = 400  # hand draws per layout spent fitting the auction
DECK = [r + s for s in SUITS for r in "23456789TJQKA"]

IMP_STEPS: tuple[int, ...] = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300)
IMP_STEPS += (1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)


def imps(diff: int) -> int:
    """The IMPs of a score difference (WBF table), signed."""
    n = sum(1 for step in IMP_STEPS if abs(diff) >= step)
    return n if diff >= 0 else -n


def duplicate_score(level: int, strain: str, doubling: int, tricks: int, vulnerable: bool) -> int:
    """The declaring side's duplicate score of a contract making ``tricks``."""
    need = level + 6
    mult = (1, 2, 4)[doubling]
    if tricks < need:
        down = need - tricks
        if doubling == 0:
            return -down * (100 if vulnerable else 50)
        steps = [200, 300] if vulnerable else [100, 200, 200, 300]
        pen = sum(steps[min(i, len(steps) - 1)] for i in range(down))
        return -pen * (2 if doubling == 2 else 1)
    per = 20 if strain in "CD" else 30
    below = (per * level + (10 if strain == "NT" else 0)) * mult
    score = below + (50 * doubling)
    score += (500 if vulnerable else 300) if below >= 100 else 50
    if level == 6:
        score += 750 if vulnerable else 500
    elif level == 7:
        score += 1500 if vulnerable else 1000
    over = tricks - need
    if doubling == 0:
        score += over * per
    else:
        score += over * (200 if vulnerable else 100) * (2 if doubling == 2 else 1)
    return score


def punished(level: int, doubling: int, made: int, ours: bool, contested: bool) -> int:
    """The doubling a layout's contract is scored at. The bid-outs' opponents bid by our
    rules, which rarely double or redouble; other players punish more. Our undoubled
    contract two or more down in an auction they bid in counts as doubled, and our double
    of their contract that makes counts as redoubled."""
    if ours and doubling == 0 and made <= level + 4 and contested:
        return 1
    if not ours and doubling == 1 and made >= level + 6:
        return 2
    return doubling


# ------------------------------------------------------------------ candidates
def candidates(
    hand: Hand, calls: list[str], dealer: int, seat: int, legal: set[str], inf: dict[int, HandRange], rule: str
) -> list[str]:
    """The rule call first, then up to three sensible alternatives; just the rule call
    when the decision is not one simulated (partner silent, slam conventions, too high)."""
    partner = inf[(seat + 2) % 4]
    if not any(c != "P" for i, c in enumerate(calls) if (dealer + i) % 4 == (seat + 2) % 4):
        return [rule]
    found = A.last_bid(calls)
    if found is None or "4NT" in calls or any(c[0] in "67" for c in calls):
        return [rule]
    index, last = found
    ours = (dealer + index) % 2 == seat % 2
    strain, _ = choose_strain(hand, partner, their_suits(calls, dealer, seat))
    out = [rule]

    def add(call: str | None) -> None:
        if call and call in legal and call not in out:
            out.append(call)

    if ours:
        forced = calls[-1] == "P" and rule != "P"  # leave forcing situations' passes to the rules
        if not forced or rule == "P":
            add("P")
        add(f"{GAME[strain]}{strain}")
        if strain in "CD":
            add("3NT")
        est = partner_estimate(hand, partner, inf, seat)
        if hand.hcp + est >= 29:
            add(f"6{strain}")
    else:
        level = int(last[0])
        if not 2 <= level <= 5:
            return [rule]
        add("P")
        add("X")
        add(cheapest(strain, last) if strain != "NT" else None)
    return out[:4]


# ------------------------------------------------------------------ layouts
def layout(
    hand: list[str], seat: int, inf: dict[int, HandRange], rng: random.Random, open_range: HandRange
) -> list[list[str]]:
    """Four hands: ``hand`` at ``seat``, the others dealt to fit their shown ranges."""
    from engine.ddplay.sampler import sample_fitting

    mine = set(hand)
    pool = [c for c in DECK if c not in mine]
    others = [s for s in range(4) if s != seat]
    fit = {s: inf[s].misfit for s in others if inf[s] != open_range}
    dealt = sample_fitting(pool, {s: 13 for s in others}, {}, rng, fit, None, FIT_TRIES, improve=40)
    return [list(hand) if s == seat else dealt[s] for s in range(4)]


def bid_out(hands: list[list[str]], calls: list[str], dealer: int) -> list[str]:
    """The auction finished by the rule bidder at all four seats."""
    from . import decide

    calls = list(calls)
    while not A.finished(calls) and len(calls) < 60:
        who = (dealer + len(calls)) % 4
        calls.append(decide(Hand(hands[who]), calls, dealer, who, set(A.legal_calls(calls, dealer))))
    if not A.finished(calls):
        calls += ["P", "P", "P"]
    return calls


def tricks_of(hands: list[list[str]], strain: str, declarer: int) -> int:
    """The declarer's double-dummy tricks."""
    from engine.ddplay.solver import solve_counted

    scores, _ = solve_counted(hands, (declarer + 1) % 4, None if strain == "NT" else strain, (), 1)
    return 13 - max(scores.values())


# ------------------------------------------------------------------ the decision
def seed_of(hand: list[str], calls: list[str], dealer: int, seat: int) -> int:
    return zlib.crc32(f"{sorted(hand)}|{calls}|{dealer}|{seat}".encode())


def evaluate(
    hand: list[str],
    calls: list[str],
    dealer: int,
    seat: int,
    vul: dict[str, bool],
    inf: dict[int, HandRange],
    cands: list[str],
    deadline: Deadline,
) -> dict[str, list[int]]:
    """Per candidate (the rule call ``cands[0]`` included, all 0), its IMPs against the
    rule call on each layout done."""
    from engine.games.bridge.inference import HandRange

    rng = random.Random(seed_of(hand, calls, dealer, seat))
    side = seat % 2
    gains: dict[str, list[int]] = {c: [] for c in cands}
    solves = 0
    slowest_solve = 0.0  # seconds by the deadline's clock (0 with no deadline)
    pace = Pace(deadline)
    for _ in range(LAYOUTS):
        if deadline.expired() or not pace.room_for_another():
            break
        hands = layout(hand, seat, inf, rng, HandRange())
        results: dict[str, tuple[int, str, int, int] | None] = {}
        contested: dict[str, bool] = {}  # the opponents bid in the auction that reached it
        for c in cands:
            if deadline.expired():
                return gains  # this layout unfinished: the ones done
            final = bid_out(hands, calls + [c], dealer)
            if A.passed_out(final):
                results[c] = None
            else:
                contract, declarer = A.contract_and_declarer(final, dealer)
                results[c] = (contract.level, contract.strain, contract.doubling, declarer)
                contested[c] = any(x[0].isdigit() for i, x in enumerate(final) if (dealer + i) % 2 != side)
        score = {c: 0 for c in cands}  # the same contract everywhere: 0, no need to solve it
        if len(set(results.values())) > 1:
            needed = {(r[1], r[3]) for r in results.values() if r is not None}
            if solves + len(needed) > MAX_SOLVES:
                break
            tricks = {}
            for strain, declarer in sorted(needed):
                before = deadline.remaining()
                if deadline.expired() or before < slowest_solve:
                    return gains  # a solve as slow as the slowest so far would come late
                tricks[(strain, declarer)] = tricks_of(hands, strain, declarer)
                solves += 1
                if before != math.inf:
                    slowest_solve = max(slowest_solve, before - deadline.remaining())
            for c, r in results.items():
                if r is not None:
                    level, strain, doubling, declarer = r
                    made = tricks[(strain, declarer)]
                    doubling = punished(level, doubling, made, declarer % 2 == side, contested[c])
                    points = duplicate_score(level, strain, doubling, made, vul[("NS", "EW")[declarer % 2]])
                    score[c] = points if declarer % 2 == side else -points
        for c in cands:
            gains[c].append(imps(score[c] - score[cands[0]]))
    return gains


def choose(
    hand: list[str],
    calls: list[str],
    dealer: int,
    seat: int,
    vul: dict[str, bool],
    inf: dict[int, HandRange],
    cands: list[str],
    deadline: Deadline,
) -> str:
    """The candidate to call: the rule call ``cands[0]`` unless another clearly gains."""
    if len(cands) < 2 or deadline.expired():
        return cands[0]
    gains = evaluate(hand, calls, dealer, seat, vul, inf, cands, deadline)
    n = len(gains[cands[0]])
    if n < MIN_LAYOUTS:
        return cands[0]
    best, best_mean = cands[0], 0.0
    for c in cands[1:]:
        mean = statistics.fmean(gains[c])
        se = statistics.stdev(gains[c]) / math.sqrt(n)
        if mean >= MARGIN and mean >= Z * se and mean > best_mean:
            best, best_mean = c, mean
    return best
