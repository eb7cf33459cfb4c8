"""``/score thousand`` through the real Application and the fake Bot API (SQLite and
PostgreSQL): three people keep the sheet of a Тысяча game played with real cards, press
the entry buttons under the group message, get the sheet that ``cardbot score --text``
prints after every deal, strike one out, meet a stale button, and play to 1000."""

from __future__ import annotations

from engine.games.thousand.record import text as record_text

GROUP = -1001


async def open_sheet(bot, fake, command="/score thousand", lang="ru", n=3):
    names = ["Аня", "Борис", "Вера", "Гоша"]
    users = [fake.user(i + 1, names[i], language_code=lang) for i in range(n)]
    await bot.send(users[0], GROUP, command)
    for user in users[1:]:
        await bot.press(user, await bot.table_message(GROUP), lambda text: text in ("Сесть за стол", "Join"))
    await bot.press(users[0], await bot.table_message(GROUP), lambda text: text in ("▶️ Начать", "▶️ Start"))
    return users, await bot.table(GROUP)


async def test_score_thousand_entries_validation_undo_and_the_end(bot, fake_telegram):
    (anya, boris, vera), table = await open_sheet(bot, fake_telegram)

    async def press(user, text):
        await bot.press(user, await bot.table_message(GROUP), text)

    def buttons(msg):
        return [t for t, _ in fake_telegram.buttons(msg)]

    msg = await bot.table_message(GROUP)
    assert "Тысяча — запись" in msg.text and "Раздача 1: кто играл" in msg.text
    # Аня deals the first deal: Борис (her left) is the forehand
    assert buttons(msg) == ["Борис", "Вера", "Аня"]
    await press(vera, "Борис")
    msg = await bot.table_message(GROUP)
    assert buttons(msg)[:3] == ["100", "105", "110"] and "200–295" in buttons(msg)
    await press(anya, "200–295")  # another hundred, and back
    assert buttons(await bot.table_message(GROUP))[0] == "200"
    await press(anya, "100–195")
    await press(anya, "120")
    await press(boris, "✅ Сыграно")
    msg = await bot.table_message(GROUP)
    assert "Вера: сколько очков" in msg.text and "Запись: Борис · 120 · сыграно" in msg.text
    await press(vera, "20")
    # validation: Борис made 120 without a marriage of Вера's or Аня's worth more than
    # what the deck leaves, so Аня cannot have 300 points; a band with no possible number is not offered
    msg = await bot.table_message(GROUP)
    assert "Болт" in buttons(msg) and "300–400" not in buttons(msg)
    await press(anya, "Болт")
    await press(anya, "✅ Записать")
    post = await bot.last_post(GROUP)
    assert post.text.startswith("📋 Раздача 1 сыграна") and "Аня: болт" in post.text
    deal1 = {"declarer": "B", "contract": 120, "made": True, "points": {"C": 20, "A": "bolt"}}
    expected = record_text({"game": "thousand", "deals": [deal1]}, "ru")
    # the very sheet `cardbot score --text` prints, with a line naming the letters
    assert "A. Аня  B. Борис  C. Вера\n" + "\n".join(expected.splitlines()[1:]) in post.text
    assert "1  B 120+  0/  120  20" in post.text
    # deal 2: Вера (the forehand now) declares and gives up
    await press(boris, "Вера")
    await press(boris, "100")
    await press(boris, "✍ Распишись")
    await press(boris, "✅ Записать")
    row, state = await bot.state(table.id)
    assert state.played.totals == [60, 180, -80]
    # undo deal 2
    await press(anya, "↩ Вычеркнуть последнюю")
    post = await bot.last_post(GROUP)
    assert post.text.startswith("↩ Последняя раздача вычеркнута")
    row, state = await bot.state(table.id)
    assert state.deals == [deal1] and state.played.totals == [0, 120, 20]
    # a stale button (the table's old version) is refused and changes nothing
    msg = await bot.table_message(GROUP)
    data = next(d for t, d in fake_telegram.buttons(msg) if t == "Вера")
    await press(anya, "Вера")
    answer = await bot.press_raw(anya, GROUP, msg.message_id, data)
    assert answer.text
    row, state = await bot.state(table.id)
    assert state.pending["declarer"] == "C" and state.pending["step"] == "contract"
    await press(anya, "✖ Отмена")
    # Борис wins 300 twice, then 400 with everything: over 1000, the game ends
    for amount in ("300", "300", "400"):
        await press(anya, "Борис")
        await press(anya, "300–400")
        await press(anya, amount)
        await press(anya, "✅ Сыграно")
        for _ in range(2):  # the opponents: 0 points each
            await press(anya, "0")
        await press(anya, "✅ Записать")
    row, state = await bot.state(table.id)
    assert row.status == "between" and state.result["winner"] == 1
    post = await bot.last_post(GROUP)
    assert "Игра окончена" in post.text and "🏆 Борис" in post.text


