"""/start in the private chat of someone already seated (they came by the lobby's link):
the answer says where they sit, not "/newgame opens a table" (issue 45, item 8)."""

from __future__ import annotations

from tests.e2e import open_table

GROUP = -1001


async def test_start_in_the_dm_of_a_seated_player(bot, fake_telegram) -> None:
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Боря", language_code="en")
    await bot.send(boris, boris, "/start")
    assert "/newgame" in fake.last_message(boris.id).text  # not seated anywhere yet
    await open_table(bot, GROUP, anya, [boris])
    bot.clock.advance(10)  # not a repeat of the /start just sent (bot/command_gate.py)
    for user in (anya, boris):
        await bot.send(user, user, "/start")
        text = fake.last_message(user.id).text
        assert "/newgame" not in text and ("Дурак" in text or "Durak" in text) and "Кухня" in text, text
        assert "/mytables" in text
