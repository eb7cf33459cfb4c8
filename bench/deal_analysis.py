"""The cost of the after-the-deal analysis ("🔍 The deal"): CPU seconds per deal, per game.

    python -m bench.deal_analysis                 # 12 deals a game, ~1 min
    python -m bench.deal_analysis --deals 40 --seed 2

Deals are played by seeded random legal players that never claim or concede (every card
is played, so every position is solved: the worst case), made with the tests' record
maker (``tests/deal_records.py``: this script needs ``tests/``). Each finished deal's
record is then analysed alone (``engine.analysis_core.analyse_record``: the replay, the
double-dummy table and par, the figures at the opening lead and the costly cards) and
timed with ``time.process_time`` — CPU seconds of the whole process, DDS's own threads
included, so a busy machine does not inflate the figure as much as a wall clock would.
The first analysis of each game is run once untimed (imports, DDS's set-up).
Goal (the issue): a bridge deal's whole analysis ≤ 1 s CPU; the same goal is printed for
the other games, against the mean and against the worst deal. King has no double-dummy
figures, so its figure is the replay alone.

For bridge and whist the line below gives the part of it that is DDS's double-dummy
table alone (``CalcDDtable``: 20 declarer-strain solves, timed again by itself): nearly
all of it. Its cost swings with the deal by a factor of 50 (DDS's authors find its solve
times Weibull-distributed, the hardest ten times the mean or more), so the worst of a
dozen deals is set by one hard table, not by this code. The costly cards are one DDS
``AnalysePlayBin`` call for the whole play, a tenth or less of a deal's time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # `python bench/deal_analysis.py`
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))

from bench.common import header, percentile, verdict
from engine.analysis_core import analyse_record

GAMES = (("bridge", 4), ("whist", 4), ("preferans", 3), ("preferans_ru", 3), ("king", 4))
GOAL_SECONDS = 1.0


def one_deal_records(name: str, players: int, deals: int, seed: int) -> list[dict]:
    """``deals`` records of one finished deal each (a deal of a longer game is cut out of
    it: a record of the game up to that deal's end would time the earlier deals too)."""
    from tests.deal_records import play_record

    out = []
    k = 0
    while len(out) < deals:
        out.append(play_record(name, seed * 1000 + k, players, deals=1))
        k += 1
    return out


def table_times(analyses: list[dict]) -> list[float]:
    """CPU seconds of DDS's double-dummy table alone, per deal (the hands as analysed)."""
    from engine.ddplay.review import SEATS, dd_table

    out = []
    for analysis in analyses:
        deal = analysis["deals"][0]
        hands = [deal["hands"][seat] for seat in SEATS]
        start = time.process_time()
        dd_table(hands)
        out.append(time.process_time() - start)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=12, help="deals a game (default 12)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    header("deal analysis: CPU seconds per deal")
    for name, players in GAMES:
        records = one_deal_records(name, players, args.deals, args.seed)
        analyse_record(records[0])  # not timed: the imports and DDS's first set-up
        times, analyses = [], []
        for record in records:
            start = time.process_time()
            analyses.append(analyse_record(record))
            times.append(time.process_time() - start)
        mean = sum(times) / len(times)
        worst = max(times)
        print(
            f"   {name:13} mean {mean:.3f} s ({verdict(mean <= GOAL_SECONDS)})"
            f"  p90 {percentile(times, 90):.3f} s  max {worst:.3f} s ({verdict(worst <= GOAL_SECONDS)})"
            f"  goal ≤ {GOAL_SECONDS:.1f} s a deal"
        )
        if name in ("bridge", "whist"):
            tables = table_times(analyses)
            print(
                f"   {'':13} of which the double-dummy table alone: mean {sum(tables) / len(tables):.3f} s"
                f"  p90 {percentile(tables, 90):.3f} s  max {max(tables):.3f} s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
