"""No live button is left behind, and the live table stays at hand: after /cancel, the
bot's removal from the group or a finished game no message keeps buttons that can no
longer act; a deleted table message comes back at the next redraw; after a deal's score
sheet the table of the next deal is the newest bot message in the group."""

from __future__ import annotations

import pytest

from bot.game_registry import all_uis
from engine.base import get_game
from tests.e2e import open_table

all_uis()

GROUP = -1001


def people(fake, n):
    names = ["Аня", "Борис", "Вера", "Гоша"]
    return [fake.user(i + 1, names[i], language_code="ru") for i in range(n)]


async def durak_with_spectator(bot, fake, moves: int = 4):
    """A durak game between Аня and Борис a few moves in, Вера watching it in her DM."""
    anya, boris, vera = people(fake, 3)
    table = await open_table(bot, GROUP, anya, [boris])
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    await bot.send(vera, vera, "/start")
    answer = await bot.press(vera, await bot.table_message(GROUP), "👁 Смотреть")
    assert answer is not None and not answer.show_alert, answer
    presses = {"n": 0}

    async def enough() -> bool:
        presses["n"] += 1
        return presses["n"] > moves

    await bot.play(table.id, [anya, boris], until=enough)
    watched = [m for m in fake.messages(vera.id) if m.history[0].text.startswith("👁")]
    assert len(watched) == 1 and fake.buttons(watched[0]), fake.dump(vera.id)
    hands = [await bot.hand_message(table.id, user) for user in (anya, boris)]
    assert any(fake.buttons(hand) for hand in hands), "someone must act"
    return table, (anya, boris, vera), hands


def live_buttons(fake, chat_id: int) -> list[tuple[int, list]]:
    """Visible bot messages in the chat that still carry callback buttons."""
    out = []
    for message in fake.messages(chat_id):
        data = [b for b in fake.buttons(message) if b[1]]
        if data:
            out.append((message.message_id, data))
    return out


async def assert_nothing_live(bot, fake, table_id: int, users) -> None:
    for user in users:
        assert live_buttons(fake, user.id) == [], fake.dump(user.id)
    assert live_buttons(fake, GROUP) == [], fake.dump(GROUP)


async def test_cancel_mid_game_leaves_no_live_button(bot, fake_telegram):
    fake = fake_telegram
    table, (anya, boris, vera), hands = await durak_with_spectator(bot, fake)
    await bot.send(anya, GROUP, "/cancel")
    assert (await bot.repo.get_table(table.id)).status == "closed"
    await assert_nothing_live(bot, fake, table.id, [anya, boris, vera])
    for hand in hands:  # the hands say why they have no buttons
        assert "Стол закрыт." in fake.msgs[hand.chat.id][hand.message_id].text
    assert await bot.repo.get_spectators(table.id) == []


async def test_removed_from_the_group_leaves_no_live_button(bot, fake_telegram):
    fake = fake_telegram
    table, (anya, boris, vera), hands = await durak_with_spectator(bot, fake)
    await fake.remove_bot(bot.app, GROUP, by=anya)
    await bot.settle()
    assert (await bot.repo.get_table(table.id)).status == "closed"
    for user in (anya, boris, vera):  # the group is out of reach: only the DMs matter
        assert live_buttons(fake, user.id) == [], fake.dump(user.id)
    for user in (anya, boris):
        assert "бота убрали из группы" in fake.last_message(user.id).text
    # a hand button pressed before its redraw landed gets a toast, nothing else
    hand, drawn = next((h, v.reply_markup) for h in hands for v in h.history if v.reply_markup)
    data = drawn["inline_keyboard"][0][0]["callback_data"]
    user = anya if hand.chat.id == anya.id else boris
    answer = await bot.press_raw(user, hand.chat.id, hand.message_id, data)
    assert answer is not None and not answer.show_alert and answer.text


async def finish_durak(bot, fake, seed: int = 1):
    anya, boris = people(fake, 2)
    table = await open_table(bot, GROUP, anya, [boris])
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    await bot.play(table.id, [anya, boris], seed=seed)
    over = fake.last_message(GROUP)
    assert "🔁 Ещё партию" in [text for text, _ in fake.buttons(over)], fake.dump(GROUP)
    return table, (anya, boris), over


async def test_rematch_takes_the_old_rematch_buttons_away(bot, fake_telegram):
    fake = fake_telegram
    table, (anya, boris), over = await finish_durak(bot, fake)
    old_buttons = fake.buttons(over)
    await bot.press(boris, over, "🔁 Ещё партию")
    row = await bot.repo.get_table(table.id)
    assert row.status == "playing" and row.game_no == 2
    assert fake.buttons(fake.msgs[GROUP][over.message_id]) == [], fake.dump(GROUP)
    assert "rematch_post" not in row.settings
    # the one live thing in the group is the new game's table (its Watch button)
    assert [m for m, _ in live_buttons(fake, GROUP)] == [row.group_message_id]
    # the old Close, pressed as if the edit had not landed yet: a toast, the game goes on
    close = next(data for text, data in old_buttons if text == "Закрыть стол")
    answer = await bot.press_raw(anya, GROUP, over.message_id, close)
    assert answer is not None and not answer.show_alert and answer.text
    assert (await bot.repo.get_table(table.id)).status == "playing"
    await bot.play(table.id, [anya, boris], seed=2)
    second = fake.last_message(GROUP)
    assert "🔁 Ещё партию" in [text for text, _ in fake.buttons(second)]
    assert [m for m, _ in live_buttons(fake, GROUP)] == [second.message_id]


