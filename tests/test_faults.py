"""Injected faults through whole games: the fake Bot API answers 5xx, times
out, says 403 for a player who blocked the bot, or "message to edit not found" after a
person deleted their hand message or the group's table message.

For each: the game goes on to its end, every press is applied once or refused with a
toast (none lost, none doubled), nothing the bot posts appears twice, the failed message
is sent again (a deleted one anew), retries are paced (never the same chat again within
a second of a failure, backing off while it keeps failing), and each fault is one
warning line in the log, not an error with a traceback.

The one window where a post goes out twice -- Telegram carried it out but the bot never
learned so (a lost answer, a kill before the write that records it) -- is shown on
purpose, with the duplicate counter the chaos suite uses (``FakeTelegram.twins``) seeing it.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass

import pytest

from bot.screens import move_key
from engine.base import get_game
from tests.e2e import HUMAN_PACE, BotUnderTest, FakeClock, open_table, any_move
from tests.fakebot import CallbackAnswer, FakeTelegram, FakeUser

GROUP = -1001
ANSWER = "answerCallbackQuery"  # a toast: Telegram does not count it against chat limits


@pytest.fixture
async def bot(fake_telegram, database):
    clock = FakeClock()
    fake_telegram.clock = clock
    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    running = await BotUnderTest(fake_telegram, database, clock).start()
    yield running
    await running.stop()


@pytest.fixture
def warnings(caplog):
    caplog.set_level(logging.INFO)
    return caplog


@dataclass
class Press:
    user_id: int
    key: str
    answer: CallbackAnswer | None  # None: the answer itself was lost to a fault

    @property
    def refused(self) -> bool:
        return bool(self.answer and self.answer.text)


async def start(bot: BotUnderTest, fake: FakeTelegram, computers: int = 0):
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    table = await open_table(bot, GROUP, anya, [boris], computers=computers)
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    return table.id, [anya, boris]


async def play(
    bot: BotUnderTest, table_id: int, users: list[FakeUser], presses: list[Press], until=None, seed: int = 1
) -> None:
    """Like ``BotUnderTest.play``, keeping every press and its answer (or its absence)."""
    rng, by_id = random.Random(seed), {u.id: u for u in users}
    for _ in range(400):
        table, state = await bot.state(table_id)
        if table.status != "playing" or (until and await until()):
            return
        seats = sorted(await bot.repo.get_seats(table_id), key=lambda s: s.seat)
        actor = seats[get_game(table.game).to_act(state)[0]]
        assert not actor.is_computer, "the computers should have answered already"
        user = by_id[actor.user_id]
        hand = await bot.hand_message(table_id, user)
        buttons = [(text, data) for text, data in bot.fake.buttons(hand) if data]
        assert buttons, f"{user.first_name} must act but has no buttons: {hand.text}"
        data = any_move(user, buttons, rng)
        answer = await bot.fake.press(bot.app, user, hand, callback_data=data)
        presses.append(Press(user.id, data.rsplit(":", 1)[1], answer))
        bot.clock.advance(HUMAN_PACE)
        await bot.service.timers.fire()
        await bot.settle()
    raise AssertionError("the game did not end")


def turn_of(bot: BotUnderTest, table_id: int, user: FakeUser):
    async def check() -> bool:
        table, state = await bot.state(table_id)
        seats = sorted(await bot.repo.get_seats(table_id), key=lambda s: s.seat)
        return any(seats[s].user_id == user.id for s in get_game(table.game).to_act(state))

    return check


async def assert_game_over_nothing_lost(bot: BotUnderTest, table_id: int, presses: list[Press]) -> None:
    """Over, every press applied once or refused with a toast."""
    table, state = await bot.state(table_id)
    assert table.status == "between" and get_game(table.game).is_over(state)
    seats = {s.seat: s for s in await bot.repo.get_seats(table_id)}
    logged = [
        (seats[r.seat].user_id, move_key(r.action))
        for r in await bot.repo.load_actions(table_id)
        if r.seat is not None and not seats[r.seat].is_computer
    ]
    assert logged == [(p.user_id, p.key) for p in presses if not p.refused]


async def assert_game_whole(bot: BotUnderTest, table_id: int, presses: list[Press]) -> None:
    """Over, nothing lost or doubled, the result posted once, no message twice."""
    await assert_game_over_nothing_lost(bot, table_id, presses)
    sheets = [m for m in bot.fake.messages(GROUP) if "окончена" in m.text]
    assert len(sheets) == 1, bot.fake.dump(GROUP)
    assert not bot.fake.twins(GROUP), bot.fake.dump(GROUP)


def assert_paced(fake: FakeTelegram, chat_id: int, gap: float = 1.0) -> None:
    """No call to a chat within ``gap`` seconds after a call to it failed."""
    calls = [c for c in fake.log if c.chat_id == chat_id and c.method != ANSWER]
    for failed in (c for c in calls if not c.ok):
        too_soon = [c for c in calls if failed.t < c.t < failed.t + gap]
        assert not too_soon, [(round(c.t - failed.t, 3), c.method) for c in too_soon]


def assert_one_line_each(caplog, faults: int, gone: int = 0) -> None:
    """Each fault is one warning line (a message deleted by a person, one info line):
    no errors, no tracebacks."""
    records = [r for r in caplog.records if r.levelno >= logging.WARNING or "is gone" in r.getMessage()]
    shown = "\n".join(f"{r.levelname} {r.getMessage()}" for r in records)
    assert not [r for r in records if r.levelno >= logging.ERROR or r.exc_info], shown
    assert all("\n" not in r.getMessage() for r in records), shown
    assert len([r for r in records if r.levelno >= logging.WARNING]) == faults, shown
    assert len([r for r in records if r.levelno == logging.INFO]) == gone, shown


# ---------------------------------------------------------------------- Telegram's errors
@pytest.mark.parametrize("fault", ["502", "500", "timeout"])
async def test_server_errors_and_timeouts_delay_but_lose_nothing(bot, fake_telegram, warnings, fault):
    """Telegram fails the hand edits, the result sheet and the press answers for a while
    (two people and a computer, so a lost press answer must not hold the computer up)."""
    fake = fake_telegram
    table_id, (anya, boris) = await start(bot, fake, computers=1)
    kind = {
        "timeout": {"timeout": True},
        "502": {"error_code": 502, "description": "Bad Gateway"},
        "500": {"error_code": 500, "description": "Internal Server Error"},
    }[fault]
    fake.fail_next("editMessageText", chat_id=boris.id, times=3, **kind)
    fake.fail_next("sendMessage", chat_id=GROUP, times=2, **kind)  # the table exists: the sheet
    fake.fail_next(ANSWER, times=6, **kind)
    presses: list[Press] = []
    await play(bot, table_id, [anya, boris], presses)
    await assert_game_whole(bot, table_id, presses)
    assert not any(f["method"] != ANSWER for f in fake._failures), "the faults were not all reached"
    for chat in (GROUP, anya.id, boris.id):
        assert_paced(fake, chat)
    to_boris = [c for c in fake.log if c.chat_id == boris.id and c.method != ANSWER]
    assert to_boris[-1].ok  # his hand caught up once Telegram answered
    assert_one_line_each(warnings, faults=3 + 2 + 6 - sum(f["times"] for f in fake._failures))


async def test_a_chat_that_keeps_failing_is_retried_less_and_less_often(bot, fake_telegram, warnings):
    fake = fake_telegram
    table_id, (anya, boris) = await start(bot, fake)
    presses: list[Press] = []
    await play(bot, table_id, [anya, boris], presses, until=turn_of(bot, table_id, anya))
    fake.fail_next("editMessageText", chat_id=boris.id, times=12, error_code=502, description="Bad Gateway")
    await play(bot, table_id, [anya, boris], presses, until=turn_of(bot, table_id, boris))
    attempts = [c for c in fake.log if c.chat_id == boris.id and not c.ok]
    assert len(attempts) == 12, [c.method for c in attempts]
    gaps = [b.t - a.t for a, b in zip(attempts, attempts[1:])]
    assert all(later >= earlier * 0.99 for earlier, later in zip(gaps, gaps[1:])), gaps  # backing off
    assert gaps[0] >= 1.0 and max(gaps) <= 61, gaps  # never tight, never given up for long
    first_two_minutes = [c for c in attempts if c.t < attempts[0].t + 120]
    assert len(first_two_minutes) <= 7, gaps
    hand = await bot.hand_message(table_id, boris)  # once Telegram answers, the hand is right
    assert fake.buttons(hand), hand.text
    await play(bot, table_id, [anya, boris], presses)
    await assert_game_whole(bot, table_id, presses)
    assert_one_line_each(warnings, faults=12)


async def test_a_timeout_after_telegram_posted_the_sheet_posts_it_again(bot, fake_telegram, warnings):
    """The one fault that doubles a post: Telegram carried the call out but its answer
    never came. The bot cannot tell this from a call that never arrived, and a result
    sheet lost is worse than one shown twice, so it is sent again -- and counted."""
    fake = fake_telegram
    table_id, (anya, boris) = await start(bot, fake)
    fake.fail_next("sendMessage", chat_id=GROUP, timeout=True, delivered=True)
    presses: list[Press] = []
    await play(bot, table_id, [anya, boris], presses)
    await assert_game_over_nothing_lost(bot, table_id, presses)
    sheets = [m for m in fake.messages(GROUP) if "окончена" in m.text]
    assert len(sheets) == 2 and list(fake.twins(GROUP).values()) == [1], fake.dump(GROUP)
    assert_one_line_each(warnings, faults=1)


async def test_a_failed_reply_to_a_command_is_one_line(bot, fake_telegram, warnings):
    fake = fake_telegram
    anya = fake.user(1, "Аня")
    fake.fail_next("sendMessage", chat_id=GROUP, error_code=502, description="Bad Gateway")
    fake.fail_next("sendMessage", chat_id=anya.id, timeout=True)
    await bot.send(anya, GROUP, "/help")
    await bot.send(anya, anya, "/start")
    assert_one_line_each(warnings, faults=2)
    await bot.tick(6)  # the same commands a little later are answered
    await bot.send(anya, GROUP, "/help")
    await bot.send(anya, anya, "/start")
    assert fake.messages(GROUP) and fake.messages(anya.id)


# ---------------------------------------------------------------------- people
async def test_a_player_who_blocks_the_bot_mid_game_can_come_back(bot, fake_telegram, warnings):
    fake = fake_telegram
    table_id, (anya, boris) = await start(bot, fake)
    presses: list[Press] = []
    await play(bot, table_id, [anya, boris], presses, until=turn_of(bot, table_id, anya))
    old_hand = await bot.hand_message(table_id, boris)
    fake.block(boris)
    await play(bot, table_id, [anya, boris], presses, until=turn_of(bot, table_id, boris))
    refused = [c for c in fake.log if c.chat_id == boris.id and not c.ok]
    assert refused and all("blocked" in c.error for c in refused)
    assert all(str(boris.id) in r.getMessage() for r in warnings.records), warnings.text
    assert_one_line_each(warnings, faults=len(refused))
    assert not (await bot.repo.get_user(boris.id)).dm_open
    # Boris unblocks the bot and says /start: a new hand message with his buttons
    fake.blocked.discard(boris.id)
    await bot.send(boris, boris, "/start")
    hand = await bot.hand_message(table_id, boris)
    assert hand.message_id != old_hand.message_id and fake.buttons(hand)
    await play(bot, table_id, [anya, boris], presses)
    await assert_game_whole(bot, table_id, presses)
    assert not [c for c in fake.log if c.chat_id == boris.id and not c.ok and c.t > refused[-1].t]


async def test_a_deleted_hand_message_is_sent_anew(bot, fake_telegram, warnings):
    fake = fake_telegram
    table_id, (anya, boris) = await start(bot, fake)
    presses: list[Press] = []
    await play(bot, table_id, [anya, boris], presses, until=turn_of(bot, table_id, anya))
    deleted = await bot.hand_message(table_id, boris)
    fake.delete_by_user(boris.id, deleted.message_id)  # while Anya is to act
    await play(bot, table_id, [anya, boris], presses, until=turn_of(bot, table_id, boris))
    hand = await bot.hand_message(table_id, boris)
    assert hand.message_id != deleted.message_id and fake.buttons(hand)
    # deleted on his own turn, nothing would redraw it (Telegram tells bots nothing of
    # deletions): /start in the DM brings it back
    fake.delete_by_user(boris.id, hand.message_id)
    await bot.send(boris, boris, "/start")
    again = await bot.hand_message(table_id, boris)
    assert again.message_id != hand.message_id and fake.buttons(again)
    await play(bot, table_id, [anya, boris], presses)
    await assert_game_whole(bot, table_id, presses)
    hands = [m for m in fake.messages(boris.id) if m.text.startswith(hand.text.split("\n", 1)[0])]
    assert hands == [await bot.hand_message(table_id, boris)], fake.dump(boris.id)
    assert_one_line_each(warnings, faults=0, gone=1)


async def test_a_deleted_table_message_is_posted_again_in_the_group(bot, fake_telegram, warnings):
    fake = fake_telegram
    table_id, (anya, boris) = await start(bot, fake)
    presses: list[Press] = []
    await play(bot, table_id, [anya, boris], presses, until=lambda: _after(presses, 6))
    deleted = await bot.table_message(GROUP)
    fake.delete_by_user(GROUP, deleted.message_id)  # an admin tidies the group up
    await play(bot, table_id, [anya, boris], presses, until=lambda: _after(presses, 10))
    table = await bot.repo.get_table(table_id)
    assert table.group_message_id not in (None, deleted.message_id)
    await play(bot, table_id, [anya, boris], presses)
    await assert_game_whole(bot, table_id, presses)
    assert_one_line_each(warnings, faults=0, gone=1)


async def _after(presses: list[Press], n: int) -> bool:
    return len(presses) >= n


# ---------------------------------------------------------------------- a kill mid-post
class ProcessKilled(BaseException):
    """SIGKILL at one exact point of the sender (tests/test_chaos.py kills for real): a
    BaseException, as no `except Exception` may take it for an ordinary failure."""


@pytest.mark.parametrize("killed", ["after Telegram's answer", "before the call"])
async def test_a_kill_mid_post_and_the_duplicate_counter(bot, fake_telegram, killed):
    """The result sheet's post is interrupted by a kill, and a new process takes over the
    same database. Killed before the call, the sheet goes out once. Killed between
    Telegram's answer and the outbox write -- the window no bot can close, Telegram
    knowing no idempotency key -- it goes out twice, and the duplicate counter the chaos
    suite uses (FakeTelegram.twins) sees it."""
    fake = fake_telegram
    table_id, (anya, boris) = await start(bot, fake)
    sender, repo = bot.runtime.sender, bot.repo
    sheet_rows: list[int] = []
    real_post, real_mark_done = sender.delivery._post, repo.mark_done

    async def post(table, seats, item):
        if killed == "before the call":
            raise ProcessKilled
        sent = await real_post(table, seats, item)
        sheet_rows.append(item.id)
        return sent

    async def mark_done(ids):
        if set(ids) & set(sheet_rows):
            raise ProcessKilled
        await real_mark_done(ids)

    sender.delivery._post, repo.mark_done = post, mark_done
    presses: list[Press] = []
    with pytest.raises(ProcessKilled):
        await play(bot, table_id, [anya, boris], presses)
    await bot.restart()
    await assert_game_over_nothing_lost(bot, table_id, presses)
    sheets = [m for m in fake.messages(GROUP) if "окончена" in m.text]
    heading = sheets[0].history[0].text.split("\n", 1)[0]
    if killed == "before the call":
        assert len(sheets) == 1 and not fake.twins(GROUP), fake.dump(GROUP)
    else:
        assert len(sheets) == 2 and fake.twins(GROUP) == {heading: 1}, fake.dump(GROUP)
