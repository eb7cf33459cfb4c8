"""Ratings and history through the real Application and the fake Bot API: /top,
/stats (and /stats off, /stats on), /history with its record button (a document that
`cardbot replay` accepts), /forget with its confirmation (admins only). Each test runs
on SQLite and on PostgreSQL (the ``bot`` fixture)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main as cardbot
from engine.base import get_game
from engine.records import replay
from tests.e2e import open_table

GROUP = -1001  # "Кухня", admin: user 1


def people(fake, n):
    names = ["Аня", "Борис", "Вера"]
    return [fake.user(i + 1, names[i]) for i in range(n)]


async def command(bot, user, chat, text):
    """Send a command and return the bot's answer (the last message in that chat)."""
    bot.clock.advance(10)  # the same command again within seconds is not answered twice
    await bot.send(user, chat, text)
    return bot.fake.last_message(chat if isinstance(chat, int) else user.id)


def with_button(fake, text):
    """The group's last message with a button saying ``text`` (the game-over post)."""
    return [m for m in fake.messages(GROUP) if any(text in b for b, _ in fake.buttons(m))][-1]


async def play_durak(bot, users, computers=0, seed=1):
    table = await open_table(bot, GROUP, users[0], users[1:], computers=computers)
    await bot.press(users[0], await bot.table_message(GROUP), "Начать")
    await bot.play(table.id, users, seed=seed)
    row, state = await bot.state(table.id)
    assert row.status == "between"
    return table, get_game("durak").result(state)


