"""Whole Тысяча games through the real Application and the fake Bot API, pressing buttons
as users do: /thousand, the lobby option, the auction, the прикуп, the two gifts, the
contract, the play with marriages, the sheet after every deal, the result, /history and
the 🔍 deal record; a timer forfeit. Every settle() also runs the leak check of
tests/e2e.py: no card reaches a chat whose reader may not see it (the прикуп before the
auction ends, a gift outside giver and receiver, another player's hand)."""

from __future__ import annotations

import random

from bot.game_registry import all_uis
from engine.base import get_game
from bot.screens import move_key
from engine.games.thousand import ai_easy as easy
from tests.e2e import open_table

all_uis()
from bot.games.thousand.ui import action_label  # noqa: E402

GROUP = -1001
G = get_game("thousand")


def people(fake, n, lang="ru"):
    names = ["Аня", "Борис", "Вера", "Гоша"]
    return [fake.user(i + 1, names[i], language_code=lang) for i in range(n)]


def sheets(fake):
    return [m for m in fake.messages(GROUP) if m.text.startswith("📋")]


class Watcher:
    """Before every press: whoever acts has exactly the legal moves as buttons, nobody
    else has a move button, the прикуп is in the group only once the auction is over. It
    also picks the move the acting person makes next: the easy computer's choice from
    that person's own view, so games run as people play them (random play rarely ends)."""

    def __init__(self, bot, table_id, users, seed=1):
        self.bot, self.table_id, self.users = bot, table_id, users
        self.rng = random.Random(seed)
        self.phases: set[str] = set()
        self.gift_texts: list[str] = []
        self.next_move = ""

    async def __call__(self) -> bool:
        bot = self.bot
        _, state = await bot.state(self.table_id)
        seats = sorted(await bot.repo.get_seats(self.table_id), key=lambda s: s.seat)
        names = [s.name for s in seats]
        self.phases.add(state.phase)
        group = await bot.table_message(GROUP)
        if state.phase == "bid":
            assert "Прикуп" not in group.text
        elif state.phase in ("give", "raise", "play"):
            assert "Прикуп:" in group.text
        for user in self.users:
            seat = next(s.seat for s in seats if s.user_id == user.id)
            hand = await bot.hand_message(self.table_id, user)
            labels = sorted(text for text, data in bot.fake.buttons(hand) if data.startswith("a:"))
            legal = G.legal_actions(state, seat)
            assert labels == sorted(action_label(a, names, "ru") for a in legal), (labels, legal)
            if state.phase == "raise" and seat == state.declarer:
                self.gift_texts.append(hand.text)
            if legal:
                self.next_move = easy.computer_action(G.view(state, seat), legal, self.rng)
        return False

    def choose(self, user, buttons, rng):
        key = move_key(self.next_move)
        return next(data for _, data in buttons if data.endswith(key))


async def test_three_people_play_a_whole_game(bot, fake_telegram):
    fake = fake_telegram
    anya, boris, vera = users = people(fake, 3)
    table = await open_table(bot, GROUP, anya, [boris, vera], command="/thousand")
    lobby = await bot.table_message(GROUP)
    assert "Тысяча" in lobby.text
    await bot.press(anya, lobby, "до 1000")  # -> to 500: a shorter game, the same rules
    answer = await bot.press(anya, await bot.table_message(GROUP), "Начать")
    assert answer.text.startswith("Игра началась")
    group = await bot.table_message(GROUP)
    assert "Раздача 1" in group.text and "Торгуется:" in group.text
    watch = Watcher(bot, table.id, users)
    presses = await bot.play(table.id, users, choose=watch.choose, until=watch, max_moves=3000)
    assert presses > 30
    row, state = await bot.state(table.id)
    assert row.status == "between"
    result = G.result(state)
    assert max(result["totals"]) >= 500 and "forfeit" not in result
    assert {"bid", "give", "raise", "play"} <= watch.phases
    # the declarer's screen after the gifts names what it gave and to whom
    assert any("Вы отдали" in text for text in watch.gift_texts)
    posts = sheets(fake)
    assert len(posts) == result["deals"] == len(state.entries)
    for k, post in enumerate(posts, start=1):
        assert post.text.startswith(f"📋 Раздача {k} сыграна") and "<pre>" in post.raw_text
    final = posts[-1]
    assert "Игра окончена" in final.text
    assert "🔍 Разбор сдачи" in [text for text, _ in fake.buttons(final)]
    # 🔍: the last deal's hands and play reach the presser's DM
    await bot.press(vera, final, "🔍 Разбор сдачи")
    record = fake.last_message(vera.id)
    assert record.text.startswith("🔍 Раздача") and "Прикуп:" in record.text
    # /history lists the game with its totals
    await bot.send(anya, GROUP, "/history")
    history = fake.last_message(GROUP).text
    assert "Тысяча" in history and str(max(result["totals"])) in history


