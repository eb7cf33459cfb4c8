"""A table's buttons act only from the table's own chat (and forum topic).

Official clients cannot forge callback data, but other clients can, and messages can be
forwarded: a press that names a table is refused, and changes nothing, unless it comes
from under a message in that table's chat — or, for a hand button, from the presser's
own DM. Admin rights are always asked about the table's chat.
"""

from __future__ import annotations

import pytest

from engine.base import get_game
from tests.e2e import open_table

TABLE_CHAT, OTHER_CHAT, FORUM = -1001, -1002, -1003
REFUSED = "другом чате"


@pytest.fixture
async def bot(fake_telegram, start_bot):
    fake_telegram.group(TABLE_CHAT, "Кухня", admins=[1], supergroup=True)
    # the stranger (id 9) is an administrator of a group of their own
    fake_telegram.group(OTHER_CHAT, "Дача", admins=[9], supergroup=True)
    fake_telegram.group(FORUM, "Клуб", admins=[1], forum=True)
    return await start_bot()


async def everything(bot, table_id):
    """What a press may change: the table row, its seats and its log."""
    table = await bot.repo.get_table(table_id)
    seats = sorted((s.seat, s.user_id) for s in await bot.repo.get_seats(table_id))
    return (table.status, table.version, table.options, table.settings, seats, await bot.actions(table_id))


async def test_lobby_buttons_refused_from_another_group_or_a_dm(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    stranger = fake.user(9, "Чужой")
    await bot.send(stranger, stranger, "/start")
    table = await open_table(bot, TABLE_CHAT, anya, [boris])
    # a message of the stranger's own group to press forged buttons under
    elsewhere = await fake.send(bot.app, stranger, OTHER_CHAT, "привет @CardTestBot")
    dm = await fake.send(bot.app, stranger, stranger, "привет")
    before = await everything(bot, table.id)
    for command in ("join", "o:deck", "timer", "cpu+", "start", "cancel"):
        for chat, message in ((OTHER_CHAT, elsewhere), (stranger.id, dm)):
            data = f"l:{table.id}:{table.version}:{command}"
            answer = await bot.press_raw(stranger, chat, message.message_id, data)
            assert answer is not None and REFUSED in answer.text, (command, chat, answer)
            assert await everything(bot, table.id) == before, (command, chat)
    # the table's own players are refused too when they press from elsewhere
    answer = await bot.press_raw(
        anya, anya.id, (await fake.send(bot.app, anya, anya, "x")).message_id, f"l:{table.id}:{table.version}:start"
    )
    assert REFUSED in answer.text
    # in the table's own chat the stranger is just not the host, and being an admin of
    # another group gives no rights here
    lobby = await bot.table_message(TABLE_CHAT)
    answer = await bot.press_raw(stranger, TABLE_CHAT, lobby.message_id, f"l:{table.id}:{table.version}:o:deck")
    assert "Только" in answer.text or "только" in answer.text, answer
    assert await everything(bot, table.id) == before
    # and the real button still works where it belongs
    await bot.press(anya, lobby, "Начать")
    assert (await bot.repo.get_table(table.id)).status == "playing"


async def test_lobby_in_a_forum_topic_is_bound_to_that_topic(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    for user in (anya, boris):
        await bot.send(user, user, "/start")
    await bot.send(anya, FORUM, "/durak", thread_id=11)
    table = await bot.table(FORUM, 11)
    other_topic = await fake.send(bot.app, boris, FORUM, "/help", thread_id=22)
    before = await everything(bot, table.id)
    answer = await bot.press_raw(boris, FORUM, other_topic.message_id, f"l:{table.id}:{table.version}:join")
    assert REFUSED in answer.text
    assert await everything(bot, table.id) == before
    await bot.press(boris, await bot.table_message(FORUM, 11), "Сесть за стол")
    assert len(await bot.repo.get_seats(table.id)) == 2


async def test_hand_and_after_game_buttons_refused_outside_their_place(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    stranger = fake.user(9, "Чужой")
    table = await open_table(bot, TABLE_CHAT, anya, [boris])
    await bot.press(anya, await bot.table_message(TABLE_CHAT), "Начать")
    table = await bot.repo.get_table(table.id)
    elsewhere = await fake.send(bot.app, stranger, OTHER_CHAT, "привет @CardTestBot")
    group_message = await bot.table_message(TABLE_CHAT)
    before = await everything(bot, table.id)
    # a hand button (a player's move) pressed by that player in a group, the table's or another
    for chat, message_id in ((TABLE_CHAT, group_message.message_id), (OTHER_CHAT, elsewhere.message_id)):
        for user in (anya, boris):
            answer = await bot.press_raw(user, chat, message_id, f"a:{table.id}:{table.version}:0")
            assert REFUSED in answer.text, (chat, user, answer)
            answer = await bot.press_raw(user, chat, message_id, f"u:{table.id}:{table.version}:blind")
            assert REFUSED in answer.text, (chat, user, answer)
    assert await everything(bot, table.id) == before

    # play the game out, then the after-game buttons: Close from elsewhere is refused
    await bot.play(table.id, [anya, boris])
    table = await bot.repo.get_table(table.id)
    assert table.status == "between"
    before = await everything(bot, table.id)
    for command in ("close", "rematch"):
        answer = await bot.press_raw(
            stranger, OTHER_CHAT, elsewhere.message_id, f"r:{table.id}:{table.version}:{command}"
        )
        assert REFUSED in answer.text, (command, answer)
        answer = await bot.press_raw(
            anya,
            anya.id,
            (await bot.hand_message(table.id, anya)).message_id,
            f"r:{table.id}:{table.version}:{command}",
        )
        assert REFUSED in answer.text, (command, answer)
    assert await everything(bot, table.id) == before
    assert get_game("durak").is_over((await bot.state(table.id))[1])


async def test_score_sheet_buttons_act_only_under_the_table_group(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    await bot.send(anya, TABLE_CHAT, "/score bridge")
    await bot.press(boris, await bot.table_message(TABLE_CHAT), "Сесть за стол")
    await bot.press(anya, await bot.table_message(TABLE_CHAT), "▶️ Начать")
    table = await bot.table(TABLE_CHAT)
    elsewhere = await fake.send(bot.app, boris, OTHER_CHAT, "привет @CardTestBot")
    dm = await fake.send(bot.app, boris, boris, "привет")
    before = await everything(bot, table.id)
    for chat, message_id in ((OTHER_CHAT, elsewhere.message_id), (boris.id, dm.message_id)):
        answer = await bot.press_raw(boris, chat, message_id, f"a:{table.id}:{table.version}:0")
        assert REFUSED in answer.text, (chat, answer)
    assert await everything(bot, table.id) == before
    await bot.press(boris, await bot.table_message(TABLE_CHAT), "N")
    assert len(await bot.actions(table.id)) == len(before[-1]) + 1
