"""A move button stays good while its move does.

Every action bumps the table version, and every button carries the version it was drawn
at; yet a move by another seat must not turn everyone else's keyboard "outdated" until
their DM is redrawn. So a button names its move (a key of the action), and a press is
applied when that move is still legal for the seat now and the seat has not acted since
the buttons were drawn. A double click still applies once.
"""

from __future__ import annotations


from bot.screens import move_key
from engine.base import get_game
from tests.e2e import open_table

GROUP = -1001
G = get_game("durak")


async def test_a_defender_accepts_a_claim_with_buttons_drawn_before_partner_answered(bot, fake_telegram):
    """Bridge: both defenders answer a claim. The first answer moves the table on; the
    second defender's buttons, drawn before it, still name a legal move of theirs and
    must be applied, not refused as outdated."""
    from tests.test_e2e_bridge import aggressive, sit

    fake = fake_telegram
    anya, boris, vera, gosha = (fake.user(1, "Аня"), fake.user(2, "Борис"), fake.user(3, "Вера"), fake.user(4, "Гоша"))
    users = [anya, boris, vera, gosha]
    for user in users:
        await bot.send(user, user, "/start")
    await bot.send(anya, GROUP, "/bridge")
    for user, place in ((boris, "E"), (vera, "S"), (gosha, "W")):
        await sit(bot, user, place)
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    table = await bot.table(GROUP)
    B = get_game("bridge")

    async def claim_open() -> bool:
        return (await bot.state(table.id))[1].phase == "claim"

    await bot.play(table.id, users, choose=aggressive(anya), until=claim_open)
    row, state = await bot.state(table.id)
    defenders = [
        u
        for u in users
        if B.legal_actions(state, [s.seat for s in await bot.repo.get_seats(table.id) if s.user_id == u.id][0])
    ]
    assert len(defenders) == 2, "both defenders answer the claim"
    accepts = {}
    for user in defenders:
        message = await bot.hand_message(table.id, user)
        accepts[user.id] = (
            message.message_id,
            next(d for text, d in fake.buttons(message) if text == "✅ Согласиться"),
        )
    first, second = defenders
    await bot.press_raw(first, first.id, *accepts[first.id])
    assert (await bot.repo.get_table(table.id)).version == row.version + 1
    answer = await bot.press_raw(second, second.id, *accepts[second.id])  # drawn at row.version
    assert answer is None or "устарела" not in (answer.text or ""), answer
    log = await bot.actions(table.id)
    rows = await bot.repo.load_actions(table.id, after_seq=row.version)
    assert [r.action for r in rows[:2]] == ["accept", "accept"], rows[:3]  # both answers applied
    # and the same old button once more is a double click: refused, nothing applied
    count = len(log)
    answer = await bot.press_raw(second, second.id, *accepts[second.id])
    assert "устарела" in answer.text and len(await bot.actions(table.id)) == count


async def test_a_button_from_before_ones_own_move_is_outdated(bot, fake_telegram):
    """Telegram may show a keyboard late: a button drawn before this seat's own last move
    answers a situation that is gone, even when its move happens to be legal again."""
    fake = fake_telegram
    users = [fake.user(1, "Аня"), fake.user(2, "Борис")]
    table = await open_table(bot, GROUP, users[0], users[1:])
    await bot.press(users[0], await bot.table_message(GROUP), "Начать")
    old: dict[int, list[tuple[int, str]]] = {u.id: [] for u in users}
    refused = 0
    for _ in range(60):
        row, state = await bot.state(table.id)
        if row.status != "playing":
            break
        seats = sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)
        seat = G.to_act(state)[0]
        user = next(u for u in users if u.id == seats[seat].user_id)
        message = await bot.hand_message(table.id, user)
        current = [d for _, d in fake.buttons(message) if d and d.startswith("a:")]
        for data in old[user.id]:  # every older button of the one who acts now
            before = await bot.actions(table.id)
            answer = await bot.press_raw(user, user.id, message.message_id, data)
            assert "устарела" in answer.text and await bot.actions(table.id) == before, data
            refused += 1
        old[user.id] = current[:3]
        await bot.press_raw(user, user.id, message.message_id, current[0])
    assert refused >= 10


async def test_a_double_click_applies_once_and_a_forged_key_changes_nothing(bot, fake_telegram):
    fake = fake_telegram
    users = [fake.user(1, "Аня"), fake.user(2, "Борис")]
    table = await open_table(bot, GROUP, users[0], users[1:])
    await bot.press(users[0], await bot.table_message(GROUP), "Начать")
    row, state = await bot.state(table.id)
    seat = G.to_act(state)[0]
    seats = sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)
    user = next(u for u in users if u.id == seats[seat].user_id)
    message = await bot.hand_message(table.id, user)
    data = [d for _, d in fake.buttons(message) if d and d.startswith("a:")][0]
    before = await bot.actions(table.id)
    forged = data.rsplit(":", 1)[0] + ":" + move_key("attack 2S")  # no such card in durak
    answer = await bot.press_raw(user, user.id, message.message_id, forged)
    assert "Неизвестная" in answer.text and await bot.actions(table.id) == before
    await bot.press_raw(user, user.id, message.message_id, data)
    answer = await bot.press_raw(user, user.id, message.message_id, data)
    assert "устарела" in answer.text
    assert len(await bot.actions(table.id)) == len(before) + 1
