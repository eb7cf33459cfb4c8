"""The real bot against hostile people, through the fake Bot API: names and titles made of
HTML, forged callback data, updates the bot must not act on, and the bot being removed
from a group mid-game. Each case ends with no failed Telegram call and no traceback."""

from __future__ import annotations

import logging

import pytest

from tests.e2e import open_table

GROUP = -1001
TITLE = '</pre><a href="https://evil.example">Кухня</a> & <b>co'
LONG = "Ж" * 64
UNKNOWN = "Неизвестная кнопка."


@pytest.fixture
async def bot(fake_telegram, start_bot):
    fake_telegram.group(GROUP, TITLE, admins=[1], supergroup=True)
    return await start_bot()


def failed_sends(fake) -> list:
    return [c for c in fake.log if not c.ok and c.method in ("sendMessage", "editMessageText")]


async def everything(bot, table_id):
    table = await bot.repo.get_table(table_id)
    seats = sorted((s.seat, s.user_id) for s in await bot.repo.get_seats(table_id))
    return table.status, table.version, table.options, table.settings, seats, await bot.actions(table_id)


async def test_a_hostile_group_title_reaches_every_ping_as_plain_text(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = fake.user(1, "<b>Аня</b> &amp;"), fake.user(2, "Борис</pre>")
    await open_table(bot, GROUP, anya, [boris])
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    pings = [m for user in (anya, boris) for m in fake.messages(user.id) if "Ваш ход" in m.text]
    assert pings, "nobody got a 'your turn' ping"
    for ping in pings:
        assert "</pre><a href=" in ping.text and "<a " not in ping.raw_text, ping.raw_text
    lobby_and_table = fake.sent_texts_to(GROUP)
    assert any("<b>Аня</b> &amp;" in text for text in lobby_and_table)
    assert not failed_sends(fake)


async def test_three_longest_names_keep_the_preferans_table_updating(bot, fake_telegram):
    fake = fake_telegram
    users = [fake.user(i, LONG[:-1] + str(i)) for i in (1, 2, 3)]
    for user in users:
        user.last_name = "W" * 64  # full_name: 64 + 1 + 64 characters
    table = await open_table(bot, GROUP, users[0], users[1:], command="/preferans balkan")
    await bot.press(users[0], await bot.table_message(GROUP), lambda text: "Начать" in text)
    presses = 0

    async def enough() -> bool:
        return presses >= 12

    def count(user, buttons, rng):  # the lowest bid mostly: a long auction
        nonlocal presses
        presses += 1
        return buttons[0][1] if rng.random() < 0.8 else rng.choice(buttons)[1]

    await bot.play(table.id, users, choose=count, until=enough)
    assert not failed_sends(fake), failed_sends(fake)[:1]
    group = await bot.table_message(GROUP)
    assert len(group.history) > 1 and "…" in group.text


async def test_forged_callback_data_is_an_unknown_button(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    carol = fake.user(3, "Вера")
    await bot.send(carol, carol, "/start")
    table = await open_table(bot, GROUP, anya, [boris])
    lobby = await bot.table_message(GROUP)
    v = table.version
    before = await everything(bot, table.id)
    for data in (
        f"l:{table.id}:{v}:join:١",
        f"l:１:{v}:join",
        f"l:{table.id}:٠:leave",
        f"l:{'9' * 20}:{v}:join",
        f"l:{table.id}:{'9' * 20}:join",
        "l:",
        "l::",
        "a:²:²:²",
        "zzz",
        "",
        # every family's prefix without a valid rest, and near misses of the prefixes
        "g:",
        "pf:",
        "lang:xx",
        "sh:",
        "w:",
        f"w:{table.id}:1:maybe",
        "u:",
        "r:",
        "l",
        ":",
        "langx:ru",
        f"L:{table.id}:{v}:join",
    ):
        answer = await bot.press_raw(carol, GROUP, lobby.message_id, data)
        assert answer is not None and answer.text == UNKNOWN, (data, answer)
    assert await everything(bot, table.id) == before
    await bot.press(anya, lobby, "Начать")
    table = await bot.repo.get_table(table.id)
    hand = await bot.hand_message(table.id, anya)
    for index in ("١", "²", "１", "9" * 20):
        answer = await bot.press_raw(anya, anya.id, hand.message_id, f"a:{table.id}:{table.version}:{index}")
        assert answer.text == UNKNOWN, (index, answer)
    assert await bot.actions(table.id) == (await everything(bot, table.id))[5]
    assert fake.handler_errors == []


async def test_a_press_without_a_message_is_an_unknown_button(bot, fake_telegram):
    fake = fake_telegram
    anya = fake.user(1, "Аня")
    fake.queries["q1"] = anya.id
    await fake.feed(
        bot.app,
        fake._next_update(
            callback_query={
                "id": "q1",
                "from": anya.to_api(),
                "chat_instance": "ci",
                "inline_message_id": "im1",
                "data": "l:1:1:join",
            }
        ),
    )
    assert fake.answers["q1"].text == UNKNOWN


async def test_messages_without_a_sender_and_edited_commands_are_ignored(bot, fake_telegram):
    fake = fake_telegram
    anya = fake.user(1, "Аня")
    chat = fake.chats[GROUP].to_api()
    # a channel posting into its linked group: no "from"
    await fake.feed(
        bot.app,
        fake._next_update(
            message={
                "message_id": 500,
                "date": 0,
                "chat": chat,
                "sender_chat": {"id": -100777, "type": "channel", "title": "C"},
                "text": "/durak",
                "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
            }
        ),
    )
    # a message edited into a command
    await fake.feed(
        bot.app,
        fake._next_update(
            edited_message={
                "message_id": 501,
                "date": 0,
                "edit_date": 1,
                "chat": chat,
                "from": anya.to_api(),
                "text": "/durak",
                "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
            }
        ),
    )
    await bot.settle()
    assert await bot.repo.find_open_table(GROUP, 0) is None
    assert fake.messages(GROUP) == []


async def test_removed_from_the_group_mid_game_the_table_closes_and_players_hear(bot, fake_telegram, caplog):
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    table = await open_table(bot, GROUP, anya, [boris])
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    fake.kick_bot(GROUP)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        # moves go on in the DMs until the group's table message needs a redraw
        await bot.play(table.id, [anya, boris])
        await bot.settle()  # the notices were written while the sender drained
    assert (await bot.repo.get_table(table.id)).status == "closed"
    for user in (anya, boris):
        assert "бота убрали из группы" in fake.last_message(user.id).text
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert any("closing its tables" in r.getMessage() for r in caplog.records)
    for message in fake.messages(anya.id):  # a hand button pressed after that: refused
        if fake.buttons(message):
            answer = await bot.press(anya, message, data=fake.buttons(message)[0][1])
            assert answer is not None and not answer.show_alert
    assert [c for c in fake.log if not c.ok and c.chat_id == GROUP].__len__() == 1


async def test_the_removal_update_closes_the_lobby_too(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    table = await open_table(bot, GROUP, anya, [boris])
    await fake.remove_bot(bot.app, GROUP, by=anya)
    await bot.settle()
    assert (await bot.repo.get_table(table.id)).status == "closed"
    assert "бота убрали из группы" in fake.last_message(boris.id).text
