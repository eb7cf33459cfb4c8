"""The score-only пулька of Russian preferans end to end: ``cardbot score`` on a §9 record
(docs/rules/preferans_ru.md §9), the ``preferans_ru_score`` wizard (only valid choices, the
worked example, undo, 4 players) and ``/score sochi|leningrad|rostov`` through the fake Bot API."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from engine.base import get_game
from engine.errors import EngineError
from engine.games.preferans_ru.record import score, text
from tests.e2e import open_table
from tests.test_preferans_ru_scoring import EXAMPLE, SPEC_RECORD, TOTALS

S = get_game("preferans_ru_score")
GROUP = -1001


# ------------------------------------------------------------------------------ cardbot score
def test_cli_score_json_text_and_a_bad_record(tmp_path, capsys):
    path = tmp_path / "pulka.json"
    path.write_text(json.dumps(SPEC_RECORD), encoding="utf-8")
    assert main(["score", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["settlement"] == {"A": 20, "B": 66, "C": -86} and out["game"] == "preferans_ru"
    assert main(["score", "--text", "--lang", "ru", str(path)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("Пулька · Сочи · до 20 · раздача 4")
    assert all(len(line) <= 40 for line in printed.splitlines())
    bad = dict(
        SPEC_RECORD,
        hands=SPEC_RECORD["hands"] + [{"declarer": "A", "contract": "6S", "whist": {"B": "half", "C": "pass"}}],
    )
    path.write_text(json.dumps(bad), encoding="utf-8")
    assert main(["score", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "entry 5" in captured.err and "cannot say half" in captured.err


# ------------------------------------------------------------------------------ the wizard
def started(players=3, **options):
    s = S.initial_state(S.Options(**options), players)
    s, _ = S.apply(s, None, "start")
    return s


def step(s, action, seat=0):
    legal = S.legal_actions(s, seat)
    assert action in legal, (action, legal)
    assert all(S.legal_actions(s, x) == legal for x in range(s.players))
    return S.apply(s, seat, action)


def enter(s, hand, seat=0):
    """Press the wizard's steps for one §9 hand."""
    events = []

    def go(action):
        nonlocal s
        s, ev = step(s, action, seat)
        events.extend(ev)

    view = S.view(s, None)
    if hand.get("all_pass"):
        go("allpass")
        order = view["active"]
    else:
        go(f"declarer {hand['declarer']}")
        go(f"contract {hand['contract']}")
        first, second = S.view(s, None)["defenders"]
        order = [hand["declarer"], first, second]
        whist = hand.get("whist", {})
        if whist:
            go(f"first {'pass' if whist[first] == 'half' else whist[first]}")
            go(f"second {whist[second]}")
            if whist[second] == "half":
                go("again pass")
    if hand.get("tricks"):
        for who in order[:2]:
            go(f"tricks {hand['tricks'][who]}")
    go("confirm")
    return s, events


@pytest.mark.parametrize("system", ["sochi", "leningrad", "rostov"])
def test_wizard_reproduces_the_worked_example(system):
    s = started(system=system, pool=10)
    for hand in EXAMPLE:
        s, events = enter(s, hand)
        assert any(e["type"] == "deal_scored" for e in events)
    view = S.view(s, None)
    assert view["settlement"] == TOTALS[system][2]
    assert view["record"]["hands"] == [dict(h, tricks=h.get("tricks")) for h in EXAMPLE]
    assert S.is_over(s) and S.result(s)["finished"] and S.legal_actions(s, 0) == []
    with pytest.raises(EngineError):
        S.apply(s, 0, "allpass")
    # the same sheet as cardbot score, and the state survives a dump
    assert score(view["record"])["settlement"] == view["settlement"]
    assert S.view(S.load(json.loads(json.dumps(S.dump(s)))), None) == view


