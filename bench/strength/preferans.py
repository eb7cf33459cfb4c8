"""Preferans: one strong computer against two copies of the baseline (issue 11).

The figure: **strong's result minus the mean of the two baseline seats' results, per
hand, in whists** (the settlement units of rules §7).

How it is measured: duplicate deals. Each deal (a fixed shuffle, the dealer rotating
with the deal number) is played three times, the strong player sitting once in each
seat, the two other seats played by the frozen baseline (``bench/baseline/preferans_ai``).
Every hand is the first hand of a fresh pulka (bula 30, so nobody has a refe) and is
settled as an interrupted game right after it (§7: 10 × the contract column minus the
mean, plus soups written minus soups suffered). A deal's value is the mean over its
three seatings of strong − (baseline₁ + baseline₂) / 2; all-pass hands count, as 0.
The 95 % interval is over deals. The kontra chain is capped at rekontra with the
engine's option ``max_kontra_level = 2``.

Both time figures are the strong player's decisions only (``DecisionTimer``).

Last full run (seed 1, 140 deals = 420 hands, shared machine, 322 s): +2.75 ± 10.4
whists per hand (goal +10: missed); p99 0.64 s, mean 0.078 s per decision. The spread
per deal is large (sd ≈ 60 whists), so ±10 needs about 140 deals.
"""
from __future__ import annotations

import random
from fractions import Fraction

from bench.baseline import preferans_ai as baseline
from bench.strength.common import DecisionTimer, Figure, at_least
from engine.base import get_game
from engine.preferans import ai
from engine.preferans.rules import DECK
from engine.preferans.scoring import settlement

GAME = "preferans"
OPTIONS = {"bula": 30, "max_kontra_level": 2}   # the kontra chain stops at rekontra
GOAL = 10.0
FULL_DEALS, QUICK_DEALS = 140, 6


def strong(view: dict, legal: list[str], rng: random.Random) -> str:
    return ai.computer_action(view, legal, rng, level="strong")


def play_hand(deal: str, strong_seat: int, seed: int, timer: DecisionTimer,
              stats: dict | None = None) -> list[Fraction]:
    """One hand from a fresh pulka; the settlement right after it."""
    g = get_game(GAME)
    opts = g.Options(**OPTIONS)
    state, _ = g.apply(g.initial_state(opts, 3), None, deal)
    rngs = [random.Random(seed * 31 + s) for s in range(3)]
    while state.phase not in ("deal", "over"):
        seat = g.to_act(state)[0]
        view, legal = g.view(state, seat), g.legal_actions(state, seat)
        if seat == strong_seat:
            action = timer(view, legal, rngs[seat])
        else:
            action = baseline.computer_action(view, legal, rngs[seat])
        state, _ = g.apply(state, seat, action)
    res = settlement(state.pull)
    if stats is not None:  # count and value of each kind of hand, for studying the player
        row = state.last_row or {}
        if row.get("type") == "hand":
            role = "declarer" if row["declarer"] == strong_seat else "defender"
            if role == "defender":
                role += ":" + row["defence"][str(strong_seat)]
            key = f"{role}:{row.get('outcome')}"
        else:
            key = "all_pass"
        adv = float(res[strong_seat] - sum(res[x] for x in range(3) if x != strong_seat) / 2)
        n, total = stats.get(key, (0, 0.0))
        stats[key] = (n + 1, total + adv)
    return res


def deal_value(deal: str, seed: int, timer: DecisionTimer, stats: dict | None = None) -> float:
    """Mean over the three seatings of strong − mean(baselines), in whists."""
    total = Fraction(0)
    for seat in range(3):
        res = play_hand(deal, seat, seed * 3 + seat, timer, stats)
        others = [res[x] for x in range(3) if x != seat]
        total += res[seat] - sum(others) / 2
    return float(total / 3)


def deals(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        cards = DECK[:]
        rng.shuffle(cards)
        out.append(f"deal dealer={i % 3} " + " ".join(cards))
    return out


def run(quick: bool, seed: int) -> list[Figure]:
    timer = DecisionTimer(strong)
    values = []
    for i, deal in enumerate(deals(QUICK_DEALS if quick else FULL_DEALS, seed)):
        values.append(deal_value(deal, seed * 1000 + i, timer))
    figure = at_least(GAME, "strong − mean(2 baselines), whists per hand (duplicate)",
                      values, GOAL)
    return [figure, *timer.figures(GAME)]
