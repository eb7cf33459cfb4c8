"""The strong player's decisions before the play: auction, talon, contract, defence and
the kontra chain, each by its expected settlement over sampled layouts solved
double-dummy.

The unit is the settlement of rules §7 seen as "my result minus the mean of the other
two", per contract value v (``ai_settle``): a made contract is worth +10v to the
declarer less 1.5v per defenders' trick, a failed one −17.5v, an undefended one +10v.
- as declarer (auction, discards, contract): ``ai_eval.declarer_worth``, the other two
  answering by an ordinary player's rules (a free win when neither whists, a penalty
  when a weak whister falls short of his quota);
- as defender (whist / pass / invite, kontra): ``ai_defend``, the other defender
  answering by the same rules and his hand fitting what he already said;
- the declarer's rekontra and a defender's subkontra: the chance of the contract making
  (``ai_eval.chances``, ``make_chance``), only when it is near certain.
``Budget`` holds the search sizes (the normal level uses less).

Searches whose answer the next decision needs again (the auction's calls, the two
discards and the contract, the defence and the kontra round) are pure functions of
what the seat sees, seeded by it and cached, so they agree and are not repeated.
Each side raises the kontra chain at most once, so it always ends.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any
from zlib import crc32

from engine.jsondata import JsonDict

from . import ai_easy
from .ai_defend import defence_view, defence_worth, kontra_worth
from .ai_eval import (
    BETTEL,
    SUIT_OF,
    best_discard,
    chances,
    declarer_worth,
    first_leader,
    keep_score,
    makes,
    more,
    plausible_declarer,
)
from .ai_sample import Knowledge, Layout, auction_knowledge, knowledge, sample
from engine.deadline import NEVER, Deadline, complete_cache
from engine.preferans_family.dd import OutOfNodes, Solver, mask_of
from .rules import DECK
from .scoring import value

NAME = {2: "S", 3: "D", 4: "H", 5: "C", 6: "BETTEL", 7: "SANS"}


@dataclass(frozen=True)
class Budget:
    nodes: int  # solver nodes per decision (then no new layout is started)
    samples: int  # at most this many layouts
    candidates: int  # contracts checked by search (the rest by the quick guess)


# a kontra doubles the stakes on a double-dummy count the real play may not bear out
KONTRA_MARGIN = 1.0
# The strong budget: a layout of the auction (talon picked, twelve cards) costs the
# solver thousands of nodes, and with 10000 most auctions stopped after two layouts and
# bid on their noise; 50000 nodes (up to 24 layouts) gained +5.4 ± 3.2 and +1.8 ± 3.3
# whists per hand on seeds 5 and 6 (bench/strength/preferans.py), CPU p99 0.1 -> 0.4 s.
STRONG = Budget(nodes=50000, samples=24, candidates=2)
NORMAL = Budget(nodes=3000, samples=4, candidates=1)


def _seed(*parts: object) -> int:
    return crc32(repr(parts).encode())


def _candidates(hand: list[str], numbers: list[int], k: int) -> list[int]:
    """The ``k`` most promising contracts by the quick guess (Bettel only if it looks safe)."""
    scored = []
    for n in numbers:
        s = keep_score(hand, n)
        if n == BETTEL and s < 6:
            continue
        scored.append((s + (0.3 if n == 7 else 0), n))
    scored.sort(reverse=True)
    return [n for _, n in scored[:k]]


# --------------------------------------------------------------------------- auction
def auction(view: JsonDict, legal: list[str], rng: random.Random, budget: Budget, deadline: Deadline = NEVER) -> str:
    hand = view["hand"]
    if "bid 2" not in legal and "moje" not in legal and not any(a.startswith("bid") for a in legal):
        return "pass"  # after an igra: our player does not name igra contracts
    quick = max([ai_easy.estimate(hand, s) for s in "SDHC"] + [ai_easy.estimate(hand, None)])
    bettelish = keep_score(hand, BETTEL) >= 6
    if quick < 3.5 and not bettelish:
        return "pass"
    high = view["high"]
    lowest = 2 if high is None else high + (0 if "moje" in legal else 1)
    numbers = [n for n in range(max(lowest, 2), 8)]
    if not numbers:
        return "pass"
    w = auction_worth(
        tuple(hand), view["seat"], view["first_hand"], _two_needs_kontra_for(view), budget, deadline=deadline
    )
    good = [n for n in w if n in numbers and w[n] > 0]
    if not good:
        return "pass"
    top = max(good)
    if "moje" in legal and high is not None and high <= top:
        return "moje"
    bids = sorted(int(a.split()[1]) for a in legal if a.startswith("bid "))
    ok = [b for b in bids if b <= top]
    return f"bid {ok[0]}" if ok else "pass"


@complete_cache(maxsize=64)
def auction_worth(
    hand: tuple[str, ...], me: int, fh: int, two_needs_kontra: bool, budget: Budget, *, deadline: Deadline = NEVER
) -> dict[int, float]:
    """What declaring my most promising contracts is worth (units of v) if I win the
    auction and take the talon. Pure (seeded by the cards), so each call of the same
    auction reuses it."""
    cands = _candidates(list(hand), list(range(2, 8)), budget.candidates)
    if not cands:
        return {}
    know = auction_knowledge({"seat": me, "hand": list(hand)})
    rng = random.Random(_seed(hand, me, fh))
    return declarer_worth(
        know, me, fh, cands, rng, budget.nodes, budget.samples, two_needs_kontra, pick_talon=True, deadline=deadline
    )


def _two_needs_kontra_for(view: JsonDict) -> bool:
    """Would a "two" of mine be played only if kontra'd (no refe of mine to use)?"""
    opts = view.get("options") or {}
    refe = (view.get("sheet") or {}).get("refe") or [0, 0, 0]
    return bool(opts.get("two_requires_kontra", True)) and refe[view["seat"]] == 0


