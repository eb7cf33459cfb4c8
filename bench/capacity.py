"""How many busy tables the computers hold at full strength: 1, 5, 10, 20, 50 at once.

    python -m bench.capacity                          # ~6 min: 60 s per size, 2 cores
    python -m bench.capacity --tables 20 --seconds 120 --workers 2
    python -m bench.capacity --busy 4                 # four busy loops beside it

Each table is one person and strong computers (the games of bench.ai_deadline in turn:
durak, both preferans, King, bridge, whist). A table's round: each computer decides in
turn through the bot's own path (bot/thinking.Thinker: its process pool and deadline),
then the person thinks 2-5 s (seeded) and presses. After every ``--deal-rounds`` rounds
a deal ends, and in the games with a deal analysis someone presses 🔍 (half the time):
the analysis of a finished deal (tests/deal_records.py's records, seeded) runs as the bot
runs it (``Thinker.analyse``, its own lane; before it had one, ``Thinker.run`` in the
computers' pool, and the press waited for it).

Printed per size: the computers' decision wall time p50 / p99 (goal p99 <= 1.5 s), the
share of decisions answered without their search (the thinker's fallbacks, by reason;
goal <= 1 %), the strength figure — the share of decisions that chose what the same
strong player chooses with no deadline, same position and seed (the reference is
computed once, cached in the temp folder) — the event loop's lag when a person presses
(the press→answer time of a move, minus the bot's own work: what the computers' workers
leave the loop), and the 🔍 press→answer and press→message p99. The load average is
printed before each size: the host is shared, so run before/after back to back.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import multiprocessing
import os
import random
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # `python bench/capacity.py`
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))

from bench.ai_deadline import GAMES, _spin, decisions  # noqa: E402
from bench.common import header, percentile, verdict  # noqa: E402
from bot import thinking  # noqa: E402
from bot.thinking import ANSWER_WITHIN, Thinker  # noqa: E402
from engine.analysis_core import analyse_last_finished_deal  # noqa: E402

ANALYSED = ("bridge", "whist", "preferans", "preferans_ru", "king")
POSITIONS = 20  # per game: the reference (no deadline) is computed for each


class LateCounter(logging.Handler):
    """Fallbacks as the log tells them (a thinker without ``fallbacks`` counted none)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "easy player moves" in message or "quick player moves" in message:
            self.count += 1


def _reference(job: tuple[str, dict[str, Any], int]) -> str:
    name, pos, seed = job
    return thinking.decide(name, pos["view"], pos["legal"], seed, "strong", None)


def positions_and_reference(seed: int) -> dict[str, list[dict[str, Any]]]:
    """POSITIONS decisions a game, each with its seed and its unhurried strong answer."""
    cache = Path(tempfile.gettempdir()) / f"cardbot_capacity_{seed}_{POSITIONS}.json"
    if cache.exists():
        return json.loads(cache.read_text())  # type: ignore[no-any-return]
    out = {name: decisions(name, players, POSITIONS, seed) for name, players in GAMES.items()}
    jobs = [(name, pos, 1000 + i) for name, found in out.items() for i, pos in enumerate(found)]
    print(f"   computing the no-deadline reference for {len(jobs)} decisions (once)...", flush=True)
    with ProcessPoolExecutor(os.cpu_count() or 1) as pool:
        answers = list(pool.map(_reference, jobs))
    for (_, pos, decision_seed), answer in zip(jobs, answers):
        pos["seed"], pos["reference"] = decision_seed, answer
    cache.write_text(json.dumps(out))
    return out


def deal_records(seed: int) -> dict[str, list[dict[str, Any]]]:
    from tests.deal_records import play_record

    players = {"bridge": 4, "whist": 4, "preferans": 3, "preferans_ru": 3, "king": 4}
    return {name: [play_record(name, seed * 1000 + k, players[name], deals=1) for k in range(6)] for name in ANALYSED}


async def warm(thinker: Thinker, positions: dict, late: LateCounter) -> None:
    """Every worker started and warm before the timing: a cold worker's imports take
    seconds on a busy host (a thinker without ``ready``: until a round of strong decisions,
    one per worker, has no fallback)."""
    ready = getattr(thinker, "ready", None)
    if ready is not None:
        await ready()
    found = positions["durak"]
    for _ in range(100):
        before = late.count
        await asyncio.gather(
            *(thinker.decide("durak", p["view"], p["legal"], p["seed"], "strong") for p in found[: thinker.workers])
        )
        if late.count == before:
            break
    if hasattr(thinker, "fallbacks"):
        thinker.fallbacks.clear()
        thinker.dropped_after.clear()
    late.count = 0


