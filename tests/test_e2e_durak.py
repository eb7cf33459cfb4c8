"""Whole durak games through the real Application and the fake Bot API, pressing
buttons as users do. Every settle() also runs the leak check of tests/e2e.py."""

from __future__ import annotations


from engine.base import get_game
from tests.e2e import open_table

GROUP = -1001


def people(fake, n):
    names = ["Аня", "Борис", "Вера", "Гоша", "Даша", "Егор"]
    return [fake.user(i + 1, names[i]) for i in range(n)]


async def test_two_player_podkidnoy_whole_game_and_rematch(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = people(fake, 2)
    table = await open_table(bot, GROUP, anya, [boris])
    lobby = await bot.table_message(GROUP)
    assert "Аня" in lobby.text and "Борис" in lobby.text
    answer = await bot.press(anya, lobby, "Начать")
    assert answer.text.startswith("Игра началась")

    # both hands arrived in the DMs, with buttons only for whoever acts
    for user in (anya, boris):
        hand = await bot.hand_message(table.id, user)
        assert "Ваши карты" in hand.text
    group = await bot.table_message(GROUP)
    assert "Козырь" in group.text and "колода: 24" in group.text

    moves = await bot.play(table.id, [anya, boris])
    assert moves > 5
    row, state = await bot.state(table.id)
    assert row.status == "between"
    result = get_game("durak").result(state)
    sheet = fake.last_message(GROUP)
    assert "Игра №1 окончена" in sheet.text
    assert ("Ничья" in sheet.text) or ("Дурак: " in sheet.text)
    assert "игр: 1" in sheet.text

    # rematch keeps the seats; the previous durak deals the next game
    await bot.press(boris, sheet, "Ещё партию")
    row, state = await bot.state(table.id)
    assert row.status == "playing" and row.game_no == 2
    view = get_game("durak").view(state, None)
    if "durak" in result:
        assert view["dealer"] == result["durak"]
    await bot.play(table.id, [anya, boris], seed=2)
    sheet = fake.last_message(GROUP)
    assert "Игра №2 окончена" in sheet.text and "игр: 2" in sheet.text


async def test_four_player_podkidnoy(bot, fake_telegram):
    users = people(fake_telegram, 4)
    table = await open_table(bot, GROUP, users[0], users[1:])
    await bot.press(users[0], await bot.table_message(GROUP), "Начать")
    await bot.play(table.id, users)
    row, _ = await bot.state(table.id)
    assert row.status == "between"
    # the group never got more than 20 sends+edits in any 60 s at human pace
    stamps = [c.t for c in fake_telegram.group_sends_and_edits(GROUP)]
    assert max(sum(1 for s in stamps if t0 <= s < t0 + 60) for t0 in stamps) <= 20


async def test_perevodnoy_with_transfers(bot, fake_telegram):
    users = people(fake_telegram, 3)
    table = await open_table(bot, GROUP, users[0], users[1:])
    lobby = await bot.table_message(GROUP)
    lobby = await _cycle_until(bot, users[0], "подкидной", "переводной")
    assert "переводной" in lobby.text

    def prefer_transfer(user, buttons, rng):
        transfers = [d for t, d in buttons if t.startswith("⇄")]
        if transfers:
            return transfers[0]
        from tests.e2e import any_move

        return any_move(user, buttons, rng)

    await bot.press(users[0], lobby, "Начать")
    await bot.play(table.id, users, choose=prefer_transfer)
    assert any(a.startswith("transfer") for a in await bot.actions(table.id))


async def _cycle_until(bot, host, current: str, wanted: str):
    for _ in range(6):
        lobby = await bot.table_message(GROUP)
        if any(text == wanted for text, _ in bot.fake.buttons(lobby)):
            return lobby
        label = next(
            text
            for text, _ in bot.fake.buttons(lobby)
            if text in ("простой", "подкидной", "переводной", "переводной (и после отбоя)")
        )
        await bot.press(host, lobby, label)
    raise AssertionError("option not reached")


async def test_blind_beating_challenge_both_ways(bot, fake_telegram):
    users = people(fake_telegram, 2)
    table = await open_table(bot, GROUP, users[0], users[1:])
    lobby = await bot.table_message(GROUP)
    await bot.press(users[0], lobby, "втёмную")
    lobby = await bot.table_message(GROUP)
    assert "втёмную" in lobby.text

    def blind_and_challenge(user, buttons, rng):
        blind = [d for t, d in buttons if t.startswith("🂠")]
        challenge = [d for t, d in buttons if t == "Не верю!"]
        if challenge:
            return challenge[0]
        if blind:
            return rng.choice(blind)
        menu = [d for t, d in buttons if t == "🂠 Втёмную…"]
        if menu and rng.random() < 0.6:
            return menu[0]
        from tests.e2e import any_move

        return any_move(user, buttons, rng)

    await bot.press(users[0], lobby, "Начать")
    outcomes = set()
    for game_no in range(1, 6):
        row, _ = await bot.state(table.id)
        await bot.play(table.id, users, choose=blind_and_challenge, seed=game_no)
        outcomes |= await _challenge_outcomes(bot, table.id)
        if outcomes == {True, False}:
            break
        await bot.press(users[0], fake_telegram.last_message(GROUP), "Ещё партию")
    assert outcomes == {True, False}


async def _challenge_outcomes(bot, table_id):
    """Replay the log with the engine and collect each challenge's verdict."""
    game = get_game("durak")
    table = await bot.repo.get_table(table_id)
    found = set()
    state = None
    for row in await bot.repo.load_actions(table_id):
        if row.action.startswith("deal"):
            state = game.initial_state(game.Options(**table.options), len(await bot.repo.get_seats(table_id)))
        state, events = game.apply(state, row.seat, row.action)
        found |= {e["legal"] for e in events if e["type"] == "challenge"}
    return found


async def test_two_decks_52_card_loss(bot, fake_telegram):
    users = people(fake_telegram, 2)
    table = await open_table(bot, GROUP, users[0], users[1:])
    lobby = await bot.table_message(GROUP)
    await bot.press(users[0], lobby, "36 карт")  # 36 -> 52
    lobby = await bot.table_message(GROUP)
    await bot.press(users[0], lobby, "две колоды")
    lobby = await bot.table_message(GROUP)
    assert "52 карт" in lobby.text and "две колоды" in lobby.text
    await bot.press(users[0], lobby, "Начать")
    victim = users[1]

    def victim_always_takes(user, buttons, rng):
        if user.id == victim.id:
            take = [d for t, d in buttons if t == "Беру"]
            if take:
                return take[0]
        groups = [d for t, d in buttons if t.count("♠") + t.count("♥") + t.count("♦") + t.count("♣") > 1]
        cards = [d for t, d in buttons if any(s in t for s in "♠♥♦♣")]
        return (groups or cards or [buttons[0][1]])[0]

    await bot.play(table.id, users, choose=victim_always_takes)
    _, state = await bot.state(table.id)
    result = get_game("durak").result(state)
    assert result["durak"] == 1 and result["by_52"]
    assert "52 карты на руках" in fake_telegram.last_message(GROUP).text
