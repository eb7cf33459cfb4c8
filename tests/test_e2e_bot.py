"""The bot around the games: bad input, restarts, timers, computers, DMs, languages,
forum topics, group migration and the leak check itself."""

from __future__ import annotations

import pytest

from engine.base import get_game
from storage.models import OutboxItem
from tests.e2e import open_table

GROUP, GROUP2 = -1001, -1002


@pytest.fixture
async def bot(fake_telegram, start_bot):
    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    fake_telegram.group(GROUP2, "Дача", admins=[2], supergroup=True)
    return await start_bot()


def people(fake, n, lang="ru"):
    names = ["Аня", "Борис", "Вера", "Гоша"]
    return [fake.user(i + 1, names[i], language_code=lang) for i in range(n)]


async def started_game(bot, users, chat=GROUP, computers=0):
    table = await open_table(bot, chat, users[0], users[1:], computers=computers)
    await bot.press(users[0], await bot.table_message(chat), "Начать")
    return await bot.repo.get_table(table.id)


async def snapshot_of_everything(bot, table_id):
    table = await bot.repo.get_table(table_id)
    state = await bot.service.core.state_of(table)
    return table.version, await bot.actions(table_id), get_game("durak").dump(state)


async def actor(bot, table_id, users):
    table, state = await bot.state(table_id)
    seat = get_game("durak").to_act(state)[0]
    seats = sorted(await bot.repo.get_seats(table_id), key=lambda s: s.seat)
    return next(u for u in users if u.id == seats[seat].user_id)


