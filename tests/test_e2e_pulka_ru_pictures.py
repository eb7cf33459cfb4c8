"""The Russian пулька as a picture through the real Application and the fake Bot API: a
group in ``/sheets picture`` gets the picture after every hand of ``/score sochi`` and of a
played ``/sochi`` (captioned with the post's lines, never a card), and the text sheet when
the picture cannot be drawn."""

from __future__ import annotations

import io
import logging
import random

import pytest
from PIL import Image

from bot.render import pictures
from engine.games.preferans_ru import ai
from tests.e2e import CARD_LABEL, open_table
from tests.test_e2e_preferans_ru import press_as, small_pool

GROUP = -1001
HAND = ["Вера", "6 ♠", "Пас", "Пас", "✅ Записать"]  # Вера's 6 ♠, both defenders pass


def people(fake, n: int) -> list:
    names = ["Аня", "Борис", "Вера", "Гриша"]
    return [fake.user(i + 1, names[i], language_code="ru") for i in range(n)]


def photos(fake) -> list:
    return [m for m in fake.messages(GROUP) if m.photo is not None]


def is_pulka_png(data: bytes) -> bool:
    image = Image.open(io.BytesIO(data))
    return image.format == "PNG" and image.width >= 900 and image.height >= 900


async def press(bot, user, label: str) -> None:
    answer = await bot.press(user, await bot.table_message(GROUP), lambda text: text == label)
    assert answer is None or not answer.show_alert, answer
    bot.clock.advance(3.0)


async def score_sheet(bot, fake, command: str = "/score sochi") -> list:
    users = people(fake, 3)
    await bot.send(users[0], GROUP, "/sheets picture")
    await open_table(bot, GROUP, users[0], users[1:], command=command)
    await bot.press(users[0], await bot.table_message(GROUP), "▶️ Начать")
    return users


@pytest.mark.parametrize("bot", ["http"], indirect=True)
async def test_score_sochi_posts_the_pulka_as_a_picture(bot, fake_telegram) -> None:
    fake = fake_telegram
    anya, *_ = await score_sheet(bot, fake)
    before = len(fake.messages(GROUP))
    for label in HAND:
        await press(bot, anya, label)
    (picture,) = photos(fake)
    assert is_pulka_png(picture.photo)
    assert bot.http.served["sendPhoto"] >= 1  # the upload went over HTTP, as to Telegram
    assert "Пулька ·" not in picture.text and "<pre>" not in picture.raw_text  # the picture is the sheet
    table_message = (await bot.table(GROUP)).group_message_id  # its keyboard, sent anew below
    posts = [m for m in fake.messages(GROUP)[before:] if m.message_id != table_message]
    assert not any("Пулька ·" in m.text for m in posts if m.photo is None)


async def test_score_rostov_text_goes_out_when_drawing_fails(bot, fake_telegram, monkeypatch, caplog) -> None:
    fake = fake_telegram
    anya, *_ = await score_sheet(bot, fake, "/score rostov")

    def broken(spec: dict) -> bytes:
        raise OSError("no font")

    monkeypatch.setattr(pictures, "draw", broken)
    with caplog.at_level(logging.WARNING, logger="bot.delivery"):
        for label in HAND:
            await press(bot, anya, label)
    assert photos(fake) == []
    sheet = await bot.last_post(GROUP)
    assert "Пулька · Ростов" in sheet.text and "<pre>" in sheet.raw_text
    assert any("sheet picture not drawn" in r.getMessage() for r in caplog.records)


async def test_played_sochi_posts_a_picture_per_deal_without_cards(bot, fake_telegram) -> None:
    fake = fake_telegram
    anya, boris = people(fake, 2)
    await bot.send(anya, GROUP, "/sheets picture")
    table = await open_table(bot, GROUP, anya, [boris], computers=1, command="/sochi")
    await small_pool(bot, table.id, 2)
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")

    def easy(view: dict, legal: list[str], rng: random.Random) -> str:
        return ai.computer_action(view, legal, rng, level="easy")

    await press_as(bot, table.id, [anya, boris], easy)
    row, state = await bot.state(table.id)
    assert row.status == "between"
    shots = photos(fake)
    assert len(shots) == state.hand_no and all(is_pulka_png(m.photo) for m in shots)
    for shot in shots:  # the caption is the post's lines: no card, no text sheet
        assert not CARD_LABEL.findall(shot.text) and "<pre>" not in shot.raw_text
    assert "Итог" in fake.last_message(GROUP).text or "Итог" in shots[-1].text
