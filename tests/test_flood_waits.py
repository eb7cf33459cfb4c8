"""Telegram's flood waits are honoured.

After a 429 with ``retry_after`` the chat rests that long (calling sooner earns longer
bans); several chats told to wait at once pause the whole bot; private chats are paced
ahead of time (about one message a second, bursts of three); what waits is coalesced;
a flood wait is one warning line, not an error with a traceback.
"""

from __future__ import annotations

import logging


from bot.sender import ChatPacing
from tests.e2e import FakeClock, open_table

GROUP = -1001


def calls_to(fake, chat_id):
    return [c for c in fake.log if c.chat_id == chat_id]


async def test_a_chat_told_to_wait_is_not_called_again_before_it_may(bot, fake_telegram, caplog):
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    table = await open_table(bot, GROUP, anya, [boris])
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    fake.fail_next("editMessageText", retry_after=7, chat_id=boris.id, times=1)
    fake.fail_next("editMessageText", retry_after=7, chat_id=anya.id, times=1)
    caplog.set_level(logging.INFO)
    await bot.play(table.id, [anya, boris], pace=0.5, max_moves=20, until=_after(12))
    for user in (anya, boris):
        calls = calls_to(fake, user.id)
        refused = [c for c in calls if not c.ok]
        assert len(refused) == 1, [(c.method, c.error) for c in refused]
        flood_at = refused[0].t
        too_soon = [c for c in calls if flood_at < c.t < flood_at + 7 and c.method != "answerCallbackQuery"]
        assert not too_soon, [(c.t - flood_at, c.method) for c in too_soon]
        # and the hand catches up once the wait is over: it shows the current buttons
        hand = await bot.hand_message(table.id, user)
        assert hand.text == fake.msgs[user.id][hand.message_id].text
    flood_lines = [r for r in caplog.records if "flood wait" in r.getMessage()]
    assert len(flood_lines) == 2 and all(r.levelno == logging.WARNING and not r.exc_info for r in flood_lines)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_private_chats_are_paced_to_about_one_message_a_second(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    table = await open_table(bot, GROUP, anya, [boris])
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    await bot.play(table.id, [anya, boris], pace=0.1, max_moves=30, until=_after(25))
    for user in (anya, boris):
        stamps = sorted(c.t for c in calls_to(fake, user.id) if c.ok)
        for start in stamps:  # at most a burst of 3, then about one a second
            assert sum(1 for t in stamps if start <= t < start + 2.0) <= 4, stamps


def test_several_chats_flooded_at_once_pause_everyone():
    clock = FakeClock()
    pacing = ChatPacing(clock)
    pacing.flood(-1001, 10)
    assert pacing.wait_for(-1002) == 0  # one chat's flood is its own
    pacing.flood(-1002, 10)
    pacing.flood(5, 10)
    assert pacing.wait_for(-1003) > 9  # three at once: the bot as a whole is over its limit
    clock.advance(10.5)
    assert pacing.wait_for(-1003) == 0 and pacing.wait_for(-1001) == 0


def _after(presses: int):
    count = []

    async def enough() -> bool:
        count.append(1)
        return len(count) > presses

    return enough


def test_a_chat_telegram_keeps_failing_rests_longer_each_time_and_many_rest_everyone():
    clock = FakeClock()
    pacing = ChatPacing(clock)
    assert [pacing.failed(-1001) for _ in range(7)] == [2, 4, 8, 16, 32, 60, 60]
    pacing.spend(-1001)  # Telegram answered: the next failure starts over
    clock.advance(61)
    assert pacing.failed(-1001) == 2
    assert pacing.wait_for(-1002) == 0
    pacing.failed(-1002)
    pacing.failed(7)  # three chats failing within a second: Telegram is out of reach
    assert pacing.wait_for(-1003) > 1
