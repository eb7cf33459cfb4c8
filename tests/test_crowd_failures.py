"""Telegram refusing or failing, as a busy group meets it: a post Telegram refuses
forever (a 413, a 400) is tried a few times and given up with one warning line, also
across a restart, and never holds up the rest of its chat; a refused sheet picture goes
out as its text; a proxy's HTML 502 page and a 429 are one warning line each, with no
ERROR and no traceback (PTB's own records of them included); a stop while a computer
thinks in the process pool logs no ERROR."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal

import pytest

from telegram import Bot
from telegram.error import TelegramError

from bot import thinking
from bot.telegram_errors import is_telegram_failure, refused, short
from bot.sender import REFUSED_RETRY, REFUSED_TRIES
from bot.thinking import Thinker
from engine.base import get_game
from storage.models import OutboxItem
from tests.e2e import open_table
from tests.fakebot import FakeRequest
from tests.test_e2e_sheet_pictures import enter_hand, photos, score_table
from tests.test_faults import play

GROUP = -1001
HTML_502 = b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.18.0</center>\r\n</body>\r\n</html>\r\n"
REFUSALS = {
    "413": {"error_code": 413, "description": "Request Entity Too Large"},  # PTB: a plain NetworkError
    "400": {"error_code": 400, "description": "Bad Request: wrong file identifier/HTTP URL specified"},
}


@pytest.fixture
def log(caplog):
    caplog.set_level(logging.INFO)
    return caplog


def problems(caplog) -> list[logging.LogRecord]:
    """What must never be logged for a failure the bot handles: an ERROR, a traceback."""
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info or r.exc_text]


def warnings(caplog, words: str = "") -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING and words in r.getMessage()]


def is_sheet(params: dict) -> bool:
    return "окончена" in str(params.get("text", ""))


def sheet_tries(fake) -> list:
    return [c for c in fake.calls("sendMessage", chat_id=GROUP) if is_sheet(c.params)]


async def finish_a_game(bot, fake):
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    table = await open_table(bot, GROUP, anya, [boris])
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    await play(bot, table.id, [anya, boris], [])
    return table, anya


# ---------------------------------------------------------------------- what a failure means
@pytest.mark.parametrize(
    "failure,is_refusal",
    [
        ({"error_code": 400, "description": "Bad Request: chat not found"}, True),  # BadRequest
        ({"error_code": 401, "description": "Unauthorized"}, True),  # InvalidToken
        ({"error_code": 404, "description": "Not Found"}, True),  # InvalidToken
        ({"error_code": 409, "description": "Conflict: terminated by other getUpdates request"}, True),
        ({"error_code": 413, "description": "Request Entity Too Large"}, True),  # a plain NetworkError
        ({"error_code": 414}, True),
        ({"error_code": 422}, True),
        ({"error_code": 413, "body": b"<html><title>413 Request Entity Too Large</title></html>"}, True),
        ({"retry_after": 3}, False),  # RetryAfter: a flood wait
        ({"error_code": 500, "description": "Internal Server Error"}, False),
        ({"error_code": 502, "description": "Bad Gateway"}, False),
        ({"error_code": 503}, False),
        ({"error_code": 502, "body": HTML_502}, False),
        ({"error_code": 200, "body": HTML_502}, False),  # "Invalid server response"
        ({"timeout": True}, False),  # TimedOut
    ],
)
async def test_what_ptb_raises_is_a_refusal_or_a_failure(fake_telegram, failure, is_refusal):
    """Through PTB's own request code (telegram/request/_baserequest.py), as the bot sees it."""
    fake = fake_telegram
    fake.user(1, "Аня")
    fake.start_dm(1)
    bot = Bot(f"{fake.bot_id}:TEST", request=FakeRequest(fake))
    async with bot:
        fake.fail_next("sendMessage", **failure)
        with pytest.raises(TelegramError) as raised:
            await bot.send_message(1, "hello")
    assert refused(raised.value) is is_refusal, repr(raised.value)
    assert is_telegram_failure(raised.value) is not is_refusal
    assert "\n" not in short(raised.value) and len(short(raised.value)) <= 200


# ---------------------------------------------------------------------- refused posts
@pytest.mark.parametrize("refusal", REFUSALS)
async def test_a_post_refused_forever_is_given_up_with_one_warning(bot, fake_telegram, log, refusal):
    """The result sheet Telegram will not take: tried REFUSED_TRIES times, backing off,
    then given up with one warning line; the group goes on with a new table."""
    fake = fake_telegram
    fake.fail_next("sendMessage", chat_id=GROUP, times=10**6, matching=is_sheet, **REFUSALS[refusal])
    table, anya = await finish_a_game(bot, fake)
    tries = sheet_tries(fake)
    assert len(tries) == REFUSED_TRIES and not any(c.ok for c in tries), [c.error for c in tries]
    gaps = [b.t - a.t for a, b in zip(tries, tries[1:])]
    assert gaps[0] >= REFUSED_RETRY * 0.99 and gaps[1] >= gaps[0] * 3.9, gaps  # backing off
    assert await bot.repo.pending_outbox() == []
    assert len(warnings(log, "given up")) == 1, warnings(log)
    assert f"table {table.id}" in warnings(log, "given up")[0]
    assert not problems(log), [r.getMessage() for r in problems(log)]
    await bot.send(anya, GROUP, "/cancel")
    await bot.send(anya, GROUP, "/durak")
    assert (await bot.table(GROUP)).status == "lobby"
    await bot.tick(3600)  # given up for good
    assert len(sheet_tries(fake)) == REFUSED_TRIES