async def test_cancel_after_the_game_takes_the_rematch_buttons_away(bot, fake_telegram):
    fake = fake_telegram
    table, (anya, boris), over = await finish_durak(bot, fake)
    await bot.send(anya, GROUP, "/cancel")
    assert (await bot.repo.get_table(table.id)).status == "closed"
    await assert_nothing_live(bot, fake, table.id, [anya, boris])


async def test_close_button_takes_its_keyboard_away(bot, fake_telegram):
    fake = fake_telegram
    table, (anya, boris), over = await finish_durak(bot, fake)
    answer = await bot.press(anya, over, "Закрыть стол")
    assert answer is not None and not answer.show_alert
    await assert_nothing_live(bot, fake, table.id, [anya, boris])


@pytest.mark.parametrize("refusal", ["message to edit not found", "MESSAGE_ID_INVALID"])
async def test_a_deleted_table_message_comes_back_at_the_next_move(bot, fake_telegram, refusal):
    """Telegram refuses the edit of a deleted message in one of two ways; either way the
    table is sent anew at once, not left dead until the next game."""
    fake = fake_telegram
    (anya,) = people(fake, 1)
    table = await open_table(bot, GROUP, anya, [], computers=3, command="/king")
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    count = {"n": 0}

    async def presses(n: int):
        count["n"] = 0

        async def done() -> bool:
            count["n"] += 1
            return count["n"] > n

        await bot.play(table.id, [anya], until=done)

    await presses(3)
    deleted = await bot.table_message(GROUP)
    fake.delete_by_user(GROUP, deleted.message_id)
    if refusal != "message to edit not found":  # the emulator's own answer otherwise
        fake.fail_next("editMessageText", f"Bad Request: {refusal}", chat_id=GROUP)
    await presses(1)  # with three computers, every press of Аня ends a trick
    row = await bot.repo.get_table(table.id)
    assert row.group_message_id != deleted.message_id
    assert not fake.msgs[GROUP][row.group_message_id].deleted


def deal_number(game: str, view: dict) -> int:
    for key in ("deal_no", "hand_no", "board"):
        if key in view:
            return view[key]
    raise AssertionError(f"no deal number in the {game} view")


GAMES = [("king", "/king", 3), ("preferans_ru", "/sochi", 2), ("bridge", "/bridge", 3), ("whist", "/whist", 3)]


@pytest.mark.parametrize("sheets", ["text", "picture"])
@pytest.mark.parametrize("game,command,computers", GAMES)
async def test_the_next_deal_is_shown_below_the_sheet(bot, fake_telegram, game, command, computers, sheets):
    fake = fake_telegram
    (anya,) = people(fake, 1)
    await bot.send(anya, GROUP, f"/sheets {sheets}")
    table = await open_table(bot, GROUP, anya, [], computers=computers, command=command)
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    first = (await bot.repo.get_table(table.id)).group_message_id
    _, state = await bot.state(table.id)
    start = deal_number(game, get_game(game).view(state, None))

    async def next_deal() -> bool:
        _, state = await bot.state(table.id)
        return deal_number(game, get_game(game).view(state, None)) > start

    await bot.play(table.id, [anya], until=next_deal)
    row = await bot.repo.get_table(table.id)
    assert row.status == "playing"
    visible = fake.messages(GROUP)
    assert visible[-1].message_id == row.group_message_id != first, fake.dump(GROUP)
    sheet = visible[-2]  # directly above: the finished deal's sheet
    assert (sheet.photo is not None) == (sheets == "picture" and game != "whist"), fake.dump(GROUP)  # text only
    assert fake.msgs[GROUP][first].deleted
    assert fake.buttons(visible[-1]) == [("👁 Смотреть", f"w:{table.id}:1:on")]


async def test_an_old_table_that_cannot_be_deleted_is_reduced_to_one_line(bot, fake_telegram):
    fake = fake_telegram
    (anya,) = people(fake, 1)
    table = await open_table(bot, GROUP, anya, [], computers=3, command="/king")
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    first = (await bot.repo.get_table(table.id)).group_message_id
    fake.fail_next("deleteMessage", "Bad Request: message can't be deleted for everyone", chat_id=GROUP)

    async def next_deal() -> bool:
        _, state = await bot.state(table.id)
        return get_game("king").view(state, None)["deal_no"] > 1

    await bot.play(table.id, [anya], until=next_deal)
    old = fake.msgs[GROUP][first]
    assert not old.deleted and old.text == "⬇️ Стол перенесён ниже, под итоги сдачи." and fake.buttons(old) == []
    row = await bot.repo.get_table(table.id)
    assert fake.messages(GROUP)[-1].message_id == row.group_message_id != first


async def test_a_flood_wait_on_the_old_table_sends_the_new_one_once(bot, fake_telegram, caplog):
    fake = fake_telegram
    (anya,) = people(fake, 1)
    table = await open_table(bot, GROUP, anya, [], computers=3, command="/king")
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    first = fake.msgs[GROUP][(await bot.repo.get_table(table.id)).group_message_id]
    fake.fail_next("deleteMessage", retry_after=5, chat_id=GROUP)

    async def next_deal() -> bool:
        _, state = await bot.state(table.id)
        return get_game("king").view(state, None)["deal_no"] > 1

    await bot.play(table.id, [anya], until=next_deal)
    row = await bot.repo.get_table(table.id)
    heading = first.history[0].text.split("\n", 1)[0]
    sent = [m for m in fake.msgs[GROUP].values() if m.from_bot and m.history[0].text.startswith(heading)]
    assert [m.message_id for m in sent] == [first.message_id, row.group_message_id], fake.dump(GROUP)
    assert not first.deleted  # the old table stays (its Watch button still works)
    assert fake.messages(GROUP)[-1].message_id == row.group_message_id
    assert sum("old message" in r.getMessage() for r in caplog.records) == 1
