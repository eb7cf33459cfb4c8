"""The inbox: an update Telegram has been told we received is stored first, so a crash
cannot swallow a press, and an update id is handled once however often it arrives.

The polling loop (bot/polling.py) runs in-process against the emulator's Bot API over
HTTP (bot/emulator/http_api.py), which keeps an update until a getUpdates offset
acknowledges it, as Telegram does. A crash is a poller stopped at the worst moment and
a new bot started on the same database."""

from __future__ import annotations

import asyncio
import logging
import signal
import subprocess
import threading
import time

import pytest
from telegram.error import TimedOut
from telegram.request import BaseRequest

from bot import polling
from bot.app import build_application
from bot.config import Settings
from bot.emulator.telegram_fake import FakeRequest
from tests.e2e import open_table

GROUP = -1001


@pytest.fixture
async def bot(fake_telegram, start_bot):
    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    return await start_bot(transport="http")


class Polling:
    """``polling.poll`` and PTB's update processing for the bot, until the block ends
    (``process=False``: updates are queued but never processed, as in a crash)."""

    def __init__(self, bot, process: bool = True) -> None:
        self.bot, self.process = bot, process

    async def __aenter__(self) -> "Polling":
        if self.process:
            await self.bot.app.start()
        self.task = asyncio.create_task(polling.poll(self.bot.app, self.bot.app.bot_data["inbox"]))
        return self

    async def __aexit__(self, *exc) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)
        if self.process:
            await self.bot.app.update_queue.join()
            await self.bot.app.stop()


