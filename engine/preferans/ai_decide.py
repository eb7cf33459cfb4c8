"""The strong player's decisions before the play: auction, talon, contract, defence and
the kontra chain, each by the chance of the contract making (``ai_eval.chances``) and
what making or failing is worth.

What a contract is worth, in whists of the settlement (rules §7), seen as "my result
minus the mean of the other two": a contract of value v changes the declarer's column
by ±v, and the column counts ten times, so making it is worth +10v to the declarer
(less the soups: about 1.5v per defenders' trick), failing it −10v − 7.5v. A defender
who passes while the contract goes through loses 5v; one who sets it wins 5v plus his
soups; one who whists and falls short of his quota pays 10v. The thresholds below
come from these sums; ``Budget`` holds the search sizes (the normal level uses less).

Searches whose answer the next decision needs again (the auction's calls, the two
discards and the contract, the defence and the kontra round) are pure functions of
what the seat sees, seeded by it and cached, so they agree and are not repeated.
Each side raises the kontra chain at most once, so it always ends.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from zlib import crc32

from . import ai_easy
from .ai_eval import (BETTEL, SUIT_OF, best_discard, chances, declarer_worth, first_leader,
                      keep_score, more, plausible_declarer)
from .ai_sample import Knowledge, auction_knowledge, knowledge, sample
from .dd import OutOfNodes, Solver, mask_of
from .rules import DECK
from .scoring import value

NAME = {2: "S", 3: "D", 4: "H", 5: "C", 6: "BETTEL", 7: "SANS"}
# × v: a made contract, between played (≈6v) and undefended (10v). Set higher than that
# because the double-dummy chance is a lower bound: the solver's defenders see every
# card, real ones do not (measured: contracts bid at a 60-70 % chance made about 90 %).
MADE_GAIN = 12.0
FAIL_LOSS = 17.5     # × v: a failed one, with the defenders' five tricks of soup
BETTEL_FAIL = 25.0   # × v: a failed Bettel (each defender writes 5v)


@dataclass(frozen=True)
class Budget:
    nodes: int          # solver nodes per decision (then no new layout is started)
    samples: int        # at most this many layouts
    candidates: int     # contracts checked by search (the rest by the quick guess)


STRONG = Budget(nodes=10000, samples=10, candidates=2)
NORMAL = Budget(nodes=3000, samples=4, candidates=1)


def declarer_ev(p: float, number: int, igra: bool = False) -> float:
    v = value(number, igra)
    if number == BETTEL:
        return v * (10.0 * p - BETTEL_FAIL * (1 - p))
    return v * (MADE_GAIN * p - FAIL_LOSS * (1 - p))


def _seed(*parts) -> int:
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
def auction(view: dict, legal: list[str], rng: random.Random, budget: Budget) -> str:
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
    w = auction_worth(tuple(hand), view["seat"], view["first_hand"], _two_needs_kontra_for(view),
                      budget)
    good = [n for n in w if n in numbers and w[n] > 0]
    if not good:
        return "pass"
    top = max(good)
    if "moje" in legal and high is not None and high <= top:
        return "moje"
    bids = sorted(int(a.split()[1]) for a in legal if a.startswith("bid "))
    ok = [b for b in bids if b <= top]
    return f"bid {ok[0]}" if ok else "pass"


@lru_cache(maxsize=64)
def auction_worth(hand: tuple[str, ...], me: int, fh: int, two_needs_kontra: bool,
                  budget: Budget) -> dict[int, float]:
    """What declaring my most promising contracts is worth (units of v) if I win the
    auction and take the talon. Pure (seeded by the cards), so each call of the same
    auction reuses it."""
    cands = _candidates(list(hand), list(range(2, 8)), budget.candidates)
    if not cands:
        return {}
    know = auction_knowledge({"seat": me, "hand": list(hand)})
    rng = random.Random(_seed(hand, me, fh))
    return declarer_worth(know, me, fh, cands, rng, budget.nodes, budget.samples,
                          two_needs_kontra, pick_talon=True)


def _two_needs_kontra_for(view: dict) -> bool:
    """Would a "two" of mine be played only if kontra'd (no refe of mine to use)?"""
    opts = view.get("options") or {}
    refe = (view.get("sheet") or {}).get("refe") or [0, 0, 0]
    return bool(opts.get("two_requires_kontra", True)) and refe[view["seat"]] == 0


