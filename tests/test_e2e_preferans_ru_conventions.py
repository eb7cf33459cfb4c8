"""The §7.1 table conventions of Russian preferans through the bot: the lobby of ``/score``
and of a played table offers each one only where it changes something, the header says
which ones the table plays, and a hand entered on the sheet is written their way (the
worked examples of docs/rules/preferans_ru.md §7.1)."""

from __future__ import annotations

from engine.games.preferans_ru.record import score
from tests.e2e import open_table

GROUP = -1001


def people(fake, n: int = 3) -> list:
    names = ["Аня", "Борис", "Вера"]
    return [fake.user(i + 1, names[i], language_code="ru") for i in range(n)]


async def press(bot, user, label: str) -> None:
    answer = await bot.press(user, await bot.table_message(GROUP), lambda text: text == label)
    assert answer is None or not answer.show_alert, answer
    bot.clock.advance(3.0)


async def labels(bot, fake) -> list[str]:
    return [text for text, _ in fake.buttons(await bot.table_message(GROUP))]


async def hand_written(bot) -> dict:
    """What the last hand on the table's sheet wrote, by ``cardbot score``'s reading of
    the table's own record: pool, mountain and whists, zeros left out."""
    table = await bot.table(GROUP)
    _, state = await bot.state(table.id)
    from engine.base import get_game

    record = get_game(table.game).view(state, None)["record"]
    gain = score(record)["hands"][-1]
    return {
        "pool": {p: x for p, x in gain["pool"].items() if x},
        "mountain": {p: x for p, x in gain["mountain"].items() if x},
        "whists": {p + q: x for p, row in gain["whists"].items() for q, x in row.items() if x},
    }


async def test_score_sochi_with_personal_quota_writes_the_worked_six(bot, fake_telegram) -> None:
    """Сочи 6♠, tricks A 6, B 3, C 1: with each whister answering for his own two tricks,
    C (Вера) pays her missing one: 2 in her mountain; B writes 6 and C 2 on A."""
    fake = fake_telegram
    anya, boris, vera = people(fake)
    await open_table(bot, GROUP, anya, [boris, vera], command="/score sochi")
    shown = await labels(bot, fake)
    assert "норма взяток: общая" in shown and "распасы до: любой игры" in shown
    assert not any(text.startswith(("утешение", "ничья в распасах")) for text in shown)  # Ростов's only
    await press(bot, anya, "норма взяток: общая")
    assert (await bot.table(GROUP)).options["whist_quota"] == "personal"
    assert "норма взяток: у каждого своя" in (await bot.table_message(GROUP)).text  # the header says so
    await press(bot, anya, "▶️ Начать")
    for label in ("Аня", "6 ♠", "Вист", "Вист", "6", "3", "✅ Записать"):
        await press(bot, boris, label)
    assert await hand_written(bot) == {"pool": {"A": 2}, "mountain": {"C": 2}, "whists": {"BA": 6, "CA": 2}}
    assert "гора В +2" in (await bot.last_post(GROUP)).text  # the posted sheet's line says it


async def test_score_sochi_with_pypref_quota_charges_only_when_the_two_are_short(bot, fake_telegram) -> None:
    """The quota button's third value (issue 45, PyPref/kpref): Сочи 6♠, tricks A 7, B 3,
    C 0: the two took 3 of 4, so each answers for his own two uncovered: C 2 · 2 = 4."""
    fake = fake_telegram
    anya, boris, vera = people(fake)
    await open_table(bot, GROUP, anya, [boris, vera], command="/score sochi")
    await press(bot, anya, "норма взяток: общая")
    await press(bot, anya, "норма взяток: у каждого своя")
    assert (await bot.table(GROUP)).options["whist_quota"] == "personal_if_short"
    assert "норма: своя, если недобрали" in (await bot.table_message(GROUP)).text  # the header says so
    await press(bot, anya, "▶️ Начать")
    for label in ("Аня", "6 ♠", "Вист", "Вист", "7", "3", "✅ Записать"):
        await press(bot, boris, label)
    assert await hand_written(bot) == {"pool": {"A": 2}, "mountain": {"C": 4}, "whists": {"BA": 6}}


async def test_score_rostov_consolation_ten(bot, fake_telegram) -> None:
    """Ростов 8♠ two down: each defender writes 10 · 2 = 20 consolation on the declarer
    besides his whists for the tricks he took."""
    fake = fake_telegram
    anya, boris, vera = people(fake)
    await open_table(bot, GROUP, anya, [boris, vera], command="/score rostov")
    shown = await labels(bot, fake)
    assert "утешение: по цене игры" in shown and "ничья в распасах: полностью" in shown
    assert not any(text.startswith("распасы до") for text in shown)  # no progression in Ростов
    await press(bot, anya, "утешение: по цене игры")
    await press(bot, anya, "▶️ Начать")
    for label in ("Аня", "8 ♠", "Вист", "Вист", "6", "2", "✅ Записать"):
        await press(bot, boris, label)
    # tricks A 6, B 2, C 2: A two down on 8♠ (v = wv = 6) pays 2 · 6 = 12 in his mountain;
    # B and C each write their 2 tricks, 2 · 6 = 12, and the consolation 2 · 10 = 20
    # (with the game's price it would be 2 · 6 = 12, 24 in all)
    assert await hand_written(bot) == {"pool": {}, "mountain": {"A": 12}, "whists": {"BA": 32, "CA": 32}}


async def test_played_table_system_switch_keeps_the_conventions_that_apply(bot, fake_telegram) -> None:
    fake = fake_telegram
    (anya,) = people(fake, 1)
    await open_table(bot, GROUP, anya, [], command="/rostov")
    await press(bot, anya, "утешение: по цене игры")
    await press(bot, anya, "норма взяток: общая")
    options = (await bot.table(GROUP)).options
    assert options["consolation_rate"] == "ten" and options["whist_quota"] == "personal"
    await press(bot, anya, "Ростов")  # to Сочи: the Ростов rate goes, the quota stays
    options = (await bot.table(GROUP)).options
    assert options["system"] == "sochi" and options["consolation_rate"] == "price"
    assert options["whist_quota"] == "personal"
