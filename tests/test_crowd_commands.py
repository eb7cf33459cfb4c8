"""A crowd in one group: ten people sending commands at the same moment, Telegram's flood
limits biting. Every command is answered exactly once (a repeated identical one once per
burst), each answer quoting its command; a flood wait delays answers, never loses them,
and the group is not called again before the ``retry_after`` it was given. A chooser
(which game, language, score sheets, /forget's confirmation) is closed once used, and
pressing it again only toasts."""

from __future__ import annotations

import asyncio
import html
import logging
import re

import pytest

from bot.i18n import t
from tests.e2e import BotUnderTest

GROUP = -1001
RETRY_AFTER = 10


@pytest.fixture
async def bot(fake_telegram, start_bot):
    fake_telegram.group_flood_limit = 20  # Telegram's ~20 messages a minute in a group
    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    return await start_bot()


@pytest.fixture
def people(fake_telegram):
    return [fake_telegram.user(i, f"P{i}") for i in range(1, 11)]


def shown(key: str, **params) -> str:
    """A catalog text as the chat shows it (the tags rendered away)."""
    return html.unescape(re.sub(r"<[^>]+>", "", t("ru", key, **params)))


async def together(bot: BotUnderTest, sends: list[tuple]) -> list:
    """Everyone sends at the same moment: the updates are handled concurrently, nothing is
    sent to Telegram in between. Returns the users' messages, in the order given."""
    fake = bot.fake
    made = [fake.message_update(user, chat, text) for user, chat, text in sends]
    await asyncio.gather(*(fake.feed(bot.app, update) for _, update in made if update is not None))
    return [message for message, _ in made]


def answers_to(fake, message) -> list:
    """The bot's messages quoting ``message`` (a command's answer quotes the command)."""
    return [
        m
        for m in fake.messages(message.chat_id)
        if m.extra.get("reply_to_message", {}).get("message_id") == message.message_id
    ]


def assert_no_call_before_its_retry_after(fake, chat_id: int) -> int:
    """No call to the chat came before the ``retry_after`` a 429 gave it. Returns the 429s."""
    calls = fake.calls(chat_id=chat_id)
    floods = [(i, c) for i, c in enumerate(calls) if not c.ok and "retry after" in (c.error or "")]
    for i, flood in floods:
        seconds = int(flood.error.rsplit(" ", 1)[1])
        early = [c for c in calls[i + 1 :] if c.t < flood.t + seconds]
        assert not early, f"called {early[0].method} {early[0].t - flood.t:.1f} s after retry_after {seconds}"
    return len(floods)


