"""Тысяча: one strong computer against two easy ones, duplicate deals, fixed seeds.

Duplicate scheme: a "deal set" is one shuffle (the dealer rotating with the set's number).
Each set is played four times as a single deal from a fresh sheet: once by three easy
players (the reference), then three times with the strong player in seat 0, 1, 2 in turn
and the easy player in the others.

Measures, per deal set: strong's points written for the deal, averaged over its three
seats, minus the reference deal's average points of a seat (so: what taking an easy
player's seat with the strong one gains, in points a deal). Goal: the 95 % interval's
lower bound ≥ +5 points a deal (a deal is worth about ±120 to a declarer, so +5 is a small
but sure edge, not noise). Also the share of the strong player's contracts made: of all
(reported; it includes the forehand's compulsory 100 nobody overbid, §2.1, which no
player chooses) and of those it chose (goal ≥ 0.7: it bids and raises only what it makes
in most samples), and its time per decision under the bot's deadline (DecisionTimer: wall
p99 within the bot's answer time).
"""

from __future__ import annotations

import random

from bench.strength.common import DecisionTimer, Figure, as_bot, mean_ci, rate_ci
from engine.games.thousand import GAME as G
from engine.games.thousand import ai
from engine.games.thousand.options import ThousandOptions
from engine.games.thousand.rules import deal_action

GAME = "thousand"
LOWER_BOUND_GOAL = 5.0
MADE_GOAL = 0.7


def _play(deal_seed: int, choosers: list) -> tuple[list[int], dict]:
    """One deal from a fresh sheet on the deal set ``deal_seed``; the points written per
    seat and the deal's sheet entry."""
    opts = ThousandOptions()
    deck = random.Random(deal_seed)
    rngs = [random.Random(deal_seed * 10 + seat) for seat in range(3)]
    s = G.initial_state(opts, 3)
    s, _ = G.apply(s, None, deal_action(deal_seed % 3, deck))
    while s.phase not in ("deal", "over"):
        seat = G.to_act(s)[0]
        s, _ = G.apply(s, seat, choosers[seat](G.view(s, seat), G.legal_actions(s, seat), rngs[seat]))
    return list(s.totals), s.entries[-1]


def _easy(view: dict, legal: list, rng: random.Random) -> str:
    return ai.computer_action(view, legal, rng, level="easy")


def run(quick: bool, seed: int) -> list[Figure]:
    sets = 6 if quick else 60
    strong = DecisionTimer(as_bot(ai.computer_action, "strong"))
    margins: list[float] = []
    contracts = made = chosen = chosen_made = 0
    for k in range(sets):
        deal_seed = seed * 100_003 + k
        ref, _ = _play(deal_seed, [_easy] * 3)
        mine = []
        for seat in range(3):
            choosers = [_easy] * 3
            choosers[seat] = strong
            totals, entry = _play(deal_seed, choosers)
            mine.append(totals[seat])
            if entry["declarer"] == seat:
                contracts += 1
                made += entry["made"]
                # the forehand's compulsory 100 that nobody overbid was not its choice (§2.1)
                if not (entry["contract"] == 100 and seat == entry["active"][0]):
                    chosen += 1
                    chosen_made += entry["made"]
        margins.append(sum(mine) / 3 - sum(ref) / 3)
    mean, half, n = mean_ci(margins)
    share, share_half = rate_ci(made, contracts)
    chosen_share, chosen_half = rate_ci(chosen_made, chosen)
    return [
        Figure(
            GAME,
            "strong − easy seat, points per deal (duplicate)",
            mean,
            half,
            f"lower bound >= {LOWER_BOUND_GOAL:g}",
            mean - half >= LOWER_BOUND_GOAL,
            "",
            n,
        ),
        Figure(GAME, "share of strong's contracts made (all)", share, share_half, "report", True, "", contracts),
        Figure(
            GAME,
            "share made of the contracts strong chose (not a forced 100)",
            chosen_share,
            chosen_half,
            f">= {MADE_GOAL:g}",
            chosen_share >= MADE_GOAL,
            "",
            chosen,
        ),
        *strong.figures(GAME),
    ]