async def test_bad_input_gets_a_toast_and_changes_nothing(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = users = people(fake, 2)
    table = await started_game(bot, users)
    mover = await actor(bot, table.id, users)
    waiter = boris if mover is anya else anya
    hand = await bot.hand_message(table.id, mover)
    stale_data = fake.buttons(hand)[0][1]
    other_hand = await bot.hand_message(table.id, waiter)

    before = await snapshot_of_everything(bot, table.id)
    cases = [
        (waiter, waiter.id, other_hand.message_id, f"a:{table.id}:{table.version}:0", "не ваш ход"),
        (waiter, waiter.id, other_hand.message_id, f"a:{table.id}:{table.version}:-1", "Неизвестная"),
        (mover, mover.id, hand.message_id, f"a:{table.id}:{table.version}:999", "Неизвестная"),
        (mover, mover.id, hand.message_id, "a:garbage", "Неизвестная"),
        (mover, mover.id, hand.message_id, "zzz:1:2:3", "Неизвестная"),
        (mover, mover.id, hand.message_id, "a:99999:1:0", "нет"),
        (mover, mover.id, hand.message_id, f"l:{table.id}:{table.version}:explode", "другом чате"),
        (mover, mover.id, hand.message_id, f"a:{table.id}:{table.version - 1}:0", "устарела"),
    ]
    group_message = await bot.table_message(GROUP)
    cases.append((mover, GROUP, group_message.message_id, f"a:{table.id}:{table.version}:0", "другом чате"))
    for user, chat, message_id, data, expected in cases:
        answer = await bot.press_raw(user, chat, message_id, data)
        assert answer is not None and expected in answer.text, (data, answer)
        assert await snapshot_of_everything(bot, table.id) == before, data

    # a real move, then the old button of that message is stale
    await bot.press_raw(mover, mover.id, hand.message_id, stale_data)
    after_move = await snapshot_of_everything(bot, table.id)
    assert after_move[0] == before[0] + 1
    answer = await bot.press_raw(mover, mover.id, hand.message_id, stale_data)
    assert "устарела" in answer.text
    assert await snapshot_of_everything(bot, table.id) == after_move


async def test_press_from_another_tables_dm_is_refused(bot, fake_telegram):
    anya, boris, vera = people(fake_telegram, 3)
    first = await started_game(bot, [anya, boris])
    second = await started_game(bot, [boris, anya], chat=GROUP2)
    first_hand = await bot.hand_message(first.id, anya)
    second_table = await bot.repo.get_table(second.id)
    before = await snapshot_of_everything(bot, second.id)
    answer = await bot.press_raw(anya, anya.id, first_hand.message_id, f"a:{second.id}:{second_table.version}:0")
    assert "старое сообщение" in answer.text
    assert await snapshot_of_everything(bot, second.id) == before
    # Vera sits nowhere: any action button is refused
    await bot.send(vera, vera, "/start")
    dm = fake_telegram.last_message(vera.id)
    answer = await bot.press_raw(vera, vera.id, dm.message_id, f"a:{first.id}:{first.version}:0")
    assert "не сидите" in answer.text


async def test_lobby_permissions_and_double_join(bot, fake_telegram):
    anya, boris = people(fake_telegram, 2)
    await open_table(bot, GROUP, anya, [boris])
    lobby = await bot.table_message(GROUP)
    answer = await bot.press(boris, lobby, "Начать")
    assert "открывший стол" in answer.text
    answer = await bot.press(boris, await bot.table_message(GROUP), "Сесть за стол")
    assert "уже за столом" in answer.text
    answer = await bot.press(boris, await bot.table_message(GROUP), "переводной" if False else "подкидной")
    assert "открывший стол" in answer.text
    # a second /durak in the same chat does not open another table
    await bot.tick(6)  # the same command within 5 s is not answered again (tests/test_command_flood.py)
    await bot.send(anya, GROUP, "/durak")
    assert "уже есть стол" in fake_telegram.last_message(GROUP).text


async def test_player_without_dm_gets_a_deep_link(bot, fake_telegram):
    anya, boris = people(fake_telegram, 2)
    await bot.send(anya, anya, "/start")
    await bot.send(anya, GROUP, "/durak")
    await bot.press(boris, await bot.table_message(GROUP), "Сесть за стол")
    lobby = await bot.table_message(GROUP)
    assert "Откройте личный чат" in lobby.text and "Борис" in lobby.text
    link = [b for row in lobby.keyboard for b in row if b.get("url")]
    table = await bot.table(GROUP)
    assert link and link[0]["url"] == f"https://t.me/CardTestBot?start=t{table.id}"
    answer = await bot.press(anya, lobby, "Начать")
    assert answer.show_alert and "Борис" in answer.text
    assert (await bot.repo.get_table(table.id)).status == "lobby"
    await bot.send(boris, boris, f"/start t{table.id}")
    lobby = await bot.table_message(GROUP)
    assert "Откройте личный чат" not in lobby.text
    await bot.press(anya, lobby, "Начать")
    assert (await bot.repo.get_table(table.id)).status == "playing"


async def test_restart_mid_game_resumes_exactly(bot, fake_telegram):
    users = people(fake_telegram, 3)
    table = await started_game(bot, users)
    presses = 0

    async def after_some_moves():
        nonlocal presses
        presses += 1
        return presses > 8

    await bot.play(table.id, users, until=after_some_moves)
    before = await snapshot_of_everything(bot, table.id)
    hands_before = {u.id: (await bot.hand_message(table.id, u)).message_id for u in users}

    # a move is accepted, then the process dies before anything is sent
    mover = await actor(bot, table.id, users)
    hand = await bot.hand_message(table.id, mover)
    shown_before = hand.text
    await fake_telegram.press(bot.app, mover, hand, callback_data=fake_telegram.buttons(hand)[0][1])
    assert hand.text == shown_before  # nothing was sent yet
    await bot.restart()

    version, actions, _ = await snapshot_of_everything(bot, table.id)
    assert version == before[0] + 1 and actions[:-1] == before[1]
    # the outbox survived the restart: the hand message now shows the new state, in place
    assert (await bot.hand_message(table.id, mover)).message_id == hands_before[mover.id]
    assert hand.text != shown_before
    # a state rebuilt from the log equals the cached one and the game plays on to the end
    bot.service.core.states.cache.clear()
    await bot.play(table.id, users)
    assert (await bot.repo.get_table(table.id)).status == "between"


async def test_log_replay_reproduces_the_snapshot(bot, fake_telegram):
    users = people(fake_telegram, 2)
    table = await started_game(bot, users, computers=1)
    await bot.play(table.id, users)
    game = get_game("durak")
    row = await bot.repo.get_table(table.id)
    seq, snapshot = await bot.repo.latest_snapshot(table.id)
    state = None
    for action in await bot.repo.load_actions(table.id):
        if action.action.startswith("deal"):
            state = game.initial_state(game.Options(**row.options), 3)
        state, _ = game.apply(state, action.seat, action.action)
    assert seq == row.version
    assert game.dump(state) == snapshot


async def test_computer_fillers_play_a_whole_game(bot, fake_telegram):
    (anya,) = people(fake_telegram, 1)
    table = await started_game(bot, [anya], computers=2)
    seats = await bot.repo.get_seats(table.id)
    assert sum(s.is_computer for s in seats) == 2
    await bot.play(table.id, [anya])
    sheet = fake_telegram.last_message(GROUP)
    assert "Игра №1 окончена" in sheet.text and "🤖 Маша" in sheet.text and "🤖 Петя" in sheet.text


async def test_turn_timer_reminds_then_idle_player_loses_even_across_restart(bot, fake_telegram):
    anya, boris = users = people(fake_telegram, 2)
    await open_table(bot, GROUP, anya, [boris])
    await bot.press(anya, await bot.table_message(GROUP), "без таймера")  # -> 1 min
    lobby = await bot.table_message(GROUP)
    assert "1 минута на ход" in lobby.text
    await bot.press(anya, lobby, "Начать")
    table = await bot.table(GROUP)
    idle = await actor(bot, table.id, users)
    await bot.tick(30)
    assert not any("Напоминание" in m.text for m in fake_telegram.messages(idle.id))
    await bot.tick(16)  # 46 s: past 75 % of the minute
    assert any("Напоминание" in m.text for m in fake_telegram.messages(idle.id))
    await bot.restart()  # deadlines live in the database
    await bot.tick(20)
    row, state = await bot.state(table.id)
    assert row.status == "between"
    result = get_game("durak").result(state)
    seats = sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)
    assert seats[result["durak"]].user_id == idle.id and result.get("forfeit")
    assert "время хода вышло" in fake_telegram.last_message(GROUP).text
    await bot.tick(120)  # fires once only
    assert (await bot.repo.get_table(table.id)).version == row.version


