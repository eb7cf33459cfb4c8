"""Card play of the strong computer: sampled layouts, each solved double-dummy.

For each sampled layout of the unseen cards (``ai_sample``) the solver (``dd``) gives,
for every legal card, how many tricks the declarer ends with after it. Each outcome is
scored by what it is worth at the table (``utility``), and the card with the best total
wins; ties go to the lower card, so a defender does not overtake his partner or spend
an honour for nothing. The number of layouts is bounded by a count of search nodes (not
wall-clock), so a decision is reproducible for a given random seed.
"""

from __future__ import annotations

import random

from engine.cards import RANK_VALUE
from engine.jsondata import JsonDict

from .ai_sample import knowledge, sample
from . import ai_easy
from .ai_eval import more
from engine.deadline import NEVER, Deadline
from engine.preferans_family.dd import OutOfNodes, Solver, card_int, mask_of

BETTEL = 6
HARD_CAP = 4  # × the node budget: no decision searches longer than this


def utility(decl_tricks: int, bettel: bool, quota: int) -> float:
    """What a final trick count is worth to the declarer's side (the defenders want it
    low). Making the contract dominates (the contract column counts ten times); then the
    defenders falling short of their quota (they pay a penalty); then each trick (soup)."""
    if bettel:
        return 10.0 if decl_tricks == 0 else -float(decl_tricks)
    made = decl_tricks >= 6
    short = 10 - decl_tricks < quota
    return 10.0 * made + 3.0 * short + decl_tricks


def choose_card(
    view: JsonDict,
    legal: list[str],
    rng: random.Random,
    node_budget: int,
    min_samples: int,
    max_samples: int,
    deadline: Deadline = NEVER,
) -> str:
    cards = [a.split()[1] for a in legal]
    if len(cards) == 1:
        return legal[0]
    me, decl = view["seat"], view["declarer"]
    bettel = view["number"] == BETTEL
    parts = list(view["participants"])
    lone = len(parts) == 2
    quota = 2 if lone else 4
    sign = 1.0 if me == decl else -1.0
    trick = tuple((s, card_int(c)) for s, c in view.get("trick") or [])
    know = knowledge(view)
    solver = Solver(decl, parts, view["trump"], bettel, limit=HARD_CAP * node_budget, deadline=deadline)
    won_before = view["won"][decl]
    score = {c: 0.0 for c in cards}
    mine = mask_of(view["hand"])
    samples = 0
    while more(samples, solver.nodes, min_samples, max_samples, node_budget):
        layout = sample(know, rng)
        hands = {x: (mine if x == me else mask_of(layout.get(x, []))) for x in parts}
        try:
            values = solver.card_values(hands, me, trick)
        except OutOfNodes:  # a huge search (early in a hand): keep the layouts solved so far
            break
        for c in cards:
            score[c] += sign * utility(won_before + values[card_int(c)], bettel, quota)
        samples += 1
    if samples == 0:  # not even one layout fitted: the simple player's card
        return ai_easy.computer_action(view, legal, rng)
    best = max(cards, key=lambda c: (round(score[c], 6), -RANK_VALUE[c[0]], c[1] != view["trump"]))
    return "play " + best