async def test_one_person_and_two_computers_then_a_timer_forfeit(bot, fake_telegram):
    fake = fake_telegram
    (anya,) = people(fake, 1)
    table = await open_table(bot, GROUP, anya, [], computers=2, command="/thousand")
    await bot.press(anya, await bot.table_message(GROUP), "без таймера")  # -> 1 minute a move
    await bot.press(anya, await bot.table_message(GROUP), "Начать")

    watch = Watcher(bot, table.id, [anya])

    async def until():
        await watch()
        _, state = await bot.state(table.id)
        return state.deal_no >= 3

    await bot.play(table.id, [anya], choose=watch.choose, until=until)
    assert len(sheets(fake)) == 2
    await bot.tick(61)
    row, state = await bot.state(table.id)
    assert row.status == "between"
    seat = next(s.seat for s in await bot.repo.get_seats(table.id) if s.user_id == anya.id)
    result = G.result(state)
    assert result["forfeit"] == seat
    assert (await bot.actions(table.id))[-1] == f"forfeit {seat}"
    final = fake.last_message(GROUP)
    assert "Игра окончена" in final.text and "<pre>" in final.raw_text


async def test_english_table_and_rules(bot, fake_telegram):
    fake = fake_telegram
    (anya,) = people(fake, 1, lang="en")
    await bot.send(anya, GROUP, "/language")
    await bot.press(anya, fake.last_message(GROUP), lambda text: "English" in text)
    await open_table(bot, GROUP, anya, [], computers=2, command="/thousand")
    await bot.press(anya, await bot.table_message(GROUP), "Start")
    group = await bot.table_message(GROUP)
    assert "Deal 1" in group.text
    await bot.send(anya, GROUP, "/rules thousand")
    assert "Thousand (1000)" in fake.last_message(GROUP).text


async def test_four_people_the_dealer_sits_each_deal_out(bot, fake_telegram):
    fake = fake_telegram
    users = people(fake, 4)
    table = await open_table(bot, GROUP, users[0], users[1:], command="/thousand")
    await bot.press(users[0], await bot.table_message(GROUP), "Начать")
    watch = Watcher(bot, table.id, users)
    sat_out = []

    async def until():
        await watch()
        _, state = await bot.state(table.id)
        seats = sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)
        dealer = next(u for u in users if u.id == seats[state.dealer].user_id)
        hand = await bot.hand_message(table.id, dealer)
        if state.phase == "bid":
            assert "Вы сдаёте и пропускаете эту раздачу" in hand.text and "Ваши карты" not in hand.text
            sat_out.append(state.dealer)
        return state.deal_no >= 3

    await bot.play(table.id, users, choose=watch.choose, until=until)
    assert set(sat_out) == {0, 1, 2}  # the deal and the seat out move round
    assert len(sheets(fake)) == 2
    group = await bot.table_message(GROUP)
    assert "пропускает" in group.text