async def test_turn_timer_can_let_a_computer_move_instead(bot, fake_telegram):
    anya, boris = people(fake_telegram, 2)
    await open_table(bot, GROUP, anya, [boris])
    await bot.press(anya, await bot.table_message(GROUP), "без таймера")
    await bot.press(anya, await bot.table_message(GROUP), "просрочил — проиграл")
    lobby = await bot.table_message(GROUP)
    assert "просрочил — ходит бот" in lobby.text
    await bot.press(anya, lobby, "Начать")
    table = await bot.table(GROUP)
    version = table.version
    await bot.tick(61)
    row = await bot.repo.get_table(table.id)
    assert row.status == "playing" and row.version == version + 1


async def test_language_switch_and_english_table(bot, fake_telegram):
    anya, boris = people(fake_telegram, 2, lang="en")
    await open_table(bot, GROUP, anya, [boris])  # the opener's language: English
    lobby = await bot.table_message(GROUP)
    assert "Taking seats" in lobby.text
    await bot.send(anya, GROUP, "/language ru")
    lobby = await bot.table_message(GROUP)
    assert "Сбор игроков" in lobby.text
    await bot.send(anya, GROUP, "/language en")
    await bot.press(anya, await bot.table_message(GROUP), "Start")
    table = await bot.table(GROUP)
    assert "Your cards" in (await bot.hand_message(table.id, anya)).text


async def test_forum_topics_hold_separate_tables(bot, fake_telegram):
    forum = -1003
    fake_telegram.group(forum, "Клуб", admins=[1], forum=True)
    anya, boris = people(fake_telegram, 2)
    for user in (anya, boris):
        await bot.send(user, user, "/start")
    await bot.send(anya, forum, "/durak", thread_id=11)
    await bot.send(boris, forum, "/durak", thread_id=22)
    first, second = await bot.table(forum, 11), await bot.table(forum, 22)
    assert first.id != second.id
    assert (await bot.table_message(forum, 11)).thread_id == 11
    assert (await bot.table_message(forum, 22)).thread_id == 22