class Run:
    def __init__(self, thinker: Thinker, positions: dict, records: dict, deal_rounds: int) -> None:
        self.thinker, self.positions, self.records, self.deal_rounds = thinker, positions, records, deal_rounds
        self.walls: list[float] = []
        self.agree: list[bool] = []
        self.lags: list[float] = []
        self.view_answers: list[float] = []
        self.view_messages: list[float] = []
        self.pending: set[asyncio.Task[None]] = set()

    async def table(self, number: int, stop_at: float) -> None:
        names = list(GAMES)
        name = names[number % len(names)]
        computers = GAMES[name] - 1
        rng = random.Random(number)
        found = self.positions[name]
        rounds = 0
        while time.monotonic() < stop_at:
            for _ in range(computers):
                pos = found[rng.randrange(len(found))]
                start = time.monotonic()
                action = await self.thinker.decide(name, pos["view"], pos["legal"], pos["seed"], "strong")
                self.walls.append(time.monotonic() - start)
                self.agree.append(action == pos["reference"])
            think = rng.uniform(2.0, 5.0)
            due = time.monotonic() + think
            await asyncio.sleep(think)
            self.lags.append(time.monotonic() - due)  # the press is taken up this late
            rounds += 1
            if rounds % self.deal_rounds == 0 and name in ANALYSED and rng.random() < 0.5:
                record = self.records[name][rng.randrange(len(self.records[name]))]
                task = asyncio.ensure_future(self.view_press(record))
                self.pending.add(task)
                task.add_done_callback(self.pending.discard)

    async def view_press(self, record: dict[str, Any]) -> None:
        pressed = time.monotonic()
        lane = getattr(self.thinker, "analyse", None)
        if lane is None:  # before the lane: the press waited for the analysis
            await self.thinker.run(analyse_last_finished_deal, record)  # type: ignore[attr-defined]
            self.view_answers.append(time.monotonic() - pressed)
        else:  # answered at once ("I'm preparing the deal"), the message follows
            await asyncio.sleep(0)
            self.view_answers.append(time.monotonic() - pressed)
            await lane(analyse_last_finished_deal, record)
        self.view_messages.append(time.monotonic() - pressed)


async def one_size(args: argparse.Namespace, tables: int, positions: dict, records: dict) -> None:
    thinker = Thinker(args.workers)
    late = LateCounter()
    logging.getLogger("bot.thinking").addHandler(late)
    logging.getLogger("bot.thinking").setLevel(logging.INFO)
    try:
        await warm(thinker, positions, late)
        run = Run(thinker, positions, records, args.deal_rounds)
        load = os.getloadavg()[0]
        stop_at = time.monotonic() + args.seconds
        await asyncio.gather(*(run.table(i, stop_at) for i in range(tables)))
        if run.pending:  # the analyses still running count with their time so far
            await asyncio.wait(list(run.pending), timeout=60)
        counted = getattr(thinker, "fallbacks", None)
        fell = sum(counted.values()) if counted is not None else late.count
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(counted.items())) if counted else ""
        dropped = sorted(getattr(thinker, "dropped_after", []))
        n = len(run.walls)
        p99 = percentile(run.walls, 99)
        share = fell / n if n else 0.0
        agree = sum(run.agree) / n if n else 0.0
        print(
            f"   {tables:>6} {load:>5.1f} {n:>6} {percentile(run.walls, 50):>6.2f} {p99:>6.2f}"
            f" {share:>8.1%} {agree:>7.0%} {percentile(run.lags, 99):>8.3f}"
            f" {len(run.view_answers):>4} {percentile(run.view_answers, 99):>7.2f} {percentile(run.view_messages, 99):>7.2f}"
            f"   p99 {verdict(p99 <= ANSWER_WITHIN)}, fallbacks {verdict(share <= 0.01)}"
            + (f" ({reasons})" if reasons else "")
            + (f"; late answers came at {_spread(dropped)} s" if dropped else ""),
            flush=True,
        )
    finally:
        logging.getLogger("bot.thinking").removeHandler(late)
        thinker.close()


def _spread(values: list[float]) -> str:
    return "/".join(f"{percentile(values, q):.2f}" for q in (0, 50, 90, 100))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.capacity")
    p.add_argument("--tables", default="1,5,10,20,50", help="table counts, comma-separated")
    p.add_argument("--seconds", type=float, default=60.0, help="of play per table count")
    p.add_argument("--workers", type=int, default=None, help="computer workers (default: the bot's)")
    p.add_argument("--deal-rounds", type=int, default=8, help="rounds of a table between two 🔍 chances")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--busy", type=int, default=0, help="processes spinning beside it all along (a busy host)")
    args = p.parse_args(argv)
    if args.busy:
        stop_at = time.monotonic() + 3600  # the spinners end by themselves if this process dies
        with multiprocessing.get_context("spawn").Pool(args.busy) as busy:
            spinning = busy.map_async(_spin, [stop_at] * args.busy)
            try:
                return measure(args)
            finally:
                busy.terminate()
                del spinning
    return measure(args)


def measure(args: argparse.Namespace) -> int:
    header("tables at once, strong computers, people at a human pace")
    if args.busy:
        print(f"   {args.busy} processes spin beside it all along (a busy host)")
    positions = positions_and_reference(args.seed)
    records = deal_records(args.seed)
    workers = Thinker(args.workers).workers
    print(f"   {workers} computer worker(s), {os.cpu_count()} cores; goal at 20 tables: p99 <= {ANSWER_WITHIN} s,")
    print("   fallbacks <= 1 %; 'same' = the share of decisions as with no deadline", flush=True)
    print(
        f"   {'tables':>6} {'load':>5} {'n':>6} {'p50 s':>6} {'p99 s':>6} {'fallback':>8} {'same':>7}"
        f" {'lag p99':>8} {'🔍 n':>4} {'ans p99':>7} {'msg p99':>7}"
    )
    for tables in (int(t) for t in args.tables.split(",")):
        asyncio.run(one_size(args, tables, positions, records))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
