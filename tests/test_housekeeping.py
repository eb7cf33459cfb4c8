"""The bot's own housekeeping loop (bot/housekeeping.py) on a played table, on SQLite
and PostgreSQL, with a fake clock: within its retention nothing goes; a simulated day
later the delivered outbox rows, the handled update ids, the old deal analyses and the
older snapshots are gone, and the action log, the finished game and a pending row stay."""

from __future__ import annotations

import asyncio
import time

from engine.base import get_game
from bot.housekeeping import ANALYSES_KEPT_S, EVERY_S, FIRST_AFTER_S
from storage.models import OutboxItem
from tests.e2e import FakeClock, open_table
from tests.test_storage import raw

GROUP = -1001
DAYS = 8  # past every retention (a week for the analyses)


async def counts(repo, table_id: int) -> dict[str, int]:
    async def one(sql: str, *args) -> int:
        return int((await raw(repo, sql, *args))[0][0])

    return {
        "delivered": await one("SELECT COUNT(*) FROM outbox WHERE done_at IS NOT NULL"),
        "pending": await one("SELECT COUNT(*) FROM outbox WHERE done_at IS NULL"),
        "handled": await one("SELECT COUNT(*) FROM inbox WHERE handled_at IS NOT NULL"),
        "analyses": await one("SELECT COUNT(*) FROM deal_analyses"),
        "snapshots": await one("SELECT COUNT(*) FROM snapshots WHERE table_id = ?", table_id),
        "actions": await one("SELECT COUNT(*) FROM actions WHERE table_id = ?", table_id),
        "finished": await one("SELECT COUNT(*) FROM finished_games"),
    }


async def test_the_bots_housekeeping_loop_purges_what_its_retention_lets_go(bot, fake_telegram):
    anya, boris = fake_telegram.user(1, "Аня"), fake_telegram.user(2, "Борис")
    table = await open_table(bot, GROUP, anya, [boris])
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    await bot.play(table.id, [anya, boris])
    await bot.press(boris, fake_telegram.last_message(GROUP), "Ещё партию")  # a second game: more snapshots
    await bot.play(table.id, [anya, boris], seed=2)
    repo = bot.repo
    await repo.put_deal_analysis(table.id, 1, {"kept": "a week"})
    await repo.store_updates([(99_000_001, "{}")])
    await repo.mark_updates_handled([99_000_001])
    await repo.enqueue([OutboxItem("reply", anya.id, table.id, payload={"text": "waits"})])  # not sent
    before = await counts(repo, table.id)
    assert before["delivered"] > 20 and before["snapshots"] >= 3 and before["pending"] == 1, before
    assert before["handled"] >= 1 and before["analyses"] == 1 and before["finished"] == 2, before

    clock = FakeClock(start=time.time())  # the storage stamps rows with the real time
    seen: list[dict[str, int]] = []
    rounds = int(DAYS * 86400 / EVERY_S) + 2
    done = asyncio.Event()

    async def sleep(seconds: float) -> None:  # the loop's sleep: what the last round left, then time passes
        seen.append(await counts(repo, table.id))
        if len(seen) >= rounds:
            done.set()
            await asyncio.Event().wait()  # parked until cancelled
        clock.advance(seconds)

    keeper = bot.runtime.housekeeper
    keeper.clock, keeper.sleep = clock, sleep
    loop = asyncio.create_task(keeper.run_forever())
    try:
        await asyncio.wait_for(done.wait(), timeout=300)  # generous: each round is a few queries
    finally:
        loop.cancel()
        await asyncio.gather(loop, return_exceptions=True)

    first = seen[1]  # after the round FIRST_AFTER_S into the run: only the older snapshots went
    assert first == {**before, "snapshots": 1}, (before, first)
    day = seen[1 + int(86400 / EVERY_S) + 1]  # a day and more later: delivered rows and update ids gone
    assert day["delivered"] == 0 and day["handled"] == 0 and day["analyses"] == 1, day
    after = seen[-1]
    assert after == {**before, "delivered": 0, "handled": 0, "analyses": 0, "snapshots": 1}, (before, after)
    assert clock() - time.time() > ANALYSES_KEPT_S - FIRST_AFTER_S
    # the table still replays from what is left (a new process: no state in memory)
    game = get_game(table.game)
    _, kept = await bot.state(table.id)
    await bot.restart()
    row, state = await bot.state(table.id)
    assert row.status == "between"
    assert [game.view(state, seat) for seat in (None, 0, 1)] == [game.view(kept, seat) for seat in (None, 0, 1)]
