"""Many concurrent tables through the real bot: Application, service, SQLite, sender.

    python -m bench.e2e_tables                      # 1000 tables, 30 s of load (~1.5 min)
    python -m bench.e2e_tables --tables 200 --seconds 20
    python -m bench.e2e_tables --pace 0             # no thinking time: the saturation point
    python -m bench.e2e_tables --rate-limiter       # with PTB's AIORateLimiter, as `cardbot run`

What runs: ``build_application`` with the in-process fake Bot API (tests/fakebot.py,
through PTB's real request/serialisation path), a SQLite file in a temporary folder, and
the background loops ON: the real sender loop (outbox -> Bot API, group budget) and the
timer loop. Updates go through ``app.update_queue`` and PTB's own update fetcher
(``app.start()``), exactly as polling feeds them.

Tables: the games in turn (durak, King, bridge, whist, Balkan and Russian preferans), each
with ``--humans`` scripted players and computer fillers in the other seats. A scripted player waits until
its DM shows move buttons, thinks 2-5 s (``--pace``), presses a random one of the buttons
it sees (a button that went stale meanwhile gets the "outdated" toast, as for a person);
after a game, someone presses Rematch in the group. Set-up (opening the tables, joining,
starting) goes straight to the service, with the SQL run inline for speed, and is not
timed; then the repository is reopened with aiosqlite as in production and the runtime
starts with its loops.

Measured while the load runs (``--seconds``):
* actions/s: game actions committed (the players' moves, the computers' and the next-deal
  shuffles: rows of the action log) and, separately, the players' accepted presses/s;
* latency per press: from handing the update to the bot (``update_queue.put``) to the last
  Bot API call it causes for the presser: the callback answer and the edit of their DM hand
  message (p50/p99; the answer alone too);
* the delay to the next group message edit, reported apart: the sender holds each group to
  <= 19 messages a minute and >= 3 s apart by design, and coalesces what waits;
* peak memory: the process's peak RSS (the fake Bot API's message store is included).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import logging
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # `python bench/e2e_tables.py`
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))

from bench.common import header, peak_rss_mb, percentile, verdict
from bench.fakeload import LoadTelegram, Press
from bot.emulator.telegram_fake import FakeUser
from bot.game_registry import playable

GOAL_ACTIONS = 300.0
GOAL_P99_MS = 50.0
SEATS = {ui.name: ui.bench_players for ui in playable()}


async def setup_tables(service, fake: LoadTelegram, n: int, games: list[str], humans: int, seed: int) -> list[dict]:
    from bot.service import Person, PressPlace

    async def no_admin(chat_id: int) -> bool:
        return False

    async def one(k: int) -> dict:
        game = games[k % len(games)]
        group = -100_000_000 - k
        users = [
            fake.user(1_000_000 + k * 10 + i, f"P{k}.{i}", language_code="en") for i in range(min(humans, SEATS[game]))
        ]
        fake.group(group, f"Table {k}", admins=[users[0].id], supergroup=True)
        for u in users:
            fake.start_dm(u)
            await service.chat_admin.dm_opened(Person(u.id, u.first_name, None, "en"))
        table = await service.lobby.open_table(
            group, 0, game, Person(users[0].id, users[0].first_name, None, "en"), "en", f"Table {k}"
        )
        host = users[0]

        async def press(user: FakeUser, button: str) -> None:
            """``user`` presses a lobby button under the table as it now stands."""
            row = await service.core.repo.get_table(table.id)
            person = Person(user.id, user.first_name)
            await service.lobby.press(row.id, row.version, person, button, no_admin, PressPlace(row.chat_id))

        for u in users[1:]:
            await press(u, "join")
        for _ in range(SEATS[game] - len(users)):
            await press(host, "cpu+")
        await press(host, "start")
        return {
            "k": k,
            "game": game,
            "group": group,
            "users": users,
            "table": table.id,
            "rng": random.Random(seed * 100_003 + k),
        }

    out = []
    for start in range(0, n, 50):
        out += await asyncio.gather(*(one(k) for k in range(start, min(n, start + 50))))
    return out


async def wait_outbox_empty(repo, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not await repo.pending_outbox(limit=1):
            return True
        await asyncio.sleep(0.2)
    return False


async def drive(
    app, fake: LoadTelegram, t: dict, pace: tuple[float, float], stop: asyncio.Event, presses: list[Press]
) -> None:
    """One table's scripted players: act when a DM shows buttons, after thinking."""
    rng: random.Random = t["rng"]
    users = {u.id: u for u in t["users"]}
    event = asyncio.Event()
    for chat in [t["group"], *users]:
        fake.watchers[chat] = event
    while not stop.is_set():
        ready = [uid for uid in users if uid in fake.actionable]
        rematch = fake.rematch.get(t["group"])
        if not ready and rematch is None:
            event.clear()
            try:
                await asyncio.wait_for(event.wait(), timeout=1.0)
            except TimeoutError:
                pass
            continue
        if pace[1] > 0:
            await asyncio.sleep(rng.uniform(*pace))  # think (a plain sleep: no task per wait)
            if stop.is_set():
                return
        ready = [uid for uid in users if uid in fake.actionable]  # what they see now
        if ready:
            uid = rng.choice(ready)
            message_id, moves = fake.actionable[uid]
            press, update = fake.press_update(app, users[uid], uid, message_id, rng.choice(moves), t["group"])
        else:
            rematch = fake.rematch.pop(t["group"], None)
            if rematch is None:
                continue
            press, update = fake.press_update(app, t["users"][0], t["group"], rematch[0], rematch[1], t["group"])
        fake.track(press)
        presses.append(press)
        event.clear()
        press.t0 = time.perf_counter()
        await app.update_queue.put(update)
        # wait for the answer before looking again (a person waits for the button to react)
        press.answered = asyncio.get_running_loop().create_future()
        try:
            await asyncio.wait_for(press.answered, timeout=10.0)
        except TimeoutError:
            pass
        event.clear()


