"""Several bot workers on one PostgreSQL database (for when one machine is outgrown).

Two complete bots -- each its own Application, TableService, Sender and connection pool,
so nothing is shared through process memory -- run on one fresh PostgreSQL schema and
one fake Telegram. Any update may reach any worker: conflicting presses for the same
table go to different workers at the same moment, and due timers are fired by both.
Moves must be serialised by the database alone: every accepted press is exactly one
action in the log, every refused one changed nothing, and the game ends correctly.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from engine.base import get_game
from tests.e2e import HUMAN_PACE, BotUnderTest, FakeClock, open_table, any_move
from tests.pg import drop_schema, fresh_schema_url

GROUP = -1001
STALE = "Кнопка устарела — сообщение обновлено."


@pytest.fixture
async def workers(fake_telegram):
    url = await fresh_schema_url()
    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    clock = FakeClock()
    first = await BotUnderTest(fake_telegram, url, clock, seed=11).start()
    second = await BotUnderTest(fake_telegram, url, clock, seed=12).start()
    try:
        yield first, second
    finally:
        await second.stop()
        await first.stop()
        await drop_schema(url)


async def settle_all(*bots: BotUnderTest) -> None:
    for bot in bots:  # only the worker that leads the sending has anything to do
        await bot.settle()


def accepted(answer) -> bool:
    """A move press is accepted silently (no toast); a refusal always says why."""
    return answer is None or not answer.text


async def test_only_one_worker_sends_and_the_other_takes_over(workers, fake_telegram):
    first, second = workers
    assert await first.repo.try_lead_sender()
    assert not await second.repo.try_lead_sender()
    anya = fake_telegram.user(1, "Аня")
    await second.send(anya, GROUP, "/durak")  # handled by the standby worker ...
    assert not fake_telegram.messages(GROUP)  # ... which sends nothing itself
    await first.settle()
    assert len(fake_telegram.messages(GROUP)) == 1  # the lobby, sent once by the leader
    await first.stop()  # the leader goes away: its advisory lock with it
    assert await second.repo.try_lead_sender()
    await first.start()  # (restarted so the fixture can stop it)


async def test_conflicting_presses_on_two_workers_apply_each_move_once(workers, fake_telegram):
    first, second = workers
    anya, boris = fake_telegram.user(1, "Аня"), fake_telegram.user(2, "Борис")
    table = await open_table(first, GROUP, anya, [boris])
    await second.press(anya, await second.table_message(GROUP), "Начать")
    await settle_all(first, second)
    game = get_game("durak")
    rng = random.Random(5)
    by_id = {u.id: u for u in (anya, boris)}
    presses = accepted_presses = 0
    for _ in range(400):
        row, state = await first.state(table.id)
        if row.status != "playing":
            break
        seats = sorted(await first.repo.get_seats(table.id), key=lambda s: s.seat)
        user = by_id[seats[game.to_act(state)[0]].user_id]
        hand = await first.hand_message(table.id, user)
        buttons = [data for _, data in fake_telegram.buttons(hand) if data and data.startswith("a:")]
        one = any_move(user, [(t, d) for t, d in fake_telegram.buttons(hand) if d in buttons], rng)
        other = rng.choice(buttons)  # often a different move, sometimes the same (a double tap)
        answers = await asyncio.gather(
            fake_telegram.press_raw(first.app, user, user.id, hand.message_id, one),
            fake_telegram.press_raw(second.app, user, user.id, hand.message_id, other),
        )
        presses += 2
        wins = [a for a in answers if accepted(a)]
        assert len(wins) == 1, f"exactly one of two conflicting presses wins: {answers}"
        loser = next(a for a in answers if not accepted(a))
        assert loser.text == STALE, loser
        accepted_presses += 1
        first.clock.advance(HUMAN_PACE)
        await settle_all(first, second)
    else:
        raise AssertionError("the game did not end")

    row = await second.repo.get_table(table.id)
    assert row.status == "between", "the game finished"
    log = await second.repo.load_actions(table.id)
    human_moves = [a for a in log if a.seat is not None]
    assert len(human_moves) == accepted_presses < presses
    assert [a.seq for a in log] == sorted({a.seq for a in log}), "no sequence number twice"
    # the log alone rebuilds the final state both workers hold
    state = game.initial_state(game.Options(**row.options), 2)
    for action in log:
        state, _ = game.apply(state, action.seat, action.action)
    assert game.dump(state) == game.dump(await first.service.core.state_of(row))
    assert game.dump(state) == game.dump(await second.service.core.state_of(row))
    assert game.is_over(state)
    # one game-over sheet, one rematch keyboard: nothing was posted twice
    overs = [m for m in fake_telegram.messages(GROUP) if any("r:" in (d or "") for _, d in fake_telegram.buttons(m))]
    assert len(overs) == 1


async def test_timers_fire_once_across_workers(workers, fake_telegram):
    first, second = workers
    anya, boris = fake_telegram.user(1, "Аня"), fake_telegram.user(2, "Борис")
    await open_table(first, GROUP, anya, [boris])
    await second.press(anya, await first.table_message(GROUP), "без таймера")  # -> 1 min
    await first.settle()  # the leader redraws the lobby
    await first.press(anya, await first.table_message(GROUP), "Начать")
    table = await first.table(GROUP)
    seconds = table.settings["timer"]
    assert seconds > 0
    _, state = await first.state(table.id)
    idle_user = (anya, boris)[get_game("durak").to_act(state)[0]]
    pings_before = len(fake_telegram.calls("sendMessage", chat_id=idle_user.id))

    first.clock.advance(seconds * 0.8)  # past the reminder
    await asyncio.gather(first.service.timers.fire(), second.service.timers.fire(), first.service.timers.fire())
    await settle_all(first, second)
    sent = fake_telegram.calls("sendMessage", chat_id=idle_user.id)[pings_before:]
    reminders = [c for c in sent if "Напоминание" in c.params.get("text", "")]
    assert len(reminders) == 1, [c.params.get("text") for c in sent]

    first.clock.advance(seconds)  # past the deadline: the idle player loses, once
    await asyncio.gather(second.service.timers.fire(), first.service.timers.fire(), second.service.timers.fire())
    await settle_all(first, second)
    log = [a.action for a in await first.repo.load_actions(table.id)]
    assert sum(a.startswith("forfeit") for a in log) == 1, log
    assert (await second.repo.get_table(table.id)).status == "between"
