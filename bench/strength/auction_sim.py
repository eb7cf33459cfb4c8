"""The auction match of ``bridge_auction`` on a slice of boards, per board, for the
simulating bidder (issue 31: ``engine/games/bridge/bidding/simulate.py``).

Writes a JSON file: per board the strong bidder's IMPs against the frozen copy and/or the
easy computer (``--match``), and the CPU seconds of each strong decision, so slices run
in separate processes (one per core) can be put together:

    python -m bench.strength.auction_sim --start 0 --end 150 --no-deadline --out /tmp/a.json
    python -m bench.strength.auction_sim --merge /tmp/a.json /tmp/b.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from bench.common import percentile
from bench.strength import bridge_auction as ba
from bench.strength import common
from bench.strength.common import DecisionTimer, as_bot, mean_ci
from engine.games.bridge import ai


def run(start: int, end: int, seed: int, match: str) -> dict:
    boards = ba.boards(seed, end, ba.CACHE)[start:end]
    timer = DecisionTimer(as_bot(ai.computer_action, "strong"))
    out: dict = {"boards": [b.number for b in boards], "frozen": [], "easy": []}
    t0 = time.perf_counter()
    for b in boards:
        if match in ("frozen", "both"):
            out["frozen"] += ba.duplicate([b], timer, ba.frozen_bidder, seed)
        if match in ("easy", "both"):
            out["easy"] += ba.duplicate([b], timer, as_bot(ai.computer_action, "easy"), seed)
        if b.number % 25 == 0:
            print(f"  board {b.number}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    out["cpu"] = timer.cpu
    out["wall"] = timer.seconds
    return out


def summary(data: dict) -> None:
    for key in ("frozen", "easy"):
        values = data[key]
        if not values:
            continue
        mean, half, n = mean_ci(values)
        better = sum(1 for v in values if v > 0)
        worse = sum(1 for v in values if v < 0)
        print(f"strong - {key}: {mean:+.3f} ± {half:.3f} IMPs a board (n={n}; {better} better, {worse} worse)")
    cpu, wall = data["cpu"], data["wall"]
    slow = [c for c in cpu if c > 0.01]
    print(
        f"CPU per call: mean {statistics.fmean(cpu) * 1000:.1f} ms, p99 {percentile(cpu, 99) * 1000:.0f} ms, "
        f"max {max(cpu) * 1000:.0f} ms over {len(cpu)} calls; {len(slow)} simulated (>10 ms): "
        f"mean {statistics.fmean(slow) * 1000 if slow else 0:.0f} ms, p99 "
        f"{percentile(slow, 99) * 1000 if slow else 0:.0f} ms; wall max {max(wall) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.strength.auction_sim")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--end", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--match", choices=("frozen", "easy", "both"), default="frozen")
    parser.add_argument("--no-deadline", action="store_true")
    parser.add_argument("--out", default=None)
    parser.add_argument("--merge", nargs="*", default=None)
    cli = parser.parse_args()
    if cli.merge:
        parts = [json.loads(open(p).read()) for p in cli.merge]
        merged = {k: [x for p in parts for x in p[k]] for k in ("boards", "frozen", "easy", "cpu", "wall")}
        summary(merged)
        sys.exit(0)
    common.UNDER_DEADLINE = not cli.no_deadline
    result = run(cli.start, cli.end, cli.seed, cli.match)
    if cli.out:
        with open(cli.out, "w") as f:
            json.dump(result, f)
    summary(result)