# --------------------------------------------------------------------------- talon
@lru_cache(maxsize=64)
def talon_plan(twelve: tuple[str, ...], bid: int, me: int, fh: int, two_needs_kontra: bool,
               budget: Budget) -> tuple[int, tuple[str, str]]:
    """The contract and the two discards for these twelve cards (pure: its own random
    source is seeded by the cards, so the two discards and the contract agree)."""
    hand12 = list(twelve)
    numbers = [n for n in range(bid, 8)]
    plans = {n: best_discard(hand12, n) for n in numbers}
    tens = {n: [c for c in hand12 if c not in plans[n]] for n in numbers}
    scored = sorted(((keep_score(tens[n], n), n) for n in numbers), reverse=True)
    cands = [n for _, n in scored[:max(budget.candidates, 2)]]
    rng = random.Random(_seed(twelve, bid, me, fh))
    unknown = [c for c in DECK if c not in twelve]
    know = Knowledge(me, [], {(me + 1) % 3: 10, (me + 2) % 3: 10},
                     {c: ((me + 1) % 3, (me + 2) % 3) for c in unknown})
    evs = {}
    for n in cands:
        w = declarer_worth(know, me, fh, [n], rng, budget.nodes // len(cands), budget.samples,
                           two_needs_kontra, my_cards=tens[n])[n]
        evs[n] = value(n, False) * w
    best = max(cands, key=lambda n: (evs[n], -n))
    return best, plans[best]


def _twelve(view: dict) -> tuple[str, ...]:
    return tuple(sorted(view["hand"] + (view.get("my_discards") or [])))


def discard(view: dict, legal: list[str], budget: Budget) -> str:
    number, pair = talon_plan(_twelve(view), view["bid"], view["seat"], view["first_hand"],
                              _two_needs_kontra_for(view), budget)
    for c in pair:
        if f"discard {c}" in legal:
            return f"discard {c}"
    return legal[0]  # pragma: no cover - the plan's cards are in hand


def contract(view: dict, legal: list[str], rng: random.Random, budget: Budget) -> str:
    if view.get("igra"):
        return ai_easy.computer_action(view, legal, rng)
    number, _ = talon_plan(_twelve(view), view["bid"], view["seat"], view["first_hand"],
                           _two_needs_kontra_for(view), budget)
    want = f"contract {NAME[number]}"
    return want if want in legal else legal[0]


# --------------------------------------------------------------------------- defence, kontra
@dataclass
class Odds:
    """From a defender's seat, over sampled layouts: the chance the contract makes and
    the defenders reach four tricks with both playing, and (``alone``) the chance it
    makes and I take two when I play alone against the declarer."""
    make: float
    four: float
    make_alone: float = 1.0
    two_alone: float = 0.0


def defender_odds(view: dict, budget: Budget, alone: bool = False) -> Odds:
    """The odds for this defender before the play (pure: seeded by what the seat sees,
    so the kontra round reuses the defence decision's search)."""
    key = (tuple(view["hand"]), view["number"], view["declarer"], view["seat"],
           view["first_hand"], tuple(view.get("talon") or ()), view["igra"],
           tuple(view["hand_counts"]))
    return _defender_odds(key, budget, alone)


@lru_cache(maxsize=64)
def _defender_odds(key: tuple, budget: Budget, alone: bool) -> Odds:
    hand, number, decl, me, fh, talon, igra, counts = key
    view = {"hand": list(hand), "number": number, "declarer": decl, "seat": me,
            "first_hand": fh, "talon": list(talon) or None, "igra": igra,
            "hand_counts": list(counts), "phase": "defence", "trump": SUIT_OF[number]}
    rng = random.Random(_seed(key, alone))
    number, decl, me = view["number"], view["declarer"], view["seat"]
    know = knowledge(view)
    bettel = number == BETTEL
    three = Solver(decl, [0, 1, 2], SUIT_OF[number], bettel, limit=2 * budget.nodes)
    two = Solver(decl, sorted([decl, me]), SUIT_OF[number], bettel, limit=budget.nodes)
    lead = first_leader(view["first_hand"], decl, number)
    lead2 = first_leader(view["first_hand"], decl, number, (decl, me))
    mine = mask_of(view["hand"])
    counts = [0, 0, 0, 0]
    samples = 0
    while more(samples, three.nodes + two.nodes, 2, budget.samples, budget.nodes):
        layout = plausible_layout(know, rng, decl, number)
        hands = {x: (mine if x == me else mask_of(layout[x])) for x in range(3)}
        h = three._tuple(hands)
        got = [0, 0, 0, 0]
        try:
            if bettel:
                got[0] = not three._ge(h, lead, (), 1)
            else:
                got[0] = three._ge(h, lead, (), 6)
                got[1] = not three._ge(h, lead, (), 7)
            if alone and not bettel:
                h2 = tuple(hands[x] if x in (decl, me) else 0 for x in range(3))
                got[2] = two._ge(h2, lead2, (), 6)
                got[3] = not two._ge(h2, lead2, (), 9)
        except OutOfNodes:  # cut off: keep the layouts solved so far
            break
        counts = [a + b for a, b in zip(counts, got)]
        samples += 1
    if samples == 0:  # nothing solved in the budget: a middling guess
        return Odds(0.7, 0.4, 0.8, 0.3)
    if bettel:
        counts[1] = samples - counts[0]
    f = [c / samples for c in counts]
    return Odds(f[0], f[1], f[2] if alone else 1.0, f[3] if alone else 0.0)