# --------------------------------------------------------------------------- talon
@complete_cache(maxsize=64)
def talon_plan(
    twelve: tuple[str, ...],
    bid: int,
    me: int,
    fh: int,
    two_needs_kontra: bool,
    budget: Budget,
    *,
    deadline: Deadline = NEVER,
) -> tuple[int, tuple[str, str]]:
    """The contract and the two discards for these twelve cards (pure: its own random
    source is seeded by the cards, so the two discards and the contract agree)."""
    hand12 = list(twelve)
    numbers = [n for n in range(bid, 8)]
    plans = {n: best_discard(hand12, n) for n in numbers}
    tens = {n: [c for c in hand12 if c not in plans[n]] for n in numbers}
    scored = sorted(((keep_score(tens[n], n), n) for n in numbers), reverse=True)
    cands = [n for _, n in scored[: max(budget.candidates, 2)]]
    rng = random.Random(_seed(twelve, bid, me, fh))
    unknown = [c for c in DECK if c not in twelve]
    know = Knowledge(me, [], {(me + 1) % 3: 10, (me + 2) % 3: 10}, {c: ((me + 1) % 3, (me + 2) % 3) for c in unknown})
    evs = {}
    for n in cands:
        w = declarer_worth(
            know,
            me,
            fh,
            [n],
            rng,
            budget.nodes // len(cands),
            budget.samples,
            two_needs_kontra,
            my_cards=tens[n],
            deadline=deadline,
        )[n]
        evs[n] = value(n, False) * w
    best = max(cands, key=lambda n: (evs[n], -n))
    return best, plans[best]


def _twelve(view: JsonDict) -> tuple[str, ...]:
    return tuple(sorted(view["hand"] + (view.get("my_discards") or [])))


def discard(view: JsonDict, legal: list[str], budget: Budget, deadline: Deadline = NEVER) -> str:
    number, pair = talon_plan(
        _twelve(view),
        view["bid"],
        view["seat"],
        view["first_hand"],
        _two_needs_kontra_for(view),
        budget,
        deadline=deadline,
    )
    for c in pair:
        if f"discard {c}" in legal:
            return f"discard {c}"
    return legal[0]  # pragma: no cover - the plan's cards are in hand


