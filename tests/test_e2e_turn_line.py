"""The "▶️ …" line of a preferans table (both kinds) names who acts now, or is not there
(issue 45, item 5): in the group after every bid, whist decision and card. Before the
play a hand message is redrawn for its own reader's decisions only (a Bot API call per
hand per bid was the price of naming the bidder there), so it never names who acts: the
reader who acts sees "👉" and the buttons, a waiting reader "⏳" and no calls, which would
go stale. Three people play one deal through the real bot; after every press everything
pending has been sent."""

from __future__ import annotations

import pytest

from engine.base import get_game
from tests.e2e import open_table

GROUP = -1001


def turn_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("▶️")]


@pytest.mark.parametrize("command", ["/sochi", "/preferans balkan"])
async def test_the_turn_line_names_who_acts_now(bot, fake_telegram, command) -> None:
    fake = fake_telegram
    names = ["Alpha", "Bravo", "Charlie"]
    users = [fake.user(i + 1, name, language_code="en") for i, name in enumerate(names)]
    table = await open_table(bot, GROUP, users[0], users[1:], command=command)
    await bot.press(users[0], await bot.table_message(GROUP), lambda text: text in ("▶️ Начать", "▶️ Start"))
    game = get_game(table.game)
    checked = {"group": 0, "hand": 0}

    async def check() -> bool:
        row, state = await bot.state(table.id)
        if row.status != "playing" or state.hand_no > 1:
            return True  # one deal is enough
        acting = game.to_act(state)
        seats = sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)
        who = [n for s in seats for n in names if n in s.name]
        group = turn_lines((await bot.table_message(GROUP)).text)
        assert len(group) <= 1
        for line in group:
            assert acting and who[acting[0]] in line, (line, state.phase, [who[s] for s in acting])
            checked["group"] += 1
        if game.view(state, None)["phase"] != "play":
            for user in users:
                seat = who.index(user.first_name)
                text = (await bot.hand_message(table.id, user)).text
                assert not turn_lines(text), (user.first_name, text)
                assert ("👉" in text) == (seat in acting), (user.first_name, text, acting)
                assert ("⏳" in text) == (seat not in acting), (user.first_name, text, acting)
                checked["hand"] += 1
        return False

    await bot.play(table.id, users, until=check)
    assert checked["group"] and checked["hand"], checked
