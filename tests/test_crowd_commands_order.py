"""Ten people's commands at once in a busy group (issue 45, item 9): answered in the order
they came (``/durak``, sent first, gets its table first, although opening a table takes its
handler longer than /help), and within the group's real budget: Telegram allows about 20
messages a minute in a group, a burst too, so ten answers go about a second apart (the
tenth ~9 s after the first, simulated time), not 3 s apart (27 s) when no flood wait asks."""

from __future__ import annotations

import pytest

from tests.test_crowd_commands import answers_to, together

GROUP = -1001


@pytest.fixture
async def bot(fake_telegram, start_bot):
    fake_telegram.group_flood_limit = 20  # Telegram's ~20 messages a minute in a group
    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    return await start_bot()


async def test_ten_commands_are_answered_in_arrival_order_in_a_burst(bot, fake_telegram):
    fake = fake_telegram
    people = [fake.user(i, f"P{i}") for i in range(1, 11)]
    commands = ["/durak", "/help", "/rules king", "/top", "/history", "/mytables", "/stats", "/score", "/sheets"]
    commands.append("/rules bridge")
    sent = await together(bot, [(person, GROUP, command) for person, command in zip(people, commands)])
    await bot.settle()

    table = await bot.table(GROUP)
    answers = [fake.msgs[GROUP][table.group_message_id]] + [answers_to(fake, m)[0] for m in sent[1:]]
    ids = [m.message_id for m in answers]
    assert ids == sorted(ids), [(c, i) for c, i in zip(commands, ids)]  # in the order the commands came
    calls = [c for c in fake.calls("sendMessage", GROUP) if c.ok]
    assert len(calls) == 10 and not [c for c in fake.calls(chat_id=GROUP) if not c.ok]  # no flood wait
    spread = calls[-1].t - calls[0].t
    assert spread <= 10.0, f"the tenth answer came {spread:.1f} s after the first"
    gaps = [b.t - a.t for a, b in zip(calls, calls[1:])]
    assert min(gaps) >= 1.0 - 1e-3, gaps  # Telegram's one message a second in a chat
