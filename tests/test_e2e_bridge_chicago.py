"""Chicago through the real Application and the fake Bot API: ``/chicago`` opens a played
table that ends after four deals, the lobby switches a bridge table between rubber and
Chicago (its name follows), and ``/score chicago`` keeps the sheet of a paper round —
the worked round of docs/rules/bridge.md §7.8."""

from __future__ import annotations

import pytest

from engine.base import get_game
from tests.e2e import open_table
from tests.test_e2e_bridge import passive

GROUP = -1001
GAME = get_game("bridge")


@pytest.fixture
async def bot(fake_telegram, start_bot):
    fake_telegram.group(GROUP, "Клуб", admins=[1], supergroup=True)
    return await start_bot()


async def test_chicago_table_with_computers_ends_after_four_deals(bot, fake_telegram):
    fake = fake_telegram
    anya = fake.user(1, "Аня")
    table = await open_table(bot, GROUP, anya, [], computers=3, command="/chicago")
    assert table.game == "bridge" and table.options["scoring"] == "chicago"
    lobby = await bot.table_message(GROUP)
    assert lobby.text.startswith("Бридж (чикаго)") and "круг из четырёх сдач" in lobby.text
    # a Chicago deal is never left half-way: the paper sheet's switch is not offered
    labels = [text for text, _ in fake.buttons(lobby)]
    assert "Чикаго (4 сдачи)" in labels and not any("незаконченный" in text for text in labels)
    await bot.press(anya, lobby, "Начать")
    await bot.play(table.id, [anya], choose=passive, max_moves=4000)
    row, state = await bot.state(table.id)
    assert row.status == "between"
    result = GAME.result(state)
    # four deals played; a passed-out deal is redealt and does not count (§7.8)
    assert result["complete"] and state.sheet.round_deals() == 4 and sum(result["amounts"]) == 0
    sheets = [m for m in fake.messages(GROUP) if "Над чертой" in m.text]
    assert len(sheets) == result["deals"]  # one sheet a deal, passed-out deals included
    assert "Чикаго, сдача 4 из 4" in sheets[-2].text  # the sheet says which deal comes next
    final = fake.last_message(GROUP)
    assert "Расчёт" in final.text and "роббер" not in final.text.lower()
    # the next round starts afresh, nobody vulnerable
    await bot.press(anya, final, "🔁 Ещё партию")
    row, state = await bot.state(table.id)
    assert row.status == "playing" and state.sheet.entries == [] and state.vul == {"NS": False, "EW": False}


async def test_the_lobby_switches_rubber_and_chicago(bot, fake_telegram):
    fake = fake_telegram
    anya = fake.user(1, "Аня")
    await open_table(bot, GROUP, anya, [], command="/bridge")
    assert (await bot.table_message(GROUP)).text.startswith("Бридж (роббер)")
    await bot.press(anya, await bot.table_message(GROUP), "Роббер")
    table = await bot.table(GROUP)
    assert table.options["scoring"] == "chicago"
    assert (await bot.table_message(GROUP)).text.startswith("Бридж (чикаго)")
    await bot.send(anya, GROUP, "/language en")
    lobby = await bot.table_message(GROUP)
    assert lobby.text.startswith("Chicago bridge") and "four deals a round" in lobby.text
    assert "part scores carry over" in lobby.text  # by the laws, the default
    await bot.press(anya, lobby, "Chicago (4 deals)")
    table = await bot.table(GROUP)
    assert table.options["scoring"] == "chicago" and table.options["chicago_scoring"] == "each_deal"
    lobby = await bot.table_message(GROUP)
    assert "every deal on its own" in lobby.text and "50 for a part score" in lobby.text
    await bot.press(anya, lobby, "Chicago, each deal alone")
    assert (await bot.table(GROUP)).options["scoring"] == "rubber"


ROUND = [  # docs/rules/bridge.md §7.8: N deals first
    ("N", "4", "♠", "10 (=)"),
    ("E", "2", "♥", "9 (+1)"),
    ("W", "3", "БК", "7 (−2)"),
    ("N", "6", "♦", "12 (=)"),
]


async def test_score_chicago_writes_the_worked_round(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    await bot.send(anya, GROUP, "/score chicago")
    lobby = await bot.table_message(GROUP)
    assert lobby.text.startswith("Чикаго: запись")
    labels = [text for text, _ in fake.buttons(lobby)]
    assert not any("незаконченный" in text for text in labels)
    await bot.press(boris, lobby, "Сесть за стол")
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")

    async def press(user, text):
        answer = await bot.press(user, await bot.table_message(GROUP), text)
        assert answer is None or not answer.show_alert, answer

    for n, (declarer, level, strain, tricks) in enumerate(ROUND):
        for i, text in enumerate((declarer, level, strain, "без контры", tricks, "онеров нет", "✅ Записать")):
            await press((anya, boris)[(n + i) % 2], text)
        if n == 0:  # 120 below; 300 above: a game not vulnerable, written on the deal
            labels = [text for text, _ in fake.buttons(await bot.table_message(GROUP))]
            assert "🏁 Закончить чикаго" in labels and "🏁 Закончить роббер" not in labels
            assert "Мы: под чертой 120; над чертой 300 (за партию)." in (await bot.last_post(GROUP)).text
        if n == 1:  # E-W vulnerable on deal 2: an overtrick 30, no part-score premium (§7.8)
            post = (await bot.last_post(GROUP)).text
            assert "Они: под чертой 60; над чертой 30 (переборы)." in post and "выиграли партию" not in post
    table = await bot.table(GROUP)
    row, state = await bot.state(table.id)
    assert row.status == "between"
    final = fake.last_message(GROUP)
    assert "Итого: Мы 1840 — Они 90" in final.text and "выиграли «чикаго»" in final.text