async def test_ten_people_s_mixed_commands_at_once_are_each_answered_once(bot, fake_telegram, people, caplog):
    fake = fake_telegram
    caplog.set_level(logging.WARNING)
    p = {i: people[i - 1] for i in range(1, 11)}
    fake.fail_next("sendMessage", retry_after=RETRY_AFTER, chat_id=GROUP, times=2)
    wave = [
        (p[1], GROUP, "/language"),  # an admin: the chooser
        (p[2], GROUP, "/help"),
        (p[3], GROUP, "/help"),  # the same answer for everyone, at the same moment: once
        (p[4], GROUP, "/rules king"),
        (p[5], GROUP, "/newgame"),
        (p[6], GROUP, "/durak"),
        (p[7], GROUP, "/top"),
        (p[8], GROUP, "/stats"),
        (p[9], GROUP, "/history"),
        (p[10], GROUP, "/mytables"),
        (p[2], GROUP, "/cancel"),  # not the opener's
        (p[3], GROUP, "/sheets"),  # not an admin
        (p[1], GROUP, "/sheets"),
        (p[4], GROUP, "/language"),  # not an admin
        (p[7], GROUP, "/export"),
        (p[8], GROUP, "/score"),
        (p[9], GROUP, "/rules king"),  # the same rules again: once
        (p[10], GROUP, "/mytables"),  # a double tap: once
        (p[5], p[5], "/mytables"),  # meanwhile in a private chat
        (p[6], p[6], "/language en"),  # one's own language, in the DM
    ]
    sent = await together(bot, wave)
    # the first reply meets a flood wait: the rest wait in the outbox, a /cancel too
    assert await bot.runtime.sender.drain() is not None
    (cancel,) = await together(bot, [(p[6], GROUP, "/cancel")])
    await bot.settle()

    repeats = {2, 16, 17}  # indexes of the repeated identical commands
    expected = {
        0: shown("language.choose"),
        1: "Карточный бот",
        3: shown("game.king"),
        4: shown("newgame.choose"),
        6: shown("top.empty"),
        7: shown("stats.dm_only"),
        8: shown("history.empty"),
        9: shown("mytables.dm_only"),
        10: (shown("err.host_only"), shown("err.no_table")),  # before or after /durak's table
        11: shown("settings.admins_only"),
        12: "Как присылать запись",
        13: shown("settings.admins_only"),
        14: shown("export.none"),
        15: shown("score.choose"),
    }
    for i, message in enumerate(sent):
        if message.chat_id != GROUP:
            continue
        answers = answers_to(fake, message)
        if i in repeats or i == 5:  # /durak: its answer is the table message
            assert answers == [], f"{message.text}: {answers}"
            continue
        assert len(answers) == 1, f"{message.text!r} got {len(answers)} answers:\n{fake.dump(GROUP)}"
        wanted = expected[i] if isinstance(expected[i], tuple) else (expected[i],)
        assert any(text in answers[0].text for text in wanted), (message.text, answers[0].text)
    # the table /durak opened, then closed by its opener's /cancel sent during the flood wait
    assert [a.text for a in answers_to(fake, cancel)] == [shown("ok.cancelled")]
    assert await bot.repo.find_open_table(GROUP, 0) is None
    (table,) = await bot.repo.tables_with_status("closed")  # one table: the other /durak heard so
    assert table.opener_id == p[6].id and fake.msgs[GROUP][table.group_message_id].text == shown("table.closed")
    (link,) = fake.buttons(answers_to(fake, sent[9])[0])
    assert link[0] == shown("mytables.btn.dm")
    assert fake.messages(p[5].id)[-1].text == shown("mytables.none")
    assert fake.messages(p[6].id)[-1].text == t("en", "language.set")
    # each answer is one sendMessage, as is the table message (then edited)
    assert len([c for c in fake.calls("sendMessage", GROUP) if c.ok]) == len(fake.messages(GROUP))
    # the flood waits were kept, the group's budget too, and nothing is an error
    assert assert_no_call_before_its_retry_after(fake, GROUP) == 2
    assert not [c for c in fake.calls(chat_id=GROUP) if not c.ok and "retry after" not in (c.error or "")]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len([r for r in caplog.records if "flood wait" in r.getMessage()]) == 2


async def test_a_used_chooser_pressed_again_only_toasts(bot, fake_telegram, people):
    fake = fake_telegram
    anya, boris = people[0], people[1]
    await bot.send(boris, GROUP, "/newgame")
    chooser = fake.last_message(GROUP)
    answer = await bot.press(anya, chooser, data="g:durak")
    assert answer.text == t("ru", "ok.opened")
    table = await bot.table(GROUP)
    # the chooser became one line without buttons, above the table message
    assert chooser.text == shown("chooser.opened", game=t("ru", "game.durak"))
    assert not chooser.keyboard and table.group_message_id > chooser.message_id
    before = len(fake.group_sends_and_edits(GROUP))
    # a client still showing the buttons: twelve presses by six people, all at once
    presses = [fake.callback_update(people[i % 6], GROUP, chooser.message_id, "g:durak") for i in range(12)]
    await asyncio.gather(*(fake.feed(bot.app, update) for update in presses))
    await bot.settle()
    toasts = [fake.answers[update["callback_query"]["id"]] for update in presses]
    assert [a.text for a in toasts] == [chooser.text] * 12
    assert len(fake.group_sends_and_edits(GROUP)) == before
    assert [t.id for t in await bot.repo.tables_with_status("lobby")] == [table.id]
    # after a restart (the memory of used choosers gone) the press still only toasts
    await bot.restart()
    answer = await bot.press_raw(boris, GROUP, chooser.message_id, "g:king")
    assert answer.text == t("ru", "err.table_exists")
    assert len(fake.group_sends_and_edits(GROUP)) == before