async def queue_a_refused_sheet(bot, fake, table_id: int) -> None:
    """A sheet the service queued, which Telegram refuses whenever it is sent; one try."""
    fake.fail_next("sendMessage", chat_id=GROUP, times=10**6, matching=is_sheet, **REFUSALS["413"])
    await bot.repo.enqueue([OutboxItem("post", GROUP, table_id, payload={"text": "Партия окончена"})])
    bot.clock.advance(60)  # past the group's budget
    await bot.runtime.sender.drain()
    assert len(sheet_tries(fake)) == 1


async def test_a_refused_post_holds_up_nothing_behind_it(bot, fake_telegram, log):
    """While the refused sheet waits for its next try, the chat's later rows go: a new
    table's message after /cancel and /durak."""
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    table = await open_table(bot, GROUP, anya, [boris])
    await queue_a_refused_sheet(bot, fake, table.id)
    await fake.send(bot.app, anya, GROUP, "/cancel")  # no settling: the sender alone, step by step
    await fake.send(bot.app, anya, GROUP, "/durak")
    lobby = await bot.table(GROUP)
    assert lobby.id != table.id and lobby.status == "lobby"
    for _ in range(10):
        wait = await bot.runtime.sender.drain()
        if (await bot.table(GROUP)).group_message_id or wait is None:
            break
        bot.clock.advance(wait)
    assert "Дурак" in (await bot.table_message(GROUP)).text
    assert len(sheet_tries(fake)) == 1  # the sheet still waits for its next try
    await bot.settle()
    assert len(sheet_tries(fake)) == REFUSED_TRIES
    assert len(warnings(log, "given up")) == 1, warnings(log)
    assert not problems(log), [r.getMessage() for r in problems(log)]


async def test_the_tries_are_counted_across_a_restart(bot, fake_telegram, log):
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    table = await open_table(bot, GROUP, anya, [boris])
    await queue_a_refused_sheet(bot, fake, table.id)
    (row,) = await bot.repo.pending_outbox()
    assert row.attempts == 1
    await bot.restart()
    assert len(sheet_tries(fake)) == REFUSED_TRIES  # not REFUSED_TRIES more
    assert await bot.repo.pending_outbox() == []
    assert len(warnings(log, "given up")) == 1, warnings(log)
    assert not problems(log), [r.getMessage() for r in problems(log)]


@pytest.mark.parametrize("refusal", REFUSALS)
async def test_a_refused_picture_goes_out_as_its_text(bot, fake_telegram, log, refusal):
    fake = fake_telegram
    anya = fake.user(1, "Аня", language_code="ru")
    await bot.send(anya, GROUP, "/sheets picture")
    await score_table(bot, fake)
    fake.fail_next("sendPhoto", chat_id=GROUP, times=10**6, **REFUSALS[refusal])
    await enter_hand(bot, anya, "Вера")
    assert photos(fake) == []
    sheet = await bot.last_post(GROUP)
    assert "Вера: 5 ♣ — без розыгрыша" in sheet.text and "Юха на 1" in sheet.text, fake.dump(GROUP)
    assert len(fake.calls("sendPhoto", chat_id=GROUP)) == 1  # the text at once, no more tries
    assert len(warnings(log, "picture")) == 1 and len(warnings(log)) == 1, warnings(log)
    assert not problems(log), [r.getMessage() for r in problems(log)]


# ---------------------------------------------------------------------- Telegram failing
@pytest.mark.parametrize("status", [502, 200])
async def test_an_html_page_instead_of_json_is_one_warning(bot, fake_telegram, log, status):
    """A proxy's page (a 502, or even a 200) in place of Telegram's answer: PTB logs the
    JSON parser's traceback as an ERROR and raises; the bot logs one line and sends again."""
    fake = fake_telegram
    anya = fake.user(1, "Аня")
    fake.fail_next("sendMessage", chat_id=GROUP, error_code=status, body=HTML_502)
    await bot.send(anya, GROUP, "/durak")  # the table message: the sender
    assert (await bot.table_message(GROUP)).text
    fake.fail_next("sendMessage", chat_id=anya.id, error_code=status, body=HTML_502)
    await bot.send(anya, anya, "/help")  # a reply
    assert len([c for c in fake.log if not c.ok]) == 2
    lines = warnings(log)
    assert len(lines) == 2 and all(len(line) < 400 for line in lines), lines
    assert not problems(log), [f"{r.name}: {r.getMessage()}" for r in problems(log)]


@pytest.fixture
async def limited_bot(fake_telegram, start_bot):
    """The bot with PTB's rate limiter, as it runs in production."""
    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    return await start_bot(rate_limiter=True)


