"""A finished Chicago as its players see it (issue 45, item 8): ``/export`` still sends
its boards (also once the table is closed), the PBN says ``[Scoring "Chicago"]`` and the
day each board was dealt, and the hand message at the end shows no empty suits."""

from __future__ import annotations

import re
import time

import pytest

from tests.e2e import open_table
from tests.test_e2e_bridge import passive

GROUP = -1001


@pytest.fixture
async def bot(fake_telegram, start_bot):
    fake_telegram.group(GROUP, "Клуб", admins=[1], supergroup=True)
    return await start_bot()


def pbn_files(fake) -> list[str]:
    return [
        m.document["content"].decode("utf-8")
        for m in fake.messages(GROUP)
        if m.document and m.document["file_name"].endswith(".pbn")
    ]


async def test_a_finished_chicago_exports_and_ends_cleanly(bot, fake_telegram):
    fake = fake_telegram
    anya = fake.user(1, "Аня")
    table = await open_table(bot, GROUP, anya, [], computers=3, command="/chicago")
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    await bot.play(table.id, [anya], choose=passive, max_moves=4000)
    row, state = await bot.state(table.id)
    assert row.status == "between"

    # the hand at the end: the result, not four empty suits
    hand = await bot.hand_message(table.id, anya)
    assert not re.search(r"♠ —\s*♥ —", hand.text), hand.text

    today = time.strftime("%Y.%m.%d", time.gmtime(bot.clock()))
    for closed in (False, True):
        await bot.send(anya, GROUP, "/export")
        (pbn,) = pbn_files(fake)[-1:]
        assert pbn.count("[Board ") == len(state.boards) >= 4
        assert pbn.count('[Scoring "Chicago"]') == len(state.boards) and '"Rubber"' not in pbn
        assert pbn.count(f'[Date "{today}"]') == len(state.boards) and "????" not in pbn
        if not closed:  # Close under the final post: the table is gone, its boards are not
            final = next(m for m in fake.messages(GROUP) if "Закрыть стол" in [b for b, _ in fake.buttons(m)])
            await bot.press(anya, final, "Закрыть стол")
            assert await bot.repo.find_open_table(GROUP, 0) is None
    assert len(pbn_files(fake)) == 2


@pytest.mark.parametrize(
    "command, computers", [("/sochi", 2), ("/preferans balkan", 2), ("/chicago", 3), ("/king", 3), ("/durak", 1)]
)
async def test_after_cancel_the_hand_names_nobody_to_act(bot, fake_telegram, command, computers):
    fake = fake_telegram
    anya = fake.user(1, "Аня")
    table = await open_table(bot, GROUP, anya, [], computers=computers, command=command)
    await bot.press(anya, await bot.table_message(GROUP), lambda text: text in ("Начать", "▶️ Начать"))
    before = (await bot.hand_message(table.id, anya)).text
    assert "▶️" in before or "👉" in before
    await bot.send(anya, GROUP, "/cancel")
    hand = await bot.hand_message(table.id, anya)
    assert "Стол закрыт" in hand.text or "закрыт" in hand.text, hand.text
    assert "▶️" not in hand.text and "👉" not in hand.text and "Ждём" not in hand.text, hand.text
    assert not fake.buttons(hand) or all(not d.startswith("a:") for _, d in fake.buttons(hand))