async def test_group_settings_are_for_its_admins(bot, fake_telegram, people):
    fake = fake_telegram
    admin, boris = people[0], people[1]
    await bot.send(boris, GROUP, "/language en")
    assert fake.last_message(GROUP).text == shown("settings.admins_only")
    await bot.send(boris, GROUP, "/sheets picture")
    assert fake.last_message(GROUP).text == shown("settings.admins_only")
    assert await bot.repo.get_chat_lang(GROUP) is None
    assert await bot.repo.get_chat_sheets(GROUP) is None
    await bot.send(admin, GROUP, "/language")
    chooser = fake.last_message(GROUP)
    before = len(fake.group_sends_and_edits(GROUP))
    answer = await bot.press(boris, chooser, data="lang:en")  # a member presses the admin's chooser
    assert answer.text == t("ru", "settings.admins_only")
    assert await bot.repo.get_chat_lang(GROUP) is None
    assert fake.buttons(chooser) and len(fake.group_sends_and_edits(GROUP)) == before  # still open
    answer = await bot.press(admin, chooser, data="lang:en")
    assert answer.text == t("en", "language.set")
    assert await bot.repo.get_chat_lang(GROUP) == "en"
    assert chooser.text == t("en", "language.set") and not chooser.keyboard
    await bot.send(admin, GROUP, "/sheets")
    sheets = fake.last_message(GROUP)
    answer = await bot.press(boris, sheets, data="sh:picture")
    assert answer.text == t("en", "settings.admins_only")
    assert await bot.repo.get_chat_sheets(GROUP) is None
    await bot.press(admin, sheets, data="sh:both")
    assert await bot.repo.get_chat_sheets(GROUP) == "both"
    assert sheets.text == t("en", "sheets.set", mode=t("en", "sheets.mode.both")) and not sheets.keyboard
    answer = await bot.press_raw(admin, GROUP, sheets.message_id, "sh:text")  # used: nothing changes
    assert answer.text == sheets.text
    assert await bot.repo.get_chat_sheets(GROUP) == "both"


async def test_forget_s_confirmation_is_used_once(bot, fake_telegram, people):
    fake = fake_telegram
    admin = people[0]
    await bot.send(admin, GROUP, "/forget")
    confirmation = fake.last_message(GROUP)
    answer = await bot.press(admin, confirmation, data=f"fg:{GROUP}")
    assert answer.text == t("ru", "forget.done_toast")
    assert confirmation.text == shown("forget.done", n=0) and not confirmation.keyboard
    before = len(fake.group_sends_and_edits(GROUP))
    for _ in range(12):
        answer = await bot.press_raw(admin, GROUP, confirmation.message_id, f"fg:{GROUP}")
        assert answer.text == confirmation.text
    assert len(fake.group_sends_and_edits(GROUP)) == before


async def test_a_reply_told_to_wait_goes_after_the_wait(bot, fake_telegram, people, caplog):
    """Each reply is one sendMessage; one met by a 429 is sent again once the wait is over."""
    fake = fake_telegram
    caplog.set_level(logging.WARNING)
    fake.fail_next("sendMessage", retry_after=RETRY_AFTER, chat_id=GROUP)
    (help_message,) = await together(bot, [(people[1], GROUP, "/help")])
    await bot.settle()
    sends = fake.calls("sendMessage", GROUP)
    assert [c.ok for c in sends] == [False, True]
    assert sends[1].t >= sends[0].t + RETRY_AFTER
    assert len(answers_to(fake, help_message)) == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_mytables_in_a_group_points_to_the_private_chat(bot, fake_telegram, people):
    fake = fake_telegram
    boris = people[1]
    await bot.send(boris, GROUP, "/mytables")
    answer = fake.last_message(GROUP)
    assert answer.text == shown("mytables.dm_only")
    (button,) = answer.keyboard[0]
    assert button["url"] == f"https://t.me/{fake.bot_username}?start=mytables"
    await bot.send(boris, boris, "/start mytables")  # what the link sends in the private chat
    assert fake.last_message(boris.id).text == shown("mytables.none")
