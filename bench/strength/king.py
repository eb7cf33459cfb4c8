"""King: one strong computer against three copies of the earlier computer
(``bench/baseline/king_ai.py``), duplicate deals, fixed seeds.

Duplicate scheme: a "deal set" is the 12 shuffles of one whole game, drawn from its own
seeded random source, so every game of the set sees the same cards whatever is played.
Each set is played five times: once by four baseline players (the reference), then four
times with the strong player in seat 0, 1, 2, 3 in turn and the baseline in the others.

Measure, per deal set: strong's game total, averaged over its four seats, minus the
"equal seat's" total: the average game total of a baseline seat in the same deals (the
reference game's four totals averaged; with every seat taken by strong in turn this is
the same as comparing each seat with itself in the reference game). Goal ≥ +5 points per
game, with the 95 % interval over deal sets. Also: the strong player's time per decision
(DecisionTimer over every strong decision; p99 ≤ 1 s, mean ≤ 0.3 s), and, for information,
the same score figure for the ``normal`` level (goal: above easy, ≥ 0).
"""

from __future__ import annotations

import random

from bench.baseline import king_ai
from bench.strength.common import DecisionTimer, Figure, as_bot, at_least
from engine.games.king import GAME as G
from engine.games.king import ai
from engine.games.king.options import KingOptions

GAME = "king"


def _play(deal_seed: int, choosers: list) -> list[int]:
    """One whole game on the deal set ``deal_seed``; ``choosers[seat](view, legal, rng)``."""
    opts = KingOptions()
    deals = random.Random(deal_seed)  # the shuffles only: the same for every game of the set
    rngs = [random.Random(deal_seed * 10 + seat) for seat in range(4)]
    s = G.initial_state(opts, 4)
    s, _ = G.apply(s, None, G.new_deal(opts, 4, deals, []))
    while not G.is_over(s):
        system = G.system_action(s, deals)
        if system:
            s, _ = G.apply(s, None, system)
            continue
        seat = G.to_act(s)[0]
        legal = G.legal_actions(s, seat)
        action = choosers[seat](G.view(s, seat), legal, rngs[seat])
        s, _ = G.apply(s, seat, action)
    return G.result(s)["totals"]


def _margins(sets: int, seed: int, player) -> list[float]:
    """Per deal set: the player's average total over its four seats minus the average
    baseline seat's total in the reference game."""
    out = []
    for k in range(sets):
        deal_seed = seed * 100_003 + k
        ref = _play(deal_seed, [king_ai.computer_action] * 4)
        mine = []
        for seat in range(4):
            choosers = [king_ai.computer_action] * 4
            choosers[seat] = player
            mine.append(_play(deal_seed, choosers)[seat])
        out.append(sum(mine) / 4 - sum(ref) / 4)
    return out


def run(quick: bool, seed: int) -> list[Figure]:
    sets = 2 if quick else 24
    strong = DecisionTimer(as_bot(ai.computer_action, "strong"))  # under the bot's deadline
    figures = [
        at_least(GAME, "strong − equal baseline seat, points per game (duplicate)", _margins(sets, seed, strong), 5.0)
    ]
    figures += strong.figures(GAME)
    normal = as_bot(ai.computer_action, "normal")
    figures.append(
        at_least(
            GAME,
            "normal − equal baseline seat, points per game (duplicate)",
            _margins(max(1, sets // 2), seed + 1, normal),
            0.0,
        )
    )
    return figures
