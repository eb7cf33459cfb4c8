"""Russian preferans through the real Application and the fake Bot API: a whole pulka with
computers to the settlement, the /preferans chooser that the group's choice answers next
time, /sochi /leningrad /rostov, refused wrong/stale/foreign buttons, and the group never
seeing a hidden card (every settle() runs the leak check of tests/e2e.py as well)."""

from __future__ import annotations

import random
from typing import Any

from bot.screens import move_key
from engine.base import get_game
from engine.cards import label
from engine.games.preferans_ru import ai
from engine.games.preferans_ru.scoring import parse_fnum
from tests.e2e import CARD_LABEL, open_table

GROUP = -1001
OTHER_GROUP = -1002
G = get_game("preferans_ru")


def easy(view: dict, legal: list[str], rng: random.Random) -> str:
    return ai.computer_action(view, legal, rng, level="easy")


def people(fake, n: int, lang: str = "ru") -> list:
    names = ["Аня", "Борис", "Вера"]
    return [fake.user(i + 1, names[i], language_code=lang) for i in range(n)]


async def small_pool(bot, table_id: int, pool: int) -> None:
    """A short pulka for the test: the lobby offers pools of 10 and up."""
    table = await bot.repo.get_table(table_id)
    await bot.repo.update_table(table_id, options={**table.options, "pool": pool})


async def press_as(bot, table_id, users, pick, watch=None, max_moves=3000, seed=1) -> int:
    """The person whose turn it is presses the DM button that carries ``pick``'s action."""
    rng = random.Random(seed)
    by_id = {u.id: u for u in users}
    for moves in range(max_moves):
        table, state = await bot.state(table_id)
        if table.status != "playing":
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
        text = next(t for t, d in buttons if d == data)
        if action.startswith(("play ", "discard ")):
            assert CARD_LABEL.fullmatch(text)
        if watch:
            await watch(state)
        answer = await bot.fake.press(bot.app, user, message, callback_data=data)
        assert answer is None or not answer.show_alert, answer
        bot.clock.advance(3.0)
        await bot.settle()
    raise AssertionError("the pulka did not end")


def sheet_posts(fake) -> list:
    return [m for m in fake.messages(GROUP) if "Пулька ·" in m.text]


async def test_whole_pulka_with_computers_to_the_settlement(bot, fake_telegram) -> None:
    fake = fake_telegram
    anya, boris = people(fake, 2)
    table = await open_table(bot, GROUP, anya, [boris], computers=1, command="/sochi")
    assert table.game == "preferans_ru" and table.options["system"] == "sochi"
    await small_pool(bot, table.id, 4)
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")
    group = await bot.table_message(GROUP)
    assert "Раздача 1" in group.text and "🂠 🂠" in group.text
    assert "Ваши карты" in (await bot.hand_message(table.id, anya)).text

    seen: dict[str, bool] = {"auction": False, "contract": False, "whist": False, "tricks": False, "talon": False}

    async def watch(state: Any) -> None:
        text = (await bot.table_message(GROUP)).text
        seen["auction"] |= "Торговля:" in text
        seen["contract"] |= "Играет" in text or "Мизер" in text
        seen["whist"] |= "Висты:" in text
        seen["tricks"] |= "Взятки:" in text
        if state.phase == "auction":  # the talon lies face down until it is taken
            assert "🂠 🂠" in text and not {label(c) for c in state.talon} & set(CARD_LABEL.findall(text))
        if state.talon_public and state.phase in ("discard", "contract", "whist"):
            seen["talon"] |= all(label(c) in text for c in state.talon)

    def policy(view: dict, legal: list[str], rng: random.Random) -> str:
        # bid and whist now and then so that the group sees contracts and whist decisions
        if view["phase"] == "auction" and view["high"] is None and legal[0].startswith("bid") and rng.random() < 0.3:
            return legal[0]
        if view["phase"] == "whist" and rng.random() < 0.5:
            return "whist"
        return easy(view, legal, rng)

    moves = await press_as(bot, table.id, [anya, boris], policy, watch=watch)
    assert moves > 10 and all(seen.values()), seen
    row, state = await bot.state(table.id)
    assert row.status == "between"
    result = G.result(state)
    assert result["finished"] and sum(parse_fnum(x) for x in result["settlement"]) == 0
    # the пулька after every deal, the settlement with the last one
    posts = sheet_posts(fake)
    assert len(posts) == state.hand_no
    last = posts[-1]
    assert "Пулька закрыта. Итог:" in last.text and "Итог в вистах:" in last.text
    assert "<pre>" in last.history[-1].raw_text
    for name in ["Аня", "Борис", "🤖 Маша"]:
        assert name in last.text
    assert any(t == "🔁 Ещё партию" for t, _ in fake.buttons(last))
    # the pulka replays from its log
    again = G.initial_state(G.Options(**row.options), 3)
    for action in await bot.repo.load_actions(table.id):
        again, _ = G.apply(again, action.seat, action.action)
    assert G.dump(again) == G.dump(state)