async def until(predicate, what: str, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


async def settled_until(bot, predicate, what: str, timeout: float = 60.0):
    """``until``, sending what the outbox holds meanwhile (a command's answer goes there)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await bot.settle()
        if value := predicate():
            return value
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


async def a_move(bot, table_id, people) -> tuple[dict, str]:
    """The update of the person to act pressing their first move button, and its query id."""
    for user in people:
        message = await bot.hand_message(table_id, user)
        data = next((d for _, d in bot.fake.buttons(message) if d and d.startswith("a:")), None)
        if data:
            update = bot.fake.callback_update(user, user.id, message.message_id, data)
            return update, update["callback_query"]["id"]
    raise AssertionError("nobody has a move button")


def answers_to(fake, qid: str) -> list:
    """Every answerCallbackQuery for the press, also refused ones (a second answer is)."""
    return [c for c in fake.calls("answerCallbackQuery") if c.params.get("callback_query_id") == qid]


async def durak(bot):
    anya, boris = bot.fake.user(1, "Аня"), bot.fake.user(2, "Борис")
    table = await open_table(bot, GROUP, anya, [boris])
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    return table.id, [anya, boris]


async def test_polling_acknowledges_an_update_only_after_it_is_stored(bot):
    api, repo = bot.http, bot.repo
    events: list[tuple[str, object]] = []  # in the order they happened (HTTP thread and bot)
    lock = threading.Lock()
    serve = api.call

    def call(method: str, params: dict):
        if method == "getUpdates":
            with lock:
                events.append(("ack below", int(params.get("offset") or 0)))
        return serve(method, params)

    store = repo.store_updates

    async def store_updates(rows):
        stored = await store(rows)
        with lock:
            events.extend(("stored", update_id) for update_id, _ in rows)
        return stored

    sent: list[int] = []
    put = api.put

    def put_update(update: dict) -> None:
        sent.append(update["update_id"])
        put(update)

    api.call, api.put, repo.store_updates = call, put_update, store_updates
    people = [bot.fake.user(n, name) for n, name in ((1, "Аня"), (2, "Борис"), (3, "Вера"))]
    async with Polling(bot):
        for user in people:
            await bot.fake.send(api.bot_stub, user, user, "/help")
            await asyncio.sleep(0.01)
        await settled_until(
            bot, lambda: len([m for u in people for m in bot.fake.messages(u.id)]) >= 3, "the three answers"
        )
        await until(lambda: not api.pending, "the updates to be acknowledged")
    with lock:
        seen = list(events)
    stored_at = {update_id: n for n, (kind, update_id) in enumerate(seen) if kind == "stored"}
    acks = [(n, offset) for n, (kind, offset) in enumerate(seen) if kind == "ack below"]
    assert set(sent) <= set(stored_at), seen
    for update_id in sent:
        first_ack = next(n for n, offset in acks if offset > update_id)
        assert stored_at[update_id] < first_ack, seen
    assert len(sent) == 3 and await repo.store_updates([(i, "{}") for i in sent]) == []


async def test_an_acknowledged_press_cut_short_by_a_crash_is_handled_after_the_restart_once(bot):
    table_id, people = await durak(bot)
    before = await bot.actions(table_id)
    update, qid = await a_move(bot, table_id, people)
    async with Polling(bot, process=False):  # the press is queued, never processed...
        bot.http.put(update)
        # ... and acknowledged: Telegram will not send it again
        await until(lambda: bot.http.polls and not bot.http.pending, "the press to be acknowledged")
    assert answers_to(bot.fake, qid) == [] and await bot.actions(table_id) == before
    await bot.restart()  # the crash
    async with Polling(bot):
        await until(lambda: answers_to(bot.fake, qid), "the press to be answered after the restart")
    await bot.settle()
    after = await bot.actions(table_id)
    assert len(after) > len(before), "the move was applied"
    answer = bot.fake.answers[qid]
    assert not answer.text and not answer.show_alert, answer  # answered as an accepted move
    # once: neither another restart nor Telegram sending the update again applies it again
    await bot.restart()
    async with Polling(bot):
        bot.http.put(update)
        await until(lambda: not bot.http.pending, "the re-sent press to be acknowledged")
    await bot.settle()
    assert await bot.actions(table_id) == after
    assert len(answers_to(bot.fake, qid)) == 1


async def test_a_stored_batch_that_telegram_sends_again_is_handled_once(bot, monkeypatch):
    table_id, people = await durak(bot)
    before = await bot.actions(table_id)
    update, qid = await a_move(bot, table_id, people)
    inbox = bot.app.bot_data["inbox"]
    stored = asyncio.Event()

    async def crash(updates):  # the process dies between storing and handing over
        if not updates:
            return
        stored.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(inbox, "hand_over", crash)
    async with Polling(bot):
        bot.http.put(update)
        await asyncio.wait_for(stored.wait(), 20)
    assert bot.http.pending, "not acknowledged: Telegram sends it again"
    await bot.restart()
    async with Polling(bot):
        await until(lambda: answers_to(bot.fake, qid), "the press to be answered after the restart")
        await until(lambda: not bot.http.pending, "the press to be acknowledged")
    await bot.settle()
    after = await bot.actions(table_id)
    assert len(after) > len(before), "the move was applied"
    assert len(answers_to(bot.fake, qid)) == 1
    answer = bot.fake.answers[qid]
    assert not answer.text and not answer.show_alert, answer


class FlakyUpdates(BaseRequest):
    """The emulator in-process, but getUpdates answers what a bad day brings: a proxy's
    502 page, a 409 conflict, a timeout, then an empty batch for ever after."""

    BAD_DAY = [
        (502, b"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"),
        (409, b'{"ok":false,"error_code":409,"description":"Conflict: terminated by other getUpdates request"}'),
        TimedOut("Timed out"),
        (200, b'{"ok":true,"result":[]}'),
    ]

    def __init__(self, fake) -> None:
        self.inner = FakeRequest(fake)
        self.script = list(self.BAD_DAY)
        self.polls = 0

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    @property
    def read_timeout(self):
        return None

    async def do_request(self, url, method, request_data=None, *args, **kwargs):
        if url.endswith("/getUpdates"):
            self.polls += 1
            await asyncio.sleep(0.01)
            outcome = self.script.pop(0) if len(self.script) > 1 else self.script[0]
            if isinstance(outcome, Exception):
                raise outcome
            return outcome
        return await self.inner.do_request(url, method, request_data, *args, **kwargs)


async def test_get_updates_failures_are_one_warning_each_without_traceback(
    fake_telegram, database, caplog, monkeypatch
):
    monkeypatch.setattr(polling, "BACKOFF_S", (0.01,))
    request = FlakyUpdates(fake_telegram)
    app = build_application(
        Settings(token=f"{fake_telegram.bot_id}:TEST", db_path=database), request=request, rate_limiter=False
    )
    caplog.set_level(logging.DEBUG)
    await app.initialize()
    await app.bot_data["runtime"].startup(background=False)
    try:
        task = asyncio.create_task(polling.poll(app, app.bot_data["inbox"]))
        await until(lambda: request.polls >= 6, "polling to go on after the failures")
        task.cancel()  # stopping while a poll waits: no log at all
        await asyncio.gather(task, return_exceptions=True)
    finally:
        await app.bot_data["runtime"].shutdown()
        await app.shutdown()
    warnings = [r for r in caplog.records if r.name == "bot.polling" and r.levelno == logging.WARNING]
    assert len(warnings) == 3, [r.getMessage() for r in warnings]
    assert "Bad Gateway" in warnings[0].getMessage() and "\n" not in warnings[0].getMessage()
    assert "another process is polling" in warnings[1].getMessage()
    assert "TimedOut" in warnings[2].getMessage()
    loud = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not loud, [(r.name, r.getMessage()[:200]) for r in loud]


def test_cardbot_run_stops_cleanly_while_telegram_hangs(tmp_path):
    """SIGTERM while getUpdates and the sender wait on a Telegram that never answers:
    a clean exit (status 0) within the stop deadline, one warning line at most, no traceback.

    Status 0 is the deadline's check: the stop's timer (STOP_DEADLINE, bot/app.py) ends a
    stop still running then with status 1 and its line. A stopwatch around the whole
    process cannot check it: after the stop, the interpreter's own teardown (about 1.4 s
    of CPU on a quiet machine, untimed by the bot) took 6-12 s beside 4 busy loops."""
    from tests.fakebot import FakeTelegram
    from tests.http_fake import HttpBotApi
    from tests.test_polling_smoke import start_bot

    fake = FakeTelegram()
    api = HttpBotApi(fake).start()
    process = start_bot(api, tmp_path / "bot.sqlite3")
    try:
        api.wait_for(lambda: api.polls > 0, what="the bot to poll")
        api.unreachable.set()
        api.wait_for(lambda: api.stuck > 0, what="a poll to be stuck")
        process.send_signal(signal.SIGTERM)
        try:  # bounded for a hung stop; generous: a loaded machine exits slowly
            output, _ = process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
    finally:
        if process.poll() is None:
            process.kill()
        api.stop()
        fake.close()
    assert process.returncode == 0, (process.returncode, output)  # not ended by the stop's timer
    assert "not stopped after" not in output, output
    assert "Traceback" not in output and "ERROR" not in output, output


async def test_webhook_stores_an_update_before_answering_and_drops_it_when_sent_again(
    fake_telegram, start_bot, monkeypatch
):
    """The 200 comes after the update is stored: a worker that dies right after it answered
    leaves the press to the inbox, and a worker's sweep handles it; a re-sent one is dropped."""
    import json
    import urllib.request

    from telegram.ext import Updater

    from bot import inbox as inbox_module
    from bot.app import install_update_claim
    from tests.test_webhook_workers import PUBLIC_URL, SECRET, free_port

    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    bot = await start_bot()
    table_id, people = await durak(bot)
    before = await bot.actions(table_id)
    update, qid = await a_move(bot, table_id, people)
    install_update_claim(bot.app)
    updater, port = Updater(bot.app.bot, bot.app.update_queue), free_port()

    def post() -> int:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/telegram",
            data=json.dumps(update).encode(),
            headers={"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": SECRET},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status

    async with updater:
        await updater.start_webhook(
            listen="127.0.0.1", port=port, url_path="telegram", secret_token=SECRET, webhook_url=PUBLIC_URL
        )
        assert await asyncio.to_thread(post) == 200
        assert await bot.repo.store_updates([(update["update_id"], "{}")]) == []  # stored already
        assert bot.app.update_queue.qsize() == 1
        assert await asyncio.to_thread(post) == 200  # Telegram sends it again: dropped
        assert bot.app.update_queue.qsize() == 1
        await updater.stop()
    assert answers_to(bot.fake, qid) == []
    await bot.restart()  # the worker died with the press in its queue
    # The sweep's clock (a fake one) stands LEASE_S past the dead worker's claim,
    # and stands still: the sweep takes the press once, and however long handling it takes
    # on a busy machine, its own claim never runs out (a real clock against a short lease
    # made the sweep take it again mid-handling: test_a_press_still_being_handled_when...)
    monkeypatch.setattr(inbox_module, "LEASE_S", 0.2)
    monkeypatch.setattr(inbox_module, "SWEEP_EVERY_S", 0.05)
    monkeypatch.setattr(inbox_module, "HEARTBEAT_S", 0.05)
    clock = SweepClock(time.time() + inbox_module.LEASE_S)
    monkeypatch.setattr(inbox_module, "time", clock)
    sweeps = count_calls(bot.repo, "take_unhandled_updates")
    await bot.app.start()
    sweep = asyncio.create_task(bot.app.bot_data["inbox"].sweep_forever())
    try:
        await until(lambda: answers_to(bot.fake, qid), "the press to be handled by the sweep")
        await bot.app.update_queue.join()
        clock.now += 3600  # an hour on: a sweep finds nothing more (it was marked handled)
        swept = sweeps.count
        await until(lambda: sweeps.count > swept + 1, "two more sweeps")
        await bot.app.update_queue.join()
    finally:
        sweep.cancel()
        await asyncio.gather(sweep, return_exceptions=True)
        await bot.app.update_queue.join()
        await bot.app.stop()
    await bot.settle()
    assert len(await bot.actions(table_id)) > len(before)
    assert len(answers_to(bot.fake, qid)) == 1
    assert not bot.fake.answers[qid].text


