"""The live hand stays reachable after "🔍 The deal" (issue 45, item 7): the long analysis
arrives in the player's private chat below the hand message; the hand comes back below
it at once when it is that player's turn, else when their turn comes, and the old hand
message goes (its buttons would be refused anyway)."""

from __future__ import annotations

from engine.base import get_game
from tests.e2e import open_table
from tests.test_e2e_deal_view import deal_buttons, quiet

GROUP = -1001
DEAL = "🔍 Разбор сдачи"


def analysis_of(fake, user) -> int:
    """The id of the newest analysis in the person's private chat."""
    found = [m.message_id for m in fake.messages(user.id) if m.text.startswith("🔍")]
    assert found, f"no analysis in {user.first_name}'s chat"
    return found[-1]


async def test_the_hand_comes_back_below_the_analysis(bot, fake_telegram) -> None:
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Боря")
    table = await open_table(bot, GROUP, anya, [boris], computers=2, command="/king")
    await bot.press(anya, await bot.table_message(GROUP), lambda text: text in ("Начать", "▶️ Начать"))

    async def first_deal_posted() -> bool:
        return bool(deal_buttons(fake))

    await bot.play(table.id, [anya, boris], choose=quiet, until=first_deal_posted, max_moves=600)
    (data,) = deal_buttons(fake)
    post = next(m for m in fake.messages(GROUP) if any(d == data for _, d in fake.buttons(m)))
    _, state = await bot.state(table.id)
    seats = {s.user_id: s.seat for s in await bot.repo.get_seats(table.id)}
    game = get_game("king")
    (acting,) = game.to_act(state)
    now, later = (anya, boris) if seats[anya.id] == acting else (boris, anya)

    # the player whose turn it is: the hand comes back below at once, the old one goes
    old = await bot.hand_message(table.id, now)
    await bot.press(now, post, DEAL)
    hand = await bot.hand_message(table.id, now)
    assert hand.message_id > analysis_of(fake, now) > old.message_id
    assert fake.last_message(now.id) is hand and old not in fake.messages(now.id)
    assert hand.text == old.text and fake.buttons(hand) == fake.buttons(old)

    # the other one: not his turn, the hand stays where it is (no new message) ...
    old_later = await bot.hand_message(table.id, later)
    await bot.press(later, post, DEAL)
    assert (await bot.hand_message(table.id, later)).message_id == old_later.message_id
    assert analysis_of(fake, later) > old_later.message_id

    # ... and comes back below the analysis when his turn comes
    async def later_to_act() -> bool:
        _, state = await bot.state(table.id)
        return seats[later.id] in game.to_act(state)

    await bot.play(table.id, [anya, boris], choose=quiet, until=later_to_act, max_moves=200)
    hand = await bot.hand_message(table.id, later)
    assert hand.message_id > analysis_of(fake, later)
    assert old_later not in fake.messages(later.id)
