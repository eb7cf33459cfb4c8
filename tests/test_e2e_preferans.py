"""Whole preferans pulkas through the real Application and the fake Bot API, pressing
buttons as users do (two people and one computer), and the ``/score preferans`` sheet
entered by buttons. Every settle() also runs the leak check of tests/e2e.py: no card of
a hand, of a face-down talon or of the discards reaches anybody who may not see it."""

from __future__ import annotations

import random

from bot.screens import move_key
from engine.base import get_game
from engine.games.preferans import ai
from tests.e2e import CARD_LABEL, open_table

GROUP = -1001
G = get_game("preferans")


# the conftest ``bot`` plays the quick easy computers (tests.e2e.BotUnderTest): these
# tests are about the bot; the strong player has its own tests and benchmark


def easy(view, legal, rng):
    """The people's stand-in: the quick easy computer (the strong one searches)."""
    return ai.computer_action(view, legal, rng, level="easy")


def people(fake, n, lang="ru"):
    names = ["Аня", "Борис", "Вера"]
    return [fake.user(i + 1, names[i], language_code=lang) for i in range(n)]


async def set_option(bot, host, prefix: str, wanted: str):
    """Press the lobby option button that starts with ``prefix`` until it reads ``wanted``."""
    for _ in range(8):
        lobby = await bot.table_message(GROUP)
        texts = [t for t, _ in bot.fake.buttons(lobby)]
        if wanted in texts:
            return lobby
        await bot.press(host, lobby, next(t for t in texts if t.startswith(prefix)))
    raise AssertionError(f"option {wanted!r} not reached")


async def press_as(bot, table_id, users, pick, max_moves=3000, seed=1, watch=None, hands=None):
    """Like BotUnderTest.play: the person whose turn it is presses a button of his DM.
    ``pick(view, legal, rng)`` decides from that person's own view (the engine's computer
    policy or a test policy); the press goes through the button that carries the action."""
    rng = random.Random(seed)
    by_id = {u.id: u for u in users}
    for moves in range(max_moves):
        table, state = await bot.state(table_id)
        if table.status != "playing" or (hands and state.hand_no > hands):
            return moves
        seats = sorted(await bot.repo.get_seats(table_id), key=lambda s: s.seat)
        seat = G.to_act(state)[0]
        assert not seats[seat].is_computer, "computers should have moved already"
        user = by_id[seats[seat].user_id]
        legal = G.legal_actions(state, seat)
        message = await bot.hand_message(table_id, user)
        buttons = bot.fake.buttons(message)
        moves = [b for b in buttons if b[1].startswith("a:")]  # besides them: the last deal's 🔍
        assert len(moves) == len(legal) and len(buttons) < 100
        action = pick(G.view(state, seat), legal, rng)
        data = f"a:{table_id}:{table.version}:{move_key(action)}"
        label = next(t for t, d in buttons if d == data)
        if action.startswith(("play ", "discard ")):
            assert CARD_LABEL.fullmatch(label)
        if watch:
            await watch(state, seat, message)
        answer = await bot.fake.press(bot.app, user, message, callback_data=data)
        assert answer is None or not answer.show_alert, answer
        bot.clock.advance(3.0)
        await bot.settle()
    raise AssertionError("the pulka did not end")


def sheet_posts(fake):
    return [m for m in fake.messages(GROUP) if "Юха на 1" in m.text]