async def test_group_upgrade_to_supergroup_keeps_the_table(bot, fake_telegram):
    old, new = -500, -100500
    fake_telegram.group(old, "Старая", admins=[1])
    anya, boris = people(fake_telegram, 2)
    await open_table(bot, old, anya, [boris])
    table = await bot.table(old)
    await fake_telegram.migrate_group(bot.app, old, new)
    await bot.settle()
    assert (await bot.repo.get_table(table.id)).chat_id == new
    await bot.send(anya, new, "/language en")  # any change redraws the table in the new chat
    moved = await bot.table(new)
    assert moved.id == table.id
    assert "Taking seats" in fake_telegram.msgs[new][moved.group_message_id].text


async def test_cancel_by_host(bot, fake_telegram):
    anya, boris = people(fake_telegram, 2)
    await started_game(bot, [anya, boris])
    await bot.send(boris, GROUP, "/cancel")
    assert "открывший стол" in fake_telegram.last_message(GROUP).text
    await bot.send(anya, GROUP, "/cancel")
    assert await bot.repo.find_open_table(GROUP, 0) is None
    await bot.send(anya, GROUP, "/durak")  # the chat is free again
    assert await bot.repo.find_open_table(GROUP, 0) is not None


async def test_leak_check_catches_a_leak(bot, fake_telegram, monkeypatch):
    """The leak check must be able to fail: render another player's hand into the group."""
    users = people(fake_telegram, 2)
    table = await started_game(bot, users)
    game = get_game("durak")
    from bot.game_registry import ui_for
    from engine.cards import label

    ui = ui_for("durak")
    real = ui.group_text

    def leaky(self, view, names, lang, header):
        _, state = bot.service.core.states.cache[table.id]
        secret = " ".join(label(c) for c in game.view(state, 1)["hand"])
        return real(view, names, lang, header) + " " + secret

    monkeypatch.setattr(type(ui), "group_text", leaky)
    mover = await actor(bot, table.id, users)
    hand = await bot.hand_message(table.id, mover)
    await bot.press(mover, hand, data=fake_telegram.buttons(hand)[0][1])
    with pytest.raises(AssertionError, match="leaked"):  # the group table is redrawn
        await bot.service.core.enqueue([OutboxItem("group", GROUP, table.id)])
        await bot.settle()


async def test_help_rules_and_newgame_menu(bot, fake_telegram):
    (anya,) = people(fake_telegram, 1)
    await bot.send(anya, GROUP, "/help")
    assert "/durak" in fake_telegram.last_message(GROUP).text
    await bot.send(anya, GROUP, "/rules durak")
    assert "Дурак" in fake_telegram.last_message(GROUP).text
    assert "docs/rules/durak.md" in fake_telegram.last_message(GROUP).text
    await bot.send(anya, GROUP, "/rules nosuchgame")
    assert "durak" in fake_telegram.last_message(GROUP).text
    await bot.send(anya, anya, "/durak")
    assert "в группе" in fake_telegram.last_message(anya.id).text
    await bot.send(anya, GROUP, "/newgame")
    menu = fake_telegram.last_message(GROUP)
    await bot.press(anya, menu, "Дурак")
    assert (await bot.table(GROUP)).game == "durak"
    await bot.send(anya, GROUP, "/export")  # a durak table: nothing to export
    assert "нет стола бриджа" in fake_telegram.last_message(GROUP).text
    commands = fake_telegram.calls("setMyCommands")
    assert commands and any(c["command"] == "durak" for c in commands[0].params["commands"])


