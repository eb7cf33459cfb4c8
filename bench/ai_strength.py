"""Playing strength of the computer players, every game, fixed seeds.

    python -m bench.ai_strength                 # all games, full matches (hours on 2 cores)
    python -m bench.ai_strength --quick         # smaller matches, a smoke run (~15 min)
    python -m bench.ai_strength durak bridge    # some games only
    python -m bench.ai_strength --no-deadline   # node budgets only: reproducible by the seed

Each figure is printed with its 95 % interval next to its goal (the goals of issue 31).
Every computer decision is taken as the bot takes it: under the bot's deadline
(bot/thinking.py: the search stops 1.15 s after the question), so on a loaded machine the
strong players search less and the figures say so (each game prints the share of its
decisions that ran to the deadline). The baselines are the frozen copies of earlier
computers in ``bench/baseline/``; the double-dummy figures use the DDS solver (``endplay``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # `python bench/ai_strength.py`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import header  # noqa: E402
from bench.strength import common  # noqa: E402

# strength modules in bench/strength/: bridge card play and the bridge auction apart
GAMES = ("durak", "bridge", "bridge_auction", "whist", "preferans", "preferans_ru", "king", "thousand")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="game", help=f"some of {', '.join(GAMES)} (default: all)")
    parser.add_argument("--quick", action="store_true", help="small matches: a smoke run, wide intervals")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-deadline", action="store_true", help="node budgets only, no wall-clock deadline")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; choose from {', '.join(GAMES)}")
    header("computer players' strength")
    common.UNDER_DEADLINE = not args.no_deadline
    print(f"   decisions {'under the bot deadline' if common.UNDER_DEADLINE else 'without deadline'}", flush=True)
    figures = []
    for name in args.games or GAMES:
        module = importlib.import_module(f"bench.strength.{name}")
        start = time.perf_counter()
        results = module.run(quick=args.quick, seed=args.seed)
        for figure in results:
            print(figure.line(), flush=True)
        print(f"   ({name}: {time.perf_counter() - start:.0f} s)", flush=True)
        figures += results
    missed = [f for f in figures if not f.met]
    print(f"== {len(figures) - len(missed)} of {len(figures)} goals met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
