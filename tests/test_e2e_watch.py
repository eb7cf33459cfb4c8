"""/mytables and spectators through the real Application and the fake Bot API, on both
storage backends. Every settle() also runs the generic leak check of tests/e2e.py, which
judges a spectator's DM message by the table's public view; the tests here add explicit
checks against the seat views after every move."""

from __future__ import annotations

import pytest

from bot.links import group_message_link
from engine.base import get_game
from engine.cards import label
from storage.models import TableRow
from tests.e2e import CARD_LABEL, card_labels_in, open_table

KITCHEN = -1001234567890  # supergroups: message links t.me/c/1234567890/<message>
DACHA = -1009876543210
OLD_GROUP = -4242  # a basic group: no message links
OTHER_CHAT = -1005555555555
REFUSED = "другом чате"


@pytest.fixture
async def bot(fake_telegram, start_bot):
    fake_telegram.group(KITCHEN, "Кухня", admins=[1], supergroup=True)
    fake_telegram.group(DACHA, "Дача", admins=[1], supergroup=True)
    fake_telegram.group(OLD_GROUP, "Старая", admins=[1])
    fake_telegram.group(OTHER_CHAT, "Чужая", admins=[9], supergroup=True)
    return await start_bot()


def after_moves(n: int):
    """An ``until`` for BotUnderTest.play: stop after ``n`` presses."""
    calls = []

    async def enough() -> bool:
        calls.append(1)
        return len(calls) > n

    return enough


def cards_in(message) -> set[str]:
    return set(CARD_LABEL.findall(message.text))


def spectator_message(fake, user):
    """The spectator's table message: the bot's message in their DM that starts with 👁."""
    found = [m for m in fake.messages(user.id) if m.history[0].text.startswith("👁")]
    assert len(found) == 1, [m.text for m in fake.messages(user.id)]
    return found[0]


async def start_watching(bot, fake, user):
    """``user`` opens the bot's DM and presses 👁 Watch under the Кухня table: their
    spectator message."""
    await bot.send(user, user, "/start")
    await bot.press(user, await bot.table_message(KITCHEN), "👁 Смотреть")
    return spectator_message(fake, user)


async def hidden_cards(bot, table_id) -> set[str]:
    """Labels of the cards in the players' hands that the public view does not show."""
    _, state = await bot.state(table_id)
    game = get_game((await bot.repo.get_table(table_id)).game)
    seats = len(await bot.repo.get_seats(table_id))
    public = card_labels_in(game.view(state, None))
    in_hands = {label(c) for seat in range(seats) for c in game.view(state, seat).get("hand", [])}
    return in_hands - public


# ---------------------------------------------------------------------- /mytables
def test_group_message_links():
    def table(chat_id: int, message_id: int | None, thread_id: int = 0) -> TableRow:
        return TableRow(1, chat_id, thread_id, "durak", {}, "playing", 1, 5, 1, message_id, "ru")

    assert group_message_link(table(-1001234567890, 77)) == "https://t.me/c/1234567890/77"
    assert group_message_link(table(-1001234567890, 77, thread_id=12)) == "https://t.me/c/1234567890/12/77"
    assert group_message_link(table(-4242, 77)) is None  # a basic group has no message links
    assert group_message_link(table(-1001234567890, None)) is None  # no table message yet
    assert group_message_link(table(-100, 5)) is None