def plausible_layout(know: Knowledge, rng: random.Random, decl: int, number: int) -> dict:
    """A layout in which the declarer's hand fits his having declared ``number``."""
    layout = sample(know, rng)
    for _ in range(30):
        if plausible_declarer(layout[decl], number):
            break
        layout = sample(know, rng)
    return layout


def _two_needs_kontra(view: dict) -> bool:
    opts = view.get("options") or {}
    refe = (view.get("sheet") or {}).get("refe") or [0, 0, 0]
    return (opts.get("two_requires_kontra", True) and view["number"] == 2 and not view["igra"]
            and refe[view["declarer"]] == 0)


# EVs in units of v (the contract's value), from the sums in the module docstring
SET_GAIN = 5.0 + 1.5 * 2.5     # the contract fails: its column swing, my soups
MADE_LOSS = -5.0               # it makes (soups of a trick or two partly offset it)
QUOTA_LOSS = 10.0              # a defender penalty


def own_short(hand: list[str], trump: str | None) -> float:
    """P(I take fewer than two tricks myself), from the quick count of my defensive tricks
    (the double-dummy count is the pair's, not mine)."""
    e = ai_easy.defence_estimate(hand, trump)
    return 0.9 if e < 1 else 0.6 if e < 2 else 0.3 if e < 3 else 0.1


def defence(view: dict, legal: list[str], rng: random.Random, budget: Budget) -> str:
    if _two_needs_kontra(view):  # a "two" is only played if kontra'd: play if we would
        odds = defender_odds(view, budget)
        return "play" if 1 - odds.make >= 0.35 else "pass"
    odds = defender_odds(view, budget, alone=True)
    # the double-dummy count is too hopeful for a pair whose other half is not perfect:
    # measured against the baseline partner, four tricks came about 0.8 times as often
    four = 0.8 * odds.four
    short = own_short(view["hand"], view["trump"])
    ev_three = (1 - odds.make) * SET_GAIN + odds.make * (MADE_LOSS + 1.5 * 2) \
        - QUOTA_LOSS * (1 - four) * short
    ev_alone = (1 - odds.make_alone) * (5 + 7.5) + odds.make_alone * (MADE_LOSS + 1.5 * 2.5) \
        - QUOTA_LOSS * (1 - odds.two_alone)
    ev_pass = MADE_LOSS
    if "invite" in legal:  # the other defender passed: alone, with him, or a free win
        ev_invite = (1 - odds.make) * (5 + 7.5) + odds.make * (MADE_LOSS + 1.5 * 3.5) \
            - QUOTA_LOSS * (1 - four)
        if odds.make > 0.55:  # an invitation is all or nothing (the pair's quota is four)
            ev_invite = min(ev_invite, ev_pass)
        best = max((ev_pass, "pass"), (ev_alone, "play"), (ev_invite, "invite"))
        return best[1]
    if view["seat"] == (view["declarer"] + 1) % 3:
        # D1: the other defender may pass and leave me alone (or both pass: a free win)
        return "play" if (ev_three + ev_alone) / 2 > ev_pass else "pass"
    # D2 after D1 played: without me he defends alone
    return "play" if ev_three > ev_pass + 10 * (1 - odds.make_alone) / 2 else "pass"


def kontra(view: dict, legal: list[str], rng: random.Random, budget: Budget) -> str:
    me, decl = view["seat"], view["declarer"]
    if me == decl:  # raise (rekontra) only with a near-certain contract
        know = knowledge(view)
        p = chances(know, me, decl, view["first_hand"], [view["number"]], rng, budget.nodes,
                    budget.samples)[view["number"]]
        # at most once (rekontra): every raise doubles both the gain and the loss
        return "raise" if p >= 0.85 and view["level"] == 1 and "raise" in legal else "stop"
    alone = not _two_needs_kontra(view)  # the same search as the defence decision
    p_set = 1 - defender_odds(view, budget, alone).make
    if "kontra" in legal:
        need = 0.35 if _two_needs_kontra(view) else 0.65
        return "kontra" if p_set >= need else "no"
    # at most once (subkontra), so the chain always ends
    return "raise" if p_set >= 0.85 and view["level"] == 2 and "raise" in legal else "stop"
