"""Score sheets as pictures, through the real Application and the fake Bot API: the
group's ``/sheets`` choice (stored on both backends), the picture after a hand
(``picture``, ``both``) or at the end of a game (``text``, the default), and the text
sheet going out when the picture cannot be drawn."""

from __future__ import annotations

import io
import logging

import pytest
from PIL import Image

from bot.render import pictures
from tests.e2e import open_table

GROUP = -1001
HAND = ["5 ♣", "С прикупом", "Пас", "Пас", "✅ Записать"]  # a 5 ♣ made without defenders
EDITS_PER_HAND = 6  # one edit of the table message per button pressed


def people(fake):
    return [fake.user(i + 1, name, language_code="ru") for i, name in enumerate(["Аня", "Борис", "Вера"])]


async def press_group(bot, user, label):
    answer = await bot.press(user, await bot.table_message(GROUP), lambda text: text == label)
    assert answer is None or not answer.show_alert, answer
    bot.clock.advance(3.0)


async def score_table(bot, fake, bula: str | None = None):
    """A /score preferans sheet with Аня, Борис, Вера, started (bula 10 when asked)."""
    anya, boris, vera = people(fake)
    await open_table(bot, GROUP, anya, [boris, vera], command="/score preferans")
    lobby = await bot.table_message(GROUP)
    for _ in range(8):
        if bula is None or any(t == bula for t, _ in fake.buttons(lobby)):
            break
        await bot.press(anya, lobby, next(t for t, _ in fake.buttons(lobby) if t.startswith("пуля")))
        lobby = await bot.table_message(GROUP)
    await bot.press(anya, lobby, "▶️ Начать")
    return anya, boris, vera


async def enter_hand(bot, user, declarer: str):
    for label in [declarer, *HAND]:
        await press_group(bot, user, label)


def photos(fake):
    return [m for m in fake.messages(GROUP) if m.photo is not None]


def is_png_sheet(data: bytes) -> bool:
    image = Image.open(io.BytesIO(data))
    return image.format == "PNG" and image.width >= 600 and image.height >= 600


async def test_sheets_command_sets_the_mode_and_refuses_nonsense(bot, fake_telegram):
    fake = fake_telegram
    anya = fake.user(1, "Аня", language_code="ru")
    await bot.send(anya, GROUP, "/sheets")
    choice = fake.last_message(GROUP)
    assert "Сейчас: текстом" in choice.text
    assert [t for t, _ in fake.buttons(choice)] == ["Текстом", "Картинкой", "И так и так"]
    await bot.send(anya, GROUP, "/sheets <b>gif</b>")
    assert "Нет такого варианта «<b>gif</b>»" in fake.last_message(GROUP).text
    assert await bot.repo.get_chat_sheets(GROUP) is None  # nothing changed
    await bot.send(anya, GROUP, "/sheets picture")
    assert fake.last_message(GROUP).text == "Запись: картинкой."
    assert await bot.repo.get_chat_sheets(GROUP) == "picture"
    answer = await bot.press(anya, choice, "И так и так")
    assert answer.text == "Сохранено ✓" and await bot.repo.get_chat_sheets(GROUP) == "both"
    await bot.send(anya, GROUP, "/language ru")  # the language keeps the sheet mode
    assert await bot.repo.get_chat_sheets(GROUP) == "both" and await bot.repo.get_chat_lang(GROUP) == "ru"
    await bot.send(anya, anya, "/sheets both")  # a private chat has no group sheets
    assert "Эта команда работает в группе" in fake.last_message(anya.id).text


@pytest.mark.parametrize("bot", ["http"], indirect=True)
async def test_default_mode_posts_text_and_a_picture_at_the_end(bot, fake_telegram):
    fake = fake_telegram
    anya, boris, vera = await score_table(bot, fake, bula="пуля 10")
    for declarer in ("Аня", "Борис"):
        await enter_hand(bot, boris, declarer)
    assert photos(fake) == []  # text only while the pulka runs
    sheet = await bot.last_post(GROUP)
    assert "<pre>" in sheet.raw_text and "Юха на 1" in sheet.text
    await enter_hand(bot, boris, "Вера")
    row = await bot.table(GROUP)
    assert row.status == "between"
    (picture,) = photos(fake)
    assert bot.http.served["sendPhoto"] == 1  # the upload went over HTTP, as to Telegram
    # the picture just before the closing sheet, which stays last with the Rematch buttons
    last = fake.last_message(GROUP)
    # its caption names the post it belongs to, so two deals' pictures never read the same
    assert is_png_sheet(picture.photo) and picture.text == "📊 Запись картинкой — " + last.text.split("\n")[0].strip()
    assert fake.messages(GROUP)[-2] is picture and not fake.buttons(picture)
    assert "Пуля закрыта" in last.text and any(t == "🔁 Ещё партию" for t, _ in fake.buttons(last))


