"""One group's flood of commands stalls nobody.

Replies go through the sender's outbox, so a reply waiting for a group's budget holds
no handler slot; a command repeated within a few seconds is answered once (by the same
person; /help, /rules and /start by anyone in the chat), and nobody else's is held up.
"""

from __future__ import annotations

import pytest

from bot.command_gate import REPEAT_WINDOW, CommandGate
from tests.e2e import FakeClock

GROUP, OTHER = -1001, -1002


@pytest.fixture
async def bot(fake_telegram, start_bot):
    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    fake_telegram.group(OTHER, "Дача", admins=[1], supergroup=True)
    return await start_bot()


def replies_in(fake, chat_id):
    return [c for c in fake.log if c.chat_id == chat_id and c.method == "sendMessage"]


async def test_a_flood_of_one_command_gets_one_answer(bot, fake_telegram):
    fake = fake_telegram
    people = [fake.user(10 + i, f"P{i}") for i in range(30)]
    for i in range(60):  # thirty people, twice each
        await bot.send(people[i % 30], GROUP, "/rules king")
    assert len(replies_in(fake, GROUP)) == 1
    anya = fake.user(1, "Аня")
    for _ in range(20):
        await bot.send(anya, GROUP, "/help")
    assert len(replies_in(fake, GROUP)) == 2
    # other chats are answered meanwhile, and the group again once the burst is over
    await bot.send(anya, anya, "/start")
    assert replies_in(fake, anya.id)
    await bot.send(anya, OTHER, "/rules king")
    assert len(replies_in(fake, OTHER)) == 1
    await bot.tick(REPEAT_WINDOW + 1)
    await bot.send(anya, GROUP, "/rules king")
    assert len(replies_in(fake, GROUP)) == 3


async def test_different_people_s_own_commands_are_each_answered(bot, fake_telegram):
    """/cancel by someone who may not, then by the host: both are answered."""
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    await bot.send(anya, GROUP, "/durak")
    await bot.send(boris, GROUP, "/cancel")
    assert "открывший стол" in fake.last_message(GROUP).text
    await bot.send(anya, GROUP, "/cancel")
    assert await bot.repo.find_open_table(GROUP, 0) is None


def test_the_gate_holds_back_repeats_only_per_person_and_command():
    clock = FakeClock()
    gate = CommandGate(clock)
    assert gate.admit(GROUP, 0, 1, "/help")
    assert gate.admit(GROUP, 0, 2, "/durak")  # another person's command, at the same moment
    assert gate.admit(GROUP, 0, 1, "/cancel")  # the same person's other command
    assert gate.admit(GROUP, 0, 3, "/cancel")  # the same command by someone else
    assert not gate.admit(GROUP, 0, 1, "/cancel")  # a double tap
    assert not gate.admit(GROUP, 0, 3, "/help")  # the same answer for everyone, seconds ago
    assert gate.admit(GROUP, 0, 3, "/rules durak")  # ... but not another game's rules
    assert gate.admit(OTHER, 0, 3, "/help")  # another chat
    assert gate.admit(GROUP, 7, 3, "/help")  # another topic
    clock.advance(REPEAT_WINDOW)
    assert gate.admit(GROUP, 0, 3, "/help")
    assert gate.admit(GROUP, 0, 1, "/cancel")
