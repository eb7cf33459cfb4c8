"""What a group playing every day costs the database over months, with and without the
bot's housekeeping (bot/housekeeping.py; README "Retention").

    python -m bench.storage_year                     # 21 days, a game a day (~7 minutes)
    python -m bench.storage_year --days 365 --only purge   # a year (~40 min)
    python -m bench.storage_year --games durak,bridge,whist --database postgresql://host/db

What runs: the real bot (``build_application`` through tests/e2e.py's BotUnderTest: the
service, the sender, SQLite or PostgreSQL) against the in-process fake Bot API, on an
accelerated clock: the service, the sender, the housekeeping and the storage's own row
stamps (``storage.core``'s ``time.time``, patched here) all read one simulated clock.
Every update goes through the inbox (stored, handled, marked handled) as polling does.

A simulated day: the group plays ``--games-per-day`` games from 20:00, the ``--games`` in
turn -- durak between two people, bridge (one rubber of Chicago, four deals) with three
computers, whist (a whole game, long) with three computers -- each at a new table, closed
after its game; after a bridge or whist game someone asks for the last deal's 🔍
analysis. Players press a button every 3 simulated seconds. The clock then runs to 23:30;
with the housekeeping on, its round runs every simulated hour, as in the bot.

Printed every ``--report-every`` days at 23:30: the rows of each table and the database's
size (SQLite: the file with its WAL, free pages included; PostgreSQL: the schema's
relations), with the housekeeping and without. Goal: what the housekeeping looks after
(outbox, inbox, deal analyses; snapshots beyond one a table) stays bounded: its highest
level over the last week is at most 1.5 times its highest over the second week (the
first fills the week the analyses are kept). What grows for good is the truth of the games --
action logs, tables, seats, finished games, one snapshot a table -- at a steady rate per
game; the figure per year is that rate times 365 days, printed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

if __package__ in (None, ""):  # `python bench/storage_year.py`
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))

from bench.common import header, verdict

DAY_S = 86400.0
EVENING_S = 20 * 3600.0  # the group plays from 20:00
GROUP = -1001
NIGHT_S = 23.5 * 3600.0  # the day's figures are taken at 23:30
PURGED = ("outbox", "inbox", "deal_analyses", "snapshots")  # what the housekeeping bounds
KEPT = ("tables", "seats", "actions", "game_results", "finished_games", "ratings", "users")
TABLES = PURGED + KEPT
GOAL_GROWTH = 1.5  # bounded: the last week's highest level at most this times the second week's
WEEK = 7


class Year:
    """One simulated run: the bot, its database and the clock."""

    def __init__(self, database: str, purge: bool, games: list[str], games_per_day: int, seed: int) -> None:
        self.database, self.purge, self.games_per_day = database, purge, games_per_day
        self.mix = games
        self.rng = random.Random(seed)
        self.seed = seed
        self.day = 0
        self.games = 0
        self.hours_kept = 0  # housekeeping rounds run

    async def start(self) -> None:
        import storage.core
        from tests.e2e import BotUnderTest, FakeClock
        from tests.fakebot import FakeTelegram

        self.clock = FakeClock()
        self.epoch = self.clock()
        # the storage stamps its rows (done_at, handled_at, created_at) with this clock too
        storage.core.time = SimpleNamespace(time=self.clock)  # type: ignore[assignment]
        self.fake = FakeTelegram()
        self.fake.clock = self.clock
        self.fake.group(GROUP, "Кухня", admins=[1], supergroup=True)
        self.anya, self.boris = self.fake.user(1, "Аня"), self.fake.user(2, "Борис")

        class Quick(BotUnderTest):
            async def check_leaks(self) -> None:  # the tests' leak check: not what is measured here
                return None

        self.bot = await Quick(self.fake, self.database, self.clock, seed=self.seed).start()
        self._route_through_the_inbox()
        self.bot.runtime.housekeeper.clock = self.clock
        for user in (self.anya, self.boris):
            await self.bot.send(user, user, "/start")

    def _route_through_the_inbox(self) -> None:
        """Every update is stored in the inbox first and marked handled after, as
        bot/polling.py does (the fake feeds the application directly otherwise)."""
        fake, feed = self.fake, self.fake.feed

        async def feed_through_inbox(app, update: dict) -> None:
            inbox = app.bot_data["inbox"]
            if await inbox.store([update]):
                await feed(app, update)
                await inbox.handled(SimpleNamespace(update_id=update["update_id"]))

        fake.feed = feed_through_inbox  # type: ignore[method-assign]

    async def stop(self) -> None:
        import storage.core

        await self.bot.stop()
        self.fake.close()
        storage.core.time = time  # type: ignore[assignment]

    # ------------------------------------------------------------------ a day
    async def play_day(self) -> None:
        await self._pass_time(self.epoch + self.day * DAY_S + EVENING_S - self.clock())
        for _ in range(self.games_per_day):
            await self._play_one(self.mix[self.games % len(self.mix)])
            self.games += 1
        await self._pass_time(self.epoch + self.day * DAY_S + NIGHT_S - self.clock())
        self.day += 1

    async def _pass_time(self, seconds: float) -> None:
        """Let ``seconds`` pass; with the housekeeping on, its round runs each hour."""
        end = self.clock() + max(seconds, 0.0)
        while self.clock() < end:
            step = min(3600.0, end - self.clock())
            self.clock.advance(step)
            if self.purge:
                await self.bot.runtime.housekeeper.run_once()
                self.hours_kept += 1
        await self.bot.service.timers.fire()
        await self.bot.settle()

    async def _play_one(self, game: str) -> None:
        from tests.e2e import open_table

        bot, fake = self.bot, self.fake
        if game == "durak":
            table = await open_table(bot, GROUP, self.anya, [self.boris], command="/durak")
            players = [self.anya, self.boris]
        else:
            table = await open_table(bot, GROUP, self.anya, [], computers=3, command=f"/{game}")
            players = [self.anya]
        await bot.press(self.anya, await bot.table_message(GROUP), "Начать")
        await bot.play(table.id, players, seed=self.rng.randrange(1 << 30), max_moves=5000)
        post = next(m for m in reversed(fake.messages(GROUP)) if any(t for t, _ in fake.buttons(m)))
        if game != "durak":
            await bot.press(self.anya, post, "🔍 Разбор сдачи")
        await bot.press(self.anya, post, "Закрыть стол")

    # ------------------------------------------------------------------ measuring
    async def rows(self) -> dict[str, int]:
        from tests.test_storage import raw

        return {name: int((await raw(self.bot.repo, f"SELECT COUNT(*) FROM {name}"))[0][0]) for name in TABLES}

    async def size_mb(self) -> float:
        from tests.test_storage import is_pg, raw

        repo = self.bot.repo
        if is_pg(repo):
            found = await raw(
                repo,
                "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'",
            )
            return int(found[0][0]) / 1e6
        path = Path(self.database)
        return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists()) / 1e6


async def run(database: str, purge: bool, args: argparse.Namespace) -> list[tuple[int, dict[str, int], float]]:
    year = Year(database, purge, args.games.split(","), args.games_per_day, args.seed)
    await year.start()
    samples: list[tuple[int, dict[str, int], float]] = []
    began = time.monotonic()
    try:
        for day in range(1, args.days + 1):
            await year.play_day()
            rows, size = await year.rows(), await year.size_mb()
            samples.append((day, rows, size))
            if day % args.report_every == 0 or day == args.days:
                shown = "  ".join(f"{name} {rows[name]}" for name in TABLES)
                print(f"  day {day:4d}  {size:7.2f} MB  {shown}  ({time.monotonic() - began:.0f} s)", flush=True)
    finally:
        await year.stop()
    return samples


def fresh_database(args: argparse.Namespace, scratch: str, name: str) -> str:
    if args.database:
        return args.database
    return os.path.join(scratch, f"{name}.sqlite3")


async def main_async(args: argparse.Namespace) -> int:
    header(f"storage_year: {args.days} days, {args.games_per_day} games a day ({args.games} in turn)")
    print(f"   database: {'PostgreSQL' if args.database else 'SQLite file'}; seed {args.seed}")
    results = {}
    with tempfile.TemporaryDirectory(prefix="storage-year-") as scratch:
        for purge in {"both": (True, False), "purge": (True,), "kept": (False,)}[args.only]:
            label = "with housekeeping" if purge else "without housekeeping"
            header(label)
            database = fresh_database(args, scratch, "purged" if purge else "kept")
            if args.database:
                from tests.pg import drop_schema, fresh_schema_url

                os.environ["CARDBOT_TEST_PG"] = args.database  # a fresh schema in that database
                database = await fresh_schema_url()
            try:
                results[purge] = await run(database, purge, args)
            finally:
                if args.database:
                    await drop_schema(database)

    header("summary")
    if True not in results:
        kept_day, kept_rows, kept_size = results[False][-1]
        print(f"   without housekeeping, day {kept_day}: {housekept(kept_rows)} housekept rows, {kept_size:.2f} MB")
        return 0
    purged = results[True]
    second_week, last_week = purged[WEEK : 2 * WEEK] or purged, purged[-WEEK:]
    level_second = max(housekept(r) for _, r, _ in second_week)
    level_last = max(housekept(r) for _, r, _ in last_week)
    bounded = level_last <= GOAL_GROWTH * max(level_second, 1)
    print(
        f"   housekept rows (outbox + inbox + deal analyses + snapshots beyond one a table), highest: "
        f"days {second_week[0][0]}-{second_week[-1][0]} {level_second}, days {last_week[0][0]}-{last_week[-1][0]} "
        f"{level_last} (goal: at most {GOAL_GROWTH} times: {verdict(bounded)})"
    )
    (first_day, first_rows, first_size), (last_day, last_rows, last_size) = second_week[0], purged[-1]
    if False in results:
        kept_day, kept_rows, kept_size = results[False][-1]
        print(f"   without housekeeping, day {kept_day}: {housekept(kept_rows)} of those rows, {kept_size:.2f} MB")
    days = max(last_day - first_day, 1)
    per_year = {n: (last_rows[n] - first_rows[n]) / days * 365 for n in KEPT}
    mb_per_year = (last_size - first_size) / days * 365
    print(
        f"   with housekeeping, day {last_day}: {last_size:.2f} MB; from day {first_day} on it grows "
        f"{mb_per_year:.1f} MB a year ({args.games_per_day} games a day); rows a year: "
        + ", ".join(f"{n} {v:.0f}" for n, v in per_year.items() if v)
    )
    return 0


def housekept(rows: dict[str, int]) -> int:
    """The rows the housekeeping looks after; a table's newest snapshot is kept for good."""
    return rows["outbox"] + rows["inbox"] + rows["deal_analyses"] + max(rows["snapshots"] - rows["tables"], 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--days", type=int, default=21)
    parser.add_argument("--games", default="durak,bridge", help="played in turn: durak, bridge, whist")
    parser.add_argument("--games-per-day", type=int, default=1)
    parser.add_argument("--report-every", type=int, default=7, help="days between two lines")
    parser.add_argument("--database", help="postgresql://... (a fresh schema per run); default: a SQLite file")
    parser.add_argument(
        "--only", choices=("both", "purge", "kept"), default="both", help="purge: with the housekeeping only"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
