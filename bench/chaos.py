"""Kill and restart, the long version of tests/test_chaos.py: whole durak games between
two people through the real ``cardbot run`` process (long-polling the fake Bot API over
HTTP), SIGKILLed at seeded random moments and restarted on the same database.

    python -m bench.chaos                                   # 3 games, 18 kills each, SQLite
    python -m bench.chaos --games 10 --kills-per-game 30 --backend postgres

A kill lands right after a press was queued, or up to 0.6 s later (while the bot commits,
answers, or draws the next hands). Counted (see tests/chaos_harness.py for the rules):
lost moves (an accepted press missing from the action log; goal 0), vanished presses (one
cut short by a kill and never answered; goal 0), doubled moves (one
press applied twice, or a move nobody pressed; goal 0), duplicate posts (a message sent
twice because the kill fell between Telegram's answer and the outbox write; at most one
per kill), and the worst recovery: from the new process's start to the first press it
answers (interpreter start, imports, start-up, the outbox left behind; goal < 10 s).
PostgreSQL: a fresh schema in ``CARDBOT_TEST_PG`` (default postgresql://postgres@127.0.0.1:5432/test).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # `python bench/chaos.py`
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))

RECOVERY_GOAL_S = 10.0
GAME_PRESSES = 400  # more than any two-person durak game takes
KILL_SPAN = 60  # kills fall among a game's first presses (a game takes 60-90), so all happen


async def run(a: argparse.Namespace) -> int:
    from bench.common import header, verdict
    from tests.chaos_harness import Chaos

    header(f"kill and restart: {a.games} durak games, {a.kills_per_game} SIGKILLs each, {a.backend}")
    with tempfile.TemporaryDirectory(prefix="chaos-") as tmp:
        workdir = Path(tmp)
        if a.backend == "postgres":
            from tests import pg

            try:
                database = await pg.fresh_schema_url()
            except BaseException as error:  # pg.unavailable() raises pytest's skip/fail
                print(f"   PostgreSQL not reachable at {pg.pg_dsn()}: {error}")
                return 1
        else:
            database = str(workdir / "bot.sqlite3")
        started = time.monotonic()
        try:
            async with Chaos(database, workdir, seed=a.seed) as chaos:
                for game_no in range(a.games):
                    await chaos.play_game(game_no, a.kills_per_game, GAME_PRESSES, kill_span=KILL_SPAN)
                    print(f"   game {game_no + 1}: {chaos.report.summary().splitlines()[0]}", flush=True)
                r = chaos.report
                tracebacks = chaos.tracebacks()
        finally:
            if a.backend == "postgres":
                await pg.drop_schema(database)
    print(
        f"   {time.monotonic() - started:.0f} s; games: {r.games} ({r.finished} played to the end), "
        f"presses: {r.presses}, accepted moves: {r.accepted}, kills: {r.kills}"
    )
    print(f"   lost moves:       {r.lost:4d}   goal 0: {verdict(r.lost == 0)}")
    print(f"   doubled moves:    {r.doubled + r.unpressed:4d}   goal 0: {verdict(r.doubled + r.unpressed == 0)}")
    print(f"   vanished presses: {r.vanished:4d}   goal 0: {verdict(r.vanished == 0)}")
    print(
        f"   duplicate posts:  {r.duplicate_posts:4d}   goal <= kills ({r.kills}): "
        f"{verdict(r.duplicate_posts <= r.kills)}"
    )
    print(
        f"   worst recovery:   {r.worst_recovery:5.2f} s   goal < {RECOVERY_GOAL_S:g} s: "
        f"{verdict(r.worst_recovery < RECOVERY_GOAL_S)}  (median "
        f"{sorted(r.recoveries)[len(r.recoveries) // 2] if r.recoveries else 0:.2f} s)"
    )
    counted = ("twice", "never pressed", "not in the log", "never answered")
    other = [p for p in r.problems if not any(word in p for word in counted)]
    print(f"   log replays into the table's game: {verdict(not other)}" + "".join(f"\n     {p}" for p in other[:10]))
    print(f"   tracebacks in the bot's output: {len(tracebacks)}")
    for d in r.duplicates[:10]:
        print(f"     duplicate: {d}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--kills-per-game", type=int, default=18)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--seed", type=int, default=1)
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
