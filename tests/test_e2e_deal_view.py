""" "🔍 The deal" through the real Application and the fake Bot API, for every game that has
it: the button comes under the sheet of a finished deal; a press sends the presser, in
their DM, the deal as dealt and played with its double-dummy figures; nothing of a deal
not yet over can come out this way (a forged button, a press before any deal ended),
only the table's group and its seated players may press it, a crowd pressing at once
gets one computation, and a repeated press only a toast."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.games import ui_for
from engine.analysis_core import analyse_last_finished_deal
from engine.cards import label
from engine.records import make_record
from tests.e2e import CARD_LABEL, open_table

GROUP = -1001

GAMES = [  # (game, command, people, computers)
    ("bridge", "/bridge", 1, 3),
    ("whist", "/whist", 1, 3),
    ("king", "/king", 1, 3),
    ("preferans", "/preferans balkan", 1, 2),
    ("preferans_ru", "/sochi", 1, 2),
]


def quiet(user, buttons, rng):
    """Pass where one may, else the first card (or the first button)."""
    for text, data in buttons:
        if text in ("Пас", "Pass", "✅ Согласиться"):
            return data
    cards = [d for text, d in buttons if CARD_LABEL.fullmatch(text)]
    return cards[0] if cards else buttons[0][1]


def last_deal(fake, chat_id: int):
    """The newest deal record in a private chat: a hand message whose turn it is comes
    back below it (tests/test_e2e_hand_below.py), so it is not always the last message."""
    found = [m for m in fake.messages(chat_id) if m.text.startswith("🔍")]
    assert found, f"no deal record in chat {chat_id}"
    return found[-1]


def deal_buttons(fake) -> list[str]:
    return [data for m in fake.messages(GROUP) for _, data in fake.buttons(m) if data and data.startswith("d:")]


async def record_to(bot, table_id: int, seq: int) -> dict:
    """The table's game record up to action ``seq``, as the bot would replay it."""
    table = await bot.repo.get_table(table_id)
    actions = await bot.repo.load_actions(table_id)
    game_no = next(a.game_no for a in actions if a.seq == seq)
    log = [(a.seat, a.action) for a in actions if a.game_no == game_no and a.seq <= seq]
    return make_record(table.game, len(await bot.repo.get_seats(table_id)), table.options, log)


def dealt_labels(deal: dict) -> set[str]:
    return {label(c) for hand in deal["hands"].values() for c in hand}


SUIT_RUN = re.compile(r"([♠♥♦♣]) ?((?:(?:10|[AKQJ2-9]) ?)+)")
RANK = re.compile(r"10|[AKQJ2-9]")


def cards_shown(text: str) -> set[str]:
    """Every card a deal record names: in the hands suit first ("♠K10", "♠ K Q 10"), in
    the tricks as labels ("10♠")."""
    hands = {rank + suit for suit, ranks in SUIT_RUN.findall(text) for rank in RANK.findall(ranks)}
    return hands | set(CARD_LABEL.findall(text))


@pytest.mark.parametrize("game,command,people,computers", GAMES)
async def test_the_deal_after_its_sheet_and_never_before(bot, fake_telegram, game, command, people, computers):
    fake = fake_telegram
    anya, stranger, silent = fake.user(1, "Аня"), fake.user(5, "Гоша"), fake.user(6, "Тихон")
    await bot.send(stranger, stranger, "/start")
    table = await open_table(bot, GROUP, anya, [], computers=computers, command=command)
    assert table.game == game
    await bot.press(anya, await bot.table_message(GROUP), lambda text: text in ("Начать", "▶️ Начать"))

    # before any deal is over: a forged button for the first action shows nothing
    first = (await bot.repo.load_actions(table.id))[0].seq
    dm_before = len(fake.messages(anya.id))
    message = await bot.table_message(GROUP)
    answer = await bot.press_raw(anya, GROUP, message.message_id, f"d:{table.id}:{first}")
    assert "ещё не кончилась" in answer.text and len(fake.messages(anya.id)) == dm_before

    async def first_deal_posted() -> bool:
        return bool(deal_buttons(fake))

    await bot.play(table.id, [anya], choose=quiet, until=first_deal_posted, max_moves=600)
    (data,) = deal_buttons(fake)
    seq = int(data.split(":")[2])
    expected = analyse_last_finished_deal(await record_to(bot, table.id, seq))
    assert expected is not None and expected["deal"] == 1 and expected.get("finished", True)
    post = next(m for m in fake.messages(GROUP) if any(d == data for _, d in fake.buttons(m)))
    assert [text for text, d in fake.buttons(post) if d == data] == ["🔍 Разбор сдачи"]

    # a seated player presses it under the sheet: the deal comes to her DM, once
    answer = await bot.press(anya, post, "🔍 Разбор сдачи")
    assert answer.text == "Разбор сдачи — в вашем личном чате с ботом." and not answer.show_alert
    shown = last_deal(fake, anya.id)
    assert shown.text.startswith("🔍")
    assert cards_shown(shown.text) >= dealt_labels(expected)  # every hand as dealt
    answer = await bot.press(anya, post, "🔍 Разбор сдачи")
    assert answer.text == "Только что отправлено вам в личный чат." and last_deal(fake, anya.id) is shown

    # a member of the group who did not play may see a finished deal; one the bot may
    # not write to is told to open the private chat first
    answer = await bot.press(stranger, post, "🔍 Разбор сдачи")
    assert not answer.show_alert and fake.last_message(stranger.id).text == shown.text
    answer = await bot.press(silent, post, "🔍 Разбор сдачи")
    assert answer.show_alert and not fake.messages(silent.id)

    # the players' hand messages offer it too from now on, and it works there
    hand = await bot.hand_message(table.id, anya)
    assert ("🔍 Разбор прошлой сдачи", data) in fake.buttons(hand)
    bot.clock.advance(61)
    answer = await bot.press(anya, hand, "🔍 Разбор прошлой сдачи")
    assert not answer.show_alert and last_deal(fake, anya.id).text == shown.text
    # in a private chat only a seated player's press counts
    answer = await bot.press_raw(stranger, stranger.id, fake.last_message(stranger.id).message_id, data)
    assert "под сообщением стола" in answer.text


