"""Whole King games through the real Application and the fake Bot API, pressing buttons
as users do, with computer fillers. Every settle() also runs the leak check of
tests/e2e.py (no card reaches a chat whose reader may not see it)."""

from __future__ import annotations


from bot.game_registry import all_uis

from engine.base import get_game
from tests.e2e import open_table

all_uis()  # load every game's UI first: importing bot.games.king alone would register only King
from bot.games.king.ui import action_label  # noqa: E402

GROUP = -1001
G = get_game("king")
CHOICE_BUTTONS = ["♠ сразу", "♥ сразу", "♦ сразу", "♣ сразу", "до ♠", "до ♥", "до ♦", "до ♣", "до старшей"]


def people(fake, n, lang="ru"):
    names = ["Аня", "Борис", "Вера", "Гоша"]
    return [fake.user(i + 1, names[i], language_code=lang) for i in range(n)]


def sheets(fake):
    return [m for m in fake.messages(GROUP) if m.text.startswith("📋")]


def any_button(user, buttons, rng):
    """Any offered move: they are exactly the legal actions (checked in Watcher); the
    other buttons (📜 Tricks, 🔍 The last deal) only show something."""
    return rng.choice([b for b in buttons if b[1].startswith("a:")])[1]


class Watcher:
    """Called before every press (``until``): the actor's DM offers exactly the legal
    actions, nobody else has buttons, and the group message shows the deal."""

    def __init__(self, bot, table_id, users):
        self.bot, self.table_id, self.users = bot, table_id, users
        self.deals_seen: set[int] = set()
        self.choices: list[list[str]] = []
        self.group_texts: dict[str, str] = {}

    async def __call__(self) -> bool:
        bot = self.bot
        table, state = await bot.state(self.table_id)
        seats = sorted(await bot.repo.get_seats(self.table_id), key=lambda s: s.seat)
        view = G.view(state, None)
        group = await bot.table_message(GROUP)
        no = view["deal_no"]
        self.deals_seen.add(no)
        assert f"Кон {no}/12" in group.text
        self.group_texts.setdefault(view["phase"], group.text)
        for user in self.users:
            seat = next(s.seat for s in seats if s.user_id == user.id)
            hand = await bot.hand_message(self.table_id, user)
            labels = [text for text, data in bot.fake.buttons(hand) if data.startswith("a:")]
            legal = G.legal_actions(state, seat)
            assert labels == [action_label(a, "ru") for a in _button_order(legal)], (labels, legal)
            if view["phase"] == "choose" and legal:
                self.choices.append(labels)
                assert f"Назначает козыря: {user.first_name}" in group.text
                assert len(G.view(state, seat)["hand"]) == 3
        return False


def _button_order(legal):
    verbs = ["play", "name", "until"]
    return sorted(legal, key=lambda a: verbs.index(a.split()[0]) if a.split()[0] in verbs else 3)