def test_wizard_offers_only_valid_choices():
    s = started()
    assert S.legal_actions(s, 0) == ["declarer A", "declarer B", "declarer C", "allpass"]
    s, _ = step(s, "declarer B")
    assert len(S.legal_actions(s, 0)) == 27  # 25 games, мизер, cancel
    s, _ = step(s, "contract 8D")
    assert S.legal_actions(s, 1) == ["first whist", "first pass", "cancel"]
    s, _ = step(s, "first pass")
    assert "second half" not in S.legal_actions(s, 1)  # half only on 6 and 7
    s, _ = step(s, "cancel")
    s, _ = step(s, "declarer B")
    s, _ = step(s, "contract 7NT")
    s, _ = step(s, "first whist")
    assert "second half" not in S.legal_actions(s, 0)  # not after a whist
    s, _ = step(s, "second pass")
    s, _ = step(s, "tricks 7")
    assert S.legal_actions(s, 0)[-2:] == ["tricks 3", "cancel"]  # the defenders share the rest
    s, _ = step(s, "tricks 2")
    assert S.view(s, None)["pending"]["tricks"] == {"B": 7, "C": 2, "A": 1}
    s, _ = step(s, "confirm")
    with pytest.raises(EngineError):
        S.apply(s, 0, "tricks 11")
    with pytest.raises(EngineError):
        S.apply(s, 0, "flop")
    with pytest.raises(EngineError):
        S.apply(s, 0, "start")
    # undo strikes out the hand
    s, events = step(s, "undo")
    assert [e["type"] for e in events][0] == "entry_undone" and S.view(s, None)["entries"] == 0


def test_half_whist_then_the_first_plays_alone():
    s = started()
    s, _ = step(s, "declarer A")
    s, _ = step(s, "contract 6H")
    s, _ = step(s, "first pass")
    s, _ = step(s, "second half")
    s, _ = step(s, "again whist")  # B whists alone after C's half: C counts as passed
    s, _ = step(s, "tricks 6")
    s, _ = step(s, "tricks 4")
    s, _ = step(s, "confirm")
    assert S.view(s, None)["record"]["hands"][0]["whist"] == {"B": "whist", "C": "pass"}


def test_four_players_the_dealer_sits_out():
    s = started(players=4)
    view = S.view(s, None)
    assert view["dealer"] == "D" and view["active"] == ["A", "B", "C"]
    assert "declarer D" not in S.legal_actions(s, 3)
    s, _ = enter(s, {"all_pass": True, "tricks": {"A": 0, "B": 4, "C": 6}}, seat=3)
    view = S.view(s, None)
    assert view["dealer"] == "A" and view["active"] == ["B", "C", "D"]
    assert view["record"]["hands"][0]["dealer"] == "D"
    assert view["sheet"]["pool"] == {"A": 1, "B": 0, "C": 0, "D": 0}


# ------------------------------------------------------------------------------ /score in a group
def people(fake, n):
    names = ["Аня", "Борис", "Вера", "Гриша"]
    return [fake.user(i + 1, names[i], language_code="ru") for i in range(n)]


async def press(bot, user, label):
    message = await bot.table_message(GROUP)
    answer = await bot.press(user, message, lambda text: text == label)
    assert answer is None or not answer.show_alert, answer
    bot.clock.advance(3.0)


def sheet_posts(fake):
    """The posted sheets (the table message shows the sheet too, after its header)."""
    return [m for m in fake.messages(GROUP) if m.text.startswith("Пулька ·")]


async def test_score_sochi_by_buttons(bot, fake_telegram):
    fake = fake_telegram
    anya, boris, vera = people(fake, 3)
    table = await open_table(bot, GROUP, anya, [boris, vera], command="/score sochi")
    lobby = await bot.table_message(GROUP)
    assert "Запись пульки" in lobby.text and "Сочи" in lobby.text
    assert not any("Компьютер" in t for t, _ in fake.buttons(lobby))
    await bot.press(anya, lobby, "▶️ Начать")
    group = await bot.table_message(GROUP)
    assert "кто играл" in group.text
    assert [t for t, _ in fake.buttons(group)] == ["Аня", "Борис", "Вера", "Распасы"]
    # §9's example, pressed by different people: A = Аня, B = Борис, C = Вера
    steps = [
        (vera, "Аня"), (anya, "7 ♥"), (boris, "Вист"), (vera, "Пас"), (anya, "6"), (boris, "3"),
        (anya, "✅ Записать"),
        (boris, "Распасы"), (anya, "4"), (boris, "6"), (vera, "✅ Записать"),  # Борис is first hand
        (vera, "Вера"), (vera, "Мизер"), (vera, "1"), (anya, "5"), (vera, "✅ Записать"),
        (boris, "Борис"), (boris, "6 ♠"), (vera, "Пас"), (anya, "Полвиста"), (vera, "Пас"),
        (boris, "✅ Записать"),
    ]  # fmt: skip
    for user, label in steps:
        await press(bot, user, label)
    posts = sheet_posts(fake)
    assert len(posts) == 4
    assert "4. Б 6 ♠ — полвиста А" in posts[-1].text
    assert "А +20 Б +66 В −86" in posts[-1].text
    # the posted sheet is exactly what cardbot score --text prints for the same record
    names = {"A": "Аня", "B": "Борис", "C": "Вера"}
    record = json.loads(json.dumps(SPEC_RECORD))
    raw = json.dumps(record)
    for letter, name in names.items():
        raw = raw.replace(f'"{letter}"', f'"{name}"')
    assert text(json.loads(raw), "ru") in posts[-1].text
    # a wrong hand, struck out
    for label in ["Вера", "6 ♣", "Пас", "Пас", "✅ Записать"]:
        await press(bot, anya, label)
    assert len(sheet_posts(fake)) == 5
    await press(bot, boris, "↩ Вычеркнуть последнюю")
    assert "вычеркнута" in (await bot.last_post(GROUP)).text
    _, state = await bot.state(table.id)
    assert len(state.hands) == 4
    # a stranger cannot enter anything
    gosha = fake.user(9, "Гоша", language_code="ru")
    before = await bot.actions(table.id)
    answer = await bot.press(gosha, await bot.table_message(GROUP), "Аня")
    assert answer.text == "Вы не сидите за этим столом." and await bot.actions(table.id) == before