async def test_mytables_lists_every_table_whose_turn_and_links(bot, fake_telegram):
    fake = fake_telegram
    anya, boris, vera = fake.user(1, "Аня"), fake.user(2, "Борис"), fake.user(3, "Вера")
    kitchen = await open_table(bot, KITCHEN, anya, [boris])
    await bot.press(anya, await bot.table_message(KITCHEN), "Начать")
    dacha = await open_table(bot, DACHA, anya, [vera], command="/durak")
    await bot.press(anya, await bot.table_message(DACHA), "Начать")
    old = await open_table(bot, OLD_GROUP, anya, [], computers=1)  # still in the lobby

    await bot.send(anya, anya, "/mytables")
    listing = fake.last_message(anya.id)
    assert "Ваши столы" in listing.text and "(3)" in listing.text
    for title in ("Кухня", "Дача", "Старая"):
        assert title in listing.text
    assert "Набор игроков" in listing.text
    # whose turn, as the engine says, per table
    for table in (kitchen, dacha):
        row, state = await bot.state(table.id)
        seats = sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)
        waiting = [seats[s] for s in get_game("durak").to_act(state)]
        block = listing.text.split(row.settings["title"])[1].split("\n")[1]
        if any(s.user_id == anya.id for s in waiting):
            assert "Ваш ход" in block, block
        else:
            assert block.startswith("Ждём: ") and all(s.name in block for s in waiting), block
    # links to the group messages of the supergroups; none for the basic group
    for table in (kitchen, dacha):
        row = await bot.repo.get_table(table.id)
        internal = str(row.chat_id)[4:]
        assert f'href="https://t.me/c/{internal}/{row.group_message_id}"' in listing.raw_text
    assert listing.raw_text.count("t.me/c/") == 2
    old_row = await bot.repo.get_table(old.id)
    assert old_row.group_message_id and f'/{old_row.group_message_id}"' not in listing.raw_text.split("Старая")[1]

    # someone at no table; and the command in a group points to the DM
    await bot.send(vera, vera, "/mytables")
    assert "Дача" in fake.last_message(vera.id).text
    await bot.send(boris, KITCHEN, "/mytables")
    assert "личный чат" in fake.last_message(KITCHEN).text
    gleb = fake.user(4, "Глеб")
    await bot.send(gleb, gleb, "/start")
    await bot.send(gleb, gleb, "/mytables")
    assert "ни за одним столом" in fake.last_message(gleb.id).text


async def test_the_turn_ping_links_to_the_group_message(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    table = await open_table(bot, KITCHEN, anya, [boris])
    await bot.press(anya, await bot.table_message(KITCHEN), "Начать")
    await bot.tick(120)  # long enough that the next player to move is not "playing right now"
    row, state = await bot.state(table.id)
    seats = sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)
    mover = next(u for u in (anya, boris) if u.id == seats[get_game("durak").to_act(state)[0]].user_id)
    other = boris if mover is anya else anya
    hand = await bot.hand_message(table.id, mover)
    card = next(data for text, data in fake.buttons(hand) if data and CARD_LABEL.fullmatch(text))
    await bot.press(mover, hand, data=card)
    pings = [m for m in fake.messages(other.id) if m.text.startswith("🔔")]
    assert pings, fake.dump(other.id)
    row = await bot.repo.get_table(table.id)
    assert f'<a href="https://t.me/c/1234567890/{row.group_message_id}">Кухня</a>' in pings[-1].raw_text


