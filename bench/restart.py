"""Restart with many stored games: how soon does every table take its next move?

    python -m bench.restart                       # 10 000 tables in progress, ~30 s
    python -m bench.restart --tables 2000 --sample 100
    python -m bench.restart --lazy-resume         # experiment: skip resume() at start-up

Set-up (not timed): the real service opens one table per game (durak, King, bridge,
whist, preferans; two people and computers each), starts it and plays a few moves, so
each template waits for a person's move with a snapshot plus some actions after it to
replay. Then plain SQL copies the templates' rows (tables, seats, actions, snapshots,
results; every column, whatever the schema version) into ``--tables`` tables in the same
SQLite file, each in its own group.

Measured in a fresh Python process (``sys.executable -m bench.restart --child ...``):
* ready: from just before the parent starts the process until the bot accepts updates:
  interpreter start and imports, ``build_application``, ``app.initialize()``, the
  runtime's ``startup(background=True)`` (open + migrate the database, the command
  list, and whatever start-up does with the stored tables: at the time of writing
  ``Timers.resume()``, which runs the computers' moves of every playing table), and
  ``app.start()``;
* then one move on each of ``--sample`` random tables, one after another, each sent as a
  callback query through ``app.process_update`` (the first touch of a table: its state is
  loaded from the snapshot plus the actions after it): the time until it is answered;
* restart time = ready + the p99 of those first moves: how long after the start any one of
  the tables waits at most (p99) to take its next move. Goal: < 2 s.
``--all`` moves on every table instead of a sample and prints when the last one was taken.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # `python bench/restart.py`
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))

from bot.game_registry import playable

ROOT = Path(__file__).absolute().parent.parent
GAMES = {ui.name: ui.bench_players for ui in playable()}  # one table of each game
CHILD_TABLES = ("seats", "actions", "snapshots", "game_results")
GOAL_SECONDS = 2.0
BOT_ID = 123


# ----------------------------------------------------------------------------- set-up
async def make_templates(db: Path, moves: int, seed: int) -> list[dict]:
    """One started table per game, through the real service; returns what a move needs."""
    from bench.fakeload import LoadTelegram
    from bot.app import build_application
    from bot.config import Settings
    from bot.service import Person, PressPlace
    from engine.base import get_game
    from bot.emulator.telegram_fake import FakeRequest

    fake = LoadTelegram()
    app = build_application(
        Settings(token=f"{BOT_ID}:TEST", db_path=str(db)),
        request=FakeRequest(fake),
        rate_limiter=False,
        rng=random.Random(seed),
        background=False,
    )
    await app.initialize()
    runtime, service = app.bot_data["runtime"], app.bot_data["service"]
    await runtime.startup(background=False)
    repo = service.core.repo

    async def no_admin(chat_id: int) -> bool:
        return False

    templates = []
    for k, (game, seats) in enumerate(GAMES.items()):
        group = -1000 - k
        users = [fake.user(100 + k * 10 + i, f"P{k}.{i}", language_code="en") for i in range(2)]
        fake.group(group, f"T{k}", admins=[users[0].id], supergroup=True)
        people = [Person(u.id, u.first_name, None, "en") for u in users]
        for u, person in zip(users, people):
            fake.start_dm(u)
            await service.chat_admin.dm_opened(person)
        table = await service.lobby.open_table(group, 0, game, people[0], "en", f"T{k}")
        table = await repo.get_table(table.id)
        await service.lobby.press(table.id, table.version, people[1], "join", no_admin, PressPlace(table.chat_id))
        for _ in range(seats - 2):
            table = await repo.get_table(table.id)
            await service.lobby.press(table.id, table.version, people[0], "cpu+", no_admin, PressPlace(table.chat_id))
        table = await repo.get_table(table.id)
        await service.lobby.press(table.id, table.version, people[0], "start", no_admin, PressPlace(table.chat_id))
        engine = get_game(game)
        for _ in range(moves):  # a few moves after the deal's snapshot
            table = await repo.get_table(table.id)
            state = await service.core.state_of(table)
            seats_rows = sorted(await repo.get_seats(table.id), key=lambda s: s.seat)
            seat = engine.to_act(state)[0]
            if seats_rows[seat].is_computer:  # a computer's turn first (it bids first): it moves
                await service.computers.run(table.id)
                continue
            await service.play.act(table.id, table.version, seats_rows[seat].user_id, "0", None)
        table = await repo.get_table(table.id)
        state = await service.core.state_of(table)
        seats_rows = sorted(await repo.get_seats(table.id), key=lambda s: s.seat)
        seat = engine.to_act(state)[0]
        assert table.status == "playing" and not seats_rows[seat].is_computer, "template must wait for a person"
        templates.append(
            {
                "id": table.id,
                "game": game,
                "version": table.version,
                "user": seats_rows[seat].user_id,
                "dm": seats_rows[seat].dm_message_id,
                "users": [u.id for u in users],
            }
        )
    await runtime.shutdown()
    await app.shutdown()
    return templates


def clone_tables(db: Path, templates: list[dict], total: int) -> list[dict]:
    """Copy the templates' rows until there are ``total`` tables in progress (plain SQL,
    every column copied as it is, so any schema version works)."""
    con = sqlite3.connect(db, isolation_level=None)
    try:
        cols = {name: [r[1] for r in con.execute(f"PRAGMA table_info({name})")] for name in ("tables", *CHILD_TABLES)}
        next_id = con.execute("SELECT MAX(id) FROM tables").fetchone()[0] + 1
        copies = []
        per = -(-(total - len(templates)) // len(templates))
        con.execute("BEGIN")
        for t in templates:
            n = min(per, total - len(templates) - len(copies))
            if n <= 0:
                break
            first = next_id
            numbers = f"WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {n - 1}) "
            select = ", ".join(
                f"{first} + n.i" if c == "id" else f"-2000000000000 - ({first} + n.i)" if c == "chat_id" else f"t.{c}"
                for c in cols["tables"]
            )
            con.execute(
                f"{numbers} INSERT INTO tables ({', '.join(cols['tables'])}) "
                f"SELECT {select} FROM tables t, n WHERE t.id = {t['id']}"
            )
            for name in CHILD_TABLES:
                select = ", ".join(f"{first} + n.i" if c == "table_id" else f"t.{c}" for c in cols[name])
                con.execute(
                    f"{numbers} INSERT INTO {name} ({', '.join(cols[name])}) "
                    f"SELECT {select} FROM {name} t, n WHERE t.table_id = {t['id']}"
                )
            copies += [{**t, "id": first + i} for i in range(n)]
            next_id += n
        con.execute("COMMIT")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return templates + copies
    finally:
        con.close()


# ----------------------------------------------------------------------------- the restarted bot
async def child(a: argparse.Namespace) -> dict:
    t_main = time.time()
    from bench.common import peak_rss_mb
    from bench.fakeload import LoadTelegram
    from bot.app import build_application
    from bot.config import Settings
    from telegram import Update
    from bot.emulator.telegram_fake import FakeRequest

    t_imports = time.time()

    logging.basicConfig(level=logging.WARNING)
    tables = json.loads(Path(a.tables_file).read_text())
    rng = random.Random(a.seed)
    sample = tables if a.all else rng.sample(tables, min(a.sample, len(tables)))
    fake = LoadTelegram()
    for uid in sorted({u for t in tables[: len(GAMES)] for u in t["users"]}):
        fake.user(uid, f"U{uid}", language_code="en")
        fake.start_dm(uid)
    for t in sample:
        fake.group(-2000000000000 - t["id"], f"Table {t['id']}", supergroup=True)
    app = build_application(
        Settings(token=f"{BOT_ID}:TEST", db_path=a.child),
        request=FakeRequest(fake),
        rate_limiter=False,
        rng=random.Random(a.seed),
        background=True,
    )
    t_built = time.time()
    await app.initialize()
    t_init = time.time()
    runtime, service = app.bot_data["runtime"], app.bot_data["service"]
    if a.lazy_resume:  # experiment: start-up without resuming every stored table

        async def no_resume() -> None:
            return None

        service.timers.resume = no_resume
    await runtime.startup(background=True)
    await app.start()
    t_ready = time.time()

    first: list[float] = []
    refused = 0
    for t in sample:
        qid = str(next(fake._ids))
        fake.queries[qid] = t["user"]
        raw = {
            "update_id": next(fake._ids),
            "callback_query": {
                "id": qid,
                "from": {"id": t["user"], "is_bot": False, "first_name": f"U{t['user']}"},
                "chat_instance": "ci",
                "data": f"a:{t['id']}:{t['version']}:0",
                "message": {
                    "message_id": t["dm"] or 1,
                    "date": int(time.time()),
                    "chat": {"id": t["user"], "type": "private", "first_name": f"U{t['user']}"},
                    "from": fake.bot_user,
                    "text": "hand",
                },
            },
        }
        update = Update.de_json(raw, app.bot)
        t0 = time.perf_counter()
        await app.process_update(update)
        first.append(time.perf_counter() - t0)
        answer = fake.answers.get(qid)
        if answer is None or answer.text is not None:
            refused += 1
    t_done = time.time()
    background = [task for task in asyncio.all_tasks() if task.get_name() == "resume" and not task.done()]
    t_resumed = None
    if background:  # a start-up that resumes in the background: when does it finish?
        await asyncio.gather(*background, return_exceptions=True)
        t_resumed = time.time()
    peak = peak_rss_mb()
    await app.stop()
    await runtime.shutdown()
    await app.shutdown()
    return {
        "t_main": t_main,
        "t_imports": t_imports,
        "t_built": t_built,
        "t_init": t_init,
        "t_ready": t_ready,
        "t_done": t_done,
        "t_resumed": t_resumed,
        "first": first,
        "refused": refused,
        "sampled": len(sample),
        "peak_rss_mb": peak,
    }


# ----------------------------------------------------------------------------- parent
def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.restart", description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=10_000)
    p.add_argument("--sample", type=int, default=200, help="tables that take a move after the restart")
    p.add_argument("--all", action="store_true", help="a move on every table (slow)")
    p.add_argument("--moves", type=int, default=4, help="moves played on each template after its deal")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--lazy-resume",
        action="store_true",
        help="experiment: replace Timers.resume() by a no-op in the restarted bot",
    )
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--tables-file", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child:
        print(json.dumps(asyncio.run(child(a))))
        return 0

    from bench.common import header, percentile, verdict

    header(f"restart with {a.tables} stored tables in progress")
    with tempfile.TemporaryDirectory(prefix="cardbot-restart-") as tmp:
        db = Path(tmp) / "restart.sqlite3"
        t0 = time.perf_counter()
        templates = asyncio.run(make_templates(db, a.moves, a.seed))
        tables = clone_tables(db, templates, a.tables)
        tables_file = Path(tmp) / "tables.json"
        tables_file.write_text(json.dumps(tables))
        size = db.stat().st_size / 1e6
        print(
            f"   set-up: {len(tables)} tables ({', '.join(GAMES)}) written in "
            f"{time.perf_counter() - t0:.1f} s; database {size:.0f} MB"
        )
        cmd = [
            sys.executable,
            "-m",
            "bench.restart",
            "--child",
            str(db),
            "--tables-file",
            str(tables_file),
            "--sample",
            str(a.sample),
            "--seed",
            str(a.seed),
        ]
        cmd += ["--all"] if a.all else []
        cmd += ["--lazy-resume"] if a.lazy_resume else []
        start = time.time()
        out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stderr[-3000:])
            print("   the restarted bot failed: MISSED")
            return 0
        r = json.loads(out.stdout.strip().splitlines()[-1])

    if a.lazy_resume:
        print("   EXPERIMENT (not the production start-up): service.timers.resume() replaced by a no-op")
    first = r["first"]
    ready = r["t_ready"] - start
    p50, p99 = percentile(first, 50), percentile(first, 99)
    print(f"   process start -> interpreter up and bench imported: {r['t_main'] - start:.2f} s")
    print(f"   -> bot, PTB, engines imported:                       {r['t_imports'] - start:.2f} s")
    print(f"   -> Application built:                                {r['t_built'] - start:.2f} s")
    print(f"   -> app.initialize():                                 {r['t_init'] - start:.2f} s")
    print(
        f"   -> runtime.startup() + app.start() = READY:          {ready:.2f} s "
        f"(startup itself {r['t_ready'] - r['t_init']:.2f} s)"
    )
    print(
        f"   first move on {r['sampled']} {'tables' if a.all else 'random tables'} (cold: state loaded from "
        f"snapshot + actions): p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"max {max(first) * 1000:.1f} ms; refused: {r['refused']}"
    )
    if a.all:
        print(f"   every table has taken its next move {r['t_done'] - start:.2f} s after the process start")
    if r["t_resumed"]:
        print(f"   resume() running in the background finished {r['t_resumed'] - start:.2f} s after the start")
    total = ready + p99
    print(
        f"   restart time (ready + p99 first move): {total:.2f} s   goal < {GOAL_SECONDS:g} s: "
        f"{verdict(total < GOAL_SECONDS and r['refused'] == 0)}"
    )
    print(f"   restarted process peak RSS: {r['peak_rss_mb']:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