async def test_a_forged_button_in_a_running_deal_shows_only_the_deal_before(bot, fake_telegram):
    fake = fake_telegram
    anya = fake.user(1, "Аня")
    table = await open_table(bot, GROUP, anya, [], computers=2, command="/sochi")
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")

    async def second_deal_under_way() -> bool:
        actions = await bot.repo.load_actions(table.id)
        return sum(a.seat is None and a.action.startswith("deal ") for a in actions) >= 2 and bool(deal_buttons(fake))

    await bot.play(table.id, [anya], choose=quiet, until=second_deal_under_way, max_moves=600)
    now = (await bot.table(GROUP)).version  # an action of the second deal, not yet over
    _, state = await bot.state(table.id)
    assert state.phase != "deal"
    message = await bot.table_message(GROUP)
    answer = await bot.press_raw(anya, GROUP, message.message_id, f"d:{table.id}:{now}")
    assert not answer.show_alert
    shown = last_deal(fake, anya.id)
    first = analyse_last_finished_deal(await record_to(bot, table.id, now))
    assert first is not None and first["deal"] == 1
    # exactly the first deal's record, nothing of the second
    names = [s.name for s in sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)]
    assert shown.raw_text == ui_for("preferans_ru").deal_record_text(first, names, "ru")
    assert shown.text.startswith("🔍 Раздача 1 ")


async def test_a_crowd_pressing_at_once_gets_one_computation(bot, fake_telegram, monkeypatch):
    import bot.deal_view as deal_view

    calls = []
    real = deal_view.analyse_last_finished_deal

    def counted(record):
        calls.append(1)
        return real(record)

    monkeypatch.setattr(deal_view, "analyse_last_finished_deal", counted)
    fake = fake_telegram
    anya = fake.user(1, "Аня")
    crowd = [fake.user(10 + i, f"Гость {i}") for i in range(5)]
    for person in crowd:
        await bot.send(person, person, "/start")
    table = await open_table(bot, GROUP, anya, [], computers=2, command="/sochi")
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")

    async def first_deal_posted() -> bool:
        return bool(deal_buttons(fake))

    await bot.play(table.id, [anya], choose=quiet, until=first_deal_posted, max_moves=600)
    (data,) = deal_buttons(fake)
    post = next(m for m in fake.messages(GROUP) if any(d == data for _, d in fake.buttons(m)))
    answers = await asyncio.gather(
        *(fake.press(bot.app, person, post, callback_data=data) for person in [*crowd, *crowd])
    )
    await bot.settle()
    assert len(calls) == 1
    assert all(a is not None and not a.show_alert for a in answers)
    for person in crowd:  # each got the deal once, however often they pressed
        assert [m.text.startswith("🔍") for m in fake.messages(person.id)].count(True) == 1
    # the analysis is kept: a press after a restart of this process's memory computes nothing
    bot.app.bot_data.pop("deal_views", None)
    bot.clock.advance(120)
    await bot.press(anya, post, "🔍 Разбор сдачи")
    assert len(calls) == 1 and last_deal(fake, anya.id).text.startswith("🔍")
