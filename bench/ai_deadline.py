"""The computers' wall time per decision on an oversubscribed host, against the deadline.

    python -m bench.ai_deadline                  # ~10 min: 100 decisions per game, strong
    python -m bench.ai_deadline --decisions 20 --level normal   # ~2 min: p99 is the max

Twice as many busy processes as cores spin for the whole run (``--busy``), so the
computer's worker gets a fraction of a core, as on a shared host. Decisions are positions
met in easy self-play (seeded), taken from the whole deal with the bidding and the first
tricks (the biggest searches) over-represented. Each is asked one at a time through the
bot's own path (bot/thinking.Thinker: its process pool, the deadline built when the
decision is asked for) and timed on the wall clock from the question to the answer.
Printed per game: wall p50 / p99 / max next to the goal (p99 <= ANSWER_WITHIN), and the
share of decisions that ran until the search deadline (SEARCH_WITHIN). With fewer than
100 decisions a game the nearest-rank p99 is the maximum, which the output says.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import time
from typing import Any

from bench.common import header, percentile, verdict
from bot.thinking import ANSWER_WITHIN, SEARCH_WITHIN, Thinker
from engine.base import get_game

GAMES = {"durak": 3, "preferans": 3, "preferans_ru": 3, "king": 4, "bridge": 4, "whist": 4}


def _spin(stop_at: float) -> int:
    n = 0
    while time.monotonic() < stop_at:
        n += 1
    return n


def decisions(game_name: str, players: int, count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` decision positions (view, legal) from easy self-play: every decision with
    a choice of a few deals, each deal's first ones (auction, early tricks) twice as likely."""
    game = get_game(game_name)
    opts = game.Options()
    rng = random.Random(seed)
    found: list[tuple[float, dict[str, Any]]] = []
    for _ in range(max(3, count // 4)):
        state = game.initial_state(opts, players)
        state, _ = game.apply(state, None, game.new_deal(opts, players, rng, []))
        step = 0
        while not game.is_over(state):
            if getattr(game, "system_action", None) and game.system_action(state, rng) is not None:
                break  # the deal is over: the next one is a fresh shuffle
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            view = game.view(state, seat)
            if len(legal) > 1:
                weight = 2.0 if step < 12 else 1.0
                found.append((rng.random() / weight, {"view": view, "legal": legal}))
            state, _ = game.apply(state, seat, game.computer_action(view, legal, rng, level="easy"))
            step += 1
    found.sort(key=lambda x: x[0])
    return [pos for _, pos in found[:count]]


async def time_game(thinker: Thinker, name: str, positions: list[dict[str, Any]], level: str) -> list[float]:
    walls = []
    for i, pos in enumerate(positions):
        start = time.monotonic()
        action = await thinker.decide(name, pos["view"], pos["legal"], 1000 + i, level)
        walls.append(time.monotonic() - start)
        assert action in pos["legal"]
    return walls


async def run(args: argparse.Namespace) -> None:
    thinker = Thinker()
    try:
        # warm up the pool (its workers import the engines) before any timing
        await thinker.decide("durak", *_first(args.seed), seed=1, level="easy")
        print(f"   {args.busy} busy processes, {thinker.workers} thinking worker(s), level {args.level}")
        print(f"   goal: wall p99 <= {ANSWER_WITHIN} s per decision (search stops at {SEARCH_WITHIN} s)")
        if args.decisions < 100:
            print(f"   {args.decisions} decisions a game: p99 is the maximum")
        print(f"   load average before the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
        print(f"   {'game':<13} {'n':>4} {'p50 s':>7} {'p99 s':>7} {'max s':>7} {'at deadline':>12}")
        worst = 0.0
        for name, players in GAMES.items():
            positions = decisions(name, players, args.decisions, args.seed)
            walls = await time_game(thinker, name, positions, args.level)
            p99 = percentile(walls, 99)
            worst = max(worst, p99)
            hit = sum(w >= SEARCH_WITHIN for w in walls) / len(walls)
            print(
                f"   {name:<13} {len(walls):>4} {percentile(walls, 50):>7.3f} {p99:>7.3f} {max(walls):>7.3f}"
                f" {hit:>11.0%}  {verdict(p99 <= ANSWER_WITHIN)}"
            )
        print(f"   every game: wall p99 <= {ANSWER_WITHIN} s: {verdict(worst <= ANSWER_WITHIN)}")
    finally:
        thinker.close()


def _first(seed: int) -> tuple[dict[str, Any], list[str]]:
    pos = decisions("durak", 3, 1, seed)[0]
    return pos["view"], pos["legal"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.ai_deadline")
    p.add_argument("--decisions", type=int, default=100, help="decisions timed per game")
    p.add_argument("--level", default="strong", choices=["easy", "normal", "strong"])
    p.add_argument("--busy", type=int, default=2 * (os.cpu_count() or 1), help="spinning processes")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    header("computer decisions against the deadline, CPU oversubscribed")
    stop_at = time.monotonic() + 600  # the spinners end by themselves if this process dies
    with multiprocessing.get_context("spawn").Pool(args.busy) as busy:
        spinning = busy.map_async(_spin, [stop_at] * args.busy)
        try:
            asyncio.run(run(args))
        finally:
            busy.terminate()
            del spinning
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
