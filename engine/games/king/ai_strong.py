"""The strong (and normal) King computer: determinized look-ahead from its own view.

Method (perfect-information Monte Carlo):
1. ``ai_world.World`` reads what this seat knows from its view (own hand, every card
   played, voids, the turned trump cards) and samples the unseen cards into the other
   hands consistently with it.
2. For every candidate action and every sample (the same samples for every candidate),
   the rest of the deal is played out open-handed by ``ai_sim``: a heuristic for every
   seat, switching to an exact max-n search (each seat maximises its OWN points in the
   deal: the deal's real scoring from ``scoring.py``) once few cards are left; when the
   decision itself comes that late, the whole rest is searched exactly.
3. The action with the best average points for this seat is played; ties keep the
   heuristic's choice (tried first).
Trump choice (deals 9–12): for each sampled deck, the turned cards and the trump of every
option (name / until / highest) follow from the deck; the deal is played out under each
possible trump and the option with the most expected tricks is chosen.
Deal 7 (count) and deal 8 (jacks layout) use the same scheme with their own play-outs.

All randomness comes from ``rng`` and every budget counts samples, never seconds, so a
decision is reproducible for a seed. ``Budget`` holds the levels' sizes.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from engine.deadline import NEVER, Deadline
from engine.jsondata import JsonDict

from . import ai_easy
from .ai_sim import TrickDeal, count_rollout, domino_play, domino_rollout
from .ai_world import World, ORDER
from .options import KingOptions, parse_options
from .rules import packets
from .scoring import DECK

RV = {r: i for i, r in enumerate(ORDER)}


@dataclass(frozen=True)
class Budget:
    samples: int  # determinizations per decision in the trick deals
    exact_at: int  # search exactly once every hand has at most this many cards
    root_exact_at: int  # ... and from the decision itself at most this many in my hand
    choose_samples: int  # decks sampled for the trump choice
    other_samples: int  # determinizations in deals 7 and 8


STRONG = Budget(samples=24, exact_at=2, root_exact_at=3, choose_samples=30, other_samples=20)
# normal: the same look-ahead in the trick play only, with a budget so small that it often
# misjudges (2 samples, no exact endgame); the trump choice and deals 7 and 8 are left
# to the easy heuristic (a budget of 0). So it sits between easy and strong.
NORMAL = Budget(samples=2, exact_at=0, root_exact_at=0, choose_samples=0, other_samples=0)

_OPTIONS: dict[str, KingOptions] = {}


def _options(view: JsonDict) -> KingOptions:
    """The table's options (a pure cache keyed by their JSON)."""
    raw = view.get("options") or {}
    key = json.dumps(raw, sort_keys=True)
    hit = _OPTIONS.get(key)
    if hit is None:
        if len(_OPTIONS) > 64:
            _OPTIONS.clear()
        hit = _OPTIONS[key] = parse_options(raw)
    return hit


def computer_action(
    view: JsonDict, legal: list[str], rng: random.Random, budget: Budget = STRONG, deadline: Deadline = NEVER
) -> str:
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    options = _options(view)
    if (phase == "choose" and budget.choose_samples <= 0) or (
        phase in ("count", "domino") and budget.other_samples <= 0
    ):  # the heuristic
        return ai_easy.computer_action(view, legal, rng)
    if phase == "choose":
        choice = _choose(view, legal, rng, budget, options, deadline)
    elif phase == "play":
        choice = _play(view, legal, rng, budget, options, deadline)
    elif phase == "count":
        choice = _count(view, legal, rng, budget, options, deadline)
    elif phase == "domino":
        choice = _domino(view, legal, rng, budget, options, deadline)
    else:
        choice = None
    return choice if choice in legal else ai_easy.computer_action(view, legal, rng)


def _best(cands: list[str], totals: dict[str, float]) -> str:
    """The highest total; the first candidate (the heuristic's) wins ties."""
    best = cands[0]
    for c in cands[1:]:
        if totals[c] > totals[best] + 1e-9:
            best = c
    return best


# ---------------------------------------------------------------------------------
# trick play (deals 1–6 and 9–12)
# ---------------------------------------------------------------------------------


def _play(
    view: JsonDict, legal: list[str], rng: random.Random, budget: Budget, options: KingOptions, deadline: Deadline
) -> str:
    no, me = view["deal_no"], view["seat"]
    deal = TrickDeal(no, view.get("trump"), options)
    world = World(view)
    plays = [(s, c) for s, c in view.get("trick", [])]
    leader = view["leader"]
    done = len(view.get("winners", []))
    queens = [sum(1 for c in t if c[0] == "Q") for t in view.get("taken", [[]] * 4)] if no == 4 else [0, 0, 0, 0]
    cards = [a.split()[1] for a in legal]
    first = deal.pick(list(world.hand), plays, done)
    cands = [first] + [c for c in _distinct(cards, world.unseen, plays, deal) if c != first]
    exact = len(world.hand) <= budget.root_exact_at
    totals = {c: 0.0 for c in cands}
    for _ in range(budget.samples):
        if deadline.expired():  # the samples so far decide (none: the heuristic's choice)
            break
        hands = world.sample(rng)
        for c in cands:
            h = [list(x) for x in hands]
            h[me].remove(c)
            p = plays + [(me, c)]
            if exact:
                val = deal.exact(h, p, leader, done, queens)
            else:
                val = deal.rollout(h, p, leader, done, queens, budget.exact_at)
            totals[c] += val[me]
    return "play " + _best(cands, totals)


