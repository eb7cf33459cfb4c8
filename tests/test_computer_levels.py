"""The computers at a table: their level is a lobby option, they think off the event loop
(a real process pool here), and a slow decision shows "🤖 Маша думает…" on the table."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bot import thinking
from bot.thinking import Thinker
from engine.base import get_game
from tests.e2e import BotUnderTest, FakeClock, open_table

GROUP = -1001


@pytest.fixture
def clock(fake_telegram):
    clock = FakeClock()
    fake_telegram.clock = clock
    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    return clock


async def test_level_is_a_lobby_option_for_the_host(fake_telegram, database, clock):
    bot = await BotUnderTest(fake_telegram, database, clock, computer_level="strong").start()
    try:
        anya, boris = fake_telegram.user(1, "Аня"), fake_telegram.user(2, "Борис")
        table = await open_table(bot, GROUP, anya, [boris], computers=1)
        lobby = await bot.table_message(GROUP)
        assert "Компьютеры: сильные" in lobby.text
        # only the host (or an admin) changes it
        answer = await bot.press(boris, lobby, "🤖 сильные")
        assert "только" in answer.text.lower()
        for expected in ("лёгкие", "средние", "сильные", "лёгкие"):
            await bot.press(anya, await bot.table_message(GROUP), lambda text: text.startswith("🤖 "))
            assert f"Компьютеры: {expected}" in (await bot.table_message(GROUP)).text
        assert (await bot.repo.get_table(table.id)).settings["computers"] == "easy"
    finally:
        await bot.stop()


async def test_computers_think_in_a_process_pool_and_the_game_ends(fake_telegram, database, clock):
    bot = await BotUnderTest(fake_telegram, database, clock, computer_level="normal", computer_workers=1).start()
    try:
        anya = fake_telegram.user(1, "Аня")
        table = await open_table(bot, GROUP, anya, [], computers=1)
        await bot.press(anya, await bot.table_message(GROUP), "Начать")
        await bot.play(table.id, [anya], max_moves=400)
        row, state = await bot.state(table.id)
        assert get_game("durak").is_over(state) and row.status == "between"
        assert bot.service.core.thinker._pool is not None  # the computer's moves went through it
    finally:
        await bot.stop()
    assert bot.service.core.thinker._pool is None  # shut down with the bot


async def test_a_failing_player_never_stalls_the_table(caplog):
    """A bug in a player (here: a view it cannot read) is logged, and a legal action is
    still played, by the easy player or, failing that, the first legal one."""
    thinker = Thinker(workers=1)
    try:
        assert await thinker.decide("king", {"phase": "nothing"}, ["x", "y"], 1) in ("x", "y")
    finally:
        thinker.close()
    assert "computer (strong) failed" in caplog.text


async def test_thinking_in_a_thread_runs_one_search_at_a_time(monkeypatch):
    """``workers=0`` (the tests, CARDBOT_COMPUTER_WORKERS=0): the computers' decisions and
    the deals' analyses run one after another, never two at once. The double-dummy solver
    (DDS through endplay, thread index 0) is not re-entrant: in the event loop's pool of
    threads, a bridge decision still running past its deadline when the next one began
    crashed the whole process (a segmentation fault, seen beside 4 busy loops)."""
    import threading

    lock, inside, most = threading.Lock(), [0], [0]

    def searching(*args) -> str:
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        time.sleep(0.2)  # room for another search to begin meanwhile, were it allowed to
        with lock:
            inside[0] -= 1
        return args[2][0] if len(args) > 2 else "analysed"

    monkeypatch.setattr(thinking, "decide", searching)
    monkeypatch.setattr(thinking, "SLOW_DECISION", 60.0)
    monkeypatch.setattr(thinking, "ANSWER_WITHIN", 60.0)  # every search is waited for
    thinker = Thinker(workers=0)
    try:
        asked = [thinker.decide("bridge", {}, ["1C", "P"], seed, "strong") for seed in range(3)]
        answers = await asyncio.wait_for(asyncio.gather(*asked, thinker.analyse(searching, "a deal")), 60)
    finally:
        thinker.close()
    assert answers == ["1C", "1C", "1C", "analysed"]
    assert most[0] == 1


async def test_slow_decision_shows_thinking_on_the_table(fake_telegram, database, clock, monkeypatch):
    real = thinking.decide

    def slow_decide(*args):
        time.sleep(thinking.SLOW_DECISION + 1.0)
        return real(*args)

    monkeypatch.setattr(thinking, "decide", slow_decide)
    bot = await BotUnderTest(fake_telegram, database, clock).start()  # thinks in a thread
    try:
        anya = fake_telegram.user(1, "Аня")
        table = await open_table(bot, GROUP, anya, [], computers=1)
        await bot.press(anya, await bot.table_message(GROUP), "Начать")
        presses, seen_thinking = [], []

        async def watch() -> None:
            """The real bot's sender runs in the background; here it runs while the
            service says a computer is taking long, to show what the group sees then.
            The service marks the table thinking and then queues its redraw (a database
            write), so drain until that redraw has gone out."""
            while True:
                if bot.service.core.thinking:
                    seen_thinking.append(dict(bot.service.core.thinking))
                    await bot.runtime.sender.drain()  # what the sender loop sends meanwhile
                    await bot.check_leaks()
                    if "думает" in (await bot.table_message(GROUP)).text:
                        return
                await asyncio.sleep(0.05)

        watcher = asyncio.ensure_future(watch())

        async def after_two_presses() -> bool:
            presses.append(1)
            return len(presses) > 2

        await bot.play(table.id, [anya], until=after_two_presses)
        watcher.cancel()
        assert seen_thinking
        message = await bot.table_message(GROUP)
        texts = [version.text for version in message.history]
        assert any("🤖 Маша думает…" in text for text in texts), texts  # the robot once, by its name
        assert "думает" not in message.text  # gone once the computer moved
    finally:
        await bot.stop()


def test_decide_plays_each_level_from_the_view_only():
    game = get_game("durak")
    rng = random.Random(3)
    options = game.Options()
    state = game.initial_state(options, 2)
    state, _ = game.apply(state, None, game.new_deal(options, 2, rng, []))
    seat = game.to_act(state)[0]
    legal = game.legal_actions(state, seat)
    for level in ("easy", "normal", "strong", "unknown"):
        assert thinking.decide("durak", game.view(state, seat), legal, 5, level) in legal