# ---------------------------------------------------------------------- spectators
async def test_watch_a_durak_game_to_the_end(bot, fake_telegram):
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    vera, gleb, dima = fake.user(3, "Вера"), fake.user(4, "Глеб"), fake.user(5, "Дима")
    table = await open_table(bot, KITCHEN, anya, [boris])
    lobby = await bot.table_message(KITCHEN)
    assert not any("Смотреть" in text for text, _ in fake.buttons(lobby))  # nothing to watch yet
    await bot.press(anya, lobby, "Начать")
    group = await bot.table_message(KITCHEN)
    assert [text for text, _ in fake.buttons(group)] == ["👁 Смотреть"]

    # never opened the DM: an alert asks them to /start the bot first; nothing is stored or sent
    answer = await bot.press(gleb, group, "👁 Смотреть")
    assert answer.show_alert and "/start" in answer.text
    assert await bot.repo.get_spectators(table.id) == [] and fake.messages(gleb.id) == []
    # a player already has their hand
    answer = await bot.press(anya, group, "👁 Смотреть")
    assert "Вы играете за этим столом" in answer.text
    assert await bot.repo.get_spectators(table.id) == []
    # opened the DM, then blocked the bot: the DM fails with 403, so they stop watching
    await bot.send(dima, dima, "/start")
    fake.block(dima)
    assert "Стол теперь" in (await bot.press(dima, group, "👁 Смотреть")).text
    assert await bot.repo.get_spectators(table.id) == []
    answer = await bot.press(dima, group, "👁 Смотреть")
    assert answer.show_alert and "/start" in answer.text

    await bot.send(vera, vera, "/start")
    answer = await bot.press(vera, group, "👁 Смотреть")
    assert "Стол теперь у вас в личном чате" in answer.text
    watched = spectator_message(fake, vera)
    assert "Кухня" in watched.text and group.text in watched.text
    assert [text for text, _ in fake.buttons(watched)] == ["🚪 Перестать смотреть"]
    assert "уже смотрите" in (await bot.press(vera, group, "👁 Смотреть")).text
    assert len(fake.messages(vera.id)) == 2  # the /start answer and one table message

    group_calls_before = len(fake.group_sends_and_edits(KITCHEN))
    vera_calls_before = len(fake.group_sends_and_edits(vera.id))
    checked = []

    async def every_move():
        """After each settle: the spectator sees exactly the group's table, no hidden card."""
        row = await bot.repo.get_table(table.id)
        if row.status != "playing":
            return False
        group_now = fake.msgs[KITCHEN][row.group_message_id]
        assert group_now.text in watched.text, (group_now.text, watched.text)
        assert not cards_in(watched) & await hidden_cards(bot, table.id)
        checked.append(len(watched.history))
        return False

    await bot.play(table.id, [anya, boris], until=every_move)
    row, state = await bot.state(table.id)
    assert row.status == "between" and len(checked) > 10 and len(set(checked)) > 3

    # the final state, shown once, without buttons; watching has ended
    assert "Партия окончена" in watched.text and watched.keyboard == []
    assert await bot.repo.get_spectators(table.id) == []
    final_group = fake.msgs[KITCHEN][row.group_message_id]
    assert final_group.text in watched.text
    # cost: at most one DM call to the spectator per edit of the group's table message
    table_edits = [
        c
        for c in fake.group_sends_and_edits(KITCHEN)[group_calls_before:]
        if c.method == "editMessageText" and c.message_id == row.group_message_id
    ]
    vera_calls = len(fake.group_sends_and_edits(vera.id)) - vera_calls_before
    assert 0 < vera_calls <= len(table_edits)

    # a rematch is a new game: the finished spectator message stays as it is
    versions = len(watched.history)
    final_post = [m for m in fake.messages(KITCHEN) if any("Ещё партию" in t for t, _ in fake.buttons(m))][-1]
    await bot.press(anya, final_post, "🔁 Ещё партию")
    assert (await bot.repo.get_table(table.id)).status == "playing"
    await bot.play(table.id, [anya, boris], until=after_moves(6))
    assert len(watched.history) == versions
    # the Watch button of the finished game is stale; the new game's one works
    answer = await bot.press_raw(vera, KITCHEN, final_group.message_id, f"w:{table.id}:1:on")
    assert "Кнопка устарела" in answer.text, answer.text
    await bot.press(vera, await bot.table_message(KITCHEN), "👁 Смотреть")
    assert len([m for m in fake.messages(vera.id) if m.history[0].text.startswith("👁")]) == 2


async def test_leave_stops_the_updates(bot, fake_telegram):
    fake = fake_telegram
    anya, boris, vera = fake.user(1, "Аня"), fake.user(2, "Борис"), fake.user(3, "Вера")
    table = await open_table(bot, KITCHEN, anya, [boris])
    await bot.press(anya, await bot.table_message(KITCHEN), "Начать")
    watched = await start_watching(bot, fake, vera)
    await bot.play(table.id, [anya, boris], until=after_moves(8))
    assert len(watched.history) > 1  # it followed the game

    answer = await bot.press(vera, watched, "🚪 Перестать смотреть")
    assert "больше не смотрите" in answer.text
    assert "Вы больше не смотрите" in watched.text and watched.keyboard == []
    assert await bot.repo.get_spectators(table.id) == []
    versions = len(watched.history)
    await bot.play(table.id, [anya, boris])  # to the end
    assert len(watched.history) == versions
    assert len(fake.messages(vera.id)) == 2  # nothing new either
    # pressing Leave again changes nothing
    answer = await bot.press_raw(vera, vera.id, watched.message_id, f"w:{table.id}:1:off")
    assert "не смотрите этот стол" in answer.text


async def test_bot_removed_from_the_group_ends_the_watching(bot, fake_telegram):
    fake = fake_telegram
    anya, boris, vera = fake.user(1, "Аня"), fake.user(2, "Борис"), fake.user(3, "Вера")
    table = await open_table(bot, KITCHEN, anya, [boris])
    await bot.press(anya, await bot.table_message(KITCHEN), "Начать")
    watched = await start_watching(bot, fake, vera)
    fake.kick_bot(KITCHEN)
    await bot.play(table.id, [anya, boris])  # until the group message fails and the table closes
    await bot.settle()
    assert (await bot.repo.get_table(table.id)).status == "closed"
    assert "Стол закрыт" in watched.text and watched.keyboard == []
    assert await bot.repo.get_spectators(table.id) == []