def contract(view: JsonDict, legal: list[str], rng: random.Random, budget: Budget, deadline: Deadline = NEVER) -> str:
    if view.get("igra"):
        return ai_easy.computer_action(view, legal, rng)
    number, _ = talon_plan(
        _twelve(view),
        view["bid"],
        view["seat"],
        view["first_hand"],
        _two_needs_kontra_for(view),
        budget,
        deadline=deadline,
    )
    want = f"contract {NAME[number]}"
    return want if want in legal else legal[0]


# --------------------------------------------------------------------------- defence, kontra
def make_chance(view: JsonDict, budget: Budget, deadline: Deadline = NEVER) -> float:
    """From a defender's seat: the chance the contract makes, both defenders playing, over
    sampled layouts (pure: seeded by what the seat sees)."""
    key = (
        tuple(view["hand"]),
        view["number"],
        view["declarer"],
        view["seat"],
        view["first_hand"],
        tuple(view.get("talon") or ()),
        view["igra"],
        tuple(view["hand_counts"]),
    )
    return _make_chance(key, budget, deadline=deadline)


@complete_cache(maxsize=64)
def _make_chance(key: tuple[Any, ...], budget: Budget, *, deadline: Deadline = NEVER) -> float:
    hand, number, decl, me, fh, talon, igra, counts = key
    view = defence_view(hand, number, decl, me, fh, talon, igra, counts)
    rng = random.Random(_seed(key))
    know = knowledge(view)
    bettel = number == BETTEL
    solver = Solver(decl, [0, 1, 2], SUIT_OF[number], bettel, limit=2 * budget.nodes, deadline=deadline)
    lead = first_leader(fh, decl, number)
    mine = mask_of(view["hand"])
    made = samples = 0
    while more(samples, solver.nodes, 2, budget.samples, budget.nodes):
        layout = plausible_layout(know, rng, decl, number)
        hands = {x: (mine if x == me else mask_of(layout[x])) for x in range(3)}
        try:
            made += makes(solver, hands, lead, number)
        except OutOfNodes:  # cut off: keep the layouts solved so far
            break
        samples += 1
    return made / samples if samples else 0.7  # nothing solved: a middling guess


def plausible_layout(know: Knowledge, rng: random.Random, decl: int, number: int) -> Layout:
    """A layout in which the declarer's hand fits his having declared ``number``."""
    layout = sample(know, rng)
    for _ in range(30):
        if plausible_declarer(layout[decl], number):
            break
        layout = sample(know, rng)
    return layout


def defence(view: JsonDict, legal: list[str], rng: random.Random, budget: Budget, deadline: Deadline = NEVER) -> str:
    """Whist, pass or invite: the best expected settlement (``ai_defend``)."""
    worth = defence_worth(view, tuple(legal), budget.nodes, budget.samples, deadline)
    return max(legal, key=lambda a: (worth[a], a == "pass"))


def kontra(view: JsonDict, legal: list[str], rng: random.Random, budget: Budget, deadline: Deadline = NEVER) -> str:
    me, decl = view["seat"], view["declarer"]
    if me == decl:  # raise (rekontra) only with a near-certain contract
        know = knowledge(view)
        p = chances(
            know, me, decl, view["first_hand"], [view["number"]], rng, budget.nodes, budget.samples, deadline=deadline
        )[view["number"]]
        # at most once (rekontra): every raise doubles both the gain and the loss
        return "raise" if p >= 0.85 and view["level"] == 1 and "raise" in legal else "stop"
    if "kontra" in legal:
        worth = kontra_worth(view, budget.nodes, budget.samples, deadline)
        return "kontra" if worth["kontra"] > worth["no"] + KONTRA_MARGIN else "no"
    p_set = 1 - make_chance(view, budget, deadline)
    # at most once (subkontra), so the chain always ends
    return "raise" if p_set >= 0.85 and view["level"] == 2 and "raise" in legal else "stop"