async def test_whole_game_one_human_three_computers(bot, fake_telegram):
    fake = fake_telegram
    (anya,) = people(fake, 1)
    table = await open_table(bot, GROUP, anya, [], computers=3, command="/king")
    lobby = await bot.table_message(GROUP)
    assert "Кинг" in lobby.text and "🤖 Катя" in lobby.text  # the third computer
    answer = await bot.press(anya, lobby, "Начать")
    assert answer.text.startswith("Игра началась")
    group = await bot.table_message(GROUP)
    assert "Кон 1/12: Не брать взяток" in group.text and "за каждую взятку −2" in group.text
    watch = Watcher(bot, table.id, [anya])
    presses = await bot.play(table.id, [anya], choose=any_button, until=watch)
    assert presses >= 12 * 2
    row, state = await bot.state(table.id)
    assert row.status == "between"
    result = G.result(state)
    assert result["deals"] == 12 and "forfeit" not in result
    # every deal was shown, and Anya chose trumps once with all nine choices offered
    assert watch.deals_seen == set(range(1, 13))
    assert watch.choices == [CHOICE_BUTTONS]
    assert "Ряды:" in watch.group_texts["domino"] and "Сумма:" in watch.group_texts["count"]
    # the sheet after each deal: 12 posts, deal k shows k filled rows
    posts = sheets(fake)
    assert [p.text.splitlines()[0] for p in posts] == [
        f"📋 Кон {k} сыгран: {name}"
        for k, name in enumerate(
            [
                "Не брать взяток",
                "Не брать червей",
                "Не брать мальчиков",
                "Не брать дам",
                "Не брать двух последних",
                "Не брать кинга",
                "Очки (25–50–75–100)",
                "Домино с валетами",
            ]
            + ["Козырный кон"] * 4,
            start=1,
        )
    ]
    for k, post in enumerate(posts, start=1):
        assert "<pre>" in post.raw_text and "Итого" in post.text
        filled = [line for line in post.text.splitlines()[2:14] if len(line.split()) >= 8]
        assert len(filled) == k, post.text
    final = posts[-1]
    assert "Итог игры" in final.text
    totals = result["totals"]
    total_line = next(line for line in final.text.splitlines() if line.strip().startswith("Итого"))
    assert [int(x) for x in total_line.split()[1:]] == totals + [sum(totals)]
    assert sum(totals) in (0, -8, 16)
    # the last deal's 🔍 (bot.deal_view), then Rematch / Close
    assert [text for text, _ in fake.buttons(final)] == ["🔍 Разбор сдачи", "🔁 Ещё партию", "Закрыть стол"]
    # the group budget held at human pace
    stamps = [c.t for c in fake.group_sends_and_edits(GROUP)]
    assert max(sum(1 for s in stamps if t0 <= s < t0 + 60) for t0 in stamps) <= 20

    # a rematch starts a new 12-deal game with the same seats
    await bot.press(anya, final, "Ещё партию")
    row, state = await bot.state(table.id)
    assert row.status == "playing" and row.game_no == 2 and state.deal_no == 1


async def test_two_humans_play_a_few_deals(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = people(fake, 2)
    table = await open_table(bot, GROUP, anya, [boris], computers=2, command="/king")
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    watch = Watcher(bot, table.id, [anya, boris])

    async def until():
        await watch()
        _, state = await bot.state(table.id)
        return state.deal_no > 4

    await bot.play(table.id, [anya, boris], choose=any_button, until=until)
    assert watch.deals_seen == {1, 2, 3, 4, 5}
    posts = sheets(fake)
    assert len(posts) == 4 and "Кон 4 сыгран: Не брать дам" in posts[-1].text
    # both DMs show the deal and their own cards
    for user in (anya, boris):
        hand = await bot.hand_message(table.id, user)
        assert "Кон 5/12: Не брать двух последних" in hand.text and "Ваши карты:" in hand.text
    group = await bot.table_message(GROUP)
    assert "1. Аня" in group.text and "2. Борис" in group.text and " взяток" in group.text


async def test_english_table_and_rules(bot, fake_telegram):
    fake = fake_telegram
    (anya,) = people(fake, 1, lang="en")
    await bot.send(anya, GROUP, "/language")
    await bot.press(anya, fake.last_message(GROUP), lambda text: "English" in text)
    table = await open_table(bot, GROUP, anya, [], computers=3, command="/king")
    await bot.press(anya, await bot.table_message(GROUP), "Start")
    group = await bot.table_message(GROUP)
    assert "Deal 1/12: No tricks" in group.text and "each trick −2" in group.text

    async def until():
        _, state = await bot.state(table.id)
        return state.deal_no >= 2

    await bot.play(table.id, [anya], choose=any_button, until=until)
    assert sheets(fake)[-1].text.startswith("📋 Deal 1 scored: No tricks")
    await bot.send(anya, GROUP, "/rules king")
    assert "Jacks layout" in fake.last_message(GROUP).text