async def watch_outbox(db: Path, stop: asyncio.Event, samples: list[dict[str, int]]) -> None:
    """Sample the pending outbox by kind (a second, read-only connection; WAL allows it)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), timeout=2.0)
            except TimeoutError:
                pass
            rows = con.execute("SELECT kind, COUNT(*) FROM outbox WHERE done_at IS NULL GROUP BY kind").fetchall()
            samples.append(dict(rows))
    finally:
        con.close()


def cpu_seconds() -> float:
    import resource

    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def count_db_ops() -> dict:
    """Count aiosqlite round trips (each is a hop to its worker thread and back)."""
    import aiosqlite.core

    stats = {"n": 0, "wait": 0.0}
    original = aiosqlite.core.Connection._execute

    async def counted(self, fn, *args, **kwargs):
        t = time.perf_counter()
        try:
            return await original(self, fn, *args, **kwargs)
        finally:
            stats["n"] += 1
            stats["wait"] += time.perf_counter() - t

    aiosqlite.core.Connection._execute = counted
    return stats


def count_repo_calls(repo) -> collections.Counter:
    """Count calls of the repository's coroutine methods (patched on this instance)."""
    import inspect

    counts: collections.Counter[str] = collections.Counter()
    for name, fn in inspect.getmembers(type(repo), inspect.iscoroutinefunction):
        if name.startswith("_"):
            continue

        def wrap(fn=fn, name=name):
            async def counted(*args, **kwargs):
                counts[name] += 1
                return await fn(repo, *args, **kwargs)

            return counted

        setattr(repo, name, wrap())
    return counts


def count_actions(db: Path, since: float, until: float) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute(
            "SELECT COUNT(*) FROM actions WHERE created_at >= ? AND created_at < ?", (since, until)
        ).fetchone()[0]
    finally:
        con.close()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


