"""Months on a small server: an update answers once however often it is handled, and a
lost database is two log lines, a clear word to whoever pressed meanwhile, and the
commands sent meanwhile answered once it is back.

PostgreSQL is taken away through a TCP proxy (tests/tcp_proxy.py): every connection
dropped and new ones refused, as when the server restarts. SQLite's disk is "full" by
``PRAGMA max_page_count``: SQLite's own SQLITE_FULL, the error a full disk gives."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot import inbox as inbox_module
from tests.e2e import BotUnderTest, FakeClock
from tests.tcp_proxy import TcpProxy
from tests.test_inbox import GROUP, Polling, a_move, answers_to, durak, settled_until, until

NOT_SAVED = "⚠️ Не сохранено"


@pytest.fixture
async def bot(fake_telegram, start_bot):
    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    return await start_bot(transport="http")


def help_answers(bot, user) -> list:
    return [m for m in bot.fake.messages(user.id) if m.from_bot and "/newgame" in m.text]


async def test_an_update_handled_by_two_workers_at_once_answers_once(bot):
    """Two workers run the same stored update (one was taken for dead): its answer is
    written by the one whose finish marks it handled, never by both."""
    vera = bot.fake.user(3, "Вера")
    _, update = bot.fake.message_update(vera, vera, "/help")
    inbox = bot.app.bot_data["inbox"]
    await bot.app.start()
    try:
        fresh = await inbox.store([update])
        await inbox.hand_over(fresh)
        inbox._pending.add(update["update_id"])  # the other worker's copy, stored by it
        await inbox.hand_over(fresh)
        await bot.app.update_queue.join()
        await until(lambda: not inbox._pending, "both handlings to finish")
    finally:
        await bot.app.stop()
    await bot.settle()
    assert len(help_answers(bot, vera)) == 1


async def test_a_worker_killed_after_handling_before_the_mark_answers_once(bot, monkeypatch):
    """Killed after the handler ran and before the update was marked handled: the next
    start handles it again, and the answer is sent once (it was never written apart from
    the mark)."""
    vera = bot.fake.user(3, "Вера")
    _, update = bot.fake.message_update(vera, vera, "/help")
    repo = bot.repo
    finishing = asyncio.Event()

    async def killed(*args, **kwargs):  # the process dies at the mark: its handling ends there
        finishing.set()
        raise asyncio.CancelledError

    monkeypatch.setattr(repo, "finish_update", killed, raising=False)
    monkeypatch.setattr(repo, "mark_updates_handled", killed)  # (the mark before finish_update)
    async with Polling(bot):
        bot.http.put(update)
        await asyncio.wait_for(finishing.wait(), 30)
        await until(lambda: not bot.http.pending, "the update to be acknowledged")
    await bot.settle()  # whatever the dead process had written goes out now
    monkeypatch.undo()
    await bot.restart()
    async with Polling(bot):
        await settled_until(bot, lambda: help_answers(bot, vera), "the update handled after the restart")
    await bot.settle()
    assert len(help_answers(bot, vera)) == 1


def test_a_dead_workers_update_is_taken_over_within_ten_seconds():
    """The promise in numbers (README, "Scaling"): an update whose worker stopped
    renewing it is taken by a live one within LEASE_S + SWEEP_EVERY_S, and a live worker
    renews its updates often enough that a late heartbeat is not taken for a death."""
    assert inbox_module.LEASE_S + inbox_module.SWEEP_EVERY_S <= 10
    assert inbox_module.HEARTBEAT_S * 3 <= inbox_module.LEASE_S


def storage_lines(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "storage"]


async def fill_the_disk(repo) -> None:
    """SQLite's disk is full: no page more (``max_page_count``), and the free room in
    the pages it has taken by a table of junk."""
    pages = (await repo._read().fetch("PRAGMA page_count"))[0][0]
    await repo._read().fetch(f"PRAGMA max_page_count = {pages + 8}")
    await repo.db.execute("CREATE TABLE junk (x BLOB)")
    for size in (4096, 512, 64, 8):
        try:
            while True:
                await repo.db.execute("INSERT INTO junk VALUES (zeroblob(?))", (size,))
        except sqlite3.OperationalError as error:
            assert "full" in str(error)


async def test_sqlite_disk_full_a_press_is_not_saved_and_changes_nothing(bot, caplog):
    if not bot.database.endswith(".sqlite3"):
        pytest.skip("SQLite's disk")
    table_id, people = await durak(bot)
    await fill_the_disk(bot.repo)
    caplog.set_level(logging.INFO)
    for _ in range(60):  # moves fill what room the tables' own pages have left, then one fails
        before = await bot.actions(table_id)
        update, qid = await a_move(bot, table_id, people)
        await bot.fake.feed(bot.app, update)
        answer = bot.fake.answers[qid]
        if answer.text:
            break
        await bot.settle()  # the hands redrawn with the next moves
    assert answer.text and answer.text.startswith(NOT_SAVED) and answer.show_alert, answer
    assert await bot.actions(table_id) == before, "nothing half-applied"
    warnings = [r for r in storage_lines(caplog) if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "unavailable" in warnings[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info], "no traceback"
    await bot.repo.db.execute("DROP TABLE junk")  # room again
    await bot.repo._read().fetch("PRAGMA max_page_count = 1073741823")
    again, qid = await a_move(bot, table_id, people)
    await bot.fake.feed(bot.app, again)
    await bot.settle()
    assert not bot.fake.answers[qid].text, "the press after it is applied"
    assert len(await bot.actions(table_id)) > len(before)
    assert [r.getMessage() for r in storage_lines(caplog) if r.levelno == logging.INFO][-1].endswith(" s")


@pytest.fixture
async def proxied_postgres(database):
    if database.endswith(".sqlite3"):
        pytest.skip("a PostgreSQL server to lose")
    parts = urlsplit(database)
    proxy = await TcpProxy(parts.hostname or "127.0.0.1", parts.port or 5432).start()
    yield proxy, urlunsplit(parts._replace(netloc=f"{parts.username or 'postgres'}@127.0.0.1:{proxy.port}"))
    await proxy.close()


async def test_postgres_lost_two_log_lines_presses_told_commands_answered_after(
    fake_telegram, proxied_postgres, caplog
):
    """PostgreSQL goes away for a few seconds while the bot's loops run: one WARNING and
    one INFO in the log and no traceback; a press made meanwhile hears "not saved" at
    once; a command sent meanwhile is answered once the database is back."""
    proxy, url = proxied_postgres
    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    bot = await BotUnderTest(fake_telegram, url, FakeClock(), transport="http").start()
    runtime = bot.runtime
    try:
        table_id, people = await durak(bot)
        before = await bot.actions(table_id)
        update, qid = await a_move(bot, table_id, people)
        caplog.set_level(logging.INFO)
        loops = [
            asyncio.create_task(runtime._timer_loop()),
            asyncio.create_task(runtime.sender.run_forever()),
        ]
        vera = bot.fake.user(3, "Вера")
        async with Polling(bot):
            await until(lambda: bot.http.polls, "the bot to poll")
            await proxy.cut()
            await asyncio.sleep(1.5)  # the loops meet the outage meanwhile
            bot.http.put(update)
            await bot.fake.send(bot.http.bot_stub, vera, vera, "/help")
            answer = await until(lambda: answers_to(bot.fake, qid), "the press to hear 'not saved'")
            await asyncio.sleep(1.5)
            assert not help_answers(bot, vera), "the command waits for the database"
            await proxy.restore()
            await until(lambda: help_answers(bot, vera), "the command answered once the database is back", 30)
        for loop in loops:
            loop.cancel()
        await asyncio.gather(*loops, return_exceptions=True)
        assert answer[0].params.get("text", "").startswith(NOT_SAVED), answer
        assert await bot.actions(table_id) == before, "the press told 'not saved' is not applied later"
        lines = storage_lines(caplog)
        assert [r.levelno for r in lines] == [logging.WARNING, logging.INFO], [r.getMessage() for r in lines]
        assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records if r.exc_info]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(help_answers(bot, vera)) == 1
    finally:
        await bot.stop()