async def test_fixed_seat_lobby_choose_move_and_taken(bot, fake_telegram):
    """Bridge-style lobbies: people pick a seat, may move, cannot take a held seat."""
    anya, boris = people(fake_telegram, 2)
    for user in (anya, boris):
        await bot.send(user, user, "/start")
    await bot.send(anya, GROUP, "/bridge")
    table = await bot.table(GROUP)

    async def seat_of(user):
        return next((s.seat for s in await bot.repo.get_seats(table.id) if s.user_id == user.id), None)

    assert await seat_of(anya) == 0
    await bot.press(boris, await bot.table_message(GROUP), "Сесть: S")
    assert await seat_of(boris) == 2
    answer = await bot.press(anya, await bot.table_message(GROUP), "Сесть: S")
    assert "занято" in answer.text and await seat_of(anya) == 0
    await bot.press(anya, await bot.table_message(GROUP), "Сесть: E")
    assert await seat_of(anya) == 1
    lobby = await bot.table_message(GROUP)
    assert "E. ✅ Аня" in lobby.text and "S. ✅ Борис" in lobby.text and "N. —" in lobby.text
    answer = await bot.press(anya, lobby, "Начать")
    assert answer.text == "Нужно 4 игрока."  # two empty seats; bridge takes exactly four


async def test_ping_only_while_it_is_your_turn(bot, fake_telegram):
    anya, boris = users = people(fake_telegram, 2)
    table = await started_game(bot, users)

    def pings(user):
        return [m for m in fake_telegram.messages(user.id) if "Ваш ход" in m.text and not m.keyboard]

    for turn in range(6):
        mover = await actor(bot, table.id, users)
        other = boris if mover is anya else anya
        # the game's first turn: the new hand message itself notifies, no ping on top
        assert len(pings(mover)) == (1 if turn else 0) and not pings(other)
        hand = await bot.hand_message(table.id, mover)
        await bot.tick(60)  # people who take their time: each turn gets its ping
        await bot.press(mover, hand, data=fake_telegram.buttons(hand)[0][1])
        if (await bot.repo.get_table(table.id)).status != "playing":
            break
    # each DM holds the hand message, the /start answer and at most the current ping
    for user in users:
        assert len(fake_telegram.messages(user.id)) <= 3


async def test_no_ping_while_someone_is_playing_right_now(bot, fake_telegram):
    """A player who pressed within the last 45 s sees the hand redrawn in the open chat:
    a ping (a new message, a notification) would cost a call and say nothing new."""
    anya, boris = users = people(fake_telegram, 2)
    table = await started_game(bot, users)
    sent_before = len(fake_telegram.calls("sendMessage"))
    for _ in range(6):
        mover = await actor(bot, table.id, users)
        hand = await bot.hand_message(table.id, mover)
        await bot.tick(5)
        await bot.press(mover, hand, data=fake_telegram.buttons(hand)[0][1])
    pings = [c for c in fake_telegram.calls("sendMessage")[sent_before:] if "Ваш ход" in c.params["text"]]
    assert not pings
    await bot.tick(60)  # a pause: whose turn it is now, after the other's move, gets a ping
    mover = await actor(bot, table.id, users)
    hand = await bot.hand_message(table.id, mover)
    await bot.press(mover, hand, data=fake_telegram.buttons(hand)[0][1])
    if (await bot.repo.get_table(table.id)).status == "playing":
        waiting = await actor(bot, table.id, users)
        if waiting is not mover:
            assert any("Ваш ход" in m.text for m in fake_telegram.messages(waiting.id))


async def test_a_bot_mistake_caught_by_its_error_handler_still_fails_the_test(bot, fake_telegram, monkeypatch):
    """The bot's error handler logs a 400 (the bot's own mistake, e.g. bad HTML) instead of
    crashing; the emulator reads that log too, so such a mistake cannot pass a test quietly."""
    from telegram.error import BadRequest

    import bot.handlers as handlers

    async def unclosed_tag(update, context, text, rows=None, **options):
        # what Telegram answers to bad HTML in a call the handler makes itself
        raise BadRequest("Can't parse entities: can't find end tag corresponding to start tag \"b\"")

    monkeypatch.setattr(handlers, "reply", unclosed_tag)
    (anya,) = people(fake_telegram, 1)
    with pytest.raises(BadRequest):
        await bot.send(anya, GROUP, "/help")