async def run(a: argparse.Namespace) -> int:
    from bot.app import build_application
    from bot.config import Settings
    from bot.emulator.telegram_fake import FakeRequest

    logging.basicConfig(level=logging.WARNING)
    pace = tuple(float(x) for x in a.pace.split(",")) if "," in a.pace else (float(a.pace),) * 2
    games = a.games.split(",")
    header(
        f"e2e tables: {a.tables} tables, {a.humans} scripted players each + computers, "
        f"pace {pace[0]:g}-{pace[1]:g} s, {a.seconds:g} s of load"
    )
    print(f"   AIORateLimiter: {'ON (as cardbot run)' if a.rate_limiter else 'OFF (see --rate-limiter)'}")
    with tempfile.TemporaryDirectory(prefix="cardbot-bench-") as tmp:
        db = Path(tmp) / "bench.sqlite3"
        fake = LoadTelegram()
        settings = Settings(token=f"{fake.bot_id}:TEST", db_path=str(db))
        app = build_application(
            settings, request=FakeRequest(fake), rate_limiter=a.rate_limiter, rng=random.Random(a.seed), background=True
        )
        await app.initialize()
        runtime, service = app.bot_data["runtime"], app.bot_data["service"]
        rss_start = peak_rss_mb()
        # Set-up, not timed: the runtime without its loops, the statements inline (fast), the
        # outbox sent; then the production set-up: aiosqlite again and startup with the loops.
        from bench.experiments import concurrent_updates, sync_sqlite

        await runtime.startup(background=False)
        repo = service.core.repo
        await sync_sqlite(repo)
        t_setup = time.perf_counter()
        tables = await setup_tables(service, fake, a.tables, games, a.humans, a.seed)
        while True:  # drain() says None after one page of rows even when more are pending
            wait = await runtime.sender.drain()
            if wait is None and not await repo.pending_outbox(limit=1):
                break
            await asyncio.sleep(wait or 0)
        setup_seconds = time.perf_counter() - t_setup
        experiments = []
        if a.sync_sqlite:
            experiments.append("SQLite inline on the event loop (no aiosqlite thread)")
        else:
            await repo.close()
            await repo.open()
        t_start = time.perf_counter()
        await runtime.startup(background=True)
        if a.concurrent_updates:
            concurrent_updates(app, a.concurrent_updates)
            experiments.append(f"PTB concurrent_updates={a.concurrent_updates}")
        if a.switch_interval:
            experiments.append(f"sys.setswitchinterval({a.switch_interval})")
        if experiments:
            print(f"   EXPERIMENT (not the production set-up): {'; '.join(experiments)}")
        await app.start()
        print(
            f"   set-up: {len(tables)} tables opened, joined and started in {setup_seconds:.1f} s, "
            f"then runtime.startup() with the loops in {time.perf_counter() - t_start:.1f} s; "
            f"peak RSS {peak_rss_mb():.0f} MB (at start {rss_start:.0f} MB)"
        )

        fake.counts.clear()
        fake.by_chat.clear()
        fake.group_stamps.clear()
        stop = asyncio.Event()
        presses: list[Press] = []
        db_ops = count_db_ops()
        repo_calls = count_repo_calls(service.core.repo)
        cpu0 = cpu_seconds()
        wall0, t0 = time.time(), time.perf_counter()
        drivers = [asyncio.create_task(drive(app, fake, t, pace, stop, presses)) for t in tables]
        backlog: list[dict[str, int]] = []
        monitor = asyncio.create_task(watch_outbox(db, stop, backlog))
        profiler = None
        if a.profile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        await asyncio.sleep(a.seconds)
        if profiler:
            profiler.disable()
        stop.set()
        wall1, t1 = time.time(), time.perf_counter()
        cpu1 = cpu_seconds()
        calls = dict(fake.counts)
        split = collections.Counter()
        for chat, counter in fake.by_chat.items():
            for method, n in counter.items():
                split[(method, "group" if chat < 0 else "DM")] += n
        ops, op_wait = db_ops["n"], db_ops["wait"]
        repo_counts = dict(repo_calls)
        await asyncio.gather(*drivers, monitor)
        drained = await wait_outbox_empty(service.core.repo, timeout=30)
        await asyncio.sleep(0.5)
        peak = peak_rss_mb()
        await app.stop()
        await runtime.shutdown()
        await app.shutdown()
        actions = count_actions(db, wall0, wall1)

    seconds = t1 - t0
    window = [p for p in presses if p.t0 < t1]
    answered = [p for p in window if p.t_answer is not None]
    moves = [p for p in answered if p.kind == "a"]
    accepted = [p for p in moves if p.accepted]
    refused = collections.Counter(p.answer_text for p in moves if not p.accepted)
    last = [p.last_call for p in moves if p.t_hand is not None]
    answer_lat = [p.t_answer - p.t0 for p in answered]
    no_hand = sum(1 for p in accepted if p.t_hand is None)
    group_delay = [p.t_group - p.t0 for p in accepted if p.t_group is not None]
    rate = actions / seconds
    p99 = percentile(last, 99)
    print()
    print(
        f"   presses: {len(window)} sent ({len(window) / seconds:.0f}/s), {len(answered)} answered, "
        f"{len(accepted)} moves accepted ({len(accepted) / seconds:.0f}/s), "
        f"{sum(refused.values())} refused {dict(refused.most_common(3))}, "
        f"{sum(1 for p in window if p.kind == 'r')} rematches"
    )
    print(
        f"   game actions committed: {actions} in {seconds:.1f} s = {rate:.0f} actions/s "
        f"(players + computers + next-deal shuffles)   goal >= {GOAL_ACTIONS:.0f}/s: "
        f"{verdict(rate >= GOAL_ACTIONS)}"
    )
    print(
        f"   press -> last call (answer + DM hand edit), {len(last)} presses: "
        f"p50 {ms(percentile(last, 50))}, p99 {ms(p99)}, max {ms(max(last, default=0))}   "
        f"goal p99 < {GOAL_P99_MS:.0f} ms: {verdict(bool(last) and p99 * 1000 < GOAL_P99_MS)}"
    )
    print(
        f"   press -> callback answer alone: p50 {ms(percentile(answer_lat, 50))}, "
        f"p99 {ms(percentile(answer_lat, 99))}; accepted moves without a hand edit: {no_hand}"
    )
    print(
        f"   press -> next group message edit (rate-limited per group by design): "
        f"p50 {ms(percentile(group_delay, 50))}, p99 {ms(percentile(group_delay, 99))}, "
        f"max {ms(max(group_delay, default=0))}"
    )
    per_s = ", ".join(f"{m} {n / seconds:.0f}/s" for m, n in sorted(calls.items(), key=lambda x: -x[1]))
    print(f"   Bot API calls during the load: {sum(calls.values()) / seconds:.0f}/s ({per_s})")
    print(
        "   ... by chat: "
        + ", ".join(f"{m} to {kind} {n / seconds:.0f}/s" for (m, kind), n in sorted(split.items(), key=lambda x: -x[1]))
    )
    if fake.failed:
        print(f"   failed calls: {dict(fake.failed.most_common(5))}")
    print(
        f"   SQLite round trips (aiosqlite thread hops) during the load: {ops / seconds:.0f}/s, "
        f"{ops / max(actions, 1):.1f} per game action, mean {ms(op_wait / max(ops, 1))} each "
        f"(queued + run + hand-back)"
    )
    per_action = ", ".join(
        f"{name} {n / max(actions, 1):.1f}" for name, n in sorted(repo_counts.items(), key=lambda x: -x[1])
    )
    print(f"   repository calls per game action (service + sender): {per_action}")
    print(f"   CPU: {(cpu1 - cpu0) / seconds * 100:.0f}% of one core over the load (process, all threads)")
    if backlog:
        worst = max(backlog, key=lambda b: sum(b.values()))
        print(
            f"   pending outbox rows (sampled every 2 s): max {sum(worst.values())} {worst}, "
            f"mean {sum(sum(b.values()) for b in backlog) / len(backlog):.0f}"
        )
    print(f"   outbox drained after the load: {drained}")
    print(f"   peak RSS {peak:.0f} MB (at start {rss_start:.0f} MB; includes the fake Bot API's messages)")
    if profiler:
        import io
        import pstats

        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(a.profile_sort).print_stats(a.profile_lines)
        print(out.getvalue())
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.e2e_tables", description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=30.0, help="length of the measured load")
    p.add_argument("--humans", type=int, default=2, help="scripted players per table (rest: computers)")
    p.add_argument("--pace", default="2,5", help="thinking time range in seconds, e.g. 2,5 or 0")
    p.add_argument("--games", default="durak,king,bridge,whist,preferans,preferans_ru")
    p.add_argument("--rate-limiter", action="store_true", help="use PTB's AIORateLimiter as production does")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--switch-interval",
        type=float,
        default=None,
        help="sys.setswitchinterval() in seconds (experiment: the GIL hand-off to aiosqlite's thread)",
    )
    p.add_argument(
        "--concurrent-updates",
        type=int,
        default=None,
        help="experiment: let PTB process this many updates at once (production: 1)",
    )
    p.add_argument(
        "--sync-sqlite",
        action="store_true",
        help="experiment: SQLite statements inline on the event loop instead of aiosqlite's thread",
    )
    p.add_argument("--profile", action="store_true", help="cProfile the load phase")
    p.add_argument("--profile-sort", default="cumulative")
    p.add_argument("--profile-lines", type=int, default=40)
    a = p.parse_args(argv)
    if a.switch_interval:
        sys.setswitchinterval(a.switch_interval)
    return asyncio.run(run(a))


if __name__ == "__main__":
    raise SystemExit(main())
