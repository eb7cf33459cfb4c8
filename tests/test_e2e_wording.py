"""Words a newcomer stumbled on, through the real bot: the language chooser answers a
press, computers have names, and the lobby of a fixed-size game says its size once."""

from __future__ import annotations

from bot.render.common import COMPUTER_MARK, COMPUTER_NAMES
from tests.conftest import GROUP
from tests.e2e import open_table


async def test_language_chooser_confirms_the_choice(bot, fake_telegram):
    fake = fake_telegram
    anya = fake.user(1, "Аня", language_code="ru")
    await bot.send(anya, GROUP, "/language")
    chooser = fake.last_message(GROUP)
    assert chooser.text == "Выберите язык:" and fake.buttons(chooser)
    answer = await bot.press(anya, chooser, "English")
    assert answer is not None and answer.text == "Language: English."  # the toast
    # ... and the chooser itself turned into the confirmation, with nothing left to press
    assert chooser.text == "Language: English." and fake.buttons(chooser) == []
    await bot.tick(10)  # past the repeated-command window (bot/command_gate.py)
    await bot.send(anya, GROUP, "/language")
    assert fake.last_message(GROUP).text == "Choose the language:"
    answer = await bot.press(anya, fake.last_message(GROUP), "Русский")
    assert answer.text == "Язык: русский." and fake.last_message(GROUP).text == "Язык: русский."


async def test_computers_get_names_of_the_tables_language(bot, fake_telegram):
    fake = fake_telegram
    # a person called like the first computer name: the computers skip it
    masha, boris = fake.user(1, "Маша Иванова", language_code="ru"), fake.user(2, "Борис", language_code="ru")
    table = await open_table(bot, GROUP, masha, [boris], computers=3)
    seats = sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)
    computers = [s.name for s in seats if s.is_computer]
    assert computers == [f"{COMPUTER_MARK} {name}" for name in COMPUTER_NAMES["ru"][1:4]]  # Петя, Катя, Федя
    lobby = await bot.table_message(GROUP)
    assert all(name in lobby.text for name in computers) and f"{COMPUTER_MARK} 1" not in lobby.text
    assert "Сбор игроков (2–6 игроков)" in lobby.text


async def test_fixed_size_lobby_says_the_size_once(bot, fake_telegram):
    fake = fake_telegram
    ann = fake.user(1, "Ann", language_code="en")
    await open_table(bot, GROUP, ann, [], computers=1, command="/bridge")
    lobby = await bot.table_message(GROUP)
    assert "Taking seats (4 players)" in lobby.text and "4–4" not in lobby.text
    assert f"{COMPUTER_MARK} {COMPUTER_NAMES['en'][0]}" in lobby.text
    # the scoring preset in a bridge player's words, on its button and under the title
    assert "Scoring by the book: 100 above the line for every game won" in lobby.text
    answer = await bot.press(ann, lobby, "Start")  # two seats of four: the size, once
    assert answer.text == "This game needs 4 players."