async def test_score_1000_in_english_with_four_players(bot, fake_telegram):
    (anya, boris, vera, gosha), table = await open_sheet(bot, fake_telegram, "/score 1000", lang="en", n=4)

    async def press(user, text):
        await bot.press(user, await bot.table_message(GROUP), text)

    msg = await bot.table_message(GROUP)
    assert "Аня deals (and sits this deal out)" in msg.text
    assert [t for t, _ in fake_telegram.buttons(msg)][:3] == ["Борис", "Вера", "Гоша"]  # not the dealer
    await press(gosha, "Вера")
    await press(gosha, "150")
    await press(gosha, "❌ Failed")
    await press(gosha, "40")
    await press(gosha, "35")
    await press(gosha, "✅ Write")
    post = await bot.last_post(GROUP)
    assert post.text.startswith("📋 Deal 1")
    row, state = await bot.state(table.id)
    assert state.played.totals == [0, 40, -150, 35]
    msg = await bot.table_message(GROUP)
    assert "Борис deals (and sits this deal out)" in msg.text


async def test_score_thousand_posts_the_paper_sheet_as_a_picture(bot, fake_telegram):
    anya = fake_telegram.user(1, "Аня")
    await bot.send(anya, GROUP, "/sheets picture")
    (anya, boris, vera), table = await open_sheet(bot, fake_telegram)
    for label in ("Вера", "100", "✅ Сыграно", "Болт", "15", "✅ Записать"):
        await bot.press(boris, await bot.table_message(GROUP), label)
    shots = [m for m in fake_telegram.messages(GROUP) if m.photo]
    assert len(shots) == 1 and shots[0].photo.startswith(b"\x89PNG")
    assert shots[0].text.startswith("📋 Раздача 1 сыграна") and "<pre>" not in shots[0].raw_text


async def test_a_crowd_presses_the_sheet_s_buttons_at_once_and_telegram_throttles(bot, fake_telegram):
    """Three keepers press the same button at once, then different ones: one entry is
    taken, every press is answered (the others with a toast), nothing is written twice.
    With the group's edit refused by a flood wait, the deal is still written once and the
    table message catches up."""
    import asyncio

    fake = fake_telegram
    users, table = await open_sheet(bot, fake)

    async def all_at_once(labels):
        msg = await bot.table_message(GROUP)
        data = dict(fake.buttons(msg))
        presses = [fake.callback_update(user, GROUP, msg.message_id, data[label]) for user, label in zip(users, labels)]
        await asyncio.gather(*(fake.feed(bot.app, update) for update in presses))
        await bot.settle()
        return [fake.answers.get(update["callback_query"]["id"]) for update in presses]

    answers = await all_at_once(["Борис"] * 3)
    assert all(a is not None for a in answers)
    _, state = await bot.state(table.id)
    assert state.pending == {"step": "contract", "declarer": "B", "band": 100, "dark": False}
    assert sum(1 for a in answers if a.text) >= 2  # the late ones: the table has moved on
    # different buttons crossing: one of them is taken, the entry stays one valid step on
    answers = await all_at_once(["120", "100", "✖ Отмена"])
    assert all(a is not None for a in answers)
    _, state = await bot.state(table.id)
    assert state.pending is None or state.pending["contract"] in (100, 120)
    if state.pending is None:
        await bot.press(users[0], await bot.table_message(GROUP), "Борис")
        await bot.press(users[0], await bot.table_message(GROUP), "120")
    fake.fail_next("editMessageText", chat_id=GROUP, retry_after=3, error_code=429, times=2)
    for label in ("✅ Сыграно", "20", "5"):
        await bot.press(users[1], await bot.table_message(GROUP), label)
    answers = await all_at_once(["✅ Записать"] * 3)
    assert all(a is not None for a in answers)
    await bot.tick(10)
    _, state = await bot.state(table.id)
    assert len(state.deals) == 1 and state.played.totals == [5, 120, 20]
    assert len([m for m in fake.messages(GROUP) if m.text.startswith("📋 Раздача 1")]) == 1
    assert "Раздача 2: кто играл" in (await bot.table_message(GROUP)).text


async def test_a_restart_mid_entry_keeps_the_entry_and_the_sheet(bot, fake_telegram):
    users, table = await open_sheet(bot, fake_telegram)
    for label in ("Борис", "120", "✅ Сыграно", "20", "5", "✅ Записать", "Вера", "100"):
        await bot.press(users[0], await bot.table_message(GROUP), label)
    await bot.restart()  # the process gone between two presses: the log is the truth
    _, state = await bot.state(table.id)
    assert state.played.totals == [5, 120, 20] and state.pending["contract"] == 100
    for label in ("❌ Не сыграно", "40", "30", "✅ Записать"):
        await bot.press(users[2], await bot.table_message(GROUP), label)
    _, state = await bot.state(table.id)
    assert state.played.totals == [45, 150, -80] and len(state.deals) == 2  # Аня 40, Борис 30
    assert len([m for m in fake_telegram.messages(GROUP) if m.text.startswith("📋 Раздача")]) == 2