async def test_watch_buttons_are_bound_to_their_chat(bot, fake_telegram):
    fake = fake_telegram
    anya, boris, vera = fake.user(1, "Аня"), fake.user(2, "Борис"), fake.user(3, "Вера")
    stranger = fake.user(9, "Чужой")
    for user in (vera, stranger):
        await bot.send(user, user, "/start")
    table = await open_table(bot, KITCHEN, anya, [boris])
    await bot.press(anya, await bot.table_message(KITCHEN), "Начать")
    row = await bot.repo.get_table(table.id)
    watch = f"w:{table.id}:{row.game_no}:on"
    elsewhere = await fake.send(bot.app, stranger, OTHER_CHAT, "привет @CardTestBot")
    dm = await fake.send(bot.app, stranger, stranger, "привет")
    # Watch forged under another group's message or in a DM: refused, nothing stored or sent
    for chat, message in ((OTHER_CHAT, elsewhere), (stranger.id, dm)):
        answer = await bot.press_raw(stranger, chat, message.message_id, watch)
        assert REFUSED in answer.text, (chat, answer)
    assert await bot.repo.get_spectators(table.id) == []
    assert [m.text for m in fake.messages(stranger.id)][1:] == []  # only the /start answer

    await bot.press(vera, await bot.table_message(KITCHEN), "👁 Смотреть")
    watched = spectator_message(fake, vera)
    leave = f"w:{table.id}:{row.game_no}:off"
    # Leave pressed in the group, or by someone else in their own DM: Вера keeps watching
    answer = await bot.press_raw(vera, KITCHEN, (await bot.table_message(KITCHEN)).message_id, leave)
    assert REFUSED in answer.text
    answer = await bot.press_raw(stranger, stranger.id, dm.message_id, leave)
    assert "не смотрите этот стол" in answer.text
    assert [s.user_id for s in await bot.repo.get_spectators(table.id)] == [vera.id]
    # bad commands and numbers are refused cleanly
    for data in (f"w:{table.id}:{row.game_no}:x", f"w:{table.id}:²:on", "w:abc:1:on", f"w:{table.id}"):
        answer = await bot.press_raw(vera, KITCHEN, (await bot.table_message(KITCHEN)).message_id, data)
        assert answer is not None and answer.text, data
    assert [s.user_id for s in await bot.repo.get_spectators(table.id)] == [vera.id]
    # the callback data is short: every button under the table message fits in 64 bytes
    for _, data in fake.buttons(await bot.table_message(KITCHEN)) + fake.buttons(watched):
        assert len(data.encode()) <= 64
    assert len(watched.history) >= 1


async def test_watch_bridge_to_the_end_sees_dummy_once_down(bot, fake_telegram):
    from tests.test_e2e_bridge import passive

    fake = fake_telegram
    anya, vera = fake.user(1, "Аня"), fake.user(3, "Вера")
    table = await open_table(bot, KITCHEN, anya, [], computers=3, command="/bridge")
    await bot.press(anya, await bot.table_message(KITCHEN), "Начать")
    watched = await start_watching(bot, fake, vera)
    game = get_game("bridge")
    seen_dummy = []

    async def every_move():
        row, state = await bot.state(table.id)
        if row.status != "playing":
            return False
        public = game.view(state, None)
        shown = cards_in(watched)
        # never a card of a hand the public view hides (the seat views are the judge)
        hidden = {label(c) for seat in range(4) for c in game.view(state, seat)["hand"]}
        hidden -= {label(c) for c in public.get("dummy_hand") or []} | {
            label(c) for c in public.get("declarer_hand") or []
        }
        assert not shown & hidden, shown & hidden
        group_now = fake.msgs[KITCHEN][row.group_message_id]
        assert group_now.text in watched.text
        if public["phase"] == "play" and public["dummy_hand"] and "Болван" in group_now.text:
            # dummy is down and the table was redrawn: the spectator sees dummy's cards
            assert "Болван" in watched.text
            assert {label(c) for c in public["dummy_hand"]} <= shown
            seen_dummy.append(public["board"])
        return False

    await bot.play(table.id, [anya], choose=passive, until=every_move, max_moves=4000)
    row = await bot.repo.get_table(table.id)
    assert row.status == "between" and seen_dummy
    assert "Партия окончена" in watched.text and watched.keyboard == []
    assert await bot.repo.get_spectators(table.id) == []
