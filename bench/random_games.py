"""Thousands of seeded random games, the long versions of the suite's random runs: every
rule invariant checked along the way, each figure printed next to its goal.

    python -m bench.random_games                  # all of them (~4 min)
    python -m bench.random_games durak hostile    # some runs only
    python -m bench.random_games --scale 0.1      # a smoke run

The tests in tests/test_durak_random.py, test_bridge_random.py, test_hostile_render.py and
test_ai_preferans_ru.py run the same code on fewer seeds or steps; a broken invariant
stops that run with its traceback.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path
from typing import Callable

if __package__ in (None, ""):  # `python bench/random_games.py`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import header, verdict  # noqa: E402


def durak(scale: float) -> list[tuple[str, bool]]:
    from tests.test_durak_random import random_games

    n = max(1, round(2000 * scale))
    results = random_games(n)
    ended = ", ".join(f"{k} {v}" for k, v in sorted(results.items()))
    every_way = all(results[k] > 0 for k in ("durak", "draw", "by_52"))
    return [(f"durak: {n} games checked action by action ({ended}); every ending seen", every_way)]


def bridge(scale: float) -> list[tuple[str, bool]]:
    from tests.test_bridge_random import random_deals

    n = max(1, round(2000 * scale))
    deals = random_deals(n)
    return [(f"bridge: {deals} deals checked deal by deal (goal {n})", deals >= n)]


def hostile(scale: float) -> list[tuple[str, bool]]:
    from bot.render.common import MESSAGE_LIMIT
    from tests.test_hostile_render import CASES, STEPS, play

    seeds = max(2, round(6 * scale))
    longest = 0
    for game, players in CASES:
        for seed in range(seeds):
            for length in play(game, players, seed, ("ru", "en")[seed % 2], dense=STEPS).values():
                longest = max(longest, length)
    line = (
        f"hostile names: {len(CASES) * seeds} games drawn at every step, valid HTML, "
        f"longest text {longest} of {MESSAGE_LIMIT}"
    )
    return [(line, longest <= MESSAGE_LIMIT)]


def preferans_ru(scale: float) -> list[tuple[str, bool]]:
    from tests.test_ai_preferans_ru import view_only_decisions

    pulkas = max(1, round(10 * scale))
    changed = total = 0
    for seed in range(pulkas):
        for players in (3, 4):
            same, checked = view_only_decisions(players, 25, seed=100 + seed)
            changed, total = changed + checked - same, total + checked
    line = f"Russian preferans: strong decisions changed by the unseen cards, {changed} of {total} (goal 0)"
    return [(line, not changed)]


RUNS: dict[str, Callable[[float], list[tuple[str, bool]]]] = {
    "durak": durak,
    "bridge": bridge,
    "hostile": hostile,
    "preferans_ru": preferans_ru,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="*", metavar="run", help=f"some of {', '.join(RUNS)} (default: all)")
    parser.add_argument("--scale", type=float, default=1.0, help="a share of the full run (0.1: a smoke run)")
    args = parser.parse_args(argv)
    unknown = [r for r in args.runs if r not in RUNS]
    if unknown:
        parser.error(f"unknown run {unknown[0]!r}; choose from {', '.join(RUNS)}")
    header("seeded random games, invariants checked")
    met = total = 0
    for name in args.runs or list(RUNS):
        start = time.perf_counter()
        try:
            figures = RUNS[name](args.scale)
        except AssertionError:  # an invariant broke: the traceback names it
            traceback.print_exc()
            figures = [(f"{name}: an invariant broke (above)", False)]
        for line, ok in figures:
            print(f"   {line}: {verdict(ok)}", flush=True)
            met, total = met + ok, total + 1
        print(f"   ({name}: {time.perf_counter() - start:.0f} s)", flush=True)
    print(f"== {met} of {total} goals met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