async def test_score_leningrad_to_the_end(bot, fake_telegram):
    fake = fake_telegram
    anya, boris, vera = people(fake, 3)
    table = await open_table(bot, GROUP, anya, [boris, vera], command="/score leningrad")
    lobby = await bot.table_message(GROUP)
    assert "Ленинград" in lobby.text
    for _ in range(4):  # pool 20 -> 30 -> 40 -> 50 -> 10
        await bot.press(anya, await bot.table_message(GROUP), lambda t: t.startswith("пуля "))
    assert "пуля 10" in [t for t, _ in fake.buttons(await bot.table_message(GROUP))]
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")
    _, state = await bot.state(table.id)
    assert state.options.system == "leningrad" and state.options.pool_point == 20 and state.options.pool == 10
    for declarer in ["Аня", "Борис", "Вера"]:  # three 10s without whist close every pool of 10
        for label in [declarer, "10 БК", "Пас", "Пас", "✅ Записать"]:
            await press(bot, boris, label)
    row, state = await bot.state(table.id)
    assert row.status == "between" and state.result["finished"]
    last = fake.last_message(GROUP)
    assert "Пулька закрыта. Итог:" in last.text and "Итог в вистах:" in last.text


async def test_score_rostov_with_four_players(bot, fake_telegram):
    fake = fake_telegram
    anya, boris, vera, grisha = people(fake, 4)
    table = await open_table(bot, GROUP, anya, [boris, vera, grisha], command="/score rostov")
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")
    group = await bot.table_message(GROUP)
    assert "Сдаёт Гриша" in group.text
    assert [t for t, _ in fake.buttons(group)] == ["Аня", "Борис", "Вера", "Распасы"]
    for user, label in [(grisha, "Распасы"), (grisha, "0"), (grisha, "4"), (grisha, "✅ Записать")]:
        await press(bot, user, label)
    post = sheet_posts(fake)[-1].text
    assert "Пулька · Ростов · до 20 · раздача 1" in post and "(сдаёт Г)" in post
    group = await bot.table_message(GROUP)
    assert "Сдаёт Аня" in group.text
    _, state = await bot.state(table.id)
    assert state.played.sheet.whists["A"] == {"B": 20, "C": 30, "D": 0}


def test_lobby_options_switch_the_whole_preset():
    from bot.games.preferans_ru.score import next_option

    options = S.Options(system="sochi", pool=30).model_dump(mode="json")
    leningrad = next_option(options, "system")
    assert leningrad["system"] == "leningrad" and leningrad["pool_point"] == 20 and leningrad["pool"] == 30
    rostov = next_option(leningrad, "system")
    assert rostov["raspasy"] == "whists" and rostov["pool_point"] == 10 and rostov["raspasy_price"] == 5
    assert next_option(rostov, "system")["system"] == "sochi"
    assert next_option(options, "half_whist")["half_whist"] == [6]
    assert next_option(options, "pool_overflow")["pool_overflow"] == "mountain"
    assert next_option(options, "pool")["pool"] == 40
    with pytest.raises(KeyError):
        next_option(options, "bula")


async def test_score_preferans_ru_opens_sochi(bot, fake_telegram):
    anya, boris, vera = people(fake_telegram, 3)
    await open_table(bot, GROUP, anya, [boris, vera], command="/score preferans_ru")
    lobby = await bot.table_message(GROUP)
    assert "Запись пульки" in lobby.text and "Сочи, пуля до 20" in lobby.text
    await bot.press(anya, lobby, "Сочи")
    assert "Ленинград, пуля до 20" in (await bot.table_message(GROUP)).text