async def test_preferans_asks_once_and_remembers_the_group_s_choice(bot, fake_telegram) -> None:
    fake = fake_telegram
    (anya,) = people(fake, 1)
    await bot.send(anya, GROUP, "/preferans")
    chooser = fake.last_message(GROUP)
    assert [t for t, _ in fake.buttons(chooser)] == ["Сочи", "Ленинград", "Ростов", "Балканский"]
    assert await bot.repo.find_open_table(GROUP, 0) is None
    await bot.press(anya, chooser, "Ленинград")
    table = await bot.table(GROUP)
    assert table.game == "preferans_ru" and table.options["system"] == "leningrad"
    assert table.options["pool_point"] == 20 and list(table.options["raspasy_exit"]) == [6, 7, 8]
    assert "Ленинград" in (await bot.table_message(GROUP)).text
    await bot.send(anya, GROUP, "/cancel")
    await bot.settle()
    count = len(fake.messages(GROUP))
    bot.clock.advance(10)  # the same command again within seconds is answered once (command_gate)
    await bot.send(anya, GROUP, "/preferans")  # no question the second time
    table = await bot.table(GROUP)
    assert table.game == "preferans_ru" and table.options["system"] == "leningrad"
    assert not any("Какой преферанс" in m.text for m in fake.messages(GROUP)[count:])
    bot.clock.advance(10)
    await bot.send(anya, GROUP, "/cancel")
    for word, system in (("rostov", "rostov"), ("sochi", "sochi")):
        bot.clock.advance(10)
        await bot.send(anya, GROUP, f"/{word}")
        table = await bot.table(GROUP)
        assert table.game == "preferans_ru" and table.options["system"] == system
        bot.clock.advance(10)
        await bot.send(anya, GROUP, "/cancel")
    # another group chooses Balkan preferans, and gets it next time
    fake.group(OTHER_GROUP, "Клуб", admins=[1], supergroup=True)
    await bot.send(anya, OTHER_GROUP, "/preferans")
    await bot.press(anya, fake.last_message(OTHER_GROUP), "Балканский")
    assert (await bot.table(OTHER_GROUP)).game == "preferans"
    await bot.send(anya, OTHER_GROUP, "/cancel")
    bot.clock.advance(10)
    await bot.send(anya, OTHER_GROUP, "/preferans")
    assert (await bot.table(OTHER_GROUP)).game == "preferans"


async def test_lobby_system_switch_keeps_the_play_switches(bot, fake_telegram) -> None:
    fake = fake_telegram
    (anya,) = people(fake, 1)
    table = await open_table(bot, GROUP, anya, [], command="/sochi")
    await bot.press(anya, await bot.table_message(GROUP), "✗ «здесь»")
    await bot.press(anya, await bot.table_message(GROUP), "Сочи")
    table = await bot.table(GROUP)
    assert table.options["system"] == "leningrad" and table.options["here"] is True
    assert table.options["whist_factor"] == 2


async def test_rules_and_help(bot, fake_telegram) -> None:
    fake = fake_telegram
    (anya,) = people(fake, 1)
    await bot.send(anya, GROUP, "/rules sochi")
    assert "Преферанс (Сочи, Ленинград, Ростов)" in fake.last_message(GROUP).text
    await bot.send(anya, GROUP, "/help")
    assert "/sochi" in fake.last_message(GROUP).text
    await bot.send(anya, GROUP, "/language en")
    await bot.send(anya, GROUP, "/rules leningrad")
    assert "Russian preferans (Sochi, Leningrad, Rostov)" in fake.last_message(GROUP).text