async def test_a_flood_wait_is_one_warning(limited_bot, fake_telegram, log):
    """A 429 past PTB's rate limiter, which logs it with a traceback before raising it."""
    bot, fake = limited_bot, fake_telegram
    anya = fake.user(1, "Аня")
    fake.fail_next("sendMessage", chat_id=GROUP, retry_after=5)
    await bot.send(anya, GROUP, "/durak")
    assert (await bot.table_message(GROUP)).text
    fake.fail_next("sendMessage", chat_id=anya.id, retry_after=5)
    await bot.send(anya, anya, "/help")  # a reply
    assert len(warnings(log)) == 2, warnings(log)
    assert not problems(log), [f"{r.name}: {r.getMessage()}" for r in problems(log)]


async def test_a_bug_still_is_an_error_with_its_traceback(bot, fake_telegram, log, monkeypatch):
    """The filters keep real errors: an exception in the bot's own code while sending."""
    fake = fake_telegram
    anya = fake.user(1, "Аня")

    async def broken(*args, **kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr(bot.runtime.sender.delivery, "_refresh_group", broken)
    await bot.send(anya, GROUP, "/durak")
    assert [r for r in problems(log) if r.levelno >= logging.ERROR and r.exc_info], log.text


# ---------------------------------------------------------------------- stopping
def pool_workers(thinker: Thinker) -> list[int]:
    pool = thinker._pool
    return [p.pid for p in getattr(pool, "_processes", {}).values() if p.pid]


def a_decision() -> tuple:
    """(view, legal, seed, level) of a durak seat with a choice to make."""
    game = get_game("durak")
    options = game.Options()
    state, _ = game.apply(game.initial_state(options, 3), None, game.new_deal(options, 3, random.Random(3), []))
    seat = game.to_act(state)[0]
    return game.view(state, seat), game.legal_actions(state, seat), 1, "strong"


async def thinking_in_a_worker(thinker: Thinker) -> asyncio.Task:
    """A decision submitted to the process pool; returns once its worker runs."""
    task = asyncio.create_task(thinker.decide("durak", *a_decision()))
    for _ in range(200):
        await asyncio.sleep(0.01)
        if pool_workers(thinker):
            return task
    raise AssertionError("no worker started")


async def test_a_stop_while_a_computer_thinks_logs_no_error(log):
    """A stop signals the workers too (systemd's stop, every process of the service; a
    Ctrl-C, the terminal's process group): their decision in flight is cancelled quietly."""
    thinker = Thinker(workers=1)
    try:
        task = await thinking_in_a_worker(thinker)
        thinker.stop()  # the bot's signal handler
        for pid in pool_workers(thinker):
            os.kill(pid, signal.SIGTERM)
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 60)
    finally:
        thinker.close()
    assert not problems(log), [f"{r.name}: {r.getMessage()}" for r in problems(log)]


@pytest.mark.parametrize("stopping", [False, True])
async def test_a_worker_that_died_between_two_decisions(log, monkeypatch, stopping):
    """The pool is broken before the next decision is even submitted."""
    monkeypatch.setattr(thinking, "STOP_GRACE", 0.05)
    thinker = Thinker(workers=1)
    try:
        assert await asyncio.wait_for(await thinking_in_a_worker(thinker), 60)
        (pid,) = pool_workers(thinker)
        os.kill(pid, signal.SIGTERM)
        for _ in range(500):  # until the pool has noticed
            await asyncio.sleep(0.01)
            if getattr(thinker._pool, "_broken", False):
                break
        if stopping:
            thinker.stop()
            with pytest.raises(asyncio.CancelledError):
                await asyncio.wait_for(asyncio.ensure_future(thinker.decide("durak", *a_decision())), 30)
        else:
            task = asyncio.ensure_future(thinker.decide("durak", *a_decision()))
            assert await asyncio.wait_for(task, 60)  # the easy player's move
            assert len(warnings(log, "worker died")) == 1, warnings(log)
            assert await asyncio.wait_for(await thinking_in_a_worker(thinker), 60)  # a new pool
    finally:
        thinker.close()
    assert not problems(log), [f"{r.name}: {r.getMessage()}" for r in problems(log)]


async def test_a_worker_that_dies_unasked_is_one_warning_and_the_easy_player_moves(log, monkeypatch):
    monkeypatch.setattr(thinking, "STOP_GRACE", 0.05)
    thinker = Thinker(workers=1)
    try:
        task = await thinking_in_a_worker(thinker)
        for pid in pool_workers(thinker):
            os.kill(pid, signal.SIGKILL)  # the system's out-of-memory killer
        assert await asyncio.wait_for(task, 60)  # a move all the same
        assert len(warnings(log, "worker died")) == 1, warnings(log)
        assert not problems(log), [f"{r.name}: {r.getMessage()}" for r in problems(log)]
        again = await thinking_in_a_worker(thinker)  # a new pool thinks the next time
        assert await asyncio.wait_for(again, 60)
    finally:
        thinker.close()
