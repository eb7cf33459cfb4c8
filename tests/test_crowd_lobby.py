"""A crowd in the lobby: everyone presses at once, and everyone gets in.

Lobby presses are checked against what they name (a free seat, one's own seat, a table
still gathering), not against the lobby's version: six people pressing Join or Sit under
the same lobby message at the same moment are all seated (as far as seats go), each gets
exactly one toast, a repeated press changes nothing. Only the buttons that cycle a value
(options, timer, computers' level, on timeout) are refused as outdated, and only when the
options they were drawn with changed. Who is a group admin is asked of Telegram once per
chat (``getChatAdministrators``, cached), never per press.
"""

from __future__ import annotations

import asyncio
import copy
import logging

import pytest
from telegram import ChatMemberAdministrator, ChatMemberOwner
from telegram.error import BadRequest

from bot.admins import AdminCache
from bot.game_registry import ui_for
from bot.i18n import t
from engine.base import get_game
from tests.e2e import BotUnderTest, FakeClock
from tests.fakebot import FakeTelegram

GROUP = -1001
ADMIN, HOST = 1, 2  # the group's creator, and the person who opens the table (no admin)
COMMANDS = {
    "durak": "/durak",
    "preferans": "/preferans balkan",
    "preferans_ru": "/sochi",
    "king": "/king",
    "bridge": "/bridge",
    "whist": "/whist",
}
NAMES = ["Аня", "Борис", "Вера", "Глеб", "Даша", "Егор", "Жанна"]


@pytest.fixture
async def bot(fake_telegram, start_bot):
    # Telegram's flood limit in a group: the lobby's redraws wait for the group's budget
    fake_telegram.group_flood_limit = 20
    fake_telegram.group(GROUP, "Кухня", admins=[ADMIN], supergroup=True)
    return await start_bot()


def toast_key(text: str | None, **params) -> str:
    """The catalog key of a Russian toast (the users speak Russian)."""
    keys = [
        "ok.joined",
        "ok.done",
        "ok.started",
        "ok.left",
        "err.already_seated",
        "err.seat_taken",
        "err.table_full",
        "err.host_only",
        "err.stale",
        "err.game_started",
        "err.table_gone",
    ]
    found = [k for k in keys if t("ru", k, **params) == text]
    assert found, f"unexpected toast {text!r}"
    return found[0]


async def crowd_press(bot: BotUnderTest, presses: list[tuple[object, str]], message, **params) -> list[str]:
    """Everyone presses at the same moment (no settling in between), under ``message``:
    the toast keys, one per press, in the order given (``params`` those of the toasts)."""
    fake = bot.fake
    updates = [fake.callback_update(user, GROUP, message.message_id, data) for user, data in presses]
    await asyncio.gather(*(fake.feed(bot.app, update) for update in updates))
    await bot.settle()
    keys = []
    for update in updates:
        qid = update["callback_query"]["id"]
        answers = [c for c in fake.calls("answerCallbackQuery") if c.params["callback_query_id"] == qid]
        assert len(answers) == 1, f"{len(answers)} answers to {update['callback_query']['data']}"
        keys.append(toast_key(fake.answers[qid].text, **params))
    return keys


def button(message, command: str) -> str:
    """The callback data of a lobby button by its command (``join``, ``join:2``, ``start``)."""
    buttons = FakeTelegram.buttons(message)
    found = [data for _, data in buttons if data and data.startswith("l:") and data.split(":", 3)[3] == command]
    assert len(found) == 1, (command, buttons)
    return found[0]


def first_option(game: str, options: dict) -> str:
    return next(key for row in ui_for(game).option_rows(options, "ru") for _, key in row)


async def lobby_message(bot: BotUnderTest):
    """The lobby as the group sees it now; its buttons are kept however it changes later."""
    return copy.deepcopy(await bot.table_message(GROUP))