async def test_picture_mode_sends_the_picture_with_the_hand_as_caption(bot, fake_telegram):
    fake = fake_telegram
    anya = people(fake)[0]
    await bot.send(anya, GROUP, "/sheets picture")
    await score_table(bot, fake)
    before = len(fake.messages(GROUP))
    await enter_hand(bot, anya, "Вера")
    (picture,) = photos(fake)
    assert is_png_sheet(picture.photo)
    assert "Вера: 5 ♣ — без розыгрыша" in picture.text and "Юха на 1" not in picture.text  # no table in the caption
    assert not any("Юха на 1" in m.text for m in fake.messages(GROUP)[before:])
    assert len(fake.calls("sendPhoto", chat_id=GROUP)) == 1


async def test_both_mode_sends_text_and_picture_after_each_hand(bot, fake_telegram):
    fake = fake_telegram
    anya = people(fake)[0]
    await bot.send(anya, GROUP, "/sheets both")
    await score_table(bot, fake)
    await enter_hand(bot, anya, "Вера")
    await enter_hand(bot, anya, "Аня")
    assert len(photos(fake)) == 2
    assert len([m for m in fake.messages(GROUP) if "Юха на 1" in m.text]) == 2


async def test_the_text_goes_out_when_drawing_fails(bot, fake_telegram, monkeypatch, caplog):
    fake = fake_telegram
    anya = people(fake)[0]
    await bot.send(anya, GROUP, "/sheets picture")
    await score_table(bot, fake)

    def broken(spec):
        raise OSError("no font")

    monkeypatch.setattr(pictures, "draw", broken)
    with caplog.at_level(logging.WARNING, logger="bot.delivery"):
        await enter_hand(bot, anya, "Вера")
    assert photos(fake) == []
    sheet = await bot.last_post(GROUP)
    assert "Вера: 5 ♣ — без розыгрыша" in sheet.text and "Юха на 1" in sheet.text and "<pre>" in sheet.raw_text
    lines = [r for r in caplog.records if "sheet picture not drawn" in r.getMessage()]
    assert len(lines) == 1 and "OSError: no font" in lines[0].getMessage()


@pytest.mark.parametrize("mode,sends", [("text", 1), ("picture", 1), ("both", 2)])
async def test_bot_api_calls_per_hand(bot, fake_telegram, mode, sends):
    """What a written hand costs in the group (README "Score sheets as pictures"): the
    picture replaces the text post, "both" adds one upload; the table message edits do
    not depend on the mode."""
    fake = fake_telegram
    anya = people(fake)[0]
    await bot.send(anya, GROUP, f"/sheets {mode}")
    await score_table(bot, fake)
    before = fake.group_sends_and_edits(GROUP)
    await enter_hand(bot, anya, "Вера")
    calls = fake.group_sends_and_edits(GROUP)[len(before) :]
    new_messages = [c for c in calls if c.method in ("sendMessage", "sendPhoto")]
    # the sheet's posts, then the table's keyboard sent anew below them (its old message goes)
    assert len(new_messages) == sends + 1
    assert len(calls) - len(new_messages) == EDITS_PER_HAND - 1


async def test_the_score_keyboard_follows_each_sheet(bot, fake_telegram):
    """A score-only table's buttons sit under its group message: after a hand's sheet is
    posted, that message is sent anew below it, so the next entry needs no scrolling."""
    fake = fake_telegram
    anya = people(fake)[0]
    await score_table(bot, fake)
    for declarer in ("Вера", "Аня"):
        await enter_hand(bot, anya, declarer)
        table, sheet = fake.messages(GROUP)[-1], fake.messages(GROUP)[-2]
        assert table is await bot.table_message(GROUP) and fake.buttons(table)
        assert "Юха на 1" in sheet.text and not fake.buttons(sheet)
