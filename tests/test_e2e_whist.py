"""Whist through the real Application and the fake Bot API: a whole rubber with one
person and three computers (the leak check of tests/e2e.py runs on every settle()),
the trump declaration by the dealer, and the ``/score whist`` sheet with undo."""

from __future__ import annotations


from engine.base import get_game
from engine.games.whist.record import score as record_score
from engine.games.whist.record import text as record_text
from tests.e2e import CARD_LABEL

GROUP = -1001


async def open_whist(bot, host, computers=3, rubbers_presses=1, extra_presses=()):
    await bot.send(host, host, "/start")
    await bot.send(host, GROUP, "/whist")
    lobby = await bot.table_message(GROUP)
    assert [t for t, _ in bot.fake.buttons(lobby)][:4] == ["Сесть: N", "Сесть: E", "Сесть: S", "Сесть: W"]
    for _ in range(computers):
        await bot.press(host, await bot.table_message(GROUP), "+ Компьютер")
    for _ in range(rubbers_presses):  # 10 -> 1 rubber
        await bot.press(host, await bot.table_message(GROUP), lambda text: text.startswith("робберов для победы"))
    for label in extra_presses:
        await bot.press(host, await bot.table_message(GROUP), label)
    return await bot.table(GROUP)


def play_low(user, buttons, rng):
    cards = [d for t, d in buttons if CARD_LABEL.search(t)]
    return rng.choice(cards) if cards else buttons[0][1]


async def test_one_person_and_three_computers_play_a_rubber(bot, fake_telegram):
    anya = fake_telegram.user(1, "Аня")
    table = await open_whist(bot, anya)
    lobby = await bot.table_message(GROUP)
    assert "робберов для победы: 1" in lobby.text and "N. ✅ Аня" in lobby.text
    answer = await bot.press(anya, lobby, "▶️ Начать")
    assert answer.text.startswith("Игра началась")
    group = await bot.table_message(GROUP)
    assert "Козырь" in group.text and "Роббер 1 · партия 1 · раздача 1" in group.text
    hand = await bot.hand_message(table.id, anya)
    assert "Ваше место N: Мы (N–S)" in hand.text and "Ваши карты" in hand.text

    presses = await bot.play(table.id, [anya], choose=play_low)
    assert presses >= 13 * 4  # at least four deals (a rubber is two games)
    row, state = await bot.state(table.id)
    assert row.status == "between"
    game = get_game("whist")
    result = game.result(state)
    assert result["winner"] in ("NS", "EW") and result["rubbers"][result["winner"]] == 1
    assert sum(result["players"]) == 0

    # one sheet after every deal, then the final post with the rubber totals
    posts = [m.text for m in fake_telegram.messages(GROUP) if m.text.startswith("Раздача ")]
    deals = len(state.sheet.entries)
    assert len(posts) == deals >= 4
    assert all("Вист — запись" in p and "│ вз  к   =│" in p for p in posts)
    assert "Роббер выиграли" in posts[-1]
    final = fake_telegram.last_message(GROUP)
    assert "Матч окончен" in final.text and "в зачёт" in final.text and "Аня" in final.text
    # the sheet posted equals the score-only computation of the same deals
    record = {"game": "whist", "options": {"match_rubbers_to_win": 1}, "deals": state.sheet.entries}
    assert record_score(record)["rubbers"][0]["total"] == state.sheet.rubbers[0]["total"]
    # the log replays to the same state
    actions = await bot.repo.load_actions(table.id)
    replay = game.initial_state(game.Options(**row.options), 4)
    for a in actions:
        replay, _ = game.apply(replay, a.seat, a.action)
    assert game.dump(replay) == game.dump(state)
    # the group was never flooded
    stamps = [c.t for c in fake_telegram.group_sends_and_edits(GROUP)]
    assert max(sum(1 for s in stamps if t0 <= s < t0 + 60) for t0 in stamps) <= 20


async def test_dealer_names_the_trump_by_button(bot, fake_telegram):
    anya = fake_telegram.user(1, "Аня")
    table = await open_whist(bot, anya, extra_presses=["козырь — открытая карта"])
    lobby = await bot.table_message(GROUP)
    assert "козыря назначает сдающий" in lobby.text
    await bot.press(anya, lobby, "▶️ Начать")
    group = await bot.table_message(GROUP)
    assert "Козырь: выбирает N Аня" in group.text
    hand = await bot.hand_message(table.id, anya)
    labels = [t for t, _ in fake_telegram.buttons(hand)]
    assert labels == ["♠", "♥", "♦", "♣", "Пусть выберет партнёр"]
    assert "Назначьте козыря" in hand.text
    await bot.press(anya, hand, "♦")
    group = await bot.table_message(GROUP)
    assert "Козырь: ♦" in group.text
    _, state = await bot.state(table.id)
    assert state.trump == "D" and state.phase == "play"
    # the rest of the deal: only legal cards are offered and the computers answer
    await bot.play(table.id, [anya], choose=play_low, until=lambda: _first_deal_done(bot, table.id))