@pytest.mark.parametrize("game", list(COMMANDS))
async def test_six_people_pressing_at_once_all_get_a_seat(bot, fake_telegram, caplog, game):
    caplog.set_level(logging.WARNING)
    fake = fake_telegram
    users = [fake.user(i + 1, NAMES[i]) for i in range(6)]
    for user in users:
        await bot.send(user, user, "/start")
    host, admin = users[HOST - 1], users[ADMIN - 1]
    await bot.send(host, GROUP, COMMANDS[game])
    table = await bot.table(GROUP)
    assert table.game == game
    lobby = await lobby_message(bot)  # everyone presses the buttons of this one message
    fixed = ui_for(game).seat_names
    lo, hi = get_game(game).seat_range(get_game(game).Options(**table.options))

    def join(i: int) -> str:  # at a fixed-seat table the crowd aims at seats 1..3, two at each
        return button(lobby, f"join:{1 + i % (len(fixed) - 1)}" if fixed else "join")

    option = first_option(game, table.options)
    presses = [(user, join(i)) for i, user in enumerate(users) if user is not host]
    presses += [
        (host, button(lobby, "join:0") if fixed else join(0)),  # the host sits already
        (users[2], presses[1][1]),  # pressed twice
        (users[3], button(lobby, "start")),  # not the host, not an admin
        (users[4], button(lobby, f"o:{option}")),
        (admin, button(lobby, "cpu+")),  # an admin, seated or not yet
    ]
    keys = await crowd_press(bot, presses, lobby, n=hi)

    assert "err.stale" not in keys, list(zip([u.first_name for u, _ in presses], keys))
    seats = await bot.repo.get_seats(table.id)
    humans = {s.user_id for s in seats if not s.is_computer}
    joined = {user.id for (user, _), key in zip(presses, keys) if key == "ok.joined"}
    assert humans == joined | {host.id}
    assert len(humans) == len([s for s in seats if not s.is_computer]), "nobody sits twice"
    assert keys[5] == "err.already_seated"  # the host's own seat: nothing changes
    twice = sorted([keys[1], keys[6]])  # the same press twice: seated once at most
    assert twice in (["err.already_seated", "ok.joined"], ["err.seat_taken"] * 2, ["err.table_full"] * 2), twice
    assert keys[7:9] == ["err.host_only", "err.host_only"]
    assert keys[9] in ("ok.done", "err.table_full", "err.seat_taken")
    assert len(seats) == hi  # every seat someone asked for is taken
    assert len([s for s in seats if s.is_computer]) == (keys[9] == "ok.done")
    assert (await bot.repo.get_table(table.id)).options == table.options  # the refused option

    lobby = await lobby_message(bot)
    while len(await bot.repo.get_seats(table.id)) < lo:
        await bot.press_raw(admin, GROUP, lobby.message_id, button(lobby, "cpu+"))
    players = sorted((s.seat, s.user_id) for s in await bot.repo.get_seats(table.id))
    answer = await bot.press_raw(admin, GROUP, lobby.message_id, button(lobby, "start"))  # the admin starts
    assert toast_key(answer.text) == "ok.started"
    started = await bot.repo.get_table(table.id)
    assert started.status == "playing"
    assert sorted((s.seat, s.user_id) for s in await bot.repo.get_seats(table.id)) == players

    assert len(fake.calls("getChatAdministrators", GROUP)) == 1
    assert not fake.calls("getChatMember")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert fake.handler_errors == []


async def test_a_stale_cycling_button_is_refused_and_seats_never_make_it_stale(bot, fake_telegram):
    fake = fake_telegram
    host, boris, vera = (fake.user(i, NAMES[i - 1]) for i in (HOST, 3, 4))
    await bot.send(host, GROUP, "/durak")
    table = await bot.table(GROUP)
    lobby = await lobby_message(bot)
    option = first_option("durak", table.options)
    # a double press of an option: cycled once, the second press is outdated
    keys = await crowd_press(bot, [(host, button(lobby, f"o:{option}"))] * 2, lobby)
    assert sorted(keys) == ["err.stale", "ok.done"]
    cycled = ui_for("durak").next_option(dict(table.options), option)
    assert (await bot.repo.get_table(table.id)).options == cycled
    # the refreshed lobby; people join and leave under it, and its timer button still works
    lobby = await lobby_message(bot)
    keys = await crowd_press(bot, [(boris, button(lobby, "join")), (vera, button(lobby, "join"))], lobby)
    assert keys == ["ok.joined", "ok.joined"]
    keys = await crowd_press(bot, [(vera, button(lobby, "leave")), (host, button(lobby, "timer"))], lobby)
    assert keys == ["ok.left", "ok.done"]
    row = await bot.repo.get_table(table.id)
    assert row.settings["timer"] == 60 and row.options == cycled
    # the computers' level was drawn before the timer changed: outdated, not cycled
    answer = await bot.press_raw(host, GROUP, lobby.message_id, button(lobby, "computers"))
    assert toast_key(answer.text) == "err.stale"
    assert (await bot.repo.get_table(table.id)).settings == row.settings
    assert "Кнопка устарела" not in " ".join(a.text or "" for a in fake.toasts_for(boris.id))


async def test_presses_after_the_start_or_the_close_say_so(bot, fake_telegram):
    fake = fake_telegram
    host, boris, vera = (fake.user(i, NAMES[i - 1]) for i in (HOST, 3, 4))
    for user in (host, boris):
        await bot.send(user, user, "/start")
    await bot.send(host, GROUP, "/durak")
    table = await bot.table(GROUP)
    lobby = await lobby_message(bot)
    assert await crowd_press(bot, [(boris, button(lobby, "join"))], lobby) == ["ok.joined"]
    # a double click on Start: whichever press comes first starts, the other is told so
    keys = await crowd_press(bot, [(host, button(lobby, "start")), (host, button(lobby, "start"))], lobby)
    assert sorted(keys) == ["err.game_started", "ok.started"]
    version = (await bot.repo.get_table(table.id)).version
    for user, command in (
        (vera, "join"),
        (boris, "leave"),
        (host, "cpu+"),
        (host, f"o:{first_option('durak', table.options)}"),
    ):
        answer = await bot.press_raw(user, GROUP, lobby.message_id, button(lobby, command))
        assert toast_key(answer.text) == "err.game_started", command
    assert (await bot.repo.get_table(table.id)).version == version
    await bot.send(host, GROUP, "/cancel")
    answer = await bot.press_raw(vera, GROUP, lobby.message_id, button(lobby, "join"))
    assert toast_key(answer.text) == "err.table_gone"
    assert not fake.calls("getChatMember")