class SweepClock:
    """``time`` for bot/inbox.py: ``time()`` is ``now``, which moves only when told to."""

    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        return self.now


class count_calls:
    """Counts the calls of ``owner.name`` (an async method) from now on."""

    def __init__(self, owner, name: str) -> None:
        self.count = 0
        method = getattr(owner, name)

        async def counted(*args, **kwargs):
            self.count += 1
            return await method(*args, **kwargs)

        setattr(owner, name, counted)


async def test_a_press_still_being_handled_when_its_claim_runs_out_is_answered_once(
    fake_telegram, start_bot, monkeypatch
):
    """A webhook worker stores a press and starts handling it; the handler is still running
    (a slow database, a 429 flood wait, a long queue) when LEASE_S has passed since the
    claim, and the inbox's sweep runs (its heartbeat late: a stalled event loop). The press must be answered, and its move
    applied, once."""
    from bot import inbox as inbox_module
    from bot.app import install_update_claim

    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    bot = await start_bot()
    table_id, people = await durak(bot)
    before = await bot.actions(table_id)
    update, qid = await a_move(bot, table_id, people)
    install_update_claim(bot.app)
    inbox = bot.app.bot_data["inbox"]

    handling, go_on = asyncio.Event(), asyncio.Event()
    process_update = bot.app.process_update

    async def slow_first_handling(received):  # the first run of the press waits for go_on
        if received.update_id == update["update_id"] and not handling.is_set():
            handling.set()
            await go_on.wait()
        await process_update(received)

    monkeypatch.setattr(bot.app, "process_update", slow_first_handling)
    clock = SweepClock(time.time())
    monkeypatch.setattr(inbox_module, "time", clock)
    await bot.app.start()
    try:
        await inbox.hand_over(await inbox.store([update]))  # what the webhook's handler does
        await asyncio.wait_for(handling.wait(), 60)
        # the sweep (sweep_forever's body, its heartbeat missed) once LEASE_S has passed
        clock.now += inbox_module.LEASE_S + 1
        await inbox.take_over(inbox_module.time.time() - inbox_module.LEASE_S)
        await asyncio.sleep(0.5)  # a second handling, were there one, would answer meanwhile
        assert answers_to(bot.fake, qid) == [], "handed over again while its first run is on"
        go_on.set()
        await until(lambda: answers_to(bot.fake, qid), "the press to be answered", timeout=60)
        await bot.app.update_queue.join()
    finally:
        go_on.set()
        await bot.app.stop()
    await bot.settle()
    assert len(await bot.actions(table_id)) == len(before) + 1, "the move applied once"
    assert len(answers_to(bot.fake, qid)) == 1, [c.params for c in answers_to(bot.fake, qid)]