async def test_wrong_stale_and_foreign_buttons_change_nothing(bot, fake_telegram) -> None:
    fake = fake_telegram
    anya, boris = people(fake, 2)
    table = await open_table(bot, GROUP, anya, [boris], computers=1, command="/rostov")
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")
    row, state = await bot.state(table.id)
    seats = sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)
    by_seat = {s.seat: s for s in seats}
    people_by_id = {anya.id: anya, boris.id: boris}
    mover = people_by_id[by_seat[G.to_act(state)[0]].user_id]
    waiter = boris if mover is anya else anya
    before = await bot.actions(table.id)
    version = row.version

    async def refused(user, data: str) -> None:
        message = await bot.hand_message(table.id, user)
        answer = await bot.press_raw(user, user.id, message.message_id, data)
        assert answer is not None and answer.text, data
        assert await bot.actions(table.id) == before and (await bot.table(GROUP)).version == version

    await refused(waiter, f"a:{table.id}:{version}:{move_key('pass')}")  # not his turn
    await refused(mover, f"a:{table.id}:{version}:{move_key('play AS')}")  # not a legal action now
    await refused(mover, f"a:{table.id}:{version}:../x")  # garbage
    gosha = fake.user(9, "Гоша", language_code="ru")
    group = await bot.table_message(GROUP)
    answer = await bot.press_raw(gosha, GROUP, group.message_id, f"a:{table.id}:{version}:{move_key('pass')}")
    assert answer is not None and answer.text  # a stranger, and not from his own DM
    assert await bot.actions(table.id) == before
    # the right press works once; pressed again it is stale (this seat has acted since)
    message = await bot.hand_message(table.id, mover)
    data = f"a:{table.id}:{version}:{move_key('pass')}"
    answer = await bot.press_raw(mover, mover.id, message.message_id, data)
    assert answer is None or not answer.text
    after = await bot.actions(table.id)
    assert after[len(before)] == "pass"
    before = after
    version = (await bot.table(GROUP)).version
    answer = await bot.press_raw(mover, mover.id, message.message_id, data)
    assert answer is not None and answer.text == "Кнопка устарела — сообщение обновлено."
    assert await bot.actions(table.id) == before and (await bot.table(GROUP)).version == version


async def test_four_players_the_dealer_sits_out(bot, fake_telegram) -> None:
    fake = fake_telegram
    anya, boris = people(fake, 2)
    table = await open_table(bot, GROUP, anya, [boris], computers=2, command="/leningrad")
    await small_pool(bot, table.id, 2)
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")
    _, state = await bot.state(table.id)
    assert state.players == 4 and "не играет" in (await bot.table_message(GROUP)).text
    seen: set[int] = set()

    async def watch(state: Any) -> None:
        # a person who deals sits the deal out: his DM says so and offers nothing
        for user, seat in ((anya, 0), (boris, 1)):
            if state.dealer == seat and state.phase == "auction":
                message = await bot.hand_message(table.id, user)
                # no move to make; the last deal's 🔍 at most
                assert "не играете" in message.text
                assert all(data.startswith("d:") for _, data in fake.buttons(message))
                seen.add(seat)

    await press_as(bot, table.id, [anya, boris], easy, watch=watch)
    row, state = await bot.state(table.id)
    assert row.status == "between" and G.result(state)["finished"]
    assert len(G.result(state)["settlement"]) == 4 and sum(parse_fnum(x) for x in G.result(state)["settlement"]) == 0
    assert len(sheet_posts(fake)) == state.hand_no


async def test_the_group_sees_open_whisting_after_the_lead_and_never_closed_hands(bot, fake_telegram) -> None:
    fake = fake_telegram
    anya, boris = people(fake, 2)
    table = await open_table(bot, GROUP, anya, [boris], computers=1, command="/sochi")
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")
    seen = {"open": False, "closed": False}

    async def watch(state: Any) -> None:
        text = (await bot.table_message(GROUP)).text
        shown = set(CARD_LABEL.findall(text))
        for x in state.active:
            if x == state.declarer or not (state.phase == "play" and state.lone is not None):
                continue
            hand = {label(c) for c in state.hands[x]}
            if state.open and state.opened:  # в светлую, after the lead: both defenders' hands
                assert hand <= shown, (x, text)
                seen["open"] = True
            elif hand:  # closed, or before the lead: none of their cards but what was played
                played = {label(c) for _, c in state.trick} | {label(c) for tr in state.played[-1:] for _, c in tr}
                assert not (hand & shown) - played, (x, text)
                seen["closed"] |= state.open is False

    def policy(view: dict, legal: list[str], rng: random.Random) -> str:
        # people bid a six when they can; the first defender whists, the second passes,
        # and a lone whister plays open or closed by turns
        if view["phase"] == "auction" and view["high"] is None and legal[0].startswith("bid 6"):
            return legal[0]
        if view["phase"] == "whist":
            return "whist" if view["whist_stage"] == "first" else "pass"
        if view["phase"] == "open_choice":
            return "open" if view["hand_no"] % 2 else "closed"
        return easy(view, legal, rng)

    async def enough() -> bool:
        return seen["open"] and seen["closed"]

    rng = random.Random(3)
    by_id = {anya.id: anya, boris.id: boris}
    for _ in range(3000):
        if await enough():
            break
        row, state = await bot.state(table.id)
        assert row.status == "playing", "the pulka ended before both kinds of lone whist were seen"
        seats = sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)
        seat = G.to_act(state)[0]
        user = by_id[seats[seat].user_id]
        await watch(state)
        action = policy(G.view(state, seat), G.legal_actions(state, seat), rng)
        message = await bot.hand_message(table.id, user)
        await bot.fake.press(bot.app, user, message, callback_data=f"a:{table.id}:{row.version}:{move_key(action)}")
        bot.clock.advance(3.0)
        await bot.settle()
    assert await enough(), seen