async def test_presses_on_two_workers_at_once_all_get_in(fake_telegram, database):
    """Another process writes the lobby between this one's read and write: the press looks
    again instead of refusing the person."""
    fake = fake_telegram
    fake.group(GROUP, "Кухня", admins=[ADMIN], supergroup=True)
    clock = FakeClock()
    fake.clock = clock
    first = await BotUnderTest(fake, database, clock, seed=11).start()
    second = await BotUnderTest(fake, database, clock, seed=12).start()
    try:
        users = [fake.user(i + 1, NAMES[i]) for i in range(6)]
        await first.send(users[0], GROUP, "/durak")
        table = await first.table(GROUP)
        lobby = await lobby_message(first)
        updates = [fake.callback_update(user, GROUP, lobby.message_id, button(lobby, "join")) for user in users[1:]]
        workers = [first, second] * 3
        await asyncio.gather(*(fake.feed(w.app, u) for w, u in zip(workers, updates)))
        for worker in (first, second):
            await worker.settle()
        texts = [fake.answers[u["callback_query"]["id"]].text for u in updates]
        assert texts == [t("ru", "ok.joined")] * 5
        assert len(await first.repo.get_seats(table.id)) == 6
    finally:
        await second.stop()
        await first.stop()


async def test_admins_are_looked_up_once_per_chat_and_kept_a_while(bot, fake_telegram, caplog):
    fake = fake_telegram
    fake.user(ADMIN, "Аня")
    fake.user(HOST, "Борис")
    fake.group(-1002, "Дача", admins=[HOST], supergroup=True)
    admins = AdminCache(bot.app.bot, bot.clock, ttl=300, retry_after_failure=15, size=2)
    asked = await asyncio.gather(*(admins.is_admin(GROUP, user) for user in (ADMIN, HOST, ADMIN, 7)))
    assert asked == [True, False, True, False]
    assert len(fake.calls("getChatAdministrators")) == 1  # the askers shared one lookup
    bot.clock.advance(299)
    assert await admins.is_admin(GROUP, ADMIN)
    assert len(fake.calls("getChatAdministrators")) == 1
    bot.clock.advance(2)  # kept no longer than the ttl
    assert await admins.is_admin(GROUP, ADMIN)
    assert len(fake.calls("getChatAdministrators")) == 2
    assert not await admins.is_admin(HOST, HOST)  # a private chat: nobody, and no call
    assert len(fake.calls("getChatAdministrators")) == 2

    # a failed lookup: not an admin for now, one warning, looked up again soon
    caplog.set_level(logging.WARNING)
    fake.fail_next("getChatAdministrators", error_code=502, description="Bad Gateway")
    assert not await admins.is_admin(-1002, HOST)
    assert [r.levelno for r in caplog.records if "admins" in r.getMessage()] == [logging.WARNING]
    assert not await admins.is_admin(-1002, HOST)
    assert len(fake.calls("getChatAdministrators", -1002)) == 1
    bot.clock.advance(16)
    assert await admins.is_admin(-1002, HOST)
    assert len(fake.calls("getChatAdministrators", -1002)) == 2
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]

    # memory is bounded: a third chat pushes out the least recently used one
    fake.group(-1003, "Клуб", admins=[ADMIN], supergroup=True)
    assert await admins.is_admin(-1003, ADMIN)
    assert await admins.is_admin(-1002, HOST)  # still kept
    assert await admins.is_admin(GROUP, ADMIN)  # looked up again: it was pushed out
    assert len(fake.calls("getChatAdministrators", GROUP)) == 3


async def test_the_emulator_lists_admins_as_telegram_does(bot, fake_telegram):
    fake = fake_telegram
    for i in (1, 2, 3):
        fake.user(i, NAMES[i - 1])
    chat = fake.group(-1002, "Дача", admins=[1, 2, 3], supergroup=True, bot_admin=True)
    chat.left.add(3)  # an administrator who left the group is none any more
    members = await bot.app.bot.get_chat_administrators(-1002)
    assert [type(m) for m in members] == [ChatMemberOwner, ChatMemberAdministrator, ChatMemberAdministrator]
    assert [m.user.id for m in members] == [1, 2, fake.bot_id]
    assert members[2].user.is_bot and members[1].can_manage_chat
    with pytest.raises(BadRequest, match="private chat"):
        await bot.app.bot.get_chat_administrators(1)