async def test_top_stats_and_opting_out(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = people(fake, 2)
    assert "нет партий" in (await command(bot, anya, GROUP, "/top")).text

    table, result = await play_durak(bot, [anya, boris])
    # both were rated in the commit that ended the game
    top = await command(bot, anya, GROUP, "/top")
    assert "Дурак" in top.text and "Аня" in top.text and "Борис" in top.text
    assert "партий 1" in top.text
    rows = await bot.repo.top_ratings(GROUP, "durak")
    assert {r.player: r.games for r in rows} == {"u1": 1, "u2": 1}
    if "durak" in result:  # the winner is first in the group's table, with its win
        winner = "u2" if result["durak"] == 0 else "u1"
        assert rows[0].player == winner and rows[0].wins == 1 and rows[1].wins == 0
    assert (await command(bot, anya, GROUP, "/top durak")).text == top.text
    assert "Игры с рейтингом" in (await command(bot, anya, GROUP, "/top chess")).text

    # /stats: in private, across groups; in the group it points to the private chat
    assert "в личном чате" in (await command(bot, anya, GROUP, "/stats")).text
    stats = await command(bot, anya, anya, "/stats")
    assert "Ваш рейтинг" in stats.text and "Кухня" in stats.text and "Дурак" in stats.text

    # /stats off: deleted, no longer listed, the next game does not rate her
    assert "больше не идут" in (await command(bot, anya, anya, "/stats off")).text
    assert "отказались" in (await command(bot, anya, anya, "/stats")).text
    top = await command(bot, boris, GROUP, "/top")
    assert "Аня" not in top.text and "Борис" in top.text
    await bot.press(anya, with_button(fake, "Ещё партию"), "Ещё партию")
    await bot.play(table.id, [anya, boris], seed=2)
    assert {r.player: r.games for r in await bot.repo.top_ratings(GROUP, "durak")} == {"u2": 2}

    # /stats on: rated again from the next game
    assert "снова" in (await command(bot, anya, anya, "/stats on")).text
    assert "нет партий" in (await command(bot, anya, anya, "/stats")).text
    assert "/stats off" in (await command(bot, anya, anya, "/stats nonsense")).text


async def test_computers_have_a_rating_per_level(bot, fake_telegram):
    anya, boris = people(fake_telegram, 2)
    table, result = await play_durak(bot, [anya, boris], computers=1)
    rows = await bot.repo.top_ratings(GROUP, "durak")
    assert {r.player for r in rows} == {"u1", "u2", "cpu:easy"}
    # the first out of cards (durak: the order of finishing) is the one winner
    game = get_game("durak")
    state = game.initial_state(game.Options(**table.options), 3)
    first: list[int] = []
    for row in await bot.repo.load_actions(table.id):
        state, events = game.apply(state, row.seat, row.action)
        first = first or [e["seat"] for e in events if e["type"] == "finished"]
    if "durak" in result:
        keys = ["u1", "u2", "cpu:easy"]
        assert {r.player for r in rows if r.wins} == {keys[s] for s in first}
    assert "🤖 Компьютер (лёгкий)" in (await command(bot, anya, GROUP, "/top")).text


@pytest.mark.parametrize("bot", ["http"], indirect=True)
async def test_history_button_sends_a_record_cardbot_replay_reads(bot, fake_telegram, tmp_path):
    fake = fake_telegram
    anya, boris = people(fake, 2)
    assert "нет доигранных" in (await command(bot, anya, GROUP, "/history")).text
    table, result = await play_durak(bot, [anya, boris])

    listing = await command(bot, boris, GROUP, "/history")
    assert "Последние партии" in listing.text and "Дурак" in listing.text and "Аня, Борис" in listing.text
    assert ("ничья" in listing.text) or ("дурак: " in listing.text)
    before = len(fake.messages(GROUP))
    # after a game the group may be in Telegram's flood wait: the files wait, never lost
    fake.fail_next("sendDocument", retry_after=12, chat_id=GROUP)
    answer = await bot.press(boris, listing, "📄 1")
    assert answer.text == "Отправляю запись…"
    documents = [m for m in fake.messages(GROUP)[before:] if m.document]
    names = [d.document["file_name"] for d in documents]
    assert names == [f"durak-{table.id}-1.json", f"durak-{table.id}-1.txt"]
    refused, *sent = fake.calls("sendDocument", chat_id=GROUP)
    assert not refused.ok and sent[0].ok and sent[0].t >= refused.t + 12

    record = json.loads(documents[0].document["content"])
    assert bot.http.served["sendDocument"] == len(documents) + 1  # uploads over HTTP (one refused)
    assert replay(record)["result"] == result  # the record is the game, move for move
    path = tmp_path / "game.json"
    path.write_bytes(documents[0].document["content"])
    assert cardbot(["replay", str(path)]) == 0
    summary = documents[1].document["content"].decode("utf-8")
    assert "Аня" in summary and "<b>" not in summary

    # pressed again at once: the files are above already, nothing is sent twice
    count = len(fake.messages(GROUP))
    assert "только что" in (await bot.press(anya, listing, "📄 1")).text
    assert len(fake.messages(GROUP)) == count

    # a forged or foreign game id changes nothing
    assert (await bot.press_raw(boris, GROUP, listing.message_id, "h:999999")).text == "Эта партия уже стёрта."
    fake.group(-2002, "Другая", admins=[2], supergroup=True)
    other = await command(bot, boris, -2002, "/history")
    assert "нет доигранных" in other.text
    assert "другом чате" in (await bot.press_raw(boris, -2002, other.message_id, fake.buttons(listing)[0][1])).text


async def test_forget_needs_an_admin_and_a_confirmation(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = people(fake, 2)  # Аня is the group's admin
    table, _ = await play_durak(bot, [anya, boris])
    await bot.press(anya, with_button(fake, "Закрыть"), "Закрыть")  # the table closes: its log may go too

    assert "только администратор" in (await command(bot, boris, GROUP, "/forget")).text
    confirm = await command(bot, anya, GROUP, "/forget")
    assert "Стереть все" in confirm.text
    # a non-admin cannot press it for her
    refused = await bot.press(boris, confirm, "🗑 Да, стереть")
    assert "только администратор" in refused.text
    assert len(await bot.repo.finished_games(GROUP)) == 1

    for forged in ("fg:", "fg:-", "fg:١", "h:", "h:²", f"fg:{GROUP}0", ""):
        answer = await bot.press_raw(anya, GROUP, confirm.message_id, forged)
        assert answer.text in ("Неизвестная кнопка.", "Эта кнопка — от стола в другом чате."), forged
    assert len(await bot.repo.finished_games(GROUP)) == 1

    answer = await bot.press(anya, confirm, "🗑 Да, стереть")
    assert answer.text == "Стёрто."
    assert "Стёрто: 1 сыгранная партия" in fake.msgs[GROUP][confirm.message_id].text
    assert await bot.repo.finished_games(GROUP) == [] and await bot.repo.top_ratings(GROUP, "durak") == []
    assert await bot.repo.get_table(table.id) is None  # the closed table and its action log
    assert "нет доигранных" in (await command(bot, anya, GROUP, "/history")).text
    assert "нет партий" in (await command(bot, anya, GROUP, "/top")).text
    # in a private chat there is nothing to forget
    assert "работает в группе" in (await command(bot, anya, anya, "/forget")).text


@pytest.mark.parametrize("bot", ["http"], indirect=True)
async def test_bridge_history_sends_the_pbn_too_and_rates_partnerships(bot, fake_telegram):
    from tests.test_e2e_bridge import passive

    fake = fake_telegram
    anya = fake.user(1, "Аня")
    table = await open_table(bot, GROUP, anya, [], computers=3, command="/bridge")
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    await bot.play(table.id, [anya], choose=passive, max_moves=4000)
    row, state = await bot.state(table.id)
    assert row.status == "between"
    result = get_game("bridge").result(state)

    # Аня (North) and her partner (South, a computer) move together against East-West
    rows = {r.player: r for r in await bot.repo.top_ratings(GROUP, "bridge")}
    assert set(rows) == {"u1", "cpu:easy"} and rows["u1"].games == 1 and rows["cpu:easy"].games == 1
    assert rows["u1"].wins == (1 if result["winner"] == "NS" else 0)

    listing = await command(bot, anya, GROUP, "/history")
    assert "Бридж" in listing.text and "Аня, 🤖 Маша, 🤖 Петя, 🤖 Катя" in listing.text
    assert ("победа: Аня, 🤖 Петя" in listing.text) == (result["winner"] == "NS")
    before = len(fake.messages(GROUP))
    await bot.press(anya, listing, "📄 1")
    documents = {m.document["file_name"]: m.document["content"] for m in fake.messages(GROUP)[before:] if m.document}
    stem = f"bridge-{table.id}-1"
    assert set(documents) == {f"{stem}.json", f"{stem}.txt", f"{stem}.pbn"}
    assert replay(json.loads(documents[f"{stem}.json"]))["result"] == result
    pbn = documents[f"{stem}.pbn"].decode("utf-8")
    assert pbn.count("[Board ") == len(state.boards) and '[North "Аня"]' in pbn


async def test_a_forfeit_is_a_loss_and_a_table_closed_mid_game_is_not_rated(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = people(fake, 2)
    await open_table(bot, GROUP, anya, [boris])
    await bot.press(anya, await bot.table_message(GROUP), "без таймера")  # -> 1 min, the idle player loses
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    table = await bot.table(GROUP)
    _, state = await bot.state(table.id)
    seats = sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)
    idle = seats[get_game("durak").to_act(state)[0]]
    await bot.tick(46)
    await bot.tick(20)  # the minute ran out: a forfeit
    assert (await bot.repo.get_table(table.id)).status == "between"
    rows = {r.player: r for r in await bot.repo.top_ratings(GROUP, "durak")}
    left, stayed = f"u{idle.user_id}", f"u{(boris if idle.user_id == anya.id else anya).id}"
    assert rows[left].wins == 0 and rows[stayed].wins == 1
    assert rows[stayed].mu > rows[left].mu
    assert "время вышло" in (await command(bot, anya, GROUP, "/history")).text

    # the next table is closed before its game ends: not rated, not in the history
    await bot.press(anya, with_button(fake, "Закрыть"), "Закрыть")
    await open_table(bot, GROUP, anya, [boris])
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    await command(bot, anya, GROUP, "/cancel")
    assert await bot.repo.find_open_table(GROUP, 0) is None
    assert len(await bot.repo.finished_games(GROUP)) == 1
    assert {r.player: r.games for r in await bot.repo.top_ratings(GROUP, "durak")} == {left: 1, stayed: 1}


async def test_names_with_html_are_shown_as_written(bot, fake_telegram):
    fake = fake_telegram
    tom, anya = fake.user(1, "Том & <b>Джерри</b>"), fake.user(2, "Аня")
    await play_durak(bot, [tom, anya])
    for text in ("/top", "/history"):
        shown = (await command(bot, tom, GROUP, text)).text
        assert "Том & <b>Джерри</b>" in shown  # the fake parsed the HTML: the name came out escaped
    assert "Кухня" in (await command(bot, tom, tom, "/stats")).text
