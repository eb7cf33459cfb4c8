""" "🔍 The deal" through the real Application and the fake Bot API, for every game that has
it: the button comes under the sheet of a finished deal; a press sends the presser, in
their DM, the deal as dealt and played with its double-dummy figures; nothing of a deal
not yet over can come out this way (a forged button, a press before any deal ended),
only the table's group and its seated players may press it, a press is answered before
the analysis is ready, a crowd pressing at once gets one computation, a button that does
not end a deal is refused, and a repeated press gets only a toast."""

from __future__ import annotations

import asyncio
import re
import threading

import pytest

from bot.game_registry import ui_for
from engine.analysis_core import analyse_last_finished_deal
from engine.cards import label
from engine.records import make_record
from tests.e2e import CARD_LABEL, open_table

GROUP = -1001
PREPARING = "Готовлю разбор сдачи — он придёт в ваш личный чат с ботом."
SENT = "Разбор сдачи — в вашем личном чате с ботом."
NOT_OVER = "Эта сдача ещё не кончилась: её карты скрыты."

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

    # a seated player presses it under the sheet: the press is answered at once, the
    # deal comes to her DM when it is analysed, once
    answer = await bot.press(anya, post, "🔍 Разбор сдачи")
    assert answer.text == PREPARING and not answer.show_alert
    shown = last_deal(fake, anya.id)
    assert shown.text.startswith("🔍")
    assert cards_shown(shown.text) >= dealt_labels(expected)  # every hand as dealt
    answer = await bot.press(anya, post, "🔍 Разбор сдачи")
    assert answer.text == "Только что отправлено вам в личный чат." and last_deal(fake, anya.id) is shown

    # a member of the group who did not play may see a finished deal; one the bot may
    # not write to is told to open the private chat first
    answer = await bot.press(stranger, post, "🔍 Разбор сдачи")  # stored: sent at once
    assert answer.text == SENT and fake.last_message(stranger.id).text == shown.text
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


async def test_a_button_that_does_not_end_a_deal_is_refused(bot, fake_telegram, monkeypatch):
    """Only the action that ended a deal names it: any other ``seq`` (a forged button in
    the middle of the next deal, one just before the end) is refused and computes nothing,
    so one deal is analysed, stored and sent once whatever ``seq`` is pressed."""
    import bot.deal_view as deal_view

    calls = counted_analyses(monkeypatch, deal_view)
    fake = fake_telegram
    anya = fake.user(1, "Аня")
    table = await open_table(bot, GROUP, anya, [], computers=2, command="/sochi")
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")

    async def second_deal_under_way() -> bool:
        actions = await bot.repo.load_actions(table.id)
        return sum(a.seat is None and a.action.startswith("deal ") for a in actions) >= 2 and bool(deal_buttons(fake))

    await bot.play(table.id, [anya], choose=quiet, until=second_deal_under_way, max_moves=600)
    (data,) = deal_buttons(fake)
    end = int(data.split(":")[2])
    now = (await bot.table(GROUP)).version  # an action of the second deal, not yet over
    _, state = await bot.state(table.id)
    assert state.phase != "deal" and now > end
    seqs = [a.seq for a in await bot.repo.load_actions(table.id)]
    others = [s for s in seqs if s != end][-20:] + [end - 1, now + 5]
    message = await bot.table_message(GROUP)
    for seq in others:
        answer = await bot.press_raw(anya, GROUP, message.message_id, f"d:{table.id}:{seq}")
        assert answer.text == NOT_OVER, seq
    assert calls == [] and not [m for m in fake.messages(anya.id) if m.text.startswith("🔍")]
    # the deal's own button: the first deal, exactly, nothing of the second
    answer = await bot.press_raw(anya, GROUP, message.message_id, data)
    assert answer.text == PREPARING and len(calls) == 1
    shown = last_deal(fake, anya.id)
    first = analyse_last_finished_deal(await record_to(bot, table.id, end))
    assert first is not None and first["deal"] == 1
    names = [s.name for s in sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)]
    assert shown.raw_text == ui_for("preferans_ru").deal_record_text(first, names, "ru")
    assert shown.text.startswith("🔍 Раздача 1 ")
    assert await bot.repo.get_deal_analysis(table.id, end) == first
    for seq in others:
        assert await bot.repo.get_deal_analysis(table.id, seq) is None


def counted_analyses(monkeypatch, deal_view, gate: threading.Event | None = None) -> list[int]:
    """Count the analyses computed (each waits for ``gate`` first, when given)."""
    calls: list[int] = []
    real = deal_view.analyse_last_finished_deal

    def counted(record):
        calls.append(1)
        if gate is not None:
            assert gate.wait(300), "the test never opened the gate"
        return real(record)

    monkeypatch.setattr(deal_view, "analyse_last_finished_deal", counted)
    return calls


async def test_the_press_is_answered_before_the_analysis_and_a_crowd_gets_one(bot, fake_telegram, monkeypatch):
    """While the analysis runs (held here by a gate) every press, a crowd's double clicks
    included, is answered at once; then one computation, one stored row, one message to
    each person who asked."""
    import bot.deal_view as deal_view

    gate = threading.Event()
    calls = counted_analyses(monkeypatch, deal_view, gate)
    fake = fake_telegram
    anya = fake.user(1, "Аня")
    crowd = [fake.user(10 + i, f"Гость {i}") for i in range(8)]
    for person in crowd:
        await bot.send(person, person, "/start")
    table = await open_table(bot, GROUP, anya, [], computers=2, command="/sochi")
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")

    async def first_deal_posted() -> bool:
        return bool(deal_buttons(fake))

    await bot.play(table.id, [anya], choose=quiet, until=first_deal_posted, max_moves=600)
    (data,) = deal_buttons(fake)
    post = next(m for m in fake.messages(GROUP) if any(d == data for _, d in fake.buttons(m)))
    presses = [fake.press(bot.app, person, post, callback_data=data) for person in [*crowd, *crowd, *crowd[:3]]]
    try:  # a generous bound: a press that waited for the analysis would wait for the gate
        answers = await asyncio.wait_for(asyncio.gather(*presses), 120)
    finally:
        gate.set()
    assert all(a is not None and a.text == PREPARING and not a.show_alert for a in answers)
    assert not any(m.text.startswith("🔍") for p in crowd for m in fake.messages(p.id))
    await bot.settle()
    assert len(calls) == 1
    for person in crowd:  # each got the deal once, however often they pressed
        assert [m.text.startswith("🔍") for m in fake.messages(person.id)].count(True) == 1
    # the analysis is kept: a press after a restart of this process's memory computes
    # nothing and is answered with the deal at once
    bot.app.bot_data.pop("deal_views", None)
    bot.clock.advance(120)
    answer = await bot.press(anya, post, "🔍 Разбор сдачи")
    assert answer.text == SENT and len(calls) == 1 and last_deal(fake, anya.id).text.startswith("🔍")