async def test_whole_pulka_two_people_and_a_computer(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = people(fake, 2)
    table = await open_table(bot, GROUP, anya, [boris], computers=1, command="/preferans balkan")
    lobby = await set_option(bot, anya, "пуля", "пуля 10")
    assert "рефетов: без ограничений" in [t for t, _ in fake.buttons(lobby)]  # bula 10: no refe limit
    await bot.press(anya, lobby, "▶️ Начать")
    group = await bot.table_message(GROUP)
    assert "Раздача 1" in group.text and "Торговля" in group.text or "торгуется" in group.text
    for user in (anya, boris):
        assert "Ваши карты" in (await bot.hand_message(table.id, user)).text

    seen = {"contract": False, "defence": False, "tricks": False}

    async def watch(state, seat, message):
        text = (await bot.table_message(GROUP)).text
        seen["contract"] |= "Контракт:" in text
        seen["defence"] |= "Защита:" in text
        seen["tricks"] |= "Взятки:" in text

    moves = await press_as(bot, table.id, [anya, boris], easy, watch=watch)
    assert moves > 20 and all(seen.values()), seen
    row, state = await bot.state(table.id)
    assert row.status == "between"
    result = G.result(state)
    assert result["finished"] and state.pull.total == 0
    # a sheet after every hand, and the settlement with the rematch button at the end
    posts = sheet_posts(fake)
    assert len(posts) == state.hand_no == len(state.pull.rows)
    last = posts[-1]
    assert "Пуля закрыта" in last.text and "Расчёт:" in last.text
    assert any(t == "🔁 Ещё партию" for t, _ in fake.buttons(last))
    for name in ["Аня", "Борис", "🤖 Маша"]:
        assert name in last.text
    assert "<pre>" in last.history[-1].raw_text
    # the pulka replays from its log
    again = G.initial_state(G.Options(**row.options), 3)
    for action in await bot.repo.load_actions(table.id):
        again, _ = G.apply(again, action.seat, action.action)
    assert G.dump(again) == G.dump(state)
    # a rematch starts a new pulka at the same seats
    await bot.press(boris, last, "🔁 Ещё партию")
    row, state = await bot.state(table.id)
    assert row.status == "playing" and row.game_no == 2 and state.hand_no == 1


def kontra_policy(view, legal, rng):
    """Defend and kontra a lot, raise the chain while it may go on; else the computer's play."""
    if "kontra" in legal:
        return "kontra"
    if "raise" in legal:
        return "raise" if rng.random() < 0.7 else "stop"
    if "play" in legal and view["phase"] == "defence":
        return "play"
    if view["phase"] == "auction" and "bid 2" in legal and rng.random() < 0.5:
        return "bid 2"
    return easy(view, legal, rng)


async def test_options_through_the_bot_hidden_talon_kontra_cap_slovenian(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = people(fake, 2)
    table = await open_table(bot, GROUP, anya, [boris], computers=1, command="/preferans balkan")
    await set_option(bot, anya, "пуля", "пуля 10")
    await set_option(bot, anya, "✓ прикуп открыт", "✗ прикуп открыт")
    await set_option(bot, anya, "контры:", "контры: до «субконтра»")
    await set_option(bot, anya, "✗ СЛО: ход на санац", "✓ СЛО: ход на санац")
    lobby = await set_option(bot, anya, "✗ СЛО: «два» → рефет", "✓ СЛО: «два» → рефет")
    assert "прикуп втёмную" in lobby.text and "словенский" in lobby.text
    await bot.press(anya, lobby, "▶️ Начать")
    row, _ = await bot.state(table.id)
    options = G.Options(**row.options)
    assert (options.show_talon, options.max_kontra_level, options.slovenian_sans_lead, options.slovenian_two_refe) == (
        False,
        3,
        True,
        True,
    )
    talon_lines = []

    async def watch(state, seat, message):
        group = (await bot.table_message(GROUP)).text
        talon_lines.append("Прикуп: взят втёмную" in group)
        assert "Прикуп: " not in group.replace("Прикуп: взят втёмную", "")

    await press_as(bot, table.id, [anya, boris], kontra_policy, seed=4, watch=watch, hands=10)
    _, state = await bot.state(table.id)
    assert any(talon_lines)
    levels = [r["level"] for r in state.pull.rows if r["type"] == "hand"]
    assert max(levels) == 3, levels  # the chain stopped at subkontra
    assert len(sheet_posts(fake)) == len(state.pull.rows) >= 10


def friendly_policy(view, legal, rng):
    """People who let the declarer through: the pulka ends quickly."""
    if view["phase"] == "defence" and "pass" in legal:
        return "pass"
    if "no" in legal:
        return "no"
    return easy(view, legal, rng)


async def test_english_table(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = people(fake, 2, lang="en")
    await bot.send(anya, GROUP, "/language en")
    table = await open_table(bot, GROUP, anya, [boris], computers=1, command="/preferans balkan")
    await set_option(bot, anya, "bula", "bula 10")
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Start")
    group = await bot.table_message(GROUP)
    assert "Hand 1" in group.text
    await press_as(bot, table.id, [anya, boris], easy, seed=2, hands=3)
    _, before = await bot.state(table.id)
    await bot.restart()  # the state comes back from the snapshot + log
    _, after = await bot.state(table.id)
    assert G.dump(after) == G.dump(before)
    await press_as(bot, table.id, [anya, boris], friendly_policy, seed=2)
    assert "The pulka is closed" in fake.last_message(GROUP).text


async def test_timeout_forfeits_and_settles(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = people(fake, 2)
    table = await open_table(bot, GROUP, anya, [boris], computers=1, command="/preferans balkan")
    await bot.press(anya, await bot.table_message(GROUP), lambda t: t.startswith("⏱"))
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")
    _, state = await bot.state(table.id)
    idle = G.to_act(state)[0]
    await bot.tick(61)
    row, state = await bot.state(table.id)
    assert row.status == "between" and G.result(state)["forfeit"] == idle
    last = fake.last_message(GROUP)
    assert "вышло время" in last.text and "Расчёт:" in last.text
    assert state.pull.contract[idle] == -60


# ------------------------------------------------------------------------------ /score preferans
async def press_group(bot, user, label):
    message = await bot.table_message(GROUP)
    answer = await bot.press(user, message, lambda text: text == label)
    assert answer is None or not answer.show_alert, answer
    bot.clock.advance(3.0)
    return answer


async def test_score_sheet_by_buttons_with_undo(bot, fake_telegram):
    fake = fake_telegram
    anya, boris, vera = people(fake, 3)
    table = await open_table(bot, GROUP, anya, [boris, vera], command="/score preferans")
    lobby = await bot.table_message(GROUP)
    assert "Запись преферанса" in lobby.text
    assert not any("Компьютер" in t for t, _ in fake.buttons(lobby))
    await bot.press(anya, lobby, "▶️ Начать")
    group = await bot.table_message(GROUP)
    assert "кто играл" in group.text and [t for t, _ in fake.buttons(group)] == ["Аня", "Борис", "Вера", "Все пас"]
    # the seed example: A = Аня, B = Борис, C = Вера; anybody seated may press
    for user, label in [
        (vera, "Вера"),
        (anya, "3 ♦"),
        (boris, "С прикупом"),
        (anya, "Вист"),
        (boris, "Вист"),
        (vera, "Без контры"),
        (vera, "6"),
        (anya, "2"),
        (anya, "✅ Записать"),
    ]:
        await press_group(bot, user, label)
    posts = sheet_posts(fake)
    assert len(posts) == 1 and "Вера: 3 ♦ — сыграно" in posts[0].text
    for user, label in [
        (boris, "Борис"),
        (boris, "5 ♣"),
        (boris, "С прикупом"),
        (vera, "Вист"),
        (anya, "Пас"),
        (vera, "Без контры"),
        (boris, "7"),
        (boris, "✅ Записать"),
        (anya, "Все пас"),
        (anya, "✅ Записать"),
    ]:
        await press_group(bot, user, label)
    # a wrong entry, undone
    for label in ["Вера", "5 ♣", "С прикупом", "Пас", "Пас", "✅ Записать"]:
        await press_group(bot, anya, label)
    assert len(sheet_posts(fake)) == 4
    await press_group(bot, boris, "↩ Отменить последнюю")
    undone = await bot.last_post(GROUP)
    assert "отменена" in undone.text
    # a cancelled entry writes nothing
    await press_group(bot, vera, "Аня")
    await press_group(bot, vera, "✖ Отмена")
    for label in ["Аня", "5 ♣", "С прикупом", "Пас", "Вист", "Без контры", "7", "✅ Записать"]:
        await press_group(bot, vera, label)
    last = sheet_posts(fake)[-1]
    assert "+32" in last.text and "−38" in last.text and "+6" in last.text
    row, state = await bot.state(table.id)
    assert len(state.entries) == 4 and row.status == "playing"
    # a stranger cannot enter anything
    gosha = fake.user(9, "Гоша", language_code="ru")
    before = await bot.actions(table.id)
    answer = await bot.press(gosha, await bot.table_message(GROUP), "Аня")
    assert answer.text == "Вы не сидите за этим столом." and await bot.actions(table.id) == before


async def test_score_sheet_ends_at_zero(bot, fake_telegram):
    fake = fake_telegram
    anya, boris, vera = people(fake, 3)
    table = await open_table(bot, GROUP, anya, [boris, vera], command="/score preferans")
    lobby = await set_option(bot, anya, "пуля", "пуля 10")
    await bot.press(anya, lobby, "▶️ Начать")
    for declarer in ("Аня", "Борис", "Вера"):
        for label in [declarer, "5 ♣", "С прикупом", "Пас", "Пас", "✅ Записать"]:
            await press_group(bot, boris, label)
    row, state = await bot.state(table.id)
    assert row.status == "between" and state.result["finished"]
    last = fake.last_message(GROUP)
    assert "Пуля закрыта" in last.text and "Расчёт:" in last.text
    assert any(t == "🔁 Ещё партию" for t, _ in fake.buttons(last))


async def test_every_lobby_option_and_single_step_bids(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = people(fake, 2)
    table = await open_table(bot, GROUP, anya, [boris], computers=1, command="/preferans balkan")
    lobby = await bot.table_message(GROUP)
    option_buttons = [t for t, d in fake.buttons(lobby) if d and ":o:" in d]
    assert len(option_buttons) == 11
    for data in [d for t, d in fake.buttons(lobby) if d and ":o:" in d]:
        key = data.split(":o:")[1]
        message = await bot.table_message(GROUP)
        current = next(d for t, d in fake.buttons(message) if d.endswith(":o:" + key))
        answer = await bot.press(anya, message, data=current)
        assert answer is None or not answer.show_alert
    row, _ = await bot.state(table.id)
    options = G.Options(**row.options)
    assert (
        options.bula,
        options.max_refe,
        options.kontra_scope,
        options.show_talon,
        options.single_step_bids,
        options.two_requires_kontra,
        options.lone_defender_quota,
        options.display_rounding,
        options.allow_subkontra,
    ) == (50, 0, "all", False, True, False, 1, "int", False)
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")
    _, state = await bot.state(table.id)
    seats = sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)
    seat = G.to_act(state)[0]
    user = anya if seats[seat].user_id == anya.id else boris
    hand = await bot.hand_message(table.id, user)
    numbers = [t for t, _ in fake.buttons(hand) if t[0].isdigit()]
    assert len(numbers) <= 1  # one step at a time
