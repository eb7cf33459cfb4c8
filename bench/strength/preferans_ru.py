"""Russian preferans (Сочи): one strong computer against two easy ones.

The figure: **strong's result minus the mean of the two easy seats' results, per deal,
in whists** (the settlement of rules §6.5).

How it is measured: duplicate deals. Each deal (a fixed shuffle, the dealer rotating
with the deal number) is played three times, the strong player sitting once in each
seat, the two other seats played by the easy computer (quick estimates, simple card
play). Every deal is the first of a fresh pulka (pool 20, so no pool fills) and is
settled right after it (§6.5 on an unfinished sheet: the pool term counts). A deal's
value is the mean over its three seatings of strong − (easy₁ + easy₂) / 2; распасы
count too. The 95 % interval is over deals. The time figures are the strong player's
decisions only, in CPU seconds (the machine is shared).

On demand only (``python -m bench.strength.preferans_ru --deals 30``); the aggregator
runs it as ``python -m bench.ai_strength preferans_ru``. Seed 2, 60 deals (190 s on the
loaded machine): +9.76 ± 4.18 whists per deal (goal +5: met); seed 1, 40 deals: +3.98 ±
3.91 (missed, the interval includes the goal). CPU per decision p99 0.54 s, mean 0.058 s.
Full run, seed 1, 300 deals (333 s, one worker): +5.46 ± 1.27 (goal +5: met); CPU per
decision p99 0.333 s, mean 0.034 s.

The whist, contract and discard estimates share a node budget among their layouts, and at
35000 nodes about half of them stopped after 2-9 of their 10 layouts. Since they search
90000 nodes for up to 20 layouts (engine/games/preferans_ru/ai.py): seed 1 +6.33 ± 1.33 (CPU per
decision p99 0.77 s, mean 0.059 s; 564 s); over seeds 1-3, 900 deals, +6.60 ± 0.88 against
+6.31 ± 0.85 before (paired +0.29 ± 0.60: seed 1 +0.86 ± 0.99, seed 2 -0.38 ± 1.20, seed 3
+0.38 ± 0.88). The gain shows in the decisions more than in the whists: on 80 deals of
seed 1 (each decision taken with four seeds) the whist decisions (97) agree with a
200-layout estimate 78 % of the time instead of 73 %, the contracts (44) 80 % instead of
77 % (discards 99 % both). Not kept: 150000 nodes, 24
layouts, seed 1 +0.07 ± 0.72 over 90000 at CPU p99 1.23 s (over the 1 s goal); twice the
card-play nodes (40000, at least 4 layouts; at 20000 the first four tricks solve 4-9 of
their 16 layouts on average), seed 1 +0.12 ± 0.61 over the 90000-node player.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from fractions import Fraction
from typing import Any

from bench.strength.common import DecisionTimer, Figure, as_bot, at_least
from engine.base import get_game
from engine.games.preferans_ru import ai
from engine.games.preferans_ru.rules import DECK
from engine.games.preferans_ru.scoring import settlement

GAME = "preferans_ru"
OPTIONS = {"system": "sochi", "pool": 20}
GOAL = 5.0  # whists per deal: a clear edge over the easy player
FULL_DEALS, QUICK_DEALS = 300, 4
WORKERS = 2


# each decision under the bot's deadline (common.UNDER_DEADLINE)
strong = as_bot(ai.computer_action, "strong")
easy = as_bot(ai.computer_action, "easy")


def play_deal(deal: str, strong_seat: int, seed: int, timer: DecisionTimer) -> list[Fraction]:
    """One deal from a fresh pulka; the settlement right after it."""
    g = get_game(GAME)
    opts = g.Options(**OPTIONS)
    state, _ = g.apply(g.initial_state(opts, 3), None, deal)
    rngs = [random.Random(seed * 31 + s) for s in range(3)]
    while state.phase not in ("deal", "over"):
        seat = g.to_act(state)[0]
        view, legal = g.view(state, seat), g.legal_actions(state, seat)
        chooser = timer if seat == strong_seat else easy
        state, _ = g.apply(state, seat, chooser(view, legal, rngs[seat]))
    result = settlement(state.sheet, state.options)
    return [Fraction(result[name]) for name in state.sheet.players]


def deal_result(deal: str, seed: int) -> dict[str, Any]:
    timer = DecisionTimer(strong)
    total = Fraction(0)
    for seat in range(3):
        res = play_deal(deal, seat, seed * 3 + seat, timer)
        total += res[seat] - sum(res[x] for x in range(3) if x != seat) / 2
    return {"value": float(total / 3), "seconds": timer.seconds, "cpu": timer.cpu}


def deals(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        cards = list(DECK)
        rng.shuffle(cards)
        out.append(f"deal dealer={i % 3} " + " ".join(cards))
    return out


def _one(job: tuple[str, int]) -> dict[str, Any]:
    return deal_result(*job)


def measure(n: int, seed: int, workers: int = WORKERS) -> list[dict[str, Any]]:
    jobs = [(deal, seed * 1000 + i) for i, deal in enumerate(deals(n, seed))]
    if workers <= 1:
        return [_one(j) for j in jobs]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(_one, jobs, chunksize=2)


def figures(results: list[dict[str, Any]]) -> list[Figure]:
    timer = DecisionTimer(strong)
    for r in results:
        timer.add(r["seconds"], r["cpu"])
    figure = at_least(GAME, "strong − mean(2 easy), whists per deal (duplicate)", [r["value"] for r in results], GOAL)
    return [figure, *timer.figures(GAME)]


def run(quick: bool, seed: int) -> list[Figure]:
    return figures(measure(QUICK_DEALS if quick else FULL_DEALS, seed))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Russian preferans strength: strong against easy")
    parser.add_argument("--deals", type=int, default=FULL_DEALS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=WORKERS)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    for f in figures(measure(args.deals, args.seed, args.workers)):
        print(f.line())
    print(f"({args.deals} deals, {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