def _distinct(cards: list[str], unseen: list[str], plays: list[tuple[int, str]], deal: TrickDeal) -> list[str]:
    """One card of each run of equals: cards of one suit with no unseen card and no card
    of the trick between them, that score the same, play the same in every line."""
    between: dict[str, list[int]] = {}  # suit -> ranks of the unseen and trick cards
    for c in list(unseen) + [c for _, c in plays]:
        between.setdefault(c[1], []).append(RV[c[0]])
    out, prev = [], None
    for c in sorted(cards, key=lambda c: (c[1], RV[c[0]])):
        if (
            prev is not None
            and prev[1] == c[1]
            and (prev in deal.scoring) == (c in deal.scoring)
            and not any(RV[prev[0]] < r < RV[c[0]] for r in between.get(c[1], []))
        ):
            continue  # the run's lowest card stands for it (my own cards never separate)
        out.append(c)
        prev = c
    return out


# ---------------------------------------------------------------------------------
# trump choice (deals 9–12)
# ---------------------------------------------------------------------------------


def _trump_of(action: str, deck: list[str]) -> str:
    """The trump an option gives with this deck (rules §3.4)."""
    verb, _, asked = action.partition(" ")
    if verb == "name":
        return asked
    turned = []
    for c in deck[12:15]:
        turned.append(c)
        if verb == "until" and c[1] == asked:
            return asked
    best = turned[0]
    for c in turned[1:]:
        if RV[c[0]] > RV[best[0]]:
            best = c
    return best[1]


def _choose(
    view: JsonDict, legal: list[str], rng: random.Random, budget: Budget, options: KingOptions, deadline: Deadline
) -> str:
    me, dealer, no = view["seat"], view["dealer"], view["deal_no"]
    mine = list(view.get("hand", []))
    unseen = [c for c in DECK if c not in mine]
    deals = {s: TrickDeal(no, s, options) for s in "SHDC"}
    first = ai_easy.computer_action(view, legal, random.Random(0))
    cands = [first] + [a for a in legal if a != first]
    totals = {a: 0.0 for a in cands}
    for _ in range(budget.choose_samples):
        if deadline.expired():  # the samples so far decide (none: the heuristic's choice)
            break
        rest = unseen[:]
        rng.shuffle(rest)
        deck = mine + rest
        hands = packets(deck, dealer)
        value: dict[str, int] = {}
        for a in cands:
            t = _trump_of(a, deck)
            if t not in value:
                h = [list(x) for x in hands]
                value[t] = deals[t].rollout(h, [], me, 0, [0, 0, 0, 0], budget.exact_at)[me]
            totals[a] += value[t]
    return _best(cands, totals)


# ---------------------------------------------------------------------------------
# deal 7: card count
# ---------------------------------------------------------------------------------


def _count(
    view: JsonDict, legal: list[str], rng: random.Random, budget: Budget, options: KingOptions, deadline: Deadline
) -> str:
    me, total = view["seat"], view.get("total", 0)
    values: dict[str, int] = {rank: v for rank, v in options.deal7_values.items()}
    open_at = [(at, pts) for at, pts, seat in view.get("thresholds", []) if seat is None]
    cards = [a.split()[1] for a in legal if a.startswith("play ")]
    by_value: dict[int, str] = {}  # only a card's value matters here: one card per value
    for c in cards:
        v = values[c[0]]
        if v not in by_value or RV[c[0]] > RV[by_value[v][0]]:
            by_value[v] = c
    first = ai_easy.computer_action(view, legal, random.Random(0)).split()[1]
    first = by_value[values[first[0]]]
    cands = [first] + [c for c in by_value.values() if c != first]
    if len(cands) == 1:
        return "play " + first
    world = World(view)
    totals = {c: 0.0 for c in cands}
    for _ in range(budget.other_samples):
        if deadline.expired():  # the samples so far decide (none: the heuristic's choice)
            break
        hands = world.sample(rng)
        for c in cands:
            h = [list(x) for x in hands]
            h[me].remove(c)
            t = total + values[c[0]]
            k, mine = 0, 0
            while k < len(open_at) and t >= open_at[k][0]:
                mine += open_at[k][1]
                k += 1
            rest = count_rollout(h, (me + 1) % 4, t, open_at[k:], values)
            totals[c] += mine + rest[me]
    return "play " + _best(cands, totals)


# ---------------------------------------------------------------------------------
# deal 8: jacks layout
# ---------------------------------------------------------------------------------


def _domino(
    view: JsonDict, legal: list[str], rng: random.Random, budget: Budget, options: KingOptions, deadline: Deadline
) -> str:
    me = view["seat"]
    first = ai_easy.computer_action(view, legal, random.Random(0))
    cands = [first] + [a for a in legal if a != first]
    world = World(view)
    rows0 = {s: [ORDER.index(lo), ORDER.index(hi)] for s, (lo, hi) in view.get("rows", {}).items()}
    totals = {a: 0.0 for a in cands}
    for _ in range(budget.other_samples):
        if deadline.expired():  # the samples so far decide (none: the heuristic's choice)
            break
        hands = world.sample(rng)
        for a in cands:
            h = [list(x) for x in hands]
            rows = {s: list(r) for s, r in rows0.items()}
            if a.startswith("play "):
                card = a.split()[1]
                h[me].remove(card)
                domino_play(rows, card)
            totals[a] += domino_rollout(h, (me + 1) % 4, rows, options.deal8_penalty)[me]
    return _best(cands, totals)
