"""Ten people type commands in one group at the same moment while a table is open, and
Telegram's flood limit bites (20 messages a minute): every command gets exactly one answer
(a burst of the same /help by three people: one), late maybe but never lost; no chat is
called before the retry_after it was given; nothing is logged as ERROR."""

from __future__ import annotations

import logging

import pytest

from tests.crowd import crowd_fake_telegram, ErrorLog, Say, command_answers, crowd_problems, together
from tests.fakebot import FakeTelegram

GROUP = -1001
NAMES = ["Аня", "Борис", "Вера", "Гоша", "Даша", "Егор", "Жора", "Зина", "Игорь", "Катя"]

# said in the same 100 ms, one each (the first three: the same /help)
FIRST_WAVE = [
    "/help",
    "/help",
    "/help",
    "/rules durak",
    "/top",
    "/cancel",
    "/newgame",
    "/mytables",
    "/history",
    "/stats",
]
# then, 0.3 s apart, by others again, while Telegram makes the group wait 10 s
SECOND_WAVE = ["/rules king", "/language", "/sheets", "/score", "/export", "/durak", "/forget", "/cancel"]


fake_telegram = crowd_fake_telegram  # the fixture, under the name the harness asks for


@pytest.fixture
async def bot(fake_telegram, start_bot):
    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    return await start_bot()


async def test_ten_people_s_mixed_commands_are_each_answered_once(bot, fake_telegram):
    fake = fake_telegram
    people = [fake.user(i + 1, name) for i, name in enumerate(NAMES)]
    anya, boris = people[:2]
    await bot.send(anya, GROUP, "/durak")
    table = await bot.table(GROUP)
    await bot.press(boris, await bot.table_message(GROUP), "Сесть за стол")
    since = max(fake.msgs[GROUP])
    with ErrorLog() as errors:
        # Аня, the host, types no /cancel: the others' are refused, not carried out
        await together(bot, [Say(p, GROUP, text) for p, text in zip(people[1:] + people[:1], FIRST_WAVE)], settle=False)
        fake.fail_next("sendMessage", chat_id=GROUP, retry_after=10)
        for person, text in zip(people[2:], SECOND_WAVE):
            bot.clock.advance(0.3)
            await together(bot, [Say(person, GROUP, text)], settle=False)
        await bot.settle()
        for _ in range(3):  # whatever still waits for the group's budget goes out
            await bot.tick(60)
    asked = command_answers(fake, GROUP, since=since)
    assert [a.text for a in asked] == FIRST_WAVE[2:] + SECOND_WAVE
    wrong = [f"{a.text!r} ({len(a.commands)}× asked): {len(a.answers)} answers" for a in asked if len(a.answers) != 1]
    problems = wrong + crowd_problems(fake, errors)
    assert not problems, "\n".join(problems) + "\n" + fake.dump(GROUP)
    assert (await bot.table(GROUP)).id == table.id  # the table is still there


def test_the_harness_sees_early_calls_presses_not_answered_once_and_who_was_answered():
    """The checks above can fail: a write before the retry_after ran out is recorded (one
    after it is not), a press answered twice or never is listed, and replies are matched
    to the commands they quote, else to the oldest unanswered one."""
    now = [1000.0]
    fake = FakeTelegram(group_flood_limit=1, clock=lambda: now[0])
    fake.group(GROUP, "Кухня", admins=[1], supergroup=True)
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    helps = [fake.message_update(user, GROUP, "/help")[0] for user in (anya, boris)]
    top = fake.message_update(anya, GROUP, "/top")[0]
    assert (
        fake.handle(
            "sendMessage", {"chat_id": GROUP, "text": "top", "reply_parameters": {"message_id": top.message_id}}
        )[0]
        == 200
    )
    status, body = fake.handle("sendMessage", {"chat_id": GROUP, "text": "help"})
    assert status == 429 and not fake.flood_violations
    now[0] += 1
    fake.handle("sendMessage", {"chat_id": GROUP, "text": "help"})
    assert [call.t for call, _ in fake.flood_violations] == [1001.0]
    now[0] = fake.rest_until[GROUP]
    assert fake.handle("sendMessage", {"chat_id": GROUP, "text": "help"})[0] == 200
    assert len(fake.flood_violations) == 1
    asked = command_answers(fake, GROUP)
    assert [(a.commands, [m.text for m in a.answers]) for a in asked] == [(helps, ["help"]), ([top], ["top"])]

    message = fake.last_message(GROUP)
    queries = [fake.callback_update(anya, GROUP, message.message_id, "x")["callback_query"]["id"] for _ in range(3)]
    fake.handle("answerCallbackQuery", {"callback_query_id": queries[0]})
    for _ in range(2):
        fake.handle("answerCallbackQuery", {"callback_query_id": queries[1]})
    assert fake.unanswered_queries() == [queries[2]]
    assert fake.queries_answered_twice() == {queries[1]: 2}

    with ErrorLog() as errors:
        logging.getLogger("bot.sender").error("could not send")
        logging.getLogger("telegram.ext.Application").warning("a warning is no error")
        logging.getLogger("elsewhere").error("not the bot's")
    assert errors.lines() == ["bot.sender: could not send"]
