"""Orphans: what N SIGKILLs of ``cardbot run`` leave running, while its computers think.

    python -m bench.orphans                     # 10 kills
    python -m bench.orphans --kills 22 --code /path/to/another/checkout   # that code's bot

Each round opens a durak table of one person and three computers (a new one each round,
on the same SQLite database), plays until a worker of the computers' process pool has
started (tests/lifeline_harness.py), SIGKILLs the bot, waits up to ``--grace`` seconds for
its processes to end, and starts the next bot. Printed: after each kill, what of the bot
was still running then; in the end, every process of the run still alive (a mark in the
environment finds them, orphans included) and their resident memory. Goal: 0 processes
left. The leftovers are killed before the bench exits.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.lifeline_harness import Proc

if __package__ in (None, ""):  # `python bench/orphans.py`
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))


async def run(a: argparse.Namespace) -> int:
    from bench.common import header, verdict
    from tests.chaos_harness import Chaos
    from tests.lifeline_harness import MARK_VAR, computers_think, kill_marked, marked, until_none_left

    code = Path(a.code).resolve() if a.code else Path(__file__).resolve().parent.parent
    header(f"orphans: {a.kills} SIGKILLs of cardbot run while its computers think ({code})")
    mark = uuid.uuid4().hex
    env = {MARK_VAR: mark, "PYTHONPATH": str(code)}
    if a.workers is not None:
        env["CARDBOT_COMPUTER_WORKERS"] = str(a.workers)
    try:
        with tempfile.TemporaryDirectory(prefix="orphans-") as tmp:
            async with Chaos(str(Path(tmp) / "bot.sqlite3"), Path(tmp), seed=1, env=env) as chaos:
                left: list[Proc] = []
                for round_no in range(a.kills):
                    if round_no:
                        chaos.bot.start()
                        await chaos.until(lambda: chaos.bot.ready, "the bot to poll")
                    earlier = {p.pid for p in left}  # what earlier kills left running
                    started = [p for p in await computers_think(chaos, mark, round_no) if p.pid not in earlier]
                    chaos.bot.kill()
                    killed = time.monotonic()
                    left = await until_none_left(mark, a.grace)
                    ended = f"all ended {time.monotonic() - killed:.2f} s after the kill" if not left else ""
                    print(
                        f"   kill {round_no + 1}: the bot and {len(started) - 1} process(es) it started; "
                        + (ended or f"{len(left)} of the run alive {a.grace:g} s later, {_mb(left):.0f} MB"),
                        flush=True,
                    )
        left = marked(mark)
    finally:
        kill_marked(mark)
    print(f"   left running after {a.kills} kills: {len(left)} processes, {_mb(left):.0f} MB resident")
    for kind, procs in _kinds(left).items():
        print(f"     {kind}: {len(procs)}, {_mb(procs):.0f} MB")
    print(f"   orphans: {len(left)}   goal 0: {verdict(not left)}")
    return 0


def _mb(procs: list[Proc]) -> float:
    return sum(p.rss_kb for p in procs) / 1024


def _kinds(procs: list[Proc]) -> dict[str, list[Proc]]:
    """The leftovers by what they are: multiprocessing's helpers, or the pool's workers
    (forked by a forkserver, so with its command line and a forkserver as parent)."""
    servers = {p.pid for p in procs if "forkserver" in p.command}
    kinds: dict[str, list[Proc]] = {}
    for proc in procs:
        if "resource_tracker" in proc.command:
            kind = "resource trackers"
        elif "forkserver" in proc.command:
            kind = "pool workers" if proc.ppid in servers else "forkservers"
        else:
            kind = "other"
        kinds.setdefault(kind, []).append(proc)
    return kinds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--grace", type=float, default=5.0, help="seconds the processes get to end after a kill")
    parser.add_argument(
        "--workers", type=int, help="CARDBOT_COMPUTER_WORKERS (default: the bot's, one per CPU but one)"
    )
    parser.add_argument("--code", help="run the bot of this checkout (default: this one), e.g. to measure before a fix")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