async def _first_deal_done(bot, table_id):
    _, state = await bot.state(table_id)
    return len(state.sheet.entries) >= 1


async def test_score_whist_entries_validation_and_undo(bot, fake_telegram):
    anya = fake_telegram.user(1, "Аня")
    boris = fake_telegram.user(2, "Борис")
    await bot.send(anya, GROUP, "/score whist")
    lobby = await bot.table_message(GROUP)
    assert "Вист — запись" in lobby.text
    await bot.press(boris, lobby, "Сесть за стол")
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")
    table = await bot.table(GROUP)

    async def press(user, text):
        await bot.press(user, await bot.table_message(GROUP), text)

    msg = await bot.table_message(GROUP)
    assert "Раздача 1: сколько взяток" in msg.text
    assert [t for t, _ in fake_telegram.buttons(msg)][:3] == ["0:13", "1:12", "2:11"]
    # validation: with 13 tricks to 0 only 5:0 honours are possible
    await press(anya, "13:0")
    msg = await bot.table_message(GROUP)
    assert [t for t, _ in fake_telegram.buttons(msg)] == ["5:0", "✗ Отмена"]
    await press(boris, "✗ Отмена")
    # deal 1: We 9 tricks, honours 3:2 -> We 8
    await press(anya, "9:4")
    await press(boris, "3:2")
    msg = await bot.table_message(GROUP)
    assert "Картинки: Мы 3 · Они 2" in msg.text and "Записать?" in msg.text
    await press(anya, "✓ Записать")
    sheet = await bot.last_post(GROUP)
    assert sheet.text.startswith("Раздача 1 записана")
    assert "  1│  6  2   8│  ·  ·   0" in sheet.text
    # the very sheet `cardbot score --text` prints for the same deals
    assert (
        record_text({"game": "whist", "deals": [{"tricks": {"NS": 9, "EW": 4}, "honours": {"NS": 3, "EW": 2}}]}, "ru")
        in sheet.text
    )
    # deal 2: They 7 tricks, We 3 honours -> We reach 10: game, x2
    await press(boris, "6:7")
    await press(boris, "3:2")
    await press(boris, "✓ Записать")
    sheet = await bot.last_post(GROUP)
    assert "партия 1: Мы ×2 (10:2)" in sheet.text
    # undo the second deal
    await press(anya, "↩ Вычеркнуть последнюю раздачу")
    sheet = await bot.last_post(GROUP)
    assert sheet.text.startswith("Раздача 2 вычеркнута") and "партия 1" not in sheet.text
    _, state = await bot.state(table.id)
    assert state.sheet.entries == [{"tricks": {"NS": 9, "EW": 4}, "honours": {"NS": 3, "EW": 2}}]
    msg = await bot.table_message(GROUP)
    assert "Счёт: Мы 8 · Они 0" in msg.text
    # a stale button (the old version) is refused and changes nothing
    data = next(d for t, d in fake_telegram.buttons(msg) if t == "7:6")
    await press(anya, "7:6")
    answer = await bot.press_raw(anya, GROUP, msg.message_id, data)
    assert answer.text
    _, state = await bot.state(table.id)
    assert state.pending == {"tricks": {"NS": 7, "EW": 6}}


async def test_turn_timer_forfeit_and_rematch_rotates_the_deal(bot, fake_telegram):
    anya = fake_telegram.user(1, "Аня")
    table = await open_whist(bot, anya, extra_presses=["⏱ без таймера"])
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")
    _, state = await bot.state(table.id)
    assert get_game("whist").to_act(state) == [0]  # the computers E, S, W have played
    await bot.tick(61)
    row, state = await bot.state(table.id)
    assert row.status == "between"
    result = get_game("whist").result(state)
    assert result["forfeit"] == 0 and result["winner"] == "EW"
    final = fake_telegram.last_message(GROUP)
    assert "N Аня: вышло время — Мы (N–S) проигрывают матч." in final.text and "Победили Они (E–W)" in final.text
    # a rematch is a new match; the deal goes on rotating (N dealt, E deals now)
    await bot.press(anya, final, "Ещё партию")
    row, state = await bot.state(table.id)
    assert row.game_no == 2 and state.dealer == 1 and state.deal_no == 1
